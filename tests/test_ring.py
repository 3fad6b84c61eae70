"""rte_ring and the mempool drivers (--ops): figures measured on the real DPDK 22.11 (x86_64 and arm64 under
qemu, tests/conformance/test_tables_real.py) and the per-release rules read in DPDK's source."""

from __future__ import annotations

import pytest

from mpcalc.dpdk.core.platform import make_platform
from mpcalc.dpdk.objects import ring
from mpcalc.dpdk.objects.mempool import PoolSpec
from mpcalc.dpdk.objects.mempool import size as pool_size
from mpcalc.dpdk.objects.mempool.ops import stack_memsize
from mpcalc.dpdk.objects.objflags import HASH_FLAGS, RING_FLAGS

X86 = make_platform()
ARM = make_platform(arch="arm64")


def test_a_1024_slot_ring_as_measured():
    r = ring.size("r1", 1024, 8, 0, X86)
    assert [(m.name, m.len) for m in r.memzones] == [("RG_r1", 8576)]
    assert [(a.name, a.size) for a in r.allocations] == [("RING_TAILQ_ENTRY", 24)]
    assert (r.total_bytes, r.heap_bytes, r.ok) == (8600, 8896, True)
    assert (r.details["size"], r.details["mask"], r.details["capacity"]) == (1024, 1023, 1023)


def test_exact_size_rounds_count_plus_one_up():
    r = ring.size("r2", 1000, 8, RING_FLAGS.parse("exact_sz"), X86)
    assert (r.details["size"], r.details["capacity"], r.memzones[0].len) == (1024, 1000, 8576)
    r = ring.size("r2", 1024, 8, RING_FLAGS.parse("exact_sz"), X86)
    assert (r.details["size"], r.details["capacity"]) == (2048, 1024)


@pytest.mark.parametrize(
    "count,flags,errno",
    [
        (1000, 0, "EINVAL"),  # not a power of two
        (1 << 31, 0, "EINVAL"),  # above RTE_RING_SZ_MASK
        ((1 << 30), 0x4, "EINVAL"),  # exact: 2^31 slots
    ],
)
def test_refused(count, flags, errno):
    r = ring.size("r", count, 8, flags, X86)
    assert [e.errno for e in r.errors] == [errno] and not r.memzones and r.total_bytes == 0


def test_esize_must_be_a_multiple_of_4_but_0_is():
    assert ring.size("r", 16, 6, 0, X86).errors[0].errno == "EINVAL"
    r = ring.size("r", 1024, 0, 0, X86)
    assert r.ok and r.memzones[0].len == 384  # the struct alone


def test_names_up_to_28_bytes():
    assert ring.size("a" * 28, 16, 8, 0, X86).ok
    assert ring.size("a" * 29, 16, 8, 0, X86).errors[0].errno == "ENAMETOOLONG"


def test_count_0_is_a_broken_ring_until_25_11():
    r = ring.size("r", 0, 8, 0, X86)
    assert r.memzones and [e.errno for e in r.errors] == [None]
    assert (r.details["size"], r.details["mask"], r.details["capacity"]) == (0, 0xFFFFFFFF, 0xFFFFFFFF)
    later = ring.size("r", 0, 8, 0, make_platform(dpdk="25.11"))
    assert [e.errno for e in later.errors] == ["EINVAL"] and not later.memzones


def test_flags_rte_ring_init_refuses_leave_a_created_but_broken_ring():
    for flags in (0x80, SP := 0x1 | 0x8):  # an unknown bit; two producer modes
        r = ring.size("r", 1024, 8, flags, X86)
        assert r.memzones[0].len == 8576 and [e.errno for e in r.errors] == [None]
        assert r.details["size"] == 0
    assert SP == 9


def test_exact_size_past_2_31_wraps_to_a_ring_of_size_0():
    r = ring.size("r", 2**32 - 1, 8, 0x4, X86)
    assert r.memzones[0].len == 384 and r.details["capacity"] == 2**32 - 1 and r.errors[0].errno is None


def test_cache_line_and_the_26_07_guard():
    assert ring.size("r", 1024, 8, 0, ARM).memzones[0].len == 768 + 8192
    assert ring.size("r", 1024, 8, 0, make_platform(dpdk="26.07")).memzones[0].len == 8576 + 64


def test_rts_head_tail_distance():
    r = ring.size("r", 1024, 8, RING_FLAGS.parse("mp_rts_enq,mc_rts_deq"), X86)
    assert (r.details["prod_sync"], r.details["prod_htd_max"], r.details["cons_htd_max"]) == ("mt_rts", 127, 127)


