"""The batch fast path gives exactly the answers of the command's own code.

``mpcalc batch --compact`` answers pools and RIBs from their sizes alone (PoolCalc.sizes,
rib_footprint), column by column, and parses lines with orjson where it is installed.  Each of
those is held here against the path it shortcuts: the same batch with the fast path switched off,
the engine's records, and json.loads.
"""

from __future__ import annotations

import io
import json

import click
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mpcalc import engine
from mpcalc.cli import cli, platform_of
from mpcalc.commands import batch as B
from mpcalc.dpdk.mempool import PoolSpec, pool_calc
from mpcalc.dpdk.rib import rib_footprint, rib_max_nodes

# --- whole batches: fast path on and off -------------------------------------------------------------------------

INTS = st.one_of(st.integers(-2, 70_000), st.integers(0, 2**31), st.sampled_from([0, 1, 2**30 - 1, 2**30, 2**32 - 1,
                                                                                  2**32, 2**64, -1]))
VALUES = {
    "count": st.one_of(INTS, st.sampled_from(["1K", "1Mi", "1X", 5.0, 5.5, True, None, {"a": 1}, [1]])),
    "elt_size": st.one_of(INTS, st.sampled_from(["2K", "0x40", None, False])),
    "cache_size": st.one_of(st.integers(0, 600), st.sampled_from(["256", None, -1])),
    "private_size": st.one_of(st.integers(0, 200), st.sampled_from([None, "1K"])),
    "cache_layout": st.sampled_from(["pointer", "index", "bogus", None]),
    "flags": st.sampled_from(["0x0", "0x5", "0x22", "0x100", "all", "none", ["no_spread", "sc_get"], [], "bogus", 3,
                              None, "no_cache_align|no_spread|no_iova_contig"]),
    "name": st.one_of(st.sampled_from(["mp", "x" * 22, "x" * 23, "x" * 25, "x" * 26, "x" * 29, "été", "", None, 7,
                                       {"n": 1}]),
                      st.text(max_size=30)),
    "routes": st.one_of(INTS, st.sampled_from(["1M", None])),
    "nodes": st.one_of(INTS, st.sampled_from([None, "64Ki"])),
    "ext_size": st.one_of(st.integers(0, 300), st.sampled_from([None, 2**40])),
    "page_size": st.sampled_from([4096, "2M", "4K", "none", "1G", 3, 0, None, "2X", {"x": 1}, ["4K"]]),
    "channels": st.one_of(st.integers(0, 9), st.sampled_from([None, "4", 2**32])),
    "ranks": st.one_of(st.integers(0, 17), st.sampled_from([None])),
    "dpdk": st.sampled_from(["21.11", "22.11", "26.07", "19.11", None]),
    "arch": st.sampled_from(["x86_64", "arm64", "riscv64", "bogus", None]),
    "platform": st.sampled_from(["graviton2", "cn10k", "znver4", None]),
    "debug": st.sampled_from([True, False, None, "yes", 1]),
    "max_lcore": st.sampled_from([None, 0, 1, 256, "1Ki"]),
    "cache_line": st.sampled_from([None, "64", "128", 128, "96"]),
    "colour": st.just("red"),
    "explain": st.booleans(),
}
COMMON = ["page_size", "channels", "ranks", "dpdk", "arch", "platform", "debug", "max_lcore", "cache_line", "flags",
          "name", "colour", "explain"]
KEYS = {
    "pool": ["count", "elt_size", "cache_size", "private_size", "cache_layout", *COMMON],
    "rib": ["routes", "nodes", "ext_size", *COMMON],
    "rib6": ["routes", "nodes", "ext_size", *COMMON],
    "mbuf": ["count", "cache_size"],
}


