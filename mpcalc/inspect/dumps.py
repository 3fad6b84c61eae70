"""What the input says: the parsed records every dump format fills, and the parse errors.

Pure Python (no click, no rich).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from mpcalc.dpdk.core.errors import InputError
from mpcalc.dpdk.core.limits import quote_start


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

    @property
    def where(self) -> str:
        """Where the input gives this memzone: ``memzone dump, line N``, ``telemetry /eal/memzone_info, line N`` or
        ``trace, event N``."""
        what = {"telemetry": "telemetry /eal/memzone_info", "trace": "trace, event"}.get(self.source, "memzone dump")
        return f"{what}, line {self.line}" if self.source != "trace" else f"{what} {self.line}"

    @property
    def external(self) -> bool:
        """On an external heap (``rte_malloc_heap_create``: socket ids from EXTERNAL_HEAP_MIN_SOCKET_ID =
        max(256, RTE_MAX_NUMA_NODES) up, v22.11:lib/eal/common/malloc_heap.c:32, 1343-1360), not on the EAL's
        own hugepages."""
        return self.socket_id >= 256


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
    #: ``/ring/info`` replies (24.11+), by ring name
    rings: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: a memzone dump was read (so a missing memzone is measured absent)
    memzone_dump: bool = False
    #: the ids of telemetry's ``/eal/memzone_list`` (every memzone of the process), if the input has it
    zone_ids: list[int] | None = None
    #: telemetry's ``/eal/heap_info,<id>`` replies, by heap id
    heaps: dict[int, dict[str, Any]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    @property
    def zones_complete(self) -> bool:
        """Whether the input lists every memzone of the process: a memzone dump, or telemetry's
        ``/eal/memzone_list`` with a ``/eal/memzone_info`` reply for each of its ids."""
        if self.memzone_dump:
            return True
        return self.zone_ids is not None and sum(z.source == "telemetry" for z in self.zones.values()) >= len(
            self.zone_ids
        )

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


def malformed(source: str, line: int, text: str, why: str) -> InputError:
    """The error for a malformed line of a known kind: it names the line number."""
    return InputError(f"line {line}: {why}: {quote_start(text.strip())}", param=source)


def integer(source: str, line: int, text: str, value: str, base: int = 10) -> int:
    try:
        return int(value, base)
    except ValueError:
        raise malformed(source, line, text, f"not a{' hex' if base == 16 else 'n'} integer {value!r}") from None
