"""The command line: every command in every format, exit codes, one-line usage errors, and the JSON schema."""

from __future__ import annotations

import csv
import io
import json
import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import doc_pages
from jsonschema import Draft202012Validator

import mpcalc
from mpcalc.cli import cli
from mpcalc.dpdk.core import records as model
from mpcalc.service.exitcodes import ExitCode
from mpcalc.service.schema import documents

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = documents()
VALIDATOR = Draft202012Validator(SCHEMA)

ANSI = re.compile(r"\x1b\[")

MBUF = [
    "pool",
    "-n",
    "8191",
    "--elt-size",
    "2304",
    "--cache-size",
    "250",
    "--private-size",
    "8",
    "--page-size",
    "4K",
    "--name",
    "mbuf_pool",
]
RIB_1MI = ["rib", "--routes", "1Mi", "--page-size", "4K"]
PATCH = "no_cache_align,no_spread,no_iova_contig"

COMMANDS = {
    "pool": ["pool", "-n", "8191", "--elt-size", "2304"],
    "rib": ["rib", "--routes", "1000"],
    "rib6": ["rib6", "--routes", "1000"],
}
FORMATS = ["table", "json", "csv", "tsv"]


def numbers(doc: dict) -> list[tuple[str, str, str, str, str]]:
    """The (result, mempool, section, name, value) rows the JSON implies, as CSV text."""
    out = []
    for r in doc["results"]:
        label = "|".join(r["flags"]) or "none"
        for mp in r["mempools"]:
            for f in ("header_size", "elt_size", "trailer_size", "total_size"):
                if mp[f] is not None:
                    out.append((label, mp["name"], "object", f, str(mp[f])))
            out += [(label, mp["name"], "memzone", m["name"], str(m["len"])) for m in mp["memzones"]]
            out += [(label, mp["name"], "allocation", a["name"], str(a["size"])) for a in mp["allocations"]]
        out += [(label, "", "allocation", a["name"], str(a["size"])) for a in r["allocations"]]
        for k in ("total_bytes", "heap_bytes", "hugepages"):
            out.append((label, "", "total", k, "" if r[k] is None else str(r[k])))
        fit = r["details"].get("fit")
        if fit:
            out += [
                (label, "", "fit", k, str(v))
                for k, v in (
                    (fit["key"], fit["value"]),
                    ("budget", fit["budget"]),
                    ("next_heap_bytes", fit["next_heap_bytes"]),
                )
            ]
        out += [
            (label, "", "detail", k, v)
            for k, v in _detail_cells(r["details"])
            if k.split(".")[0] not in ("explain", "fit")
        ]
        out += [(label, "", "error", e["errno"] or "hazard", e["reason"]) for e in r["errors"]]
    return out


def _detail_cells(value: object, key: str = "") -> list[tuple[str, str]]:
    """A result's details as CSV cells: dotted keys; true/false; lists joined with |; null empty."""
    if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
        value = {str(i): v for i, v in enumerate(value)}
    if isinstance(value, dict):
        return [cell for k, v in value.items() for cell in _detail_cells(v, f"{key}.{k}" if key else k)]
    if isinstance(value, bool):
        return [(key, str(value).lower())]
    if isinstance(value, list):
        return [(key, "|".join(str(v) for v in value))]
    return [(key, "" if value is None else str(value))]


# --- the schema itself -------------------------------------------------------------------------------------------


def test_schema_is_valid_draft_2020_12():
    Draft202012Validator.check_schema(SCHEMA)
    assert SCHEMA["$schema"] == "https://json-schema.org/draft/2020-12/schema"


def test_schema_metadata():
    assert SCHEMA["$id"]
    assert SCHEMA["title"]
    assert SCHEMA["x-schema-version"] == model.SCHEMA_VERSION == "1.0"
    assert SCHEMA["$defs"]["report"]["properties"]["schema_version"] == {"const": model.SCHEMA_VERSION}
    assert SCHEMA["$defs"]["diff"]["properties"]["schema_version"] == {"const": model.SCHEMA_VERSION}


