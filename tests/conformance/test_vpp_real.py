"""mpcalc against the real VPP: the captures of tests/conformance/vpp/<case>/ (a real VPP built from the FDio/vpp
mirror at the tag its VERSION names, run with that case's startup.conf by the command in its COMMAND file), and
a live re-run when a ``vpp`` binary is given (``MPCALC_VPP``; skipped otherwise).

Each case holds VPP's own CLI output (``show buffers``, ``show physmem``, ``show memory main-heap``, ``show dpdk
physmem``), the DPDK memzones and allocations an LD_PRELOAD shim logged (tests/conformance/apps/allocspy.c), the
hugepage counters before/while/after and the process's hugetlb mappings (``run.json``: /proc/<pid>/smaps), and
``expect.json`` when VPP refused the configuration (its exit code and message).
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from mpcalc.dpdk.apps import vpp
from mpcalc.dpdk.core.errors import InputError
from mpcalc.dpdk.core.heap import memzone_len
from mpcalc.dpdk.core.platform import Platform

HERE = Path(__file__).parent / "vpp"
CASES = sorted(p.name for p in HERE.iterdir() if (p / "startup.conf").exists()) if HERE.exists() else []


def _version(case: Path) -> dict[str, str]:
    return dict(line.split("=", 1) for line in (case / "VERSION").read_text().split() if "=" in line)


def show_buffers(text: str) -> list[dict[str, object]]:
    """``show buffers``: Pool Name, Index, NUMA, Size, Data Size, Total, Avail, Cached, Used."""
    rows = []
    for line in text.splitlines():
        parts = line.split()
        if len(parts) == 9 and parts[1].isdigit():
            name, idx, numa, size, data, total, avail, cached, used = parts
            rows.append(
                {
                    "name": name,
                    "index": int(idx),
                    "numa": int(numa),
                    "size": int(size),
                    "data_size": int(data),
                    "total": int(total),
                    "avail": int(avail),
                    "cached": int(cached),
                    "used": int(used),
                }
            )
    return rows


def show_physmem(text: str) -> list[dict[str, object]]:
    """``show physmem``: each arena's name, pages and subpage size."""
    out = []
    for m in re.finditer(r"arena '([^']+)' pages (\d+) subpage-size (\d+)([KMG]) numa-node (\d+)", text):
        unit = {"K": 10, "M": 20, "G": 30}[m.group(4)]
        out.append(
            {"name": m.group(1), "pages": int(m.group(2)), "subpage": int(m.group(3)) << unit, "numa": int(m.group(5))}
        )
    return out


def memzones(log: str) -> dict[str, int]:
    """allocspy's ``memzone <fn> <name> <len> <ptr>`` lines (a name may have spaces)."""
    out = {}
    for line in log.splitlines():
        if line.startswith("memzone "):
            parts = line.split()
            fn, name, length = parts[1], " ".join(parts[2:-2]), int(parts[-2])
            if fn.startswith("rte_memzone_reserve") and parts[-1] not in ("(nil)", "0x0"):
                out[name] = length
    return out


def _platform(case: Path) -> Platform:
    """The DPDK the recorded VPP was linked against (VERSION's dpdk_sizes)."""
    return Platform(dpdk=_version(case).get("dpdk_sizes", "22.11"))


def _model(case: Path):
    argv = ["vpp", "-c", str(case / "startup.conf")]
    return vpp.size(argv, _platform(case), release=_version(case)["tag"].lstrip("v"))


