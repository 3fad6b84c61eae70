"""Mempool drivers (``rte_mempool_set_ops_byname``): the ring ops and the stack ops.

The ring drivers (drivers/mempool/ring/rte_mempool_ring.c) all create one ring of
``rte_align32pow2(n + 1)`` pointers named ``RG_MP_<name>``; they differ only in the ring's sync
flags (v22.11:drivers/mempool/ring/rte_mempool_ring.c:80-136): ``ring_sp_sc``, ``ring_mp_sc`` and
``ring_sp_mc`` take SP/SC from the *pool's* flags (common_ring_alloc), so a pool given the
``ring_sp_sc`` ops without RTE_MEMPOOL_F_SP_PUT|SC_GET gets an MP/MC ring that the ops then drive
with single-producer/consumer calls; ``ring_mt_rts`` and ``ring_mt_hts`` ask for RTS and HTS.

The stack drivers (v22.11:drivers/mempool/stack/rte_mempool_stack.c:9-40) create an rte_stack of
``n`` entries named ``MP_<name>`` (memzone ``STK_MP_<name>``) with ``rte_stack_create``
(v22.11:lib/stack/rte_stack.c:47-127): no power-of-two rounding, no 2^30 limit.
"""

from typing import TYPE_CHECKING, NamedTuple

from mpcalc.dpdk.core import heap
from mpcalc.dpdk.core.errors import Rejection
from mpcalc.dpdk.core.facts import version_key
from mpcalc.dpdk.core.intmath import U32_MAX, ceil_a
from mpcalc.dpdk.core.platform import Platform

if TYPE_CHECKING:
    from mpcalc.dpdk.core.records import Mempool, Memzone

#: every driver ``--ops`` takes; the first is rte_mbuf_best_mempool_ops()'s default
#: (RTE_MBUF_DEFAULT_MEMPOOL_OPS, v22.11:config/rte_config.h:62)
OPS = ("ring_mp_mc", "ring_sp_sc", "ring_mp_sc", "ring_sp_mc", "ring_mt_rts", "ring_mt_hts", "stack", "lf_stack")
STACK_OPS = frozenset({"stack", "lf_stack"})
#: RTE_STACK_NAMESIZE = RTE_MEMZONE_NAMESIZE - sizeof("STK_") + 1 (v22.11:lib/stack/rte_stack.h:30-31)
STACK_NAMESIZE = 28
#: the architectures with RTE_STACK_LF_SUPPORTED (v22.11:lib/stack/rte_stack_lf.h:8-20), identical to 26.07
LF_ARCHES = frozenset({"x86_64", "arm64"})
#: sizeof(struct rte_stack) in cache lines: the name line, then the union whose rte_stack_lf has
#: ``used``, ``free`` and ``elems`` on cache lines of their own (v22.11:lib/stack/rte_stack.h:52-87)
STACK_STRUCT_LINES = 3
#: sizeof(struct rte_stack_lf_elem): data and next pointers (v22.11:lib/stack/rte_stack.h:33-36)
LF_ELEM_SIZE = 16


def stack_guard_lines(p: Platform) -> int:
    """Lines rte_stack_{std,lf}_get_memsize add after the table: 2 up to 25.11
    (v22.11:lib/stack/rte_stack_std.c:19-23), RTE_CACHE_GUARD_LINES (1) in 26.07
    (v26.07:lib/stack/rte_stack_std.c:23)."""
    return 2 if version_key(p.dpdk) < (26, 7) else 1


def stack_memsize(count: int, lf: bool, p: Platform) -> int:
    """``rte_stack_get_memsize``: ``rte_stack_std_get_memsize`` (pointers) or ``rte_stack_lf_get_memsize``
    (list elements), a ssize_t (v22.11:lib/stack/rte_stack_std.c:12-24, rte_stack_lf.c:19-31).

    >>> stack_memsize(1000, False, Platform()), stack_memsize(1000, True, Platform())
    (8320, 16320)
    """
    line = p.cache_line
    return STACK_STRUCT_LINES * line + ceil_a(count * (LF_ELEM_SIZE if lf else 8), line) + stack_guard_lines(p) * line


class DriverZone(NamedTuple):
    """The driver's memzone (length and heap cost), or the error that fails the pool's population."""

    len: int
    heap: int
    error: Rejection | None
    hazards: tuple[Rejection, ...]


def stack_zone(name_bytes: int, count: int, lf: bool, p: Platform) -> DriverZone:
    """``stack_alloc`` / ``lf_stack_alloc``: ``rte_stack_create("MP_<name>", n, socket, flags)``."""
    fn = "lf_stack_alloc" if lf else "stack_alloc"
    if name_bytes + 3 >= STACK_NAMESIZE:
        return DriverZone(
            0,
            0,
            Rejection(
                "ENAMETOOLONG",
                f"the stack name MP_<name> is {name_bytes + 3} bytes; RTE_STACK_NAMESIZE allows "
                f"{STACK_NAMESIZE - 1} (a pool name of {name_bytes} bytes is fine for the ring drivers)",
                fn,
                "v22.11:drivers/mempool/stack/rte_mempool_stack.c:15-21",
            ),
            (),
        )
    if lf and p.arch not in LF_ARCHES:
        return DriverZone(
            0,
            0,
            Rejection(
                "ENOTSUP",
                f"the lock-free stack exists on x86_64 and arm64 only, not {p.arch}",
                "rte_stack_create",
                "v22.11:lib/stack/rte_stack.c:66-72, rte_stack_lf.h:8-20",
            ),
            (),
        )
    size = stack_memsize(count, lf, p)
    hazards: tuple[Rejection, ...] = ()
    if size > U32_MAX:
        hazards = (
            Rejection(
                None,
                f"the stack needs {size:,} bytes but rte_stack_create keeps the size in an unsigned "
                f"int: it reserves {size & U32_MAX:,} and the stack overruns its memzone",
                "rte_stack_create",
                "v22.11:lib/stack/rte_stack.c:55,74,92",
            ),
        )
    length = heap.memzone_len(size & U32_MAX, p)
    return DriverZone(length, heap.heap_cost(length, p), None, hazards)


def stack_steps(mp: "Mempool", zone: "Memzone", p: Platform) -> str:
    """``--explain``'s line for a stack driver's memzone."""
    lf = mp.ops_name == "lf_stack"
    elem = f"{LF_ELEM_SIZE} B list elements" if lf else "8 B pointers"
    return (
        f"{'lf_stack_alloc' if lf else 'stack_alloc'}: rte_stack_create(MP_{mp.name}, n {mp.count:,}); "
        f"rte_stack_{'lf' if lf else 'std'}_get_memsize: struct rte_stack {STACK_STRUCT_LINES * p.cache_line} B + "
        f"{mp.count:,} x {elem}, cache aligned, + {stack_guard_lines(p)} guard lines -> {zone.name} "
        f"len {zone.len:,}"
    )