def test_schema_is_strict(run_json):
    _, doc = run_json(*MBUF)
    bad = json.loads(json.dumps(doc))
    bad["results"][0]["surprise"] = 1
    assert not VALIDATOR.is_valid(bad)
    bad = json.loads(json.dumps(doc))
    bad["results"][0]["mempools"][0]["memzones"][0]["len"] = -1
    assert not VALIDATOR.is_valid(bad)
    bad = json.loads(json.dumps(doc))
    bad["results"][0]["total_bytes"] = None
    assert not VALIDATOR.is_valid(bad)
    bad = json.loads(json.dumps(doc))
    bad["results"][0]["heap_bytes"] = 1.5
    assert not VALIDATOR.is_valid(bad)
    bad = json.loads(json.dumps(doc))
    bad["schema_version"] = "2.0"
    assert not VALIDATOR.is_valid(bad)
    bad = json.loads(json.dumps(doc))
    bad["platform"]["numa"] = 2
    assert not VALIDATOR.is_valid(bad)
    # input is the command's declared parameters (mpcalc.service.schema); details are free-form
    bad = json.loads(json.dumps(doc))
    bad["input"]["num_tbl8"] = 100
    assert not VALIDATOR.is_valid(bad)
    ok = json.loads(json.dumps(doc))
    ok["results"][0]["details"]["tbl24"] = 1
    ok["results"][0]["kind"] = "fib"
    assert VALIDATOR.is_valid(ok)


# --- every command in every format -------------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_every_command_in_every_format(run, command, fmt):
    rc, out, err = run(*COMMANDS[command], "--format", fmt)
    assert rc == ExitCode.OK, err
    assert err == ""
    assert out.strip()
    if fmt == "json":
        doc = json.loads(out)
        assert VALIDATOR.is_valid(doc)
        assert doc["command"] == command
        assert [r["kind"] for r in doc["results"]] == [command]
    elif fmt in ("csv", "tsv"):
        rows = list(csv.reader(io.StringIO(out), delimiter="\t" if fmt == "tsv" else ","))
        assert rows[0] == ["result", "mempool", "section", "name", "value"]
        assert all(len(row) == 5 for row in rows)
        assert any(row[3] == "total_bytes" for row in rows)
    else:
        assert "DPDK 22.11 (v22.11.11) x86_64" in out
        assert "total_bytes" in out
        assert not ANSI.search(out)


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_json_shorthand_equals_format_json(run, command):
    rc1, out1, _ = run(*COMMANDS[command], "--json")
    rc2, out2, _ = run(*COMMANDS[command], "--format", "json")
    rc3, out3, _ = run(*COMMANDS[command], "--json", "--format", "json")
    assert rc1 == rc2 == rc3 == ExitCode.OK
    assert out1 == out2 == out3


@pytest.mark.parametrize("fmt", ["csv", "tsv", "table"])
def test_json_conflicts_with_other_formats(run, fmt):
    rc, out, err = run(*COMMANDS["pool"], "--json", "--format", fmt)
    assert rc == ExitCode.USAGE
    assert out == ""
    assert f"--json conflicts with --format {fmt}" in err
    assert "Traceback" not in err


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_flags_all_gives_8_results(run_json, command):
    rc, doc = run_json(*COMMANDS[command], "--flags", "all")
    assert rc == ExitCode.OK
    assert len(doc["results"]) == 8
    assert len({tuple(r["flags"]) for r in doc["results"]}) == 8
    assert doc["results"][0]["flags"] == []


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_flags_all_table_has_a_summary(run, command):
    rc, out, _ = run(*COMMANDS[command], "--flags", "all")
    assert rc == ExitCode.OK
    assert "every flag combination" in out
    assert "saves" in out
    assert "no_iova_contig" in out


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_flags_all_csv_has_8_labels(run, command):
    rc, out, _ = run(*COMMANDS[command], "--flags", "all", "--format", "csv")
    assert rc == ExitCode.OK
    labels = {row[0] for row in list(csv.reader(io.StringIO(out)))[1:]}
    assert len(labels) == 8 and "none" in labels


# --- worked examples (figures measured on real DPDK builds, through the CLI) ------------------------------------------


