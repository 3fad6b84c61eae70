"""Hostile and careless input (issue 27): every reader bounded, one line of error, nothing lost, nothing
overwritten.

Each case is small by construction (a 2 MiB line, not 1 GiB; a bomb whose bound is lowered for the test), so
it is bounded in time and memory without a clock: a case that used to hang or grow now ends at the bound.
Each asserts the documented exit code (mpcalc.service.exitcodes, the README's table), no traceback, no exit 4,
and an error of one line that quotes at most about 80 characters of the input.
"""

from __future__ import annotations

import bz2
import gzip
import io
import json
import lzma
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import doc_section
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mpcalc.cli import main
from mpcalc.dpdk.core import limits
from mpcalc.service.exitcodes import ExitCode

POOL = '{"command":"pool","count":1000,"elt_size":40}'


def one_line_error(err: str) -> str:
    """The one error line of a refusal: no traceback, quoting at most about 80 characters of the input."""
    assert "Traceback" not in err and "internal error" not in err, err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert len(lines[0]) < 400, lines[0]
    return lines[0]


def batch(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], text: bytes, *args: str):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text)))
    capsys.readouterr()
    rc = main(["batch", *args])
    out, err = capsys.readouterr()
    return rc, [json.loads(line) for line in out.splitlines()], err


# -- 1. deep JSON in a batch: the line's error record, the batch goes on ---------------------------------------

DEEP = ["[" * 1000 + "]" * 1000, '{"a":' * 1000 + "1" + "}" * 1000, "[" * 5000, '{"command":"pool","x":' + "[" * 999]


@pytest.mark.parametrize("compact", [(), ("--compact",)])
@pytest.mark.parametrize("deep", DEEP)
def test_a_deeply_nested_line_is_its_own_error_and_the_batch_goes_on(monkeypatch, capsys, deep, compact):
    rc, docs, err = batch(monkeypatch, capsys, f"{POOL}\n{deep}\n{POOL}\n".encode(), *compact)
    assert rc == ExitCode.USAGE and err == ""
    assert [d.get("line", n) for n, d in enumerate(docs, 1)] == [1, 2, 3]
    assert docs[1]["exit_code"] == ExitCode.USAGE and f"deeper than {limits.MAX_DEPTH}" in docs[1]["error"]
    assert len(docs[1]["error"]) < 200
    first, last = ({k: v for k, v in d.items() if k != "line"} for d in (docs[0], docs[2]))
    assert first == last and "error" not in first


def test_a_deeply_nested_line_in_a_file_with_jobs(tmp_path):
    path = tmp_path / "b.jsonl"
    path.write_text("".join(f"{POOL}\n" if i % 50 else "[" * 3000 + "\n" for i in range(1, 400)))
    for jobs in ("1", "2"):
        got = subprocess.run(
            [sys.executable, "-m", "mpcalc", "batch", "--compact", "--jobs", jobs, str(path)],
            capture_output=True,
            text=True,
            check=False,
        )
        assert got.returncode == ExitCode.USAGE and got.stderr == ""
        docs = [json.loads(line) for line in got.stdout.splitlines()]
        assert [d["line"] for d in docs] == list(range(1, 400))
        assert sum("error" in d for d in docs) == 399 // 50


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=20,
)


@given(
    value=_JSON,
    depth=st.integers(0, 3 * limits.MAX_DEPTH),
    key=st.sampled_from(["command", "count", "elt_size", "flags", "name", "x"]),
)
def test_batch_lines_of_every_json_type_and_depth(value, depth, key):
    """Any JSON value, at any depth, as a line or under a key of a pool line: its answer or its error record
    (exit 1 or 2), never exit 4, and the lines around it answered."""
    from mpcalc.service.batch import Answerer

    deep = value
    for _ in range(depth):
        deep = [deep]
    record = json.loads(POOL)
    record[key] = deep
    answerer = Answerer(compact=True)
    for line in (json.dumps(deep), json.dumps(record)):
        text, code = answerer.chunk(1, [POOL.encode(), line.encode(), POOL.encode()])
        docs = [json.loads(x) for x in text.splitlines()]
        assert [d["line"] for d in docs] == [1, 2, 3]
        assert code != ExitCode.INTERNAL and docs[1].get("exit_code", 0) != ExitCode.INTERNAL, docs[1]
        assert len(text.splitlines()[1]) < 1000


