"""net_bnxt: Broadcom NetXtreme-C/E/Thor (BCM573xx/574xx/575xx/576xx) PFs and VFs.

nb_desc must be in [BNXT_MIN_RING_DESC (16), 8192] for Rx and [16, 4096] for Tx; the rings are sized
rte_align32pow2(nb_desc). What queue set-up allocates in the heap: the queue structure (``bnxt_rx_queue`` /
``bnxt_tx_queue``), the Tx free array (nb_desc mbuf pointers) and, from 23.11, the Tx per-BD count array.
Each queue's memzone of bnxt_alloc_rings (``bnxt_<PCI address>-<queue>_txr`` / ``_rxr``: stats, buffer,
completion and BD rings at 4 KiB boundaries) is modelled (:func:`tx_ring_zone`, :func:`rx_ring_zone`), as
set-up reserves it: scattered_rx is 0 until dev start, so an Rx zone has no aggregation or TPA area.

Not modelled: what a scattered port (scatter, LRO, MTU above the mbuf) does with its aggregation ring at start;
the ring-info structures of bnxt_init_rx/tx_ring_struct; the per-device context memory for Thor.
From the driver's source, not run. Pure: stdlib only.
"""

from __future__ import annotations

import sys

from mpcalc.dpdk.core.errors import Rejection
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
    refuse,
    same_dir,
    since,
)
from mpcalc.dpdk.drivers.pcipmd import declare

NAME = "net_bnxt"
PROVENANCE = "source"
DIRS = same_dir("drivers/net/bnxt")
BNXT_MIN_RING_DESC = 16
MAX_RX_DESC_CNT = 8 * 1024
MAX_TX_DESC_CNT = 4 * 1024
NOT_MODELLED = (
    "the aggregation ring and TPA areas of a scattered port (none at queue set-up: scattered_rx is set at start)",
    "the ring-info structures of bnxt_init_rx/tx_ring_struct",
)

