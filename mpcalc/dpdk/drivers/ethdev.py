"""ethdev and its vdev drivers: what ports take, from probe to started queues.

For every application that opens ports (testpmd, l3fwd, OVS, ...): :func:`vdev_ports` turns EAL's
``--vdev`` list into :class:`Port` s, :func:`probe` gives what probing one reserves, :func:`configure`
what ``rte_eth_dev_configure`` and the queue set-ups add, and :func:`callbacks` what
``rte_eth_dev_callback_register(RTE_ETH_ALL, ...)`` costs.  The drivers modelled are the ones a machine
without NICs runs: ``net_null``, ``net_ring`` and ``net_tap``; another is refused by name.

Struct sizes are ``sizeof`` on the release's x86_64 build, measured per release (:mod:`.releases`);
proven allocation by allocation against the real programs (tests/conformance/test_apps_real.py).

Pure: stdlib only.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from mpcalc.dpdk.core.errors import InputError
from mpcalc.dpdk.core.platform import Platform
from mpcalc.dpdk.core.records import Allocation, Mempool
from mpcalc.dpdk.core.standalone import Parts
from mpcalc.dpdk.core.struct_sizes import since, sizes
from mpcalc.dpdk.objects.mbuf import MbufSpec, mbuf_pool
from mpcalc.dpdk.objects.ring import ring_parts

RTE_MAX_ETHPORTS = 32  # v22.11:config/rte_config.h:77
RTE_MAX_QUEUES_PER_PORT = 1024  # v22.11:config/rte_config.h:78
RTE_ETH_EVENT_MAX = 15  # v22.11:lib/ethdev/rte_ethdev.h:3878-3957 (enum rte_eth_event_type); per release: releases.py
RTE_MAX_RXTX_INTR_VEC_ID = 512  # v22.11:lib/eal/include/rte_eal_interrupts.h:23 (RTE_MAX_RXTX_INTR_VEC_ID)
#: the descriptors ethdev uses when asked for 0 and the driver has no preference
#: (RTE_ETH_DEV_FALLBACK_RX_RINGSIZE / _TX_, v22.11:lib/ethdev/rte_ethdev.h:1788-1791)
FALLBACK_RING_SIZE = 512
IOV_MAX = 1024  # sysconf(_SC_IOV_MAX) on Linux

DRIVERS = ("net_null", "net_ring", "net_tap")


@dataclass
class Port:
    """One ethdev port from a ``--vdev`` (port ids in probe order, which is --vdev order)."""

    port_id: int
    name: str
    driver: str
    args: dict[str, str] = field(default_factory=dict)

    @property
    def max_queues(self) -> int:
        """dev_info.max_rx_queues: null's RTE_MAX_QUEUES_PER_PORT, ring's RTE_PMD_RING_MAX_RX_RINGS 16,
        tap's TAP_MAX_QUEUES 16 (v22.11:drivers/net/tap/meson.build:9)."""
        return {"net_null": RTE_MAX_QUEUES_PER_PORT, "net_ring": 16, "net_tap": 16}[self.driver]

    def to_dict(self) -> dict[str, object]:
        return {"port_id": self.port_id, "name": self.name, "driver": self.driver, "args": dict(self.args)}


def vdev_ports(vdevs: list[str]) -> list[Port]:
    """``--vdev net_tap0,iface=x``: the driver is the name without its trailing instance digits
    (vdev_probe_all_drivers matches by prefix, v22.11:drivers/bus/vdev/vdev.c:111-131)."""
    ports = []
    for i, spec in enumerate(vdevs):
        name, *kv = spec.split(",")
        driver = re.sub(r"\d+$", "", name)
        if driver.startswith("eth_"):
            driver = "net_" + driver[4:]  # the drivers' old names are aliases (RTE_PMD_REGISTER_ALIAS)
        if driver not in DRIVERS:
            raise InputError(
                f"--vdev {spec!r}: the {driver} driver is not modelled (known: {', '.join(DRIVERS)})", param="command"
            )
        args = dict(a.partition("=")[::2] for a in kv if a)
        known = {
            "net_null": {"size", "copy", "no-rx"},
            "net_ring": set(),
            "net_tap": {"iface", "mac", "remote", "persist"},
        }[driver]
        for k in args:
            if k not in known:
                raise InputError(f"--vdev {spec!r}: {driver} argument {k!r} is not modelled", param="command")
        ports.append(Port(i, name, driver, args))
    return ports


