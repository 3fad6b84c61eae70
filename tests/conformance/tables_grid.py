"""Seeded random grids for rte_ring, the mempool drivers (--ops), rte_lpm, rte_lpm6 and rte_hash, and the
comparison of mpcalc with what the real library reserved (issue 13).

Every case creates the object in the probe and frees it again (the probe reports what stayed reserved), so a
grid of thousands runs in one EAL.  Sizes stay well inside the probe's ``-m 3072`` heap; the 32-bit edges
of the size arithmetic that cannot be allocated are checked through the probe's pure size commands
(``ringmemsize``) instead.
"""

from __future__ import annotations

import random
import string
from dataclasses import dataclass

from mpcalc.dpdk.core.platform import Platform
from mpcalc.dpdk.core.records import Result
from mpcalc.dpdk.objects import ring as dpdk_ring
from mpcalc.dpdk.objects.mbuf import MbufSpec
from mpcalc.dpdk.objects.mbuf import size as mbuf_size
from mpcalc.dpdk.objects.mempool import PoolSpec
from mpcalc.dpdk.objects.mempool import size as pool_size

from .grid import base_mismatches, differ

SEED = 20261201
#: a created object's data stays under this (the probe runs with -m 3072)
MAX_BYTES = 48 * 2**20
OPS = ("ring_mp_mc", "ring_sp_sc", "ring_mp_sc", "ring_sp_mc", "ring_mt_rts", "ring_mt_hts", "stack", "lf_stack")


def _log_uniform(rng: random.Random, lo: int, hi: int) -> int:
    return round(lo * (hi / lo) ** rng.random())


def _name(rng: random.Random, prefix: str, index: int, limit_range: tuple[int, int], p_long: float = 0.08) -> str:
    """A unique name, sometimes near a DPDK name limit."""
    base = f"{prefix}{index}"
    if rng.random() < p_long:
        length = rng.randint(*limit_range)
        return (base + "_" + "".join(rng.choices(string.ascii_lowercase, k=60)))[:length]
    return base


def _near_pow2(rng: random.Random, lo_exp: int, hi_exp: int) -> int:
    k = rng.randint(lo_exp, hi_exp)
    return max(0, (1 << k) + rng.choice((-1, 0, 0, 0, 1)))


def common_mismatches(result: Result, reply: dict) -> list[str]:
    """grid.base_mismatches, the heap elements' count, and nothing left behind."""
    diffs = base_mismatches(result, reply)
    differ(
        diffs,
        "allocations + memzones",
        len(result.allocations) + len(result.memzones) + sum(len(mp.allocations) for mp in result.mempools),
        reply["alloc_count_delta"],
    )
    differ(diffs, "leaked", [m.name for m in result.memzones if m.leaked], reply.get("leaked", []))
    return diffs


# --- rte_ring -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RingCase:
    name: str
    count: int
    esize: int
    flags: int

    def command(self) -> str:
        return f"ring {self.name} {self.count} {self.esize} {self.flags:#x}"

    def compute(self, p: Platform) -> Result:
        return dpdk_ring.size(self.name, self.count, self.esize, self.flags, p)

    def mismatches(self, result: Result, reply: dict) -> list[str]:
        diffs = common_mismatches(result, reply)
        if reply["ok"] and not [e for e in result.errors if e.errno]:
            d = result.details
            mine = {k: d.get(k) for k in ("size", "mask", "capacity", "prod_sync", "cons_sync")}
            real = {k: reply[k] for k in ("size", "mask", "capacity", "prod_sync", "cons_sync")}
            if mine != real:
                diffs.append(f"ring state: mpcalc {mine} != DPDK {real}")
            for key in ("prod_htd_max", "cons_htd_max"):
                if d.get(key) != reply.get(key):
                    diffs.append(f"{key}: mpcalc {d.get(key)} != DPDK {reply.get(key)}")
            hazard = [e for e in result.errors if e.errno is None]
            # a ring rte_ring_init refused keeps a zeroed (nameless) head: the hazard says so
            if (reply["ring_name"] == "") != any("zeroed" in e.reason for e in hazard):
                diffs.append(f"ring_name {reply['ring_name']!r} vs hazards {hazard}")
            if (reply["size"] == 0) != bool(hazard):
                diffs.append(f"size {reply['size']} but hazards {hazard}")
        return diffs


def _ring_flags(rng: random.Random) -> int:
    mask = 0
    for bit in (0x1, 0x2, 0x4, 0x8, 0x10, 0x20, 0x40):
        if rng.random() < 0.22:
            mask |= bit
    if rng.random() < 0.04:
        mask |= rng.choice((0x80, 0x100, 0x80000000))
    return mask


