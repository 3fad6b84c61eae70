"""rte_rib / rte_rib6: the node mempool and the RIB struct."""

from collections.abc import Sequence
from typing import NamedTuple

from .errors import InputError, Rejection
from .facts import ReleaseFacts
from .intmath import u32
from .mempool import PoolCalc, PoolSpec, create_pool
from .records import Allocation, Mempool
from .platform import Platform


def rib_max_nodes(routes: int) -> int:
    """``rib_conf.max_nodes = conf->max_routes * 2`` as the C ``int`` it is stored in
    (v22.11:lib/fib/rte_fib.c:165-166): 2^30 routes and more wrap.

    >>> rib_max_nodes(1000000), rib_max_nodes(2**30), rib_max_nodes(2**30 + 1)
    (2000000, -2147483648, -2147483646)
    """
    v = u32(routes * 2)
    return v - (1 << 32) if v >= 1 << 31 else v


_RIB = {
    4: dict(kind="rib", node="rib_node_size", struct="rib_struct_size", prefix="RIB_",
            tailq="RIB_TAILQ_ENTRY", fn="rte_rib_create", src="v22.11:lib/rib/rte_rib.c"),
    6: dict(kind="rib6", node="rib6_node_size", struct="rib6_struct_size", prefix="RIB6_",
            tailq="RIB6_TAILQ_ENTRY", fn="rte_rib6_create", src="v22.11:lib/rib/rte_rib6.c"),
}


def rib_parts(name: str, max_nodes: int, ext_size: int, flags: int, family: int, p: Platform,
              ) -> tuple[list[Mempool], list[Allocation], list[Rejection]]:
    """``rte_rib_create`` / ``rte_rib6_create`` (v22.11:lib/rib/rte_rib.c:395-473, rte_rib6.c:463-543).

    ``flags`` are the node pool's flags: 0 in DPDK today, what the RIB patch
    (seed rib-node-pool-flags) proposes otherwise.
    """
    d = _RIB[family]
    r = p.release
    if max_nodes <= 0:
        return [], [], [_max_nodes_rejection(max_nodes, family)]
    pool_name, elt = _node_pool(name, ext_size, family, r)
    mp = create_pool(PoolSpec(name=pool_name, count=max_nodes, elt_size=elt, flags=flags), p)
    if mp.errors and mp.ring_size is None:
        return [mp], [], []
    tailq, struct = _allocation_sizes(family, r)
    allocs = [
        Allocation(name=d["tailq"], size=tailq, role="tailq entry"),
        Allocation(name=d["prefix"] + name, size=struct, role=f"struct rte_{d['kind']}"),
    ]
    return [mp], allocs, []


def _max_nodes_rejection(max_nodes: int, family: int) -> Rejection:
    d = _RIB[family]
    why = f"max_nodes is {max_nodes}"
    if max_nodes < 0 or max_nodes == -(1 << 31):
        why += " (max_routes * 2 overflowed the C int that holds it)"
    return Rejection(errno="EINVAL", reason=f"{why}: it must be positive", function=d["fn"],
                     source=f"{d['src']}:404" if family == 4 else f"{d['src']}:473")


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


class RibFootprint(NamedTuple):
    """A RIB's totals without its records: what a compact batch answer shows."""

    object_size: int | None
    total_bytes: int
    heap_bytes: int
    errors: tuple[Rejection, ...]


def rib_footprint(name: str, max_nodes: int, ext_size: int, flags: int, family: int, calc: PoolCalc,
                  ) -> RibFootprint:
    """The totals of :func:`rib_parts` + :func:`mpcalc.engine.assemble`, without their records;
    ``calc`` is the platform's :func:`~mpcalc.dpdk.mempool.pool_calc`."""
    return rib_footprints([name], [max_nodes], [ext_size], [flags], family, calc)[0]


def rib_footprints(names: Sequence[str], max_nodes: Sequence[int], ext_sizes: Sequence[int], flags: Sequence[int],
                   family: int, calc: PoolCalc) -> list[RibFootprint]:
    """:func:`rib_footprint` of many RIBs of one family, one per position of the columns."""
    r = calc.release
    tailq, struct = _allocation_sizes(family, r)
    extra_bytes, extra_heap = tailq + struct, calc.heap_cost(tailq) + calc.heap_cost(struct)
    out: list[RibFootprint | None] = [None] * len(names)
    pools: list[int] = []  # the positions whose node pool is created
    pool_names, elts = [], []
    for i, (name, nodes, ext_size) in enumerate(zip(names, max_nodes, ext_sizes)):
        if nodes <= 0:
            out[i] = RibFootprint(None, 0, 0, (_max_nodes_rejection(nodes, family),))
        else:
            pool_name, elt = _node_pool(name, ext_size, family, r)
            pools.append(i)
            pool_names.append(pool_name)
            elts.append(elt)
    sizes = calc.sizes_many(pool_names, [max_nodes[i] for i in pools], elts, [0] * len(pools), [0] * len(pools),
                            [flags[i] for i in pools], ["pointer"] * len(pools))
    for i, s in zip(pools, sizes):
        if s.created:
            out[i] = RibFootprint(s.object_size, s.total_bytes + extra_bytes, s.heap_bytes + extra_heap, s.errors)
        else:
            out[i] = RibFootprint(s.object_size, s.total_bytes, s.heap_bytes, s.errors)
    return out  # type: ignore[return-value]
