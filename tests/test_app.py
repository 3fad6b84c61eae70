"""mpcalc app: a whole DPDK application from its own command line (issue 14), offline.

The figures asserted here were read off real runs (Debian's 22.11.11 dpdk-testpmd and an l3fwd built from
dpdk-doc's examples, --no-huge, telemetry and testpmd's dump_socket_mem); tests/conformance/test_apps_real.py
runs the programs again and compares every memzone.
"""

from __future__ import annotations

import json

import pytest

from mpcalc.dpdk import apps
from mpcalc.dpdk.apps import eal, testpmd
from mpcalc.dpdk.core.errors import InputError
from mpcalc.dpdk.core.platform import Platform

NOHUGE = ["--no-huge", "-m", "1024", "--no-pci"]


def size(*argv: str):
    return apps.size(list(argv), Platform())


def zones(result) -> dict[str, int]:
    return {z.name: z.len for z in result.memzones}


def test_eal_lcore_spellings():
    assert eal.parse_corelist("0-2,5") == (0, 1, 2, 5)
    assert eal.parse_coremask("0x5") == (0, 2)
    assert eal.parse_lcores("(0-2)@0,3@1") == (0, 1, 2, 3)
    e, rest = eal.parse_eal(["dpdk-testpmd", "-l", "0-3", "--main-lcore", "2", "-n", "2", "--", "-i"])
    assert e.workers == (0, 1, 3) and e.channels == 2 and rest == ["-i"]


def test_testpmd_null_matches_the_real_run():
    r = size("dpdk-testpmd", "-l", "0-1", *NOHUGE, "--vdev", "net_null0", "--", "-i", "--total-num-mbufs=8192")
    assert zones(r) == {
        "rte_eth_dev_data": 0x30040,
        "rte_pdump_stats": 0x400040,
        "MP_mb_pool_0": 0x102100,
        "RG_MP_mb_pool_0": 0x20180,
        "MP_mb_pool_0_0": 0x2000280,
        "RTE_METRICS": 0x15040,
    }
    # dump_socket_mem: alloc 43.871277 MB in 505 elements
    assert r.heap_bytes == 46_002_368 and r.details["allocation_count"] + r.details["memzone_count"] == 505


def test_testpmd_default_mbuf_count_and_ring_ports():
    r = size(
        "dpdk-testpmd",
        "--lcores",
        "(0-2)@0",
        *NOHUGE,
        "--vdev",
        "net_ring0",
        "--vdev",
        "net_ring1",
        "--",
        "-i",
        "--rxq=2",
        "--txq=2",
    )
    # (RX_DESC_MAX + 2 lcores x 250 + TX_DESC_MAX + MAX_PKT_BURST) x RTE_MAX_ETHPORTS
    assert r.details["mbufs_per_pool"] == (2048 + 2 * 250 + 2048 + 512) * 32 == 163_456
    z = zones(r)
    assert sum(1 for n in z if n.startswith("RG_ETH_RXTX")) == 32 and z["RG_ETH_RXTX15_net_ring1"] == 0x2180
    assert round(r.heap_bytes / 2**20, 6) == 652.580078  # dump_socket_mem of the real run


@pytest.mark.parametrize("mode,heap_mb", [("anon", 11.808044), ("xmem", 10.736877)])
def test_testpmd_mp_alloc_modes(mode, heap_mb):
    r = size(
        "dpdk-testpmd",
        "-l",
        "0-1",
        *NOHUGE,
        "--vdev",
        "net_null0",
        "--",
        "-i",
        "--total-num-mbufs=5000",
        f"--mp-alloc={mode}",
    )
    z = {m.name: m for m in r.memzones}
    assert ("MP_mb_pool_0_0" in z) == (mode == "xmem")  # anon: objects in anonymous memory, no memzone
    if mode == "xmem":
        assert "extmem heap" in z["MP_mb_pool_0_0"].role and z["MP_mb_pool_0_0"].len == 0x1388280
    assert round(r.heap_bytes / 2**20, 6) == heap_mb


