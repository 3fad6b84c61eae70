"""mlx5_pci / net_mlx5: NVIDIA (Mellanox) ConnectX-4 to ConnectX-8 and BlueField, PFs, VFs and SFs.

mlx5 is a bifurcated driver: the kernel keeps the netdev, DPDK reaches the device through rdma-core (libibverbs,
libmlx5, DevX). No queue reserves a memzone. What queue set-up allocates in the DPDK heap (mlx5_malloc with
MLX5_MEM_RTE): per Rx queue its struct mlx5_rxq_priv and one block of struct mlx5_rxq_ctrl followed by
nb_desc (+ MLX5_VPMD_DESCS_PER_LOOP with vectorised Rx) mbuf pointers; per Tx queue a struct mlx5_txq_ctrl
followed by nb_desc mbuf pointers; and each queue's MR b-tree cache (mlx5_mr_ctrl_init: MLX5_MR_BTREE_CACHE_N
struct mr_cache_entry). nb_desc is rounded up to a power of two ("increased number of descriptors in Rx queue %u
to the next power of two"), its maximum is the device's max_wqe. At probe the common device
(``mlx5_common_device``) and the device's global MR cache (2 x MLX5_MR_BTREE_CACHE_N entries).

Outside the DPDK heap (stated, not sized): the verbs/DevX objects (QP, RQ, SQ, CQ contexts in the kernel and the
device), the UAR and doorbell pages mapped from the device (devx_alloc_uar), the memory registrations (every
mempool's memory and every DevX ring buffer registered with the device: kernel-pinned pages of memory counted
where it lives). In the DPDK heap, not sized (:data:`NOT_MODELLED`): the DevX rings' buffers (umem), the mempool
registrations, the global MR cache's growth, the rest of probe. From the driver's source, not run.
Pure: stdlib only.
"""

from __future__ import annotations

import sys

from mpcalc.dpdk.drivers.pcibase import (
    RTE_CACHE_LINE_SIZE,
    Alloc,
    DescLim,
    QueueParts,
    Source,
    Zone,
    align32pow2,
    dev_int,
    load_lines,
    load_sizes,
    same_dir,
)
from mpcalc.dpdk.drivers.pcipmd import declare

NAME = "mlx5_pci"
PROVENANCE = "source"
DIRS = same_dir("drivers/net/mlx5")
MLX5_VPMD_DESCS_PER_LOOP = 4
OUTSIDE = (
    "verbs/DevX queue objects (QP, RQ, SQ, CQ contexts: kernel and device memory)",
    "UAR and doorbell pages mapped from the device (devx_alloc_uar)",
    "memory registrations (ibv_reg_mr of every mempool, DevX umem of every ring buffer: kernel-pinned pages of "
    "memory counted where it lives)",
)
#: MLX5_MR_BTREE_CACHE_N: a queue's MR b-tree entries; the device's global cache has twice as many
MLX5_MR_BTREE_CACHE_N = 256
NOT_MODELLED = (
    "the DevX ring buffers of every Rx and Tx queue (CQ, RQ and SQ umem with their doorbell records: "
    "mlx5_malloc(MLX5_MEM_RTE) at port start, sized by the queue's strides, segments and inline settings)",
    "the mempool registrations of port start (mlx5_malloc(MLX5_MEM_RTE), one entry per memory range of each pool)",
    "the global MR cache's growth beyond 2 x MLX5_MR_BTREE_CACHE_N entries (mlx5_mr_expand_cache)",
    "the rest of probe: the shared device context, the port's private structure, its flow and indexed pools",
)