def test_example_mbuf_pool(run_json):
    rc, doc = run_json(*MBUF)
    assert rc == ExitCode.OK
    (r,) = doc["results"]
    assert [(m["name"], m["len"]) for m in r["mempools"][0]["memzones"]] == [
        ("MP_mbuf_pool", 1_057_024),
        ("RG_MP_mbuf_pool", 65_920),
        ("MP_mbuf_pool_0", 33_550_976),
    ]
    assert r["heap_bytes"] == 34_674_880
    assert r["mempools"][0]["total_size"] == 2368
    assert doc["platform"]["page_size"] == 4096
    assert doc["input"] == {
        "name": "mbuf_pool",
        "count": 8191,
        "elt_size": 2304,
        "cache_size": 250,
        "private_size": 8,
        "cache_layout": "pointer",
        "ops": None,
    }


def test_example_mbuf_pool_on_2m_pages(run_json):
    _rc, doc = run_json("pool", "-n", "8191", "--elt-size", "2304", "--cache-size", "250", "--private-size", "8")
    assert doc["platform"]["page_size"] == 2 * 2**20
    assert doc["results"][0]["mempools"][0]["memzones"][2]["len"] == 19_411_904


def test_example_mbuf_pool_table(run):
    rc, out, _ = run(*MBUF)
    assert rc == ExitCode.OK
    for text in ("1,057,024", "65,920", "33,550,976", "34,674,880", "MP_mbuf_pool_0", "RG_MP_mbuf_pool"):
        assert text in out


def test_example_rib_1mi_routes(run_json):
    rc, doc = run_json(*RIB_1MI)
    assert rc == ExitCode.OK
    assert doc["input"]["max_nodes"] == 2**21
    mp = doc["results"][0]["mempools"][0]
    assert mp["total_size"] == 192
    assert mp["memzones"][2] == {"name": "MP_MP_rib_0", "len": 409_044_672, "role": "objects"}


def test_example_rib_patch_flags(run_json):
    _rc, doc = run_json(*RIB_1MI, "--flags", PATCH)
    mp = doc["results"][0]["mempools"][0]
    assert mp["total_size"] == 64
    assert mp["memzones"][2]["len"] == 134_217_728
    assert doc["results"][0]["flags"] == ["no_spread", "no_cache_align", "no_iova_contig"]


def test_example_rib6_patch_flags(run_json):
    _rc, doc = run_json("rib6", "--routes", "1Mi", "--page-size", "4K", "--flags", PATCH)
    mp = doc["results"][0]["mempools"][0]
    assert mp["total_size"] == 80
    assert mp["memzones"][2]["len"] == 167_772_160
    assert mp["name"] == "MP_rib6"


def test_example_rib_nodes(run_json):
    _rc, doc = run_json("rib", "--nodes", "1000", "--page-size", "4K")
    lens = [m["len"] for m in doc["results"][0]["mempools"][0]["memzones"]]
    assert lens == [192, 8_576, 195_200]
    assert doc["input"]["routes"] is None


@pytest.mark.parametrize(
    ("args", "size"),
    [
        (["--channels", "1", "--ranks", "1"], 128),  # EAL -n 1 -r 1: no spreading, 2 lines
        ([], 192),  # DPDK's fallback 4 x 1: 2 lines -> 3
        (["--channels", "3"], 128),  # gcd(2, 3) = 1
        (["--channels", "3", "--ranks", "2"], 320),  # product 6: 2 -> 3 -> 4 -> 5 lines
    ],
)
def test_channels_and_ranks(run_json, args, size):
    _rc, doc = run_json("rib", "--routes", "1000", *args)
    assert doc["results"][0]["mempools"][0]["total_size"] == size


def test_macro_flag_names(run_json):
    _rc, doc = run_json(*COMMANDS["pool"], "--flags", "RTE_MEMPOOL_F_NO_CACHE_ALIGN|MEMPOOL_F_SP_PUT")
    r = doc["results"][0]
    assert r["flags"] == ["no_cache_align", "sp_put"]
    assert r["effective_flags"] == ["no_spread", "no_cache_align", "sp_put"]
    assert r["mempools"][0]["ops_name"] == "ring_sp_mc"


def test_units_on_options(run_json):
    _rc, doc = run_json("pool", "--count", "1Ki", "--elt-size", "4KB", "--private-size", "1KiB")
    assert doc["input"]["count"] == 1024
    assert doc["input"]["elt_size"] == 4000
    assert doc["input"]["private_size"] == 1024