KEYS = {
    "dev_private": ("bnxt_ethdev.c", r"sizeof\(struct bnxt\),$"),
    "min": ("bnxt.h", r"define BNXT_MIN_RING_DESC\s+16"),
    "max_rx": ("bnxt_ring.h", r"define MAX_RX_DESC_CNT \(8 \* 1024\)"),
    "max_tx": ("bnxt_ring.h", r"define MAX_TX_DESC_CNT \(4 \* 1024\)"),
    "rx_check": ("bnxt_rxq.c", r"if \(nb_desc < BNXT_MIN_RING_DESC \|\| nb_desc > MAX_RX_DESC_CNT\)"),
    "rx_queue": ("bnxt_rxq.c", r"rxq = rte_zmalloc_socket\(\"bnxt_rx_queue\", sizeof\(struct bnxt_rx_queue\),"),
    "rx_ring_size": ("bnxt_rxr.c", r"ring->ring_size = rte_align32pow2\(rxq->nb_rx_desc\);"),
    "tx_check": ("bnxt_txq.c", r"if \(nb_desc < BNXT_MIN_RING_DESC \|\| nb_desc > MAX_TX_DESC_CNT\)"),
    "tx_queue": ("bnxt_txq.c", r"txq = rte_zmalloc_socket\(\"bnxt_tx_queue\", sizeof\(struct bnxt_tx_queue\),"),
    "tx_free": ("bnxt_txq.c", r"txq->free = rte_zmalloc_socket\(NULL,"),
    "tx_nr_bds": ("bnxt_ring.c", r"tx_ring_info->nr_bds = rte_zmalloc\(\"bnxt_nr_bds\","),
    "tx_ring_size": ("bnxt_txr.c", r"ring->ring_size = rte_align32pow2\(txq->nb_tx_desc"),
    "alloc_rings": ("bnxt_ring.c", r"^int bnxt_alloc_rings\("),
    "desc_lim": ("bnxt_ethdev.c", r"dev_info->rx_desc_lim.nb_min = BNXT_MIN_RING_DESC;"),
    # the Tx queue's ring memzone (bnxt_alloc_rings, called from bnxt_tx_queue_setup_op)
    "tx_alloc_rings": ("bnxt_txq.c", r"if \(bnxt_alloc_rings\(bp, socket_id, queue_idx, txq, NULL, txq->cp_ring,"),
    "tx_vmem": ("bnxt_txr.c", r"ring->vmem_size = ring->ring_size \* sizeof\(struct rte_mbuf \*\);"),
    "tx_cp_size": ("bnxt_txr.c", r"ring->ring_size = txr->tx_ring_struct->ring_size;"),
    "tx_cp_vmem": ("bnxt_txr.c", r"ring->vmem_size = 0;"),
    "stats_len": ("bnxt_ring.c", r"stats_len = RTE_ALIGN\(stats_len, 128\);"),
    "tx_vmem_len": ("bnxt_ring.c", r"tx_vmem_len = RTE_ALIGN\(tx_vmem_len, 128\);"),
    "cp_ring_start": ("bnxt_ring.c", r"cp_ring_start = RTE_ALIGN\(cp_ring_start, 4096\);"),
    "cp_ring_len": ("bnxt_ring.c", r"cp_ring_len = RTE_ALIGN\(cp_ring_len, 128\);"),
    "nq_ring_start": ("bnxt_ring.c", r"nq_ring_start = RTE_ALIGN\(nq_ring_start, 4096\);"),
    "tx_ring_len": ("bnxt_ring.c", r"tx_ring_len = RTE_ALIGN\(tx_ring_len, 4096\);"),
    "total_len": ("bnxt_ring.c", r"total_alloc_len = tpa_info_start \+ tpa_info_len;"),
    "mz_name": ("bnxt_ring.c", r'"bnxt_" PCI_PRI_FMT "-%04x_%s"'),
    "mz_reserve": ("bnxt_ring.c", r"mz = rte_memzone_reserve_aligned\(mz_name, total_alloc_len,"),
    # the Rx queue's (bnxt_rx_queue_setup_op): no aggregation ring while scattered_rx is 0, i.e. until dev start
    "rx_alloc_rings": ("bnxt_rxq.c", r"rc = bnxt_alloc_rings\(bp, socket_id, queue_idx, NULL, rxq, rxq->cp_ring,"),
    "need_agg": ("bnxt_rxq.c", r"return eth_dev->data->scattered_rx \? 1 : 0;"),
    "scattered_start": ("bnxt_ethdev.c", r"eth_dev->data->scattered_rx = bnxt_scattered_rx\(eth_dev\);"),
    "rx_vmem": ("bnxt_rxr.c", r"ring->vmem_size = sizeof\(struct rte_mbuf \*\) \*$"),
    "rx_cp_size": ("bnxt_rxr.c", r"ring->ring_size = rxr->rx_ring_struct->ring_size \* 2;"),
    "rx_cp_pow2": ("bnxt_rxr.c", r"ring->ring_size = rte_align32pow2\(ring->ring_size\);"),
    "vec256": ("bnxt_rxr.h", r"define BNXT_RX_DESCS_PER_LOOP_VEC256\s+8U"),
    "extra": ("bnxt_rxr.h", r"RTE_MAX\(BNXT_RX_DESCS_PER_LOOP_VEC128, BNXT_RX_DESCS_PER_LOOP_VEC256\)"),
    "rx_vmem_len": ("bnxt_ring.c", r"rx_vmem_len = RTE_ALIGN\(rx_vmem_len, 128\);"),
    "rx_ring_len": ("bnxt_ring.c", r"rx_ring_len = RTE_ALIGN\(rx_ring_len, 4096\);"),
    "rx_bd": ("hsi_struct_def_dpdk.h", r"^/\* rx_prod_pkt_bd \(size:128b/16B\) \*/"),
    "resp_hdr": ("hsi_struct_def_dpdk.h", r"^/\* hwrm_resp_hdr \(size:64b/8B\) \*/"),
    "stat_query": ("hsi_struct_def_dpdk.h", r"^/\* hwrm_stat_ctx_query_output \(size:1408b/176B\) \*/"),
    "hw_stats": ("hsi_struct_def_dpdk.h", r"^/\* ctx_hw_stats \(size:1280b/160B\) \*/"),
    "hw_stats_ext": ("hsi_struct_def_dpdk.h", r"^/\* ctx_hw_stats_ext \(size:1408b/176B\) \*/"),
    "cmpl_base": ("hsi_struct_def_dpdk.h", r"^/\* cmpl_base \(size:128b/16B\) \*/"),
    "tx_bd_long": ("hsi_struct_def_dpdk.h", r"^/\* tx_bd_long \(size:128b/16B\) \*/"),
}

