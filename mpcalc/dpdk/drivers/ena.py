"""net_ena: the Amazon Elastic Network Adapter (AWS EC2's ENA, 1d0f:ec20 and 1d0f:ec21).

What queue set-up allocates: per Rx queue the buffer info (struct ena_rx_buffer per entry), the refill buffer
(an mbuf pointer per entry) and the free-request ids (uint16_t per entry); per Tx queue the buffer info, the
free-request ids and, in LLQ mode, the push buffer of the device's tx_max_header_size (``dev``, default 96).
nb_desc must be a power of two no larger than the device's maximum (``dev["max_rx_ring_size"]``,
``dev["max_tx_ring_size"]``: 8192 and 1024 are common), default ring 1024.

Not modelled: the submission and completion rings the ena_com layer reserves at queue start
(ENA_MEM_ALLOC_COHERENT: memzones ``ena_p<port>_<n>`` numbered by a global counter; in LLQ mode the Tx
descriptors live in the device's memory, outside the host). From the driver's source, not run.
Pure: stdlib only.
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
    dev_int,
    refuse,
    same_dir,
)
from mpcalc.dpdk.drivers.pcipmd import declare

NAME = "net_ena"
PROVENANCE = "source"
DIRS = same_dir("drivers/net/ena")
ENA_DEFAULT_RING_SIZE = 1024
ENA_MIN_RING_DESC = 128
NOT_MODELLED = (
    "the SQ/CQ rings ena_com reserves at queue start (memzones ena_p<port>_<n>; LLQ Tx descriptors in device memory)",
)

KEYS = {
    "dev_private": ("ena_ethdev.c", r"sizeof\(struct ena_adapter\), eth_ena_dev_init"),
    "default_ring": ("ena_ethdev.h", r"define ENA_DEFAULT_RING_SIZE\s+1024"),
    "rx_pow2": ("ena_ethdev.c", r"\"Unsupported size of Rx queue: %d is not a power of 2."),
    "rx_max": ("ena_ethdev.c", r"\"Unsupported size of Rx queue \(max size: %d\)"),
    "rx_buffer_info": ("ena_ethdev.c", r"rte_zmalloc_socket\(\"rxq->buffer_info\","),
    "rx_refill": ("ena_ethdev.c", r"rte_zmalloc_socket\(\"rxq->rx_refill_buffer\","),
    "rx_empty": ("ena_ethdev.c", r"rte_zmalloc_socket\(\"rxq->empty_rx_reqs\","),
    "tx_pow2": ("ena_ethdev.c", r"\"Unsupported size of Tx queue: %d is not a power of 2."),
    "tx_max": ("ena_ethdev.c", r"\"Unsupported size of Tx queue \(max size: %d\)"),
    "tx_buffer_info": ("ena_ethdev.c", r"rte_zmalloc_socket\(\"txq->tx_buffer_info\","),
    "tx_empty": ("ena_ethdev.c", r"rte_zmalloc_socket\(\"txq->empty_tx_reqs\","),
    "tx_push": ("ena_ethdev.c", r"rte_zmalloc_socket\(\"txq->push_buf_intermediate_buf\","),
    "lim": ("ena_ethdev.c", r"dev_info->rx_desc_lim.nb_max = adapter->max_rx_ring_size;"),
}

# --- LINES: generated from the DPDK mirror (tests/conformance/test_pci_sources.py holds them to it)
LINES: dict[str, dict[str, int | None]] = {
    "21.11": {
        "dev_private": 3230,
        "default_ring": 30,
        "rx_pow2": 1270,
        "rx_max": 1277,
        "rx_buffer_info": 1299,
        "rx_refill": 1309,
        "rx_empty": 1321,
        "tx_pow2": 1168,
        "tx_max": 1175,
        "tx_buffer_info": 1189,
        "tx_empty": 1199,
        "tx_push": 1211,
        "lim": 2179,
    },
    "22.11": {
        "dev_private": 3747,
        "default_ring": 30,
        "rx_pow2": 1528,
        "rx_max": 1535,
        "rx_buffer_info": 1557,
        "rx_refill": 1567,
        "rx_empty": 1579,
        "tx_pow2": 1426,
        "tx_max": 1433,
        "tx_buffer_info": 1447,
        "tx_empty": 1457,
        "tx_push": 1469,
        "lim": 2495,
    },
    "23.11": {
        "dev_private": 3920,
        "default_ring": 30,
        "rx_pow2": 1590,
        "rx_max": 1597,
        "rx_buffer_info": 1619,
        "rx_refill": 1629,
        "rx_empty": 1641,
        "tx_pow2": 1488,
        "tx_max": 1495,
        "tx_buffer_info": 1509,
        "tx_empty": 1519,
        "tx_push": 1531,
        "lim": 2583,
    },
    "24.11": {
        "dev_private": 4037,
        "default_ring": 30,
        "rx_pow2": 1672,
        "rx_max": 1679,
        "rx_buffer_info": 1701,
        "rx_refill": 1711,
        "rx_empty": 1723,
        "tx_pow2": 1570,
        "tx_max": 1577,
        "tx_buffer_info": 1591,
        "tx_empty": 1601,
        "tx_push": 1613,
        "lim": 2686,
    },
    "25.11": {
        "dev_private": 4171,
        "default_ring": 30,
        "rx_pow2": 1763,
        "rx_max": 1770,
        "rx_buffer_info": 1792,
        "rx_refill": 1802,
        "rx_empty": 1814,
        "tx_pow2": 1661,
        "tx_max": 1668,
        "tx_buffer_info": 1682,
        "tx_empty": 1692,
        "tx_push": 1704,
        "lim": 2810,
    },
    "26.07": {
        "dev_private": 4171,
        "default_ring": 30,
        "rx_pow2": 1763,
        "rx_max": 1770,
        "rx_buffer_info": 1792,
        "rx_refill": 1802,
        "rx_empty": 1814,
        "tx_pow2": 1661,
        "tx_max": 1668,
        "tx_buffer_info": 1682,
        "tx_empty": 1692,
        "tx_push": 1704,
        "lim": 2810,
    },
}
# --- end LINES

#: the device properties given on -a (see mpcalc.dpdk.drivers.pcipmd)
PROPS = ("max_rx_ring_size", "max_tx_ring_size", "max_queues", "tx_max_header_size", "llq")
BOOL_PROPS = ("llq",)

SOURCE = Source(DIRS, KEYS, LINES)

STRUCTS = (("net_ena",), ("ena_rx_buffer", "ena_tx_buffer", "ena_adapter", "ena_ring"))
SIZES: dict[str, dict[str, int]] = {
    # --- SIZES: generated from pahole
    "21.11": {"ena_rx_buffer": 24, "ena_tx_buffer": 304, "ena_adapter": 181312, "ena_ring": 384},
    "22.11": {"ena_rx_buffer": 24, "ena_tx_buffer": 304, "ena_adapter": 181888, "ena_ring": 384},
    "23.11": {"ena_rx_buffer": 24, "ena_tx_buffer": 304, "ena_adapter": 182080, "ena_ring": 384},
    "24.11": {"ena_rx_buffer": 24, "ena_tx_buffer": 304, "ena_adapter": 182144, "ena_ring": 384},
    "25.11": {"ena_rx_buffer": 24, "ena_tx_buffer": 304, "ena_adapter": 181696, "ena_ring": 384},
    "26.07": {"ena_rx_buffer": 24, "ena_tx_buffer": 304, "ena_adapter": 181696, "ena_ring": 384},
    # --- end SIZES
}


def desc_lim(rel: str, dev: dict[str, object] | None = None) -> tuple[DescLim, DescLim]:
    c = SOURCE.cite(rel, "lim")
    return (
        DescLim(dev_int(dev, "max_rx_ring_size", 8192), ENA_MIN_RING_DESC, 1, c),
        DescLim(dev_int(dev, "max_tx_ring_size", 1024), ENA_MIN_RING_DESC, 1, c),
    )


def max_queues(rel: str, dev: dict[str, object] | None = None) -> tuple[int, int]:
    n = dev_int(dev, "max_queues", 8)
    return n, n


def default_ring(rel: str) -> tuple[int, int]:
    return ENA_DEFAULT_RING_SIZE, ENA_DEFAULT_RING_SIZE


def _check(rel: str, side: str, nb_desc: int, mx: int) -> Rejection | None:
    name = "Rx" if side == "rx" else "Tx"
    if nb_desc <= 0 or nb_desc & (nb_desc - 1):
        return refuse(
            f"Unsupported size of {name} queue: {nb_desc} is not a power of 2.",
            f"ena_{side}_queue_setup",
            SOURCE.cite(rel, f"{side}_pow2"),
        )
    if nb_desc > mx:
        return refuse(
            f"Unsupported size of {name} queue (max size: {mx})",
            f"ena_{side}_queue_setup",
            SOURCE.cite(rel, f"{side}_max"),
        )
    return None


def rx_queue_setup(
    rel: str, port: int, queue: int, nb_desc: int, dev: dict[str, object] | None = None
) -> QueueParts | Rejection:
    """ena_rx_queue_setup."""
    bad = _check(rel, "rx", nb_desc, dev_int(dev, "max_rx_ring_size", 8192))
    if bad:
        return bad
    s = SIZES[rel]
    c = SOURCE.cite
    return QueueParts(
        nb_desc,
        allocs=(
            Alloc(
                "rxq->buffer_info",
                s["ena_rx_buffer"] * nb_desc,
                RTE_CACHE_LINE_SIZE,
                c(rel, "rx_buffer_info"),
                "rx buffer info",
            ),
            Alloc("rxq->rx_refill_buffer", 8 * nb_desc, RTE_CACHE_LINE_SIZE, c(rel, "rx_refill"), "rx refill buffer"),
            Alloc("rxq->empty_rx_reqs", 2 * nb_desc, RTE_CACHE_LINE_SIZE, c(rel, "rx_empty"), "rx free request ids"),
        ),
        not_modelled=NOT_MODELLED,
    )


def tx_queue_setup(
    rel: str, port: int, queue: int, nb_desc: int, dev: dict[str, object] | None = None
) -> QueueParts | Rejection:
    """ena_tx_queue_setup (the push buffer in LLQ mode, ``dev["llq"]``, default on)."""
    bad = _check(rel, "tx", nb_desc, dev_int(dev, "max_tx_ring_size", 1024))
    if bad:
        return bad
    s = SIZES[rel]
    c = SOURCE.cite
    allocs = [
        Alloc(
            "txq->tx_buffer_info",
            s["ena_tx_buffer"] * nb_desc,
            RTE_CACHE_LINE_SIZE,
            c(rel, "tx_buffer_info"),
            "tx buffer info",
        ),
        Alloc("txq->empty_tx_reqs", 2 * nb_desc, RTE_CACHE_LINE_SIZE, c(rel, "tx_empty"), "tx free request ids"),
    ]
    if (dev or {}).get("llq", True):
        allocs.append(
            Alloc(
                "txq->push_buf_intermediate_buf",
                dev_int(dev, "tx_max_header_size", 96),
                RTE_CACHE_LINE_SIZE,
                c(rel, "tx_push"),
                "LLQ push buffer",
            )
        )
    return QueueParts(
        nb_desc,
        allocs=tuple(allocs),
        outside=("LLQ Tx descriptors in the device's memory (BAR)",),
        not_modelled=NOT_MODELLED,
    )


def probe(rel: str, port: int, dev: dict[str, object] | None = None) -> tuple[tuple[Zone, ...], tuple[Alloc, ...]]:
    """rte_eth_dev_pci_generic_probe(pci_dev, sizeof(struct ena_adapter), ...): the device's dev_private, an
    rte_zmalloc_socket named by the PCI address (rte_eth_dev_pci_allocate, v22.11.11:lib/ethdev/ethdev_pci.h:97).
    Its MAC tables and other per-device allocations are not modelled."""
    return (), (
        Alloc(
            "ethdev private structure",
            SIZES[rel]["ena_adapter"],
            RTE_CACHE_LINE_SIZE,
            SOURCE.cite(rel, "dev_private"),
            "dev_private",
        ),
    )


PMD = declare(
    sys.modules[__name__],
    name=NAME,
    source="drivers/net/ena",
    kernel_drivers=("ena",),
)
