"""CSV/TSV in long form: one number a row, the same numbers as the JSON.

Columns: ``result`` (the flag combination), ``mempool``, ``section``, ``name``, ``value``.  Sections:
``object`` (a mempool's object layout), ``memzone``, ``allocation``, ``total``, ``fit`` (--fit's answer),
``detail`` (the result's details: a RIB's max_nodes, a FIB's tbl8_needed, an mbuf pool's idle_in_caches)
and ``error`` (errno, reason).
"""

from __future__ import annotations

import csv
import json
from collections.abc import Callable, Iterator
from typing import TextIO

from mpcalc.dpdk.core.flags import flags_label
from mpcalc.service import sweep
from mpcalc.service.documents import DiffReport, Report

COLUMNS = ("result", "mempool", "section", "name", "value")
_OBJECT_FIELDS = ("header_size", "elt_size", "trailer_size", "total_size")


def rows(report: Report) -> Iterator[tuple[object, ...]]:
    for result in report.to_dict()["results"]:  # type: ignore[attr-defined]
        label = flags_label(result["flags"])
        for mp in result["mempools"]:
            for f in _OBJECT_FIELDS:
                if mp[f] is not None:
                    yield label, mp["name"], "object", f, mp[f]
            for mz in mp["memzones"]:
                yield label, mp["name"], "memzone", mz["name"], mz["len"]
            for a in mp["allocations"]:
                yield label, mp["name"], "allocation", a["name"], a["size"]
        for mz in result.get("memzones", ()):
            yield label, "", "memzone", mz["name"], mz["len"]
        for a in result["allocations"]:
            yield label, "", "allocation", a["name"], a["size"]
        for key in ("total_bytes", "heap_bytes", "hugepages"):
            yield label, "", "total", key, "" if result[key] is None else result[key]
        fit = result["details"].get("fit")
        if fit:  # --fit's answer: the value it found, the budget, and what one more would need
            yield label, "", "fit", fit["key"], fit["value"]
            yield label, "", "fit", "budget", fit["budget"]
            yield label, "", "fit", "next_heap_bytes", fit["next_heap_bytes"]
        for key, value in flat(result["details"]):
            yield label, "", "detail", key, value
        for e in result["errors"]:
            yield label, "", "error", e["errno"] or "hazard", e["reason"]


def flat(details: dict, prefix: str = "") -> Iterator[tuple[str, object]]:
    """A result's details as (dotted key, cell) pairs: what the table's details show (a FIB's tbl8_needed,
    an mbuf pool's idle_in_caches), not --explain's prose nor --fit's (its own rows).

    >>> list(flat({"a": 1, "b": {"c": True, "d": None}, "e": [], "f": ["x", "y"], "g": [{"h": 2}], "fit": {}}))
    [('a', 1), ('b.c', 'true'), ('b.d', ''), ('e', ''), ('f', 'x|y'), ('g.0.h', 2)]
    """
    for key, value in details.items():
        if not prefix and key in ("explain", "fit"):
            continue
        if isinstance(value, (list, tuple)) and value and all(isinstance(v, dict) for v in value):
            value = {str(i): v for i, v in enumerate(value)}  # a list of records: by position, as the table
        if isinstance(value, dict):
            yield from flat(value, f"{prefix}{key}.")
        elif isinstance(value, bool):
            yield prefix + key, "true" if value else "false"
        elif value is None:
            yield prefix + key, ""
        elif isinstance(value, (list, tuple)):
            scalar = all(isinstance(v, (str, int)) for v in value)
            yield prefix + key, "|".join(map(str, value)) if scalar else json.dumps(value, separators=(",", ":"))
        else:
            yield prefix + key, value


def render(report: Report, stream: TextIO, fmt: str = "csv") -> None:
    writer = csv.writer(stream, delimiter="\t" if fmt == "tsv" else ",", lineterminator="\n")
    writer.writerow(COLUMNS)
    writer.writerows(rows(report))


DIFF_COLUMNS = ("result", "section", "name", "left", "right", "delta")


def render_diff(diff: DiffReport, stream: TextIO, fmt: str = "csv") -> None:
    """Every item on both sides; a side DPDK rejects has empty cells (it reserves nothing) and an ``error``
    row per errno with its reason in that side's column."""
    writer = csv.writer(stream, delimiter="\t" if fmt == "tsv" else ",", lineterminator="\n")
    writer.writerow(DIFF_COLUMNS)
    pairs = zip(diff.left.to_dict()["results"], diff.right.to_dict()["results"], strict=True)  # type: ignore[call-overload]
    rejected = {}
    for lres, rres in pairs:
        rejected[flags_label(lres["flags"])] = (lres["errors"], rres["errors"])
    for row in diff.rows:
        d = row.to_dict()
        lerr, rerr = (any(e["errno"] for e in side) for side in rejected.get(row.result, ((), ())))
        if lerr or rerr:
            d.update(left=None if lerr else d["left"], right=None if rerr else d["right"], delta=None)
        writer.writerow(["" if d[c] is None else d[c] for c in DIFF_COLUMNS])
    for label, (lerrs, rerrs) in rejected.items():
        for e in lerrs:
            writer.writerow([label, "error", e["errno"] or "hazard", e["reason"], "", ""])
        for e in rerrs:
            writer.writerow([label, "error", e["errno"] or "hazard", "", e["reason"], ""])


PLAN_COLUMNS = ("socket", "item", "section", "name", "value")


def render_plan(report, stream: TextIO, fmt: str = "csv") -> None:
    """One number a row: each item's memzones, allocations and totals, then each socket's totals."""
    writer = csv.writer(stream, delimiter="\t" if fmt == "tsv" else ",", lineterminator="\n")
    writer.writerow(PLAN_COLUMNS)
    doc = report.to_dict()
    for item in doc["items"]:
        r = item["result"]
        label = f"{item['kind']}:{item['name']}"
        for mp in r["mempools"]:
            for mz in mp["memzones"]:
                writer.writerow([item["socket"], label, "memzone", mz["name"], mz["len"]])
            for a in mp["allocations"]:
                writer.writerow([item["socket"], label, "allocation", a["name"], a["size"]])
        for mz in r.get("memzones", ()):
            writer.writerow([item["socket"], label, "memzone", mz["name"], mz["len"]])
        for a in r["allocations"]:
            writer.writerow([item["socket"], label, "allocation", a["name"], a["size"]])
        for key in ("total_bytes", "heap_bytes"):
            writer.writerow([item["socket"], label, "total", key, r[key]])
    for s in doc["sockets"]:
        for key in ("total_bytes", "heap_bytes", "eal_heap", "pages"):
            writer.writerow([s["socket"], "", "socket", key, "" if s[key] is None else s[key]])


def sweep_writer(stream: TextIO, key: str) -> Callable[[int, list[sweep.Row]], None]:
    """``mpcalc sweep``'s CSV: the header (the varied key, then mpcalc.service.sweep.COLUMNS) now, and the writer
    of a value's rows, one a flag combination (true/false for ok, an empty cell for a null)."""
    writer = csv.writer(stream, lineterminator="\n")
    writer.writerow((key, *sweep.COLUMNS))
    shown = {True: "true", False: "false"}

    def rows(value: int, point: list[sweep.Row]) -> None:
        # csv writes None as ""
        writer.writerows([(value, r[0], shown[r[1]], r[2], r[3], r[4], r[5], r[6]) for r in point])

    return rows
