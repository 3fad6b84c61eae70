"""What each sizing flag, a smaller cache, a count under the ring's power of two or another page
size would save: every variant evaluated by the same engine as the dump's own model.

Pure Python (no click, no rich).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import engine
from ..app.explain import under_pow2
from ..dpdk.flags import SIZING_FLAGS, VALID_USER_FLAGS, MempoolFlag, effective_flags
from ..dpdk.platform import Platform
from ..dpdk.units import page_label
from .dumps import PoolDump
from .model import model

if TYPE_CHECKING:
    from .report import PoolReport

_CAVEATS = {
    "no_cache_align": "objects stop starting on a cache line (false sharing, slower access); implies no_spread",
    "no_spread": "objects are no longer spread over memory channels and ranks",
    "no_iova_contig": "objects may cross page boundaries: not for objects a device DMAs (mbufs, descriptors)",
    "all_flags": "the three flags together (see each)",
    "cache_0": "no per-lcore cache: every get and put goes to the ring",
    "cache_half": "DPDK reserves a full RTE_MEMPOOL_CACHE_MAX_SIZE cache for each of RTE_MAX_LCORE lcores as soon "
                  "as cache_size > 0: a smaller cache saves nothing",
    "count": "the ring holds rte_align32pow2(n + 1) slots: this count halves it",
    "page": "needs hugepages of that size (objects cross fewer page boundaries)",
}


def advise(p: PoolDump, plat: Platform, base: engine.Result) -> list[dict[str, Any]]:
    """Every variant the engine evaluates, ranked by saving (bytes against the model of the dump)."""
    spec_flags = (p.get("flags") or 0) & VALID_USER_FLAGS
    eff = effective_flags(spec_flags)
    count = p.get("size")
    total = base.total_bytes
    out: list[dict[str, Any]] = []

    def add(key: str, change: str, res: engine.Result | None, caveat: str, keep_zero: bool = False) -> None:
        if res is None or not res.ok:
            return
        saves = total - res.total_bytes
        if saves > 0 or (keep_zero and saves == 0):
            out.append({"key": key, "change": change, "saves_bytes": saves,
                        "saves_percent": round(100 * saves / total, 1) if total else 0.0,
                        "total_bytes_after": res.total_bytes, "note": caveat})

    missing = [f for f in SIZING_FLAGS if not eff & f]
    for f in missing:
        name = str(f.name).lower()
        add(f"flag:{name}", f"add RTE_MEMPOOL_F_{f.name}", model(p, plat, flags=spec_flags | f), _CAVEATS[name])
    if len(missing) > 1:
        allf = spec_flags | sum(int(f) for f in SIZING_FLAGS)
        add("flag:all", "add " + " | ".join(f"RTE_MEMPOOL_F_{f.name}" for f in missing),
            model(p, plat, flags=allf), _CAVEATS["all_flags"])
    cache = p.get("cache_size") or 0
    if cache:
        add("cache:half", f"cache_size {cache} -> {cache // 2}", model(p, plat, cache_size=cache // 2),
            _CAVEATS["cache_half"], keep_zero=True)
        add("cache:0", f"cache_size {cache} -> 0", model(p, plat, cache_size=0), _CAVEATS["cache_0"])
    smaller = under_pow2(count, max_loss=16)
    if smaller is not None:
        add("count:pow2", f"count {count} -> {smaller} ({count - smaller} fewer objects)",
            model(p, plat, count=smaller), _CAVEATS["count"])
    if not eff & MempoolFlag.NO_IOVA_CONTIG:
        for pg in (4 << 10, 2 << 20, 1 << 30):
            if pg != plat.page_size:
                add(f"page:{page_label(pg)}", f"page size {page_label(plat.page_size)} -> {page_label(pg)}",
                    model(p, plat._replace(page_size=pg)), _CAVEATS["page"])
    out.sort(key=lambda a: (-a["saves_bytes"], a["key"]))
    for rank, a in enumerate(out, 1):
        a["rank"] = rank
    return out


def in_total(pools: list[PoolReport]) -> list[dict[str, Any]]:
    """The pools' advice summed by kind of change, ranked by saving (percent of every pool's total)."""
    totals: dict[str, dict[str, Any]] = {}
    base_total = sum(p.total_bytes for p in pools)
    for p in pools:
        for a in p.advice:
            t = totals.setdefault(a["key"], {"key": a["key"], "change": a["key"].split(":", 1)[1], "saves_bytes": 0,
                                             "pools": [], "note": a["note"]})
            t["saves_bytes"] += a["saves_bytes"]
            t["pools"].append(p.name)
    advice = sorted(totals.values(), key=lambda a: (-a["saves_bytes"], a["key"]))
    for rank, a in enumerate(advice, 1):
        a["rank"] = rank
        a["saves_percent"] = round(100 * a["saves_bytes"] / base_total, 1) if base_total else 0.0
        a["change"] = _total_change(a["key"])
    return advice


def _total_change(key: str) -> str:
    """The change an advice key names, across every pool of the input."""
    kind, what = key.split(":", 1)
    if kind == "flag":
        return "add all three sizing flags" if what == "all" else f"add RTE_MEMPOOL_F_{what.upper()}"
    if kind == "cache":
        return "cache_size 0" if what == "0" else "halve cache_size"
    if kind == "count":
        return "count just under the ring's power of two"
    return f"page size {what}"
