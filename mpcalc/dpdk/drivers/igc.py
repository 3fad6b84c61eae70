"""net_igc: Intel I225/I226 (2.5G). From 25.11 its files live in drivers/net/intel/e1000.

Each queue's memzone holds IGC_MAX_RXD/IGC_MAX_TXD descriptors (0x80000 / 16 = 32768) whatever nb_desc, aligned
to IGC_ALIGN (128): 512 KiB a queue. Tx queues of 23.11, 25.11 and 26.07 add a 64-byte dummy packet buffer
(IGC_DUMMY_PKT_SIZE; absent from 24.11.6). nb_desc is a multiple of 8 in [8, 32768]; 4 queue pairs.

From the driver's source, not run. Pure: stdlib only.
"""

from __future__ import annotations

import sys

from mpcalc.dpdk.core.errors import Rejection
from mpcalc.dpdk.drivers.pcibase import (
    Alloc,
    DescLim,
    QueueParts,
    Source,
    Zone,
    dev_private,
    intel_dirs,
    load_lines,
    load_sizes,
    refuse,
    ring_parts,
    ring_zone,
    sw_queue,
)
from mpcalc.dpdk.drivers.pcipmd import declare

NAME = "net_igc"
PROVENANCE = "source"
DIRS = intel_dirs("igc", "e1000")

DESC = 16
IGC_ALIGN = 128
IGC_MAX_DESC = 0x80000 // DESC  # IGC_MAX_RXD = IGC_MAX_TXD = 32768
IGC_DESCRIPTOR_MULTIPLE = 8  # IGC_RX_DESCRIPTOR_MULTIPLE = IGC_MIN_RXD, likewise Tx
IGC_QUEUE_PAIRS_NUM = 4
IGC_DUMMY_PKT_SIZE = 64

KEYS = {
    "max_rxd": ("igc_ethdev.h", r"define IGC_MAX_RXD\s+\(\(uint16_t\)\(0x80000 / sizeof"),
    "max_txd": ("igc_ethdev.h", r"define IGC_MAX_TXD\s+\(\(uint16_t\)\(0x80000 / sizeof"),
    "multiple": ("igc_ethdev.h", r"define IGC_RX_DESCRIPTOR_MULTIPLE\s+8"),
    "align": ("igc_ethdev.h", r"define IGC_ALIGN\s+128"),
    "pairs": ("igc_ethdev.h", r"define IGC_QUEUE_PAIRS_NUM\s+4"),
    "rx_check": ("igc_txrx.c", r"if \(nb_desc % IGC_RX_DESCRIPTOR_MULTIPLE != 0 \|\|"),
    "rx_text": ("igc_txrx.c", r"\"RX descriptor must be multiple of %u\(cur: %u\) and between %u and %u\""),
    "rx_queue": ("igc_txrx.c", r"rxq = rte_zmalloc\(\"ethdev RX queue\", sizeof\(struct igc_rx_queue\)"),
    "rx_size": ("igc_txrx.c", r"size = sizeof\(union \w+_adv_rx_desc\) \* IGC_MAX_RXD;"),
    "rx_zone": ("igc_txrx.c", r"rte_eth_dma_zone_reserve\(dev, \"rx_ring\""),
    "rx_sw_ring": ("igc_txrx.c", r"rxq->sw_ring = rte_zmalloc\(\"rxq->sw_ring\""),
    "tx_check": ("igc_txrx.c", r"if \(nb_desc % IGC_TX_DESCRIPTOR_MULTIPLE != 0 \|\|"),
    "tx_text": ("igc_txrx.c", r"\"TX-descriptor must be a multiple of %u and between %u and %u, cur: %u\""),
    "tx_queue": ("igc_txrx.c", r"txq = rte_zmalloc\(\"ethdev TX queue\", sizeof\(struct igc_tx_queue\)"),
    "tx_size": ("igc_txrx.c", r"size = sizeof\(union \w+_adv_tx_desc\) \* IGC_MAX_TXD;"),
    "tx_zone": ("igc_txrx.c", r"rte_eth_dma_zone_reserve\(dev, \"tx_ring\""),
    "tx_sw_ring": ("igc_txrx.c", r"txq->sw_ring = rte_zmalloc\(\"txq->sw_ring\""),
    "dummy": ("igc_txrx.c", r"rte_zmalloc\(\"dummy_pkt\", IGC_DUMMY_PKT_SIZE"),
    "desc_lim": ("igc_ethdev.c", r"static const struct rte_eth_desc_lim rx_desc_lim = \{"),
    "dev_private": ("igc_ethdev.c", r"sizeof\(struct igc_adapter\)"),
}

