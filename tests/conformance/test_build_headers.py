"""mpcalc given only a DPDK build's own files (headers, compile_commands.json, pkg-config) against that build.

builds/<name>/ hold what ``meson setup`` wrote for real builds of the DPDK tags (builds/README.md:
rte_build_config.h, the compile_commands.json entry of rte_mempool.c, libdpdk.pc); the debug and stats builds
also hold the real library's replies to the probe (replies.jsonl.gz, scripts/record-build-replies.py, the
format of vectors/).  Live: Debian's x86 build through ``pkg-config`` and its arm64 build through the arm64
sysroot's pkg-config (rte_config.h -> rte_build_config.h with ``RTE_ARCH armv8``), each against the real
library; and the real malloc heap for RTE_MEMPOOL_ALIGN over the cache line (cn10k).
"""

from __future__ import annotations

import contextlib
import dataclasses
import gzip
import json
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

from mpcalc.dpdk.core import buildconfig
from mpcalc.dpdk.core.heap import heap_cost
from mpcalc.dpdk.core.platform import Platform, make_platform, platform_from
from mpcalc.dpdk.objects.mempool import calc_obj_size

from . import grid
from .oracle import Probe, arm64_pkg_config_env, arm64_probe_factory
from .replay import calc_args, case_from_command, command_word, memsize_args

BUILDS = Path(__file__).resolve().parent / "builds"
#: recorded builds with the real library's replies: name -> (debug, stats) as the build defines them
REPLAYED = {"v24.11.6-x86_64-debug": (True, False), "v24.11.6-x86_64-stats": (False, True)}
ARM64_TAGS = ("v21.11.9", "v22.11.11", "v23.11.7", "v24.11.6", "v25.11.2", "v26.07")


@cache
def replies(name: str) -> tuple[dict, ...]:
    with gzip.open(BUILDS / name / "replies.jsonl.gz", "rt") as f:
        return tuple(json.loads(line) for line in f)


def build_platform(name: str, channels: int, ranks: int) -> Platform:
    """The platform mpcalc makes of the build folder alone (no --debug/--stats/--dpdk given)."""
    return platform_from({"build_config": str(BUILDS / name), "channels": channels, "ranks": ranks, "page_size": 4096})


def replay(lines: list[dict], platform_of) -> list[str]:  # type: ignore[no-untyped-def]
    """Every reply's difference from mpcalc's result on ``platform_of(channels, ranks)``."""
    failures = []
    for ln in lines:
        cmd, reply, p = ln["cmd"], ln["reply"], platform_of(ln["channels"], ln["ranks"])
        word = command_word(cmd)
        if word == "memsize":
            mine = grid.expected_mem_size(*memsize_args(cmd), p)
            if mine != reply["mem_size"]:
                failures.append(f"{cmd}: mem_size: mpcalc {mine} != DPDK {reply['mem_size']}")
        elif word == "calc":
            mine_objsz = calc_obj_size(*calc_args(cmd), p).to_dict()
            if mine_objsz != reply["objsz"]:
                failures.append(f"{cmd}: objsz: mpcalc {mine_objsz} != DPDK {reply['objsz']}")
        else:
            case = case_from_command(cmd, ln["channels"], ln["ranks"])
            diffs = grid.mismatches(case, case.compute(p), reply)
            if diffs:
                failures.append(f"-n {ln['channels']} -r {ln['ranks']} {cmd}: " + "; ".join(diffs))
    return failures


@pytest.mark.parametrize("name", sorted(REPLAYED))
def test_the_build_folder_alone_gives_the_switches(name):
    """The debug/stats switch is in the build's c_args only: compile_commands.json has it, libdpdk.pc not."""
    cfg = buildconfig.read(BUILDS / name)
    assert (cfg.debug, cfg.stats) == REPLAYED[name]
    assert (cfg.dpdk, cfg.arch, cfg.cache_line, cfg.max_lcore) == ("24.11", "x86_64", 64, 128)
    origins = dict(cfg.origins)
    switch = "debug" if REPLAYED[name][0] else "stats"
    assert "compile_commands.json" in origins[switch] and origins[switch].startswith("RTE_LIBRTE_MEMPOOL_")
    for pc in ("libdpdk.pc", "libdpdk-libs.pc"):
        text = (BUILDS / name / pc).read_text()
        assert "-include rte_config.h" in text or pc == "libdpdk.pc"
        assert "RTE_LIBRTE_MEMPOOL" not in text  # DPDK's pkg-config never carries c_args
    assert "RTE_LIBRTE_MEMPOOL" not in (BUILDS / name / "rte_build_config.h").read_text()


