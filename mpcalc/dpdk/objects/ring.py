"""rte_ring: ``rte_ring_create`` / ``rte_ring_create_elem`` and the ``ring`` object (:data:`RING`).

``rte_ring_create_elem`` (v22.11:lib/ring/rte_ring.c:239-304) rounds an exact-size count up
(``rte_align32pow2(count + 1)``), sizes the ring (``rte_ring_get_memsize_elem``, rte_ring.c:49-72),
checks the memzone name ``RG_<name>``, then takes one ``rte_zmalloc("RING_TAILQ_ENTRY")`` and one
memzone, and calls ``rte_ring_init`` *without checking its result* (rte_ring.c:288-290): what
``rte_ring_init`` refuses (unknown flags, two producer or consumer modes) is a ring DPDK creates in
a state that cannot work.  :func:`ring_parts` is also the ring of a mempool's ring driver and of
rte_hash's free-slot rings.
"""

from collections.abc import Mapping
from typing import Any, NamedTuple

from mpcalc.dpdk.core.declare import ObjectDecl, Param, Resolved
from mpcalc.dpdk.core.errors import Rejection, check_u32
from mpcalc.dpdk.core.facts import version_key
from mpcalc.dpdk.core.heap import memzone_len
from mpcalc.dpdk.core.intmath import U32_MAX, align32pow2, ceil_a, is_pow2
from mpcalc.dpdk.core.platform import Platform
from mpcalc.dpdk.core.records import Allocation, Memzone, Result
from mpcalc.dpdk.core.standalone import Parts, finish, name_bytes
from mpcalc.dpdk.objects.objflags import RING_FLAGS

RING_SZ_MASK = 0x7FFFFFFF  # RTE_RING_SZ_MASK (v22.11:lib/ring/rte_ring_core.h:41)
RING_MZ_PREFIX = "RG_"  # RTE_RING_MZ_PREFIX (v22.11:lib/ring/rte_ring_core.h:50)
SP_ENQ, SC_DEQ, EXACT_SZ = (RING_FLAGS.bits[n] for n in ("sp_enq", "sc_deq", "exact_sz"))
MP_RTS_ENQ, MC_RTS_DEQ, MP_HTS_ENQ, MC_HTS_DEQ = (
    RING_FLAGS.bits[n] for n in ("mp_rts_enq", "mc_rts_deq", "mp_hts_enq", "mc_hts_deq")
)
#: RING_F_MASK: every RING_F_* bit (v22.11:lib/ring/rte_ring.c:37-39)
RING_F_MASK = sum(RING_FLAGS.bits.values())
#: HTD_MAX_DEF: an RTS ring's head/tail distance is capacity / 8 (v22.11:lib/ring/rte_ring.c:45,230-233)
HTD_MAX_DEF = 8
_SRC = "v22.11:lib/ring/rte_ring.c"


def ring_memsize(count: int, p: Platform, esize: int = 8) -> int:
    """``rte_ring_get_memsize_elem`` for a valid count (v22.11:lib/ring/rte_ring.c:69-71): the struct
    and the slots, cache aligned, plus ``RTE_CACHE_GUARD_LINES`` lines from 26.07
    (v26.07:lib/ring/rte_ring.c:78-84).

    >>> ring_memsize(1024, Platform()), ring_memsize(1024, Platform(), esize=4), ring_memsize(0, Platform())
    (8576, 4480, 384)
    """
    size = ceil_a(p.sizeof_ring + count * esize, p.cache_line)
    return size + p.release.ring_guard_lines * p.cache_line


def zero_size_accepted(p: Platform) -> bool:
    """``POWEROF2(0)`` holds, so a count of 0 passes the checks up to 24.11; 25.11's
    ``RTE_IS_POWER_OF_2`` refuses it (commit dfe87f92b0, "ring: forbid size 0";
    v25.11:lib/ring/rte_ring.c:68, v25.11:lib/eal/include/rte_bitops.h:1302)."""
    return version_key(p.dpdk) < (25, 11)


