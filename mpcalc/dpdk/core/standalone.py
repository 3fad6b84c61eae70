"""The records of an object that reserves memzones of its own, outside any mempool (a ring, a hash's rings).

The heap rule is mpcalc's one (:func:`mpcalc.dpdk.core.heap.heap_cost`): each memzone and each
``rte_malloc``/``rte_zmalloc`` is one malloc element of the heap.
"""

from collections.abc import Iterable, Sequence

from mpcalc.dpdk.core.errors import Rejection
from mpcalc.dpdk.core.heap import assemble, heap_cost, hugepages
from mpcalc.dpdk.core.platform import Platform
from mpcalc.dpdk.core.records import Allocation, Mempool, Memzone, Result


class Parts:
    """What an object's creation leaves reserved, in DPDK's order, and what went wrong."""

    def __init__(self) -> None:
        self.zones: list[Memzone] = []
        self.allocations: list[Allocation] = []
        self.mempools: list[Mempool] = []
        self.errors: list[Rejection] = []

    def extend(self, other: "Parts") -> None:
        self.zones += other.zones
        self.allocations += other.allocations
        self.mempools += other.mempools
        self.errors += other.errors

    @property
    def failed(self) -> bool:
        """DPDK refused (an errno), as opposed to a hazard it accepts."""
        return any(e.errno for e in self.errors)

    def freed(self) -> "Parts":
        """A failed creation frees what it reserved: only its errors remain."""
        out = Parts()
        out.errors = list(self.errors)
        return out


def finish(
    kind: str,
    flags: int,
    p: Platform,
    parts: Parts,
    details: dict[str, object] | None = None,
    extra_errors: Iterable[Rejection] = (),
) -> Result:
    """The Result of ``parts``: its pools, memzones and allocations and their totals."""
    base = assemble(kind, flags, p, parts.mempools, parts.allocations, [*parts.errors, *extra_errors], details)
    zones: Sequence[Memzone] = parts.zones
    total = base.total_bytes + sum(z.len for z in zones)
    heap = base.heap_bytes + sum(heap_cost(z.len, p) for z in zones)
    return base._replace(zones=tuple(zones), total_bytes=total, heap_bytes=heap, hugepages=hugepages(heap, p))


def name_bytes(name: str) -> int:
    """The length of a name as C's strlen sees it (UTF-8)."""
    return len(name) if name.isascii() else len(name.encode())


def truncate(text: str, size: int) -> str:
    """``snprintf(buf, size, "%s", text)``: at most ``size - 1`` bytes (a cut UTF-8 sequence dropped)."""
    raw = text.encode()
    return text if len(raw) < size else raw[: size - 1].decode(errors="ignore")
