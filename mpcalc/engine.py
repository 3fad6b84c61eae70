"""The sizing engine's public entry points: one function per DPDK object.

Pure Python: no click, no rich (tests/test_purity.py proves it).  Each function
returns a :class:`~mpcalc.model.Result`; DPDK's rejections are data in
``Result.errors``, never exceptions.  Bad input raises :class:`InputError`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from . import eal
from .errors import InputError, Rejection
from .intmath import U32_MAX, u32
from .mempool import CACHE_SLOT_BYTES, PoolSpec, create_pool
from .rib import _RIB, rib_max_nodes, rib_parts
from .fib import FibSpec, fib_parts, provided_tbl8
from .mbuf import MbufSpec, cache_report, mbuf_pool
from .model import Allocation, Mempool, Result
from .platform import Platform

__all__ = ["FibSpec", "MbufSpec", "PoolSpec", "assemble", "fib", "mbuf", "pool", "rib", "rib_max_nodes"]


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
    heap = eal.heap_bytes(sizes, p)
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
    details = {"cache": cache_report(mp, p, spec.cache_layout)} if spec.cache_size and mp.header else {}
    return assemble("pool", spec.flags, p, [mp], details=details)


def rib(name: str, max_nodes: int, ext_size: int, flags: int, family: int, p: Platform) -> Result:
    mempools, allocs, errors = rib_parts(name, max_nodes, ext_size, flags, family, p)
    details = {"max_nodes": max_nodes, "node_size": getattr(p.release, _RIB[family]["node"]), "ext_size": ext_size}
    return assemble(_RIB[family]["kind"], flags, p, mempools, allocs, errors, details)


def fib(spec: FibSpec, flags: int, p: Platform) -> Result:
    """``rte_fib_create`` / ``rte_fib6_create``; ``flags`` are the RIB node pool's."""
    _check_u32(spec.num_tbl8, "num_tbl8")
    _check_u32(spec.ext_size, "ext_size")
    mempools, allocs, errors = fib_parts(spec, flags, p)
    details = {"type": spec.dp_type, "max_routes": spec.max_routes, "max_nodes": rib_max_nodes(spec.max_routes),
               "nh_size": spec.nh_size, "ext_size": spec.ext_size}
    if spec.dp_type != "dummy":
        details.update(num_tbl8=spec.num_tbl8, tbl8_provided=provided_tbl8(spec))
    return assemble(spec.kind, flags, p, mempools, allocs, errors, details)


def mbuf(spec: MbufSpec, p: Platform, lcores: int | None = None) -> Result:
    """``rte_pktmbuf_pool_create`` with the default mempool ops."""
    _check_u32(spec.count, "count")
    _check_u32(spec.cache_size, "cache_size")
    mp, errors, details = mbuf_pool(spec, p)
    if mp is not None and mp.header is not None and spec.cache_size:
        details["cache"] = cache_report(mp, p, spec.cache_layout, lcores)
    return assemble("mbuf", 0, p, [mp] if mp else [], (), errors, details)
