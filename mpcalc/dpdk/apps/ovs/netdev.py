"""The mbuf pools Open vSwitch creates for its DPDK ports: OVS's lib/netdev-dpdk.c, replayed.

Citations are at v3.1.7 (Debian 12 ships 3.1.0, the same code); each report cites its own release's lines
(:mod:`.releases`).  The path of one port (``netdev_dpdk_reconfigure`` -> ``netdev_dpdk_mempool_configure``
-> ``dpdk_mp_get`` -> ``dpdk_mp_create``):

* ``buf_size = dpdk_buf_size(requested_mtu) = ROUND_UP(mtu + ETHER_HDR_MAX_LEN 26, NETDEV_DPDK_MBUF_ALIGN
  1024) + RTE_PKTMBUF_HEADROOM`` (lib/netdev-dpdk.c:586-590, 100-107); the pool is keyed by the MTU that
  frame holds, ``FRAME_LEN_TO_MTU(buf_size) = buf_size - 18`` (lib/netdev-dpdk.c:105, 935);
* shared memory (the default): a pool of the same socket and that MTU is reused (lib/netdev-dpdk.c:851-865),
  else one of ``MAX_NB_MBUF`` 262,144 mbufs when that MTU is at least RTE_ETHER_MTU 1500, else
  ``MIN_NB_MBUF`` 16,384 (lib/netdev-dpdk.c:698-712, 115-116);
* per-port memory (other_config:per-port-memory=true): one pool per port of
  ``n_rxq x rxq_size + n_txq x txq_size + MIN(RTE_MAX_LCORE, n_rxq) x NETDEV_MAX_BURST 32 + MIN_NB_MBUF``
  mbufs (lib/netdev-dpdk.c:713-724);
* the name ``ovs%08x%02d%05d%07u`` of ``hash_string(port name, 0)``, the socket, that MTU and the count
  (lib/netdev-dpdk.c:743, 765-775): the first port to need a shared pool names it;
* ``rte_pktmbuf_pool_create(name, n_mbufs, MP_CACHE_SZ = RTE_MEMPOOL_CACHE_MAX_SIZE,
  priv, buf_size, socket)``, ``priv = sizeof(struct dp_packet) - sizeof(struct rte_mbuf)`` padded so
  that ``sizeof(struct dp_packet) + buf_size`` is a whole number of cache lines
  (lib/netdev-dpdk.c:783-806): mpcalc's ``mbuf`` model (mpcalc.dpdk.objects.mbuf.mbuf_pool) sizes it;
* OVS halves the count and tries again while DPDK answers ENOMEM, down to MIN_NB_MBUF
  (lib/netdev-dpdk.c:831): the pool's name then says so; mpcalc gives the pool OVS asks for first.

Ports: ``type=dpdk`` takes ``n_rxq`` (at least 1, lib/netdev-dpdk.c:1905-1916) and ``n_rxq_desc`` /
``n_txq_desc`` (a power of two, else 2,048, lib/netdev-dpdk.c:1918-1933); its Tx queues are the PMD
threads plus the main thread (``wanted_txqs``, lib/dpif-netdev.c:6505-6510): one PMD per CPU of
other_config:pmd-cpu-mask (lib/dpif-netdev.c:6380), else one per NUMA node (mpcalc assumes one node).
A vhost port gets its pool only once a guest connects (lib/netdev-dpdk.c:5369), with the guest's queue
pairs as ``n_rxq`` and ``n_txq`` (``new_device``, lib/netdev-dpdk.c:4226-4228) and 2,048 descriptors.
``mtu_request`` outside 68 .. 9,702 (``MTU_TO_MAX_FRAME_LEN(mtu) > NETDEV_DPDK_MAX_PKT_LEN 9728``) is
refused and the port keeps 1500 (lib/netdev-dpdk.c:2962-2966).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from mpcalc.dpdk.apps.ovs.hashing import hash_string
from mpcalc.dpdk.apps.ovs.versions import USER_MEMPOOLS, OvsRelease
from mpcalc.dpdk.core.errors import InputError, Rejection
from mpcalc.dpdk.core.intmath import ceil_a
from mpcalc.dpdk.core.platform import Platform
from mpcalc.dpdk.core.records import Allocation, Mempool
from mpcalc.dpdk.objects.mbuf import ETHER_CRC_LEN, ETHER_HDR_LEN, MbufSpec, mbuf_pool

RTE_ETHER_MTU = 1500
RTE_ETHER_MIN_MTU = 68
VLAN_HEADER_LEN = 4
ETHER_HDR_MAX_LEN = ETHER_HDR_LEN + ETHER_CRC_LEN + 2 * VLAN_HEADER_LEN
NETDEV_DPDK_MBUF_ALIGN = 1024
NETDEV_DPDK_MAX_PKT_LEN = 9728
MAX_NB_MBUF = 4096 * 64
MIN_NB_MBUF = 4096 * 4
NIC_PORT_DEFAULT_Q_SIZE = 2048
NETDEV_MAX_BURST = 32
NR_QUEUE = 1
SOCKET0 = 0
VHOST_TYPES = ("dpdkvhostuser", "dpdkvhostuserclient")
TYPES = ("dpdk", *VHOST_TYPES)
#: struct dpdk_mp {mp; mtu; socket_id; refcount; ovs_list list_node}: rte_zmalloc("ovs_dpdk", 40, 64) per pool
DPDK_MP_SIZE = 40
#: the bytes of struct pkt_metadata per OVS cache line (lib/packets.h:103-136): the first two padded
#: member groups are one cache line each (58 and 40 bytes of members); the third holds struct flow_tnl,
#: 344 bytes (72 of addresses and flags, then struct tun_metadata: 16 + TUN_METADATA_TOT_OPT_SIZE 256)
FLOW_TNL_SIZE = 344


class Port(NamedTuple):
    """One Interface row, in OVS's own key names (``options:n_rxq`` ...)."""

    name: str
    type: str = "dpdk"
    mtu_request: int | None = None
    n_rxq: int | None = None
    n_rxq_desc: int | None = None
    n_txq_desc: int | None = None
    #: a vhost port's guest is connected (its pool exists only then)
    guest: bool = True
    #: options:dpdk-devargs, the device and its driver: a PCI address (its driver from --nic/--devbind) or a
    #: vdev (net_virtio_user0,path=...); without it the port is measured on net_null
    dpdk_devargs: str | None = None


