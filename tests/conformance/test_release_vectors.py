"""mpcalc against recorded replies of real DPDK builds of other releases (vectors/README.md).

Each ``vectors/<tag>-x86_64.jsonl.gz`` holds the probe's replies for the same
command lists the live suite sends (test_real_dpdk.py), recorded from a
static build of that DPDK tag.  Replaying needs no DPDK: every line is
recomputed by the engine with ``make_platform(dpdk=<release>)`` and compared
like the live suite compares.
"""

from __future__ import annotations

import gzip
import json
import re
from functools import cache
from pathlib import Path

import pytest

from mpcalc.dpdk.core.platform import Platform, make_platform
from mpcalc.dpdk.objects.mempool import calc_obj_size

from . import grid
from .replay import calc_args, case_from_command, command_word, memsize_args

VECTORS = Path(__file__).resolve().parent / "vectors"
FILES = sorted(VECTORS.glob("v*-x86_64.jsonl.gz"))
PAGE_SIZE = 4096  # every recording ran with --no-huge (4 KiB pages)

CATEGORIES = {
    "grid": ("pool", "rib", "rib6"),
    "fib": ("fib", "fib6"),
    "mbuf": ("mbuf",),
    "memsize": ("memsize",),
    "calc": ("calc",),
}


def release_of(tag: str) -> str:
    """v24.11.6 -> "24.11" (a release means its newest stable point release), v26.07 -> "26.07"."""
    m = re.fullmatch(r"v(\d+\.\d+)(?:\.\d+)?", tag)
    assert m, tag
    return m.group(1)


@cache
def load(path: Path) -> tuple[dict, ...]:
    with gzip.open(path, "rt") as f:
        return tuple(json.loads(line) for line in f)


def platform(line: dict) -> Platform:
    plat = line["platform"]
    assert (plat["nchannel"], plat["nrank"]) == (line["channels"], line["ranks"])
    assert plat["page_size"] == PAGE_SIZE and not plat["has_hugepages"]
    return make_platform(
        dpdk=release_of(line["tag"]), channels=line["channels"], ranks=line["ranks"], page_size=PAGE_SIZE
    )


def test_vectors_exist():
    assert FILES, f"no recorded vectors in {VECTORS}"


def _id(path: Path) -> str:
    return path.name.split("-x86_64")[0]


@pytest.mark.parametrize("path", FILES, ids=_id)
def test_recorded_platform(path):
    """The recorded build's struct sizes and limits against the release facts."""
    lines = load(path)
    tag = lines[0]["tag"]
    assert path.name == f"{tag}-x86_64.jsonl.gz"
    assert {ln["tag"] for ln in lines} == {tag}
    version = lines[0]["platform"]["version"]
    assert version == "DPDK " + tag[1:] + (".0" if tag.count(".") == 1 else ""), version
    seen = {}
    for ln in lines:
        seen.setdefault((ln["channels"], ln["ranks"]), ln)
    problems: dict[str, list[str]] = {}
    for (c, r), ln in sorted(seen.items()):
        plat, p = ln["platform"], platform(ln)
        sizes = plat["sizeof"]
        for what, real, mine in (
            ("RTE_CACHE_LINE_SIZE", plat["cache_line"], p.cache_line),
            ("RTE_MEMPOOL_ALIGN", plat["mempool_align"], p.mempool_align),
            ("RTE_MAX_LCORE", plat["max_lcore"], p.max_lcore),
            ("sizeof(struct rte_mempool)", sizes["rte_mempool"], p.sizeof_mempool),
            ("sizeof(struct rte_mempool_cache)", sizes["rte_mempool_cache"], p.sizeof_mempool_cache()),
            ("sizeof(struct rte_ring)", sizes["rte_ring"], p.sizeof_ring),
            ("sizeof(struct rte_mempool_objhdr)", sizes["rte_mempool_objhdr"], p.objhdr_size),
            ("sizeof(struct rte_mempool_memhdr)", sizes["rte_mempool_memhdr"], p.release.memhdr_size),
            ("RTE_MEMPOOL_CACHE_MAX_SIZE", plat["mempool_cache_max_size"], p.release.cache_max_size),
        ):
            if real != mine:
                problems.setdefault(f"{what}: mpcalc {mine!r} != DPDK {real!r}", []).append(f"-n {c} -r {r}")
    assert not problems, f"{tag}:\n" + "\n".join(f"{k} (probes {', '.join(v)})" for k, v in problems.items())


@pytest.mark.parametrize("path", FILES, ids=_id)
@pytest.mark.parametrize("category", list(CATEGORIES))
def test_recorded_replies(path, category):
    """Every recorded create/memsize/calc reply, recomputed by the engine for that release."""
    lines = [ln for ln in load(path) if command_word(ln["cmd"]) in CATEGORIES[category]]
    assert lines, f"{path.name} has no {category} lines"
    failures = []
    rejected = 0
    for ln in lines:
        cmd, reply, p = ln["cmd"], ln["reply"], platform(ln)
        word = command_word(cmd)
        if word == "memsize":
            args = memsize_args(cmd)
            mine = grid.expected_mem_size(*args, p)
            if mine != reply["mem_size"]:
                failures.append(f"{cmd}: mem_size: mpcalc {mine!r} != DPDK {reply['mem_size']!r}")
        elif word == "calc":
            mine = calc_obj_size(*calc_args(cmd), p).to_dict()
            if mine != reply["objsz"]:
                failures.append(f"{cmd}: objsz: mpcalc {mine!r} != DPDK {reply['objsz']!r}")
        else:
            case = case_from_command(cmd, ln["channels"], ln["ranks"])
            rejected += not reply["ok"]
            diffs = grid.mismatches(case, case.compute(p), reply)
            if diffs:
                failures.append(f"-n {ln['channels']} -r {ln['ranks']} {cmd}: " + "; ".join(diffs))
    assert not failures, f"{lines[0]['tag']} {category}: {len(failures)} of {len(lines)} differ:\n" + "\n".join(
        failures[:25]
    )
    if category == "grid":  # the recording exercised both sides
        assert 10 < rejected < len(lines) // 2
