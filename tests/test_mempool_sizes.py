"""PoolCalc.sizes: every field of the PoolSizes it returns, on every path (rejected by a check, the leaked
header of a long name, a stack or ring driver created or refused), is what its name says: two fields
swapped where a PoolSizes is made fail here; and the memo keys are one function each."""

from __future__ import annotations

from operator import attrgetter

from hypothesis import given, settings
from hypothesis import strategies as st

from mpcalc.dpdk.core import heap
from mpcalc.dpdk.core.flags import MempoolFlag, effective_flags
from mpcalc.dpdk.core.intmath import align32pow2
from mpcalc.dpdk.core.platform import Platform
from mpcalc.dpdk.core.records import HeaderLayout, ObjSize, Rejection
from mpcalc.dpdk.objects.mempool.create import PoolSizes, header_key, objsz_key, pool_calc
from mpcalc.dpdk.objects.mempool.layout import calc_mem_size
from mpcalc.dpdk.objects.mempool.ops import STACK_OPS

#: the types each field may hold
TYPES: dict[str, tuple[type, ...]] = {
    "eff": (int,),
    "objsz": (ObjSize,),
    "header": (HeaderLayout, type(None)),
    "header_len": (int, type(None)),
    "slots": (int, type(None)),
    "ring_len": (int, type(None)),
    "objs_len": (int, type(None)),
    "pg_shift": (int,),
    "errors": (tuple,),
    "leaked": (bool,),
    "total_bytes": (int,),
    "heap_bytes": (int,),
    "object_size": (int, type(None)),
    "driver_zone": (str,),
}


def check(s: PoolSizes, p: Platform, name: str, count: int, elt_size: int, cache: int, flags: int, ops: str) -> None:
    calc = pool_calc(p)
    assert set(TYPES) == set(PoolSizes._fields)
    for field, types in TYPES.items():
        value = getattr(s, field)
        assert type(value) in types, (field, value)
    assert all(isinstance(e, Rejection) for e in s.errors)
    assert s.eff == effective_flags(flags)
    objsz, _ = calc.obj_size(elt_size, s.eff)
    assert s.objsz == objsz
    assert s.object_size == (objsz.total_size or None if s.header is None else objsz.total_size)
    stack = ops in STACK_OPS
    # the stack's zone once the driver is reached: past the checks and the name's copy
    assert s.driver_zone == ("stack" if stack and s.header is not None and not s.leaked else "ring")
    if s.header is None:  # refused by rte_mempool_create_empty's checks: nothing reserved
        assert s.errors and (s.header_len, s.slots, s.ring_len, s.objs_len) == (None,) * 4
        assert (s.pg_shift, s.leaked, s.total_bytes, s.heap_bytes) == (0, False, 0, 0)
        return
    header, header_len, header_heap = calc.header(cache, 0, "pointer")
    assert (s.header, s.header_len) == (header, header_len)
    if not s.created:
        assert (s.slots, s.ring_len, s.objs_len, s.pg_shift) == (None, None, None, 0)
        assert s.total_bytes == (header_len if s.leaked else 0)
        assert s.heap_bytes == (header_heap if s.leaked else 0)
        assert s.leaked == (len(name.encode()) >= p.release.mempool_namesize)
        return
    assert not s.leaked
    assert s.pg_shift == (0 if s.eff & MempoolFlag.NO_IOVA_CONTIG else p.pg_shift)
    assert s.objs_len == heap.memzone_len(calc_mem_size(objsz.total_size, count, s.pg_shift), p)
    if stack:
        assert s.slots is None and s.driver_zone == "stack"
    else:
        assert s.slots == align32pow2(count + 1) and s.driver_zone == "ring"
        assert s.ring_len == calc.ring(s.slots)[0]
    lens = [length for _, length in s.zones()]
    assert s.total_bytes == sum(lens) + calc.allocations_bytes
    assert s.heap_bytes == sum(calc.heap_cost(length) for length in lens) + calc.allocations_heap


