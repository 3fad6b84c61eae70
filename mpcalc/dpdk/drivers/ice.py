"""net_ice: Intel E810/E830 (800 series; net_ice_dcf is not modelled).

See :mod:`.intelring`: ``rx_ring`` for ICE_MAX_RING_DESC + 32 32-byte flex descriptors rounded up to 4 KiB and a
Tx ring for ICE_MAX_RING_DESC 16-byte ones, whatever nb_desc; ICE_MAX_RING_DESC is 4096 up to 23.11 and 8160
from 24.11, and from 25.11 the device's (ICE_MAX_NUM_DESC_BY_MAC: 8096 on an E830, ``dev["e830"]``). The
software rings and queues are ``rte_zmalloc_socket(NULL, ...)``. nb_desc: a multiple of 32 in [64, max].
From 25.11 a Tx queue with the Tx time offload (RTE_ETH_TX_OFFLOAD_SEND_ON_TIMESTAMP, an E830 only) adds its
time-stamp ring ``ice_tstamp_ring`` (4 bytes a descriptor for nb_desc + the fetched descriptors rounded up to 32,
4 KiB-rounded) and its ``struct ice_txtime`` (:func:`tstamp_parts`).

From the driver's source, not run. Pure: stdlib only.
"""

from __future__ import annotations

import sys
from dataclasses import replace

from mpcalc.dpdk.core.errors import Rejection
from mpcalc.dpdk.drivers import intelring as ir
from mpcalc.dpdk.drivers.pcibase import (
    RTE_CACHE_LINE_SIZE,
    Alloc,
    DescLim,
    QueueParts,
    Source,
    Zone,
    align_ceil,
    dev_int,
    eth_zone,
    intel_dirs,
    load_lines,
    load_sizes,
    refuse,
    since,
)
from mpcalc.dpdk.drivers.pcipmd import declare
from mpcalc.dpdk.drivers.pmd import TX_OFFLOAD_SEND_ON_TIMESTAMP, QueueConf

NAME = "net_ice"
PROVENANCE = "source"
DIRS = intel_dirs("ice", "ice")
NAMES = ir.Names(
    "ice", "ice rxq", "ice rxq->sw_ring", "ice txq", "ice txq->sw_ring", "ice_rx_queue_setup", "ice_tx_queue_setup"
)
ICE_BUF_SIZE_MIN = 1024


def max_ring_desc(rel: str, dev: dict[str, object] | None = None) -> int:
    """ICE_MAX_RING_DESC 4096, 8160 from 24.11; from 25.11 ICE_MAX_NUM_DESC_BY_MAC (E830: 8096)."""
    if since(rel, "25.11") and (dev or {}).get("e830"):
        return 8096
    return 8160 if since(rel, "24.11") else 4096


