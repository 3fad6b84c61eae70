"""ethdev: what ports take, from probe to started queues, for every driver of the registry.

For every application that opens ports (testpmd, l3fwd, OVS, ...): :func:`vdev_ports` turns EAL's
``--vdev`` list into :class:`Port` s, :func:`probe` gives what probing one reserves, :func:`configure`
what ``rte_eth_dev_configure``, the queue set-ups and ``rte_eth_dev_start`` add, and :func:`callbacks` what
``rte_eth_dev_callback_register(RTE_ETH_ALL, ...)`` costs.  ethdev's own part is here (the
``rte_eth_dev_data`` memzone, the queue pointer arrays, the checks ``rte_eth_dev_configure`` and
``rte_eth_rx_queue_setup`` make); each driver's part is its :class:`~.pmd.Pmd` (``drivers/<driver>.py``),
found by name in the registry (:mod:`mpcalc.dpdk.drivers`); a driver it lacks is refused by name.

Struct sizes are ``sizeof`` on the release's x86_64 build, measured per release (:mod:`mpcalc.dpdk.core.struct_sizes`);
proven allocation by allocation against the real programs (tests/conformance/test_apps_real.py).

Pure: stdlib only.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from mpcalc.dpdk.core.errors import InputError
from mpcalc.dpdk.core.platform import Platform
from mpcalc.dpdk.core.records import Allocation, Mempool
from mpcalc.dpdk.core.standalone import Parts
from mpcalc.dpdk.drivers import find, get, names
from mpcalc.dpdk.drivers.pmd import (  # ethdev's names, used by the applications as ethdev.X (__all__)
    DEV_MIN_MTU,
    FALLBACK_RING_SIZE,
    NOT_RUN,
    RTE_ETHER_CRC_LEN,
    RTE_ETHER_HDR_LEN,
    RTE_ETHER_MAX_JUMBO_FRAME_LEN,
    RTE_ETHER_MAX_VLAN_FRAME_LEN,
    RTE_ETHER_MTU,
    RTE_MAX_ETHPORTS,
    RTE_MAX_QUEUES_PER_PORT,
    RTE_MAX_RXTX_INTR_VEC_ID,
    RUN,
    RX_OFFLOAD_CHECKSUM,
    RX_OFFLOAD_IPV4_CKSUM,
    RX_OFFLOAD_KEEP_CRC,
    RX_OFFLOAD_QINQ_STRIP,
    RX_OFFLOAD_SCATTER,
    RX_OFFLOAD_TCP_CKSUM,
    RX_OFFLOAD_TCP_LRO,
    RX_OFFLOAD_TIMESTAMP,
    RX_OFFLOAD_UDP_CKSUM,
    RX_OFFLOAD_VLAN,
    RX_OFFLOAD_VLAN_EXTEND,
    RX_OFFLOAD_VLAN_FILTER,
    RX_OFFLOAD_VLAN_STRIP,
    TX_OFFLOAD_IPV4_CKSUM,
    TX_OFFLOAD_MBUF_FAST_FREE,
    TX_OFFLOAD_MT_LOCKFREE,
    TX_OFFLOAD_MULTI_SEGS,
    TX_OFFLOAD_TCP_CKSUM,
    TX_OFFLOAD_TCP_TSO,
    TX_OFFLOAD_UDP_CKSUM,
    Port,
    Process,
    QueueConf,
    intr_instance,
    parse_devargs,
    ring_size,
    sizes,
)

RTE_ETH_EVENT_MAX = 15  # v22.11:lib/ethdev/rte_ethdev.h:3878-3957 (enum rte_eth_event_type); per release: struct_sizes


def vdev_driver(name: str) -> str:
    """The driver a ``--vdev`` device name binds to: vdev_probe_all_drivers takes the first driver whose name
    or alias is a prefix of the device name (v22.11:drivers/bus/vdev/vdev.c:111-131); of the modelled ones
    the longest such prefix, by its DPDK name.  A name none matches gives the name without its instance
    digits, the drivers' old ``eth_`` names read as ``net_`` (the name refused)."""
    best = None
    for driver in names("vdev"):
        pmd = find(driver)
        assert pmd is not None
        for key in (pmd.name, *pmd.aliases):
            if name.startswith(key) and (best is None or len(key) > best[0]):
                best = (len(key), pmd.name)
    if best is not None:
        return best[1]
    driver = re.sub(r"\d+$", "", name)
    return "net_" + driver[4:] if driver.startswith("eth_") else driver


