"""``mpcalc inspect``: read what a live DPDK process reports and hold it against the model.

Pure Python (no click, no rich).  Three steps:

1. :func:`parse` reads any mix of

   * ``rte_mempool_dump()`` text (``dpdk-proc-info --show-mempool``, testpmd's
     ``dump_mempool``), in the formats of 21.11 to 26.07
     (lib/mempool/rte_mempool.c, ``rte_mempool_dump`` / ``rte_mempool_dump_cache``):
     24.11 adds ``memory chunk at ...`` lines, 25.11 hides zero cache counts
     (``internal cache infos (hide zero value items):``), 26.07 adds ``avg ...``
     statistics lines;
   * the per-pool summary of ``dpdk-proc-info --show-mempool=NAME``
     (app/proc-info/main.c ``show_mempool``);
   * ``rte_memzone_dump()`` text (lib/eal/common/eal_common_memzone.c; 24.11 adds
     ``Total Memory Zones size = ...M``);
   * the JSON that ``dpdk-telemetry.py`` prints for ``/mempool/list`` and
     ``/mempool/info,<name>`` (23.11 adds ``total_cache_count`` and ``common_pool_count``).

   Unknown lines are skipped and counted; a malformed line of a known kind raises
   :class:`InputError` naming its line number.

2. :func:`reconcile` recovers each pool's configuration, picks the platform the
   evidence allows (options pin values), recomputes the pool with
   :func:`mpcalc.engine.pool`, compares every memzone and names likely causes of
   a difference.

3. The same engine evaluates what each sizing flag, a smaller cache, a count under
   the ring's power of two, or another page size would save (:func:`advise`).
"""

from __future__ import annotations

import itertools
import json
import math
import re
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any, Iterable

from . import engine
from .dpdk.errors import InputError
from .dpdk.facts import ARCHES, DEFAULT_RELEASE, RELEASES, version_key
from .explain import under_pow2
from .dpdk.flags import SIZING_FLAGS, VALID_USER_FLAGS, MempoolFlag, effective_flags, flag_names
from .dpdk.mempool import PoolSpec, calc_obj_size
from .dpdk.records import SCHEMA_VERSION
from .dpdk.platform import Platform, describe, make_platform
from .dpdk.units import page_label

__all__ = ["Pins", "PoolDump", "ZoneDump", "Parsed", "parse", "reconcile", "InspectReport", "csv_rows"]

#: releases in the order mpcalc tries them when the dump does not tell: the default first.
RELEASE_PREFERENCE = tuple(sorted(RELEASES, key=lambda v: (v != DEFAULT_RELEASE, version_key(v))))
#: (arch, cache line) builds tried when not pinned.
BUILDS = (("x86_64", 64), ("arm64", 128), ("arm64", 64))
#: channels x ranks products tried (DPDK's fallback 4 first).
SPREADS = (4, 1, 2, 3, 6, 8, 5, 7, 12, 16, 9, 10, 11, 13, 14, 15)
PAGE_SIZES = (2 << 20, 4 << 10, 1 << 30, 0)


# --------------------------------------------------------------------------------------------
# parsed records


@dataclass
class PoolDump:
    """What the input says about one pool (fields merged from every source)."""

    name: str
    line: int
    sources: list[str] = field(default_factory=list)
    fields: dict[str, Any] = field(default_factory=dict)
    #: ``cache_count[i]`` lines: lcore -> count
    cache_counts: dict[int, int] = field(default_factory=dict)
    cache_hide_zero: bool = False
    #: ``memory chunk at ...`` lens (24.11+)
    chunks: list[int] = field(default_factory=list)
    #: the ``avg bytes/object=`` text, kept exact
    avg_bytes: str | None = None
    #: True: a ``stats:`` block; False: ``no statistics available``
    stats: bool | None = None
    stats_avg_lines: bool = False
    #: release markers seen in this pool's dump: name -> (min release, max release)
    markers: dict[str, tuple[str | None, str | None]] = field(default_factory=dict)

    def get(self, key: str) -> Any:
        return self.fields.get(key)


@dataclass
class ZoneDump:
    """One ``Zone N: name:<...>, len:0x...`` entry of ``rte_memzone_dump``."""

    name: str
    len: int
    line: int
    socket_id: int
    flags: int
    pagesz: int | None = None
    source: str = "memzone_dump"


@dataclass
class Parsed:
    source: str
    lines: int = 0
    pools: dict[str, PoolDump] = field(default_factory=dict)
    zones: dict[str, ZoneDump] = field(default_factory=dict)
    #: names of ``/mempool/list``
    listed: list[str] = field(default_factory=list)
    skipped: list[tuple[int, str]] = field(default_factory=list)
    formats: list[str] = field(default_factory=list)
    #: file-wide release markers (memzone dump, telemetry): name -> (min, max)
    markers: dict[str, tuple[str | None, str | None]] = field(default_factory=dict)
    #: a memzone dump was read (so a missing memzone is measured absent)
    memzone_dump: bool = False
    notes: list[str] = field(default_factory=list)

    def pool(self, name: str, line: int, source: str) -> PoolDump:
        p = self.pools.get(name)
        if p is None:
            p = self.pools[name] = PoolDump(name=name, line=line)
        if source not in p.sources:
            p.sources.append(source)
        return p

    def saw(self, fmt: str) -> None:
        if fmt not in self.formats:
            self.formats.append(fmt)


# --------------------------------------------------------------------------------------------
# parsing

_DEC = r"(-?\d+)"
_MP_START = re.compile(r"^mempool <(?P<name>[^>]*)>@(?P<addr>\S+)$")
_MP_KV = re.compile(r"^  (?P<key>flags|socket_id|pool|iova|nb_mem_chunks|size|populated_size|header_size|elt_size|"
                    r"trailer_size|total_obj_size|private_data_size|ops_index|common_pool_count)=(?P<val>.*)$")
_MP_OPS = re.compile(r"^  ops_name: <(?P<val>[^>]*)>$")
_MP_CHUNK = re.compile(r"^  memory chunk at (?P<hdr>\S+), addr=(?P<addr>\S+), iova=(?P<iova>0x[0-9a-fA-F]+), "
                       r"len=(?P<len>\d+)$")
