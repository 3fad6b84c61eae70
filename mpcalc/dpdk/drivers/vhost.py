"""net_vhost (drivers/net/vhost): a vhost-user port, the backend a container's virtio_user (or a VM's
virtio-net) connects to.

The port itself is small (its internals, MAC, socket path; at configure the internal list entry and the
vring state table; a ``struct vhost_queue`` per queue).  Its rings are the peer's: the vhost library maps
the guest's memory and allocates, when the peer connects, a ``struct virtio_net`` for the device, a
``struct vhost_virtqueue`` per vring, the guest page table and memory table and, per vring, a shadow used
ring and a batch copy array sized by the *peer's* ring size (:func:`peer`); none of it exists before a
peer connects.  Proven on real testpmd runs (pmd.VDEV_RUNS) with and without a virtio_user peer
(tests/conformance/drivers/).

Pure: stdlib only.
"""

from __future__ import annotations

from mpcalc.dpdk.core.platform import Platform
from mpcalc.dpdk.core.records import Allocation
from mpcalc.dpdk.core.standalone import Parts
from mpcalc.dpdk.drivers.pmd import (
    RTE_MAX_QUEUES_PER_PORT,
    RUN,
    RX_OFFLOAD_VLAN_STRIP,
    TX_OFFLOAD_MULTI_SEGS,
    TX_OFFLOAD_VLAN_INSERT,
    VDEV_RUNS,
    Pmd,
    Port,
    QueueConf,
    int_arg,
    since,
)

#: sizeof on x86_64 by release, read with the compiler's sizeof on each tag's rte_eth_vhost.c and
#: lib/vhost/vhost.h (22.11's also on the real run): struct pmd_internal (v22.11.11:drivers/net/vhost/
#: rte_eth_vhost.c:98-117), struct internal_list (:123-126), struct rte_vhost_vring_state (:128-133),
#: struct vhost_queue (:82-96); struct virtio_net (v22.11.11:lib/vhost/vhost.h:459-530), struct
#: vhost_virtqueue (:256-356)
PMD_INTERNAL = {"21.11": 48, "22.11": 56, "23.11": 56, "24.11": 56, "25.11": 56, "26.07": 56}
INTERNAL_LIST = 24
VRING_STATE = 4108
VHOST_QUEUE = {"21.11": 232, "22.11": 88, "23.11": 88, "24.11": 88, "25.11": 88, "26.07": 88}
VIRTIO_NET = {"21.11": 6336, "22.11": 6336, "23.11": 6464, "24.11": 6464, "25.11": 6464, "26.07": 6464}
VHOST_VIRTQUEUE = {"21.11": 256, "22.11": 384, "23.11": 384, "24.11": 384, "25.11": 384, "26.07": 384}
GUEST_PAGE = 32
BATCH_COPY_ELEM = 32
VRING_USED_ELEM = 8
RTE_VHOST_MEMORY = 8
RTE_VHOST_MEM_REGION = 56
#: the memory table has the peer's regions (one here: --single-file-segments) up to 25.11, from 26.07 room
#: for VHOST_MEMORY_MAX_NREGIONS 8 whatever the peer sends (vhost_user_set_mem_table,
#: v25.11.2:lib/vhost/vhost_user.c:1465-1466; v26.07:lib/vhost/vhost_user.c:1471-1472, vhost_user.h:14;
#: the real 26.07 run: 456 B)
VHOST_MEMORY_MAX_NREGIONS = 8
MEM_TABLE_FULL_SINCE = "26.07"
#: the guest page table starts at 8 entries (vhost_user_set_mem_table: dev->max_guest_pages = 8,
#: v22.11.11:lib/vhost/vhost_user.c:1378-1389)
GUEST_PAGES_START = 8

DEVARGS = frozenset(
    {
        "iface",
        "queues",
        "client",
        "iommu-support",
        "postcopy-support",
        "tso",
        "linear-buffer",
        "ext-buffer",
        "legacy-ol-flags",
    }
)  # ETH_VHOST_*_ARG (v22.11.11:drivers/net/vhost/rte_eth_vhost.c:31-39)


def probe(port: Port, p: Platform) -> Parts:
    """eth_dev_vhost_create: the internals (rte_eth_vdev_allocate), the MAC address and the socket path
    (v22.11.11:drivers/net/vhost/rte_eth_vhost.c:1487-1506; v26.07:...:1521-1540)."""
    rel = p.release.version
    iface = port.args.get("iface", "")
    out = Parts()
    out.allocations += [
        Allocation(port.name, PMD_INTERNAL[rel], "dev_private (struct pmd_internal)"),
        Allocation(port.name, 6, "mac address"),
        Allocation(port.name, len(iface.encode()) + 1, "iface_name"),
    ]
    return out


