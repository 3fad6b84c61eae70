"""CI gates against a previous JSON report (``--baseline``)."""

from __future__ import annotations

import json
from collections.abc import Sequence

from ..dpdk.errors import InputError
from ..dpdk.records import Result
from ..dpdk.units import parse_size


def tolerance(text: str, base: int) -> int:
    """Bytes a total may grow: ``64K`` or ``2%`` (of the baseline total, rounded down).

    >>> tolerance("0", 100), tolerance("64K", 1), tolerance("2%", 1000), tolerance("2.5%", 1000)
    (0, 65536, 20, 25)
    """
    text = str(text).strip()
    if text.endswith("%"):
        from fractions import Fraction

        try:
            pct = Fraction(text[:-1])
        except ValueError:
            raise InputError(f"tolerance {text!r} is not a percentage", param="--tolerance") from None
        if pct < 0:
            raise InputError(f"tolerance {text!r} is negative", param="--tolerance")
        return int(base * pct / 100)
    try:
        return parse_size(text)
    except InputError as exc:
        raise InputError(f"tolerance {text!r}: {exc}", param="--tolerance") from None


def _label(flags: list[str]) -> str:
    return ",".join(flags) or "none"


def check_baseline(path: str, results: Sequence[Result], tol: str) -> list[str]:
    """What grew beyond the tolerance, one line each (empty: nothing did)."""
    try:
        with open(path, encoding="utf-8") as fh:
            doc = json.load(fh)
        old = {_label(r["flags"]): r for r in doc["results"]}
    except OSError as exc:
        raise InputError(f"cannot read baseline {path!r}: {exc.strerror}", param="--baseline") from None
    except (ValueError, KeyError, TypeError) as exc:
        raise InputError(f"{path!r} is not an mpcalc --json report ({exc})", param="--baseline") from None
    grew = []
    for r in results:
        d = r.to_dict()
        label = _label(d["flags"])  # type: ignore[arg-type]
        before = old.get(label)
        if before is None:
            continue
        for key in ("total_bytes", "heap_bytes"):
            was, now = before.get(key), d[key]
            if isinstance(was, int) and isinstance(now, int) and now - was > tolerance(tol, was):
                grew.append(f"{key} ({label}) grew from {was:,} to {now:,} (+{now - was:,}), beyond the "
                            f"tolerance {tol}")
    return grew