# -- 2. a route "line" without a newline: refused as the bytes arrive -------------------------------------------


def fib(run, path: Path | str, *extra: str):
    got = run("fib", "--routes-file", str(path), *extra)
    return got.code, got.err


def test_dev_zero_is_a_binary_file_at_the_first_read(run):
    code, err = fib(run, "/dev/zero")
    assert code == ExitCode.USAGE and "binary file (contains NUL bytes)" in one_line_error(err)


@pytest.mark.parametrize("fmt", ["auto", "plain", "ip", "bird", "bgpdump"])
@pytest.mark.parametrize("newline_first", [False, True])
def test_a_line_longer_than_the_bound_is_refused(run, tmp_path, fmt, newline_first):
    path = tmp_path / "long.txt"
    path.write_bytes((b"10.0.0.0/8\n" if newline_first else b"") + b"1" * (2 << 20))
    code, err = fib(run, path, "--routes-format", fmt)
    line = one_line_error(err)
    assert code == ExitCode.USAGE and f"longer than {limits.MAX_LINE_BYTES:,} bytes" in line


def test_a_long_line_among_short_ones_is_refused(run, tmp_path):
    path = tmp_path / "long.txt"
    path.write_bytes(b"10.0.0.0/8 via 1.1.1.1\n" + b"x" * (limits.MAX_LINE_BYTES + 10) + b"\n10.1.0.0/16\n")
    code, err = fib(run, path, "--routes-format", "ip")
    assert code == ExitCode.USAGE and "line 2 is longer" in one_line_error(err)


@pytest.mark.parametrize("pack", [gzip.compress, bz2.compress, lzma.compress])
def test_a_compression_bomb_is_refused_at_the_ratio(run, tmp_path, monkeypatch, pack):
    from mpcalc.dpdk.objects.routes import sources

    monkeypatch.setattr(sources, "RATIO_AFTER_BYTES", 1 << 20)
    path = tmp_path / "bomb"
    path.write_bytes(pack(b"10.0.0.0/8\n" * (1 << 20)))  # 11 MiB of one route, a few KiB packed
    code, err = fib(run, path)
    assert code == ExitCode.USAGE and f"more than {limits.MAX_RATIO:,} times its size" in one_line_error(err)


def test_a_bomb_without_newlines_is_refused_at_the_line_bound(run, tmp_path):
    path = tmp_path / "bomb.bz2"
    path.write_bytes(bz2.compress(b"1" * (4 << 20)))
    code, err = fib(run, path)
    assert code == ExitCode.USAGE and "longer than" in one_line_error(err)


def test_an_mrt_record_over_its_bound_is_refused(run, tmp_path):
    head = (0).to_bytes(4, "big") + (13).to_bytes(2, "big") + (2).to_bytes(2, "big")
    path = tmp_path / "big.mrt"
    path.write_bytes(head + (limits.MAX_MRT_RECORD_BYTES + 1).to_bytes(4, "big") + b"\1" * 4096)
    code, err = fib(run, path, "--routes-format", "mrt")
    assert code == ExitCode.USAGE and f"over the bound of {limits.MAX_MRT_RECORD_BYTES:,}" in one_line_error(err)


# -- 5. FRR JSON of the wrong types, 3. and too deep ------------------------------------------------------------

FRR_BAD = [
    '{"10.2.0.0/16": [5]}',
    '{"10.2.0.0/16": 5}',
    '{"10.2.0.0/16": []}',
    '{"10.2.0.0/16": [{"selected": true, "nexthops": 7}]}',
    '{"10.2.0.0/16": [{"nexthops": [1, 2]}]}',
    '{"default": {"10.2.0.0/16": [{"nexthops": "x"}]}}',
    '{"10.0.0.0/8": ' + "[" * 3000 + "]" * 3000 + "}",
    '{"10.0.0.0/8": [{"a": ' + '{"b":' * 2000 + "}" * 2000 + "}]}",
]


