"""CI gates: a total over ``--max-total``, and growth against a previous JSON report (``--baseline``).

A baseline is only compared with the same command and configuration: another command, other inputs or
other flag combinations are an error (exit 2) naming the difference, never a "grew".  The platform may
differ (that is what a baseline gate is for: a new DPDK release, another architecture, a new mpcalc);
the gates' section of the JSON names what differs.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from mpcalc.dpdk.core.errors import InputError
from mpcalc.dpdk.core.flags import flags_label
from mpcalc.dpdk.core.limits import quote
from mpcalc.dpdk.core.records import Result
from mpcalc.dpdk.core.units import parse_size

#: platform fields the gates' JSON compares with the baseline's (what a user chooses)
_PLATFORM_KEYS = (
    "dpdk",
    "arch",
    "platform",
    "cache_line",
    "max_lcore",
    "channels",
    "ranks",
    "page_size",
    "debug",
    "stats",
)


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
            raise InputError(f"tolerance {quote(text)} is not a percentage", param="--tolerance") from None
        if pct < 0:
            raise InputError(f"tolerance {quote(text)} is negative", param="--tolerance")
        return int(base * pct / 100)
    try:
        return parse_size(text)
    except InputError as exc:
        raise InputError(f"tolerance {quote(text)}: {exc}", param="--tolerance") from None


def read_baseline(path: str) -> dict[str, Any]:
    """A previous ``--json`` report of a sizing command (InputError naming --baseline otherwise)."""
    try:
        with open(path, encoding="utf-8") as fh:
            doc = json.load(fh)
    except OSError as exc:
        raise InputError(f"cannot read baseline {path!r}: {exc.strerror}", param="--baseline") from None
    except ValueError as exc:
        raise InputError(f"{path!r} is not an mpcalc --json report ({exc})", param="--baseline") from None
    if isinstance(doc, dict) and "command" in doc and not isinstance(doc.get("results"), list):
        raise InputError(
            f"{path!r} is the JSON of mpcalc {doc['command']}, not the --json report of a sizing command",
            param="--baseline",
        )
    if (
        not isinstance(doc, dict)
        or not isinstance(doc.get("results"), list)
        or not all(isinstance(r, dict) and isinstance(r.get("flags"), list) for r in doc["results"])
    ):
        raise InputError(f"{path!r} is not an mpcalc --json report (no results with flags)", param="--baseline")
    return doc


def _shown(value: object) -> str:
    return f"{value:,}" if isinstance(value, int) and not isinstance(value, bool) else repr(value)


def differences(
    baseline: Mapping[str, Any], command: str, inputs: Mapping[str, Any], flag_labels: Sequence[str]
) -> list[str]:
    """How the baseline's command and configuration differ from this run's (empty: comparable).

    >>> differences({"command": "rib", "input": {"routes": 1}, "results": [{"flags": []}]}, "fib", {}, ["none"])
    ['the baseline is a report of mpcalc rib, this is mpcalc fib']
    >>> differences({"command": "rib", "input": {"routes": 1, "name": "rib"}, "results": [{"flags": []}]}, "rib",
    ...             {"routes": 2, "name": "rib"}, ["none"])
    ['routes is 1 in the baseline, 2 here']
    >>> differences({"command": "rib", "input": {"routes": 1000}, "results": [{"flags": []}]}, "rib",
    ...             {"routes": 1000}, ["none", "no_spread"])
    ['the baseline has the flag combinations none, this run none; no_spread']
    """
    if baseline.get("command") != command:
        return [f"the baseline is a report of mpcalc {baseline.get('command')}, this is mpcalc {command}"]
    out = []
    old = baseline.get("input") or {}
    for key in sorted(set(old) | set(inputs)):
        if key not in old:
            out.append(f"the baseline has no {key} (here {_shown(inputs[key])})")
        elif key not in inputs:
            out.append(f"the baseline has {key} {_shown(old[key])}, absent here")
        elif old[key] != inputs[key]:
            out.append(f"{key} is {_shown(old[key])} in the baseline, {_shown(inputs[key])} here")
    then = [flags_label(r["flags"]) for r in baseline["results"]]
    if sorted(then) != sorted(flag_labels):
        out.append(f"the baseline has the flag combinations {'; '.join(then)}, this run {'; '.join(flag_labels)}")
    return out


def require_same(path: str, command: str, inputs: Mapping[str, Any], results: Sequence[Result]) -> dict[str, Any]:
    """The baseline, if it reports the same command and configuration; else InputError (exit 2) naming
    every difference."""
    doc = read_baseline(path)
    labels = [r.flags_label for r in results]
    diff = differences(doc, command, inputs, labels)
    if diff:
        raise InputError(
            f"{path!r} is another configuration: "
            + "; ".join(diff)
            + " (a baseline is compared with the same command and options)",
            param="--baseline",
        )
    return doc


def _baseline_checks(doc: Mapping[str, Any], results: Sequence[Result], tol: str | None) -> list[dict[str, Any]]:
    """Each result against the baseline's, within ``tol`` (None: --tolerance not given, no growth at all)."""
    shown = tol if tol is not None else 0
    old = {flags_label(r["flags"]): r for r in doc["results"]}
    checks = []
    for r in results:
        label = r.flags_label
        before = old.get(label)
        if before is None:
            continue
        for key in ("total_bytes", "heap_bytes"):
            was, now = before.get(key), getattr(r, key)
            if not (isinstance(was, int) and isinstance(now, int)):
                continue
            allowed = tolerance(tol, was) if tol is not None else 0
            ok = now - was <= allowed
            message = (
                f"{key} ({label}) grew from {was:,} to {now:,} (+{now - was:,}), beyond the tolerance {shown}"
                if not ok
                else f"{key} ({label}) {was:,} -> {now:,} ({now - was:+,}), within {shown}"
            )
            checks.append(
                {
                    "gate": "baseline",
                    "flags": label,
                    "key": key,
                    "baseline": was,
                    "value": now,
                    "limit": was + allowed,
                    "ok": ok,
                    "message": message,
                }
            )
    return checks