def eal_ports(e: object, p: Platform | None, unprobed: list[str] | None = None) -> list[Port]:
    """The ports EAL probes for an application's EAL options: the PCI devices first, in address order (the
    ``-a`` list; without one and without --no-pci, the devices ``--devbind`` shows bound to DPDK less those of
    ``-b``), each bound to its driver by ``--nic``/``--devbind`` (:mod:`.naming`), then the ``--vdev`` devices in
    their order
    (rte_bus_probe probes the vdev bus last, v22.11.11:lib/eal/common/eal_common_bus.c:70-90); their devargs
    held to what their drivers do with them at ``p``'s release. ``unprobed``: see :func:`.naming.pci_ports`."""
    from mpcalc.dpdk.drivers.naming import pci_addr, pci_ports, probed_by_devbind

    allowed: list[str] = list(getattr(e, "pci_allowed", []))
    devbind = getattr(e, "devbind", None)
    no_pci = bool(getattr(e, "no_pci", False))
    if not allowed and not no_pci and devbind:
        blocked = {pci_addr(parse_devargs(b)[0]) for b in getattr(e, "pci_blocked", [])}
        allowed = [a for a in probed_by_devbind(devbind) if a not in blocked]
    pci = [] if no_pci else pci_ports(allowed, dict(getattr(e, "pci_bindings", {}) or {}), p, unprobed=unprobed)
    ports = pci + vdev_ports(list(getattr(e, "vdevs", [])), first_id=len(pci), before=pci)
    process = Process(tuple(ports))  # one process: what its ports' drivers number process-wide
    for port in ports:
        port.process = process
    return ports


def probed_ports(e: object, p: Platform | None, app: str, notes: list[str], need_one: bool = True) -> list[Port]:
    """:func:`eal_ports` for an application that, like EAL, goes on without a device whose probe failed on its
    devargs: each such device's line goes to ``notes``. When no port is left and the application needs one
    (``need_one``), the first such line is the refusal."""
    unprobed: list[str] = []
    ports = eal_ports(e, p, unprobed)
    if unprobed and not ports and need_one:
        raise InputError(unprobed[0], param="command")
    notes += [f"{line}; {app} goes on without it" for line in unprobed]
    return ports


def vdev_ports(vdevs: list[str], first_id: int = 0, before: list[Port] | None = None) -> list[Port]:
    """``--vdev net_tap0,iface=x``: one port per device, in --vdev order (the bus probes in that order),
    refused when the driver or one of its arguments is not modelled; ids from ``first_id`` (after the PCI
    ports, ``before``, which a bond may also name)."""
    ports: list[Port] = []
    for i, spec in enumerate(vdevs, first_id):
        name, pairs = parse_devargs(spec)
        driver = vdev_driver(name)
        pmd = find(driver)
        if pmd is None or pmd.bus != "vdev":
            raise InputError(
                f"--vdev {spec!r}: the {driver} driver is not modelled (known: {', '.join(names('vdev'))})",
                param="command",
            )
        for k, _ in pairs:
            if k not in pmd.devargs:
                raise InputError(f"--vdev {spec!r}: {driver} argument {k!r} is not modelled", param="command")
        by_name = {pt.name: pt for pt in (*(before or ()), *ports)}
        members = []
        for k, v in pairs:
            if k in pmd.member_keys:
                if v not in by_name:
                    raise InputError(
                        f"--vdev {spec!r}: {k}={v} names no port probed before it (give its --vdev first)",
                        param="command",
                    )
                members.append(by_name[v])
        ports.append(Port(i, name, pmd.name, dict(pairs), pairs, tuple(members)))
    return ports


def probe_ports(ports: list[Port], p: Platform) -> Parts:
    """rte_eal_init -> rte_bus_probe: every port in probe order (:func:`probe`)."""
    out = Parts()
    seen: set[str] = set()
    for port in ports:
        out.extend(probe(port, p, first=port.port_id == 0, first_of_driver=port.driver not in seen))
        seen.add(port.driver)
    return out