def intr_instance(p: Platform) -> list[Allocation]:
    """rte_intr_instance_alloc(RTE_INTR_INSTANCE_F_SHARED): the handle, its efds and elist in rte memory
    (v22.11:lib/eal/common/eal_common_interrupts.c:46-78)."""
    s = sizes(p)
    return [
        Allocation("intr_handle", s["intr_handle"], "interrupt"),
        Allocation("intr_handle efds", RTE_MAX_RXTX_INTR_VEC_ID * 4, "interrupt"),
        Allocation("intr_handle elist", RTE_MAX_RXTX_INTR_VEC_ID * s["epoll_event"], "interrupt"),
    ]


def probe(port: Port, p: Platform, first: bool) -> Parts:
    """What probing a vdev port reserves; the first port's rte_eth_dev_allocate reserves the
    ``rte_eth_dev_data`` memzone for all RTE_MAX_ETHPORTS (eth_dev_shared_data_prepare,
    v22.11:lib/ethdev/ethdev_private.c:323-336)."""
    from mpcalc.dpdk.core.heap import memzone_len
    from mpcalc.dpdk.core.records import Memzone

    s = sizes(p)
    out = Parts()
    shared = Memzone("rte_eth_dev_data", memzone_len(s["eth_dev_data_shared"], p), "ethdev")
    if port.driver == "net_ring":
        # eth_dev_ring_create: 16 rings of 1024 named ETH_RXTX<i>_<name> (v22.11:drivers/net/ring/
        # rte_eth_ring.c:517-549), then do_eth_dev_ring_create: two queue arrays and the internals (:369-388)
        for i in range(16):
            ring, _ = ring_parts(f"ETH_RXTX{i}_{port.name}", 1024, p, role=f"port {port.port_id} ring")
            out.extend(ring)
        out.allocations += [
            Allocation(port.name, 16 * 8, "rx queue array"),
            Allocation(port.name, 16 * 8, "tx queue array"),
            Allocation(port.name, s["ring_internals"], "dev_private"),
        ]
        if first:
            out.zones.append(shared)
        return out
    if first:
        out.zones.append(shared)
    if port.driver == "net_null":
        # rte_eth_vdev_allocate(dev, sizeof(*internals)) (v22.11:drivers/net/null/rte_eth_null.c:548;
        # lib/ethdev/ethdev_vdev.h:43-45)
        out.allocations.append(Allocation(port.name, s["null_internals"], "dev_private"))
    else:  # net_tap: eth_dev_tap_create (v22.11:drivers/net/tap/rte_eth_tap.c:2003-2036)
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


#: the first release whose net_tap allocates each queue's structure (23e2387b49 "net/tap: allocate queue
#: structures dynamically"): until 25.11 the queues were arrays in struct pmd_internals and rx queues had an
#: iovec array of min(nb_desc, IOV_MAX - 1) + 1
TAP_QUEUES_ALLOCATED_SINCE = "26.07"
TAP_MAX_MAC_ADDRS = 16  # v26.07:drivers/net/tap/rte_eth_tap.c:61
TAP_MAX_RX_SEGS = 128  # v26.07:drivers/net/tap/rte_eth_tap.c:81
RTE_ETHER_HDR_LEN = 14  # v26.07:lib/net/rte_ether.h
RTE_ETHER_CRC_LEN = 4
RTE_ETHER_MTU = 1500  # what rte_eth_dev_configure sets when the application gives no MTU


def mtu_of(max_pkt_len: int) -> int:
    """The MTU an application's --max-pkt-len gives a port whose driver sets no max_mtu (net_tap, net_null,
    net_ring: dev_info.max_mtu stays UINT16_MAX): max_pkt_len - (RTE_ETHER_HDR_LEN + RTE_ETHER_CRC_LEN)
    (testpmd's get_eth_overhead, v26.07:app/test-pmd/testpmd.c:1660-1671, 1703-1705; l3fwd's
    eth_dev_get_overhead_len, v26.07:examples/l3fwd/main.c:1297-1323); without it RTE_ETHER_MTU.

    >>> mtu_of(0), mtu_of(9000)
    (1500, 8982)
    """
    return max_pkt_len - RTE_ETHER_HDR_LEN - RTE_ETHER_CRC_LEN if max_pkt_len else RTE_ETHER_MTU


