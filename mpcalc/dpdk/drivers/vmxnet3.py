"""net_vmxnet3: VMware's paravirtual NIC (ESXi, and QEMU's ``vmxnet3``, which is device version 1).

Unlike the Intel drivers, each queue's memzone is sized by the descriptors it uses: nb_desc rounded down to a
multiple of 32 (VMXNET3_RING_SIZE_MASK; from 23.11 on a version-7 device first down to a power of two).
Tx: one ``txdesc`` zone of (16-byte command + 16-byte completion + txdata_desc_size data) descriptors;
Rx: one ``rxdesc`` zone for two command rings of nb_desc and a completion ring of 2 nb_desc, 16 bytes each,
plus the Rx data ring (rxdata_desc_size per descriptor) on version 3 and later. The device keeps
``eth_p<port>_shared`` (struct Vmxnet3_DriverShared), ``eth_p<port>_queuedesc`` (256 bytes a queue),
``eth_p<port>_rss_conf`` when Rx is RSS (testpmd with --rxq > 1) and, at start, ``eth_p<port>_memRegs``.

The device version is the hypervisor's: ``dev["version"]`` (QEMU 1, ESXi 6.7+ 4..7), and ``txdata_desc_size``
the device's (128 when it reports none). Proven with QEMU's vmxnet3 (version 1) on Debian's
22.11.11 and on DPDK 24.11.6, 25.11.2 and 26.07.
Pure: stdlib only.
"""

from __future__ import annotations

import sys

from mpcalc.dpdk.core.errors import Rejection
from mpcalc.dpdk.drivers.pcap import MBUF_DYN_SHM, MBUF_DYNFIELD_ELT
from mpcalc.dpdk.drivers.pcibase import (
    RTE_CACHE_LINE_SIZE,
    Alloc,
    DescLim,
    QueueParts,
    Source,
    Zone,
    align32prevpow2,
    dev_int,
    eth_zone,
    load_lines,
    load_sizes,
    refuse,
    same_dir,
    since,
)
from mpcalc.dpdk.drivers.pcipmd import declare

NAME = "net_vmxnet3"
PROVENANCE = "run"
DIRS = same_dir("drivers/net/vmxnet3")

VMXNET3_RING_SIZE_ALIGN = 32
VMXNET3_RING_BA_ALIGN = 512
VMXNET3_QUEUE_DESC_ALIGN = 128
VMXNET3_DEF_TX_RING_SIZE = 512
VMXNET3_DEF_RX_RING_SIZE = 128
VMXNET3_RING_MAX_SIZE = 4096  # VMXNET3_TX_RING_MAX_SIZE = VMXNET3_RX_RING_MAX_SIZE
VMXNET3_MAX_MEMREG_QUEUES = 16
VMXNET3_MAX_MAC_ADDRS = 1
DESC = 16  # Vmxnet3_TxDesc, Vmxnet3_TxCompDesc, Vmxnet3_RxDesc, Vmxnet3_RxCompDesc

