"""Hostile and careless input (issue 27): every reader bounded, one line of error, nothing lost, nothing
overwritten.

Each case is small by construction (a 2 MiB line, not 1 GiB; a bomb whose bound is lowered for the test), so
it is bounded in time and memory without a clock: a case that used to hang or grow now ends at the bound.
Each asserts the documented exit code (mpcalc.app.exitcodes, the README's table), no traceback, no exit 4,
and an error of one line that quotes at most about 80 characters of the input.
"""

from __future__ import annotations

import bz2
import gzip
import io
import json
import lzma
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mpcalc.app.exitcodes import ExitCode
from mpcalc.cli import main
from mpcalc.dpdk import limits

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
    from mpcalc.app.batch import Answerer

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
    from mpcalc.dpdk.routes import sources

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