_MP_AVG = re.compile(r"^  avg bytes/object=(?P<val>\d+\.\d+)$")
_MP_CACHE_HEAD = re.compile(r"^  internal cache infos( \(hide zero value items\))?:$")
_MP_CACHE_SIZE = re.compile(r"^    cache_size=(?P<val>\d+)$")
_MP_CACHE_COUNT = re.compile(r"^    cache_count\[(?P<lcore>\d+)\]=(?P<val>\d+)$")
_MP_CACHE_TOTAL = re.compile(r"^    total_cache_count=(?P<val>\d+)$")
_MP_STAT = re.compile(r"^    (?P<key>put_bulk|put_objs|put_common_pool_bulk|put_common_pool_objs|get_common_pool_bulk|"
                      r"get_common_pool_objs|get_success_bulk|get_success_objs|get_fail_bulk|get_fail_objs|"
                      r"get_success_blks|get_fail_blks)=(?P<val>\d+)$")
_MP_STAT_AVG = re.compile(r"^    avg (objs/bulk|common_pool objs/bulk|cache miss rate) .*$")
_MZ_ZONE = re.compile(r"^Zone (?P<idx>\d+): name:<(?P<name>[^>]*)>, len:0x(?P<len>[0-9a-fA-F]+), virt:(?P<virt>\S+), "
                      r"socket_id:(?P<socket>-?\d+), flags:(?P<flags>[0-9a-fA-F]+)$")
_MZ_SEG = re.compile(r"^  addr: (?P<addr>\S+) iova: (?P<iova>0x[0-9a-fA-F]+) len: 0x(?P<len>[0-9a-fA-F]+) "
                     r"pagesz: 0x(?P<pagesz>[0-9a-fA-F]+)$")
_MZ_TOTAL = re.compile(r"^Total Memory Zones size = (?P<val>\d+)M$")
# dpdk-proc-info --show-mempool=NAME (app/proc-info/main.c show_mempool)
_PI_NAME = re.compile(r"^  - Name: (?P<name>.*) on socket (?P<socket>-?\d+)$")
_PI_FLAG = re.compile(r"^\t  -- (?P<what>No spread|No cache align|SP put|Pool created|No IOVA config|Not used for IO) "
                      r"\((?P<v>[yn])\)(, SC get \((?P<v2>[yn])\))?$")
_PI_SIZE = re.compile(r"^  - Size (?P<size>\d+) Cache (?P<cache>\d+) element (?P<elt>\d+)$")
_PI_HDR = re.compile(r"^  - header (?P<hdr>\d+) trailer (?P<tlr>\d+)$")
_PI_PRIV = re.compile(r"^  - private data size (?P<priv>\d+)$")
_PI_INFO = re.compile(r"^  - (memezone - socket -?\d+|Count: avail \((?P<avail>\d+)\), in use \((?P<in_use>\d+)\))$")
_PI_OPS = re.compile(r"^  - ops_index (?P<idx>-?\d+) ops_name (?P<ops>.*)$")
_PI_FLAG_BITS = {"No spread": MempoolFlag.NO_SPREAD, "No cache align": MempoolFlag.NO_CACHE_ALIGN,
                 "SP put": MempoolFlag.SP_PUT, "Pool created": MempoolFlag.POOL_CREATED,
                 "No IOVA config": MempoolFlag.NO_IOVA_CONTIG, "Not used for IO": MempoolFlag.NON_IO}

_TEL_INFO_INT = ("pool_id", "flags", "socket_id", "size", "cache_size", "elt_size", "header_size", "trailer_size",
                 "private_data_size", "ops_index", "populated_size", "mz_len", "mz_hugepage_sz", "mz_socket_id",
                 "mz_flags")
_TEL_INFO_23 = ("total_cache_count", "common_pool_count")


def _malformed(source: str, line: int, text: str, why: str) -> InputError:
    return InputError(f"line {line}: {why}: {text.strip()[:120]!r}", param=source)


def _int(source: str, line: int, text: str, value: str, base: int = 10) -> int:
    try:
        return int(value, base)
    except ValueError:
        raise _malformed(source, line, text, f"not a{' hex' if base == 16 else 'n'} integer {value!r}") from None


def parse(text: str, source: str = "<input>") -> Parsed:
    """Parse every dump and telemetry reply in ``text``."""
    out = Parsed(source=source)
    lines = text.splitlines()
    out.lines = len(lines)
    pool: PoolDump | None = None  # the rte_mempool_dump being read
    summary: PoolDump | None = None  # a proc-info summary being read
    zone: ZoneDump | None = None
    zone_block = False
    i = 0
    while i < len(lines):
        no = i + 1
        raw = lines[i].rstrip("\r")
        i += 1
        if not raw.strip():
            continue
        # ---- telemetry JSON (one line, or pretty-printed over several) ----
        if raw.lstrip().startswith("{"):
            doc, consumed = _json_at(lines, i - 1)
            if doc is None:
                if '"/mempool/' in raw:
                    raise _malformed(source, no, raw, "unreadable telemetry JSON")
                out.skipped.append((no, raw))
                continue
            i = i - 1 + consumed
            pool = summary = None
            zone, zone_block = None, False
            if not _telemetry(out, doc, no, raw):
                out.skipped.append((no, raw))
            continue
        # ---- rte_mempool_dump ----
        if raw.startswith("mempool <"):
            m = _MP_START.match(raw)
            if not m:
                raise _malformed(source, no, raw, "a mempool dump header that is not 'mempool <NAME>@ADDR'")
            pool = out.pool(m["name"], no, "mempool_dump")
            out.saw("mempool_dump")
            summary, zone, zone_block = None, None, False
            continue
        if pool is not None and raw.startswith("  "):
            if _mempool_line(out, pool, raw, no):
                continue
        # ---- dpdk-proc-info --show-mempool=NAME ----
        m = _PI_NAME.match(raw)
        if m:
            summary = out.pool(m["name"], no, "proc_info")
            summary.fields.setdefault("socket_id", int(m["socket"]))
            summary.fields.setdefault("_pi_flags", 0)
            out.saw("proc_info_summary")
            pool, zone, zone_block = None, None, False
            continue
        if summary is not None and raw.startswith(("  - ", "\t  -- ")):
            if _summary_line(out, summary, raw, no):
                continue
        # ---- rte_memzone_dump ----
        if raw.startswith("Zone "):
            m = _MZ_ZONE.match(raw)
            if not m:
                raise _malformed(source, no, raw, "a memzone line that is not "
                                 "'Zone N: name:<NAME>, len:0xLEN, virt:ADDR, socket_id:N, flags:HEX'")
            zone = ZoneDump(name=m["name"], len=int(m["len"], 16), line=no, socket_id=int(m["socket"]),
                            flags=int(m["flags"], 16))
            out.zones[zone.name] = zone
            out.memzone_dump = True
            out.saw("memzone_dump")
            pool = summary = None
            zone_block = False
            continue
        if zone is not None and raw == "physical segments used:":
            zone_block = True
            continue
        if zone is not None and zone_block and raw.startswith("  addr: "):
            m = _MZ_SEG.match(raw)
            if not m:
                raise _malformed(source, no, raw, "a memzone segment line that is not "
                                 "'  addr: ADDR iova: 0xIOVA len: 0xLEN pagesz: 0xPAGESZ'")
            if zone.pagesz is None:
                zone.pagesz = int(m["pagesz"], 16)
            continue
        if raw.startswith("Total Memory Zones size"):
            if not _MZ_TOTAL.match(raw):
                raise _malformed(source, no, raw, "not 'Total Memory Zones size = NM'")
            out.markers["memzone_total_line"] = ("24.11", None)
            zone, zone_block = None, False
            continue
        out.skipped.append((no, raw))
        # an unknown line ends a block only if it is not indented
        if not raw.startswith(" "):
            pool = summary = None
            zone, zone_block = None, False
    if out.memzone_dump and "memzone_total_line" not in out.markers:
        out.markers["no_memzone_total_line"] = (None, "23.11")
    for p in out.pools.values():
        _finish_pool(out, p)
    return out


