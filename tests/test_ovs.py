"""``mpcalc ovs``: OVS's lib/netdev-dpdk.c pool arithmetic, against the source's own formulas and the
figures the real ovs-vswitchd 3.1 (Debian 12) printed (tests/conformance/test_ovs_real.py proves them live)."""

from __future__ import annotations

import json

import pytest

from mpcalc.dpdk.apps.ovs import netdev, size, versions
from mpcalc.dpdk.apps.ovs.hashing import _crc32c, hash_string
from mpcalc.dpdk.apps.ovs.netdev import Port, buf_size, dp_packet_size, parse_port, queue_size
from mpcalc.dpdk.core import registry
from mpcalc.dpdk.core.errors import InputError
from mpcalc.dpdk.core.platform import Platform, platform_from

P4K = Platform(page_size=4096)


def _zones(result):
    return {m.name: m.len for m in result.memzones}


def test_hash_string_is_ovs_own():
    # the pool the real OVS 3.1 named for port "p0" (get-mempool-info: ovs6ffa666e00011340016384)
    assert hash_string("p0") == 0x6FFA666E
    # the CRC-32C step is the SSE 4.2 instruction's: the standard check value with the usual inversions
    assert _crc32c(0xFFFFFFFF, b"123456789") ^ 0xFFFFFFFF == 0xE3069283
    assert hash_string("p0", variant="crc32c") != hash_string("p0")


@pytest.mark.parametrize("version", versions.VERSIONS)
def test_dp_packet_is_704_bytes_on_x86(version):
    # 128 (rte_mbuf) + OVS's fields to md_offset + struct pkt_metadata 512, cache aligned
    r = versions.RELEASES[version]
    assert dp_packet_size(r, Platform(dpdk=r.dpdk)) == 704


def test_dp_packet_on_128_byte_lines():
    r = versions.RELEASES["3.1"]
    # ppc64le: OVS's CACHE_LINE_SIZE is 128 too, pkt_metadata 640; 152 + 640 -> 896
    assert dp_packet_size(r, platform_from({"arch": "ppc64le"})) == 896
    assert dp_packet_size(versions.RELEASES["2.17"], platform_from({"arch": "ppc64le", "dpdk": "21.11"})) == 768


@pytest.mark.parametrize(
    ("mtu", "room", "pool_mtu", "count"),
    [
        (1500, 2176, 2158, 262144),  # ROUND_UP(1526, 1024) + 128
        (800, 1152, 1134, 16384),  # the real run: ovs6ffa666e00011340016384
        (998, 1152, 1134, 16384),  # 998 + 26 = 1024: the last MTU with a 16,384-mbuf pool
        (999, 2176, 2158, 262144),  # 1,025 rounds to 2,048: a 2158-byte pool MTU, above RTE_ETHER_MTU
        (9000, 9344, 9326, 262144),
    ],
)
def test_shared_pool_sizes(mtu, room, pool_mtu, count):
    r = size([Port("p0", mtu_request=mtu)], False, None, None, P4K)
    assert buf_size(mtu, P4K) == room
    pool = r.details["pools"][f"ovs6ffa666e00{pool_mtu:05d}{count:07d}"]
    assert (pool["n_mbufs"], pool["data_room"], pool["priv_size"]) == (count, room, 576)
    mp = r.mempools[0]
    assert mp.elt_size == 128 + 576 + room and mp.cache_size == 512


def test_the_issue_figure_mtu_1500():
    # the issue: OVS 3.1 reserves about 794 MB for a 262,144-mbuf MTU-1500 pool, not mbuf --mtu's 468 MiB
    r = size([Port("dpdk0")], False, None, None, Platform())
    mp = r.mempools[0]
    assert mp.objsz.total_size == 3008  # 64 + 2,880 + 64 (spread over 4 channels: 46 -> 47 lines)
    assert 790_000_000 < mp.total_bytes < 800_000_000


def test_shared_pool_is_reused_and_named_by_its_first_port():
    r = size(
        [Port("p0", mtu_request=800), Port("p1", mtu_request=900), Port("p2", mtu_request=9000)], False, None, None, P4K
    )
    ports = r.details["ports"]
    assert ports["p1"]["pool"] == ports["p0"]["pool"] and ports["p1"]["reused"]
    assert ports["p2"]["pool"].startswith(f"ovs{hash_string('p2'):08x}00")
    assert len(r.mempools) == 2
    assert _zones(r)["rte_eth_dev_data"] == 196_672  # measured: 64 + 32 x 6,144