def memsize_elem(esize: int, count: int, p: Platform) -> tuple[int | None, Rejection | None]:
    """``rte_ring_get_memsize_elem(esize, count)``: the size, or DPDK's EINVAL."""
    fn = "rte_ring_get_memsize_elem"
    if esize % 4:
        return None, Rejection("EINVAL", f"esize {esize} is not a multiple of 4", fn, f"{_SRC}:53-58")
    pow2 = is_pow2(count) and (count != 0 or zero_size_accepted(p))
    if not pow2 or count > RING_SZ_MASK:
        why = "0" if count == 0 else f"{count}, not a power of two" if not pow2 else f"{count}, above RTE_RING_SZ_MASK"
        return None, Rejection(
            "EINVAL",
            f"the ring needs {why} slots (a power of two up to {RING_SZ_MASK:#x})",
            fn,
            "v25.11:lib/ring/rte_ring.c:68" if count == 0 else f"{_SRC}:60-67",
        )
    return ring_memsize(count, p, esize), None


class RingState(NamedTuple):
    """What ``rte_ring_init`` leaves in the ring: size, mask, capacity and the sync modes."""

    size: int
    mask: int
    capacity: int
    prod: str
    cons: str
    initialised: bool


_SYNC = {
    0: "mt",
    SP_ENQ: "st",
    MP_RTS_ENQ: "mt_rts",
    MP_HTS_ENQ: "mt_hts",
    SC_DEQ: "st",
    MC_RTS_DEQ: "mt_rts",
    MC_HTS_DEQ: "mt_hts",
}


def ring_init(count: int, flags: int, p: Platform) -> tuple[RingState, list[Rejection]]:
    """``rte_ring_init`` on the zeroed memzone (v22.11:lib/ring/rte_ring.c:172-236), with the states
    ``rte_ring_create_elem`` leaves when it fails (its result is ignored, rte_ring.c:288-290)."""
    fn = "rte_ring_init"
    if flags & ~RING_F_MASK:
        return RingState(0, 0, 0, "mt", "mt", False), [
            Rejection(
                None,
                f"flags {flags:#x} has bits outside RING_F_MASK {RING_F_MASK:#x}: rte_ring_init refuses them but "
                "rte_ring_create ignores that and returns a ring left zeroed (no name, size 0)",
                fn,
                f"{_SRC}:196-201,288-290",
            )
        ]
    prod, cons = flags & (SP_ENQ | MP_RTS_ENQ | MP_HTS_ENQ), flags & (SC_DEQ | MC_RTS_DEQ | MC_HTS_DEQ)
    if prod not in _SYNC or cons not in _SYNC:
        # get_sync_type sets the producer's mode before it checks the consumer's (rte_ring.c:135-167)
        side = "producer" if prod not in _SYNC else "consumer"
        return RingState(0, 0, 0, _SYNC.get(prod, "mt") if side == "consumer" else "mt", "mt", False), [
            Rejection(
                None,
                f"flags {flags:#x} ask for two {side} sync modes: get_sync_type refuses them but rte_ring_create "
                "returns the ring with size 0 and no sync mode set",
                fn,
                f"{_SRC}:126-170,208-211,288-290",
            )
        ]
    if flags & EXACT_SZ:
        size = align32pow2(count + 1)
        state = RingState(size, (size - 1) & U32_MAX, count, _SYNC[prod], _SYNC[cons], True)
    else:
        state = RingState(count, (count - 1) & U32_MAX, (count - 1) & U32_MAX, _SYNC[prod], _SYNC[cons], True)
    if state.size == 0:
        return state, [
            Rejection(
                None,
                f"a ring of size 0: mask and capacity are {state.mask:#x}, so the ring takes enqueues into no slot",
                "rte_ring_create_elem",
                f"{_SRC}:59-61,213-227 (POWEROF2(0) holds)",
            )
        ]
    return state, []


