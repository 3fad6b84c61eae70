"""A DPDK run replayed from its trace: every memzone, every ``rte_malloc`` element and every mempool, as
DPDK reserved and freed them, with the heap they take per socket.

The events and what DPDK does when it emits them (v22.11; the same calls 21.11 to 26.07):

* ``lib.eal.memzone.reserve {name, len, socket_id, flags, align, bound, mz}``: ``len`` is the length asked
  for; the memzone is ``memzone_len`` of it (lib/eal/common/eal_common_memzone.c:123-126) and one heap
  element; ``mz`` 0 is a reservation that failed.  ``lib.eal.memzone.free {name, addr, rc}`` frees it, after
  a ``lib.eal.mem.free`` of the same ``addr`` (rte_memzone_free frees the element through rte_free).
* ``lib.eal.mem.malloc/zmalloc {type, size, align, socket, ptr}``: ``rte_zmalloc_socket`` is
  ``rte_malloc_socket`` and then its own event, so a ``zmalloc`` right after a ``malloc`` of the same pointer
  in the same thread is the same element (lib/eal/common/rte_malloc.c:109-130).  DPDK never traces a size of
  0 (``malloc_socket`` returns first, :59-61), so a size of 0 is an event whose payload was lost:
  ``rte_trace_point_emit_string(NULL)`` returns before writing it (lib/eal/include/rte_trace_point.h:369-372),
  which is what ``rte_malloc(NULL, ...)`` and a moving ``rte_realloc`` (its ``rte_malloc_socket(NULL, ...)``)
  leave.  ``lib.eal.mem.realloc {size, align, socket, ptr}`` is a resize in place, or, for a pointer not
  live, the new element of a move (its size rounded to the cache line, :171-209): the lost malloc before it.
* ``lib.eal.mem.free {ptr}``: ``rte_free`` (NULL is traced and ignored, :34-41).
* ``lib.mempool.create.empty {name, nb_elts, elt_size, cache_size, private_data_size, flags, ...}``: a
  pool's creation arguments (``flags`` with DPDK's internal NON_IO bit); ``lib.mempool.set.ops.byname``
  its driver; ``lib.mempool.get.page.size`` the page size it laid its objects out for;
  ``lib.mempool.free`` the end of it.  Its memzones are ``MP_<name>``, ``MP_<name>_<n>`` and
  ``RG_MP_<name>``; its allocations (tailq entries, ``MEMPOOL_MEMHDR``) are those made while it is built.
* ``lib.ethdev.configure/rxq.setup/txq.setup``: the ports, their queues and descriptor counts.

Pure: stdlib only.
"""

from __future__ import annotations

import gc
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import NamedTuple

from mpcalc.dpdk.apps.trace.events import Event, Stream
from mpcalc.dpdk.core.errors import InputError
from mpcalc.dpdk.core.heap import element_cost, memzone_len
from mpcalc.dpdk.core.platform import Platform
from mpcalc.dpdk.core.tuples import positional

__all__ = [
    "HANDLED",
    "LOST_TYPE",
    "NEEDED",
    "TEARDOWN",
    "Live",
    "PoolRecord",
    "Port",
    "Replay",
    "TraceAlloc",
    "TraceZone",
    "replay",
]

#: the tracepoints a replay needs: every DPDK process mallocs in rte_eal_init (rte_service_init), so a trace
#: without it was recorded without them (a secondary process reserves no memzone: it looks the primary's up)
NEEDED = ("lib.eal.mem.malloc",)
#: the events that end the start-up (its ports stopping): its live set is the one just before the first of them
TEARDOWN = frozenset({"lib.ethdev.stop", "lib.ethdev.close"})
#: the type an allocation whose payload the trace lost is listed under
LOST_TYPE = "(payload lost: rte_malloc with a NULL type)"
#: SOCKET_ID_ANY
_ANY = -1

_CHUNK = re.compile(r"^(.+)_(\d+)$")


class TraceZone(NamedTuple):
    """A memzone the run reserved: ``requested`` is the trace's ``len``; ``owner`` the pool it is part of."""

    name: str
    requested: int
    socket: int
    flags: int
    align: int
    bound: int
    seq: int
    owner: str = ""


class TraceAlloc(NamedTuple):
    """An ``rte_malloc`` element: its type string, requested size (0 where the trace lost it) and where."""

    type: str
    size: int
    align: int
    socket: int
    ptr: int
    seq: int
    owner: str = ""
    lost: bool = False
    #: a lost payload whose element was recovered from its neighbours' addresses (``size`` is then its share)
    recovered: bool = False