def tap_rx_segs(mtu: int, data_room: int, headroom: int) -> int:
    """max_rx_segs of tap_rx_queue_setup (v26.07:drivers/net/tap/rte_eth_tap.c:1561-1592): the scatter
    segments a packet of MTU + Ethernet header + CRC needs, the first mbuf's headroom reserved.

    >>> tap_rx_segs(1500, 2176, 128), tap_rx_segs(1500, 1024, 128)
    (1, 2)
    """
    if data_room <= headroom:
        raise InputError(
            f"net_tap: an mbuf data room of {data_room} B leaves no room after the headroom "
            "(tap_rx_queue_setup fails: 'mbuf pool has no usable data room')",
            param="command",
        )
    max_rx_pktlen = mtu + RTE_ETHER_HDR_LEN + RTE_ETHER_CRC_LEN
    first = data_room - headroom
    segs = 1 + (max_rx_pktlen - first + data_room - 1) // data_room if max_rx_pktlen > first else 1
    if segs > TAP_MAX_RX_SEGS:
        raise InputError(
            f"net_tap: MTU {mtu} needs {segs} scatter segments of {data_room} B, at most "
            f"{TAP_MAX_RX_SEGS} (tap_rx_queue_setup fails)",
            param="command",
        )
    return segs


#: the offload bits (v22.11.11:lib/ethdev/rte_ethdev.h:1495-1561): Rx, then Tx
RX_OFFLOAD_VLAN_STRIP = 1 << 0
RX_OFFLOAD_IPV4_CKSUM = 1 << 1
RX_OFFLOAD_UDP_CKSUM = 1 << 2
RX_OFFLOAD_TCP_CKSUM = 1 << 3
RX_OFFLOAD_TCP_LRO = 1 << 4
RX_OFFLOAD_QINQ_STRIP = 1 << 5
RX_OFFLOAD_VLAN_FILTER = 1 << 9
RX_OFFLOAD_VLAN_EXTEND = 1 << 10
RX_OFFLOAD_SCATTER = 1 << 13
RX_OFFLOAD_TIMESTAMP = 1 << 14
RX_OFFLOAD_KEEP_CRC = 1 << 16
RX_OFFLOAD_CHECKSUM = RX_OFFLOAD_IPV4_CKSUM | RX_OFFLOAD_UDP_CKSUM | RX_OFFLOAD_TCP_CKSUM
RX_OFFLOAD_VLAN = RX_OFFLOAD_VLAN_STRIP | RX_OFFLOAD_VLAN_FILTER | RX_OFFLOAD_VLAN_EXTEND
TX_OFFLOAD_IPV4_CKSUM = 1 << 1
TX_OFFLOAD_UDP_CKSUM = 1 << 2
TX_OFFLOAD_TCP_CKSUM = 1 << 3
TX_OFFLOAD_TCP_TSO = 1 << 5
TX_OFFLOAD_MT_LOCKFREE = 1 << 14
TX_OFFLOAD_MULTI_SEGS = 1 << 15
TX_OFFLOAD_MBUF_FAST_FREE = 1 << 16
#: TAP_RX_OFFLOAD / TAP_TX_OFFLOAD (v22.11.11:drivers/net/tap/rte_eth_tap.c:76-86, the same to v26.07)
TAP_RX_OFFLOAD = RX_OFFLOAD_SCATTER | RX_OFFLOAD_CHECKSUM
TAP_TX_OFFLOAD = (
    TX_OFFLOAD_MULTI_SEGS | TX_OFFLOAD_IPV4_CKSUM | TX_OFFLOAD_UDP_CKSUM | TX_OFFLOAD_TCP_CKSUM | TX_OFFLOAD_TCP_TSO
)
#: rte_eth_dev_info_get's min_mtu, RTE_ETHER_MIN_LEN - RTE_ETHER_HDR_LEN - RTE_ETHER_CRC_LEN, and max_mtu
#: UINT16_MAX, which none of these drivers changes (v22.11.11:lib/ethdev/rte_ethdev.c:3352-3355)
DEV_MIN_MTU = 64 - 14 - 4
RTE_ETHER_MAX_VLAN_FRAME_LEN = 1522
RTE_ETHER_MAX_JUMBO_FRAME_LEN = 0x3F00
#: the first release whose net_tap takes jumbo frames: max_rx_pktlen RTE_ETHER_MAX_JUMBO_FRAME_LEN
#: (v23.11.7:drivers/net/tap/rte_eth_tap.c:1034), RTE_ETHER_MAX_VLAN_FRAME_LEN before (v22.11.11:...:1096)
TAP_JUMBO_SINCE = "23.11"


