"""rte_ring, the mempool drivers, rte_lpm, rte_lpm6 and rte_hash on arm64 for real: Debian's libdpdk-dev:arm64
(22.11, generic armv8, 128-byte cache lines, RTE_MAX_LCORE 256) under qemu-aarch64-static, through the
cross-built probe (test_arm64.py's factory).  The grids are the x86 suite's own (tables_grid.py), smaller."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import pytest

from mpcalc.dpdk.objects import ring as dpdk_ring
from mpcalc.dpdk.objects.mempool.ops import STACK_STRUCT_LINES

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
    bad = [
        (e, c, r["memsize"])
        for (e, c), r in zip(cases, replies, strict=True)
        if (dpdk_ring.memsize_elem(e, c, p)[0] or -22) != r["memsize"]
    ]
    assert not bad, bad[:10]


def test_arm64_mempool_drivers(probe):
    """lf_stack exists on arm64 (RTE_STACK_LF_SUPPORTED): 16-byte list elements, 128-byte lines."""
    cases = tables_grid.ops_cases(OPS_CASES)
    failures, replies = tables_grid.run_cases(probe, cases, _platform(probe))
    assert not failures, f"{len(failures)} of {len(cases)} differ:\n" + "\n".join(failures[:20])
    assert sum(r["ok"] and r["ops_name"] == "lf_stack" for r in replies) > 10


LPM_CASES = 120
LPM6_CASES = 100
HASH_CASES = 300


@pytest.mark.parametrize(
    "kind,make,count",
    [
        ("lpm", tables_grid.lpm_cases, LPM_CASES),
        ("lpm6", tables_grid.lpm6_cases, LPM6_CASES),
        ("hash", tables_grid.hash_cases, HASH_CASES),
    ],
)
def test_arm64_tables(probe, kind, make, count):
    """rte_lpm (64 MiB + 512 B on 128-byte lines), rte_lpm6 and rte_hash (128-byte buckets, 384-byte lcore
    caches times RTE_MAX_LCORE 256) on arm64."""
    cases = make(count)
    failures, replies = tables_grid.run_cases(probe, cases, _platform(probe))
    assert not failures, f"{len(failures)} of {len(cases)} differ:\n" + "\n".join(failures[:20])
    assert sum(r["ok"] for r in replies) > count // 3


def test_arm64_lpm6_rule_count_saturates(probe):
    """max_rules x 1.2 + 64 above 2^32: arm64 saturates the conversion to 2^32 - 1 and the rules hash
    refuses it (EINVAL); x86-64 wraps it to a hash of 12 entries (test_tables_real's grid)."""
    case = tables_grid.TableCase("lpm6", "sat6", 3579139370, 16)
    result = case.compute(_platform(probe))
    assert result.details["rule_hash_entries"] == 2**32 - 1
    reply = probe.run(case.command())
    assert not tables_grid.common_mismatches(result, reply) and reply["errno"] == "EINVAL"
