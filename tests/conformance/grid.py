"""A seeded random grid of configurations and the comparison of mpcalc with the probe."""

from __future__ import annotations

import random
import string
from dataclasses import dataclass

from mpcalc import api
from mpcalc.dpdk.core.platform import Platform, make_platform
from mpcalc.dpdk.core.records import Result
from mpcalc.dpdk.objects.mempool import calc_mem_size, calc_obj_size

SEED = 20261130
#: keep each real pool well inside the probe's -m 3072
MAX_POOL_BYTES = 160 * 2**20


@dataclass(frozen=True)
class Case:
    kind: str  # pool | rib | rib6
    name: str
    count: int
    elt_size: int  # ext_sz for ribs
    cache_size: int
    private_size: int
    flags: int
    channels: int
    ranks: int

    def command(self) -> str:
        if self.kind == "pool":
            return (
                f"pool {self.name} {self.count} {self.elt_size} {self.cache_size} {self.private_size} {self.flags:#x}"
            )
        return f"{self.kind} {self.name} {self.count} {self.elt_size}"

    def compute(self, p: Platform) -> Result:
        if self.kind == "pool":
            return api.pool(
                api.PoolSpec(
                    name=self.name,
                    count=self.count,
                    elt_size=self.elt_size,
                    cache_size=self.cache_size,
                    private_size=self.private_size,
                    flags=self.flags,
                ),
                p,
            )
        return api.rib(self.name, self.count, self.elt_size, 0, 4 if self.kind == "rib" else 6, p)


def _log_uniform(rng: random.Random, lo: int, hi: int) -> int:
    return round(lo * (hi / lo) ** rng.random())


def _name(rng: random.Random, index: int, limit_range: tuple[int, int]) -> str:
    """A unique name (leaked memzones stay for the probe's life), sometimes near DPDK's limits."""
    base = f"c{index}"
    if rng.random() < 0.06:
        length = rng.randint(*limit_range)
        return (base + "_" + "".join(rng.choices(string.ascii_lowercase, k=40)))[:length]
    return base


def _flags(rng: random.Random) -> int:
    mask = 0
    for bit in (0x1, 0x2, 0x4, 0x8, 0x20):
        if rng.random() < 0.3:
            mask |= bit
    if rng.random() < 0.03:
        mask |= rng.choice((0x10, 0x40, 0x100, 0x80000000))
    return mask


