"""dpdk-l3fwd (examples/l3fwd at the release): its options, its mbuf pools and its routing tables.

main() (v22.11:examples/l3fwd/main.c:1480-1620): rte_eal_init (the vdev ports' probe), the event
resources' rte_zmalloc (l3fwd_get_eventdev_rsrc, l3fwd_event.c:29), parse_args, then
l3fwd_poll_resource_setup (main.c:1175-1420): per enabled port rte_eth_dev_configure with nb_rxq from
--config and one tx queue per lcore, init_mem on the first port (the mbuf pool ``mbuf_pool_<port>:<socket>``
of NB_MBUF, and once per socket the lookup tables of --lookup), the tx and rx queue set-ups; then
rte_eth_dev_start.

Routing tables per lookup mode, each created for IPv4 and IPv6 whatever --ipv6 says:

* lpm (default): rte_lpm_create ``IPV4_L3FWD_LPM_<s>`` (1024 rules, 256 tbl8s) and rte_lpm6_create
  ``IPV6_L3FWD_LPM_<s>`` (1024 rules, 65536 tbl8s) (l3fwd_lpm.c:36-39, 560-640);
* fib: rte_fib_create ``IPV4_L3FWD_FIB_<s>`` (DIR24_8, 65536 routes, 4-byte next hops, 32768 tbl8s) and
  rte_fib6_create ``IPV6_L3FWD_FIB_<s>`` (TRIE, 65535 routes, 4-byte, 32768 tbl8s) (l3fwd_fib.c:640-720);
* em: rte_hash_create ``ipv4_l3fwd_hash_<s>`` / ``ipv6_l3fwd_hash_<s>``, L3FWD_HASH_ENTRIES each
  (4 Mi on 64-bit), keys of 16 and 48 bytes (l3fwd.h:50-56, l3fwd_em.c:46-73, 963-1000).

The routes added (the default arrays or --rule_ipv4/--rule_ipv6 files) take no memory beyond the
tables' preallocated tbl8s and nodes.

Pure: stdlib only.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from mpcalc.dpdk import drivers
from mpcalc.dpdk.apps.eal import EalArgs
from mpcalc.dpdk.core.errors import InputError
from mpcalc.dpdk.core.platform import Platform
from mpcalc.dpdk.core.records import Allocation, Mempool
from mpcalc.dpdk.core.standalone import Parts
from mpcalc.dpdk.core.struct_sizes import check_option, since, sizes
from mpcalc.dpdk.drivers import ethdev
from mpcalc.dpdk.objects.fib import fib_parts
from mpcalc.dpdk.objects.fib_spec import FibSpec
from mpcalc.dpdk.objects.hash import hash_parts
from mpcalc.dpdk.objects.lpm import lpm_parts
from mpcalc.dpdk.objects.lpm6 import lpm6_parts
from mpcalc.dpdk.objects.mbuf import MbufSpec, mbuf_pool

# l3fwd.h at the release (v22.11:examples/l3fwd/l3fwd.h:23-56)
RX_DESC_DEFAULT = 1024
TX_DESC_DEFAULT = 1024
MAX_PKT_BURST = 32  # 512 from 24.11: see burst_and_cache
MEMPOOL_CACHE_SIZE = 256
NB_MBUF_FLOOR = 8192  # NB_MBUF's RTE_MAX(..., 8192), main.c:749-754
L3FWD_HASH_ENTRIES = 4 * 1024 * 1024  # RTE_ARCH_64
LOOKUPS = ("lpm", "fib", "em")

_WITH_VALUE = frozenset(
    {
        "config",
        "rx-queue-size",
        "tx-queue-size",
        "eth-dest",
        "max-pkt-len",
        "lookup",
        "rule_ipv4",
        "rule_ipv6",
        "mode",
        "eventq-sched",
        "event-eth-rxqs",
        "event-vector-size",
        "event-vector-tmo",
        "alg",
        "hash-entry-num",
        "rx-burst",
        "tx-burst",
        "mbcache",
        "eth-link-speed",
    }
)
_FLAGS = frozenset(
    {"no-numa", "ipv6", "parse-ptype", "per-port-pool", "event-vector", "disable-rss", "relax-rx-offload"}
)
#: options l3fwd gained after 21.11, and the release that has them: --rule_ipv4, --rule_ipv6 and --alg
#: (v22.11.11:examples/l3fwd/main.c:685-687); --disable-rss and --relax-rx-offload
#: (v23.11.7:examples/l3fwd/main.c:76-77, 866-877); --rx-burst, --tx-burst and --mbcache
#: (v24.11.6:examples/l3fwd/main.c:782-784, 935-943); --eth-link-speed, a fixed link speed
#: (v25.11.2:examples/l3fwd/main.c:762, 824, 930-940)
_SINCE = {
    "rule_ipv4": "22.11",
    "rule_ipv6": "22.11",
    "alg": "22.11",
    "disable-rss": "23.11",
    "relax-rx-offload": "23.11",
    "rx-burst": "24.11",
    "tx-burst": "24.11",
    "mbcache": "24.11",
    "eth-link-speed": "25.11",
}
_NOT_MODELLED = {
    # init_mem creates them in poll mode too (v22.11.11:examples/l3fwd/main.c:1016-1030)
    "event-vector": "event vector pools",
}
#: options parse_args refuses in poll mode, the only mode modelled: l3fwd's own message and line
#: (v22.11.11:examples/l3fwd/main.c:914-922; v26.07:examples/l3fwd/main.c:1065-1073)
_POLL_REFUSES = {
    "event-eth-rxqs": (
        "eth_rx_queues is valid only when event mode is selected",
        "v22.11.11:examples/l3fwd/main.c:914-917",
    ),
    "eventq-sched": (
        "eventq_sched is valid only when event mode is selected",
        "v22.11.11:examples/l3fwd/main.c:919-922",
    ),
}


@dataclass
class L3fwdArgs:
    portmask: int = 0
    config: list[tuple[int, int, int]] = field(default_factory=list)
    lookup: str = "lpm"
    nb_rxd: int = RX_DESC_DEFAULT
    nb_txd: int = TX_DESC_DEFAULT
    per_port_pool: bool = False
    ipv6: bool = False
    numa: bool = True
    relax_rx_offload: bool = False
    parse_ptype: bool = False
    mbcache: int | None = None  # --mbcache (24.11+); None: MEMPOOL_CACHE_SIZE
    max_pkt_len: int = 0  # 0: the port's default MTU
    given: set[str] = field(default_factory=set)

    def to_dict(self) -> dict[str, object]:
        return {
            "portmask": hex(self.portmask),
            "config": [list(c) for c in self.config],
            "lookup": self.lookup,
            "rx_queue_size": self.nb_rxd,
            "tx_queue_size": self.nb_txd,
            "per_port_pool": self.per_port_pool,
            "ipv6": self.ipv6,
            "numa": self.numa,
        }


def _num(text: str, what: str, base: int = 0) -> int:
    try:
        return int(text, base)
    except ValueError:
        raise InputError(f"l3fwd {what} {text!r} is not a number", param="command") from None


def parse_config(text: str) -> list[tuple[int, int, int]]:
    """``--config "(port,queue,lcore),..."`` (parse_config, v22.11:examples/l3fwd/main.c:470-520).

    >>> parse_config("(0,0,1),(1,0,1)")
    [(0, 0, 1), (1, 0, 1)]
    """
    out = []
    for m in re.finditer(r"\(([^)]*)\)", text):
        fields = [f.strip() for f in m[1].split(",")]
        if len(fields) != 3:
            raise InputError(f"l3fwd --config {text!r}: each entry is (port,queue,lcore)", param="command")
        port, queue, lcore = (_num(f, "--config", 10) for f in fields)
        out.append((port, queue, lcore))
    if not out:
        raise InputError(f"l3fwd --config {text!r}: no (port,queue,lcore) entry", param="command")
    return out


def parse(argv: list[str], p: Platform | None = None) -> L3fwdArgs:
    """parse_args (v22.11:examples/l3fwd/main.c:760-960), for what changes memory; with ``p``, the options of
    ``p``'s release only."""
    out = L3fwdArgs()
    i = 0
    while i < len(argv):
        tok = argv[i]
        i += 1
        if tok in ("-P",):
            continue
        if tok == "-L":
            out.lookup = "lpm"
            continue
        if tok == "-E":
            out.lookup = "em"
            continue
        if tok.startswith("-p"):
            value = tok[2:] or (argv[i] if i < len(argv) else "")
            i += 0 if tok[2:] else 1
            out.portmask = _num(value, "-p", 16)
            continue
        if not tok.startswith("--"):
            raise InputError(f"l3fwd does not know the argument {tok!r}", param="command")
        name, eq, value = tok[2:].partition("=")
        if name in _WITH_VALUE and not eq:
            if i >= len(argv):
                raise InputError(f"l3fwd --{name} needs a value", param="command")
            value = argv[i]
            i += 1
        elif name not in _WITH_VALUE | _FLAGS:
            raise InputError(
                f"l3fwd does not know the option --{name} (it exits: 'Invalid L3FWD parameters')", param="command"
            )
        check_option("l3fwd", name, p, _SINCE, {}, "Invalid L3FWD parameters")
        if name in _NOT_MODELLED:
            raise InputError(f"l3fwd --{name}: {_NOT_MODELLED[name]} is not modelled", param="command")
        if name == "mode" and value == "eventdev":
            raise InputError(
                "l3fwd --mode=eventdev: the eventdev mode (its event device, queues and adapters) is not modelled",
                param="command",
            )
        out.given.add(name)
        if name == "relax-rx-offload":
            out.relax_rx_offload = True
        elif name == "parse-ptype":
            out.parse_ptype = True
        elif name == "mbcache":
            # parse_mbcache_size: at most RTE_MEMPOOL_CACHE_MAX_SIZE, else l3fwd exits; a non-number is
            # ignored (v24.11.6:examples/l3fwd/main.c:685-698)
            if value.isdigit():
                if int(value) > 512:
                    raise InputError(f"l3fwd --mbcache {value}: at most 512 (l3fwd exits)", param="command")
                out.mbcache = int(value)
        elif name == "config":
            out.config = parse_config(value)
        elif name == "lookup":
            if value not in (*LOOKUPS, "acl"):
                raise InputError(f"l3fwd --lookup={value!r}: one of lpm, fib, em, acl", param="command")
            if value == "acl" and p is not None and not since(p, "22.11"):
                # parse_lookup knows em, lpm and fib at 21.11 (v21.11.9:examples/l3fwd/main.c:597-607)
                raise InputError(
                    "l3fwd --lookup=acl: l3fwd has it from DPDK 22.11 (it exits: 'Invalid lookup "
                    "option! Accepted options: em, lpm, fib')",
                    param="command",
                )
            if value == "acl":
                raise InputError("l3fwd --lookup=acl: the ACL contexts are not modelled", param="command")
            out.lookup = value
        elif name == "max-pkt-len":
            # parse_max_pkt_len, then config_port_max_pkt_len refuses what is not RTE_ETHER_MIN_LEN..
            # MAX_JUMBO_PKT_LEN 9600 and l3fwd exits (v26.07:examples/l3fwd/main.c:471-485, 750, 1310-1319)
            n = int(value) if value.isdigit() else 0
            if not 64 <= n <= 9600:
                raise InputError(f"l3fwd --max-pkt-len {value}: l3fwd takes 64..9600 (it exits)", param="command")
            out.max_pkt_len = n
        elif name == "rx-queue-size":
            out.nb_rxd = _num(value, "--rx-queue-size", 10)
        elif name == "tx-queue-size":
            out.nb_txd = _num(value, "--tx-queue-size", 10)
        elif name == "per-port-pool":
            out.per_port_pool = True
        elif name == "ipv6":
            out.ipv6 = True
        elif name == "no-numa":
            out.numa = False
        elif name == "hash-entry-num":
            # parsed, but setup_hash sizes both tables with L3FWD_HASH_ENTRIES (l3fwd_em.c:963-976)
            pass
    # --mode: parse_mode sets the eventdev mode for "eventdev" only; "poll", l3fwd's default, and any other word
    # leave the poll mode (v22.11.11:examples/l3fwd/main.c:567-576); --event-vector-size/-tmo without
    # --event-vector are values nothing reads (main.c:887-893, 924-935)
    for name, (message, where) in _POLL_REFUSES.items():
        if name in out.given:
            raise InputError(f"l3fwd --{name}: l3fwd exits: '{message}' ({where})", param="command")
    if not out.config:
        raise InputError(
            "l3fwd: give --config: its default uses lcores 2 and 3 on ports 0-3 "
            "(lcore_params_array_default, main.c:95-105)",
            param="command",
        )
    if not out.portmask:
        raise InputError("l3fwd: give -p PORTMASK (without it l3fwd exits: 'invalid portmask')", param="command")
    return out