@st.composite
def records(draw: st.DrawFn) -> object:
    command = draw(st.sampled_from(["pool", "pool", "pool", "rib", "rib6", "mbuf", "bogus"]))
    keys = KEYS.get(command, ["count"])
    # most lines are plain (as a program writes them); some carry every kind of trouble
    plain = draw(st.booleans())
    rec: dict[str, object] = {"command": command}
    for key in draw(st.lists(st.sampled_from(keys), max_size=8, unique=True)):
        if plain and key in ("colour", "explain", "platform", "cache_line", "max_lcore"):
            continue
        rec[key] = draw(VALUES[key])
    if plain:
        if command == "pool":
            rec.setdefault("count", draw(st.integers(1, 3_000_000)))
            rec.setdefault("elt_size", draw(st.integers(0, 65_536)))
        elif command in ("rib", "rib6"):
            rec.pop("nodes", None)
            rec["routes"] = draw(st.integers(1, 2_000_000))
    return rec


LINES = st.lists(st.one_of(records().map(json.dumps), records().map(json.dumps),
                           st.sampled_from(["not json", '["a list"]', "", "   ", '{"command": "pool", "count": 1e400}',
                                            '{"command": "pool", "count": 18446744073709551617, "elt_size": 8}',
                                            '{"command": "pool", "count": 10, "elt_size": 8, "count": 12}'])),
                 min_size=1, max_size=40)


def run(lines: list[str], fast: bool) -> tuple[int, str]:
    ctx = click.Context(cli)
    out = io.StringIO()
    saved = B.Evaluator.fast_many
    if not fast:
        B.Evaluator.fast_many = lambda self, records, labels: [None] * len(records)  # type: ignore[method-assign]
    try:
        with ctx:  # the command's code reports to the current context, as under `mpcalc batch`
            rc = B.run_batch(ctx, io.BytesIO("".join(line + "\n" for line in lines).encode()), out, compact=True)
    finally:
        B.Evaluator.fast_many = saved  # type: ignore[method-assign]
    return rc, out.getvalue()


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(LINES)
def test_the_fast_path_answers_exactly_as_the_command_does(lines):
    assert run(lines, fast=True) == run(lines, fast=False)


def test_rows_with_every_flag_combination_among_rejected_rows():
    """A row answered once per flag combination shares its platform with rows the full path answers."""
    lines = [json.dumps({"command": "pool", "count": 1000, "elt_size": 40, "flags": "all"})]
    lines += [json.dumps({"command": "pool", "count": "1X", "elt_size": 40 + i}) for i in range(7)]
    lines += [json.dumps({"command": "rib", "routes": 1000, "flags": "all"})]
    lines += [json.dumps({"command": "rib", "routes": 0, "ext_size": i}) for i in range(7)]
    assert run(lines, fast=True) == run(lines, fast=False)
    assert run(lines[::-1], fast=True) == run(lines[::-1], fast=False)


@pytest.mark.parametrize("compact", [True, False])
def test_a_batch_leaves_no_cyclic_garbage(compact):
    """What `mpcalc batch` freezes out of the collector's sight is freed by reference counting alone."""
    import gc

    lines = [json.dumps({"command": "pool", "count": 100 + i, "elt_size": i, "flags": "all" if i % 7 else "0x5"})
             for i in range(300)]
    lines += [json.dumps({"command": c, "routes": 10 + i}) for c in ("rib", "fib", "fib6") for i in range(40)]
    lines += [json.dumps({"command": "mbuf", "count": 500 + i, "cache_size": 256}) for i in range(40)]
    lines += ["not json", '{"command": "pool", "count": "1X", "elt_size": 8}', '{"command": "pool", "colour": 1}',
              '{"command": "pool", "count": 0, "elt_size": 8}'] * 10
    gc.collect()
    gc.disable()  # what the batch leaves for the collector stays until the collect below
    try:
        ctx = click.Context(cli)
        with ctx:
            B.run_batch(ctx, io.BytesIO("".join(line + "\n" for line in lines).encode()), io.StringIO(), compact)
    finally:
        gc.enable()
    assert gc.collect() == 0