KEYS = {
    "rx_pow2": ("mlx5_rxq.c", r"\*desc = 1 << log2above\(\*desc\);"),
    "rx_priv": ("mlx5_rxq.c", r"rxq = mlx5_malloc\(MLX5_MEM_RTE \| MLX5_MEM_ZERO, sizeof\(\*rxq\), 0,"),
    "rx_desc_n": ("mlx5_rxq.c", r"desc_n = desc \+ config->rx_vec_en \* MLX5_VPMD_DESCS_PER_LOOP;"),
    "rx_ctrl": ("mlx5_rxq.c", r"alloc_size = sizeof\(\*tmpl\) \+ desc_n \* sizeof\(struct rte_mbuf \*\);"),
    "tx_pow2": ("mlx5_txq.c", r"\*desc = 1 << log2above\(\*desc\);"),
    "tx_ctrl": ("mlx5_txq.c", r"tmpl = mlx5_malloc\(MLX5_MEM_RTE \| MLX5_MEM_ZERO, sizeof\(\*tmpl\) \+"),
    "lim": ("mlx5_ethdev.c", r"info->rx_desc_lim.nb_max =( max_wqe;)?$"),
    "ring_size": ("mlx5_ethdev.c", r"info->default_rxportconf.ring_size = 256;"),
    # the MR b-tree caches: each queue's (mlx5_mr_ctrl_init) and the device's (mlx5_mr_create_cache at probe)
    "rx_mr_ctrl": ("mlx5_rxq.c", r"mlx5_mr_ctrl_init\(&tmpl->rxq.mr_ctrl,"),
    "tx_mr_ctrl": ("mlx5_txq.c", r"mlx5_mr_ctrl_init\(&tmpl->txq.mr_ctrl,"),
    "mr_ctrl_btree": (
        "drivers/common/mlx5/mlx5_common_mr.c",
        r"return mlx5_mr_btree_init\(&mr_ctrl->cache_bh, MLX5_MR_BTREE_CACHE_N,",
    ),
    "btree_alloc": ("drivers/common/mlx5/mlx5_common_mr.c", r"bt->table = mlx5_malloc\(MLX5_MEM_RTE \| MLX5_MEM_ZERO,"),
    "btree_size": ("drivers/common/mlx5/mlx5_common_mr.c", r"sizeof\(struct mr_cache_entry\) \* n,"),
    "cache_n": ("drivers/common/mlx5/mlx5_common_defs.h", r"define MLX5_MR_BTREE_CACHE_N 256"),
    "mr_entry": ("drivers/common/mlx5/mlx5_common_mr.h", r"^struct (__rte_packed_begin )?mr_cache_entry \{"),
    "global_cache": ("drivers/common/mlx5/mlx5_common_mr.c", r"MLX5_MR_BTREE_CACHE_N \* 2, socket\);"),
    "dev_cache": (
        "drivers/common/mlx5/mlx5_common.c",
        r"ret = mlx5_mr_create_cache\(&cdev->mr_scache, eal_dev->numa_node\);",
    ),
    "cdev": (
        "drivers/common/mlx5/mlx5_common.c",
        r"cdev = rte_zmalloc\(\"mlx5_common_device\", sizeof\(\*cdev\), 0\);",
    ),
    "rte_mem": ("drivers/common/mlx5/mlx5_malloc.c", r"if \(flags & MLX5_MEM_RTE\)"),
    # what is not sized: the DevX rings' umem buffers (in the heap) and what is outside it
    "umem_buf": (
        "drivers/common/mlx5/mlx5_common_devx.c",
        r"umem_buf = mlx5_malloc(_numa_tolerant)?\(MLX5_MEM_RTE \| MLX5_MEM_ZERO, umem_size,",
    ),
    "umem_reg": (
        "drivers/common/mlx5/mlx5_common_devx.c",
        r"umem_obj = mlx5_os_umem_reg\(ctx, \(void \*\)\(uintptr_t\)umem_buf,",
    ),
    "uar": ("drivers/common/mlx5/mlx5_common.c", r"uar = mlx5_glue->devx_alloc_uar\(cdev->ctx, uar_mapping\);"),
    "mempool_reg": ("drivers/common/mlx5/mlx5_common_mr.c", r"mpr = mlx5_malloc\(MLX5_MEM_RTE \| MLX5_MEM_ZERO,"),
    "sh": ("mlx5.c", r"sh = mlx5_malloc\(MLX5_MEM_ZERO \| MLX5_MEM_RTE,"),
    "priv": ("linux/mlx5_os.c", r"priv = mlx5_malloc\(MLX5_MEM_ZERO \| MLX5_MEM_RTE,"),
    "expand_cache": (
        "drivers/common/mlx5/mlx5_common_mr.c",
        r"^mlx5_mr_expand_cache\(struct mlx5_mr_share_cache \*share_cache,",
    ),
}

#: each key's line at each release: mpcalc/dpdk/drivers/lines/mlx5.json, read from the DPDK mirror
#: (tests/conformance/test_pci_sources.py holds them to it)
LINES = load_lines("mlx5")

#: the device properties given on -a (see mpcalc.dpdk.drivers.pcipmd)
PROPS = ("max_wqe", "max_queues", "rx_vec_en")
BOOL_PROPS = ("rx_vec_en",)

SOURCE = Source(DIRS, KEYS, LINES)

STRUCTS = (
    ("net_mlx5", "common_mlx5"),
    ("mlx5_rxq_priv", "mlx5_rxq_ctrl", "mlx5_txq_ctrl", "mlx5_priv", "mr_cache_entry", "mlx5_common_device"),
)
SIZES = load_sizes("mlx5")  # mpcalc/dpdk/drivers/sizes/mlx5.json


def desc_lim(rel: str, dev: dict[str, object] | None = None) -> tuple[DescLim, DescLim]:
    """nb_max is the device's max_qp_wr (``dev["max_wqe"]``, 32768 on ConnectX-5/6)."""
    lim = DescLim(dev_int(dev, "max_wqe", 32768), 0, 1, SOURCE.cite(rel, "lim"))
    return lim, lim


def max_queues(rel: str, dev: dict[str, object] | None = None) -> tuple[int, int]:
    n = dev_int(dev, "max_queues", 1024)
    return n, n


def default_ring(rel: str) -> tuple[int, int]:
    return 256, 256


