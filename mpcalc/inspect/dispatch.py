""":func:`parse`: any mix of the supported dumps and telemetry replies, line by line.

Each line goes to the format it belongs to (``parse_mempool``, ``parse_procinfo``,
``parse_memzone``, ``parse_telemetry``).  Unknown lines are skipped and counted; a malformed
line of a known kind raises :class:`InputError` naming its line number.

Pure Python (no click, no rich).
"""

from __future__ import annotations

from mpcalc.dpdk.core.errors import InputError
from mpcalc.dpdk.core.limits import MAX_LINE_BYTES, too_long
from mpcalc.inspect import parse_mempool, parse_memzone, parse_procinfo, parse_telemetry
from mpcalc.inspect.dumps import Parsed, PoolDump, ZoneDump


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
        if len(raw) > MAX_LINE_BYTES // 4 and len(raw.encode()) > MAX_LINE_BYTES:
            raise too_long(source, no, raw)
        if not raw.strip():
            continue
        # ---- telemetry JSON (one line, or pretty-printed over several) ----
        if parse_telemetry.is_start(raw):
            doc, consumed = parse_telemetry.json_at(lines, i - 1, source)
            if doc is None:
                parse_telemetry.unreadable(out, no, raw)
                out.skipped.append((no, raw))
                continue
            i = i - 1 + consumed
            pool = summary = None
            zone, zone_block = None, False
            if not parse_telemetry.reply(out, doc, no, raw):
                out.skipped.append((no, raw))
            continue
        # ---- rte_mempool_dump ----
        if parse_mempool.is_header(raw):
            pool = parse_mempool.header(out, raw, no)
            summary, zone, zone_block = None, None, False
            continue
        if pool is not None and raw.startswith("  ") and parse_mempool.line(out, pool, raw, no):
            continue
        # ---- dpdk-proc-info --show-mempool=NAME ----
        started = parse_procinfo.header(out, raw, no)
        if started is not None:
            summary = started
            pool, zone, zone_block = None, None, False
            continue
        if summary is not None and raw.startswith(parse_procinfo.BODY) and parse_procinfo.line(out, summary, raw, no):
            continue
        # ---- rte_memzone_dump ----
        if parse_memzone.is_zone(raw):
            zone = parse_memzone.zone(out, raw, no)
            pool = summary = None
            zone_block = False
            continue
        if zone is not None and raw == parse_memzone.SEGMENTS:
            zone_block = True
            continue
        if zone is not None and zone_block and parse_memzone.is_segment(raw):
            parse_memzone.segment(out, zone, raw, no)
            continue
        if parse_memzone.is_total(raw):
            parse_memzone.total(out, raw, no)
            zone, zone_block = None, False
            continue
        out.skipped.append((no, raw))
        # an unknown line ends a block only if it is not indented
        if not raw.startswith(" "):
            pool = summary = None
            zone, zone_block = None, False
    parse_memzone.finish(out)
    for p in out.pools.values():
        parse_mempool.finish(p)
        parse_procinfo.finish(p)
        _check(out, p)
    return out


def _check(out: Parsed, p: PoolDump) -> None:
    """Every source together must give a pool's object layout, and a consistent one."""
    for key in ("size", "elt_size", "header_size", "trailer_size"):
        if key not in p.fields:
            raise InputError(f"line {p.line}: the dump of pool {p.name!r} has no {key}", param=out.source)
    if "total_obj_size" in p.fields:
        total = p.fields["header_size"] + p.fields["elt_size"] + p.fields["trailer_size"]
        if total != p.fields["total_obj_size"]:
            raise InputError(
                f"line {p.line}: pool {p.name!r}: total_obj_size {p.fields['total_obj_size']} is not "
                f"header_size + elt_size + trailer_size ({total})",
                param=out.source,
            )
