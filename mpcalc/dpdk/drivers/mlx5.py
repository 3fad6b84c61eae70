"""mlx5_pci / net_mlx5: NVIDIA (Mellanox) ConnectX-4 to ConnectX-8 and BlueField, PFs, VFs and SFs.

mlx5 is a bifurcated driver: the kernel keeps the netdev, DPDK reaches the device through rdma-core (libibverbs,
libmlx5, DevX). No queue reserves a memzone. What queue set-up allocates in the DPDK heap (mlx5_malloc with
MLX5_MEM_RTE): per Rx queue its struct mlx5_rxq_priv and one block of struct mlx5_rxq_ctrl followed by
nb_desc (+ MLX5_VPMD_DESCS_PER_LOOP with vectorised Rx) mbuf pointers; per Tx queue a struct mlx5_txq_ctrl
followed by nb_desc mbuf pointers; and each queue's MR b-tree cache (mlx5_mr_ctrl_init: MLX5_MR_BTREE_CACHE_N
struct mr_cache_entry). nb_desc is rounded up to a power of two ("increased number of descriptors in Rx queue %u
to the next power of two"), its maximum is the device's max_wqe. At probe the common device
(``mlx5_common_device``) and the device's global MR cache (2 x MLX5_MR_BTREE_CACHE_N entries).

At dev start (mlx5_dev_start: the Tx queues, then the Rx queues) every queue's DevX ring buffers, each a
page-aligned umem with its 64-byte doorbell record after the ring (mlx5_common_devx.c,
mlx5_malloc(MLX5_MEM_RTE | MLX5_MEM_ZERO): the DPDK heap whatever sys_mem_en says): an Rx queue's CQ (a 64-byte
CQE per descriptor, twice as many with CQE compression on a queue that is not vectorised) and RQ (16 bytes a
descriptor); a Tx queue's CQ (nb_desc / 32 + 9 CQEs, to the next power of two) and SQ (nb_desc times the WQEBBs its
inline settings and TSO ask, to the next power of two, at most max_wqe); from 25.11 (txq_mem_algn, on by default)
all of a port's Tx SQs and CQs in one buffer. The device's answers (its max_wqe, its minimal inline mode, its VLAN
insertion) are :data:`PROPS` with a ConnectX-6 Dx PF's defaults.

Outside the DPDK heap (stated, not sized): the verbs/DevX objects (QP, RQ, SQ, CQ contexts in the kernel and the
device), the UAR and doorbell pages mapped from the device (devx_alloc_uar), the memory registrations (every
mempool's memory and every DevX ring buffer registered with the device: kernel-pinned pages of memory counted
where it lives). In the DPDK heap, not sized (:data:`NOT_MODELLED`): a Multi-Packet RQ's buffers (mprq_en), a
shared Rx queue's RMP and hairpin queues, Verbs queues (dv_flow_en=0), the mempool registrations, the global MR
cache's growth, the rest of probe. From the driver's source, not run.
Pure: stdlib only.
"""

from __future__ import annotations

import sys
from typing import NamedTuple

from mpcalc.dpdk.core.errors import Rejection
from mpcalc.dpdk.core.facts import release
from mpcalc.dpdk.drivers.pcibase import (
    RTE_CACHE_LINE_SIZE,
    Alloc,
    DescLim,
    QueueParts,
    Source,
    Zone,
    align32pow2,
    align_ceil,
    dev_int,
    load_lines,
    load_sizes,
    refuse,
    same_dir,
    since,
)
from mpcalc.dpdk.drivers.pcipmd import declare
from mpcalc.dpdk.drivers.pmd import (
    RTE_ETHER_CRC_LEN,
    RTE_ETHER_HDR_LEN,
    RTE_MEM_PAGE_SIZE,
    RX_OFFLOAD_SCATTER,
    RX_OFFLOAD_TCP_LRO,
    RX_OFFLOAD_TIMESTAMP,
    TX_OFFLOAD_GRE_TNL_TSO,
    TX_OFFLOAD_IP_TNL_TSO,
    TX_OFFLOAD_TCP_TSO,
    TX_OFFLOAD_UDP_TNL_TSO,
    TX_OFFLOAD_VLAN_INSERT,
    TX_OFFLOAD_VXLAN_TNL_TSO,
    QueueConf,
    rx_segments,
)