@pytest.mark.parametrize("doc", FRR_BAD)
def test_frr_json_of_wrong_types_or_depth_is_refused(run, tmp_path, doc):
    path = tmp_path / "r.json"
    path.write_text(doc)
    code, err = fib(run, path, "--routes-format", "frr-json")
    assert code == ExitCode.USAGE, err
    line = one_line_error(err)
    assert "not a list" in line or f"deeper than {limits.MAX_DEPTH}" in line


def test_frr_json_of_the_right_types_is_read(run, tmp_path):
    path = tmp_path / "r.json"
    path.write_text('{"10.2.0.0/16": [{"selected": true, "nexthops": [{"ip": "1.2.3.4", "active": true}]}]}')
    assert fib(run, path, "--routes-format", "frr-json")[0] == ExitCode.OK


# -- 3., 4. plan files and inspect inputs: nesting, dotted keys, keys, sizes, lines bounded before the parser ---

PLAN = """[platform]
dpdk = "22.11"

[[pool]]
name = "mb"
count = 8191
elt_size = 2304
"""


def plan(run, tmp_path: Path, text: str, *extra: str):
    path = tmp_path / "p.toml"
    path.write_text(text)
    got = run("plan", str(path), *extra)
    return got.code, got.err, path


@pytest.mark.parametrize(
    ("tail", "says"),
    [
        ("x" + ".x" * 50_000 + " = 1\n", f"more than {limits.MAX_KEY_PARTS} parts"),
        ("[" + ".".join(["t"] * 40) + "]\nk = 1\n", f"more than {limits.MAX_KEY_PARTS} parts"),
        ("v = " + "[" * 5000 + "]" * 5000 + "\n", f"deeper than {limits.MAX_DEPTH}"),
        ("v = " + "{a = " * 2000 + "1" + "}" * 2000 + "\n", f"deeper than {limits.MAX_DEPTH}"),
        ("".join(f"k{i} = {i}\n" for i in range(limits.MAX_KEYS + 1)), f"more than {limits.MAX_KEYS:,} keys"),
    ],
    ids=["dotted-key", "dotted-table", "deep-array", "deep-inline-table", "keys"],
)
def test_a_plan_file_of_hostile_shape_is_refused_before_tomllib(run, tmp_path, tail, says):
    code, err, _ = plan(run, tmp_path, PLAN + "[extra]\n" + tail)
    assert code == ExitCode.USAGE and says in one_line_error(err)


def test_a_plan_file_over_its_size_is_refused_without_being_read_whole(run):
    got = run("plan", "/dev/zero")  # endless: only the bound is read
    assert got.code == ExitCode.USAGE and f"{limits.MAX_PLAN_BYTES:,} bytes" in one_line_error(got.err)


def test_every_example_plan_passes_the_shape_check():
    for path in Path("examples/plans").glob("*.toml"):
        limits.check_toml_shape(path.read_text(), str(path))


def test_deep_telemetry_json_is_refused(run, tmp_path):
    path = tmp_path / "t.json"
    path.write_text('{"/mempool/info": ' + "[" * 3000 + "]" * 3000 + "}\n")
    got = run("inspect", str(path))
    assert got.code == ExitCode.USAGE and f"deeper than {limits.MAX_DEPTH}" in one_line_error(got.err)


def test_a_dump_line_over_the_bound_is_refused(run, tmp_path):
    path = tmp_path / "d.txt"
    path.write_text("mempool <mb_pool_0>@0x17fe8a140\n  flags=10\n" + "x" * (2 << 20) + "\n")
    got = run("inspect", str(path))
    assert got.code == ExitCode.USAGE and "longer than" in one_line_error(got.err)


# -- 6., 7. an output that cannot be written: one line naming it, exit 5 (OUTPUT) -----------------------------

