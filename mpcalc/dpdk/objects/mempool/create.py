"""``rte_mempool_create`` + ``rte_mempool_populate_default`` with the ring ops, composed once
(:class:`PoolCalc`): the sizes every front end reads, and the records a report shows.

Citations are at v22.11 unless a release fact says otherwise.
"""

import functools
from collections.abc import Callable
from typing import NamedTuple

from mpcalc.dpdk.core import heap
from mpcalc.dpdk.core.errors import Rejection
from mpcalc.dpdk.core.flags import MempoolFlag, effective_flags
from mpcalc.dpdk.core.intmath import U32_MAX, align32pow2, is_pow2
from mpcalc.dpdk.core.platform import Platform
from mpcalc.dpdk.core.records import Allocation, HeaderLayout, Mempool, Memzone, ObjSize
from mpcalc.dpdk.core.standalone import name_bytes as c_strlen  # sizes names its result name_bytes
from mpcalc.dpdk.core.tuples import positional
from mpcalc.dpdk.objects.mempool.checks import _SRC, SSIZE_MAX, _reject, create_empty_checks, size_hazards
from mpcalc.dpdk.objects.mempool.layout import (
    NO_WRAP_BELOW,
    calc_mem_size,
    header_layout,
    header_size,
    obj_constants,
    obj_size,
    objects_per_page,
    ops_name,
    unwrapped_obj_size,
)
from mpcalc.dpdk.objects.mempool.ops import STACK_OPS, stack_zone
from mpcalc.dpdk.objects.ring import RING_SZ_MASK, ring_memsize, zero_size_accepted

#: the largest n a ring-backed pool takes: its ring needs rte_align32pow2(n + 1) <= RTE_RING_SZ_MASK slots
RING_LIMIT = (1 << 30) - 1
_NO_IOVA_CONTIG = int(MempoolFlag.NO_IOVA_CONTIG)
_POOL_CREATED = int(MempoolFlag.POOL_CREATED)
_NON_IO = int(MempoolFlag.NON_IO)


class PoolSpec(NamedTuple):
    """The arguments of ``rte_mempool_create``."""

    name: str
    count: int  # type: ignore[assignment]  # DPDK's n; shadows tuple.count, as namedtuples allow
    elt_size: int
    cache_size: int = 0
    private_size: int = 0
    flags: int = 0
    cache_layout: str = "pointer"
    #: the mempool driver set with rte_mempool_set_ops_byname (mpcalc.dpdk.objects.mempool.ops.OPS); "": the ring
    #: ops rte_mempool_create derives from SP_PUT/SC_GET (v22.11:lib/mempool/rte_mempool.c:966-977)
    ops: str = ""


class PoolSizes(NamedTuple):
    """What ``rte_mempool_create`` reserves, as sizes: what :func:`create_pool` turns into records,
    and what a compact batch answer shows (:attr:`total_bytes`, :attr:`heap_bytes`) without them.

    ``header_len`` is None when a check fails before ``MP_<name>`` is reserved; ``ring_len`` and
    ``objs_len`` are None when creation stops before the ring.  ``errors`` holds DPDK's rejection,
    or the hazards of a pool DPDK creates anyway.
    """

    eff: int
    objsz: ObjSize
    header: HeaderLayout | None
    header_len: int | None
    slots: int | None
    ring_len: int | None
    objs_len: int | None
    pg_shift: int
    errors: tuple[Rejection, ...]
    leaked: bool
    #: the memzones of :meth:`zones` and, once the pool exists, its rte_mallocs: bytes and heap growth
    total_bytes: int
    heap_bytes: int
    #: the size of the object layout a report shows (:attr:`layout`)
    object_size: int | None
    #: the driver's memzone: "ring" (RG_MP_<name>) or "stack" (STK_MP_<name>)
    driver_zone: str = "ring"

    def zones(self) -> tuple[tuple[str, int], ...]:
        """(role, len) of each memzone left reserved: all three, the leaked header, or none (a failed
        creation frees what it reserved)."""
        if self.objs_len is not None:
            return (
                ("header", self.header_len),
                (self.driver_zone, self.ring_len),  # type: ignore[return-value]
                ("objects", self.objs_len),
            )
        if self.leaked:
            return (("header", self.header_len),)  # type: ignore[return-value]
        return ()

    @property
    def created(self) -> bool:
        """The pool exists: its creation did not stop at a check."""
        return self.objs_len is not None

    @property
    def layout(self) -> ObjSize | None:
        """The object layout a report shows: none when the size wrapped to 0 and nothing was reserved."""
        return self.objsz if self.objsz.total_size or self.header is not None else None


