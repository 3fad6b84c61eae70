"""mpcalc inspect: parsing every supported format, reconciliation, causes, advice, CLI.

Dumps of releases other than the installed 22.11 are written here from the printf formats of
lib/mempool/rte_mempool.c (rte_mempool_dump, rte_mempool_dump_cache) and
lib/eal/common/eal_common_memzone.c (dump_memzone, rte_memzone_dump) at each tag.
"""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import jsonschema
import pytest

from mpcalc import api
from mpcalc import inspect as ins
from mpcalc.cli import main
from mpcalc.dpdk.core.errors import InputError
from mpcalc.dpdk.core.platform import make_platform
from mpcalc.dpdk.objects.mempool import PoolSpec
from mpcalc.service.schema import documents

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples" / "inspect"
SCHEMA = documents()


def run(*args: str) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        rc = main(list(args))
    return rc, out.getvalue()


def mempool_dump(
    name: str,
    release: str,
    *,
    count: int,
    elt: int,
    cache: int = 0,
    priv: int = 0,
    flags: int = 0,
    p=None,
    stats: bool = False,
    ops: str = "ring_mp_mc",
    lcores: int = 128,
) -> str:
    """rte_mempool_dump() text as ``release`` prints it, sizes from the engine."""
    p = p or make_platform(dpdk=release, page_size=2 << 20)
    res = api.pool(PoolSpec(name=name, count=count, elt_size=elt, cache_size=cache, private_size=priv, flags=flags), p)
    mp = res.mempools[0]
    o = mp.objsz
    objs = {m.role: m.len for m in mp.memzones}["objects"]
    v = tuple(int(x) for x in release.split("."))
    lines = [
        f"mempool <{name}>@0x17fe3b2c0",
        f"  flags={mp.mp_flags:x}",
        "  socket_id=-1",
        "  pool=0x17fe32a00",
        "  iova=0x17fe3b2c0",
        "  nb_mem_chunks=1",
        f"  size={count}",
        f"  populated_size={count}",
        f"  header_size={o.header_size}",
        f"  elt_size={o.elt_size}",
        f"  trailer_size={o.trailer_size}",
        f"  total_obj_size={o.total_size}",
        f"  private_data_size={priv}",
        "  ops_index=2",
        f"  ops_name: <{ops}>",
    ]
    if v >= (24, 11):
        lines.append(f"  memory chunk at 0x17fe10000, addr=0x17fc00000, iova=0x17fc00000, len={objs}")
    lines.append(f"  avg bytes/object={objs / count:.6f}")
    if v >= (25, 11):
        lines += ["  internal cache infos (hide zero value items):", f"    cache_size={cache}"]
        if cache:
            lines.append("    total_cache_count=0")
    else:
        lines += ["  internal cache infos:", f"    cache_size={cache}"]
        if cache:
            lines += [f"    cache_count[{i}]=0" for i in range(lcores)] + ["    total_cache_count=0"]
    lines.append(f"  common_pool_count={count}")
    if stats:
        lines += ["  stats:"] + [
            f"    {k}=0"
            for k in (
                "put_bulk",
                "put_objs",
                "put_common_pool_bulk",
                "put_common_pool_objs",
                "get_common_pool_bulk",
                "get_common_pool_objs",
                "get_success_bulk",
                "get_success_objs",
                "get_fail_bulk",
                "get_fail_objs",
            )
        ]
        if v >= (26, 7):
            lines += [
                "    avg objs/bulk put=0.000000, get=0.000000, get_fail=0.000000",
                "    avg common_pool objs/bulk put=0.000000, get=0.000000",
                "    avg cache miss rate put_objs=0.000000, get_objs=0.000000",
                "    avg cache miss rate put_bulk=0.000000, get_bulk=0.000000",
            ]
    else:
        lines.append("  no statistics available")
    return "\n".join(lines) + "\n"


def memzone_dump(res: api.Result, release: str, page: int = 2 << 20, start: int = 0) -> str:
    lines = []
    for i, m in enumerate(res.memzones, start):
        lines += [
            f"Zone {i}: name:<{m.name}>, len:0x{m.len:x}, virt:0x17fe3b2c0, socket_id:0, flags:0",
            "physical segments used:",
            f"  addr: 0x17fe00000 iova: 0x17fe00000 len: 0x{page:x} pagesz: 0x{page:x}",
        ]
    if tuple(int(x) for x in release.split(".")) >= (24, 11):
        lines.append(f"Total Memory Zones size = {sum(m.len for m in res.memzones) >> 20}M")
    return "\n".join(lines) + "\n"