# --- LINES: generated from the DPDK mirror (tests/conformance/test_pci_sources.py holds them to it)
LINES: dict[str, dict[str, int | None]] = {
    "21.11": {
        "dev_private": 6307,
        "min": 90,
        "max_rx": 35,
        "max_tx": 36,
        "rx_check": 341,
        "rx_queue": 351,
        "rx_ring_size": 1225,
        "tx_check": 141,
        "tx_queue": 151,
        "tx_free": 161,
        "tx_nr_bds": None,
        "tx_ring_size": 79,
        "alloc_rings": 97,
        "desc_lim": 1021,
        "tx_alloc_rings": 185,
        "tx_vmem": 83,
        "tx_cp_size": 100,
        "tx_cp_vmem": 104,
        "stats_len": 124,
        "tx_vmem_len": 140,
        "cp_ring_start": 154,
        "cp_ring_len": 158,
        "nq_ring_start": 160,
        "tx_ring_len": 169,
        "total_len": 200,
        "mz_name": 203,
        "mz_reserve": 209,
        "rx_alloc_rings": 388,
        "need_agg": 57,
        "scattered_start": 1601,
        "rx_vmem": 1231,
        "rx_cp_size": 1258,
        "rx_cp_pow2": 1262,
        "vec256": 46,
        "extra": 50,
        "rx_vmem_len": 146,
        "rx_ring_len": 176,
        "rx_bd": 3268,
        "resp_hdr": 45,
        "stat_query": 49964,
        "hw_stats": 49610,
        "hw_stats_ext": 49659,
        "cmpl_base": 3687,
        "tx_bd_long": 2483,
    },
    "22.11": {
        "dev_private": 6318,
        "min": 90,
        "max_rx": 35,
        "max_tx": 36,
        "rx_check": 341,
        "rx_queue": 351,
        "rx_ring_size": 1211,
        "tx_check": 141,
        "tx_queue": 151,
        "tx_free": 161,
        "tx_nr_bds": None,
        "tx_ring_size": 79,
        "alloc_rings": 97,
        "desc_lim": 1021,
        "tx_alloc_rings": 185,
        "tx_vmem": 83,
        "tx_cp_size": 100,
        "tx_cp_vmem": 104,
        "stats_len": 124,
        "tx_vmem_len": 140,
        "cp_ring_start": 154,
        "cp_ring_len": 158,
        "nq_ring_start": 160,
        "tx_ring_len": 169,
        "total_len": 200,
        "mz_name": 203,
        "mz_reserve": 209,
        "rx_alloc_rings": 387,
        "need_agg": 57,
        "scattered_start": 1602,
        "rx_vmem": 1217,
        "rx_cp_size": 1244,
        "rx_cp_pow2": 1248,
        "vec256": 46,
        "extra": 50,
        "rx_vmem_len": 146,
        "rx_ring_len": 176,
        "rx_bd": 3328,
        "resp_hdr": 45,
        "stat_query": 53092,
        "hw_stats": 52738,
        "hw_stats_ext": 52787,
        "cmpl_base": 3759,
        "tx_bd_long": 2525,
    },
    "23.11": {
        "dev_private": 6418,
        "min": 92,
        "max_rx": 35,
        "max_tx": 36,
        "rx_check": 341,
        "rx_queue": 351,
        "rx_ring_size": 1208,
        "tx_check": 142,
        "tx_queue": 152,
        "tx_free": 162,
        "tx_nr_bds": 230,
        "tx_ring_size": 79,
        "alloc_rings": 97,
        "desc_lim": 1040,
        "tx_alloc_rings": 186,
        "tx_vmem": 83,
        "tx_cp_size": 100,
        "tx_cp_vmem": 104,
        "stats_len": 124,
        "tx_vmem_len": 140,
        "cp_ring_start": 154,
        "cp_ring_len": 158,
        "nq_ring_start": 160,
        "tx_ring_len": 169,
        "total_len": 200,
        "mz_name": 203,
        "mz_reserve": 209,
        "rx_alloc_rings": 387,
        "need_agg": 57,
        "scattered_start": 1627,
        "rx_vmem": 1214,
        "rx_cp_size": 1241,
        "rx_cp_pow2": 1245,
        "vec256": 46,
        "extra": 50,
        "rx_vmem_len": 146,
        "rx_ring_len": 176,
        "rx_bd": 3504,
        "resp_hdr": 45,
        "stat_query": 57443,
        "hw_stats": 57089,
        "hw_stats_ext": 57138,
        "cmpl_base": 3935,
        "tx_bd_long": 2701,
    },
    "24.11": {
        "dev_private": 7001,
        "min": 105,
        "max_rx": 35,
        "max_tx": 36,
        "rx_check": 367,
        "rx_queue": 377,
        "rx_ring_size": 1512,
        "tx_check": 144,
        "tx_queue": 154,
        "tx_free": 164,
        "tx_nr_bds": 230,
        "tx_ring_size": 79,
        "alloc_rings": 98,
        "desc_lim": 1237,
        "tx_alloc_rings": 188,
        "tx_vmem": 83,
        "tx_cp_size": 100,
        "tx_cp_vmem": 104,
        "stats_len": 124,
        "tx_vmem_len": 140,
        "cp_ring_start": 154,
        "cp_ring_len": 158,
        "nq_ring_start": 160,
        "tx_ring_len": 169,
        "total_len": 200,
        "mz_name": 203,
        "mz_reserve": 209,
        "rx_alloc_rings": 420,
        "need_agg": 65,
        "scattered_start": 1834,
        "rx_vmem": 1518,
        "rx_cp_size": 1545,
        "rx_cp_pow2": 1549,
        "vec256": 46,
        "extra": 50,
        "rx_vmem_len": 146,
        "rx_ring_len": 176,
        "rx_bd": 3691,
        "resp_hdr": 45,
        "stat_query": 63119,
        "hw_stats": 62753,
        "hw_stats_ext": 62802,
        "cmpl_base": 4122,
        "tx_bd_long": 2803,
    },
    "25.11": {
        "dev_private": 7109,
        "min": 105,
        "max_rx": 35,
        "max_tx": 36,
        "rx_check": 367,
        "rx_queue": 377,
        "rx_ring_size": 1512,
        "tx_check": 144,
        "tx_queue": 154,
        "tx_free": 164,
        "tx_nr_bds": 230,
        "tx_ring_size": 79,
        "alloc_rings": 98,
        "desc_lim": 1240,
        "tx_alloc_rings": 188,
        "tx_vmem": 83,
        "tx_cp_size": 100,
        "tx_cp_vmem": 104,
        "stats_len": 124,
        "tx_vmem_len": 140,
        "cp_ring_start": 154,
        "cp_ring_len": 158,
        "nq_ring_start": 160,
        "tx_ring_len": 169,
        "total_len": 200,
        "mz_name": 203,
        "mz_reserve": 209,
        "rx_alloc_rings": 420,
        "need_agg": 65,
        "scattered_start": 1853,
        "rx_vmem": 1518,
        "rx_cp_size": 1545,
        "rx_cp_pow2": 1549,
        "vec256": 46,
        "extra": 50,
        "rx_vmem_len": 146,
        "rx_ring_len": 176,
        "rx_bd": 3711,
        "resp_hdr": 45,
        "stat_query": 63827,
        "hw_stats": 63461,
        "hw_stats_ext": 63510,
        "cmpl_base": 4142,
        "tx_bd_long": 2823,
    },
    "26.07": {
        "dev_private": 6997,
        "min": 107,
        "max_rx": 35,
        "max_tx": 36,
        "rx_check": 368,
        "rx_queue": 378,
        "rx_ring_size": 1560,
        "tx_check": 144,
        "tx_queue": 154,
        "tx_free": 164,
        "tx_nr_bds": 230,
        "tx_ring_size": 82,
        "alloc_rings": 98,
        "desc_lim": 1240,
        "tx_alloc_rings": 194,
        "tx_vmem": 86,
        "tx_cp_size": 103,
        "tx_cp_vmem": 107,
        "stats_len": 124,
        "tx_vmem_len": 140,
        "cp_ring_start": 154,
        "cp_ring_len": 158,
        "nq_ring_start": 160,
        "tx_ring_len": 169,
        "total_len": 200,
        "mz_name": 203,
        "mz_reserve": 209,
        "rx_alloc_rings": 421,
        "need_agg": 66,
        "scattered_start": 1870,
        "rx_vmem": 1566,
        "rx_cp_size": 1593,
        "rx_cp_pow2": 1597,
        "vec256": 46,
        "extra": 50,
        "rx_vmem_len": 146,
        "rx_ring_len": 176,
        "rx_bd": 3711,
        "resp_hdr": 45,
        "stat_query": 63857,
        "hw_stats": 63491,
        "hw_stats_ext": 63540,
        "cmpl_base": 4142,
        "tx_bd_long": 2823,
    },
}
# --- end LINES