def offload_capa(port: Port, p: Platform) -> tuple[int, int]:
    """dev_info's rx_offload_capa and tx_offload_capa: net_null offers none up to 24.11, Tx MULTI_SEGS |
    MT_LOCKFREE from 25.11 (v22.11.11:drivers/net/null/rte_eth_null.c:298-314, v25.11.2:...:308-312); net_ring
    Rx SCATTER and Tx MULTI_SEGS (v22.11.11:drivers/net/ring/rte_eth_ring.c:183-184); net_tap TAP_RX_OFFLOAD
    and TAP_TX_OFFLOAD (v22.11.11:drivers/net/tap/rte_eth_tap.c:1100-1104)."""
    if port.driver == "net_null":
        return 0, (TX_OFFLOAD_MULTI_SEGS | TX_OFFLOAD_MT_LOCKFREE) if since(p, "25.11") else 0
    if port.driver == "net_ring":
        return RX_OFFLOAD_SCATTER, TX_OFFLOAD_MULTI_SEGS
    return TAP_RX_OFFLOAD, TAP_TX_OFFLOAD


def max_rx_pktlen(port: Port, p: Platform) -> int:
    """dev_info.max_rx_pktlen: UINT32_MAX for net_null and net_ring (rte_eth_null.c:309, rte_eth_ring.c:181),
    net_tap's per :data:`TAP_JUMBO_SINCE`."""
    if port.driver != "net_tap":
        return (1 << 32) - 1
    return RTE_ETHER_MAX_JUMBO_FRAME_LEN if since(p, TAP_JUMBO_SINCE) else RTE_ETHER_MAX_VLAN_FRAME_LEN


def configure_refusal(port: Port, q: QueueConf, p: Platform, rx_offloads: int = 0, tx_offloads: int = 0) -> str | None:
    """Why ``rte_eth_dev_configure`` fails for this port, in ethdev's (or the driver's) own log line, or None.

    In its order (v22.11.11:lib/ethdev/rte_ethdev.c:1202-1256, 1307-1312): the MTU against dev_info's min_mtu
    and max_rx_pktlen (eth_dev_validate_mtu, :1041-1078: the frame is the MTU + RTE_ETHER_HDR_LEN +
    RTE_ETHER_CRC_LEN, none of these drivers setting max_mtu), the Rx then the Tx offloads against the
    driver's capabilities, then the driver's dev_configure: tap_dev_configure wants as many Rx as Tx queues
    (v22.11.11:drivers/net/tap/rte_eth_tap.c:1037-1044).  A failed configure frees what it allocated (its
    rollback, rte_ethdev.c:1310-1312): the port takes no queue memory."""
    pid = port.port_id
    if q.mtu < DEV_MIN_MTU:
        return f"MTU ({q.mtu}) < device min MTU ({DEV_MIN_MTU}) for port_id {pid} (rte_ethdev.c:1046-1051)"
    frame, limit = q.mtu + RTE_ETHER_HDR_LEN + RTE_ETHER_CRC_LEN, max_rx_pktlen(port, p)
    if frame > limit:
        return f"Frame size ({frame}) > device max frame size ({limit}) for port_id {pid} (rte_ethdev.c:1070-1075)"
    rx_capa, tx_capa = offload_capa(port, p)
    if rx_offloads & rx_capa != rx_offloads:
        return (
            f"Ethdev port_id={pid} requested Rx offloads {rx_offloads:#x} doesn't match Rx offloads capabilities "
            f"{rx_capa:#x} in rte_eth_dev_configure() (rte_ethdev.c:1236-1246)"
        )
    if tx_offloads & tx_capa != tx_offloads:
        return (
            f"Ethdev port_id={pid} requested Tx offloads {tx_offloads:#x} doesn't match Tx offloads capabilities "
            f"{tx_capa:#x} in rte_eth_dev_configure() (rte_ethdev.c:1247-1256)"
        )
    if port.driver == "net_tap" and q.nb_rxq != q.nb_txq:
        return (
            f"{port.name}: number of rx queues {q.nb_rxq} must be equal to number of tx queues {q.nb_txq} "
            "(tap_dev_configure, drivers/net/tap/rte_eth_tap.c:1037-1044)"
        )
    return None


def _tap_index(port: Port) -> int:
    # the default interface name is dtap%d, the first unused index (v22.11:drivers/net/tap/rte_eth_tap.c:2258)
    return port.port_id


@dataclass
class QueueConf:
    """How an application configures a port's queues."""

    nb_rxq: int
    nb_txq: int
    nb_rxd: int  # 0: the driver's default
    nb_txd: int
    lsc_interrupt: bool
    #: the data room of the rx queues' mbuf pool, and the port's MTU (net_tap's rx queue at 26.07)
    rx_data_room: int = 2176
    mtu: int = RTE_ETHER_MTU