WRITERS = [
    ("rib", "--routes", "1K"),
    ("rib", "--routes", "1K", "--json"),
    ("--help",),
    ("pool", "--help"),
    ("--version",),
    ("schema",),
    ("sweep", "pool", "--vary", "count=1K..2K", "--steps", "3", "--elt-size", "64"),
    ("plan", "examples/plans/l3fwd-router.toml"),
    ("inspect", "examples/inspect/mempool-dump.txt"),
    ("batch", "--compact", "examples/batch.jsonl"),
]


def _run_to(argv: tuple[str, ...], how: str) -> subprocess.CompletedProcess[str]:
    """The installed command with its stdout closed (``>&-``) or on /dev/full."""
    if how == "closed":
        return subprocess.run(
            [sys.executable, "-m", "mpcalc", *argv],
            capture_output=False,
            stderr=subprocess.PIPE,
            text=True,
            check=False,
            preexec_fn=lambda: os.close(1),  # the child closes its own stdout
        )
    with open("/dev/full", "w") as full:
        return subprocess.run(
            [sys.executable, "-m", "mpcalc", *argv], stdout=full, stderr=subprocess.PIPE, text=True, check=False
        )


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
@pytest.mark.parametrize("how", ["closed", "full"])
@pytest.mark.parametrize("argv", WRITERS, ids=lambda a: " ".join(a)[:30])
def test_an_unwritable_stdout_is_one_line_and_exit_5(argv, how):
    got = _run_to(argv, how)
    line = one_line_error(got.stderr)
    assert got.returncode == ExitCode.OUTPUT, got.stderr
    assert line.startswith("mpcalc: error: cannot write standard output: "), line


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
def test_a_parallel_batch_on_a_full_disk_is_exit_5(tmp_path):
    path = tmp_path / "b.jsonl"
    path.write_text(f"{POOL}\n" * 30_000)
    with open("/dev/full", "w") as full:
        got = subprocess.run(
            [sys.executable, "-m", "mpcalc", "batch", "--jobs", "2", str(path)],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            check=False,
        )
    assert got.returncode == ExitCode.OUTPUT and "cannot write standard output" in one_line_error(got.stderr)


def test_quiet_writes_nothing_so_a_closed_stdout_is_no_error():
    assert _run_to(("-q", "rib", "--routes", "1K"), "closed").returncode == ExitCode.OK


def test_a_reader_that_goes_away_is_still_no_error(tmp_path):
    path = tmp_path / "b.jsonl"
    path.write_text("".join(f'{{"command":"pool","count":{n},"elt_size":40}}\n' for n in range(1, 20_000)))
    got = subprocess.run(
        f"{sys.executable} -m mpcalc batch --compact --jobs 1 {path} | head -c 10 >/dev/null; exit ${{PIPESTATUS[0]}}",
        shell=True,
        executable="/bin/bash",
        capture_output=True,
        text=True,
        check=False,
    )
    assert got.returncode == ExitCode.OK and got.stderr == ""


def test_an_unwritable_svg_is_exit_5(run, tmp_path):
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        if os.access(folder, os.W_OK):
            pytest.skip("root writes anywhere")
        got = run("rib", "--routes", "1K", "--svg", str(folder / "x.svg"))
    finally:
        folder.chmod(0o700)
    assert got.code == ExitCode.OUTPUT and "--svg" in one_line_error(got.err)


# -- 8. a file written whole, then renamed into place --------------------------------------------------------


def test_an_svg_is_written_beside_and_renamed(run, tmp_path, monkeypatch):
    """While the new SVG is written the old one is whole; the new one comes by one rename in the same folder."""
    from rich.console import Console

    target = tmp_path / "t.svg"
    target.write_text("old")
    seen = []
    save = Console.save_svg

    def spy(self, path, **kwargs):
        seen.append((Path(path).parent, Path(path) != target, target.read_text()))
        return save(self, path, **kwargs)

    monkeypatch.setattr(Console, "save_svg", spy)
    assert run("rib", "--routes", "1K", "--svg", str(target)).code == ExitCode.OK
    assert seen == [(tmp_path, True, "old")]
    assert target.read_text().startswith("<svg") and list(tmp_path.iterdir()) == [target]


