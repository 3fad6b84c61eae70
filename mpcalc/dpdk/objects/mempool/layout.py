"""rte_mempool's object layout, header and memory size: the arithmetic of
``rte_mempool_calc_obj_size``, ``rte_mempool_create_empty`` and ``rte_mempool_op_calc_mem_size_helper``.

Citations are at v22.11 unless a release fact says otherwise (the populate path is identical from
v22.11 to v26.07).
"""

from mpcalc.dpdk.core.flags import MempoolFlag
from mpcalc.dpdk.core.intmath import U32_MAX, ceil_a, gcd, u32
from mpcalc.dpdk.core.platform import Platform
from mpcalc.dpdk.core.records import HeaderLayout, ObjSize
from mpcalc.dpdk.core.tuples import positional

# the flags as plain ints: ``int & IntFlag`` runs enum code (IntFlag.__rand__), ``int & int`` does not
_NO_SPREAD = int(MempoolFlag.NO_SPREAD)
_NO_CACHE_ALIGN = int(MempoolFlag.NO_CACHE_ALIGN)

#: pointer-based per-lcore cache slot, and the index-based proposal (the mempool index-cache RFC).
CACHE_SLOT_BYTES = {"pointer": 8, "index": 4}


def obj_constants(p: Platform) -> tuple[int, int, int, int]:
    """What the object layout reads of a platform: (MA, object header size, trailer size, the product
    channels x ranks objects are spread over, 0 when they are not)."""
    return p.mempool_align, p.objhdr_size, p.objtlr_size, p.ranks * p.channels if p.spreads else 0


def _spread(obj_size: int, ma: int, over: int) -> int:
    """``arch_mem_object_align`` on x86 (v22.11:lib/mempool/rte_mempool.c:90-110): the size in MA-sized lines
    grows until it shares no factor with ``over`` = channels x ranks (unsigned int arithmetic)."""
    lines = ((obj_size + ma - 1) & U32_MAX) // ma
    while gcd(lines, over) != 1:
        lines += 1
    return (lines * ma) & U32_MAX


def arch_mem_object_align(obj_size: int, p: Platform) -> int:
    """``arch_mem_object_align`` (v22.11:lib/mempool/rte_mempool.c:90-116: x86, then the other architectures).

    On x86 the size in MA-sized lines grows until it shares no factor with
    channels x ranks; elsewhere the size is unchanged.

    >>> arch_mem_object_align(128, Platform()), arch_mem_object_align(128, Platform(channels=1))
    (192, 128)
    """
    return _spread(obj_size, p.mempool_align, p.ranks * p.channels) if p.spreads else obj_size


def calc_obj_size(elt_size: int, flags: int, p: Platform) -> ObjSize:
    """``rte_mempool_calc_obj_size`` with its uint32 arithmetic (v22.11:lib/mempool/rte_mempool.c:216-262).

    >>> calc_obj_size(40, 0, Platform()).total_size
    192
    >>> calc_obj_size(40, MempoolFlag.NO_CACHE_ALIGN | MempoolFlag.NO_SPREAD, Platform()).total_size
    64
    """
    return obj_size(elt_size, flags, *obj_constants(p))


def obj_size(elt_size: int, flags: int, ma: int, objhdr: int, objtlr: int, over: int) -> ObjSize:
    """:func:`calc_obj_size` on a platform's :func:`obj_constants` (``& U32_MAX``: a uint32 assignment)."""
    header = objhdr if flags & _NO_CACHE_ALIGN else ceil_a(objhdr, ma)
    trailer = objtlr
    elt = ceil_a(elt_size, 8) & U32_MAX
    if not flags & _NO_CACHE_ALIGN:
        total = (header + elt + trailer) & U32_MAX
        trailer += (ma - (total & (ma - 1))) & (ma - 1)
    if not flags & _NO_SPREAD and over:
        trailer = (_spread((header + elt + trailer) & U32_MAX, ma, over) - header - elt) & U32_MAX
    return _new_objsize((header, elt, trailer, (header + elt + trailer) & U32_MAX))


