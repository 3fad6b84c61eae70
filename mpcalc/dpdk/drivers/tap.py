"""net_tap (drivers/net/tap): a port over a kernel TAP interface.

Proven on real testpmd and l3fwd runs (tests/conformance/test_apps_real.py, test_apps_releases.py).
Pure: stdlib only.
"""

from __future__ import annotations

from mpcalc.dpdk.core.errors import InputError
from mpcalc.dpdk.core.platform import Platform
from mpcalc.dpdk.core.records import Allocation
from mpcalc.dpdk.core.standalone import Parts
from mpcalc.dpdk.drivers.pmd import (
    RTE_ETHER_MAX_JUMBO_FRAME_LEN,
    RTE_ETHER_MAX_VLAN_FRAME_LEN,
    RUN,
    TAP_RX_OFFLOAD,
    TAP_TX_OFFLOAD,
    Pmd,
    Port,
    QueueConf,
    intr_instance,
    rx_segments,
    since,
    sizes,
)
from mpcalc.dpdk.objects.mbuf import MbufSpec, mbuf_pool

IOV_MAX = 1024  # sysconf(_SC_IOV_MAX) on Linux
TAP_MAX_QUEUES = 16  # v22.11:drivers/net/tap/meson.build:9
#: the first release whose net_tap allocates each queue's structure (23e2387b49 "net/tap: allocate queue
#: structures dynamically"): until 25.11 the queues were arrays in struct pmd_internals and rx queues had an
#: iovec array of min(nb_desc, IOV_MAX - 1) + 1
TAP_QUEUES_ALLOCATED_SINCE = "26.07"
TAP_MAX_MAC_ADDRS = 16  # v26.07:drivers/net/tap/rte_eth_tap.c:61
TAP_MAX_RX_SEGS = 128  # v26.07:drivers/net/tap/rte_eth_tap.c:81
#: the first release whose net_tap takes jumbo frames: max_rx_pktlen RTE_ETHER_MAX_JUMBO_FRAME_LEN
#: (v23.11.7:drivers/net/tap/rte_eth_tap.c:1034), RTE_ETHER_MAX_VLAN_FRAME_LEN before (v22.11.11:...:1096)
TAP_JUMBO_SINCE = "23.11"


def _tap_index(port: Port) -> int:
    # the default interface name is dtap%d, the first unused index (v22.11:drivers/net/tap/rte_eth_tap.c:2258)
    return port.port_id


def probe(port: Port, p: Platform) -> Parts:
    """eth_dev_tap_create (v22.11:drivers/net/tap/rte_eth_tap.c:2003-2036)."""
    s = sizes(p)
    out = Parts()
    iface = port.args.get("iface", f"dtap{_tap_index(port)}")
    out.allocations.append(Allocation(port.name, s["tap_internals"], "dev_private"))
    if not since(p, "24.11"):
        # rte_zmalloc_socket(iface name, struct pmd_process_private) up to 23.11; from 24.11 a libc malloc
        # (v24.11.6:drivers/net/tap/rte_eth_tap.c:1928), not on the heap
        out.allocations.append(Allocation(iface, s["tap_process_private"], "process_private"))
    out.allocations += intr_instance(p)
    if since(p, TAP_QUEUES_ALLOCATED_SINCE):
        # data->mac_addrs = rte_calloc_socket(vdev name, TAP_MAX_MAC_ADDRS, sizeof(struct rte_ether_addr))
        # (v26.07:drivers/net/tap/rte_eth_tap.c:61, 2177-2180); up to 25.11 they were in the internals
        out.allocations.append(Allocation(port.name, TAP_MAX_MAC_ADDRS * 6, "mac_addrs"))
    return out


def rx_segs(mtu: int, data_room: int, headroom: int) -> int:
    """max_rx_segs of tap_rx_queue_setup (v26.07:drivers/net/tap/rte_eth_tap.c:1561-1592): the scatter
    segments a packet of MTU + Ethernet header + CRC needs, the first mbuf's headroom reserved.

    >>> rx_segs(1500, 2176, 128), rx_segs(1500, 1024, 128)
    (1, 2)
    """
    if data_room <= headroom:
        raise InputError(
            f"net_tap: an mbuf data room of {data_room} B leaves no room after the headroom "
            "(tap_rx_queue_setup fails: 'mbuf pool has no usable data room')",
            param="command",
        )
    segs = rx_segments(mtu, data_room, headroom)
    if segs > TAP_MAX_RX_SEGS:
        raise InputError(
            f"net_tap: MTU {mtu} needs {segs} scatter segments of {data_room} B, at most "
            f"{TAP_MAX_RX_SEGS} (tap_rx_queue_setup fails)",
            param="command",
        )
    return segs


