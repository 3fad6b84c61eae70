"""The plan: replay a route list with rte_fib_add / rte_fib6_add and account for it.

``plan`` / ``tbl8_needed`` do not estimate: they replay the adds route by
route, in order, on ``.dir24_8`` (IPv4, v22.11.11:lib/fib/dir24_8.c) or
``.trie`` (IPv6, lib/fib/trie.c), and record every point where DPDK could
answer ENOSPC (the ``rsvd_tbl8s`` reservation test and every tbl8 allocation,
including the transient ones) or ENOMEM (RIB node allocation,
lib/rib/rte_rib.c).  ``RoutePlan.first_failure`` then says which add fails
first in a FIB of a given size.

Pure Python, stdlib only (no click, no rich).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ..errors import InputError
from .dir24_8 import _Dir24_8
from .parse import _WIDTH, Route
from .trie import _Trie

_DP = {4: "dir24_8", 6: "trie"}


@dataclass(frozen=True, kw_only=True)
class Failure:
    """What DPDK does first when a FIB is too small for the table."""

    index: int  #: 0-based position of the route in the list
    errno: str  #: "ENOSPC" or "ENOMEM"
    reason: str
    silent: bool = False  #: rte_fib_add still returns 0 (a replaced next hop); DPDK's table is then wrong


@dataclass(frozen=True, kw_only=True)
class RoutePlan:
    """What adding ``routes`` in order with rte_fib_add / rte_fib6_add takes."""

    family: int
    dp_type: str
    routes: int  #: route lines
    distinct_routes: int  #: distinct prefix/depth pairs
    duplicates: int  #: lines repeating an existing route with the same next hop (no-ops)
    replacements: int  #: lines giving an existing route a new next hop
    same_as_parent: int  #: new routes whose next hop equals the covering route's: the table is untouched
    tbl8_needed: int  #: the fewest tbl8 groups with which no add fails (``provided`` count for DIR24_8)
    tbl8_reserved: int  #: rsvd_tbl8s at the end
    tbl8_peak: int  #: the most groups in use at once, counting transient allocations
    tbl8_in_use: int  #: groups in use at the end
    rib_nodes_needed: int  #: the most RIB nodes in use at once (routes + branching nodes + transient)
    rib_nodes: int  #: RIB nodes in use at the end
    min_max_routes: int  #: the smallest max_routes whose 2*max_routes nodes suffice
    num_tbl8: int  #: a num_tbl8 to ask for (tbl8_needed, at least 1)
    tbl8_need: tuple[int, ...] = field(repr=False)  #: per route: tbl8s its add needs (allocations)
    rsvd_need: tuple[int, ...] = field(repr=False)  #: per route: tbl8s its reservation test needs
    rib_need: tuple[int, ...] = field(repr=False)  #: per route: RIB nodes its insert needs
    kinds: tuple[str, ...] = field(repr=False)  #: per route: new / same-as-parent / duplicate / replace
    clobbers: tuple[int, ...] = ()  #: routes whose add hit DPDK's wrap-around bug: the table is wrong after them

    def first_failure(self, tbl8s: int | None = None, rib_nodes: int | None = None) -> Failure | None:
        """The first add that fails with ``tbl8s`` groups (DPDK's real count:
        rounded up to 64 for DIR24_8) and ``rib_nodes`` RIB nodes (2 * max_routes);
        None if all succeed.  Valid up to and including that route; after a
        silent failure DPDK's table no longer matches the RIB."""
        big = 1 << 64
        t = big if tbl8s is None else tbl8s
        n = big if rib_nodes is None else rib_nodes
        for i, kind in enumerate(self.kinds):
            if self.rsvd_need[i] > t:
                return Failure(index=i, errno="ENOSPC", reason=f"reservation: {self.rsvd_need[i]} tbl8s "
                               f"reserved > {t}")
            if self.rib_need[i] > n:
                return Failure(index=i, errno="ENOMEM", reason=f"RIB needs {self.rib_need[i]} nodes > {n}")
            if self.tbl8_need[i] > t:
                return Failure(index=i, errno="ENOSPC", silent=kind == "replace",
                               reason=f"tbl8 allocation: {self.tbl8_need[i]} in use > {t}")
        return None

    def to_dict(self) -> dict[str, object]:
        return {k: getattr(self, k) for k in (
            "family", "dp_type", "routes", "distinct_routes", "duplicates", "replacements", "same_as_parent",
            "tbl8_needed", "tbl8_reserved", "tbl8_peak", "tbl8_in_use", "rib_nodes_needed", "rib_nodes",
            "min_max_routes", "num_tbl8", "clobbers")}


