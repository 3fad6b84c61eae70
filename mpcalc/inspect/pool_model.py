"""A dumped pool as the engine models it, and its memzone lengths as the input measures them.

:func:`model` is the one call of :func:`mpcalc.dpdk.objects.mempool.size` (the search, the comparison and the
advice all go through it).  Pure Python (no click, no rich).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from mpcalc.dpdk.core.flags import VALID_USER_FLAGS
from mpcalc.dpdk.core.platform import Platform
from mpcalc.dpdk.core.records import Result
from mpcalc.dpdk.objects import mempool
from mpcalc.dpdk.objects.mempool import PoolSpec
from mpcalc.dpdk.objects.mempool.layout import calc_mem_size
from mpcalc.dpdk.objects.mempool.ops import OPS, STACK_OPS
from mpcalc.inspect.dumps import Parsed, PoolDump


def model(p: PoolDump, plat: Platform, **changes: Any) -> Result:
    """The dumped pool (``changes`` replaced in its spec) on ``plat``."""
    spec = PoolSpec(
        name=p.name,
        count=p.get("size"),
        elt_size=p.get("elt_size"),
        cache_size=p.get("cache_size") or 0,
        private_size=p.get("private_data_size") or 0,
        flags=(p.get("flags") or 0) & VALID_USER_FLAGS,
        ops=driver_of(p) or "",
    )
    return mempool.size(spec._replace(**changes), plat)


def driver_of(p: PoolDump) -> str | None:
    """The pool's driver when mpcalc models it (ring_*, stack, lf_stack), else None."""
    ops = p.get("ops_name")
    return ops if ops in OPS else None


def driver_role(p: PoolDump) -> str:
    """The role of the driver's memzone: ``stack`` (STK_MP_<name>) or ``ring`` (RG_MP_<name>)."""
    return "stack" if driver_of(p) in STACK_OPS else "ring"


#: rte_mem_page_size(): sysconf(_SC_PAGESIZE), 4 KiB on Linux x86_64 (v22.11:lib/eal/unix/eal_unix_memory.c:136-144)
ANON_PAGE_SHIFT = 12


def anon_len(res: Result) -> int | None:
    """The objects' memory of ``rte_mempool_populate_anon`` (v22.11:lib/mempool/rte_mempool.c:663-715): one
    mmap of ``get_anon_size`` = ``rte_mempool_ops_calc_mem_size(mp, mp->size, log2(rte_mem_page_size()))``
    (rte_mempool.c:642-660), handed whole to rte_mempool_populate_virt: the memory chunks sum to it, not rounded
    to a cache line as a memzone would be."""
    mp = res.mempools[0] if res.mempools else None
    if mp is None or mp.objsz is None:
        return None
    return calc_mem_size(mp.objsz.total_size, mp.count, ANON_PAGE_SHIFT)


def zones_by_role(res: Result) -> dict[str, int]:
    """The model's memzone lengths by role, and ``anonymous``: the objects' memory when outside any memzone."""
    out = {m.role: m.len for m in res.memzones}
    anon = anon_len(res)
    if anon is not None:
        out["anonymous"] = anon
    return out


@dataclass
class Measured:
    """A memzone length as the input gives it: exact, or an interval (avg bytes/object)."""

    lo: int
    hi: int
    how: str

    def explains(self, value: int) -> bool:
        return self.lo <= value <= self.hi

    def value(self, model: int | None) -> int:
        if model is not None and self.explains(model):
            return model
        return (self.lo + self.hi) // 2 if self.lo != self.hi else self.lo


def matches(meas: dict[str, Measured], res: Result) -> bool:
    modelled = zones_by_role(res)
    return all(m.explains(modelled.get(role, 0)) for role, m in meas.items())


def object_zones(parsed: Parsed, name: str) -> list[str]:
    """Names of the memzones ``MP_<name>_<n>`` that hold a pool's objects, in input order."""
    from mpcalc.inspect.app_dump import is_chunk_of  # not MP_<name>_1 when that is the header of pool <name>_1

    return [n for n in parsed.zones if is_chunk_of(n, name, parsed.zones)]


def outside_memzones(p: PoolDump, parsed: Parsed) -> bool:
    """Whether the pool's objects are in no memzone: the input lists every memzone, the pool's header memzone is
    there, its objects memzone is not, and the pool is populated.  That is ``rte_mempool_populate_anon`` (testpmd
    ``--mp-alloc=anon``, v22.11:app/test-pmd/testpmd.c:1183-1200) or memory the application gave
    ``rte_mempool_populate_virt``/``_iova`` itself."""
    return (
        parsed.zones_complete
        and f"MP_{p.name}" in parsed.zones
        and not object_zones(parsed, p.name)
        and bool(p.get("populated_size") or p.get("nb_mem_chunks") or p.chunks)
    )


def object_role(p: PoolDump, parsed: Parsed) -> str:
    """``objects`` (a memzone ``MP_<name>_0``) or ``anonymous`` (memory outside the memzones)."""
    return "anonymous" if outside_memzones(p, parsed) else "objects"


def measurements(p: PoolDump, parsed: Parsed) -> dict[str, Measured]:
    """Measured lengths of the pool's memzones (and of its objects' memory outside them), by role."""
    out: dict[str, Measured] = {}
    hdr = parsed.zones.get(f"MP_{p.name}")
    if hdr is not None:
        out["header"] = Measured(hdr.len, hdr.len, hdr.where)
    elif p.get("tel_len") is not None:
        out["header"] = Measured(p.get("tel_len"), p.get("tel_len"), "telemetry mz_len")
    objects = object_role(p, parsed)
    if hdr is not None:
        role = driver_role(p)
        ring = parsed.zones.get(f"{'STK' if role == 'stack' else 'RG'}_MP_{p.name}")
        if ring is not None:
            out[role] = Measured(ring.len, ring.len, ring.where)
        elif parsed.zones_complete:
            out[role] = Measured(0, 0, "absent from the memzone dump")
        objs = [parsed.zones[n] for n in object_zones(parsed, p.name)]
        if objs:
            total = sum(z.len for z in objs)
            how = objs[0].where if len(objs) == 1 else f"{len(objs)} memzones {', '.join(z.name for z in objs)}"
            out["objects"] = Measured(total, total, how)
    if objects not in out and p.chunks:
        total = sum(p.chunks)
        out[objects] = Measured(total, total, f"mempool dump: {len(p.chunks)} memory chunk line(s)")
    if objects not in out and p.avg_bytes is not None and p.get("size"):
        avg, size = Fraction(p.avg_bytes), p.get("size")
        half = Fraction(1, 2 * 10 ** len(p.avg_bytes.split(".")[1]))
        lo, hi = (avg - half) * size, (avg + half) * size
        out[objects] = Measured(
            math.ceil(lo), math.floor(hi), f"mempool dump: avg bytes/object {p.avg_bytes} x size {size}"
        )
    return out
