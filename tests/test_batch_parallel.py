"""``mpcalc batch --jobs N`` on a FILE (mpcalc.service.parallel): N processes, each writing its pieces' answers in
the file's order; the same bytes as one process, whatever the pieces and the lines."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mpcalc.service import batch, parallel

MPCALC = Path(sys.executable).with_name("mpcalc")  # the installed command

LINES = [
    {"command": "pool", "count": 1000, "elt_size": 40},
    {"command": "pool", "count": 0, "elt_size": 8},  # DPDK rejects it
    {"command": "rib", "routes": "1M", "flags": ["no_cache_align", "no_spread"]},
    {"command": "fib", "routes": 1000, "tbl8": 64},
    {"command": "mbuf", "count": 8191, "mtu": 1500, "cache_size": 256, "lcores": 2},
    {"command": "pool", "count": 100, "elt_size": 8, "explain": True},
    {"command": "pool", "count": "1X"},  # a bad value
]


@given(
    st.lists(st.sampled_from([b"a", b"bb", b"\n", b"\n\n", b"x" * 40]), max_size=60),
    st.integers(min_value=1, max_value=50),
)
def test_pieces_cover_the_file_cut_after_newlines(tmp_path_factory, parts, piece):
    data = b"".join(parts)
    path = tmp_path_factory.mktemp("pieces") / "f"
    path.write_bytes(data)
    fd = os.open(path, os.O_RDONLY)
    try:
        cut = list(parallel.pieces(fd, len(data), piece))
    finally:
        os.close(fd)
    if not data:
        assert cut == []
        return
    assert [c[0] for c in cut] == [0, *(c[1] for c in cut[:-1])]  # contiguous
    assert cut[-1][1] == len(data)
    for start, end, number in cut:
        assert number == data.count(b"\n", 0, start) + 1
        assert start == 0 or data[start - 1 : start] == b"\n"
        assert end == len(data) or end - start >= piece


def _file(tmp_path: Path, copies: int) -> Path:
    text = [json.dumps(r) + "\n" for r in LINES] * copies
    text[5:5] = ["\n", "   \n", "x" * ((1 << 20) + 10) + "\n"]  # blank lines and one over the length limit
    path = tmp_path / "in.jsonl"
    path.write_text("".join(text) + '{"command": "pool", "count": 7, "elt_size": 9}')  # no newline at the end
    return path


def _batch(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(MPCALC), "batch", *args], capture_output=True, text=True, timeout=600)


@pytest.mark.parametrize("compact", [[], ["--compact"]])
def test_workers_write_what_one_process_writes(tmp_path, compact):
    path = _file(tmp_path, 1500)  # about 2 MiB: several pieces for each worker
    one = _batch(*compact, "--jobs", "1", str(path))
    assert one.returncode == 2, one.stderr  # a bad line
    assert one.stdout.count("\n") == len(LINES) * 1500 + 2
    for jobs in ("2", "3"):
        many = _batch(*compact, "--jobs", jobs, str(path))
        assert (many.returncode, many.stdout, many.stderr) == (one.returncode, one.stdout, one.stderr)


def test_a_reader_that_goes_away_stops_every_worker(tmp_path):
    path = _file(tmp_path, 3000)
    res = subprocess.run(
        f"'{MPCALC}' batch --jobs 2 '{path}' | head -2", shell=True, capture_output=True, text=True, timeout=600
    )
    assert res.stdout.count("\n") == 2
    assert res.stderr == ""


def test_a_failing_worker_fails_the_batch(tmp_path, monkeypatch):
    """A worker that raises closes its end of the ring: the others stop, and the parent raises."""
    path = _file(tmp_path, 1500)
    parent = os.getpid()
    real = batch.Answerer.chunk

    def chunk(self, first, lines):
        if os.getpid() != parent:
            raise RuntimeError("boom")
        return real(self, first, lines)

    monkeypatch.setattr(batch.Answerer, "chunk", chunk)
    out = open(tmp_path / "out", "w")  # noqa: SIM115 - a file descriptor for the workers
    with open(path, "rb") as source, out, pytest.raises(ChildProcessError):
        parallel.answer(source, out, True, jobs=2)


def test_an_output_without_a_descriptor_is_answered_by_one_process(tmp_path):
    path = _file(tmp_path, 10)
    outs = []
    for jobs in (1, 2):
        out = io.StringIO()
        with open(path, "rb") as source:
            assert parallel.answer(source, out, True, jobs=jobs) == 2
        outs.append(out.getvalue())
    assert outs[0] == outs[1]