@settings(max_examples=300, deadline=None)
@given(
    name=st.sampled_from(["p", "x" * 25, "y" * 27, "z" * 30, "é" * 12]),
    count=st.sampled_from([0, 1, 1000, 8191, (1 << 30) - 1, 1 << 30, 1 << 31]),
    elt_size=st.sampled_from([0, 1, 40, 2304, 1 << 20, (1 << 32) - 8]),
    cache=st.sampled_from([0, 256, 512, 1024]),
    flags=st.sampled_from([0, 0x1, 0x2, 0x10, 0x20, 0x13, 0x40]),
    ops=st.sampled_from(["", "stack", "lf_stack", "ring_mp_mc"]),
    page_size=st.sampled_from([4096, 2 << 20, 0]),
)
def test_every_field_of_pool_sizes_is_what_its_name_says(name, count, elt_size, cache, flags, ops, page_size):
    p = Platform(page_size=page_size)
    s = pool_calc(p).sizes(name, count, elt_size, cache, 0, flags, "pointer", ops)
    check(s, p, name, count, elt_size, cache, flags, ops)


def test_every_path_is_drawn():
    """The draws above reach each way sizes returns."""
    p = Platform()
    calc = pool_calc(p)
    paths = {
        "refused": calc.sizes("p", 1000, 40, 1024),
        "leaked": calc.sizes("y" * 27, 1000, 40),
        "stack": calc.sizes("p", 1000, 40, ops="stack"),
        "stack refused": calc.sizes("x" * 25, 1000, 40, ops="stack"),
        "ring": calc.sizes("p", 1000, 40),
        "ring refused": calc.sizes("p", 1 << 30, 40),
    }
    assert paths["refused"].header is None
    assert paths["leaked"].leaked
    assert paths["stack"].created and paths["stack"].driver_zone == "stack"
    assert not paths["stack refused"].created and paths["stack refused"].errors
    assert paths["ring"].created and paths["ring"].slots == 1024
    assert not paths["ring refused"].created and not paths["ring refused"].leaked
    for label, s in paths.items():
        ops = "stack" if label.startswith("stack") else ""
        name = "y" * 27 if label == "leaked" else "x" * 25 if label == "stack refused" else "p"
        count = 1 << 30 if label == "ring refused" else 1000
        check(s, p, name, count, 40, 1024 if label == "refused" else 0, 0, ops)


def test_the_memo_keys_are_one_function_each():
    calc = pool_calc(Platform())
    calc.obj_size(41, 0)
    assert objsz_key(41, 0) == objsz_key(48, 0) in calc._objsz
    calc.header(256, 10, "pointer")
    assert header_key(256, 10, "pointer", calc.align) == header_key(1, 64, "pointer", calc.align) in calc._headers


def test_platform_from_is_by_key_whatever_the_order_of_the_declared_params(monkeypatch):
    """Reordering the platform's Params (channels before ranks or after) gives the same platform."""
    from mpcalc.dpdk.core import platform as platform_module

    args = {"channels": 2, "ranks": 3, "page_size": 4096, "max_lcore": 16}
    plain = platform_module.make_platform(channels=2, ranks=3, page_size=4096, max_lcore=16)
    for order in (reversed, lambda params: sorted(params, key=attrgetter("key"))):
        params = tuple(order(platform_module.PLATFORM_PARAMS))
        monkeypatch.setattr(platform_module, "PLATFORM_PARAMS", params)
        monkeypatch.setattr(platform_module, "PLATFORM_KEYS", tuple(p.key for p in params))
        monkeypatch.setattr(platform_module, "_BY_ITEMS", {})
        got = platform_module.platform_from(args)
        assert (got.channels, got.ranks, got.page_size, got.max_lcore) == (2, 3, 4096, 16)
        assert got == plain