def _json_at(lines: list[str], start: int) -> tuple[Any, int]:
    """A JSON document starting at line ``start``: (document, lines consumed) or (None, 0)."""
    try:
        return json.loads(lines[start]), 1
    except json.JSONDecodeError:
        pass
    buf = ""
    for j in range(start, min(len(lines), start + 5000)):
        buf += lines[j] + "\n"
        if lines[j].rstrip().startswith("}") or lines[j].rstrip().endswith("}"):
            try:
                return json.loads(buf), j - start + 1
            except json.JSONDecodeError:
                continue
    return None, 0


def _telemetry(out: Parsed, doc: Any, no: int, raw: str) -> bool:
    """One telemetry reply; False if it is not one mpcalc reads."""
    if not isinstance(doc, dict):
        return False
    used = False
    if "/mempool/list" in doc:
        names = doc["/mempool/list"]
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            raise _malformed(out.source, no, raw, "/mempool/list is not a list of names")
        out.listed += [n for n in names if n not in out.listed]
        out.saw("telemetry")
        used = True
    if "/mempool/info" in doc:
        info = doc["/mempool/info"]
        if not isinstance(info, dict):
            raise _malformed(out.source, no, raw, "/mempool/info is not an object")
        out.saw("telemetry")
        used = True
        if not info:
            out.notes.append(f"line {no}: /mempool/info answered {{}}: no pool of that name")
            return True
        name = info.get("name")
        if not isinstance(name, str):
            raise _malformed(out.source, no, raw, "/mempool/info has no string 'name'")
        for key in _TEL_INFO_INT:
            if key in info and (not isinstance(info[key], int) or isinstance(info[key], bool)):
                raise _malformed(out.source, no, raw, f"/mempool/info {key} is not an integer")
        missing = [k for k in ("size", "elt_size", "header_size", "trailer_size", "cache_size", "flags",
                               "private_data_size") if k not in info]
        if missing:
            raise _malformed(out.source, no, raw, f"/mempool/info lacks {', '.join(missing)}")
        p = out.pool(name, no, "telemetry")
        for key in _TEL_INFO_INT + _TEL_INFO_23:
            if key in info:
                p.fields.setdefault(f"tel_{key[3:]}" if key.startswith("mz_") else key, info[key])
        if isinstance(info.get("mz_name"), str):
            p.fields.setdefault("tel_mz_name", info["mz_name"])
        if any(k in info for k in _TEL_INFO_23):
            p.markers["telemetry_cache_counts"] = ("23.11", None)
        else:
            p.markers["telemetry_no_cache_counts"] = (None, "22.11")
    return used


def _mempool_line(out: Parsed, p: PoolDump, raw: str, no: int) -> bool:
    src = out.source
    m = _MP_KV.match(raw)
    if m:
        key, val = m["key"], m["val"]
        if key in ("pool",):
            p.fields[key] = val
        elif key == "flags":
            p.fields[key] = _int(src, no, raw, val, 16)
        elif key == "iova":
            if not val.startswith("0x"):
                raise _malformed(src, no, raw, "iova is not hex")
            p.fields[key] = _int(src, no, raw, val[2:], 16)
        else:
            p.fields[key] = _int(src, no, raw, val)
        return True
    if raw.startswith("  ops_name:"):
        m = _MP_OPS.match(raw)
        if not m:
            raise _malformed(src, no, raw, "not '  ops_name: <NAME>'")
        p.fields["ops_name"] = m["val"]
        return True
    if raw.startswith("  memory chunk at"):
        m = _MP_CHUNK.match(raw)
        if not m:
            raise _malformed(src, no, raw, "not '  memory chunk at HDR, addr=ADDR, iova=0xIOVA, len=LEN'")
        p.chunks.append(int(m["len"]))
        p.markers["chunk_lines"] = ("24.11", None)
        return True
    if raw.startswith("  avg bytes/object="):
        m = _MP_AVG.match(raw)
        if not m:
            raise _malformed(src, no, raw, "avg bytes/object is not a decimal number")
        p.avg_bytes = m["val"]
        return True
    if raw.startswith("  internal cache infos"):
        m = _MP_CACHE_HEAD.match(raw)
        if not m:
            raise _malformed(src, no, raw, "unknown cache header")
        p.cache_hide_zero = bool(m.group(1))
        p.markers["cache_hide_zero" if p.cache_hide_zero else "cache_all_counts"] = (
            ("25.11", None) if p.cache_hide_zero else (None, "24.11"))
        return True
    for rx, key in ((_MP_CACHE_SIZE, "cache_size"), (_MP_CACHE_TOTAL, "total_cache_count")):
        if raw.startswith(f"    {key}="):
            m = rx.match(raw)
            if not m:
                raise _malformed(src, no, raw, f"{key} is not an integer")
            p.fields[key] = int(m["val"])
            return True
    if raw.startswith("    cache_count["):
        m = _MP_CACHE_COUNT.match(raw)
        if not m:
            raise _malformed(src, no, raw, "not '    cache_count[LCORE]=N'")
        p.cache_counts[int(m["lcore"])] = int(m["val"])
        return True
    if raw == "  no statistics available":
        p.stats = False
        return True
    if raw == "  stats:":
        p.stats = True
        return True
    if p.stats and raw.startswith("    "):
        m = _MP_STAT.match(raw)
        if m:
            p.fields[f"stat_{m['key']}"] = int(m["val"])
            return True
        if _MP_STAT_AVG.match(raw):
            p.stats_avg_lines = True
            p.markers["stats_avg_lines"] = ("26.07", None)
            return True
    return False


