"""A pool's per-lcore caches: what one can hold, and the cache in both slot layouts (pointers, or the
32-bit indices of the index-based cache RFC), for a pool's and an mbuf pool's ``details.cache``."""

from mpcalc.dpdk.core.intmath import ceil_div
from mpcalc.dpdk.core.platform import Platform
from mpcalc.dpdk.core.records import Mempool
from mpcalc.dpdk.objects.mempool.create import pool_calc
from mpcalc.dpdk.objects.mempool.layout import CACHE_SLOT_BYTES

#: reach of a 32-bit index into the pool's memory: byte offsets, or 8-byte units (the RFC's v2)
INDEX_REACH = {"bytes": 1 << 32, "8-byte units": 1 << 35}


def max_cached(cache_size: int, p: Platform) -> int:
    """Objects one lcore's cache can hold: the flush threshold, 1.5 x size up to v25.11
    (v22.11:lib/mempool/rte_mempool.h:1386-1393), the size from v26.07."""
    if p.release.cache_size_rule == "flushthresh":
        return cache_size * 3 // 2
    return cache_size


def cache_report(mp: Mempool, p: Platform, layout: str, lcores: int | None = None) -> dict[str, object]:
    """The per-lcore cache in both layouts (seed mempool-index-based-cache)."""
    calc = pool_calc(p)  # its memoized header layouts and MP_<name> lengths
    h_ptr, mz_ptr, _ = calc.header(mp.cache_size, mp.private_data_size, "pointer")
    h_idx, mz_idx, _ = calc.header(mp.cache_size, mp.private_data_size, "index")
    held = max_cached(mp.cache_size, p)
    objects = sum(m.len for m in mp.memzones if m.role == "objects")
    out: dict[str, object] = {
        "layout": layout,
        "cache_size": mp.cache_size,
        "max_cached_per_lcore": held,
        "cache_struct_pointer": h_ptr.cache_struct,
        "cache_struct_index": h_idx.cache_struct,
        "header_memzone_pointer": mz_ptr,
        "header_memzone_index": mz_idx,
        "index_saves": mz_ptr - mz_idx,
        "full_cache_lines_pointer": ceil_div(held * CACHE_SLOT_BYTES["pointer"], p.cache_line),
        "full_cache_lines_index": ceil_div(held * CACHE_SLOT_BYTES["index"], p.cache_line),
        "objects_bytes": objects,
        "index_reach_bytes": dict(INDEX_REACH),
        "fits_index_reach": {k: objects <= v for k, v in INDEX_REACH.items()},
    }
    if lcores is not None:
        idle = min(mp.count, lcores * held)
        out.update(lcores=lcores, idle_in_caches=idle, usable=mp.count - idle)
    return out
