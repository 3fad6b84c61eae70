"""--fit, --explain, --max-total/--baseline/--tolerance and the markdown format."""

from __future__ import annotations

import json

import pytest

from mpcalc import api
from mpcalc.dpdk.core.platform import make_platform
from mpcalc.dpdk.objects.mempool import POOL
from mpcalc.service.exitcodes import ExitCode
from mpcalc.service.job import Job

FIT_CASES = [
    ("pool", ("--elt-size", "40"), "count", "1G"),
    ("pool", ("--elt-size", "2304", "--cache-size", "256", "--page-size", "4K"), "count", "100M"),
    ("mbuf", ("--cache-size", "256", "--mtu", "9000"), "count", "2G"),
    ("rib", (), "routes", "512M"),
    ("rib6", ("--nodes", "1"), "max_nodes", "64M"),
    ("fib", ("--tbl8", "1K"), "routes", "1G"),
    ("fib6", ("--flags", "no_cache_align"), "routes", "1G"),
]


@pytest.mark.parametrize("command,args,key,budget", FIT_CASES)
def test_fit_is_exact(run, command, args, key, budget):
    rc, out, _ = run(command, *args, "--fit", budget, "--json")
    assert rc == ExitCode.OK
    result = json.loads(out)["results"][0]
    fit = result["details"]["fit"]
    assert fit["key"] == key
    assert result["heap_bytes"] == fit["heap_bytes"] <= fit["budget"] < fit["next_heap_bytes"]


def test_fit_agrees_with_the_engine():
    p = make_platform(page_size=4096)
    job = Job.of(
        POOL,
        p,
        dict(name="mp", count=1, elt_size=40, cache_size=0, private_size=0, cache_layout="pointer"),
    )
    value, best = job.fit(0, 10**8)
    one_more = api.pool(api.PoolSpec(name="mp", count=value + 1, elt_size=40), p)
    assert best.heap_bytes <= 10**8 < one_more.heap_bytes


def test_fit_with_a_cache_skips_the_small_invalid_counts(run):
    rc, out, _ = run("pool", "--elt-size", "64", "--cache-size", "512", "--fit", "10M", "--json")
    assert rc == ExitCode.OK
    assert json.loads(out)["results"][0]["details"]["fit"]["value"] >= 768


def test_fit_nothing_fits(run):
    rc, out, _ = run("pool", "--elt-size", "64", "--cache-size", "512", "--fit", "1K", "--json")
    assert rc == ExitCode.REJECTED
    assert "no valid count fits" in json.loads(out)["results"][0]["errors"][0]["reason"]


def test_count_is_required_without_fit(run):
    rc, _, err = run("pool", "--elt-size", "64")
    assert rc == ExitCode.USAGE and "--count is required" in err


def test_explain_names_the_dpdk_functions_and_values(run):
    rc, out, _ = run("rib", "--routes", "1M", "--explain")
    assert rc == ExitCode.OK
    assert "2 cache lines share a factor with 4 channels x 1 ranks -> 3 cache lines = 192 B" in out
    for fn in (
        "rte_mempool_calc_obj_size",
        "arch_mem_object_align",
        "rte_mempool_op_calc_mem_size_helper",
        "rte_ring_get_memsize_elem",
        "rte_mempool_create_empty",
    ):
        assert fn in out


def test_explain_savings_are_ranked_and_real(run):
    _rc, out, _ = run("mbuf", "--count", "8192", "--cache-size", "256", "--explain", "--json")
    result = json.loads(out)["results"][0]
    savings = result["details"]["explain"]["savings"]
    assert [s["saves"] for s in savings] == sorted((s["saves"] for s in savings), reverse=True)
    changes = {s["change"]: s for s in savings}
    # 8192 mbufs need 16,384 ring slots; 8191 fit in 8,192: the ring halves (65,536 B)
    assert changes["count 8,191 (the ring holds a power of two minus one)"]["saves"] >= 65_536
    assert changes["index-based per-lcore cache (the mempool index-cache RFC)"]["saves"] == 1_057_024 - 532_736
    for s in savings:
        assert s["total_bytes"] + s["saves"] == result["total_bytes"]


def test_max_total_exits_3_and_says_why(run):
    rc, out, err = run("rib", "--routes", "1M", "--max-total", "300M", "--json")
    assert rc == ExitCode.BUDGET and json.loads(out)["results"]
    assert "over --max-total 314,572,800" in err
    rc, _, err = run("rib", "--routes", "1M", "--max-total", "1G")
    assert rc == ExitCode.OK and err == ""