def test_per_port_count():
    # n_rxq x rxq_size + n_txq x txq_size + MIN(RTE_MAX_LCORE, n_rxq) x 32 + 16,384; n_txq = PMDs + 1
    r = size([Port("p0", n_rxq=2, n_rxq_desc=1024, n_txq_desc=512)], True, "0x6", None, P4K)
    port = r.details["ports"]["p0"]
    assert (port["n_rxq"], port["n_txq"], port["rxq_size"], port["txq_size"]) == (2, 3, 1024, 512)
    assert port["n_mbufs"] == 2 * 1024 + 3 * 512 + 2 * 32 + 16384
    # two ports of one MTU get two pools: per-port memory never shares
    r2 = size([Port("p0"), Port("p1")], True, None, None, P4K)
    assert len(r2.mempools) == 2


def test_queue_sizes():
    old, new = versions.RELEASES["3.1"], versions.RELEASES["3.7"]
    assert [queue_size(v, old) for v in (None, 0, 3000, 4096, 8192)] == [2048, 2048, 2048, 4096, 2048]
    assert queue_size(8192, new) == 8192  # NIC_PORT_MAX_Q_SIZE is gone from 3.6


def test_vhost_ports():
    # a vhost port's pool exists once a guest connects: n_rxq = n_txq = its queue pairs, 2,048 descriptors
    r = size([Port("vhu0", type="dpdkvhostuserclient", n_rxq=4)], True, "0xff", None, P4K)
    assert r.details["ports"]["vhu0"]["n_mbufs"] == 4 * 2048 + 4 * 2048 + 4 * 32 + 16384
    assert "rte_eth_dev_data" not in _zones(r)  # vhost ports are no ethdev ports
    none = size([Port("vhu0", type="dpdkvhostuser", guest=False)], False, None, None, P4K)
    assert not none.mempools and none.details["ports"]["vhu0"]["pool"] is None


def test_mtu_request_out_of_range_keeps_1500():
    # OVS warns and runs (issue 26): the port is added with MTU 1500, its pool is the 1500 one
    for mtu in (9703, 9710, 70000, 67):
        r = size([Port("p0", mtu_request=mtu)], False, None, None, P4K)
        assert r.ok and r.details["ports"]["p0"]["mtu"] == 1500 and r.details["ports"]["p0"]["pool_mtu"] == 2158
        (note,) = r.details["notes"]
        assert f"OVS logs 'p0: unsupported MTU {mtu}'" in note and "keeps MTU 1500" in note
    ok = size([Port("p0", mtu_request=9702)], False, None, None, P4K)
    assert ok.ok and not ok.details["notes"] and ok.details["ports"]["p0"]["mtu"] == 9702


def test_parse_port():
    assert parse_port("vh,type=dpdkvhostuser,guest=no") == Port("vh", "dpdkvhostuser", guest=False)
    for bad in ("", "type=dpdk", "p0,mtu=9000", "p0,n_rxq=two", "p0,type=afxdp", "p0,guest=no"):
        with pytest.raises(InputError):
            parse_port(bad)


def test_release_must_match_dpdk():
    with pytest.raises(InputError, match=r"builds against DPDK 23\.11"):
        size([Port("p0")], False, None, "3.3", Platform())
    assert size([Port("p0")], False, None, None, platform_from({"dpdk": "23.11"})).details["ovs"] == "3.3"
    with pytest.raises(InputError):
        size([Port("p0")], False, None, None, platform_from({"dpdk": "26.07"}))


def test_pmd_mask():
    assert netdev.pmd_threads(None) == 1 and netdev.pmd_threads("0x30") == 2 and netdev.pmd_threads("f0f") == 8
    # a character that is no hex digit: OVS warns and reads it as 0 (lib/ovs-numa.c)
    assert netdev.pmd_threads("zz") == 0 and netdev.pmd_threads("z3") == 2
    assert "Invalid cpu mask: z" in netdev.pmd_cores("z3")[1][0]


def test_ethdev_zone_per_release():
    from mpcalc.dpdk.apps.ovs.shared_data import shared_data_zone

    lens = {v: shared_data_zone(platform_from({"dpdk": v})).len for v in ("21.11", "22.11", "23.11", "25.11")}
    assert lens == {"21.11": 64 + 32 * 6976, "22.11": 196_672, "23.11": 196_672, "25.11": 196_672}


def test_declaration_front_ends(run_json):
    decl = registry.get("ovs")
    assert decl.param("port").kind == "list"
    code, doc = run_json("ovs", "--port", "p0,mtu_request=800", "--port", "p1,mtu_request=900", "--page-size", "4K")
    assert code == 0 and doc["command"] == "ovs"
    assert doc["input"]["port"] == ["p0,mtu_request=800", "p1,mtu_request=900"]
    res = doc["results"][0]
    assert [m["name"] for mp in res["mempools"] for m in mp["memzones"]] == [
        "MP_ovs6ffa666e00011340016384",
        "RG_MP_ovs6ffa666e00011340016384",
        "MP_ovs6ffa666e00011340016384_0",
    ]
    assert res["memzones"] == [{"name": "rte_eth_dev_data", "len": 196672, "role": "ethdev shared data"}]
    json.dumps(doc)


