"""The platform search: which build and EAL configuration the evidence of a dump allows.

The dump fixes some values (format markers bound the release, ``cache_count`` lines give
RTE_MAX_LCORE, segment lines the page size, header and trailer sizes the cache line, spread and
debug build); options pin others (:class:`Pins`); the rest is searched, fewest departures from
the defaults first, until the model explains the measured memzone lengths.

Pure Python (no click, no rich).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from mpcalc.dpdk.core.errors import InputError
from mpcalc.dpdk.core.facts import ARCHES, DEFAULT_RELEASE, RELEASES, version_key
from mpcalc.dpdk.core.flags import VALID_USER_FLAGS, MempoolFlag, effective_flags
from mpcalc.dpdk.core.platform import DEFAULT_PAGE_SIZE, Platform, make_platform
from mpcalc.dpdk.objects.mempool import calc_obj_size
from mpcalc.inspect.dumps import Parsed, PoolDump
from mpcalc.inspect.pool_model import Measured, matches, model, zones_by_role

#: releases in the order mpcalc tries them when the dump does not tell: the default first.
RELEASE_PREFERENCE = tuple(sorted(RELEASES, key=lambda v: (v != DEFAULT_RELEASE, version_key(v))))
#: (arch, cache line) builds tried when not pinned.
BUILDS = (("x86_64", 64), ("arm64", 128), ("arm64", 64))
#: channels x ranks products tried (DPDK's fallback 4 first).
SPREADS = (4, 1, 2, 3, 6, 8, 5, 7, 12, 16, 9, 10, 11, 13, 14, 15)
PAGE_SIZES = (DEFAULT_PAGE_SIZE, 4 << 10, 1 << 30, 0)


@dataclass(frozen=True, kw_only=True)
class Pins:
    """Platform values given as options; ``None`` lets the dump (or the default) decide."""

    dpdk: str | None = None
    arch: str | None = None
    cache_line: int | None = None
    max_lcore: int | None = None
    channels: int | None = None
    ranks: int | None = None
    page_size: int | None = None
    debug: bool | None = None
    stats: bool | None = None


@dataclass(frozen=True)
class Choice:
    """One candidate platform: every dimension mpcalc varies."""

    dpdk: str
    arch: str
    cache_line: int
    spread: int  # channels x ranks
    debug: bool
    stats: bool
    page_size: int
    max_lcore: int | None

    def platform(self, pins: Pins) -> Platform:
        channels, ranks = (pins.channels or self.spread, pins.ranks or 1)
        if channels * ranks != self.spread:
            channels, ranks = self.spread, 1
        return make_platform(
            dpdk=self.dpdk,
            arch=self.arch,
            cache_line=self.cache_line,
            max_lcore=self.max_lcore,
            channels=channels,
            ranks=ranks,
            page_size=self.page_size,
            debug=self.debug,
            stats=self.stats,
        )


def release_window(markers: dict[str, tuple[str | None, str | None]]) -> tuple[list[str], list[str]]:
    """Releases the format markers allow, and the markers' descriptions."""
    allowed = []
    for v in RELEASE_PREFERENCE:
        ok = True
        for lo, hi in markers.values():
            if lo and version_key(v) < version_key(lo):
                ok = False
            if hi and version_key(v) > version_key(hi):
                ok = False
        if ok:
            allowed.append(v)
    why = [f"{k.replace('_', ' ')} ({lo or ''}..{hi or ''})" for k, (lo, hi) in markers.items()]
    return allowed, why


