"""rte_mempool sizing: object layout, header, ring and objects memzones.

Every function names the DPDK function it reproduces; citations are at v22.11
unless a release fact says otherwise (the populate path is identical from
v22.11 to v26.07).
"""

import functools
from typing import NamedTuple

from . import eal
from .errors import Rejection
from .flags import VALID_USER_FLAGS, MempoolFlag, effective_flags, flag_names
from .intmath import U32_MAX, align32pow2, ceil_a, gcd, is_pow2, u32
from .model import Allocation, HeaderLayout, Memzone, Mempool, ObjSize
from .platform import Platform

SSIZE_MAX = (1 << 63) - 1

#: pointer-based per-lcore cache slot, and the index-based proposal (seed 003).
CACHE_SLOT_BYTES = {"pointer": 8, "index": 4}


class PoolSpec(NamedTuple):
    """The arguments of ``rte_mempool_create``."""

    name: str
    count: int
    elt_size: int
    cache_size: int = 0
    private_size: int = 0
    flags: int = 0
    cache_layout: str = "pointer"


def arch_mem_object_align(obj_size: int, p: Platform) -> int:
    """``arch_mem_object_align`` (v22.11:lib/mempool/rte_mempool.c:88-117).

    On x86 the size in MA-sized lines grows until it shares no factor with
    channels x ranks; elsewhere the size is unchanged.

    >>> arch_mem_object_align(128, Platform()), arch_mem_object_align(128, Platform(channels=1))
    (192, 128)
    """
    if not p.spreads:
        return obj_size
    ma = p.mempool_align
    lines = u32(obj_size + ma - 1) // ma
    while gcd(lines, p.ranks * p.channels) != 1:
        lines += 1
    return u32(lines * ma)


def calc_obj_size(elt_size: int, flags: int, p: Platform) -> ObjSize:
    """``rte_mempool_calc_obj_size`` with its uint32 arithmetic (v22.11:lib/mempool/rte_mempool.c:216-262).

    >>> calc_obj_size(40, 0, Platform()).total_size
    192
    >>> calc_obj_size(40, MempoolFlag.NO_CACHE_ALIGN | MempoolFlag.NO_SPREAD, Platform()).total_size
    64
    """
    ma = p.mempool_align
    header = p.objhdr_size
    if not flags & MempoolFlag.NO_CACHE_ALIGN:
        header = ceil_a(header, ma)
    trailer = p.objtlr_size
    elt = u32(ceil_a(elt_size, 8))
    if not flags & MempoolFlag.NO_CACHE_ALIGN:
        total = u32(header + elt + trailer)
        trailer += (ma - (total & (ma - 1))) & (ma - 1)
    if not flags & MempoolFlag.NO_SPREAD:
        trailer = u32(arch_mem_object_align(u32(header + elt + trailer), p) - header - elt)
    return ObjSize(header_size=header, elt_size=elt, trailer_size=trailer, total_size=u32(header + elt + trailer))


def unwrapped_obj_size(elt_size: int, flags: int, p: Platform) -> int:
    """The object size ``calc_obj_size`` would compute with unbounded integers (to detect its uint32 wrap).

    >>> unwrapped_obj_size(0xFFFFFFB8, 0, Platform()) > 0xFFFFFFFF
    True
    """
    ma = p.mempool_align
    header = p.objhdr_size if flags & MempoolFlag.NO_CACHE_ALIGN else ceil_a(p.objhdr_size, ma)
    size = header + ceil_a(elt_size, 8) + p.objtlr_size
    if not flags & MempoolFlag.NO_CACHE_ALIGN:
        size = ceil_a(size, ma)
    if not flags & MempoolFlag.NO_SPREAD and p.spreads:
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


def ring_memsize(count: int, p: Platform, esize: int = 8) -> int:
    """``rte_ring_get_memsize_elem`` for a valid power-of-two count (v22.11:lib/ring/rte_ring.c:49-72)."""
    size = ceil_a(p.sizeof_ring + count * esize, p.cache_line)
    return size + p.release.ring_guard_lines * p.cache_line


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


def _reject(errno: str | None, reason: str, function: str, source: str) -> Rejection:
    return Rejection(errno=errno, reason=reason, function=function, source=source)


