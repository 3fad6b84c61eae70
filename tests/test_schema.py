"""The schemas made from the declarations: every object's report input, and the plan file."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from mpcalc.app import schema
from mpcalc.dpdk import objects

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
    assert set(ARGS) == set(objects.NAMES)
    report = schema.documents()["$defs"]["report"]
    assert [c["if"]["properties"]["command"]["const"] for c in report["allOf"]] == list(objects.NAMES)


@pytest.mark.parametrize("name", objects.NAMES)
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