def _check(family: int, dp_type: str) -> None:
    if family not in _DP:
        raise InputError(f"address family must be 4 or 6, not {family!r}", param="family")
    if dp_type != _DP[family]:
        raise InputError(f"data plane {dp_type!r} does not use tbl8s for IPv{family}: "
                         f"use {_DP[family]!r}", param="type")


def plan(routes: Sequence[Route], family: int, dp_type: str | None = None, *, default_nh: int = 0) -> RoutePlan:
    """Replay ``routes`` into DIR24_8 (IPv4) or TRIE (IPv6) and account for everything."""
    dp_type = dp_type or _DP.get(family, "")
    _check(family, dp_type)
    width = _WIDTH[family]
    dp = _Dir24_8() if family == 4 else _Trie()
    ids: dict[int, int] = {default_nh: 0}  # next hop -> id; DPDK only compares them
    fresh = 0
    tbl8_need: list[int] = []
    rsvd_need: list[int] = []
    rib_need: list[int] = []
    kinds: list[str] = []
    distinct: set[tuple[int, int]] = set()
    clobbers: list[int] = []
    g = dp.g
    for r in routes:
        if not 0 <= r.depth <= width or not 0 <= r.network < 1 << width:
            raise InputError(f"route {r} is not an IPv{family} prefix", param="routes")
        if r.next_hop is None:
            fresh += 1
            val = -fresh
        else:
            val = r.next_hop
        vid = ids.setdefault(val, len(ids))
        ip = r.network & dp.rib.masks[r.depth]
        distinct.add((ip, r.depth))
        g.peak = g.in_use
        kind, rsvd, rib = dp.add(ip, r.depth, vid)
        if dp.clobbered:
            clobbers.append(len(kinds))
            dp.clobbered = False
        tbl8_need.append(g.peak)
        rsvd_need.append(rsvd)
        rib_need.append(rib)
        kinds.append(kind)
    needed = max(max(tbl8_need, default=0), max(rsvd_need, default=0))
    nodes_needed = max(rib_need, default=0)
    return RoutePlan(
        family=family, dp_type=dp_type, routes=len(routes), distinct_routes=len(distinct),
        duplicates=kinds.count("duplicate"), replacements=kinds.count("replace"),
        same_as_parent=kinds.count("same-as-parent"),
        tbl8_needed=needed, tbl8_reserved=dp.rsvd, tbl8_peak=max(tbl8_need, default=0), tbl8_in_use=g.in_use,
        rib_nodes_needed=nodes_needed, rib_nodes=dp.rib.cur_nodes, min_max_routes=max(1, -(-nodes_needed // 2)),
        num_tbl8=max(1, needed),
        tbl8_need=tuple(tbl8_need), rsvd_need=tuple(rsvd_need), rib_need=tuple(rib_need), kinds=tuple(kinds),
        clobbers=tuple(clobbers),
    )


def tbl8_needed(routes: Sequence[Route], family: int, dp_type: str | None = None, *, default_nh: int = 0) -> int:
    """The fewest tbl8 groups with which every rte_fib_add / rte_fib6_add of
    ``routes`` (in order) succeeds and leaves a correct table."""
    return plan(routes, family, dp_type, default_nh=default_nh).tbl8_needed