def model(release: str, **kw) -> api.Result:
    p = make_platform(
        dpdk=release,
        page_size=kw.pop("page", 2 << 20),
        channels=kw.pop("channels", 4),
        stats=kw.pop("stats", None),
        debug=kw.pop("debug", None),
    )
    return api.pool(PoolSpec(**kw), p)


# ---------------------------------------------------------------------------------- formats per release


@pytest.mark.parametrize("release", ["21.11", "22.11", "23.11", "24.11", "25.11", "26.07"])
@pytest.mark.parametrize("cache", [0, 256])
def test_each_release_format_is_parsed_and_explained(release, cache):
    text = mempool_dump("pkts", release, count=8191, elt=2304, cache=cache, priv=64)
    res = model(release, name="pkts", count=8191, elt_size=2304, cache_size=cache, private_size=64)
    text += memzone_dump(res, release)
    rep = ins.inspect_text(text, "t").to_dict()
    jsonschema.validate(rep, SCHEMA)
    assert rep["input"]["skipped_lines"] == 0
    (pool,) = rep["pools"]
    assert pool["unexplained_bytes"] == 0 and pool["explained"], pool
    assert release in pool["recovered"]["dpdk_candidates"]
    assert pool["recovered"]["page_size"] == 2 << 20
    assert pool["recovered"]["count"] == 8191 and pool["recovered"]["cache_size"] == cache


@pytest.mark.parametrize(
    "release,allowed",
    [
        ("22.11", ["21.11", "22.11", "23.11"]),
        ("24.11", ["24.11"]),
        ("25.11", ["25.11", "26.07"]),
    ],
)
def test_format_markers_bound_the_release(release, allowed):
    rep = ins.inspect_text(mempool_dump("p", release, count=100, elt=64)).to_dict()
    assert sorted(rep["pools"][0]["recovered"]["dpdk_candidates"]) == allowed


def test_stats_block_of_2607_marks_the_release_and_a_stats_build():
    p = make_platform(dpdk="26.07", stats=True)
    text = mempool_dump("s", "26.07", count=1023, elt=128, cache=32, p=p, stats=True)
    res = api.pool(PoolSpec(name="s", count=1023, elt_size=128, cache_size=32), p)
    rep = ins.inspect_text(text + memzone_dump(res, "26.07")).to_dict()
    pool = rep["pools"][0]
    assert pool["recovered"]["dpdk"] == "26.07" and pool["recovered"]["stats"] is True
    assert pool["unexplained_bytes"] == 0


def test_memzone_dump_alone_lists_memzones():
    res = model("22.11", name="x", count=100, elt_size=64)
    rep = ins.inspect_text(memzone_dump(res, "22.11")).to_dict()
    assert rep["pools"] == [] and {z["name"] for z in rep["other_memzones"]} == {"MP_x", "RG_MP_x", "MP_x_0"}
    assert any("without a dump" in n for n in rep["notes"])


def test_pretty_printed_telemetry_is_read():
    info = {
        "/mempool/info": {
            "name": "t",
            "pool_id": 1,
            "flags": 16,
            "socket_id": -1,
            "size": 1000,
            "cache_size": 0,
            "elt_size": 104,
            "header_size": 64,
            "trailer_size": 24,
            "private_data_size": 0,
            "ops_index": 2,
            "populated_size": 1000,
            "mz_name": "MP_t",
            "mz_len": 192,
            "mz_hugepage_sz": 2097152,
            "mz_socket_id": 0,
            "mz_flags": 0,
            "total_cache_count": 0,
            "common_pool_count": 1000,
        }
    }
    text = "--> /mempool/info,t\n" + json.dumps(info, indent=2) + "\n"
    rep = ins.inspect_text(text).to_dict()
    (pool,) = rep["pools"]
    assert pool["sources"] == ["telemetry"] and pool["unexplained_bytes"] == 0
    assert "23.11" in pool["recovered"]["dpdk_candidates"] and "22.11" not in pool["recovered"]["dpdk_candidates"]
    assert rep["input"]["skipped_lines"] == 1


