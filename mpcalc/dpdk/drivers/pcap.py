"""net_pcap (drivers/net/pcap): a port that reads packets from a pcap file (or an interface) and writes
them to one, for replaying captures.

On the heap: the process private (its pcap handles), the internals (its queue arrays for
RTE_PMD_PCAP_MAX_QUEUES 16, 135 KB), up to 25.11 the timestamp dynamic field and flag (the ``rte_mbuf_dyn``
memzone, reserved before the port, the first time in the process; from 26.07 dev_configure registers them
only for RTE_ETH_RX_OFFLOAD_TIMESTAMP), and from 26.07 a Tx queue's bounce buffer of ``snaplen``.  With
``infinite_rx=1`` each Rx queue set-up reads the whole file into mbufs of the application's pool and keeps
them in a ring ``PCAP_RING<n>`` of rte_align64pow2(packets + 1) (eth_rx_queue_setup, v22.11.11:drivers/net/
pcap/pcap_ethdev.c:891-940): the file's packet count sizes it.  Proven on real testpmd runs (pmd.VDEV_RUNS,
tests/conformance/drivers/).

Pure: stdlib only (the pcap file's packet count is read from its record headers).
"""

from __future__ import annotations

import struct

from mpcalc.dpdk.core.errors import InputError
from mpcalc.dpdk.core.heap import memzone_len
from mpcalc.dpdk.core.platform import Platform
from mpcalc.dpdk.core.records import Allocation, Memzone
from mpcalc.dpdk.core.standalone import Parts
from mpcalc.dpdk.drivers.pmd import RUN, VDEV_RUNS, Pmd, Port, QueueConf, int_arg, since, sizes
from mpcalc.dpdk.objects.ring import SC_DEQ, SP_ENQ, ring_parts

RTE_PMD_PCAP_MAX_QUEUES = 16  # v22.11.11:drivers/net/pcap/pcap_ethdev.c:40 (v26.07: :57)
#: sizeof on x86_64 by release (the compiler's sizeof on each tag's pcap_ethdev.c; 22.11's also on the real
#: run): struct pmd_internals and struct pmd_process_private (3 x 16 pointers)
PMD_INTERNALS = {"21.11": 135128, "22.11": 135128, "23.11": 135128, "24.11": 135128, "25.11": 135128, "26.07": 135264}
PMD_PROCESS_PRIVATE = 384
#: struct mbuf_dyn_shm and the element sizes of rte_mbuf_dynfield_register / dynflag_register
#: (v22.11.11:lib/mbuf/rte_mbuf_dyn.c:38-44, 290-300, 470-480), measured on the run
MBUF_DYN_SHM = 136
MBUF_DYNFIELD_ELT = 96
MBUF_DYNFLAG_ELT = 72
#: 26.07's devargs (ETH_PCAP_EOF_ARG, ETH_PCAP_SNAPSHOT_LEN_ARG, v26.07:drivers/net/pcap/pcap_ethdev.c:45-46)
DEVARGS_SINCE = {"eof": "26.07", "snaplen": "26.07"}
DEVARGS = frozenset(
    {"rx_pcap", "tx_pcap", "rx_iface", "rx_iface_in", "tx_iface", "iface", "phy_mac", "infinite_rx", *DEVARGS_SINCE}
)  # ETH_PCAP_*_ARG (v22.11.11:drivers/net/pcap/pcap_ethdev.c:29-36; v26.07:...:37-46)
#: from 26.07 the Rx timestamp field and flag are registered by eth_dev_configure, and only with
#: RTE_ETH_RX_OFFLOAD_TIMESTAMP (v26.07:drivers/net/pcap/pcap_ethdev.c:1028-1037), no longer at probe
#: (v25.11.2:drivers/net/pcap/pcap_ethdev.c:1434; the real 26.07 runs: no dynfield before the port)
TIMESTAMP_AT_CONFIGURE_SINCE = "26.07"
#: from 26.07 eth_tx_queue_setup allocates a bounce buffer of the snapshot length per Tx queue
#: (rte_malloc_socket(NULL, internals->snapshot_len, RTE_CACHE_LINE_SIZE), v26.07:drivers/net/pcap/
#: pcap_ethdev.c:1337-1356): the snaplen devarg, RTE_ETHER_HDR_LEN to ETH_PCAP_MAXIMUM_SNAPLEN (:1613-1630),
#: ETH_PCAP_SNAPSHOT_LEN_DEFAULT by default (:48, 1865)
BOUNCE_SINCE = "26.07"
ETH_PCAP_SNAPSHOT_LEN_DEFAULT = 65535
ETH_PCAP_MAXIMUM_SNAPLEN = 262144
RTE_ETHER_HDR_LEN = 14


def align64pow2(value: int) -> int:
    """``rte_align64pow2``: the next power of two (of a value that is not 0).

    >>> align64pow2(9), align64pow2(16)
    (16, 16)
    """
    return 1 << (value - 1).bit_length()


