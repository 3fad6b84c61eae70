"""rte_rib / rte_rib6: the node mempool and the RIB struct; the ``rib`` and ``rib6`` objects
(:data:`RIB`, :data:`RIB6`)."""

from collections.abc import Mapping
from typing import Any

from mpcalc.dpdk.core import heap
from mpcalc.dpdk.core.declare import FLAGS, ObjectDecl, Param, Resolved, exactly_one, new_resolved
from mpcalc.dpdk.core.errors import InputError, Rejection
from mpcalc.dpdk.core.facts import ReleaseFacts
from mpcalc.dpdk.core.heap import assemble
from mpcalc.dpdk.core.intmath import INT_MAX, u32
from mpcalc.dpdk.core.platform import Platform
from mpcalc.dpdk.core.records import Allocation, Footprint, Mempool, Result
from mpcalc.dpdk.core.tuples import positional
from mpcalc.dpdk.objects.mempool import RING_LIMIT, PoolSpec, create_pool, pool_sizes


def rib_max_nodes(routes: int) -> int:
    """``rib_conf.max_nodes = conf->max_routes * 2`` as the C ``int`` it is stored in
    (v22.11:lib/fib/rte_fib.c:165-166): 2^30 routes and more wrap.

    >>> rib_max_nodes(1000000), rib_max_nodes(2**30), rib_max_nodes(2**30 + 1)
    (2000000, -2147483648, -2147483646)
    """
    v = u32(routes * 2)
    return v - (1 << 32) if v >= 1 << 31 else v


_RIB = {
    4: dict(
        kind="rib",
        node="rib_node_size",
        struct="rib_struct_size",
        prefix="RIB_",
        tailq="RIB_TAILQ_ENTRY",
        fn="rte_rib_create",
        src="v22.11:lib/rib/rte_rib.c",
    ),
    6: dict(
        kind="rib6",
        node="rib6_node_size",
        struct="rib6_struct_size",
        prefix="RIB6_",
        tailq="RIB6_TAILQ_ENTRY",
        fn="rte_rib6_create",
        src="v22.11:lib/rib/rte_rib6.c",
    ),
}


def rib_parts(
    name: str,
    max_nodes: int,
    ext_size: int,
    flags: int,
    family: int,
    p: Platform,
) -> tuple[list[Mempool], list[Allocation], list[Rejection]]:
    """``rte_rib_create`` / ``rte_rib6_create`` (v22.11:lib/rib/rte_rib.c:395-473, rte_rib6.c:463-543).

    ``flags`` are the node pool's flags: 0 in DPDK today, what the RIB patch
    (seed rib-node-pool-flags) proposes otherwise.
    """
    spec, allocs, rejection = _parts(name, max_nodes, ext_size, flags, family, p)
    if rejection is not None:
        return [], [], [rejection]
    mp = create_pool(spec, p)
    return [mp], _after_pool(allocs, mp.ring_size), []


def footprint(name: str, max_nodes: int, ext_size: int, flags: int, family: int, p: Platform) -> Footprint:
    """:func:`size`'s numbers without its records, from the same parts and pool sizes."""
    spec, allocs, rejection = _parts(name, max_nodes, ext_size, flags, family, p)
    if rejection is not None:
        return heap.footprint(None, (), (), (rejection,), p)
    s = pool_sizes(spec, p)
    return heap.footprint(
        s.object_size, [(s.total_bytes, s.heap_bytes)], [a.size for a in _after_pool(allocs, s.slots)], s.errors, p
    )


def _parts(
    name: str,
    max_nodes: int,
    ext_size: int,
    flags: int,
    family: int,
    p: Platform,
) -> tuple[PoolSpec, tuple[Allocation, ...], Rejection | None]:
    """What rte_rib(6)_create makes: the node pool, and the tailq entry and struct it allocates once the
    pool exists; or the rejection of max_nodes before anything is made."""
    d = _RIB[family]
    r = p.release
    if max_nodes <= 0:
        return PoolSpec("", 0, 0), (), _max_nodes_rejection(max_nodes, family)
    pool_name, elt = _node_pool(name, ext_size, family, r)
    tailq, struct = _allocation_sizes(family, r)
    allocs = (
        _new_allocation((d["tailq"], tailq, "tailq entry")),
        _new_allocation((d["prefix"] + name, struct, f"struct rte_{d['kind']}")),
    )
    return PoolSpec(pool_name, max_nodes, elt, flags=flags), allocs, None


#: ``Allocation(*values)`` for the two a batch makes per RIB (mpcalc.dpdk.core.records.positional)
_new_allocation = positional(Allocation)