MARKER_TEXT = {
    "telemetry_int_length": "telemetry /eal/memzone_info Length as a C int (22.11 and earlier)",
    "telemetry_head_id": "telemetry /eal/heap_info 'Head_id' (22.11 and earlier)",
    "telemetry_heap_id": "telemetry /eal/heap_info 'Heap_id' (23.11 and later)",
    "chunk_lines": "'memory chunk at' lines (24.11 and later)",
    "no_chunk_lines": "'avg bytes/object' without 'memory chunk at' lines (23.11 and earlier)",
    "cache_hide_zero": "'internal cache infos (hide zero value items)' (25.11 and later)",
    "cache_all_counts": "every cache_count printed (24.11 and earlier)",
    "stats_avg_lines": "'avg objs/bulk' statistics lines (26.07 and later)",
    "memzone_total_line": "'Total Memory Zones size' line (24.11 and later)",
    "no_memzone_total_line": "a memzone dump without 'Total Memory Zones size' (23.11 and earlier)",
    "telemetry_cache_counts": "telemetry total_cache_count/common_pool_count (23.11 and later)",
    "telemetry_no_cache_counts": "telemetry without total_cache_count (22.11 and earlier)",
}


@dataclass
class Evidence:
    """What the dump itself fixes, before any memzone length is compared."""

    releases: list[str]
    release_why: list[str]
    header_size: int
    trailer_size: int
    elt_size: int
    flags: int
    stats: bool | None
    max_lcore: int | None
    max_lcore_why: str | None
    page_size: int | None
    page_why: str | None

    def layout_ok(self, p: Platform) -> bool:
        o = calc_obj_size(self.elt_size, effective_flags(self.flags), p)
        # an input without the object layout (a trace records the creation arguments only) allows every layout
        return self.header_size in (None, o.header_size) and self.trailer_size in (None, o.trailer_size)

    def ok(self, c: Choice, p: Platform) -> bool:
        if c.dpdk not in self.releases:
            return False
        if self.stats is not None and p.stats_enabled != self.stats:
            return False
        if self.max_lcore is not None and p.max_lcore != self.max_lcore:
            return False
        if self.page_size is not None and p.page_size != self.page_size:
            return False
        return self.layout_ok(p)


def evidence(p: PoolDump, parsed: Parsed) -> Evidence:
    markers = {**parsed.markers, **p.markers}
    releases, _ = release_window(markers)
    why = [MARKER_TEXT.get(k, k) for k in markers]
    max_lcore = why_l = None
    if p.cache_counts and not p.cache_hide_zero and p.get("cache_size"):
        max_lcore = max(p.cache_counts) + 1
        why_l = f"{len(p.cache_counts)} cache_count lines (one per RTE_MAX_LCORE lcore)"
    page = why_p = None
    zone = parsed.zones.get(f"MP_{p.name}_0") or parsed.zones.get(f"MP_{p.name}")
    if zone is not None and zone.pagesz:
        page, why_p = zone.pagesz, f"memzone dump: {zone.name} pagesz 0x{zone.pagesz:x}"
    elif p.get("tel_hugepage_sz"):
        page, why_p = p.get("tel_hugepage_sz"), f"telemetry: mz_hugepage_sz {p.get('tel_hugepage_sz')}"
    return Evidence(
        releases=releases,
        release_why=why,
        header_size=p.get("header_size"),
        trailer_size=p.get("trailer_size"),
        elt_size=p.get("elt_size"),
        flags=(p.get("flags") or 0) & VALID_USER_FLAGS,
        stats=p.stats,
        max_lcore=max_lcore,
        max_lcore_why=why_l,
        page_size=page,
        page_why=why_p,
    )


