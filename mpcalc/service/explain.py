"""``--explain``: the derivation of every figure, step by step, and the savings on the table.

Pure: no click, no rich.  Each step names the DPDK function it reproduces.
"""

from __future__ import annotations

from collections.abc import Callable

from mpcalc.dpdk.core.flags import VALID_USER_FLAGS, MempoolFlag, flag_names, flags_label
from mpcalc.dpdk.core.intmath import align32pow2, ceil_a, u32
from mpcalc.dpdk.core.platform import Platform
from mpcalc.dpdk.core.records import Mempool, Result
from mpcalc.dpdk.core.units import iec, page_label
from mpcalc.dpdk.objects.mempool import arch_mem_object_align, calc_mem_size, header_size, objects_per_page


def _lines(n: int) -> str:
    return f"{n} cache line" + ("s" if n != 1 else "")


def object_steps(mp: Mempool, p: Platform) -> list[str]:
    """rte_mempool_calc_obj_size and arch_mem_object_align, with the intermediate values."""
    if mp.objsz is None:
        return []
    f, ma, o = mp.effective_flags, p.mempool_align, mp.objsz
    steps = [
        f"rte_mempool_calc_obj_size: flags {flags_label(flag_names(f & VALID_USER_FLAGS), prose=True)}"
        + (
            " (create_empty adds no_spread to no_cache_align)"
            if mp.flags & MempoolFlag.NO_CACHE_ALIGN and not mp.flags & MempoolFlag.NO_SPREAD
            else ""
        )
    ]
    hdr = p.objhdr_size
    if f & MempoolFlag.NO_CACHE_ALIGN:
        steps.append(f"  header: struct rte_mempool_objhdr {hdr} B, not aligned (no_cache_align) = {o.header_size} B")
    else:
        steps.append(
            f"  header: struct rte_mempool_objhdr {hdr} B rounded up to RTE_MEMPOOL_ALIGN {ma} = {o.header_size} B"
        )
    steps.append(f"  element: {mp.elt_size:,} B rounded up to 8 = {o.elt_size:,} B")
    tlr = p.objtlr_size
    base = u32(o.header_size + o.elt_size + tlr)
    padded = base
    if not f & MempoolFlag.NO_CACHE_ALIGN:
        padded = u32(ceil_a(base, ma))
        steps.append(
            f"  trailer: {o.header_size} + {o.elt_size:,}"
            + (f" + cookie {tlr}" if tlr else "")
            + f" = {base:,} B, padded to a multiple of {ma}: {padded:,} B"
        )
    if not f & MempoolFlag.NO_SPREAD and p.spreads:
        start = u32(padded + ma - 1) // ma
        lines = arch_mem_object_align(padded, p) // ma
        if lines == start:
            steps.append(
                f"arch_mem_object_align: {_lines(start)} share no factor with {p.channels} channels x "
                f"{p.ranks} ranks: {o.total_size:,} B"
            )
        else:
            steps.append(
                f"arch_mem_object_align: {_lines(start)} share a factor with {p.channels} channels x "
                f"{p.ranks} ranks -> {_lines(lines)} = {o.total_size:,} B"
            )
    elif not f & MempoolFlag.NO_SPREAD:
        steps.append(f"arch_mem_object_align: no spreading on {p.arch}")
    steps.append(
        f"  object: header {o.header_size} + elt {o.elt_size:,} + trailer {o.trailer_size:,} = "
        f"total_size {o.total_size:,} B ({o.elt_size * 100 // max(o.total_size, 1)}% payload)"
    )
    return steps


