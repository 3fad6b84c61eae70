"""net_bnxt: Broadcom NetXtreme-C/E/Thor (BCM573xx/574xx/575xx/576xx) PFs and VFs.

nb_desc must be in [BNXT_MIN_RING_DESC (16), 8192] for Rx and [16, 4096] for Tx; the rings are sized
rte_align32pow2(nb_desc). What queue set-up allocates in the heap: the queue structure (``bnxt_rx_queue`` /
``bnxt_tx_queue``), its ring-info structures (bnxt_init_rx/tx_ring_struct: the ring and completion ring info and
a ``struct bnxt_ring`` for each), the Tx free array (nb_desc mbuf pointers) and, from 23.11, the Tx per-BD count
array. Each queue's memzone of bnxt_alloc_rings (``bnxt_<PCI address>-<queue>_txr`` / ``_rxr``: stats, buffer,
completion and BD rings at 4 KiB boundaries) is modelled (:func:`tx_ring_zone`, :func:`rx_ring_zone`).

A scattered port (bnxt_scattered_rx at dev start: the scatter or LRO Rx offload, or an MTU + 26 bytes of
headers above the Rx pool's data room less RTE_PKTMBUF_HEADROOM) needs the aggregation ring: dev start frees
each Rx queue's ring memory (bnxt_free_rxq_mem, its memzone too) and makes it again with the aggregation ring
struct, its buffer ring, 4 x the BD ring, its bitmap and, with LRO, the TPA area (BNXT_TPA_MAX_AGGS entries of
struct bnxt_tpa_info: 1024 on a Thor or Thor2, ``-a ADDR,p5=1`` / ``p7=1``, else 64). The queue's figures are
those of the started port.

Not modelled: the per-device context memory of a Thor (its backing store). From the driver's source, not run.
Pure: stdlib only.
"""

from __future__ import annotations

import sys

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
    bitmap_footprint,
    dev_int,
    load_lines,
    load_sizes,
    refuse,
    same_dir,
    since,
)
from mpcalc.dpdk.drivers.pcipmd import declare
from mpcalc.dpdk.drivers.pmd import RX_OFFLOAD_SCATTER, RX_OFFLOAD_TCP_LRO, QueueConf