def probe(port: Port, p: Platform, first: bool, first_of_driver: bool = True) -> Parts:
    """What probing a port reserves: its driver's probe, and for the first port rte_eth_dev_allocate's
    ``rte_eth_dev_data`` memzone for all RTE_MAX_ETHPORTS (eth_dev_shared_data_prepare,
    v22.11:lib/ethdev/ethdev_private.c:323-336), before the driver's allocations or, for a driver that
    reserves before allocating its port (net_ring's rings), after them."""
    from mpcalc.dpdk.core.heap import memzone_len
    from mpcalc.dpdk.core.records import Memzone

    pmd = get(port.driver)
    out = Parts()
    shared = Memzone("rte_eth_dev_data", memzone_len(sizes(p)["eth_dev_data_shared"], p), "ethdev")
    if first and not pmd.reserves_before_allocate:
        out.zones.append(shared)
    if first_of_driver:
        out.extend(pmd.first_probe(port, p))
    out.extend(pmd.probe(port, p))
    if first and pmd.reserves_before_allocate:
        out.zones.append(shared)
    return out


def mtu_of(max_pkt_len: int) -> int:
    """The MTU an application's --max-pkt-len gives a port whose driver sets no max_mtu (net_tap, net_null,
    net_ring: dev_info.max_mtu stays UINT16_MAX): max_pkt_len - (RTE_ETHER_HDR_LEN + RTE_ETHER_CRC_LEN)
    (testpmd's get_eth_overhead, v26.07:app/test-pmd/testpmd.c:1660-1671, 1703-1705; l3fwd's
    eth_dev_get_overhead_len, v26.07:examples/l3fwd/main.c:1297-1323); without it RTE_ETHER_MTU.

    >>> mtu_of(0), mtu_of(9000)
    (1500, 8982)
    """
    return max_pkt_len - RTE_ETHER_HDR_LEN - RTE_ETHER_CRC_LEN if max_pkt_len else RTE_ETHER_MTU


def offload_capa(port: Port, p: Platform) -> tuple[int, int]:
    """dev_info's rx_offload_capa and tx_offload_capa: the driver's."""
    return get(port.driver).offload_capa(port, p)


def max_rx_pktlen(port: Port, p: Platform) -> int:
    """dev_info.max_rx_pktlen: the driver's."""
    return get(port.driver).max_rx_pktlen(port, p)


def configure_refusal(port: Port, q: QueueConf, p: Platform, rx_offloads: int = 0, tx_offloads: int = 0) -> str | None:
    """Why ``rte_eth_dev_configure`` fails for this port, in ethdev's (or the driver's) own log line, or None.

    In its order (v22.11.11:lib/ethdev/rte_ethdev.c:1202-1256, 1307-1312): the MTU against dev_info's min_mtu
    and max_rx_pktlen (eth_dev_validate_mtu, :1041-1078: the frame is the MTU + RTE_ETHER_HDR_LEN +
    RTE_ETHER_CRC_LEN, none of these drivers setting max_mtu), the Rx then the Tx offloads against the
    driver's capabilities, then the driver's dev_configure (:attr:`Pmd.refusal`; tap_dev_configure wants as
    many Rx as Tx queues).  A failed configure frees what it allocated (its rollback, rte_ethdev.c:1310-1312):
    the port takes no queue memory."""
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
    return get(port.driver).refusal(port, q, p)


def descriptors(port: Port, q: QueueConf, p: Platform) -> tuple[int, int]:
    """The Rx and Tx descriptor counts the queue set-ups hand the driver: the application's, else the
    driver's default_rxportconf/default_txportconf ring_size, else RTE_ETH_DEV_FALLBACK_RX_RINGSIZE 512;
    refused outside the driver's rx_desc_lim/tx_desc_lim with ethdev's own text
    (v22.11.11:lib/ethdev/rte_ethdev.c:1962-1980, 2190-2208; v26.07:lib/ethdev/rte_ethdev.c:2400-2420,
    2656-2676)."""
    refused = descriptor_refusals(port, q, p)
    if refused:
        raise InputError(f"{port.name}: {next(iter(refused.values()))}", param="command")
    return _descriptors(port, q, p)


def _descriptors(port: Port, q: QueueConf, p: Platform) -> tuple[int, int]:
    drx, dtx = get(port.driver).default_ring_size(port, p)
    return ring_size(q.nb_rxd, drx), ring_size(q.nb_txd, dtx)