def _summary_line(out: Parsed, p: PoolDump, raw: str, no: int) -> bool:
    if raw == "  - flags:":
        return True
    m = _PI_FLAG.match(raw)
    if m:
        if m["v"] == "y":
            p.fields["_pi_flags"] |= int(_PI_FLAG_BITS[m["what"]])
        if m["v2"] == "y":
            p.fields["_pi_flags"] |= int(MempoolFlag.SC_GET)
        return True
    for rx, keys in ((_PI_SIZE, (("size", "size"), ("cache", "cache_size"), ("elt", "elt_size"))),
                     (_PI_HDR, (("hdr", "header_size"), ("tlr", "trailer_size"))),
                     (_PI_PRIV, (("priv", "private_data_size"),))):
        m = rx.match(raw)
        if m:
            for group, key in keys:
                p.fields.setdefault(key, int(m[group]))
            return True
    m = _PI_INFO.match(raw)
    if m:
        if m["avail"] is not None:
            p.fields.setdefault("avail_count", int(m["avail"]))
            p.fields.setdefault("in_use_count", int(m["in_use"]))
        return True
    m = _PI_OPS.match(raw)
    if m:
        p.fields.setdefault("ops_index", int(m["idx"]))
        p.fields.setdefault("ops_name", m["ops"])
        return True
    if raw.startswith("  - Size ") or raw.startswith("  - header ") or raw.startswith("  - ops_index "):
        raise _malformed(out.source, no, raw, "a proc-info mempool line with unexpected values")
    return False


def _finish_pool(out: Parsed, p: PoolDump) -> None:
    if p.avg_bytes is not None and not p.chunks:
        p.markers["no_chunk_lines"] = (None, "23.11")
    if "_pi_flags" in p.fields:
        p.fields.setdefault("flags", p.fields.pop("_pi_flags"))
    for key in ("size", "elt_size", "header_size", "trailer_size"):
        if key not in p.fields:
            raise InputError(f"line {p.line}: the dump of pool {p.name!r} has no {key}", param=out.source)
    if "total_obj_size" in p.fields:
        total = p.fields["header_size"] + p.fields["elt_size"] + p.fields["trailer_size"]
        if total != p.fields["total_obj_size"]:
            raise InputError(f"line {p.line}: pool {p.name!r}: total_obj_size {p.fields['total_obj_size']} is not "
                             f"header_size + elt_size + trailer_size ({total})", param=out.source)


# --------------------------------------------------------------------------------------------
# reconciliation


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
        return make_platform(dpdk=self.dpdk, arch=self.arch, cache_line=self.cache_line, max_lcore=self.max_lcore,
                             channels=channels, ranks=ranks, page_size=self.page_size, debug=self.debug,
                             stats=self.stats)


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


def _release_window(markers: dict[str, tuple[str | None, str | None]]) -> tuple[list[str], list[str]]:
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


