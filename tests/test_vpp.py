"""``mpcalc app -- vpp ...``: VPP's buffer arithmetic against its source (src/vlib/buffer.c, physmem.c,
src/vppinfra/pmalloc.c, src/plugins/dpdk/buffer.c and device/init.c at each profile's tag), its startup.conf
reader against VPP's own refusals, and the command through the installed ``mpcalc``; the recorded real runs
are held in tests/conformance/test_vpp_real.py."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mpcalc.dpdk.apps import vpp
from mpcalc.dpdk.apps.vpp import buffers as B
from mpcalc.dpdk.apps.vpp import profiles
from mpcalc.dpdk.apps.vpp.startup import file_words
from mpcalc.dpdk.apps.vpp.unformat import Cursor
from mpcalc.dpdk.core.errors import InputError
from mpcalc.dpdk.core.platform import Platform

P = Platform()
NEW = profiles.profile("26.06")
OLD = profiles.profile("24.10")


def _size(text: str, release: str = "25.02", p: Platform = P, tmp: Path | None = None):
    return vpp.size(["vpp", *text.split()], p, release=release)


def _node(result, numa: int = 0) -> dict:
    return next(n for n in result.details["vpp"]["numa"] if n["numa"] == numa)


def _reference_count(base: int, size: int, page: int, alloc: int) -> int:
    """vlib_buffer_pool_create's loop, slot by slot (src/vlib/buffer.c)."""
    p = base + alloc - base % alloc
    if p == base:
        p += alloc
    n = 0
    while p < base + size - alloc:
        if p // page == (p + alloc) // page:
            n += 1
        p += alloc
    return n


# --- the buffer arithmetic -------------------------------------------------------------------------------------


def test_alloc_size_of_the_default_data_size():
    # 192 (objhdr 24 + rte_mbuf 128, a cache line round) + vlib_buffer_t 256 + 2048 -> 2496, 39 lines (odd)
    assert B.ext_hdr_size(24, 128) == 192
    assert B.alloc_size(192, 2048) == 2496
    # without the dpdk plugin no external header: 2304 is 36 lines, made odd: 2368
    assert B.alloc_size(0, 2048) == 2368
    # show buffers' Size column is data + vlib_buffer_t + header, not the allocation
    assert B.shown_size(192, 2048) == 2496 and B.shown_size(0, 2048) == 2304


def test_default_map_is_20_pages_and_16784_buffers_on_2m_pages():
    m = B.buffer_map(0, 16384, 2048, 192, 2 << 20, 2 << 20, 1 << 36, 0)
    assert (m.buffers_per_page, m.pages, m.bytes, m.buffers) == (840, 20, 41_943_040, 16_784)


def test_one_1g_page_holds_430184_buffers():
    # the VPP 26.06 stats dump of the issue: 430,184 available in default-numa-0 on a 1 GiB page
    m = B.buffer_map(0, 16384, 2048, 192, 1 << 30, 1 << 30, 1 << 36, 0)
    assert (m.pages, m.buffers) == (1, 430_184)


def test_4k_fallback_size():
    # 8,192 buffers of 2,496 B on 4 KiB pages: one a page, 8,192 pages; the slots that reach the next page
    # are skipped, so fewer buffers than pages
    m = B.buffer_map(0, 8192, 2048, 192, 4096, 2 << 20, 1 << 36, 0)
    assert (m.buffers_per_page, m.pages, m.bytes) == (1, 8192, 32 << 20)
    assert m.buffers == _reference_count(1 << 36, 32 << 20, 4096, 2496)


def test_a_4k_map_is_whole_default_hugepages():
    # pmalloc maps whole default pages (pmalloc_size2pages): 1,000 pages of 4 KiB become 2 MiB x 2 = 1,024 pages
    m = B.buffer_map(0, 1000, 2048, 192, 4096, 2 << 20, 1 << 36, 0)
    assert (m.pages, m.bytes) == (1024, 4 << 20)


@settings(max_examples=200, deadline=None)
@given(
    ext=st.sampled_from([0, 192]),
    data=st.integers(64, 16000),
    page=st.sampled_from([4096, 2 << 20]),
    n_default=st.integers(1, 40),
    start=st.integers(0, 8),
)
def test_closed_form_count_is_the_loop(ext, data, page, n_default, start):
    alloc = B.alloc_size(ext, data)
    if alloc > page:
        return
    size = n_default * (2 << 20) if page > 4096 else min(n_default, 4) * (2 << 20)
    base = (1 << 36) + start * (2 << 20)
    assert B.buffer_count(base, size, page, alloc) == _reference_count(base, size, page, alloc)


