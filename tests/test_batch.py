"""mpcalc batch: JSON Lines in, one answer per line out, the CLI's own parsing and documents."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from jsonschema import Draft202012Validator

from mpcalc.cli import main
from mpcalc.service.exitcodes import ExitCode
from mpcalc.service.schema import documents
from mpcalc.stream import MAX_LINE_BYTES, split_lines

VALIDATOR = Draft202012Validator(documents())


def batch(capsys, monkeypatch, lines: list[str] | str, *args: str) -> tuple[int, list[dict], str]:
    import io

    text = lines if isinstance(lines, str) else "".join(line + "\n" for line in lines)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode())))
    rc = main(["batch", *args])
    out, err = capsys.readouterr()
    return rc, [json.loads(line) for line in out.splitlines()], err


def cli_json(capsys, *argv: str) -> dict:
    main([*argv, "--json"])
    return json.loads(capsys.readouterr().out)


def test_each_line_is_the_document_json_prints(capsys, monkeypatch):
    lines = [
        '{"command": "pool", "count": 1000, "elt_size": 40, "flags": ["no_spread"]}',
        '{"command": "rib", "routes": "1M", "page_size": "4K", "flags": "all"}',
        '{"command": "rib6", "nodes": 4096, "flags": "no_cache_align|no_spread"}',
        '{"command": "fib", "routes": 1000, "nh_size": 8, "tbl8": "1Ki"}',
        '{"command": "fib6", "routes": 1000, "type": "trie", "dpdk": "23.11"}',
        '{"command": "mbuf", "count": 8191, "cache_size": 256, "mtu": 1500, "arch": "arm64"}',
        '{"command": "pool", "count": 8191, "elt_size": "2K", "cache_size": 250, "debug": true, "channels": 2}',
    ]
    rc, docs, err = batch(capsys, monkeypatch, lines)
    assert rc == 0 and err == ""
    expected = [
        ("pool", "--count", "1000", "--elt-size", "40", "--flags", "no_spread"),
        ("rib", "--routes", "1M", "--page-size", "4K", "--flags", "all"),
        ("rib6", "--nodes", "4096", "--flags", "no_cache_align|no_spread"),
        ("fib", "--routes", "1000", "--nh-size", "8", "--tbl8", "1Ki"),
        ("fib6", "--routes", "1000", "--type", "trie", "--dpdk", "23.11"),
        ("mbuf", "--count", "8191", "--cache-size", "256", "--mtu", "1500", "--arch", "arm64"),
        ("pool", "--count", "8191", "--elt-size", "2K", "--cache-size", "250", "--debug", "--channels", "2"),
    ]
    assert len(docs) == len(expected)
    for doc, argv in zip(docs, expected, strict=True):
        assert doc == cli_json(capsys, *argv), argv
        assert not list(VALIDATOR.iter_errors(doc))


@pytest.mark.parametrize("compact", [False, True])
def test_an_internal_error_on_a_line_is_exit_4_and_the_batch_goes_on(capsys, monkeypatch, compact):
    import mpcalc.service.batch as batch_module

    def broken(request):  # a bug in mpcalc, met by one line
        if request.args.get("count") == 13:
            raise ZeroDivisionError("a bug")
        return (real_footprints if compact else real_evaluate)(request)

    real_evaluate, real_footprints = batch_module.evaluate, batch_module.footprints
    monkeypatch.setattr(batch_module, "footprints" if compact else "evaluate", broken)
    lines = [
        '{"command": "pool", "count": 100, "elt_size": 40}',
        '{"command": "pool", "count": 13, "elt_size": 40}',
        "not json",
        '{"command": "pool", "count": 100, "elt_size": 40}',
    ]
    rc, docs, _ = batch(capsys, monkeypatch, lines, *(["--compact"] if compact else []))
    assert rc == ExitCode.INTERNAL == 4  # the documented internal-error code, above a bad line's 2
    assert docs[1] == {"line": 2, "key": None, "error": "internal error: ZeroDivisionError: a bug", "exit_code": 4}
    assert docs[2]["exit_code"] == 2 and len(docs) == 4 and "error" not in docs[3]
    assert not list(VALIDATOR.iter_errors(docs[1]))


def test_bad_lines_get_error_records_and_the_batch_goes_on(capsys, monkeypatch):
    lines = [
        '{"command": "pool", "count": 100, "elt_size": 40}',
        "not json",
        '{"command": "pool", "count": "1X", "elt_size": 40}',
        '["a list"]',
        '{"count": 5}',
        '{"command": "diff"}',
        '{"command": "pool", "count": 5, "elt_size": 40, "colour": "red"}',
        '{"command": "rib", "routes": 10, "nodes": 10}',
        '{"command": "pool", "count": 5, "elt_size": 40, "debug": "yes"}',
        '{"command": "pool", "count": 5, "elt_size": 40, "json": true}',
        '{"command": "pool", "count": 5, "elt_size": 40, "max_lcore": 0}',
        '{"command": "pool", "count": 5.5, "elt_size": 40}',
        '{"command": "pool", "count": 100, "elt_size": 40}',
    ]
    rc, docs, _ = batch(capsys, monkeypatch, lines, "--compact")
    assert rc == 2
    assert [d["line"] for d in docs] == list(range(1, 14))
    errors = {d["line"]: d for d in docs if "error" in d}
    assert sorted(errors) == list(range(2, 13))
    assert all(e["exit_code"] == 2 for e in errors.values())
    assert errors[3]["key"] == "count" and "1X" in errors[3]["error"]
    assert errors[5]["key"] == "command"
    assert errors[6]["key"] == "command" and "diff" in errors[6]["error"]
    assert errors[7]["key"] == "colour"
    assert errors[8]["error"] == "give exactly one of --routes and --nodes"
    assert errors[9]["key"] == "debug"
    assert errors[10]["key"] == "json"
    assert errors[11]["key"] == "max_lcore"
    assert errors[12]["key"] == "count"
    assert docs[0]["ok"] and docs[-1] == {**docs[0], "line": 13}


def test_exit_code_one_for_a_dpdk_rejection_and_blank_lines_skipped(capsys, monkeypatch):
    lines = [
        '{"command": "pool", "count": 100, "elt_size": 40, "cache_size": 100}',
        "",
        "   ",
        '{"command": "pool", "count": 100, "elt_size": 40}',
    ]
    rc, docs, _ = batch(capsys, monkeypatch, lines, "--compact")
    assert rc == 1
    assert [d["line"] for d in docs] == [1, 4]
    assert docs[0]["ok"] is False and docs[0]["results"][0]["errors"] == ["EINVAL"]
    rc, docs, _ = batch(capsys, monkeypatch, lines)
    assert rc == 1 and docs[0]["results"][0]["errors"][0]["errno"] == "EINVAL"


def test_compact_record_matches_the_document(capsys, monkeypatch):
    line = '{"command": "rib", "routes": "1Mi", "page_size": "4K", "flags": "all"}'
    _, (full,), _ = batch(capsys, monkeypatch, [line])
    _, (small,), _ = batch(capsys, monkeypatch, [line], "--compact")
    assert small["command"] == "rib" and small["ok"] is True and small["line"] == 1
    for r, s in zip(full["results"], small["results"], strict=True):
        assert s["flags"] == ("|".join(r["flags"]) or "none")
        assert s["object_size"] == r["mempools"][0]["total_size"]
        assert (s["total_bytes"], s["heap_bytes"]) == (r["total_bytes"], r["heap_bytes"])
        assert s["hugepages"] == r["hugepages"]


def test_a_huge_line_is_refused_without_being_held(capsys, monkeypatch):
    huge = '{"command": "pool", "name": "' + "x" * (MAX_LINE_BYTES + 10) + '"}'
    rc, docs, _ = batch(capsys, monkeypatch, [huge, '{"command": "pool", "count": 1, "elt_size": 8}'], "--compact")
    assert rc == 2
    assert docs[0]["line"] == 1 and "longer than" in docs[0]["error"]
    assert docs[1]["line"] == 2 and docs[1]["ok"]


def test_split_lines_reads_in_pieces():
    import io

    class Trickle(io.RawIOBase):  # hands out 3 bytes at a time, like a slow pipe
        def __init__(self, data: bytes) -> None:
            self.data = data

        def readable(self) -> bool:
            return True

        def readinto(self, b) -> int:  # type: ignore[no-untyped-def]
            n = min(3, len(b), len(self.data))
            b[:n], self.data = self.data[:n], self.data[n:]
            return n

    stream = io.BufferedReader(Trickle(b"ab\n\ncdef\n" + b"y" * 40 + b"\nlast"), buffer_size=4)
    reads = []
    got = list(split_lines(stream, limit=20, before_read=lambda: reads.append(1)))
    assert got == [(1, b"ab"), (2, b""), (3, b"cdef"), (4, None), (5, b"last")]
    assert len(reads) > 5  # a flush before every read that may wait


def test_a_file_argument_and_a_missing_file(tmp_path, capsys):
    path = tmp_path / "in.jsonl"
    path.write_text('{"command": "pool", "count": 10, "elt_size": 8}\n')
    assert main(["batch", "--compact", str(path)]) == 0
    assert json.loads(capsys.readouterr().out)["ok"] is True
    assert main(["batch", str(tmp_path / "missing.jsonl")]) == 2
    assert "missing.jsonl" in capsys.readouterr().err


def test_streams_answers_before_the_input_ends_and_is_quiet_when_stderr_is_no_terminal():
    # a real pipe: the first answer arrives while batch still waits for the second line
    proc = subprocess.Popen(
        [sys.executable, "-m", "mpcalc", "batch", "--compact"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONUNBUFFERED": ""},
    )
    assert proc.stdin and proc.stdout and proc.stderr
    proc.stdin.write(b'{"command": "rib", "routes": 1000}\n')
    proc.stdin.flush()
    first = json.loads(proc.stdout.readline())
    assert first["line"] == 1 and first["ok"] is True
    proc.stdin.write(b'{"command": "rib", "routes": 2000}\n')
    proc.stdin.close()
    second = json.loads(proc.stdout.readline())
    assert second["line"] == 2
    assert proc.wait(timeout=60) == 0
    assert proc.stderr.read() == b""  # no progress line: stderr is a pipe


def test_progress_only_on_a_terminal():
    import io

    from mpcalc.stream import Progress

    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    quiet = io.StringIO()
    p = Progress("batch", stream=quiet)
    p.start -= 10
    p.last -= 10
    p.update(5000)
    p.close()
    assert quiet.getvalue() == ""
    loud = Tty()
    p = Progress("batch", stream=loud)
    p.start -= 10
    p.last -= 10
    p.update(5000)
    p.close()
    assert "5,000" in loud.getvalue()


@pytest.mark.parametrize("value", ["no_cache_align,no_spread", ["no_cache_align", "no_spread"], "0x3", 3])
def test_flags_take_every_cli_spelling(capsys, monkeypatch, value):
    line = json.dumps({"command": "pool", "count": 10, "elt_size": 40, "flags": value})
    rc, (doc,), _ = batch(capsys, monkeypatch, [line], "--compact")
    assert rc == 0 and doc["results"][0]["flags"] == "no_spread|no_cache_align"
