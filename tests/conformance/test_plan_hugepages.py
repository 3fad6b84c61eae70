"""`mpcalc plan`'s hugepage advice on a real EAL with real 2 MiB hugepages (issue 5).

For every plan file in tests/conformance/plans/ (and examples/plans/l3fwd-router.toml) the probe starts
with exactly the advised pages (``--socket-mem`` = advice, ``--socket-limit`` = advice, a private
hugetlbfs mount) and creates every item the file lists; the advice must work, and be tight: at most
``max(minimum + 1, ceil(minimum * 1.02))`` where minimum, the fewest pages with which EAL starts and every
item is created, is found by bisection on the same real pages (each count in a fresh EAL).

IOVA mode: the advice covers IOVA as PA (one mempool chunk per hugepage: the worst case, and what EAL
picks by default here, root without an IOMMU) and IOVA as VA; it is proven, and bisected, in both.
Root reserves the pages through nr_hugepages and mounts hugetlbfs; ``hugepages()`` restores both.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from mpcalc.dpdk.core import heap
from mpcalc.service.plan import EAL_INIT_HEAP, PlanReport, load, plan

from .oracle import OracleError, Probe, can_reserve_hugepages, hugepages

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
PAGE = 2 << 20
PLANS = [*sorted((HERE / "plans").glob("*.toml")), ROOT / "examples" / "plans" / "l3fwd-router.toml"]
#: rte_iova_mode values the probe's platform line reports (rte_eal_iova_mode)
IOVA_PA, IOVA_VA = 1, 2


def _report(path: Path) -> PlanReport:
    doc, name = load(path)
    return plan(doc, name)


def probe_commands(report: PlanReport) -> list[str]:
    """The probe commands that create every item of a plan, with the values mpcalc resolved.

    Raises ValueError for what the probe (Debian's 22.11 on x86_64, one socket) cannot realise.
    """
    p = report.platform
    if (p.dpdk, p.arch, p.page_size, p.debug, p.stats) != ("22.11", "x86_64", PAGE, False, False):
        raise ValueError(
            f"{report.path}: the probe is Debian's DPDK 22.11 on x86_64 with 2 MiB pages, not "
            f"{p.dpdk} {p.arch} page {p.page_size} debug {p.debug} stats {p.stats}"
        )
    if (p.channels, p.ranks, p.cache_line, p.max_lcore) != (4, 1, 64, 128):
        raise ValueError(f"{report.path}: the probe runs with -n 4 -r 1 on a 64-byte line, RTE_MAX_LCORE 128")
    out = []
    for it in report.items:
        r, d = it.result, it.result.details
        where = f"{report.path}: {it.kind} {it.name!r}"
        if it.socket != 0:
            raise ValueError(f"{where}: this machine has socket 0 only")
        if not r.ok:
            raise ValueError(f"{where}: mpcalc predicts DPDK rejects it")
        if it.kind in ("pool", "mbuf"):
            mp = r.mempools[0]
            if d.get("cache", {}).get("layout", "pointer") != "pointer":
                raise ValueError(f"{where}: the index-based cache layout is not in any DPDK release")
            if it.kind == "pool":
                out.append(
                    f"pool {it.name} {mp.count} {mp.elt_size} {mp.cache_size} {mp.private_data_size} {mp.flags:#x} keep"
                )
            else:
                out.append(f"mbuf {it.name} {mp.count} {mp.cache_size} {d['priv_size']} {d['data_room']} keep")
            continue
        if r.flags:
            # rte_rib_create makes its node pool with flags 0 (v22.11:lib/rib/rte_rib.c:410-412)
            raise ValueError(f"{where}: node-pool flags are the RIB patch's, not DPDK 22.11's")
        if it.kind in ("rib", "rib6"):
            out.append(f"{it.kind} {it.name} {d['max_nodes']} {d['ext_size']} keep")
        else:
            type_id = 0 if d["type"] == "dummy" else 1  # RTE_FIB_DUMMY / RTE_FIB_DIR24_8, RTE_FIB6_TRIE
            nh_enum = int(d["nh_size"]).bit_length() - 1  # RTE_FIB_DIR24_8_1B .. _8B
            out.append(
                f"{it.kind} {it.name} {d['max_routes']} {type_id} {nh_enum} {d['num_tbl8']} {d['ext_size']} keep"
            )
    return out


def pa_chunk_bound(report: PlanReport) -> list[int]:
    """Per item: the most heap bytes IOVA as PA may add (extra MEMPOOL_MEMHDRs), as the plan counts them."""
    from mpcalc.service.plan import iova_pa_chunk_headers

    return [iova_pa_chunk_headers([it.result], report.platform) for it in report.items]


@dataclass
class Attempt:
    pages: int
    iova: str | None
    started: bool = False
    ok: bool = False
    iova_mode: int | None = None
    platform: dict = field(default_factory=dict)
    start_heap: dict = field(default_factory=dict)
    end_heap: dict = field(default_factory=dict)
    files_at_start: int = -1
    files_at_end: int = -1
    replies: list[dict] = field(default_factory=list)
    error: str = ""

    @property
    def failures(self) -> list[str]:
        return [f"{r.get('name')}: {r.get('errno')}" for r in self.replies if not r.get("ok")]


def _files(huge_dir: Path, prefix: str) -> int:
    return sum(1 for f in os.listdir(huge_dir) if f.startswith(prefix))


def attempt(binary, huge_dir: Path, cmds: list[str], pages: int, iova: str | None = None) -> Attempt:
    """A fresh EAL with exactly ``pages`` 2 MiB pages preallocated and no more allowed; create everything."""
    mb = str(pages * PAGE // 2**20)
    extra = ["--socket-mem", mb, "--socket-limit", mb] + ([f"--iova-mode={iova}"] if iova else [])
    out = Attempt(pages=pages, iova=iova)
    try:
        probe = Probe(binary, hugepages=True, huge_dir=huge_dir, extra_eal_args=extra, startup_timeout=60)
    except OracleError as exc:  # too few pages for EAL itself: it does not start
        out.error = str(exc)[-500:]
        return out
    with probe:
        out.started = True
        out.platform = probe.platform
        out.iova_mode = probe.platform["iova_mode"]
        out.start_heap = probe.run("heap")
        out.files_at_start = _files(huge_dir, probe.file_prefix)
        out.replies = probe.run_many(cmds, timeout=120)
        out.end_heap = probe.run("heap")
        out.files_at_end = _files(huge_dir, probe.file_prefix)
    out.ok = all(r["ok"] for r in out.replies)
    return out


def minimum_pages(works, advice: int) -> int:
    """The fewest pages that work, given that ``advice`` works: advice - 1 first (the usual answer),
    then bisection over [advice * 0.9, advice - 1]; below 90% counts as 'works at 90%' (fails tightness)."""
    if not works(advice - 1):
        return advice
    lo, hi = max(1, math.floor(advice * 0.9)), advice - 1  # hi works
    if works(lo):
        return lo
    while hi - lo > 1:  # lo fails, hi works
        mid = (lo + hi) // 2
        if works(mid):
            hi = mid
        else:
            lo = mid
    return hi


@pytest.fixture(scope="module")
def huge():
    """One private hugetlbfs mount with enough 2 MiB pages for the largest advice; restored afterwards."""
    assert can_reserve_hugepages(), "root must be able to reserve 2 MiB hugepages for this test"
    need = max(_report(p).sockets[0].pages for p in PLANS) + 1
    with hugepages(need) as (huge_dir, free):
        assert free >= need, f"asked the kernel for {need} free 2 MiB pages, got {free}"
        yield huge_dir


def test_plan_files_are_realisable():
    assert len(PLANS) >= 4
    kinds = set()
    for path in PLANS:
        report = _report(path)
        assert report.ok and [s.socket for s in report.sockets] == [0]
        assert 100 <= report.sockets[0].pages <= 600, path
        assert len(probe_commands(report)) == len(report.items)
        kinds |= {it.kind for it in report.items}
    assert kinds == {"pool", "mbuf", "rib", "rib6", "fib", "fib6"}


def test_eal_start_up_memory_on_hugepages(probe_binary, huge):
    """EAL's own memory is EAL_INIT_HEAP heap bytes in 2 elements, and no hugepage outside the heap."""
    for iova in ("pa", "va"):
        a = attempt(probe_binary, huge, [], 10, iova)
        assert a.started, a.error
        assert a.iova_mode == (IOVA_PA if iova == "pa" else IOVA_VA)
        assert a.start_heap["heap_alloc"] == EAL_INIT_HEAP and a.start_heap["alloc_count"] == 2
        assert a.start_heap["heap_total"] == 10 * PAGE and a.files_at_start == 10
    # dynamic memory (no --socket-mem): EAL maps one page for its own allocations
    with Probe(probe_binary, hugepages=True, huge_dir=huge) as probe:
        heap = probe.run("heap")
        assert heap["heap_alloc"] == EAL_INIT_HEAP and heap["heap_total"] == PAGE
        assert _files(huge, probe.file_prefix) == 1


@pytest.mark.parametrize("path", PLANS, ids=lambda p: p.name)
def test_advice_works_and_is_tight(probe_binary, huge, path):
    report = _report(path)
    advice = report.sockets[0].pages
    cmds = probe_commands(report)
    model_heap = [it.result.heap_bytes for it in report.items]
    pa_bound = pa_chunk_bound(report)

    # 1. the advice works: EAL's default IOVA mode on this machine, then both modes explicitly
    default = attempt(probe_binary, huge, cmds, advice)
    runs = {"default": default}
    for iova in ("va", "pa"):
        if default.iova_mode != (IOVA_VA if iova == "va" else IOVA_PA):
            runs[iova] = attempt(probe_binary, huge, cmds, advice, iova)
    for mode, a in runs.items():
        assert a.started, f"{path.name}: EAL did not start with {advice} pages ({mode}): {a.error}"
        assert a.ok, f"{path.name}: with the advised {advice} pages ({mode}) DPDK failed: {a.failures}"
        plat = a.platform
        assert (plat["cache_line"], plat["max_lcore"], plat["nchannel"], plat["nrank"], plat["page_size"]) == (
            64,
            128,
            4,
            1,
            PAGE,
        ) and plat["version"].startswith("DPDK 22.11")
        # exactly the advised pages, all of them in the heap, none added
        assert a.files_at_start == a.files_at_end == advice
        assert a.start_heap["heap_total"] == a.end_heap["heap_total"] == advice * PAGE
        assert a.start_heap["heap_alloc"] == report.sockets[0].eal_heap == EAL_INIT_HEAP
        # every item's heap bytes as mpcalc says, plus (IOVA as PA) at most its extra chunk headers
        memhdr = heap.heap_cost(report.platform.release.memhdr_size, report.platform)
        for it, mine, bound, reply in zip(report.items, model_heap, pa_bound, a.replies, strict=True):
            extra = reply["heap_delta"] - mine
            if a.iova_mode == IOVA_VA:
                assert extra == 0, (path.name, mode, it.name, reply["heap_delta"], mine)
            else:
                assert 0 <= extra <= bound and extra % memhdr == 0, (path.name, it.name, extra, bound)
                if "nb_mem_chunks" in reply:
                    assert extra == (reply["nb_mem_chunks"] - 1) * memhdr

    # 2. it is tight in both IOVA modes: the fewest pages that work, by bisection (fresh EAL per count)
    for iova in ("pa", "va"):
        tried: dict[int, Attempt] = {}

        def works(pages: int) -> bool:  # called in this iteration only (by minimum_pages)
            a = tried[pages] = attempt(probe_binary, huge, cmds, pages, iova)  # noqa: B023
            # EAL itself needs one page: not starting with 90% of the advice is a broken machine, not a count
            assert a.started, f"{path.name}: EAL did not start with {pages} pages: {a.error}"
            return a.ok

        minimum = minimum_pages(works, advice)
        limit = max(minimum + 1, math.ceil(minimum * 1.02))
        assert advice <= limit, (
            f"{path.name}: advice {advice} pages, yet {minimum} work with IOVA as {iova.upper()} (limit {limit})"
        )
        below = tried.get(minimum - 1)
        print(
            f"{path.name}: advice {advice} pages, minimum {minimum} with IOVA as {iova.upper()}; at "
            f"{minimum - 1}: {(below.failures or below.error[-120:]) if below else 'not tried'}"
        )