_INT_KEYS = ("mtu_request", "n_rxq", "n_rxq_desc", "n_txq_desc")


def parse_port(text: str) -> Port:
    """``NAME[,type=...][,mtu_request=N][,n_rxq=N][,n_rxq_desc=N][,n_txq_desc=N][,dpdk-devargs=DEVICE]`` (vhost:
    ``guest=no``; ``dpdk-devargs`` last, the rest of the text: a vdev's own devargs have commas).

    >>> parse_port("dpdk0,mtu_request=9000,n_rxq=2")[:5]
    ('dpdk0', 'dpdk', 9000, 2, None)
    >>> parse_port("vu0,n_rxq=2,dpdk-devargs=net_virtio_user0,path=/run/vu.sock,queues=2").dpdk_devargs
    'net_virtio_user0,path=/run/vu.sock,queues=2'
    """
    head, sep, devargs = str(text).partition(",dpdk-devargs=")
    name, *pairs = [part.strip() for part in head.split(",")]
    if not name or "=" in name:
        raise InputError(f"{text!r}: a port starts with its name (NAME[,key=value...])", param="--port")
    values: dict[str, object] = {}
    for pair in pairs:
        key, eq, value = pair.partition("=")
        key = key.strip()
        if not eq:
            raise InputError(f"{text!r}: {pair!r} is not key=value", param="--port")
        if key == "type":
            if value not in TYPES:
                raise InputError(f"{text!r}: type {value!r} is not one of {', '.join(TYPES)}", param="--port")
            values[key] = value
        elif key in _INT_KEYS:
            try:
                values[key] = int(value, 10)
            except ValueError:
                raise InputError(f"{text!r}: {key} {value!r} is not an integer", param="--port") from None
        elif key == "guest":
            if value not in ("yes", "no", "true", "false"):
                raise InputError(f"{text!r}: guest is yes or no", param="--port")
            values[key] = value in ("yes", "true")
        else:
            raise InputError(
                f"{text!r}: unknown key {key!r} (known: type, {', '.join(_INT_KEYS)}, guest, dpdk-devargs last)",
                param="--port",
            )
    if sep:  # options:dpdk-devargs takes the rest of the text: its own devargs have commas
        if not devargs.strip():
            raise InputError(
                f"{text!r}: dpdk-devargs= needs the device (0000:3b:00.0, net_virtio_user0,...)", param="--port"
            )
        values["dpdk_devargs"] = devargs.strip()
    port = Port(name=name, **values)  # type: ignore[arg-type]
    if port.dpdk_devargs is not None and port.type != "dpdk":
        raise InputError(f"{text!r}: dpdk-devargs is for type=dpdk ports", param="--port")
    if "guest" in values and port.type not in VHOST_TYPES:
        raise InputError(f"{text!r}: guest is for vhost ports", param="--port")
    return port