KEYS = {
    "max_ring_desc": ("ice_rxtx.h", r"define ICE_MAX_RING_DESC\s+"),
    "min_ring_desc": ("ice_rxtx.h", r"define ICE_MIN_RING_DESC\s+64"),
    "rx_check": ("ice_rxtx.c", r"if \(nb_desc % ICE_ALIGN_RING_DESC != 0 \|\|"),
    "rx_thresh": ("ice_rxtx.c", r"if \(nb_desc <= 2 \* rx_conf->rx_free_thresh\) \{"),
    "rx_queue": ("ice_rxtx.c", r"sizeof\(struct \w+_rx_queue\),"),
    "rx_size": ("ice_rxtx.c", r"ring_size = sizeof\(union \w+_rx_flex_desc\) \* len;"),
    "rx_zone": ("ice_rxtx.c", r"rz = rte_eth_dma_zone_reserve\(dev, \"rx_ring\", queue_idx,"),
    "rx_sw_ring": ("ice_rxtx.c", r"rxq->sw_ring = rte_zmalloc_socket\(NULL,"),
    "tx_check": ("ice_rxtx.c", r"if \(nb_desc % ICE_ALIGN_RING_DESC != 0 \|\|", 2),
    "tx_queue": ("ice_rxtx.c", r"sizeof\(struct \w+_tx_queue\),"),
    "tx_size": ("ice_rxtx.c", r"ring_size = sizeof\(struct \w+_tx_desc\) \* ICE_MAX_"),
    "tx_zone": ("ice_rxtx.c", r"tz = rte_eth_dma_zone_reserve\(dev, \"\w*tx_ring\", queue_idx,"),
    "tx_sw_ring": ("ice_rxtx.c", r"sizeof\(struct \w+_tx_entry\) \* nb_desc,"),
    "rs_last_id": ("ice_rxtx.c", r"txq->rs_last_id = rte_zmalloc_socket\(NULL,"),
    "desc_lim": ("ice_ethdev.c", r"dev_info->rx_desc_lim = \(struct rte_eth_desc_lim\) \{"),
    "ring_size": ("ice_ethdev.c", r"default_rxportconf.ring_size = ICE_BUF_SIZE_MIN;"),
    "dev_private": ("ice_ethdev.c", r"sizeof\(struct ice_adapter\)"),
    # 25.11+: the Tx time-stamp ring of a queue with RTE_ETH_TX_OFFLOAD_SEND_ON_TIMESTAMP
    "tx_offloads": ("ice_rxtx.c", r"offloads = tx_conf->offloads \| dev->data->dev_conf.txmode.offloads;"),
    "ts_offload": (
        "ice_rxtx.c",
        r"if \(vsi->type == ICE_VSI_PF && \(offloads & RTE_ETH_TX_OFFLOAD_SEND_ON_TIMESTAMP\)\) \{",
    ),
    "ts_e830": ("ice_rxtx.c", r"PMD_INIT_LOG\(ERR, \"Tx Time Queue is not supported on this device\"\);"),
    "tsq": ("ice_rxtx.c", r"txq->tsq = rte_zmalloc_socket\(NULL, sizeof\(struct ice_txtime\),"),
    "ts_dynfield": ("ice_rxtx.c", r"rte_mbuf_dyn_tx_timestamp_register\(&txq->tsq->ts_offset,"),
    "ts_count": (
        "ice_rxtx.c",
        r"txq->tsq->nb_ts_desc = ice_calc_ts_ring_count\(ICE_VSI_TO_HW\(vsi\), txq->nb_tx_desc\);",
    ),
    "ts_size": ("ice_rxtx.c", r"ring_size = sizeof\(struct ice_ts_desc\) \* txq->tsq->nb_ts_desc;"),
    "ts_zone": ("ice_rxtx.c", r"const struct rte_memzone \*ts_z = rte_eth_dma_zone_reserve\(dev, \"ice_tstamp_ring\","),
    "ts_fetch": ("ice_rxtx.c", r"max_fetch_desc = ICE_TXTIME_FETCH_TS_DESC_DFLT;"),
    "ts_fetch_align": ("ice_rxtx.c", r"max_fetch_desc = RTE_ALIGN\(max_fetch_desc, ICE_REQ_DESC_MULTIPLE\);"),
    "ts_count_ret": ("ice_rxtx.c", r"return tx_desc_count \+ max_fetch_desc;"),
    "ts_dflt": ("base/ice_lan_tx_rx.h", r"define ICE_TXTIME_FETCH_TS_DESC_DFLT\s+8"),
    "req_multiple": ("ice_rxtx.h", r"define ICE_REQ_DESC_MULTIPLE\s+32"),
    "ts_desc": ("base/ice_lan_tx_rx.h", r"^struct ice_ts_desc \{"),
    "dma_align": ("ice_rxtx.h", r"define ICE_DMA_MEM_ALIGN\s+4096"),
    "base_align": ("ice_rxtx.h", r"define ICE_RING_BASE_ALIGN\s+128"),
}

#: each key's line at each release: mpcalc/dpdk/drivers/lines/ice.json, read from the DPDK mirror
#: (tests/conformance/test_pci_sources.py holds them to it)
LINES = load_lines("ice")

