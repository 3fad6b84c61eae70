"""The virtio-net virtqueues (drivers/net/virtio), shared by virtio_user and virtio PCI.

Whatever the transport, ``virtio_init_device -> virtio_alloc_queues`` makes every virtqueue of the device
at probe, sized by the device's queue size (virtio_user: its ``queue_size`` devarg; PCI: the device's
Queue Size register), not by the application's ``nb_desc``: ``max_queue_pairs`` Rx/Tx pairs (queue
2i receives, 2i+1 transmits) and, when VIRTIO_NET_F_CTRL_VQ is negotiated, a control queue at index
2 * max_queue_pairs (virtio_get_queue_type, v22.11.11:drivers/net/virtio/virtqueue.h:496-504;
virtio_get_nr_vq, v22.11.11:drivers/net/virtio/virtio_ethdev.c:430-438).  Each queue is a
``struct virtqueue`` with one ``vq_desc_extra`` per descriptor (rte_zmalloc_socket named ``port<p>_vq<i>``),
a vring memzone of that name aligned to VIRTIO_VRING_ALIGN, a ``port<p>_vq<i>_hdr`` memzone for a Tx
queue (a ``struct virtio_tx_region`` per descriptor) and for the control queue (a page), and for an Rx
queue, up to 22.11, a software ring of RTE_PMD_VIRTIO_RX_MAX_BURST + size mbuf pointers and a fake mbuf,
both named ``sw_ring`` (v22.11.11:drivers/net/virtio/virtio_ethdev.c:473-640; from 23.11 the same through
virtqueue_alloc and its headers: v23.11.7:drivers/net/virtio/virtqueue.c:301-345, 422-512, unchanged in the
lines to v26.07:drivers/net/virtio/virtqueue.c:301, 422).  From 23.11 the Rx software ring is made only for
the vectorized datapath (virtio_rxq_sw_ring_alloc returns early without hw->use_vec_rx,
v24.11.6:drivers/net/virtio/virtqueue.c:386-388), which eth_virtio_dev_init sets before it makes the queues
when the device's devargs say ``vectorized=1`` (exactly "1": vectorized_check_handler;
v24.11.6:drivers/net/virtio/virtio_ethdev.c:1956-1977, 2034-2046): without it no ``sw_ring`` (the real
24.11.6 runs, with and without ``vectorized=1``).

The queue set-ups allocate nothing: they take min(nb_desc, queue size) of the queue's descriptors
(virtio_dev_rx_queue_setup, v22.11.11:drivers/net/virtio/virtio_rxtx.c:708-712;
virtio_dev_tx_queue_setup, :838-839).

Pure: stdlib only.
"""

from __future__ import annotations

from mpcalc.dpdk.core.errors import InputError
from mpcalc.dpdk.core.heap import memzone_len
from mpcalc.dpdk.core.intmath import ceil_a
from mpcalc.dpdk.core.platform import Platform
from mpcalc.dpdk.core.records import Allocation, Memzone
from mpcalc.dpdk.core.standalone import Parts
from mpcalc.dpdk.drivers.pmd import RTE_MEM_PAGE_SIZE, Port, since

VIRTIO_VRING_ALIGN = 4096  # v22.11.11:drivers/net/virtio/virtio.h:159 (v26.07: :154)
RTE_PMD_VIRTIO_RX_MAX_BURST = 64  # v22.11.11:drivers/net/virtio/virtio_rxtx.h:8 (the same to v26.07)
VIRTIO_MAX_MAC_ADDRS = 64  # v22.11.11:drivers/net/virtio/virtio_ethdev.h:16
RTE_ETHER_ADDR_LEN = 6
VIRTIO_MAX_RX_QUEUES = 128  # v22.11.11:drivers/net/virtio/virtio_ethdev.h:14
VIRTIO_MAX_RX_PKTLEN = 9728  # v22.11.11:drivers/net/virtio/virtio_ethdev.h:18
#: rx_desc_lim.nb_min RTE_MAX(DEFAULT_RX_FREE_THRESH 32, RTE_VIRTIO_VPMD_RX_REARM_THRESH 32), tx's
#: DEFAULT_TX_FREE_THRESH 32; nb_max 32768 for a split ring, UINT16_MAX for a packed one
#: (v22.11.11:drivers/net/virtio/virtio_ethdev.c:3110-3137; v23.11.7:...:2672-2699)
DESC_MIN = 32
SPLIT_MAX = 32768
PACKED_MAX = 65535
PAGE_SIZE = RTE_MEM_PAGE_SIZE  # the control queue's header zone

#: sizeof on x86_64, by release: struct virtqueue (read with the compiler's sizeof on the tag's headers,
#: 248 at 22.11 also measured on the real run: port0_vq0's 4352 = 248 + 256 * 16 rounded to 64), struct
#: vq_desc_extra 16, struct virtio_tx_region 144 (a virtio_net_hdr_mrg_rxbuf and 8 indirect descriptors),
#: struct rte_mbuf 128 at every release (v22.11.11:drivers/net/virtio/virtqueue.h:221-285, 100-104, 290-294)
VIRTQUEUE = {"21.11": 256, "22.11": 248, "23.11": 248, "24.11": 256, "25.11": 256, "26.07": 256}
VQ_DESC_EXTRA = 16
VIRTIO_TX_REGION = 144
RTE_MBUF = 128
#: the control queue's header zone is a page at every release; a transmit queue's is per descriptor
VTNET_RQ, VTNET_TQ, VTNET_CQ = "rx", "tx", "ctrl"
#: from 23.11 an Rx queue's software ring and fake mbuf are the vectorized datapath's only
#: (v24.11.6:drivers/net/virtio/virtqueue.c:386-388; v23.11.7:...:386-388)
SW_RING_VECTORIZED_SINCE = "23.11"