@pytest.mark.parametrize(("page", "size"), [("4K", 4096), ("64K", 65536), ("2M", 2**21), ("1G", 2**30), ("none", 0)])
def test_page_sizes(run_json, page, size):
    _rc, doc = run_json(*COMMANDS["pool"], "--page-size", page)
    assert doc["platform"]["page_size"] == size
    assert (doc["results"][0]["hugepages"] is None) == (size == 0)


def test_platform_overrides(run_json):
    _rc, doc = run_json(
        "pool", "-n", "1000", "--elt-size", "64", "--cache-size", "1", "--cache-line", "128", "--max-lcore", "256"
    )
    assert doc["platform"]["cache_line"] == 128 and doc["platform"]["max_lcore"] == 256
    hdr = doc["results"][0]["mempools"][0]["header"]
    assert hdr == {"mempool_struct": 256, "cache_struct": 8320, "caches": 256 * 8320, "private_data": 0}


def test_index_cache_layout(run_json):
    _rc, doc = run_json(*COMMANDS["pool"], "--cache-size", "32", "--cache-layout", "index")
    assert doc["results"][0]["mempools"][0]["header"]["cache_struct"] == 4160


# --- exit 1: DPDK would reject; the output is still printed ------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "errno"),
    [
        (["pool", "-n", "0", "--elt-size", "64"], "EINVAL"),
        (["pool", "-n", "100", "--elt-size", "64", "--cache-size", "68"], "EINVAL"),
        (["pool", "-n", "10000", "--elt-size", "64", "--cache-size", "513"], "EINVAL"),
        (["pool", "-n", "100", "--elt-size", "64", "--flags", "0x40"], "EINVAL"),
        (["pool", "-n", "100", "--elt-size", "64", "--name", "n" * 26], "ENAMETOOLONG"),
        (["pool", "-n", "100", "--elt-size", "64", "--name", "n" * 29], "ENAMETOOLONG"),
        (["pool", "-n", "1Gi", "--elt-size", "64", "--page-size", "none"], "EINVAL"),
        (["pool", "-n", "4294967295", "--elt-size", "8", "--page-size", "none"], None),
        (["rib", "--routes", "1Gi"], "EINVAL"),
        (["rib", "--routes", "512Mi"], "EINVAL"),
        (["rib", "--routes", "1000", "--name", "r" * 23], "ENAMETOOLONG"),
        (["rib6", "--nodes", "1000", "--name", "r" * 40], "ENAMETOOLONG"),
    ],
)
def test_rejected_configs_exit_1_with_json(run_json, args, errno):
    rc, doc = run_json(*args)
    assert rc == ExitCode.REJECTED
    errors = doc["results"][0]["errors"]
    assert errors and errors[0]["errno"] == errno


def test_cache_67_is_fine_with_100_objects(run):
    rc, _, _ = run("pool", "-n", "100", "--elt-size", "64", "--cache-size", "67")
    assert rc == ExitCode.OK


@pytest.mark.parametrize("fmt", ["table", "csv"])
def test_rejected_configs_show_the_error(run, fmt):
    rc, out, err = run("pool", "-n", "0", "--elt-size", "64", "--format", fmt)
    assert rc == ExitCode.REJECTED
    assert "EINVAL" in out
    assert "Traceback" not in err


def test_leaked_memzone_in_table(run):
    rc, out, _ = run("pool", "-n", "100", "--elt-size", "64", "--name", "n" * 27)
    assert rc == ExitCode.REJECTED
    assert "(leaked)" in out
    assert "ENAMETOOLONG" in out


def test_leaked_memzone_in_json(run_json):
    _rc, doc = run_json("pool", "-n", "100", "--elt-size", "64", "--name", "n" * 27)
    (m,) = doc["results"][0]["mempools"][0]["memzones"]
    assert m == {"name": "MP_" + "n" * 27, "len": 192, "role": "header", "leaked": True}


def test_flags_all_exit_code_follows_the_worst_result(run_json):
    rc, doc = run_json("pool", "-n", "100", "--elt-size", "64", "--cache-size", "68", "--flags", "all")
    assert rc == ExitCode.REJECTED
    assert all(r["errors"] for r in doc["results"])


# --- exit 2: usage errors ----------------------------------------------------------------------------------------