def pool_steps(mp: Mempool, p: Platform) -> list[str]:
    steps = object_steps(mp, p)
    h = mp.header
    mz = {m.role: m for m in mp.memzones}
    if "stack" in mz:  # a stack / lf_stack driver: its memzone in the ring's place
        mz["ring"] = mz["stack"]
    if h is None or mp.objsz is None or not {"header", "ring", "objects"} <= set(mz):
        # rejected before populating: only what DPDK left reserved (a leaked header memzone) is shown
        steps += [f"{m.name} len {m.len:,} stays reserved (leaked)" for m in mp.memzones if m.leaked]
        return steps
    caches = (
        f" + {p.max_lcore} lcores (RTE_MAX_LCORE) x struct rte_mempool_cache {h.cache_struct:,} B"
        if h.caches
        else " (cache_size 0: no per-lcore caches)"
    )
    steps.append(
        f"rte_mempool_create_empty: struct rte_mempool {h.mempool_struct} B{caches} + private "
        f"{h.private_data} B = {header_size(h, p):,} B -> memzone {mz['header'].name} "
        f"len {mz['header'].len:,}"
    )
    slots = align32pow2(mp.count + 1)
    if mz["ring"].role == "stack":
        from mpcalc.dpdk.objects.mempool.ops import stack_steps

        steps.append(stack_steps(mp, mz["ring"], p))
    else:
        steps.append(
            f"ring_alloc: rte_align32pow2(n + 1 = {mp.count + 1:,}) = {slots:,} slots; "
            f"rte_ring_get_memsize_elem: {p.sizeof_ring} + 8 x {slots:,}"
            + (f" + {p.release.ring_guard_lines} guard line" if p.release.ring_guard_lines else "")
            + f" -> {mz['ring'].name} len {mz['ring'].len:,}"
        )
    pg_shift = 0 if mp.effective_flags & MempoolFlag.NO_IOVA_CONTIG else p.pg_shift
    t = mp.objsz.total_size
    mem = calc_mem_size(t, mp.count, pg_shift)
    if pg_shift == 0:
        why = "no_iova_contig" if p.page_size else "--page-size none"
        steps.append(
            f"rte_mempool_op_calc_mem_size_helper: no page constraint ({why}): {mp.count:,} x {t:,} = "
            f"{mem:,} B -> {mz['objects'].name} len {mz['objects'].len:,}"
        )
    else:
        opp = objects_per_page(t, pg_shift) or 0
        if opp:
            last = (mp.count - 1) % opp + 1
            full = (mp.count - last) // opp
            steps.append(
                f"rte_mempool_op_calc_mem_size_helper: a {page_label(1 << pg_shift)} page holds {opp:,} "
                f"objects of {t:,} B; {full:,} full pages + {last:,} in the last + {t - 1:,} (start "
                f"margin) = {mem:,} B -> {mz['objects'].name} len {mz['objects'].len:,}"
            )
        else:
            steps.append(
                f"rte_mempool_op_calc_mem_size_helper: a {t:,}-byte object is larger than a "
                f"{page_label(1 << pg_shift)} page: {mp.count:,} x {ceil_a(t, 1 << pg_shift):,} = {mem:,} B"
                f" -> {mz['objects'].name} len {mz['objects'].len:,}"
            )
    return steps


def steps(result: Result, p: Platform) -> list[str]:
    out: list[str] = []
    for mp in result.mempools:
        out += pool_steps(mp, p)
    for z in result.zones:  # a ring's or a hash's own memzones
        out.append(f"memzone {z.name}: len {z.len:,} ({z.role})")
    for a in result.allocations:
        out.append(f"rte_malloc {a.name}: {a.size:,} B ({a.role})")
    out.append(
        f"malloc heap: every memzone and allocation + struct malloc_elem {p.malloc_elem_header} B, "
        f"rounded to {p.cache_line} = heap_bytes {result.heap_bytes:,}"
    )
    for e in result.errors:
        out.append(f"{e.function} ({e.source}): {e.errno or 'hazard'}: {e.reason}")
    return out


def savings(result: Result, variants: dict[str, Callable[[], Result]]) -> list[dict[str, object]]:
    """Each variant's total against this result, largest saving first (rejected variants left out)."""
    base = result.total_bytes
    rows = []
    for label, make in variants.items():
        other = make()
        if other.errors or other.total_bytes >= base:
            continue
        saved = base - other.total_bytes
        rows.append(
            {
                "change": label,
                "total_bytes": other.total_bytes,
                "saves": saved,
                "saves_percent": round(100 * saved / base, 1) if base else 0.0,
                "saves_iec": iec(saved),
            }
        )
    return sorted(rows, key=lambda r: -int(r["saves"]))  # type: ignore[call-overload]