# ---------------------------------------------------------------------------------- errors, skipping


def test_unknown_lines_are_skipped_and_counted():
    text = "hello\nEAL: Detected lcores\n" + mempool_dump("p", "22.11", count=100, elt=64) + "testpmd> quit\n"
    rep = ins.inspect_text(text).to_dict()
    assert rep["input"]["skipped_lines"] == 3
    assert [s["line"] for s in rep["input"]["skipped"]] == [1, 2, rep["input"]["lines"]]


@pytest.mark.parametrize(
    "bad,line",
    [
        ("  size=abc", 7),
        ("  flags=zz", 2),
        ("mempool <broken", 1),
        ("  avg bytes/object=1e3", 16),
        ("    cache_count[x]=1", 18),
    ],
)
def test_malformed_known_lines_are_errors_with_the_line_number(bad, line):
    lines = mempool_dump("p", "22.11", count=100, elt=64).splitlines()
    lines[line - 1] = bad
    with pytest.raises(InputError, match=f"line {line}:"):
        ins.parse("\n".join(lines))


def test_malformed_memzone_and_telemetry_lines():
    with pytest.raises(InputError, match="line 2:"):
        ins.parse("x\nZone 0: name:<a>, len:12\n")
    with pytest.raises(InputError, match=r"line 1:.*not an integer"):
        ins.parse(
            '{"/mempool/info": {"name": "a", "size": "1", "elt_size": 1, "header_size": 1, '
            '"trailer_size": 0, "cache_size": 0, "flags": 0, "private_data_size": 0}}\n'
        )


def test_nothing_known_is_an_error():
    with pytest.raises(InputError, match="no mempool dump"):
        ins.inspect_text("just text\n")


# ---------------------------------------------------------------------------------- inference and causes


def test_channels_are_recovered_from_the_layout():
    p3 = make_platform(channels=3)
    text = "".join(mempool_dump(n, "22.11", count=1000, elt=e, p=p3) for n, e in (("a", 40), ("b", 120)))
    rep = ins.inspect_text(text).to_dict()
    assert {p["name"]: p["recovered"]["channels"] for p in rep["pools"]} == {"a": 3, "b": 3}


def test_page_size_is_inferred_from_the_objects_length():
    p4 = make_platform(page_size=4096)
    rep = ins.inspect_text(mempool_dump("a", "22.11", count=4095, elt=40, p=p4)).to_dict()
    pool = rep["pools"][0]
    assert pool["recovered"]["page_size"] == 4096 and pool["unexplained_bytes"] == 0
    assert "memzone lengths" in pool["recovered"]["sources"]["page_size"]


def test_max_lcore_from_cache_count_lines_and_from_the_header_length():
    p = make_platform(max_lcore=64)
    text = mempool_dump("c", "22.11", count=1000, elt=64, cache=32, p=p, lcores=64)
    assert ins.inspect_text(text).to_dict()["pools"][0]["recovered"]["max_lcore"] == 64
    res = api.pool(
        PoolSpec(name="c", count=1000, elt_size=64, cache_size=32), make_platform(dpdk="25.11", max_lcore=256)
    )
    text = mempool_dump("c", "25.11", count=1000, elt=64, cache=32) + memzone_dump(res, "25.11")
    pool = ins.inspect_text(text).to_dict()["pools"][0]
    assert pool["recovered"]["max_lcore"] == 256 and pool["unexplained_bytes"] == 0


@pytest.mark.parametrize(
    "pins,kind",
    [
        (ins.Pins(dpdk="21.11"), "another release"),
        (ins.Pins(max_lcore=64), "another RTE_MAX_LCORE"),
        (ins.Pins(page_size=4096), "another page size"),
        (ins.Pins(stats=True), "RTE_LIBRTE_MEMPOOL_STATS"),
    ],
)
def test_a_wrong_pin_is_named_as_the_cause(pins, kind):
    res = model("22.11", name="w", count=1000, elt_size=100, cache_size=32)
    text = mempool_dump("w", "22.11", count=1000, elt=100, cache=32) + memzone_dump(res, "22.11")
    pool = ins.inspect_text(text, pins=pins).to_dict()["pools"][0]
    assert pool["unexplained_bytes"] != 0 and not pool["explained"]
    assert any(kind in c["text"] for c in pool["causes"]), pool["causes"]