KEYS = {
    "ring_size_align": ("base/vmxnet3_defs.h", r"define VMXNET3_RING_SIZE_ALIGN\s+32"),
    "ring_ba_align": ("base/vmxnet3_defs.h", r"define VMXNET3_RING_BA_ALIGN\s+512"),
    "ring_max": ("base/vmxnet3_defs.h", r"define VMXNET3_TX_RING_MAX_SIZE\s+4096"),
    "def_tx": ("vmxnet3_ring.h", r"define VMXNET3_DEF_TX_RING_SIZE 512"),
    "def_rx": ("vmxnet3_ring.h", r"define VMXNET3_DEF_RX_RING_SIZE 128"),
    "rxdata_size": ("vmxnet3_ring.h", r"define VMXNET3_DEF_RXDATA_DESC_SIZE"),
    "memreg_queues": ("base/vmxnet3_defs.h", r"define VMXNET3_MAX_MEMREG_QUEUES"),
    "tx_queue": ("vmxnet3_rxtx.c", r"rte_zmalloc\(\"ethdev_tx_queue\""),
    "tx_min": ("vmxnet3_rxtx.c", r"if \(nb_desc < VMXNET3_DEF_TX_RING_SIZE\)"),
    "tx_min_text": ("vmxnet3_rxtx.c", r"\"VMXNET3 Tx Ring Size Min: %u\""),
    "tx_round": ("vmxnet3_rxtx.c", r"ring->size &= ~VMXNET3_RING_SIZE_MASK;"),
    "tx_size": ("vmxnet3_rxtx.c", r"size \+= txq->txdata_desc_size \* data_ring->size;"),
    "tx_zone": ("vmxnet3_rxtx.c", r"rte_eth_dma_zone_reserve\(dev, \"txdesc\""),
    "tx_buf_info": ("vmxnet3_rxtx.c", r"rte_zmalloc\(\"tx_ring_buf_info\""),
    "rx_queue": ("vmxnet3_rxtx.c", r"rte_zmalloc\(\"ethdev_rx_queue\""),
    "rx_min": ("vmxnet3_rxtx.c", r"if \(nb_desc < VMXNET3_DEF_RX_RING_SIZE\)"),
    "rx_min_text": ("vmxnet3_rxtx.c", r"\"VMXNET3 Rx Ring Size Min: 256\""),
    "rx_round": ("vmxnet3_rxtx.c", r"ring0->size &= ~VMXNET3_RING_SIZE_MASK;"),
    "rx_comp": ("vmxnet3_rxtx.c", r"comp_ring->size = ring0->size \+ ring1->size;"),
    "rx_data": ("vmxnet3_rxtx.c", r"size \+= rxq->data_desc_size \* data_ring->size;"),
    "rx_zone": ("vmxnet3_rxtx.c", r"rte_eth_dma_zone_reserve\(dev, \"rxdesc\""),
    "rx_buf_info": ("vmxnet3_rxtx.c", r"\"rx_ring_%d_buf_info\""),
    "gpa_zone": ("vmxnet3_ethdev.c", r"\"eth_p%d_%s\""),
    "shared": ("vmxnet3_ethdev.c", r"gpa_zone_reserve\(dev, sizeof\(struct Vmxnet3_DriverShared\)"),
    "queuedesc_size": ("vmxnet3_ethdev.c", r"size = dev->data->nb_rx_queues \* sizeof\(struct Vmxnet3_TxQueueDesc\)"),
    "queuedesc": ("vmxnet3_ethdev.c", r"gpa_zone_reserve\(dev, size, \"queuedesc\""),
    "rss_conf": ("vmxnet3_ethdev.c", r"gpa_zone_reserve\(dev, sizeof\(struct VMXNET3_RSSConf\)"),
    "memreg_check": ("vmxnet3_ethdev.c", r"if \(dev->data->nb_rx_queues <= VMXNET3_MAX_MEMREG_QUEUES &&"),
    "memreg_size": ("vmxnet3_ethdev.c", r"size = sizeof\(Vmxnet3_MemRegs\) \+"),
    "memreg_zone": ("vmxnet3_ethdev.c", r"\"memRegs\""),
    "txdata": ("vmxnet3_ethdev.c", r"eth_vmxnet3_txdata_get\(hw\) : sizeof\(struct Vmxnet3_TxDataDesc\)"),
    "rxdata": ("vmxnet3_ethdev.c", r"VMXNET3_DEF_RXDATA_DESC_SIZE : 0;"),
    "max_rx_queues": ("vmxnet3_ethdev.c", r"dev_info->max_rx_queues = VMXNET3_MAX_RX_QUEUES;"),
    "rx_desc_lim": ("vmxnet3_ethdev.c", r"dev_info->rx_desc_lim = "),
    "tx_desc_lim": ("vmxnet3_ethdev.c", r"dev_info->tx_desc_lim = "),
    "mac_addrs": ("vmxnet3_ethdev.c", r"mac_addrs = rte_zmalloc\(\"vmxnet3\""),
    "dev_private": ("vmxnet3_ethdev.c", r"sizeof\(struct vmxnet3_hw\), eth_vmxnet3_dev_init"),
    "dynfield": ("vmxnet3_ethdev.c", r"rte_mbuf_dynfield_register\(&vmxnet3_segs_dynfield_desc\);"),
}