def _checks(spec: PoolSpec, objsz: ObjSize, eff: int, p: Platform) -> list[Rejection]:
    """Every check of rte_mempool_create_empty that fails before a memzone is reserved."""
    r = p.release
    fn, src = "rte_mempool_create_empty", "v22.11:lib/mempool/rte_mempool.c"
    if spec.count == 0:
        return [_reject("EINVAL", "n is 0: a pool needs at least one object", fn, f"{src}:832")]
    if spec.cache_size > r.cache_max_size:
        return [_reject("EINVAL", f"cache_size {spec.cache_size} exceeds RTE_MEMPOOL_CACHE_MAX_SIZE {r.cache_max_size}",
                        fn, f"{src}:838")]
    if r.cache_size_rule == "flushthresh":
        thresh = spec.cache_size * 3 // 2  # CALC_CACHE_FLUSHTHRESH: (unsigned)(c * 1.5)
        if thresh > spec.count:
            return [_reject("EINVAL", f"cache flush threshold {thresh} (1.5 x cache_size {spec.cache_size}) "
                            f"exceeds n {spec.count}", fn, f"{src}:839")]
    elif spec.cache_size > spec.count:
        return [_reject("EINVAL", f"cache_size {spec.cache_size} exceeds n {spec.count}", fn, f"{src}:843")]
    if spec.flags & ~VALID_USER_FLAGS:
        bad = flag_names(spec.flags & ~VALID_USER_FLAGS)
        return [_reject("EINVAL", f"flags {', '.join(bad)} are not user flags (RTE_MEMPOOL_VALID_USER_FLAGS "
                        f"{int(VALID_USER_FLAGS):#x})", fn, f"{src}:845-848")]
    if objsz.total_size == 0:
        return [_reject("EINVAL", f"object size of elt_size {spec.elt_size} wraps to 0 in uint32", fn, f"{src}:861")]
    mz_name = "MP_" + spec.name
    if len(mz_name.encode()) >= r.memzone_namesize:
        return [_reject("ENAMETOOLONG", f"memzone name {mz_name!r} is {len(mz_name.encode())} bytes; "
                        f"the limit is {r.memzone_namesize - 1}", fn, f"{src}:887-891")]
    return []


