"""Why a pool's numbers differ from the model's: the smallest changes of the platform (release,
architecture, cache line, channels x ranks, debug or statistics build, page size, RTE_MAX_LCORE) that
make the model match a dump, each described in words (:func:`explanations`, used by :mod:`.reconcile`).

Pure Python (no click, no rich).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from mpcalc.dpdk.core.errors import InputError
from mpcalc.dpdk.core.platform import Platform
from mpcalc.dpdk.core.units import page_label
from mpcalc.inspect.dumps import PoolDump
from mpcalc.inspect.pool_model import Measured, matches, model
from mpcalc.inspect.search import RELEASE_PREFERENCE, Choice, Evidence, Pins, candidates

_DIM_NAMES = {
    "dpdk": "release",
    "arch": "architecture",
    "cache_line": "cache line",
    "spread": "channels x ranks",
    "debug": "debug build",
    "stats": "statistics build",
    "page_size": "page size",
    "max_lcore": "RTE_MAX_LCORE",
}


def _describe_change(base: Choice, other: Choice, base_p: Platform, other_p: Platform) -> list[dict[str, Any]]:
    out = []
    for f, label in _DIM_NAMES.items():
        a, b = getattr(base, f), getattr(other, f)
        if f == "max_lcore":
            a, b = base_p.max_lcore, other_p.max_lcore
        if f == "cache_line":
            a, b = base_p.cache_line, other_p.cache_line
        if a == b:
            continue
        if f == "dpdk":
            text = f"another release: DPDK {b} (the model used {a})"
        elif f == "spread":
            text = (
                f"another channel count: channels x ranks = {b} (EAL -n/-r; the model used {a})"
                if other_p.spreads
                else f"channels x ranks = {b}"
            )
        elif f == "debug":
            text = (
                "a debug build (RTE_LIBRTE_MEMPOOL_DEBUG: object cookies)"
                if b
                else "a build without RTE_LIBRTE_MEMPOOL_DEBUG"
            )
        elif f == "stats":
            text = (
                "a statistics build (RTE_LIBRTE_MEMPOOL_STATS: per-lcore stats in the header)"
                if b
                else "a build without RTE_LIBRTE_MEMPOOL_STATS"
            )
        elif f == "page_size":
            text = f"another page size: {_show(label, b)} (the model used {_show(label, a)})"
        elif f == "arch":
            text = f"another architecture: {b} (the model used {a})"
        elif f == "cache_line":
            text = f"another cache line: {b} B (the model used {a} B)"
        else:
            text = f"another RTE_MAX_LCORE: {b} (the model used {a})"
        out.append({"kind": label, "value": b, "text": text})
    return out


def explanations(
    p: PoolDump, ev: Evidence, pins: Pins, base: Choice, plat: Platform, meas: dict[str, Measured]
) -> list[dict[str, Any]]:
    """The smallest changes of the platform (ignoring the pins) that make the model match the dump."""
    found: list[list[dict[str, Any]]] = []
    best: int | None = None
    evaluated = 0
    for dev, c in candidates(pins, replace(ev, releases=list(RELEASE_PREFERENCE)), free=True):
        if dev == 0:
            continue
        if best is not None and dev > best:
            break
        evaluated += 1
        if evaluated > 1500:
            break
        try:
            cp = c.platform(Pins())
            if not ev.layout_ok(cp) or (meas and not matches(meas, model(p, cp))):
                continue
        except InputError:
            continue
        changes = _describe_change(base, c, plat, cp)
        if changes and changes not in found:
            found.append(changes)
            best = dev
    out: list[dict[str, Any]] = []
    singles: dict[str, dict[str, Any]] = {}
    for changes in found:
        if len(changes) == 1:
            ch = changes[0]
            g = singles.get(ch["kind"])
            if g is None:
                g = singles[ch["kind"]] = {"kind": ch["kind"], "values": [], "changes": [ch], "text": ""}
                out.append(g)
            g["values"].append(ch["value"])
        else:
            out.append(
                {
                    "kind": " and ".join(ch["kind"] for ch in changes),
                    "values": [ch["value"] for ch in changes],
                    "changes": changes,
                    "text": " and ".join(ch["text"] for ch in changes),
                }
            )
    for g in singles.values():
        ch = g["changes"][0]
        g["text"] = (
            ch["text"]
            if len(g["values"]) == 1
            else ch["text"].replace(
                _show(ch["kind"], ch["value"]), " or ".join(_show(ch["kind"], v) for v in g["values"]), 1
            )
        )
        g["changes"] = []
    return out[:6]


def _show(kind: str, value: Any) -> str:
    if kind == "page size":
        return page_label(value)
    return str(value)