#: each key's line at each release: mpcalc/dpdk/drivers/lines/vmxnet3.json, read from the DPDK mirror
#: (tests/conformance/test_pci_sources.py holds them to it)
LINES = load_lines("vmxnet3")

#: the device properties given on -a (see mpcalc.dpdk.drivers.pcipmd)
PROPS = ("version", "txdata_desc_size", "rxdata_desc_size")

SOURCE = Source(DIRS, KEYS, LINES)

STRUCTS = (
    ("net_vmxnet3",),
    (
        "vmxnet3_rx_queue",
        "vmxnet3_tx_queue",
        "vmxnet3_buf_info",
        "vmxnet3_hw",
        "Vmxnet3_DriverShared",
        "Vmxnet3_TxQueueDesc",
        "Vmxnet3_RxQueueDesc",
        "VMXNET3_RSSConf",
        "Vmxnet3_MemRegs",
        "Vmxnet3_MemoryRegion",
        "Vmxnet3_TxDataDesc",
    ),
)
SIZES = load_sizes("vmxnet3")  # mpcalc/dpdk/drivers/sizes/vmxnet3.json


def _version(dev: dict[str, object] | None) -> int:
    return dev_int(dev, "version", 1)


def desc_lim(rel: str, dev: dict[str, object] | None = None) -> tuple[DescLim, DescLim]:
    """vmxnet3_dev_info_get: Rx [128, 4096], Tx [512, 4096], nb_align 1."""
    return (
        DescLim(VMXNET3_RING_MAX_SIZE, VMXNET3_DEF_RX_RING_SIZE, 1, SOURCE.cite(rel, "rx_desc_lim")),
        DescLim(VMXNET3_RING_MAX_SIZE, VMXNET3_DEF_TX_RING_SIZE, 1, SOURCE.cite(rel, "tx_desc_lim")),
    )


def max_queues(rel: str, dev: dict[str, object] | None = None) -> tuple[int, int]:
    """VMXNET3_MAX_RX_QUEUES 16, VMXNET3_MAX_TX_QUEUES 8 (32 each on a version-6 device with queuesExt)."""
    if _version(dev) >= 6:
        return 32, 32
    return 16, 8


def default_ring(rel: str) -> tuple[int, int]:
    """No default_rxportconf: ethdev's fallback (512) applies."""
    return 0, 0


def _ring(rel: str, nb_desc: int, dev: dict[str, object] | None) -> int:
    size = nb_desc
    if since(rel, "23.11") and _version(dev) >= 7:
        size = align32prevpow2(nb_desc)
    return size & ~(VMXNET3_RING_SIZE_ALIGN - 1)


def tx_queue_setup(
    rel: str, port: int, queue: int, nb_desc: int, dev: dict[str, object] | None = None
) -> QueueParts | Rejection:
    """vmxnet3_dev_tx_queue_setup: one txdesc zone for the command, completion and data rings."""
    if nb_desc < VMXNET3_DEF_TX_RING_SIZE:
        return refuse(
            f"VMXNET3 Tx Ring Size Min: {VMXNET3_DEF_TX_RING_SIZE}",
            "vmxnet3_dev_tx_queue_setup",
            SOURCE.cite(rel, "tx_min", "tx_min_text"),
        )
    if nb_desc > VMXNET3_RING_MAX_SIZE:
        return refuse(
            f"VMXNET3 Tx Ring Size Max: {VMXNET3_RING_MAX_SIZE}",
            "vmxnet3_dev_tx_queue_setup",
            SOURCE.cite(rel, "tx_min"),
        )
    s = SIZES[rel]
    n = _ring(rel, nb_desc, dev)
    txdata = (
        dev_int(dev, "txdata_desc_size", s["Vmxnet3_TxDataDesc"]) if _version(dev) >= 3 else s["Vmxnet3_TxDataDesc"]
    )
    return QueueParts(
        n,
        zones=(
            Zone(
                eth_zone(port, queue, "txdesc"),
                (DESC + DESC + txdata) * n,
                VMXNET3_RING_BA_ALIGN,
                SOURCE.cite(rel, "tx_round", "tx_size", "tx_zone"),
                "tx command, completion and data rings",
            ),
        ),
        allocs=(
            Alloc(
                "ethdev_tx_queue", s["vmxnet3_tx_queue"], RTE_CACHE_LINE_SIZE, SOURCE.cite(rel, "tx_queue"), "tx queue"
            ),
            Alloc(
                "tx_ring_buf_info",
                n * s["vmxnet3_buf_info"],
                RTE_CACHE_LINE_SIZE,
                SOURCE.cite(rel, "tx_buf_info"),
                "tx buffer info",
            ),
        ),
    )