def ring_cases(n: int, seed: int = SEED) -> list[RingCase]:
    rng = random.Random(seed)
    out = []
    for i in range(n):
        flags = _ring_flags(rng)
        roll = rng.random()
        esize = (
            rng.choice((0, 4, 8, 8, 8, 12, 16, 20, 64, 128, 1024))
            if roll < 0.8
            else rng.choice((1, 2, 3, 5, 6, 7, 9, 10, 4 * rng.randint(1, 4096), rng.randint(1, 5000)))
        )
        roll = rng.random()
        if roll < 0.04:
            count = 0
        elif roll < 0.08:
            count = rng.choice((2**31 - 1, 2**31, 2**31 + 1, 2**32 - 2, 2**32 - 1, 2**30, 2**30 + 1))
        elif roll < 0.55:
            count = _near_pow2(rng, 0, 22)
        else:
            count = _log_uniform(rng, 1, 1 << 22)
        if count & (count - 1) and rng.random() < 0.6:
            flags |= 0x4  # most odd counts ask for an exact-size ring
        slots = count if not flags & 0x4 else (1 << count.bit_length() if count < 2**31 else 0)
        if slots * esize > MAX_BYTES and slots <= 0x7FFFFFFF and esize % 4 == 0:
            count = (1 << rng.randint(0, 12)) - (1 if flags & 0x4 else 0)  # keep the created ring allocatable
        out.append(RingCase(_name(rng, "rg", i, (26, 30)), count, esize, flags))
    return out


def ringmemsize_cases(n: int, seed: int = SEED + 1) -> list[tuple[int, int]]:
    """(esize, count) for rte_ring_get_memsize_elem, every size up to the 32-bit limits."""
    rng = random.Random(seed)
    out = [(e, c) for e in (0, 4, 8, 0xFFFFFFFC, 0xFFFFFFFF, 6) for c in (0, 1, 2**30, 2**31 - 1, 2**31, 2**32 - 1)]
    for _ in range(n):
        esize = rng.choice((4 * rng.randint(0, 2**30 - 1), 8, 16, rng.randint(0, 2**32 - 1)))
        count = _near_pow2(rng, 0, 31) if rng.random() < 0.8 else rng.randint(0, 2**32 - 1)
        out.append((esize, count))
    return out


# --- mempools with a driver (--ops) ---------------------------------------------------------------------


@dataclass(frozen=True)
class OpsPoolCase:
    kind: str  # pool | mbuf
    name: str
    count: int
    elt_size: int  # data room for mbuf pools
    cache_size: int
    private_size: int
    flags: int
    ops: str

    def command(self) -> str:
        if self.kind == "pool":
            return (
                f"poolops {self.name} {self.count} {self.elt_size} {self.cache_size} {self.private_size} "
                f"{self.flags:#x} {self.ops}"
            )
        return f"mbufops {self.name} {self.count} {self.cache_size} {self.private_size} {self.elt_size} {self.ops}"

    def compute(self, p: Platform) -> Result:
        if self.kind == "pool":
            return pool_size(
                PoolSpec(
                    name=self.name,
                    count=self.count,
                    elt_size=self.elt_size,
                    cache_size=self.cache_size,
                    private_size=self.private_size,
                    flags=self.flags,
                    ops=self.ops,
                ),
                p,
            )
        return mbuf_size(
            MbufSpec(
                name=self.name,
                count=self.count,
                cache_size=self.cache_size,
                priv_size=self.private_size,
                data_room=self.elt_size,
                ops=self.ops,
            ),
            p,
        )

    def mismatches(self, result: Result, reply: dict) -> list[str]:
        diffs = common_mismatches(result, reply)
        if reply["ok"] and result.mempools:
            mp = result.mempools[0]
            for what, mine, real in (
                ("ops_name", mp.ops_name, reply["ops_name"]),
                ("mp->flags", mp.mp_flags, reply["flags"]),
                ("objsz", mp.objsz.to_dict() if mp.objsz else None, reply["objsz"]),
            ):
                if mine != real:
                    diffs.append(f"{what}: mpcalc {mine!r} != DPDK {real!r}")
        return diffs