NAME = "mlx5_pci"
PROVENANCE = "source"
DIRS = same_dir("drivers/net/mlx5")
MLX5_VPMD_DESCS_PER_LOOP = 4
DEVX = "drivers/common/mlx5/mlx5_common_devx.c"
OUTSIDE = (
    "verbs/DevX queue objects (QP, RQ, SQ, CQ contexts: kernel and device memory)",
    "UAR and doorbell pages mapped from the device (devx_alloc_uar)",
    "memory registrations (ibv_reg_mr of every mempool, DevX umem of every ring buffer: kernel-pinned pages of "
    "memory counted where it lives)",
)
#: MLX5_MR_BTREE_CACHE_N: a queue's MR b-tree entries; the device's global cache has twice as many
MLX5_MR_BTREE_CACHE_N = 256
NOT_MODELLED = (
    "with mprq_en=1 and at least rxqs_min_mprq Rx queues, the Multi-Packet RQ: its stride WQEs (struct "
    "mlx5_wqe_mprq), its CQ of a CQE per stride, its rxq_ctrl's MPRQ buffer pointers and the MPRQ mempool; "
    "the model sizes the ordinary RQ (mprq_en is off by default)",
    "a shared Rx queue's RMP (share_group: mlx5_devx_rmp_create) and hairpin queues' buffers",
    "with dv_flow_en=0 (or without DevX) the queues are Verbs objects, their rings rdma-core's, not the DevX "
    "rings the model sizes",
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
    "tx_min": ("mlx5_txq.c", r"\*desc = MLX5_TX_COMP_THRESH \+ 1;"),
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
    "mprq_cqe": ("mlx5_rxq.c", r"cqe_n = wqe_n \* RTE_BIT32\(rxq_data->log_strd_num\) - 1;"),
    "mprq_wqe": ("mlx5_devx.c", r"wqe_size = sizeof\(struct mlx5_wqe_mprq\);"),
    "rmp": (DEVX, r"^mlx5_devx_rmp_create\(void \*ctx"),
    "devx_ops": ("linux/mlx5_os.c", r"priv->obj_ops = (mlx5_)?devx_obj_ops;"),
    "ibv_ops": ("linux/mlx5_os.c", r"priv->obj_ops = (mlx5_)?ibv_obj_ops;"),
    # the DevX ring buffers (mlx5_common_devx.c): a CQ's, an SQ's and an RQ's (mlx5_devx_wq_init) umem, its doorbell
    # record after it, page-aligned, mlx5_malloc(MLX5_MEM_RTE | MLX5_MEM_ZERO): the DPDK heap whatever sys_mem_en
    "cq_align": (DEVX, r"size_t alignment = MLX5_CQE_BUF_ALIGNMENT;"),
    "cq_umem": (DEVX, r"umem_size = sizeof\(struct mlx5_cqe\) \* num_of_cqes;"),
    "cq_dbr": (DEVX, r"umem_size \+= MLX5_DBR_SIZE;", 1),
    "sq_align": (DEVX, r"size_t alignment = MLX5_WQE_BUF_ALIGNMENT;", 1),
    "sq_umem": (DEVX, r"umem_size = MLX5_WQE_SIZE \* num_of_wqbbs;"),
    "sq_dbr": (DEVX, r"umem_size \+= MLX5_DBR_SIZE;", 2),
    "sq_buf": (DEVX, r"umem_buf = mlx5_malloc(_numa_tolerant)?\(MLX5_MEM_RTE \| MLX5_MEM_ZERO, umem_size,", 2),
    "wq_align": (DEVX, r"size_t alignment = MLX5_WQE_BUF_ALIGNMENT;", 3),
    "wq_umem": (DEVX, r"umem_size = wqe_size \* \(1 << log_wqbb_n\);"),
    "wq_dbr": (DEVX, r"umem_size \+= MLX5_DBR_SIZE;", 4),
    "wq_buf": (DEVX, r"umem_buf = mlx5_malloc(_numa_tolerant)?\(MLX5_MEM_RTE \| MLX5_MEM_ZERO, umem_size,", 4),
    "dbr_size": ("drivers/common/mlx5/mlx5_common.h", r"define MLX5_DBR_SIZE RTE_CACHE_LINE_SIZE"),
    "cqe_buf_align": ("drivers/common/mlx5/mlx5_prm.h", r"define MLX5_CQE_BUF_ALIGNMENT rte_mem_page_size\(\)"),
    "wqe_buf_align": ("drivers/common/mlx5/mlx5_prm.h", r"define MLX5_WQE_BUF_ALIGNMENT rte_mem_page_size\(\)"),
    # dev start: the Tx queues (mlx5_txq_start), then the Rx queues (mlx5_rxq_start)
    "start_tx": ("mlx5_trigger.c", r"ret = mlx5_txq_start\(dev\);"),
    "start_rx": ("mlx5_trigger.c", r"ret = mlx5_rxq_start\(dev\);"),
    # an Rx queue (mlx5_rxq_devx_obj_new): its CQ, then its RQ
    "rx_obj_cq": ("mlx5_devx.c", r"ret = mlx5_rxq_create_devx_cq_resources\(rxq\);"),
    "rx_obj_rq": ("mlx5_devx.c", r"ret = mlx5_rxq_create_devx_rq_resources\(rxq\);"),
    "rx_cqe_n": ("mlx5_devx.c", r"unsigned int cqe_n = mlx5_rxq_cqe_num\(rxq_data\);"),
    "rx_cqe_comp": ("mlx5_devx.c", r"if \(priv->config.cqe_comp && !rxq_data->hw_timestamp &&"),
    "rx_cqe_double": ("mlx5_devx.c", r"cqe_n \*= 2;"),
    "rx_log_cqe": ("mlx5_devx.c", r"log_cqe_n = log2above\(cqe_n\);"),
    "rx_cq_create": ("mlx5_devx.c", r"ret = mlx5_devx_cq_create\(sh->cdev->ctx, &rxq_ctrl->obj->cq_obj,"),
    "cqe_num": ("mlx5_rxq.c", r"cqe_n = wqe_n - 1;"),
    "vec_support": ("mlx5_rxtx_vec.c", r"if \(!RXQ_PORT\(ctrl\)->config.rx_vec_en \|\| rxq->sges_n != 0\)"),
    "cqe_comp_on": ({"21.11": "linux/mlx5_os.c", "*": "mlx5.c"}, r"config->cqe_comp = 1;"),
    "cqe_comp_arg": ("mlx5.c", r"config->cqe_comp = !!tmp;"),
    "rq_log_desc": ("mlx5_devx.c", r"uint16_t log_desc_n = rxq_data->elts_n - rxq_data->sges_n;"),
    "rq_wqe": ("mlx5_devx.c", r"wqe_size = sizeof\(struct mlx5_wqe_data_seg\);"),
    "rq_log_wqe": ("mlx5_devx.c", r"log_wqe_size = log2above\(wqe_size\) \+ rxq_data->sges_n;"),
    "rq_create": ("mlx5_devx.c", r"return mlx5_devx_rq_create\(cdev->ctx, &rxq->devx_rq, wqe_size,"),
    # an Rx queue's scatter (mlx5_rxq_new): the segments a packet of the MTU needs, a power of two
    "rx_pktlen": ("mlx5_rxq.c", r"dev->data->mtu \+ \(unsigned int\)RTE_ETHER_HDR_LEN \+"),
    "rx_seg_loop": ("mlx5_rxq.c", r"\} while \(tail_len \|\| !rte_is_power_of_2\(tmpl->rxq.rxseg_n\)\);"),
    "rx_no_scatter": ("mlx5_rxq.c", r"DRV_LOG\(ERR, \"port %u Rx queue %u: Scatter offload is not\""),
    "rx_sges": ("mlx5_rxq.c", r"sges_n = log2above\(tmpl->rxq.rxseg_n\);"),
    "rx_elts": ("mlx5_rxq.c", r"tmpl->rxq.elts_n = log2above\(desc\);"),
    # a Tx queue (mlx5_txq_devx_obj_new): its CQ, then its SQ of the WQEBBs its inline settings ask
    "tx_cqe_n": ("mlx5_devx.c", r"cqe_n = \(1UL << txq_data->elts_n\) / MLX5_TX_COMP_THRESH \+"),
    "tx_cq_create": ("mlx5_devx.c", r"ret = mlx5_devx_cq_create\(sh->cdev->ctx, &txq_obj->cq_obj, log_desc_n,"),
    "tx_wqe_tso": ("mlx5_devx.c", r"wqe_size = txq_data->tso_en \?"),
    "tx_wqe_inline": ("mlx5_devx.c", r"if \(txq_data->inlen_send\)$"),
    "tx_wqe_n": ("mlx5_devx.c", r"wqe_n = RTE_MIN\(\(1UL << txq_data->elts_n\) \* wqe_size,"),
    "tx_sq_res": ("mlx5_devx.c", r"ret = mlx5_txq_create_devx_sq_resources\(dev, idx, log_desc_n\);"),
    "comp_thresh": ("mlx5_defs.h", r"define MLX5_TX_COMP_THRESH 32u"),
    "comp_div": ("mlx5_defs.h", r"define MLX5_TX_COMP_THRESH_INLINE_DIV \(1 << 3\)"),
    # the Tx inline settings (mlx5_txq.c: txq_set_params, txq_adjust_params, txq_calc_wqebb_cnt at mlx5_txq_new)
    "txqs_inline": ("mlx5_txq.c", r"^\s+MLX5_INLINE_MAX_TXQS;"),
    "send_def": ("mlx5_txq.c", r"MLX5_SEND_DEF_INLINE_LEN :"),
    "empw_def": ("mlx5_txq.c", r"MLX5_EMPW_DEF_INLINE_LEN :"),
    "inlen_mode": ("mlx5_txq.c", r"inlen_mode = \(config->txq_inline_min == MLX5_ARG_UNSET\) \?"),
    "mps_off": ("mlx5_txq.c", r"if \(config->mps != MLX5_MPW_ENHANCED && config->mps != MLX5_MPW\)"),
    "mode_align": ("mlx5_txq.c", r"temp = RTE_MIN\(temp, MLX5_SEND_MAX_INLINE_LEN\);", 1),
    "vlan_inline": ("mlx5_txq.c", r"vlan_inline = \(dev_txoff & RTE_ETH_TX_OFFLOAD_VLAN_INSERT\) &&"),
    "send_on": ("mlx5_txq.c", r"if \(inlen_send && priv->txqs_n >= txqs_inline\) \{"),
    "send_align": ("mlx5_txq.c", r"temp = RTE_MAX\(temp, inlen_mode\);"),
    "empw_on": ("mlx5_txq.c", r"if \(inlen_send && inlen_empw && priv->txqs_n >= txqs_inline\) \{"),
    "empw_align": ("mlx5_txq.c", r"temp = RTE_MIN\(temp, MLX5_EMPW_MAX_INLINE_LEN\);"),
    "tso_header": ("mlx5_txq.c", r"txq_ctrl->max_tso_header = MLX5_MAX_TSO_HEADER;"),
    "inline_max": ("mlx5_txq.c", r"^txq_calc_inline_max\(struct mlx5_txq_ctrl \*txq_ctrl\)"),
    "adjust": ("mlx5_txq.c", r"^txq_adjust_params\(struct mlx5_txq_ctrl \*txq_ctrl\)"),
    "adjust_send": ("mlx5_txq.c", r"txq_ctrl->txq.inlen_send = max_inline;"),
    "adjust_eseg": ("mlx5_txq.c", r"max_inline -= MLX5_ESEG_MIN_INLINE_SIZE - MLX5_DSEG_MIN_INLINE_SIZE;"),
    "adjust_mode": ("mlx5_txq.c", r"\"minimal data inline requirements \(%u\) are not"),
    "adjust_max": ("mlx5_txq.c", r"\"txq_inline_max requirements \(%u\) are not"),
    "adjust_mpw": ("mlx5_txq.c", r"\"txq_inline_mpw requirements \(%u\) are not"),
    "adjust_tso": ("mlx5_txq.c", r"\"tso header inline requirements \(%u\) are not"),
    "wqebb_cnt": ("mlx5_txq.c", r"^txq_calc_wqebb_cnt\(struct mlx5_txq_ctrl \*txq_ctrl"),
    "wqebb_limit": ("mlx5_txq.c", r"\"port %u Tx WQEBB count \(%d\) exceeds the limit \(%d\),\""),
    "min_inline": ("mlx5.c", r"case MLX5_CAP_INLINE_MODE_NOT_REQUIRED:"),
    # 25.11+: every Tx queue's SQ and CQ in one umem of the port (txq_mem_algn, on by default: log2 of the page)
    "mem_algn_on": ("mlx5.c", r"config->txq_mem_algn = log2above\(alignment\);"),
    "mem_algn_min": ("mlx5.c", r"if \(config->txq_mem_algn != 0 && config->txq_mem_algn < log2above\(alignment\)\) \{"),
    "txq_mem_len": ("mlx5_txq.c", r"tmpl->txq.sq_mem_len = mlx5_txq_wq_mem_length\(log_desc_n\);"),
    "cq_mem_len": ("mlx5_txq.c", r"return sizeof\(struct mlx5_cqe\) \* cqe_n;"),
    "start_consec": ("mlx5_trigger.c", r"ret = mlx5_dev_allocate_consec_tx_mem\(dev\);"),
    "consec_align": ("mlx5_trigger.c", r"alignment = \(size_t\)1 << priv->sh->config.txq_mem_algn;"),
    "consec_dbr": ("mlx5_trigger.c", r"total_size \+= MLX5_DBR_SIZE \* priv->txqs_n \* 2;"),
    "consec_buf": (
        "mlx5_trigger.c",
        r"umem_buf = mlx5_malloc_numa_tolerant\(MLX5_MEM_RTE \| MLX5_MEM_ZERO, total_size,",
    ),
}

