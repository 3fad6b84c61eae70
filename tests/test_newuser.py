"""What a new user meets first (issue 16), tried as a user tries it: the installed ``mpcalc`` command in
a subprocess, its output through real pipes, and on a real 80-column terminal (a pseudo-terminal whose
window size is set as a terminal emulator sets it).

Nothing here runs in-process: the command is the one pip installed beside this interpreter
(``.venv/bin/mpcalc``), with an environment that has no COLUMNS, NO_COLOR or terminal unless a test
gives one.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import NamedTuple

import pytest
from conftest import doc_pages, doc_section

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
#: the installed command (the console script pip wrote beside the interpreter running the tests)
MPCALC = Path(sys.executable).with_name("mpcalc")
#: escape sequences a terminal gets (colour, cursor)
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07")


class Run(NamedTuple):
    code: int
    out: str
    err: str


def user_env(**extra: str) -> dict[str, str]:
    """The environment of a user's shell: PATH and HOME, no COLUMNS/LINES/NO_COLOR unless given."""
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES", "NO_COLOR", "FORCE_COLOR", "TERM")}
    env.update(extra)
    return env


def mpcalc(*args: str, stdin: str | None = None, **env: str) -> Run:
    """``mpcalc ARGS`` with stdout and stderr to pipes."""
    res = subprocess.run(
        [str(MPCALC), *args], input=stdin, capture_output=True, text=True, env=user_env(**env), cwd=ROOT, timeout=300
    )
    return Run(res.returncode, res.stdout, res.stderr)


