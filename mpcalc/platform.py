"""The platform a footprint is computed for, and the struct sizes it implies."""

from __future__ import annotations

from dataclasses import dataclass

from . import facts as _facts
from .errors import InputError
from .intmath import ceil_a, log2_exact


@dataclass(frozen=True, kw_only=True)
class Platform:
    """Everything outside the pool's own parameters that changes its footprint.

    ``channels`` and ``ranks`` are what ``rte_memory_get_nchannel()/nrank()``
    return; DPDK falls back to 4 and 1 when EAL was given no ``-n``/``-r``
    (v22.11:lib/mempool/rte_mempool.c:97-103).  ``page_size`` 0 means no page
    constraint (``--page-size none``).
    """

    dpdk: str = _facts.DEFAULT_RELEASE
    arch: str = _facts.DEFAULT_ARCH
    cache_line: int = 64
    mempool_align: int = 64
    max_lcore: int = 128
    spreads: bool = True
    channels: int = 4
    ranks: int = 1
    page_size: int = 2 * 1024 * 1024
    debug: bool = False

    @property
    def release(self) -> _facts.ReleaseFacts:
        return _facts.release(self.dpdk)

    @property
    def pg_shift(self) -> int:
        return log2_exact(self.page_size) if self.page_size else 0

    # --- struct sizes derived from the release layout and the cache line ----

    @property
    def objhdr_size(self) -> int:
        r = self.release
        return r.objhdr_debug_size if self.debug else r.objhdr_size

    @property
    def objtlr_size(self) -> int:
        return self.release.objtlr_debug_size if self.debug else 0

    @property
    def sizeof_mempool(self) -> int:
        """sizeof(struct rte_mempool): cache aligned (v22.11:lib/mempool/rte_mempool.h:262)."""
        return ceil_a(self.release.mempool_struct_end, self.cache_line)

    def sizeof_mempool_cache(self, slot_bytes: int = 8) -> int:
        """sizeof(struct rte_mempool_cache); ``slot_bytes`` 4 models the index-based cache.

        >>> Platform().sizeof_mempool_cache(), Platform(cache_line=128).sizeof_mempool_cache()
        (8256, 8320)
        """
        r = self.release
        head = ceil_a(r.cache_head_bytes, self.cache_line if r.cache_objs_aligned else 8)
        slots = r.cache_max_size * r.cache_objs_multiplier * slot_bytes
        return ceil_a(head + slots, self.cache_line)

    @property
    def sizeof_ring(self) -> int:
        """sizeof(struct rte_ring).

        >>> Platform().sizeof_ring, Platform(cache_line=128).sizeof_ring
        (384, 768)
        """
        return self.release.ring_struct_lines * self.cache_line

    @property
    def malloc_elem_header(self) -> int:
        """MALLOC_ELEM_HEADER_LEN: struct malloc_elem, cache aligned."""
        return ceil_a(self.release.malloc_elem_bytes, self.cache_line)


def make_platform(
    *,
    dpdk: str = _facts.DEFAULT_RELEASE,
    arch: str = _facts.DEFAULT_ARCH,
    channels: int = 4,
    ranks: int = 1,
    page_size: int = 2 * 1024 * 1024,
    cache_line: int | None = None,
    max_lcore: int | None = None,
    debug: bool = False,
) -> Platform:
    """Resolve a platform from a release, an architecture and overrides."""
    _facts.release(dpdk)
    a = _facts.arch(arch)
    if channels < 1:
        raise InputError(f"channels must be at least 1, not {channels!r}", param="--channels")
    if not 1 <= ranks <= 16:
        # EAL accepts -r 1..16 (v22.11:lib/eal/common/eal_common_options.c:1740-1746)
        raise InputError(f"ranks must be 1 to 16, not {ranks!r}", param="--ranks")
    if page_size and page_size & (page_size - 1):
        raise InputError(f"page size {page_size!r} is not a power of two", param="--page-size")
    cl = cache_line or a.cache_line
    return Platform(
        dpdk=dpdk,
        arch=a.name,
        cache_line=cl,
        mempool_align=a.mempool_align or cl,
        max_lcore=max_lcore or a.max_lcore,
        spreads=a.spreads,
        channels=channels,
        ranks=ranks,
        page_size=page_size,
        debug=debug,
    )


def describe(p: Platform) -> dict[str, object]:
    """The platform section of a report."""
    return {
        "dpdk": p.dpdk,
        "arch": p.arch,
        "cache_line": p.cache_line,
        "mempool_align": p.mempool_align,
        "max_lcore": p.max_lcore,
        "channels": p.channels,
        "ranks": p.ranks,
        "spreads": p.spreads,
        "page_size": p.page_size,
        "debug": p.debug,
    }
