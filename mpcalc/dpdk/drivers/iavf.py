"""net_iavf: Intel's adaptive VF (the SR-IOV VFs of the 700 and 800 series: what a container's VF is).

See :mod:`.intelring`: ``rx_ring`` for IAVF_MAX_RING_DESC + 32 32-byte descriptors rounded up to 4 KiB, a Tx
ring for IAVF_MAX_RING_DESC 16-byte ones, whatever nb_desc (IAVF_MAX_RING_DESC 4096; 8160 in 26.07). The Rx
software ring is nb_desc + 32 mbuf pointers; from 25.11 each Rx queue adds its statistics structure.
nb_desc: a multiple of 32 in [64, max]. The queue count is the PF's grant (16 by default, up to 256).

From the driver's source, not run. Pure: stdlib only.
"""

from __future__ import annotations

import sys

from mpcalc.dpdk.core.errors import Rejection
from mpcalc.dpdk.drivers import intelring as ir
from mpcalc.dpdk.drivers.pcibase import (
    Alloc,
    DescLim,
    QueueParts,
    Source,
    Zone,
    dev_int,
    dev_private,
    intel_dirs,
    load_lines,
    load_sizes,
    since,
)
from mpcalc.dpdk.drivers.pcipmd import declare

NAME = "net_iavf"
PROVENANCE = "source"
DIRS = intel_dirs("iavf", "iavf")
NAMES = ir.Names(
    "iavf",
    "iavf rxq",
    "iavf rx sw ring",
    "iavf txq",
    "iavf tx sw ring",
    "iavf_dev_rx_queue_setup",
    "iavf_dev_tx_queue_setup",
)


def max_ring_desc(rel: str) -> int:
    """IAVF_MAX_RING_DESC: 4096, 8160 (8192 - 32) in 26.07."""
    return 8160 if since(rel, "26.07") else 4096


KEYS = {
    "max_ring_desc": ("iavf_rxtx.h", r"define IAVF_MAX_RING_DESC\s+"),
    "min_ring_desc": ("iavf_rxtx.h", r"define IAVF_MIN_RING_DESC\s+64"),
    "rx_check": ("iavf_rxtx.c", r"if \(nb_desc % IAVF_ALIGN_RING_DESC != 0 \|\|"),
    "rx_thresh": ("iavf_rxtx.c", r"if \(nb_desc <= 2 \* rx_free_thresh\) \{"),
    "rx_queue": ("iavf_rxtx.c", r"rxq = rte_zmalloc_socket\(\"iavf rxq\","),
    "rx_stats": ("iavf_rxtx.c", r"rxq->stats = rte_zmalloc_socket\(\"iavf rxq stats\","),
    "rx_size": ("iavf_rxtx.c", r"ring_size = RTE_ALIGN\(len \* sizeof\(union \w+_rx_desc\),"),
    "rx_zone": ("iavf_rxtx.c", r"mz = rte_eth_dma_zone_reserve\(dev, \"rx_ring\", queue_idx,"),
    "rx_sw_ring": ("iavf_rxtx.c", r"rte_zmalloc_socket\(\"iavf rx sw ring\","),
    "tx_check": ("iavf_rxtx.c", r"if \(nb_desc % IAVF_ALIGN_RING_DESC != 0 \|\|", 2),
    "tx_queue": ("iavf_rxtx.c", r"txq = rte_zmalloc_socket\(\"iavf txq\","),
    "tx_size": ("iavf_rxtx.c", r"ring_size = sizeof\(struct \w+_tx_desc\) \* IAVF_MAX_RING_DESC;"),
    "tx_zone": ("iavf_rxtx.c", r"mz = rte_eth_dma_zone_reserve\(dev, \"\w*tx_ring\", queue_idx,"),
    "tx_sw_ring": ("iavf_rxtx.c", r"rte_zmalloc_socket\(\"iavf tx sw ring\","),
    "rs_last_id": ("iavf_rxtx.c", r"txq->rs_last_id = rte_zmalloc_socket\(NULL,"),
    "desc_lim": ("iavf_ethdev.c", r"dev_info->rx_desc_lim = \(struct rte_eth_desc_lim\) \{"),
    "dev_private": ("iavf_ethdev.c", r"sizeof\(struct iavf_adapter\)"),
}

#: each key's line at each release: mpcalc/dpdk/drivers/lines/iavf.json, read from the DPDK mirror
#: (tests/conformance/test_pci_sources.py holds them to it)
LINES = load_lines("iavf")

#: the device properties given on -a (see mpcalc.dpdk.drivers.pcipmd)
PROPS = ("max_queues",)

SOURCE = Source(DIRS, KEYS, LINES)

STRUCTS = (
    ("net_iavf", "net_intel_iavf"),
    (
        "iavf_rx_queue",
        "iavf_tx_queue",
        "iavf_tx_entry",
        "ci_rx_queue",
        "ci_tx_queue",
        "ci_tx_entry",
        "iavf_rx_queue_stats",
        "iavf_adapter",
    ),
)
SIZES = load_sizes("iavf")  # mpcalc/dpdk/drivers/sizes/iavf.json


def desc_lim(rel: str, dev: dict[str, object] | None = None) -> tuple[DescLim, DescLim]:
    return ir.desc_lim(SOURCE, rel, max_ring_desc(rel))


def max_queues(rel: str, dev: dict[str, object] | None = None) -> tuple[int, int]:
    """The queues the PF granted (IAVF_DEFAULT... 16; up to 256 with large VF): ``dev["max_queues"]``."""
    n = dev_int(dev, "max_queues", 16)
    return n, n


def default_ring(rel: str) -> tuple[int, int]:
    return 0, 0


def rx_queue_setup(
    rel: str, port: int, queue: int, nb_desc: int, dev: dict[str, object] | None = None
) -> QueueParts | Rejection:
    """iavf_dev_rx_queue_setup."""
    s = dict(SIZES[rel], ptr=8)
    common = since(rel, "25.11")
    extra = (
        [("iavf rxq stats", s["iavf_rx_queue_stats"], ("rx_stats",), "rx queue statistics")]
        if SOURCE.has(rel, "rx_stats")
        else []
    )
    return ir.rx(
        SOURCE,
        s,
        rel,
        port,
        queue,
        nb_desc,
        max_ring_desc(rel),
        NAMES,
        dev,
        ("ci_rx_queue" if common else "iavf_rx_queue", "ptr"),
        extra,
    )


def tx_queue_setup(
    rel: str, port: int, queue: int, nb_desc: int, dev: dict[str, object] | None = None
) -> QueueParts | Rejection:
    """iavf_dev_tx_queue_setup."""
    common = since(rel, "25.11")
    return ir.tx(
        SOURCE,
        SIZES[rel],
        rel,
        port,
        queue,
        nb_desc,
        max_ring_desc(rel),
        NAMES,
        dev,
        ("ci_tx_queue", "ci_tx_entry") if common else ("iavf_tx_queue", "iavf_tx_entry"),
    )


def probe(rel: str, port: int, dev: dict[str, object] | None = None) -> tuple[tuple[Zone, ...], tuple[Alloc, ...]]:
    """The device's dev_private, struct iavf_adapter (:func:`~mpcalc.dpdk.drivers.pcibase.dev_private`); its MAC
    tables and other per-device allocations are not modelled."""
    return (), (dev_private(SOURCE, rel, SIZES[rel]["iavf_adapter"]),)


PMD = declare(
    sys.modules[__name__],
    name=NAME,
    source="drivers/net/intel/iavf",
    kernel_drivers=("iavf",),
)
