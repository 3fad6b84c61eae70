"""The sizing engine's public entry points: one function per DPDK object.

Pure Python: no click, no rich (tests/test_purity.py proves it).  Each function
returns a :class:`~mpcalc.dpdk.records.Result`; DPDK's rejections are data in
``Result.errors``, never exceptions.  Bad input raises :class:`InputError`.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from .dpdk import eal
from .dpdk.errors import InputError, Rejection
from .dpdk.intmath import U32_MAX
from .dpdk.mempool import CACHE_SLOT_BYTES, PoolSpec, create_pool
from .dpdk.rib import _RIB, rib_max_nodes, rib_parts
from .dpdk.records import Allocation, Mempool, Result
from .dpdk.platform import Platform

if TYPE_CHECKING:  # annotations only: mpcalc.dpdk.routes (ipaddress, the RIB replay) loads when a route file is read
    from .dpdk.fib import FibSpec
    from .dpdk.mbuf import MbufSpec
    from .dpdk.routes import Route, RoutePlan

__all__ = ["FibSpec", "MbufSpec", "PoolSpec", "assemble", "fib", "mbuf", "pool", "rib", "rib_max_nodes"]


def __getattr__(name: str) -> object:
    """``engine.FibSpec`` and ``engine.MbufSpec``: mpcalc.dpdk.fib and mpcalc.dpdk.mbuf load with the first FIB or
    mbuf pool, so that ``mpcalc pool`` and ``mpcalc rib`` start without them (PEP 562)."""
    if name == "FibSpec":
        from .dpdk.fib import FibSpec

        return FibSpec
    if name == "MbufSpec":
        from .dpdk.mbuf import MbufSpec

        return MbufSpec
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def assemble(
    kind: str,
    flags: int,
    p: Platform,
    mempools: Sequence[Mempool] = (),
    allocations: Sequence[Allocation] = (),
    errors: Iterable[Rejection] = (),
    details: dict[str, object] | None = None,
) -> Result:
    """Totals of a configuration: every memzone and allocation, and the heap they take."""
    all_errors = [e for mp in mempools for e in mp.errors] + list(errors)
    sizes = [m.len for mp in mempools for m in mp.memzones]
    sizes += [a.size for mp in mempools for a in mp.allocations]
    sizes += [a.size for a in allocations]
    total = sum(mp.total_bytes for mp in mempools) + sum(a.size for a in allocations)
    heap = sum(_heap_cost(s, p) for s in sizes)  # eal.heap_bytes, memoized per allocation size
    return Result(
        kind=kind,
        flags=flags,
        mempools=tuple(mempools),
        allocations=tuple(allocations),
        total_bytes=total,
        heap_bytes=heap,
        hugepages=eal.hugepages(heap, p),
        errors=tuple(all_errors),
        details=details or {},
    )


_heap_cost = functools.lru_cache(maxsize=4096)(eal.heap_cost)


def _check_u32(value: int, what: str) -> None:
    if not 0 <= value <= U32_MAX:
        raise InputError(f"{what} {value!r} does not fit the unsigned 32-bit field DPDK stores it in", param=what)


def pool(spec: PoolSpec, p: Platform) -> Result:
    """``rte_mempool_create(name, n, elt_size, cache_size, private_data_size, ..., flags)``."""
    for value, what in ((spec.count, "count"), (spec.elt_size, "elt_size"), (spec.cache_size, "cache_size"),
                        (spec.private_size, "private_size"), (spec.flags, "flags")):
        _check_u32(value, what)
    if spec.cache_layout not in CACHE_SLOT_BYTES:
        raise InputError(f"unknown cache layout {spec.cache_layout!r} (known: pointer, index)", param="cache_layout")
    mp = create_pool(spec, p)
    details = {}
    if spec.cache_size and mp.header:
        from .dpdk.mbuf import cache_report

        details["cache"] = cache_report(mp, p, spec.cache_layout)
    return assemble("pool", spec.flags, p, [mp], details=details)


def rib(name: str, max_nodes: int, ext_size: int, flags: int, family: int, p: Platform) -> Result:
    mempools, allocs, errors = rib_parts(name, max_nodes, ext_size, flags, family, p)
    details = {"max_nodes": max_nodes, "node_size": getattr(p.release, _RIB[family]["node"]), "ext_size": ext_size}
    return assemble(_RIB[family]["kind"], flags, p, mempools, allocs, errors, details)


def fib(spec: FibSpec, flags: int, p: Platform, plan: RoutePlan | None = None,
        routes: Sequence[Route] = ()) -> Result:
    """``rte_fib_create`` / ``rte_fib6_create``; ``flags`` are the RIB node pool's.

    With a route ``plan`` (mpcalc.dpdk.routes), also whether adding those routes in
    order fits: the first rte_fib_add that would fail is reported as DPDK's error.
    """
    from .dpdk.fib import fib_parts, provided_tbl8

    _check_u32(spec.num_tbl8, "num_tbl8")
    _check_u32(spec.ext_size, "ext_size")
    mempools, allocs, errors = fib_parts(spec, flags, p)
    details: dict[str, object] = {"type": spec.dp_type, "max_routes": spec.max_routes,
                                  "max_nodes": rib_max_nodes(spec.max_routes), "nh_size": spec.nh_size,
                                  "ext_size": spec.ext_size}
    if spec.dp_type != "dummy":
        details.update(num_tbl8=spec.num_tbl8, tbl8_provided=provided_tbl8(spec))
    if plan is not None:
        details["route_plan"] = plan.to_dict()
        details["tbl8_needed"] = plan.tbl8_needed
        if not errors and not any(mp.errors for mp in mempools):
            errors = [*errors, *_route_failure(spec, plan, routes)]
    return assemble(spec.kind, flags, p, mempools, allocs, errors, details)


def _route_failure(spec: FibSpec, plan: RoutePlan, routes: Sequence[Route]) -> list[Rejection]:
    """The first route whose rte_fib_add fails in a FIB of this size (mpcalc.dpdk.routes replays DPDK's adds)."""
    from .dpdk.fib import provided_tbl8

    failure = plan.first_failure(tbl8s=provided_tbl8(spec) if spec.dp_type != "dummy" else None,
                                 rib_nodes=max(rib_max_nodes(spec.max_routes), 0))
    if failure is None:
        return []
    route = routes[failure.index]
    where = f"route {failure.index + 1} ({route.prefix(spec.family)}" + (f", line {route.line})" if route.line else ")")
    needs = f"; the table needs {plan.tbl8_needed} tbl8 groups and {plan.min_max_routes} max_routes"
    fn = "rte_fib_add" if spec.family == 4 else "rte_fib6_add"
    src = ("v22.11.11:lib/fib/dir24_8.c:447-471" if spec.family == 4 else "v22.11.11:lib/fib/trie.c:545-592")
    if failure.errno == "ENOMEM":
        src = "v22.11.11:lib/rib/rte_rib.c:79-90 (node_alloc from the node pool)"
    if failure.silent:
        return [Rejection(errno=None, reason=f"{where}: {failure.reason}; DPDK returns 0 but the table is "
                          f"wrong from here{needs}", function=fn, source=src)]
    return [Rejection(errno=failure.errno, reason=f"{where} fails: {failure.reason}{needs}", function=fn,
                      source=src)]


def mbuf(spec: MbufSpec, p: Platform, lcores: int | None = None) -> Result:
    """``rte_pktmbuf_pool_create`` with the default mempool ops."""
    from .dpdk.mbuf import cache_report, mbuf_pool

    _check_u32(spec.count, "count")
    _check_u32(spec.cache_size, "cache_size")
    mp, errors, details = mbuf_pool(spec, p)
    if mp is not None and mp.header is not None and spec.cache_size:
        details["cache"] = cache_report(mp, p, spec.cache_layout, lcores)
    return assemble("mbuf", 0, p, [mp] if mp else [], (), errors, details)
