"""net_virtio_user (drivers/net/virtio/virtio_user_ethdev.c): virtio-net over a vhost-user socket (or
vhost-kernel / vhost-vdpa), the container interface of a DPDK application talking to OVS-DPDK, VPP or
another DPDK process.

Probe makes everything (:mod:`.virtio`): the virtqueues of ``queues`` pairs plus a control queue when
``cq=1`` (the default once ``queues`` > 1; from 23.11 made once ``queues`` > 1 whatever ``cq``), each a
vring memzone ``port<p>_vq<i>`` sized by the ``queue_size`` devarg (256 by default) and, for Tx and
control queues, a ``port<p>_vq<i>_hdr`` zone; the
application's ``--rxd``/``--txd`` change nothing in it, they only say how many of a queue's descriptors
it uses.  Proven on real testpmd runs (pmd.VDEV_RUNS) against a net_vhost backend
(tests/conformance/drivers/: every memzone by name and length, and the heap).

Pure: stdlib only.
"""

from __future__ import annotations

from mpcalc.dpdk.core.errors import InputError
from mpcalc.dpdk.core.platform import Platform
from mpcalc.dpdk.core.records import Allocation
from mpcalc.dpdk.core.standalone import Parts
from mpcalc.dpdk.drivers import virtio
from mpcalc.dpdk.drivers.pmd import (
    RUN,
    RX_OFFLOAD_SCATTER,
    RX_OFFLOAD_TCP_CKSUM,
    RX_OFFLOAD_TCP_LRO,
    RX_OFFLOAD_UDP_CKSUM,
    RX_OFFLOAD_VLAN_FILTER,
    RX_OFFLOAD_VLAN_STRIP,
    TX_OFFLOAD_MULTI_SEGS,
    TX_OFFLOAD_TCP_CKSUM,
    TX_OFFLOAD_TCP_TSO,
    TX_OFFLOAD_UDP_CKSUM,
    TX_OFFLOAD_VLAN_INSERT,
    VDEV_RUNS,
    DescLim,
    Pmd,
    Port,
    QueueConf,
    int_arg,
    since,
)

VIRTIO_USER_DEF_Q_NUM = 1  # v22.11.11:drivers/net/virtio/virtio_user_ethdev.c:333 (the same to v26.07:371)
VIRTIO_USER_DEF_Q_SZ = 256  # v22.11.11:drivers/net/virtio/virtio_user_ethdev.c:334 (v26.07:372)
#: queues= above it is refused up to 22.11 (v22.11.11:drivers/net/virtio/virtio_user_ethdev.c:626-631;
#: VIRTIO_MAX_VIRTQUEUE_PAIRS 8, drivers/net/virtio/virtio.h:130); from 23.11 the check is gone and
#: dev_info caps the queues at VIRTIO_MAX_RX_QUEUES 128
VIRTIO_MAX_VIRTQUEUE_PAIRS = 8
QUEUE_PAIRS_CAPPED_UNTIL = "22.11"
#: sizeof(struct virtio_user_dev), the port's dev_private (rte_eth_vdev_allocate(vdev, sizeof(*dev)),
#: v22.11.11:drivers/net/virtio/virtio_user_ethdev.c:432): 5,120 B while the vrings were arrays in it, up to
#: 22.11 (measured: the real run's net_virtio_user0 allocation), then allocated by virtio_user_alloc_vrings
#: (v23.11.7:drivers/net/virtio/virtio_user/virtio_user_dev.c:606-670; v26.07:...:617-680); read with the
#: compiler's sizeof on each tag's drivers/net/virtio/virtio_user/virtio_user_dev.h
VIRTIO_USER_DEV = {"21.11": 5120, "22.11": 5120, "23.11": 4408, "24.11": 4416, "25.11": 4416, "26.07": 4416}
VRINGS_ALLOCATED_SINCE = "23.11"
#: sizeof(struct vring) / sizeof(struct vring_packed) (the same), and struct virtio_user_queue
VRING_STRUCT = {"23.11": 32, "24.11": 40, "25.11": 40, "26.07": 40}
VIRTIO_USER_QUEUE = 4