@pytest.mark.parametrize(
    "argv,labels",
    [
        # a ring's flags are RING_F_* (0x4 is exact_sz, not the mempool's sp_put)
        (("ring", "--count", "1000", "--flags", "exact_sz"), ["exact_sz"]),
        (("hash", "--entries", "1K", "--key-len", "16", "--extra-flags", "ext_table"), ["ext_table"]),
        (
            ("pool", "-n", "1000", "--elt-size", "40", "--flags", "no_cache_align,no_spread"),
            ["no_spread|no_cache_align"],
        ),
        (("pool", "-n", "1000", "--elt-size", "40", "--flags", "all"), None),
    ],
)
def test_the_gates_name_each_flag_combination_once_on_stderr_and_in_the_json(run_json, run, argv, labels):
    # one gate, evaluated once (mpcalc.service.request.evaluate): stderr says the JSON's failed checks' messages
    rc, doc = run_json(*argv, "--max-total", "1")
    assert rc == ExitCode.BUDGET
    _, _, err = run(*argv, "--max-total", "1", "--json")
    checks = doc["gates"]["checks"]
    names = ["|".join(r["flags"]) or "none" for r in doc["results"]]
    assert [c["flags"] for c in checks] == (labels or names) == names
    assert err.splitlines() == [f"mpcalc: {c['message']}" for c in checks]
    for c, r in zip(checks, doc["results"], strict=True):
        assert c["message"] == f"total_bytes {r['total_bytes']:,} ({c['flags']}) is over --max-total 1"
    assert doc["gates"]["ok"] is False and not any(c["ok"] for c in checks)


def test_baseline_and_tolerance(run, tmp_path):
    # the same configuration on another platform (a baseline of other options is an error: test_newuser.py);
    # arm64's 128-byte cache line makes each node 256 B instead of 192: +127,977,088 bytes (31.9%)
    rc, out, _ = run("rib", "--routes", "1M", "--json")
    base = tmp_path / "base.json"
    base.write_text(out)
    assert run("rib", "--routes", "1M", "--baseline", str(base))[0] == ExitCode.OK
    rc, _, err = run("rib", "--routes", "1M", "--arch", "arm64", "--baseline", str(base))
    assert rc == ExitCode.BUDGET and "total_bytes (none) grew from 400,801,632 to 528,778,720" in err
    assert run("rib", "--routes", "1M", "--arch", "arm64", "--baseline", str(base), "--tolerance", "20%")[0] == 3
    assert run("rib", "--routes", "1M", "--arch", "arm64", "--baseline", str(base), "--tolerance", "32%")[0] == 0
    assert run("rib", "--routes", "1M", "--arch", "arm64", "--baseline", str(base), "--tolerance", "123M")[0] == 0
    # smaller is never a regression
    rc, out, _ = run("rib", "--routes", "1M", "--arch", "arm64", "--json")
    base.write_text(out)
    assert run("rib", "--routes", "1M", "--baseline", str(base))[0] == ExitCode.OK


@pytest.mark.parametrize(
    "content,message",
    [
        (None, "cannot read baseline"),
        ("{}", "is not an mpcalc --json report"),
        ("not json", "is not an mpcalc --json report"),
    ],
)
def test_bad_baselines(run, tmp_path, content, message):
    path = tmp_path / "b.json"
    if content is not None:
        path.write_text(content)
    rc, _, err = run("rib", "--routes", "1M", "--baseline", str(path))
    assert rc == ExitCode.USAGE and message in err and len(err.strip().splitlines()) == 1


def test_bad_tolerance(run, tmp_path):
    path = tmp_path / "b.json"
    path.write_text(json.dumps({"results": [{"flags": [], "total_bytes": 1, "heap_bytes": 1}]}))
    rc, _, err = run("rib", "--routes", "1M", "--baseline", str(path), "--tolerance", "lots")
    assert rc == ExitCode.USAGE and "--tolerance" in err


def test_markdown_has_the_csv_numbers(run):
    rc, md, _ = run("pool", "-n", "8191", "--elt-size", "2304", "--format", "markdown")
    rc2, csv_out, _ = run("pool", "-n", "8191", "--elt-size", "2304", "--format", "csv")
    assert rc == rc2 == ExitCode.OK
    body = [ln for ln in md.splitlines() if ln.startswith("| ") and "---" not in ln]
    assert [ln.strip("| ").split(" | ") for ln in body] == [ln.split(",") for ln in csv_out.splitlines()]


@pytest.mark.parametrize(
    "argv",
    [
        ("rib", "--routes", "1M", "--flags", "all"),
        ("pool", "-n", "8191", "--elt-size", "2304", "--json"),
        ("plan", "examples/plans/l3fwd-router.toml", "--format", "csv"),
        ("diff", "--right", "--dpdk 26.07", "mbuf", "-n", "8191"),
    ],
)
def test_svg_saves_the_table_view(run, tmp_path, argv):
    svg = tmp_path / "view.svg"
    rc, out, _ = run(*argv, "--svg", str(svg))
    assert rc == ExitCode.OK and out
    text = svg.read_text()
    assert text.startswith("<svg") and "mpcalc" in text


def test_svg_to_an_unwritable_place(run, tmp_path):
    rc, _, err = run("rib", "--routes", "1M", "--svg", str(tmp_path / "no" / "such" / "dir.svg"))
    assert rc == ExitCode.OUTPUT and "--svg" in err and len(err.strip().splitlines()) == 1


def test_evaluate_puts_the_gates_in_its_outcome():
    from mpcalc.service.request import evaluate, request_of

    outcome = evaluate(request_of("ring", {"count": 1000, "flags": [0x4], "max_total": 1}))
    assert outcome.code == ExitCode.BUDGET and outcome.report.gates is not None
    assert outcome.report.to_dict()["gates"]["checks"][0]["flags"] == "exact_sz"
    assert outcome.messages == ("total_bytes 8,600 (exact_sz) is over --max-total 1",)
    assert evaluate(request_of("ring", {"count": 1000})).report.gates is None
