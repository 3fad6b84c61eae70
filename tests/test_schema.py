"""The schemas made from the declarations: every object's report input, and the plan file."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from mpcalc.dpdk.core import registry
from mpcalc.service import schema

ROOT = Path(__file__).resolve().parents[1]

ARGS = {
    "pool": ["-n", "1000", "--elt-size", "40"],
    "mbuf": ["-n", "8191", "--mtu", "1500", "--lcores", "2", "--cache-size", "256"],
    "rib": ["--nodes", "100"],
    "rib6": ["--routes", "1K"],
    "fib": ["--routes", "1K", "--tbl8", "64"],
    "fib6": ["--routes", "1K", "--type", "dummy"],
    "ring": ["-n", "1024", "--flags", "sp_enq,sc_deq"],
    "lpm": ["--max-rules", "1K", "--tbl8", "256"],
    "hash": ["--entries", "1K", "--key-len", "16", "--extra-flags", "ext_table"],
    "lpm6": ["--max-rules", "1K", "--tbl8", "1K"],
    "app": ["--", "dpdk-testpmd", "-l", "0-1", "--no-huge", "--no-pci", "--vdev", "net_null0", "--", "-i"],
    "ovs": ["--port", "dpdk0,mtu_request=9000", "--port", "vhu0,type=dpdkvhostuserclient,n_rxq=2", "--per-port-memory"],
    "trace": [str(ROOT / "tests" / "conformance" / "traces" / "testpmd-ring" / "ctf")],
}


def test_schemas_are_valid_schemas():
    Draft202012Validator.check_schema(schema.documents())
    Draft202012Validator.check_schema(schema.plan_file())


def test_every_object_has_an_input_schema():
    assert set(ARGS) == set(registry.NAMES)
    report = schema.documents()["$defs"]["report"]
    assert [c["if"]["properties"]["command"]["const"] for c in report["allOf"]] == list(registry.NAMES)


@pytest.mark.parametrize("name", registry.NAMES)
def test_reports_match_their_input_schema(run, name):
    rc, out, _ = run(name, "--json", *ARGS[name])  # app's command line comes last, after --
    assert rc == 0
    doc = json.loads(out)
    validator = Draft202012Validator(schema.documents())
    assert not list(validator.iter_errors(doc))
    doc["input"]["colour"] = "red"  # an input key no declaration has
    assert list(validator.iter_errors(doc))


def test_an_input_of_the_wrong_object_is_refused(run):
    _, out, _ = run("pool", *ARGS["pool"], "--json")
    doc = json.loads(out)
    doc["command"] = "rib"
    assert list(Draft202012Validator(schema.documents()).iter_errors(doc))


@pytest.mark.parametrize("path", sorted((ROOT / "examples/plans").glob("*.toml")), ids=lambda p: p.name)
def test_example_plans_match_the_plan_file_schema(path):
    doc = tomllib.loads(path.read_text())
    assert not list(Draft202012Validator(schema.plan_file()).iter_errors(doc))


def test_plan_file_schema_refuses_unknown_keys_and_tables():
    v = Draft202012Validator(schema.plan_file())
    assert list(v.iter_errors({"pool": [{"name": "a", "count": 1, "elt_size": 8, "colour": "red"}]}))
    assert list(v.iter_errors({"router": [{"name": "a"}]}))
    assert list(v.iter_errors({"pool": [{"name": "a", "elt_size": 8}]}))  # count is needed
    assert not list(v.iter_errors({"pool": [{"name": "a", "count": "1M", "elt_size": "2K", "flags": "no_spread"}]}))


def test_schema_command_prints_both(run):
    rc, out, _ = run("schema", "--document", "plan-file")
    assert rc == 0 and json.loads(out) == schema.plan_file()


# --- every JSON document of every command, against the schema mpcalc schema prints -------------------------

INSPECT = ROOT / "examples" / "inspect"
APPS = ROOT / "tests" / "conformance" / "apps"
L3FWD = ["dpdk-l3fwd", "-l", "0", "--no-pci", "--no-huge", "-m", "1024", "--vdev", "net_tap0,iface=mpct0"]


def batch_lines() -> str:
    """A batch of one line of every object (the plan's items, as batch keys), a bad line and an --explain."""
    from tests.test_plan import EVERY_KIND

    lines = [json.dumps({"command": kind, **keys}) for kind, keys in EVERY_KIND.items()]
    lines += ["not json", '{"command": "ring", "count": 3, "colour": 1}']
    lines += [json.dumps({"command": "pool", "count": 1000, "elt_size": 40, "flags": "all", "explain": True})]
    lines += [json.dumps({"command": "ring", "count": 1000, "flags": "all", "fit": "1M"})]
    return "\n".join(lines) + "\n"


#: a command line per kind of output; the runner below writes the plan and batch files they name
DOCUMENT_RUNS: dict[str, tuple[str, ...]] = {
    **{f"{name} --json": (name, "--json", *ARGS[name]) for name in registry.NAMES},
    **{f"{name} --flags all": (name, "--json", *ARGS[name], "--flags", "all") for name in ("pool", "ring", "hash")},
    "pool --explain --max-total": ("pool", "--json", *ARGS["pool"], "--explain", "--max-total", "1"),
    "ring --fit": ("ring", "--json", "--flags", "exact_sz", "--fit", "64K"),
    "rejected ring": ("ring", "--json", "-n", "1000"),  # EINVAL: not a power of two
    "plan of every kind": ("plan", "{plan}", "--json"),
    "diff mbuf": ("diff", "--left", "--dpdk 21.11", "--right", "--dpdk 25.11", "--json", "mbuf", "--count", "8191"),
    "diff ring": (
        "diff",
        "--left",
        "--arch x86_64",
        "--right",
        "--arch arm64",
        "--json",
        *ARGS["ring"][:0],
        "ring",
        "-n",
        "1024",
    ),
    **{f"inspect {p.name}": ("inspect", str(p), "--json") for p in sorted(INSPECT.iterdir())},
    "inspect an application": (
        "inspect",
        "--json",
        str(APPS / "capture-l3fwd-fib-tap.txt"),
        "--",
        "dpdk-l3fwd",
        "-l",
        "0",
        "--no-pci",
        "--vdev",
        "net_tap0,iface=mpct0",
        "--vdev",
        "net_tap1,iface=mpct1",
        "--",
        "-p",
        "0x3",
        "--config=(0,0,0),(1,0,0)",
        "--lookup=fib",
    ),
    "batch": ("batch", "{batch}"),
    "batch --compact": ("batch", "--compact", "{batch}"),
    "sweep rib": ("sweep", "rib", "--vary", "routes=1K..1M", "--steps", "3", "--format", "jsonl"),
    "sweep ring": ("sweep", "ring", "--vary", "count=1K..1M", "--steps", "3", "--format", "jsonl"),
    "sweep a platform key": (
        "sweep",
        "pool",
        "--vary",
        "max_lcore=1..256",
        "--steps",
        "3",
        "-n",
        "8",
        "--format",
        "jsonl",
        "--elt-size",
        "40",
    ),
}


def documents_of(run, tmp_path, argv: tuple[str, ...]) -> list[dict]:
    """The JSON documents a command line prints: one, or one a line (batch, sweep)."""
    from tests.test_plan import EVERY_KIND, plan_toml

    plan, lines = tmp_path / "every.toml", tmp_path / "lines.jsonl"
    plan.write_text(plan_toml(EVERY_KIND))
    lines.write_text(batch_lines())
    rc, out, err = run(*(a.format(plan=plan, batch=lines) for a in argv))
    assert rc in (0, 1, 2, 3), err
    text = out.strip()
    return [json.loads(text)] if text.startswith("{\n") else [json.loads(line) for line in text.splitlines()]


def which_documents(doc: dict) -> list[str]:
    """The documents of mpcalc.service.schema.DOCUMENTS that ``doc`` is (one, if the schema is right)."""
    full = schema.documents()
    return [
        name
        for name in schema.DOCUMENTS
        if not list(Draft202012Validator({**full, "oneOf": [{"$ref": f"#/$defs/{name}"}]}).iter_errors(doc))
    ]


@pytest.mark.parametrize("case", DOCUMENT_RUNS)
def test_every_json_document_validates_against_mpcalc_schema(run, tmp_path, case):
    _, printed, _ = run("schema")
    validator = Draft202012Validator(json.loads(printed))  # the schema as mpcalc prints it
    docs = documents_of(run, tmp_path, DOCUMENT_RUNS[case])
    assert docs
    for doc in docs:
        errors = sorted(validator.iter_errors(doc), key=str)
        assert not errors, [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in errors]


def test_every_document_of_the_schema_is_printed_by_some_command(run, tmp_path):
    """Each entry of mpcalc.service.schema.DOCUMENTS is what some case above prints (a new command's document
    comes with its case), and each document is exactly one of them."""
    seen = set()
    for case in (
        "pool --json",
        "plan of every kind",
        "diff ring",
        "inspect telemetry.json",
        "batch",
        "batch --compact",
        "sweep ring",
    ):
        for doc in documents_of(run, tmp_path, DOCUMENT_RUNS[case]):
            (name,) = which_documents(doc)
            seen.add(name)
    assert seen == set(schema.DOCUMENTS)


@pytest.mark.parametrize(
    "case,wrong",
    [
        ("ring --json", lambda d: d["results"][0].pop("memzones")),  # a ring's memzones are its own
        ("pool --json", lambda d: d["results"][0].__setitem__("memzones", [])),  # a pool's are in its mempools
        ("ring --json", lambda d: d["results"][0].__setitem__("flags", ["sp_put"])),  # a mempool flag on a ring
        ("pool --json", lambda d: d["results"][0].__setitem__("kind", "router")),
        ("plan of every kind", lambda d: d["items"][0].__setitem__("kind", "router")),
        ("batch --compact", lambda d: d.__setitem__("command", "router")),
        ("sweep rib", lambda d: d.__setitem__("colour", 1)),
    ],
)
def test_the_schema_refuses_what_no_command_prints(run, tmp_path, case, wrong):
    doc = documents_of(run, tmp_path, DOCUMENT_RUNS[case])[0]
    validator = Draft202012Validator(schema.documents())
    assert not list(validator.iter_errors(doc))
    wrong(doc)
    assert list(validator.iter_errors(doc))