DEVARGS = frozenset(
    {
        "path",
        "queues",
        "cq",
        "queue_size",
        "mac",
        "iface",
        "server",
        "mrg_rxbuf",
        "in_order",
        "packed_vq",
        "speed",
        "vectorized",
    }
)  # VIRTIO_USER_ARG_* (v22.11.11:drivers/net/virtio/virtio_user_ethdev.c:305-330, the same to v26.07)


def queue_pairs(port: Port) -> int:
    return int_arg(port, "queues", VIRTIO_USER_DEF_Q_NUM, 1, 65535)


def queue_size(port: Port) -> int:
    return int_arg(port, "queue_size", VIRTIO_USER_DEF_Q_SZ, 1, 65535)


def packed(port: Port) -> bool:
    return int_arg(port, "packed_vq", 0, 0, 1) == 1


#: from 23.11 more than one queue pair makes the control queue whatever cq= says: virtio_user_dev_init
#: sets cq = 1 once max_queue_pairs > 1 (v24.11.6:drivers/net/virtio/virtio_user/virtio_user_dev.c:776-777,
#: v23.11.7:...:762-763), where up to 22.11 the probe refused cq=0 ("multi-q requires ctrl-q",
#: v22.11.11:drivers/net/virtio/virtio_user_ethdev.c:621-624); max_queue_pairs is the queues devarg for a
#: backend offering VIRTIO_NET_F_MQ (a DPDK vhost-user one: the real 24.11.6 run of queues=2,cq=0)
CQ_FORCED_SINCE = "23.11"


def control_queue(port: Port, p: Platform) -> bool:
    """cq=1, or queues > 1 without cq= (v22.11.11:drivers/net/virtio/virtio_user_ethdev.c:591-601), or from
    23.11 queues > 1 whatever cq= (:data:`CQ_FORCED_SINCE`)."""
    if queue_pairs(port) > 1 and since(p, CQ_FORCED_SINCE):
        return True
    if "cq" in port.args:
        return int_arg(port, "cq", 0, 0, 1) == 1
    return queue_pairs(port) > 1


def refusal(port: Port, q: QueueConf | None, p: Platform) -> str | None:
    """What virtio_user_pmd_probe refuses (v22.11.11:drivers/net/virtio/virtio_user_ethdev.c:517-631;
    v26.07:...:560-660): the probe fails and the port does not exist."""
    if "path" not in port.args:
        return "arg path is mandatory for virtio_user (virtio_user_pmd_probe, virtio_user_ethdev.c:524-527)"
    qp = queue_pairs(port)
    if qp > 1 and not control_queue(port, p):
        return "multi-q requires ctrl-q (virtio_user_pmd_probe, virtio_user_ethdev.c:621-624)"
    if not since(p, "23.11") and qp > VIRTIO_MAX_VIRTQUEUE_PAIRS:
        return (
            f"arg queues {qp} exceeds the limit {VIRTIO_MAX_VIRTQUEUE_PAIRS} "
            "(virtio_user_pmd_probe, virtio_user_ethdev.c:626-631)"
        )
    return None