@dataclass
class PoolRecord:
    """A mempool's creation as the trace recorded it (``lib.mempool.create.empty``) and what became of it."""

    name: str
    count: int
    elt_size: int
    cache_size: int
    private_size: int
    flags: int
    seq: int
    ptr: int
    ops: str = ""
    page_size: int | None = None
    populated: str = ""  # "default", "anon", or "" (populated by hand, or not at all)
    freed: bool = False


@dataclass
class Port:
    """An ethdev port's configuration as ``rte_eth_dev_configure`` and the queue set-ups recorded it."""

    port_id: int
    rx_queues: int = 0
    tx_queues: int = 0
    rx_desc: dict[int, int] = field(default_factory=dict)
    tx_desc: dict[int, int] = field(default_factory=dict)
    mtu: int = 0

    def to_dict(self) -> dict[str, object]:
        return {
            "port_id": self.port_id,
            "rx_queues": self.rx_queues,
            "tx_queues": self.tx_queues,
            "rx_desc": sorted(set(self.rx_desc.values())),
            "tx_desc": sorted(set(self.tx_desc.values())),
            "mtu": self.mtu,
        }


class Live(NamedTuple):
    """The memory alive at one point of the run: memzones by name, elements by pointer, pools by name, and the
    lost-payload allocations (no pointer known)."""

    seq: int
    zones: dict[str, TraceZone]
    allocs: dict[int, TraceAlloc]
    lost: tuple[TraceAlloc, ...]
    pools: dict[str, PoolRecord]


@dataclass
class Replay:
    """The whole run: its streams, the live sets at the end of start-up and at the end, the peak per socket."""

    source: str
    events: int
    streams: list[Stream]
    env: dict[str, str]
    counts: dict[str, int]
    startup: Live
    #: how the end of start-up was found
    startup_rule: str
    end: Live
    #: socket -> (the heap's peak bytes, the event number at which it was reached)
    peak: dict[int, tuple[int, int]]
    pools: dict[str, PoolRecord]
    ports: dict[int, Port]
    #: reservations DPDK refused: (what, name, size)
    failed: list[tuple[str, str, int]]
    #: frees of pointers the trace never allocated (their allocation is outside the trace)
    unseen_frees: list[int]
    #: the page sizes mempools laid their objects out for (lib.mempool.get.page.size)
    page_sizes: set[int]
    #: the number of events of each tracepoint name the replay does not use
    unused: dict[str, int]


_alloc = positional(TraceAlloc)
_NO_PEAK = (0, 0)


