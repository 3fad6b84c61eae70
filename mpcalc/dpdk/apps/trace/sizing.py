"""A replayed run held against mpcalc's model, and sized again for another build or machine.

* :func:`reconcile`: each mempool the run created is computed from its recorded arguments
  (:func:`mpcalc.dpdk.objects.mempool.create_pool`, on the platform the run was recorded on) and compared with the
  memzones and allocations the trace recorded for it, by DPDK's names, with ``unexplained_bytes``.
* :func:`target_parts`: the live set at the end of start-up on the target platform: the pools mpcalc models
  recomputed (with the flag changes asked for), everything else carried as recorded, its heap elements
  costed with the target's ``struct malloc_elem`` and cache line.

Pure: stdlib only.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Sequence
from typing import Any, NamedTuple

from mpcalc.dpdk.apps.trace.replay import LOST_TYPE, Live, PoolRecord, TraceAlloc, TraceZone
from mpcalc.dpdk.core.errors import InputError
from mpcalc.dpdk.core.flags import MEMPOOL_FLAGS
from mpcalc.dpdk.core.heap import heap_cost, memzone_len
from mpcalc.dpdk.core.platform import Platform
from mpcalc.dpdk.core.records import Allocation, Mempool, Memzone
from mpcalc.dpdk.core.standalone import Parts
from mpcalc.dpdk.objects.mempool import PoolSpec, create_pool
from mpcalc.dpdk.objects.mempool.ops import OPS

__all__ = [
    "CARRIED_ROLE",
    "LOST_ROLE",
    "RECOVERED_ROLE",
    "PoolCheck",
    "heap_of",
    "pool_flag_changes",
    "reconcile",
    "target_parts",
]

#: the role of what the trace recorded and mpcalc does not model: carried as recorded
CARRIED_ROLE = "recorded (not modelled)"
LOST_ROLE = "recorded, size lost (at least one element)"
#: the first socket id of an external heap (rte_malloc_heap_create)
EXTERNAL_SOCKET = 256
RECOVERED_ROLE = "recorded, size lost, recovered from the neighbouring elements' addresses"


class PoolCheck(NamedTuple):
    """One pool: the trace's memzones and allocations against the model's, by name."""

    name: str
    status: str  # matched, differs, not modelled
    why: str
    rows: tuple[dict[str, Any], ...]
    unexplained_bytes: int

    def to_dict(self) -> dict[str, object]:
        return {
            "pool": self.name,
            "status": self.status,
            "why": self.why,
            "rows": list(self.rows),
            "unexplained_bytes": self.unexplained_bytes,
        }


def _spec(rec: PoolRecord, flags: int, cache_layout: str) -> PoolSpec:
    return PoolSpec(
        name=rec.name,
        count=rec.count,
        elt_size=rec.elt_size,
        cache_size=rec.cache_size,
        private_size=rec.private_size,
        flags=flags,
        cache_layout=cache_layout,
        ops=rec.ops if rec.ops in OPS else "",
    )


def _modelled(rec: PoolRecord) -> str:
    """Why mpcalc cannot recompute a pool ("" when it can)."""
    if rec.ops and rec.ops not in OPS:
        return f"its mempool driver {rec.ops!r} is not modelled (known: {', '.join(OPS)})"
    if rec.populated != "default":
        how = "rte_mempool_populate_anon" if rec.populated == "anon" else "the application itself"
        return f"its objects were populated by {how}, not rte_mempool_populate_default"
    return ""


def _pool_platform(rec: PoolRecord, p: Platform) -> Platform:
    """The platform the pool was laid out on: the page size it asked for (lib.mempool.get.page.size)."""
    return p._replace(page_size=rec.page_size) if rec.page_size else p


def _own(live: Live, name: str) -> tuple[list[TraceZone], list[TraceAlloc]]:
    return (
        [z for z in live.zones.values() if z.owner == name],
        [a for a in live.allocs.values() if a.owner == name],
    )


def reconcile(live: Live, p: Platform) -> tuple[list[PoolCheck], set[str], set[int]]:
    """Each live pool against the model on the recorded platform ``p``: the checks, and the memzone names and
    allocation pointers the modelled pools account for (the rest is the application's, carried)."""
    checks: list[PoolCheck] = []
    zones: set[str] = set()
    allocs: set[int] = set()
    for rec in live.pools.values():
        my_zones, my_allocs = _own(live, rec.name)
        why = _modelled(rec)
        if why:
            checks.append(PoolCheck(rec.name, "not modelled", why, (), 0))
            continue
        mp = create_pool(_spec(rec, rec.flags, "pointer"), _pool_platform(rec, p))
        rows: list[dict[str, Any]] = []
        unexplained = 0
        recorded = {z.name: memzone_len(z.requested, p) for z in my_zones}
        for z in mp.memzones:
            got = recorded.pop(z.name, None)
            rows.append({"name": z.name, "what": "memzone", "recorded": got, "modelled": z.len, "role": z.role})
            unexplained += abs((got or 0) - z.len)
            if got is not None:
                zones.add(z.name)
        for name, length in recorded.items():
            rows.append({"name": name, "what": "memzone", "recorded": length, "modelled": None, "role": None})
            unexplained += length
        pending = list(my_allocs)
        for a in mp.allocations:
            hit = next((t for t in pending if t.type == a.name and t.size == a.size), None)
            if hit is None:
                hit = next((t for t in pending if t.type == a.name), None)
            rows.append(
                {
                    "name": a.name,
                    "what": "allocation",
                    "recorded": hit.size if hit else None,
                    "modelled": a.size,
                    "role": a.role,
                }
            )
            unexplained += abs((hit.size if hit else 0) - a.size)
            if hit is not None:
                pending.remove(hit)
                allocs.add(hit.ptr)
        # what the pool's window also allocated is the application's own, carried (not the pool's)
        status = "matched" if unexplained == 0 else "differs"
        why = "" if not mp.errors else "; ".join(e.reason for e in mp.errors)
        checks.append(PoolCheck(rec.name, status, why, tuple(rows), unexplained))
        if unexplained:  # a pool the model does not reproduce is carried as recorded
            zones.difference_update(z.name for z in mp.memzones)
            allocs.difference_update(a.ptr for a in my_allocs)
    return checks, zones, allocs


def pool_flag_changes(entries: Sequence[str]) -> list[tuple[str, int]]:
    """``NAME=FLAGS`` entries (a pool name or a shell pattern: ``rib*=no_cache_align,no_spread``), in order.

    >>> pool_flag_changes(["mb_pool_*=no_spread"])
    [('mb_pool_*', 1)]
    """
    out = []
    for entry in entries:
        name, sep, flags = entry.partition("=")
        if not sep or not name.strip():
            raise InputError(f"{entry!r} is not NAME=FLAGS (a pool name or pattern, = , mempool flags)")
        out.append((name.strip(), MEMPOOL_FLAGS.parse(flags.strip() or "none")))
    return out


def _flags_for(name: str, recorded: int, changes: Sequence[tuple[str, int]]) -> int:
    flags = recorded
    for pattern, mask in changes:
        if fnmatch.fnmatchcase(name, pattern):
            flags = mask
    return flags


def target_parts(
    live: Live,
    checks: Sequence[PoolCheck],
    zones: set[str],
    allocs: set[int],
    p: Platform,
    changes: Sequence[tuple[str, int]] = (),
    cache_layout: str = "pointer",
) -> tuple[Parts, dict[int, Parts]]:
    """The live set on the target ``p``: the pools that reconciled, recomputed (their flags changed where a
    pattern of ``changes`` names them); every other memzone and allocation carried as recorded.  Also the same
    per socket (socket -1, SOCKET_ID_ANY, counts as 0; an external heap's, from EXTERNAL_HEAP_MIN_SOCKET_ID = 256
    up, v22.11:lib/eal/common/malloc_heap.c:32, is memory the application mapped itself: not the EAL's pages)."""
    parts = Parts()
    by_socket: dict[int, Parts] = {}
    external = Parts()

    def on(socket: int) -> Parts:
        if socket >= EXTERNAL_SOCKET:
            return external
        s = max(socket, 0)
        if s not in by_socket:
            by_socket[s] = Parts()
        return by_socket[s]

    matched = {c.name for c in checks if c.status == "matched"}
    for rec in live.pools.values():
        if rec.name not in matched:
            continue
        flags = _flags_for(rec.name, rec.flags, changes)
        mp: Mempool = create_pool(_spec(rec, flags, cache_layout), p)
        parts.mempools.append(mp)
        header = live.zones.get(f"MP_{rec.name}")
        on(header.socket if header else 0).mempools.append(mp)
    for z in sorted(live.zones.values(), key=lambda z: z.seq):
        if z.name in zones:
            continue
        zone = Memzone(z.name, memzone_len(z.requested, p), CARRIED_ROLE)
        parts.zones.append(zone)
        on(z.socket).zones.append(zone)
    for a in sorted(live.allocs.values(), key=lambda a: a.seq):
        if a.ptr in allocs:
            continue
        alloc = Allocation(a.type, a.size, CARRIED_ROLE)
        parts.allocations.append(alloc)
        on(a.socket).allocations.append(alloc)
    for a in live.lost:
        alloc = Allocation(LOST_TYPE, a.size, RECOVERED_ROLE if a.recovered else LOST_ROLE)
        parts.allocations.append(alloc)
        on(a.socket).allocations.append(alloc)
    return parts, by_socket


def heap_of(live: Live, p: Platform) -> dict[int, int]:
    """The heap bytes of a live set as recorded, per socket (its elements costed on ``p``)."""
    out: dict[int, int] = {}
    for z in live.zones.values():
        s = max(z.socket, 0)
        out[s] = out.get(s, 0) + heap_cost(memzone_len(z.requested, p), p)
    for a in (*live.allocs.values(), *live.lost):
        s = max(a.socket, 0)
        out[s] = out.get(s, 0) + heap_cost(a.size, p)
    return out