#: the device properties given on -a (see mpcalc.dpdk.drivers.pcipmd)
PROPS = ("max_queues",)

SOURCE = Source(DIRS, KEYS, LINES)

STRUCTS = (("net_bnxt",), ("bnxt_rx_queue", "bnxt_tx_queue", "bnxt"))
SIZES: dict[str, dict[str, int]] = {
    # --- SIZES: generated from pahole
    "21.11": {"bnxt_rx_queue": 320, "bnxt_tx_queue": 128, "bnxt": 840},
    "22.11": {"bnxt_rx_queue": 320, "bnxt_tx_queue": 128, "bnxt": 840},
    "23.11": {"bnxt_rx_queue": 320, "bnxt_tx_queue": 128, "bnxt": 904},
    "24.11": {"bnxt_rx_queue": 320, "bnxt_tx_queue": 136, "bnxt": 960},
    "25.11": {"bnxt_rx_queue": 320, "bnxt_tx_queue": 136, "bnxt": 960},
    "26.07": {"bnxt_rx_queue": 320, "bnxt_tx_queue": 136, "bnxt": 968},
    # --- end SIZES
}


def desc_lim(rel: str, dev: dict[str, object] | None = None) -> tuple[DescLim, DescLim]:
    c = SOURCE.cite(rel, "desc_lim")
    return DescLim(MAX_RX_DESC_CNT, BNXT_MIN_RING_DESC, 1, c), DescLim(MAX_TX_DESC_CNT, BNXT_MIN_RING_DESC, 1, c)