def sw_ring(port: Port, p: Platform) -> bool:
    """Whether each Rx queue gets its ``sw_ring``: always up to 22.11, from 23.11 with ``vectorized=1`` only
    (hw->use_vec_rx, set from the devarg before the queues are made: v24.11.6:drivers/net/virtio/
    virtio_ethdev.c:1974-1977)."""
    return not since(p, SW_RING_VECTORIZED_SINCE) or port.args.get("vectorized") == "1"


def queue_type(index: int, max_queue_pairs: int) -> str:
    """virtio_get_queue_type (v22.11.11:drivers/net/virtio/virtqueue.h:496-504).

    >>> [queue_type(i, 2) for i in range(5)]
    ['rx', 'tx', 'rx', 'tx', 'ctrl']
    """
    if index == max_queue_pairs * 2:
        return VTNET_CQ
    return VTNET_RQ if index % 2 == 0 else VTNET_TQ


def vring_size(num: int, packed: bool, align: int = VIRTIO_VRING_ALIGN) -> int:
    """vring_size (v22.11.11:drivers/net/virtio/virtio_ring.h:132-150, the same to v26.07:134-152): a split
    ring's descriptors (16 B each) and avail ring (4 + 2 per entry) aligned, then its used ring (4 + 8 per
    entry); a packed ring's descriptors and the two 4-byte event structures.

    >>> vring_size(256, False), vring_size(256, True)
    (10244, 8196)
    """
    if packed:
        return ceil_a(num * 16 + 4, align) + 4
    return ceil_a(num * 16 + 4 + 2 * num, align) + 4 + 8 * num


def ring_zone_len(num: int, packed: bool) -> int:
    """vq->vq_ring_size: the vring rounded up to VIRTIO_VRING_ALIGN, the memzone's length
    (v22.11.11:drivers/net/virtio/virtio_ethdev.c:548-550; v23.11.7:drivers/net/virtio/virtqueue.c:452-453).

    >>> ring_zone_len(256, False), ring_zone_len(1024, False), ring_zone_len(2048, False)
    (12288, 32768, 61440)
    """
    return ceil_a(vring_size(num, packed), VIRTIO_VRING_ALIGN)


def virtqueues(port: Port, max_queue_pairs: int, ctrl: bool, size: int, packed: bool, p: Platform) -> Parts:
    """virtio_alloc_queues: the ``hw->vqs`` pointer array (rte_zmalloc(NULL), v22.11.11:drivers/net/virtio/
    virtio_ethdev.c:741-760; v26.07:...:321-340) and every virtqueue, in index order, each as virtio_init_queue
    (up to 22.11) / virtqueue_alloc (from 23.11) makes it."""
    if not packed and size & (size - 1):
        raise InputError(
            f"{port.name}: queue size {size} is not a power of 2: virtio_init_queue fails ('split virtqueue "
            "size is not power of 2', drivers/net/virtio/virtio_ethdev.c:503-506)",
            param="command",
        )
    release = p.release.version
    out = Parts()
    nr_vq = max_queue_pairs * 2 + (1 if ctrl else 0)
    pid = port.port_id
    out.allocations.append(Allocation("virtio hw->vqs", 8 * nr_vq, f"port {pid} virtqueue pointers"))
    for i in range(nr_vq):
        kind = queue_type(i, max_queue_pairs)
        name = f"port{pid}_vq{i}"
        role = f"port {pid} {kind} virtqueue {i}"
        out.allocations.append(Allocation(name, ceil_a(VIRTQUEUE[release] + size * VQ_DESC_EXTRA, 64), role))
        # the vring, sized by the queue size whatever nb_desc the application asks (aligned to 4096)
        out.zones.append(Memzone(name, memzone_len(ring_zone_len(size, packed), p), f"{role}: vring"))
        if kind == VTNET_TQ:
            out.zones.append(Memzone(f"{name}_hdr", memzone_len(size * VIRTIO_TX_REGION, p), f"{role}: tx headers"))
        elif kind == VTNET_CQ:
            out.zones.append(Memzone(f"{name}_hdr", memzone_len(PAGE_SIZE, p), f"{role}: command page"))
        elif sw_ring(port, p):
            out.allocations += [
                Allocation("sw_ring", (RTE_PMD_VIRTIO_RX_MAX_BURST + size) * 8, f"{role}: sw_ring"),
                Allocation("sw_ring", RTE_MBUF, f"{role}: fake mbuf"),
            ]
    return out


def used_descriptors(nb_desc: int, size: int) -> int:
    """What a queue set-up takes of a virtqueue of ``size``: min(nb_desc, size)
    (v22.11.11:drivers/net/virtio/virtio_rxtx.c:708-712, 838-839)."""
    return min(nb_desc, size) if nb_desc else size


def mac_addrs() -> Allocation:
    """eth_virtio_dev_init: data->mac_addrs = rte_zmalloc("virtio", VIRTIO_MAX_MAC_ADDRS * RTE_ETHER_ADDR_LEN)
    (v22.11.11:drivers/net/virtio/virtio_ethdev.c:2407-2412; v23.11.7:...:1963-1968)."""
    return Allocation("virtio", VIRTIO_MAX_MAC_ADDRS * RTE_ETHER_ADDR_LEN, "mac_addrs")
