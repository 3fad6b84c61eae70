"""rte_rib / rte_rib6: the node mempool and the RIB struct."""

from __future__ import annotations

from .errors import InputError, Rejection
from .intmath import u32
from .mempool import PoolSpec, create_pool
from .model import Allocation, Mempool
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
        why = f"max_nodes is {max_nodes}"
        if max_nodes < 0 or max_nodes == -(1 << 31):
            why += " (max_routes * 2 overflowed the C int that holds it)"
        return [], [], [Rejection(errno="EINVAL", reason=f"{why}: it must be positive", function=d["fn"],
                                  source=f"{d['src']}:404" if family == 4 else f"{d['src']}:473")]
    if not 0 <= ext_size < 1 << 64:
        raise InputError(f"ext_size {ext_size!r} does not fit size_t", param="ext_size")
    # snprintf(mem_name, RTE_RIB_NAMESIZE, "MP_%s", name) truncates to 63 bytes.
    pool_name = ("MP_" + name).encode()[: r.rib_namesize - 1].decode(errors="ignore")
    elt = u32(getattr(r, d["node"]) + ext_size)  # size_t sum passed as unsigned elt_size
    mp = create_pool(PoolSpec(name=pool_name, count=max_nodes, elt_size=elt, flags=flags), p)
    if mp.errors and mp.ring_size is None:
        return [mp], [], []
    allocs = [
        Allocation(name=d["tailq"], size=r.tailq_entry_size, role="tailq entry"),
        Allocation(name=d["prefix"] + name, size=getattr(r, d["struct"]), role=f"struct rte_{d['kind']}"),
    ]
    return [mp], allocs, []
