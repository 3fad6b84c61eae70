"""``rte_mempool_dump()`` text: ``dpdk-proc-info --show-mempool``, testpmd's ``dump_mempool``.

The formats of 21.11 to 26.07 (lib/mempool/rte_mempool.c, ``rte_mempool_dump`` /
``rte_mempool_dump_cache``): 24.11 adds ``memory chunk at ...`` lines, 25.11 hides zero cache
counts (``internal cache infos (hide zero value items):``), 26.07 adds ``avg ...`` statistics lines.

Pure Python (no click, no rich).
"""

from __future__ import annotations

import re

from mpcalc.dpdk.core.platform import MAX_LCORE_LIMIT
from mpcalc.inspect.dumps import Parsed, PoolDump, integer, malformed

_MP_START = re.compile(r"^mempool <(?P<name>[^>]*)>@(?P<addr>\S+)$")
_MP_KV = re.compile(
    r"^  (?P<key>flags|socket_id|pool|iova|nb_mem_chunks|size|populated_size|header_size|elt_size|"
    r"trailer_size|total_obj_size|private_data_size|ops_index|common_pool_count)=(?P<val>.*)$"
)
_MP_OPS = re.compile(r"^  ops_name: <(?P<val>[^>]*)>$")
_MP_CHUNK = re.compile(
    r"^  memory chunk at (?P<hdr>\S+), addr=(?P<addr>\S+), iova=(?P<iova>0x[0-9a-fA-F]+), "
    r"len=(?P<len>\d+)$"
)
_MP_AVG = re.compile(r"^  avg bytes/object=(?P<val>\d+\.\d+)$")
_MP_CACHE_HEAD = re.compile(r"^  internal cache infos( \(hide zero value items\))?:$")
_MP_CACHE_SIZE = re.compile(r"^    cache_size=(?P<val>\d+)$")
_MP_CACHE_COUNT = re.compile(r"^    cache_count\[(?P<lcore>\d+)\]=(?P<val>\d+)$")
_MP_CACHE_TOTAL = re.compile(r"^    total_cache_count=(?P<val>\d+)$")
_MP_STAT = re.compile(
    r"^    (?P<key>put_bulk|put_objs|put_common_pool_bulk|put_common_pool_objs|get_common_pool_bulk|"
    r"get_common_pool_objs|get_success_bulk|get_success_objs|get_fail_bulk|get_fail_objs|"
    r"get_success_blks|get_fail_blks)=(?P<val>\d+)$"
)
_MP_STAT_AVG = re.compile(r"^    avg (objs/bulk|common_pool objs/bulk|cache miss rate) .*$")


def is_header(raw: str) -> bool:
    return raw.startswith("mempool <")


def header(out: Parsed, raw: str, no: int) -> PoolDump:
    """``mempool <NAME>@ADDR``: the pool whose dump the indented lines that follow belong to."""
    m = _MP_START.match(raw)
    if not m:
        raise malformed(out.source, no, raw, "a mempool dump header that is not 'mempool <NAME>@ADDR'")
    pool = out.pool(m["name"], no, "mempool_dump")
    out.saw("mempool_dump")
    return pool


def line(out: Parsed, p: PoolDump, raw: str, no: int) -> bool:
    """One indented line of a pool's dump; False if it is not one of rte_mempool_dump's."""
    src = out.source
    m = _MP_KV.match(raw)
    if m:
        key, val = m["key"], m["val"]
        if key in ("pool",):
            p.fields[key] = val
        elif key == "flags":
            p.fields[key] = integer(src, no, raw, val, 16)
        elif key == "iova":
            if not val.startswith("0x"):
                raise malformed(src, no, raw, "iova is not hex")
            p.fields[key] = integer(src, no, raw, val[2:], 16)
        else:
            p.fields[key] = integer(src, no, raw, val)
        return True
    if raw.startswith("  ops_name:"):
        m = _MP_OPS.match(raw)
        if not m:
            raise malformed(src, no, raw, "not '  ops_name: <NAME>'")
        p.fields["ops_name"] = m["val"]
        return True
    if raw.startswith("  memory chunk at"):
        m = _MP_CHUNK.match(raw)
        if not m:
            raise malformed(src, no, raw, "not '  memory chunk at HDR, addr=ADDR, iova=0xIOVA, len=LEN'")
        p.chunks.append(int(m["len"]))
        p.markers["chunk_lines"] = ("24.11", None)
        return True
    if raw.startswith("  avg bytes/object="):
        m = _MP_AVG.match(raw)
        if not m:
            raise malformed(src, no, raw, "avg bytes/object is not a decimal number")
        p.avg_bytes = m["val"]
        return True
    if raw.startswith("  internal cache infos"):
        m = _MP_CACHE_HEAD.match(raw)
        if not m:
            raise malformed(src, no, raw, "unknown cache header")
        p.cache_hide_zero = bool(m.group(1))
        p.markers["cache_hide_zero" if p.cache_hide_zero else "cache_all_counts"] = (
            ("25.11", None) if p.cache_hide_zero else (None, "24.11")
        )
        return True
    for rx, key in ((_MP_CACHE_SIZE, "cache_size"), (_MP_CACHE_TOTAL, "total_cache_count")):
        if raw.startswith(f"    {key}="):
            m = rx.match(raw)
            if not m:
                raise malformed(src, no, raw, f"{key} is not an integer")
            p.fields[key] = int(m["val"])
            return True
    if raw.startswith("    cache_count["):
        m = _MP_CACHE_COUNT.match(raw)
        if not m:
            raise malformed(src, no, raw, "not '    cache_count[LCORE]=N'")
        lcore = int(m["lcore"])
        if lcore >= MAX_LCORE_LIMIT:
            raise malformed(src, no, raw, f"an lcore beyond any RTE_MAX_LCORE (at most {MAX_LCORE_LIMIT:,})")
        p.cache_counts[lcore] = int(m["val"])
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


def finish(p: PoolDump) -> None:
    """After the whole input: an ``avg bytes/object`` without chunk lines dates the dump."""
    if p.avg_bytes is not None and not p.chunks:
        p.markers["no_chunk_lines"] = (None, "23.11")