@pytest.mark.parametrize("name", CASES)
def test_the_model_matches_the_recorded_run(name):
    case = HERE / name
    expect = json.loads((case / "expect.json").read_text()) if (case / "expect.json").exists() else {}
    if expect.get("refused"):
        with pytest.raises(InputError) as info:
            _model(case)
        assert expect["message"] in str(info.value)
        return
    r = _model(case)
    v = r.details["vpp"]
    real = show_buffers((case / "show-buffers.txt").read_text())
    modelled = [n["buffers"] for n in v["numa"] if n["buffers"]]
    assert [(b["name"], b["index"], b["numa"], b["size"], b["data_size"], b["total"]) for b in real] == [
        (m["pool"], m["pool_index"], m["numa"], m["show_buffers_size"], m["data_size"], m["buffers"]) for m in modelled
    ]
    arenas = [a for a in show_physmem((case / "show-physmem.txt").read_text()) if a["name"].startswith("buffers-")]
    for a, m in zip(arenas, modelled, strict=False):
        # pmalloc's pages are of the default hugepage size; the map's bytes are those pages
        default_page = v["default_hugepage_size"]
        assert a["pages"] * default_page == m["bytes"], (a, m)
        assert a["subpage"] == m["page_size"]
    zones_log = case / "allocspy.log"
    if v["dpdk_plugin"] and zones_log.exists():
        real_zones = memzones(zones_log.read_text())
        model_zones = {z.name: z.len for mp in r.mempools for z in mp.memzones} | {z.name: z.len for z in r.zones}
        for zone in ("MP_vpp pool 0", "MP_vpp pool 0 (no cache)"):
            assert real_zones[zone] == model_zones[zone], zone
        # allocspy logs the length asked for; mz->len is it rounded to the cache line
        assert {n: memzone_len(n_len, _platform(case)) for n, n_len in real_zones.items()} == model_zones
    run = json.loads((case / "run.json").read_text())
    smaps = run.get("smaps", [])
    for m in smaps:
        if "buffers-numa" in m["name"]:
            node = int(m["name"].split("buffers-numa-")[1].split()[0])
            b = next(x for x in modelled if x["numa"] == node)
            assert m["size"] == b["bytes"]
    cfg = v["config"]
    statseg = next(m for m in smaps if "stat segment" in m["name"])
    assert statseg["size"] == cfg["statseg_size"]
    heap_maps = [m for m in smaps if m["name"].startswith("/anon_hugepage")]
    assert [m["size"] for m in heap_maps] == (
        [cfg["main_heap_size"]] if cfg["main_heap_page_size"] != "default" else []
    )
    # the 2 MiB pages the run took (free before - free while it ran) are the pages the model says VPP maps
    page = str(2 << 20)
    gig = run["during"].get("hugepages-1048576kB", {})
    if not gig.get("nr_hugepages"):
        took = run["before"]["hugepages-2048kB"]["free_hugepages"] - run["during"]["hugepages-2048kB"]["free_hugepages"]
        mapped = sum(n["hugepages_mapped"].get(page, 0) for n in v["numa"])
        # DPDK's heap grows on demand under --in-memory, a page run per element that does not fit: three tap
        # pools' 1 MiB headers took one page more than their bytes (c16); VPP's 16 MB pre-reserve floor in
        # nr_hugepages covers it
        assert took == mapped + ON_DEMAND.get(name, 0), (took, mapped)
        assert took <= sum(n["nr_hugepages"].get(page, 0) for n in v["numa"]), "the advice holds what the run took"


#: the pages a run took beyond the model's count of DPDK's heap bytes (DPDK's heap grown on demand)
ON_DEMAND = {"c16-taps-short": 1}

VPP_BIN = os.environ.get("MPCALC_VPP")


def test_a_short_pool_is_what_the_real_vpp_ran_out_of():
    """Three net_tap ports fill their Rx rings at set-up: 2,518 buffers hold two of them, the third port's
    rte_eth_rx_queue_setup fails with ENOMEM; the model's demand is over its supply and says so."""
    case = HERE / "c16-taps-short"
    real = show_buffers((case / "show-buffers.txt").read_text())
    assert real[0]["total"] == 2518 and real[0]["avail"] == 0
    assert "rte_eth_rx_queue_setup[port:2, errno:-12]" in (case / "show-hardware-interfaces.txt").read_text()
    node = _model(case).details["vpp"]["numa"][0]
    assert node["demand"]["supply"] == 2518 and node["demand"]["margin"] < 0 and "runs short" in node["warning"]


def _live(name: str) -> bool:
    """A case to re-run live: VPP accepted it, and a 1 GiB page case only with MPCALC_VPP_1G=1 (VPP raises
    the 1 GiB nr_hugepages itself when none is free: clib_sysfs_prealloc_hugepages)."""
    if (HERE / name / "expect.json").exists():
        return False
    return "default-hugepage-size 1G" not in (HERE / name / "startup.conf").read_text() or bool(
        os.environ.get("MPCALC_VPP_1G")
    )


@pytest.mark.skipif(not VPP_BIN, reason="no real VPP (set MPCALC_VPP to a vpp binary to re-run the captures live)")
@pytest.mark.parametrize("name", [c for c in CASES if _live(c)])
def test_live_rerun_matches(name, tmp_path):  # pragma: no cover - needs a real VPP
    from tests.conformance.vpp.runner import run_case

    case = HERE / name
    # the case's own sections, without the recorded run's harness (runner.harness writes a new one)
    harness = ("unix {", "api-segment {", "socksvr {", "plugins { path")
    body = "".join(
        line + "\n" for line in (case / "startup.conf").read_text().splitlines() if not line.startswith(harness)
    )
    body = body.replace("/mnt/huge-vpp", os.environ.get("MPCALC_VPP_HUGE_DIR", "/dev/hugepages"))
    got = run_case(VPP_BIN, body, tmp_path)
    assert show_buffers(got["show buffers"]) == show_buffers((case / "show-buffers.txt").read_text())