def configure(port: Port, q: QueueConf, p: Platform) -> tuple[Parts, list[Mempool]]:
    """rte_eth_dev_configure, the rx/tx queue set-ups and rte_eth_dev_start of one port."""
    s = sizes(p)
    out = Parts()
    pools: list[Mempool] = []
    if q.nb_rxq > port.max_queues or q.nb_txq > port.max_queues:
        raise InputError(
            f"{port.name}: {max(q.nb_rxq, q.nb_txq)} queues, but {port.driver} has at most "
            f"{port.max_queues} (rte_eth_dev_configure refuses it)",
            param="command",
        )
    if port.driver != "net_ring":
        # eth_dev_rx_queue_config / eth_dev_tx_queue_config: a pointer per RTE_MAX_QUEUES_PER_PORT
        # (v22.11:lib/ethdev/rte_ethdev.c:383-386, 413-416); net_ring brings its own arrays
        out.allocations += [
            Allocation("ethdev->rx_queues", RTE_MAX_QUEUES_PER_PORT * 8, "ethdev"),
            Allocation("ethdev->tx_queues", RTE_MAX_QUEUES_PER_PORT * 8, "ethdev"),
        ]
    if port.driver == "net_null":
        # eth_rx_queue_setup / eth_tx_queue_setup: a dummy packet of packet_size each
        # (v22.11:drivers/net/null/rte_eth_null.c:248-249, 281-282; default_packet_size 64, :21)
        size = int(port.args.get("size", "64"))
        out.allocations += [
            Allocation("null dummy_packet", size, f"port {port.port_id} queue") for _ in range(q.nb_rxq + q.nb_txq)
        ]
    elif port.driver == "net_tap":
        # tap_rx_queue_setup: iovecs of min(nb_desc, IOV_MAX - 1) + 1, IOV_MAX 1024 on Linux
        # (v22.11:drivers/net/tap/rte_eth_tap.c:1619-1628, 1646)
        if since(p, TAP_QUEUES_ALLOCATED_SINCE):
            # from 26.07 each rx queue is one rte_zmalloc_socket(device name, sizeof(struct rx_queue) + (max_rx_segs
            # + 1) iovecs), nb_desc ignored, and each tx queue one of struct tx_queue
            # (v26.07:drivers/net/tap/rte_eth_tap.c:1602-1604, 1681-1682)
            segs = tap_rx_segs(q.mtu, q.rx_data_room, p.release.pktmbuf_headroom)
            out.allocations += [
                Allocation(
                    port.name,
                    s["tap_rx_queue"] + (segs + 1) * s["iovec"],
                    f"port {port.port_id} rx queue ({segs} segment iovecs + tun_pi)",
                )
                for _ in range(q.nb_rxq)
            ]
            out.allocations += [
                Allocation(port.name, s["tap_tx_queue"], f"port {port.port_id} tx queue") for _ in range(q.nb_txq)
            ]
        else:
            rxd = min(q.nb_rxd or FALLBACK_RING_SIZE, IOV_MAX - 1)
            out.allocations += [
                Allocation(port.name, (rxd + 1) * s["iovec"], f"port {port.port_id} rx iovecs") for _ in range(q.nb_rxq)
            ]
        # tap_setup_queue -> tap_gso_ctx_setup: once per port, the pool mp_<device> of TAP_GSO_MBUFS_NUM 512,
        # cache 4, data room RTE_PKTMBUF_HEADROOM + 128 (v22.11:drivers/net/tap/rte_eth_tap.c:64-68, 1495-1527)
        mp, errs, _ = mbuf_pool(
            MbufSpec(name=f"mp_{port.name}", count=512, cache_size=4, data_room=p.release.pktmbuf_headroom + 128), p
        )
        if mp is not None:
            pools.append(mp)
        out.errors += errs
        if q.lsc_interrupt:
            # rte_eth_dev_start -> tap_intr_handle_set -> rte_intr_callback_register duplicates the shared
            # handle (v22.11:drivers/net/tap/rte_eth_tap.c:1781-1799; lib/eal/linux/eal_interrupts.c:534)
            out.allocations += intr_instance(p)
    return out, pools


def callbacks(p: Platform) -> list[Allocation]:
    """``rte_eth_dev_callback_register(RTE_ETH_ALL, event, ...)`` for every event: one callback per port id
    up to RTE_MAX_ETHPORTS and event (v22.11:lib/ethdev/rte_ethdev.c:4784-4822)."""
    from mpcalc.dpdk.core.struct_sizes import eth_event_max

    size = sizes(p)["eth_dev_callback"]
    return [Allocation("INTR_USER_CALLBACK", size, "ethdev event callback")] * (RTE_MAX_ETHPORTS * eth_event_max(p))
