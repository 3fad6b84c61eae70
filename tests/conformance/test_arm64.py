"""mpcalc against the real DPDK on arm64: Debian's libdpdk-dev:arm64 (22.11, generic armv8 build).

scripts/arm64-sysroot.sh unpacks the arm64 packages into a sysroot (tests/conformance/.build/, git-ignored);
the probe is cross-compiled against it with aarch64-linux-gnu-gcc and runs under qemu-aarch64-static
with the same EAL options as the x86 suite.  Nothing here skips: a missing sysroot, compiler or qemu
fails the tests with the reason.  The grids are the x86 suite's own (grid.py), smaller: emulation.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator

import pytest

from mpcalc.dpdk.core.platform import Platform, make_platform
from mpcalc.dpdk.objects.mempool import calc_obj_size

from . import grid
from .oracle import Probe, arm64_probe_factory

GRID_SIZE = 600
FIB_CASES = 160
MBUF_CASES = 250
MEMSIZE_CASES = 400
EM_AARCH64 = 183


def arm64_platform(probe_platform: dict, channels: int, ranks: int, page_size: int) -> Platform:
    assert probe_platform["cache_line"] == 128 and probe_platform["max_lcore"] == 256
    assert probe_platform["mempool_align"] == 128
    assert (probe_platform["nchannel"], probe_platform["nrank"]) == (channels, ranks)
    return make_platform(arch="arm64", channels=channels, ranks=ranks, page_size=page_size)


@pytest.fixture(scope="session")
def arm64():
    """``arm64(**Probe kwargs)`` starts a cross-built probe under qemu-aarch64-static."""
    return arm64_probe_factory()


@pytest.fixture(scope="session")
def arm64_probe(arm64) -> Iterator[Probe]:
    probe = arm64(nchannel=4, nrank=1)
    yield probe
    with contextlib.suppress(Exception):
        probe.close()


def test_the_probe_is_an_arm64_binary(arm64):
    header = arm64.binary.read_bytes()[:20]
    assert header[:4] == b"\x7fELF" and header[4] == 2  # ELFCLASS64
    assert int.from_bytes(header[18:20], "little") == EM_AARCH64


def test_arm64_platform_matches_the_facts(arm64_probe):
    plat = arm64_probe.platform
    assert plat["version"].startswith("DPDK 22.11")
    # qemu-user reports the host's page size to the guest; --no-huge pools use it
    assert plat["page_size"] == plat["sys_page_size"] == os.sysconf("SC_PAGE_SIZE")
    assert plat["has_hugepages"] == 0
    p = arm64_platform(plat, 4, 1, plat["page_size"])
    sizes = plat["sizeof"]
    assert (sizes["rte_mempool"], sizes["rte_mempool_cache"], sizes["rte_ring"]) == (256, 8320, 768)
    assert sizes["rte_mempool"] == p.sizeof_mempool
    assert sizes["rte_mempool_cache"] == p.sizeof_mempool_cache()
    assert sizes["rte_ring"] == p.sizeof_ring
    assert sizes["rte_mempool_objhdr"] == p.objhdr_size
    assert sizes["rte_mempool_memhdr"] == p.release.memhdr_size
    assert sizes["rte_mbuf"] == p.release.mbuf_size
    assert plat["mempool_cache_max_size"] == p.release.cache_max_size


def test_a_rib_node_costs_256_bytes(arm64_probe):
    """The headline: a 40-byte RIB node takes 256 B on arm64 generic (128 header + 128 line), not x86's 192."""
    p = arm64_platform(arm64_probe.platform, 4, 1, arm64_probe.platform["page_size"])
    reply = arm64_probe.run(f"calc {p.release.rib_node_size} 0")
    assert reply["objsz"] == {"header_size": 128, "elt_size": 40, "trailer_size": 88, "total_size": 256}
    nodes = 64_000  # a multiple of the 16 objects a 4 KiB page holds
    case = grid.Case("rib", "arm64_rib", nodes, 0, 0, 0, 0, 4, 1)
    result = case.compute(p)
    reply = arm64_probe.run(case.command())
    assert reply["ok"]
    assert result.mempools[0].objsz.total_size == 256
    assert not grid.mismatches(case, result, reply)
    objects = {m["name"]: m["len"] for m in reply["memzones"]}["MP_MP_arm64_rib_0"]
    assert nodes * 256 <= objects < (nodes + 2) * 256


#: object sizes where x86 adds a spreading line under -n 4 (so -n would matter if arm64 spread)
SPREAD_SENSITIVE = [(40, 0), (56, 0), (100, 0), (1000, 0), (2304, 0), (9000, 0), (200, 0x20), (40, 0x8)]