def burst_and_cache(p: Platform) -> tuple[int, int]:
    """MAX_PKT_BURST and MEMPOOL_CACHE_SIZE at the release: 32 and 256 up to 23.11
    (v23.11.7:examples/l3fwd/l3fwd.h:26-29); 512 and RTE_MEMPOOL_CACHE_MAX_SIZE (512) from 24.11
    (v24.11.6:examples/l3fwd/l3fwd.h:26-30), where --rx-burst/--tx-burst choose the bursts below it."""
    return (512, 512) if since(p, "24.11") else (MAX_PKT_BURST, MEMPOOL_CACHE_SIZE)


def nb_mbuf(
    nports: int, nb_rx_queue: int, nb_lcores: int, n_tx_queue: int, t: L3fwdArgs, p: Platform | None = None
) -> int:
    """NB_MBUF(nports) (v22.11:examples/l3fwd/main.c:749-754, v24.11.6:examples/l3fwd/main.c:856-861), with
    nb_rx_queue the port being set up's; the constants, not --mbcache or the bursts, at the release."""
    burst, cache = burst_and_cache(p) if p is not None else (MAX_PKT_BURST, MEMPOOL_CACHE_SIZE)
    return max(
        nports * nb_rx_queue * t.nb_rxd
        + nports * nb_lcores * burst
        + nports * n_tx_queue * t.nb_txd
        + nb_lcores * cache,
        NB_MBUF_FLOOR,
    )