def descriptor_refusals(port: Port, q: QueueConf, p: Platform) -> dict[str, str]:
    """The queue set-ups ethdev refuses for their descriptor count (``"rx"``/``"tx"``: its log line), before
    the driver sees them (:func:`descriptors`)."""
    pmd = get(port.driver)
    nb_rx, nb_tx = _descriptors(port, q, p)
    out = {}
    for nb, lim, what in ((nb_rx, pmd.rx_desc_lim(port, p), "rx"), (nb_tx, pmd.tx_desc_lim(port, p), "tx")):
        why = lim.refusal(nb, what)
        if why is not None:
            out[what] = f"{why}: rte_eth_{what}_queue_setup fails (-EINVAL, lib/ethdev/rte_ethdev.c)"
    return out


def dev_configure(port: Port, q: QueueConf, p: Platform) -> Parts:
    """rte_eth_dev_configure of one port: ethdev's queue arrays, then the driver's dev_configure; refused when the
    driver has fewer queues than asked."""
    pmd = get(port.driver)
    out = Parts()
    max_rx, max_tx = pmd.max_queues(port, p)
    if q.nb_rxq > max_rx or q.nb_txq > max_tx:
        raise InputError(
            f"{port.name}: {max(q.nb_rxq, q.nb_txq)} queues, but {port.driver} has at most "
            f"{max_rx if q.nb_rxq > max_rx else max_tx} "
            "(rte_eth_dev_configure refuses it)",
            param="command",
        )
    if not pmd.own_queue_arrays:
        # eth_dev_rx_queue_config / eth_dev_tx_queue_config: a pointer per RTE_MAX_QUEUES_PER_PORT
        # (v22.11:lib/ethdev/rte_ethdev.c:383-386, 413-416); net_ring brings its own arrays
        out.allocations += [
            Allocation("ethdev->rx_queues", RTE_MAX_QUEUES_PER_PORT * 8, "ethdev"),
            Allocation("ethdev->tx_queues", RTE_MAX_QUEUES_PER_PORT * 8, "ethdev"),
        ]
    out.extend(pmd.configure(port, q, p))
    return out


def queue_setups(
    port: Port, q: QueueConf, p: Platform, side: str, queues: Iterable[int] | None = None, checked: bool = True
) -> Parts:
    """rte_eth_rx_queue_setup (``side`` ``"rx"``) or rte_eth_tx_queue_setup (``"tx"``) of the port's queues
    ``queues`` (all of that side by default), in that order, with the descriptor count ethdev hands the driver
    (:func:`descriptors`; ``checked`` False: already held to the driver's limits by the caller)."""
    pmd = get(port.driver)
    nb_rx, nb_tx = descriptors(port, q, p) if checked else _descriptors(port, q, p)
    setup, nb, count = (pmd.rx_queue_setup, nb_rx, q.nb_rxq) if side == "rx" else (pmd.tx_queue_setup, nb_tx, q.nb_txq)
    out = Parts()
    for qid in range(count) if queues is None else queues:
        out.extend(setup(port, qid, nb, q, p))
    return out


def dev_start(port: Port, q: QueueConf, p: Platform) -> Parts:
    """rte_eth_dev_start of one port: the driver's dev_start (recorded in the process's start order, which a
    driver numbering its memory process-wide reads)."""
    if port.process is not None:
        port.process.started[port.port_id] = q
    return get(port.driver).start(port, q, p)


def configure(
    port: Port, q: QueueConf, p: Platform, failed: frozenset[str] = frozenset()
) -> tuple[Parts, list[Mempool]]:
    """:func:`dev_configure`, the rx/tx queue set-ups (:func:`queue_setups`: each Rx queue's, then each Tx
    queue's; the Tx queues first for an application that sets them up first, ``q.tx_first``) and :func:`dev_start`
    of one port, the pools its driver makes apart.  ``failed``: the sides (``"rx"``, ``"tx"``) whose set-ups ethdev
    refused (:func:`descriptor_refusals`) for an application that goes on without them and does not start the
    port (VPP): they allocate nothing."""
    out = dev_configure(port, q, p)
    if not failed:
        descriptors(port, q, p)  # ethdev's refusal of a descriptor count, before any set-up
    for side in ("tx", "rx") if q.tx_first else ("rx", "tx"):
        if side not in failed:
            out.extend(queue_setups(port, q, p, side, checked=False))
    if not failed:
        out.extend(dev_start(port, q, p))
    pools, out.mempools = out.mempools, []
    return out, pools


