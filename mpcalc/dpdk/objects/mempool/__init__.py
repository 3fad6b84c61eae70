"""rte_mempool: ``rte_mempool_create`` with the ring ops, its object layout, header and ring.

* :mod:`.layout`: ``rte_mempool_calc_obj_size``, the header memzone, ``calc_mem_size``;
* :mod:`.create`: the composition of ``rte_mempool_create`` (:class:`PoolCalc`) and its records;
* :data:`POOL`: the ``pool`` object as every front end sees it; :func:`size` sizes one pool.
"""

from collections.abc import Mapping
from typing import Any

from mpcalc.dpdk.core.declare import (
    CACHE_LAYOUT,
    CACHE_SIZE,
    FLAGS,
    ObjectDecl,
    Param,
    Resolved,
    name_param,
    new_resolved,
)
from mpcalc.dpdk.core.errors import InputError, check_u32
from mpcalc.dpdk.core.heap import assemble, hugepages
from mpcalc.dpdk.core.intmath import U32_MAX
from mpcalc.dpdk.core.platform import Platform
from mpcalc.dpdk.core.records import Footprint, Result, new_footprint
from mpcalc.dpdk.objects.mempool.cache import cache_report
from mpcalc.dpdk.objects.mempool.create import (
    RING_LIMIT,
    PoolCalc,
    PoolSizes,
    PoolSpec,
    create_pool,
    pool_calc,
    pool_sizes,
)
from mpcalc.dpdk.objects.mempool.layout import (
    CACHE_SLOT_BYTES,
    arch_mem_object_align,
    calc_mem_size,
    calc_obj_size,
    header_layout,
    header_size,
    objects_per_page,
    ops_name,
    unwrapped_obj_size,
)
from mpcalc.dpdk.objects.mempool.ops import OPS

__all__ = [
    "CACHE_SLOT_BYTES",
    "POOL",
    "RING_LIMIT",
    "PoolCalc",
    "PoolSizes",
    "PoolSpec",
    "arch_mem_object_align",
    "calc_mem_size",
    "calc_obj_size",
    "create_pool",
    "footprint",
    "header_layout",
    "header_size",
    "objects_per_page",
    "ops_name",
    "pool_calc",
    "pool_sizes",
    "size",
    "unwrapped_obj_size",
]


def _check(count: int, elt_size: int, cache_size: int, private_size: int, flags: int, cache_layout: str) -> None:
    if not (
        0 <= count <= U32_MAX
        and 0 <= elt_size <= U32_MAX
        and 0 <= cache_size <= U32_MAX
        and 0 <= private_size <= U32_MAX
        and 0 <= flags <= U32_MAX
    ):  # the usual pool: one test
        check_u32(
            (count, "count"),
            (elt_size, "elt_size"),
            (cache_size, "cache_size"),
            (private_size, "private_size"),
            (flags, "flags"),
        )
    if cache_layout not in CACHE_SLOT_BYTES:
        raise InputError(f"unknown cache layout {cache_layout!r} (known: pointer, index)", param="cache_layout")


def size(spec: PoolSpec, p: Platform) -> Result:
    """``rte_mempool_create(name, n, elt_size, cache_size, private_data_size, ..., flags)``."""
    _check(*spec[1:7])
    mp = create_pool(spec, p)
    details: dict[str, object] = {}
    if spec.cache_size and mp.header:
        details["cache"] = cache_report(mp, p, spec.cache_layout)
    return assemble("pool", spec.flags, p, [mp], details=details)


def footprint(a: Mapping[str, Any], extra: object, flags: int, p: Platform) -> Footprint:
    """:func:`size`'s numbers without its records, from the declaration's inputs ``a``: the same
    :meth:`PoolCalc.sizes` that :func:`create_pool` makes records of."""
    _check(a["count"], a["elt_size"], a["cache_size"], a["private_size"], flags, a["cache_layout"])
    s = pool_calc(p).sizes(
        a["name"],
        a["count"],
        a["elt_size"],
        a["cache_size"],
        a["private_size"],
        flags,
        a["cache_layout"],
        a["ops"] or "",
    )
    return new_footprint((s.object_size, s.total_bytes, s.heap_bytes, hugepages(s.heap_bytes, p), s.errors))


#: ``--ops``: rte_mempool_create_empty + rte_mempool_set_ops_byname + rte_mempool_populate_default
OPS_PARAM = Param(
    "ops",
    "choice",
    "Mempool driver, set with rte_mempool_set_ops_byname [default: the ring ops "
    "rte_mempool_create picks from sp_put/sc_get].",
    choices=OPS,
)


def _spec(a: Mapping[str, Any], flags: int) -> PoolSpec:
    return PoolSpec(
        name=a["name"],
        count=a["count"],
        elt_size=a["elt_size"],
        cache_size=a["cache_size"],
        private_size=a["private_size"],
        flags=flags,
        cache_layout=a["cache_layout"],
        ops=a["ops"] or "",
    )


def _resolve(a: Mapping[str, Any]) -> Resolved:
    inputs = {
        "name": a["name"],
        "count": a["count"],
        "elt_size": a["elt_size"],
        "cache_size": a["cache_size"],
        "private_size": a["private_size"],
        "cache_layout": a["cache_layout"],
        "ops": a["ops"],
    }
    return new_resolved((inputs, {}))


POOL = ObjectDecl(
    name="pool",
    summary="An rte_mempool_create() pool with the ring ops its flags pick, or with --ops a mempool driver "
    "(ring_*, stack, lf_stack).",
    params=(
        Param("count", "count", "Number of objects (n); required unless --fit.", short="-n", needed=True),
        Param("elt_size", "size", "Element size in bytes.", required=True),
        Param("private_size", "size", "Private data size.", default=0, show_default=True),
        name_param("mp", "MP_<name>"),
        CACHE_SIZE,
        CACHE_LAYOUT,
        FLAGS,
        OPS_PARAM,
    ),
    build=lambda a, extra, flags, p: size(_spec(a, flags), p),
    footprint=footprint,
    resolve=_resolve,
    fit={"count": RING_LIMIT},
    per=("count", "object"),
)