def configure(port: Port, q: QueueConf, p: Platform) -> Parts:
    """tap_setup_queue -> tap_gso_ctx_setup: once per port, the pool mp_<device> of TAP_GSO_MBUFS_NUM 512,
    cache 4, data room RTE_PKTMBUF_HEADROOM + 128 (v22.11:drivers/net/tap/rte_eth_tap.c:64-68, 1495-1527)."""
    out = Parts()
    mp, errs, _ = mbuf_pool(
        MbufSpec(name=f"mp_{port.name}", count=512, cache_size=4, data_room=p.release.pktmbuf_headroom + 128), p
    )
    if mp is not None:
        out.mempools.append(mp)
    out.errors += errs
    return out


def rx_queue_setup(port: Port, queue_id: int, nb_desc: int, q: QueueConf, p: Platform) -> Parts:
    out = Parts()
    s = sizes(p)
    if since(p, TAP_QUEUES_ALLOCATED_SINCE):
        # from 26.07 each rx queue is one rte_zmalloc_socket(device name, sizeof(struct rx_queue) + (max_rx_segs
        # + 1) iovecs), nb_desc ignored (v26.07:drivers/net/tap/rte_eth_tap.c:1602-1604)
        segs = rx_segs(q.mtu, q.rx_data_room, p.release.pktmbuf_headroom)
        out.allocations.append(
            Allocation(
                port.name,
                s["tap_rx_queue"] + (segs + 1) * s["iovec"],
                f"port {port.port_id} rx queue ({segs} segment iovecs + tun_pi)",
            )
        )
    else:
        # tap_rx_queue_setup: iovecs of min(nb_desc, IOV_MAX - 1) + 1, IOV_MAX 1024 on Linux
        # (v22.11:drivers/net/tap/rte_eth_tap.c:1619-1628, 1646)
        rxd = min(nb_desc, IOV_MAX - 1)
        out.allocations.append(Allocation(port.name, (rxd + 1) * s["iovec"], f"port {port.port_id} rx iovecs"))
    return out


def tx_queue_setup(port: Port, queue_id: int, nb_desc: int, q: QueueConf, p: Platform) -> Parts:
    out = Parts()
    if since(p, TAP_QUEUES_ALLOCATED_SINCE):
        # one rte_zmalloc_socket(device name, sizeof(struct tx_queue)) (v26.07:drivers/net/tap/rte_eth_tap.c:1681-1682)
        out.allocations.append(Allocation(port.name, sizes(p)["tap_tx_queue"], f"port {port.port_id} tx queue"))
    return out


def start(port: Port, q: QueueConf, p: Platform) -> Parts:
    """rte_eth_dev_start -> tap_intr_handle_set -> rte_intr_callback_register duplicates the shared handle
    when the application asks for link-state interrupts (v22.11:drivers/net/tap/rte_eth_tap.c:1781-1799;
    lib/eal/linux/eal_interrupts.c:534)."""
    out = Parts()
    if q.lsc_interrupt:
        out.allocations += intr_instance(p)
    return out


def max_rx_pktlen(port: Port, p: Platform) -> int:
    return RTE_ETHER_MAX_JUMBO_FRAME_LEN if since(p, TAP_JUMBO_SINCE) else RTE_ETHER_MAX_VLAN_FRAME_LEN


def refusal(port: Port, q: QueueConf, p: Platform) -> str | None:
    """tap_dev_configure wants as many Rx as Tx queues (v22.11.11:drivers/net/tap/rte_eth_tap.c:1037-1044)."""
    if q.nb_rxq != q.nb_txq:
        return (
            f"{port.name}: number of rx queues {q.nb_rxq} must be equal to number of tx queues {q.nb_txq} "
            "(tap_dev_configure, drivers/net/tap/rte_eth_tap.c:1037-1044)"
        )
    return None


PMD = Pmd(
    name="net_tap",
    source="drivers/net/tap",
    aliases=("eth_tap",),  # RTE_PMD_REGISTER_ALIAS(net_tap, eth_tap) (v22.11.11:drivers/net/tap/rte_eth_tap.c:2654)
    devargs=frozenset({"iface", "mac", "remote", "persist"}),
    provenance=RUN,
    evidence="tests/conformance/test_apps_real.py, test_apps_releases.py (every release)",
    max_queues=lambda port, p: (TAP_MAX_QUEUES, TAP_MAX_QUEUES),
    default_ring_size=lambda port, p: (0, 0),
    probe=probe,
    configure=configure,
    rx_queue_setup=rx_queue_setup,
    tx_queue_setup=tx_queue_setup,
    start=start,
    # TAP_RX_OFFLOAD and TAP_TX_OFFLOAD (v22.11.11:drivers/net/tap/rte_eth_tap.c:1100-1104)
    offload_capa=lambda port, p: (TAP_RX_OFFLOAD, TAP_TX_OFFLOAD),
    max_rx_pktlen=max_rx_pktlen,
    refusal=refusal,
    classifies_ptypes=True,
)
