"""Open vSwitch with DPDK: the mbuf pools ``ovs-vswitchd`` creates from its own settings (:data:`OVS`).

* :mod:`.netdev`: lib/netdev-dpdk.c's pool arithmetic (sizes, counts, names, reuse), per port;
* :mod:`.releases`: the OVS releases reproduced, with the lines each is read from;
* :mod:`.hashing`: OVS's ``hash_string`` (the hash in a pool's name);
* :mod:`.ethdev`: the ``rte_eth_dev_data`` memzone the first DPDK port brings.

The pools themselves are mpcalc's ``mbuf`` model (``rte_pktmbuf_pool_create``).
"""

from collections.abc import Mapping
from typing import Any

from mpcalc.dpdk.apps.ovs.hashing import HASHES
from mpcalc.dpdk.apps.ovs.netdev import TYPES, Port, PortPlan, dp_packet_size, parse_port, plan, pmd_threads
from mpcalc.dpdk.apps.ovs.ovs_offloads import port_offloads
from mpcalc.dpdk.apps.ovs.shared_data import shared_data_zone
from mpcalc.dpdk.apps.ovs.versions import VERSIONS, OvsRelease, ovs_release
from mpcalc.dpdk.core.declare import ObjectDecl, Param, Resolved
from mpcalc.dpdk.core.errors import InputError
from mpcalc.dpdk.core.machine import CPUS, parse_cpus
from mpcalc.dpdk.core.platform import Platform
from mpcalc.dpdk.core.records import Allocation, Result
from mpcalc.dpdk.core.standalone import Parts, finish
from mpcalc.dpdk.drivers.naming import DEVBIND, NIC, bindings_of, read_devbind

__all__ = ["OVS", "Port", "parse_port", "plan", "size"]

#: heap elements (header included) ovs-vswitchd 3.1 takes besides its pools, measured with telemetry's
#: /eal/heap_info on Debian's 3.1.0 / DPDK 22.11.11 x86_64 with net_null ports (tests/conformance/test_ovs_real.py
#: checks the whole heap against the model): once 6,144; per DPDK port 100,224 + 384 per Rx queue + 256 per
#: Tx queue (struct netdev_dpdk and its queue structs, OVS's dpdk_rte_mzalloc(), lib/netdev-dpdk.c:1277-1330,
#: and net_null's own data: its struct pmd_internals, ethdev's queue arrays); per vhost port 68,032
#: (vhost_rxq_enabled and tx_q for OVS_VHOST_MAX_QUEUE_NUM 1,024 queues, lib/netdev-dpdk.c:1344-1360), measured
#: without a guest (a guest's Rx queues add OVS's own queue structs, not measured).
#: A NIC's PMD allocates its own descriptor rings and data instead of net_null's.
OVS_ONCE, OVS_DPDK_PORT, OVS_PER_RXQ, OVS_PER_TXQ, OVS_VHOST_PORT = 6_144, 100_224, 384, 256, 68_032
_ELEM_HEADER = 128
#: net_null's max_rx_queues and max_tx_queues: RTE_DIM of its queue arrays, RTE_MAX_QUEUES_PER_PORT
#: (v22.11.11:drivers/net/null/rte_eth_null.c:310-311)
NET_NULL_MAX_QUEUES = 1024