USAGE_ERRORS = [
    # (args, option named in the message, value that must be quoted or None)
    (["pool", "-n", "-5", "--elt-size", "64"], "--count", "-5"),
    (["pool", "-n", "0.5", "--elt-size", "64"], "--count", "0.5"),
    (["pool", "-n", "1.5", "--elt-size", "64"], "--count", "1.5"),
    (["pool", "-n", "10", "--elt-size", "0.5"], "--elt-size", "0.5"),
    (["pool", "-n", "10", "--elt-size", "64X"], "--elt-size", "64X"),
    (["pool", "-n", "10Q", "--elt-size", "64"], "--count", "10Q"),
    (["pool", "-n", "10", "--elt-size", "64", "--cache-size", "-1"], "--cache-size", "-1"),
    (["pool", "-n", "10", "--elt-size", "64", "--flags", "bogus"], "--flags", "bogus"),
    (["pool", "-n", "10", "--elt-size", "64", "--flags", "no_spread,frobnicate"], "--flags", "frobnicate"),
    (["pool", "-n", "4294967296", "--elt-size", "64"], "--count", "4294967296"),
    (["pool", "-n", "4Gi", "--elt-size", "64"], "--count", "4Gi"),
    (["pool", "-n", "10", "--elt-size", "4GiB"], "--elt-size", "4GiB"),
    (["pool", "-n", "10", "--elt-size", "64", "--page-size", "3K"], "--page-size", "3K"),
    (["pool", "-n", "10", "--elt-size", "64", "--page-size", "2K"], "--page-size", "2K"),
    (["pool", "-n", "10", "--elt-size", "64", "--ranks", "17"], "--ranks", "17"),
    (["pool", "-n", "10", "--elt-size", "64", "--ranks", "0"], "--ranks", "0"),
    (["pool", "-n", "10", "--elt-size", "64", "--channels", "0"], "--channels", "0"),
    (["pool", "-n", "10", "--elt-size", "64", "--cache-line", "96"], "--cache-line", "96"),
    (["pool", "-n", "10", "--elt-size", "64", "--dpdk", "99.99"], "--dpdk", "99.99"),
    (["pool", "-n", "10", "--elt-size", "64", "--format", "xml"], "--format", "xml"),
    (["rib", "--routes", "1000", "--nodes", "2000"], "--routes", None),
    (["rib"], "--nodes", None),
    (["rib6", "--routes", "0"], "--routes", "0"),
    (["rib", "--routes", "2147483648"], "--routes", "2147483648"),
    (["rib", "--routes", "10", "--ext-size", "x"], "--ext-size", "x"),
    (["pool", "--elt-size", "64"], "--count", None),
]


@pytest.mark.parametrize(("args", "option", "value"), USAGE_ERRORS)
def test_usage_errors_exit_2_and_name_the_option(run, args, option, value):
    rc, out, err = run(*args)
    assert rc == ExitCode.USAGE
    assert out == ""
    assert "Traceback" not in err
    assert "internal error" not in err
    last = err.strip().splitlines()[-1]
    assert option in last
    if value is not None:
        assert f"'{value}'" in last


@pytest.mark.parametrize(("args", "option", "value"), USAGE_ERRORS[:3] + USAGE_ERRORS[-6:-4])
def test_usage_errors_are_one_line(run, args, option, value):
    rc, _out, err = run(*args)
    assert rc == ExitCode.USAGE
    assert len(err.strip().splitlines()) == 1, err


def test_unknown_command(run):
    rc, _out, err = run("frobnicate")
    assert rc == ExitCode.USAGE
    assert "frobnicate" in err
    assert "Traceback" not in err


def test_max_count_is_accepted(run):
    # 2^32 - 1 fits n's uint32; DPDK's ring then wraps (a hazard, exit 1), but it is not a usage error
    rc, out, _err = run("pool", "-n", "4294967295", "--elt-size", "8", "--page-size", "none", "--json")
    assert rc == ExitCode.REJECTED
    assert json.loads(out)["results"][0]["errors"][0]["errno"] is None


# --- misc --------------------------------------------------------------------------------------------------------


def test_version(run):
    rc, out, _err = run("--version")
    assert rc == ExitCode.OK
    assert mpcalc.__version__ in out
    assert "mpcalc" in out