def test_channels_and_ranks_have_no_effect(arm64):
    """EAL -n/-r reach rte_memory_get_nchannel(), but objects spread only on x86: identical pools."""
    x86 = [make_platform(channels=n, ranks=r, page_size=4096) for n, r in ((1, 1), (4, 1), (8, 4))]
    assert any(len({calc_obj_size(e, 0, p).total_size for p in x86}) > 1 for e, _ in SPREAD_SENSITIVE)
    cmds = [f"pool sp{i} 1000 {elt} 0 0 {flags:#x}" for i, (elt, flags) in enumerate(SPREAD_SENSITIVE)]
    cmds += ["rib sprib 5000 0", "rib6 sprib6 5000 8", "mbuf spmbuf 2047 32 0 2176"]
    seen = {}
    for channels, ranks in ((1, 1), (4, 1), (8, 4)):
        with arm64(nchannel=channels, nrank=ranks) as probe:
            assert (probe.platform["nchannel"], probe.platform["nrank"]) == (channels, ranks)
            replies = probe.run_many(cmds)
        assert all(r["ok"] for r in replies), replies
        seen[(channels, ranks)] = [
            {k: r.get(k) for k in ("objsz", "memzones", "heap_delta", "chunk_lens", "populated_size")} for r in replies
        ]
    first = seen[(1, 1)]
    for key, replies in seen.items():
        assert replies == first, f"-n/-r {key} changed the pools"


@pytest.mark.slow  # ~30 s: 600 pools through the qemu-user probe
def test_arm64_randomized_grid(arm64):
    """The x86 suite's pool/RIB grid (its first cases, channels 1-8 and ranks 1-4) on arm64, 4 KiB pages."""
    cases = grid.cases(GRID_SIZE)
    # one EAL per (-n, -r), closed after its group: memory stays low under emulation
    failures, rejected = grid.run_grid(cases, lambda c, r: arm64(nchannel=c, nrank=r), arm64_platform)
    assert not failures, f"{len(failures)} of {len(cases)} differ:\n" + "\n".join(failures[:20])
    assert 10 < rejected < len(cases) // 2


def test_arm64_calc_obj_size(arm64_probe):
    """rte_mempool_calc_obj_size with 128-byte lines, uint32 wrap-around included."""
    p = arm64_platform(arm64_probe.platform, 4, 1, 4096)
    pairs = [
        (e, f)
        for e in (0, 1, 8, 40, 56, 64, 128, 129, 1000, 2304, 65535, 0xFFFFFF80, 0xFFFFFFC0, 0xFFFFFFF0, 0xFFFFFFF9)
        for f in (0, 1, 2, 3)
    ]
    replies = arm64_probe.run_many([f"calc {e} {f}" for e, f in pairs])
    bad = [
        (e, f, calc_obj_size(e, f, p).to_dict(), r["objsz"])
        for (e, f), r in zip(pairs, replies, strict=True)
        if calc_obj_size(e, f, p).to_dict() != r["objsz"]
    ]
    assert not bad, bad[:10]


def test_arm64_calc_mem_size(arm64_probe):
    """The page maths (4K, 64K, 2M, 1G pages) with arm64's object sizes."""
    p = arm64_platform(arm64_probe.platform, 4, 1, 4096)
    cases = grid.memsize_cases(MEMSIZE_CASES)
    replies = arm64_probe.run_many([f"memsize {e} {f} {n} {s}" for e, f, n, s in cases])
    bad = [
        (c, r["mem_size"], grid.expected_mem_size(*c, p))
        for c, r in zip(cases, replies, strict=True)
        if r["mem_size"] != grid.expected_mem_size(*c, p)
    ]
    assert not bad, bad[:10]


def _compare(probe: Probe, cases) -> list[str]:
    p = arm64_platform(probe.platform, 4, 1, probe.platform["page_size"])
    replies = probe.run_many([c.command() for c in cases])
    return [f"{c}: {d}" for c, r in zip(cases, replies, strict=True) if (d := grid.mismatches(c, c.compute(p), r))]


def test_arm64_fib_and_fib6(arm64_probe):
    """rte_fib_create / rte_fib6_create on arm64: RIB memzones, data-plane allocations, rejections."""
    failures = _compare(arm64_probe, grid.fib_cases(FIB_CASES))
    assert not failures, "\n".join(failures[:20])


def test_arm64_mbuf_pools(arm64_probe):
    """rte_pktmbuf_pool_create on arm64 (128-byte lines: headroom and mbuf header alignment)."""
    failures = _compare(arm64_probe, grid.mbuf_cases(MBUF_CASES))
    assert not failures, "\n".join(failures[:20])