@pytest.mark.parametrize("name", sorted(REPLAYED))
def test_recorded_platform_line(name):
    """The real build's struct sizes against the platform read from its own files."""
    seen = {(ln["channels"], ln["ranks"]): ln for ln in replies(name)}
    for (c, r), ln in sorted(seen.items()):
        plat, p = ln["platform"], build_platform(name, c, r)
        assert plat["version"] == "DPDK 24.11.6" and p.dpdk == "24.11"
        sizes = plat["sizeof"]
        assert (plat["cache_line"], plat["mempool_align"], plat["max_lcore"]) == (
            p.cache_line,
            p.mempool_align,
            p.max_lcore,
        )
        assert sizes["rte_mempool"] == p.sizeof_mempool, (c, r)
        assert sizes["rte_mempool_objhdr"] == p.objhdr_size
        assert sizes["rte_mempool_cache"] == p.sizeof_mempool_cache()
    if REPLAYED[name][1]:
        assert sizes["rte_mempool"] == 24_960  # 192 + 129 x 192: RTE_CACHE_GUARD from 23.11


@pytest.mark.parametrize("name", sorted(REPLAYED))
def test_recorded_replies_from_the_build_files_alone(name):
    lines = list(replies(name))
    assert len(lines) > 300 and {command_word(ln["cmd"]) for ln in lines} >= {
        "pool",
        "rib",
        "rib6",
        "fib",
        "fib6",
        "mbuf",
        "memsize",
        "calc",
    }
    failures = replay(lines, lambda c, r: build_platform(name, c, r))
    assert not failures, f"{name}: {len(failures)} of {len(lines)} differ:\n" + "\n".join(failures[:20])
    # and the same replies are not what a build without the switch reserves: the test can fail
    plain = replay(lines, lambda c, r: make_platform(dpdk="24.11", channels=c, ranks=r, page_size=4096))
    assert len(plain) >= 50, len(plain)


def test_the_issues_debug_and_stats_examples():
    """4 x 40 B objects (no spread, no cache alignment): 320 B in the debug build, 256 B without the switch;
    the stats build's header memzone is 24,960 B at 24.11 (the issue's 16,704 B is 22.11's, before
    RTE_CACHE_GUARD)."""
    for name, total in (("v24.11.6-x86_64-debug", 320), ("v24.11.6-x86_64-stats", 256)):
        real = {ln["cmd"]: ln["reply"] for ln in replies(name)}["calc 40 3"]["objsz"]["total_size"]
        mine = calc_obj_size(40, 3, build_platform(name, 4, 1)).total_size
        assert 4 * real == 4 * mine == total, name
    pools = [
        ln["reply"] for ln in replies("v24.11.6-x86_64-stats") if ln["cmd"].startswith("pool ") and ln["reply"]["ok"]
    ]
    assert min(r["memzones"][0]["len"] for r in pools) == 24_960  # no cache, no private data
    assert build_platform("v24.11.6-x86_64-stats", 4, 1).sizeof_mempool == 24_960


@pytest.mark.parametrize("tag", ARM64_TAGS)
def test_arm64_headers_of_every_release(tag):
    """meson writes RTE_ARCH armv8 at every tag; the header alone gives the arch's facts for that release."""
    name = f"{tag}-arm64"
    text = (BUILDS / name / "rte_build_config.h").read_text()
    assert "#define RTE_ARCH armv8\n" in text
    p = platform_from({"build_config": str(BUILDS / name)})
    facts = make_platform(arch="arm64", dpdk=p.dpdk)
    assert p.dpdk == tag[1:6]
    assert (p.arch, p.cache_line, p.max_lcore, p.mempool_align) == (
        "arm64",
        facts.cache_line,
        facts.max_lcore,
        facts.mempool_align,
    )