def probe(port: Port, p: Platform) -> Parts:
    """virtio_user_pmd_probe: the device (dev_private), from 23.11 virtio_user_alloc_vrings' metadata, then
    eth_virtio_dev_init: mac_addrs and every virtqueue (:func:`.virtio.virtqueues`)."""
    why = refusal(port, None, p)
    if why is not None:
        raise InputError(f"{port.name}: {why}: vdev_probe fails and testpmd has no such port", param="command")
    rel = p.release.version
    qp, ctrl = queue_pairs(port), control_queue(port, p)
    out = Parts()
    out.allocations.append(Allocation(port.name, VIRTIO_USER_DEV[rel], "dev_private (struct virtio_user_dev)"))
    if since(p, VRINGS_ALLOCATED_SINCE):
        # virtio_user_alloc_vrings: nr_vrings = 2 * max_queue_pairs (+1 with the control queue), each a callfd
        # and a kickfd (int), a struct vring (or vring_packed), a virtio_user_queue for a packed ring, and a
        # bool per queue pair (v23.11.7:drivers/net/virtio/virtio_user/virtio_user_dev.c:606-660; v26.07:...:617-671)
        nr = qp * 2 + (1 if ctrl else 0)
        role = f"port {port.port_id} vring metadata"
        out.allocations += [
            Allocation("virtio_user_dev", nr * 4, f"{role}: callfds"),
            Allocation("virtio_user_dev", nr * 4, f"{role}: kickfds"),
            Allocation("virtio_user_dev", nr * VRING_STRUCT[rel], f"{role}: vrings"),
        ]
        if packed(port):
            out.allocations.append(Allocation("virtio_user_dev", nr * VIRTIO_USER_QUEUE, f"{role}: packed_queues"))
        out.allocations.append(Allocation("virtio_user_dev", qp, f"{role}: qp_enabled"))
    out.allocations.append(virtio.mac_addrs())
    out.extend(virtio.virtqueues(port, qp, ctrl, queue_size(port), packed(port), p))
    return out


def max_queues(port: Port, p: Platform | None) -> tuple[int, int]:
    """dev_info.max_rx_queues = RTE_MIN(hw->max_queue_pairs, VIRTIO_MAX_RX_QUEUES), the queues devarg
    (v22.11.11:drivers/net/virtio/virtio_ethdev.c:3061-3064)."""
    n = min(queue_pairs(port), virtio.VIRTIO_MAX_RX_QUEUES)
    return n, n


def desc_lim(port: Port, p: Platform) -> DescLim:
    return DescLim(virtio.PACKED_MAX if packed(port) else virtio.SPLIT_MAX, virtio.DESC_MIN, 1)


def offload_capa(port: Port, p: Platform) -> tuple[int, int]:
    """dev_info's offloads from the features the backend offers (v22.11.11:drivers/net/virtio/virtio_ethdev.c:
    3070-3098): here a DPDK vhost-user backend's (MRG_RXBUF, GUEST_CSUM, GUEST_TSO4/6, CSUM, HOST_TSO4/6;
    CTRL_VLAN with the control queue)."""
    rx = RX_OFFLOAD_VLAN_STRIP | RX_OFFLOAD_TCP_CKSUM | RX_OFFLOAD_UDP_CKSUM | RX_OFFLOAD_TCP_LRO
    if int_arg(port, "mrg_rxbuf", 1, 0, 1):
        rx |= RX_OFFLOAD_SCATTER
    if control_queue(port, p):
        rx |= RX_OFFLOAD_VLAN_FILTER
    tx = TX_OFFLOAD_MULTI_SEGS | TX_OFFLOAD_VLAN_INSERT | TX_OFFLOAD_UDP_CKSUM | TX_OFFLOAD_TCP_CKSUM
    return rx, tx | TX_OFFLOAD_TCP_TSO


PMD = Pmd(
    name="net_virtio_user",
    source="drivers/net/virtio",
    aliases=(
        "virtio_user",
    ),  # RTE_PMD_REGISTER_ALIAS(net_virtio_user, virtio_user) (v22.11.11:drivers/net/virtio/virtio_user_ethdev.c:785)
    devargs=DEVARGS,
    provenance=RUN,
    evidence=f"tests/conformance/drivers/ ({VDEV_RUNS} against net_vhost)",
    max_queues=max_queues,
    rx_desc_lim=desc_lim,
    tx_desc_lim=desc_lim,
    zones=(r"port\d+_vq\d+(_hdr)?",),
    probe=probe,
    offload_capa=offload_capa,
    max_rx_pktlen=lambda port, p: virtio.VIRTIO_MAX_RX_PKTLEN,
    outside_heap=lambda port, q, p: (
        "the vhost-user socket and a kick and a call eventfd per vring; the backend maps this process's "
        "hugepage files (its memory is the heap's, shared, not more of it)",
    ),
    descriptors_used=lambda port, nb_desc, what, p: virtio.used_descriptors(nb_desc, queue_size(port)),
)