def _after_pool(allocs: tuple[Allocation, ...], ring_slots: int | None) -> list[Allocation]:
    """The RIB's allocations, made only when its node pool was created (it has a ring): a pool that
    fails frees what it made and rte_rib_create returns (v22.11:lib/rib/rte_rib.c:410-418)."""
    return list(allocs) if ring_slots is not None else []


def _max_nodes_rejection(max_nodes: int, family: int) -> Rejection:
    d = _RIB[family]
    why = f"max_nodes is {max_nodes}"
    if max_nodes < 0 or max_nodes == -(1 << 31):
        why += " (max_routes * 2 overflowed the C int that holds it)"
    return Rejection(
        errno="EINVAL",
        reason=f"{why}: it must be positive",
        function=d["fn"],
        source=f"{d['src']}:404" if family == 4 else f"{d['src']}:473",
    )


def _node_pool(name: str, ext_size: int, family: int, r: ReleaseFacts) -> tuple[str, int]:
    """The node pool's name and elt_size."""
    if not 0 <= ext_size < 1 << 64:
        raise InputError(f"ext_size {ext_size!r} does not fit size_t", param="ext_size")
    # snprintf(mem_name, RTE_RIB_NAMESIZE, "MP_%s", name) truncates to 63 bytes.
    if name.isascii() and len(name) + 3 < r.rib_namesize:
        pool_name = "MP_" + name
    else:
        pool_name = ("MP_" + name).encode()[: r.rib_namesize - 1].decode(errors="ignore")
    return pool_name, u32(getattr(r, _RIB[family]["node"]) + ext_size)  # size_t sum passed as unsigned elt_size


def _allocation_sizes(family: int, r: ReleaseFacts) -> tuple[int, int]:
    """The RIB's rte_mallocs besides its pool: the tailq entry and struct rte_rib(6)."""
    return r.tailq_entry_size, getattr(r, _RIB[family]["struct"])


def size(name: str, max_nodes: int, ext_size: int, flags: int, family: int, p: Platform) -> Result:
    """``rte_rib_create`` / ``rte_rib6_create`` with ``max_nodes`` nodes: the node pool and the RIB's allocations."""
    mempools, allocs, errors = rib_parts(name, max_nodes, ext_size, flags, family, p)
    details = {"max_nodes": max_nodes, "node_size": getattr(p.release, _RIB[family]["node"]), "ext_size": ext_size}
    return assemble(_RIB[family]["kind"], flags, p, mempools, allocs, errors, details)


def _resolve(a: Mapping[str, Any]) -> Resolved:
    exactly_one(a, "routes", "nodes")
    routes = a["routes"]
    inputs = {
        "name": a["name"],
        "routes": routes,
        "max_nodes": rib_max_nodes(routes) if routes is not None else a["nodes"],
        "ext_size": a["ext_size"],
    }
    return new_resolved((inputs, {}))


def _declare(family: int) -> ObjectDecl:
    kind = _RIB[family]["kind"]
    node = "rte_rib_node (40 B)" if family == 4 else "rte_rib6_node (56 B)"

    def build(a: Mapping[str, Any], extra: Mapping[str, Any], flags: int, p: Platform) -> Result:
        return size(a["name"], a["max_nodes"], a["ext_size"], flags, family, p)

    def numbers(a: Mapping[str, Any], extra: Mapping[str, Any], flags: int, p: Platform) -> Footprint:
        return footprint(a["name"], a["max_nodes"], a["ext_size"], flags, family, p)

    return ObjectDecl(
        name=kind,
        summary=(
            f"An rte_{kind}_create() RIB: a node pool of {node} + ext_size objects. --flags sets the node "
            "pool's flags (DPDK uses none; the RIB patch proposes no_cache_align,no_spread,no_iova_contig)."
        ),
        params=(
            Param(
                "routes", "count", "Routes; max_nodes = 2 x routes, as rte_fib_create sizes its RIB.", lo=1, hi=INT_MAX
            ),
            Param("nodes", "count", "max_nodes directly.", lo=1, hi=INT_MAX),
            Param("ext_size", "size", "ext_sz: bytes added to each node.", default=0, show_default=True),
            Param("name", "text", "RIB name (memzones MP_MP_<name>...).", default=kind, show_default=True),
            FLAGS,
        ),
        build=build,
        footprint=numbers,
        resolve=_resolve,
        fit={"routes": RING_LIMIT // 2, "nodes": RING_LIMIT},
        zone_prefix="MP_MP_",
        input_names={"nodes": "max_nodes"},
        per=("max_nodes", "node"),
    )


RIB = _declare(4)
RIB6 = _declare(6)