def test_cn10k_header_aligns_mempools_over_the_cache_line():
    p = platform_from({"build_config": str(BUILDS / "v24.11.6-arm64-cn10k" / "rte_build_config.h")})
    preset = make_platform(platform="cn10k", dpdk="24.11")
    assert (p.arch, p.cache_line, p.mempool_align, p.max_lcore) == ("arm64", 64, 128, 24)
    assert (p.cache_line, p.mempool_align, p.max_lcore) == (preset.cache_line, preset.mempool_align, preset.max_lcore)


# --- live: the installed builds through their own pkg-config -----------------------------------------


def test_debians_x86_build_through_pkg_config(probes):
    probe = probes[(4, 1)]
    p = platform_from({"pkg_config": True, "page_size": 4096})
    plat = probe.platform
    assert (p.dpdk, p.arch) == ("22.11", "x86_64") and plat["version"].startswith("DPDK 22.11")
    assert (plat["cache_line"], plat["mempool_align"], plat["max_lcore"]) == (
        p.cache_line,
        p.mempool_align,
        p.max_lcore,
    )
    assert plat["sizeof"]["rte_mempool"] == p.sizeof_mempool
    cases = [dataclasses.replace(c, channels=4, ranks=1) for c in grid.cases(60)]
    lines = [
        {"cmd": c.command(), "channels": 4, "ranks": 1, "reply": r}
        for c, r in zip(cases, probe.run_many([c.command() for c in cases]), strict=True)
    ]
    assert not replay(lines, lambda c, r: platform_from({"pkg_config": True, "page_size": 4096}))


@pytest.fixture(scope="module")
def arm64_probe() -> Iterator[Probe]:
    probe = arm64_probe_factory()(nchannel=4, nrank=1)
    yield probe
    with contextlib.suppress(Exception):
        probe.close()


def test_debians_arm64_build_through_its_pkg_config(arm64_probe, monkeypatch):
    """libdpdk.pc of the arm64 sysroot: rte_config.h followed to rte_build_config.h (RTE_ARCH armv8)."""
    for key, value in arm64_pkg_config_env().items():
        monkeypatch.setenv(key, value)
    page = arm64_probe.platform["page_size"]
    p = platform_from({"pkg_config": True, "page_size": page})
    sources = dict(p.sources)
    assert "RTE_ARCH armv8" in sources["arch"] and "aarch64-linux-gnu/dpdk/rte_build_config.h" in sources["arch"]
    plat = arm64_probe.platform
    assert (p.arch, p.dpdk, p.cache_line, p.mempool_align, p.max_lcore) == (
        "arm64",
        "22.11",
        plat["cache_line"],
        plat["mempool_align"],
        plat["max_lcore"],
    )
    assert plat["sizeof"]["rte_mempool"] == p.sizeof_mempool
    cases = grid.cases(60)[:40]
    lines = [
        {"cmd": c.command(), "channels": 4, "ranks": 1, "reply": r}
        for c, r in zip(cases, arm64_probe.run_many([c.command() for c in cases]), strict=True)
    ]
    failures = replay(lines, lambda c, r: p)
    assert not failures, "\n".join(failures[:10])


# --- the real malloc heap: an alignment over the cache line costs 0 or 64 bytes more ----------------


def test_an_alignment_over_the_cache_line_grows_the_heap_by_0_or_64(probes):
    """rte_malloc(SIZE, 128) on a 64-byte-line build, as cn10k's objects memzones are reserved: the busy
    heap grows by heap_cost or heap_cost + 64, as the free space ends; with 64 alignment always heap_cost."""
    probe = probes[(4, 1)]
    p = grid.platform_for(probe.platform, 4, 1, 4096)
    extra_128, extra_64 = set(), set()
    for k in range(4):
        for size in (64, 128, 192, 1000, 4096, 100_000):
            extra_128.add(probe.run(f"malloc {size} 128")["heap_delta"] - heap_cost(size, p))
            extra_64.add(probe.run(f"malloc {size} 64")["heap_delta"] - heap_cost(size, p))
        probe.run(f"pool hb{k} 1 8 0 0 0x0 keep")  # moves where the heap's free space ends
    for k in range(4):
        probe.run(f"free hb{k}")
    assert extra_64 == {0}
    assert extra_128 == {0, 64}
