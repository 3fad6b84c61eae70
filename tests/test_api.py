"""mpcalc.api: every kind sized from Python as its command sizes it (the same document as ``--json``), bad
input refused with the value quoted, the platform's options as the command line gives them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import doc_blocks

from mpcalc import api
from mpcalc.dpdk.core.errors import InputError

ROUTES = Path(__file__).resolve().parent.parent / "examples" / "routes"

#: kind -> (the API's arguments, the command line's options): one case per kind mpcalc sizes
CASES: dict[str, tuple[dict[str, object], list[str]]] = {
    "pool": (
        {"count": "8K", "elt_size": 2304, "flags": "no_spread"},
        ["--count", "8K", "--elt-size", "2304", "--flags", "no_spread"],
    ),
    "mbuf": ({"count": 4096, "data_room": "2K"}, ["--count", "4096", "--data-room", "2K"]),
    "rib": ({"routes": "1M", "flags": ["no_cache_align"]}, ["--routes", "1M", "--flags", "no_cache_align"]),
    "fib": ({"routes": "100K"}, ["--routes", "100K"]),
    "rib6": ({"routes": 5000}, ["--routes", "5000"]),
    "fib6": ({"routes": 5000}, ["--routes", "5000"]),
    "ring": ({"count": 1000, "flags": "exact_sz"}, ["--count", "1000", "--flags", "exact_sz"]),
    "lpm": ({"max_rules": "64K"}, ["--max-rules", "64K"]),
    "hash": ({"entries": "1M", "key_len": 16}, ["--entries", "1M", "--key-len", "16"]),
    "lpm6": ({"max_rules": 1024}, ["--max-rules", "1024"]),
    "app": (
        {"command_line": ["dpdk-testpmd", "-l", "0-1", "--vdev", "net_null0", "--", "-i"]},
        ["--", "dpdk-testpmd", "-l", "0-1", "--vdev", "net_null0", "--", "-i"],
    ),
    "ovs": ({"port": ["dpdk0,type=dpdk,n_rxq=2"]}, ["--port", "dpdk0,type=dpdk,n_rxq=2"]),
}


def _doc(report: api.Report) -> dict[str, object]:
    return json.loads(json.dumps(report.to_dict()))


def test_every_kind_has_a_case():
    assert set(api.kinds()) - set(CASES) == {"trace"}  # a trace's case needs a recorded trace: below


@pytest.mark.parametrize("kind", sorted(CASES))
def test_the_api_answers_as_the_command(kind, run, schema_validator):
    args, options = CASES[kind]
    cut = options.index("--") if "--" in options else len(options)
    code, out, _ = run(kind, *options[:cut], "--json", *options[cut:])  # --json before the application's own --
    doc = json.loads(out)
    assert code == 0
    assert not list(schema_validator.iter_errors(doc))
    assert _doc(api.size(kind, **args)) == doc


def test_a_trace_from_python(tmp_path):
    folder = Path(__file__).resolve().parent / "conformance" / "traces" / "l3fwd-lpm"
    report = api.size("trace", trace=str(folder))
    assert report.command == "trace" and report.results[0].total_bytes > 0


def test_the_platform_is_given_as_the_command_line_gives_it():
    four_k = api.size("pool", count=1000, elt_size=64, platform={"page_size": "4K", "dpdk": "23.11"})
    assert four_k.platform["page_size"] == 4096 and four_k.platform["dpdk"] == "23.11"
    assert api.platform(page_size="1G", max_lcore=256).page_size == 1 << 30


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: api.size("pol", count=1), "'pol' is not a kind mpcalc sizes"),
        (lambda: api.size("pool", count="lots", elt_size=64), "'lots'"),
        (lambda: api.size("pool", counts=1), "pool has no parameter 'counts'"),
        (
            lambda: api.size("pool", count=1, elt_size=64, platform={"page": "2M"}),
            "the platform has no parameter 'page'",
        ),
        (lambda: api.platform(page_size="3M"), "3M"),
    ],
)
def test_bad_input_is_an_input_error_that_quotes_it(call, message):
    with pytest.raises(InputError, match=message):
        call()


def test_the_first_api_stays():
    r = api.pool(api.PoolSpec(name="mp", count=8191, elt_size=2304), api.platform())
    assert r.total_bytes == api.size("pool", name="mp", count=8191, elt_size=2304).results[0].total_bytes
    assert api.fib is not None and api.MbufSpec is not None
    assert sorted(api.__all__) == api.__all__


def test_the_readme_block_runs():
    """Every ```pycon block of README.md and docs/ (docs/python.md's "From Python"), run as a doctest."""
    import doctest

    blocks = doc_blocks("pycon")
    assert any(page.name == "python.md" for page, _ in blocks)
    for page, block in blocks:
        test = doctest.DocTestParser().get_doctest(block, {}, page.stem, str(page), 0)
        runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
        runner.run(test)
        assert runner.summarize(verbose=False).failed == 0
