"""``mpcalc sweep``'s evaluation: one request over a range of one parameter, a row per value and flag
combination, through :func:`mpcalc.service.request.evaluate` like every other front end."""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from typing import Any, NamedTuple

from mpcalc.dpdk.core.platform import describe, platform_from
from mpcalc.dpdk.core.records import kind_flags_label
from mpcalc.service.request import Request, footprints

#: most points a sweep may have (before multiplying by the flag combinations)
MAX_STEPS = 100_000
#: what --plot can draw: the bytes per object the object holds (the default where it holds objects), the same
#: less the element's own size (pools), or a column
METRICS = ("per_object", "overhead", "total_bytes", "heap_bytes", "hugepages", "object_size")
COLUMNS = ("flags", "ok", "object_size", "total_bytes", "heap_bytes", "hugepages", "errors")
#: one row: COLUMNS' values
Row = tuple[str, bool, "int | None", int, int, "int | None", str]


def points(lo: int, hi: int, steps: int, log: bool) -> list[int]:
    """``steps`` integers from ``lo`` to ``hi`` (both included), evenly or geometrically spaced; duplicates
    (a range narrower than the steps) are dropped.

    >>> points(0, 100, 5, False), points(1, 10000, 5, True), points(1, 3, 10, False)
    ([0, 25, 50, 75, 100], [1, 10, 100, 1000, 10000], [1, 2, 3])
    """
    if steps == 1 or lo == hi:
        return [lo] if lo == hi or steps == 1 else [lo, hi]
    n = steps - 1
    if log:
        ratio = math.log(hi / lo)
        values = [lo] + [min(hi, max(lo, round(lo * math.exp(ratio * i / n)))) for i in range(1, n)] + [hi]
    else:
        span = hi - lo
        values = [lo + (span * i + n // 2) // n for i in range(steps)]
    return sorted(set(values))


class Point(NamedTuple):
    """One swept value: the platform it was sized on, the object's inputs as sized, and a row per flag combination."""

    value: int
    platform: dict[str, object]
    inputs: Mapping[str, Any]
    rows: list[Row]


def rows(request: Request, key: str, values: list[int]) -> Iterator[Point]:
    """Per value: the value, the report's platform, the inputs, and each flag combination's row."""
    on_platform = key not in request.args
    for value in values:
        if on_platform:
            varied = request._replace(platform={**request.platform, key: value})
        else:
            varied = request._replace(args={**request.args, key: value})
        answer = footprints(varied)
        out: list[Row] = [
            (
                kind_flags_label(answer.command, flags),
                not fp.errors,
                fp.object_size,
                fp.total_bytes,
                fp.heap_bytes,
                fp.hugepages,
                "|".join(e.errno or "hazard" for e in fp.errors),
            )
            for flags, fp in answer.results
        ]
        yield Point(value, describe(platform_from(varied.platform)), answer.inputs, out)


def metric_value(metric: str, row: Row, inputs: Mapping[str, Any], per: tuple[str, str] | None) -> float | None:
    """What --plot draws for one row: a column, or the bytes per object the object holds (``per_object``),
    or those less the element's own size (``overhead``, for a pool).  None for a row DPDK rejects."""
    if not row[1]:
        return None
    if metric in ("per_object", "overhead"):
        assert per is not None
        held = inputs[per[0]]
        if not held or held < 0:
            return None
        value = row[3] / held
        return value - inputs["elt_size"] if metric == "overhead" else value
    y = dict(zip(COLUMNS, row, strict=True))[metric]
    return None if y is None else float(y)
