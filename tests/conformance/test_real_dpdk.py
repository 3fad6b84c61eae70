"""mpcalc against the real DPDK library, byte for byte (tests/conformance/README.md)."""

from __future__ import annotations

import contextlib

import pytest

from mpcalc.dpdk.objects.mempool import calc_obj_size

from . import grid
from .oracle import Probe, can_reserve_hugepages, hugepages

GRID_SIZE = 1200


def test_platform_matches_the_facts(probes):
    plat = probes[(4, 1)].platform
    p = grid.platform_for(plat, 4, 1, plat["page_size"])
    sizes = plat["sizeof"]
    assert sizes["rte_mempool"] == p.sizeof_mempool
    assert sizes["rte_mempool_cache"] == p.sizeof_mempool_cache()
    assert sizes["rte_ring"] == p.sizeof_ring
    assert sizes["rte_mempool_objhdr"] == p.objhdr_size
    assert sizes["rte_mempool_memhdr"] == p.release.memhdr_size
    assert plat["mempool_cache_max_size"] == p.release.cache_max_size


@pytest.mark.slow  # ~30 s: 1,200 pools through the probe
def test_randomized_grid(probes):
    """At least 1,000 pools and RIBs over every flag, channels 1-8 and ranks 1-4, on 4 KiB pages."""
    cases = grid.cases(GRID_SIZE)
    failures, rejected = grid.run_grid(cases, lambda c, r: contextlib.nullcontext(probes[(c, r)]), grid.platform_for)
    assert not failures, f"{len(failures)} of {len(cases)} differ:\n" + "\n".join(failures[:20])
    # the grid must exercise both sides
    assert 50 < rejected < len(cases) // 2


@pytest.mark.parametrize(
    "elt,flags",
    [
        (e, f)
        for e in (0, 1, 8, 40, 56, 64, 1000, 2304, 65535, 0xFFFFFFC0, 0xFFFFFFF0, 0xFFFFFFF9)
        for f in (0, 1, 2, 3)
    ],
)
def test_calc_obj_size(probes, elt, flags):
    """rte_mempool_calc_obj_size itself, including its uint32 wrap-around (no NO_SPREAD implication)."""
    probe = probes[(4, 1)]
    p = grid.platform_for(probe.platform, 4, 1, 4096)
    reply = probe.run(f"calc {elt} {flags}")
    assert calc_obj_size(elt, flags, p).to_dict() == reply["objsz"]


def test_calc_mem_size_for_every_page_size(probes):
    """The page maths for 4K, 64K, 2M and 1G pages against rte_mempool_op_calc_mem_size_default."""
    probe = probes[(4, 1)]
    p = grid.platform_for(probe.platform, 4, 1, 4096)
    cases = grid.memsize_cases(400)
    replies = probe.run_many([f"memsize {e} {f} {n} {s}" for e, f, n, s in cases])
    bad = [
        (c, r["mem_size"], grid.expected_mem_size(*c, p))
        for c, r in zip(cases, replies, strict=True)
        if r["mem_size"] != grid.expected_mem_size(*c, p)
    ]
    assert not bad, bad[:10]


def test_real_2m_hugepages(probe_binary):
    """Pools on real 2 MiB hugepages (root reserves them and restores the machine afterwards)."""
    assert can_reserve_hugepages(), "root must be able to reserve 2 MiB hugepages for this test"
    cases = [c for c in grid.cases(300, seed=grid.SEED + 2) if c.kind == "pool"][:60]
    with hugepages(256) as (huge_dir, free):
        assert free >= 200
        # IOVA as VA keeps every objects memzone one IOVA-contiguous chunk, so one memhdr each
        with Probe(
            probe_binary, hugepages=True, huge_dir=huge_dir, nchannel=4, nrank=1, extra_eal_args=["--iova-mode=va"]
        ) as probe:
            assert probe.platform["page_size"] == 2 * 2**20
            p = grid.platform_for(probe.platform, 4, 1, 2 * 2**20)
            replies = probe.run_many([c.command() for c in cases])
    failures = [f"{c}: {d}" for c, r in zip(cases, replies, strict=True) if (d := grid.mismatches(c, c.compute(p), r))]
    assert not failures, "\n".join(failures[:20])


def _compare(probe, cases) -> list[str]:
    p = grid.platform_for(probe.platform, 4, 1, probe.platform["page_size"])
    replies = probe.run_many([c.command() for c in cases])
    return [f"{c}: {d}" for c, r in zip(cases, replies, strict=True) if (d := grid.mismatches(c, c.compute(p), r))]


def test_fib_and_fib6(probes):
    """rte_fib_create / rte_fib6_create: RIB memzones, every data-plane allocation (heap) and rejections."""
    failures = _compare(probes[(4, 1)], grid.fib_cases(160))
    assert not failures, "\n".join(failures[:20])


def test_mbuf_pools(probes):
    """rte_pktmbuf_pool_create over data rooms, private sizes and caches."""
    failures = _compare(probes[(4, 1)], grid.mbuf_cases(250))
    assert not failures, "\n".join(failures[:20])