def test_maps_follow_each_other_from_the_base():
    r = _size("buffers { numa 0 { buffers 16384 } numa 1 { buffers 16384 } } dpdk { no-pci }")
    n0, n1 = _node(r, 0)["buffers"], _node(r, 1)["buffers"]
    assert n0["base"] == hex(1 << 36) and n1["base"] == hex((1 << 36) + 20 * (2 << 20))
    assert n1["pool_index"] == 1
    # the second map starts at another offset modulo 2,496: its count differs
    assert n1["buffers"] == _reference_count((1 << 36) + (40 << 20), 40 << 20, 2 << 20, 2496)


def test_numa_zero_buffers_has_no_pool():
    r = _size("buffers { numa 1 { buffers 0 } } dpdk { no-pci }")
    assert _node(r, 1)["buffers"] is None


# --- DPDK's side: header-only pools, EAL, ports -------------------------------------------------------------


def test_dpdk_sees_two_header_only_pools():
    r = _size("dpdk { no-pci }")
    names = [mp.name for mp in r.mempools]
    assert names == ["vpp pool 0", "vpp pool 0 (no cache)"]
    cached, nocache = r.mempools
    assert (cached.cache_size, nocache.cache_size, cached.ops_name, nocache.ops_name) == (512, 0, "vpp", "vpp-no-cache")
    assert cached.count == 16_784 and cached.elt_size == 128 + 256 + 2048
    assert [z.name for z in cached.memzones] == ["MP_vpp pool 0"] and cached.ring_size is None
    # the cached pool's header holds RTE_MAX_LCORE caches, the other's none
    assert cached.memzones[0].len > nocache.memzones[0].len
    assert cached.header.caches == P.max_lcore * cached.header.cache_struct and nocache.header.caches == 0


def test_a_pool_under_768_buffers_is_refused_by_the_cached_mempool():
    # one 2 MiB page of 4,544 B buffers: 461 < CALC_CACHE_FLUSHTHRESH(512) = 768 -> EINVAL; VPP stops
    with pytest.raises(InputError, match="failed to create normal mempool for numa node 0"):
        _size("buffers { buffers-per-numa 400 default data-size 4096 } dpdk { no-pci }")


def test_eal_arguments_are_vpps():
    r = _size("dpdk { no-pci vdev net_null0 socket-mem 1024,1024 }")
    v = r.details["vpp"]
    assert v["eal_args"] == ["--no-pci", "--vdev", "net_null0", "--in-memory", "--no-telemetry", "--file-prefix", "vpp"]
    assert any("socket-mem argument is deprecated" in n for n in r.details["notes"])
    r2 = _size("dpdk { no-hugetlb no-pci file-prefix x telemetry }")
    assert r2.details["vpp"]["eal_args"] == ["--no-huge", "--no-pci", "--file-prefix", "x"]


def test_ports_queues_and_descriptors():
    r = _size(
        "cpu { main-core 0 corelist-workers 1-2 } "
        "dpdk { no-pci vdev net_null0 vdev net_null1 dev default { num-rx-queues 2 num-rx-desc 512 } }"
    )
    ports = r.details["vpp"]["ports"]
    # rx: the 2 asked (more than 1 and within max_rx_queues); tx: main + 2 workers; tx desc the 1,024 default
    assert [(p["rx_queues"], p["tx_queues"], p["rx_desc"], p["tx_desc"]) for p in ports] == [(2, 3, 512, 1024)] * 2
    d = _node(r)["demand"]
    assert d["rx_descriptors"] == 2 * 2 * 512 and d["tx_descriptors"] == 2 * 3 * 1024 and d["thread_caches"] == 3 * 512
    assert d["supply"] == 16_784 and d["margin"] == 16_784 - d["total"]


def test_one_rx_queue_asked_is_one():
    r = _size("dpdk { no-pci vdev net_null0 dev default { num-rx-queues 1 } }")
    assert r.details["vpp"]["ports"][0]["rx_queues"] == 1