def _device(
    pp: PortPlan,
    port_id: int,
    bindings: dict[str, Any],
    notes: list[str],
    r: OvsRelease,
    tso: bool,
    p: Platform,
) -> Parts:
    """A port with options:dpdk-devargs: OVS's own measured part (the net_null measurement less net_null's
    modelled probe and queues) and the device's driver: its probe, configure and queue set-ups for the queues,
    descriptors and offloads OVS asks (dpdk_eth_dev_port_config, v3.1.0:lib/netdev-dpdk.c:1140-1215;
    :func:`.ovs_offloads.port_offloads`), the queue counts capped by the driver's max_rx_queues/max_tx_queues
    (:1200-1203)."""
    from mpcalc.dpdk.core.heap import heap_cost
    from mpcalc.dpdk.drivers import ethdev, get, naming
    from mpcalc.dpdk.drivers.pmd import Port as Device
    from mpcalc.dpdk.drivers.pmd import QueueConf

    devargs = str(pp.port.dpdk_devargs)
    try:
        addr = naming.pci_addr(devargs.split(",")[0])
    except InputError:
        addr = None
    if addr is not None:
        [dev] = naming.pci_ports([devargs], bindings, p, first_id=port_id, option="dpdk-devargs")
    else:
        [dev] = ethdev.vdev_ports([devargs], first_id=port_id)
    pmd = get(dev.driver)
    max_rx, max_tx = pmd.max_queues(dev, p)
    n_rxq, n_txq = min(pp.n_rxq, max_rx), min(pp.n_txq, max_tx)
    if (n_rxq, n_txq) != (pp.n_rxq, pp.n_txq):
        notes.append(
            f"port {pp.port.name}: {pp.n_rxq} Rx / {pp.n_txq} Tx queues asked, the port sets up {n_rxq} / {n_txq} "
            f"(MIN(info.max_rx_queues, n_rxq), lib/netdev-dpdk.c:1200-1201; {pmd.name}'s {max_rx} / {max_tx})"
        )
    rx_capa, tx_capa = pmd.offload_capa(dev, p)
    rxo, txo, cite = port_offloads(r, dev.driver, rx_capa, tx_capa, pp.mtu, tso)
    if rxo or txo:
        notes.append(f"port {pp.port.name}: OVS asks for Rx offloads {rxo:#x} and Tx offloads {txo:#x} ({cite})")
    # dpdk_eth_dev_port_config sets up the Tx queues, then the Rx queues (v3.1.0:lib/netdev-dpdk.c:1093, 1109)
    q = QueueConf(
        n_rxq,
        n_txq,
        pp.rxq_size,
        pp.txq_size,
        lsc_interrupt=False,
        rx_data_room=pp.data_room,
        mtu=pp.mtu,
        tx_first=True,
        rx_offloads=rxo,
        tx_offloads=txo,
    )
    out = ethdev.probe(dev, p, first=False)
    conf, pools = ethdev.configure(dev, q, p)
    out.extend(conf)
    out.mempools += pools
    notes += ethdev.port_notes([dev], q, p)
    # OVS's own part: the net_null measurement less what the model gives net_null for the same queues
    null = Device(port_id, "net_null0", "net_null")
    null_parts = ethdev.probe(null, p, first=False)
    null_parts.extend(ethdev.configure(null, QueueConf(n_rxq, n_txq, pp.rxq_size, pp.txq_size, False), p)[0])
    own = OVS_DPDK_PORT + OVS_PER_RXQ * n_rxq + OVS_PER_TXQ * n_txq
    own -= sum(heap_cost(a.size, p) for a in null_parts.allocations)
    out.allocations.append(_own(own, f"port {pp.port.name}: netdev_dpdk and queues (measured, less net_null's)"))
    return out


def _own(element_bytes: int, what: str) -> Allocation:
    """A measured heap element total as one allocation (its malloc element header taken off)."""
    return Allocation("ovs_dpdk", element_bytes - _ELEM_HEADER, what)


