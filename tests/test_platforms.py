"""Releases, architectures, named platforms, debug/stats builds and build files.

Expected values are DPDK's (the reference sheet's R/Z measurements and the source at each tag),
not recomputed with mpcalc's own formulas.
"""

from __future__ import annotations

import pytest

from mpcalc import api
from mpcalc.dpdk.core import facts
from mpcalc.dpdk.core.buildconfig import find_installed, parse, read
from mpcalc.dpdk.core.errors import InputError
from mpcalc.dpdk.core.platform import make_platform

KiB4 = 4096


def header_mz(p, cache=256, priv=8):
    r = api.mbuf(api.MbufSpec(name="m", count=8191, cache_size=cache, data_room=2176), p)
    return {m.name: m.len for m in r.memzones}


@pytest.mark.parametrize(
    "table",
    [*facts.RELEASES.values(), *facts.ARCHES.values()],
    ids=lambda t: getattr(t, "version", getattr(t, "name", "")),
)
def test_every_fact_is_cited(table):
    assert facts.uncited(table) == []


@pytest.mark.parametrize(
    "version,header",
    [
        ("21.11", 1_581_312),  # objs[512 * 3] unaligned: 12,352 B a lcore (v21.11:lib/mempool/rte_mempool.h:97)
        ("22.11", 1_057_024),
        ("23.11", 1_057_024),
        ("24.11", 1_057_024),
        ("25.11", 1_057_024),
        ("26.07", 1_057_024),
    ],
)
def test_mbuf_header_memzone_by_release(version, header):
    assert header_mz(make_platform(dpdk=version))["MP_m"] == header


@pytest.mark.parametrize("version,ring", [("22.11", 65_920), ("25.11", 65_920), ("26.07", 65_984)])
def test_ring_guard_line_from_26_07(version, ring):
    # RTE_CACHE_GUARD_LINES added to rte_ring_get_memsize_elem (v26.07:lib/ring/rte_ring.c:78,83-84)
    assert header_mz(make_platform(dpdk=version))["RG_MP_m"] == ring


@pytest.mark.parametrize("version,ok", [("22.11", False), ("25.11", False), ("26.07", True)])
def test_cache_size_rule_changes_in_26_07(version, ok):
    r = api.pool(api.PoolSpec(name="p", count=100, elt_size=8, cache_size=100), make_platform(dpdk=version))
    assert r.ok is ok


@pytest.mark.parametrize(
    "version,dir24,trie",
    [
        # heap of rte_fib_create / rte_fib6_create, 4-byte next hops, num_tbl8 100, max_routes 1000, 4 KiB pages
        ("21.11", 67_650_624, 67_622_336),  # v21.11.9 carries the tbl24 +4 backport
        ("22.11", 67_650_624, 67_622_336),  # Debian 22.11.11, measured by the conformance suite
        ("23.11", 67_650_624, 67_622_336),
        ("24.11", 67_650_624, 67_622_336),
        ("25.11", 67_650_624, 67_622_400),  # rte_trie_tbl grows to 128 B (RCU fields)
        ("26.07", 67_650_688, 67_622_464),  # + the ring guard line
    ],
)
def test_fib_heaps_by_release(version, dir24, trie):
    p = make_platform(dpdk=version, page_size=KiB4)
    for family, expected in ((4, dir24), (6, trie)):
        spec = api.FibSpec(family=family, name="f", max_routes=1000, nh_size=4, num_tbl8=100)
        assert api.fib(spec, 0, p).heap_bytes == expected


@pytest.mark.parametrize(
    "kwargs,node,header",
    [
        (dict(), 192, 1_057_024),
        (dict(arch="arm64"), 256, 2_130_176 + 128),  # CL 128 / 256 lcores: 256 + 256 x 8,320, priv 8 -> 128
        (dict(arch="ppc64le"), 256, 1_065_216 + 128),
        (dict(arch="riscv64"), 128, 1_056_960 + 64),  # no spreading off x86: 64 + 40 -> 128
        (dict(arch="loongarch64"), 128, 192 + 64 * 8_256 + 64),
        # CL 64 but RTE_MEMPOOL_ALIGN 128: 192 + 24 x 8,256 + priv 128 = 198,464, rounded up to MA: 198,528
        (dict(platform="cn10k"), 256, 198_528),
        (dict(platform="znver5", dpdk="24.11"), 192, 6_340_800 + 64),
        (dict(platform="graviton2", dpdk="22.11"), 128, 192 + 160 * 8_256 + 64),
        (dict(platform="graviton2", dpdk="23.11"), 128, 192 + 256 * 8_256 + 64),
    ],
)
def test_platforms(kwargs, node, header):
    p = make_platform(page_size=KiB4, **kwargs)
    rib = api.rib("r", 1000, 0, 0, 4, p)
    assert rib.mempools[0].objsz.total_size == node
    assert header_mz(p)["MP_m"] == header


