"""The mempool model (rte_mempool_create) against DPDK facts.

Each figure is DPDK's own, measured on real builds (R: tests/conformance/ reproduces them against the real
library) or with sizeof/offsetof (Z); the comments name the DPDK function each reproduces.  Figures derived by
hand carry the arithmetic in a comment.  Default platform: DPDK 22.11, x86-64, CL = MA = 64, RTE_MAX_LCORE 128,
nchan 4, nrank 1.
"""

from __future__ import annotations

import pytest

from mpcalc import api
from mpcalc.dpdk.core.errors import InputError
from mpcalc.dpdk.core.flags import MempoolFlag, effective_flags
from mpcalc.dpdk.core.heap import heap_cost, memzone_len
from mpcalc.dpdk.core.platform import Platform, make_platform
from mpcalc.dpdk.objects.mempool import (
    PoolSpec,
    arch_mem_object_align,
    calc_mem_size,
    calc_obj_size,
    header_layout,
    header_size,
)
from mpcalc.dpdk.objects.ring import ring_memsize

NS = MempoolFlag.NO_SPREAD
NCA = MempoolFlag.NO_CACHE_ALIGN
NIC = MempoolFlag.NO_IOVA_CONTIG
RIB_PATCH = int(NCA | NS | NIC)  # the flags the RIB node-pool patch proposes

P2M = make_platform()  # default page size 2M
P4K = make_platform(page_size=4096)  # --no-huge
PNONE = make_platform(page_size=0)


def pool(n=8191, elt=2304, cache=250, priv=8, flags=0, name="mbuf_pool", p=P4K, layout="pointer"):
    return api.pool(
        PoolSpec(
            name=name, count=n, elt_size=elt, cache_size=cache, private_size=priv, flags=flags, cache_layout=layout
        ),
        p,
    )


def mz(result, role):
    (m,) = [m for m in result.memzones if m.role == role]
    return m


def errnos(result):
    return [e.errno for e in result.errors]


# --- rte_mempool_calc_obj_size calc_obj_size: "Verified examples (x86-64, CL=MA=64, nchan=4, nrank=1; R and M)" -------

OBJ_TABLE = [
    # elt, flags 0, NO_SPREAD, NO_CACHE_ALIGN (direct call), NO_CACHE_ALIGN|NO_SPREAD, DEBUG flags 0
    (0, 64, 64, 64, 24, 192),
    (1, 192, 128, 64, 32, 192),
    (8, 192, 128, 64, 32, 192),
    (40, 192, 128, 64, 64, 192),  # rte_rib_node
    (56, 192, 128, 192, 80, 192),  # rte_rib6_node
    (64, 192, 128, 192, 88, 192),
    (1000, 1088, 1088, 1088, 1024, None),
    (2304, 2368, 2368, 2368, 2328, 2496),  # default mbuf
]


@pytest.mark.parametrize(("elt", "f0", "ns", "nca", "nca_ns", "debug"), OBJ_TABLE)
def test_calc_obj_size_verified_table(elt, f0, ns, nca, nca_ns, debug):
    p = Platform()
    assert calc_obj_size(elt, 0, p).total_size == f0
    assert calc_obj_size(elt, NS, p).total_size == ns
    assert calc_obj_size(elt, NCA, p).total_size == nca
    assert calc_obj_size(elt, NCA | NS, p).total_size == nca_ns
    if debug is not None:
        assert calc_obj_size(elt, 0, make_platform(debug=True)).total_size == debug


@pytest.mark.parametrize(("elt", "f0", "ns", "nca", "nca_ns", "debug"), OBJ_TABLE)
def test_pool_uses_the_no_spread_implication(elt, f0, ns, nca, nca_ns, debug):
    # create_empty adds NO_SPREAD to NO_CACHE_ALIGN before calc_obj_size (v22.11:rte_mempool.c:854-858):
    # a pool created with NO_CACHE_ALIGN lays out the NCA|NS column, not the direct-call NCA one.
    r = api.pool(PoolSpec(name="p", count=100, elt_size=elt, flags=int(NCA)), PNONE)
    assert r.ok
    assert r.mempools[0].objsz.total_size == nca_ns