#: each key's line at each release: mpcalc/dpdk/drivers/lines/igc.json, read from the DPDK mirror
#: (tests/conformance/test_pci_sources.py holds them to it)
LINES = load_lines("igc")

#: the device properties given on -a (see mpcalc.dpdk.drivers.pcipmd)
PROPS = ()

SOURCE = Source(DIRS, KEYS, LINES)

STRUCTS = (("net_igc", "net_e1000"), ("igc_rx_queue", "igc_tx_queue", "igc_rx_entry", "igc_tx_entry", "igc_adapter"))
SIZES = load_sizes("igc")  # mpcalc/dpdk/drivers/sizes/igc.json


def desc_lim(rel: str, dev: dict[str, object] | None = None) -> tuple[DescLim, DescLim]:
    lim = DescLim(IGC_MAX_DESC, IGC_DESCRIPTOR_MULTIPLE, IGC_DESCRIPTOR_MULTIPLE, SOURCE.cite(rel, "desc_lim"))
    return lim, lim


def max_queues(rel: str, dev: dict[str, object] | None = None) -> tuple[int, int]:
    return IGC_QUEUE_PAIRS_NUM, IGC_QUEUE_PAIRS_NUM


def default_ring(rel: str) -> tuple[int, int]:
    return 0, 0


def _check(rel: str, side: str, nb_desc: int) -> Rejection | None:
    if nb_desc % IGC_DESCRIPTOR_MULTIPLE or not IGC_DESCRIPTOR_MULTIPLE <= nb_desc <= IGC_MAX_DESC:
        if side == "rx":
            text = (
                f"RX descriptor must be multiple of {IGC_DESCRIPTOR_MULTIPLE}(cur: {nb_desc}) and between "
                f"{IGC_DESCRIPTOR_MULTIPLE} and {IGC_MAX_DESC}"
            )
        else:  # the driver prints its Tx bounds max first
            text = (
                f"TX-descriptor must be a multiple of {IGC_DESCRIPTOR_MULTIPLE} and between {IGC_MAX_DESC} and "
                f"{IGC_DESCRIPTOR_MULTIPLE}, cur: {nb_desc}"
            )
        return refuse(text, f"eth_igc_{side}_queue_setup", SOURCE.cite(rel, f"{side}_check", f"{side}_text"))
    return None


def _queue(rel: str, side: str, port: int, queue: int, nb_desc: int) -> QueueParts | Rejection:
    """eth_igc_{rx,tx}_queue_setup: the ring memzone for IGC_MAX_RXD/IGC_MAX_TXD descriptors, the queue, the
    software ring and, where the release has it, the Tx queue's dummy packet."""
    bad = _check(rel, side, nb_desc)
    if bad:
        return bad
    s = SIZES[rel]
    allocs = sw_queue(side, s[f"igc_{side}_queue"], s[f"igc_{side}_entry"] * nb_desc)
    if side == "tx" and SOURCE.has(rel, "dummy"):
        allocs.append(("dummy_pkt", IGC_DUMMY_PKT_SIZE, ("dummy",), "tx dummy packet"))
    limit = "IGC_MAX_RXD" if side == "rx" else "IGC_MAX_TXD"
    return ring_parts(SOURCE, rel, port, queue, nb_desc, ring_zone(side, DESC * IGC_MAX_DESC, IGC_ALIGN, limit), allocs)


def rx_queue_setup(
    rel: str, port: int, queue: int, nb_desc: int, dev: dict[str, object] | None = None
) -> QueueParts | Rejection:
    """eth_igc_rx_queue_setup (:func:`_queue`)."""
    return _queue(rel, "rx", port, queue, nb_desc)


def tx_queue_setup(
    rel: str, port: int, queue: int, nb_desc: int, dev: dict[str, object] | None = None
) -> QueueParts | Rejection:
    """eth_igc_tx_queue_setup (:func:`_queue`)."""
    return _queue(rel, "tx", port, queue, nb_desc)


def probe(rel: str, port: int, dev: dict[str, object] | None = None) -> tuple[tuple[Zone, ...], tuple[Alloc, ...]]:
    """The device's dev_private, struct igc_adapter (:func:`~mpcalc.dpdk.drivers.pcibase.dev_private`); its MAC
    tables and other per-device allocations are not modelled."""
    return (), (dev_private(SOURCE, rel, SIZES[rel]["igc_adapter"]),)


PMD = declare(
    sys.modules[__name__],
    name=NAME,
    source="drivers/net/intel/e1000",
    kernel_drivers=("igc",),
)
