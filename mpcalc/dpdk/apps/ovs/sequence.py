"""Open vSwitch reconfigured at run time: the pools alive after each change, and the peak.

OVS frees a pool nobody uses only inside the next pool request: ``dpdk_mp_get`` first looks for a pool to
reuse (shared memory: same socket and pool MTU, whatever its reference count), then sweeps every pool whose
reference count is 0 and whose mbufs are all back (``dpdk_mp_sweep``), then creates the pool it did not find
(v3.1.0:lib/netdev-dpdk.c:676-688, 841-896); the port's previous pool is released only after that
(``dpdk_mp_put`` in ``netdev_dpdk_mempool_configure``, :917-958), so it outlives the change that replaced it
until some port asks for a pool again.  With shared memory a change that keeps the MTU asks for no pool at
all (:924-930); with per-port memory every reconfiguration does, and a request for a pool that exists by
name takes it (EEXIST, :866-885).  A port deleted releases its pool (``common_destruct``, :1476-1481), which
stays until the next request too.  A pool is named after the port that asked for it first (its ``hash_string``).

A change is ``add NAME[,key=value...]`` (a port, as ``--port`` writes it), ``set NAME,key=value[,...]``
(its mtu_request, n_rxq, n_rxq_desc, n_txq_desc, guest) or ``del NAME``.  Mbufs held elsewhere (in another
port's Tx queues) would keep a pool from being swept: the model takes every released pool as full.

Pure: stdlib only.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from mpcalc.dpdk.apps.ovs.netdev import _INT_KEYS, DPDK_MP_SIZE, VHOST_TYPES, Port, parse_port, plan
from mpcalc.dpdk.apps.ovs.versions import OvsRelease
from mpcalc.dpdk.core.errors import InputError
from mpcalc.dpdk.core.heap import heap_cost
from mpcalc.dpdk.core.platform import Platform
from mpcalc.dpdk.core.records import Mempool

#: v3.1.0:lib/netdev-dpdk.c lines of the behaviour reproduced
SWEEP_SRC = "v3.1.0:lib/netdev-dpdk.c:676-688, 841-896, 917-958"


@dataclass
class _Pool:
    mp: Mempool
    pool_mtu: int
    refcount: int


def parse_change(text: str) -> tuple[str, str]:
    """``add p1,mtu_request=9000`` -> ("add", "p1,mtu_request=9000").

    >>> parse_change("set p0,mtu_request=9000"), parse_change("del p0")
    (('set', 'p0,mtu_request=9000'), ('del', 'p0'))
    """
    verb, _, rest = str(text).strip().partition(" ")
    if verb not in ("add", "set", "del") or not rest.strip():
        raise InputError(
            f"change {text!r}: write add NAME[,key=value...], set NAME,key=value[,...] or del NAME", param="--change"
        )
    return verb, rest.strip()


def _merged(old: Port, text: str) -> Port:
    """``old`` with the keys ``text`` (``NAME,key=value,...``) sets."""
    name, *pairs = [p.strip() for p in text.split(",")]
    given = dict(p.partition("=")[::2] for p in pairs if p)
    if "type" in given:
        raise InputError(f"change 'set {text}': a port's type cannot change (del and add it)", param="--change")
    keep = {k: str(getattr(old, k)) for k in _INT_KEYS if getattr(old, k) is not None}
    if old.type in VHOST_TYPES:
        keep["guest"] = "yes" if old.guest else "no"
    merged = {**keep, **given}
    return parse_port(",".join([name, f"type={old.type}", *(f"{k}={v}" for k, v in merged.items())]))


def replay(
    ports: Sequence[Port],
    changes: Sequence[str],
    per_port_memory: bool,
    pmd_cpu_mask: str | None,
    r: OvsRelease,
    p: Platform,
    hash_variant: str = "mhash",
    shared_mempool_config: str | None = None,
    cpus: Sequence[int] | None = None,
) -> tuple[list[dict[str, object]], dict[str, Mempool]]:
    """Each step (the ports added in order, then each change): the pools alive after it, their bytes on the
    heap (each with its ``struct dpdk_mp``), what it created and freed; and every pool by name."""
    pools: dict[str, _Pool] = {}
    current: dict[str, tuple[Port, str | None, int]] = {}  # port name -> (its settings, its pool, its MTU)
    every: dict[str, Mempool] = {}
    shapes: dict[str, tuple[object, ...]] = {}  # what netdev_dpdk_reconfigure compares, per port
    steps: list[dict[str, object]] = []

    def request(port: Port) -> tuple[list[str], list[str]]:
        """netdev_dpdk_reconfigure -> netdev_dpdk_mempool_configure for ``port``'s new settings."""
        pp = plan([port], per_port_memory, pmd_cpu_mask, r, p, hash_variant, shared_mempool_config, cpus).ports[0]
        old = current.get(port.name)
        shape = (pp.mtu, pp.n_rxq, pp.n_txq, pp.rxq_size, pp.txq_size, port.guest)
        if old is not None and shapes.get(port.name) == shape:
            current[port.name] = (port, old[1], pp.mtu)  # "Reconfiguration is unnecessary" (:5196-5208)
            return [], []
        shapes[port.name] = shape
        if port.type in VHOST_TYPES and not port.guest:
            current[port.name] = (port, old[1] if old else None, pp.mtu)
            return [], []
        if not per_port_memory and old is not None and old[1] is not None and old[2] == pp.mtu:
            current[port.name] = (port, old[1], pp.mtu)  # same MTU and socket: no pool asked for
            return [], []
        created: list[str] = []
        chosen: str | None = None
        if not per_port_memory:
            chosen = next((n for n, pl in pools.items() if pl.pool_mtu == pp.pool_mtu), None)
        if chosen is not None:
            pools[chosen].refcount += 1
        freed = [n for n, pl in pools.items() if pl.refcount == 0]  # dpdk_mp_sweep
        for n in freed:
            del pools[n]
        if chosen is None and pp.pool is not None:
            if pp.pool in pools:  # per-port memory: the pool exists by name (EEXIST): taken
                pools[pp.pool].refcount += 1
            else:
                mp = plan([port], per_port_memory, pmd_cpu_mask, r, p, hash_variant, shared_mempool_config, cpus)
                made = next(m for m in mp.mempools if m.name == pp.pool)
                pools[pp.pool] = _Pool(made, pp.pool_mtu, 1)
                every[pp.pool] = made
                created.append(pp.pool)
            chosen = pp.pool
        if chosen is not None and old is not None and old[1] is not None and old[1] in pools:
            pools[old[1]].refcount -= 1  # dpdk_mp_put of the port's previous pool
        current[port.name] = (port, chosen if chosen is not None else (old[1] if old else None), pp.mtu)
        return created, freed

    def record(what: str, created: list[str], freed: list[str]) -> None:
        alive = list(pools)
        steps.append(
            {
                "step": what,
                "created": created,
                "freed": freed,
                "alive": alive,
                "unused": [n for n in alive if pools[n].refcount == 0],
                "pool_heap_bytes": sum(pools[n].mp.heap_bytes + heap_cost(DPDK_MP_SIZE, p) for n in alive),
            }
        )

    for port in ports:
        created, freed = request(port)
        record(f"add {port.name}", created, freed)
    for text in changes:
        verb, rest = parse_change(text)
        name = rest.split(",", 1)[0].strip()
        if verb == "add":
            if name in current:
                raise InputError(f"change {text!r}: port {name!r} exists", param="--change")
            created, freed = request(parse_port(rest))
        elif name not in current:
            raise InputError(f"change {text!r}: no port {name!r}", param="--change")
        elif verb == "set":
            created, freed = request(_merged(current[name][0], rest))
        else:  # netdev_dpdk_destruct -> dpdk_mp_put: released, swept at the next request
            pool = current.pop(name)[1]
            shapes.pop(name, None)
            if pool is not None and pool in pools:
                pools[pool].refcount -= 1
            created, freed = [], []
        record(text, created, freed)
    return steps, every