NAME = "net_bnxt"
PROVENANCE = "source"
DIRS = same_dir("drivers/net/bnxt")
BNXT_MIN_RING_DESC = 16
MAX_RX_DESC_CNT = 8 * 1024
MAX_TX_DESC_CNT = 4 * 1024
#: AGG_RING_SIZE_FACTOR: the aggregation ring's entries per Rx BD, and the completion ring's growth with it
AGG_RING_SIZE_FACTOR = 4
#: TPA_MAX_AGGS (P4 and earlier) and TPA_MAX_AGGS_TH (a P5 Thor; from 24.11 a P7 Thor2 too)
TPA_MAX_AGGS = 64
TPA_MAX_AGGS_TH = 1024
#: BNXT_MAX_PKT_LEN - BNXT_MAX_MTU: RTE_ETHER_HDR_LEN + RTE_ETHER_CRC_LEN + BNXT_NUM_VLANS (2) x RTE_VLAN_HLEN (4)
BNXT_OVERHEAD = 14 + 4 + 2 * 4
NOT_MODELLED = (
    "the memzones of probe, configure and start beyond the queues': the default completion ring "
    "(bnxt_<PCI address>-0000_def_cp), a Thor's NQ ring (-0000_l2_nqr) and context memory (bnxt_ctx*), the VNIC "
    "attributes (bnxt_<PCI address>_vnicattr*), the port statistics (-rx_port_stats, -tx_port_stats)",
    "probe's tables beyond dev_private (HWRM buffers; VNIC, filter, ring-group and statistics arrays)",
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
    # the ring-info structures of bnxt_init_rx_ring_struct / bnxt_init_tx_ring_struct
    "rx_ring_info": ("bnxt_rxr.c", r"rxr = rte_zmalloc_socket\(\"bnxt_rx_ring\","),
    "rx_ring_struct": ("bnxt_rxr.c", r"ring = rte_zmalloc_socket\(\"bnxt_rx_ring_struct\","),
    "rx_cp_info": ("bnxt_rxr.c", r"cpr = rte_zmalloc_socket\(\"bnxt_rx_ring\","),
    "rx_cp_struct": ("bnxt_rxr.c", r"ring = rte_zmalloc_socket\(\"bnxt_rx_ring_struct\",", 2),
    "ag_struct": ("bnxt_rxr.c", r"ring = rte_zmalloc_socket\(\"bnxt_rx_ring_struct\",", 3),
    "tx_ring_info": ("bnxt_txr.c", r"txr = rte_zmalloc_socket\(\"bnxt_tx_ring\","),
    "tx_ring_struct": ("bnxt_txr.c", r"ring = rte_zmalloc_socket\(\"bnxt_tx_ring_struct\","),
    "tx_cp_info": ("bnxt_txr.c", r"cpr = rte_zmalloc_socket\(\"bnxt_tx_ring\","),
    "tx_cp_struct": ("bnxt_txr.c", r"ring = rte_zmalloc_socket\(\"bnxt_tx_ring_struct\",", 2),
    # a scattered port: bnxt_scattered_rx at dev start, the Rx rings made again with the aggregation ring
    "scattered_rx": ("bnxt_ethdev.c", r"^static int bnxt_scattered_rx\(struct rte_eth_dev \*eth_dev\)"),
    "scatter_offload": (
        "bnxt_ethdev.c",
        r"if \(eth_dev->data->dev_conf.rxmode.offloads & RTE_ETH_RX_OFFLOAD_SCATTER\)",
    ),
    "lro_offload": ("bnxt_ethdev.c", r"if \(eth_dev->data->dev_conf.rxmode.offloads & RTE_ETH_RX_OFFLOAD_TCP_LRO\)"),
    "overhead": ("bnxt_ethdev.c", r"uint32_t overhead = BNXT_MAX_PKT_LEN - BNXT_MAX_MTU;"),
    "mtu_check": ("bnxt_ethdev.c", r"if \(eth_dev->data->mtu \+ overhead > buf_size\)"),
    "max_pkt_len": ("bnxt.h", r"define BNXT_MAX_PKT_LEN\s+\(BNXT_MAX_MTU \+ RTE_ETHER_HDR_LEN \+"),
    "num_vlans": ("bnxt.h", r"define BNXT_NUM_VLANS\s+2"),
    "start_nic": ("bnxt_ethdev.c", r"rc = bnxt_alloc_hwrm_rings\(bp\);"),
    "start_realloc": ("bnxt_ring.c", r"bnxt_free_rxq_mem\(rxq\);"),
    "free_mz": ("bnxt_rxq.c", r"rte_memzone_free\(rxq->mz\);"),
    "agg_factor": ("bnxt_ring.h", r"define AGG_RING_SIZE_FACTOR\s+4"),
    "ag_size": ("bnxt_rxr.c", r"ring->ring_size = rte_align32pow2\(rxq->nb_rx_desc \*"),
    "ag_vmem": ("bnxt_rxr.c", r"ring->vmem_size = ring->ring_size \* sizeof\(struct rte_mbuf \*\);"),
    "cp_agg": ("bnxt_rxr.c", r"ring->ring_size \*= AGG_RING_SIZE_FACTOR;"),
    "ag_vmem_len": ("bnxt_ring.c", r"RTE_CACHE_LINE_ROUNDUP\(rx_ring_info->ag_ring_struct->vmem_size\) : 0;"),
    "ag_ring_len": ("bnxt_ring.c", r"ag_ring_len = rx_ring_len \* AGG_RING_SIZE_FACTOR;"),
    "ag_ring_align": ("bnxt_ring.c", r"ag_ring_len = RTE_ALIGN\(ag_ring_len, 4096\);"),
    "ag_bitmap": ("bnxt_ring.c", r"RTE_CACHE_LINE_ROUNDUP\(rte_bitmap_get_memory_footprint\("),
    "tpa_lro": ("bnxt_ring.c", r"if \(rx_ring_info && \(rx_offloads & RTE_ETH_RX_OFFLOAD_TCP_LRO\)\) \{"),
    "tpa_len": ("bnxt_ring.c", r"tpa_info_len = tpa_max \* sizeof\(struct bnxt_tpa_info\);"),
    "tpa_round": ("bnxt_ring.c", r"tpa_info_len = RTE_CACHE_LINE_ROUNDUP\(tpa_info_len\);"),
    "tpa_max": ("bnxt.h", r"define BNXT_TPA_MAX_AGGS\(bp\)"),
    "tpa_chip": ("bnxt.h", r"\(BNXT_CHIP_P5(_P7)?\(bp\) \? TPA_MAX_AGGS_TH :"),
    "tpa_aggs": ("bnxt.h", r"define TPA_MAX_AGGS\s+64"),
    "tpa_aggs_th": ("bnxt.h", r"define TPA_MAX_AGGS_TH\s+1024"),
    # what is not modelled: the device's own memzones and tables
    "def_cp": ("bnxt_ring.c", r"NULL, bp->async_cp_ring, NULL, \"def_cp\"\);"),
    "l2_nqr": ("bnxt_ring.c", r"NULL, nqr, NULL, \"l2_nqr\"\);"),
    "ctx_pg": ("bnxt_ethdev.c", r"\"bnxt_ctx(_pg_tbl|pgtbl)%s_%x_%d\","),
    "vnicattr": ("bnxt_vnic.c", r"\"bnxt_\" PCI_PRI_FMT \"_vnicattr(_%d)?\""),
    "port_stats": ("bnxt_ethdev.c", r"pci_dev->addr.function, \"rx_port_stats\"\);"),
    "grp_info": ("bnxt_ring.c", r"bp->grp_info = rte_zmalloc\(\"bnxt_grp_info\","),
}