_MARKER_TEXT = {
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
        return (o.header_size, o.trailer_size) == (self.header_size, self.trailer_size)

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


def _evidence(p: PoolDump, parsed: Parsed) -> Evidence:
    markers = {**parsed.markers, **p.markers}
    releases, _ = _release_window(markers)
    why = [_MARKER_TEXT.get(k, k) for k in markers]
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
    return Evidence(releases=releases, release_why=why, header_size=p.get("header_size"),
                    trailer_size=p.get("trailer_size"), elt_size=p.get("elt_size"),
                    flags=(p.get("flags") or 0) & VALID_USER_FLAGS, stats=p.stats, max_lcore=max_lcore,
                    max_lcore_why=why_l, page_size=page, page_why=why_p)


def _measurements(p: PoolDump, parsed: Parsed) -> dict[str, Measured]:
    """Measured lengths of the pool's memzones, by role."""
    out: dict[str, Measured] = {}
    hdr = parsed.zones.get(f"MP_{p.name}")
    if hdr is not None:
        out["header"] = Measured(hdr.len, hdr.len, f"memzone dump, line {hdr.line}")
    elif p.get("tel_len") is not None:
        out["header"] = Measured(p.get("tel_len"), p.get("tel_len"), "telemetry mz_len")
    if hdr is not None:
        ring = parsed.zones.get(f"RG_MP_{p.name}")
        out["ring"] = (Measured(ring.len, ring.len, f"memzone dump, line {ring.line}") if ring is not None
                       else Measured(0, 0, "absent from the memzone dump"))
        objs = [z for n, z in parsed.zones.items() if re.fullmatch(re.escape(f"MP_{p.name}_") + r"\d+", n)]
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


def _candidates(pins: Pins, ev: Evidence, free: bool,
                prefer: dict[str, Any] | None = None) -> Iterable[tuple[int, Choice]]:
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

    releases = dim(pins.dpdk, None if len(ev.releases) != 1 else ev.releases[0], list(dict.fromkeys([r for r in RELEASE_PREFERENCE if r in ev.releases]
                                                     + list(RELEASE_PREFERENCE))), "dpdk")
    builds = BUILDS
    if pins.arch is not None or pins.cache_line is not None:
        default_cl = ARCHES[pins.arch].cache_line if pins.arch else None
        pinned = (pins.arch or ("x86_64" if pins.cache_line == 64 else "arm64"), pins.cache_line or default_cl)
        builds = (pinned,) if not free else (pinned,) + tuple(b for b in BUILDS if b != pinned)
    elif "build" in prefer:
        builds = (prefer["build"],) + tuple(b for b in BUILDS if b != prefer["build"])
    spreads = dim(pins.channels * (pins.ranks or 1) if pins.channels else (4 * pins.ranks if pins.ranks else None),
                  None, SPREADS, "spread")
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


def _model(p: PoolDump, plat: Platform, **changes: Any) -> engine.Result:
    spec = PoolSpec(name=p.name, count=p.get("size"), elt_size=p.get("elt_size"),
                    cache_size=p.get("cache_size") or 0, private_size=p.get("private_data_size") or 0,
                    flags=(p.get("flags") or 0) & VALID_USER_FLAGS)
    return engine.pool(spec._replace(**changes), plat)


def _zones_by_role(res: engine.Result) -> dict[str, int]:
    return {m.role: m.len for m in res.memzones}


def _matches(meas: dict[str, Measured], res: engine.Result) -> bool:
    model = _zones_by_role(res)
    return all(m.explains(model.get(role, 0)) for role, m in meas.items())


def _invert_max_lcore(p: PoolDump, c: Choice, pins: Pins, meas: dict[str, Measured]) -> Choice | None:
    """The RTE_MAX_LCORE that makes the header memzone (all per-lcore caches) the measured size."""
    if "header" not in meas:
        return None
    try:
        base = _zones_by_role(_model(p, c.platform(pins)))["header"]
        one = _zones_by_role(_model(p, replace(c, max_lcore=1).platform(pins)))["header"]
        two = _zones_by_role(_model(p, replace(c, max_lcore=2).platform(pins)))["header"]
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
                if _matches(meas, _model(p, cand.platform(pins))):
                    return cand
            except InputError:
                continue
    return None


_DIM_NAMES = {"dpdk": "release", "arch": "architecture", "cache_line": "cache line", "spread": "channels x ranks",
              "debug": "debug build", "stats": "statistics build", "page_size": "page size",
              "max_lcore": "RTE_MAX_LCORE"}


def _describe_change(base: Choice, other: Choice, base_p: Platform, other_p: Platform) -> list[dict[str, Any]]:
    out = []
    for f, label in _DIM_NAMES.items():
        a, b = getattr(base, f), getattr(other, f)
        if f == "max_lcore":
            a, b = base_p.max_lcore, other_p.max_lcore
        if f == "cache_line":
            a, b = base_p.cache_line, other_p.cache_line
        if a == b:
            continue
        if f == "dpdk":
            text = f"another release: DPDK {b} (the model used {a})"
        elif f == "spread":
            text = (f"another channel count: channels x ranks = {b} (EAL -n/-r; the model used {a})"
                    if other_p.spreads else f"channels x ranks = {b}")
        elif f == "debug":
            text = ("a debug build (RTE_LIBRTE_MEMPOOL_DEBUG: object cookies)" if b else
                    "a build without RTE_LIBRTE_MEMPOOL_DEBUG")
        elif f == "stats":
            text = ("a statistics build (RTE_LIBRTE_MEMPOOL_STATS: per-lcore stats in the header)" if b else
                    "a build without RTE_LIBRTE_MEMPOOL_STATS")
        elif f == "page_size":
            text = f"another page size: {_show(label, b)} (the model used {_show(label, a)})"
        elif f == "arch":
            text = f"another architecture: {b} (the model used {a})"
        elif f == "cache_line":
            text = f"another cache line: {b} B (the model used {a} B)"
        else:
            text = f"another RTE_MAX_LCORE: {b} (the model used {a})"
        out.append({"kind": label, "value": b, "text": text})
    return out


def _explanations(p: PoolDump, ev: Evidence, pins: Pins, base: Choice, plat: Platform,
                  meas: dict[str, Measured]) -> list[dict[str, Any]]:
    """The smallest changes of the platform (ignoring the pins) that make the model match the dump."""
    found: list[list[dict[str, Any]]] = []
    best: int | None = None
    evaluated = 0
    for dev, c in _candidates(pins, replace(ev, releases=list(RELEASE_PREFERENCE)), free=True):
        if dev == 0:
            continue
        if best is not None and dev > best:
            break
        evaluated += 1
        if evaluated > 1500:
            break
        try:
            cp = c.platform(Pins())
            if not ev.layout_ok(cp) or (meas and not _matches(meas, _model(p, cp))):
                continue
        except InputError:
            continue
        changes = _describe_change(base, c, plat, cp)
        if changes and changes not in found:
            found.append(changes)
            best = dev
    out: list[dict[str, Any]] = []
    singles: dict[str, dict[str, Any]] = {}
    for changes in found:
        if len(changes) == 1:
            ch = changes[0]
            g = singles.get(ch["kind"])
            if g is None:
                g = singles[ch["kind"]] = {"kind": ch["kind"], "values": [], "changes": [ch], "text": ""}
                out.append(g)
            g["values"].append(ch["value"])
        else:
            out.append({"kind": " and ".join(ch["kind"] for ch in changes), "values": [ch["value"] for ch in changes],
                        "changes": changes, "text": " and ".join(ch["text"] for ch in changes)})
    for g in singles.values():
        ch = g["changes"][0]
        g["text"] = ch["text"] if len(g["values"]) == 1 else ch["text"].replace(
            _show(ch["kind"], ch["value"]), " or ".join(_show(ch["kind"], v) for v in g["values"]), 1)
        g["changes"] = []
    return out[:6]


def _show(kind: str, value: Any) -> str:
    if kind == "page size":
        return page_label(value)
    return str(value)


@dataclass
class PoolReport:
    name: str
    sources: list[str]
    recovered: dict[str, Any]
    platform: dict[str, Any]
    object_rows: list[dict[str, Any]]
    memzones: list[dict[str, Any]]
    modelled_bytes: int
    measured_bytes: int | None
    unexplained_bytes: int
    explained: bool
    causes: list[dict[str, Any]]
    advice: list[dict[str, Any]]
    notes: list[str]
    total_bytes: int
    #: the platform choice, when the lengths (or the evidence alone) settled it
    choice: Choice | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name, "sources": self.sources, "recovered": self.recovered, "platform": self.platform,
            "object": self.object_rows, "memzones": self.memzones, "modelled_bytes": self.modelled_bytes,
            "measured_bytes": self.measured_bytes,
            "modelled_bytes_of_measured": sum(r["modelled"] for r in self.memzones if r["measured"] is not None),
            "unexplained_bytes": self.unexplained_bytes,
            "explained": self.explained, "total_bytes": self.total_bytes, "causes": self.causes,
            "advice": self.advice, "notes": self.notes,
        }