def test_a_plot_is_written_beside_and_renamed(run, tmp_path, monkeypatch):
    pytest.importorskip("matplotlib")
    from matplotlib.figure import Figure

    target = tmp_path / "t.svg"
    target.write_text("old")
    seen = []
    savefig = Figure.savefig

    def spy(self, fname, **kwargs):
        seen.append((Path(fname).parent, Path(fname) != target, target.read_text()))
        return savefig(self, fname, **kwargs)

    monkeypatch.setattr(Figure, "savefig", spy)
    assert run("rib", "--routes", "1K", "--plot", str(target)).code == ExitCode.OK
    assert seen == [(tmp_path, True, "old")]
    assert "<svg" in target.read_text()[:200] and list(tmp_path.iterdir()) == [target]


def test_two_writers_of_one_plot_leave_a_whole_svg(tmp_path):
    pytest.importorskip("matplotlib")
    import xml.etree.ElementTree as ET

    target = tmp_path / "p.svg"
    argv = [sys.executable, "-m", "mpcalc", "sweep", "pool", "--vary", "count=1K..100K", "--steps", "20"]
    procs = [
        subprocess.Popen([*argv, "--elt-size", size, "--plot", str(target)], stdout=subprocess.DEVNULL)
        for size in ("64", "2048")
    ]
    assert [p.wait() for p in procs] == [0, 0]
    ET.parse(target)  # whole: one writer's SVG
    assert list(tmp_path.iterdir()) == [target]


# -- 11. an output onto an input is refused before any work --------------------------------------------------


def test_an_svg_onto_the_plan_file_is_refused(run, tmp_path):
    code, err, path = plan(run, tmp_path, PLAN, "--svg", str(tmp_path / "p.toml"))
    assert code == ExitCode.USAGE and "--svg" in one_line_error(err) and path.read_text() == PLAN
    code, err, path = plan(run, tmp_path, PLAN, "--plot", str(tmp_path / "." / "p.toml"))
    assert code == ExitCode.USAGE and "--plot" in one_line_error(err) and path.read_text() == PLAN


def test_outputs_onto_the_baseline_are_refused(run, tmp_path):
    base = tmp_path / "base.json"
    got = run("pool", "--count", "100", "--elt-size", "64", "--json")
    base.write_text(got.out)
    link = tmp_path / "link.json"
    link.symlink_to(base)
    hard = tmp_path / "hard.json"
    os.link(base, hard)
    cases = [
        ("pool", "--count", "100", "--elt-size", "64", "--baseline", str(base), "--svg", str(link)),
        ("pool", "--count", "100", "--elt-size", "64", "--baseline", str(link), "--plot", str(hard)),
        ("sweep", "pool", "--vary", "count=1..9", "--elt-size", "64", "--baseline", str(base), "--plot", str(base)),
        ("diff", "--left", f"--svg {base}", "pool", "--count", "9", "--elt-size", "64", "--baseline", str(base)),
        ("inspect", "examples/inspect/mempool-dump.txt", "--svg", "examples/inspect/mempool-dump.txt"),
    ]
    for argv in cases:
        got = run(*argv)
        assert got.code == ExitCode.USAGE and "would overwrite it" in one_line_error(got.err), argv
        assert base.read_text().startswith("{"), argv
    assert Path("examples/inspect/mempool-dump.txt").read_text().startswith("mempool")


def test_an_svg_beside_its_inputs_is_written(run, tmp_path):
    code, _, _ = plan(run, tmp_path, PLAN, "--svg", str(tmp_path / "p.svg"))
    assert code == ExitCode.OK and (tmp_path / "p.svg").read_text().startswith("<svg")


# -- 9. --tolerance without --baseline; 10. a release as a TOML or JSON number ------------------------------