#: each key's line at each release: mpcalc/dpdk/drivers/lines/bnxt.json, read from the DPDK mirror
#: (tests/conformance/test_pci_sources.py holds them to it)
LINES = load_lines("bnxt")

#: the device properties given on -a (see mpcalc.dpdk.drivers.pcipmd): its queues, and whether it is a Thor (P5,
#: BCM575xx) or, from 24.11, a Thor2 (P7, BCM576xx): BNXT_TPA_MAX_AGGS
PROPS = ("max_queues", "p5", "p7")
BOOL_PROPS = ("p5", "p7")

SOURCE = Source(DIRS, KEYS, LINES)

STRUCTS = (
    ("net_bnxt",),
    (
        "bnxt_rx_queue",
        "bnxt_tx_queue",
        "bnxt",
        "bnxt_rx_ring_info",
        "bnxt_tx_ring_info",
        "bnxt_cp_ring_info",
        "bnxt_ring",
        "bnxt_tpa_info",
    ),
)
SIZES = load_sizes("bnxt")  # mpcalc/dpdk/drivers/sizes/bnxt.json


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


def scattered(rel: str, conf: QueueConf | None) -> bool:
    """bnxt_scattered_rx at dev start (bnxt_need_agg_ring is its result): the scatter or LRO Rx offload, or
    the MTU + BNXT_MAX_PKT_LEN - BNXT_MAX_MTU (26) above the Rx pool's data room less RTE_PKTMBUF_HEADROOM
    (every Rx queue of a port shares the application's pool). Without a configuration (``conf`` None): not."""
    if conf is None:
        return False
    if conf.rx_offloads & (RX_OFFLOAD_SCATTER | RX_OFFLOAD_TCP_LRO):
        return True
    return conf.mtu + BNXT_OVERHEAD > conf.rx_data_room - release(rel).pktmbuf_headroom


def _scatter_cite(rel: str) -> str:
    return "; ".join(
        (
            SOURCE.cite(
                rel, "scattered_start", "scattered_rx", "scatter_offload", "lro_offload", "overhead", "mtu_check"
            ),
            SOURCE.cite(rel, "max_pkt_len", "num_vlans"),
            SOURCE.cite(rel, "start_nic"),
            SOURCE.cite(rel, "start_realloc"),
            SOURCE.cite(rel, "free_mz"),
        )
    )


def tpa_max_aggs(rel: str, dev: dict[str, object] | None) -> int:
    """BNXT_TPA_MAX_AGGS(bp): TPA_MAX_AGGS_TH (1024) on a P5 (Thor; from 24.11 a P7 Thor2 too), else
    TPA_MAX_AGGS (64)."""
    d = dev or {}
    chip = bool(d.get("p5")) or (since(rel, "24.11") and bool(d.get("p7")))
    return TPA_MAX_AGGS_TH if chip else TPA_MAX_AGGS