def reconcile_pool(p: PoolDump, parsed: Parsed, pins: Pins, prefer: dict[str, Any] | None = None,
                   own: Choice | None = None) -> PoolReport:
    notes: list[str] = []
    ev = _evidence(p, parsed)
    meas = _measurements(p, parsed)
    ops = p.get("ops_name")
    ring_driver = ops is None or ops.startswith("ring_")
    if ops is None:
        notes.append("the input does not name the pool's ops (telemetry gives only ops_index): ring_* assumed")
    if not ev.releases:
        notes.append("the format markers contradict each other; every release is tried")
        ev.releases = list(RELEASE_PREFERENCE)

    chosen: Choice | None = None
    fallback: Choice | None = None
    tried = 0
    for dev, c in _candidates(pins, ev, free=False, prefer=prefer):
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
        res = _model(p, plat)
        if _matches(meas, res):
            chosen = c
            break
        if pins.max_lcore is None and ev.max_lcore is None:
            inv = _invert_max_lcore(p, c, pins, meas)
            if inv is not None:
                chosen = inv
                break
        if tried > 400:
            break
    base = chosen or fallback
    layout_ok = base is not None
    if base is None:
        # the pins (or the markers) contradict the object layout: model with the pinned values anyway
        base = next(c for _, c in _candidates(pins, replace(ev, releases=list(RELEASE_PREFERENCE)), free=False))
    plat = base.platform(pins)
    res = _model(p, plat)
    mp = res.mempools[0]
    model_z = {m.role: m for m in res.memzones}

    rows = []
    measured_total = 0
    unexplained = 0
    for role in ("header", "ring", "objects"):
        mz = model_z.get(role)
        m = meas.get(role)
        modelled = mz.len if mz else 0
        measured = m.value(modelled) if m else None
        if m is not None:
            measured_total += measured
            unexplained += measured - modelled
        rows.append({"name": mz.name if mz else f"({role})", "role": role, "modelled": modelled,
                     "measured": measured, "delta": None if measured is None else measured - modelled,
                     "how": m.how if m else "not in the input"})
    explained = bool(meas) and all(r["delta"] in (0, None) for r in rows) and layout_ok
    obj = mp.objsz
    dumped = {k: p.get(k) for k in ("header_size", "elt_size", "trailer_size")}
    dumped["total_size"] = sum(dumped.values())
    object_rows = [{"name": k, "modelled": getattr(obj, k) if obj else None, "measured": v}
                   for k, v in dumped.items()]
    for r in object_rows:
        r["delta"] = None if r["measured"] is None or r["modelled"] is None else r["measured"] - r["modelled"]

    causes: list[dict[str, Any]] = []
    mismatch = any(r["delta"] for r in rows) or any(r["delta"] for r in object_rows)
    if not ring_driver:
        text = (f"a driver other than ring_*: ops {ops!r} (mpcalc models the ring driver: the RG_MP_{p.name} "
                "ring and the default populate)")
        if mismatch:
            causes.append({"kind": "driver", "values": [ops], "changes": [], "text": text})
        else:
            notes.append(text + "; the measured memzones match anyway")
    chunks = p.get("nb_mem_chunks")
    if chunks and chunks > 1:
        zones = [n for n in parsed.zones if re.fullmatch(re.escape(f"MP_{p.name}_") + r"\d+", n)]
        if len(zones) > 1:
            causes.append({"kind": "chunks", "values": [len(zones)], "changes": [],
                           "text": f"populated from {len(zones)} memzones (no contiguous block was free): the model "
                                   "reserves one"})
        else:
            notes.append(f"nb_mem_chunks={chunks}: the objects memzone was split where its IOVA is not contiguous "
                         "(IOVA as PA); the memzone itself is what the model sizes")
    if mismatch:
        causes += _explanations(p, ev, pins, base, plat, meas)
        if not causes:
            causes.append({"kind": "unknown", "values": [], "changes": [],
                           "text": "no change of at most two of release, channels x ranks, debug or statistics "
                                   "build, architecture/cache line, RTE_MAX_LCORE or page size explains it (another "
                                   "build option, or memory the application added with rte_mempool_populate_*)"})

    recovered = _recovered(p, ev, base, plat, pins, prefer or {}, own)
    if p.get("elt_size") % 8 == 0:
        notes.append(f"elt_size {p.get('elt_size')} is the requested element size rounded up to 8: the pool was "
                     f"created with {max(1, p.get('elt_size') - 7)}..{p.get('elt_size')} bytes (same footprint)")
    if not meas:
        notes.append("no memzone length in the input (add rte_memzone_dump or telemetry /mempool/info): "
                     "only the object layout is checked")
    adv = advise(p, plat, res) if res.ok else []
    return PoolReport(name=p.name, sources=p.sources, recovered=recovered, platform=describe(plat),
                      object_rows=object_rows, memzones=rows, modelled_bytes=sum(r["modelled"] for r in rows),
                      measured_bytes=measured_total if meas else None, unexplained_bytes=unexplained,
                      explained=explained and not mismatch, causes=causes, advice=adv, notes=notes,
                      total_bytes=res.total_bytes, choice=base if chosen is not None else None)