def piped_to(reader: list[str], *args: str, **env: str) -> tuple[int, int, str, str]:
    """``mpcalc ARGS | READER``, as a shell runs it: (mpcalc's exit code, the reader's, what the reader
    printed, what mpcalc printed on stderr)."""
    writer = subprocess.Popen(
        [str(MPCALC), *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=user_env(**env), cwd=ROOT
    )
    assert writer.stdout is not None and writer.stderr is not None
    reader_proc = subprocess.Popen(reader, stdin=writer.stdout, stdout=subprocess.PIPE, text=True)
    writer.stdout.close()  # the reader holds the only read end, as in a shell
    out, _ = reader_proc.communicate(timeout=300)
    err = writer.stderr.read().decode()
    writer.stderr.close()
    return writer.wait(timeout=300), reader_proc.returncode, out, err


def into_closed_pipe(*args: str, **env: str) -> Run:
    """``mpcalc ARGS`` writing into a pipe whose reader has already gone: every write fails with EPIPE
    (what ``| head -1`` does to a long output, without the race)."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        res = subprocess.run(
            [str(MPCALC), *args],
            stdout=write_end,
            stderr=subprocess.PIPE,
            text=True,
            env=user_env(**env),
            cwd=ROOT,
            timeout=300,
        )
    finally:
        os.close(write_end)
    return Run(res.returncode, "", res.stderr)


def _terminal_bytes(*args: str, columns: int, rows: int, **env: str) -> tuple[int, str]:
    """``mpcalc ARGS`` on a pseudo-terminal of ``columns`` x ``rows`` (stdin, stdout and stderr on it,
    TERM=xterm-256color): its exit code and every character it wrote, escape codes and all."""
    import fcntl
    import pty
    import struct
    import termios

    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
    proc = subprocess.Popen(
        [str(MPCALC), *args],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        cwd=ROOT,
        env=user_env(TERM="xterm-256color", **env),
        start_new_session=True,
    )
    os.close(slave)
    chunks = []
    while True:
        try:
            data = os.read(master, 1 << 16)
        except OSError:  # EIO: the terminal's last writer is gone
            break
        if not data:
            break
        chunks.append(data)
    os.close(master)
    code = proc.wait(timeout=300)
    return code, b"".join(chunks).decode("utf-8", "replace")


def on_terminal(*args: str, columns: int = 80, rows: int = 60, **env: str) -> Run:
    """``mpcalc ARGS`` on a terminal of ``columns`` x ``rows``.  ``out`` is what the screen shows, escape
    codes removed; ``err`` is empty (stderr is the same terminal)."""
    code, raw = _terminal_bytes(*args, columns=columns, rows=rows, **env)
    return Run(code, ANSI.sub("", raw).replace("\r\n", "\n"), "")


def test_the_command_is_the_installed_one():
    assert MPCALC.exists(), f"{MPCALC} is missing: pip install the project into this interpreter's environment"
    run = mpcalc("--version")
    assert run.code == 0 and "mpcalc" in run.out


# --- 3. a closed pipe is not an error --------------------------------------------------------------------------

FORMATS = ("table", "csv", "tsv", "json", "markdown")


@pytest.mark.parametrize("fmt", FORMATS)
def test_head_3_exits_0(fmt):
    """``mpcalc rib --routes 1M | head -3``: three lines, and mpcalc exits 0 (the README's "DPDK would
    reject this" is 1)."""
    code, head_code, out, err = piped_to(["head", "-3"], "rib", "--routes", "1M", "--format", fmt)
    assert (code, head_code) == (0, 0), err
    assert len(out.splitlines()) == 3
    assert err == ""


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_reader_gone_before_the_first_write(fmt):
    run = into_closed_pipe("rib", "--routes", "1M", "--flags", "all", "--explain", "--format", fmt)
    assert run.code == 0, run.err
    assert run.err == ""  # no traceback, no "Exception ignored", no "Broken pipe"


@pytest.mark.parametrize(
    "argv",
    [
        ("batch", "examples/batch.jsonl"),
        ("sweep", "rib", "--vary", "routes=1K..1M", "--steps", "2000"),
        ("plan", "examples/plans/l3fwd-router.toml"),
        ("diff", "--right", "--dpdk 26.07", "rib", "--routes", "1M"),
        ("inspect", "examples/inspect/mempool-dump.txt"),
        ("schema",),
        ("--help",),
    ],
    ids=lambda a: a[0],
)
def test_every_command_takes_a_closed_pipe(argv):
    run = into_closed_pipe(*argv)
    assert run.err == ""
    # a stream stops at its first answer nobody reads (batch.jsonl's bad line 6 is never reached): 0, as far
    # as it got; never 1 (DPDK would reject) for a pipe
    assert run.code == 0


def test_a_closed_pipe_keeps_the_verdict():
    """DPDK rejects this pool (22.11: 1.5 x cache_size > n): still 1 when the reader went away, and a
    CI gate still says what is over budget."""
    assert into_closed_pipe("pool", "--count", "100", "--elt-size", "64", "--cache-size", "100").code == 1
    run = into_closed_pipe("rib", "--routes", "1M", "--max-total", "1M")
    assert run.code == 3
    assert "over --max-total" in run.err


def test_head_of_a_long_stream():
    code, head_code, out, err = piped_to(["head", "-1"], "sweep", "rib", "--vary", "routes=1..10M", "--steps", "100000")
    assert (code, head_code) == (0, 0), err
    assert out.startswith("routes,flags,")
    assert err == ""


# --- 4. widths -----------------------------------------------------------------------------------------------

#: a diff whose left side DPDK rejects (section 6 asks why)
REJECTED_LEFT = (
    "diff",
    "--left",
    "--dpdk 22.11",
    "--right",
    "--dpdk 26.07",
    "pool",
    "--count",
    "100",
    "--elt-size",
    "64",
    "--cache-size",
    "100",
)

WIDE = [
    ("rib", "--routes", "1M"),
    ("rib", "--routes", "1Mi", "--page-size", "4K", "--flags", "all"),
    ("rib", "--routes", "1M", "--explain"),
    ("pool", "--elt-size", "40", "--fit", "1G", "--flags", "all"),
    ("mbuf", "--count", "8191", "--cache-size", "256", "--lcores", "8"),
    ("fib", "--routes-file", "examples/routes/ipv4-small.txt"),
    ("diff", "--left", "--dpdk 21.11", "--right", "--dpdk 26.07", "mbuf", "--count", "8191", "--cache-size", "256"),
    REJECTED_LEFT,
    ("plan", "examples/plans/l3fwd-router.toml"),
    ("plan", "examples/plans/vswitch.toml"),
]
#: what must never be split across lines
WORDS = ("no_cache_align", "no_spread", "no_iova_contig", "RTE_MAX_LCORE", "channels x")


def _fits(text: str, columns: int) -> list[str]:
    """The lines wider than ``columns`` (a settings line to paste may be wider: it must never wrap)."""
    return [ln for ln in text.splitlines() if len(ln) > columns and not ln.startswith(("echo ", "EAL: "))]


def _split_words(text: str) -> list[str]:
    """Flag names and phrases broken across lines (``no_cache_ali`` / ``gn``)."""
    flat = re.sub(r"[│┃|]", " ", text)
    broken = []
    for word in ("no_cache_align", "no_iova_contig", "no_spread"):
        for cut in range(3, len(word) - 1):
            if re.search(rf"{re.escape(word[:cut])}\s*\n", flat) and not re.search(rf"{re.escape(word)}", flat):
                broken.append(word)
    for cell in re.findall(r"\b(no_[a-z_]+)\b", flat):
        if cell not in ("no_cache_align", "no_spread", "no_iova_contig", "no_align"):
            broken.append(cell)
    return broken


@pytest.mark.parametrize("argv", WIDE, ids=lambda a: "-".join(a)[:40])
def test_a_pipe_honours_columns(argv):
    run = mpcalc(*argv, COLUMNS="80")
    assert run.code in (0, 1), run.err
    assert not _fits(run.out, 80), _fits(run.out, 80)
    assert not _split_words(run.out)
    assert "\x1b[" not in run.out  # a pipe gets no escape codes


@pytest.mark.parametrize("argv", WIDE, ids=lambda a: "-".join(a)[:40])
def test_an_80_column_terminal(argv):
    """On a real 80-column terminal: no line wider than the terminal, no flag name split, no title or
    platform phrase broken (``4 channels x`` / ``1 ranks``)."""
    run = on_terminal(*argv, columns=80)
    assert run.code in (0, 1), run.out
    assert not _fits(run.out, 80), _fits(run.out, 80)
    assert not _split_words(run.out), run.out
    for broken in (r"channels x\s*\n", r"every flag\s*\n", r"RTE_MAX_LCORE\s*\n"):
        assert not re.search(broken, run.out), broken


def _colours(raw: str) -> list[str]:
    """The colour parameters of the SGR sequences in ``raw`` (bold and underline are no colour)."""
    found = []
    for params in re.findall(r"\x1b\[([0-9;]*)m", raw):
        codes = [int(c) for c in params.split(";") if c]
        found += [str(c) for c in codes if 30 <= c <= 49 or 90 <= c <= 107]
    return found


def test_the_terminal_gets_colour_and_no_color_removes_it():
    rejected = ("pool", "--count", "100", "--elt-size", "64", "--cache-size", "100")
    assert _colours(_raw_terminal(*rejected))  # the errno in red
    assert not _colours(_raw_terminal(*rejected, "--no-color"))
    assert not _colours(_raw_terminal("--no-color", *rejected))
    assert not _colours(_raw_terminal(*rejected, NO_COLOR="1"))
    assert _colours(_raw_terminal(*rejected, NO_COLOR=""))  # https://no-color.org: set and not empty


def _raw_terminal(*args: str, **env: str) -> str:
    return _terminal_bytes(*args, columns=80, rows=60, **env)[1]


def test_a_wide_terminal_is_used():
    run = on_terminal("rib", "--routes", "1M", "--explain", columns=160)
    assert max(len(ln) for ln in run.out.splitlines()) > 100  # the steps use the width they have


def test_columns_beats_the_terminal():
    run = on_terminal("rib", "--routes", "1M", "--explain", columns=160, COLUMNS="70")
    assert not _fits(run.out, 70)


# --- 9. small things ------------------------------------------------------------------------------------------


def test_bare_mpcalc_prints_the_help_not_an_error():
    run = mpcalc()
    assert run.code == 2  # a command is needed (README: usage)
    assert run.out.startswith("Usage: mpcalc")
    assert "Commands:" in run.out and "rib" in run.out
    assert "mpcalc: error" not in run.out + run.err
    assert into_closed_pipe().code == 2


def test_a_misspelt_command_gets_a_suggestion():
    run = mpcalc("ribb", "--routes", "1M")
    assert run.code == 2
    assert run.err.strip() == "mpcalc: error: No such command 'ribb'. Did you mean 'rib' or 'rib6'?"
    run = mpcalc("nonsense")
    assert run.code == 2 and re.search(r"The commands are [a-z0-9, ]*\bdiff, fib, fib6, [a-z0-9, ]*\brib\b", run.err)


@pytest.mark.parametrize(
    "argv",
    [
        ("fib", "--routes-file", "examples/routes/ipv4-small.txt"),
        ("mbuf", "--count", "8191", "--cache-size", "256", "--lcores", "8"),
        ("rib", "--routes", "1M"),
    ],
)
def test_no_python_reprs_in_tables(argv):
    out = mpcalc(*argv).out
    assert not re.search(r"│\s*(True|False|None|\(\)|\[\])\s*│", out), out
    assert "{'" not in out and "['" not in out


def test_a_route_plan_shows_no_clobbers_as_none():
    out = mpcalc("fib", "--routes-file", "examples/routes/ipv4-small.txt").out
    assert re.search(r"route_plan\.clobbers\s*│\s*none\s*│", out), out


def test_quiet_prints_nothing_but_errors():
    assert mpcalc("--quiet", "rib", "--routes", "1M") == Run(0, "", "")
    assert mpcalc("rib", "--routes", "1M", "-q") == Run(0, "", "")
    run = mpcalc("rib", "--routes", "1M", "-q", "--max-total", "1M")
    assert (run.code, run.out) == (3, "") and "over --max-total" in run.err
    run = mpcalc("-q", "rib", "--routes", "1Q")
    assert run.code == 2 and "'1Q'" in run.err and "--routes" in run.err
    run = mpcalc("-q", "pool", "--count", "100", "--elt-size", "64", "--cache-size", "100")
    assert (run.code, run.out) == (1, "")  # DPDK's refusal is an error: said on stderr
    assert run.err == (
        "mpcalc: EINVAL: cache flush threshold 150 (1.5 x cache_size 100) exceeds n 100 "
        "(rte_mempool_create_empty, v22.11:lib/mempool/rte_mempool.c:839)\n"
    )
    assert mpcalc("batch", "-q", "examples/batch.jsonl") == Run(2, "", "")
    assert mpcalc("sweep", "rib", "--vary", "routes=1K..1M", "-q").out == ""


def test_quiet_and_no_color_are_in_the_help():
    for argv in ((), ("rib",), ("batch",), ("plan",)):
        out = mpcalc(*argv, "--help").out
        assert "--quiet" in out and "--no-color" in out, argv


ERRORS = [
    (("rib", "--routes", "1Q"), ("--routes", "'1Q'")),
    (("rib", "--routes", "1M", "--page-size", "3K"), ("--page-size", "'3K'")),
    (("rib", "--routes", "1M", "--dpdk", "20.11"), ("--dpdk", "'20.11'")),
    (("rib", "--routes", "1M", "--flags", "bogus"), ("--flags", "bogus")),
    (("rib", "--routes", "1M", "--flgs", "x"), ("--flgs", "--flags")),
    (("rib", "--routes", "1M", "--tolerance", "x%", "--baseline", "{baseline}"), ("--tolerance", "'x%'")),
    (("rib", "--routes", "1M", "--baseline", "missing.json"), ("--baseline", "missing.json")),
    (("pool", "--count", "1K", "--elt-size", "40", "--cache-size", "-1"), ("--cache-size", "'-1'")),
    (("fib", "--routes-file", "missing.txt"), ("--routes-file", "missing.txt")),
    (("plan", "missing.toml"), ("missing.toml",)),
    (("inspect", "missing.txt"), ("missing.txt",)),
    (("sweep", "rib", "--vary", "routes=1K"), ("--vary", "routes=1K")),
]


@pytest.mark.parametrize("argv,names", ERRORS, ids=lambda v: " ".join(v)[:40] if isinstance(v, tuple) else None)
def test_every_error_names_the_option_and_the_value(argv, names, tmp_path):
    baseline = tmp_path / "rib-1M.json"
    baseline.write_text(mpcalc("rib", "--routes", "1M", "--json").out)
    run = mpcalc(*(a.replace("{baseline}", str(baseline)) for a in argv))
    assert run.code == 2, run
    assert run.out == ""
    assert run.err.startswith("mpcalc: error: ") and run.err.count("\n") == 1, run.err
    for name in names:
        assert name in run.err, (name, run.err)


def test_help_and_version_go_to_stdout():
    assert mpcalc("rib", "--help").out.startswith("Usage: mpcalc rib")
    assert json.loads(mpcalc("schema").out)["$schema"]


def test_value_completion_for_flags_and_page_size():
    def complete(line: str) -> list[str]:
        words = shlex.split(line)
        res = subprocess.run(
            [str(MPCALC)],
            capture_output=True,
            text=True,
            cwd=ROOT,
            timeout=60,
            env=user_env(
                _MPCALC_COMPLETE="bash_complete",
                COMP_WORDS=line,
                COMP_CWORD=str(len(words) - (0 if line.endswith(" ") else 1)),
            ),
        )
        return [ln.split(",", 1)[1] for ln in res.stdout.splitlines() if "," in ln]

    assert {"no_cache_align", "no_spread", "no_iova_contig", "all", "none"} <= set(complete("mpcalc rib --flags "))
    assert complete("mpcalc rib --flags no_c") == ["no_cache_align"]
    assert set(complete("mpcalc rib --flags no_spread,no_")) >= {"no_spread,no_cache_align", "no_spread,no_iova_contig"}
    assert {"4K", "2M", "1G", "none"} <= set(complete("mpcalc pool --page-size "))
    assert complete("mpcalc pool --page-size 1") == ["1G", "16G"]
    assert set(complete("mpcalc rib --dpdk 2")) >= {"22.11", "26.07"}


# --- 5. --fit: the answer in every format, and input is what was sized -----------------------------------------


def test_fit_input_is_the_configuration_sized():
    doc = json.loads(mpcalc("rib", "--fit", "128M", "--json").out)
    fit = doc["results"][0]["details"]["fit"]
    assert fit["key"] == "routes" and fit["value"] > 300_000
    assert doc["input"]["routes"] == fit["value"]
    assert doc["input"]["max_nodes"] == 2 * fit["value"]
    # the input, given back to mpcalc, is the same configuration: its heap fits, one more route does not
    again = json.loads(mpcalc("rib", "--routes", str(doc["input"]["routes"]), "--json").out)
    assert again["input"] == doc["input"]
    assert again["results"][0]["heap_bytes"] == fit["heap_bytes"] <= fit["budget"]
    more = json.loads(mpcalc("rib", "--routes", str(fit["value"] + 1), "--json").out)
    assert more["results"][0]["heap_bytes"] == fit["next_heap_bytes"] > fit["budget"]


def test_fit_of_several_flag_combinations():
    """Each flag combination fits its own count: ``input`` holds null for it, each result its answer."""
    doc = json.loads(mpcalc("pool", "--elt-size", "40", "--fit", "1G", "--flags", "all", "--json").out)
    assert doc["input"]["count"] is None and doc["input"]["elt_size"] == 40
    values = {",".join(r["flags"]) or "none": r["details"]["fit"]["value"] for r in doc["results"]}
    assert values["none"] == 5_242_551 and values["no_cache_align"] == 14_680_039
    table = mpcalc("pool", "--elt-size", "40", "--fit", "1G", "--flags", "all", COLUMNS="80").out
    assert "14,680,039" in table and "5,242,551" in table


@pytest.mark.parametrize("fmt", ["csv", "tsv", "markdown", "table"])
def test_the_answer_is_in_every_format(fmt):
    fit = json.loads(mpcalc("pool", "--elt-size", "40", "--fit", "1G", "--json").out)["results"][0]["details"]["fit"]
    out = mpcalc("pool", "--elt-size", "40", "--fit", "1G", "--format", fmt).out
    if fmt == "table":
        assert f"count {fit['value']:,}" in out
    else:
        sep = {"csv": ",", "tsv": "\t", "markdown": " | "}[fmt]
        assert sep.join(["fit", "count", str(fit["value"])]) in out


@pytest.mark.parametrize(
    "argv,key,value",
    [
        (("fib", "--routes-file", "examples/routes/ipv4-small.txt"), "tbl8_needed", 3),
        (("mbuf", "--count", "8191", "--cache-size", "256", "--lcores", "8"), "cache.idle_in_caches", 3072),
        (("mbuf", "--count", "8191", "--cache-size", "256", "--lcores", "8"), "cache.usable", 5119),
        (("rib", "--routes", "1M"), "max_nodes", 2_000_000),
    ],
)
def test_details_are_in_csv_and_markdown(argv, key, value):
    doc = json.loads(mpcalc(*argv, "--json").out)
    node = doc["results"][0]["details"]
    for part in key.split("."):
        node = node[part]
    assert node == value
    assert f"none,,detail,{key},{value}\n" in mpcalc(*argv, "--format", "csv").out
    assert f"| none |  | detail | {key} | {value} |" in mpcalc(*argv, "--format", "markdown").out
    assert re.search(rf"{re.escape(key)}\s*│\s*{value:,}", mpcalc(*argv, COLUMNS="100").out)


# --- 6. diff says why a side is rejected -------------------------------------------------------------------------

REASON = "cache flush threshold 150 (1.5 x cache_size 100) exceeds n 100"


def test_diff_table_names_the_rejection():
    run = mpcalc(*REJECTED_LEFT, COLUMNS="80")
    assert run.code == 1
    flat = " ".join(run.out.split())
    assert f"left: EINVAL: {REASON} (rte_mempool_create_empty, v22.11:lib/mempool/rte_mempool.c:" in flat
    totals = [ln for ln in run.out.splitlines() if "total_bytes" in ln]
    assert totals and "EINVAL" in totals[0] and " 0 " not in totals[0]  # no 0 for a side that reserves nothing


@pytest.mark.parametrize("fmt", ["csv", "tsv", "markdown"])
def test_diff_csv_and_markdown_name_the_rejection(fmt):
    out = mpcalc(*REJECTED_LEFT, "--format", fmt).out
    sep = {"csv": ",", "tsv": "\t", "markdown": " | "}[fmt]
    assert sep.join(["none", "error", "EINVAL", REASON]) in out
    assert sep.join(["total", "total_bytes", "", "1077928", ""]) in out  # the rejected side empty, no delta


def test_diff_json_has_both_sides_errors():
    doc = json.loads(mpcalc(*REJECTED_LEFT, "--json").out)
    assert doc["left"]["results"][0]["errors"][0]["reason"] == REASON
    assert doc["right"]["results"][0]["errors"] == []


# --- 7. a baseline is only compared with the same command and configuration --------------------------------------


@pytest.fixture
def baseline(tmp_path):
    path = tmp_path / "rib-1M.json"
    path.write_text(mpcalc("rib", "--routes", "1M", "--json").out)
    return str(path)


@pytest.mark.parametrize(
    "argv,difference",
    [
        (("fib", "--routes", "1M"), "the baseline is a report of mpcalc rib, this is mpcalc fib"),
        (("rib", "--routes", "2M"), "routes is 1,000,000 in the baseline, 2,000,000 here"),
        (("rib", "--routes", "1M", "--name", "other"), "name is 'rib' in the baseline, 'other' here"),
        (("rib", "--routes", "1M", "--flags", "all"), "the baseline has the flag combinations none, this run none; "),
    ],
)
def test_another_configuration_is_an_error(baseline, argv, difference):
    run = mpcalc(*argv, "--baseline", baseline)
    assert (run.code, run.out) == (2, ""), run
    assert run.err.startswith(f"mpcalc: error: --baseline: {baseline!r} is another configuration: ")
    assert difference in run.err


def test_another_document_is_an_error(tmp_path):
    plan = tmp_path / "plan.json"
    plan.write_text(mpcalc("plan", "examples/plans/l3fwd-router.toml", "--json").out)
    run = mpcalc("rib", "--routes", "1M", "--baseline", str(plan))
    assert run.code == 2 and "is the JSON of mpcalc plan, not the --json report of a sizing command" in run.err


def test_the_same_configuration_on_another_release(baseline):
    """What a baseline gate is for: the same configuration, a new release.  26.07's ring is one cache line
    longer (64 B): exit 3 at tolerance 0, 0 within 64 bytes; the checks are in the JSON."""
    run = mpcalc("rib", "--routes", "1M", "--dpdk", "26.07", "--baseline", baseline)
    assert run.code == 3
    assert "mpcalc: total_bytes (none) grew from 400,801,632 to 400,801,696 (+64), beyond the tolerance 0" in run.err
    doc = json.loads(
        mpcalc("rib", "--routes", "1M", "--dpdk", "26.07", "--baseline", baseline, "--tolerance", "64", "--json").out
    )
    gates = doc["gates"]
    assert gates["ok"] is True
    assert gates["baseline"]["platform_differences"] == {"dpdk": {"baseline": "22.11", "now": "26.07"}}
    assert [(c["key"], c["baseline"], c["value"], c["limit"], c["ok"]) for c in gates["checks"]] == [
        ("total_bytes", 400_801_632, 400_801_696, 400_801_696, True),
        ("heap_bytes", 400_802_816, 400_802_880, 400_802_880, True),
    ]
    assert mpcalc("rib", "--routes", "1M", "--baseline", baseline).code == 0


def test_gates_are_in_the_json_and_valid():
    from jsonschema import Draft202012Validator

    schema = json.loads(mpcalc("schema").out)
    run = mpcalc("rib", "--routes", "1M", "--max-total", "300M", "--json")
    assert run.code == 3
    doc = json.loads(run.out)
    assert not list(Draft202012Validator(schema).iter_errors(doc))
    (check,) = doc["gates"]["checks"]
    assert check == {
        "gate": "max_total",
        "flags": "none",
        "key": "total_bytes",
        "baseline": None,
        "value": 400_801_632,
        "limit": 300 << 20,
        "ok": False,
        "message": "total_bytes 400,801,632 (none) is over --max-total 314,572,800",
    }
    assert "gates" not in json.loads(mpcalc("rib", "--routes", "1M", "--json").out)


# --- 8. plan: settings in order, sources named, the file format documented ----------------------------------------


def test_plan_settings_read_in_order():
    out = mpcalc("plan", "examples/plans/l3fwd-router.toml", COLUMNS="80").out.splitlines()
    eal = next(i for i, ln in enumerate(out) if ln.startswith("EAL: --socket-mem "))
    assumes = [i for i, ln in enumerate(out) if ln.strip().startswith("assumes:")]
    assert assumes and all(i > eal for i in assumes)  # each assumption under the line it qualifies
    doc = json.loads(mpcalc("plan", "examples/plans/l3fwd-router.toml", "--json").out)
    assert not any(word in line for line in doc["settings"]["assumes"] for word in ("below", "above"))


def test_plan_sources_name_the_file():
    out = mpcalc("plan", "examples/plans/l3fwd-router.toml", COLUMNS="80").out
    assert "dpdk, arch from examples/plans/l3fwd-router.toml [platform]" in out
    assert "from option" not in out
    doc = json.loads(mpcalc("plan", "examples/plans/l3fwd-router.toml", "--json").out)
    assert doc["platform"]["sources"]["dpdk"] == "examples/plans/l3fwd-router.toml [platform]"
    doc = json.loads(mpcalc("rib", "--routes", "1M", "--dpdk", "23.11", "--json").out)
    assert doc["platform"]["sources"]["dpdk"] == "option"


def test_plan_errors_name_the_item(tmp_path):
    plan = tmp_path / "l3fwd.toml"
    plan.write_text('[[mbuf]]\nname = "p0"\ncount = "lots"\n')
    run = mpcalc("plan", str(plan))
    assert run.code == 2
    assert run.err == f"mpcalc: error: {plan}: [[mbuf]] 'p0', key 'count': 'lots' is not a count\n"


def test_readme_documents_the_plan_file(tmp_path):
    import tomllib

    from jsonschema import Draft202012Validator

    section = doc_section("Plan files")  # docs/plan.md
    assert "`mpcalc schema --document plan-file`" in section
    schema = json.loads(mpcalc("schema", "--document", "plan-file").out)
    for table in schema["properties"]:
        assert (f"`[{table}]`" if table == "platform" else f"`[[{table}]]`") in section, table
    for key in schema["properties"]["platform"]["properties"]:
        assert f"`{key}`" in section, key
    example = re.search(r"```toml\n(.*?)```", section, re.S).group(1)
    assert not list(Draft202012Validator(schema).iter_errors(tomllib.loads(example)))
    path = tmp_path / "readme.toml"
    path.write_text(example)
    run = mpcalc("plan", str(path), "--json")
    assert run.code == 0, run.err
    assert {i["name"] for i in json.loads(run.out)["items"]} == {"mbuf_pool_p0", "ipv4_fib"}


# --- 1, 2 and 9: the README's set-up, and what it names ------------------------------------------------------------


def _setup_commands() -> list[str]:
    section = doc_section("Set-up: two commands")
    assert section in README.read_text()  # the front door's, not a page of docs/
    return re.findall(r"```sh\n(.*?)\n```", section, re.S)


def test_readme_set_up_is_two_commands():
    first, second = _setup_commands()
    assert "\n" not in first and "\n" not in second
    # PEP 668: a virtual environment in the command itself, and python3-venv where Debian lacks it
    assert "apt-get install -y python3-venv" in first
    assert "python3 -m venv .venv && .venv/bin/pip install . && .venv/bin/mpcalc rib --routes 1M" in first
    assert "python3 -m pip install" not in first
    assert second == "bash scripts/test.sh"
    ci = [ln for ln in (ROOT / ".ci" / "run").read_text().splitlines() if ln.strip() and not ln.startswith("#")]
    assert ci[-1] == second  # .ci/run runs exactly the README's command


@pytest.mark.slow
def test_readme_first_command_runs_as_written(tmp_path):
    """The README's first command, verbatim, in a copy of the repository: apt (a no-op where python3-venv is
    installed), a new virtual environment, pip install . (from the network) and mpcalc's first answer."""
    import shutil

    if os.geteuid() != 0 and subprocess.run(["sudo", "-n", "true"], capture_output=True).returncode != 0:
        pytest.skip("the README's command installs python3-venv: root or password-less sudo")
    copy = tmp_path / "mpcalc"  # the repository as a user gets it (no git needed): no venv, no build products
    shutil.copytree(
        ROOT,
        copy,
        ignore=shutil.ignore_patterns(
            ".git",
            ".venv",
            ".build",
            "__pycache__",
            "*.egg-info",
            ".hypothesis",
            ".pytest_cache",
            ".mypy_cache",
            ".ruff_cache",
            "build",
        ),
    )
    first, _ = _setup_commands()
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH", "COLUMNS")}
    env["DEBIAN_FRONTEND"] = "noninteractive"
    res = subprocess.run(
        ["bash", "-c", first], cwd=copy, capture_output=True, text=True, env=env, timeout=1800, stdin=subprocess.DEVNULL
    )
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-3000:]
    assert re.search(r"total_bytes\s*│\s*400,801,632", res.stdout), res.stdout[-3000:]
    assert (copy / ".venv" / "bin" / "mpcalc").exists()


def test_readme_names_only_what_exists():
    text = "\n".join(page.read_text() for page in doc_pages())  # README.md and docs/
    assert "shared/seeds" not in text and "seed 003" not in text and "seed's" not in text
    assert not re.search(r"`python [a-z]", text)  # Debian 12 has no `python` command
    for path in re.findall(r"`((?:examples|scripts|tests|bench|mpcalc)/[\w./-]+)`", text):
        if path == "scripts/setup.sh":
            continue  # SPDK's own (docs/spdk.md), not this repository's
        if path.startswith("tests/conformance/.build"):
            continue  # git-ignored: what the conformance suite builds (docs/setup.md)
        assert (ROOT / path).exists() or any(ROOT.glob(path)), path


def test_the_exit_code_table_is_the_enum():
    from mpcalc.service.exitcodes import ExitCode

    table = doc_section("Exit codes")  # docs/exit-codes.md
    assert sorted(int(c) for c in re.findall(r"^\| (\d+) \|", table, re.M)) == sorted(int(c) for c in ExitCode)


def test_regen_draws_at_80_columns_whatever_the_terminal(tmp_path):
    """``.venv/bin/python examples/regen.py`` draws every example at 80 columns, wherever it runs."""
    code = (
        "import importlib.util as u, sys; s = u.spec_from_file_location('regen', sys.argv[1]); "
        "m = u.module_from_spec(s); s.loader.exec_module(m); sys.stdout.write(m.render(sys.argv[2:]))"
    )
    res = subprocess.run(
        [sys.executable, "-c", code, str(ROOT / "examples" / "regen.py"), "rib", "--routes", "1M", "--explain"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env=user_env(COLUMNS="200"),
        timeout=120,
    )
    assert res.returncode == 0, res.stderr
    lines = res.stdout.splitlines()
    assert lines[1] == "DPDK 22.11 (v22.11.11) x86_64, page size 2M"
    assert max(len(ln) for ln in lines[1:]) <= 80


@pytest.mark.parametrize(
    "argv,stdin,code",
    [
        (("batch",), '{"command": "pool", "count": 1000, "elt_size": 40}\n', 0),
        (("batch",), '{"command": "pool", "count": 100, "elt_size": 64, "cache_size": 100}\n', 1),
        (
            ("batch",),
            '{"command": "pool", "count": "lots"}\n{"command": "pool", "count": 100, "elt_size": 64, '
            '"cache_size": 100}\n',
            2,
        ),
        (
            ("sweep", "pool", "--vary", "count=100..200", "--steps", "3", "--elt-size", "64", "--cache-size", "100"),
            None,
            1,
        ),
        (("sweep", "pool", "--vary", "count=1K..2K", "--steps", "3", "--elt-size", "64"), None, 0),
        (("plan", "examples/plans/l3fwd-router.toml"), None, 0),
        (("inspect", "-"), Path(ROOT / "examples" / "inspect" / "mempool-dump.txt").read_text(), 0),
        (("inspect", "-"), "", 2),
        (("schema",), None, 0),
        (
            (
                "diff",
                "--left",
                "--dpdk 22.11",
                "--right",
                "--dpdk 26.07",
                "pool",
                "--count",
                "100",
                "--elt-size",
                "64",
                "--cache-size",
                "100",
            ),
            None,
            1,
        ),
        (("rib", "--routes", "1M", "--max-total", "1G"), None, 0),
        (("rib", "--routes", "1M", "--max-total", "1M"), None, 3),
        (("pool", "--elt-size", "40", "--fit", "1K"), None, 1),
        (("rib", "--routes", "1M", "--bogus"), None, 2),
    ],
    ids=lambda v: " ".join(v)[:40] if isinstance(v, tuple) else None,
)
def test_the_exit_codes_of_every_command(argv, stdin, code):
    """docs/exit-codes.md's table, for the stream commands too."""
    run = mpcalc(*argv, stdin=stdin)
    assert run.code == code, run
    assert "Traceback" not in run.err


@pytest.mark.slow
def test_scripts_test_sh_says_what_it_does():
    """``bash scripts/test.sh`` on a machine it has set up before: a numbered line a step with its time, no
    apt, debconf or pip noise, the foreign architectures as they were; then pytest (here: collection only)."""
    if os.geteuid() != 0:
        pytest.skip("scripts/test.sh runs as root (apt, hugepages)")
    before = subprocess.run(["dpkg", "--print-foreign-architectures"], capture_output=True, text=True).stdout
    res = subprocess.run(
        ["bash", "scripts/test.sh", "--collect-only", "-q", "-k", "no_test_has_this_name"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=user_env(),
        timeout=1800,
        stdin=subprocess.DEVNULL,
    )
    assert res.returncode == 5, res.stdout[-2000:] + res.stderr[-2000:]  # pytest: no tests collected
    steps = [ln for ln in res.stdout.splitlines() if ln.startswith("==> [")]
    assert [ln[:10] for ln in steps] == ["==> [1/3] ", "==> [2/3] ", "==> [3/3] "]
    assert all(re.search(r" \.\.\. done \(\d+s\)$", ln) for ln in steps), steps
    assert re.search(r"^==> setup took \d+s; now pytest", res.stdout, re.M)
    noise = [
        ln
        for ln in (res.stdout + res.stderr).splitlines()
        if re.search(r"debconf|WARNING|\[notice\]|Get:\d|Reading package lists", ln)
    ]
    assert not noise, noise
    assert (ROOT / "tests" / "conformance" / ".build" / "test-setup.log").exists()
    after = subprocess.run(["dpkg", "--print-foreign-architectures"], capture_output=True, text=True).stdout
    assert after == before


def test_records_in_details_are_rows_not_reprs():
    """A list of records among the details (ovs's per-socket advice) reads as rows, not a Python repr."""
    argv = ("ovs", "--port", "dpdk0", "--port", "dpdk1,mtu_request=9000", "--pmd-cpu-mask", "0x6")
    table = mpcalc(*argv, COLUMNS="100").out
    assert re.search(r"advice\.sockets\.0\.pages\s*│\s*[\d,]+", table), table
    assert "{'" not in table
    assert re.search(r"^none,,detail,advice\.sockets\.0\.pages,\d+$", mpcalc(*argv, "--format", "csv").out, re.M)
