"""rte_ring, the mempool drivers, rte_lpm, rte_lpm6 and rte_hash on arm64 for real: Debian's libdpdk-dev:arm64
(22.11, generic armv8, 128-byte cache lines, RTE_MAX_LCORE 256) under qemu-aarch64-static, through the
cross-built probe (test_arm64.py's factory).  The grids are the x86 suite's own (tables_grid.py), smaller."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import pytest

from mpcalc.dpdk import ring as dpdk_ring
from mpcalc.dpdk.mempool.drivers import STACK_STRUCT_LINES

from . import tables_grid
from .oracle import Probe, arm64_probe_factory
from .test_arm64 import arm64_platform

RING_CASES = 500
RINGMEMSIZE_CASES = 200
OPS_CASES = 300


@pytest.fixture(scope="module")
def probe() -> Iterator[Probe]:
    started = arm64_probe_factory()(nchannel=4, nrank=1)
    yield started
    with contextlib.suppress(Exception):
        started.close()


def _platform(probe: Probe):  # type: ignore[no-untyped-def]
    return arm64_platform(probe.platform, 4, 1, probe.platform["page_size"])


def test_arm64_struct_sizes(probe):
    p = _platform(probe)
    assert probe.platform["sizeof"]["rte_stack"] == STACK_STRUCT_LINES * p.cache_line == 384
    assert probe.platform["sizeof"]["rte_lpm"] == (1 << 26) + p.cache_line


def test_arm64_ring_grid(probe):
    cases = tables_grid.ring_cases(RING_CASES)
    failures, replies = tables_grid.run_cases(probe, cases, _platform(probe))
    assert not failures, f"{len(failures)} of {len(cases)} differ:\n" + "\n".join(failures[:20])
    assert 30 < sum(not r["ok"] for r in replies) < len(cases) // 2


def test_arm64_ring_memsize(probe):
    p = _platform(probe)
    cases = tables_grid.ringmemsize_cases(RINGMEMSIZE_CASES)
    replies = probe.run_many([f"ringmemsize {e} {c}" for e, c in cases])
    bad = [(e, c, r["memsize"]) for (e, c), r in zip(cases, replies, strict=True)
           if (dpdk_ring.memsize_elem(e, c, p)[0] or -22) != r["memsize"]]
    assert not bad, bad[:10]


def test_arm64_mempool_drivers(probe):
    """lf_stack exists on arm64 (RTE_STACK_LF_SUPPORTED): 16-byte list elements, 128-byte lines."""
    cases = tables_grid.ops_cases(OPS_CASES)
    failures, replies = tables_grid.run_cases(probe, cases, _platform(probe))
    assert not failures, f"{len(failures)} of {len(cases)} differ:\n" + "\n".join(failures[:20])
    assert sum(r["ok"] and r["ops_name"] == "lf_stack" for r in replies) > 10