def create_pool(spec: PoolSpec, p: Platform) -> Mempool:
    """``rte_mempool_create`` + ``rte_mempool_populate_default`` with the default ring ops."""
    r = p.release
    eff = _effective_flags(spec.flags)
    objsz = _calc_obj_size(spec.elt_size, eff, p)
    header = _header_layout(spec.cache_size, spec.private_size, p, spec.cache_layout)
    base = dict(
        name=spec.name,
        count=spec.count,
        elt_size=spec.elt_size,
        cache_size=spec.cache_size,
        private_data_size=spec.private_size,
        flags=spec.flags,
        effective_flags=eff,
        ops_name=_ops_name(spec.flags),
    )
    errors = _checks(spec, objsz, eff, p)
    if errors:
        return Mempool(**base, mp_flags=None, objsz=objsz if objsz.total_size else None, header=None,
                       ring_size=None, objs_per_page=None, memzones=(), allocations=(), errors=tuple(errors))

    hdr_mz = Memzone(name="MP_" + spec.name, len=_header_mz_len(header, p), role="header")
    if len(spec.name.encode()) >= r.mempool_namesize:
        # strlcpy into mp->name fails after the memzone was reserved, and mp->mz is not
        # set yet, so rte_mempool_free cannot release it (v22.11:lib/mempool/rte_mempool.c:898-905).
        leaked = Memzone(name=hdr_mz.name, len=hdr_mz.len, role="header", leaked=True)
        err = _reject("ENAMETOOLONG", f"pool name {spec.name!r} is {len(spec.name.encode())} bytes; the limit is "
                      f"{r.mempool_namesize - 1}, and DPDK leaks the {hdr_mz.name} memzone it already reserved",
                      "rte_mempool_create_empty", "v22.11:lib/mempool/rte_mempool.c:898-903")
        return Mempool(**base, mp_flags=None, objsz=objsz, header=header, ring_size=None, objs_per_page=None,
                       memzones=(leaked,), allocations=(), errors=(err,))

    errors = []
    # ring_alloc: rte_ring_create(rte_align32pow2(n + 1)) (drivers/mempool/ring/rte_mempool_ring.c:97-99)
    slots = align32pow2(spec.count + 1)
    ring_mask = 0x7FFFFFFF  # RTE_RING_SZ_MASK (v22.11:lib/ring/rte_ring_core.h:41)
    if not is_pow2(slots) or slots > ring_mask:
        err = _reject("EINVAL", f"the ring needs {slots} slots for n {spec.count}; the ring limit is "
                      f"{ring_mask} (n must be below 2^30)", "rte_ring_get_memsize_elem",
                      "v22.11:lib/ring/rte_ring.c:59-64")
        return Mempool(**base, mp_flags=None, objsz=objsz, header=header, ring_size=None, objs_per_page=None,
                       memzones=(), allocations=(), errors=(err,))
    if slots == 0:
        errors.append(_reject(None, f"rte_align32pow2(n + 1) wraps to 0 for n {spec.count}: DPDK creates a "
                              "ring with no slots (rte_ring_init's error is ignored)", "rte_ring_create",
                              "v22.11:lib/ring/rte_ring.c:289-290"))
    if _unwrapped_obj_size(spec.elt_size, eff, p) > U32_MAX:
        errors.append(_reject(None, f"elt_size {spec.elt_size} makes the object size wrap uint32: DPDK would lay "
                              f"out {objsz.total_size}-byte objects", "rte_mempool_calc_obj_size",
                              "v22.11:lib/mempool/rte_mempool.c:216-262"))
    ring_mz = Memzone(name="RG_MP_" + spec.name, len=_ring_mz_len(slots, p), role="ring")
    pg_shift = 0 if eff & _NO_IOVA_CONTIG else p.pg_shift
    mem = calc_mem_size(objsz.total_size, spec.count, pg_shift)
    objs_mz = Memzone(name=f"MP_{spec.name}_0", len=eal.memzone_len(mem, p), role="objects")
    if objs_mz.len > SSIZE_MAX:
        errors.append(_reject(None, f"the objects memzone needs {objs_mz.len} bytes, beyond ssize_t",
                              "rte_mempool_op_calc_mem_size_helper",
                              "v22.11:lib/mempool/rte_mempool_ops_default.c:9-66"))
    allocations = _pool_allocations(r.tailq_entry_size, r.memhdr_size)
    mp_flags = eff | _POOL_CREATED
    if not eff & _NO_IOVA_CONTIG:
        mp_flags &= ~_NON_IO  # v22.11:lib/mempool/rte_mempool.c:369-371
    return Mempool(
        **base,
        mp_flags=int(mp_flags),
        objsz=objsz,
        header=header,
        ring_size=slots,
        objs_per_page=objects_per_page(objsz.total_size, pg_shift),
        memzones=(hdr_mz, ring_mz, objs_mz),
        allocations=allocations,
        errors=tuple(errors),
    )


# --- memoized pure helpers of create_pool --------------------------------------------------------
# Every argument is an int, a str or a frozen Platform/HeaderLayout, and every result is immutable,
# so batch and sweep (millions of pools on a handful of platforms) compute each once.

_memo = functools.lru_cache(maxsize=4096)
_effective_flags = _memo(effective_flags)
_calc_obj_size = _memo(calc_obj_size)
_unwrapped_obj_size = _memo(unwrapped_obj_size)
_header_layout = _memo(header_layout)
_ops_name = _memo(ops_name)
_NO_IOVA_CONTIG = int(MempoolFlag.NO_IOVA_CONTIG)
_POOL_CREATED = int(MempoolFlag.POOL_CREATED)
_NON_IO = int(MempoolFlag.NON_IO)


@_memo
def _header_mz_len(header: HeaderLayout, p: Platform) -> int:
    return eal.memzone_len(header_size(header, p), p)


@_memo
def _ring_mz_len(slots: int, p: Platform) -> int:
    return eal.memzone_len(ring_memsize(slots, p), p)


@_memo
def _pool_allocations(tailq_entry_size: int, memhdr_size: int) -> tuple[Allocation, ...]:
    return (
        Allocation(name="MEMPOOL_TAILQ_ENTRY", size=tailq_entry_size, role="tailq entry"),
        Allocation(name="RING_TAILQ_ENTRY", size=tailq_entry_size, role="tailq entry"),
        Allocation(name="MEMPOOL_MEMHDR", size=memhdr_size, role="memory chunk header"),
    )
