"""ARCHITECTURE.md's "Adding a DPDK object", literally: an object declared in this file alone (a throwaway
"widget", registered for each test and taken away after it) is a command with its options and help, a plan
item, a batch line, a sweep target, grows under ``--fit``, names its flags in its own vocabulary, lists its own
memzones in its JSON, and is in the schema mpcalc prints: no other file knows it.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from mpcalc.dpdk.core import registry
from mpcalc.dpdk.core.declare import ObjectDecl, Param
from mpcalc.dpdk.core.flags import FlagSet
from mpcalc.dpdk.core.heap import heap_cost, memzone_len
from mpcalc.dpdk.core.platform import Platform
from mpcalc.dpdk.core.records import Allocation, Memzone, Result
from mpcalc.dpdk.core.standalone import Parts, finish
from mpcalc.service.schema import documents, plan_file

#: the widget's own flags: ``big`` doubles its slots
WIDGET_FLAGS = FlagSet(name="widget", bits={"big": 0x1, "quiet": 0x2}, prefixes=("WIDGET_F_",), sizing=("big",))
#: bytes of a slot, and of a big one
SLOT, BIG_SLOT = 64, 128
#: the widget's struct, an rte_malloc beside its memzone
STRUCT = 48


def _build(a: Mapping[str, Any], extra: Mapping[str, Any], flags: int, p: Platform) -> Result:
    parts = Parts()
    slot = BIG_SLOT if flags & WIDGET_FLAGS.bits["big"] else SLOT
    parts.zones.append(Memzone(f"WG_{a['name']}", memzone_len(a["count"] * slot, p), "widget slots"))
    parts.allocations.append(Allocation(f"WIDGET_{a['name']}", STRUCT, "struct widget"))
    return finish("widget", flags, p, parts, {"slot": slot})


WIDGET = ObjectDecl(
    name="widget",
    summary="A throwaway widget: one memzone of slots and its struct.",
    params=(
        Param("count", "count", "Slots; required unless --fit.", short="-n", needed=True),
        Param("name", "text", "Widget name (memzone WG_<name>).", default="w", show_default=True),
        Param("flags", "flags", "Widget flags: big, quiet, none, or all.", default=[0], vocabulary=WIDGET_FLAGS),
    ),
    build=_build,
    fit={"count": 1 << 24},
    zone_prefix="WG_",
    per=("count", "slot"),
    own_zones=True,
)


@pytest.fixture
def widget() -> Iterator[ObjectDecl]:
    """The widget in the registry for one test (mpcalc.dpdk.core.registry.register), and out of it after."""
    from mpcalc.cli import cli

    registry.register(WIDGET)
    yield WIDGET
    registry.unregister(WIDGET.name)
    cli.commands.pop(WIDGET.name, None)  # the group keeps a command it built once
    assert "widget" not in registry.NAMES


def valid(doc: dict) -> dict:
    """``doc``, if the schema made now (the widget in it) says it is valid."""
    errors = sorted(Draft202012Validator(documents()).iter_errors(doc), key=str)
    assert not errors, [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in errors]
    return doc


def totals(count: int, slot: int, p: Platform) -> tuple[int, int]:
    """(total_bytes, heap_bytes) of a widget of ``count`` slots, from the model's memzone and heap rules."""
    zone = memzone_len(count * slot, p)
    return zone + STRUCT, heap_cost(zone, p) + heap_cost(STRUCT, p)


def test_its_command_has_its_options_and_help(widget, run):
    rc, out, _ = run("widget", "--help")
    assert rc == 0
    assert "A throwaway widget" in out
    for option in ("-n, --count", "--name", "--flags", "--dpdk", "--page-size", "--fit", "--max-total", "--json"):
        assert option in out, option
    _, listing, _ = run("--help")
    assert "widget" in listing


def test_its_json_names_its_flags_and_lists_its_own_memzones(widget, run):
    rc, out, err = run("widget", "-n", "1000", "--flags", "all", "--json")
    assert rc == 0, err
    doc = valid(json.loads(out))
    p = Platform()
    assert [r["flags"] for r in doc["results"]] == [[], ["big"]]
    for r, slot in zip(doc["results"], (SLOT, BIG_SLOT), strict=True):
        assert r["memzones"] == [{"name": "WG_w", "len": memzone_len(1000 * slot, p), "role": "widget slots"}]
        assert (r["total_bytes"], r["heap_bytes"]) == totals(1000, slot, p)
        assert r["effective_flags"] == [] and r["details"] == {"slot": slot}
    assert doc["input"] == {"count": 1000, "name": "w"}
    rc, out, err = run("widget", "-n", "10", "--flags", "WIDGET_F_QUIET", "--max-total", "1", "--json")
    assert rc == 3 and json.loads(out)["gates"]["checks"][0]["flags"] == "quiet"
    assert err == f"mpcalc: total_bytes {totals(10, SLOT, p)[0]:,} (quiet) is over --max-total 1\n"


