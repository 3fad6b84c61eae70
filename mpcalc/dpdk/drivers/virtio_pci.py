"""net_virtio on PCI: virtio-net devices (QEMU/KVM's ``virtio-net-pci``, legacy 1af4:1000 and modern 1af4:1041).

The device, not the application, sizes the rings: at probe the driver creates every virtqueue the device
offers, max_virtqueue_pairs Rx/Tx pairs (1 without VIRTIO_NET_F_MQ) and the control queue
(VIRTIO_NET_F_CTRL_VQ), whatever --rxq/--txq ask. Each virtqueue ``port<p>_vq<i>`` is an ``rte_zmalloc`` of
struct virtqueue and a vq_desc_extra per entry, and a memzone of its vring (vring_size rounded up to
VIRTIO_VRING_ALIGN, 4096); each Tx queue and the control queue add ``port<p>_vq<i>_hdr`` (a struct
virtio_tx_region per entry; one page for the control queue); each Rx queue a software ring of
RTE_PMD_VIRTIO_RX_MAX_BURST + its size and a fake mbuf. The queue size is the device's (QEMU:
rx_queue_size/tx_queue_size, 256 by default; the control queue 64); nb_desc only limits how many are used.

The virtqueue rules (vring_size, the header and page zones, the constants) are :mod:`.virtio`'s, which
virtio_user shares; this module adds the PCI device (its queue sizes per queue type, its queue pairs) and
its citations. Proven with QEMU's virtio-net-pci (1 and 4 queue pairs, rx_queue_size 1024, packed, legacy) on
Debian's 22.11.11 and on DPDK 24.11.6, 25.11.2 and 26.07 (there also the Rx software rings, with vectorized=1
only, by the heap's count).
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
    align_ceil,
    dev_int,
    load_lines,
    load_sizes,
    refuse,
    same_dir,
)
from mpcalc.dpdk.drivers.pcipmd import declare
from mpcalc.dpdk.drivers.virtio import (
    PAGE_SIZE,
    RTE_PMD_VIRTIO_RX_MAX_BURST,
    VIRTIO_MAX_MAC_ADDRS,
    VIRTIO_VRING_ALIGN,
    ring_zone_len,
)

NAME = "net_virtio"
PROVENANCE = "run"
DIRS = same_dir("drivers/net/virtio")

DEFAULT_QUEUE_SIZE = 256  # QEMU's VIRTIO_NET_RX_QUEUE_DEFAULT_SIZE / _TX_
CTRL_QUEUE_SIZE = 64  # QEMU's control virtqueue
DEFAULT_FREE_THRESH = 32  # DEFAULT_RX_FREE_THRESH, DEFAULT_TX_FREE_THRESH, RTE_VIRTIO_VPMD_RX_REARM_THRESH

#: before 23.11 the queues were made in virtio_ethdev.c:virtio_init_queue, from 23.11 in virtqueue.c
KEYS = {
    "vq_name": ("virtio_ethdev.c", r"\"port%d_vq%d\""),
    "vq_size": ("virtio_ethdev.c", r"vq_size = VIRTIO_OPS\(hw\)->get_queue_num\(hw, queue_idx\);"),
    "pow2": ("virtio_ethdev.c", r"split virtqueue size is not power of 2"),
    "no_vq": ("virtio_ethdev.c", r"\"virtqueue does not exist\""),
    "vq_alloc": ({"21.11": "virtio_ethdev.c", "22.11": "virtio_ethdev.c", "*": "virtqueue.c"}, r"sizeof\(\*vq\) \+"),
    "vq_zmalloc": (
        {"21.11": "virtio_ethdev.c", "22.11": "virtio_ethdev.c", "*": "virtqueue.c"},
        r"vq = rte_zmalloc_socket\(",
    ),
    "vring": ({"21.11": "virtio_ethdev.c", "22.11": "virtio_ethdev.c", "*": "virtqueue.c"}, r"size = vring_size\(hw, "),
    "vring_zone": (
        {"21.11": "virtio_ethdev.c", "22.11": "virtio_ethdev.c", "*": "virtqueue.c"},
        r"mz = rte_memzone_reserve_aligned\(\w+, vq->vq_ring_size",
    ),
    "hdr_tx": (
        {"21.11": "virtio_ethdev.c", "22.11": "virtio_ethdev.c", "*": "virtqueue.c"},
        r"\* sizeof\(struct virtio_tx_region\);",
    ),
    "hdr_cq": (
        {"21.11": "virtio_ethdev.c", "22.11": "virtio_ethdev.c", "*": "virtqueue.c"},
        r"= rte_mem_page_size\(\);",
    ),
    "hdr_name": ({"21.11": "virtio_ethdev.c", "22.11": "virtio_ethdev.c", "*": "virtqueue.c"}, r"_hdr\""),
    "sw_ring": (
        {"21.11": "virtio_ethdev.c", "22.11": "virtio_ethdev.c", "*": "virtqueue.c"},
        r"RTE_PMD_VIRTIO_RX_MAX_BURST \+ vq",
    ),
    "fake_mbuf": (
        {"21.11": "virtio_ethdev.c", "22.11": "virtio_ethdev.c", "*": "virtqueue.c"},
        r"rte_zmalloc_socket\(\"sw_ring\", sizeof\(\*",
    ),
    # 23.11+: virtio_rxq_sw_ring_alloc returns at once unless hw->use_vec_rx (the vectorized devarg)
    "sw_ring_vec": ("virtqueue.c", r"SW ring is only used with vectorized datapath"),
    "vectorized": ("virtio_ethdev.c", r"^\s+if \(vectorized\) \{"),
    "vring_size_fn": ("virtio_ring.h", r"^vring_size\(struct virtio_hw \*hw"),
    "vring_align": ("virtio.h", r"define VIRTIO_VRING_ALIGN 4096"),
    "rx_max_burst": ("virtio_rxtx.h", r"define RTE_PMD_VIRTIO_RX_MAX_BURST 64"),
    "nr_vq": ("virtio_ethdev.c", r"nr_vq = hw->max_queue_pairs \* 2;"),
    "vqs": ("virtio_ethdev.c", r"hw->vqs = rte_zmalloc\(NULL, sizeof\(struct virtqueue \*\) \* nr_vq, 0\);"),
    "max_pairs": ("virtio_ethdev.c", r"hw->max_queue_pairs = config->max_virtqueue_pairs;"),
    "one_pair": ("virtio_ethdev.c", r"hw->max_queue_pairs = 1;"),
    "mac_addrs": ("virtio_ethdev.c", r"mac_addrs = rte_zmalloc\(\"virtio\","),
    "nb_desc_clamp": ("virtio_rxtx.c", r"if \(nb_desc == 0 \|\| nb_desc > vq->vq_nentries\)"),
    "lim_packed": ("virtio_ethdev.c", r"dev_info->rx_desc_lim.nb_max = UINT16_MAX;"),
    "lim_split": ("virtio_ethdev.c", r"dev_info->rx_desc_lim.nb_max = 32768;"),
    "lim_min": ("virtio_ethdev.c", r"dev_info->rx_desc_lim.nb_min = RTE_MAX\(DEFAULT_RX_FREE_THRESH,"),
    "dev_private": ("virtio_pci_ethdev.c", r"sizeof\(struct virtio_pci_dev\)"),
}

#: each key's line at each release: mpcalc/dpdk/drivers/lines/virtio_pci.json, read from the DPDK mirror
#: (tests/conformance/test_pci_sources.py holds them to it)
LINES = load_lines("virtio_pci")

#: the device properties given on -a (see mpcalc.dpdk.drivers.pcipmd)
#: and ``vectorized``, the driver's own devarg (virtio_dev_devargs_parse), which decides the Rx software ring
PROPS = ("max_queue_pairs", "rx_queue_size", "tx_queue_size", "ctrl_vq", "packed", "vectorized")
BOOL_PROPS = ("ctrl_vq", "packed", "vectorized")

SOURCE = Source(DIRS, KEYS, LINES)

STRUCTS = (("net_virtio",), ("virtqueue", "vq_desc_extra", "virtio_tx_region", "virtio_pci_dev", "rte_mbuf"))
SIZES = load_sizes("virtio_pci")  # mpcalc/dpdk/drivers/sizes/virtio_pci.json


def _dev(dev: dict[str, object] | None) -> tuple[int, int, int, bool, bool]:
    d = dev or {}
    pairs = dev_int(dev, "max_queue_pairs", 1)
    rxs = dev_int(dev, "rx_queue_size", DEFAULT_QUEUE_SIZE)
    txs = dev_int(dev, "tx_queue_size", DEFAULT_QUEUE_SIZE)
    return pairs, rxs, txs, bool(d.get("ctrl_vq", True)), bool(d.get("packed", False))


def _vq(
    rel: str, port: int, idx: int, size: int, kind: str, packed: bool, vectorized: bool = False
) -> QueueParts | Rejection:
    if size == 0:
        return refuse("virtqueue does not exist", "virtio_init_queue", SOURCE.cite(rel, "no_vq"))
    if not packed and size & (size - 1):
        return refuse("split virtqueue size is not power of 2", "virtio_init_queue", SOURCE.cite(rel, "pow2"))
    s = SIZES[rel]
    name = f"port{port}_vq{idx}"
    ring = ring_zone_len(size, packed)
    zones = [Zone(name, ring, VIRTIO_VRING_ALIGN, SOURCE.cite(rel, "vring", "vring_zone"), f"{kind} vring")]
    allocs = [
        Alloc(
            name,
            align_ceil(s["virtqueue"] + size * s["vq_desc_extra"], RTE_CACHE_LINE_SIZE),
            RTE_CACHE_LINE_SIZE,
            SOURCE.cite(rel, "vq_alloc", "vq_zmalloc"),
            f"{kind} virtqueue",
        )
    ]
    if kind == "tx":
        zones.append(
            Zone(
                name + "_hdr",
                size * s["virtio_tx_region"],
                RTE_CACHE_LINE_SIZE,
                SOURCE.cite(rel, "hdr_tx", "hdr_name"),
                "tx headers",
            )
        )
    elif kind == "ctrl":
        zones.append(
            Zone(
                name + "_hdr",
                PAGE_SIZE,
                RTE_CACHE_LINE_SIZE,
                SOURCE.cite(rel, "hdr_cq", "hdr_name"),
                "control queue page",
            )
        )
    elif not SOURCE.has(rel, "sw_ring_vec") or vectorized:
        # the Rx software ring and its fake mbuf: always up to 22.11, from 23.11 with vectorized=1 only
        # (virtio_rxq_sw_ring_alloc; eth_virtio_dev_init sets use_vec_rx from the devarg)
        allocs.append(
            Alloc(
                "sw_ring",
                (RTE_PMD_VIRTIO_RX_MAX_BURST + size) * 8,
                RTE_CACHE_LINE_SIZE,
                SOURCE.cite(
                    rel, *(("vectorized", "sw_ring_vec", "sw_ring") if SOURCE.has(rel, "sw_ring_vec") else ("sw_ring",))
                ),
                "rx software ring",
            )
        )
        allocs.append(
            Alloc("sw_ring", s["rte_mbuf"], RTE_CACHE_LINE_SIZE, SOURCE.cite(rel, "fake_mbuf"), "rx fake mbuf")
        )
    return QueueParts(size, tuple(zones), tuple(allocs))


def desc_lim(rel: str, dev: dict[str, object] | None = None) -> tuple[DescLim, DescLim]:
    """virtio_dev_info_get: nb_max 32768 split (UINT16_MAX packed), nb_min 32, nb_align 1."""
    packed = _dev(dev)[4]
    mx = 65535 if packed else 32768
    c = SOURCE.cite(rel, "lim_packed" if packed else "lim_split", "lim_min")
    return DescLim(mx, DEFAULT_FREE_THRESH, 1, c), DescLim(mx, DEFAULT_FREE_THRESH, 1, c)


def max_queues(rel: str, dev: dict[str, object] | None = None) -> tuple[int, int]:
    """max_rx_queues = max_tx_queues = the device's max_virtqueue_pairs."""
    pairs = _dev(dev)[0]
    return pairs, pairs


