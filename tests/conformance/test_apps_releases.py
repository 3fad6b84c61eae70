"""``mpcalc app`` at other DPDK releases, against recorded runs of that release's real testpmd and l3fwd.

tests/conformance/vectors/apps/<tag>-x86_64.jsonl.gz: one line per run of the release's own dpdk-testpmd
and dpdk-l3fwd (built from the tag, x86_64 generic), for the option sets of test_apps_real.py (22.11 runs
live there, from Debian's packages), under EAL --no-huge on vdev ports: every memzone (telemetry
``/eal/memzone_list`` and ``/eal/memzone_info``: name, length, socket, in reservation order), socket 0's heap
(``/eal/heap_info,0``), ``/mempool/info`` of every pool, and testpmd's own ``dump_memzone``/``dump_mempool``
(their per-page segment lines counted, not kept).  How they were recorded: vectors/apps/README.md.

mpcalc, given the same command line at that release, must name every memzone with its exact length (none
more, none fewer), put each on its heap, and account for socket 0's heap to the byte and the element.
"""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path

import pytest

from mpcalc.dpdk import apps
from mpcalc.dpdk.core.errors import InputError
from mpcalc.dpdk.core.facts import RELEASES
from mpcalc.dpdk.core.platform import Platform

VECTORS = Path(__file__).resolve().parent / "vectors" / "apps"
FILES = sorted(VECTORS.glob("*-x86_64*.jsonl.gz"))  # <tag>-x86_64[-more].jsonl.gz


def _release(path: Path) -> str:
    tag = path.name.split("-")[0]  # v24.11.6
    for rel in RELEASES.values():
        if rel.stable_tag == tag:
            return rel.version
    raise AssertionError(f"{path.name}: {tag} is no release's modelled stable tag")


def _runs(path: Path) -> list[dict]:
    with gzip.open(path, "rt") as f:
        return [json.loads(line) for line in f]


RUNS = [(f"{_release(f)}/{r['id']}", _release(f), r) for f in FILES for r in _runs(f)]


#: the live 22.11 option sets added with the verdicts of issue 26 (a default value accepted, a port left
#: unconfigured): not yet recorded for the other releases, whose builds are not kept here (their recording is
#: the next builds' work: until then they run against 22.11 alone)
LIVE_ONLY = frozenset(
    {"testpmd-defaults", "l3fwd-poll-mode", "testpmd-tap-jumbo-unconfigured", "testpmd-scatter-null-unconfigured"}
)


def test_the_releases_recorded():
    """21.11, 23.11, 24.11, 25.11 and 26.07 (every release but 22.11, which runs live), each with every option
    set of the live 22.11 suite but :data:`LIVE_ONLY`."""
    from .test_apps_real import CASES

    got = {rel for _, rel, _ in RUNS}
    assert {"21.11", "23.11", "24.11", "25.11", "26.07"} <= got, got
    assert {c[0] for c in CASES} >= LIVE_ONLY  # each still a live case
    for rel in got:
        assert {c[0] for c in CASES} - LIVE_ONLY <= {r["id"] for _, v, r in RUNS if v == rel}, rel


@pytest.mark.parametrize("run", RUNS, ids=[i for i, _, _ in RUNS])
def test_every_memzone_and_the_heap(run):
    ident, release, r = run
    assert "failed" not in r, r.get("failed")
    assert r["tag"] == RELEASES[release].stable_tag and r["arch"] == "x86_64"
    model = apps.size([r["program"], *r["eal"], "--", *r["app"]], Platform(dpdk=release))
    assert model.ok, model.errors
    mine = {z.name: z for z in model.memzones}
    real = {name: (length, socket) for name, length, socket in r["zones"]}
    assert len(real) == len(r["zones"]), ident
    assert {n: ln for n, (ln, _) in real.items()} == {n: z.len for n, z in mine.items()}, ident
    for name, (_, socket) in real.items():  # testpmd's --mp-alloc=xmem pool: the external heap, socket >= 256
        assert (socket >= 256) == ("extmem heap" in mine[name].role), (ident, name, socket)
    ext = sum(1 for z in mine.values() if "extmem heap" in z.role)
    d = model.details
    assert int(r["heap"]["Alloc_size"]) == d["sockets"][0]["heap_bytes"], ident
    assert int(r["heap"]["Alloc_count"]) == d["allocation_count"] + d["memzone_count"] - ext, ident


@pytest.mark.parametrize("run", RUNS, ids=[i for i, _, _ in RUNS])
def test_every_pool_as_dumped(run):
    """Each pool of the run (telemetry /mempool/info): its size, cache and element sizes as modelled (the cache
    is in no memzone's length: 24.11's l3fwd caches 512 mbufs a core, 23.11's 256)."""
    ident, release, r = run
    model = apps.size([r["program"], *r["eal"], "--", *r["app"]], Platform(dpdk=release))
    pools = {mp.name: mp for mp in model.mempools}
    for info in r["mempool_info"]:
        mp = pools[info["name"]]
        assert (int(info["size"]), int(info["cache_size"]), int(info["elt_size"])) == (
            mp.count,
            mp.cache_size,
            mp.objsz.elt_size if mp.objsz else None,
        ), (ident, info["name"])
    assert {i["name"] for i in r["mempool_info"]} == set(pools), ident
    if r["program"] != "dpdk-testpmd":
        return
    # testpmd's own dump_memzone (rte_memzone_dump) names the same memzones with the same lengths
    dumped = {m[1]: int(m[2], 16) for m in re.finditer(r"Zone \d+: name:<([^>]*)>, len:0x([0-9a-f]+)", r["dumps"])}
    assert dumped == {z.name: z.len for z in model.memzones}, ident


def test_the_releases_not_run_are_refused_with_the_reason():
    line = ["dpdk-testpmd", "-l", "0-1", "--no-huge", "--vdev", "net_null0", "--", "-i"]
    with pytest.raises(InputError, match="no arm64 build of the applications was run"):
        apps.size(line, Platform(dpdk="24.11", arch="arm64"))
    measured = {rel for _, rel, _ in RUNS} | {"22.11"}
    for rel in sorted(set(RELEASES) - measured):
        with pytest.raises(InputError, match=f"DPDK {rel} was not built and run"):
            apps.size(line, Platform(dpdk=rel))
