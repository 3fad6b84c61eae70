"""net_af_packet (drivers/net/af_packet): a port over a Linux AF_PACKET socket (TPACKET_V2 rings), a
container's veth without a kernel bypass.

Its packet rings are kernel memory mapped into the process (PACKET_RX_RING / PACKET_TX_RING, one
``mmap`` of 2 x blocksz x blocks per queue pair), not the DPDK heap; on the heap are the internals, the
queue arrays, the interface name and per queue an iovec per frame.  Everything is made at probe, for
``qpairs`` queue pairs; the application's ``nb_desc`` is unused.  Proven on real testpmd runs (pmd.VDEV_RUNS)
on a veth (tests/conformance/drivers/).

Pure: stdlib only.
"""

from __future__ import annotations

from mpcalc.dpdk.core.errors import InputError
from mpcalc.dpdk.core.platform import Platform
from mpcalc.dpdk.core.records import Allocation
from mpcalc.dpdk.core.standalone import Parts
from mpcalc.dpdk.drivers.pmd import (
    RUN,
    RX_OFFLOAD_SCATTER,
    RX_OFFLOAD_TIMESTAMP,
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

DFLT_FRAME_SIZE = 1 << 11  # v22.11.11:drivers/net/af_packet/rte_eth_af_packet.c:40
DFLT_FRAME_COUNT = 1 << 9  # :41
PAGE_SIZE = 4096  # getpagesize(): the default blocksz (:971)
IOVEC = 16
TPACKET2_HDRLEN = 52  # TPACKET_ALIGN(sizeof(struct tpacket2_hdr)) + sizeof(struct sockaddr_ll)
SOCKADDR_LL = 20
RTE_ETHER_MAX_LEN = 1518
#: sizeof on x86_64 by release (the compiler's sizeof on each tag's rte_eth_af_packet.c; 22.11's also on
#: the real run): struct pmd_internals, struct pkt_rx_queue (128 from 25.11), struct pkt_tx_queue
PMD_INTERNALS = 64
PKT_RX_QUEUE = {"21.11": 64, "22.11": 64, "23.11": 64, "24.11": 64, "25.11": 128, "26.07": 128}
PKT_TX_QUEUE = 64
DEVARGS = frozenset({"iface", "qpairs", "blocksz", "framesz", "framecnt", "qdisc_bypass", "fanout_mode"})
FANOUT_SINCE = "25.11"  # ETH_AF_PACKET_FANOUT_MODE_ARG (v25.11.2:drivers/net/af_packet/rte_eth_af_packet.c:39)


def qpairs(port: Port) -> int:
    return int_arg(port, "qpairs", 1, 1, 65535)


def frames(port: Port) -> tuple[int, int, int]:
    """(blocksz, framesz, framecnt) as rte_pmd_init_internals takes them (v22.11.11:drivers/net/af_packet/
    rte_eth_af_packet.c:962-1010)."""
    return (
        int_arg(port, "blocksz", PAGE_SIZE, 1, 1 << 30),
        int_arg(port, "framesz", DFLT_FRAME_SIZE, 1, 1 << 30),
        int_arg(port, "framecnt", DFLT_FRAME_COUNT, 1, 1 << 30),
    )


def probe(port: Port, p: Platform) -> Parts:
    """rte_pmd_init_internals (v22.11.11:drivers/net/af_packet/rte_eth_af_packet.c:700-900; v26.07:...:
    895-1070): the internals (rte_zmalloc_socket, the port's dev_private is none: rte_eth_vdev_allocate(dev,
    0)), the Rx and Tx queue arrays (rte_calloc_socket), the interface name (from 22.11) and per queue pair
    an iovec per frame for Rx and one for Tx."""
    if "fanout_mode" in port.args and not since(p, FANOUT_SINCE):
        raise InputError(f"{port.name}: fanout_mode is an af_packet argument from DPDK 25.11", param="command")
    rel = p.release.version
    n = qpairs(port)
    _, _, count = frames(port)
    iface = port.args.get("iface", "")
    out = Parts()
    out.allocations += [
        Allocation(port.name, PMD_INTERNALS, "internals"),
        Allocation("af_packet_rx", n * PKT_RX_QUEUE[rel], "rx queue array"),
        Allocation("af_packet_tx", n * PKT_TX_QUEUE, "tx queue array"),
    ]
    if since(p, "22.11"):
        out.allocations.append(Allocation(port.name, len(iface.encode()) + 1, "if_name"))
    for q in range(n):
        out.allocations += [
            Allocation(port.name, count * IOVEC, f"port {port.port_id} rx queue {q} frame iovecs"),
            Allocation(port.name, count * IOVEC, f"port {port.port_id} tx queue {q} frame iovecs"),
        ]
    return out


def ring_bytes(port: Port) -> int:
    """The kernel ring a queue pair maps: 2 x blocksz x (framesz x framecnt / blocksz) blocks
    (v22.11.11:drivers/net/af_packet/rte_eth_af_packet.c:730-740, 842-843).

    >>> ring_bytes(Port(0, "net_af_packet0", "net_af_packet", {"iface": "veth0"})) // 1024  # KiB
    2048
    """
    block, size, count = frames(port)
    return 2 * block * (size * count // block)


def max_rx_pktlen(port: Port, p: Platform) -> int:
    """RTE_ETHER_MAX_LEN up to 25.11; from 26.07 framesz - TPACKET2_HDRLEN + sizeof(struct sockaddr_ll)
    (v26.07:drivers/net/af_packet/rte_eth_af_packet.c:458-459)."""
    if since(p, "26.07"):
        return frames(port)[1] - TPACKET2_HDRLEN + SOCKADDR_LL
    return RTE_ETHER_MAX_LEN


def offload_capa(port: Port, p: Platform) -> tuple[int, int]:
    """Rx VLAN_STRIP (+ TIMESTAMP from 24.11, + SCATTER from 26.07), Tx MULTI_SEGS | VLAN_INSERT
    (v22.11.11:drivers/net/af_packet/rte_eth_af_packet.c:367-369; v24.11.6:...:393-396; v26.07:...:465-469)."""
    rx = RX_OFFLOAD_VLAN_STRIP
    if since(p, "24.11"):
        rx |= RX_OFFLOAD_TIMESTAMP
    if since(p, "26.07"):
        rx |= RX_OFFLOAD_SCATTER
    return rx, TX_OFFLOAD_MULTI_SEGS | TX_OFFLOAD_VLAN_INSERT


def outside_heap(port: Port, q: QueueConf, p: Platform) -> tuple[str, ...]:
    n = qpairs(port)
    return (
        f"the kernel's TPACKET_V2 rings, mapped into the process: {n} x {ring_bytes(port):,} B "
        "(an Rx and a Tx ring per queue pair, kernel memory, not the DPDK heap)",
    )


PMD = Pmd(
    name="net_af_packet",
    source="drivers/net/af_packet",
    aliases=("eth_af_packet",),  # RTE_PMD_REGISTER_ALIAS(net_af_packet, eth_af_packet)
    devargs=DEVARGS,
    provenance=RUN,
    evidence=f"tests/conformance/drivers/ ({VDEV_RUNS} on a veth)",
    # dev_info.max_rx_queues = internals->nb_queues, the qpairs devarg (rte_eth_af_packet.c:364-365)
    max_queues=lambda port, p: (qpairs(port), qpairs(port)),
    probe=probe,
    offload_capa=offload_capa,
    max_rx_pktlen=max_rx_pktlen,
    outside_heap=outside_heap,
)