def port_notes(ports: list[Port], q: QueueConf, p: Platform) -> list[str]:
    """What a report says of its ports beyond their memory: a driver read from its source only ("from the
    driver's source, not run"), what its driver does with each devarg the model does not use
    (:func:`.naming.driver_devargs`), what a driver keeps outside the DPDK heap, what it allocates in the heap that
    the model does not count, and descriptors asked for that the driver does not use (virtio: a queue set-up takes
    at most its virtqueue's size)."""
    from mpcalc.dpdk.drivers.naming import driver_devargs

    notes = []
    for port in ports:
        pmd = get(port.driver)
        who = f"port {port.port_id} ({port.name}, {pmd.name})"
        if pmd.provenance != RUN:
            notes.append(f"{who}: {NOT_RUN}")
        if pmd.bus == "pci":
            notes += [f"{who}: {text}" for text in driver_devargs(pmd, port.name, port.pairs, p)]
        notes += [f"{who}: outside the DPDK heap: {text}" for text in pmd.outside_heap(port, q, p)]
        notes += [f"{who}: in the DPDK heap, not counted: {text}" for text in pmd.not_modelled(port, q, p)]
        try:
            nb_rx, nb_tx = descriptors(port, q, p)
        except InputError:
            continue
        for nb, what in ((nb_rx, "rx"), (nb_tx, "tx")):
            used = pmd.descriptors_used(port, nb, what, p)
            if used != nb:
                notes.append(f"{who}: {nb} {what} descriptors asked, the driver uses {used} of each queue")
    return notes


def callbacks(p: Platform) -> list[Allocation]:
    """``rte_eth_dev_callback_register(RTE_ETH_ALL, event, ...)`` for every event: one callback per port id
    up to RTE_MAX_ETHPORTS and event (v22.11:lib/ethdev/rte_ethdev.c:4784-4822)."""
    from mpcalc.dpdk.core.struct_sizes import eth_event_max

    size = sizes(p)["eth_dev_callback"]
    return [Allocation("INTR_USER_CALLBACK", size, "ethdev event callback")] * (RTE_MAX_ETHPORTS * eth_event_max(p))


__all__ = [
    "DEV_MIN_MTU",
    "FALLBACK_RING_SIZE",
    "RTE_ETHER_CRC_LEN",
    "RTE_ETHER_HDR_LEN",
    "RTE_ETHER_MAX_JUMBO_FRAME_LEN",
    "RTE_ETHER_MAX_VLAN_FRAME_LEN",
    "RTE_ETHER_MTU",
    "RTE_ETH_EVENT_MAX",
    "RTE_MAX_ETHPORTS",
    "RTE_MAX_QUEUES_PER_PORT",
    "RTE_MAX_RXTX_INTR_VEC_ID",
    "RX_OFFLOAD_CHECKSUM",
    "RX_OFFLOAD_IPV4_CKSUM",
    "RX_OFFLOAD_KEEP_CRC",
    "RX_OFFLOAD_QINQ_STRIP",
    "RX_OFFLOAD_SCATTER",
    "RX_OFFLOAD_TCP_CKSUM",
    "RX_OFFLOAD_TCP_LRO",
    "RX_OFFLOAD_TIMESTAMP",
    "RX_OFFLOAD_UDP_CKSUM",
    "RX_OFFLOAD_VLAN",
    "RX_OFFLOAD_VLAN_EXTEND",
    "RX_OFFLOAD_VLAN_FILTER",
    "RX_OFFLOAD_VLAN_STRIP",
    "TX_OFFLOAD_IPV4_CKSUM",
    "TX_OFFLOAD_MBUF_FAST_FREE",
    "TX_OFFLOAD_MT_LOCKFREE",
    "TX_OFFLOAD_MULTI_SEGS",
    "TX_OFFLOAD_TCP_CKSUM",
    "TX_OFFLOAD_TCP_TSO",
    "TX_OFFLOAD_UDP_CKSUM",
    "Port",
    "QueueConf",
    "callbacks",
    "configure",
    "configure_refusal",
    "descriptor_refusals",
    "descriptors",
    "dev_configure",
    "dev_start",
    "eal_ports",
    "intr_instance",
    "max_rx_pktlen",
    "mtu_of",
    "offload_capa",
    "parse_devargs",
    "port_notes",
    "probe",
    "probe_ports",
    "probed_ports",
    "queue_setups",
    "sizes",
    "vdev_driver",
    "vdev_ports",
]