def dp_packet_size(r: OvsRelease, p: Platform) -> int:
    """``sizeof(struct dp_packet)`` with DPDK: the rte_mbuf (cache aligned), OVS's fields, then
    ``struct pkt_metadata md`` (three groups of OVS cache lines) at :attr:`OvsRelease.md_offset`."""
    line = 128 if r.ppc_line_128 and p.arch == "ppc64le" else 64
    md = 2 * line + ceil_a(FLOW_TNL_SIZE, line)
    return ceil_a(r.md_offset + md, p.cache_line)


def buf_size(mtu: int, p: Platform) -> int:
    """``dpdk_buf_size(mtu)``: the data room of the port's mbufs."""
    return ceil_a(mtu + ETHER_HDR_MAX_LEN, NETDEV_DPDK_MBUF_ALIGN) + p.release.pktmbuf_headroom


def queue_size(value: int | None, r: OvsRelease) -> int:
    """``dpdk_process_queue_size``: the descriptors asked for, or the default 2,048."""
    if value is None or value <= 0 or value & (value - 1) or (r.max_q is not None and value > r.max_q):
        return NIC_PORT_DEFAULT_Q_SIZE
    return value


class PortPlan(NamedTuple):
    """What OVS makes of one port: its queues, its pool (or why none) and the rejections."""

    port: Port
    mtu: int
    pool_mtu: int
    n_rxq: int
    n_txq: int
    rxq_size: int
    txq_size: int
    n_mbufs: int | None
    pool: str | None
    reused: bool
    errors: tuple[Rejection, ...]

    @property
    def data_room(self) -> int:
        """The data room of the port's pool's mbufs (MTU_TO_FRAME_LEN of the pool's MTU): what its Rx queues
        are given."""
        return self.pool_mtu + ETHER_HDR_LEN + ETHER_CRC_LEN

    def to_dict(self) -> dict[str, object]:
        return {
            "name": self.port.name,
            "type": self.port.type,
            "mtu": self.mtu,
            "pool_mtu": self.pool_mtu,
            "n_rxq": self.n_rxq,
            "n_txq": self.n_txq,
            "rxq_size": self.rxq_size,
            "txq_size": self.txq_size,
            "n_mbufs": self.n_mbufs,
            "pool": self.pool,
            "reused": self.reused,
            **({"dpdk_devargs": self.port.dpdk_devargs} if self.port.dpdk_devargs else {}),
        }