@pytest.mark.parametrize("args", [["--help"], ["-h"], ["pool", "--help"], ["rib", "-h"], ["rib6", "--help"]])
def test_help(run, args):
    rc, out, _err = run(*args)
    assert rc == ExitCode.OK
    assert "Usage:" in out


def test_json_version_fields(run_json):
    _rc, doc = run_json(*COMMANDS["pool"])
    assert doc["schema_version"] == model.SCHEMA_VERSION
    assert doc["mpcalc_version"] == mpcalc.__version__
    assert doc["notes"] == []


@pytest.mark.parametrize(
    "args",
    [
        MBUF,
        RIB_1MI,
        ["rib6", "--routes", "1000", "--flags", "all"],
        ["pool", "-n", "100", "--elt-size", "64", "--name", "n" * 27],
    ],
)
def test_csv_rows_equal_json_numbers(run, args):
    _, out_json, _ = run(*args, "--json")
    _, out_csv, _ = run(*args, "--format", "csv")
    _, out_tsv, _ = run(*args, "--format", "tsv")
    expected = numbers(json.loads(out_json))
    assert [tuple(r) for r in list(csv.reader(io.StringIO(out_csv)))[1:]] == expected
    assert [tuple(r) for r in list(csv.reader(io.StringIO(out_tsv), delimiter="\t"))[1:]] == expected


@pytest.mark.parametrize(
    "args", [MBUF, RIB_1MI, ["rib", "--routes", "1000", "--flags", "all"], ["pool", "-n", "0", "--elt-size", "64"]]
)
def test_table_to_a_non_terminal_has_no_ansi(run, args):
    _, out, _ = run(*args)
    assert out
    assert not ANSI.search(out)


def test_table_with_force_terminal_env_still_plain_with_no_color(run, monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    _, out, _ = run(*MBUF)
    assert not ANSI.search(out)


# --- click's CliRunner -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "code"), [(MBUF, ExitCode.OK), (["pool", "-n", "0", "--elt-size", "64"], ExitCode.REJECTED)]
)
def test_cli_runner_return_value(args, code):
    result = CliRunner().invoke(cli, [*args, "--json"], standalone_mode=False)
    assert result.exception is None
    assert result.return_value == code
    assert VALIDATOR.is_valid(json.loads(result.output))


def test_cli_runner_table_has_no_ansi():
    result = CliRunner().invoke(cli, RIB_1MI, standalone_mode=False)
    assert result.return_value == ExitCode.OK
    assert "409,044,672" in result.output
    assert not ANSI.search(result.output)


def test_cli_runner_standalone_usage_error():
    result = CliRunner().invoke(cli, ["pool", "-n", "x", "--elt-size", "1"])
    assert result.exit_code == ExitCode.USAGE
    assert "'x'" in result.output


def test_cli_runner_version():
    result = CliRunner().invoke(cli, ["--version"])
    assert result.exit_code == 0
    assert mpcalc.__version__ in result.output


# --- the documentation's examples (README.md and docs/) ---------------------------------------------------------


def _example_commands() -> list[tuple[str, int | None]]:
    """examples/commands.txt, with the exit code each examples/NN-*.txt recorded."""
    path = ROOT / "examples" / "commands.txt"
    if not path.exists():
        return []
    out = []
    lines = [ln for ln in path.read_text().splitlines() if ln.strip()]
    for i, line in enumerate(lines, 1):
        recorded = ROOT / "examples" / f"{i:02d}-{shlex.split(line)[0]}.txt"
        m = re.search(r"\(exit code (\d+)\)\s*$", recorded.read_text()) if recorded.exists() else None
        out.append((line, int(m.group(1)) if m else None))
    return out


def _readme_commands() -> list[str]:
    """Every ``$ mpcalc ...`` line and every inline `mpcalc pool|rib|fib|mbuf --...` of README.md and docs/."""
    cmds = []
    for page in doc_pages():
        text = page.read_text()
        cmds += re.findall(r"^\$ mpcalc (.+)$", text, flags=re.M)
        cmds += re.findall(r"`mpcalc ((?:pool|rib6?|fib6?|mbuf) --[^`]*?)`", text)
    # skip synopses such as "pool --count N --elt-size B [--cache-size N]"
    return [c for c in cmds if "..." not in c and "[" not in c and not re.search(r"(^|\s)[A-Z]{1,5}(\s|$)", c)]