class PoolCalc:
    """``rte_mempool_create``'s arithmetic on one platform (:func:`pool_calc`).

    The platform's constants are resolved once and every per-size step is memoized on plain
    integers, so millions of pools (batch, sweep, --fit) cost a few dictionary lookups each.
    :meth:`sizes` is the one place that composes a pool; :func:`create_pool` builds records from it.
    """

    def __init__(self, p: Platform) -> None:
        r = p.release
        self.p = p
        self.release = r
        self.pg_shift = p.pg_shift
        self.align = p.mempool_align
        self.obj_constants = obj_constants(p)
        self.elem_header = p.malloc_elem_header
        self.cache_line = p.cache_line
        #: :func:`mpcalc.dpdk.core.heap.heap_cost` with this platform's constants (a partial: no Python frame)
        self.heap_cost: Callable[[int], int] = functools.partial(
            heap.element_cost, header_len=self.elem_header, cache_line=self.cache_line
        )
        self.allocations = (
            Allocation(name="MEMPOOL_TAILQ_ENTRY", size=r.tailq_entry_size, role="tailq entry"),
            Allocation(name="RING_TAILQ_ENTRY", size=r.tailq_entry_size, role="tailq entry"),
            Allocation(name="MEMPOOL_MEMHDR", size=r.memhdr_size, role="memory chunk header"),
        )
        #: a stack driver's pool: STACK_TAILQ_ENTRY instead of RING_TAILQ_ENTRY (v22.11:lib/stack/rte_stack.c:84)
        self.stack_allocations = tuple(
            a._replace(name="STACK_TAILQ_ENTRY") if a.name == "RING_TAILQ_ENTRY" else a for a in self.allocations
        )
        self.allocations_bytes = sum(a.size for a in self.allocations)
        self.allocations_heap = sum(self.heap_cost(a.size) for a in self.allocations)
        self._objsz: dict[tuple[int, int], tuple[ObjSize, bool]] = {}
        self._headers: dict[tuple[bool, int, str], tuple[HeaderLayout, int, int]] = {}
        self._rings: dict[int, tuple[int, int]] = {}

    def obj_size(self, elt_size: int, eff: int) -> tuple[ObjSize, bool]:
        """The object layout, and whether its size wrapped uint32 (memoized on :func:`objsz_key`;
        :meth:`sizes` reads the table)."""
        key = objsz_key(elt_size, eff)
        found = self._objsz.get(key)
        if found is None:
            if len(self._objsz) >= _MEMO_LIMIT:
                self._objsz.clear()
            objsz = obj_size(elt_size, eff, *self.obj_constants)
            wraps = elt_size >= NO_WRAP_BELOW and unwrapped_obj_size(elt_size, eff, self.p) > U32_MAX
            found = self._objsz[key] = (objsz, wraps)
        return found

    def header(self, cache_size: int, private_size: int, cache_layout: str) -> tuple[HeaderLayout, int, int]:
        """The header layout, the ``MP_<name>`` memzone's length and its heap cost (memoized:
        :meth:`sizes` reads the table; the key is :func:`header_key`'s)."""
        key = header_key(cache_size, private_size, cache_layout, self.align)
        found = self._headers.get(key)
        if found is None:
            if len(self._headers) >= _MEMO_LIMIT:
                self._headers.clear()
            h = header_layout(cache_size, private_size, self.p, cache_layout)
            size = heap.memzone_len(header_size(h, self.p), self.p)
            found = self._headers[key] = (h, size, self.heap_cost(size))
        return found

    def ring(self, slots: int) -> tuple[int, int]:
        """The ``RG_MP_<name>`` memzone's length for a ring of ``slots`` pointers, and its heap cost."""
        found = self._rings.get(slots)
        if found is None:
            if len(self._rings) >= _MEMO_LIMIT:
                self._rings.clear()
            size = heap.memzone_len(ring_memsize(slots, self.p), self.p)
            found = self._rings[slots] = (size, self.heap_cost(size))
        return found

    def sizes(
        self,
        name: str,
        count: int,
        elt_size: int,
        cache_size: int = 0,
        private_size: int = 0,
        flags: int = 0,
        cache_layout: str = "pointer",
        ops: str = "",
    ) -> PoolSizes:
        """``rte_mempool_create`` + ``rte_mempool_populate_default`` with the default ring ops, or
        with the driver ``ops`` (``rte_mempool_create_empty`` + ``rte_mempool_set_ops_byname``): the one
        composition of a pool (memo tables read in line; a miss computes and stores)."""
        p = self.p
        eff = _effective_flags(flags)
        found = self._objsz.get(objsz_key(elt_size, eff))
        objsz, wraps = found if found is not None else self.obj_size(elt_size, eff)
        found_header = self._headers.get(header_key(cache_size, private_size, cache_layout, self.align))
        header, header_len, header_heap = (
            found_header if found_header is not None else self.header(cache_size, private_size, cache_layout)
        )
        name_bytes = c_strlen(name)
        errors = create_empty_checks(
            self.release, name, name_bytes, count, elt_size, cache_size, flags, objsz.total_size
        )
        if errors:
            return _new_sizes(
                (eff, objsz, None, None, None, None, None, 0, errors, False, 0, 0, objsz.total_size or None, "ring")
            )
        mempool_namesize = self.release.mempool_namesize
        if name_bytes >= mempool_namesize:
            # strlcpy into mp->name fails after the memzone was reserved, and mp->mz is not
            # set yet, so rte_mempool_free cannot release it (v22.11:lib/mempool/rte_mempool.c:898-905).
            err = _reject(
                "ENAMETOOLONG",
                f"pool name {name!r} is {name_bytes} bytes; the limit is "
                f"{mempool_namesize - 1}, and DPDK leaks the MP_{name} memzone it already reserved",
                "rte_mempool_create_empty",
                f"{_SRC}:898-903",
            )
            return _failed(eff, objsz, header, header_len, err, leaked_heap=header_heap)
        pg_shift = 0 if eff & _NO_IOVA_CONTIG else self.pg_shift
        if ops in STACK_OPS:
            driver = stack_zone(name_bytes, count, ops == "lf_stack", p)
            if driver.error is not None:  # rte_mempool_populate_default fails: rte_mempool_free frees the header
                return _failed(eff, objsz, header, header_len, driver.error, "stack")
            objs_len = heap.memzone_len(calc_mem_size(objsz.total_size, count, pg_shift), p)
            stack_hazards = driver.hazards
            if wraps or objs_len > SSIZE_MAX:
                stack_hazards += size_hazards(count, elt_size, objsz, 1, wraps, objs_len)
            return _new_sizes(
                (
                    eff,
                    objsz,
                    header,
                    header_len,
                    None,
                    driver.len,
                    objs_len,
                    pg_shift,
                    stack_hazards,
                    False,
                    header_len + driver.len + objs_len + self.allocations_bytes,
                    header_heap + driver.heap + self.heap_cost(objs_len) + self.allocations_heap,
                    objsz.total_size,
                    "stack",
                )
            )
        # ring_alloc: rte_ring_create(rte_align32pow2(n + 1)) (drivers/mempool/ring/rte_mempool_ring.c:97-99)
        slots = align32pow2(count + 1)
        if not is_pow2(slots) or slots > RING_SZ_MASK or (slots == 0 and not zero_size_accepted(p)):
            err = _reject(
                "EINVAL",
                f"the ring needs {slots} slots for n {count}; the ring limit is {RING_SZ_MASK} (n must be below 2^30)",
                "rte_ring_get_memsize_elem",
                "v22.11:lib/ring/rte_ring.c:59-64",
            )
            return _failed(eff, objsz, header, header_len, err)
        objs_len = heap.memzone_len(calc_mem_size(objsz.total_size, count, pg_shift), p)
        hazards: tuple[Rejection, ...] = ()
        if slots == 0 or wraps or objs_len > SSIZE_MAX:
            hazards = size_hazards(count, elt_size, objsz, slots, wraps, objs_len)
        found_ring = self._rings.get(slots)
        ring_len, ring_heap = found_ring if found_ring is not None else self.ring(slots)
        # every memzone of zones() and the pool's rte_mallocs
        return _new_sizes(
            (
                eff,
                objsz,
                header,
                header_len,
                slots,
                ring_len,
                objs_len,
                pg_shift,
                hazards,
                False,
                header_len + ring_len + objs_len + self.allocations_bytes,
                header_heap + ring_heap + self.heap_cost(objs_len) + self.allocations_heap,
                objsz.total_size,
                "ring",
            )
        )


