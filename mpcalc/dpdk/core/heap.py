"""EAL accounting: memzone lengths, malloc-heap growth, and the totals of a configuration."""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence

from mpcalc.dpdk.core.errors import Rejection
from mpcalc.dpdk.core.intmath import ceil_a, ceil_div
from mpcalc.dpdk.core.platform import Platform
from mpcalc.dpdk.core.records import Allocation, Footprint, Mempool, Result, new_footprint


def memzone_len(requested: int, p: Platform) -> int:
    """``mz->len`` for a request: rounded up to the cache line, at least one line.

    memzone_reserve_aligned_thread_unsafe (v22.11:lib/eal/common/eal_common_memzone.c:123-126).

    >>> memzone_len(1056960 + 64, Platform()), memzone_len(24, Platform())
    (1057024, 64)
    """
    line = p.cache_line
    size = ceil_a(requested, line)
    return size if size > line else line


def heap_cost(size: int, p: Platform) -> int:
    """Bytes the malloc heap's busy elements grow by for one allocation of ``size``.

    malloc_heap_alloc rounds the size to the cache line
    (v22.11:lib/eal/common/malloc_heap.c:238-239) and each element carries a
    ``struct malloc_elem`` header (v22.11:lib/eal/common/malloc_elem.h:23-53).

    >>> heap_cost(24, Platform()), heap_cost(1057024, Platform())
    (192, 1057152)
    """
    return element_cost(size, p.malloc_elem_header, p.cache_line)


def element_cost(size: int, header_len: int, cache_line: int) -> int:
    """:func:`heap_cost` with the platform's MALLOC_ELEM_HEADER_LEN and cache line resolved.

    >>> element_cost(24, 128, 64)
    192
    """
    return header_len + ceil_a(size or 1, cache_line)  # malloc_heap_alloc: a size of 0 counts as 1


def hugepages(heap: int, p: Platform) -> int | None:
    """Pages of the platform's page size that ``heap`` bytes of heap elements span."""
    if not p.page_size:
        return None
    return ceil_div(heap, p.page_size)


def assemble(
    kind: str,
    flags: int,
    p: Platform,
    mempools: Sequence[Mempool] = (),
    allocations: Sequence[Allocation] = (),
    errors: Iterable[Rejection] = (),
    details: dict[str, object] | None = None,
) -> Result:
    """The records of a configuration: its pools (each with its own totals, mpcalc.dpdk.objects.mempool.create),
    the object's other allocations, and the totals of :func:`footprint`."""
    all_errors = (*(e for mp in mempools for e in mp.errors), *errors)
    fp = footprint(
        None, [(mp.total_bytes, mp.heap_bytes) for mp in mempools], [a.size for a in allocations], all_errors, p
    )
    return Result(
        kind=kind,
        flags=flags,
        mempools=tuple(mempools),
        allocations=tuple(allocations),
        total_bytes=fp.total_bytes,
        heap_bytes=fp.heap_bytes,
        hugepages=fp.hugepages,
        errors=all_errors,
        details=details or {},
    )


def footprint(
    object_size: int | None,
    pools: Iterable[tuple[int, int]],
    allocations: Iterable[int],
    errors: tuple[Rejection, ...],
    p: Platform,
) -> Footprint:
    """The totals of a configuration: its pools' (total bytes, heap bytes), each other allocation one
    heap element (:func:`heap_cost`), and the pages the heap spans."""
    total = heap = 0
    for t, h in pools:
        total += t
        heap += h
    for size in allocations:
        total += size
        heap += _heap_cost(size, p)
    return new_footprint((object_size, total, heap, hugepages(heap, p), errors))


_heap_cost = functools.lru_cache(maxsize=4096)(heap_cost)