def rx_queue_setup(
    rel: str, port: int, queue: int, nb_desc: int, dev: dict[str, object] | None = None
) -> QueueParts | Rejection:
    """vmxnet3_dev_rx_queue_setup: one rxdesc zone for two command rings and their completion ring (and the
    Rx data ring from version 3), a buf_info array per command ring."""
    if nb_desc < VMXNET3_DEF_RX_RING_SIZE:
        return refuse(
            "VMXNET3 Rx Ring Size Min: 256", "vmxnet3_dev_rx_queue_setup", SOURCE.cite(rel, "rx_min", "rx_min_text")
        )
    if nb_desc > VMXNET3_RING_MAX_SIZE:
        return refuse("VMXNET3 Rx Ring Size Max: 4096", "vmxnet3_dev_rx_queue_setup", SOURCE.cite(rel, "rx_min"))
    s = SIZES[rel]
    n = _ring(rel, nb_desc, dev)
    size = DESC * (n + n) + DESC * (2 * n)
    if _version(dev) >= 3:
        size += dev_int(dev, "rxdata_desc_size", RXDATA[rel]) * n
    allocs = [
        Alloc("ethdev_rx_queue", s["vmxnet3_rx_queue"], RTE_CACHE_LINE_SIZE, SOURCE.cite(rel, "rx_queue"), "rx queue")
    ]
    for i in range(2):
        allocs.append(
            Alloc(
                f"rx_ring_{i}_buf_info",
                n * s["vmxnet3_buf_info"],
                RTE_CACHE_LINE_SIZE,
                SOURCE.cite(rel, "rx_buf_info"),
                f"rx command ring {i} buffer info",
            )
        )
    return QueueParts(
        n,
        zones=(
            Zone(
                eth_zone(port, queue, "rxdesc"),
                size,
                VMXNET3_RING_BA_ALIGN,
                SOURCE.cite(rel, "rx_round", "rx_comp", "rx_zone"),
                "rx command rings 0 and 1, completion ring",
            ),
        ),
        allocs=tuple(allocs),
    )


#: VMXNET3_DEF_RXDATA_DESC_SIZE (a version-3 device's Rx data ring entry)
RXDATA = {rel: 256 for rel in ("21.11", "22.11", "23.11", "24.11", "25.11", "26.07")}


def probe(rel: str, port: int, dev: dict[str, object] | None = None) -> tuple[tuple[Zone, ...], tuple[Alloc, ...]]:
    """eth_vmxnet3_dev_init: dev_private struct vmxnet3_hw; mac_addrs VMXNET3_MAX_MAC_ADDRS (1) addresses."""
    return (), (
        Alloc(
            "ethdev private structure",
            SIZES[rel]["vmxnet3_hw"],
            RTE_CACHE_LINE_SIZE,
            SOURCE.cite(rel, "dev_private"),
            "dev_private",
        ),
        Alloc("vmxnet3", 6 * VMXNET3_MAX_MAC_ADDRS, 0, SOURCE.cite(rel, "mac_addrs"), "mac_addrs"),
    )


