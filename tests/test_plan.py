"""mpcalc plan: application files, per-socket totals, hugepage settings, and every bad file."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from mpcalc import api
from mpcalc.dpdk.core.platform import make_platform
from mpcalc.service.exitcodes import ExitCode
from mpcalc.service.plan import EAL_INIT_HEAP

ROOT = Path(__file__).resolve().parent.parent
PLANS = sorted((ROOT / "examples" / "plans").glob("*.toml"))


@pytest.mark.parametrize("path", PLANS, ids=lambda p: p.name)
@pytest.mark.parametrize("fmt", ["table", "json", "csv", "tsv"])
def test_every_example_plan_runs(run, schema_validator, path, fmt):
    rc, out, err = run("plan", str(path), "--format", fmt)
    assert rc == ExitCode.OK, err
    if fmt == "json":
        schema_validator.validate(json.loads(out))


def test_example_plans_exist():
    names = {p.name for p in PLANS}
    assert {"l3fwd-router.toml", "vswitch.toml", "arm64-gateway.toml"} <= names


def test_totals_are_the_items_and_pages_cover_them(run):
    _rc, out, _ = run("plan", str(ROOT / "examples/plans/vswitch.toml"), "--json")
    doc = json.loads(out)
    page = doc["platform"]["page_size"]
    for sock in doc["sockets"]:
        items = [i["result"] for i in doc["items"] if i["socket"] == sock["socket"]]
        assert sock["heap_bytes"] == sum(r["heap_bytes"] for r in items)
        assert sock["total_bytes"] == sum(r["total_bytes"] for r in items)
        need = sock["heap_bytes"] + sock["eal_heap"]
        assert (sock["pages"] - 1) * page < need <= sock["pages"] * page
    assert doc["sockets"][0]["eal_heap"] == EAL_INIT_HEAP and doc["sockets"][1]["eal_heap"] == 0
    s = doc["settings"]
    assert s["socket_mem"] == "2048,2048"
    assert s["nr_hugepages"][1] == "echo 2 > /sys/devices/system/node/node1/hugepages/hugepages-1048576kB/nr_hugepages"
    assert s["kubernetes"]["containers"][0]["resources"]["limits"] == {"hugepages-1Gi": "4Gi"}


def test_a_plan_item_equals_the_single_command(run):
    _rc, out, _ = run("plan", str(ROOT / "examples/plans/l3fwd-router.toml"), "--json")
    items = {i["name"]: i["result"] for i in json.loads(out)["items"]}
    single = api.fib(
        api.FibSpec(family=4, name="ipv4_fib", max_routes=10**6, nh_size=4, num_tbl8=65536),
        0,
        make_platform(dpdk="22.11"),
    )
    assert items["ipv4_fib"] == single.to_dict()


BAD = [
    ("", "the plan file is empty"),
    ("[platform]\npage_size = '3K'\n[[pool]]\nname='a'\ncount=1\nelt_size=8\n", "[platform], key 'page_size'"),
    ("[[pool]]\nname='a'\ncount=1\nelt_size=8\ncolour='red'\n", "[[pool]] 'a', key 'colour': unknown key"),
    ("[[pool]]\nname='a'\nelt_size=8\n", "[[pool]] 'a', key 'count': is required"),
    ("[[pool]]\nname='a'\ncount=-1\nelt_size=8\n", "[[pool]] 'a', key 'count'"),
    ("[[pool]]\nname='a'\ncount='0.5'\nelt_size=8\n", "key 'count'"),
    ("[[mbuf]]\nname='a'\ncount=10\nmtu=1500\ndata_room=2176\n", "give at most one of data_room and mtu"),
    ("[[pool]]\nname='a'\ncount=1\nelt_size=8\nflags='no_such_flag'\n", "unknown mempool flag 'no_such_flag'"),
    ("[[pool]]\nname='a'\ncount=1\nelt_size=8\n[[mbuf]]\nname='a'\ncount=1\n", "DPDK would fail with EEXIST"),
    ("[[fib]]\nname='f'\nroutes=10\nnh_size=3\n", "[[fib]] 'f', key 'nh_size'"),
    ("[[router]]\nname='x'\n", "[router]: unknown table"),
    ("[platform]\ndpdk='20.11'\n[[pool]]\nname='a'\ncount=1\nelt_size=8\n", "'20.11' is not one of 21.11"),
    (
        "[platform]\nplatform='graviton3'\ndpdk='21.11'\n[[pool]]\nname='a'\ncount=1\nelt_size=8\n",
        "does not exist in DPDK 21.11",
    ),
    ("[platform]\n", "lists no item (no [[pool]], [[mbuf]]"),
    ("this is = not [toml\n", "not valid TOML"),
]


@pytest.mark.parametrize("text,message", BAD, ids=[m for _, m in BAD])
def test_bad_plans_name_file_item_and_key(run, tmp_path, text, message):
    path = tmp_path / "app.toml"
    path.write_text(text)
    rc, out, err = run("plan", str(path))
    assert rc == ExitCode.USAGE and out == ""
    assert len(err.strip().splitlines()) == 1
    assert str(path) in err and message in err


def test_binary_and_missing_plans(run, tmp_path):
    (tmp_path / "bin.toml").write_bytes(b"\xff\xfe\x00")
    rc, _, err = run("plan", str(tmp_path / "bin.toml"))
    assert rc == ExitCode.USAGE and "not UTF-8" in err
    rc, _, err = run("plan", str(tmp_path / "missing.toml"))
    assert rc == ExitCode.USAGE and "cannot read plan" in err


def test_a_rejected_item_exits_1_with_the_report(run, tmp_path):
    path = tmp_path / "app.toml"
    path.write_text("[[pool]]\nname='a'\ncount=100\nelt_size=8\ncache_size=100\n")
    rc, out, _ = run("plan", str(path), "--json")
    assert rc == 1
    assert json.loads(out)["items"][0]["result"]["errors"][0]["errno"] == "EINVAL"


def test_pages_cover_the_chunk_headers_of_iova_as_pa():
    """With IOVA as PA every hugepage of an objects memzone is its own chunk with a 192-byte MEMPOOL_MEMHDR
    (proven on real hugepages by tests/conformance/test_plan_hugepages.py); NO_IOVA_CONTIG pools and
    --no-huge 4 KiB pages (IOVA as VA) have one chunk."""
    import tomllib

    from mpcalc.service.plan import plan

    doc = tomllib.loads((ROOT / "tests" / "conformance" / "plans" / "pa-boundary.toml").read_text())
    sock = plan(doc).sockets[0]
    page = 2 << 20
    assert -(-(sock.heap_bytes + sock.eal_heap) // page) == 134
    # rx: 96,000 1,856-byte mbufs, 1,129 a page -> at most 87 chunks; nodes: 500,000 x 192 B, 10,922 a page -> 47
    assert sock.pages == -(-(sock.heap_bytes + sock.eal_heap + (86 + 46) * 192) // page) == 135
    assert sock.heap_bytes + sock.eal_heap + (86 + 46) * 192 - 134 * page == 25_344 - 15_104
    doc["platform"]["page_size"] = "4K"
    sock = plan(doc).sockets[0]
    assert sock.pages == -(-(sock.heap_bytes + sock.eal_heap) // 4096)
    doc["pool"] = [dict(doc["pool"][0], flags="no_iova_contig")]  # nodes, one chunk
    del doc["mbuf"]
    doc["platform"]["page_size"] = "2M"
    sock = plan(doc).sockets[0]
    assert sock.pages == -(-(sock.heap_bytes + sock.eal_heap) // page)


def test_plan_fit_grows_one_item_exactly(run):
    from mpcalc.service.plan import fit_item, load

    doc, path = load(ROOT / "examples/plans/l3fwd-router.toml")
    key, value, report = fit_item(doc, path, "mbuf_pool_p0", 1 << 30)
    assert key == "count" and value is not None
    sock = report.sockets[0]
    assert sock.pages * report.platform.page_size <= 1 << 30
    import copy

    from mpcalc.service.plan import plan as evaluate

    trial = copy.deepcopy(doc)
    trial["mbuf"][0]["count"] = value + 1
    over = evaluate(trial, path).sockets[0]
    assert over.pages * report.platform.page_size > 1 << 30
    rc, out, err = run(
        "plan", str(ROOT / "examples/plans/l3fwd-router.toml"), "--fit", "1G", "--fit-item", "mbuf_pool_p0", "--json"
    )
    assert rc == ExitCode.OK and f"count {value:,} is the largest" in err
    items = {i["name"]: i for i in json.loads(out)["items"]}
    assert items["mbuf_pool_p0"]["result"]["mempools"][0]["count"] == value


@pytest.mark.parametrize(
    "argv,message",
    [
        (["--fit", "1G"], "--fit and --fit-item go together"),
        (["--fit", "1G", "--fit-item", "nosuch"], "no item named 'nosuch'"),
    ],
)
def test_plan_fit_errors(run, argv, message):
    rc, _, err = run("plan", str(ROOT / "examples/plans/l3fwd-router.toml"), *argv)
    assert rc == ExitCode.USAGE and message in err


def test_plan_fit_nothing_fits(run):
    rc, _, err = run(
        "plan", str(ROOT / "examples/plans/l3fwd-router.toml"), "--fit", "10M", "--fit-item", "mbuf_pool_p0", "--json"
    )
    assert rc == 1 and "no valid count" in err


#: one item of every kind a plan file takes (test_a_plan_of_every_kind_validates checks it is every one)
EVERY_KIND = {
    "pool": {"count": 1000, "elt_size": 40},
    "mbuf": {"count": 8191},
    "rib": {"routes": 100},
    "fib": {"routes": 1000, "tbl8": 64},
    "rib6": {"routes": 100},
    "fib6": {"routes": 1000, "type": "dummy"},
    "ring": {"count": 1024, "flags": "exact_sz"},
    "lpm": {"max_rules": 1000, "tbl8": 256},
    "hash": {"entries": 1024, "key_len": 16},
    "lpm6": {"max_rules": 1000, "tbl8": 1000},
    "app": {"command_line": ["dpdk-testpmd", "-l", "0-1", "--no-huge", "--no-pci", "--vdev", "net_null0", "--", "-i"]},
    "ovs": {"port": ["dpdk0"]},
    "trace": {"trace": [str(ROOT / "tests" / "conformance" / "traces" / "testpmd-ring" / "ctf")]},
}


def plan_toml(items: dict[str, dict]) -> str:
    """A plan file of one item of each kind, named after its kind."""
    out = []
    for kind, keys in items.items():
        out.append(f"[[{kind}]]\nname = {json.dumps(kind + '_item')}")
        out += [f"{k} = {json.dumps(v)}" for k, v in keys.items()]
    return "\n".join(out) + "\n"


def test_a_plan_of_every_kind_validates_against_mpcalc_schema(run, tmp_path):
    from mpcalc.dpdk.core import registry

    assert list(EVERY_KIND) == list(registry.NAMES)
    path = tmp_path / "every.toml"
    path.write_text(plan_toml(EVERY_KIND))
    rc, out, err = run("plan", str(path), "--json")
    assert rc == ExitCode.OK, err
    doc = json.loads(out)
    assert [i["kind"] for i in doc["items"]] == list(registry.NAMES)
    rc, schema, _ = run("schema")  # the schema mpcalc prints, not a file beside it
    jsonschema.validate(doc, json.loads(schema))
