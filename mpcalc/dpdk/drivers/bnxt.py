"""net_bnxt: Broadcom NetXtreme-C/E/Thor (BCM573xx/574xx/575xx/576xx) PFs and VFs.

nb_desc must be in [BNXT_MIN_RING_DESC (16), 8192] for Rx and [16, 4096] for Tx; the rings are sized
rte_align32pow2(nb_desc). What queue set-up allocates in the heap: the queue structure (``bnxt_rx_queue`` /
``bnxt_tx_queue``), the Tx free array (nb_desc mbuf pointers) and, from 23.11, the Tx per-BD count array.

Not modelled: the ring group memzone bnxt_alloc_rings reserves for each queue (descriptor, completion,
aggregation and TPA areas laid out at 4 KiB boundaries, sized from the rounded ring, the aggregation factor
and the TPA settings) and the ring-info structures of bnxt_init_rx/tx_ring_struct; the per-device context
memory for Thor. From the driver's source, not run. Pure: stdlib only.
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
    dev_int,
    refuse,
    same_dir,
)
from mpcalc.dpdk.drivers.pcipmd import declare

NAME = "net_bnxt"
PROVENANCE = "source"
DIRS = same_dir("drivers/net/bnxt")
BNXT_MIN_RING_DESC = 16
MAX_RX_DESC_CNT = 8 * 1024
MAX_TX_DESC_CNT = 4 * 1024
NOT_MODELLED = (
    "the ring memzone of bnxt_alloc_rings (descriptor, completion, aggregation, TPA areas)",
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
    allocs = [
        Alloc(
            "bnxt_tx_queue", SIZES[rel]["bnxt_tx_queue"], RTE_CACHE_LINE_SIZE, SOURCE.cite(rel, "tx_queue"), "tx queue"
        ),
        Alloc("bnxt txq->free", 8 * nb_desc, RTE_CACHE_LINE_SIZE, SOURCE.cite(rel, "tx_free"), "tx free array"),
    ]
    if SOURCE.has(rel, "tx_nr_bds"):
        allocs.append(Alloc("bnxt_nr_bds", 2 * align32pow2(nb_desc), 0, SOURCE.cite(rel, "tx_nr_bds"), "tx BD counts"))
    return QueueParts(align32pow2(nb_desc), allocs=tuple(allocs), not_modelled=NOT_MODELLED)


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
)