def test_demand_over_supply_warns():
    r = _size(
        "buffers { buffers-per-numa 4096 } dpdk { no-pci " + " ".join(f"vdev net_null{i}" for i in range(4)) + " }"
    )
    node = _node(r)
    assert node["demand"]["total"] > node["demand"]["supply"]
    assert "runs short" in node["warning"] and any("runs short" in n for n in r.details["notes"])


def test_no_l3_cache_halves_the_default_descriptors():
    r = vpp.size(["vpp", "dpdk", "{", "no-pci", "vdev", "net_null0", "}"], P, release="25.02", l3cache=False)
    assert r.details["vpp"]["ports"][0]["rx_desc"] == 512


def test_without_the_dpdk_plugin_there_is_no_dpdk_memory():
    r = _size("plugins { plugin dpdk_plugin.so { disable } } dpdk { no-pci }")
    v = r.details["vpp"]
    assert not v["dpdk_plugin"] and r.mempools == () and r.heap_bytes == 0
    assert _node(r)["buffers"]["alloc_size"] == 2368 and _node(r)["buffers"]["buffers"] == 16_808
    assert "dpdk" in v["config"]["ignored_sections"]
    r2 = _size("plugins { plugin default { disable } plugin dpdk_plugin.so { enable } }")
    assert r2.details["vpp"]["dpdk_plugin"]


# --- hugepages and memory outside them ----------------------------------------------------------------------


def test_hugepages_per_size_count_the_buffers_and_the_pre_reserve():
    r = _size("dpdk { no-pci }")
    node = _node(r)
    # 20 pages of buffers, DPDK's heap in 2 MiB pages, at least 16 MB (8 pages) free for DPDK
    assert node["pre_reserve_pages"] == 8
    assert node["nr_hugepages"] == {str(2 << 20): 20 + max(8, node["dpdk_heap_pages"])}
    assert node["hugepages_mapped"] == {str(2 << 20): 20 + node["dpdk_heap_pages"]}
    outside = {o["what"]: o["bytes"] for o in node["outside_hugepages"]}
    assert outside == {"main heap": 1 << 30, "stats segment": 32 << 20}


def test_main_heap_and_statseg_on_hugepages():
    r = _size("memory { main-heap-size 64M main-heap-page-size 2M } statseg { size 16M page-size 2M } dpdk { no-pci }")
    node = _node(r)
    assert node["nr_hugepages"][str(2 << 20)] == 20 + 32 + 8 + max(8, node["dpdk_heap_pages"])
    assert node["outside_hugepages"] == []


def test_1g_default_hugepage():
    r = _size("memory { default-hugepage-size 1G } dpdk { no-pci }")
    node = _node(r)
    assert node["buffers"]["buffers"] == 430_184
    assert node["pre_reserve_pages"] == 1 and node["nr_hugepages"] == {str(1 << 30): 2}


def test_no_hugetlb_puts_dpdk_on_4k_pages():
    r = _size("dpdk { no-hugetlb no-pci vdev net_null0 }")
    node = _node(r)
    assert node["dpdk_heap_pages"] == 0 and node["nr_hugepages"] == {str(2 << 20): 20}
    assert any(o["what"].startswith("DPDK heap") for o in node["outside_hugepages"])


def test_buffer_page_size_must_be_the_default_hugepage_or_4k():
    with pytest.raises(InputError, match=r"unsupported page size \(1048576KB\)"):
        _size("buffers { page-size 1G } dpdk { no-pci }")


def test_buffers_beyond_physmem_are_refused():
    with pytest.raises(InputError, match="physmem"):
        _size("buffers { buffers-per-numa 8000000 } dpdk { no-pci }")
    r = _size("physmem { max-size 32G } buffers { buffers-per-numa 8000000 } dpdk { no-pci }")
    # 9,524 pages of 840 slots by VPP's division, but a page whose first slot starts late holds 839: fewer
    # buffers than asked
    b = _node(r)["buffers"]
    assert (b["pages"], b["buffers"]) == (9524, 7_992_590)


def test_a_buffer_larger_than_its_page_is_refused():
    with pytest.raises(InputError, match=r"buffer size \(9664\) is greater than page size \(4096\)"):
        _size("buffers { page-size 4K default data-size 9216 } dpdk { no-pci }")


# --- the startup.conf reader --------------------------------------------------------------------------------


