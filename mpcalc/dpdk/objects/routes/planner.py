"""The plan: replay a route list with rte_fib_add / rte_fib6_add and account for it.

``plan`` / ``tbl8_needed`` do not estimate: they replay the adds route by route, in order, and record every
point where DPDK could answer ENOSPC (the ``rsvd_tbl8s`` reservation test and every tbl8 allocation,
including the transient ones) or ENOMEM (RIB node allocation, lib/rib/rte_rib.c).  ``.fast4`` (DIR24_8,
v22.11.11:lib/fib/dir24_8.c) and ``.fast6`` (TRIE, lib/fib/trie.c) replay the state that decides those
figures; where DPDK's wrap-around bug strikes they cannot follow, and the line-by-line ``.reference``
replays the list instead.  ``RoutePlan.first_failure`` then says which add fails first in a FIB of a
given size.

Pure Python, stdlib only (no click, no rich).
"""

from __future__ import annotations

from array import array
from bisect import bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from itertools import accumulate

from mpcalc.dpdk.core.errors import InputError
from mpcalc.dpdk.objects.routes import accel, fast4, fast6, reference
from mpcalc.dpdk.objects.routes.add_record import DUP, REPLACE, SAME, Trace
from mpcalc.dpdk.objects.routes.parse import _WIDTH, Route
from mpcalc.dpdk.objects.routes.route_table import RouteTable, next_hop_ids

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
    clobbers: tuple[int, ...] = ()  #: routes whose add hit DPDK's wrap-around bug: the table is wrong after them
    trace: Trace = field(repr=False, compare=False)

    # per-route figures, made from the trace when first asked for
    @cached_property
    def tbl8_need(self) -> tuple[int, ...]:
        """Per route: tbl8s its add needs (the most groups in use during it)."""
        return tuple(self._tbl8)

    @cached_property
    def rsvd_need(self) -> tuple[int, ...]:
        """Per route: tbl8s its reservation test needs (0: none)."""
        return tuple(self._rsvd)

    @cached_property
    def rib_need(self) -> tuple[int, ...]:
        """Per route: RIB nodes its insert needs (0: a duplicate or a replacement)."""
        return tuple(self._rib)

    @cached_property
    def kinds(self) -> Sequence[str]:
        """Per route: new / same-as-parent / duplicate / replace."""
        return self.trace.kinds()

    @cached_property
    def _tbl8(self) -> array[int]:
        return self.trace.tbl8_need()

    @cached_property
    def _rsvd(self) -> array[int]:
        return self.trace.rsvd_need()

    @cached_property
    def _rib(self) -> array[int]:
        return self.trace.rib_need()

    def _first_above(self, name: str, limit: int) -> int:
        """The first route whose figure ``name`` exceeds ``limit`` (len if none): a bisection of the
        running maximum, built once per figure."""
        runmax: array[int] = self.__dict__.get(f"_max{name}")  # type: ignore[assignment]
        if runmax is None:
            runmax = self.__dict__[f"_max{name}"] = array("Q", accumulate(getattr(self, name), max))
        return bisect_right(runmax, limit)

    def first_failure(self, tbl8s: int | None = None, rib_nodes: int | None = None) -> Failure | None:
        """The first add that fails with ``tbl8s`` groups (DPDK's real count:
        rounded up to 64 for DIR24_8) and ``rib_nodes`` RIB nodes (2 * max_routes);
        None if all succeed.  Valid up to and including that route; after a
        silent failure DPDK's table no longer matches the RIB."""
        n = self.routes
        t = -1 if tbl8s is None or tbl8s >= self.tbl8_needed else tbl8s
        r = -1 if rib_nodes is None or rib_nodes >= self.rib_nodes_needed else rib_nodes
        i_rsvd = self._first_above("_rsvd", t) if t >= 0 else n
        i_tbl8 = self._first_above("_tbl8", t) if t >= 0 else n
        i_rib = self._first_above("_rib", r) if r >= 0 else n
        i = min(i_rsvd, i_tbl8, i_rib)
        if i >= n:
            return None
        if i == i_rsvd:  # dir24_8.c:447-454 / trie.c:573-574 come before the insert
            return Failure(index=i, errno="ENOSPC", reason=f"reservation: {self._rsvd[i]} tbl8s reserved > {t}")
        if i == i_rib:
            return Failure(index=i, errno="ENOMEM", reason=f"RIB needs {self._rib[i]} nodes > {r}")
        kind = self.trace.codes[i] & 3
        return Failure(
            index=i, errno="ENOSPC", silent=kind == REPLACE, reason=f"tbl8 allocation: {self._tbl8[i]} in use > {t}"
        )

    def to_dict(self) -> dict[str, object]:
        return {
            k: getattr(self, k)
            for k in (
                "family",
                "dp_type",
                "routes",
                "distinct_routes",
                "duplicates",
                "replacements",
                "same_as_parent",
                "tbl8_needed",
                "tbl8_reserved",
                "tbl8_peak",
                "tbl8_in_use",
                "rib_nodes_needed",
                "rib_nodes",
                "min_max_routes",
                "num_tbl8",
                "clobbers",
            )
        }