def lookup_parts(mode: str, socket: int, p: Platform) -> tuple[Parts, list[Mempool]]:
    """The lookup tables setup_lpm / setup_fib / setup_hash create on one socket, IPv4 then IPv6."""
    out = Parts()
    pools: list[Mempool] = []
    if mode == "lpm":
        out.extend(lpm_parts(f"IPV4_L3FWD_LPM_{socket}", 1024, 1 << 8, p))
        v6, _ = lpm6_parts(f"IPV6_L3FWD_LPM_{socket}", 1024, 1 << 16, p)
        out.extend(v6)
    elif mode == "fib":
        for spec in (
            FibSpec(4, f"IPV4_L3FWD_FIB_{socket}", 1 << 16, "dir24_8", 4, 1 << 15),
            FibSpec(6, f"IPV6_L3FWD_FIB_{socket}", (1 << 16) - 1, "trie", 4, 1 << 15),
        ):
            mps, allocs, errs = fib_parts(spec, 0, p)
            pools += mps
            out.allocations += allocs
            out.errors += errs
    else:
        for name, key_len in ((f"ipv4_l3fwd_hash_{socket}", 16), (f"ipv6_l3fwd_hash_{socket}", 48)):
            h, _ = hash_parts(name, L3FWD_HASH_ENTRIES, key_len, 0, p)
            out.extend(h)
    return out, pools