def test_calc_obj_size_parts():
    o = calc_obj_size(40, 0, Platform())
    # header 24 -> 64 (MA), elt 40, trailer pads 104 to 128 then spreading adds a 3rd line
    assert (o.header_size, o.elt_size, o.trailer_size, o.total_size) == (64, 40, 88, 192)
    o = calc_obj_size(41, NCA | NS, Platform())
    # elt always rounds to 8 (v22.11:rte_mempool.c:236), even with NO_CACHE_ALIGN
    assert (o.header_size, o.elt_size, o.trailer_size, o.total_size) == (24, 48, 0, 72)


def test_other_platforms_without_spreading():
    # rte_mempool_calc_obj_size "Other platforms": arm64 generic (MA=128, no spreading): rib node -> 256, 2304 -> 2432;
    # cn10k (CL 64, MA 128)
    # gives the same.  Only x86-64 is in facts.ARCHES, so build the platforms by hand.
    for p in (
        Platform(cache_line=128, mempool_align=128, spreads=False, max_lcore=256),
        Platform(cache_line=64, mempool_align=128, spreads=False, max_lcore=24),
    ):
        assert calc_obj_size(40, 0, p).total_size == 256
        assert calc_obj_size(2304, 0, p).total_size == 2432


def test_uint32_wrap_to_zero_is_einval():
    # rte_mempool_calc_obj_size "uint32 overflow": elt 0xFFFFFFC0 with NO_SPREAD wraps total to 0, and create_empty
    # rejects total == 0
    r = api.pool(PoolSpec(name="p", count=1, elt_size=0xFFFFFFC0, flags=int(NS)), PNONE)
    assert errnos(r) == ["EINVAL"]
    assert r.memzones == ()


@pytest.mark.parametrize("elt", [0xFFFFFFC0, 0xFFFFFFF0])
def test_uint32_wrap_to_64_is_a_hazard(elt):
    # rte_mempool_calc_obj_size: 0xFFFFFFC0 and 0xFFFFFFF0 with flags 0 give total 64: DPDK accepts them and builds a
    # broken pool
    r = api.pool(PoolSpec(name="p", count=1, elt_size=elt), PNONE)
    assert r.mempools[0].objsz.total_size == 64
    assert errnos(r) == [None]


def test_uint32_wrap_through_trailer_padding_is_a_hazard():
    # 64 + 0xFFFFFFB8 = 2^32 - 8; padding to 64 adds 8 and wraps to 0; spreading then makes it 64 bytes.
    r = api.pool(PoolSpec(name="p", count=1, elt_size=0xFFFFFFB8), PNONE)
    assert r.mempools[0].objsz.total_size == 64
    assert errnos(r) == [None]


def test_no_wrap_with_no_cache_align_is_not_a_hazard():
    # NCA|NS: 24 + 0xFFFFFFD0 = 0xFFFFFFE8 fits in uint32: no wrap, no hazard
    r = api.pool(PoolSpec(name="p", count=1, elt_size=0xFFFFFFD0, flags=int(NCA)), PNONE)
    assert r.mempools[0].objsz.total_size == 0xFFFFFFE8
    assert r.errors == ()


# --- arch_mem_object_align: channels/ranks (v22.11:rte_mempool.c:55-117) -------------------------------------------


@pytest.mark.parametrize(
    ("channels", "ranks", "rib_node"),
    [
        (
            4,
            1,
            192,
        ),  # the default: 104 B -> 2 lines; gcd(2, 4) = 2 -> 3 lines = 192 (rte_mempool_calc_obj_size, rte_rib_create)
        (1, 1, 128),  # product 1: no padding, 2 lines = 128
        (3, 1, 128),  # gcd(2, 3) = 1: 2 lines stay, 128
        (2, 1, 192),  # gcd(2, 2) = 2 -> 3 lines: 192
        (5, 1, 128),  # gcd(2, 5) = 1
        (4, 2, 192),  # product 8: gcd(2, 8) = 2 -> gcd(3, 8) = 1: 192
        (3, 2, 320),  # product 6: 2 -> 3 (gcd 3) -> 4 (gcd 2) -> 5 (gcd 1): 5 lines = 320
        (6, 1, 320),  # same product as 3 x 2
        (1, 16, 192),  # product 16: 2 -> 3
    ],
)
def test_rib_node_spread_by_channels_and_ranks(channels, ranks, rib_node):
    p = make_platform(channels=channels, ranks=ranks, page_size=4096)
    assert calc_obj_size(40, 0, p).total_size == rib_node
    r = api.rib("rib", 1000, 0, 0, 4, p)
    assert r.mempools[0].objsz.total_size == rib_node


