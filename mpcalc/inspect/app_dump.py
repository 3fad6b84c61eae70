"""Whole applications in a dump: which memzones belong to which pool or table, and a dump explained by ``mpcalc app``.

* A pool whose name extends another's (testpmd's ``mb_pool_0`` and ``mb_pool_0_1``, mbuf_poolname_build,
  v22.11:app/test-pmd/testpmd.h:935-945): ``MP_mb_pool_0_1`` is the second pool's header, not a second
  objects chunk of the first; :func:`is_chunk_of` tells them apart by the other pool's own memzones.
* testpmd's ``--mp-alloc=xbuf`` pinned data zones ``MP_<pool>_xb_<n>`` (setup_extbuf,
  v22.11:app/test-pmd/testpmd.c:1085-1141) belong to their pool: :func:`pinned_zones`, :func:`pinned_rows`.
* :func:`app_model` runs ``mpcalc app`` on the application's command line; :func:`explain` holds a whole
  application's memzone dump (``rte_memzone_dump`` or telemetry's ``/eal/memzone_info``) against it, memzone by
  memzone (matched, differs, extra, missing), groups them by owner (a pool, a FIB with its RIB node pool and its
  table allocations, ethdev, ...) and, given telemetry's ``/eal/heap_info,0``, checks the heap to the byte.

Pure Python (no click, no rich).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from mpcalc.dpdk.apps.testpmd import extbuf_zone_size
from mpcalc.dpdk.core.heap import memzone_len
from mpcalc.dpdk.core.intmath import ceil_div
from mpcalc.dpdk.core.platform import Platform
from mpcalc.dpdk.core.records import Result
from mpcalc.inspect.dumps import Parsed, PoolDump
from mpcalc.inspect.kinds import Kind, app_kinds


def is_chunk_of(zone: str, pool: str, zones: Iterable[str]) -> bool:
    """Whether ``zone`` is an objects chunk ``MP_<pool>_<n>`` of ``pool``, and not the header (or a chunk) of a
    pool whose name extends ``pool``'s (a header ``MP_<other>`` has its ring ``RG_MP_<other>`` or stack
    ``STK_MP_<other>``).

    >>> names = ["MP_mb_pool_0", "RG_MP_mb_pool_0", "MP_mb_pool_0_0", "MP_mb_pool_0_1", "RG_MP_mb_pool_0_1"]
    >>> [n for n in names if is_chunk_of(n, "mb_pool_0", names)]
    ['MP_mb_pool_0_0']
    """
    m = re.fullmatch(re.escape(f"MP_{pool}_") + r"(\d+)", zone)
    if not m:
        return False
    known = set(zones)
    other = zone[3:]
    # not the header of pool <other>; a chunk MP_<pool>_<k>_<n> of a longer pool never matches (two suffixes)
    return f"RG_MP_{other}" not in known and f"STK_MP_{other}" not in known


def pinned_zones(pool: str, zones: Iterable[str]) -> list[str]:
    """testpmd's xbuf data zones of ``pool``: ``MP_<pool>_xb_<n>``."""
    return [n for n in zones if re.fullmatch(re.escape(f"MP_{pool}_xb_") + r"\d+", n)]