def configure(port: Port, q: QueueConf, p: Platform) -> Parts:
    """eth_dev_configure -> vhost_driver_setup: the internal list entry and the port's vring state table
    (v22.11.11:drivers/net/vhost/rte_eth_vhost.c:977-1000, 1111-1121)."""
    out = Parts()
    out.allocations += [
        Allocation(port.name, INTERNAL_LIST, "internal_list entry"),
        Allocation(port.name, VRING_STATE, "vring_state"),
    ]
    return out


def queue(port: Port, queue_id: int, nb_desc: int, q: QueueConf, p: Platform) -> Parts:
    """eth_rx_queue_setup / eth_tx_queue_setup: one struct vhost_queue, nb_desc unused
    (v22.11.11:drivers/net/vhost/rte_eth_vhost.c:1224-1270)."""
    out = Parts()
    out.allocations.append(Allocation("vhost_queue", VHOST_QUEUE[p.release.version], f"port {port.port_id} queue"))
    return out


def peer(port: Port, vrings: int, ring_size: int, p: Platform) -> list[Allocation]:
    """What the vhost library allocates once a peer with ``vrings`` vrings of ``ring_size`` connects
    (Debian 22.11.11's sequence, measured; each release's struct sizes): vhost_new_device's struct virtio_net,
    a struct vhost_virtqueue per vring pair index it allocates (alloc_vring_queue, one per vring), the guest
    page table, the memory table of one region (from 26.07 of eight: :data:`MEM_TABLE_FULL_SINCE`), and per
    vring the shadow used ring (a vring_used_elem per entry) and the batch copy array (a batch_copy_elem per
    entry)
    (v22.11.11:lib/vhost/vhost.c:640-700, vhost_user.c:560-640, 1378-1420)."""
    rel = p.release.version
    out = [Allocation("vhost", VIRTIO_NET[rel], "vhost device (struct virtio_net)")]
    out += [Allocation("vhost", VHOST_VIRTQUEUE[rel], "vhost_virtqueue")] * vrings
    out.append(Allocation("vhost", GUEST_PAGES_START * GUEST_PAGE, "guest pages"))
    regions = VHOST_MEMORY_MAX_NREGIONS if since(p, MEM_TABLE_FULL_SINCE) else 1
    out.append(Allocation("vhost-mem-table", RTE_VHOST_MEMORY + RTE_VHOST_MEM_REGION * regions, "memory table"))
    for _ in range(vrings):
        out += [
            Allocation("vhost", ring_size * VRING_USED_ELEM, "shadow used ring (the peer's ring size)"),
            Allocation("vhost", ring_size * BATCH_COPY_ELEM, "batch copy elements (the peer's ring size)"),
        ]
    return out


def max_queues(port: Port, p: Platform | None) -> tuple[int, int]:
    """dev_info.max_rx_queues = internal->max_queues, the queues devarg (1 by default, at most
    RTE_MAX_QUEUES_PER_PORT; v22.11.11:drivers/net/vhost/rte_eth_vhost.c:1285-1286, 1618-1627)."""
    n = int_arg(port, "queues", 1, 1, RTE_MAX_QUEUES_PER_PORT)
    return n, n


PMD = Pmd(
    name="net_vhost",
    source="drivers/net/vhost",
    aliases=("eth_vhost",),  # RTE_PMD_REGISTER_ALIAS(net_vhost, eth_vhost) (rte_eth_vhost.c:1744)
    devargs=DEVARGS,
    provenance=RUN,
    evidence=f"tests/conformance/drivers/ ({VDEV_RUNS}, with and without a virtio_user peer)",
    max_queues=max_queues,
    probe=probe,
    configure=configure,
    rx_queue_setup=queue,
    tx_queue_setup=queue,
    # MULTI_SEGS | VLAN_INSERT and VLAN_STRIP (checksums only with RTE_VHOST_USER_NET_COMPLIANT_OL_FLAGS)
    # (v22.11.11:drivers/net/vhost/rte_eth_vhost.c:1289-1300)
    offload_capa=lambda port, p: (RX_OFFLOAD_VLAN_STRIP, TX_OFFLOAD_MULTI_SEGS | TX_OFFLOAD_VLAN_INSERT),
    outside_heap=lambda port, q, p: (
        "the peer's memory, mapped from its hugepage files; the vhost-user socket; once a peer connects the "
        "vhost library's per-device and per-vring structures are on this heap, sized by the peer's ring "
        "size (drivers.vhost.peer)",
    ),
)