#: each key's line at each release: mpcalc/dpdk/drivers/lines/mlx5.json, read from the DPDK mirror
#: (tests/conformance/test_pci_sources.py holds them to it)
LINES = load_lines("mlx5")

#: the device properties given on -a (see mpcalc.dpdk.drivers.pcipmd): the device's max_wqe (max_qp_wr), its queues,
#: whether it inserts VLAN tags itself (hw_vlan_insert, wqe_vlan_insert); and the driver's devargs the model reads:
#: rx_vec_en, rxq_cqe_comp_en, the Tx inline settings (txq_inline_min defaults to the device's minimal inline mode),
#: txq_mpw_en, txq_mem_algn (25.11+) and sys_mem_en (which moves none of the memory modelled: all MLX5_MEM_RTE).
#: The defaults are a ConnectX-6 Dx PF's.
PROPS = (
    "max_wqe",
    "max_queues",
    "hw_vlan_insert",
    "rx_vec_en",
    "rxq_cqe_comp_en",
    "txq_inline_max",
    "txq_inline_min",
    "txq_inline_mpw",
    "txqs_min_inline",
    "txq_mpw_en",
    "txq_mem_algn",
    "sys_mem_en",
)
BOOL_PROPS = ("rx_vec_en", "hw_vlan_insert", "sys_mem_en")