def pcap_packets(path: str) -> int:
    """The packets of a pcap file (its 24-byte header, then a 16-byte record header and the captured bytes
    per packet), what count_packets_in_pcap counts (pcap_ethdev.c:855-875)."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(24)
            if len(head) < 24:
                raise InputError(f"rx_pcap={path!r}: not a pcap file", param="command")
            magic = struct.unpack("<I", head[:4])[0]
            order = "<" if magic in (0xA1B2C3D4, 0xA1B23C4D) else ">"
            count = 0
            while rec := fh.read(16):
                if len(rec) < 16:
                    break
                caplen = struct.unpack(order + "IIII", rec)[2]
                fh.seek(caplen, 1)
                count += 1
            return count
    except OSError as exc:
        raise InputError(
            f"rx_pcap={path!r}: infinite_rx sizes its ring by the file's packets, and it cannot be read ({exc})",
            param="command",
        ) from None


def first_probe(port: Port, p: Platform) -> Parts:
    """rte_mbuf_dyn_rx_timestamp_register at probe (v22.11.11:drivers/net/pcap/pcap_ethdev.c:1429): the
    rte_mbuf_dyn memzone, then a tailq entry and an element for the field and for the flag
    (v22.11.11:lib/mbuf/rte_mbuf_dyn.c:105-125, 290-300, 464-480); from 26.07 nothing
    (:data:`TIMESTAMP_AT_CONFIGURE_SINCE`)."""
    out = Parts()
    if since(p, TIMESTAMP_AT_CONFIGURE_SINCE):
        return out
    shm = sizes(p).get("mbuf_dyn_shm", MBUF_DYN_SHM)  # struct mbuf_dyn_shm, the same at every release
    out.zones.append(Memzone("rte_mbuf_dyn", memzone_len(shm, p), "mbuf dynamic fields and flags"))
    out.allocations += [
        Allocation("MBUF_DYNFIELD_TAILQ_ENTRY", 24, "mbuf dynfield"),
        Allocation("mbuf_dynfield", MBUF_DYNFIELD_ELT, "mbuf dynfield (rx timestamp)"),
        Allocation("MBUF_DYNFLAG_TAILQ_ENTRY", 24, "mbuf dynflag"),
        Allocation("mbuf_dynflag", MBUF_DYNFLAG_ELT, "mbuf dynflag (rx timestamp)"),
    ]
    return out


def probe(port: Port, p: Platform) -> Parts:
    """pmd_init_internals (v22.11.11:drivers/net/pcap/pcap_ethdev.c:1200-1290): the process private
    (rte_zmalloc(NULL)), the internals (rte_eth_vdev_allocate) and, with phy_mac, the MAC address."""
    for key in port.args:
        if key in DEVARGS_SINCE and not since(p, DEVARGS_SINCE[key]):
            raise InputError(
                f"{port.name}: {key} is a net_pcap argument from DPDK {DEVARGS_SINCE[key]}", param="command"
            )
    out = Parts()
    out.allocations += [
        Allocation("pcap process_private", PMD_PROCESS_PRIVATE, "process_private (pcap handles)"),
        Allocation(port.name, PMD_INTERNALS[p.release.version], "dev_private (struct pmd_internals)"),
    ]
    if port.args.get("phy_mac", "0") not in ("0", ""):
        out.allocations.append(Allocation("pcap mac", 6, "mac address"))
    return out


def infinite(port: Port) -> bool:
    return port.args.get("infinite_rx", "0") == "1" and "rx_pcap" in port.args


def rx_queue_setup(port: Port, queue_id: int, nb_desc: int, q: QueueConf, p: Platform) -> Parts:
    """infinite_rx: the ring PCAP_RING<n> of rte_align64pow2(packets + 1), single producer and consumer
    (v22.11.11:drivers/net/pcap/pcap_ethdev.c:907-913); its mbufs are the application pool's, one a packet.
    ``n`` counts infinite_rx queues in the process; modelled from the port's queue id."""
    out = Parts()
    if infinite(port):
        slots = align64pow2(pcap_packets(port.args["rx_pcap"]) + 1)
        ring, _ = ring_parts(
            f"PCAP_RING{queue_id}", slots, p, flags=SP_ENQ | SC_DEQ, role=f"port {port.port_id} infinite_rx"
        )
        out.extend(ring)
    return out


def tx_queue_setup(port: Port, queue_id: int, nb_desc: int, q: QueueConf, p: Platform) -> Parts:
    """From 26.07 the Tx queue's bounce buffer of the snapshot length (:data:`BOUNCE_SINCE`)."""
    out = Parts()
    if since(p, BOUNCE_SINCE):
        snaplen = int_arg(port, "snaplen", ETH_PCAP_SNAPSHOT_LEN_DEFAULT, RTE_ETHER_HDR_LEN, ETH_PCAP_MAXIMUM_SNAPLEN)
        out.allocations.append(Allocation("pcap bounce_buf", snaplen, f"port {port.port_id} tx queue bounce buffer"))
    return out


def outside_heap(port: Port, q: QueueConf, p: Platform) -> tuple[str, ...]:
    return (
        "libpcap's handles and buffers (libc memory); with infinite_rx the file's packets are mbufs of the "
        "application's pool",
    )


PMD = Pmd(
    name="net_pcap",
    source="drivers/net/pcap",
    aliases=("eth_pcap",),  # RTE_PMD_REGISTER_ALIAS(net_pcap, eth_pcap) (pcap_ethdev.c:1654)
    devargs=DEVARGS,
    provenance=RUN,
    evidence=f"tests/conformance/drivers/ ({VDEV_RUNS}, rx_pcap/tx_pcap, infinite_rx, iface)",
    # dev_info.max_rx_queues = dev->data->nb_rx_queues: the queues its devargs give (pcap_ethdev.c:745)
    max_queues=lambda port, p: (RTE_PMD_PCAP_MAX_QUEUES, RTE_PMD_PCAP_MAX_QUEUES),
    zones=(r"RG_PCAP_RING\d+",),
    first_probe=first_probe,
    probe=probe,
    rx_queue_setup=rx_queue_setup,
    tx_queue_setup=tx_queue_setup,
    outside_heap=outside_heap,
    reserves_before_allocate=True,
)
