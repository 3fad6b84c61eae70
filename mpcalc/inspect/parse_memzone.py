"""``rte_memzone_dump()`` text (lib/eal/common/eal_common_memzone.c ``dump_memzone``, ``rte_memzone_dump``).

24.11 adds ``Total Memory Zones size = ...M``.

Pure Python (no click, no rich).
"""

from __future__ import annotations

import re

from mpcalc.inspect.dumps import Parsed, ZoneDump, malformed

_MZ_ZONE = re.compile(
    r"^Zone (?P<idx>\d+): name:<(?P<name>[^>]*)>, len:0x(?P<len>[0-9a-fA-F]+), virt:(?P<virt>\S+), "
    r"socket_id:(?P<socket>-?\d+), flags:(?P<flags>[0-9a-fA-F]+)$"
)
_MZ_SEG = re.compile(
    r"^  addr: (?P<addr>\S+) iova: (?P<iova>0x[0-9a-fA-F]+) len: 0x(?P<len>[0-9a-fA-F]+) "
    r"pagesz: 0x(?P<pagesz>[0-9a-fA-F]+)$"
)
_MZ_TOTAL = re.compile(r"^Total Memory Zones size = (?P<val>\d+)M$")

#: the line that opens a zone's segment list
SEGMENTS = "physical segments used:"


def is_zone(raw: str) -> bool:
    return raw.startswith("Zone ")


def zone(out: Parsed, raw: str, no: int) -> ZoneDump:
    """``Zone N: name:<NAME>, len:0xLEN, virt:ADDR, socket_id:N, flags:HEX``."""
    m = _MZ_ZONE.match(raw)
    if not m:
        raise malformed(
            out.source,
            no,
            raw,
            "a memzone line that is not 'Zone N: name:<NAME>, len:0xLEN, virt:ADDR, socket_id:N, flags:HEX'",
        )
    z = ZoneDump(name=m["name"], len=int(m["len"], 16), line=no, socket_id=int(m["socket"]), flags=int(m["flags"], 16))
    out.zones[z.name] = z
    out.memzone_dump = True
    out.saw("memzone_dump")
    return z


def is_segment(raw: str) -> bool:
    return raw.startswith("  addr: ")


def segment(out: Parsed, z: ZoneDump, raw: str, no: int) -> None:
    """``  addr: ADDR iova: 0xIOVA len: 0xLEN pagesz: 0xPAGESZ``: the first gives the zone's page size."""
    m = _MZ_SEG.match(raw)
    if not m:
        raise malformed(
            out.source,
            no,
            raw,
            "a memzone segment line that is not '  addr: ADDR iova: 0xIOVA len: 0xLEN pagesz: 0xPAGESZ'",
        )
    if z.pagesz is None:
        z.pagesz = int(m["pagesz"], 16)


def is_total(raw: str) -> bool:
    return raw.startswith("Total Memory Zones size")


def total(out: Parsed, raw: str, no: int) -> None:
    """``Total Memory Zones size = NM`` (24.11 and later)."""
    if not _MZ_TOTAL.match(raw):
        raise malformed(out.source, no, raw, "not 'Total Memory Zones size = NM'")
    out.markers["memzone_total_line"] = ("24.11", None)


def finish(out: Parsed) -> None:
    """After the whole input: a memzone dump without the total line dates the dump."""
    if out.memzone_dump and "memzone_total_line" not in out.markers:
        out.markers["no_memzone_total_line"] = (None, "23.11")