def test_comments_and_words():
    raw = "unix {\n  nodaemon # a comment\n}\n#dpdk { x }\nbuffers { buffers-per-numa 4096 }#x\n"
    assert file_words(raw, NEW) == "unix { nodaemon } buffers { buffers-per-numa 4096 }"
    # up to v25.10 a word that starts with # ends the line; one inside a word does not
    assert file_words("buffers { buffers-per-numa 4096 }#x\n", OLD) == "buffers { buffers-per-numa 4096 }#x"


def test_cursor_reads_like_unformat():
    c = Cursor("{ a { b } c } rest")
    assert c.string() == " a { b } c " and c.string() == "rest"
    assert not Cursor("food").literal("foo") and Cursor("foo bar").literal("foo")
    assert Cursor("512M").memory_size() == 512 << 20 and Cursor("1g").memory_size() == 1 << 30
    assert Cursor("2m").page_size() == 2 << 20 and Cursor("default-hugepage").page_size() == "default-hugepage"
    c = Cursor("x" * 40)
    assert c.error_text() == "x" * 30 + "..."


def test_the_file_form_and_the_inline_form_agree(tmp_path):
    conf = tmp_path / "startup.conf"
    conf.write_text("unix { nodaemon }\nbuffers {\n  buffers-per-numa 32768\n}\ndpdk { no-pci }\n")
    a = vpp.size(["vpp", "-c", str(conf)], P, release="25.02")
    b = _size("unix { nodaemon } buffers { buffers-per-numa 32768 } dpdk { no-pci }")
    assert a.details["vpp"]["numa"] == b.details["vpp"]["numa"]
    assert a.details["vpp"]["config"]["ignored_sections"] == ["unix"]


def test_a_missing_file_is_vpps_message(tmp_path):
    with pytest.raises(InputError, match=r"open configuration file .* failed"):
        vpp.size(["vpp", "-c", str(tmp_path / "nope.conf")], P)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("dpdk { no-pci bogus-key 1 }", "unknown input `bogus-key 1'"),
        ("dpdk { dev default { num-rx-queues 2 frob 3 } }", "unknown input `frob 3'"),
        ("buffers { buffers-per-numa 4096 frobnicate }", "parse error `frobnicate'"),
        ("statseg { size 32M what }", "unknown input `what'"),
        ("memory { main-heap-size 1G no-such-key 2 }", "unknown 'memory' config input 'no-such-key 2'"),
        ("physmem { nope }", "parse error `nope'"),
        ("cpu { corelist-workers 1 }", "main-core must be specified"),
        ("dpdk { dev default { workers 0-1 num-rx-queues 3 } }", "number of worker threads must be equal"),
    ],
)
def test_unknown_keys_are_refused_with_vpps_text(text, message):
    with pytest.raises(InputError, match=message.replace("(", r"\(").replace(")", r"\)")):
        _size(text, release="25.02")


def test_memory_skips_unknown_keys_from_26_02():
    r = _size("memory { main-heap-size 512M no-such-key 2 } dpdk { no-pci }", release="26.06")
    assert r.details["vpp"]["config"]["main_heap_size"] == 512 << 20


def test_cpu_stops_at_an_unknown_key_without_error():
    r = _size("cpu { workers 2 frob 1 } dpdk { no-pci }")
    assert r.details["vpp"]["threads"] == 3
    assert any("cpu_config stops reading at 'frob 1'" in n for n in r.details["notes"])


def test_dpdk_keys_follow_the_release():
    with pytest.raises(InputError, match="unknown input `enable-mbuf-fast-free'"):
        _size("dpdk { no-pci enable-mbuf-fast-free }", release="26.02")
    assert _size("dpdk { no-pci enable-mbuf-fast-free }", release="26.06").ok


def test_other_sections_are_listed():
    r = _size("unix { nodaemon } api-trace { on } socksvr { default } dpdk { no-pci }")
    assert r.details["vpp"]["config"]["ignored_sections"] == ["unix", "api-trace", "socksvr"]


# --- the profiles -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("tag", profiles.TAGS)
def test_every_fact_is_cited_at_every_release(tag):
    pr = profiles.profile(tag)
    for fact, (path, _lines) in profiles.FACTS.items():
        if fact in ("tx_desc_clamp", "tx_desc_warn", "memory_unknown", "memory_skip", "fast_free"):
            continue  # facts of some releases only
        assert pr.line(fact) is not None, (tag, fact)
        assert pr.cite(fact).startswith(f"{tag}:{path}:")