class Plan(NamedTuple):
    ports: tuple[PortPlan, ...]
    mempools: tuple[Mempool, ...]
    allocations: tuple[Allocation, ...]
    errors: tuple[Rejection, ...]
    #: pool name -> (socket, MTU, n_mbufs, data room, priv size, ports using it)
    pools: dict[str, dict[str, object]]
    #: what OVS warns about and runs with (an MTU or a shared-mempool-config it ignores, pmd-cpu-mask bits)
    notes: tuple[str, ...] = ()


#: ovs_numa_dump_cores_with_cmask, the same from 2.17 to 3.7 (v3.1.0:lib/ovs-numa.c:473-511)
CMASK_SRC = "v3.1.0:lib/ovs-numa.c:473-511"


def pmd_cores(mask: str | None, cpus: Sequence[int] | None = None) -> tuple[tuple[int, ...], list[str]]:
    """The CPUs of other_config:pmd-cpu-mask that get a PMD thread, and OVS's warnings:
    ovs_numa_dump_cores_with_cmask reads the mask a hex digit at a time from the right (a leading 0x
    ignored), a character that is no hex digit logged 'Invalid cpu mask: %c' and read as 0, and each set bit
    whose core OVS does not find (get_core_by_core_id: a CPU the machine lacks) skipped (:data:`CMASK_SRC`).
    Without ``cpus`` (the machine's, ``--cpus``) every bit is taken as a CPU that exists.

    >>> pmd_cores("0x7", (0, 1))[0], pmd_cores("0x5")[0], pmd_cores("1g")[0]
    ((0, 1), (0, 2), (4,))
    """
    if mask is None or not mask.strip():
        return (), []
    text = mask.strip()
    if text[:2] in ("0x", "0X"):
        text = text[2:]
    warnings: list[str] = []
    set_bits: list[int] = []
    for digit, ch in enumerate(reversed(text)):
        try:
            value = int(ch, 16)
        except ValueError:
            warnings.append(f"pmd-cpu-mask {mask!r}: OVS logs 'Invalid cpu mask: {ch}' and reads it as 0 ({CMASK_SRC})")
            value = 0
        set_bits += [4 * digit + j for j in range(4) if value >> j & 1]
    if cpus is None:
        if set_bits:
            warnings.append(
                f"pmd-cpu-mask {mask!r} is taken as written: CPU(s) {', '.join(map(str, set_bits))} taken to exist; "
                "OVS skips the bits of CPUs the machine lacks: give --cpus to check"
            )
        return tuple(set_bits), warnings
    missing = [c for c in set_bits if c not in cpus]
    if missing:
        warnings.append(
            f"pmd-cpu-mask {mask!r}: the machine has no CPU {', '.join(map(str, missing))} (--cpus): OVS skips "
            f"those bits (get_core_by_core_id finds no core, {CMASK_SRC})"
        )
    return tuple(c for c in set_bits if c in cpus), warnings


def pmd_threads(mask: str | None, cpus: Sequence[int] | None = None) -> int:
    """PMD threads for other_config:pmd-cpu-mask: one per CPU of it that exists (:func:`pmd_cores`); without a
    mask, one (one per NUMA node: ovs_numa_dump_n_cores_per_numa(1), mpcalc assumes one node)."""
    if mask is None or not mask.strip():
        return 1
    return len(pmd_cores(mask, cpus)[0])


ALL_NUMAS = None