def _shown_errors() -> dict[str, str]:
    """``$ mpcalc ...`` lines a page shows refused: the command and the ``mpcalc: error: ...`` line shown under it."""
    shown = {}
    for page in doc_pages():
        shown.update(re.findall(r"^\$ mpcalc (.+)\n(mpcalc: error: .+)$", page.read_text(), flags=re.M))
    return shown


EXAMPLES = _example_commands()


def _as_json(args: list[str]) -> list[str]:
    args = [a for a in args if a != "--json"]
    if "--format" in args:
        i = args.index("--format")
        del args[i : i + 2]
    return [*args, "--json"]


@pytest.mark.skipif(not EXAMPLES, reason="no examples/commands.txt")
@pytest.mark.parametrize(("line", "code"), EXAMPLES, ids=[c for c, _ in EXAMPLES] or None)
def test_readme_examples_run(run, line, code):
    rc, out, err = run(*shlex.split(line))
    assert "Traceback" not in err
    assert out
    if code is not None:
        assert rc == code
    if shlex.split(line)[0] in ("batch", "sweep", "inspect"):
        return  # JSON Lines / CSV streams and the inspect document: their own tests validate them
    rc2, out2, _ = run(*_as_json(shlex.split(line)))
    assert rc2 == rc
    doc = json.loads(out2)
    errors = list(VALIDATOR.iter_errors(doc))
    assert not errors, [e.message for e in errors]


def test_readme_commands_are_examples_or_run_cleanly(run):
    commands = _readme_commands()
    assert commands
    recorded = dict(EXAMPLES)
    refused = _shown_errors()
    for c in commands:
        rc, _out, err = run(*shlex.split(c.split(" | ")[0]))  # mpcalc's part of a pipeline
        assert "Traceback" not in err
        if c in refused:  # a page shows the refusal on purpose (docs/drivers.md): exit 2 and that one line
            assert (rc, err) == (ExitCode.USAGE, refused[c] + "\n"), c
            continue
        # an example may show a usage error on purpose (examples/batch.jsonl has a bad line): its recorded code
        assert rc == recorded[c] if recorded.get(c) is not None else rc in (ExitCode.OK, ExitCode.REJECTED), (c, err)


def test_readme_rib_figures(run_json):
    # docs/rib.md: "1Mi routes (2Mi nodes) on 4 KiB pages take a 409,044,672-byte objects memzone (390 MiB) by default,
    # 128 MiB with the patch's flags, and 160 MiB for rib6"
    _, doc = run_json("rib", "--routes", "1Mi", "--page-size", "4K", "--flags", "none")
    assert doc["results"][0]["mempools"][0]["memzones"][2]["len"] == 409_044_672
    _, doc = run_json("rib6", "--routes", "1Mi", "--page-size", "4K", "--flags", PATCH)
    assert doc["results"][0]["mempools"][0]["memzones"][2]["len"] == 160 * 2**20


# --- the newer commands: fib, fib6, mbuf, schema -----------------------------------------------------------------

NEW_COMMANDS = [
    ["fib", "--routes", "1000", "--type", "dummy"],
    ["fib", "--routes", "1000", "--tbl8", "100"],
    ["fib6", "--routes", "1000", "--tbl8", "100"],
    ["mbuf", "--count", "8191", "--cache-size", "256"],
    ["mbuf", "--count", "8191", "--cache-size", "256", "--mtu", "9000", "--cache-layout", "index", "--lcores", "8"],
]


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("args", NEW_COMMANDS, ids=[" ".join(a) for a in NEW_COMMANDS])
def test_new_commands_every_format(run, args, fmt):
    rc, out, err = run(*args, "--format", fmt)
    assert rc == ExitCode.OK, err
    if fmt == "json":
        assert VALIDATOR.is_valid(json.loads(out))
    elif fmt == "table":
        assert not ANSI.search(out)