def test_debug_build_is_recognised():
    pd = make_platform(debug=True)
    res = api.pool(PoolSpec(name="d", count=500, elt_size=56, flags=0x3), pd)
    text = mempool_dump("d", "22.11", count=500, elt=56, flags=0x3, p=pd) + memzone_dump(res, "22.11")
    pool = ins.inspect_text(text).to_dict()["pools"][0]
    assert pool["recovered"]["debug"] is True and pool["unexplained_bytes"] == 0
    pool = ins.inspect_text(text, pins=ins.Pins(debug=False)).to_dict()["pools"][0]
    assert any("debug build" in c["text"] for c in pool["causes"])


def test_another_driver_is_named():
    res = model("22.11", name="bk", count=1000, elt_size=64)
    text = mempool_dump("bk", "22.11", count=1000, elt=64, ops="bucket")
    text += "".join(memzone_dump(res, "22.11").replace("RG_MP_bk", "XX"))
    text = "\n".join(ln for ln in text.splitlines() if "XX" not in ln) + "\n"
    pool = ins.inspect_text(text).to_dict()["pools"][0]
    ring = next(m for m in pool["memzones"] if m["role"] == "ring")
    assert ring["measured"] == 0 and pool["unexplained_bytes"] == -ring["modelled"]
    assert pool["causes"][0]["kind"] == "driver" and "bucket" in pool["causes"][0]["text"]


@pytest.mark.parametrize("ops", ["stack", "lf_stack"])
def test_a_stack_driver_pool_is_modelled(ops):
    res = model("22.11", name="st", count=1000, elt_size=64, ops=ops)
    assert res.mempools[0].memzones[1].name == "STK_MP_st"
    text = mempool_dump("st", "22.11", count=1000, elt=64, ops=ops) + memzone_dump(res, "22.11")
    doc = ins.inspect_text(text).to_dict()
    pool = doc["pools"][0]
    assert pool["explained"] and [m["role"] for m in pool["memzones"]] == ["header", "stack", "objects"]
    assert not doc["other_memzones"]


def test_ring_hash_and_lpm6_memzones_are_recognised():
    from mpcalc.dpdk.objects import hash as dpdk_hash
    from mpcalc.dpdk.objects import lpm6, ring

    p = make_platform()
    results = [
        ring.size("rx", 4096, 8, 0, p),
        dpdk_hash.size("flows", 1 << 20, 16, 0x8, p),
        lpm6.size("v6", 1024, 256, p),
    ]
    text = "".join(memzone_dump(r, "22.11", start=10 * i) for i, r in enumerate(results))
    doc = ins.inspect_text(text).to_dict()
    objects = {z["name"]: z.get("object") for z in doc["other_memzones"]}
    assert objects == {"RG_rx": "ring", "RG_HT_flows": "hash", "RG_HT_EXT_flows": "hash", "RG_HT_LRH_v6": "lpm6"}
    assert all(z["explained"] for z in doc["other_memzones"])
    assert any("4,096 slots of 8 B" in n for n in doc["notes"])


def test_ring_telemetry_is_read():
    import json

    from mpcalc.dpdk.objects import ring

    r = ring.size("rx", 1000, 16, 0x7, make_platform(dpdk="24.11"))
    info = {
        "name": "rx",
        "socket": 0,
        "flags": 7,
        "producer_type": "SP",
        "consumer_type": "SC",
        "size": 1024,
        "mask": "0x3ff",
        "capacity": 1000,
        "used_count": 0,
        "mz_name": "RG_rx",
        "mz_len": r.memzones[0].len,
        "mz_hugepage_sz": 2097152,
        "mz_socket_id": 0,
        "mz_flags": "0x0",
    }
    doc = ins.inspect_text(json.dumps({"/ring/info": info}) + "\n").to_dict()
    zone = doc["other_memzones"][0]
    assert zone["object"] == "ring" and zone["explained"] and "16 B" in zone["text"]


# ---------------------------------------------------------------------------------- advice