def _cache(rng: random.Random, count: int) -> int:
    roll = rng.random()
    if roll < 0.45:
        return 0
    if roll < 0.8:
        return rng.randint(1, max(1, min(512, count * 2 // 3)))
    if roll < 0.9:
        return count * 2 // 3 + 1  # just over the flush-threshold rule
    return rng.choice((512, 513, rng.randint(513, 5000)))


def cases(n: int, seed: int = SEED) -> list[Case]:
    rng = random.Random(seed)
    out = []
    for i in range(n):
        channels, ranks = rng.randint(1, 8), rng.randint(1, 4)
        roll = rng.random()
        if roll < 0.7:
            elt = (
                rng.choice((0, 1, 7, 8, 9, 40, 56, 64, 65, 2304, 9216))
                if rng.random() < 0.15
                else _log_uniform(rng, 1, 65536)
            )
            per_obj = elt + 256
            count = (
                0 if rng.random() < 0.01 else min(_log_uniform(rng, 1, 3_000_000), max(1, MAX_POOL_BYTES // per_obj))
            )
            priv = 0 if rng.random() < 0.5 else rng.choice((8, 64, rng.randint(1, 4096), rng.randint(1, 2**20)))
            out.append(
                Case(
                    "pool", _name(rng, i, (20, 31)), count, elt, _cache(rng, count), priv, _flags(rng), channels, ranks
                )
            )
        else:
            kind = "rib" if roll < 0.85 else "rib6"
            ext = 0 if rng.random() < 0.5 else rng.randint(0, 300)
            nodes = rng.choice((0, -1)) if rng.random() < 0.02 else _log_uniform(rng, 1, 400_000)
            out.append(Case(kind, _name(rng, i, (18, 28)), nodes, ext, 0, 0, 0, channels, ranks))
    return out


def platform_for(probe_platform: dict, channels: int, ranks: int, page_size: int) -> Platform:
    assert probe_platform["cache_line"] == 64 and probe_platform["max_lcore"] == 128
    assert (probe_platform["nchannel"], probe_platform["nrank"]) == (channels, ranks)
    return make_platform(channels=channels, ranks=ranks, page_size=page_size)


def differ(diffs: list[str], what: str, mine: object, real: object) -> None:
    """Add ``what`` to ``diffs`` when mpcalc's value is not the real library's."""
    if mine != real:
        diffs.append(f"{what}: mpcalc {mine!r} != DPDK {real!r}")


def base_mismatches(result: Result, reply: dict) -> list[str]:
    """What every probe reply is held to: ok, errno, the new memzones (name, len) and the heap's growth."""
    diffs: list[str] = []
    errnos = [e.errno for e in result.errors if e.errno]
    differ(diffs, "ok", not errnos, reply["ok"])
    if errnos and not reply["ok"]:
        differ(diffs, "errno", errnos[0], reply["errno"])
    memzones = [(m["name"], m["len"]) for m in reply["memzones"]]
    differ(diffs, "memzones", [(m.name, m.len) for m in result.memzones], memzones)
    differ(diffs, "heap_bytes", result.heap_bytes, reply["heap_delta"])
    return diffs


def mismatches(case, result: Result, reply: dict) -> list[str]:
    """Every difference between mpcalc's result and what the real library did."""
    diffs = base_mismatches(result, reply)
    if reply["ok"] and "objsz" in reply:  # pools and mbuf pools
        mp = result.mempools[0]
        differ(diffs, "objsz", mp.objsz.to_dict() if mp.objsz else None, reply["objsz"])
        differ(diffs, "ops_name", mp.ops_name, reply["ops_name"])
        differ(diffs, "mp->flags", mp.mp_flags, reply["flags"])
        differ(diffs, "private_data_size", mp.header.private_data if mp.header else None, reply["private_data_size"])
        differ(diffs, "size", mp.count, reply["size"])
    return diffs


def memsize_cases(n: int, seed: int = SEED + 1) -> list[tuple[int, int, int, int]]:
    """(elt_size, flags, obj_num, pg_shift) for rte_mempool_op_calc_mem_size_default."""
    rng = random.Random(seed)
    out = []
    elts = [_log_uniform(rng, 1, 70000) for _ in range(12)] + [40, 56, 2304]
    for _ in range(n):
        elt = rng.choice(elts)
        flags = rng.choice((0, 0x1, 0x3))
        obj_num = _log_uniform(rng, 1, 2**32 - 1)
        pg_shift = rng.choice((0, 12, 16, 21, 30))
        out.append((elt, flags, obj_num, pg_shift))
    return out


def expected_mem_size(elt: int, flags: int, obj_num: int, pg_shift: int, p: Platform) -> int:
    # the probe creates its pool with create_empty, which adds NO_SPREAD to NO_CACHE_ALIGN
    from mpcalc.dpdk.core.flags import effective_flags

    return calc_mem_size(calc_obj_size(elt, effective_flags(flags), p).total_size, obj_num, pg_shift)


@dataclass(frozen=True)
class FibCase:
    family: int
    name: str
    max_routes: int
    dp_type: str
    nh_size: int
    num_tbl8: int
    ext_size: int

    def command(self) -> str:
        kind = "fib" if self.family == 4 else "fib6"
        type_id = 0 if self.dp_type == "dummy" else 1
        nh_enum = self.nh_size.bit_length() - 1
        return f"{kind} {self.name} {self.max_routes} {type_id} {nh_enum} {self.num_tbl8} {self.ext_size}"

    def compute(self, p: Platform) -> Result:
        return api.fib(
            api.FibSpec(
                family=self.family,
                name=self.name,
                max_routes=self.max_routes,
                type=self.dp_type,
                nh_size=self.nh_size,
                num_tbl8=self.num_tbl8,
                ext_size=self.ext_size,
            ),
            0,
            p,
        )


def fib_cases(n: int, seed: int = SEED + 3) -> list[FibCase]:
    rng = random.Random(seed)
    out = []
    for i in range(n):
        family = rng.choice((4, 6))
        dp_type = "dummy" if rng.random() < 0.15 else ("dir24_8" if family == 4 else "trie")
        nh = rng.choice((1, 2, 4, 8)) if rng.random() < 0.9 else rng.choice((1, 2))
        limit = (1 << (8 * nh - 1)) - 1
        roll = rng.random()
        if roll < 0.05:
            tbl8 = 0
        elif roll < 0.12:
            tbl8 = limit + rng.randint(1, 1000) if limit < 2**31 else rng.randint(1, 20000)
        else:
            tbl8 = rng.randint(1, min(limit, 20000))
        routes = rng.choice((0, -1)) if rng.random() < 0.04 else _log_uniform(rng, 1, 150_000)
        ext = 0 if rng.random() < 0.6 else rng.randint(0, 200)
        out.append(FibCase(family, _name(rng, i, (18, 28)), routes, dp_type, nh, tbl8, ext))
    return out


@dataclass(frozen=True)
class MbufCase:
    name: str
    count: int
    cache_size: int
    priv_size: int
    data_room: int

    def command(self) -> str:
        return f"mbuf {self.name} {self.count} {self.cache_size} {self.priv_size} {self.data_room}"

    def compute(self, p: Platform) -> Result:
        return api.mbuf(
            api.MbufSpec(
                name=self.name,
                count=self.count,
                cache_size=self.cache_size,
                priv_size=self.priv_size,
                data_room=self.data_room,
            ),
            p,
        )


def mbuf_cases(n: int, seed: int = SEED + 4) -> list[MbufCase]:
    rng = random.Random(seed)
    out = []
    for i in range(n):
        room = rng.choice((2176, 2048, 1646, 9216, 10240, 128, 0)) if rng.random() < 0.5 else rng.randint(0, 65535)
        priv = rng.choice((0, 8, 64, 128)) if rng.random() < 0.8 else rng.randint(0, 300)
        count = min(_log_uniform(rng, 1, 300_000), max(1, MAX_POOL_BYTES // (room + priv + 384)))
        out.append(MbufCase(_name(rng, i, (20, 30)), count, _cache(rng, count), priv, room))
    return out


def run_grid(cases: list[Case], probe_for, platform_for_probe) -> tuple[list[str], int]:  # type: ignore[no-untyped-def]
    """Run pool/RIB cases grouped by their EAL -n/-r, one probe per group, and compare each with mpcalc.

    ``probe_for(channels, ranks)`` returns a context manager giving a running probe;
    ``platform_for_probe(probe_platform, channels, ranks, page_size)`` the matching mpcalc Platform.
    Returns the mismatch lines and how many cases DPDK rejected.
    """
    from collections import defaultdict

    groups: dict[tuple[int, int], list[Case]] = defaultdict(list)
    for case in cases:
        groups[(case.channels, case.ranks)].append(case)
    failures: list[str] = []
    rejected = 0
    for (channels, ranks), group in sorted(groups.items()):
        with probe_for(channels, ranks) as probe:
            p = platform_for_probe(probe.platform, channels, ranks, probe.platform["page_size"])
            replies = probe.run_many([c.command() for c in group])
        for case, reply in zip(group, replies, strict=True):
            rejected += not reply["ok"]
            diffs = mismatches(case, case.compute(p), reply)
            if diffs:
                failures.append(f"{case}: " + "; ".join(diffs))
    return failures, rejected
