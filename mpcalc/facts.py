"""Per-release and per-architecture facts, each with the DPDK source it comes from.

A citation is ``tag:path:line``, read in DPDK's git repository at that tag.
Sizes that depend on the cache line are not stored per architecture: they are
computed from the layout facts here by :mod:`mpcalc.platform`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import TypeVar

from .errors import InputError

_T = TypeVar("_T")


@dataclass(frozen=True, kw_only=True)
class ReleaseFacts:
    """What one DPDK release builds, as far as memory footprints go."""

    version: str
    #: ``void *objs[RTE_MEMPOOL_CACHE_MAX_SIZE * k]`` in struct rte_mempool_cache.
    cache_objs_multiplier: int
    #: whether ``objs`` starts on its own cache line.
    cache_objs_aligned: bool
    #: bytes of struct rte_mempool_cache before ``objs`` (size, flushthresh, len).
    cache_head_bytes: int
    #: RTE_MEMPOOL_CACHE_MAX_SIZE.
    cache_max_size: int
    #: "flushthresh": floor(1.5 * cache_size) must not exceed n; "size": cache_size <= n.
    cache_size_rule: str
    #: end offset of the last member of struct rte_mempool (the struct is cache aligned).
    mempool_struct_end: int
    #: struct rte_mempool_objhdr without / with RTE_LIBRTE_MEMPOOL_DEBUG.
    objhdr_size: int
    objhdr_debug_size: int
    #: struct rte_mempool_objtlr (exists only with RTE_LIBRTE_MEMPOOL_DEBUG).
    objtlr_debug_size: int
    #: struct rte_mempool_memhdr, one rte_zmalloc per populated chunk.
    memhdr_size: int
    #: struct rte_tailq_entry, one rte_zmalloc per mempool, ring, RIB, FIB.
    tailq_entry_size: int
    #: struct rte_ring is this many cache lines (data, prod, cons, each with a guard).
    ring_struct_lines: int
    #: cache lines rte_ring_get_memsize_elem adds after the slots.
    ring_guard_lines: int
    #: struct malloc_elem before its cache-line alignment.
    malloc_elem_bytes: int
    #: name buffers.
    memzone_namesize: int
    ring_namesize: int
    mempool_namesize: int
    #: RIB structs.
    rib_node_size: int
    rib6_node_size: int
    rib_struct_size: int
    rib6_struct_size: int
    rib_namesize: int
    #: FIB structs; the data-plane tables' headers end here, then tbl24 starts on a cache line.
    fib_struct_size: int
    fib6_struct_size: int
    dir24_8_tbl_head: int
    trie_tbl_head: int
    #: bytes allocated after tbl24 for the AVX512 gathers (stable backport, commit 66ed1786ad).
    tbl24_extra_bytes: int
    #: mbuf pools.
    mbuf_size: int
    pktmbuf_pool_private_size: int
    mbuf_priv_align: int
    pktmbuf_headroom: int
    mbuf_default_dataroom: int
    citations: Mapping[str, str] = field(repr=False)


@dataclass(frozen=True, kw_only=True)
class ArchFacts:
    """Defaults of one DPDK build platform (config/<arch>/meson.build)."""

    name: str
    cache_line: int
    max_lcore: int
    #: arch_mem_object_align spreads objects over channels and ranks (x86 only).
    spreads: bool
    #: RTE_MEMPOOL_ALIGN when a SoC sets it apart from the cache line.
    mempool_align: int | None = None
    description: str = ""
    citations: Mapping[str, str] = field(repr=False)


RELEASES: dict[str, ReleaseFacts] = {
    "22.11": ReleaseFacts(
        version="22.11",
        cache_objs_multiplier=2,
        cache_objs_aligned=True,
        cache_head_bytes=12,
        cache_max_size=512,
        cache_size_rule="flushthresh",
        mempool_struct_end=152,
        objhdr_size=24,
        objhdr_debug_size=32,
        objtlr_debug_size=8,
        memhdr_size=56,
        tailq_entry_size=24,
        ring_struct_lines=6,
        ring_guard_lines=0,
        malloc_elem_bytes=80,
        memzone_namesize=32,
        ring_namesize=29,
        mempool_namesize=26,
        rib_node_size=40,
        rib6_node_size=56,
        rib_struct_size=96,
        rib6_struct_size=96,
        rib_namesize=64,
        fib_struct_size=112,
        fib6_struct_size=112,
        dir24_8_tbl_head=40,
        trie_tbl_head=52,
        tbl24_extra_bytes=4,
        mbuf_size=128,
        pktmbuf_pool_private_size=8,
        mbuf_priv_align=8,
        pktmbuf_headroom=128,
        mbuf_default_dataroom=2048,
        citations={
            "cache_objs_multiplier": "v22.11:lib/mempool/rte_mempool.h:110",
            "cache_objs_aligned": "v22.11:lib/mempool/rte_mempool.h:110",
            "cache_head_bytes": "v22.11:lib/mempool/rte_mempool.h:88-90",
            "cache_max_size": "v22.11:config/rte_config.h:49",
            "cache_size_rule": "v22.11:lib/mempool/rte_mempool.c:51-53,838-839",
            "mempool_struct_end": "v22.11:lib/mempool/rte_mempool.h:219-262",
            "objhdr_size": "v22.11:lib/mempool/rte_mempool.h:150-157",
            "objhdr_debug_size": "v22.11:lib/mempool/rte_mempool.h:150-157",
            "objtlr_debug_size": "v22.11:lib/mempool/rte_mempool.h:172-176",
            "memhdr_size": "v22.11:lib/mempool/rte_mempool.h:195-203",
            "tailq_entry_size": "v22.11:lib/eal/include/rte_tailq.h:22-25",
            "ring_struct_lines": "v22.11:lib/ring/rte_ring_core.h:120-151",
            "ring_guard_lines": "v22.11:lib/ring/rte_ring.c:69-70",
            "malloc_elem_bytes": "v22.11:lib/eal/common/malloc_elem.h:23-51",
            "memzone_namesize": "v22.11:lib/eal/include/rte_memzone.h:50",
            "ring_namesize": "v22.11:lib/ring/rte_ring_core.h:52-53",
            "mempool_namesize": "v22.11:lib/mempool/rte_mempool.h:125-126",
            "rib_node_size": "v22.11:lib/rib/rte_rib.c:30-39",
            "rib6_node_size": "v22.11:lib/rib/rte_rib6.c:29-38",
            "rib_struct_size": "v22.11:lib/rib/rte_rib.c:41-48",
            "rib6_struct_size": "v22.11:lib/rib/rte_rib6.c:40-47",
            "rib_namesize": "v22.11:lib/rib/rte_rib.c:28",
            "fib_struct_size": "v22.11:lib/fib/rte_fib.c:38-46",
            "fib6_struct_size": "v22.11:lib/fib/rte_fib6.c:38-48",
            "dir24_8_tbl_head": "v22.11:lib/fib/dir24_8.h:26-36",
            "trie_tbl_head": "v22.11:lib/fib/trie.h:29-40",
            "tbl24_extra_bytes": "v22.11.7:lib/fib/dir24_8.c:528-530 and trie.c (0 before v22.11.7)",
            "mbuf_size": "v22.11:lib/mbuf/rte_mbuf_core.h:465-668",
            "pktmbuf_pool_private_size": "v22.11:lib/mbuf/rte_mbuf.h:299-303",
            "mbuf_priv_align": "v22.11:lib/mbuf/rte_mbuf_core.h:395",
            "pktmbuf_headroom": "v22.11:config/rte_config.h:55",
            "mbuf_default_dataroom": "v22.11:lib/mbuf/rte_mbuf_core.h:403",
        },
    ),
}

ARCHES: dict[str, ArchFacts] = {
    "x86_64": ArchFacts(
        name="x86_64",
        cache_line=64,
        max_lcore=128,
        spreads=True,
        description="x86-64, generic build",
        citations={
            "cache_line": "v22.11:config/x86/meson.build:73",
            "max_lcore": "v22.11:config/x86/meson.build:74",
            "spreads": "v22.11:lib/mempool/rte_mempool.c:55-110",
        },
    ),
}

DEFAULT_RELEASE = "22.11"
DEFAULT_ARCH = "x86_64"


def _lookup(table: Mapping[str, _T], key: str, what: str, param: str) -> _T:
    try:
        return table[key]
    except KeyError:
        known = ", ".join(table)
        raise InputError(f"unknown {what} {key!r} (known: {known})", param=param) from None


def release(version: str) -> ReleaseFacts:
    return _lookup(RELEASES, version, "DPDK release", "--dpdk")


def arch(name: str) -> ArchFacts:
    return _lookup(ARCHES, name, "architecture", "--arch")


def uncited(facts: ReleaseFacts | ArchFacts) -> list[str]:
    """Fields of a facts record that have no citation (a test keeps this empty)."""
    skip = {"version", "name", "citations", "description", "mempool_align"}
    return [f.name for f in fields(facts) if f.name not in skip and f.name not in facts.citations]