def first_probe(rel: str) -> tuple[tuple[Zone, ...], tuple[Alloc, ...]]:
    """eth_vmxnet3_dev_init registers the ``rte_net_vmxnet3_dynfield_segs`` mbuf dynamic field: the first
    registration of the process reserves the ``rte_mbuf_dyn`` memzone (struct mbuf_dyn_shm), then a tailq entry
    and the field's element (rte_mbuf_dynfield_register, v22.11.11:lib/mbuf/rte_mbuf_dyn.c:105-125, 290-300;
    the sizes are :mod:`.pcap`'s, measured on its run)."""
    c = SOURCE.cite(rel, "dynfield")
    return (Zone("rte_mbuf_dyn", MBUF_DYN_SHM, RTE_CACHE_LINE_SIZE, c, "mbuf dynamic fields and flags"),), (
        Alloc("MBUF_DYNFIELD_TAILQ_ENTRY", 24, 0, c, "mbuf dynfield"),
        Alloc("mbuf_dynfield", MBUF_DYNFIELD_ELT, 0, c, "mbuf dynfield (vmxnet3 segments)"),
    )


def configure(
    rel: str, port: int, nb_rxq: int, nb_txq: int, dev: dict[str, object] | None = None, rss: bool = False
) -> tuple[tuple[Zone, ...], tuple[Alloc, ...]]:
    """vmxnet3_dev_configure: the shared area, the queue descriptors (nb_rxq + nb_txq of 256 bytes) and,
    Rx in RSS mode, the RSS configuration; vmxnet3_dev_start then the memory regions (at most 16 queues a side)."""
    s = SIZES[rel]
    name = f"eth_p{port}_"
    zones = [
        Zone(
            name + "shared", s["Vmxnet3_DriverShared"], 8, SOURCE.cite(rel, "gpa_zone", "shared"), "driver shared area"
        ),
        Zone(
            name + "queuedesc",
            nb_rxq * s["Vmxnet3_TxQueueDesc"] + nb_txq * s["Vmxnet3_RxQueueDesc"],
            VMXNET3_QUEUE_DESC_ALIGN,
            SOURCE.cite(rel, "queuedesc_size", "queuedesc"),
            "queue descriptors",
        ),
    ]
    if rss:
        zones.append(
            Zone(
                name + "rss_conf",
                s["VMXNET3_RSSConf"],
                RTE_CACHE_LINE_SIZE,
                SOURCE.cite(rel, "rss_conf"),
                "RSS configuration",
            )
        )
    return tuple(zones), ()


def start(
    rel: str, port: int, nb_rxq: int, nb_txq: int, dev: dict[str, object] | None = None
) -> tuple[tuple[Zone, ...], tuple[Alloc, ...]]:
    """vmxnet3_dev_start -> vmxnet3_dev_setup_memreg: Vmxnet3_MemRegs and 2 * VMXNET3_MAX_MEMREG_QUEUES regions,
    only when neither side has more than VMXNET3_MAX_MEMREG_QUEUES queues."""
    s = SIZES[rel]
    if not SOURCE.has(rel, "memreg_check"):
        # 21.11: always, for VMXNET3_MAX_RX_QUEUES + VMXNET3_MAX_TX_QUEUES (16 + 8) regions
        size = s["Vmxnet3_MemRegs"] + (16 + 8) * s["Vmxnet3_MemoryRegion"]
        cite = SOURCE.cite(rel, "memreg_size", "memreg_zone")
    elif nb_rxq > VMXNET3_MAX_MEMREG_QUEUES or nb_txq > VMXNET3_MAX_MEMREG_QUEUES:
        return (), ()
    else:
        size = s["Vmxnet3_MemRegs"] + 2 * VMXNET3_MAX_MEMREG_QUEUES * s["Vmxnet3_MemoryRegion"]
        cite = SOURCE.cite(rel, "memreg_check", "memreg_size", "memreg_zone")
    return (Zone(f"eth_p{port}_memRegs", size, 8, cite, "memory regions"),), ()


PMD = declare(
    sys.modules[__name__],
    name=NAME,
    source="drivers/net/vmxnet3",
    kernel_drivers=("vmxnet3",),
)