def user_mempools(text: str | None, r: OvsRelease, p: Platform) -> tuple[list[tuple[int, int | None]], list[str]]:
    """other_config:shared-mempool-config ``MTU[:NUMA],...``: (pool MTU, socket or None for all) per entry
    (``parse_user_mempools_list``); a bad entry makes OVS drop the whole list with a warning (returned)."""
    if text is None:
        return [], []
    if r.version not in USER_MEMPOOLS:
        raise InputError(
            f"shared-mempool-config arrived in OVS 3.0, not in {r.version}", param="--shared-mempool-config"
        )
    src = f"{r.tag}:lib/netdev-dpdk.c:{USER_MEMPOOLS[r.version][1]}"
    out: list[tuple[int, int | None]] = []
    for item in text.replace(",", " ").split():
        key, _, value = item.replace("=", ":").partition(":")
        try:
            mtu = int(key, 0)
        except ValueError:
            mtu = -1
        try:
            socket: int | None = int(value, 0)
        except ValueError:
            socket = ALL_NUMAS
        if mtu < 0 or (socket is not None and socket < 0):
            which = "MTU" if mtu < 0 else "NUMA"
            return [], [
                f"shared-mempool-config {text!r}: {item!r} is no MTU[:NUMA]: OVS logs 'Invalid user configured "
                f"shared mempool {which}.' and 'User configured shared mempools will not be used.', and runs "
                f"with the default pools (parse_user_mempools_list, {src})"
            ]
        out.append((buf_size(mtu, p) - ETHER_HDR_LEN - ETHER_CRC_LEN, socket))
    return out, []


def user_adjusted(pool_mtu: int, socket: int, users: Sequence[tuple[int, int | None]]) -> int:
    """``dpdk_get_user_adjusted_mtu``: the smallest configured pool MTU that holds ``pool_mtu`` on the socket."""
    fits = [mtu for mtu, s in users if mtu >= pool_mtu and (s is None or s == socket)]
    return min(fits) if fits else pool_mtu