def _recovered(p: PoolDump, ev: Evidence, c: Choice, plat: Platform, pins: Pins,
               prefer: dict[str, Any], own: Choice | None) -> dict[str, Any]:
    def src(pinned: Any, evidence: str | None, default_value: Any, value: Any, key: str = "") -> str:
        if pinned is not None:
            return "option"
        if evidence:
            return evidence
        if key and value != default_value and prefer.get(key) == getattr(c, key) and not (
                own is not None and getattr(own, key) == getattr(c, key)):
            return "the other pools of this input (one process, one platform)"
        if value == default_value:
            return "default (the dump does not tell)"
        return "memzone lengths (the only value that explains them)"

    flags = p.get("flags") or 0
    spread_why = None
    if plat.spreads and not effective_flags(flags & VALID_USER_FLAGS) & MempoolFlag.NO_SPREAD:
        ok = [n for n in range(1, 17)
              if ev.layout_ok(plat._replace(channels=n, ranks=1))]
        spread_why = (f"object layout (header_size {ev.header_size}, trailer_size {ev.trailer_size}) allows "
                      f"channels x ranks in {ok}")
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
            "dpdk": src(pins.dpdk, "; ".join(ev.release_why) if len(ev.releases) == 1 else None, DEFAULT_RELEASE,
                        plat.dpdk, "dpdk") + (f" (format allows {', '.join(sorted(ev.releases, key=version_key))})"
                                      if pins.dpdk is None and len(ev.releases) > 1 else ""),
            "cache_line": src(pins.cache_line or pins.arch, layout_cl, 64, plat.cache_line),
            "channels": src(pins.channels or pins.ranks, spread_why, 4, plat.channels, "spread"),
            "max_lcore": src(pins.max_lcore, ev.max_lcore_why, ARCHES[plat.arch].max_lcore, plat.max_lcore),
            "page_size": src(pins.page_size, ev.page_why, 2 << 20, plat.page_size, "page_size"),
            "debug": src(pins.debug, f"object layout (trailer_size {ev.trailer_size})" if plat.debug else None,
                         False, plat.debug),
            "stats": src(pins.stats, None if p.stats is None else
                         ("'stats:' block" if p.stats else "'no statistics available'"), False, plat.stats),
        },
    }


# --------------------------------------------------------------------------------------------
# advice

_CAVEATS = {
    "no_cache_align": "objects stop starting on a cache line (false sharing, slower access); implies no_spread",
    "no_spread": "objects are no longer spread over memory channels and ranks",
    "no_iova_contig": "objects may cross page boundaries: not for objects a device DMAs (mbufs, descriptors)",
    "all_flags": "the three flags together (see each)",
    "cache_0": "no per-lcore cache: every get and put goes to the ring",
    "cache_half": "DPDK reserves a full RTE_MEMPOOL_CACHE_MAX_SIZE cache for each of RTE_MAX_LCORE lcores as soon "
                  "as cache_size > 0: a smaller cache saves nothing",
    "count": "the ring holds rte_align32pow2(n + 1) slots: this count halves it",
    "page": "needs hugepages of that size (objects cross fewer page boundaries)",
}


