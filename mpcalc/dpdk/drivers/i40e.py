"""net_i40e: Intel X710/XL710/XXV710/X722 (700 series).

See :mod:`.intelring`: each Rx queue's ``rx_ring`` holds I40E_MAX_RING_DESC + 32 32-byte descriptors rounded up
to 4 KiB and each Tx queue's ring I40E_MAX_RING_DESC 16-byte ones, whatever nb_desc; I40E_MAX_RING_DESC is 4096
up to 23.11 and 8160 from 24.11 (the memzones double). nb_desc: a multiple of 32 in [64, max].

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

NAME = "net_i40e"
PROVENANCE = "source"
DIRS = intel_dirs("i40e", "i40e")
NAMES = ir.Names(
    "i40e",
    "i40e rx queue",
    "i40e rx sw ring",
    "i40e tx queue",
    "i40e tx sw ring",
    "i40e_dev_rx_queue_setup",
    "i40e_dev_tx_queue_setup",
)


def max_ring_desc(rel: str) -> int:
    """I40E_MAX_RING_DESC: 4096, 8160 from 24.11."""
    return 8160 if since(rel, "24.11") else 4096


KEYS = {
    "max_ring_desc": ("i40e_rxtx.h", r"define\s+I40E_MAX_RING_DESC\s+\d+"),
    "min_ring_desc": ("i40e_rxtx.h", r"define\s+I40E_MIN_RING_DESC\s+64"),
    "align_ring_desc": ("i40e_rxtx.h", r"define\s+I40E_ALIGN_RING_DESC\s+32"),
    "rx_check": ("i40e_rxtx.c", r"if \(nb_desc % I40E_ALIGN_RING_DESC != 0 \|\|"),
    "rx_thresh": ("i40e_rxtx.c", r"if \(nb_desc <= 2 \* rx_conf->rx_free_thresh\) \{"),
    "rx_queue": ("i40e_rxtx.c", r"rxq = rte_zmalloc_socket\(\"i40e rx queue\","),
    "rx_size": ("i40e_rxtx.c", r"ring_size = RTE_ALIGN\(len \* sizeof\(union \w+_rx_desc\),"),
    "rx_zone": ("i40e_rxtx.c", r"rz = rte_eth_dma_zone_reserve\(dev, \"rx_ring\", queue_idx,"),
    "rx_sw_ring": ("i40e_rxtx.c", r"rte_zmalloc_socket\(\"i40e rx sw ring\","),
    "tx_check": ("i40e_rxtx.c", r"if \(nb_desc % I40E_ALIGN_RING_DESC != 0 \|\|", 2),
    "tx_queue": ("i40e_rxtx.c", r"txq = rte_zmalloc_socket\(\"i40e tx queue\","),
    "tx_size": ("i40e_rxtx.c", r"ring_size = sizeof\(struct \w+_tx_desc\) \* I40E_MAX_RING_DESC;"),
    "tx_zone": ("i40e_rxtx.c", r"tz = rte_eth_dma_zone_reserve\(dev, \"\w*tx_ring\", queue_idx,"),
    "tx_sw_ring": ("i40e_rxtx.c", r"rte_zmalloc_socket\(\"i40e tx sw ring\","),
    "rs_last_id": ("i40e_rxtx.c", r"txq->rs_last_id = rte_zmalloc_socket\(NULL,"),
    "desc_lim": ("i40e_ethdev.c", r"dev_info->rx_desc_lim = \(struct rte_eth_desc_lim\) \{"),
    "ring_size": ("i40e_ethdev.c", r"default_rxportconf.ring_size = 2048;"),
    "dev_private": ("i40e_ethdev.c", r"sizeof\(struct i40e_adapter\)"),
}

#: each key's line at each release: mpcalc/dpdk/drivers/lines/i40e.json, read from the DPDK mirror
#: (tests/conformance/test_pci_sources.py holds them to it)
LINES = load_lines("i40e")

#: the device properties given on -a (see mpcalc.dpdk.drivers.pcipmd)
PROPS = ("max_queues",)

SOURCE = Source(DIRS, KEYS, LINES)

STRUCTS = (
    ("net_i40e", "net_intel_i40e"),
    (
        "i40e_rx_queue",
        "i40e_tx_queue",
        "i40e_rx_entry",
        "i40e_tx_entry",
        "ci_rx_queue",
        "ci_tx_queue",
        "ci_rx_entry",
        "ci_tx_entry",
        "i40e_adapter",
    ),
)
SIZES = load_sizes("i40e")  # mpcalc/dpdk/drivers/sizes/i40e.json


def desc_lim(rel: str, dev: dict[str, object] | None = None) -> tuple[DescLim, DescLim]:
    return ir.desc_lim(SOURCE, rel, max_ring_desc(rel))


def max_queues(rel: str, dev: dict[str, object] | None = None) -> tuple[int, int]:
    """The PF's VSI queue count, firmware-given (up to 320 on the XL710; 64 is typical): ``dev["max_queues"]``."""
    n = dev_int(dev, "max_queues", 64)
    return n, n


def default_ring(rel: str, dev: dict[str, object] | None = None) -> tuple[int, int]:
    """i40e_dev_info_get: by link speed: 40G Rx 1024 Tx 1024 (2048/1024 with one queue), 25G Rx 256 Tx 256,
    10G and below Rx 256 (512 with one queue)... ``dev["link"]`` defaults to the 10G ring of 256."""
    return 256, 256


def _structs(rel: str, side: str) -> tuple[str, str]:
    if since(rel, "25.11"):
        return f"ci_{side}_queue", f"ci_{side}_entry"
    return f"i40e_{side}_queue", f"i40e_{side}_entry"


def rx_queue_setup(
    rel: str, port: int, queue: int, nb_desc: int, dev: dict[str, object] | None = None
) -> QueueParts | Rejection:
    """i40e_dev_rx_queue_setup."""
    return ir.rx(SOURCE, SIZES[rel], rel, port, queue, nb_desc, max_ring_desc(rel), NAMES, dev, _structs(rel, "rx"))


def tx_queue_setup(
    rel: str, port: int, queue: int, nb_desc: int, dev: dict[str, object] | None = None
) -> QueueParts | Rejection:
    """i40e_dev_tx_queue_setup."""
    return ir.tx(SOURCE, SIZES[rel], rel, port, queue, nb_desc, max_ring_desc(rel), NAMES, dev, _structs(rel, "tx"))


def probe(rel: str, port: int, dev: dict[str, object] | None = None) -> tuple[tuple[Zone, ...], tuple[Alloc, ...]]:
    """The device's dev_private, struct i40e_adapter (:func:`~mpcalc.dpdk.drivers.pcibase.dev_private`); its MAC
    tables and other per-device allocations are not modelled."""
    return (), (dev_private(SOURCE, rel, SIZES[rel]["i40e_adapter"]),)


PMD = declare(
    sys.modules[__name__],
    name=NAME,
    source="drivers/net/intel/i40e",
    kernel_drivers=("i40e",),
)