def plan(
    ports: Sequence[Port],
    per_port_memory: bool,
    pmd_cpu_mask: str | None,
    r: OvsRelease,
    p: Platform,
    hash_variant: str = "mhash",
    shared_mempool_config: str | None = None,
    cpus: Sequence[int] | None = None,
) -> Plan:
    """Every port in the order given (the order OVS configures them), with the pools OVS creates."""
    n_pmd = pmd_threads(pmd_cpu_mask, cpus)
    notes: list[str] = list(pmd_cores(pmd_cpu_mask, cpus)[1])
    users, user_warnings = user_mempools(shared_mempool_config, r, p)
    notes += user_warnings
    by_key: dict[tuple[int, int], str] = {}
    pools: dict[str, dict[str, object]] = {}
    mempools: list[Mempool] = []
    plans: list[PortPlan] = []
    errors: list[Rejection] = []
    seen: set[str] = set()
    for port in ports:
        if port.name in seen:
            raise InputError(f"port {port.name!r} is given twice (an Interface name is unique)", param="--port")
        seen.add(port.name)
        port_errors: list[Rejection] = []
        mtu = RTE_ETHER_MTU
        if port.mtu_request is not None:
            if port.mtu_request + ETHER_HDR_MAX_LEN > NETDEV_DPDK_MAX_PKT_LEN or port.mtu_request < RTE_ETHER_MIN_MTU:
                # netdev_dpdk_set_mtu logs a warning and returns EINVAL, which iface_set_netdev_mtu ignores: the
                # port is added with its MTU unchanged (v3.1.0:vswitchd/bridge.c:1000-1013, 2060-2063)
                notes.append(
                    f"port {port.name}: mtu_request {port.mtu_request} is outside {RTE_ETHER_MIN_MTU} .. "
                    f"{NETDEV_DPDK_MAX_PKT_LEN - ETHER_HDR_MAX_LEN}: OVS logs '{port.name}: unsupported MTU "
                    f"{port.mtu_request}' (netdev_dpdk_set_mtu, {r.cite('set_mtu_check')}) and the port keeps "
                    "MTU 1500"
                )
            else:
                mtu = port.mtu_request
        vhost = port.type in VHOST_TYPES
        n_rxq = max(port.n_rxq if port.n_rxq is not None else NR_QUEUE, 1)
        if vhost:
            n_txq, rxq_size, txq_size = n_rxq, NIC_PORT_DEFAULT_Q_SIZE, NIC_PORT_DEFAULT_Q_SIZE
        else:
            n_txq, rxq_size, txq_size = n_pmd + 1, queue_size(port.n_rxq_desc, r), queue_size(port.n_txq_desc, r)
        pool_mtu = buf_size(mtu, p) - ETHER_HDR_LEN - ETHER_CRC_LEN
        socket = SOCKET0
        if not per_port_memory:
            pool_mtu = user_adjusted(pool_mtu, socket, users)
        room = pool_mtu + ETHER_HDR_LEN + ETHER_CRC_LEN  # MTU_TO_FRAME_LEN (PortPlan.data_room)
        name: str | None = None
        n_mbufs: int | None = None
        reused = False
        if vhost and not port.guest:
            pass  # no guest yet: no mempool (dpdk_vhost_reconfigure_helper)
        elif not per_port_memory and (socket, pool_mtu) in by_key:
            name, reused = by_key[(socket, pool_mtu)], True
            n_mbufs = int(pools[name]["n_mbufs"])  # type: ignore[call-overload]
        else:
            if per_port_memory:
                n_mbufs = n_rxq * rxq_size + n_txq * txq_size + min(p.max_lcore, n_rxq) * NETDEV_MAX_BURST + MIN_NB_MBUF
            else:
                n_mbufs = MAX_NB_MBUF if pool_mtu >= RTE_ETHER_MTU else MIN_NB_MBUF
            h = hash_string(port.name, 0, hash_variant)
            text = f"ovs{h:08x}{socket:02d}{pool_mtu:05d}{n_mbufs:07d}"
            if len(text) >= p.release.mempool_namesize:
                port_errors.append(
                    Rejection(
                        "ENAMETOOLONG",
                        f"port {port.name}: pool name {text!r} is {len(text)} characters; "
                        f"RTE_MEMPOOL_NAMESIZE is {p.release.mempool_namesize}: OVS gives up on the pool",
                        "dpdk_mp_create",
                        r.cite("name_fmt"),
                    )
                )
                n_mbufs = None
            else:
                name = text
                mp = _create(name, n_mbufs, room, r, p, port_errors)
                if mp is not None:
                    mempools.append(mp)
                    by_key[(socket, pool_mtu)] = name
                    pools[name] = {
                        "socket": socket,
                        "mtu": pool_mtu,
                        "n_mbufs": n_mbufs,
                        "data_room": room,
                        "priv_size": mp.elt_size - p.release.mbuf_size - room,
                        "ports": [],
                    }
                else:
                    name = None
        if name is not None:
            pools[name]["ports"].append(port.name)  # type: ignore[attr-defined]
        errors += port_errors
        plans.append(
            PortPlan(port, mtu, pool_mtu, n_rxq, n_txq, rxq_size, txq_size, n_mbufs, name, reused, tuple(port_errors))
        )
    allocations = tuple(Allocation("ovs_dpdk", DPDK_MP_SIZE, "struct dpdk_mp") for _ in mempools)
    return Plan(tuple(plans), tuple(mempools), allocations, tuple(errors), pools, tuple(notes))


def _create(name: str, n_mbufs: int, room: int, r: OvsRelease, p: Platform, errors: list[Rejection]) -> Mempool | None:
    """``rte_pktmbuf_pool_create`` as ``dpdk_mp_create`` calls it, through mpcalc's mbuf model."""
    packet = dp_packet_size(r, p)
    priv = packet - p.release.mbuf_size + ceil_a(packet + room, p.cache_line) - (packet + room)
    mp, rejected, _ = mbuf_pool(
        MbufSpec(name=name, count=n_mbufs, cache_size=p.release.cache_max_size, priv_size=priv, data_room=room), p
    )
    errors += rejected
    if mp is not None and not mp.memzones:  # DPDK refused it: its errors are the port's
        errors += mp.errors
        return None
    return mp