def build(e: EalArgs, argv: list[str], p: Platform) -> tuple[Parts, list[Mempool], dict[str, object], list[str]]:
    """Everything l3fwd reserves up to its main loop, in its order."""
    t = parse(argv, p)
    s = sizes(p)  # the struct sizes measured at the release (refuses the others)
    notes: list[str] = []
    ports = ethdev.probed_ports(e, p, "l3fwd", notes)
    nb_lcores = len(e.lcores)  # rte_lcore_count(): the main lcore forwards too
    for cfg_port, _, lcore in t.config:  # check_lcore_params / check_port_config (main.c:290-360)
        if lcore not in e.lcores:
            raise InputError(f"l3fwd --config: lcore {lcore} is not enabled (l3fwd exits)", param="command")
        if cfg_port >= len(ports) or not t.portmask >> cfg_port & 1:
            raise InputError(f"l3fwd --config: port {cfg_port} is not an enabled port (l3fwd exits)", param="command")
    parts = Parts()
    pools: list[Mempool] = []
    parts.extend(ethdev.probe_ports(ports, p))
    parts.allocations.append(Allocation("l3fwd", s["l3fwd_event_resources"], "l3fwd event resources"))
    n_tx_queue = nb_lcores  # one per lcore, up to MAX_TX_QUEUE_PER_PORT = RTE_MAX_LCORE
    lookups_done = False
    pool_sizes: dict[str, int] = {}
    configured: dict[int, tuple[ethdev.Port, ethdev.QueueConf]] = {}

    def add(setup: Parts) -> None:
        """A queue set-up's or start's parts, the pools it makes among the application's, in their order."""
        pools.extend(setup.mempools)
        setup.mempools = []
        parts.extend(setup)

    for port in ports:
        if not t.portmask >> port.port_id & 1:
            continue
        nb_rxq = max((q + 1 for pt, q, _ in t.config if pt == port.port_id), default=0)
        q = ethdev.QueueConf(
            nb_rxq,
            n_tx_queue,
            t.nb_rxd,
            t.nb_txd,
            lsc_interrupt=False,
            rx_data_room=p.release.mbuf_default_dataroom + p.release.pktmbuf_headroom,
            mtu=ethdev.mtu_of(t.max_pkt_len),
            # a port's Tx queues are set up in its init loop, the Rx queues after every port's
            # (v22.11.11:examples/l3fwd/main.c:1316, 1364): Tx first (two ports: p0 Tx, p1 Tx, p0 Rx, p1 Rx there)
            tx_first=True,
        )
        # port_conf asks for RTE_ETH_RX_OFFLOAD_CHECKSUM (v22.11.11:examples/l3fwd/main.c:119-124), masked by the
        # port's capabilities with --relax-rx-offload (v23.11.7:examples/l3fwd/main.c:1297-1310);
        # config_port_max_pkt_len adds Tx MULTI_SEGS above RTE_ETHER_MTU and MBUF_FAST_FREE when the port has it
        # (v22.11.11:examples/l3fwd/main.c:1154-1174, 1236-1238)
        rx_capa, tx_capa = ethdev.offload_capa(port, p)
        rx = ethdev.RX_OFFLOAD_CHECKSUM & (rx_capa if t.relax_rx_offload else ~0)
        tx = (ethdev.TX_OFFLOAD_MULTI_SEGS if q.mtu > ethdev.RTE_ETHER_MTU else 0) | (
            ethdev.TX_OFFLOAD_MBUF_FAST_FREE & tx_capa
        )
        q = replace(q, rx_offloads=rx, tx_offloads=tx)  # port_conf's, which the queue set-ups read
        why = ethdev.configure_refusal(port, q, p, rx, tx)
        if why is not None:
            hint = ""
            if "Rx offloads" in why:
                hint = (
                    f"; l3fwd asks every port for RX checksum offload, which {port.driver} does not offer: use "
                    "net_tap ports, or --relax-rx-offload (23.11+)"
                )
            raise InputError(
                f"{why}: l3fwd exits ('Cannot configure device: err=-22, port={port.port_id}', "
                f"v22.11.11:examples/l3fwd/main.c:1255-1260){hint}",
                param="command",
            )
        # rte_eth_dev_configure, then init_mem, then the port's Tx queues (v22.11.11:examples/l3fwd/main.c:1255,
        # 1290-1295, 1301-1316); every port's Rx queues after the port loop, by lcore (:1333-1375), then each
        # port's rte_eth_dev_start (:1526-1531) and the ptype callbacks by lcore (:1559-1566)
        conf = ethdev.dev_configure(port, q, p)
        # a driver's own pool (net_tap's mp_<device>, made as its first queue is set up) comes after init_mem's
        driver_pools, conf.mempools = conf.mempools, []
        parts.extend(conf)
        notes += ethdev.port_notes([port], q, p)  # from its source only, memory outside the heap
        # init_mem: one pool per socket (per port with --per-port-pool), lookups once per socket (main.c:969-1013)
        if t.per_port_pool or not pools:
            n = nb_mbuf(1 if t.per_port_pool else len(ports), nb_rxq, nb_lcores, n_tx_queue, t, p)
            name = f"mbuf_pool_{port.port_id if t.per_port_pool else 0}:0"
            cache = burst_and_cache(p)[1] if t.mbcache is None else t.mbcache
            mp, errs, _ = mbuf_pool(
                MbufSpec(
                    name=name,
                    count=n,
                    cache_size=cache,
                    data_room=p.release.mbuf_default_dataroom + p.release.pktmbuf_headroom,
                ),
                p,
            )
            parts.errors += errs
            if mp is not None:
                pools.append(mp)
                pool_sizes[name] = n
        if not lookups_done:
            tables, table_pools = lookup_parts(t.lookup, 0, p)
            parts.extend(tables)
            pools += table_pools
            lookups_done = True
        pools += driver_pools
        add(ethdev.queue_setups(port, q, p, "tx"))
        configured[port.port_id] = (port, q)
    # each lcore's Rx queues, in --config order (init_lcore_rx_queues), lcore by lcore
    rx_queues = [(pt, queue) for lcore in sorted(e.lcores) for pt, queue, lc in t.config if lc == lcore]
    for pt, queue in rx_queues:
        port, q = configured[pt]
        add(ethdev.queue_setups(port, q, p, "rx", [queue]))
    for port, q in configured.values():
        add(ethdev.dev_start(port, q, p))
    for pt, queue in rx_queues:
        port, _ = configured[pt]
        # prepare_ptype_parser per rx queue: --parse-ptype adds an rx callback, rte_zmalloc(NULL, struct
        # rte_eth_rxtx_callback) (v24.11.6:examples/l3fwd/main.c:1261-1280, lib/ethdev/rte_ethdev.c:5849);
        # without it a port that cannot classify packets (net_null, net_ring) makes l3fwd exit
        if t.parse_ptype:
            parts.allocations.append(
                Allocation(
                    "(null)",
                    s["eth_rxtx_callback"],
                    f"port {port.port_id} queue {queue} rx callback (--parse-ptype)",
                )
            )
        elif not drivers.get(port.driver).classifies_ptypes:
            raise InputError(
                f"{port.name}: {port.driver} does not classify packet types: l3fwd exits ('port "
                f"{port.port_id} cannot parse packet type, please add --parse-ptype')",
                param="command",
            )
    if not t.numa:
        notes.append("--no-numa: every pool and table on socket 0 (as with one socket)")
    details: dict[str, object] = {
        "l3fwd": t.to_dict(),
        "ports": [pt.to_dict() for pt in ports],
        "mbuf_pools": pool_sizes,
        "tx_queues_per_port": n_tx_queue,
    }
    return parts, pools, details, notes
