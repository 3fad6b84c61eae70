"""A dumped pool as the engine models it, and its memzone lengths as the input measures them.

:func:`model` is the one call of :func:`mpcalc.engine.pool` (the search, the comparison and the
advice all go through it).  Pure Python (no click, no rich).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .. import engine
from ..dpdk.flags import VALID_USER_FLAGS
from ..dpdk.mempool import PoolSpec
from ..dpdk.mempool.drivers import OPS, STACK_OPS
from ..dpdk.platform import Platform
from .dumps import Parsed, PoolDump


def model(p: PoolDump, plat: Platform, **changes: Any) -> engine.Result:
    """The dumped pool (``changes`` replaced in its spec) on ``plat``."""
    spec = PoolSpec(name=p.name, count=p.get("size"), elt_size=p.get("elt_size"),
                    cache_size=p.get("cache_size") or 0, private_size=p.get("private_data_size") or 0,
                    flags=(p.get("flags") or 0) & VALID_USER_FLAGS, ops=driver_of(p) or "")
    return engine.pool(spec._replace(**changes), plat)


def driver_of(p: PoolDump) -> str | None:
    """The pool's driver when mpcalc models it (ring_*, stack, lf_stack), else None."""
    ops = p.get("ops_name")
    return ops if ops in OPS else None


def driver_role(p: PoolDump) -> str:
    """The role of the driver's memzone: ``stack`` (STK_MP_<name>) or ``ring`` (RG_MP_<name>)."""
    return "stack" if driver_of(p) in STACK_OPS else "ring"


def zones_by_role(res: engine.Result) -> dict[str, int]:
    return {m.role: m.len for m in res.memzones}


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


def matches(meas: dict[str, Measured], res: engine.Result) -> bool:
    modelled = zones_by_role(res)
    return all(m.explains(modelled.get(role, 0)) for role, m in meas.items())


def object_zones(parsed: Parsed, name: str) -> list[str]:
    """Names of the memzones ``MP_<name>_<n>`` that hold a pool's objects, in input order."""
    from .apps import is_chunk_of  # not MP_<name>_1 when that is the header of pool <name>_1

    return [n for n in parsed.zones if is_chunk_of(n, name, parsed.zones)]


def measurements(p: PoolDump, parsed: Parsed) -> dict[str, Measured]:
    """Measured lengths of the pool's memzones, by role."""
    out: dict[str, Measured] = {}
    hdr = parsed.zones.get(f"MP_{p.name}")
    if hdr is not None:
        out["header"] = Measured(hdr.len, hdr.len, f"memzone dump, line {hdr.line}")
    elif p.get("tel_len") is not None:
        out["header"] = Measured(p.get("tel_len"), p.get("tel_len"), "telemetry mz_len")
    if hdr is not None:
        role = driver_role(p)
        ring = parsed.zones.get(f"{'STK' if role == 'stack' else 'RG'}_MP_{p.name}")
        out[role] = (Measured(ring.len, ring.len, f"memzone dump, line {ring.line}") if ring is not None
                     else Measured(0, 0, "absent from the memzone dump"))
        objs = [parsed.zones[n] for n in object_zones(parsed, p.name)]
        if objs:
            total = sum(z.len for z in objs)
            how = (f"memzone dump, line {objs[0].line}" if len(objs) == 1 else
                   f"memzone dump: {len(objs)} memzones {', '.join(z.name for z in objs)}")
            out["objects"] = Measured(total, total, how)
    if "objects" not in out and p.chunks:
        total = sum(p.chunks)
        out["objects"] = Measured(total, total, f"mempool dump: {len(p.chunks)} memory chunk line(s)")
    if "objects" not in out and p.avg_bytes is not None and p.get("size"):
        avg, size = Fraction(p.avg_bytes), p.get("size")
        half = Fraction(1, 2 * 10 ** len(p.avg_bytes.split(".")[1]))
        lo, hi = (avg - half) * size, (avg + half) * size
        out["objects"] = Measured(math.ceil(lo), math.floor(hi),
                                  f"mempool dump: avg bytes/object {p.avg_bytes} x size {size}")
    return out