def test_profiles_differ_where_vpp_changed():
    assert [profiles.profile(t).bundled_dpdk for t in profiles.TAGS] == [
        "24.07",
        "24.11.1",
        "24.11.1",
        "25.07",
        "25.11",
        "26.03",
    ]
    assert not profiles.profile("24.10").tx_desc_clamped and profiles.profile("25.02").tx_desc_clamped
    assert profiles.profile("25.10").memory_refuses_unknown and not profiles.profile("26.02").memory_refuses_unknown
    assert profiles.profile("26.06").cite("alloc_size_fn", "alloc_size") == "v26.06:src/vlib/buffer.c:440, 447"


# --- the command, the plan item, the Python API --------------------------------------------------------------


def _mpcalc() -> str:
    return str(Path(sys.executable).with_name("mpcalc"))


def test_installed_command_json_validates(tmp_path, schema_validator):
    conf = tmp_path / "startup.conf"
    conf.write_text("unix { nodaemon }\ndpdk { no-pci vdev net_null0 }\n")
    out = subprocess.run(
        [_mpcalc(), "app", "--json", "--", "vpp", "-c", str(conf)], capture_output=True, text=True, check=True
    ).stdout
    doc = json.loads(out)
    errors = sorted(schema_validator.iter_errors(doc), key=str)
    assert not errors, [e.message for e in errors]
    res = doc["results"][0]
    node = res["details"]["vpp"]["numa"][0]
    assert node["buffers"]["buffers"] == 16_784 and node["buffers"]["alloc_size"] == 2496
    zones = {m["name"] for m in res["memzones"]} | {z["name"] for mp in res["mempools"] for z in mp["memzones"]}
    assert zones >= {"MP_vpp pool 0", "MP_vpp pool 0 (no cache)", "rte_eth_dev_data"}
    advice = res["details"]["advice"]
    assert advice["socket_mem"] is None and advice["nr_hugepages"] == {str(2 << 20): 28}