def test_advice_is_the_plan_page_model(run_json, tmp_path):
    from mpcalc.service.plan import load, plan

    code, doc = run_json("ovs", "--port", "dpdk0", "--port", "dpdk1,mtu_request=9000", "--pmd-cpu-mask", "0x6")
    advice = doc["results"][0]["details"]["advice"]
    # the same ports as a plan item: the plan's own page model gives the same pages and settings
    toml = tmp_path / "ovs.toml"
    toml.write_text('[[ovs]]\nname = "br0"\nport = ["dpdk0", "dpdk1,mtu_request=9000"]\npmd_cpu_mask = "0x6"\n')
    report = plan(*load(toml))
    pages = report.sockets[0].pages
    assert code == 0 and advice["pages"] == {"0": pages}
    assert advice["dpdk-socket-mem"] == report.settings()["socket_mem"] == str(pages * 2)
    assert advice["ovs-vsctl"].endswith(f"other_config:dpdk-socket-mem={pages * 2}")
    # heap bytes + EAL's own, in 2 MiB pages (IOVA as PA's extra chunk headers within the last page here)
    assert pages * (2 << 20) >= report.sockets[0].heap_bytes + report.sockets[0].eal_heap
    none = run_json("ovs", "--port", "dpdk0", "--page-size", "none")[1]["results"][0]["details"]["advice"]
    assert none["pages"] is None


def test_every_format(run):
    for fmt in ("table", "csv", "markdown", "tsv"):
        code, out, _ = run("ovs", "--port", "dpdk0", "--port", "vhu0,type=dpdkvhostuser", "--format", fmt)
        assert code == 0 and "MP_ovs" in out and "dpdk-socket-mem" in out, fmt


#: README "OVS's own worked examples, recomputed": (ports, per-port, mask, mbufs, object size, pool bytes, pages)
GUIDE = [
    (["dpdk0"], False, None, 262144, 3008, 794_000_552, 379),
    (["dpdk0,mtu_request=1800"], False, None, 262144, 3008, 794_000_552, 379),
    (["dpdk0,mtu_request=6000"], False, None, 262144, 7104, 1_868_837_032, 892),
    (["dpdk0,mtu_request=9000"], False, None, 262144, 10176, 2_673_979_048, 1276),
    (["dpdk0"], True, "0x1", 22560, 3008, 69_201_576, 34),
    (["dpdk0,mtu_request=6000"], True, "0x3", 24608, 7104, 176_264_168, 85),
    (["dpdk0,mtu_request=9000,n_rxq=2"], True, "0x3", 26688, 10176, 273_022_504, 131),  # the guide: 26,656
    (["dpdk0,mtu_request=1200"], False, None, 262144, 3008, 794_000_552, 379),  # the guide's table: 16,384
]


@pytest.mark.parametrize(("ports", "per_port", "mask", "count", "obj", "pool_bytes", "pages"), GUIDE)
def test_readme_guide_examples(ports, per_port, mask, count, obj, pool_bytes, pages):
    from mpcalc.service.pages_ovs import advice

    p = Platform()
    r = size([parse_port(t) for t in ports], per_port, mask, None, p)
    mp = r.mempools[0]
    assert (mp.count, mp.objsz.total_size, mp.total_bytes) == (count, obj, pool_bytes)
    assert advice(r, p)["pages"] == {"0": pages}


def test_shared_mempool_config():
    # OVS's guide: MTU 9000 on every NUMA, then the smallest configured pool MTU that holds the port's
    r = size(
        [Port("p0", mtu_request=1500), Port("p1", mtu_request=800), Port("p2", mtu_request=9300)],
        False,
        None,
        None,
        P4K,
        shared_mempool_config="9000,700:0",
    )
    ports = r.details["ports"]
    assert ports["p0"]["pool_mtu"] == 9326 and ports["p1"]["pool_mtu"] == 1134 and ports["p2"]["pool_mtu"] == 10350
    assert r.mempools[0].elt_size == 128 + 576 + 9344  # the 9000 pool's room
    bad = size([Port("p0")], False, None, None, P4K, shared_mempool_config="9000,x:1")
    # OVS warns, ignores the whole list and runs with the default pools (issue 26)
    assert bad.ok and bad.details["ports"]["p0"]["pool_mtu"] == 2158
    assert "User configured shared mempools will not be used." in bad.details["notes"][0]
    with pytest.raises(InputError, match=r"OVS 3\.0"):
        size([Port("p0")], False, None, None, platform_from({"dpdk": "21.11"}), shared_mempool_config="9000")
    # per-port memory ignores it
    assert (
        size([Port("p0")], True, None, None, P4K, shared_mempool_config="9000").details["ports"]["p0"]["pool_mtu"]
        == 2158
    )
