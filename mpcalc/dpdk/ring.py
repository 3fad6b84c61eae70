"""rte_ring's memory: ``rte_ring_get_memsize_elem`` (v22.11:lib/ring/rte_ring.c:49-72)."""

from .intmath import ceil_a
from .platform import Platform

RING_SZ_MASK = 0x7FFFFFFF  # RTE_RING_SZ_MASK (v22.11:lib/ring/rte_ring_core.h:41)


def ring_memsize(count: int, p: Platform, esize: int = 8) -> int:
    """``rte_ring_get_memsize_elem`` for a valid power-of-two count (v22.11:lib/ring/rte_ring.c:49-72)."""
    size = ceil_a(p.sizeof_ring + count * esize, p.cache_line)
    return size + p.release.ring_guard_lines * p.cache_line