def pinned_rows(p: PoolDump, parsed: Parsed, plat: Platform) -> tuple[list[dict[str, Any]], list[str]]:
    """The pool's xbuf data memzones as rows of its report, and what their count says of the data room.

    setup_extbuf (v22.11:app/test-pmd/testpmd.c:1085-1141) reserves ``ceil(n / elt_num)`` memzones of
    EXTBUF_ZONE_SIZE, ``elt_num = EXTBUF_ZONE_SIZE / RTE_CACHE_LINE_ROUNDUP(data room)``."""
    names = pinned_zones(p.name, parsed.zones)
    if not names:
        return [], []
    zones = [parsed.zones[n] for n in names]
    size = extbuf_zone_size(plat)
    each = memzone_len(size, plat)
    measured = sum(z.len for z in zones)
    row = {
        "name": names[0] if len(names) == 1 else f"{names[0]} .. {names[-1]}",
        "role": "pinned data",
        "modelled": each * len(names),
        "measured": measured,
        "delta": measured - each * len(names),
        "how": f"{len(names)} memzones ({zones[0].where}): {len(names)} x EXTBUF_ZONE_SIZE {size:,} B",
    }
    n = p.get("size") or 0
    rooms = [e for e in range(plat.cache_line, size + 1, plat.cache_line) if ceil_div(n, size // e) == len(names)]
    why = [
        f"testpmd --mp-alloc=xbuf: {len(names)} pinned data memzones MP_{p.name}_xb_<i> of {each:,} B hold the "
        f"{n:,} mbufs' data (setup_extbuf, v22.11:app/test-pmd/testpmd.c:1085-1141)"
        + (f": a data room of {rooms[0]:,}..{rooms[-1]:,} B (rounded to a cache line)" if rooms else "")
    ]
    return [row], why


@dataclass
class AppModel:
    """``mpcalc app`` of a command line, indexed for a dump: each memzone's owner, each pool's creator."""

    argv: list[str]
    result: Result
    #: memzone name -> (len, owner, role)
    zones: dict[str, tuple[int, str, str]]
    #: pool name -> its creator (mpcalc.inspect.kinds)
    kinds: dict[str, Kind]
    #: owner -> the group: kind, memzones, the heap allocations that belong to it
    groups: dict[str, dict[str, Any]]
    external: set[str]


def app_model(argv: list[str], platform: Platform) -> AppModel:
    """Run the application model (mpcalc.dpdk.apps.size) and index it."""
    from mpcalc.dpdk import apps
    from mpcalc.dpdk.apps.eal import platform_for

    result = apps.size(list(argv), platform)
    where = platform_for(apps.eal_of(list(argv))[0], platform)
    allocs = [a.name for a in result.allocations]
    kinds = app_kinds([(mp.name, mp.elt_size, mp.private_data_size) for mp in result.mempools], allocs, where)
    groups: dict[str, dict[str, Any]] = {}
    zones: dict[str, tuple[int, str, str]] = {}

    def group(owner: str, kind: str) -> dict[str, Any]:
        return groups.setdefault(owner, {"name": owner, "kind": kind, "memzones": [], "allocations": []})

    for mp in result.mempools:
        k = kinds[mp.name]
        if k.fib:
            owner, label = f"FIB {k.owner}", "FIB: RIB node pool and tables"
        elif k.owner is not None:
            owner, label = f"RIB {k.owner}", "RIB node pool"
        else:
            owner, label = f"pool {mp.name}", "mbuf pool" if k.creator == "rte_pktmbuf_pool_create" else "mempool"
        g = group(owner, label)
        for z in mp.memzones:
            zones[z.name] = (z.len, owner, z.role)
            g["memzones"].append(z.name)
        g["allocations"] += [{"name": a.name, "size": a.size, "role": f"{mp.name}: {a.role}"} for a in mp.allocations]
    fib_names = {k.owner: f"FIB {k.owner}" for k in kinds.values() if k.fib and k.owner}
    tables = dict(fib_names)
    for z in result.zones:
        pool = z.role[: -len(" pinned data")] if z.role.endswith(" pinned data") else None
        owner, label = (f"pool {pool}", "mbuf pool") if pool and f"pool {pool}" in groups else _owner(z.name, z.role)
        zones[z.name] = (z.len, owner, z.role)
        group(owner, label)["memzones"].append(z.name)
        if owner != z.role and not pool:
            tables[owner.split(" ", 1)[1]] = owner
    for a in result.allocations:
        model = a.role.partition(": ")[0]  # DPDK's type string may be a pointer: the model's name leads the role
        table = next(
            (o for name, o in tables.items() if a.name.endswith(f"_{name}") or model.endswith(f"_{name}")), None
        )
        if table is not None:  # rte_fib_create's RIB_/FIB_ structs and dir24_8/trie's DP_/TBL8_ tables, ...
            groups[table]["allocations"].append(a.to_dict())
    external = {z.name for z in result.memzones if "extmem heap" in z.role}
    return AppModel(list(argv), result, zones, kinds, groups, external)


def _owner(zone: str, role: str) -> tuple[str, str]:
    """The owner of a memzone outside the pools, by DPDK's names: rte_lpm6_create's rules hash ``LRH_<name>``
    (v22.11:lib/lpm/rte_lpm6.c:267), rte_hash_create's rings ``HT_<name>``/``HT_EXT_<name>``
    (v22.11:lib/hash/rte_cuckoo_hash.c:231-246), rte_ring_create's ``RG_<name>``, a driver's (its declared names,
    mpcalc.dpdk.drivers.zone_owner: ethdev's DMA rings, virtio's vrings, net_ring's rings ...); else the model's
    role."""
    from mpcalc.dpdk.drivers import zone_owner

    driver = zone_owner(zone)
    if driver is not None and driver != "ethdev":
        return driver, driver
    for prefix, kind in (("RG_HT_LRH_", "LPM6"), ("RG_HT_EXT_", "hash"), ("RG_HT_", "hash"), ("RG_", "ring")):
        if zone.startswith(prefix):
            return f"{kind} {zone[len(prefix) :]}", kind
    return role, role


def explain(parsed: Parsed | Mapping[str, int], app: AppModel) -> dict[str, Any]:
    """Every memzone of the dump against the application model: ``rows`` (name, status matched / differs /
    extra / missing, dumped and modelled lengths, owner), ``groups`` (each owner's memzones, dumped and modelled
    bytes, and its heap allocations, which no memzone dump shows), the heap (telemetry ``/eal/heap_info,0``:
    Alloc_size and Alloc_count against the model's socket 0 heap) and whether everything is explained."""
    dumped = {n: z.len for n, z in parsed.zones.items()} if isinstance(parsed, Parsed) else dict(parsed)
    rows: list[dict[str, Any]] = []
    for name, length in dumped.items():
        got = app.zones.get(name)
        status = "extra" if got is None else "matched" if got[0] == length else "differs"
        rows.append(
            {
                "name": name,
                "status": status,
                "dumped": length,
                "modelled": got[0] if got else None,
                "owner": got[1] if got else None,
                "role": got[2] if got else None,
            }
        )
    rows += [
        {"name": name, "status": "missing", "dumped": None, "modelled": ln, "owner": owner, "role": role}
        for name, (ln, owner, role) in app.zones.items()
        if name not in dumped
    ]
    counts = {s: sum(r["status"] == s for r in rows) for s in ("matched", "differs", "extra", "missing")}
    groups = []
    for g in app.groups.values():
        mine = [r for r in rows if r["owner"] == g["name"]]
        groups.append(
            {
                **g,
                "modelled_bytes": sum(r["modelled"] or 0 for r in mine),
                "dumped_bytes": sum(r["dumped"] or 0 for r in mine),
                "allocation_bytes": sum(a["size"] for a in g["allocations"]),
                "explained": all(r["status"] == "matched" for r in mine),
            }
        )
    d = app.result.details
    heap: dict[str, Any] | None = None
    if isinstance(parsed, Parsed) and 0 in parsed.heaps:
        h = parsed.heaps[0]
        count = int(d["allocation_count"]) + int(d["memzone_count"]) - len(app.external)  # type: ignore[call-overload]
        model_bytes = app.result.heap_bytes
        heap = {
            "alloc_size": h["Alloc_size"],
            "modelled_bytes": model_bytes,
            "alloc_count": h.get("Alloc_count"),
            "modelled_count": count,
            "line": h["line"],
            "match": h["Alloc_size"] == model_bytes and h.get("Alloc_count") in (None, count),
        }
    explained = counts["matched"] == len(rows) and (heap is None or heap["match"])
    return {
        "command_line": list(app.argv),
        "application": d.get("application"),
        "rows": rows,
        "counts": counts,
        "groups": groups,
        "heap": heap,
        "explained": explained,
        "modelled_bytes": sum(ln for ln, _, _ in app.zones.values()),
        "dumped_bytes": sum(dumped.values()),
        "heap_bytes": app.result.heap_bytes,
        "notes": list(d.get("notes") or []),  # type: ignore[call-overload]
    }


def known_kinds(app: AppModel | None) -> dict[str, Kind] | None:
    return app.kinds if app is not None else None


__all__ = [
    "AppModel",
    "app_model",
    "explain",
    "extbuf_zone_size",
    "is_chunk_of",
    "known_kinds",
    "pinned_rows",
    "pinned_zones",
]
