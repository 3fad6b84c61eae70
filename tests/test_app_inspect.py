"""inspect on real application captures (issue 14): pools whose names extend each other, anon/xmem/xbuf pools,
telemetry's /eal/memzone_info and /eal/heap_info, FIBs grouped with their RIB node pool and tables, advice
limited to the levers each pool's creator has, and a whole dump explained by mpcalc app of the same command line.

The captures in tests/conformance/apps/ are the real programs' output (Debian's 22.11.11 dpdk-testpmd, and
dpdk-l3fwd built from dpdk-doc's examples), recorded by tests/conformance/apps/capture.py (``capture`` then
``trim``) with the command lines of :data:`COMMANDS`; tests/conformance/test_inspect_apps_real.py runs the same
checks on fresh runs.  ``testpmd-xbuf-two-sizes.txt`` is an older capture (dumps only, segment lines dropped).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from mpcalc import inspect as ins
from mpcalc.cli import cli
from mpcalc.dpdk.core.platform import Platform
from mpcalc.inspect.app_dump import app_model, explain, is_chunk_of, pinned_zones
from mpcalc.inspect.pool_model import object_zones

APPS = Path(__file__).resolve().parent / "conformance" / "apps"
CAPTURE = APPS / "testpmd-xbuf-two-sizes.txt"
NOHUGE = ["--no-huge", "-m", "1024", "--no-pci"]
TAPS = ["--vdev", "net_tap0,iface=mpct0", "--vdev", "net_tap1,iface=mpct1"]
TWO = ["-l", "0-1", *NOHUGE, "--vdev", "net_null0"]
COMMANDS = {
    "testpmd-anon": ["dpdk-testpmd", *TWO, "--", "-i", "--total-num-mbufs=5000", "--mp-alloc=anon"],
    "testpmd-xmem": ["dpdk-testpmd", *TWO, "--", "-i", "--total-num-mbufs=5000", "--mp-alloc=xmem"],
    "testpmd-native-two": ["dpdk-testpmd", *TWO, "--", "-i", "--total-num-mbufs=5000", "--mbuf-size=2048,1024"],
    "testpmd-xbuf": [
        "dpdk-testpmd",
        "-l",
        "0-1",
        *NOHUGE,
        "--vdev",
        "net_null0,size=128",
        "--",
        "-i",
        "--total-num-mbufs=5000",
        "--mp-alloc=xbuf",
        "--mbuf-size=2048,1024",
        "--mbcache=64",
    ],
    "l3fwd-fib-tap": [
        "dpdk-l3fwd",
        "-l",
        "0",
        *NOHUGE,
        *TAPS,
        "--",
        "-p",
        "0x3",
        "--config=(0,0,0),(1,0,0)",
        "--lookup=fib",
    ],
    "l3fwd-lpm-tap": [
        "dpdk-l3fwd",
        "-l",
        "0",
        *NOHUGE,
        *TAPS,
        "--",
        "-p",
        "0x3",
        "--config=(0,0,0),(1,0,0)",
        "--lookup=lpm",
        "-P",
    ],
}
OLD_COMMAND = [
    "dpdk-testpmd",
    "-l",
    "0-1",
    "--no-huge",
    "-m",
    "1024",
    "--no-pci",
    "--vdev",
    "net_null0",
    "--",
    "-i",
    "--total-num-mbufs=5000",
    "--mp-alloc=xbuf",
    "--mbuf-size=2048,1024",
]


def text(name: str) -> str:
    return (APPS / f"capture-{name}.txt").read_text()


def test_a_pool_whose_name_extends_another_is_not_its_chunk():
    parsed = ins.parse(CAPTURE.read_text(), CAPTURE.name)
    assert list(parsed.pools) == ["mb_pool_0", "mb_pool_0_1"]
    assert object_zones(parsed, "mb_pool_0") == ["MP_mb_pool_0_0"]
    assert object_zones(parsed, "mb_pool_0_1") == ["MP_mb_pool_0_1_0"]
    assert not is_chunk_of("MP_mb_pool_0_1", "mb_pool_0", parsed.zones)
    assert pinned_zones("mb_pool_0", parsed.zones) == [f"MP_mb_pool_0_xb_{i}" for i in range(5)]
    for pool in ins.inspect_text(text("testpmd-native-two")).to_dict()["pools"]:
        assert pool["explained"] and [m["name"] for m in pool["memzones"]] == [
            f"MP_{pool['name']}",
            f"RG_MP_{pool['name']}",
            f"MP_{pool['name']}_0",
        ]


def test_xbuf_data_zones_belong_to_their_pool():
    report = ins.inspect_text(CAPTURE.read_text(), CAPTURE.name)
    assert [(p.name, p.explained) for p in report.pools] == [("mb_pool_0", True), ("mb_pool_0_1", True)]
    assert [z["name"] for z in report.other_memzones] == ["rte_eth_dev_data", "rte_pdump_stats", "RTE_METRICS"]
    pinned = {p.name: p.memzones[-1] for p in report.pools}
    # 5 and 3 memzones of EXTBUF_ZONE_SIZE = 2 MiB - 4 cache lines, each a 2,096,896-byte memzone
    assert {n: (r["role"], r["measured"], r["modelled"]) for n, r in pinned.items()} == {
        "mb_pool_0": ("pinned data", 5 * 2_096_896, 5 * 2_096_896),
        "mb_pool_0_1": ("pinned data", 3 * 2_096_896, 3 * 2_096_896),
    }
    doc = report.to_dict()
    # the data room the zones' count allows: 1,023 x 2,048 B per zone for 5,000 mbufs in 5 zones
    assert any("data room of 1,728..2,048 B" in n for n in doc["pools"][0]["notes"]), doc["pools"][0]["notes"]
    assert doc["pools"][0]["kind"]["creator"] == "rte_pktmbuf_pool_create_extbuf"


def test_an_anon_pool_has_no_objects_memzone_and_is_sized_right():
    doc = ins.inspect_text(text("testpmd-anon")).to_dict()
    [pool] = doc["pools"]
    rows = {m["role"]: m for m in pool["memzones"]}
    assert set(rows) == {"header", "ring", "anonymous"}
    # rte_mempool_populate_anon maps get_anon_size() = calc_mem_size(5000 x 2368 B, 4 KiB pages) = 20,480,639 B
    # (a memzone would round it to 20,480,640): avg bytes/object 4096.127800 x 5000
    assert rows["anonymous"]["modelled"] == rows["anonymous"]["measured"] == 20_480_639
    assert pool["explained"] and pool["unexplained_bytes"] == 0
    assert not any(a["key"].startswith("page:") for a in pool["advice"])  # anonymous memory: 4 KiB pages anyway


def test_an_xmem_pool_has_its_memzones_on_the_external_heap():
    doc = ins.inspect_text(text("testpmd-xmem")).to_dict()
    [pool] = doc["pools"]
    assert pool["explained"] and [m["role"] for m in pool["memzones"]] == ["header", "ring", "objects"]
    assert any("socket 256, an external heap" in n for n in pool["notes"])


def test_telemetry_memzone_info_and_heap_info_are_used():
    parsed = ins.parse(text("l3fwd-fib-tap"), "l3fwd")
    assert parsed.formats == ["telemetry"] and parsed.zones_complete and not parsed.memzone_dump
    assert len(parsed.zones) == len(parsed.zone_ids or []) == 16
    assert parsed.heaps[0]["Alloc_size"] == 293_572_800
    assert all(z.pagesz == 4096 and z.source == "telemetry" for z in parsed.zones.values())
    doc = ins.inspect_text(text("l3fwd-fib-tap")).to_dict()
    assert doc["input"]["skipped_lines"] == 0
    assert all(p["explained"] for p in doc["pools"]) and len(doc["pools"]) == 5
    assert doc["pools"][0]["memzones"][0]["how"].startswith("telemetry /eal/memzone_info, line ")


def test_a_22_11_telemetry_length_of_2_gib_or_more_wraps_and_is_read_back():
    reply = {
        "/eal/memzone_info": {
            "Zone": 0,
            "Name": "big",
            "Length": (3 << 30) - (1 << 32),
            "Socket": 0,
            "Flags": 0,
            "Hugepage_size": 1 << 30,
        }
    }
    parsed = ins.parse(json.dumps(reply) + "\n")
    assert parsed.zones["big"].len == 3 << 30 and "modulo 2^32" in parsed.notes[0]


def test_a_fib_is_one_group_with_its_rib_node_pool_and_tables():
    doc = ins.inspect_text(text("l3fwd-fib-tap"), command_line=COMMANDS["l3fwd-fib-tap"]).to_dict()
    groups = {g["name"]: g for g in doc["application"]["groups"]}
    fib = groups["FIB IPV4_L3FWD_FIB_0"]
    assert fib["memzones"] == ["MP_MP_IPV4_L3FWD_FIB_0", "RG_MP_MP_IPV4_L3FWD_FIB_0", "MP_MP_IPV4_L3FWD_FIB_0_0"]
    tables = {a["name"]: a["size"] for a in fib["allocations"]}
    # dir24_8_create's tbl24 (2^24 x 4 B + the struct) and tbl8 ((32768 + 1) x 256 x 4 B): rte_zmalloc, no memzone
    # under DPDK's own type strings: the first 7 characters of "%p" of the rte_fib, "TBL8_%p" of the table
    assert tables["%p of rte_fib IPV4_L3FWD_FIB_0, 7 chars"] == 67_108_932
    assert tables["TBL8_%p of IPV4_L3FWD_FIB_0's table"] == 33_555_456
    assert fib["explained"] and fib["dumped_bytes"] == fib["modelled_bytes"] == 27_663_168
    assert "FIB IPV6_L3FWD_FIB_0" in groups
    kinds = {p["name"]: p["kind"] for p in doc["pools"]}
    assert kinds["MP_IPV4_L3FWD_FIB_0"]["creator"] == "rte_rib_create" and kinds["MP_IPV4_L3FWD_FIB_0"]["fib"]
    assert kinds["MP_IPV6_L3FWD_FIB_0"]["creator"] == "rte_rib6_create"


def test_advice_names_only_the_levers_of_each_creator():
    doc = ins.inspect_text(text("l3fwd-fib-tap")).to_dict()  # without the command line: read from the layout
    pools = {p["name"]: p for p in doc["pools"]}
    for p in pools.values():
        assert not any(a["key"].startswith("flag:") for a in p["advice"]), p["name"]
    rib = pools["MP_IPV4_L3FWD_FIB_0"]
    assert (
        rib["kind"]["creator"] == "rte_rib_create" and "elements of sizeof(struct rte_rib_node)" in rib["kind"]["why"]
    )
    # from the dump alone a RIB (no FIB has a memzone of its own): its lever is max_nodes
    [nodes] = [a for a in rib["advice"] if a["key"] == "max_nodes:pow2"]
    assert nodes["change"].startswith("max_nodes 131072 -> 131071")
    # with the command line, the FIB's: l3fwd's IPv4 FIB has max_routes 65536 -> 131,072 nodes -> a 262,144-slot
    # ring; 65535 routes halve it
    told = ins.inspect_text(text("l3fwd-fib-tap"), command_line=COMMANDS["l3fwd-fib-tap"]).to_dict()
    rib = next(p for p in told["pools"] if p["name"] == "MP_IPV4_L3FWD_FIB_0")
    assert rib["kind"]["levers"] == ["max_routes", "number_tbl8s"]
    [routes] = [a for a in rib["advice"] if a["key"] == "max_routes:pow2"]
    assert routes["change"].startswith("max_routes 65536 -> 65535") and routes["saves_bytes"] == 1_048_576 + 384
    assert {a["key"] for a in pools["mbuf_pool_0:0"]["advice"]} >= {"cache:0", "count:pow2", "data_room:smaller"}
    assert pools["mbuf_pool_0:0"]["kind"]["levers"] == ["n", "cache_size", "data_room_size"]
    # a plain rte_mempool_create pool is advised flags
    plain = ins.inspect_text(
        (Path(__file__).parent.parent / "examples" / "inspect" / "mempool-dump.txt").read_text()
        + (Path(__file__).parent.parent / "examples" / "inspect" / "memzone-dump.txt").read_text()
    )
    flows = next(p for p in plain.to_dict()["pools"] if p["name"] == "flows")
    assert flows["kind"]["creator"] == "rte_mempool_create"
    assert any(a["key"] == "flag:no_cache_align" for a in flows["advice"])


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_the_whole_dump_is_explained_by_mpcalc_app(name):
    doc = ins.inspect_text(text(name), name, command_line=COMMANDS[name]).to_dict()
    app = doc["application"]
    assert app["explained"], [r for r in app["rows"] if r["status"] != "matched"]
    assert app["counts"]["matched"] == len(app["rows"]) and app["rows"]
    assert app["heap"]["match"] and app["heap"]["alloc_size"] == app["heap"]["modelled_bytes"]
    assert all(p["explained"] for p in doc["pools"]) and doc["totals"]["unexplained_bytes"] == 0
    assert all(r["owner"] for r in app["rows"])


def test_a_wrong_command_line_is_not_explained():
    doc = ins.inspect_text(text("testpmd-native-two"), command_line=COMMANDS["testpmd-anon"]).to_dict()
    app = doc["application"]
    assert not app["explained"]
    assert {r["name"]: r["status"] for r in app["rows"] if r["status"] != "matched"} == {
        "MP_mb_pool_0_0": "extra",
        "MP_mb_pool_0_1": "extra",
        "RG_MP_mb_pool_0_1": "extra",
        "MP_mb_pool_0_1_0": "extra",
    }
    assert not app["heap"]["match"]


def test_the_old_capture_is_explained_by_its_command_line():
    parsed = ins.parse(CAPTURE.read_text(), CAPTURE.name)
    out = explain(parsed, app_model(OLD_COMMAND, Platform()))
    assert out["explained"] and len(out["rows"]) == 17 and out["heap"] is None


@pytest.mark.parametrize("fmt", ["json", "csv", "table"])
def test_the_cli_takes_the_command_line_after_the_dump(fmt):
    path = str(APPS / "capture-l3fwd-fib-tap.txt")
    res = CliRunner().invoke(cli, ["inspect", "--format", fmt, path, "--", *COMMANDS["l3fwd-fib-tap"]])
    assert res.exit_code == 0, res.output
    if fmt == "json":
        assert json.loads(res.output)["application"]["counts"] == {
            "matched": 16,
            "differs": 0,
            "extra": 0,
            "missing": 0,
        }
    elif fmt == "csv":
        assert ",app heap,Alloc_size,293572800,293572800,0," in res.output
        assert ",app memzone,RG_MP_MP_IPV4_L3FWD_FIB_0,2097536,2097536,0,matched: FIB IPV4_L3FWD_FIB_0" in res.output
    else:
        assert "16 matched, 0 differ, 0 extra, 0 missing" in res.output
        assert "every memzone explained by mpcalc app" in res.output