def test_flag_vocabularies():
    assert RING_FLAGS.parse("RING_F_SP_ENQ|sc_deq") == 3 and RING_FLAGS.names(0x14) == ["exact_sz", "mc_rts_deq"]
    assert HASH_FLAGS.parse("ext_table,RTE_HASH_EXTRA_FLAGS_RW_CONCURRENCY_LF") == 0x28
    assert 0x24 not in HASH_FLAGS.combinations()


def test_ring_command(run_json):
    code, doc = run_json("ring", "-n", "1000", "--flags", "exact_sz,sp_enq")
    r = doc["results"][0]
    assert code == 0 and r["flags"] == ["sp_enq", "exact_sz"] and r["memzones"][0]["name"] == "RG_ring"
    code, doc = run_json("ring", "-n", "1000", "--flags", "all")
    assert code == 1 and [x["flags"] for x in doc["results"]] == [[], ["exact_sz"]]


# --- mempool drivers --------------------------------------------------------------------------------------


def test_stack_memsize_as_measured():
    assert stack_memsize(1000, False, X86) == 8320 and stack_memsize(1000, True, X86) == 16320
    assert stack_memsize(1000, False, make_platform(dpdk="26.07")) == 8320 - 64


@pytest.mark.parametrize(
    "ops,zone,length", [("ring_mt_rts", "RG_MP_p", 8576), ("stack", "STK_MP_p", 8320), ("lf_stack", "STK_MP_p", 16320)]
)
def test_pool_with_a_driver(ops, zone, length):
    r = pool_size(PoolSpec(name="p", count=1000, elt_size=64, ops=ops), X86)
    mp = r.mempools[0]
    assert mp.ops_name == ops and [(m.name, m.len) for m in mp.memzones][1] == (zone, length)
    assert ("STACK_TAILQ_ENTRY" in [a.name for a in mp.allocations]) == ops.endswith("stack")


def test_stack_pools_have_no_ring_limit_but_a_shorter_name():
    n = (1 << 29) - 100  # the largest stacks whose size still fits the unsigned int rte_stack_create keeps
    big = pool_size(PoolSpec(name="p", count=n, elt_size=8, ops="stack"), X86)
    assert big.ok and big.mempools[0].memzones[1].len == stack_memsize(n, False, X86) < 1 << 32
    huge = pool_size(PoolSpec(name="p", count=1 << 30, elt_size=8, ops="stack"), X86)
    assert [e.errno for e in huge.errors] == [None]  # accepted, and its stack overruns its memzone
    assert pool_size(PoolSpec(name="p", count=1 << 30, elt_size=8), X86).errors[0].errno == "EINVAL"
    name = "n" * 25
    assert pool_size(PoolSpec(name=name, count=100, elt_size=8), X86).ok
    stack = pool_size(PoolSpec(name=name, count=100, elt_size=8, ops="stack"), X86)
    assert [e.errno for e in stack.errors] == ["ENAMETOOLONG"] and not stack.memzones


def test_lf_stack_only_on_x86_and_arm64():
    for arch, ok in (("x86_64", True), ("arm64", True), ("ppc64le", False), ("riscv64", False)):
        r = pool_size(PoolSpec(name="p", count=100, elt_size=8, ops="lf_stack"), make_platform(arch=arch))
        assert r.ok == ok and (ok or r.errors[0].errno == "ENOTSUP")


def test_a_stack_over_4_gib_is_truncated():
    r = pool_size(PoolSpec(name="p", count=(1 << 28) + 5, elt_size=8, ops="lf_stack"), X86)
    hazard = [e for e in r.errors if e.errno is None]
    assert hazard and "unsigned int" in hazard[0].reason
    assert r.mempools[0].memzones[1].len < 1 << 32


def test_ring_pools_refuse_a_zero_slot_ring_from_25_11():
    old = pool_size(PoolSpec(name="p", count=2**31, elt_size=8), X86)
    assert [e.errno for e in old.errors] == [None]
    new = pool_size(PoolSpec(name="p", count=2**31, elt_size=8), make_platform(dpdk="25.11"))
    assert [e.errno for e in new.errors] == ["EINVAL"]


def test_pool_and_mbuf_ops_options(run_json):
    code, doc = run_json("pool", "-n", "1000", "--elt-size", "64", "--ops", "stack")
    assert code == 0 and doc["input"]["ops"] == "stack"
    assert doc["results"][0]["mempools"][0]["memzones"][1]["name"] == "STK_MP_mp"
    code, doc = run_json("mbuf", "-n", "1000", "--ops", "lf_stack")
    assert code == 0 and doc["results"][0]["mempools"][0]["ops_name"] == "lf_stack"