def max_queues(rel: str, dev: dict[str, object] | None = None) -> tuple[int, int]:
    n = dev_int(dev, "max_queues", 64)
    return n, n


def default_ring(rel: str) -> tuple[int, int]:
    return 0, 0


def _check(rel: str, side: str, nb_desc: int, mx: int) -> Rejection | None:
    if not BNXT_MIN_RING_DESC <= nb_desc <= mx:
        return refuse(f"nb_desc {nb_desc} is invalid", f"bnxt_{side}_queue_setup_op", SOURCE.cite(rel, f"{side}_check"))
    return None


def rx_queue_setup(
    rel: str, port: int, queue: int, nb_desc: int, dev: dict[str, object] | None = None
) -> QueueParts | Rejection:
    """bnxt_rx_queue_setup_op: the ring holds rte_align32pow2(nb_desc)."""
    bad = _check(rel, "rx", nb_desc, MAX_RX_DESC_CNT)
    if bad:
        return bad
    return QueueParts(
        align32pow2(nb_desc),
        zones=(rx_ring_zone(rel, queue, nb_desc, dev),),
        allocs=(
            Alloc(
                "bnxt_rx_queue",
                SIZES[rel]["bnxt_rx_queue"],
                RTE_CACHE_LINE_SIZE,
                SOURCE.cite(rel, "rx_queue"),
                "rx queue",
            ),
        ),
        not_modelled=NOT_MODELLED,
        notes=(f"ring of {align32pow2(nb_desc)} ({SOURCE.cite(rel, 'rx_ring_size')})",),
    )


def tx_queue_setup(
    rel: str, port: int, queue: int, nb_desc: int, dev: dict[str, object] | None = None
) -> QueueParts | Rejection:
    """bnxt_tx_queue_setup_op."""
    bad = _check(rel, "tx", nb_desc, MAX_TX_DESC_CNT)
    if bad:
        return bad
    zones = (tx_ring_zone(rel, queue, nb_desc, dev),)
    allocs = [
        Alloc(
            "bnxt_tx_queue", SIZES[rel]["bnxt_tx_queue"], RTE_CACHE_LINE_SIZE, SOURCE.cite(rel, "tx_queue"), "tx queue"
        ),
        Alloc("bnxt txq->free", 8 * nb_desc, RTE_CACHE_LINE_SIZE, SOURCE.cite(rel, "tx_free"), "tx free array"),
    ]
    if SOURCE.has(rel, "tx_nr_bds"):
        allocs.append(Alloc("bnxt_nr_bds", 2 * align32pow2(nb_desc), 0, SOURCE.cite(rel, "tx_nr_bds"), "tx BD counts"))
    return QueueParts(align32pow2(nb_desc), zones=zones, allocs=tuple(allocs), not_modelled=NOT_MODELLED)