def test_mbuf_spreading_with_37_channels():
    # 2368 = 37 lines: odd, so 4 channels keep it; -n 37 makes gcd(37, 37) = 37 -> 38 lines = 2432
    assert calc_obj_size(2304, 0, make_platform()).total_size == 2368
    assert calc_obj_size(2304, 0, make_platform(channels=37)).total_size == 2432
    assert calc_obj_size(2304, 0, make_platform(channels=74)).total_size == 2496  # 38 is even: -> 39 lines
    assert calc_obj_size(2304, NS, make_platform(channels=37)).total_size == 2368


def test_arch_mem_object_align_direct():
    assert arch_mem_object_align(128, Platform()) == 192
    assert arch_mem_object_align(128, Platform(channels=1)) == 128
    assert arch_mem_object_align(192, Platform()) == 192
    assert arch_mem_object_align(0, Platform()) == 64  # gcd(0, 4) = 4 -> 1 line
    assert arch_mem_object_align(128, Platform(spreads=False)) == 128


# --- rte_mempool_create: the 8191-object mbuf-like pool (n=8191, elt=2304, cache=250, priv=8) -------------------------


def test_mbuf_pool_header_memzone():
    # rte_mempool_calc_obj_size: 192 + 128 x 8256 = 1,056,960; private 8 -> 64 gives 1,057,024 (R, every tag)
    r = pool()
    assert mz(r, "header").name == "MP_mbuf_pool"
    assert mz(r, "header").len == 1_057_024
    h = r.mempools[0].header
    assert (h.mempool_struct, h.cache_struct, h.caches, h.private_data) == (192, 8256, 128 * 8256, 64)


def test_mbuf_pool_ring_memzone():
    # rte_ring_get_memsize: pow2ceil32(8192) = 8192 slots; 384 + 8 x 8192 = 65,920; the ring is RG_MP_<name>
    r = pool()
    assert mz(r, "ring").name == "RG_MP_mbuf_pool"
    assert mz(r, "ring").len == 65_920
    assert r.mempools[0].ring_size == 8192


@pytest.mark.parametrize(
    ("p", "flags", "length"),
    [
        (P4K, 0, 33_550_976),  # one 2368-byte object per 4 KiB page
        (P2M, 0, 19_411_904),  # 885 per page: 9 full pages + 226 x 2368 + 2367
        (P4K, int(NIC), 19_396_288),  # NO_IOVA_CONTIG: 8191 x 2368, no page padding
        (P2M, int(NIC), 19_396_288),
        (PNONE, 0, 19_396_288),
    ],
)
def test_mbuf_pool_objects_memzone(p, flags, length):
    r = pool(p=p, flags=flags)
    assert r.ok
    assert mz(r, "objects").name == "MP_mbuf_pool_0"
    assert mz(r, "objects").len == length