def size(
    ports: list[Port],
    per_port_memory: bool,
    pmd_cpu_mask: str | None,
    version: str | None,
    p: Platform,
    hash_variant: str = "mhash",
    shared_mempool_config: str | None = None,
    cpus: tuple[int, ...] | None = None,
    changes: tuple[str, ...] = (),
    nics: list[str] | tuple[str, ...] | None = None,
    devbind: str | None = None,
    userspace_tso: bool = False,
) -> Result:
    """What ovs-vswitchd reserves for ``ports``: their pools, each pool's ``struct dpdk_mp``, and the
    ``rte_eth_dev_data`` memzone once a DPDK (ethdev) port exists."""
    r = ovs_release(version, p.dpdk)
    pl = plan(ports, per_port_memory, pmd_cpu_mask, r, p, hash_variant, shared_mempool_config, cpus)
    parts = Parts()
    if any(port.type == "dpdk" for port in ports):
        parts.zones.append(shared_data_zone(p))
    parts.mempools += pl.mempools
    parts.allocations += pl.allocations
    parts.allocations.append(_own(OVS_ONCE, "ovs-vswitchd's own (measured)"))
    notes = list(pl.notes)
    bindings = bindings_of(nics, devbind)
    devices = [pp for pp in pl.ports if pp.port.type == "dpdk"]
    for pp in pl.ports:
        if pp.port.type == "dpdk" and pp.port.dpdk_devargs is not None:
            parts.extend(_device(pp, devices.index(pp), bindings, notes, r, userspace_tso, p))
        elif pp.port.type == "dpdk":
            # dpdk_eth_dev_init sets up MIN(info.max_rx_queues, n_rxq) and MIN(info.max_tx_queues, n_txq) queues
            # (v3.1.0:lib/netdev-dpdk.c:1200-1203): net_null's limit is RTE_MAX_QUEUES_PER_PORT 1,024
            # (v22.11.11:drivers/net/null/rte_eth_null.c:310-311); the per-queue heap follows what is set up
            n_rxq, n_txq = min(pp.n_rxq, NET_NULL_MAX_QUEUES), min(pp.n_txq, NET_NULL_MAX_QUEUES)
            if (n_rxq, n_txq) != (pp.n_rxq, pp.n_txq):
                notes.append(
                    f"port {pp.port.name}: {pp.n_rxq} Rx / {pp.n_txq} Tx queues asked, the port sets up {n_rxq} / "
                    f"{n_txq} (MIN(info.max_rx_queues, n_rxq), lib/netdev-dpdk.c:1200-1201; net_null's 1,024)"
                )
            parts.allocations.append(
                _own(
                    OVS_DPDK_PORT + OVS_PER_RXQ * n_rxq + OVS_PER_TXQ * n_txq,
                    f"port {pp.port.name}: netdev_dpdk, queues, PMD data (measured, net_null)",
                )
            )
        else:
            parts.allocations.append(_own(OVS_VHOST_PORT, f"port {pp.port.name}: netdev_dpdk, vhost queues (measured)"))
    parts.errors += pl.errors
    details: dict[str, object] = {
        "ovs": r.version,
        "ovs_tag": r.tag,
        "ovs_dpdk": r.dpdk,
        "memory_model": "per-port" if per_port_memory else "shared",
        "pmd_threads": pmd_threads(pmd_cpu_mask, cpus),
        "dp_packet_size": dp_packet_size(r, p),
        "ports": {pp.port.name: pp.to_dict() for pp in pl.ports},
        "pools": pl.pools,
        "notes": notes,
        "source": {
            k: r.cite(k)
            for k in (
                "buf_size",
                "shared_threshold",
                "per_port_formula",
                "name_fmt",
                "priv_len",
                "pool_create",
                "reuse",
                "wanted_txqs",
            )
        },
    }
    if changes:
        from mpcalc.dpdk.apps.ovs.sequence import SWEEP_SRC, replay

        steps, _ = replay(
            ports, changes, per_port_memory, pmd_cpu_mask, r, p, hash_variant, shared_mempool_config, cpus
        )
        peak = max(range(len(steps)), key=lambda i: int(steps[i]["pool_heap_bytes"]))  # type: ignore[call-overload]
        details["sequence"] = steps
        details["peak"] = {
            "step": steps[peak]["step"],
            "index": peak,
            "pool_heap_bytes": steps[peak]["pool_heap_bytes"],
            "alive": steps[peak]["alive"],
            "source": SWEEP_SRC,
        }
    return finish("ovs", 0, p, parts, details)


def _resolve(a: Mapping[str, Any]) -> Resolved:
    texts = PORT.parse(a["port"]) if a.get("port") is not None else []
    if not texts:
        raise InputError("give at least one --port NAME[,type=...][,mtu_request=N]...", param="--port")
    ports = tuple(parse_port(t) for t in texts)
    mask = a.get("pmd_cpu_mask")
    cpus = a.get("cpus")
    inputs = {
        "port": list(texts),
        "per_port_memory": bool(a.get("per_port_memory")),
        "pmd_cpu_mask": mask,
        "ovs": a.get("ovs"),
        "ovs_hash": a.get("ovs_hash") or "mhash",
        "shared_mempool_config": a.get("shared_mempool_config"),
        "userspace_tso": bool(a.get("userspace_tso")),
        "cpus": cpus,
        "change": list(CHANGE.parse(a["change"])) if a.get("change") is not None else [],
    }
    from mpcalc.dpdk.apps.ovs.sequence import parse_change

    for text in inputs["change"]:  # type: ignore[union-attr]
        parse_change(text)
    inputs["nic"] = list(a["nic"]) if a.get("nic") else None
    inputs["devbind"] = a.get("devbind")
    extra = {
        "ports": ports,
        "cpus": parse_cpus(cpus) if cpus is not None else None,
        "nic": list(a.get("nic") or ()),
        "devbind": read_devbind(a.get("devbind")),
    }
    return Resolved(inputs, extra)