_new_objsize = positional(ObjSize)


#: below this elt_size the object size cannot wrap uint32: header, trailer and the spreading padding
#: (a few MA-sized lines: channels x ranks has a coprime within a few steps) stay far below 1 MiB
NO_WRAP_BELOW = (1 << 32) - (1 << 20)


def unwrapped_obj_size(elt_size: int, flags: int, p: Platform) -> int:
    """The object size ``calc_obj_size`` would compute with unbounded integers (to detect its uint32 wrap).

    >>> unwrapped_obj_size(0xFFFFFFB8, 0, Platform()) > 0xFFFFFFFF
    True
    """
    ma = p.mempool_align
    header = p.objhdr_size if flags & _NO_CACHE_ALIGN else ceil_a(p.objhdr_size, ma)
    size = header + ceil_a(elt_size, 8) + p.objtlr_size
    if not flags & _NO_CACHE_ALIGN:
        size = ceil_a(size, ma)
    if not flags & _NO_SPREAD and p.spreads:
        lines = ceil_a(size, ma) // ma
        while gcd(lines, p.ranks * p.channels) != 1:
            lines += 1
        size = lines * ma
    return size


def header_layout(cache_size: int, private_size: int, p: Platform, cache_layout: str = "pointer") -> HeaderLayout:
    """What ``rte_mempool_create_empty`` puts in ``MP_<name>`` (v22.11:lib/mempool/rte_mempool.c:872-885).

    ``RTE_MEMPOOL_HEADER_SIZE``: caches for every one of RTE_MAX_LCORE lcores as soon
    as cache_size > 0 (v22.11:lib/mempool/rte_mempool.h:361-363).
    """
    ma = p.mempool_align
    cache_struct = p.sizeof_mempool_cache(CACHE_SLOT_BYTES[cache_layout])
    return HeaderLayout(
        mempool_struct=p.sizeof_mempool,
        cache_struct=cache_struct,
        caches=cache_struct * p.max_lcore if cache_size else 0,
        private_data=u32(private_size + ma - 1) & ~(ma - 1),
    )


def header_size(h: HeaderLayout, p: Platform) -> int:
    """The size ``rte_mempool_create_empty`` asks for: the header rounded to MA."""
    return ceil_a(h.mempool_struct + h.caches + h.private_data, p.mempool_align)


def calc_mem_size(total_size: int, obj_num: int, pg_shift: int) -> int:
    """``rte_mempool_op_calc_mem_size_helper`` with chunk_reserve 0
    (v22.11:lib/mempool/rte_mempool_ops_default.c:9-66).

    >>> calc_mem_size(2368, 8191, 21), calc_mem_size(2368, 8191, 12), calc_mem_size(2368, 8191, 0)
    (19411903, 33550975, 19396288)
    """
    if total_size == 0:
        return 0
    if pg_shift == 0:
        return total_size * obj_num
    pg_sz = 1 << pg_shift
    per_page = pg_sz // total_size
    if per_page == 0:
        return ceil_a(total_size, pg_sz) * obj_num
    in_last = ((obj_num - 1) % per_page) + 1
    mem = in_last * total_size
    mem += ((obj_num - in_last) // per_page) << pg_shift
    return mem + total_size - 1


def objects_per_page(total_size: int, pg_shift: int) -> int | None:
    if not pg_shift or not total_size:
        return None
    return (1 << pg_shift) // total_size


def ops_name(flags: int) -> str:
    """The ring ops ``rte_mempool_create`` picks (v22.11:lib/mempool/rte_mempool.c:968-976)."""
    sp = bool(flags & MempoolFlag.SP_PUT)
    sc = bool(flags & MempoolFlag.SC_GET)
    return f"ring_{'sp' if sp else 'mp'}_{'sc' if sc else 'mc'}"
