"""Rings, mempool drivers, LPM, LPM6 and hashes against recorded replies of real DPDK builds of every release
(vectors/tables-<tag>-x86_64.jsonl.gz, vectors/README.md): each line recomputed with make_platform(dpdk=<release>)
and compared as the live suite compares (tables_vectors.replay).  No DPDK is needed."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from mpcalc.dpdk.core.platform import make_platform

from .tables_vectors import commands, platform_mismatches, replay
from .test_release_vectors import release_of

VECTORS = Path(__file__).resolve().parent / "vectors"
FILES = sorted(VECTORS.glob("tables-v*.jsonl.gz"))
#: the build each architecture's recordings come from (vectors/README.md)
BUILDS = {"x86_64": (64, 128), "arm64": (128, 256)}


def _load(path: Path) -> list[dict]:
    with gzip.open(path, "rt") as f:
        return [json.loads(line) for line in f]


def test_every_release_is_recorded():
    tags = {p.name.removeprefix("tables-").removesuffix("-x86_64.jsonl.gz") for p in FILES if "x86_64" in p.name}
    assert {release_of(t) for t in tags} == {"21.11", "23.11", "24.11", "25.11", "26.07"}  # 22.11: the live suite
    assert any("arm64" in p.name for p in FILES)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_recorded_release(path):
    lines = _load(path)
    assert [(ln["cmd"], tuple(ln["lines"])) for ln in lines] == commands()  # the commands this suite defines
    plat = lines[0]["platform"]
    release = release_of(lines[0]["tag"])
    arch = path.name.removesuffix(".jsonl.gz").rsplit("-", 1)[1]
    assert plat["version"].startswith(f"DPDK {release}")
    assert (plat["cache_line"], plat["max_lcore"]) == BUILDS[arch]
    p = make_platform(dpdk=release, arch=arch, page_size=plat["page_size"])
    assert not platform_mismatches(plat, p)
    failures = replay(lines, p)
    assert not failures, f"{len(failures)} of {len(lines)} differ:\n" + "\n".join(failures[:20])
    # the recording exercised both sides
    assert 300 < sum(ln["reply"]["ok"] for ln in lines) < len(lines) - 300