@pytest.mark.parametrize("tolerance", ["garbage", "2%", "64K"])
def test_a_tolerance_without_a_baseline_is_a_usage_error(run, tolerance):
    got = run("pool", "--count", "100", "--elt-size", "64", "--tolerance", tolerance)
    assert got.code == ExitCode.USAGE and "--tolerance" in one_line_error(got.err)


def test_a_release_as_a_number(run, tmp_path, monkeypatch, capsys):
    as_text = plan(run, tmp_path, PLAN, "--json")
    assert as_text[0] == ExitCode.OK
    code, err, _ = plan(run, tmp_path, PLAN.replace('"22.11"', "22.11"))
    assert code == ExitCode.OK and err == ""
    code, err, _ = plan(run, tmp_path, PLAN.replace('"22.11"', "24.5"))
    assert code == ExitCode.USAGE and "24.5 is a number, not one of" in one_line_error(err) and '"24.5"' in err
    rc, docs, _ = batch(monkeypatch, capsys, (POOL[:-1] + ',"dpdk":23.11}\n').encode(), "--compact")
    assert rc == ExitCode.OK and "error" not in docs[0]


# -- 12. every cache bounded ---------------------------------------------------------------------------------


def test_every_lru_cache_of_mpcalc_has_a_bound():
    import functools

    caches = [
        f
        for name, module in list(sys.modules.items())
        if name.startswith("mpcalc")
        for f in vars(module).values()
        if isinstance(f, functools._lru_cache_wrapper)
    ]
    assert caches
    assert [f.__qualname__ for f in caches if f.cache_parameters()["maxsize"] is None] == []


def test_the_memo_tables_of_a_batch_stay_within_their_bounds():
    from mpcalc.dpdk.core.platform import make_platform
    from mpcalc.dpdk.objects.mempool import create
    from mpcalc.service import batch as B

    calc = create.PoolCalc(make_platform())
    for slots in range(1, 3 * create._MEMO_LIMIT):
        calc.ring(slots)
    assert len(calc._rings) <= create._MEMO_LIMIT
    answerer = B.Answerer(compact=True)
    lines = [
        f'{{"command":"pool","name":"p{i}","count":{i + 1},"elt_size":{i % 999 + 1},"cache_size":{i % 500}}}'.encode()
        for i in range(2 * B.MEMO_LIMIT + 10)
    ]
    answerer.chunk(1, lines)
    assert len(answerer.seen) <= B.MEMO_LIMIT
    assert all(len(memo) <= B.MEMO_LIMIT for memo in answerer.lines._parsed.values())
    assert len(answerer.lines._shapes) <= B.MEMO_LIMIT


# -- generated: argument vectors, route files, plan files, inspect inputs ------------------------------------

#: the generated cases: fewer than the profile's (each is a whole run), capsys read afresh in every one
_GENERATED = settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])

#: what an exit code of a run on hostile input may be: an answer, a refusal, a usage error, a gate
ANSWERED = {ExitCode.OK, ExitCode.REJECTED, ExitCode.USAGE, ExitCode.BUDGET}


def _clean(code: int, err: str) -> None:
    assert code in ANSWERED, (code, err)
    assert "Traceback" not in err and "internal error" not in err, err
    for line in err.splitlines():  # an error's quotes are cut; the message too (mpcalc.dpdk.core.errors)
        assert len(line) < 1100, line


def _commands() -> dict[str, list[str]]:
    """Each command's long options (what a careless user types), from the click commands themselves."""
    from mpcalc.cli import cli

    ctx = cli.make_context("mpcalc", ["schema"], resilient_parsing=True)
    out = {}
    for name in cli.list_commands(ctx):
        if name in ("trace", "batch"):  # read a file or stdin to the end: their inputs are generated below
            continue
        command = cli.get_command(ctx, name)
        assert command is not None
        out[name] = sorted(o for p in command.params for o in getattr(p, "opts", ()) if o.startswith("--"))
    return out


_COMMANDS = _commands()
_VALUES = st.one_of(
    st.sampled_from(["0", "1", "-1", "1K", "2Mi", "1G", "64", "none", "all", "no_spread", "22.11", "x86_64", "-"]),
    st.sampled_from(["1e9", "0x40", "nan", "", " ", "1,000", "2%", "99999999999999999999", "4K|", "\0", "é"]),
    st.integers(-(1 << 70), 1 << 70).map(str),
    st.text(max_size=12),
)