def test_testpmd_xbuf_pinned_zones_and_second_pool_name():
    r = size(
        "dpdk-testpmd",
        "-l",
        "0-1",
        *NOHUGE,
        "--vdev",
        "net_null0",
        "--",
        "-i",
        "--total-num-mbufs=5000",
        "--mp-alloc=xbuf",
        "--mbuf-size=2048,1024",
    )
    z = zones(r)
    assert [n for n in z if "_xb_" in n] == [
        *(f"MP_mb_pool_0_xb_{i}" for i in range(5)),
        *(f"MP_mb_pool_0_1_xb_{i}" for i in range(3)),
    ]
    assert z["MP_mb_pool_0_1"] == 0x102100 and z["MP_mb_pool_0_1_0"] == 0x1A0B40
    assert testpmd.pool_name(0, 0) == "mb_pool_0" and testpmd.pool_name(1, 3) == "mb_pool_1_3"


def test_tap_gso_pools_and_lsc_interrupt():
    argv = ["dpdk-testpmd", "-l", "0-1", *NOHUGE, "--vdev", "net_tap0,iface=x", "--", "-i", "--total-num-mbufs=4096"]
    r = size(*argv)
    assert zones(r)["MP_mp_net_tap0_0"] == 0x38FC0 and round(r.heap_bytes / 2**20, 6) == 29.033447
    quiet = size(*argv, "--no-lsc-interrupt")
    assert r.heap_bytes - quiet.heap_bytes == sum(128 + (s + 63) // 64 * 64 for s in (64, 2048, 24576))


@pytest.mark.parametrize("lookup,heap", [("fib", 293_572_800), ("lpm", 240_541_824)])
def test_l3fwd_lookups_on_tap(lookup, heap):
    r = size(
        "dpdk-l3fwd",
        "-l",
        "0",
        *NOHUGE,
        "--vdev",
        "net_tap0,iface=a",
        "--vdev",
        "net_tap1,iface=b",
        "--",
        "-p",
        "0x3",
        "--config=(0,0,0),(1,0,0)",
        f"--lookup={lookup}",
    )
    assert r.heap_bytes == heap  # telemetry /eal/heap_info of the real run
    assert r.details["mbuf_pools"] == {"mbuf_pool_0:0": 8192}  # NB_MBUF's floor


@pytest.mark.parametrize(
    "argv,message",
    [
        (["dpdk-testpmd", "-l", "0", "--vdev", "net_null0", "--", "-i"], "forwarding lcore"),
        (["dpdk-testpmd", "--vdev", "net_null0", "--", "-i"], "give the lcores"),
        (["dpdk-testpmd", "-l", "0-1", "-a", "0000:01:00.0", "--", "-i"], "give --nic 0000:01:00.0=DRIVER"),
        (["dpdk-testpmd", "-l", "0-1", "--bogus", "--", "-i"], "EAL does not know"),
        (["dpdk-testpmd", "-l", "0-1", "--vdev", "net_null0", "--", "--latencystats=1"], "not modelled"),
        (["dpdk-testpmd", "-l", "0-1", "--vdev", "net_null0", "--", "--total-num-mbufs=1000"], "> 1024"),
        (
            ["dpdk-testpmd", "-l", "0-1", "--vdev", "net_failsafe0", "--", "-i"],
            "the net_failsafe driver is not modelled",
        ),
        (["dpdk-l3fwd", "-l", "0", "--vdev", "net_null0", "--", "-p", "0x1", "--config=(0,0,0)"], "checksum"),
        (["dpdk-l3fwd", "-l", "0", "--vdev", "net_tap0", "--", "-p", "0x1"], "--config"),
        (["dpdk-pktgen", "-l", "0"], "not an application"),
    ],
)
def test_what_the_model_does_not_cover_is_named(argv, message):
    with pytest.raises(InputError, match=message):
        apps.size(argv, Platform())


def test_other_releases_are_refused_by_name():
    with pytest.raises(InputError, match=r"measured on real runs.*no arm64 build"):
        apps.size(
            ["dpdk-testpmd", "-l", "0-1", "--vdev", "net_null0", "--", "-i"], Platform(dpdk="24.11", arch="arm64")
        )


def test_the_command_takes_the_command_line_after_dashes(run):
    rc, out, _ = run(
        "app",
        "--json",
        "--",
        "dpdk-testpmd",
        "-l",
        "0-1",
        "--no-pci",
        "--vdev",
        "net_null0",
        "--",
        "-i",
        "--total-num-mbufs=8192",
    )
    assert rc == 0
    res = json.loads(out)["results"][0]
    advice = res["details"]["advice"]
    assert advice["settings"]["eal_args"] == "--socket-mem 32"  # bisected: 16 pages is the smallest that starts
    assert advice["run_as"][:3] == ["dpdk-testpmd", "--socket-mem", "32"]
    assert {m["name"] for m in res["memzones"]} >= {"rte_eth_dev_data", "rte_pdump_stats", "RTE_METRICS"}


def test_a_plan_item_is_the_same_application(tmp_path, run):
    plan = tmp_path / "app.toml"
    plan.write_text(
        '[[app]]\nname = "fib"\ncommand_line = ["dpdk-l3fwd", "-l", "0", "--no-pci", "--vdev", "net_tap0", '
        '"--vdev", "net_tap1", "--", "-p", "0x3", "--config=(0,0,0),(1,0,0)", "--lookup=fib"]\n'
    )
    rc, out, _ = run("plan", str(plan), "--json")
    assert rc == 0
    doc = json.loads(out)
    assert doc["sockets"][0]["pages"] == 133 and doc["sockets"][0]["eal_heap"] == 0  # bisected: 133 is the smallest
    assert doc["settings"]["eal_args"] == "--socket-mem 266"


def test_the_table_counts_the_pages_of_the_applications_eal(run):
    """--no-huge: the application's heap is counted in 4 KiB pages, whatever the platform's page size."""
    code, out, _ = run("app", "--", "dpdk-testpmd", "-l", "0-1", "--no-huge", "--vdev", "net_null0", "--", "-i")
    assert code == 0
    assert "pages of 4K: " in out and "pages of 2M" not in out


def test_testpmd_anon_no_iova_contig_passes_the_no_iova_contig_flag():
    # testpmd: --no-iova-contig sets mempool_flags = RTE_MEMPOOL_F_NO_IOVA_CONTIG
    # (v22.11.11:app/test-pmd/parameters.c:1444-1445), which --mp-alloc=anon passes to rte_mempool_create_empty
    argv = ["dpdk-testpmd", "-l", "0-1", *NOHUGE, "--vdev", "net_null0", "--", "-i", "--mp-alloc=anon"]
    (plain,) = size(*argv).mempools
    (pool,) = size(*argv, "--no-iova-contig").mempools
    assert plain.flags == 0 and plain.ops_name == "ring_mp_mc"
    assert pool.flags == 0x20 and pool.ops_name == "ring_mp_mc"  # not SP_PUT (0x4): ring_sp_mc
    d = pool.to_dict()
    assert d["flags"] == ["no_iova_contig"] and d["effective_flags"] == ["no_iova_contig"]


def test_eal_refuses_allow_and_block_together():
    with pytest.raises(InputError, match=r"Options allow \(-a\) and block \(-b\) can't be used at the same time"):
        eal.parse_eal(["dpdk-testpmd", "-l", "0", "-a", "0000:00:03.0", "-b", "0000:00:04.0"])
    e, _ = eal.parse_eal(["dpdk-testpmd", "-l", "0", "--block", "0000:00:04.0", "-b", "0000:00:05.0"])
    assert e.pci_blocked == ["0000:00:04.0", "0000:00:05.0"] and e.to_dict()["pci_blocked"] == e.pci_blocked


def test_a_blocked_device_is_not_probed_from_devbind():
    devbind = (
        "0000:00:03.0 '82540EM Gigabit Ethernet Controller 100e' drv=uio_pci_generic unused=e1000\n"
        "0000:00:04.0 '82540EM Gigabit Ethernet Controller 100e' drv=uio_pci_generic unused=e1000\n"
    )
    argv = ["dpdk-testpmd", "-l", "0-1", "-n", "4", "--", "--total-num-mbufs=2048"]
    both = apps.size(argv, Platform(), devbind=devbind)
    one = apps.size([*argv[:5], "-b", "00:03.0", *argv[5:]], Platform(), devbind=devbind)
    assert [pt["name"] for pt in both.details["ports"]] == ["0000:00:03.0", "0000:00:04.0"]
    assert [pt["name"] for pt in one.details["ports"]] == ["0000:00:04.0"]