#: the device properties given on -a (see mpcalc.dpdk.drivers.pcipmd): its LAN queues, whether it is an E830, and
#: the Tx time-stamp descriptors its E830_GLTXTIME_FETCH_PROFILE registers fetch (0: ICE_TXTIME_FETCH_TS_DESC_DFLT)
PROPS = ("max_queues", "e830", "txtime_fetch_desc")
BOOL_PROPS = ("e830",)

SOURCE = Source(DIRS, KEYS, LINES)

STRUCTS = (
    ("net_ice", "net_intel_ice"),
    (
        "ice_rx_queue",
        "ice_tx_queue",
        "ice_rx_entry",
        "ice_tx_entry",
        "ci_rx_queue",
        "ci_tx_queue",
        "ci_rx_entry",
        "ci_tx_entry",
        "ice_adapter",
        "ice_ts_desc",
        "ice_txtime",
    ),
)
SIZES = load_sizes("ice")  # mpcalc/dpdk/drivers/sizes/ice.json


def desc_lim(rel: str, dev: dict[str, object] | None = None) -> tuple[DescLim, DescLim]:
    return ir.desc_lim(SOURCE, rel, max_ring_desc(rel, dev))


def max_queues(rel: str, dev: dict[str, object] | None = None) -> tuple[int, int]:
    """The PF's LAN queues, firmware-given (256 typical on an E810 port): ``dev["max_queues"]``."""
    n = dev_int(dev, "max_queues", 256)
    return n, n


def default_ring(rel: str) -> tuple[int, int]:
    """default_rxportconf/default_txportconf.ring_size = ICE_BUF_SIZE_MIN (1024)."""
    return ICE_BUF_SIZE_MIN, ICE_BUF_SIZE_MIN


def _structs(rel: str, side: str) -> tuple[str, str]:
    if since(rel, "25.11"):
        return f"ci_{side}_queue", f"ci_{side}_entry"
    return f"ice_{side}_queue", f"ice_{side}_entry"


def rx_queue_setup(
    rel: str, port: int, queue: int, nb_desc: int, dev: dict[str, object] | None = None
) -> QueueParts | Rejection:
    """ice_rx_queue_setup."""
    return ir.rx(
        SOURCE, SIZES[rel], rel, port, queue, nb_desc, max_ring_desc(rel, dev), NAMES, dev, _structs(rel, "rx")
    )


#: ICE_TXTIME_FETCH_TS_DESC_DFLT, ICE_REQ_DESC_MULTIPLE, ICE_DMA_MEM_ALIGN, ICE_RING_BASE_ALIGN
ICE_TXTIME_FETCH_TS_DESC_DFLT = 8
ICE_REQ_DESC_MULTIPLE = 32


def tx_queue_setup(
    rel: str,
    port: int,
    queue: int,
    nb_desc: int,
    dev: dict[str, object] | None = None,
    conf: QueueConf | None = None,
) -> QueueParts | Rejection:
    """ice_tx_queue_setup, and from 25.11 the time-stamp ring of a queue with the Tx time offload
    (:func:`tstamp_parts`)."""
    got = ir.tx(SOURCE, SIZES[rel], rel, port, queue, nb_desc, max_ring_desc(rel, dev), NAMES, dev, _structs(rel, "tx"))
    offloads = conf.tx_offloads if conf else 0
    if (
        not isinstance(got, QueueParts)
        or not SOURCE.has(rel, "ts_offload")
        or not offloads & TX_OFFLOAD_SEND_ON_TIMESTAMP
    ):
        return got
    ts = tstamp_parts(rel, port, queue, nb_desc, dev)
    if isinstance(ts, Rejection):
        return ts
    zone, alloc = ts
    return replace(got, zones=(*got.zones, zone), allocs=(*got.allocs, alloc))


