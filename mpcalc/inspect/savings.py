"""What each sizing flag, a smaller cache, a count under the ring's power of two, a smaller data room or
another page size would save: every variant evaluated by the same engine as the dump's own model.

Only the levers the pool's creator has are named (:mod:`.kinds`): the sizing flags for a pool of
``rte_mempool_create`` alone; ``n``, ``cache_size`` and the data room for ``rte_pktmbuf_pool_create``;
``max_routes`` (a FIB's) or ``max_nodes`` (a RIB's) for a RIB node pool.

Pure Python (no click, no rich).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mpcalc.dpdk.core.flags import SIZING_FLAGS, VALID_USER_FLAGS, effective_flags
from mpcalc.dpdk.core.levers import levers, under_pow2
from mpcalc.dpdk.core.platform import Platform
from mpcalc.dpdk.core.records import Result
from mpcalc.dpdk.core.units import page_label
from mpcalc.inspect.dumps import PoolDump
from mpcalc.inspect.kinds import MEMPOOL, PKTMBUF, Kind
from mpcalc.inspect.pool_model import model

if TYPE_CHECKING:
    from mpcalc.inspect.dump_report import PoolReport

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
    "data_room": "the largest smaller element whose object (header + element + padding) is smaller: packets that "
    "need more room take chained mbufs",
    "max_routes": "rte_fib_create makes max_routes x 2 RIB nodes; the node ring holds rte_align32pow2(nodes + 1) "
    "slots: a FIB of this many routes halves it",
    "max_nodes": "the node ring holds rte_align32pow2(max_nodes + 1) slots: this many nodes halves it",
}


def advise(
    p: PoolDump, plat: Platform, base: Result, kind: Kind | None = None, anonymous: bool = False
) -> list[dict[str, Any]]:
    """Every variant the engine evaluates with a lever ``kind``'s caller has, ranked by saving (bytes against the
    model of the dump).  ``anonymous``: the objects are in anonymous memory (no page-size lever)."""
    kind = kind or Kind(MEMPOOL, "")
    spec_flags = (p.get("flags") or 0) & VALID_USER_FLAGS
    eff = effective_flags(spec_flags)
    count = p.get("size")
    total = base.total_bytes
    out: list[dict[str, Any]] = []

    def add(key: str, change: str, res: Result | None, caveat: str, keep_zero: bool = False) -> None:
        if res is None or not res.ok:
            return
        saves = total - res.total_bytes
        if saves > 0 or (keep_zero and saves == 0):
            out.append(
                {
                    "key": key,
                    "change": change,
                    "saves_bytes": saves,
                    "saves_percent": round(100 * saves / total, 1) if total else 0.0,
                    "total_bytes_after": res.total_bytes,
                    "note": caveat,
                }
            )

    missing = [f for f in SIZING_FLAGS if not eff & f]
    cache = p.get("cache_size") or 0
    nodes = kind.creator not in (MEMPOOL, PKTMBUF)  # a RIB's node pool (a FIB's: its max_routes, below)
    for lever in levers(
        flags=spec_flags,
        flag_levers=kind.flags_lever,
        cache_size=cache,
        count=None if kind.fib and nodes else count,
        max_loss=16,
        page_size=None if anonymous else plat.page_size,
    ):
        what = lever.key.split(":", 1)[1]
        changes = lever.changes
        if lever.key == "flag:all":
            change = "add " + " | ".join(f"RTE_MEMPOOL_F_{f.name}" for f in missing)
            add(lever.key, change, model(p, plat, **changes), _CAVEATS["all_flags"])
        elif lever.key.startswith("flag:"):
            add(lever.key, f"add RTE_MEMPOOL_F_{what.upper()}", model(p, plat, **changes), _CAVEATS[what])
        elif lever.key == "cache:half":
            change = f"cache_size {cache} -> {cache // 2}"
            add(lever.key, change, model(p, plat, **changes), _CAVEATS["cache_half"], keep_zero=True)
        elif lever.key == "cache:0":
            add(lever.key, f"cache_size {cache} -> 0", model(p, plat, **changes), _CAVEATS["cache_0"])
        elif lever.key == "count:pow2" and not nodes:
            smaller = changes["count"]
            change = f"n {count} -> {smaller} ({count - smaller} fewer objects)"
            add(lever.key, change, model(p, plat, **changes), _CAVEATS["count"])
        elif lever.key == "count:pow2":
            change = f"max_nodes {count} -> {changes['count']} (RIB {kind.owner})"
            add("max_nodes:pow2", change, model(p, plat, **changes), _CAVEATS["max_nodes"])
        elif lever.key.startswith("page:"):
            change = f"page size {page_label(plat.page_size)} -> {what}"
            add(lever.key, change, model(p, plat._replace(page_size=changes["page_size"])), _CAVEATS["page"])
    if kind.fib and nodes:  # rte_fib_create: max_nodes = max_routes * 2
        routes = count // 2
        fewer = under_pow2(count, max_loss=32)
        if fewer is not None and fewer // 2 < routes:
            add(
                "max_routes:pow2",
                f"max_routes {routes} -> {fewer // 2} (FIB {kind.owner})",
                model(p, plat, count=fewer // 2 * 2),
                _CAVEATS["max_routes"],
            )
    if kind.creator == PKTMBUF:
        _data_room(p, plat, total, add)
    out.sort(key=lambda a: (-a["saves_bytes"], a["key"]))
    for rank, a in enumerate(out, 1):
        a["rank"] = rank
    return out


def _data_room(p: PoolDump, plat: Platform, total: int, add: Any) -> None:
    """The largest element (sizeof(struct rte_mbuf) + priv_size + data_room_size) under the dump's whose object
    is smaller: the data room to ask of rte_pktmbuf_pool_create."""
    elt, floor = p.get("elt_size"), plat.release.mbuf_size
    base_obj = model(p, plat).mempools[0].objsz
    for smaller in range(elt - 8, max(floor, elt - 1024) - 1, -8):
        res = model(p, plat, elt_size=smaller)
        obj = res.mempools[0].objsz
        if res.ok and obj is not None and base_obj is not None and obj.total_size < base_obj.total_size:
            add(
                "data_room:smaller",
                f"data room {elt - floor} -> {smaller - floor} B (elt_size {elt} -> {smaller}; "
                f"object {base_obj.total_size} -> {obj.total_size} B)",
                res,
                _CAVEATS["data_room"],
            )
            return


def in_total(pools: list[PoolReport]) -> list[dict[str, Any]]:
    """The pools' advice summed by kind of change, ranked by saving (percent of every pool's total)."""
    totals: dict[str, dict[str, Any]] = {}
    base_total = sum(p.total_bytes for p in pools)
    for p in pools:
        for a in p.advice:
            t = totals.setdefault(
                a["key"],
                {
                    "key": a["key"],
                    "change": a["key"].split(":", 1)[1],
                    "saves_bytes": 0,
                    "pools": [],
                    "note": a["note"],
                },
            )
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
        return "n just under the ring's power of two"
    if kind in ("max_routes", "max_nodes"):
        return f"{kind} just under the node ring's power of two"
    if kind == "data_room":
        return "the next smaller object's data room"
    return f"page size {what}"