def default_ring(rel: str) -> tuple[int, int]:
    return 0, 0


def probe(
    rel: str, port: int, dev: dict[str, object] | None = None
) -> tuple[tuple[Zone, ...], tuple[Alloc, ...]] | Rejection:
    """eth_virtio_pci_init -> virtio_init_device -> virtio_alloc_queues: hw->vqs and every virtqueue
    (Rx 2i, Tx 2i + 1, the control queue last)."""
    pairs, rxs, txs, ctrl, packed = _dev(dev)
    s = SIZES[rel]
    nr_vq = pairs * 2 + (1 if ctrl else 0)
    zones: list[Zone] = []
    allocs = [
        Alloc(
            "ethdev private structure",
            s["virtio_pci_dev"],
            RTE_CACHE_LINE_SIZE,
            SOURCE.cite(rel, "dev_private"),
            "dev_private",
        ),
        Alloc("virtio", VIRTIO_MAX_MAC_ADDRS * 6, 0, SOURCE.cite(rel, "mac_addrs"), "mac_addrs"),
        Alloc("virtio hw->vqs", 8 * nr_vq, 0, SOURCE.cite(rel, "nr_vq", "vqs"), "virtqueue pointers"),
    ]
    for i in range(nr_vq):
        if ctrl and i == nr_vq - 1:
            kind, size = "ctrl", dev_int(dev, "ctrl_queue_size", CTRL_QUEUE_SIZE)
        else:
            kind, size = ("rx", rxs) if i % 2 == 0 else ("tx", txs)
        q = _vq(rel, port, i, size, kind, packed, bool((dev or {}).get("vectorized", False)))
        if isinstance(q, Rejection):
            return q
        zones += q.zones
        allocs += q.allocs
    return tuple(zones), tuple(allocs)


