"""mpcalc sweep: a range of one option under every flag combination, as CSV/JSON Lines, and --plot."""

from __future__ import annotations

import csv
import io
import json
import sys

import pytest

from mpcalc.service.sweep import MAX_STEPS, points


def test_points():
    assert points(0, 100, 5, False) == [0, 25, 50, 75, 100]
    assert points(1000, 10_000_000, 5, True) == [1000, 10_000, 100_000, 1_000_000, 10_000_000]
    assert points(1, 3, 50, False) == [1, 2, 3]
    assert points(7, 7, 50, True) == [7]
    assert points(1, 100, 1, False) == [1]
    many = points(1, 10**9, MAX_STEPS, True)
    assert len(many) == len(set(many)) and many[0] == 1 and many[-1] == 10**9 and many == sorted(many)


def test_csv_rows_agree_with_the_single_command(run):
    rc, out, err = run("sweep", "rib", "--vary", "routes=1K..1M", "--steps", "4", "--log", "--page-size", "4K")
    assert rc == 0 and err == ""
    rows = list(csv.DictReader(io.StringIO(out)))
    assert len(rows) == 4 * 8  # 4 values x every flag combination
    assert [r["routes"] for r in rows[::8]] == ["1000", "10000", "100000", "1000000"]
    for row in rows[:8] + rows[-8:]:
        flags = row["flags"].replace("|", ",")
        (r,) = json.loads(run("rib", "--routes", row["routes"], "--page-size", "4K", "--flags", flags, "--json").out)[
            "results"
        ]
        assert int(row["total_bytes"]) == r["total_bytes"]
        assert int(row["heap_bytes"]) == r["heap_bytes"]
        assert int(row["hugepages"]) == r["hugepages"]
        assert int(row["object_size"]) == r["mempools"][0]["total_size"]
        assert row["ok"] == "true" and row["errors"] == ""


def test_jsonl_given_flags_and_a_rejection(run):
    rc, out, _ = run(
        "sweep",
        "pool",
        "--vary",
        "count=1..200",
        "--steps",
        "3",
        "--elt-size",
        "64",
        "--cache-size",
        "100",
        "--flags",
        "no_spread",
        "--format",
        "jsonl",
    )
    rows = [json.loads(line) for line in out.splitlines()]
    assert [r["count"] for r in rows] == [1, 101, 200]
    assert {r["flags"] for r in rows} == {"no_spread"}
    assert rows[0]["ok"] is False and rows[0]["errors"] == "EINVAL"  # 1.5 x cache_size > n
    assert rows[2]["ok"] is True
    assert rc == 1


def test_mbuf_has_no_flags_and_sizes_sweep_too(run):
    rc, out, _ = run("sweep", "mbuf", "--vary", "data-room=1K..4K", "--steps", "4", "--count", "8191")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert rc == 0 and [r["data_room"] for r in rows] == ["1024", "2048", "3072", "4096"]
    assert {r["flags"] for r in rows} == {"none"}


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--vary", "count=10..1", "--elt-size", "8"], "empty"),
        (["--vary", "count=1..10", "--steps", str(MAX_STEPS + 1), "--elt-size", "8"], "--steps"),
        (["--vary", "count=0..10", "--log", "--elt-size", "8"], "--log"),
        (["--vary", "colour=1..10", "--elt-size", "8"], "colour"),
        (["--vary", "count=1..10", "--count", "5", "--elt-size", "8"], "--vary sets"),
        (["--vary", "count", "--elt-size", "8"], "KEY=LO..HI"),
        (["--vary", "count=1..2X", "--elt-size", "8"], "2X"),
        (["--vary", "count=1..10"], "elt-size"),
        (["--vary", "count=1..10", "--elt-size", "8", "--json"], "--format"),
    ],
)
def test_bad_sweeps_are_usage_errors(run, argv, message):
    rc, out, err = run("sweep", "pool", *argv)
    assert rc == 2 and out == ""
    assert err.count("\n") == 1 and message in err


def test_only_sizing_commands(run):
    rc, _, err = run("sweep", "schema", "--vary", "count=1..2")
    assert rc == 2 and "sizing command" in err


def test_plot_draws_an_svg(run, tmp_path):
    pytest.importorskip("matplotlib")
    svg = tmp_path / "rib.svg"
    rc, out, err = run("sweep", "rib", "--vary", "routes=1K..1M", "--steps", "12", "--log", "--plot", str(svg))
    assert rc == 0 and err == ""
    text = svg.read_text()
    assert text.lstrip().startswith("<?xml") and "<svg" in text
    assert "no_cache_align" in text or "no_spread" in text  # legend entries are there (as text or glyph comments)
    assert out.count("\n") == 1 + 12 * 8


def test_plot_without_matplotlib_names_the_extra(run, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib -> ImportError
    rc, out, err = run("sweep", "pool", "--vary", "count=1..10", "--elt-size", "8", "--plot", str(tmp_path / "x.svg"))
    assert rc == 2 and out == ""
    assert err.strip() == "mpcalc: error: --plot needs matplotlib: pip install 'mpcalc[plot]'"
    assert not (tmp_path / "x.svg").exists()


def test_the_csv_is_the_csv_renderers_and_says_what_the_jsonl_says(run, monkeypatch):
    """The CSV comes from mpcalc.render.csvfmt.sweep_writer: the same rows as the JSON Lines, true/false and an
    empty cell for a null, and a cell with a comma quoted (a rejection's errnos, as a renderer writes them)."""
    from mpcalc.render import csvfmt
    from mpcalc.service import sweep as app_sweep

    argv = ("sweep", "ring", "--vary", "count=1000..1024", "--steps", "3")
    _, text, _ = run(*argv)
    _, lines, _ = run(*argv, "--format", "jsonl")
    table = list(csv.DictReader(io.StringIO(text)))
    rows = [json.loads(line) for line in lines.splitlines()]

    def cell(v: object) -> str:
        return {True: "true", False: "false", None: ""}[v] if v is None or isinstance(v, bool) else str(v)

    assert table == [{k: cell(v) for k, v in r.items()} for r in rows]
    real = app_sweep.rows

    def with_a_comma(*args):
        for point in real(*args):
            yield point._replace(rows=[(*r[:6], "EINVAL,ENOSPC") for r in point.rows])

    monkeypatch.setattr("mpcalc.commands.sweep_cmd.rows", with_a_comma)
    _, quoted, _ = run(*argv)
    assert quoted.splitlines()[1].endswith(',"EINVAL,ENOSPC"')
    buf = io.StringIO()
    csvfmt.sweep_writer(buf, "count")(1, [("none", True, None, 1, 2, None, "")])
    assert buf.getvalue() == "count,flags,ok,object_size,total_bytes,heap_bytes,hugepages,errors\n1,none,true,,1,2,,\n"