def test_installed_command_table_and_refusal(tmp_path):
    out = subprocess.run(
        [_mpcalc(), "app", "--", "vpp", "unix", "{", "nodaemon", "}", "dpdk", "{", "no-pci", "}"],
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0, out.stderr
    assert "default-numa-0" in out.stdout and "16,784" in out.stdout
    bad = subprocess.run([_mpcalc(), "app", "--", "vpp", "dpdk", "{", "bogus", "}"], capture_output=True, text=True)
    assert bad.returncode != 0 and "unknown input `bogus'" in bad.stderr and "Traceback" not in bad.stderr
    assert len(bad.stderr.strip().splitlines()) == 1


def test_vpp_release_option(run):
    rc, out, _ = run("app", "--vpp-release", "24.10", "--json", "--", "vpp", "dpdk", "{", "no-pci", "}")
    assert rc == 0
    assert json.loads(out)["results"][0]["details"]["vpp"]["release"]["tag"] == "v24.10"


def test_plan_item(tmp_path, run):
    plan = tmp_path / "vpp.toml"
    plan.write_text('[[app]]\nname = "vpp"\ncommand_line = ["vpp", "dpdk", "{", "no-pci", "}"]\n')
    rc, out, err = run("plan", str(plan), "--json")
    assert rc == 0, err
    doc = json.loads(out)
    assert doc["items"][0]["result"]["details"]["vpp"]["numa"][0]["buffers"]["buffers"] == 16_784
    # the plan's pages are VPP's own: 20 of buffers and DPDK's heap at VPP's 8-page floor
    assert doc["sockets"][0]["pages"] == 28


def test_python_api():
    from mpcalc import api

    report = api.size("app", command_line=["vpp", "dpdk", "{", "no-pci", "}"], vpp_release="25.02")
    assert report.results[0].details["vpp"]["numa"][0]["buffers"]["pages"] == 20
    assert report.results[0].details["vpp"]["release"]["tag"] == "v25.02"


def test_a_port_dpdk_refuses_holds_no_buffers():
    # net_tap wants as many rx as tx queues; 2 rx and main + 2 workers tx: VPP marks the interface in error
    r = _size("cpu { main-core 0 corelist-workers 1-2 } dpdk { no-pci vdev net_tap0 dev default { num-rx-queues 2 } }")
    port = r.details["vpp"]["ports"][0]
    assert "must be equal to number of tx queues" in port["error"]
    assert _node(r)["demand"]["rx_descriptors"] == 0


def test_threads_on_cpus_the_machine_lacks_are_refused():
    with pytest.raises(InputError, match="CPU 5, which the machine lacks"):
        vpp.size(["vpp", "cpu", "{", "main-core", "0", "corelist-workers", "4-5", "}"], P, cpus=(0, 1, 2, 3, 4))


@settings(max_examples=40, deadline=None)
@given(bpn=st.integers(768, 200_000), data=st.sampled_from([512, 1024, 2048, 4096, 9216]))
def test_file_and_inline_forms_give_the_same_pool(tmp_path_factory, bpn, data):
    body = f"buffers {{ buffers-per-numa {bpn} default data-size {data} }} dpdk {{ no-pci }}"
    conf = tmp_path_factory.mktemp("conf") / "startup.conf"
    conf.write_text("# generated\n" + body.replace("} ", "}\n") + "\n")
    a = vpp.size(["vpp", "-c", str(conf)], P, release="25.02").details["vpp"]["numa"][0]["buffers"]
    b = _size(body).details["vpp"]["numa"][0]["buffers"]
    assert a == b and a["requested"] == bpn and a["data_size"] == data
    pages = B.n_pages(bpn, 2 << 20, a["alloc_size"])
    assert a["pages"] == pages and a["buffers"] >= pages * (a["buffers_per_page"] - 1)


# --- dev <pci>: the NIC's driver (the driver model, as every application) ---------------------------------------

ICE = ("0000:3b:00.0=ice", "0000:3b:00.1=8086:159b")


def _pci(text: str, nics=ICE, devbind: str | None = None, release: str = "26.06"):
    return vpp.size(["vpp", *text.split()], P, release=release, nics=nics, devbind=devbind)


def _zones(result) -> list[str]:
    return [z.name for z in result.memzones]


def test_a_dev_line_is_a_port_of_its_driver_tx_queues_first():
    from mpcalc.dpdk.drivers import ice

    r = _pci("cpu { main-core 0 corelist-workers 1-2 } dpdk { dev 0000:3b:00.0 { num-rx-queues 2 } }", nics=ICE[:1])
    (port,) = r.details["vpp"]["ports"]
    # Rx queues: the config's (above one, within max_rx_queues); Tx: one per thread (main + 2 workers)
    assert (port["driver"], port["rx_queues"], port["tx_queues"], port["rx_desc"], port["tx_desc"]) == (
        "net_ice",
        2,
        3,
        1024,
        1024,
    )
    # dpdk_device_setup sets up the Tx queues before the Rx queues (src/plugins/dpdk/device/common.c)
    names = _zones(r)
    assert names[names.index("eth_p0_q0_tx_ring") : names.index("eth_p0_q0_tx_ring") + 5] == [
        "eth_p0_q0_tx_ring",
        "eth_p0_q1_tx_ring",
        "eth_p0_q2_tx_ring",
        "eth_p0_q0_rx_ring",
        "eth_p0_q1_rx_ring",
    ]
    # the ring sizes are the driver model's, for the release VPP's platform names
    want = ice.rx_queue_setup("22.11", 0, 0, 1024, {})
    got = next(z for z in r.memzones if z.name == "eth_p0_q0_rx_ring")
    assert got.len == want.zones[0].size
    assert "port 0 (0000:3b:00.0, net_ice): from the driver's source, not run" in r.details["notes"]
    assert r.heap_bytes > _size("cpu { main-core 0 corelist-workers 1-2 } dpdk { no-pci }", "26.06").heap_bytes


def test_dev_items_left_zero_come_from_dev_default_and_devargs_go_on_the_allow_list():
    r = _pci(
        "dpdk { dev default { num-rx-desc 2048 num-rx-queues 2 devargs max_queues=8 } "
        "dev 0000:3b:00.1 { num-rx-queues 4 devargs max_queues=16 } dev 0000:3b:00.0 }"
    )
    v = r.details["vpp"]
    assert v["eal_args"][-4:] == ["-a", "0000:3b:00.1,max_queues=16", "-a", "0000:3b:00.0,max_queues=8"]
    # the ports in PCI address order (EAL's scan), each with its own section over dev default's
    assert [(p["name"], p["rx_queues"], p["rx_desc"]) for p in v["ports"]] == [
        ("0000:3b:00.0", 2, 2048),
        ("0000:3b:00.1", 4, 2048),
    ]


def test_a_dev_line_without_its_driver_is_refused_by_name():
    with pytest.raises(InputError, match=r"-a 0000:3b:00.0: its driver is the target machine's: give --nic"):
        _pci("dpdk { dev 0000:3b:00.0 }", nics=())


def test_virtio_takes_vpps_256_descriptors_and_the_pci_ports_come_before_the_vdevs():
    r = _pci("dpdk { vdev net_null0 dev 0000:00:04.0 }", nics=("0000:00:04.0=net_virtio",))
    ports = r.details["vpp"]["ports"]
    assert [(p["name"], p["rx_desc"], p["tx_desc"]) for p in ports] == [
        ("0000:00:04.0", 256, 256),  # dpdk_drivers' n_rx_desc/n_tx_desc for net_virtio
        ("net_null0", 1024, 1024),
    ]
    assert "eth_p0_q0_rx_ring" not in _zones(r)  # virtio names its own vrings
    assert NEW.cite("virtio_256") == "v26.06:src/plugins/dpdk/device/driver.c:129"


def test_tx_descriptors_are_clamped_to_the_drivers_maximum_from_25_02():
    text = "dpdk { dev 0000:00:03.0 { num-tx-desc 8192 } }"
    e1000 = ("0000:00:03.0=e1000",)
    old = _pci(text, nics=e1000, release="24.10")
    new = _pci(text, nics=e1000, release="25.02")
    # 24.10 hands 8192 to rte_eth_tx_queue_setup, which refuses it: the interface is in error, its Rx queues set
    # up, no Tx ring, the port not started (dpdk_device_setup goes on to the Rx queues, then to its error)
    (port,) = old.details["vpp"]["ports"]
    assert port["tx_desc"] == 8192 and port["error"].startswith("Invalid value for nb_tx_desc(=8192)")
    assert "eth_p0_q0_rx_ring" in _zones(old) and "eth_p0_q0_tx_ring" not in _zones(old)
    assert old.details["vpp"]["numa"][0]["demand"]["tx_descriptors"] == 0
    assert new.details["vpp"]["ports"][0]["tx_desc"] == 4096  # E1000_MAX_RING_DESC
    assert any(
        n.startswith("[0] Configured number of TX descriptors (8192) is bigger than maximum supported (4096)")
        for n in new.details["notes"]
    )


DEVBIND = """Network devices using DPDK-compatible driver
============================================
0000:00:03.0 '82540EM Gigabit Ethernet Controller 100e' drv=uio_pci_generic unused=e1000
0000:0b:00.0 'VMXNET3 Ethernet Controller 07b0' drv=vfio-pci unused=vmxnet3

Network devices using kernel driver
===================================
0000:00:04.0 'Virtio network device 1000' if=eth0 drv=virtio-pci unused=vfio-pci *Active*
"""


def test_without_dev_lines_the_nics_bound_to_dpdk_are_the_ports_but_vmxnet3_is_blocked():
    r = _pci("dpdk { vdev net_null0 }", nics=(), devbind=DEVBIND)
    v = r.details["vpp"]
    assert [p["name"] for p in v["ports"]] == ["0000:00:03.0", "net_null0"]
    assert v["eal_args"][-2:] == ["-b", "0000:0b:00.0"]
    assert any("vmxnet3, which VPP blocks unless a dev line names it" in n for n in r.details["notes"])
    named = _pci("dpdk { dev 0000:0b:00.0 }", nics=(), devbind=DEVBIND)
    assert [p["driver"] for p in named.details["vpp"]["ports"]] == ["net_vmxnet3"]


def test_a_blacklisted_address_is_eals_block_list():
    r = _pci("dpdk { blacklist 0000:00:03.0 blacklist 8086:10fb }", nics=(), devbind=DEVBIND)
    assert r.details["vpp"]["eal_args"][:2] == ["-b", "0000:00:03.0"]
    assert r.details["vpp"]["ports"] == []  # e1000 blocked, vmxnet3 blocked by VPP