def test_fit_grows_its_count(widget, run):
    rc, out, _ = run("widget", "--fit", "1M", "--json")
    assert rc == 0
    doc = valid(json.loads(out))
    fit = doc["results"][0]["details"]["fit"]
    p = Platform()
    assert fit["key"] == "count" and doc["input"]["count"] == fit["value"]
    assert totals(fit["value"], SLOT, p)[1] <= 1 << 20 < totals(fit["value"] + 1, SLOT, p)[1]


def test_it_is_a_plan_item(widget, run, tmp_path):
    plan = tmp_path / "widgets.toml"
    plan.write_text(
        '[[widget]]\nname = "a"\ncount = 100\nflags = "big"\n\n[[pool]]\nname = "p"\ncount = 8\nelt_size = 8\n'
    )
    rc, out, err = run("plan", str(plan), "--json")
    assert rc == 0, err
    doc = valid(json.loads(out))
    (item,) = [i for i in doc["items"] if i["kind"] == "widget"]
    assert item["name"] == "a" and item["result"]["flags"] == ["big"]
    assert [z["name"] for z in item["result"]["memzones"]] == ["WG_a"]
    assert "widget" in plan_file()["properties"]
    assert not list(Draft202012Validator(plan_file()).iter_errors({"widget": [{"name": "a", "count": "1K"}]}))
    plan.write_text('[[widget]]\nname = "a"\ncount = 1\n[[widget]]\nname = "a"\ncount = 2\n')
    rc, _, err = run("plan", str(plan))
    assert rc == 2 and "memzone WG_a is already used" in err  # its zone_prefix, DPDK's EEXIST


def test_it_is_a_batch_line(widget, run, tmp_path):
    lines = tmp_path / "lines.jsonl"
    lines.write_text('{"command": "widget", "count": 1000, "flags": "all"}\n{"command": "widget", "colour": 1}\n')
    rc, out, _ = run("batch", str(lines))
    full, bad = (json.loads(line) for line in out.splitlines())
    _, cli_out, _ = run("widget", "-n", "1000", "--flags", "all", "--json")
    assert valid(full) == json.loads(cli_out)
    assert valid(bad)["key"] == "colour" and rc == 2
    rc, out, _ = run("batch", "--compact", str(lines))
    compact = valid(json.loads(out.splitlines()[0]))
    assert [(r["flags"], r["total_bytes"]) for r in compact["results"]] == [
        ("none", totals(1000, SLOT, Platform())[0]),
        ("big", totals(1000, BIG_SLOT, Platform())[0]),
    ]


def test_it_is_swept(widget, run):
    rc, out, err = run("sweep", "widget", "--vary", "count=10..1000", "--steps", "3", "--format", "jsonl")
    assert rc == 0, err
    rows = [valid(json.loads(line)) for line in out.splitlines()]
    p = Platform()
    assert [(r["count"], r["flags"], r["total_bytes"]) for r in rows] == [
        (n, label, totals(n, slot, p)[0])
        for n in (10, 505, 1000)
        for label, slot in (("none", SLOT), ("big", BIG_SLOT))
    ]


def test_it_is_in_the_schema(widget, run):
    _, out, _ = run("schema")
    schema = json.loads(out)
    assert "widget" in schema["$defs"]["report"]["properties"]["command"]["enum"]
    assert "widget" in schema["$defs"]["planItem"]["properties"]["kind"]["enum"]
    (own,) = [c for c in schema["$defs"]["result"]["allOf"] if c["if"]["properties"]["kind"]["const"] == "widget"]
    assert own["then"]["required"] == ["memzones"]
    assert own["then"]["properties"]["flags"]["items"]["anyOf"][0] == {"enum": ["big", "quiet"]}
    _, doc, _ = run("widget", "-n", "8", "--json")
    result = json.loads(doc)
    result["results"][0].pop("memzones")  # its memzones are its own: they may not go missing
    assert list(Draft202012Validator(schema).iter_errors(result))


def test_it_leaves_with_its_registration(run):
    assert "widget" not in registry.NAMES
    rc, _, err = run("widget", "-n", "8")
    assert rc == 2 and "No such command 'widget'" in err
