"""VPP's packet buffers: one physmem map per NUMA node, outside DPDK's memory.

``vlib_buffer_main_init_numa_alloc`` sizes the map (``n_pages`` pages of the buffer page size),
``vlib_physmem_shared_map_create`` maps it through pmalloc (whole pages of the *default* hugepage size, from
the base address 1 << 36 on x86_64, maps one after another), and ``vlib_buffer_pool_create`` carves it into
buffers: every ``alloc_size`` slot from the first naturally aligned address that does not reach the next
page.  The count is therefore not ``buffers-per-numa`` (16,784 for the default 16,384 on 2 MiB pages).

Each formula names its source at the profile's tag (:mod:`.profiles`).  Pure: stdlib only, exact integers.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import gcd

#: sizeof (vlib_buffer_t): 128 bytes of metadata + VLIB_BUFFER_PRE_DATA_SIZE (PRE_DATA_SIZE 128,
#: src/vlib/CMakeLists.txt:31; the struct in src/vlib/buffer.h)
VLIB_BUFFER_HDR_SIZE = 128
VLIB_BUFFER_PRE_DATA_SIZE = 128
VLIB_BUFFER_SIZE = VLIB_BUFFER_HDR_SIZE + VLIB_BUFFER_PRE_DATA_SIZE
#: VLIB_BUFFER_ALIGN: the cache line (src/vlib/CMakeLists.txt:28)
VLIB_BUFFER_ALIGN = 64
#: VLIB_BUFFER_DEFAULT_DATA_SIZE (src/vlib/buffer.h)
DEFAULT_DATA_SIZE = 2048
#: VLIB_BUFFER_DEFAULT_BUFFERS_PER_NUMA and _UNPRIV (the 4 KiB fallback), src/vlib/buffer.c
DEFAULT_BUFFERS_PER_NUMA = 16384
DEFAULT_BUFFERS_PER_NUMA_UNPRIV = 8192
#: VLIB_BUFFER_POOL_PER_THREAD_CACHE_SZ (src/vlib/buffer.h)
PER_THREAD_CACHE = 512
#: VLIB_PHYSMEM_DEFAULT_BASE_ADDDR on x86_64 (src/vlib/physmem.c)
PHYSMEM_BASE = 1 << 36
#: pmalloc's DEFAULT_RESERVED_MB: the virtual space physmem reserves (physmem { max-size } changes it)
PMALLOC_RESERVED = 16384 << 20
#: vlib_buffer_pool_create refuses a 256th pool (src/vlib/buffer.c)
MAX_POOLS = 255
#: VLIB_BUFFER_MAX_NUMA_NODES (src/vlib/buffer.h)
MAX_NUMA_NODES = 32


def ext_hdr_size(objhdr: int, mbuf: int, cache_line: int = 64) -> int:
    """``VLIB_BUFFER_SET_EXT_HDR_SIZE (sizeof (struct rte_mempool_objhdr) + sizeof (struct rte_mbuf))``: the
    dpdk plugin's header in front of every buffer, rounded to the cache line (CLIB_CACHE_LINE_ROUND,
    src/vlib/buffer.h); 0 without the dpdk plugin.

    >>> ext_hdr_size(24, 128)
    192
    """
    return (objhdr + mbuf + cache_line - 1) // cache_line * cache_line


def alloc_size(ext_hdr: int, data_size: int) -> int:
    """``vlib_buffer_alloc_size``: header, vlib_buffer_t and data rounded to VLIB_BUFFER_ALIGN, and an odd
    number of cache lines (``alloc_size |= VLIB_BUFFER_ALIGN``).

    >>> alloc_size(192, 2048), alloc_size(0, 2048), alloc_size(192, 9216)
    (2496, 2368, 9664)
    """
    size = ext_hdr + VLIB_BUFFER_SIZE + data_size
    size = (size + VLIB_BUFFER_ALIGN - 1) // VLIB_BUFFER_ALIGN * VLIB_BUFFER_ALIGN
    return size | VLIB_BUFFER_ALIGN


def shown_size(ext_hdr: int, data_size: int) -> int:
    """The ``Size`` column of ``show buffers``: data_size + sizeof (vlib_buffer_t) + ext_hdr_size (not the
    allocation size)."""
    return data_size + VLIB_BUFFER_SIZE + ext_hdr


def n_pages(buffers: int, page: int, size: int) -> int:
    """``n_pages = (buffers_per_numa - 1) / (pagesize / buffer_size) + 1``.

    >>> n_pages(16384, 2 << 20, 2496), n_pages(8192, 4096, 2496)
    (20, 8192)
    """
    return (buffers - 1) // (page // size) + 1


def buffer_count(base: int, size: int, page: int, alloc: int) -> int:
    """``vlib_buffer_pool_create``'s loop: from the first address of the map naturally aligned to ``alloc``
    (one slot wasted when the base itself is aligned, so that index 0 is never a buffer), every slot ``p``
    with ``p < base + size - alloc`` whose end ``p + alloc`` is on the same page.

    Closed form per page (the pattern repeats every ``alloc / gcd(page, alloc)`` pages).

    >>> buffer_count(1 << 36, 20 << 21, 2 << 20, 2496), buffer_count(1 << 36, 1 << 30, 1 << 30, 2496)
    (16784, 430184)
    """
    first = base + alloc - base % alloc
    if first == base:
        first += alloc
    n_page = size // page
    period = alloc // gcd(page, alloc)

    def in_page(j: int) -> int:
        lo = base + j * page
        hi = lo + page - alloc - 1  # the last start whose end is still on the page (p + alloc < next page)
        if hi < lo:
            return 0
        k_lo = max(0, -((first - lo) // alloc))  # ceil((lo - first) / alloc)
        k_hi = (hi - first) // alloc
        return max(0, k_hi - k_lo + 1)

    if n_page <= 2 * period:
        return sum(in_page(j) for j in range(n_page))
    # the first page may differ (the aligned start), the rest repeat with the period
    head = in_page(0)
    cycle = [in_page(j) for j in range(1, 1 + period)]
    rest = n_page - 1
    full, part = divmod(rest, period)
    return head + full * sum(cycle) + sum(cycle[:part])


@dataclass(frozen=True)
class BufferMap:
    """One NUMA node's buffers: the map ``buffers-numa-<node>`` and its pool ``default-numa-<node>``."""

    numa: int
    requested: int  # buffers-per-numa (or numa N { buffers })
    data_size: int
    ext_hdr: int
    alloc_size: int
    page_size: int  # the buffers' page
    buffers_per_page: int
    pages: int  # of page_size
    bytes: int  # the map: pmalloc's whole default-hugepage pages
    base: int
    buffers: int
    pool_index: int
    fallback: bool = False  # the 4 KiB fallback after the hugepage map failed

    @property
    def name(self) -> str:
        return f"default-numa-{self.numa}"

    def to_dict(self) -> dict[str, object]:
        return {
            "numa": self.numa,
            "pool": self.name,
            "pool_index": self.pool_index,
            "map": f"buffers-numa-{self.numa}",
            "requested": self.requested,
            "data_size": self.data_size,
            "ext_hdr_size": self.ext_hdr,
            "alloc_size": self.alloc_size,
            "show_buffers_size": shown_size(self.ext_hdr, self.data_size),
            "page_size": self.page_size,
            "buffers_per_page": self.buffers_per_page,
            "pages": self.pages,
            "bytes": self.bytes,
            "base": f"{self.base:#x}",
            "buffers": self.buffers,
        }


def buffer_map(
    numa: int,
    requested: int,
    data_size: int,
    ext_hdr: int,
    page: int,
    default_page: int,
    base: int,
    pool_index: int,
    fallback: bool = False,
) -> BufferMap:
    """The map of one node.  ``page`` is the buffers' page, ``default_page`` pmalloc's (the default hugepage
    size): pmalloc maps ``size`` rounded up to whole default pages (pmalloc_size2pages), and the map's
    ``n_pages`` are those pages' subpages, so a 4 KiB map that is not a whole number of 2 MiB pages has more
    buffers than it asked for."""
    size = alloc_size(ext_hdr, data_size)
    pages = n_pages(requested, page, size)
    request = pages * page
    pm_pages = -(-request // default_page)
    mapped = pm_pages * default_page
    count = buffer_count(base, mapped, page, size)
    return BufferMap(
        numa=numa,
        requested=requested,
        data_size=data_size,
        ext_hdr=ext_hdr,
        alloc_size=size,
        page_size=page,
        buffers_per_page=page // size,
        pages=mapped // page,
        bytes=mapped,
        base=base,
        buffers=count,
        pool_index=pool_index,
        fallback=fallback,
    )
