"""What ``rte_mempool_create`` refuses, and the inputs it accepts although the pool it builds is broken:
the checks of ``rte_mempool_create_empty`` before a memzone is reserved (:func:`create_empty_checks`) and
the hazards of a pool's sizes (:func:`size_hazards`), as :class:`~mpcalc.dpdk.core.errors.Rejection` records.
"""

from mpcalc.dpdk.core.errors import Rejection
from mpcalc.dpdk.core.facts import ReleaseFacts
from mpcalc.dpdk.core.flags import VALID_USER_FLAGS, flag_names
from mpcalc.dpdk.core.records import ObjSize

SSIZE_MAX = (1 << 63) - 1
_SRC = "v22.11:lib/mempool/rte_mempool.c"


def _reject(errno: str | None, reason: str, function: str, source: str) -> Rejection:
    return Rejection(errno=errno, reason=reason, function=function, source=source)


def create_empty_checks(
    r: ReleaseFacts, name: str, name_bytes: int, count: int, elt_size: int, cache_size: int, flags: int, total_size: int
) -> tuple[Rejection, ...]:
    """Every check of rte_mempool_create_empty that fails before a memzone is reserved, on release ``r``
    (``name_bytes``: the pool name's length in UTF-8)."""
    fn = "rte_mempool_create_empty"
    if count == 0:
        return (_reject("EINVAL", "n is 0: a pool needs at least one object", fn, f"{_SRC}:832"),)
    if cache_size > r.cache_max_size:
        return (
            _reject(
                "EINVAL",
                f"cache_size {cache_size} exceeds RTE_MEMPOOL_CACHE_MAX_SIZE {r.cache_max_size}",
                fn,
                f"{_SRC}:838",
            ),
        )
    if r.cache_size_rule == "flushthresh":
        thresh = cache_size * 3 // 2  # CALC_CACHE_FLUSHTHRESH: (unsigned)(c * 1.5)
        if thresh > count:
            return (
                _reject(
                    "EINVAL",
                    f"cache flush threshold {thresh} (1.5 x cache_size {cache_size}) exceeds n {count}",
                    fn,
                    f"{_SRC}:839",
                ),
            )
    elif cache_size > count:
        return (_reject("EINVAL", f"cache_size {cache_size} exceeds n {count}", fn, f"{_SRC}:843"),)
    if flags & ~VALID_USER_FLAGS:
        bad = flag_names(flags & ~VALID_USER_FLAGS)
        return (
            _reject(
                "EINVAL",
                f"flags {', '.join(bad)} are not user flags (RTE_MEMPOOL_VALID_USER_FLAGS {int(VALID_USER_FLAGS):#x})",
                fn,
                f"{_SRC}:845-848",
            ),
        )
    if total_size == 0:
        return (_reject("EINVAL", f"object size of elt_size {elt_size} wraps to 0 in uint32", fn, f"{_SRC}:861"),)
    if name_bytes + 3 >= r.memzone_namesize:
        return (
            _reject(
                "ENAMETOOLONG",
                f"memzone name {'MP_' + name!r} is {name_bytes + 3} bytes; the limit is {r.memzone_namesize - 1}",
                fn,
                f"{_SRC}:887-891",
            ),
        )
    return ()


def size_hazards(
    count: int,
    elt_size: int,
    objsz: ObjSize,
    slots: int,
    wraps: bool,
    objs_len: int,
) -> tuple[Rejection, ...]:
    """Inputs DPDK accepts although the pool it builds is broken."""
    out = []
    if slots == 0:
        out.append(
            _reject(
                None,
                f"rte_align32pow2(n + 1) wraps to 0 for n {count}: DPDK creates a "
                "ring with no slots (rte_ring_init's error is ignored)",
                "rte_ring_create",
                "v22.11:lib/ring/rte_ring.c:289-290",
            )
        )
    if wraps:
        out.append(
            _reject(
                None,
                f"elt_size {elt_size} makes the object size wrap uint32: DPDK would lay "
                f"out {objsz.total_size}-byte objects",
                "rte_mempool_calc_obj_size",
                "v22.11:lib/mempool/rte_mempool.c:216-262",
            )
        )
    if objs_len > SSIZE_MAX:
        out.append(
            _reject(
                None,
                f"the objects memzone needs {objs_len} bytes, beyond ssize_t",
                "rte_mempool_op_calc_mem_size_helper",
                "v22.11:lib/mempool/rte_mempool_ops_default.c:9-66",
            )
        )
    return tuple(out)
