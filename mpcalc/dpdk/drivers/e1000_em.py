"""net_e1000_em: Intel 8254x/8257x/8258x and the I217/I218/I219 LOMs (QEMU's ``e1000`` and ``e1000e``).

Every Rx and Tx queue reserves a memzone for E1000_MAX_RING_DESC (4096) descriptors of 16 bytes whatever
nb_desc is (so that a later set-up can grow it), then an ``rte_zmalloc`` of its queue structure and one of its
software ring (nb_desc entries). nb_desc must be a multiple of 8 in [32, 4096]; the driver's own check
returns -EINVAL without a message (ethdev's check of the same limits prints first).

Proven on Debian's 22.11.11 and DPDK 24.11.6, 25.11.2 and 26.07 in a QEMU guest (82540EM, 82545EM and 82574L:
tests/conformance/drivers/qemu/).
Pure: stdlib only.
"""

from __future__ import annotations

import sys

from mpcalc.dpdk.drivers.pcibase import (
    RTE_CACHE_LINE_SIZE,
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

NAME = "net_e1000_em"
PROVENANCE = "run"
DIRS = intel_dirs("e1000", "e1000")

E1000_MAX_RING_DESC = 4096
E1000_MIN_RING_DESC = 32
E1000_ALIGN = 128
DESC = 16  # struct e1000_rx_desc / struct e1000_data_desc
EM_RXD_ALIGN = E1000_ALIGN // DESC  # 8
E1000_RAR_ENTRIES = 15  # rar_entry_count of the 8254x/8257x (e1000_init_mac_params_82540)
DEFAULT_RING = 256

KEYS = {
    "max_ring_desc": ("e1000_ethdev.h", r"define\s+E1000_MAX_RING_DESC\s+4096"),
    "min_ring_desc": ("e1000_ethdev.h", r"define\s+E1000_MIN_RING_DESC\s+32"),
    "e1000_align": ("e1000_ethdev.h", r"define\s+E1000_ALIGN\s+128"),
    "em_rxd_align": ("e1000_ethdev.h", r"define\s+EM_RXD_ALIGN"),
    "em_txd_align": ("e1000_ethdev.h", r"define\s+EM_TXD_ALIGN"),
    "tx_check": ("em_rxtx.c", r"nb_desc % EM_TXD_ALIGN != 0"),
    "tx_size": ("em_rxtx.c", r"tsize = sizeof\(txq->tx_ring\[0\]\) \* E1000_MAX_RING_DESC"),
    "tx_zone": ("em_rxtx.c", r"rte_eth_dma_zone_reserve\(dev, \"tx_ring\""),
    "tx_queue": ("em_rxtx.c", r"rte_zmalloc\(\"ethdev TX queue\""),
    "tx_sw_ring": ("em_rxtx.c", r"rte_zmalloc\(\"txq->sw_ring\""),
    "rx_check": ("em_rxtx.c", r"nb_desc % EM_RXD_ALIGN != 0"),
    "rx_size": ("em_rxtx.c", r"rsize = sizeof\(rxq->rx_ring\[0\]\) \* E1000_MAX_RING_DESC"),
    "rx_zone": ("em_rxtx.c", r"rte_eth_dma_zone_reserve\(dev, \"rx_ring\""),
    "rx_queue": ("em_rxtx.c", r"rte_zmalloc\(\"ethdev RX queue\""),
    "rx_sw_ring": ("em_rxtx.c", r"rte_zmalloc\(\"rxq->sw_ring\""),
    "max_queues": ("em_ethdev.c", r"dev_info->max_rx_queues = 2;"),
    "rx_desc_lim": ("em_ethdev.c", r"dev_info->rx_desc_lim = "),
    "tx_desc_lim": ("em_ethdev.c", r"dev_info->tx_desc_lim = "),
    "ring_size": ("em_ethdev.c", r"default_rxportconf.ring_size = 256"),
    "mac_addrs": ("em_ethdev.c", r"mac_addrs = rte_zmalloc\(\"e1000\""),
    "dev_private": ("em_ethdev.c", r"sizeof\(struct e1000_adapter\)"),
    "pci_map": ("em_ethdev.c", r"pci_id_em_map\[\] = \{"),
}

#: each key's line at each release: mpcalc/dpdk/drivers/lines/e1000_em.json, read from the DPDK mirror
#: (tests/conformance/test_pci_sources.py holds them to it)
LINES = load_lines("e1000_em")

#: the device properties given on -a (see mpcalc.dpdk.drivers.pcipmd)
PROPS = ("rar_entry_count",)

SOURCE = Source(DIRS, KEYS, LINES)

STRUCTS = (("net_e1000",), ("em_rx_queue", "em_tx_queue", "em_rx_entry", "em_tx_entry", "e1000_adapter"))

#: sizeof on x86_64 (pahole on drivers/net/e1000 objects compiled from each tag)
SIZES = load_sizes("e1000_em")  # mpcalc/dpdk/drivers/sizes/e1000_em.json


def desc_lim(rel: str, dev: dict[str, object] | None = None) -> tuple[DescLim, DescLim]:
    """eth_em_infos_get: nb_max E1000_MAX_RING_DESC, nb_min E1000_MIN_RING_DESC, nb_align EM_RXD_ALIGN (8)."""
    c = SOURCE.cite(rel, "rx_desc_lim", "tx_desc_lim")
    lim = DescLim(E1000_MAX_RING_DESC, E1000_MIN_RING_DESC, EM_RXD_ALIGN, c)
    return lim, lim


def max_queues(rel: str, dev: dict[str, object] | None = None) -> tuple[int, int]:
    """dev_info->max_rx_queues = max_tx_queues = 2 in every stable release modelled (c1a42d6464 "net/e1000: fix
    queue number initialization", backported: v22.11 itself said 1)."""
    return 2, 2


def default_ring(rel: str) -> tuple[int, int]:
    """default_rxportconf/default_txportconf.ring_size = 256: what ethdev uses for nb_desc 0."""
    return DEFAULT_RING, DEFAULT_RING


#: eth_em_{rx,tx}_queue_setup: the ring memzone for E1000_MAX_RING_DESC descriptors, the queue, the software ring
RING = SimpleRing(
    SOURCE,
    SIZES,
    "eth_em_{}_queue_setup",
    "em_{}",
    EM_RXD_ALIGN,
    E1000_MIN_RING_DESC,
    E1000_MAX_RING_DESC,
    DESC * E1000_MAX_RING_DESC,
    RTE_CACHE_LINE_SIZE,
    "E1000_MAX_RING_DESC",
)
rx_queue_setup, tx_queue_setup = RING.rx, RING.tx


def probe(rel: str, port: int, dev: dict[str, object] | None = None) -> tuple[tuple[Zone, ...], tuple[Alloc, ...]]:
    """eth_em_dev_init: dev_private is struct e1000_adapter (rte_eth_dev_pci_generic_probe); the MAC table is
    rte_zmalloc("e1000", RTE_ETHER_ADDR_LEN * rar_entry_count)."""
    rar = dev_int(dev, "rar_entry_count", E1000_RAR_ENTRIES)
    return (), (
        dev_private(SOURCE, rel, SIZES[rel]["e1000_adapter"]),
        Alloc("e1000", 6 * rar, 0, SOURCE.cite(rel, "mac_addrs"), "mac_addrs"),
    )


def configure(
    rel: str, port: int, nb_rxq: int, nb_txq: int, dev: dict[str, object] | None = None
) -> tuple[tuple[Zone, ...], tuple[Alloc, ...]]:
    """eth_em_configure allocates nothing."""
    return (), ()


PMD = declare(
    sys.modules[__name__],
    name=NAME,
    source="drivers/net/intel/e1000",
    kernel_drivers=("e1000", "e1000e"),
)