def ops_cases(n: int, seed: int = SEED + 2) -> list[OpsPoolCase]:
    rng = random.Random(seed)
    out = []
    for i in range(n):
        ops = rng.choice(OPS)
        if rng.random() < 0.75:
            elt = _log_uniform(rng, 1, 20000) if rng.random() < 0.85 else rng.choice((0, 8, 40, 64))
            count = 0 if rng.random() < 0.01 else min(_log_uniform(rng, 1, 400_000), MAX_BYTES // (elt + 256))
            cache = 0 if rng.random() < 0.6 else rng.randint(0, min(600, max(1, count)))
            flags = sum(b for b in (0x1, 0x2, 0x4, 0x8, 0x20) if rng.random() < 0.25)
            priv = 0 if rng.random() < 0.7 else rng.randint(0, 300)
            out.append(OpsPoolCase("pool", _name(rng, "op", i, (23, 27), 0.15), count, elt, cache, priv, flags, ops))
        else:
            room = rng.choice((2176, 128, 0, rng.randint(0, 9216)))
            count = min(_log_uniform(rng, 1, 100_000), MAX_BYTES // (room + 384))
            cache = 0 if rng.random() < 0.6 else rng.randint(0, min(512, count))
            out.append(
                OpsPoolCase(
                    "mbuf", _name(rng, "om", i, (23, 27), 0.15), count, room, cache, rng.choice((0, 8, 64)), 0, ops
                )
            )
    return out


def run_cases(probe, cases, p: Platform) -> tuple[list[str], list[dict]]:  # type: ignore[no-untyped-def]
    """Every case in one probe: the mismatch lines and the replies."""
    replies = probe.run_many([c.command() for c in cases])
    failures = []
    for case, reply in zip(cases, replies, strict=True):
        diffs = case.mismatches(case.compute(p), reply)
        if diffs:
            failures.append(f"{case}: " + "; ".join(diffs))
    return failures, replies


# --- rte_lpm, rte_lpm6, rte_hash ----------------------------------------------------------------------------


@dataclass(frozen=True)
class TableCase:
    kind: str  # lpm | lpm6 | hash
    name: str
    a: int  # max_rules | entries
    b: int  # number_tbl8s | key_len
    flags: int = 0  # hash extra_flag

    def command(self) -> str:
        tail = f" {self.flags:#x}" if self.kind == "hash" else ""
        return f"{self.kind} {self.name} {self.a} {self.b}{tail}"

    def compute(self, p: Platform) -> Result:
        from mpcalc.dpdk.objects import hash as dpdk_hash
        from mpcalc.dpdk.objects import lpm as dpdk_lpm
        from mpcalc.dpdk.objects import lpm6 as dpdk_lpm6

        if self.kind == "lpm":
            return dpdk_lpm.size(self.name, self.a, self.b, p)
        if self.kind == "lpm6":
            return dpdk_lpm6.size(self.name, self.a, self.b, p)
        return dpdk_hash.size(self.name, self.a, self.b, self.flags, p)

    def mismatches(self, result: Result, reply: dict) -> list[str]:
        unset = [e for e in result.errors if e.errno == "EUNSET"]
        if unset:  # DPDK returns NULL and leaves rte_errno as an earlier call left it
            ok = not reply["ok"] and not reply["memzones"] and reply["heap_delta"] == 0
            return [] if ok else [f"expected a NULL without errno, got {reply}"]
        diffs = common_mismatches(result, reply)
        # rte_hash_max_key_id: entries, plus the other lcores' cache slots with multi_writer_add
        if (
            self.kind == "hash"
            and reply["ok"]
            and result.ok
            and reply["max_key_id"] != result.details["num_key_slots"] - 1
        ):
            diffs.append(f"max_key_id {reply['max_key_id']} != num_key_slots - 1 {result.details}")
        return diffs


def lpm_cases(n: int, seed: int = SEED + 3) -> list[TableCase]:
    """max_rules and number_tbl8s: small, near powers of two, 0, the limits, and the uint32_t wraps whose
    wrapped size is small enough to allocate (2^29 + k rules, 2^22 + k groups)."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        roll = rng.random()
        rules = (
            0
            if roll < 0.05
            else rng.choice((2**29, 2**30, 2**31, 3 * 2**29)) + rng.randint(0, 5000)
            if roll < 0.15
            else _near_pow2(rng, 0, 21)
            if roll < 0.5
            else _log_uniform(rng, 1, 2_000_000)
        )
        roll = rng.random()
        tbl8 = (
            0
            if roll < 0.05
            else rng.choice((2**22, 2**23, 3 * 2**22)) + rng.randint(0, 4000)
            if roll < 0.15
            else rng.choice((2**24, 2**24 + 1, 2**24 - 1, 2**32 - 1))
            if roll < 0.2
            else _near_pow2(rng, 0, 14)
            if roll < 0.6
            else _log_uniform(rng, 1, 30_000)
        )
        if 2**24 - 1 <= tbl8 <= 2**24:  # 16 GiB of tbl8: keep the wrap tests allocatable
            tbl8 = 2**24
        out.append(TableCase("lpm", _name(rng, "lp", i, (28, 40), 0.1), rules, tbl8))
    return out


def lpm6_cases(n: int, seed: int = SEED + 4) -> list[TableCase]:
    rng = random.Random(seed)
    out = []
    for i in range(n):
        roll = rng.random()
        # x 1.2 + 64 just past 2^32 (wraps to a few entries on x86-64, saturates on arm64), or near 2^30 entries
        rules = (
            0
            if roll < 0.04
            else rng.choice((3579139370, 3579139361, 3579139500, 894784800, 894784820))
            if roll < 0.12
            else _near_pow2(rng, 0, 17)
            if roll < 0.5
            else _log_uniform(rng, 1, 400_000)
        )
        roll = rng.random()
        tbl8 = (
            0
            if roll < 0.05
            else rng.choice((2**21, 2**21 + 1, 2**32 - 1))
            if roll < 0.1
            else _near_pow2(rng, 0, 13)
            if roll < 0.6
            else _log_uniform(rng, 1, 20_000)
        )
        if tbl8 == 2**21:
            tbl8 = 2**21 + 1  # 2 GiB of tbl8 groups would not fit the probe's heap: the refusal just above
        out.append(TableCase("lpm6", _name(rng, "l6", i, (20, 40), 0.1), rules, tbl8))
    return out


def hash_cases(n: int, seed: int = SEED + 5) -> list[TableCase]:
    """entries around every power of two, the [8, 2^30] edges, key lengths up to the 32-bit wrap, every flag."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        flags = sum(b for b in (0x1, 0x2, 0x4, 0x8, 0x10, 0x20) if rng.random() < 0.3)
        if rng.random() < 0.04:
            flags |= rng.choice((0x40, 0x80))
        roll = rng.random()
        entries = (
            rng.choice((0, 1, 7, 8, 9))
            if roll < 0.08
            else rng.choice((2**30, 2**30 + 1, 2**32 - 1))
            if roll < 0.14
            else _near_pow2(rng, 3, 20)
            if roll < 0.6
            else _log_uniform(rng, 8, 1_000_000)
        )
        roll = rng.random()
        key_len = (
            0
            if roll < 0.04
            else rng.choice((2**32 - 23, 2**32 - 22, 2**32 - 20, 2**32 - 8, 2**32 - 7, 2**32 - 1))
            if roll < 0.1
            else rng.choice((4, 8, 13, 16, 20, 32, 40, 48, 64))
            if roll < 0.7
            else rng.randint(1, 300)
        )
        # keep what is created allocatable: key store and buckets under MAX_BYTES
        kes = (8 + key_len + 15) // 16 * 16 % 2**32
        if entries < 2**30 and max(kes, 64) * entries > MAX_BYTES:
            entries = max(8, MAX_BYTES // max(kes, 64) // 2)
        out.append(TableCase("hash", _name(rng, "h", i, (24, 40), 0.1), entries, key_len, flags))
    return out


def route_sets(n: int, family: int, seed: int = SEED + 6) -> list[list[tuple[str, int, int]]]:
    """Random route lists (prefix text, depth, next hop) that share /24 blocks and deeper paths, with duplicates."""
    import ipaddress

    rng = random.Random(seed + family)
    width = 32 if family == 4 else 128
    out = []
    for _ in range(n):
        bases = [rng.getrandbits(width) for _ in range(rng.randint(1, 12))]
        routes = []
        for _ in range(rng.randint(5, 300)):
            base = rng.choice(bases)
            depth = rng.choice((0, 8, 16, 24, 25, 28, 32) if family == 4 else (0, 16, 24, 32, 40, 48, 56, 64, 100, 128))
            if rng.random() < 0.02:
                depth = 0
            noise = rng.getrandbits(width) & ((1 << (width - min(depth, 24))) - 1) if rng.random() < 0.4 else 0
            addr = (base ^ noise) & ((1 << width) - 1)
            text = str(ipaddress.IPv4Address(addr) if family == 4 else ipaddress.IPv6Address(addr))
            nh = rng.randint(0, 2**24 - 1 if family == 4 else 2**21 - 1)
            routes.append((text, depth, nh))
        if rng.random() < 0.3:
            routes = [r for r in routes if r[1] != 0]
        out.append(routes)
    return out