def mr_btree(rel: str, side: str, n: int = MLX5_MR_BTREE_CACHE_N) -> Alloc:
    """A b-tree cache of n struct mr_cache_entry (20 bytes, packed), mlx5_mr_btree_init's
    mlx5_malloc(MLX5_MEM_RTE | MLX5_MEM_ZERO, sizeof(struct mr_cache_entry) * n, 0, socket): a queue's
    (``side`` "rx"/"tx": mlx5_mr_ctrl_init, MLX5_MR_BTREE_CACHE_N) or the device's (``side`` "dev":
    mlx5_mr_create_cache at probe, twice as many)."""
    c = SOURCE.cite
    where = {"rx": c(rel, "rx_mr_ctrl"), "tx": c(rel, "tx_mr_ctrl"), "dev": c(rel, "dev_cache")}[side]
    how = c(rel, "global_cache" if side == "dev" else "mr_ctrl_btree", "btree_alloc", "btree_size")
    cite = "; ".join((where, how, c(rel, "cache_n"), c(rel, "mr_entry"), c(rel, "rte_mem")))
    name = "mlx5 mr_scache.cache" if side == "dev" else f"mlx5 {side}q mr_ctrl.cache_bh"
    role = "global MR cache" if side == "dev" else f"{side} queue MR cache"
    return Alloc(name, SIZES[rel]["mr_cache_entry"] * n, 0, cite, role)


def rx_queue_setup(rel: str, port: int, queue: int, nb_desc: int, dev: dict[str, object] | None = None) -> QueueParts:
    """mlx5_rx_queue_setup -> mlx5_rxq_new (vectorised Rx, ``dev["rx_vec_en"]``, default on): its private
    structure, the control block with the mbuf pointers, and its MR cache."""
    desc = align32pow2(max(nb_desc, 1))
    s = SIZES[rel]
    desc_n = desc + (MLX5_VPMD_DESCS_PER_LOOP if (dev or {}).get("rx_vec_en", True) else 0)
    return QueueParts(
        desc,
        allocs=(
            Alloc("mlx5 rxq", s["mlx5_rxq_priv"], RTE_CACHE_LINE_SIZE, SOURCE.cite(rel, "rx_priv"), "rx queue private"),
            Alloc(
                "mlx5 rxq_ctrl",
                s["mlx5_rxq_ctrl"] + 8 * desc_n,
                RTE_CACHE_LINE_SIZE,
                SOURCE.cite(rel, "rx_desc_n", "rx_ctrl"),
                "rx queue control and mbuf pointers",
            ),
            mr_btree(rel, "rx"),
        ),
        outside=OUTSIDE,
        not_modelled=NOT_MODELLED,
    )


def tx_queue_setup(rel: str, port: int, queue: int, nb_desc: int, dev: dict[str, object] | None = None) -> QueueParts:
    """mlx5_tx_queue_setup -> mlx5_txq_new: the control block with the mbuf pointers, and its MR cache."""
    desc = align32pow2(max(nb_desc, 1))
    return QueueParts(
        desc,
        allocs=(
            Alloc(
                "mlx5 txq_ctrl",
                SIZES[rel]["mlx5_txq_ctrl"] + 8 * desc,
                RTE_CACHE_LINE_SIZE,
                SOURCE.cite(rel, "tx_ctrl"),
                "tx queue control and mbuf pointers",
            ),
            mr_btree(rel, "tx"),
        ),
        outside=OUTSIDE,
        not_modelled=NOT_MODELLED,
    )


def probe(rel: str, port: int, dev: dict[str, object] | None = None) -> tuple[tuple[Zone, ...], tuple[Alloc, ...]]:
    """mlx5_common_dev_create: the common device (rte_zmalloc("mlx5_common_device")) and its global MR cache
    (mlx5_mr_create_cache); the rest of probe is not modelled (:data:`NOT_MODELLED`)."""
    cdev = Alloc(
        "mlx5_common_device", SIZES[rel]["mlx5_common_device"], 0, SOURCE.cite(rel, "cdev"), "mlx5 common device"
    )
    return (), (cdev, mr_btree(rel, "dev", 2 * MLX5_MR_BTREE_CACHE_N))


def not_modelled(rel: str, dev: dict[str, object] | None = None) -> tuple[str, ...]:
    """What the model leaves uncounted in the heap, each sentence with the lines it rests on."""
    c = SOURCE.cite
    cites = (
        c(rel, "umem_buf", "umem_reg"),
        c(rel, "mempool_reg"),
        c(rel, "expand_cache"),
        f"{c(rel, 'sh')}; {c(rel, 'priv')}",
    )
    return tuple(f"{text} ({cite})" for text, cite in zip(NOT_MODELLED, cites, strict=True))


PMD = declare(
    sys.modules[__name__],
    name=NAME,
    source="drivers/net/mlx5",
    kernel_drivers=("mlx5_core",),
    bifurcated=True,
)