def stats_len(rel: str) -> int:
    """bnxt_alloc_rings' stats_len for a queue with a ring: RTE_CACHE_LINE_ROUNDUP of the stats block, then
    RTE_ALIGN(, 128). Up to 23.11 the block is sizeof(struct hwrm_stat_ctx_query_output) (176) - sizeof(struct
    hwrm_resp_hdr) (8); from 24.11 BNXT_HWRM_CTX_GET_SIZE(bp): sizeof(struct ctx_hw_stats_ext) (176) on a P7
    (Thor2) with TPA v2, else sizeof(struct ctx_hw_stats) (160). Every one of them gives 256."""
    sizes = (176 - 8,) if not since(rel, "24.11") else (176, 160)
    got = {align_ceil(align_ceil(n, RTE_CACHE_LINE_SIZE), 128) for n in sizes}
    assert len(got) == 1
    return got.pop()


def tx_ring_zone(rel: str, queue: int, nb_desc: int, dev: dict[str, object] | None = None) -> Zone:
    """The memzone bnxt_alloc_rings(bp, socket_id, queue_idx, txq, NULL, txq->cp_ring, NULL, "txr") reserves
    for a Tx queue (bnxt_tx_queue_setup_op), one block at 4 KiB boundaries: the stats, the Tx buffer ring
    (vmem: ring_size mbuf pointers), the completion ring (ring_size 16-byte cmpl_base: bnxt_init_tx_ring_struct
    gives it the Tx ring's size, no vmem) and the Tx BD ring (ring_size 16-byte tx_bd_long); no NQ, Rx,
    aggregation or TPA part. rte_memzone_reserve_aligned(name, total_alloc_len, socket, 2MB hint, IOVA
    contiguous, getpagesize()), named ``bnxt_<PCI address>-<queue %04x>_txr``."""
    ring = align32pow2(nb_desc)
    cl = RTE_CACHE_LINE_SIZE
    tx_vmem_len = align_ceil(align_ceil(ring * 8, cl), 128)
    cp_ring_start = align_ceil(stats_len(rel) + tx_vmem_len, 4096)  # cp, nq vmem 0; rx, ag vmem 0
    cp_ring_len = align_ceil(align_ceil(ring * 16, cl), 128)
    tx_ring_start = align_ceil(cp_ring_start + cp_ring_len, 4096)  # nq_ring_start; nq_ring_len 0
    tx_ring_len = align_ceil(align_ceil(ring * 16, cl), 4096)
    total = align_ceil(tx_ring_start + tx_ring_len, 4096)  # rx_ring_start = ag_ring_start; the rest 0
    addr = str((dev or {}).get("pci_addr", "0000:00:00.0"))
    name = f"bnxt_{addr}-{queue:04x}_txr"[:31]  # RTE_MEMZONE_NAMESIZE - 1
    cite = "; ".join(
        (
            SOURCE.cite(rel, "tx_alloc_rings"),
            SOURCE.cite(rel, "tx_vmem", "tx_cp_size", "tx_cp_vmem"),
            SOURCE.cite(
                rel,
                "stats_len",
                "tx_vmem_len",
                "cp_ring_start",
                "cp_ring_len",
                "nq_ring_start",
                "tx_ring_len",
                "total_len",
                "mz_name",
                "mz_reserve",
            ),
            SOURCE.cite(rel, "resp_hdr", "tx_bd_long", "cmpl_base", "hw_stats", "hw_stats_ext", "stat_query"),
        )
    )
    return Zone(name, total, 4096, cite, "tx ring memzone (stats, buffer, completion and BD rings)")