def tstamp_parts(
    rel: str, port: int, queue: int, nb_desc: int, dev: dict[str, object] | None = None
) -> tuple[Zone, Alloc] | Rejection:
    """The Tx time queue of ice_tx_queue_setup (25.11+; offloads = tx_conf->offloads | txmode.offloads has
    RTE_ETH_TX_OFFLOAD_SEND_ON_TIMESTAMP, the port a PF): refused but on an E830 ("Tx Time Queue is not supported
    on this device", -EINVAL); else its ``struct ice_txtime`` (rte_zmalloc_socket(NULL)) and the ring
    ``ice_tstamp_ring`` of ice_calc_ts_ring_count(hw, nb_desc) = nb_desc + RTE_ALIGN(max_fetch_desc,
    ICE_REQ_DESC_MULTIPLE) 4-byte struct ice_ts_desc, RTE_ALIGN'ed to ICE_DMA_MEM_ALIGN, ICE_RING_BASE_ALIGN
    aligned; max_fetch_desc is the largest FETCH_TS_DESC of the device's fetch profiles
    (``dev["txtime_fetch_desc"]``), ICE_TXTIME_FETCH_TS_DESC_DFLT when 0."""
    c = SOURCE.cite
    if not (dev or {}).get("e830"):
        return refuse(
            "Tx Time Queue is not supported on this device",
            "ice_tx_queue_setup",
            c(rel, "tx_offloads", "ts_offload", "ts_e830"),
        )
    fetch = dev_int(dev, "txtime_fetch_desc", 0) or ICE_TXTIME_FETCH_TS_DESC_DFLT
    n = nb_desc + align_ceil(fetch, ICE_REQ_DESC_MULTIPLE)
    s = SIZES[rel]
    size = align_ceil(s["ice_ts_desc"] * n, ir.DMA_MEM_ALIGN)
    zone_cite = "; ".join(
        (
            c(rel, "tx_offloads", "ts_offload", "ts_fetch", "ts_fetch_align", "ts_count_ret", "ts_count", "ts_size"),
            c(rel, "ts_zone"),
            c(rel, "ts_dflt", "ts_desc"),
            c(rel, "req_multiple", "dma_align", "base_align"),
        )
    )
    zone = Zone(eth_zone(port, queue, "ice_tstamp_ring"), size, ir.RING_BASE_ALIGN, zone_cite, "tx time-stamp ring")
    alloc = Alloc("ice txq->tsq", s["ice_txtime"], RTE_CACHE_LINE_SIZE, c(rel, "tsq"), "tx time queue")
    return zone, alloc


def not_modelled(rel: str, dev: dict[str, object] | None = None, conf: QueueConf | None = None) -> tuple[str, ...]:
    """A Tx time queue registers the mbuf timestamp dynamic field and flag, once in the process (the
    ``rte_mbuf_dyn`` memzone of the first registration and an element for each): not counted."""
    if conf is None or not SOURCE.has(rel, "ts_offload") or not conf.tx_offloads & TX_OFFLOAD_SEND_ON_TIMESTAMP:
        return ()
    return (
        "the mbuf Tx timestamp dynamic field and flag the Tx time queues register "
        f"(rte_mbuf_dyn_tx_timestamp_register, {SOURCE.cite(rel, 'ts_dynfield')}): once in the process",
    )


def probe(rel: str, port: int, dev: dict[str, object] | None = None) -> tuple[tuple[Zone, ...], tuple[Alloc, ...]]:
    """rte_eth_dev_pci_generic_probe(pci_dev, sizeof(struct ice_adapter), ...): the device's dev_private, an
    rte_zmalloc_socket named by the PCI address (rte_eth_dev_pci_allocate, v22.11.11:lib/ethdev/ethdev_pci.h:97).
    Its MAC tables and other per-device allocations are not modelled."""
    return (), (
        Alloc(
            "ethdev private structure",
            SIZES[rel]["ice_adapter"],
            RTE_CACHE_LINE_SIZE,
            SOURCE.cite(rel, "dev_private"),
            "dev_private",
        ),
    )


PMD = declare(
    sys.modules[__name__],
    name=NAME,
    source="drivers/net/intel/ice",
    kernel_drivers=("ice",),
)