SOURCE = Source(DIRS, KEYS, LINES)

STRUCTS = (
    ("net_mlx5", "common_mlx5"),
    (
        "mlx5_rxq_priv",
        "mlx5_rxq_ctrl",
        "mlx5_txq_ctrl",
        "mlx5_priv",
        "mr_cache_entry",
        "mlx5_common_device",
        "mlx5_cqe",
        "mlx5_wqe",
        "mlx5_wqe_data_seg",
    ),
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


#: sizeof(struct mlx5_cqe), (struct mlx5_wqe) = MLX5_WQE_SIZE (a WQEBB), the 16-byte segments
#: (mlx5_wqe_cseg/eseg/dseg = MLX5_WSEG_SIZE, mlx5dv's mlx5_wqe_data_seg): SIZES, the same at every release
MLX5_WSEG_SIZE = 16
MLX5_ESEG_MIN_INLINE_SIZE = 18
MLX5_DSEG_MIN_INLINE_SIZE = 12
MLX5_WQE_SIZE_MAX = 60 * MLX5_WSEG_SIZE
MLX5_TX_COMP_THRESH = 32
MLX5_TX_COMP_THRESH_INLINE_DIV = 1 << 3
MLX5_MAX_TSO_HEADER = 192
MLX5_INLINE_MAX_TXQS = 8
#: rte_mem_page_size(): the system page (MLX5_CQE_BUF_ALIGNMENT / MLX5_WQE_BUF_ALIGNMENT), 4 KiB on x86_64 Linux
PAGE_SIZE = RTE_MEM_PAGE_SIZE
TSO_OFFLOADS = (
    TX_OFFLOAD_TCP_TSO
    | TX_OFFLOAD_VXLAN_TNL_TSO
    | TX_OFFLOAD_GRE_TNL_TSO
    | TX_OFFLOAD_IP_TNL_TSO
    | TX_OFFLOAD_UDP_TNL_TSO
)


def log2above(v: int) -> int:
    """mlx5's log2above: the log2 of the next power of two (0 for 0 and 1).

    >>> log2above(255), log2above(256), log2above(41), log2above(0)
    (8, 8, 6, 0)
    """
    return (v - 1).bit_length() if v > 1 else 0


def umem(rel: str, name: str, q_bytes: int, keys: tuple[str, ...], role: str) -> Alloc:
    """A DevX ring buffer: the queue's bytes and MLX5_DBR_SIZE of doorbell record after them, page-aligned,
    mlx5_malloc(MLX5_MEM_RTE | MLX5_MEM_ZERO, umem_size, alignment, socket): MLX5_MEM_RTE is the DPDK heap
    whatever sys_mem_en says (mlx5_malloc: ``if (flags & MLX5_MEM_RTE) rte_mem = true``)."""
    c = SOURCE.cite
    cite = "; ".join((c(rel, *keys), c(rel, "dbr_size"), c(rel, "rte_mem")))
    return Alloc(name, q_bytes + RTE_CACHE_LINE_SIZE, PAGE_SIZE, cite, role)


def cqe_comp(dev: dict[str, object] | None) -> bool:
    """Rx CQE compression: rxq_cqe_comp_en, on by default (config->cqe_comp = 1) and on ConnectX-6 Dx's."""
    return bool(dev_int(dev, "rxq_cqe_comp_en", 1))


def rx_sges(rel: str, nb_desc: int, conf: QueueConf | None, port: int = 0, queue: int = 0) -> int | Rejection:
    """mlx5_rxq_new's segments of a packet (log2, sges_n): max_rx_pktlen = MTU + RTE_ETHER_HDR_LEN +
    RTE_ETHER_CRC_LEN (LRO's max_lro_pkt_size not modelled), the first segment the pool's data room less
    RTE_PKTMBUF_HEADROOM, the others the whole data room, until the packet fits and their count is a power of two;
    more than one needs RTE_ETH_RX_OFFLOAD_SCATTER (else -ENOSPC), and nb_desc a multiple of them."""
    conf = conf or QueueConf(1, 1, 0, 0, False)
    room, headroom = conf.rx_data_room, release(rel).pktmbuf_headroom
    n = align32pow2(rx_segments(conf.mtu, room, headroom))
    c = SOURCE.cite
    if n > 1 and not conf.rx_offloads & RX_OFFLOAD_SCATTER:
        return refuse(
            f"port {port} Rx queue {queue}: Scatter offload is not configured and no enough mbuf space({room}) "
            "to contain the "
            f"maximum RX packet length({conf.mtu + RTE_ETHER_HDR_LEN + RTE_ETHER_CRC_LEN}) with head-room({headroom})",
            "mlx5_rxq_new",
            c(rel, "rx_pktlen", "rx_seg_loop", "rx_no_scatter"),
            "ENOSPC",
        )
    sges = log2above(n)
    if nb_desc % (1 << sges):
        return refuse(
            f"port {port} number of Rx queue descriptors ({nb_desc}) is not a multiple of SGEs per packet "
            f"({1 << sges})",
            "mlx5_rxq_new",
            c(rel, "rx_seg_loop", "rx_sges"),
        )
    return sges


def rx_rings(
    rel: str, queue: int, nb_desc: int, dev: dict[str, object] | None, conf: QueueConf | None
) -> tuple[Alloc, ...]:
    """An Rx queue's DevX buffers at dev start (mlx5_rxq_devx_obj_new: its CQ, then its RQ), the ordinary RQ.

    CQ: mlx5_rxq_cqe_num's (1 << elts_n) - 1 CQEs, doubled with CQE compression (rxq_cqe_comp_en, off with the Rx
    timestamp or LRO offload) when the queue is not vectorised (rx_vec_en=0, or more than one segment),
    log2above'd, 64 bytes each. RQ: 1 << (elts_n - sges_n) WQEs of sizeof(struct mlx5_wqe_data_seg) << sges_n
    bytes: 16 bytes a descriptor whatever the scatter."""
    desc = align32pow2(max(nb_desc, 1))
    sges = rx_sges(rel, desc, conf)
    sges = 0 if isinstance(sges, Rejection) else sges
    offloads = conf.rx_offloads if conf else 0
    lro, ts = bool(offloads & RX_OFFLOAD_TCP_LRO), bool(offloads & RX_OFFLOAD_TIMESTAMP)
    vec = bool((dev or {}).get("rx_vec_en", True)) and sges == 0 and not lro
    cqe_n = desc - 1
    cq_keys = ["rx_obj_cq", "rx_cqe_n", "rx_log_cqe", "rx_cq_create"]
    if cqe_comp(dev) and not ts and not lro and not vec:
        cqe_n *= 2
        cq_keys[2:2] = ["rx_cqe_comp", "rx_cqe_double", "vec_support", "cqe_comp_on", "cqe_comp_arg"]
    s = SIZES[rel]
    cq = umem(
        rel,
        "mlx5 rxq_ctrl->obj->cq_obj.umem_buf",
        s["mlx5_cqe"] << log2above(cqe_n),
        (*cq_keys, "cqe_num", "cq_align", "cq_umem", "cq_dbr", "umem_buf", "cqe_buf_align"),
        f"rx queue {queue} CQ ring and doorbell",
    )
    wqe = s["mlx5_wqe_data_seg"] << sges
    rq = umem(
        rel,
        "mlx5 rxq->devx_rq.wq.umem_buf",
        wqe << (log2above(desc) - sges),
        ("rx_obj_rq", "rq_log_desc", "rq_wqe", "rq_log_wqe", "rq_create", "wq_align", "wq_umem", "wq_dbr", "wq_buf"),
        f"rx queue {queue} RQ ring and doorbell",
    )
    return cq, rq


class TxInline(NamedTuple):
    """What txq_set_params and txq_adjust_params leave a Tx queue: inlen_send (the SQ's WQE size), inlen_empw,
    tso_en, and a refusal of mlx5_txq_new's if any."""

    inlen_send: int
    inlen_empw: int
    tso: bool
    refusal: Rejection | None = None


def _arg(dev: dict[str, object] | None, key: str) -> int | None:
    v = (dev or {}).get(key)
    return None if v is None else dev_int(dev, key, 0)


#: the lines of txq_set_params / txq_adjust_params a Tx queue's inline settings rest on
INLINE_KEYS = (
    "txqs_inline",
    "send_def",
    "empw_def",
    "inlen_mode",
    "mps_off",
    "mode_align",
    "vlan_inline",
    "send_on",
    "send_align",
    "empw_on",
    "empw_align",
    "tso_header",
    "inline_max",
    "adjust",
    "adjust_send",
    "min_inline",
)


def tx_inline(
    rel: str, desc: int, nb_txq: int, dev: dict[str, object] | None, tx_offloads: int, port: int = 0
) -> TxInline:
    """txq_set_params then txq_adjust_params for a Tx queue of desc (a power of two) descriptors of a port of
    nb_txq (priv->txqs_n), the devargs txq_inline_max / txq_inline_min / txq_inline_mpw / txqs_min_inline /
    txq_mpw_en as given, else the defaults: MLX5_SEND_DEF_INLINE_LEN, the device's minimal inline
    (``txq_inline_min``: 0 on ConnectX-5 and later, MLX5_CAP_INLINE_MODE_NOT_REQUIRED, 18 on ConnectX-4/4 Lx),
    MLX5_EMPW_DEF_INLINE_LEN, MLX5_INLINE_MAX_TXQS (8) and enhanced MPW; ``hw_vlan_insert`` the device's
    (ConnectX-6 Dx: on). Inlining is on only with at least txqs_min_inline queues, a minimal inline, or VLAN
    insertion the device cannot do."""
    c = SOURCE.cite
    w, eseg, dseg = MLX5_WSEG_SIZE, MLX5_ESEG_MIN_INLINE_SIZE, MLX5_DSEG_MIN_INLINE_SIZE
    wqe = SIZES[rel]["mlx5_wqe"]
    send_max_inline = MLX5_WQE_SIZE_MAX - 3 * w + eseg  # MLX5_SEND_MAX_INLINE_LEN
    txqs_inline = _arg(dev, "txqs_min_inline")
    txqs_inline = MLX5_INLINE_MAX_TXQS if txqs_inline is None else txqs_inline
    arg_max, arg_mpw = _arg(dev, "txq_inline_max"), _arg(dev, "txq_inline_mpw")
    send = 5 * wqe + eseg - 3 * w if arg_max is None else arg_max  # MLX5_SEND_DEF_INLINE_LEN
    empw = 4 * wqe + dseg if arg_mpw is None else arg_mpw  # MLX5_EMPW_DEF_INLINE_LEN
    mode = _arg(dev, "txq_inline_min") or 0
    if not dev_int(dev, "txq_mpw_en", 1):
        empw = 0
    if mode:
        mode = eseg if mode <= eseg else min(align_ceil(mode - eseg, w) + eseg, send_max_inline)
    vlan_inline = bool(tx_offloads & TX_OFFLOAD_VLAN_INSERT) and not (dev or {}).get("hw_vlan_insert", True)
    on = nb_txq >= txqs_inline
    if send and on:
        t = max(send, eseg + w) - (eseg + w)
        t = align_ceil(t, wqe) + eseg + w
        send = max(min(t, MLX5_WQE_SIZE_MAX + eseg - 4 * w, send_max_inline), mode)
    elif mode:
        send, empw = mode, 0
    elif vlan_inline:
        send, empw = eseg, 0
    else:
        send, empw = 0, 0
    if send and empw and on:
        t = align_ceil(max(empw, wqe + dseg) - dseg, wqe) + dseg
        empw = min(t, MLX5_WQE_SIZE_MAX + dseg - 3 * w)
    else:
        empw = 0
    tso = bool(tx_offloads & TSO_OFFLOADS)
    max_data = max(send, empw, MLX5_MAX_TSO_HEADER if tso else 0)
    # txq_adjust_params: a queue too long for its inline data (txq_calc_inline_max: the device's max_wqe WQEBBs
    # shared by desc)
    per = dev_int(dev, "max_wqe", 32768) // desc
    max_inline = per * wqe - 4 * w + (eseg if since(rel, "25.11") else dseg) if per else 0
    refusal = None
    if send and max_data > max_inline:
        checks = (
            ("adjust_mode", mode > max_inline, f"minimal data inline requirements ({mode})"),
            (
                "adjust_max",
                send > max_inline and arg_max is not None and arg_max > max_inline,
                f"txq_inline_max requirements ({send})",
            ),
            (
                "adjust_mpw",
                empw > max_inline and arg_mpw is not None and arg_mpw > max_inline,
                f"txq_inline_mpw requirements ({empw})",
            ),
        )
        if since(rel, "25.11"):  # warnings only, and the ESEG's inline bytes off
            max_inline -= eseg - dseg
        else:
            tso_bad = (
                "adjust_tso",
                tso and max_inline < MLX5_MAX_TSO_HEADER,
                f"tso header inline requirements ({MLX5_MAX_TSO_HEADER})",
            )
            for key, bad, what in (*checks, tso_bad):
                if bad:
                    refusal = refuse(
                        f"{what} are not satisfied ({max_inline}) on port {port}, try the smaller Tx queue size "
                        f"({dev_int(dev, 'max_wqe', 32768)})",
                        "mlx5_txq_new",
                        c(rel, "adjust", key),
                        "ENOMEM",
                    )
                    break
        send, empw = min(send, max_inline), min(empw, max_inline)
        max_data = max(send, empw)  # the TSO header is not counted again
    if refusal is None:
        # mlx5_txq_new's limit on txq_calc_wqebb_cnt (25.11+: the DevX SQ's own count)
        wqebbs = align32pow2(_wqe_bytes(rel, send, tso, max_data) * desc) // wqe
        limit = dev_int(dev, "max_wqe", 32768)
        if wqebbs > limit:
            refusal = refuse(
                f"port {port} Tx WQEBB count ({wqebbs}) exceeds the limit ({limit}), try smaller queue size",
                "mlx5_txq_new",
                c(rel, "wqebb_cnt", "wqebb_limit"),
                "ENOMEM",
            )
    return TxInline(send, empw, tso, refusal)


def _wqe_bytes(rel: str, send: int, tso: bool, max_data: int) -> int:
    """txq_calc_wqebb_cnt's bytes of one WQE: up to 24.11 the control and Ethernet segments, a data segment less
    the Ethernet segment's inline bytes, and the queue's max_inline_data (at least a WQEBB from 22.11); from
    25.11, with DevX, the SQ's own (:func:`sq_wqebbs` x MLX5_WQE_SIZE)."""
    wqe = SIZES[rel]["mlx5_wqe"]
    if since(rel, "25.11"):
        return sq_wqebbs(send, tso) * wqe
    size = 3 * MLX5_WSEG_SIZE - MLX5_ESEG_MIN_INLINE_SIZE + max_data
    return max(size, wqe) if since(rel, "22.11") else size


def sq_wqebbs(inlen_send: int, tso: bool) -> int:
    """mlx5_txq_devx_obj_new's WQEBBs a packet: the TSO header (MLX5_MAX_TSO_HEADER, WSEG-aligned) with TSO, the
    control, Ethernet and data segments; with inlining at least the control and Ethernet segments and
    inlen_send + 4 bytes WSEG-aligned; in whole WQEBBs.

    >>> sq_wqebbs(0, False), sq_wqebbs(0, True), sq_wqebbs(290, False)
    (1, 4, 6)
    """
    w = MLX5_WSEG_SIZE
    size = (align_ceil(MLX5_MAX_TSO_HEADER, w) if tso else 0) + 3 * w
    if inlen_send:
        size = max(size, 2 * w + align_ceil(inlen_send + 4, w))
    return align_ceil(size, 64) // 64


def tx_lens(rel: str, desc: int, dev: dict[str, object] | None, inl: TxInline) -> tuple[int, int]:
    """A Tx queue's SQ and CQ bytes (before their doorbell records): 1 << log2above(min(desc x WQEBBs, max_wqe))
    WQEBBs; desc / MLX5_TX_COMP_THRESH + 1 + MLX5_TX_COMP_THRESH_INLINE_DIV CQEs, log2above'd."""
    s = SIZES[rel]
    wqe_n = min(desc * sq_wqebbs(inl.inlen_send, inl.tso), dev_int(dev, "max_wqe", 32768))
    cqe_n = desc // MLX5_TX_COMP_THRESH + 1 + MLX5_TX_COMP_THRESH_INLINE_DIV
    return s["mlx5_wqe"] << log2above(wqe_n), s["mlx5_cqe"] << log2above(cqe_n)


def tx_desc(nb_desc: int) -> int:
    """mlx5_tx_queue_pre_setup's descriptors: more than MLX5_TX_COMP_THRESH (else MLX5_TX_COMP_THRESH + 1), to
    the next power of two.

    >>> tx_desc(16), tx_desc(1000), tx_desc(512)
    (64, 1024, 512)
    """
    return align32pow2(nb_desc if nb_desc > MLX5_TX_COMP_THRESH else MLX5_TX_COMP_THRESH + 1)


def txq_mem_algn(rel: str, dev: dict[str, object] | None) -> int:
    """25.11+: log2 of the alignment of the port's one Tx umem (txq_mem_algn, default log2above(page size),
    raised to it when smaller; 0: every Tx queue its own buffers, as up to 24.11)."""
    if not since(rel, "25.11"):
        return 0
    got = _arg(dev, "txq_mem_algn")
    page = log2above(PAGE_SIZE)
    return page if got is None else (max(got, page) if got else 0)


def tx_rings(
    rel: str, nb_txq: int, nb_txd: int, dev: dict[str, object] | None, conf: QueueConf | None
) -> tuple[Alloc, ...]:
    """The Tx queues' DevX buffers at dev start: each queue's CQ then SQ (mlx5_txq_devx_obj_new); from 25.11 with
    txq_mem_algn (the default) one buffer for them all, allocated first (mlx5_dev_allocate_consec_tx_mem): every
    queue's SQ and CQ bytes and two doorbell records a queue, aligned to 1 << txq_mem_algn."""
    desc = tx_desc(nb_txd)
    inl = tx_inline(rel, desc, nb_txq, dev, conf.tx_offloads if conf else 0)
    sq, cq = tx_lens(rel, desc, dev, inl)
    c = SOURCE.cite
    algn = txq_mem_algn(rel, dev)
    if algn:
        cite = "; ".join(
            (
                c(rel, "mem_algn_on", "mem_algn_min"),
                c(rel, *INLINE_KEYS, "adjust_eseg", "txq_mem_len", "cq_mem_len"),
                c(rel, "start_consec", "consec_align", "consec_dbr", "consec_buf"),
                c(rel, "dbr_size"),
                c(rel, "rte_mem"),
            )
        )
        total = nb_txq * (sq + cq + 2 * RTE_CACHE_LINE_SIZE)
        return (
            Alloc("mlx5 priv->consec_tx_mem.umem", total, 1 << algn, cite, "tx queues' SQ and CQ rings and doorbells"),
        )
    out: list[Alloc] = []
    for q in range(nb_txq):
        out.append(
            umem(
                rel,
                "mlx5 txq_obj->cq_obj.umem_buf",
                cq,
                (
                    "start_tx",
                    "tx_cqe_n",
                    "tx_cq_create",
                    "comp_thresh",
                    "comp_div",
                    "cq_align",
                    "cq_umem",
                    "cq_dbr",
                    "umem_buf",
                ),
                f"tx queue {q} CQ ring and doorbell",
            )
        )
        out.append(
            umem(
                rel,
                "mlx5 txq_obj->sq_obj.umem_buf",
                sq,
                (
                    *INLINE_KEYS,
                    *(("adjust_eseg",) if SOURCE.has(rel, "adjust_eseg") else ()),
                    "tx_wqe_tso",
                    "tx_wqe_inline",
                    "tx_wqe_n",
                    "tx_sq_res",
                    "sq_align",
                    "sq_umem",
                    "sq_dbr",
                    "sq_buf",
                ),
                f"tx queue {q} SQ ring and doorbell",
            )
        )
    return tuple(out)


def start(
    rel: str,
    port: int,
    nb_rxq: int,
    nb_txq: int,
    dev: dict[str, object] | None = None,
    nb_rxd: int = 256,
    nb_txd: int = 256,
    conf: QueueConf | None = None,
) -> tuple[tuple[Zone, ...], tuple[Alloc, ...]]:
    """mlx5_dev_start: the Tx queues' DevX buffers (:func:`tx_rings`), then each Rx queue's (:func:`rx_rings`)."""
    rx = tuple(a for q in range(nb_rxq) for a in rx_rings(rel, q, nb_rxd, dev, conf))
    return (), tx_rings(rel, nb_txq, nb_txd, dev, conf) + rx


def rx_queue_setup(
    rel: str,
    port: int,
    queue: int,
    nb_desc: int,
    dev: dict[str, object] | None = None,
    conf: QueueConf | None = None,
) -> QueueParts | Rejection:
    """mlx5_rx_queue_setup -> mlx5_rxq_new (vectorised Rx, ``dev["rx_vec_en"]``, default on): its private
    structure, the control block with the mbuf pointers, and its MR cache; refused when a packet of the MTU
    needs more than one segment without the scatter offload (:func:`rx_sges`)."""
    desc = align32pow2(max(nb_desc, 1))
    sges = rx_sges(rel, desc, conf, port, queue)
    if isinstance(sges, Rejection):
        return sges
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


def tx_queue_setup(
    rel: str,
    port: int,
    queue: int,
    nb_desc: int,
    dev: dict[str, object] | None = None,
    conf: QueueConf | None = None,
) -> QueueParts | Rejection:
    """mlx5_tx_queue_setup -> mlx5_txq_new: the control block with the mbuf pointers, and its MR cache; refused
    where txq_adjust_params or the WQEBB limit refuse the queue's inline settings (:func:`tx_inline`; without
    ``conf`` a port of one Tx queue)."""
    desc = tx_desc(nb_desc)
    inl = tx_inline(rel, desc, conf.nb_txq if conf else 1, dev, conf.tx_offloads if conf else 0, port)
    if inl.refusal:
        return inl.refusal
    return QueueParts(
        desc,
        allocs=(
            Alloc(
                "mlx5 txq_ctrl",
                SIZES[rel]["mlx5_txq_ctrl"] + 8 * desc,
                RTE_CACHE_LINE_SIZE,
                SOURCE.cite(rel, "tx_min", "tx_pow2", "tx_ctrl"),
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
        f"{c(rel, 'mprq_cqe')}; {c(rel, 'mprq_wqe')}",
        c(rel, "rmp"),
        c(rel, "devx_ops", "ibv_ops"),
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