def _build(a: Mapping[str, Any], extra: Mapping[str, Any], flags: int, p: Platform) -> Result:
    return size(
        list(extra["ports"]),
        a["per_port_memory"],
        a["pmd_cpu_mask"],
        a["ovs"],
        p,
        a["ovs_hash"],
        a["shared_mempool_config"],
        extra.get("cpus"),
        tuple(a.get("change") or ()),
        extra.get("nic"),
        extra.get("devbind"),
        a["userspace_tso"],
    )


PORT = Param(
    "port",
    "list",
    "One Interface: NAME[,type=" + "|".join(TYPES) + "][,mtu_request=N][,n_rxq=N]"
    "[,n_rxq_desc=N][,n_txq_desc=N] (OVS's keys and defaults; vhost: n_rxq = the guest's queue pairs, "
    "guest=no before it connects)[,dpdk-devargs=DEVICE] (last: a PCI address, its driver from --nic or --devbind, or "
    "a vdev with its devargs; without it the port is measured on net_null). Repeat for each port, in the order OVS "
    "configures them.",
    required=True,
    metavar="PORT",
)

CHANGE = Param(
    "change",
    "list",
    "A change at run time, after the ports: 'add NAME[,key=value...]', 'set NAME,key=value[,...]' "
    "(mtu_request, n_rxq, n_rxq_desc, n_txq_desc, guest) or 'del NAME'. Repeat, in order: the pools alive "
    "after each (OVS frees an unused pool only at the next pool request) and the peak, which the advice covers.",
    metavar="CHANGE",
)

OVS = ObjectDecl(
    name="ovs",
    summary="The mbuf pools Open vSwitch (ovs-vswitchd with DPDK) creates for its ports, from OVS's own "
    "settings, by OVS's pool names.",
    params=(
        PORT,
        Param(
            "per_port_memory",
            "bool",
            "other_config:per-port-memory=true: one pool per port, sized from its "
            "queues (default: the shared memory model).",
            default=False,
        ),
        Param(
            "pmd_cpu_mask",
            "text",
            "other_config:pmd-cpu-mask (hex): its CPUs are the PMD threads; a DPDK port "
            "has one Tx queue per PMD thread plus one [default: one PMD thread].",
            metavar="MASK",
        ),
        Param(
            "shared_mempool_config",
            "text",
            "other_config:shared-mempool-config MTU[:NUMA],... (OVS 3.0+): a "
            "shared pool is made for the smallest of these MTUs that holds the port's.",
            metavar="LIST",
        ),
        Param(
            "userspace_tso",
            "bool",
            "other_config:userspace-tso-enable=true: a DPDK port asks for the TSO offloads its device offers.",
            default=False,
        ),
        Param(
            "ovs",
            "choice",
            "Open vSwitch release [default: the one built on --dpdk: 2.17 on 21.11, 3.1 "
            "(Debian 12) on 22.11, 3.3 on 23.11, 3.5 on 24.11, 3.7 on 25.11].",
            choices=VERSIONS,
            metavar="VERSION",
        ),
        Param(
            "ovs_hash",
            "choice",
            "OVS's hash_string build: mhash (generic builds, Debian's), or crc32c "
            "(-msse4.2 on x86_64, +crc on arm64): the hash in the pool names.",
            default="mhash",
            choices=HASHES,
            show_default=True,
        ),
        CPUS,
        NIC,
        DEVBIND,
        CHANGE,
    ),
    build=_build,
    resolve=_resolve,
    zone_prefix="MP_ovs",
    own_zones=True,
)
