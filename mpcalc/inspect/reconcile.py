""":func:`reconcile`: recover each pool's configuration, recompute it, compare memzone by memzone.

Each pool's platform comes from the search (:mod:`.search`); the pool is recomputed with
:func:`mpcalc.dpdk.objects.mempool.size` (through :func:`.model.model`), every memzone compared with its
measured length, and a difference named by the smallest platform changes that explain it.  The
pools of one input share one process, so a second pass prefers what the measured pools settled on.

Pure Python (no click, no rich).
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from mpcalc.dpdk.core.errors import InputError
from mpcalc.dpdk.core.facts import ARCHES, DEFAULT_RELEASE, version_key
from mpcalc.dpdk.core.flags import VALID_USER_FLAGS, MempoolFlag, effective_flags, flag_names
from mpcalc.dpdk.core.platform import DEFAULT_PAGE_SIZE, Platform, describe
from mpcalc.inspect.app_dump import is_chunk_of, pinned_rows, pinned_zones
from mpcalc.inspect.dump_report import InspectReport, PoolReport
from mpcalc.inspect.dumps import Parsed, PoolDump
from mpcalc.inspect.explanations import explanations
from mpcalc.inspect.kinds import Kind, extbuf, kind_of
from mpcalc.inspect.pool_model import (
    anon_len,
    driver_of,
    driver_role,
    matches,
    measurements,
    model,
    object_role,
    object_zones,
)
from mpcalc.inspect.savings import advise, in_total
from mpcalc.inspect.search import (
    RELEASE_PREFERENCE,
    Choice,
    Evidence,
    Pins,
    candidates,
    evidence,
    file_spread,
    invert_max_lcore,
)
from mpcalc.inspect.tables import annotate


def reconcile_pool(
    p: PoolDump,
    parsed: Parsed,
    pins: Pins,
    prefer: dict[str, Any] | None = None,
    own: Choice | None = None,
    known: dict[str, Kind] | None = None,
) -> PoolReport:
    notes: list[str] = []
    ev = evidence(p, parsed)
    meas = measurements(p, parsed)
    ops = p.get("ops_name")
    ring_driver = ops is None or driver_of(p) is not None  # the ring and stack drivers are modelled
    if ops is None:
        notes.append("the input does not name the pool's ops (telemetry gives only ops_index): ring_* assumed")
    if not ev.releases:
        notes.append("the format markers contradict each other; every release is tried")
        ev.releases = list(RELEASE_PREFERENCE)

    chosen: Choice | None = None
    fallback: Choice | None = None
    tried = 0
    for _dev, c in candidates(pins, ev, free=False, prefer=prefer):
        try:
            plat = c.platform(pins)
        except InputError:
            continue
        if not ev.ok(c, plat):
            continue
        if fallback is None:
            fallback = c
        if not meas:
            chosen = c
            break
        tried += 1
        res = model(p, plat)
        if matches(meas, res):
            chosen = c
            break
        if pins.max_lcore is None and ev.max_lcore is None:
            inv = invert_max_lcore(p, c, pins, meas)
            if inv is not None:
                chosen = inv
                break
        if tried > 400:
            break
    base = chosen or fallback
    layout_ok = base is not None
    if base is None:
        # the pins (or the markers) contradict the object layout: model with the pinned values anyway
        base = next(c for _, c in candidates(pins, replace(ev, releases=list(RELEASE_PREFERENCE)), free=False))
    plat = base.platform(pins)
    res = model(p, plat)
    mp = res.mempools[0]
    model_z = {m.role: m for m in res.memzones}

    rows: list[dict[str, Any]] = []
    measured_total = 0
    unexplained = 0
    objects = object_role(p, parsed)
    for role in ("header", driver_role(p), objects):
        mz = model_z.get(role)
        m = meas.get(role)
        modelled = (anon_len(res) or 0) if role == "anonymous" else mz.len if mz else 0
        name = "(anonymous memory)" if role == "anonymous" else mz.name if mz else f"({role})"
        measured = m.value(modelled) if m else None
        if measured is not None:
            measured_total += measured
            unexplained += measured - modelled
        rows.append(
            {
                "name": name,
                "role": role,
                "modelled": modelled,
                "measured": measured,
                "delta": None if measured is None else measured - modelled,
                "how": m.how if m else "not in the input",
            }
        )
    if objects == "anonymous":
        notes.append(
            f"no objects memzone MP_{p.name}_0: the objects are in memory outside the memzones, "
            "rte_mempool_populate_anon's anonymous mmap of 4 KiB pages (testpmd --mp-alloc=anon; "
            "v22.11:lib/mempool/rte_mempool.c:663-715): not hugepage memory"
        )
    hdr_zone = parsed.zones.get(f"MP_{p.name}")
    if hdr_zone is not None and hdr_zone.external:
        notes.append(
            f"its memzones are on socket {hdr_zone.socket_id}, an external heap (rte_malloc_heap_create; "
            "testpmd --mp-alloc=xmem|xmemhuge): memory the application mapped, not the EAL's hugepages"
        )
    more, why = pinned_rows(p, parsed, plat)
    for r in more:
        measured_total += r["measured"]
        unexplained += r["measured"] - r["modelled"]
    rows += more
    notes += why
    explained = bool(meas) and all(r["delta"] in (0, None) for r in rows) and layout_ok
    obj = mp.objsz
    dumped = {k: p.get(k) for k in ("header_size", "elt_size", "trailer_size")}
    parts = list(dumped.values())
    dumped["total_size"] = None if None in parts else sum(parts)  # a trace records no object layout
    object_rows = [{"name": k, "modelled": getattr(obj, k) if obj else None, "measured": v} for k, v in dumped.items()]
    for r in object_rows:
        r["delta"] = None if r["measured"] is None or r["modelled"] is None else r["measured"] - r["modelled"]

    causes: list[dict[str, Any]] = []
    mismatch = any(r["delta"] for r in rows) or any(r["delta"] for r in object_rows)
    if not ring_driver:
        text = (
            f"a driver mpcalc does not model: ops {ops!r} (it models ring_*, stack and lf_stack: the RG_MP_ or "
            f"STK_MP_{p.name} memzone and the default populate)"
        )
        if mismatch:
            causes.append({"kind": "driver", "values": [ops], "changes": [], "text": text})
        else:
            notes.append(text + "; the measured memzones match anyway")
    chunks = p.get("nb_mem_chunks")
    if chunks and chunks > 1:
        zones = object_zones(parsed, p.name)
        if len(zones) > 1:
            causes.append(
                {
                    "kind": "chunks",
                    "values": [len(zones)],
                    "changes": [],
                    "text": f"populated from {len(zones)} memzones (no contiguous block was free): the model "
                    "reserves one",
                }
            )
        else:
            notes.append(
                f"nb_mem_chunks={chunks}: the objects memzone was split where its IOVA is not contiguous "
                "(IOVA as PA); the memzone itself is what the model sizes"
            )
    if mismatch:
        causes += explanations(p, ev, pins, base, plat, meas)
        if not causes:
            causes.append(
                {
                    "kind": "unknown",
                    "values": [],
                    "changes": [],
                    "text": "no change of at most two of release, channels x ranks, debug or statistics "
                    "build, architecture/cache line, RTE_MAX_LCORE or page size explains it (another "
                    "build option, or memory the application added with rte_mempool_populate_*)",
                }
            )

    recovered = _recovered(p, ev, base, plat, pins, prefer or {}, own)
    if p.get("elt_size") % 8 == 0:
        notes.append(
            f"elt_size {p.get('elt_size')} is the requested element size rounded up to 8: the pool was "
            f"created with {max(1, p.get('elt_size') - 7)}..{p.get('elt_size')} bytes (same footprint)"
        )
    if not meas:
        notes.append(
            "no memzone length in the input (add rte_memzone_dump or telemetry /mempool/info): "
            "only the object layout is checked"
        )
    kind = kind_of(p, plat, known)
    if more:
        kind = extbuf(kind)
    adv = advise(p, plat, res, kind, anonymous=objects == "anonymous") if res.ok else []
    return PoolReport(
        kind=kind.to_dict(),
        name=p.name,
        sources=p.sources,
        recovered=recovered,
        platform=describe(plat),
        object_rows=object_rows,
        memzones=rows,
        modelled_bytes=sum(r["modelled"] for r in rows),
        measured_bytes=measured_total if meas else None,
        unexplained_bytes=unexplained,
        explained=explained and not mismatch,
        causes=causes,
        advice=adv,
        notes=notes,
        total_bytes=res.total_bytes,
        choice=base if chosen is not None else None,
    )


def _recovered(
    p: PoolDump, ev: Evidence, c: Choice, plat: Platform, pins: Pins, prefer: dict[str, Any], own: Choice | None
) -> dict[str, Any]:
    def src(pinned: Any, evidence: str | None, default_value: Any, value: Any, key: str = "") -> str:
        if pinned is not None:
            return "option"
        if evidence:
            return evidence
        if (
            key
            and value != default_value
            and prefer.get(key) == getattr(c, key)
            and not (own is not None and getattr(own, key) == getattr(c, key))
        ):
            return "the other pools of this input (one process, one platform)"
        if value == default_value:
            return "default (the dump does not tell)"
        return "memzone lengths (the only value that explains them)"

    flags = p.get("flags") or 0
    spread_why = None
    if plat.spreads and not effective_flags(flags & VALID_USER_FLAGS) & MempoolFlag.NO_SPREAD:
        ok = [n for n in range(1, 17) if ev.layout_ok(plat._replace(channels=n, ranks=1))]
        spread_why = (
            f"object layout (header_size {ev.header_size}, trailer_size {ev.trailer_size}) allows "
            f"channels x ranks in {ok}"
        )
    elif plat.spreads:
        spread_why = None
    layout_cl = f"header_size {ev.header_size}" if ev.header_size in (64, 128) else None
    return {
        "count": p.get("size"),
        "elt_size": p.get("elt_size"),
        "elt_size_range": [max(1, p.get("elt_size") - 7), p.get("elt_size")],
        "cache_size": p.get("cache_size"),
        "private_data_size": p.get("private_data_size"),
        "flags": flag_names(flags & VALID_USER_FLAGS),
        "flags_mask": flags,
        "ops_name": p.get("ops_name"),
        "populated_size": p.get("populated_size"),
        "nb_mem_chunks": p.get("nb_mem_chunks"),
        "dpdk": plat.dpdk,
        "dpdk_candidates": ev.releases,
        "arch": plat.arch,
        "cache_line": plat.cache_line,
        "channels": plat.channels,
        "ranks": plat.ranks,
        "max_lcore": plat.max_lcore,
        "page_size": plat.page_size,
        "debug": plat.debug,
        "stats": plat.stats,
        "sources": {
            "dpdk": src(
                pins.dpdk,
                "; ".join(ev.release_why) if len(ev.releases) == 1 else None,
                DEFAULT_RELEASE,
                plat.dpdk,
                "dpdk",
            )
            + (
                f" (format allows {', '.join(sorted(ev.releases, key=version_key))})"
                if pins.dpdk is None and len(ev.releases) > 1
                else ""
            ),
            "cache_line": src(pins.cache_line or pins.arch, layout_cl, 64, plat.cache_line),
            "channels": src(pins.channels or pins.ranks, spread_why, 4, plat.channels, "spread"),
            "max_lcore": src(pins.max_lcore, ev.max_lcore_why, ARCHES[plat.arch].max_lcore, plat.max_lcore),
            "page_size": src(pins.page_size, ev.page_why, DEFAULT_PAGE_SIZE, plat.page_size, "page_size"),
            "debug": src(
                pins.debug, f"object layout (trailer_size {ev.trailer_size})" if plat.debug else None, False, plat.debug
            ),
            "stats": src(
                pins.stats,
                None if p.stats is None else ("'stats:' block" if p.stats else "'no statistics available'"),
                False,
                plat.stats,
            ),
        },
    }


def reconcile(parsed: Parsed, pins: Pins | None = None, known: dict[str, Kind] | None = None) -> InspectReport:
    """Recover, recompute and compare every pool of ``parsed``; advise per pool and in total.  ``known``: the
    creators of the pools an application model has (``mpcalc inspect DUMP -- COMMAND LINE``)."""
    pins = pins or Pins()
    if not parsed.pools and not parsed.zones and not parsed.listed:
        raise InputError(
            "no mempool dump, memzone dump or telemetry reply in the input "
            f"({len(parsed.skipped)} unknown lines skipped)",
            param=parsed.source,
        )
    pools = [reconcile_pool(p, parsed, pins, known=known) for p in parsed.pools.values()]
    prefer = _file_preference(pools)
    spread = file_spread(parsed, pins)
    if spread is not None:
        prefer["spread"] = spread
    if prefer:
        pools = [
            reconcile_pool(p, parsed, pins, prefer, first.choice if first.measured_bytes is not None else None, known)
            for p, first in zip(parsed.pools.values(), pools, strict=True)
        ]
    owned = set()
    for p in parsed.pools.values():
        owned |= {
            n
            for n in parsed.zones
            if n in (f"MP_{p.name}", f"RG_MP_{p.name}", f"STK_MP_{p.name}") or is_chunk_of(n, p.name, parsed.zones)
        } | set(pinned_zones(p.name, parsed.zones))
    others: list[dict[str, Any]] = [
        {"name": z.name, "len": z.len, "line": z.line} for z in parsed.zones.values() if z.name not in owned
    ]
    notes = list(parsed.notes)
    settled = next((p.choice.platform(pins) for p in pools if p.choice is not None), None) or _platform_of(pins)
    notes += annotate(others, settled, parsed)
    undumped = [n for n in parsed.listed if n not in parsed.pools]
    if undumped:
        notes.append(f"listed by /mempool/list without /mempool/info or a dump: {', '.join(undumped)}")
    orphan = sorted({m.group(1) for n in (z["name"] for z in others) if (m := re.fullmatch(r"RG_MP_(.+)", n))})
    if orphan:
        notes.append(f"memzones of pools without a dump (no configuration to recover): {', '.join(orphan)}")
    advice = in_total(pools)
    return InspectReport(
        source=parsed.source, parsed=parsed, pools=pools, other_memzones=others, advice=advice, notes=notes
    )


def _platform_of(pins: Pins) -> Platform:
    """The pinned platform (defaults elsewhere) for the memzones of objects without a pool dump."""
    from mpcalc.dpdk.core.platform import make_platform

    return make_platform(dpdk=pins.dpdk, arch=pins.arch, cache_line=pins.cache_line, max_lcore=pins.max_lcore)


def _file_preference(pools: list[PoolReport]) -> dict[str, Any]:
    """The platform values the measured pools settled on: one process has one platform."""
    votes: dict[str, list[Any]] = {}
    for p in pools:
        if p.choice is None or not p.explained or p.measured_bytes is None:
            continue
        c = p.choice
        for key, value in (
            ("dpdk", c.dpdk),
            ("build", (c.arch, c.cache_line)),
            ("spread", c.spread),
            ("debug", c.debug),
            ("stats", c.stats),
            ("page_size", c.page_size),
            ("max_lcore", c.max_lcore),
        ):
            votes.setdefault(key, []).append(value)
    return {k: max(set(v), key=lambda x: (v.count(x), -v.index(x))) for k, v in votes.items() if v}