def rx_queue_setup(
    rel: str,
    port: int,
    queue: int,
    nb_desc: int,
    dev: dict[str, object] | None = None,
    conf: QueueConf | None = None,
) -> QueueParts | Rejection:
    """bnxt_rx_queue_setup_op: the ring holds rte_align32pow2(nb_desc); the queue structure, the ring-info
    structures of bnxt_init_rx_ring_struct and the ring memzone. On a scattered port (:func:`scattered`) dev start
    frees the ring memory and makes it again with the aggregation ring (bnxt_alloc_hwrm_rings): the figures are
    the started port's, one ``struct bnxt_ring`` more and the bigger memzone."""
    bad = _check(rel, "rx", nb_desc, MAX_RX_DESC_CNT)
    if bad:
        return bad
    s = SIZES[rel]
    c = SOURCE.cite
    agg = scattered(rel, conf)
    lro = agg and bool(conf and conf.rx_offloads & RX_OFFLOAD_TCP_LRO)
    again = f"; {_scatter_cite(rel)}" if agg else ""
    cl = RTE_CACHE_LINE_SIZE
    allocs = [
        Alloc("bnxt_rx_queue", s["bnxt_rx_queue"], cl, c(rel, "rx_queue"), "rx queue"),
        Alloc("bnxt_rx_ring", s["bnxt_rx_ring_info"], cl, c(rel, "rx_ring_info") + again, "rx ring info"),
        Alloc("bnxt_rx_ring_struct", s["bnxt_ring"], cl, c(rel, "rx_ring_struct") + again, "rx ring struct"),
        Alloc("bnxt_rx_ring", s["bnxt_cp_ring_info"], cl, c(rel, "rx_cp_info") + again, "rx completion ring info"),
        Alloc("bnxt_rx_ring_struct", s["bnxt_ring"], cl, c(rel, "rx_cp_struct") + again, "rx completion ring struct"),
    ]
    if agg:
        allocs.append(
            Alloc("bnxt_rx_ring_struct", s["bnxt_ring"], cl, c(rel, "ag_struct") + again, "rx aggregation ring struct")
        )
    return QueueParts(
        align32pow2(nb_desc),
        zones=(rx_ring_zone(rel, queue, nb_desc, dev, agg=agg, lro=lro),),
        allocs=tuple(allocs),
        not_modelled=NOT_MODELLED,
        notes=(f"ring of {align32pow2(nb_desc)} ({SOURCE.cite(rel, 'rx_ring_size')})",),
    )


def tx_queue_setup(
    rel: str, port: int, queue: int, nb_desc: int, dev: dict[str, object] | None = None
) -> QueueParts | Rejection:
    """bnxt_tx_queue_setup_op: the queue structure, the free array, the ring-info structures of
    bnxt_init_tx_ring_struct, the ring memzone and (23.11+) the BD counts bnxt_alloc_rings allocates after it."""
    bad = _check(rel, "tx", nb_desc, MAX_TX_DESC_CNT)
    if bad:
        return bad
    s = SIZES[rel]
    c = SOURCE.cite
    cl = RTE_CACHE_LINE_SIZE
    zones = (tx_ring_zone(rel, queue, nb_desc, dev),)
    allocs = [
        Alloc("bnxt_tx_queue", s["bnxt_tx_queue"], cl, c(rel, "tx_queue"), "tx queue"),
        Alloc("bnxt txq->free", 8 * nb_desc, cl, c(rel, "tx_free"), "tx free array"),
        Alloc("bnxt_tx_ring", s["bnxt_tx_ring_info"], cl, c(rel, "tx_ring_info"), "tx ring info"),
        Alloc("bnxt_tx_ring_struct", s["bnxt_ring"], cl, c(rel, "tx_ring_struct"), "tx ring struct"),
        Alloc("bnxt_tx_ring", s["bnxt_cp_ring_info"], cl, c(rel, "tx_cp_info"), "tx completion ring info"),
        Alloc("bnxt_tx_ring_struct", s["bnxt_ring"], cl, c(rel, "tx_cp_struct"), "tx completion ring struct"),
    ]
    if SOURCE.has(rel, "tx_nr_bds"):
        allocs.append(Alloc("bnxt_nr_bds", 2 * align32pow2(nb_desc), 0, c(rel, "tx_nr_bds"), "tx BD counts"))
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