class _State:
    """The replay's running state, one handler an event name."""

    def __init__(self, platform: Platform) -> None:
        self.p = platform
        self.zones: dict[str, TraceZone] = {}
        self.allocs: dict[int, TraceAlloc] = {}
        self.lost: dict[int, TraceAlloc] = {}  # by the event number that made it
        self.pools: dict[str, PoolRecord] = {}
        self.live_pools: dict[str, PoolRecord] = {}
        self.by_ptr: dict[int, str] = {}  # a mempool's pointer -> its name
        self.ports: dict[int, Port] = {}
        self.failed: list[tuple[str, str, int]] = []
        self.unseen: dict[int, int] = {}  # freed pointers not seen allocated -> event number
        self.heap: dict[int, int] = {}
        self.peak: dict[int, tuple[int, int]] = {}
        self.page_sizes: set[int] = set()
        self.counts: dict[str, int] = {}
        self.unused: dict[str, int] = {}
        #: per stream: the last malloc event's element (a zmalloc right after it is the same one)
        self.last_malloc: dict[int, TraceAlloc | None] = {}
        #: per stream: the pool being built (its name) and the last MEMPOOL_TAILQ_ENTRY not yet claimed
        self.building: dict[int, str] = {}
        self.tailq: dict[int, int] = {}
        self.seq = 0
        #: lost payloads recovered from addresses: the start of the last element whose address is known, what
        #: was reserved since (lost elements, and memzones of known cost), and whether nothing was freed since
        self.anchor: int | None = None
        self.pending: list[TraceAlloc | int] = []
        self.header, self.line = platform.malloc_elem_header, platform.cache_line
        self.recovered = 0
        self.unseen_zones: list[str] = []
        self.first_teardown = ""
        self.zone_addr = 0  # the address of the memzone last freed, until its rte_free comes

    # --- the heap -------------------------------------------------------------------------------
    def _socket(self, socket: int) -> int:
        return 0 if socket < 0 else socket

    def _zone_cost(self, z: TraceZone) -> int:
        return element_cost(memzone_len(z.requested, self.p), self.header, self.line)

    def _alloc_cost(self, a: TraceAlloc) -> int:
        line = self.line  # element_cost, inline: the busiest path of a replay
        return self.header + (a.size + line - 1 if a.size else line) // line * line

    def _grow(self, socket: int, by: int) -> None:
        s = self._socket(socket)
        now = self.heap.get(s, 0) + by
        self.heap[s] = now
        if by > 0 and now > self.peak.get(s, (0, 0))[0]:
            self.peak[s] = (now, self.seq)

    def live(self) -> Live:
        return Live(self.seq, dict(self.zones), dict(self.allocs), tuple(self.lost.values()), dict(self.live_pools))

    # --- memzones -------------------------------------------------------------------------------
    def memzone_reserve(self, e: Event) -> None:
        f = e.fields
        name, requested = str(f["name"]), int(f["len"])
        if not f.get("mz"):
            self.failed.append(("memzone", name, requested))
            return
        owner = self._zone_owner(name, e.stream.index)
        z = TraceZone(
            name, requested, int(f["socket_id"]), int(f["flags"]), int(f["align"]), int(f["bound"]), self.seq, owner
        )
        old = self.zones.get(name)
        if old is not None:  # DPDK refuses a duplicate name (EEXIST) before it traces: a lost free
            self._grow(old.socket, -self._zone_cost(old))
        self.zones[name] = z
        self._grow(z.socket, self._zone_cost(z))
        if z.align > self.p.cache_line or z.bound:
            self.anchor = None  # its padding depends on its address
        else:
            self.pending.append(self._zone_cost(z))

    def _zone_owner(self, name: str, stream: int) -> str:
        """The pool a memzone is part of, by rte_mempool's names: ``MP_<pool>`` (its header, reserved before
        the pool's create.empty event), ``RG_MP_<pool>`` (its ring), ``MP_<pool>_<n>`` (its objects)."""
        ring = name.startswith("RG_MP_")
        if not ring and not name.startswith("MP_"):
            from mpcalc.dpdk.drivers import zone_owner

            driver = zone_owner(name)  # a driver's own memzone (a vring, a DMA ring, net_ring's rings)
            return driver if driver is not None and driver != "ethdev" else ""
        rest = name[6:] if ring else name[3:]
        building = self.building.get(stream)
        if rest in self.live_pools or rest == building:
            return rest
        m = _CHUNK.match(rest)
        if not ring and m and (m.group(1) in self.live_pools or m.group(1) == building):
            return m.group(1)
        if ring:
            return ""
        self.building[stream] = rest  # MP_<pool>: rte_mempool_create_empty starts a pool
        return rest

    def memzone_free(self, e: Event) -> None:
        self.anchor = None
        f = e.fields
        if int(f.get("rc", 0)):
            return
        z = self.zones.pop(str(f["name"]), None)
        if z is not None:
            self._grow(z.socket, -self._zone_cost(z))
        else:  # every reservation is traced: a free of a memzone never reserved means the start was lost
            self.unseen_zones.append(str(f["name"]))
        # its rte_free names its address: just before it up to 23.11, just after from 24.11 (memzone_free)
        addr = int(f.get("addr", 0))
        if self.unseen.pop(addr, None) is None:
            self.zone_addr = addr

    # --- malloc ---------------------------------------------------------------------------------
    def _add(self, a: TraceAlloc) -> None:
        if a.lost:
            self.lost[a.seq] = a
        else:
            old = self.allocs.get(a.ptr)
            if old is not None:  # a pointer handed out twice: its free was not traced
                self._grow(old.socket, -self._alloc_cost(old))
            self.allocs[a.ptr] = a
        self._grow(a.socket, self._alloc_cost(a))

    def _owner(self, e: Event) -> str:
        return self.building.get(e.stream.index, "")

    def malloc(self, e: Event, zeroed: bool = False) -> None:
        f = e.fields
        size, ptr, sid = f["size"], f["ptr"], e.stream.index
        if not isinstance(size, int) or not isinstance(ptr, int):
            raise TypeError(f"size {size!r} and ptr {ptr!r} are not integers")
        if zeroed:
            last = self.last_malloc.get(sid)
            self.last_malloc[sid] = None
            if last is not None and (last.ptr == ptr or (last.lost and size == 0)):
                if last.socket != int(f["socket"]) and not last.lost and int(f["socket"]) >= 0:
                    # malloc_socket traced SOCKET_ID_ANY under --no-huge; zmalloc traces the caller's socket
                    self._grow(last.socket, -self._alloc_cost(last))
                    moved = last._replace(socket=int(f["socket"]))
                    self.allocs[ptr] = moved
                    self._grow(moved.socket, self._alloc_cost(moved))
                return
        if size == 0:  # DPDK does not trace a size of 0: the payload was lost
            a = TraceAlloc(LOST_TYPE, 0, 0, _ANY, 0, self.seq, self._owner(e), lost=True)
            self._add(a)
            self.pending.append(a)
            self.last_malloc[sid] = a
            return
        if ptr == 0:
            self.failed.append(("rte_malloc", str(f["type"]), size))
            self.last_malloc[sid] = None
            return
        kind = str(f["type"])
        owner = self.building.get(sid, "")
        if kind == "MEMPOOL_TAILQ_ENTRY" and not owner:
            self.tailq[sid] = ptr
        socket, align = int(f["socket"]), int(f["align"])
        a = _alloc((kind, size, align, socket, ptr, self.seq, owner, False, False))
        line, heap = self.line, self.heap  # _grow and _alloc_cost, inline: the busiest path of a replay
        old = self.allocs.get(ptr)
        if old is not None:  # a pointer handed out twice: its free was not traced
            s, was = old.socket if old.socket > 0 else 0, old.size
            heap[s] = heap.get(s, 0) - self.header - (was + line - 1 if was else line) // line * line
        self.allocs[ptr] = a
        s = socket if socket > 0 else 0
        now = heap.get(s, 0) + self.header + (size + line - 1) // line * line
        heap[s] = now
        if now > self.peak.get(s, _NO_PEAK)[0]:
            self.peak[s] = (now, self.seq)
        self.last_malloc[sid] = a
        if self.pending or align > line:
            self._anchor(a)
        else:
            self.anchor = ptr - self.header

    def _anchor(self, a: TraceAlloc) -> None:
        """A known element: the lost ones reserved between it and the previous known one, with nothing freed
        in between, fill the gap of addresses between the two (malloc_elem_alloc carves each element from the
        top of the free element it splits, lib/eal/common/malloc_elem.c:420-470), less the memzones among them."""
        line, header = self.line, self.header
        if a.align > line:
            self.anchor, self.pending = None, []
            return
        start = a.ptr - header
        if not self.pending:  # the usual case: nothing lost since the last known element
            self.anchor = start
            return
        end = a.ptr + (-(-max(a.size, 1) // line) * line)
        lost = [x for x in self.pending if isinstance(x, TraceAlloc)]
        if lost and self.anchor is not None and self.anchor >= end:
            gap = self.anchor - end - sum(x for x in self.pending if isinstance(x, int))
            least = header + line
            if gap >= least * len(lost) and gap % line == 0:
                shares = [least] * (len(lost) - 1) + [gap - least * (len(lost) - 1)]
                for old, cost in zip(lost, shares, strict=True):
                    if self.lost.get(old.seq) is not old:
                        continue
                    new = old._replace(size=cost - header, recovered=True)
                    self.lost[old.seq] = new
                    self._grow(old.socket, cost - self._alloc_cost(old))
                    self.recovered += 1
        self.anchor, self.pending = start, []

    def zmalloc(self, e: Event) -> None:
        f, sid = e.fields, e.stream.index
        last = self.last_malloc.get(sid)
        if last is not None and last.ptr == f["ptr"] and last.socket == f["socket"] and not last.lost:
            self.last_malloc[sid] = None  # the usual rte_zmalloc: its malloc, just traced
            return
        self.malloc(e, zeroed=True)

    def realloc(self, e: Event) -> None:
        self.anchor = None
        f = e.fields
        size, ptr = int(f["size"]), int(f["ptr"])
        if not ptr:
            return
        old = self.allocs.get(ptr)
        if old is not None:  # resized in place
            self._grow(old.socket, -self._alloc_cost(old))
            new = old._replace(size=size)
            self.allocs[ptr] = new
            self._grow(new.socket, self._alloc_cost(new))
            return
        # moved: the new element is the lost malloc just before (rte_malloc_socket(NULL, ...))
        moved = self.lost.pop(max(self.lost), None) if self.lost else None
        if moved is not None:
            self._grow(moved.socket, -self._alloc_cost(moved))
        a = TraceAlloc("(rte_realloc)", size, int(f["align"]), int(f["socket"]), ptr, self.seq)
        self.allocs[ptr] = a
        self._grow(a.socket, self._alloc_cost(a))

    def free(self, e: Event) -> None:
        ptr = int(e.fields["ptr"])
        if not ptr:
            return
        self.anchor = None  # a hole the heap may hand out again: addresses no longer tell sizes
        a = self.allocs.pop(ptr, None)
        if a is not None:  # _grow(a.socket, -_alloc_cost(a)), inline: the busiest path of a replay with malloc's
            line, s = self.line, a.socket if a.socket > 0 else 0
            self.heap[s] = self.heap.get(s, 0) - self.header - (a.size + line - 1 if a.size else line) // line * line
        elif ptr == self.zone_addr:  # the rte_free of the memzone just freed
            self.zone_addr = 0
        else:
            self.unseen[ptr] = self.seq

    # --- mempools -------------------------------------------------------------------------------
    def create_empty(self, e: Event) -> None:
        from mpcalc.dpdk.core.flags import VALID_USER_FLAGS

        f = e.fields
        name = str(f["name"])
        rec = PoolRecord(
            name=name,
            count=int(f["nb_elts"]),
            elt_size=int(f["elt_size"]),
            cache_size=int(f["cache_size"]),
            private_size=int(f["private_data_size"]),
            flags=int(f["flags"]) & VALID_USER_FLAGS,
            seq=self.seq,
            ptr=int(f["mempool"]),
        )
        self.pools[name] = self.live_pools[name] = rec
        self.by_ptr[rec.ptr] = name
        self.building[e.stream.index] = name
        tailq = self.tailq.pop(e.stream.index, None)
        if tailq is not None and tailq in self.allocs:
            self.allocs[tailq] = self.allocs[tailq]._replace(owner=name)
        header = self.zones.get(f"MP_{name}")
        if header is not None:
            self.zones[header.name] = header._replace(owner=name)

    def _pool(self, e: Event) -> PoolRecord | None:
        name = self.by_ptr.get(int(e.fields.get("mempool", 0)))
        return self.pools.get(name) if name else None

    def set_ops(self, e: Event) -> None:
        rec = self._pool(e)
        if rec is not None:
            rec.ops = str(e.fields["name"])

    def page_size(self, e: Event) -> None:
        size = int(e.fields["pg_sz"])
        self.page_sizes.add(size)
        rec = self._pool(e)
        if rec is not None:
            rec.page_size = size

    def populated(self, e: Event, how: str) -> None:
        rec = self._pool(e)
        if rec is not None:
            rec.populated = how
        self.building.pop(e.stream.index, None)

    def populate_default(self, e: Event) -> None:
        self.populated(e, "default")

    def populate_anon(self, e: Event) -> None:
        self.populated(e, "anon")

    def create(self, e: Event) -> None:  # rte_mempool_create's last event
        self.building.pop(e.stream.index, None)

    def mempool_free(self, e: Event) -> None:
        rec = self._pool(e)
        if rec is not None:
            rec.freed = True
            self.live_pools.pop(rec.name, None)
            self.by_ptr.pop(rec.ptr, None)

    # --- ethdev ---------------------------------------------------------------------------------
    def _port(self, e: Event) -> Port:
        pid = int(e.fields["port_id"])
        port = self.ports.get(pid)
        if port is None:
            port = self.ports[pid] = Port(pid)
        return port

    def configure(self, e: Event) -> None:
        if int(e.fields.get("rc", 0)):
            return
        port = self._port(e)
        port.rx_queues, port.tx_queues = int(e.fields["nb_rx_q"]), int(e.fields["nb_tx_q"])
        port.mtu = int(e.fields.get("dev_conf_rxmode_mtu", 0))

    def rxq(self, e: Event) -> None:
        if not int(e.fields.get("rc", 0)):
            self._port(e).rx_desc[int(e.fields["rx_queue_id"])] = int(e.fields["nb_rx_desc"])

    def txq(self, e: Event) -> None:
        self._port(e).tx_desc[int(e.fields["tx_queue_id"])] = int(e.fields["nb_tx_desc"])


#: the events the replay reads, and the _State method each goes to; the others are counted, not decoded
_EVENTS = {
    "lib.eal.memzone.reserve": "memzone_reserve",
    "lib.eal.memzone.free": "memzone_free",
    "lib.eal.mem.malloc": "malloc",
    "lib.eal.mem.zmalloc": "zmalloc",
    "lib.eal.mem.realloc": "realloc",
    "lib.eal.mem.free": "free",
    "lib.mempool.create.empty": "create_empty",
    "lib.mempool.create": "create",
    "lib.mempool.set.ops.byname": "set_ops",
    "lib.mempool.get.page.size": "page_size",
    "lib.mempool.populate.default": "populate_default",
    "lib.mempool.populate.anon": "populate_anon",
    "lib.mempool.free": "mempool_free",
    "lib.ethdev.configure": "configure",
    "lib.ethdev.rxq.setup": "rxq",
    "lib.ethdev.txq.setup": "txq",
}
#: the names of the events whose fields the replay reads
HANDLED = frozenset(_EVENTS)


def _handlers(s: _State) -> dict[str, Callable[[Event], None]]:
    return {name: getattr(s, method) for name, method in _EVENTS.items()}


def _run(
    events: Iterable[Event],
    s: _State,
    handlers: dict[str, Callable[[Event], None]],
    source: str,
    seen: set[Stream],
    streams: dict[int, Stream],
) -> tuple[int, Live | None]:
    """The replay's loop: every event to its handler; the number of events and the live set at the end of start-up."""
    startup: Live | None = None
    counts, unused = s.counts, s.unused
    last: Stream | None = None
    n = 0
    for e in events:
        n += 1
        name = e.name
        try:
            counts[name] += 1
        except KeyError:
            counts[name] = 1
        if e.stream is not last:  # a stream's events share its Stream: one check of identity an event
            last = e.stream
            if last not in seen:
                seen.add(last)
                streams[last.index] = last
        if startup is None and name in TEARDOWN:
            startup = s.live()._replace(seq=n - 1)
            s.first_teardown = name
        handler = handlers.get(name)
        if handler is None:
            unused[name] = unused.get(name, 0) + 1
            continue
        s.seq = n
        try:
            handler(e)
        except (KeyError, TypeError, ValueError) as exc:
            raise InputError(f"{source}: event {n} ({name}) lacks or garbles a field: {exc}", param="trace") from None
    return n, startup


def replay(events: Iterable[Event], platform: Platform, source: str, env: dict[str, str] | None = None) -> Replay:
    """Replay ``events`` (in the trace's order) with ``platform``'s heap rules (its cache line and
    ``struct malloc_elem``)."""
    s = _State(platform)
    handlers = _handlers(s)
    streams: dict[int, Stream] = {}
    counts = s.counts
    seen: set[Stream] = set()
    # the replay makes no reference cycles (records of numbers and strings): the cyclic collector would only rescan
    # its growing state again and again (it took 45 % of a 1-million-event replay), so it is off while it runs
    collecting = gc.isenabled()
    gc.disable()
    try:
        n, startup = _run(events, s, handlers, source, seen, streams)
    finally:
        if collecting:
            gc.enable()
    if not n:
        raise InputError(f"{source}: the trace holds no events", param="trace")
    missing = [t for t in NEEDED if t not in counts]
    if missing:
        raise InputError(
            f"{source}: the trace has no {', '.join(missing)} event: record it with "
            "--trace='lib\\.eal\\.mem.*' --trace='lib\\.eal\\.memzone.*' (see mpcalc trace --help)",
            param="trace",
        )
    if s.unseen_zones:
        raise InputError(
            f"{source}: memzone {s.unseen_zones[0]!r} is freed but was never reserved in the trace: its start was "
            "overwritten (the buffer filled up, --trace-mode=overwrite, DPDK's default) or not recorded: record "
            "again with a larger --trace-bufsz (16M holds the start-up of testpmd and l3fwd)",
            param="trace",
        )
    end = s.live()
    if startup is None:
        rule = "no port was stopped or closed (lib.ethdev.stop, lib.ethdev.close): the end of the trace"
        startup = end
    else:
        rule = f"the events before the first port was stopped or closed ({s.first_teardown}, event {startup.seq + 1})"
    return Replay(
        source=source,
        events=n,
        streams=[streams[i] for i in sorted(streams)],
        env=dict(env or {}),
        counts=counts,
        startup=startup,
        startup_rule=rule,
        end=end,
        peak=dict(s.peak),
        pools=s.pools,
        ports=s.ports,
        failed=s.failed,
        unseen_frees=sorted(s.unseen),
        page_sizes=s.page_sizes,
        unused=s.unused,
    )