@st.composite
def _argv(draw: st.DrawFn) -> list[str]:
    name = draw(st.sampled_from(sorted(_COMMANDS)))
    options = _COMMANDS[name] or ["--help"]
    argv = [name]
    for _ in range(draw(st.integers(0, 5))):
        option = draw(st.sampled_from([*options, "--bogus", "--"]))
        argv += [option, draw(_VALUES)] if draw(st.booleans()) else [option]
    return [a for a in argv if "--routes-file" not in a and "--steps" not in a]  # no file read, no long sweep


@_GENERATED
@given(argv=_argv())
def test_generated_argument_vectors(argv, monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"")))
    capsys.readouterr()
    code = main(argv)
    _clean(code, capsys.readouterr().err)


def _route_samples() -> list[tuple[str, bytes]]:
    from tests.test_routes_sources import BGPDUMP, BIRD1, BIRD2, FRR, IP4, _mrt

    return [
        ("plain", Path("examples/routes/ipv4-small.txt").read_bytes()),
        ("ip", IP4.encode()),
        ("bird", BIRD1.encode()),
        ("bird", BIRD2.encode()),
        ("bgpdump", BGPDUMP.encode()),
        ("frr-json", json.dumps(FRR, indent=1).encode()),
        ("mrt", _mrt()),
    ]


_ROUTES = _route_samples()
_PACK = {"": lambda b: b, "gz": gzip.compress, "bz2": bz2.compress, "xz": lzma.compress}


@st.composite
def _mutated(draw: st.DrawFn, data: bytes) -> bytes:
    """``data`` cut, with bytes flipped, inserted (NUL, newlines, brackets, long runs) or lines repeated."""
    out = bytearray(data)
    for _ in range(draw(st.integers(0, 4))):
        at = draw(st.integers(0, len(out)))
        kind = draw(st.sampled_from(["cut", "flip", "insert", "repeat", "run"]))
        if kind == "cut":
            del out[at:]
        elif kind == "flip" and at < len(out):
            out[at] ^= 1 << draw(st.integers(0, 7))
        elif kind == "insert":
            out[at:at] = draw(st.sampled_from([b"\0", b"\n", b"[", b"{", b'"', b"/", b"999", b":" * 40, b"\xff"]))
        elif kind == "repeat":
            out[at:at] = bytes(out[at : at + draw(st.integers(1, 64))]) * draw(st.integers(1, 30))
        elif kind == "run":
            out[at:at] = draw(st.sampled_from([b"[", b"{", b"1", b" "])) * draw(st.integers(1, 3000))
    return bytes(out)


@_GENERATED
@given(data=st.data(), sample=st.sampled_from(_ROUTES), pack=st.sampled_from(sorted(_PACK)))
def test_mutated_route_files_in_every_format(data, sample, pack, tmp_path_factory, capsys):
    fmt, original = sample
    body = _PACK[pack](data.draw(_mutated(original)))
    path = tmp_path_factory.mktemp("routes") / "r"
    path.write_bytes(body)
    command = data.draw(st.sampled_from(["fib", "fib6", "lpm", "lpm6"]))
    given_fmt = data.draw(st.sampled_from(["auto", fmt]))
    capsys.readouterr()
    code = main([command, "--routes-file", str(path), "--routes-format", given_fmt, "-q"])
    _clean(code, capsys.readouterr().err)


@_GENERATED
@given(data=st.data(), name=st.sampled_from(sorted(p.name for p in Path("examples/plans").glob("*.toml"))))
def test_mutated_plan_files(data, name, tmp_path_factory, capsys):
    text = data.draw(_mutated((Path("examples/plans") / name).read_bytes()))
    path = tmp_path_factory.mktemp("plan") / "p.toml"
    path.write_bytes(text)
    capsys.readouterr()
    code = main(["plan", str(path), "-q"])
    _clean(code, capsys.readouterr().err)