def test_advice_is_ranked_and_reproduces_the_engine():
    res = model("22.11", name="a", count=8192, elt_size=40, cache_size=64)
    text = mempool_dump("a", "22.11", count=8192, elt=40, cache=64) + memzone_dump(res, "22.11")
    rep = ins.inspect_text(text).to_dict()
    adv = rep["pools"][0]["advice"]
    assert [a["saves_bytes"] for a in adv] == sorted((a["saves_bytes"] for a in adv), reverse=True)
    keys = {a["key"]: a for a in adv}
    assert keys["cache:half"]["saves_bytes"] == 0  # every lcore's cache is full size as soon as cache_size > 0
    assert keys["count:pow2"]["change"].startswith("n 8192 -> 8191")
    smaller = model("22.11", name="a", count=8191, elt_size=40, cache_size=64)
    assert keys["count:pow2"]["saves_bytes"] == res.total_bytes - smaller.total_bytes
    flagged = model("22.11", name="a", count=8192, elt_size=40, cache_size=64, flags=0x2)
    assert keys["flag:no_cache_align"]["saves_bytes"] == res.total_bytes - flagged.total_bytes
    assert rep["advice"][0]["saves_bytes"] >= rep["advice"][-1]["saves_bytes"]


# ---------------------------------------------------------------------------------- real captures, CLI


@pytest.mark.parametrize("name", sorted(p.name for p in EXAMPLES.glob("*") if p.is_file()))
def test_real_captures_are_explained(name):
    rc, out = run("inspect", str(EXAMPLES / name), "--json")
    assert rc == 0
    doc = json.loads(out)
    jsonschema.validate(doc, SCHEMA)
    assert doc["totals"]["unexplained_bytes"] == 0
    assert all(p["unexplained_bytes"] == 0 for p in doc["pools"])
    if name == "memzone-dump.txt":  # memzones only: nothing to recover a configuration from
        assert not doc["pools"] and len(doc["other_memzones"]) == 15
    else:
        assert doc["pools"] and doc["input"]["skipped_lines"] <= 2  # proc-info's banner lines


def test_real_captures_together_measure_every_memzone():
    text = "".join((EXAMPLES / n).read_text() for n in ("mempool-dump.txt", "memzone-dump.txt", "telemetry.json"))
    doc = ins.inspect_text(text).to_dict()
    assert len(doc["pools"]) == 5 and doc["totals"]["explained_pools"] == 5
    assert doc["totals"]["measured_bytes"] == doc["totals"]["modelled_bytes"]
    assert all(m["measured"] is not None for p in doc["pools"] for m in p["memzones"])


def test_cli_formats_and_stdin(monkeypatch):
    text = (EXAMPLES / "mempool-dump.txt").read_text() + (EXAMPLES / "memzone-dump.txt").read_text()
    monkeypatch.setattr("sys.stdin", io.StringIO(text))
    rc, out = run("inspect", "-", "--format", "csv")
    assert rc == 0 and out.startswith("pool,section,name,modelled,measured,delta,note\n")
    assert "rib_nodes,memzone,MP_rib_nodes_0,798848,798848,0," in out
    rc, out = run("inspect", str(EXAMPLES / "mempool-dump.txt"))
    assert rc == 0 and "pool rib_nodes" in out and "unexplained" in out and "advice in total" in out


def test_cli_usage_errors():
    assert run("inspect", "/nonexistent/file")[0] == 2
    assert run("inspect", str(EXAMPLES / "telemetry.json"), "--page-size", "3K")[0] == 2


def test_pure_module_imports_neither_click_nor_rich():
    import subprocess
    import sys

    code = (
        "import sys, mpcalc.inspect; bad = [m for m in sys.modules if m.split('.')[0] in ('click', 'rich')]; "
        "assert not bad, bad"
    )
    assert subprocess.run([sys.executable, "-c", code], capture_output=True).returncode == 0


def test_an_lcore_beyond_any_rte_max_lcore_is_a_malformed_line(tmp_path):
    dump = tmp_path / "mp.txt"
    text = mempool_dump("flows", "22.11", count=1000, elt=104, cache=32)
    dump.write_text(text.replace("cache_count[1]=", "cache_count[" + "1" * 400 + "]=", 1))
    assert "1" * 400 in dump.read_text()
    rc, _ = run("inspect", str(dump))
    assert rc == 2