def test_channels_have_no_effect_off_x86():
    a = make_platform(arch="arm64", channels=1)
    b = make_platform(arch="arm64", channels=3, ranks=2)
    assert api.rib("r", 1000, 0, 0, 4, a).to_dict() == api.rib("r", 1000, 0, 0, 4, b).to_dict()


@pytest.mark.parametrize(
    "version,stats,size",
    [
        ("22.11", True, 16_704),
        ("23.11", True, 24_960),
        ("26.07", True, 24_960),
        ("22.11", False, 192),
    ],
)
def test_stats_builds(version, stats, size):
    assert make_platform(dpdk=version, stats=stats).sizeof_mempool == size


def test_21_11_statistics_come_with_debug():
    assert make_platform(dpdk="21.11", stats=True).sizeof_mempool == 192
    assert make_platform(dpdk="21.11", debug=True).sizeof_mempool == 16_576  # stats[RTE_MAX_LCORE], no +1


def test_debug_build_object_layout():
    # objhdr 32 B with the cookie, objtlr 8 B: a 2304-byte mbuf element takes 2,496 B (reference sheet, R)
    p = make_platform(debug=True)
    r = api.pool(api.PoolSpec(name="p", count=10, elt_size=2304), p)
    assert r.mempools[0].objsz.total_size == 2_496


@pytest.mark.parametrize(
    "kwargs,message",
    [
        (dict(platform="graviton3", dpdk="21.11"), "does not exist in DPDK 21.11"),
        (dict(arch="riscv64", dpdk="21.11"), "no build config for riscv64"),
        (dict(platform="graviton3", arch="x86_64"), "is an arm64 build"),
        (dict(dpdk="20.11"), "unknown DPDK release '20.11'"),
        (dict(platform="m1"), "unknown platform 'm1'"),
    ],
)
def test_platform_errors(kwargs, message):
    with pytest.raises(InputError, match=message):
        make_platform(**kwargs)


def test_sources_say_where_each_value_came_from(tmp_path):
    cfg = tmp_path / "rte_build_config.h"
    cfg.write_text(
        "#define RTE_ARCH aarch64\n#define RTE_CACHE_LINE_SIZE 64\n#define RTE_MAX_LCORE 80\n"
        "#define RTE_MEMPOOL_ALIGN 128\n#define RTE_VER_YEAR 24\n#define RTE_VER_MONTH 11\n"
    )
    p = make_platform(build_config=read(cfg), max_lcore=96)
    sources = dict(p.sources)
    assert (p.dpdk, p.arch, p.cache_line, p.mempool_align, p.max_lcore) == ("24.11", "arm64", 64, 128, 96)
    assert sources["max_lcore"] == "option"
    assert sources["cache_line"] == f"RTE_CACHE_LINE_SIZE 64 ({cfg}:2)"
    assert sources["dpdk"] == f"RTE_VER_YEAR 24, RTE_VER_MONTH 11 ({cfg}:6)"


def test_the_installed_build_config_is_debians_22_11():
    cfg = read(find_installed())
    assert (cfg.dpdk, cfg.arch, cfg.cache_line, cfg.max_lcore) == ("22.11", "x86_64", 64, 128)


@pytest.mark.parametrize(
    "text,message",
    [
        ("#define RTE_ARCH sparc\n", "is not an architecture"),
        ("#define RTE_CACHE_LINE_SIZE big\n", "not a number"),
    ],
)
def test_bad_build_files(text, message):
    with pytest.raises(InputError, match=message):
        parse(text, "x.h")


def test_unreadable_and_binary_build_files(tmp_path):
    with pytest.raises(InputError, match="cannot read"):
        read(tmp_path / "missing.h")
    (tmp_path / "bin.h").write_bytes(b"\0\1\2")
    with pytest.raises(InputError, match="binary"):
        read(tmp_path / "bin.h")