def _failed(
    eff: int,
    objsz: ObjSize,
    header: HeaderLayout,
    header_len: int,
    error: Rejection,
    driver_zone: str = "ring",
    leaked_heap: int | None = None,
) -> PoolSizes:
    """A pool whose creation failed once its header was laid out: nothing stays reserved, or, with
    ``leaked_heap``, the header memzone DPDK leaks (its length and heap)."""
    leaked = leaked_heap is not None
    return _new_sizes(
        (
            eff,
            objsz,
            header,
            header_len,
            None,
            None,
            None,
            0,
            (error,),
            leaked,
            header_len if leaked else 0,
            leaked_heap or 0,
            objsz.total_size,
            driver_zone,
        )
    )


#: the one maker of every PoolSizes :meth:`PoolCalc.sizes` returns, positional (a NamedTuple's own
#: ``__new__`` by keyword is a Python frame, a sixth of ``sizes``' time, measured): each field is checked
#: by its meaning on every path of ``sizes`` (tests/test_mempool_sizes.py), so two swapped fields fail
_new_sizes = positional(PoolSizes)


def objsz_key(elt_size: int, eff: int) -> tuple[int, int]:
    """:meth:`PoolCalc.obj_size`'s memo key: the layout depends on ``elt_size`` only as rounded up to 8."""
    return ((elt_size + 7) >> 3, eff)