def test_a_fault_of_the_fast_path_does_not_end_the_batch(monkeypatch):
    lines = [json.dumps({"command": "pool", "count": 10 + i, "elt_size": 8}) for i in range(20)]
    expected = run(lines, fast=False)

    def broken(self, records, labels):  # type: ignore[no-untyped-def]
        raise RuntimeError("a bug")

    monkeypatch.setattr(B.Evaluator, "fast_many", broken)
    ctx = click.Context(cli)
    out = io.StringIO()
    with ctx:
        rc = B.run_batch(ctx, io.BytesIO("".join(line + "\n" for line in lines).encode()), out, compact=True)
    assert (rc, out.getvalue()) == expected


def test_the_fast_path_takes_the_usual_lines():
    """The equality above would hold trivially if nothing took the fast path."""
    ctx = click.Context(cli)
    ev = B.Evaluator(ctx)
    rows = [{"command": "pool", "count": 100 + i, "elt_size": 40, "flags": "0x5", "page_size": 4096} for i in range(50)]
    rows += [{"command": "rib", "routes": 10 + i} for i in range(50)]
    answers = ev.fast_many(rows, {})
    assert all(a is not None for a in answers)
    assert ev.fast_many([{"command": "fib", "routes": 10}, {"command": "pool", "count": 1}], {}) == [None, None]


# --- the sums against the records ----------------------------------------------------------------------------------

PLATFORMS = st.builds(
    lambda dpdk, arch, channels, ranks, page, debug: platform_of(dpdk, arch, None, None, None, debug, None, channels,
                                                                 ranks, page),
    st.sampled_from(["21.11", "22.11", "23.11", "26.07"]), st.sampled_from(["x86_64", "arm64"]),
    st.integers(1, 8), st.integers(1, 4), st.sampled_from([0, 4096, 2 << 20, 1 << 30]), st.booleans())


@given(PLATFORMS, st.integers(0, 2**32 - 1), st.one_of(st.integers(0, 70_000), st.integers(0, 2**32 - 1)),
       st.integers(0, 600), st.one_of(st.integers(0, 300), st.integers(2**32 - 300, 2**32 - 1)), st.integers(0, 0x7F),
       st.sampled_from(["pointer", "index"]),
       st.sampled_from(["mp", "x" * 22, "x" * 23, "x" * 26]))
def test_pool_sizes_sum_what_the_records_hold(p, count, elt_size, cache_size, private_size, flags, layout, name):
    s = pool_calc(p).sizes(name, count, elt_size, cache_size, private_size, flags, layout)
    r = engine.pool(PoolSpec(name=name, count=count, elt_size=elt_size, cache_size=cache_size,
                             private_size=private_size, flags=flags, cache_layout=layout), p)
    mp = r.mempools[0]
    assert (s.object_size, s.total_bytes, s.heap_bytes) == (
        mp.objsz.total_size if mp.objsz else None, r.total_bytes, r.heap_bytes)
    assert s.errors == r.errors


@given(PLATFORMS, st.one_of(st.integers(1, 3_000_000), st.integers(2**29, 2**31)), st.integers(0, 300),
       st.integers(0, 0x2F), st.sampled_from([4, 6]), st.sampled_from(["rib", "y" * 30, "z" * 61]))
def test_rib_footprint_sums_what_the_records_hold(p, routes, ext_size, flags, family, name):
    nodes = rib_max_nodes(routes)
    fp = rib_footprint(name, nodes, ext_size, flags, family, pool_calc(p))
    r = engine.rib(name, nodes, ext_size, flags, family, p)
    obj = r.mempools[0].objsz.total_size if r.mempools and r.mempools[0].objsz else None
    assert (fp.object_size, fp.total_bytes, fp.heap_bytes, fp.errors) == (obj, r.total_bytes, r.heap_bytes, r.errors)


# --- parsing ---------------------------------------------------------------------------------------------------------