def ring_parts(
    name: str,
    count: int,
    p: Platform,
    esize: int = 8,
    flags: int = 0,
    role: str = "ring",
    fn: str = "rte_ring_create_elem",
) -> tuple[Parts, RingState | None]:
    """``rte_ring_create_elem(name, esize, count, socket, flags)``: the tailq entry and the
    ``RG_<name>`` memzone, or DPDK's refusal (nothing left reserved)."""
    parts = Parts()
    slots = align32pow2(count + 1) if flags & EXACT_SZ else count
    size, err = memsize_elem(esize, slots, p)
    if err is not None:
        parts.errors.append(err)
        return parts, None
    assert size is not None
    zone = RING_MZ_PREFIX + name
    if name_bytes(name) + len(RING_MZ_PREFIX) >= p.release.memzone_namesize:
        parts.errors.append(
            Rejection(
                "ENAMETOOLONG",
                f"memzone name {zone!r} is {name_bytes(zone)} bytes; the limit is {p.release.memzone_namesize - 1}",
                fn,
                f"{_SRC}:265-270",
            )
        )
        return parts, None
    parts.allocations.append(Allocation("RING_TAILQ_ENTRY", p.release.tailq_entry_size, "tailq entry"))
    guard = p.release.ring_guard_lines
    parts.zones.append(
        Memzone(
            zone,
            memzone_len(size, p),
            f"{role}: struct rte_ring {p.sizeof_ring} B + {slots:,} x "
            f"{esize} B, cache aligned" + (f" + {guard} guard line" if guard else ""),
        )
    )
    state, hazards = ring_init(count, flags, p)
    parts.errors += hazards
    return parts, state


def size(name: str, count: int, esize: int, flags: int, p: Platform) -> Result:
    """``rte_ring_create_elem(name, esize, count, SOCKET_ID_ANY, flags)``."""
    check_u32((count, "count"), (esize, "esize"), (flags, "flags"))
    parts, state = ring_parts(name, count, p, esize, flags)
    details: dict[str, object] = {"esize": esize, "ring_flags": RING_FLAGS.names(flags)}
    if state is not None:
        details.update(
            size=state.size,
            mask=state.mask,
            capacity=state.capacity,
            prod_sync=state.prod,
            cons_sync=state.cons,
            memsize=parts.zones[0].len,
        )
        # rte_ring_set_{prod,cons}_htd_max(r, capacity / 8), only once rte_ring_init got that far (rte_ring.c:229-233)
        if state.prod == "mt_rts":
            details["prod_htd_max"] = state.capacity // HTD_MAX_DEF if state.initialised else 0
        if state.cons == "mt_rts":
            details["cons_htd_max"] = state.capacity // HTD_MAX_DEF if state.initialised else 0
    return finish("ring", flags, p, parts, details)


def _resolve(a: Mapping[str, Any]) -> Resolved:
    return Resolved({"name": a["name"], "count": a["count"], "esize": a["esize"]}, {})


def _build(a: Mapping[str, Any], extra: Mapping[str, Any], flags: int, p: Platform) -> Result:
    return size(a["name"], a["count"], a["esize"], flags, p)


RING = ObjectDecl(
    name="ring",
    summary="An rte_ring_create() / rte_ring_create_elem() ring: the RG_<name> memzone and its tailq entry.",
    params=(
        Param(
            "count",
            "count",
            "Ring size (a power of two; with exact_sz any count, rounded up to the next power "
            "of two above it); required unless --fit.",
            short="-n",
            needed=True,
        ),
        Param(
            "esize",
            "size",
            "Element size in bytes (a multiple of 4; rte_ring_create uses 8).",
            default=8,
            show_default=True,
        ),
        Param("name", "text", "Ring name (memzone RG_<name>).", default="ring", show_default=True),
        Param(
            "flags",
            "flags",
            "Ring flags: sp_enq, sc_deq, exact_sz, mp_rts_enq, mc_rts_deq, mp_hts_enq, "
            "mc_hts_deq, RING_F_* names, a mask (0x14), none, or all (with and without exact_sz).",
            default=[0],
            show_default="none",
            vocabulary=RING_FLAGS,
        ),
    ),
    build=_build,
    resolve=_resolve,
    fit={"count": 1 << 30},
    zone_prefix="RG_",
    own_zones=True,
)
