"""net_ixgbe: Intel 82598/82599/X520/X540/X550/E610 10G (and net_ixgbe_vf).

Each Rx queue reserves ``rx_ring`` for IXGBE_MAX_RING_DESC + RTE_PMD_IXGBE_RX_MAX_BURST 16-byte descriptors
(RX_RING_SZ), each Tx queue ``tx_ring`` (``ixgbe_tx_ring`` from 25.11) for IXGBE_MAX_RING_DESC, whatever
nb_desc: IXGBE_MAX_RING_DESC is 4096 up to 23.11 and 8192 from 24.11, so the same --rxd costs twice the memzone
on 24.11. The software rings hold nb_desc entries, + 32 when bulk allocation is allowed (rx_free_thresh >= 32,
< nb_desc and dividing it); Rx has a second, scattered, ring. From 25.11 the queue structures are the common
Intel ones (struct ci_rx_queue, ci_tx_queue + IXGBE_CTX_NUM contexts); 26.07 refuses an Rx ring not above
2 * rx_free_thresh and adds an RS tracking array to each Tx queue.

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
    desc_multiple,
    dev_int,
    dev_private,
    intel_dirs,
    load_lines,
    load_sizes,
    refuse,
    ring_parts,
    since,
)
from mpcalc.dpdk.drivers.pcipmd import declare

NAME = "net_ixgbe"
PROVENANCE = "source"
DIRS = intel_dirs("ixgbe", "ixgbe")

DESC = 16  # union ixgbe_adv_rx_desc / ixgbe_adv_tx_desc
IXGBE_ALIGN = 128
IXGBE_RXD_ALIGN = IXGBE_ALIGN // DESC
RX_MAX_BURST = 32  # RTE_PMD_IXGBE_RX_MAX_BURST, IXGBE_RX_MAX_BURST = CI_RX_MAX_BURST from 25.11
IXGBE_CTX_NUM = 2
DEFAULT_FREE_THRESH = 32  # IXGBE_DEFAULT_RX_FREE_THRESH, IXGBE_DEFAULT_TX_RSBIT_THRESH
DEFAULT_RING = 256


def max_ring_desc(rel: str) -> int:
    """IXGBE_MAX_RING_DESC: 4096, 8192 from 24.11."""
    return 8192 if since(rel, "24.11") else 4096


def min_ring_desc(rel: str) -> int:
    """IXGBE_MIN_RING_DESC: 32 in 21.11, 64 from 22.11."""
    return 64 if since(rel, "22.11") else 32


KEYS = {
    "max_ring_desc": ("ixgbe_rxtx.h", r"define\s+IXGBE_MAX_RING_DESC\s+\d+"),
    "min_ring_desc": ("ixgbe_rxtx.h", r"define\s+IXGBE_MIN_RING_DESC\s+\d+"),
    "rx_ring_sz": ("ixgbe_rxtx.h", r"define RX_RING_SZ"),
    "rx_check": ("ixgbe_rxtx.c", r"if \(nb_desc % IXGBE_RXD_ALIGN != 0 \|\|"),
    "rx_thresh": ("ixgbe_rxtx.c", r"if \(nb_desc <= 2 \* rx_conf->rx_free_thresh\) \{"),
    "rx_thresh_text": ("ixgbe_rxtx.c", r"\"rx ring size \(%u\) must be > 2 \* rx_free_thresh \(%u\)\""),
    "rx_queue": ("ixgbe_rxtx.c", r"rxq = rte_zmalloc_socket\(\"ethdev RX queue\""),
    "rx_zone": ("ixgbe_rxtx.c", r"rte_eth_dma_zone_reserve\(dev, \"rx_ring\", queue_idx,"),
    "bulk": ("ixgbe_rxtx.c", r"len \+= (RTE_PMD_IXGBE_RX_MAX_BURST|IXGBE_RX_MAX_BURST);", 2),
    "rx_sw_ring": ("ixgbe_rxtx.c", r"rxq->sw_ring = rte_zmalloc_socket\(\"rxq->sw_ring\""),
    "rx_sw_sc_ring": ("ixgbe_rxtx.c", r"rte_zmalloc_socket\(\"rxq->sw_sc_ring\""),
    "tx_check": ("ixgbe_rxtx.c", r"if \(nb_desc % IXGBE_TXD_ALIGN != 0 \|\|"),
    "tx_queue": ("ixgbe_rxtx.c", r"txq = rte_zmalloc_socket\(\"ethdev TX queue\""),
    "tx_zone": ("ixgbe_rxtx.c", r"rte_eth_dma_zone_reserve\(dev, \"(ixgbe_)?tx_ring\", queue_idx,"),
    "tx_size": ("ixgbe_rxtx.c", r"sizeof\(union ixgbe_adv_tx_desc\) \* IXGBE_MAX_RING_DESC,"),
    "tx_sw_ring": ("ixgbe_rxtx.c", r"txq->sw_ring = rte_zmalloc_socket\(\"txq->sw_ring\""),
    "rs_last_id": ("ixgbe_rxtx.c", r"txq->rs_last_id = rte_zmalloc_socket\(NULL,"),
    "desc_lim": ("ixgbe_ethdev.c", r"static const struct rte_eth_desc_lim rx_desc_lim = \{"),
    "ring_size": ("ixgbe_ethdev.c", r"default_rxportconf.ring_size = 256;"),
    "dev_private": ("ixgbe_ethdev.c", r"sizeof\(struct ixgbe_adapter\)"),
}

#: each key's line at each release: mpcalc/dpdk/drivers/lines/ixgbe.json, read from the DPDK mirror
#: (tests/conformance/test_pci_sources.py holds them to it)
LINES = load_lines("ixgbe")

#: the device properties given on -a (see mpcalc.dpdk.drivers.pcipmd)
PROPS = ("max_queues",)

SOURCE = Source(DIRS, KEYS, LINES)

STRUCTS = (
    ("net_ixgbe", "net_intel_ixgbe"),
    (
        "ixgbe_rx_queue",
        "ixgbe_tx_queue",
        "ixgbe_rx_entry",
        "ixgbe_scattered_rx_entry",
        "ixgbe_tx_entry",
        "ci_rx_queue",
        "ci_tx_queue",
        "ci_rx_entry",
        "ci_rx_entry_sc",
        "ci_tx_entry",
        "ixgbe_advctx_info",
        "ixgbe_adapter",
    ),
)
SIZES = load_sizes("ixgbe")  # mpcalc/dpdk/drivers/sizes/ixgbe.json


def desc_lim(rel: str, dev: dict[str, object] | None = None) -> tuple[DescLim, DescLim]:
    lim = DescLim(
        max_ring_desc(rel), min_ring_desc(rel), IXGBE_RXD_ALIGN, SOURCE.cite(rel, "desc_lim", "max_ring_desc")
    )
    return lim, lim


def max_queues(rel: str, dev: dict[str, object] | None = None) -> tuple[int, int]:
    """hw->mac.max_rx_queues: 128 on the 82599/X540/X550 (64 on the 82598; the VFs 8): ``dev["max_queues"]``."""
    n = dev_int(dev, "max_queues", 128)
    return n, n


def default_ring(rel: str) -> tuple[int, int]:
    return DEFAULT_RING, DEFAULT_RING


def _check(rel: str, side: str, nb_desc: int) -> Rejection | None:
    lo, hi = min_ring_desc(rel), max_ring_desc(rel)
    return desc_multiple(SOURCE, rel, side, nb_desc, IXGBE_RXD_ALIGN, lo, hi, f"ixgbe_dev_{side}_queue_setup")


def bulk_alloc(nb_desc: int, rx_free_thresh: int) -> bool:
    """check_rx_burst_bulk_alloc_preconditions: rx_free_thresh >= RX_MAX_BURST, < nb_desc, divides nb_desc.

    >>> bulk_alloc(512, 32), bulk_alloc(1000, 32)
    (True, False)
    """
    return rx_free_thresh >= RX_MAX_BURST and rx_free_thresh < nb_desc and nb_desc % rx_free_thresh == 0


def rx_queue_setup(
    rel: str, port: int, queue: int, nb_desc: int, dev: dict[str, object] | None = None
) -> QueueParts | Rejection:
    """ixgbe_dev_rx_queue_setup."""
    bad = _check(rel, "rx", nb_desc)
    if bad:
        return bad
    thresh = dev_int(dev, "rx_free_thresh", DEFAULT_FREE_THRESH)
    if SOURCE.has(rel, "rx_thresh") and nb_desc <= 2 * thresh:
        return refuse(
            f"rx ring size ({nb_desc}) must be > 2 * rx_free_thresh ({thresh})",
            "ixgbe_dev_rx_queue_setup",
            SOURCE.cite(rel, "rx_thresh", "rx_thresh_text"),
        )
    s = SIZES[rel]
    common = since(rel, "25.11")
    length = nb_desc + (RX_MAX_BURST if bulk_alloc(nb_desc, thresh) else 0)
    return ring_parts(
        SOURCE,
        rel,
        port,
        queue,
        nb_desc,
        (
            "rx_ring",
            (max_ring_desc(rel) + RX_MAX_BURST) * DESC,
            IXGBE_ALIGN,
            ("rx_ring_sz", "rx_zone"),
            "rx descriptors (RX_RING_SZ)",
        ),
        [
            ("ethdev RX queue", s["ci_rx_queue" if common else "ixgbe_rx_queue"], ("rx_queue",), "rx queue"),
            (
                "rxq->sw_ring",
                s["ci_rx_entry" if common else "ixgbe_rx_entry"] * length,
                ("bulk", "rx_sw_ring"),
                "rx software ring",
            ),
            (
                "rxq->sw_sc_ring",
                s["ci_rx_entry_sc" if common else "ixgbe_scattered_rx_entry"] * length,
                ("rx_sw_sc_ring",),
                "rx scattered software ring",
            ),
        ],
    )


def tx_queue_setup(
    rel: str, port: int, queue: int, nb_desc: int, dev: dict[str, object] | None = None
) -> QueueParts | Rejection:
    """ixgbe_dev_tx_queue_setup."""
    bad = _check(rel, "tx", nb_desc)
    if bad:
        return bad
    s = SIZES[rel]
    common = since(rel, "25.11")
    qsize = s["ci_tx_queue"] + IXGBE_CTX_NUM * s["ixgbe_advctx_info"] if common else s["ixgbe_tx_queue"]
    allocs = [
        ("ethdev TX queue", qsize, ("tx_queue",), "tx queue"),
        (
            "txq->sw_ring",
            s["ci_tx_entry" if common else "ixgbe_tx_entry"] * nb_desc,
            ("tx_sw_ring",),
            "tx software ring",
        ),
    ]
    if SOURCE.has(rel, "rs_last_id"):
        allocs.append(
            (
                "ixgbe txq->rs_last_id",
                2 * (nb_desc // dev_int(dev, "tx_rs_thresh", DEFAULT_FREE_THRESH)),
                ("rs_last_id",),
                "tx RS tracking",
            )
        )
    return ring_parts(
        SOURCE,
        rel,
        port,
        queue,
        nb_desc,
        (
            "ixgbe_tx_ring" if common else "tx_ring",
            DESC * max_ring_desc(rel),
            IXGBE_ALIGN,
            ("tx_size", "tx_zone"),
            "tx descriptors (IXGBE_MAX_RING_DESC)",
        ),
        allocs,
    )


def probe(rel: str, port: int, dev: dict[str, object] | None = None) -> tuple[tuple[Zone, ...], tuple[Alloc, ...]]:
    """The device's dev_private, struct ixgbe_adapter (:func:`~mpcalc.dpdk.drivers.pcibase.dev_private`); its MAC
    tables and other per-device allocations are not modelled."""
    return (), (dev_private(SOURCE, rel, SIZES[rel]["ixgbe_adapter"]),)


PMD = declare(
    sys.modules[__name__],
    name=NAME,
    source="drivers/net/intel/ixgbe",
    kernel_drivers=("ixgbe",),
)