def _check(family: int, dp_type: str) -> None:
    if family not in _DP:
        raise InputError(f"address family must be 4 or 6, not {family!r}", param="family")
    if dp_type != _DP[family]:
        raise InputError(
            f"data plane {dp_type!r} does not use tbl8s for IPv{family}: use {_DP[family]!r}", param="type"
        )


def _columns(
    routes: Sequence[Route] | RouteTable, family: int, default: int
) -> tuple[Sequence[int], bytes, Sequence[int]]:
    """(networks masked to their depths, depths, next-hop ids + 1) of a route list; a route without a next
    hop gets a next hop of its own, different from every other one and from the default."""
    columns = getattr(routes, "columns", None)
    if columns is not None:
        return columns(default)  # type: ignore[no-any-return]
    width = _WIDTH[family]
    for r in routes:
        if not 0 <= r.depth <= width or not 0 <= r.network < 1 << width:
            raise InputError(f"route {r} is not an IPv{family} prefix", param="routes")
    full = (1 << width) - 1
    nets = [r.network & (full ^ ((1 << (width - r.depth)) - 1)) for r in routes]
    depths = bytes(r.depth for r in routes)
    values = [-(i + 1) if r.next_hop is None else r.next_hop for i, r in enumerate(routes)]
    return nets, depths, next_hop_ids(values, default)


def replay(
    routes: Sequence[Route] | RouteTable,
    family: int,
    *,
    default_nh: int = 0,
    progress: Callable[[int], None] | None = None,
    fast: bool = True,
) -> Trace:
    """The trace of adding ``routes`` in order (``fast=False``: the line-by-line reference replay)."""
    nets, depths, ids = _columns(routes, family, default_nh)
    if fast:
        try:
            if progress is not None:
                progress(0)
            trace = accel.replay(nets, depths, ids, family)  # C, where it was built: the same answers
            if trace is not None:
                return trace
            if family == 4:
                return fast4.Replay4().run(nets, depths, ids, progress)
            return fast6.Replay6().run(nets, depths, ids, progress)
        except (fast4.Clobbered, fast6.Clobbered):
            pass  # DPDK's wrap-around bug: only the line-by-line replay follows it
    return reference.replay(nets, depths, ids, family, 1, progress)


def plan(
    routes: Sequence[Route] | RouteTable,
    family: int,
    dp_type: str | None = None,
    *,
    default_nh: int = 0,
    progress: Callable[[int], None] | None = None,
    fast: bool = True,
) -> RoutePlan:
    """Replay ``routes`` into DIR24_8 (IPv4) or TRIE (IPv6) and account for everything."""
    dp_type = dp_type or _DP.get(family, "")
    _check(family, dp_type)
    trace = replay(routes, family, default_nh=default_nh, progress=progress, fast=fast)
    needed = max(trace.tbl8_peak(), trace.rsvd_peak())
    nodes_needed = trace.rib_peak()
    return RoutePlan(
        family=family,
        dp_type=dp_type,
        routes=trace.n,
        distinct_routes=trace.distinct,
        duplicates=trace.count(DUP),
        replacements=trace.count(REPLACE),
        same_as_parent=trace.count(SAME),
        tbl8_needed=needed,
        tbl8_reserved=trace.rsvd,
        tbl8_peak=trace.tbl8_peak(),
        tbl8_in_use=trace.in_use,
        rib_nodes_needed=nodes_needed,
        rib_nodes=trace.rib_nodes(),
        min_max_routes=max(1, -(-nodes_needed // 2)),
        num_tbl8=max(1, needed),
        clobbers=tuple(trace.clobbers),
        trace=trace,
    )


def tbl8_needed(
    routes: Sequence[Route] | RouteTable, family: int, dp_type: str | None = None, *, default_nh: int = 0
) -> int:
    """The fewest tbl8 groups with which every rte_fib_add / rte_fib6_add of
    ``routes`` (in order) succeeds and leaves a correct table."""
    return plan(routes, family, dp_type, default_nh=default_nh).tbl8_needed