def advise(p: PoolDump, plat: Platform, base: engine.Result) -> list[dict[str, Any]]:
    """Every variant the engine evaluates, ranked by saving (bytes against the model of the dump)."""
    spec_flags = (p.get("flags") or 0) & VALID_USER_FLAGS
    eff = effective_flags(spec_flags)
    count = p.get("size")
    total = base.total_bytes
    out: list[dict[str, Any]] = []

    def add(key: str, change: str, res: engine.Result | None, caveat: str, keep_zero: bool = False) -> None:
        if res is None or not res.ok:
            return
        saves = total - res.total_bytes
        if saves > 0 or (keep_zero and saves == 0):
            out.append({"key": key, "change": change, "saves_bytes": saves,
                        "saves_percent": round(100 * saves / total, 1) if total else 0.0,
                        "total_bytes_after": res.total_bytes, "note": caveat})

    missing = [f for f in SIZING_FLAGS if not eff & f]
    for f in missing:
        name = f.name.lower()
        add(f"flag:{name}", f"add RTE_MEMPOOL_F_{f.name}", _model(p, plat, flags=spec_flags | f), _CAVEATS[name])
    if len(missing) > 1:
        allf = spec_flags | sum(int(f) for f in SIZING_FLAGS)
        add("flag:all", "add " + " | ".join(f"RTE_MEMPOOL_F_{f.name}" for f in missing),
            _model(p, plat, flags=allf), _CAVEATS["all_flags"])
    cache = p.get("cache_size") or 0
    if cache:
        add("cache:half", f"cache_size {cache} -> {cache // 2}", _model(p, plat, cache_size=cache // 2),
            _CAVEATS["cache_half"], keep_zero=True)
        add("cache:0", f"cache_size {cache} -> 0", _model(p, plat, cache_size=0), _CAVEATS["cache_0"])
    smaller = under_pow2(count, max_loss=16)
    if smaller is not None:
        add("count:pow2", f"count {count} -> {smaller} ({count - smaller} fewer objects)",
            _model(p, plat, count=smaller), _CAVEATS["count"])
    if not eff & MempoolFlag.NO_IOVA_CONTIG:
        for pg in (4 << 10, 2 << 20, 1 << 30):
            if pg != plat.page_size:
                add(f"page:{page_label(pg)}", f"page size {page_label(plat.page_size)} -> {page_label(pg)}",
                    _model(p, plat._replace(page_size=pg)), _CAVEATS["page"])
    out.sort(key=lambda a: (-a["saves_bytes"], a["key"]))
    for rank, a in enumerate(out, 1):
        a["rank"] = rank
    return out


# --------------------------------------------------------------------------------------------
# the report


@dataclass
class InspectReport:
    source: str
    parsed: Parsed
    pools: list[PoolReport]
    other_memzones: list[dict[str, Any]]
    advice: list[dict[str, Any]]
    notes: list[str]

    @property
    def unexplained_bytes(self) -> int:
        return sum(p.unexplained_bytes for p in self.pools)

    def to_dict(self) -> dict[str, Any]:
        from . import __version__

        modelled = sum(p.modelled_bytes for p in self.pools)
        measured = [p.measured_bytes for p in self.pools if p.measured_bytes is not None]
        return {
            "schema_version": SCHEMA_VERSION,
            "mpcalc_version": __version__,
            "command": "inspect",
            "input": {
                "file": self.source,
                "lines": self.parsed.lines,
                "formats": list(self.parsed.formats),
                "skipped_lines": len(self.parsed.skipped),
                "skipped": [{"line": n, "text": t[:200]} for n, t in self.parsed.skipped[:50]],
                "listed_pools": list(self.parsed.listed),
            },
            "pools": [p.to_dict() for p in self.pools],
            "other_memzones": self.other_memzones,
            "totals": {
                "pools": len(self.pools),
                "modelled_bytes": modelled,
                "measured_bytes": sum(measured) if measured else None,
                "modelled_bytes_of_measured": sum(r["modelled"] for p in self.pools for r in p.memzones
                                                  if r["measured"] is not None),
                "unexplained_bytes": self.unexplained_bytes,
                "explained_pools": sum(1 for p in self.pools if p.explained),
                "other_memzone_bytes": sum(z["len"] for z in self.other_memzones),
            },
            "advice": self.advice,
            "notes": self.notes,
        }


def reconcile(parsed: Parsed, pins: Pins | None = None) -> InspectReport:
    """Recover, recompute and compare every pool of ``parsed``; advise per pool and in total."""
    pins = pins or Pins()
    if not parsed.pools and not parsed.zones and not parsed.listed:
        raise InputError("no mempool dump, memzone dump or telemetry reply in the input "
                         f"({len(parsed.skipped)} unknown lines skipped)", param=parsed.source)
    pools = [reconcile_pool(p, parsed, pins) for p in parsed.pools.values()]
    prefer = _file_preference(pools)
    spread = _file_spread(parsed, pins)
    if spread is not None:
        prefer["spread"] = spread
    if prefer:
        pools = [reconcile_pool(p, parsed, pins, prefer, first.choice if first.measured_bytes is not None else None)
                 for p, first in zip(parsed.pools.values(), pools)]
    owned = set()
    for p in parsed.pools.values():
        owned |= {n for n in parsed.zones if n in (f"MP_{p.name}", f"RG_MP_{p.name}")
                  or re.fullmatch(re.escape(f"MP_{p.name}_") + r"\d+", n)}
    others = [{"name": z.name, "len": z.len, "line": z.line} for z in parsed.zones.values() if z.name not in owned]
    notes = list(parsed.notes)
    undumped = [n for n in parsed.listed if n not in parsed.pools]
    if undumped:
        notes.append(f"listed by /mempool/list without /mempool/info or a dump: {', '.join(undumped)}")
    orphan = sorted({m.group(1) for n in (z["name"] for z in others)
                     if (m := re.fullmatch(r"RG_MP_(.+)", n))})
    if orphan:
        notes.append(f"memzones of pools without a dump (no configuration to recover): {', '.join(orphan)}")
    totals: dict[str, dict[str, Any]] = {}
    base_total = sum(p.total_bytes for p in pools)
    for p in pools:
        for a in p.advice:
            t = totals.setdefault(a["key"], {"key": a["key"], "change": a["key"].split(":", 1)[1], "saves_bytes": 0,
                                             "pools": [], "note": a["note"]})
            t["saves_bytes"] += a["saves_bytes"]
            t["pools"].append(p.name)
    advice = sorted(totals.values(), key=lambda a: (-a["saves_bytes"], a["key"]))
    for rank, a in enumerate(advice, 1):
        a["rank"] = rank
        a["saves_percent"] = round(100 * a["saves_bytes"] / base_total, 1) if base_total else 0.0
        a["change"] = _total_change(a["key"])
    return InspectReport(source=parsed.source, parsed=parsed, pools=pools, other_memzones=others, advice=advice,
                         notes=notes)


def _file_preference(pools: list[PoolReport]) -> dict[str, Any]:
    """The platform values the measured pools settled on: one process has one platform."""
    votes: dict[str, list[Any]] = {}
    for p in pools:
        if p.choice is None or not p.explained or p.measured_bytes is None:
            continue
        c = p.choice
        for key, value in (("dpdk", c.dpdk), ("build", (c.arch, c.cache_line)), ("spread", c.spread),
                           ("debug", c.debug), ("stats", c.stats), ("page_size", c.page_size),
                           ("max_lcore", c.max_lcore)):
            votes.setdefault(key, []).append(value)
    return {k: max(set(v), key=lambda x: (v.count(x), -v.index(x))) for k, v in votes.items() if v}


def _file_spread(parsed: Parsed, pins: Pins) -> int | None:
    """The channels x ranks product every spread pool's object layout allows (one process, one EAL -n/-r)."""
    if pins.channels or pins.ranks:
        return None
    allowed = set(SPREADS)
    seen = False
    for p in parsed.pools.values():
        ev = _evidence(p, parsed)
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


def _total_change(key: str) -> str:
    kind, what = key.split(":", 1)
    if kind == "flag":
        return "add all three sizing flags" if what == "all" else f"add RTE_MEMPOOL_F_{what.upper()}"
    if kind == "cache":
        return "cache_size 0" if what == "0" else "halve cache_size"
    if kind == "count":
        return "count just under the ring's power of two"
    return f"page size {what}"


def inspect_text(text: str, source: str = "<input>", pins: Pins | None = None) -> InspectReport:
    return reconcile(parse(text, source), pins)


# --------------------------------------------------------------------------------------------
# CSV (long form, like the other commands)

CSV_COLUMNS = ("pool", "section", "name", "modelled", "measured", "delta", "note")


def csv_rows(doc: dict[str, Any]) -> list[tuple[Any, ...]]:
    rows: list[tuple[Any, ...]] = []
    for p in doc["pools"]:
        for o in p["object"]:
            rows.append((p["name"], "object", o["name"], o["modelled"], o["measured"], o["delta"], ""))
        for m in p["memzones"]:
            rows.append((p["name"], "memzone", m["name"], m["modelled"], m["measured"], m["delta"], m["how"]))
        rows.append((p["name"], "total", "unexplained_bytes", "", "", p["unexplained_bytes"], ""))
        for c in p["causes"]:
            rows.append((p["name"], "cause", c["kind"], "", "", "", c["text"]))
        for a in p["advice"]:
            rows.append((p["name"], "advice", a["change"], a["total_bytes_after"], "", -a["saves_bytes"],
                         f"{a['saves_percent']}%: {a['note']}"))
    for z in doc["other_memzones"]:
        rows.append(("", "memzone", z["name"], "", z["len"], "", "not a modelled pool"))
    for a in doc["advice"]:
        rows.append(("", "advice", a["change"], "", "", -a["saves_bytes"], f"{a['saves_percent']}%"))
    t = doc["totals"]
    rows.append(("", "total", "unexplained_bytes", t["modelled_bytes"], t["measured_bytes"], t["unexplained_bytes"],
                 ""))
    return [tuple("" if v is None else v for v in r) for r in rows]