def rx_ring_zone(
    rel: str, queue: int, nb_desc: int, dev: dict[str, object] | None = None, agg: bool = False, lro: bool = False
) -> Zone:
    """The memzone bnxt_alloc_rings(bp, socket_id, queue_idx, NULL, rxq, rxq->cp_ring, NULL, "rxr") reserves
    for an Rx queue: the stats, the Rx buffer ring (vmem: ring_size + 8 mbuf pointers), the completion ring
    (rte_align32pow2(2 x ring_size) 16-byte cmpl_base) and the Rx BD ring (ring_size 16-byte rx_prod_pkt_bd), at
    4 KiB boundaries; named ``bnxt_<PCI address>-<queue %04x>_rxr``, 4096-aligned. At queue set-up
    bnxt_need_agg_ring (eth_dev->data->scattered_rx) is 0. With the aggregation ring (``agg``: the zone dev start
    reserves again on a scattered port) the aggregation buffer ring (ag ring_size = rte_align32pow2(4 x nb_desc)
    mbuf pointers, cache-line rounded) follows the Rx one, the completion ring is 4 x larger, and after the BD
    ring come the aggregation BD ring (4 x the BD ring's length), its bitmap (rte_bitmap_get_memory_footprint of
    4 x ring_size bits) and, with LRO (``lro``), the TPA area (BNXT_TPA_MAX_AGGS x struct bnxt_tpa_info)."""
    ring = align32pow2(nb_desc)
    cl = RTE_CACHE_LINE_SIZE
    rx_vmem_len = align_ceil(align_ceil(8 * (ring + RX_EXTRA_MBUF_ENTRIES), cl), 128)
    ag_ring = align32pow2(nb_desc * AGG_RING_SIZE_FACTOR)
    ag_vmem_len = align_ceil(ag_ring * 8, cl) if agg else 0  # RTE_CACHE_LINE_ROUNDUP only
    cp_ring_start = align_ceil(stats_len(rel) + rx_vmem_len + ag_vmem_len, 4096)  # cp, nq, tx vmem 0
    cp_entries = align32pow2(2 * ring * (AGG_RING_SIZE_FACTOR if agg else 1))
    cp_ring_len = align_ceil(align_ceil(cp_entries * 16, cl), 128)
    rx_ring_start = align_ceil(cp_ring_start + cp_ring_len, 4096)  # nq_ring_start = tx_ring_start; their lens 0
    rx_ring_len = align_ceil(align_ceil(ring * 16, cl), 4096)
    ag_ring_start = align_ceil(rx_ring_start + rx_ring_len, 4096)
    ag_ring_len = align_ceil(rx_ring_len * AGG_RING_SIZE_FACTOR, 4096) if agg else 0
    ag_bitmap_len = align_ceil(bitmap_footprint(ring * AGG_RING_SIZE_FACTOR), cl) if agg else 0
    tpa_len = align_ceil(tpa_max_aggs(rel, dev) * SIZES[rel]["bnxt_tpa_info"], cl) if lro else 0
    total = ag_ring_start + ag_ring_len + ag_bitmap_len + tpa_len
    addr = str((dev or {}).get("pci_addr", "0000:00:00.0"))
    name = f"bnxt_{addr}-{queue:04x}_rxr"[:31]  # RTE_MEMZONE_NAMESIZE - 1
    parts = [
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
    ]
    role = "rx ring memzone (stats, buffer, completion and BD rings)"
    if agg:
        parts += [
            SOURCE.cite(rel, "ag_size", "ag_vmem", "cp_agg"),
            SOURCE.cite(rel, "agg_factor"),
            SOURCE.cite(rel, "ag_vmem_len", "ag_ring_len", "ag_ring_align", "ag_bitmap"),
        ]
        role = "rx ring memzone (stats, buffer, completion, BD and aggregation rings, aggregation bitmap)"
    if lro:
        parts += [
            SOURCE.cite(rel, "tpa_lro", "tpa_len", "tpa_round"),
            SOURCE.cite(rel, "tpa_max", "tpa_chip", "tpa_aggs", "tpa_aggs_th"),
        ]
        role = role[:-1] + ", TPA area)"
    return Zone(name, total, 4096, "; ".join(parts), role)


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


def not_modelled(rel: str, dev: dict[str, object] | None = None) -> tuple[str, ...]:
    """What the model leaves uncounted in the heap, each sentence with the lines it rests on."""
    c = SOURCE.cite
    zones = "; ".join((c(rel, "def_cp", "l2_nqr"), c(rel, "ctx_pg", "port_stats"), c(rel, "vnicattr")))
    tables = "; ".join((c(rel, "grp_info"), c(rel, "dev_private")))
    return tuple(f"{text} ({cite})" for text, cite in zip(NOT_MODELLED, (zones, tables), strict=True))


#: a PCI address as PCI_PRI_FMT prints it (the zones' names)
_PCI = r"[0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-7]"

PMD = declare(
    sys.modules[__name__],
    name=NAME,
    source="drivers/net/bnxt",
    kernel_drivers=("bnxt_en",),
    # bnxt_alloc_rings' "bnxt_" PCI_PRI_FMT "-%04x_%s" (the queues' "txr" and "rxr", the default completion ring's
    # "def_cp", a Thor's "l2_nqr"), the port statistics, the VNIC attributes and a Thor's context memory
    zones=(
        rf"bnxt_{_PCI}-[0-9a-f]{{4}}_(txr|rxr|def_cp|l2_nqr)",
        rf"bnxt_{_PCI}-(rx|tx)_port_stats",
        rf"bnxt_{_PCI}_vnicattr(_\d+)?",
        r"bnxt_ctx.+",
    ),
)