@pytest.mark.parametrize(
    ("args", "heap"),
    [
        # rte_fib_create (DUMMY): DUMMY, max_routes=1000: heap 409,088 (R, --no-huge)
        (["fib", "--routes", "1000", "--type", "dummy"], 409_088),
        # rte_fib_create (DIR24_8): DIR24_8 4B, num_tbl8=100: 67,650,624 on Debian 22.11.11 (with the +4 B tbl24
        # backport)
        (["fib", "--routes", "1000", "--nh-size", "4", "--tbl8", "100"], 67_650_624),
        # rte_fib6_create (TRIE): TRIE 4B, num_tbl8=100: 67,622,272 at v22.11 GA, + 64 for the +4 B tbl24 backport =
        # 67,622,336
        (["fib6", "--routes", "1000", "--nh-size", "4", "--tbl8", "100"], 67_622_336),
    ],
)
def test_fib_heap_measurements(run_json, args, heap):
    rc, doc = run_json(*args, "--page-size", "4K")
    assert rc == ExitCode.OK
    assert doc["results"][0]["heap_bytes"] == heap


@pytest.mark.parametrize(("layout", "header"), [("pointer", 1_057_024), ("index", 532_736)])
def test_readme_mbuf_header_memzone(run_json, layout, header):
    _rc, doc = run_json(
        "mbuf", "--count", "8191", "--cache-size", "256", "--data-room", "2176", "--cache-layout", layout
    )
    mzs = {m["name"]: m["len"] for m in doc["results"][0]["mempools"][0]["memzones"]}
    assert mzs["MP_mbuf_pool"] == header


def test_schema_command_prints_the_schema(run):
    rc, out, _err = run("schema")
    assert rc == ExitCode.OK
    assert json.loads(out) == SCHEMA


# --- mpcalc diff -------------------------------------------------------------------------------

DIFF_RELEASES = (
    "diff",
    "--left",
    "--dpdk 21.11",
    "--right",
    "--dpdk 26.07",
    "mbuf",
    "--count",
    "8191",
    "--cache-size",
    "256",
)


def test_diff_table_shows_both_platforms(run):
    rc, out, _ = run(*DIFF_RELEASES)
    assert rc == ExitCode.OK
    assert "left:  DPDK 21.11 (v21.11.9)" in out and "right: DPDK 26.07 (v26.07)" in out
    # 21.11's cache struct held 3 x 512 pointers (12,352 B a lcore); the ring gained a guard line in 26.07
    assert "-524,288" in out and "+64" in out


def test_diff_json_validates_and_pairs_items(run_json):
    rc, doc = run_json(*DIFF_RELEASES, "--json")
    assert rc == ExitCode.OK and doc["command"] == "diff"
    rows = {(r["section"], r["name"]): r for r in doc["rows"]}
    assert rows[("memzone", "MP_mbuf_pool")]["left"] == 1_581_312
    assert rows[("memzone", "MP_mbuf_pool")]["right"] == 1_057_024
    assert rows[("memzone", "RG_MP_mbuf_pool")]["delta"] == 64
    total = rows[("total", "total_bytes")]
    assert total["delta"] == total["right"] - total["left"]


def test_diff_format_after_the_command_counts(run):
    rc, out, _ = run("diff", "--right", "--platform graviton3", "rib", "--routes", "1M", "--format", "csv")
    assert rc == ExitCode.OK
    assert out.splitlines()[0] == "result,section,name,left,right,delta"
    assert "none,memzone,MP_MP_rib_0,384023616,256000128,-128023488" in out


def test_diff_exit_code_1_when_one_side_is_rejected(run_json):
    # cache_size == n: rejected up to 25.11 (1.5 x cache_size > n), accepted from 26.07
    rc, doc = run_json(
        "diff", "--right", "--dpdk 26.07", "pool", "-n", "100", "--elt-size", "8", "--cache-size", "100", "--json"
    )
    assert rc == ExitCode.REJECTED
    assert doc["left"]["results"][0]["errors"][0]["errno"] == "EINVAL"
    assert doc["right"]["results"][0]["errors"] == []


@pytest.mark.parametrize(
    "argv", [("diff", "schema"), ("diff", "nosuch"), ("diff", "--left", "'", "rib", "--nodes", "1")]
)
def test_diff_usage_errors(run, argv):
    rc, out, err = run(*argv)
    assert rc == ExitCode.USAGE and out == ""
    assert len(err.strip().splitlines()) == 1
