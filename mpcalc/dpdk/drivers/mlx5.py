"""mlx5_pci / net_mlx5: NVIDIA (Mellanox) ConnectX-4 to ConnectX-8 and BlueField, PFs, VFs and SFs.

mlx5 is a bifurcated driver: the kernel keeps the netdev, DPDK reaches the device through rdma-core (libibverbs,
libmlx5, DevX). No queue reserves a memzone. What queue set-up allocates in the DPDK heap (mlx5_malloc with
MLX5_MEM_RTE): per Rx queue its struct mlx5_rxq_priv and one block of struct mlx5_rxq_ctrl followed by
nb_desc (+ MLX5_VPMD_DESCS_PER_LOOP with vectorised Rx) mbuf pointers; per Tx queue a struct mlx5_txq_ctrl
followed by nb_desc mbuf pointers. nb_desc is rounded up to a power of two ("increased number of descriptors
in Rx queue %u to the next power of two"), its maximum is the device's max_wqe.

Outside the DPDK heap (stated, not sized): the verbs/DevX objects (QP, RQ, SQ, CQ contexts in the kernel and
the device), the doorbell and UAR pages mapped from the device, the memory registrations (ibv_reg_mr /
mlx5 MR cache: every mempool's memory is registered with the device, pinned by the kernel). Not modelled:
the per-queue MR b-tree caches (MLX5_MR_BTREE_CACHE_N entries, heap unless sys_mem_en) and the DevX umem
buffers of the WQ/CQ rings allocated at port start. From the driver's source, not run. Pure: stdlib only.
"""

from __future__ import annotations

import sys

from mpcalc.dpdk.drivers.pcibase import (
    RTE_CACHE_LINE_SIZE,
    Alloc,
    DescLim,
    QueueParts,
    Source,
    align32pow2,
    dev_int,
    same_dir,
)
from mpcalc.dpdk.drivers.pcipmd import declare

NAME = "mlx5_pci"
PROVENANCE = "source"
DIRS = same_dir("drivers/net/mlx5")
MLX5_VPMD_DESCS_PER_LOOP = 4
OUTSIDE = (
    "verbs/DevX queue objects (kernel and device memory)",
    "doorbell and UAR pages mapped from the device",
    "memory registrations of every mempool (ibv_reg_mr: kernel-pinned)",
)
NOT_MODELLED = (
    "the MR b-tree cache of each queue",
    "the DevX umem buffers of the WQ/CQ rings (allocated at port start)",
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
}

# --- LINES: generated from the DPDK mirror (tests/conformance/test_pci_sources.py holds them to it)
LINES: dict[str, dict[str, int | None]] = {
    "21.11": {
        "rx_pow2": 664,
        "rx_priv": 925,
        "rx_desc_n": 1742,
        "rx_ctrl": 1743,
        "tx_pow2": 348,
        "tx_ctrl": 1084,
        "lim": 346,
        "ring_size": 237,
    },
    "22.11": {
        "rx_pow2": 670,
        "rx_priv": 934,
        "rx_desc_n": 1751,
        "rx_ctrl": 1752,
        "tx_pow2": 352,
        "tx_ctrl": 1087,
        "lim": 389,
        "ring_size": 247,
    },
    "23.11": {
        "rx_pow2": 671,
        "rx_priv": 987,
        "rx_desc_n": 1805,
        "rx_ctrl": 1806,
        "tx_pow2": 352,
        "tx_ctrl": 1087,
        "lim": 389,
        "ring_size": 247,
    },
    "24.11": {
        "rx_pow2": 671,
        "rx_priv": 987,
        "rx_desc_n": 1805,
        "rx_ctrl": 1806,
        "tx_pow2": 353,
        "tx_ctrl": 1088,
        "lim": 397,
        "ring_size": 255,
    },
    "25.11": {
        "rx_pow2": 672,
        "rx_priv": 988,
        "rx_desc_n": 1843,
        "rx_ctrl": 1844,
        "tx_pow2": 355,
        "tx_ctrl": 1134,
        "lim": 397,
        "ring_size": 255,
    },
    "26.07": {
        "rx_pow2": 680,
        "rx_priv": 996,
        "rx_desc_n": 1853,
        "rx_ctrl": 1854,
        "tx_pow2": 355,
        "tx_ctrl": 1134,
        "lim": 415,
        "ring_size": 255,
    },
}
# --- end LINES

#: the device properties given on -a (see mpcalc.dpdk.drivers.pcipmd)
PROPS = ("max_wqe", "max_queues", "rx_vec_en")
BOOL_PROPS = ("rx_vec_en",)

SOURCE = Source(DIRS, KEYS, LINES)

STRUCTS = (("net_mlx5", "common_mlx5"), ("mlx5_rxq_priv", "mlx5_rxq_ctrl", "mlx5_txq_ctrl", "mlx5_priv"))
SIZES: dict[str, dict[str, int]] = {
    # --- SIZES: generated from pahole
    "21.11": {"mlx5_rxq_priv": 216, "mlx5_rxq_ctrl": 1792, "mlx5_txq_ctrl": 640, "mlx5_priv": 8720},
    "22.11": {"mlx5_rxq_priv": 232, "mlx5_rxq_ctrl": 1920, "mlx5_txq_ctrl": 704, "mlx5_priv": 14048},
    "23.11": {"mlx5_rxq_priv": 224, "mlx5_rxq_ctrl": 2112, "mlx5_txq_ctrl": 704, "mlx5_priv": 14232},
    "24.11": {"mlx5_rxq_priv": 224, "mlx5_rxq_ctrl": 2112, "mlx5_txq_ctrl": 704, "mlx5_priv": 14344},
    "25.11": {"mlx5_rxq_priv": 232, "mlx5_rxq_ctrl": 2240, "mlx5_txq_ctrl": 704, "mlx5_priv": 16336},
    "26.07": {"mlx5_rxq_priv": 232, "mlx5_rxq_ctrl": 2496, "mlx5_txq_ctrl": 704, "mlx5_priv": 16864},
    # --- end SIZES
}


def desc_lim(rel: str, dev: dict[str, object] | None = None) -> tuple[DescLim, DescLim]:
    """nb_max is the device's max_qp_wr (``dev["max_wqe"]``, 32768 on ConnectX-5/6)."""
    lim = DescLim(dev_int(dev, "max_wqe", 32768), 0, 1, SOURCE.cite(rel, "lim"))
    return lim, lim


def max_queues(rel: str, dev: dict[str, object] | None = None) -> tuple[int, int]:
    n = dev_int(dev, "max_queues", 1024)
    return n, n


def default_ring(rel: str) -> tuple[int, int]:
    return 256, 256


def rx_queue_setup(rel: str, port: int, queue: int, nb_desc: int, dev: dict[str, object] | None = None) -> QueueParts:
    """mlx5_rx_queue_setup -> mlx5_rxq_new (vectorised Rx, ``dev["rx_vec_en"]``, default on)."""
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
        ),
        outside=OUTSIDE,
        not_modelled=NOT_MODELLED,
    )


def tx_queue_setup(rel: str, port: int, queue: int, nb_desc: int, dev: dict[str, object] | None = None) -> QueueParts:
    """mlx5_tx_queue_setup -> mlx5_txq_new."""
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
        ),
        outside=OUTSIDE,
        not_modelled=NOT_MODELLED,
    )


PMD = declare(
    sys.modules[__name__],
    name=NAME,
    source="drivers/net/mlx5",
    kernel_drivers=("mlx5_core",),
    bifurcated=True,
)
