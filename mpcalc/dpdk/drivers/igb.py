"""net_e1000_igb: Intel 82575/82576/82580/I350/I354/I210/I211 (and net_e1000_igb_vf, the 82576/I350 VFs).

Like em, each queue's memzone holds E1000_MAX_RING_DESC (4096) 16-byte advanced descriptors whatever nb_desc,
aligned to E1000_ALIGN (128); then the queue structure and a software ring of nb_desc entries. nb_desc is a
multiple of IGB_RXD_ALIGN (8) in [32, 4096]. The queue counts depend on the MAC (82576: 16, 82580/I350/I354: 8,
82575/I210: 4, I211: 2; the VFs 2 or 1): ``dev["max_queues"]``, default 8 (I350).

From the driver's source, not run (QEMU 7.2 has no igb). Pure: stdlib only.
"""

from __future__ import annotations

import sys

from mpcalc.dpdk.drivers.pcibase import (
    Alloc,
    DescLim,
    SimpleRing,
    Source,
    Zone,
    dev_int,
    dev_private,
    intel_dirs,
    load_lines,
    load_sizes,
)
from mpcalc.dpdk.drivers.pcipmd import declare

NAME = "net_e1000_igb"
PROVENANCE = "source"
DIRS = intel_dirs("e1000", "e1000")

E1000_MAX_RING_DESC = 4096
E1000_MIN_RING_DESC = 32
E1000_ALIGN = 128
DESC = 16  # union e1000_adv_rx_desc / union e1000_adv_tx_desc
IGB_RXD_ALIGN = E1000_ALIGN // DESC

KEYS = {
    "max_ring_desc": ("e1000_ethdev.h", r"define\s+E1000_MAX_RING_DESC\s+4096"),
    "min_ring_desc": ("e1000_ethdev.h", r"define\s+E1000_MIN_RING_DESC\s+32"),
    "igb_rxd_align": ("e1000_ethdev.h", r"define\s+IGB_RXD_ALIGN"),
    "tx_check": ("igb_rxtx.c", r"nb_desc % IGB_TXD_ALIGN != 0"),
    "tx_queue": ("igb_rxtx.c", r"txq = rte_zmalloc\(\"ethdev TX queue\", sizeof\(struct igb_tx_queue\)"),
    "tx_size": ("igb_rxtx.c", r"size = sizeof\(union e1000_adv_tx_desc\) \* E1000_MAX_RING_DESC;"),
    "tx_zone": ("igb_rxtx.c", r"rte_eth_dma_zone_reserve\(dev, \"tx_ring\""),
    "tx_sw_ring": ("igb_rxtx.c", r"txq->sw_ring = rte_zmalloc\(\"txq->sw_ring\""),
    "rx_check": ("igb_rxtx.c", r"nb_desc % IGB_RXD_ALIGN != 0"),
    "rx_queue": ("igb_rxtx.c", r"rxq = rte_zmalloc\(\"ethdev RX queue\", sizeof\(struct igb_rx_queue\)"),
    "rx_size": ("igb_rxtx.c", r"size = sizeof\(union e1000_adv_rx_desc\) \* E1000_MAX_RING_DESC;"),
    "rx_zone": ("igb_rxtx.c", r"rte_eth_dma_zone_reserve\(dev, \"rx_ring\""),
    "rx_sw_ring": ("igb_rxtx.c", r"rxq->sw_ring = rte_zmalloc\(\"rxq->sw_ring\""),
    "desc_lim": ("igb_ethdev.c", r"static const struct rte_eth_desc_lim rx_desc_lim = \{"),
    "max_queues": ("igb_ethdev.c", r"dev_info->max_rx_queues = 16;"),
    "mac_addrs": ("igb_ethdev.c", r"mac_addrs = rte_zmalloc\(\"e1000\""),
    "dev_private": ("igb_ethdev.c", r"sizeof\(struct e1000_adapter\)"),
}

#: each key's line at each release: mpcalc/dpdk/drivers/lines/igb.json, read from the DPDK mirror
#: (tests/conformance/test_pci_sources.py holds them to it)
LINES = load_lines("igb")

#: the device properties given on -a (see mpcalc.dpdk.drivers.pcipmd)
PROPS = ("max_queues",)

SOURCE = Source(DIRS, KEYS, LINES)

STRUCTS = (("net_e1000",), ("igb_rx_queue", "igb_tx_queue", "igb_rx_entry", "igb_tx_entry", "e1000_adapter"))
SIZES = load_sizes("igb")  # mpcalc/dpdk/drivers/sizes/igb.json


def desc_lim(rel: str, dev: dict[str, object] | None = None) -> tuple[DescLim, DescLim]:
    """rx_desc_lim / tx_desc_lim (igb_ethdev.c): [E1000_MIN_RING_DESC, E1000_MAX_RING_DESC], IGB_RXD_ALIGN."""
    lim = DescLim(E1000_MAX_RING_DESC, E1000_MIN_RING_DESC, IGB_RXD_ALIGN, SOURCE.cite(rel, "desc_lim"))
    return lim, lim


def max_queues(rel: str, dev: dict[str, object] | None = None) -> tuple[int, int]:
    n = dev_int(dev, "max_queues", 8)
    return n, n


def default_ring(rel: str) -> tuple[int, int]:
    """No default_rxportconf ring size: ethdev's fallback (512)."""
    return 0, 0


#: eth_igb_{rx,tx}_queue_setup: the ring memzone for E1000_MAX_RING_DESC descriptors, the queue, the software ring
RING = SimpleRing(
    SOURCE,
    SIZES,
    "eth_igb_{}_queue_setup",
    "igb_{}",
    IGB_RXD_ALIGN,
    E1000_MIN_RING_DESC,
    E1000_MAX_RING_DESC,
    DESC * E1000_MAX_RING_DESC,
    E1000_ALIGN,
    "E1000_MAX_RING_DESC",
)
rx_queue_setup, tx_queue_setup = RING.rx, RING.tx


def probe(rel: str, port: int, dev: dict[str, object] | None = None) -> tuple[tuple[Zone, ...], tuple[Alloc, ...]]:
    """The device's dev_private, struct e1000_adapter (:func:`~mpcalc.dpdk.drivers.pcibase.dev_private`); its MAC
    tables and other per-device allocations are not modelled."""
    return (), (dev_private(SOURCE, rel, SIZES[rel]["e1000_adapter"]),)


PMD = declare(
    sys.modules[__name__],
    name=NAME,
    source="drivers/net/intel/e1000",
    kernel_drivers=("igb",),
)