#: BNXT_RX_EXTRA_MBUF_ENTRIES: RTE_MAX(BNXT_RX_DESCS_PER_LOOP_VEC128 (4), _VEC256 (8)), the vector Rx's spare
RX_EXTRA_MBUF_ENTRIES = 8


def rx_ring_zone(rel: str, queue: int, nb_desc: int, dev: dict[str, object] | None = None) -> Zone:
    """The memzone bnxt_alloc_rings(bp, socket_id, queue_idx, NULL, rxq, rxq->cp_ring, NULL, "rxr") reserves
    for an Rx queue (bnxt_rx_queue_setup_op): the stats, the Rx buffer ring (vmem: ring_size + 8 mbuf
    pointers), the completion ring (2 x ring_size 16-byte cmpl_base) and the Rx BD ring (ring_size 16-byte
    rx_prod_pkt_bd), at 4 KiB boundaries. bnxt_need_agg_ring is eth_dev->data->scattered_rx, which is 0 at
    queue set-up (bnxt_dev_start_op sets it; bnxt_dev_stop clears it): no aggregation ring, bitmap or TPA
    area. Named ``bnxt_<PCI address>-<queue %04x>_rxr``, 4096-aligned."""
    ring = align32pow2(nb_desc)
    cl = RTE_CACHE_LINE_SIZE
    rx_vmem_len = align_ceil(align_ceil(8 * (ring + RX_EXTRA_MBUF_ENTRIES), cl), 128)
    cp_ring_start = align_ceil(stats_len(rel) + rx_vmem_len, 4096)  # cp, nq, tx vmem 0; ag vmem 0
    cp_ring_len = align_ceil(align_ceil(align32pow2(2 * ring) * 16, cl), 128)
    rx_ring_start = align_ceil(cp_ring_start + cp_ring_len, 4096)  # nq_ring_start = tx_ring_start; their lens 0
    rx_ring_len = align_ceil(align_ceil(ring * 16, cl), 4096)
    total = align_ceil(rx_ring_start + rx_ring_len, 4096)  # ag_ring_start; no agg ring, bitmap or TPA
    addr = str((dev or {}).get("pci_addr", "0000:00:00.0"))
    name = f"bnxt_{addr}-{queue:04x}_rxr"[:31]  # RTE_MEMZONE_NAMESIZE - 1
    cite = "; ".join(
        (
            SOURCE.cite(rel, "rx_alloc_rings", "need_agg"),
            SOURCE.cite(rel, "scattered_start"),
            SOURCE.cite(rel, "rx_ring_size", "rx_vmem", "rx_cp_size", "rx_cp_pow2"),
            SOURCE.cite(rel, "vec256", "extra"),
            SOURCE.cite(
                rel,
                "stats_len",
                "rx_vmem_len",
                "cp_ring_start",
                "cp_ring_len",
                "nq_ring_start",
                "rx_ring_len",
                "total_len",
                "mz_name",
                "mz_reserve",
            ),
            SOURCE.cite(rel, "resp_hdr", "rx_bd", "cmpl_base", "hw_stats", "hw_stats_ext", "stat_query"),
        )
    )
    return Zone(name, total, 4096, cite, "rx ring memzone (stats, buffer, completion and BD rings)")


def probe(rel: str, port: int, dev: dict[str, object] | None = None) -> tuple[tuple[Zone, ...], tuple[Alloc, ...]]:
    """rte_eth_dev_pci_generic_probe(pci_dev, sizeof(struct bnxt), ...): the device's dev_private, an
    rte_zmalloc_socket named by the PCI address (rte_eth_dev_pci_allocate, v22.11.11:lib/ethdev/ethdev_pci.h:97).
    Its MAC tables and other per-device allocations are not modelled."""
    return (), (
        Alloc(
            "ethdev private structure",
            SIZES[rel]["bnxt"],
            RTE_CACHE_LINE_SIZE,
            SOURCE.cite(rel, "dev_private"),
            "dev_private",
        ),
    )


PMD = declare(
    sys.modules[__name__],
    name=NAME,
    source="drivers/net/bnxt",
    kernel_drivers=("bnxt_en",),
    # bnxt_alloc_rings' "bnxt_" PCI_PRI_FMT "-%04x_%s" (the Tx "txr" and Rx "rxr" queues)
    zones=(r"bnxt_[0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-7]-[0-9a-f]{4}_(tx|rx)r",),
)