@_GENERATED
@given(data=st.data(), name=st.sampled_from(sorted(p.name for p in Path("examples/inspect").iterdir())))
def test_mutated_inspect_inputs(data, name, tmp_path_factory, capsys):
    text = data.draw(_mutated((Path("examples/inspect") / name).read_bytes()[:8000]))
    path = tmp_path_factory.mktemp("inspect") / "dump.txt"
    path.write_bytes(text)
    capsys.readouterr()
    code = main(["inspect", str(path), "-q"])
    _clean(code, capsys.readouterr().err)


@_GENERATED
@given(
    lines=st.lists(
        st.one_of(
            _JSON.map(json.dumps),
            st.binary(max_size=60),
            st.tuples(st.integers(0, 3000), st.sampled_from("[{")).map(lambda d: d[1] * d[0]),
        ),
        max_size=12,
    )
)
def test_generated_batch_files_answer_every_line(lines, capsys, monkeypatch):
    """Any lines, JSON or not: one answer per non-blank line, in order, exit 0-2."""
    text = b"".join((x.encode() if isinstance(x, str) else x.replace(b"\n", b" ")) + b"\n" for x in lines)
    rc, docs, err = batch(monkeypatch, capsys, text, "--compact")
    _clean(rc, err)
    want = [n for n, x in enumerate(text.split(b"\n")[:-1], 1) if x.strip()]
    assert [d["line"] for d in docs] == want


def test_the_readme_limits_are_the_constants():
    import re

    section = doc_section("Limits")  # docs/limits.md
    rows = dict(re.findall(r"^\| `(\w+)` \| ([^|]+) \|", section, re.M))
    units = {"KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30}

    def value(cell: str) -> int:
        cell = cell.strip().replace(",", "")
        if "^" in cell:
            base, power = cell.split("^")
            return int(base) ** int(power)
        number, _, unit = cell.partition(" ")
        return int(number) * units.get(unit, 1)

    assert rows and {name: value(cell) for name, cell in rows.items()} == {name: getattr(limits, name) for name in rows}
    assert "RATIO_AFTER_BYTES" in section and limits.RATIO_AFTER_BYTES == 64 << 20


def test_a_batch_line_with_a_hostile_route_file_is_its_own_error(monkeypatch, capsys, tmp_path):
    long = tmp_path / "long.txt"
    long.write_bytes(b"1" * (2 << 20))
    lines = [POOL, *(f'{{"command":"fib","routes_file":"{p}"}}' for p in ("/dev/zero", long)), POOL]
    rc, docs, err = batch(monkeypatch, capsys, "".join(x + "\n" for x in lines).encode(), "--compact")
    assert rc == ExitCode.USAGE and err == ""
    assert [d["line"] for d in docs] == [1, 2, 3, 4]
    assert "NUL" in docs[1]["error"] and "longer than" in docs[2]["error"]
    assert all(len(d.get("error", "")) < 300 for d in docs)


def test_frr_json_over_its_file_bound_is_refused(run, tmp_path, monkeypatch):
    from mpcalc.dpdk.objects.routes import sources

    monkeypatch.setattr(sources, "MAX_JSON_FILE_BYTES", 1 << 20)
    path = tmp_path / "r.json"
    path.write_bytes(b"{" + b" " * (sources.CHUNK + 10))
    code, err = fib(run, path, "--routes-format", "frr-json")
    assert code == ExitCode.USAGE and "FRR JSON is read whole" in one_line_error(err)


def test_an_svg_onto_the_trace_it_reads_is_refused(run, tmp_path):
    events = tmp_path / "events.txt"
    events.write_bytes(Path("tests/conformance/traces/l3fwd-fib/events.txt").read_bytes())
    got = run("trace", str(events), "--svg", str(events))
    assert got.code == ExitCode.USAGE and "would overwrite it" in one_line_error(got.err)
    assert events.read_bytes() == Path("tests/conformance/traces/l3fwd-fib/events.txt").read_bytes()