def candidates(
    pins: Pins, ev: Evidence, free: bool, prefer: dict[str, Any] | None = None
) -> Iterable[tuple[int, Choice]]:
    """Choices ordered by how many dimensions leave the default (and the per-dimension preference).

    ``free`` ignores the pins (to name the causes of a mismatch); ``prefer`` puts the values the
    other pools of the file settled on first (one process has one platform).
    """
    prefer = prefer or {}

    def dim(pinned: Any, evidence: Any, options: Iterable[Any], key: str = "") -> list[Any]:
        if pinned is not None and not free:
            return [pinned]
        first = [pinned] if pinned is not None else ([evidence] if evidence is not None else [])
        if not first and key in prefer:
            first = [prefer[key]]
        return first + [o for o in options if o not in first]

    releases = dim(
        pins.dpdk,
        None if len(ev.releases) != 1 else ev.releases[0],
        list(dict.fromkeys([r for r in RELEASE_PREFERENCE if r in ev.releases] + list(RELEASE_PREFERENCE))),
        "dpdk",
    )
    builds: tuple[tuple[str, int | None], ...] = BUILDS
    if pins.arch is not None or pins.cache_line is not None:
        default_cl = ARCHES[pins.arch].cache_line if pins.arch else None
        pinned = (pins.arch or ("x86_64" if pins.cache_line == 64 else "arm64"), pins.cache_line or default_cl)
        builds = (pinned,) if not free else (pinned, *(b for b in BUILDS if b != pinned))
    elif "build" in prefer:
        builds = (prefer["build"], *(b for b in BUILDS if b != prefer["build"]))
    spreads = dim(
        pins.channels * (pins.ranks or 1) if pins.channels else (4 * pins.ranks if pins.ranks else None),
        None,
        SPREADS,
        "spread",
    )
    debugs = dim(pins.debug, None, [False, True], "debug")
    stats = dim(pins.stats, ev.stats if ev.stats is not None else None, [False, True], "stats")
    pages = dim(pins.page_size, ev.page_size, PAGE_SIZES, "page_size")
    lcores = dim(pins.max_lcore, ev.max_lcore, [None], "max_lcore")
    dims = [releases, list(builds), spreads, debugs, stats, pages, lcores]
    combos = []
    for idx in itertools.product(*[range(len(d)) for d in dims]):
        dev = sum(1 for i in idx if i)
        if dev > 2:
            continue
        combos.append((dev, idx))
    combos.sort()
    seen = set()
    for dev, idx in combos:
        r, (arch, cl), s, d, st, pg, lc = (dims[k][i] for k, i in enumerate(idx))
        c = Choice(dpdk=r, arch=arch, cache_line=cl, spread=s, debug=d, stats=st, page_size=pg, max_lcore=lc)
        if c not in seen:
            seen.add(c)
            yield dev, c


def invert_max_lcore(p: PoolDump, c: Choice, pins: Pins, meas: dict[str, Measured]) -> Choice | None:
    """The RTE_MAX_LCORE that makes the header memzone (all per-lcore caches) the measured size."""
    if "header" not in meas:
        return None
    try:
        base = zones_by_role(model(p, c.platform(pins)))["header"]
        one = zones_by_role(model(p, replace(c, max_lcore=1).platform(pins)))["header"]
        two = zones_by_role(model(p, replace(c, max_lcore=2).platform(pins)))["header"]
    except (KeyError, InputError):
        return None
    step = two - one
    if step <= 0 or base == meas["header"].lo:
        return None
    guess = 1 + (meas["header"].lo - one) // step
    for lc in (guess, guess + 1, guess - 1):
        if 1 <= lc <= 65535:
            cand = replace(c, max_lcore=lc)
            try:
                if matches(meas, model(p, cand.platform(pins))):
                    return cand
            except InputError:
                continue
    return None


def file_spread(parsed: Parsed, pins: Pins) -> int | None:
    """The channels x ranks product every spread pool's object layout allows (one process, one EAL -n/-r)."""
    if pins.channels or pins.ranks:
        return None
    allowed = set(SPREADS)
    seen = False
    for p in parsed.pools.values():
        ev = evidence(p, parsed)
        if effective_flags(ev.flags) & MempoolFlag.NO_SPREAD or ev.header_size not in (64, 128):
            continue
        try:
            plats = {n: make_platform(arch="x86_64", cache_line=ev.header_size, channels=n) for n in SPREADS}
        except InputError:
            continue
        ok = {n for n, pl in plats.items() if ev.layout_ok(pl) or ev.layout_ok(pl._replace(debug=True))}
        if ok:
            allowed &= ok
            seen = True
    if not seen or not allowed:
        return None
    return next(n for n in SPREADS if n in allowed)