def test_mbuf_pool_heap_on_4k_pages():
    # malloc_elem: e(1,057,024) + e(24) + e(24) + e(65,920) + e(33,550,976) + e(56) = 34,674,880, e(x) = 128 + ceil64(x)
    r = pool()
    assert r.heap_bytes == 34_674_880
    assert r.total_bytes == 1_057_024 + 65_920 + 33_550_976 + 24 + 24 + 56
    assert r.hugepages == -(-34_674_880 // 4096)
    assert [a.size for a in r.mempools[0].allocations] == [24, 24, 56]


def test_mbuf_pool_objects_per_page():
    assert pool(p=P4K).mempools[0].objs_per_page == 1
    assert pool(p=P2M).mempools[0].objs_per_page == 885
    assert pool(p=P2M, flags=int(NIC)).mempools[0].objs_per_page is None


def test_calc_mem_size_helper():
    # rte_mempool_op_calc_mem_size_default and the docstring: 2 MiB: 9 x 2 MiB + 226 x 2368 + 2367 = 19,411,903
    assert calc_mem_size(2368, 8191, 21) == 9 * 2**21 + 226 * 2368 + 2367 == 19_411_903
    assert calc_mem_size(2368, 8191, 12) == 33_550_975
    assert calc_mem_size(2368, 8191, 0) == 8191 * 2368
    # objects larger than a page are charged ceil_a(T, page) each (rte_mempool_op_calc_mem_size_default: 9408-byte jumbo
    # -> 12,288 on 4K)
    assert calc_mem_size(9408, 10, 12) == 12_288 * 10
    assert calc_mem_size(0, 10, 12) == 0


def test_header_without_cache():
    # cache_size 0: no per-lcore caches; 192 B header memzone (rte_rib_create "MP_MP_<name> (192 B: cache 0, priv 0)")
    r = pool(cache=0, priv=0)
    assert mz(r, "header").len == 192
    assert r.mempools[0].header.caches == 0


def test_header_scales_with_max_lcore_and_cache_line():
    # MEMPOOL_HEADER_SIZE: HEADER_SIZE(cs>0) = 2,113,728 for LCORE 256; 1,065,216 for CL 128 / LCORE 128
    h = header_layout(1, 0, make_platform(max_lcore=256))
    assert header_size(h, make_platform(max_lcore=256)) == 2_113_728
    p128 = make_platform(cache_line=128)
    h = header_layout(1, 0, p128)
    assert (h.mempool_struct, h.cache_struct) == (256, 8320)
    assert header_size(h, p128) == 1_065_216
    assert p128.sizeof_ring == 768


def test_index_cache_layout_halves_the_slots():
    # 4-byte slots: 64 + 512 x 2 x 4 = 4,160 per lcore
    r = pool(layout="index")
    assert r.mempools[0].header.cache_struct == 4160
    assert mz(r, "header").len == 192 + 128 * 4160 + 64


# --- rte_ring_get_memsize ring doubling -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("n", "slots", "ring_len"),
    [
        (1, 2, 384 + 16),  # 400 -> rounded to CL below
        (8191, 8192, 65_920),
        (8192, 16384, 131_456),  # n = 2^k doubles the ring
        (1000, 1024, 8_576),  # rte_rib_create: max_nodes = 1000 gives ring 8,576
        (2**30 - 1, 2**30, 384 + 8 * 2**30),
    ],
)
def test_ring_slots(n, slots, ring_len):
    r = pool(n=n, cache=0, priv=0, p=PNONE)
    assert r.ok
    assert r.mempools[0].ring_size == slots
    assert mz(r, "ring").len == memzone_len(ring_len, PNONE)
    assert ring_memsize(slots, PNONE) == -(-ring_len // 64) * 64


# --- rte_mempool_create_empty rejections ------------------------------------------------------------------------------


def test_n_zero_is_einval():
    r = pool(n=0, cache=0)
    assert errnos(r) == ["EINVAL"]
    assert r.memzones == () and r.total_bytes == 0 and r.heap_bytes == 0


def test_cache_above_max_is_einval():
    assert errnos(pool(n=10_000, cache=513)) == ["EINVAL"]
    assert pool(n=10_000, cache=512).ok


def test_cache_flush_threshold_rule():
    # <= v25.11: floor(1.5 x cache) must not exceed n.  n=100: 67 -> 100 ok; 68 -> 102 EINVAL; 100 EINVAL
    # (rte_mempool_create_empty)
    assert pool(n=100, cache=67).ok
    assert errnos(pool(n=100, cache=68)) == ["EINVAL"]
    assert errnos(pool(n=100, cache=100)) == ["EINVAL"]
    assert pool(n=768, cache=512).ok
    assert errnos(pool(n=767, cache=512)) == ["EINVAL"]


@pytest.mark.parametrize("flags", [0x40, 0x10, 0x80, 0x2F | 0x40])
def test_non_user_flags_are_einval(flags):
    # RTE_MEMPOOL_VALID_USER_FLAGS = 0x2f (v22.11:rte_mempool.c:845-848)
    r = pool(flags=flags)
    assert errnos(r) == ["EINVAL"]
    assert "not user flags" in r.errors[0].reason


@pytest.mark.parametrize("flags", [0, 0x1, 0x2, 0x4, 0x8, 0x20, 0x2F])
def test_user_flags_are_accepted(flags):
    assert pool(flags=flags).ok


def test_name_of_25_is_ok():
    r = pool(name="n" * 25)
    assert r.ok
    assert [m.name for m in r.memzones] == ["MP_" + "n" * 25, "RG_MP_" + "n" * 25, "MP_" + "n" * 25 + "_0"]


@pytest.mark.parametrize("length", [26, 27, 28])
def test_name_of_26_to_28_leaks_the_header_memzone(length):
    # "MP_"+name fits the 32-byte memzone name, strlcpy into name[26] fails after the reserve (rte_mempool_create_empty
    # "Leak")
    r = pool(name="n" * length)
    assert errnos(r) == ["ENAMETOOLONG"]
    (leaked,) = r.memzones
    assert leaked.name == "MP_" + "n" * length
    assert leaked.leaked
    assert leaked.len == 1_057_024
    assert r.total_bytes == 1_057_024
    assert r.heap_bytes == heap_cost(1_057_024, P4K)
    assert "leaks" in r.errors[0].reason


@pytest.mark.parametrize("length", [29, 30, 64])
def test_name_of_29_or_more_fails_without_leak(length):
    r = pool(name="n" * length)
    assert errnos(r) == ["ENAMETOOLONG"]
    assert r.memzones == ()
    assert r.total_bytes == 0


def test_n_two_to_the_30_is_einval_from_the_ring():
    # pow2ceil32(2^30 + 1) = 2^31 > RTE_RING_SZ_MASK (v22.11:lib/ring/rte_ring.c:59-64)
    r = pool(n=2**30, cache=0, p=PNONE)
    assert errnos(r) == ["EINVAL"]
    assert r.errors[0].function == "rte_ring_get_memsize_elem"
    assert r.memzones == ()


def test_n_above_2_to_the_31_wraps_the_ring():
    # n + 1 > 2^31: rte_align32pow2 wraps to 0; DPDK creates a ring with no slots (a hazard, no errno)
    r = pool(n=2**31, cache=0, elt=8, p=PNONE)
    assert r.mempools[0].ring_size == 0
    assert None in errnos(r)


def test_engine_rejects_values_beyond_uint32():
    with pytest.raises(InputError):
        pool(n=2**32)
    with pytest.raises(InputError):
        pool(elt=-1)
    with pytest.raises(InputError):
        api.pool(PoolSpec(name="p", count=1, elt_size=1, cache_layout="bogus"), P4K)


# --- rte_rib_create RIB / RIB6 ----------------------------------------------------------------------------------------


def rib(routes=None, nodes=None, family=4, flags=0, ext=0, name="rib", p=P4K):
    max_nodes = api.rib_max_nodes(routes) if routes is not None else nodes
    return api.rib(name, max_nodes, ext, flags, family, p)


def test_rib_1mi_routes_default_flags():
    # 2 x 2^20 nodes of 192 B on 4K pages (21 per page):
    # 99,864 full pages x 4096 + 16 x 192 + 191 = 409,044,671 -> 409,044,672
    r = rib(routes=2**20)
    assert r.ok
    assert r.mempools[0].objsz.total_size == 192
    assert mz(r, "objects").len == 409_044_672
    assert [m.name for m in r.memzones] == ["MP_MP_rib", "RG_MP_MP_rib", "MP_MP_rib_0"]
    assert r.details == {"max_nodes": 2**21, "node_size": 40, "ext_size": 0}


def test_rib_1mi_routes_with_patch_flags():
    # no_cache_align,no_spread,no_iova_contig: 24 + 40 = 64-byte nodes, 2^21 x 64 = 128 MiB
    r = rib(routes=2**20, flags=RIB_PATCH)
    assert r.mempools[0].objsz.total_size == 64
    assert mz(r, "objects").len == 134_217_728


def test_rib6_1mi_routes_with_patch_flags():
    # 24 + 56 = 80-byte nodes, 2^21 x 80 = 167,772,160
    r = rib(routes=2**20, family=6, flags=RIB_PATCH, name="rib6")
    assert r.kind == "rib6"
    assert r.mempools[0].objsz.total_size == 80
    assert mz(r, "objects").len == 167_772_160
    assert r.details["node_size"] == 56


def test_rib6_default_node_is_192():
    assert rib(routes=1000, family=6).mempools[0].objsz.total_size == 192


def test_rib_1000_nodes_memzones():
    # rte_rib_create: max_nodes=1000 on 4 KiB pages: ring 8,576 and objects 195,200
    r = rib(nodes=1000)
    assert mz(r, "header").len == 192
    assert mz(r, "ring").len == 8_576
    assert mz(r, "objects").len == 195_200


def test_rib_allocations():
    # te = rte_zmalloc(24); rib = rte_zmalloc_socket("RIB_"+name, 96) (v22.11:rte_rib.c:438,447-448)
    r = rib(nodes=1000, name="r4")
    assert [(a.name, a.size) for a in r.allocations] == [("RIB_TAILQ_ENTRY", 24), ("RIB_r4", 96)]
    r6 = rib(nodes=1000, name="r6", family=6)
    assert [(a.name, a.size) for a in r6.allocations] == [("RIB6_TAILQ_ENTRY", 24), ("RIB6_r6", 96)]


def test_rib_heap_matches_fib_dummy_measurement():
    # rte_fib_create (DUMMY): FIB DUMMY with max_routes=1000 (2000 nodes) measured heap 409,088 on 4K pages; that is the
    # RIB plus
    # e(24) for the FIB tailq entry and e(112) for struct rte_fib: 409,088 - 192 - 256 = 408,640
    assert rib(routes=1000).heap_bytes == 408_640


def test_rib_ext_size():
    # rte_rib_create: ext_sz up to 64: 40 + 64 = 104 -> 192
    assert rib(nodes=1000, ext=64).mempools[0].objsz.total_size == 192
    assert rib(nodes=1000, ext=64).mempools[0].elt_size == 104


@pytest.mark.parametrize(
    ("length", "ok", "leak"), [(22, True, False), (23, False, True), (25, False, True), (26, False, False)]
)
def test_rib_name_limit(length, ok, leak):
    # rte_rib_create / rte_memzone_reserve's name: the pool is MP_<name>, so a RIB name may have 22 chars; 23-25 leak
    # MP_MP_<name>
    r = rib(nodes=1000, name="r" * length)
    assert r.ok is ok
    if not ok:
        assert errnos(r) == ["ENAMETOOLONG"]
        assert r.allocations == ()
    assert any(m.leaked for m in r.memzones) is leak


def test_rib_routes_overflow_the_int():
    # max_nodes = max_routes * 2 in a C int (v22.11:lib/fib/rte_fib.c:165-166)
    assert api.rib_max_nodes(2**30 - 1) == 2**31 - 2
    assert api.rib_max_nodes(2**30) == -(2**31)
    r = rib(routes=2**30)
    assert errnos(r) == ["EINVAL"]
    assert "overflowed" in r.errors[0].reason
    assert r.mempools == () and r.total_bytes == 0


def test_rib_zero_nodes_is_einval():
    assert errnos(rib(nodes=0)) == ["EINVAL"]


def test_rib_too_many_nodes_for_the_ring():
    # 2^29 routes -> 2^30 nodes -> the ring needs 2^31 slots: EINVAL
    assert errnos(rib(routes=2**29)) == ["EINVAL"]
    assert rib(routes=2**29 - 1, p=PNONE, flags=RIB_PATCH).ok


def test_rib_node_on_other_platforms():
    # rte_rib_create: 192 on x86, 256 on arm64 generic (MA 128, no spreading)
    arm = Platform(cache_line=128, mempool_align=128, spreads=False, max_lcore=256, page_size=4096)
    assert rib(nodes=1000, p=arm).mempools[0].objsz.total_size == 256


# --- flags as the engine records them ----------------------------------------------------------------------------


def test_effective_and_mp_flags():
    r = pool(flags=int(NCA))
    mp = r.mempools[0]
    assert mp.effective_flags == effective_flags(int(NCA))
    assert r.to_dict()["effective_flags"] == ["no_spread", "no_cache_align"]
    # POOL_CREATED is set; NON_IO is cleared when the pool is IOVA-contiguous (v22.11:rte_mempool.c:369-371)
    assert mp.mp_flags == int(NCA | NS | MempoolFlag.POOL_CREATED)
    nic = pool(flags=int(NIC)).mempools[0]
    assert nic.mp_flags == int(NIC | MempoolFlag.POOL_CREATED | MempoolFlag.NON_IO)


@pytest.mark.parametrize(
    ("flags", "ops"), [(0, "ring_mp_mc"), (0x4, "ring_sp_mc"), (0x8, "ring_mp_sc"), (0xC, "ring_sp_sc")]
)
def test_ops_name(flags, ops):
    assert pool(flags=flags).mempools[0].ops_name == ops


def test_effective_flags_of_a_rib_rejected_before_its_pool():
    r = rib(nodes=0, flags=int(NCA))
    assert r.to_dict()["effective_flags"] == ["no_spread", "no_cache_align"]


# --- EAL accounting (malloc_elem) -------------------------------------------------------------------------------------


@pytest.mark.parametrize(("req", "length"), [(0, 64), (1, 64), (24, 64), (64, 64), (65, 128), (1_057_024, 1_057_024)])
def test_memzone_len(req, length):
    assert memzone_len(req, Platform()) == length


@pytest.mark.parametrize(("size", "cost"), [(24, 192), (56, 192), (96, 256), (112, 256), (1_057_024, 1_057_152)])
def test_heap_cost(size, cost):
    assert heap_cost(size, Platform()) == cost