def gate_report(
    *,
    max_total: int | None,
    baseline: str | None,
    tol: str | None,
    command: str,
    inputs: Mapping[str, Any],
    platform: Mapping[str, Any],
    results: Sequence[Result],
) -> dict[str, Any]:
    """The CI gates, once: the gates' section of the JSON, every check with its limit, verdict and message
    (the failed checks' messages are what stderr says), and what differs from the baseline's platform.
    InputError (exit 2) for a bad --tolerance, or a baseline of another command or configuration."""
    checks: list[dict[str, Any]] = []
    if tol is not None:
        tolerance(tol, 0)  # a bad --tolerance is named before the file is read
    if baseline is None and tol is not None:
        raise InputError(f"--tolerance {quote(tol)} is for --baseline, and no --baseline is given", param="--tolerance")
    if max_total is not None:
        for r in results:
            label = r.flags_label
            ok = r.total_bytes <= max_total
            checks.append(
                {
                    "gate": "max_total",
                    "flags": label,
                    "key": "total_bytes",
                    "baseline": None,
                    "value": r.total_bytes,
                    "limit": max_total,
                    "ok": ok,
                    "message": f"total_bytes {r.total_bytes:,} ({label}) is "
                    f"{'within' if ok else 'over'} --max-total {max_total:,}",
                }
            )
    base: dict[str, Any] | None = None
    if baseline is not None:
        doc = require_same(baseline, command, inputs, results)
        checks += _baseline_checks(doc, results, tol)
        then = doc.get("platform") or {}
        base = {
            "file": baseline,
            "tolerance": tol,
            "mpcalc_version": doc.get("mpcalc_version"),
            "platform_differences": {
                k: {"baseline": then.get(k), "now": platform.get(k)}
                for k in _PLATFORM_KEYS
                if then.get(k) != platform.get(k)
            },
        }
    return {"max_total": max_total, "baseline": base, "checks": checks, "ok": all(c["ok"] for c in checks)}


def failures(section: Mapping[str, Any]) -> tuple[str, ...]:
    """The messages of the checks of :func:`gate_report`'s section that failed, one line each."""
    return tuple(c["message"] for c in section["checks"] if not c["ok"])