JSON_LINES = st.one_of(
    st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
                 lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=5),
                 max_leaves=12).map(lambda v: json.dumps(v).encode()),
    st.binary(max_size=40),
    st.sampled_from([b'{"a": 18446744073709551617}', b'{"a": 1e400}', b'{"a": NaN}', b'{"a": "\\ud800"}',
                     b'{"a": 1, "a": 2}', b'{"a": 1} x', b'\xff\xfe{\x00}\x00', b'{"a": -0}', b'{"a": 1.0}']))


@given(JSON_LINES)
def test_the_line_parser_is_json_loads(text):
    parse = B._parser(json)
    try:
        expected = json.loads(text)
    except ValueError as exc:
        got = parse(text)
        assert isinstance(got, B._NotJSON) and got.message == str(exc)
        return
    got = parse(text)
    assert got == expected or (got != got and expected != expected)  # NaN
    assert json.dumps(got) == json.dumps(expected)  # the same types: 1 stays an int, 1.0 a float



# --- sweeps: sizes alone against the command's own code -----------------------------------------------------------

SWEEPS = [
    ["pool", "--vary", "count=0..3M", "--steps", "40", "--elt-size", "40", "--cache-size", "256"],
    ["pool", "--vary", "elt-size=0..64K", "--steps", "60", "--count", "8191", "--cache-layout", "index"],
    ["pool", "--vary", "elt-size=4294967000..4294967295", "--steps", "30", "--count", "10", "--flags", "0x3"],
    ["pool", "--vary", "cache-size=0..600", "--steps", "30", "--count", "300", "--elt-size", "64", "--dpdk", "26.07"],
    ["pool", "--vary", "private-size=0..4294967295", "--steps", "25", "--count", "100", "--elt-size", "8",
     "--name", "x" * 24, "--page-size", "none", "--format", "jsonl"],
    ["pool", "--vary", "count=1..2G", "--steps", "30", "--log", "--elt-size", "2K", "--arch", "arm64"],
    ["rib", "--vary", "routes=1..2G", "--steps", "40", "--log", "--page-size", "4K"],
    ["rib6", "--vary", "nodes=1..1M", "--steps", "20", "--ext-size", "24", "--flags", "no_cache_align"],
    ["rib", "--vary", "ext-size=0..4294967295", "--steps", "20", "--routes", "1000", "--name", "n" * 62],
    ["rib", "--vary", "nodes=1..100", "--routes", "5"],  # both routes and nodes: the command's usage error
    ["pool", "--vary", "count=1..100", "--elt-size", "8", "--max-total", "1K"],  # a CI gate: the command's code
    ["mbuf", "--vary", "count=1..100K", "--steps", "10"],
    ["pool", "--vary", "count=0..100K", "--steps", "5000", "--elt-size", "8", "--flags", "no_spread"],  # 2 blocks
]


@pytest.mark.parametrize("argv", SWEEPS, ids=[" ".join(a[:3]) for a in SWEEPS])
def test_a_sweep_from_sizes_alone_is_the_commands_sweep(argv, capsys, monkeypatch):
    from mpcalc.cli import main
    from mpcalc.commands import sweep

    rc = main(["sweep", *argv])
    fast = rc, *capsys.readouterr()
    monkeypatch.setattr(sweep, "footprints", lambda *args: None)
    rc = main(["sweep", *argv])
    assert fast == (rc, *capsys.readouterr())
    assert fast[1] or fast[0] == 2


def test_pool_and_rib_sweeps_are_summed_from_sizes(capsys, monkeypatch):
    from mpcalc.cli import main
    from mpcalc.commands import sweep

    taken = []
    real = sweep.footprints
    monkeypatch.setattr(sweep, "footprints", lambda *args: taken.append(real(*args)) or taken[-1])
    assert main(["sweep", "pool", "--vary", "count=1..10", "--elt-size", "8"]) == 0
    assert main(["sweep", "rib6", "--vary", "routes=1..10"]) == 0
    assert main(["sweep", "mbuf", "--vary", "count=1..10"]) == 0
    capsys.readouterr()
    assert [t is not None for t in taken] == [True, True, False]