def header_key(cache_size: int, private_size: int, cache_layout: str, align: int) -> tuple[bool, int, str]:
    """:meth:`PoolCalc.header`'s memo key: the header depends on the cache only as cache_size > 0, and on
    the private size only as rounded up to RTE_MEMPOOL_ALIGN (``align``)."""
    return (cache_size > 0, (private_size + align - 1) // align, cache_layout)


#: per-platform memo tables are cleared when they grow past this, and pool_calc keeps the PoolCalcs of at most
#: 64 platforms: a long batch over many platforms keeps a bounded memory
_MEMO_LIMIT = 1 << 8


@functools.lru_cache(maxsize=64)
def pool_calc(p: Platform) -> PoolCalc:
    """The :class:`PoolCalc` of a platform (one per platform: its memo tables are shared)."""
    return PoolCalc(p)


def pool_sizes(spec: PoolSpec, p: Platform) -> PoolSizes:
    """``rte_mempool_create`` + ``rte_mempool_populate_default``, as sizes: what :func:`create_pool` makes
    records of, and what a footprint reads (mpcalc.dpdk.objects.mempool.footprint)."""
    return pool_calc(p).sizes(
        spec.name,
        spec.count,
        spec.elt_size,
        spec.cache_size,
        spec.private_size,
        spec.flags,
        spec.cache_layout,
        spec.ops,
    )


def create_pool(spec: PoolSpec, p: Platform) -> Mempool:
    """``rte_mempool_create`` + ``rte_mempool_populate_default`` with the default ring ops, as records."""
    calc = pool_calc(p)
    s = pool_sizes(spec, p)
    zone_names = {
        "header": "MP_" + spec.name,
        "ring": "RG_MP_" + spec.name,
        "stack": "STK_MP_" + spec.name,
        "objects": f"MP_{spec.name}_0",
    }
    memzones = tuple(Memzone(name=zone_names[role], len=size, role=role, leaked=s.leaked) for role, size in s.zones())
    mp_flags = None
    if s.created:
        mp_flags = s.eff | _POOL_CREATED
        if not s.eff & _NO_IOVA_CONTIG:
            mp_flags &= ~_NON_IO  # v22.11:lib/mempool/rte_mempool.c:369-371
    return Mempool(
        name=spec.name,
        count=spec.count,
        elt_size=spec.elt_size,
        cache_size=spec.cache_size,
        private_data_size=spec.private_size,
        flags=spec.flags,
        effective_flags=s.eff,
        mp_flags=mp_flags,
        ops_name=spec.ops or _ops_name(spec.flags),
        objsz=s.layout,
        header=s.header,
        ring_size=s.slots,
        objs_per_page=objects_per_page(s.objsz.total_size, s.pg_shift) if s.created else None,
        memzones=memzones,
        allocations=(calc.allocations if s.driver_zone == "ring" else calc.stack_allocations) if s.created else (),
        errors=s.errors,
        heap_bytes=s.heap_bytes,
    )


_effective_flags = functools.lru_cache(maxsize=4096)(effective_flags)
_ops_name = functools.lru_cache(maxsize=64)(ops_name)