def rx_queue_setup(
    rel: str, port: int, queue: int, nb_desc: int, dev: dict[str, object] | None = None
) -> QueueParts | Rejection:
    """virtio_dev_rx_queue_setup: the virtqueue exists since probe; nb_desc 0 or above its size means its size
    (virtio_rxtx.c: nb_desc clamp). Nothing is reserved here."""
    size = _dev(dev)[1]
    used = size if nb_desc == 0 or nb_desc > size else nb_desc
    return QueueParts(
        used, notes=(f"port{port}_vq{2 * queue} was made at probe ({SOURCE.cite(rel, 'nb_desc_clamp')})",)
    )


def tx_queue_setup(
    rel: str, port: int, queue: int, nb_desc: int, dev: dict[str, object] | None = None
) -> QueueParts | Rejection:
    size = _dev(dev)[2]
    used = size if nb_desc == 0 or nb_desc > size else nb_desc
    return QueueParts(used, notes=(f"port{port}_vq{2 * queue + 1} was made at probe",))


def configure(
    rel: str, port: int, nb_rxq: int, nb_txq: int, dev: dict[str, object] | None = None
) -> tuple[tuple[Zone, ...], tuple[Alloc, ...]]:
    return (), ()


PMD = declare(
    sys.modules[__name__],
    name=NAME,
    source="drivers/net/virtio",
    kernel_drivers=("virtio-pci",),
)
