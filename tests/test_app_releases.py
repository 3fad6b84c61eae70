"""mpcalc app: what changes with the release (apps/struct_sizes.py), the anon pool's mmap, DPDK's type strings."""

from __future__ import annotations

import pytest

from mpcalc.dpdk import apps
from mpcalc.dpdk.apps.testpmd import ANON_ROLE
from mpcalc.dpdk.core.errors import InputError
from mpcalc.dpdk.core.platform import Platform

NULL = ["-l", "0-1", "--no-huge", "-m", "1024", "--no-pci", "--vdev", "net_null0"]
TAPS = ["-l", "0", "--no-huge", "-m", "1024", "--no-pci", "--vdev", "net_tap0,iface=a", "--vdev", "net_tap1,iface=b"]
L3 = ["-p", "0x3", "--config=(0,0,0),(1,0,0)"]


def _size(argv: list[str], release: str = "22.11"):
    return apps.size(argv, Platform(dpdk=release))


def test_anon_objects_are_an_mmap_row_outside_the_heap():
    base = _size(["dpdk-testpmd", *NULL, "--", "-i", "--total-num-mbufs=5000", "--mp-alloc=anon"])
    (mp,) = [m for m in base.mempools if m.name == "mb_pool_0"]
    (anon,) = [a for a in mp.allocations if a.role == ANON_ROLE]
    assert (anon.name, anon.size) == ("mb_pool_0 objects", 20_480_639)  # 2368 + 4999 x 4 KiB + 2367
    assert not any(z.name == "MP_mb_pool_0_0" for z in mp.memzones)
    assert base.heap_bytes < anon.size <= base.total_bytes  # listed and totalled, not on the heap
    assert any("outside every memzone and the hugepage heap" in n for n in base.details["notes"])
    native = _size(["dpdk-testpmd", *NULL, "--", "-i", "--total-num-mbufs=5000"])
    assert base.details["allocation_count"] == native.details["allocation_count"]


def test_fib_tables_under_dpdk_type_strings():
    res = _size(["dpdk-l3fwd", *TAPS, "--", *L3, "--lookup=fib"])
    names = [a.name for a in res.allocations]
    assert "%p of rte_fib IPV4_L3FWD_FIB_0, 7 chars" in names and "DP_IPV4_L3FWD_FIB_0" not in names
    assert "FIB6_TAILQ_ENTRY" not in names and names.count("FIB_TAILQ_ENTRY") == 2
    lpm = _size(["dpdk-l3fwd", *TAPS, "--", *L3, "--lookup=lpm"])
    null = [a for a in lpm.allocations if a.name == "(null)"]
    assert {a.role.split(":")[0] for a in null} >= {"rules_tbl", "tbl8", "tbl8_pool", "tbl8_hdrs", "intr_handle"}


def test_l3fwd_cache_and_burst_per_release():
    for rel, cache in (("23.11", 256), ("24.11", 512)):
        res = _size(["dpdk-l3fwd", *TAPS, "--", *L3], rel)
        assert [m.cache_size for m in res.mempools if m.name == "mbuf_pool_0:0"] == [cache]
    res = _size(["dpdk-l3fwd", *TAPS, "--", *L3, "--mbcache", "64"], "24.11")
    assert [m.cache_size for m in res.mempools if m.name == "mbuf_pool_0:0"] == [64]
    with pytest.raises(InputError, match=r"from DPDK 24\.11"):
        _size(["dpdk-l3fwd", *TAPS, "--", *L3, "--mbcache", "64"], "23.11")
    with pytest.raises(InputError, match="RX checksum offload"):
        _size(
            ["dpdk-l3fwd", "-l", "0", "--no-huge", "--vdev", "net_null0", "--", "-p", "0x1", "--config=(0,0,0)"],
            "23.11",
        )
    relax = [
        "dpdk-l3fwd",
        "-l",
        "0",
        "--no-huge",
        "--vdev",
        "net_null0",
        "--",
        "-p",
        "0x1",
        "--config=(0,0,0)",
        "--relax-rx-offload",
    ]
    with pytest.raises(InputError, match="cannot parse packet type"):
        _size(relax, "23.11")
    assert _size([*relax, "--parse-ptype"], "23.11").ok


def test_release_facts_of_eal_ethdev_and_testpmd():
    def heap(rel: str, *app: str) -> tuple[set[str], set[str]]:
        res = _size(["dpdk-testpmd", "-l", "0-1", "--no-huge", "--vdev", "net_tap0,iface=x", "--", "-i", *app], rel)
        return {a.name for a in res.allocations}, {z.name for z in res.memzones}

    _, zones22 = heap("22.11")
    allocs23, zones23 = heap("23.11")
    allocs24, zones24 = heap("24.11")
    assert "rte_mbuf_dyn" not in zones22 and "rte_mbuf_dyn" in zones23 and "rte_mbuf_dyn" in zones24
    assert "rte_service_core_states" in allocs23 and "rte_service_core_states" not in allocs24
    assert "x" in allocs23 and "x" not in allocs24  # tap's process_private: libc malloc from 24.11
    with pytest.raises(InputError, match=r"from DPDK 23\.11"):
        heap("22.11", "--disable-flow-flush")
    with pytest.raises(InputError, match="hairpin"):
        heap("24.11", "--hairpin-map=0:0:1:0:1")


def test_release_facts_of_21_11_25_11_and_26_07():
    tap = ["dpdk-testpmd", "-l", "0-1", "--no-huge", "--vdev", "net_tap0,iface=x", "--", "-i", "--rxq=2", "--txq=2"]

    def tap_allocs(rel: str, *more: str):
        return [a for a in _size([*tap, *more], rel).allocations if a.name == "net_tap0"]

    # 21.11: 11 ethdev events, so 32 x 11 callbacks; 22.11 and later 15
    for rel, events in (("21.11", 11), ("22.11", 15), ("26.07", 15)):
        res = _size(["dpdk-testpmd", *NULL, "--", "-i"], rel)
        assert sum(a.name == "INTR_USER_CALLBACK" for a in res.allocations) == 32 * events, rel
    # net_tap up to 25.11: the queues inside the internals, an iovec array per rx queue
    old = tap_allocs("25.11")
    assert [a.role for a in old].count("port 0 rx iovecs") == 2 and not any("tx queue" in a.role for a in old)
    # 26.07: struct rx_queue + (segments + 1) iovecs per rx queue, struct tx_queue per tx queue, mac_addrs
    new = tap_allocs("26.07")
    rxq = [a for a in new if "rx queue" in a.role]
    assert [a.size for a in rxq] == [80 + 2 * 16] * 2
    assert [a.size for a in new if "tx queue" in a.role] == [88, 88]
    assert [a.size for a in new if a.role == "mac_addrs"] == [16 * 6]
    assert [a.size for a in new if a.role == "dev_private"] == [144]
    # the MTU and the pool's data room give the segments: 9000 B over 2,048 + 2,176 + ... B is 5
    assert {a.size for a in tap_allocs("26.07", "--max-pkt-len=9000") if "rx queue" in a.role} == {80 + 6 * 16}
    assert {a.size for a in tap_allocs("26.07", "--mbuf-size=1024") if "rx queue" in a.role} == {80 + 3 * 16}
    with pytest.raises(InputError, match="no room after the headroom"):
        tap_allocs("26.07", "--mbuf-size=128")

    # null's queues count bytes from 25.11: 32 KiB more internals
    def null_private(rel: str) -> int:
        (a,) = [a for a in _size(["dpdk-testpmd", *NULL, "--", "-i"], rel).allocations if a.role == "dev_private"]
        return a.size

    assert null_private("25.11") - null_private("24.11") == 2 * 1024 * 16


def test_options_per_release():
    null = ["dpdk-testpmd", *NULL, "--", "-i"]
    assert _size([*null, "--enable-rss"], "25.11").ok
    with pytest.raises(InputError, match=r"from DPDK 25\.11"):
        _size([*null, "--enable-rss"], "24.11")
    with pytest.raises(InputError, match="Invalid option combination"):
        _size([*null, "--enable-rss", "--disable-rss"], "25.11")
    assert _size([*null, "--txonly-flows=8"], "26.07").ok
    with pytest.raises(InputError, match=r"from DPDK 26\.07"):
        _size([*null, "--txonly-flows=8"], "25.11")
    with pytest.raises(InputError, match=r"1\.\.64"):
        _size([*null, "--txonly-flows=65"], "26.07")
    assert _size([*null, "--pkt-filter-mode=perfect"], "21.11").ok
    with pytest.raises(InputError, match=r"up to DPDK 21\.11"):
        _size([*null, "--pkt-filter-mode=perfect"], "22.11")
    with pytest.raises(InputError, match=r"from DPDK 22\.11"):  # the release first, then what is not modelled
        _size([*null, "--multi-rx-mempool"], "21.11")
    with pytest.raises(InputError, match="command file"):
        _size([*null, "--cmdline-file-noecho", "x"], "25.11")
    l3 = ["dpdk-l3fwd", *TAPS, "--", *L3]
    assert _size([*l3, "--eth-link-speed", "10000"], "25.11").ok
    with pytest.raises(InputError, match=r"from DPDK 25\.11"):
        _size([*l3, "--eth-link-speed", "10000"], "24.11")
    with pytest.raises(InputError, match=r"from DPDK 22\.11"):
        _size([*l3, "--rule_ipv4", "r.txt"], "21.11")
    with pytest.raises(InputError, match="Accepted options: em, lpm, fib"):
        _size([*l3, "--lookup=acl"], "21.11")
    with pytest.raises(InputError, match=r"64\.\.9600"):
        _size([*l3, "--max-pkt-len", "10000"], "26.07")


def test_eal_options_per_release():
    def eal(rel: str, *opts: str):
        return _size(["dpdk-testpmd", *opts, "--no-huge", "--no-pci", "--vdev", "net_null0", "--", "-i"], rel)

    # 25.11's long names of the short options mean the same
    short = eal("25.11", "-l", "0-1", "-m", "1024", "-n", "4")
    long = eal("25.11", "--lcores", "0-1", "--memory-size", "1024", "--memory-channels", "4")
    assert short.heap_bytes == long.heap_bytes and long.details["eal"]["memory_mb"] == 1024
    assert long.details["eal"]["channels"] == 4
    with pytest.raises(InputError, match=r"in DPDK 25\.11 and later"):
        eal("24.11", "-l", "0-1", "--memory-size", "1024")
    # from 25.11 -l is --lcores: mappings and -R renumbering
    assert eal("25.11", "-l", "(0-2)@0").details["eal"]["lcores"] == [0, 1, 2]
    with pytest.raises(InputError, match="core list"):
        eal("24.11", "-l", "(0-2)@0")
    assert eal("25.11", "-l", "4-5", "-R").details["eal"]["lcores"] == [0, 1]
    assert eal("26.07", "-l", "4-5", "--remap-lcore-ids=8").details["eal"]["lcores"] == [8, 9]
    # 26.07's options; --log-color from 24.11; service cores are refused by name at every release
    assert eal("26.07", "-l", "0-1", "--pagesz-mem", "2M:1G").ok
    with pytest.raises(InputError, match=r"in DPDK 26\.07 and later"):
        eal("25.11", "-l", "0-1", "-A")
    with pytest.raises(InputError, match="which devices are probed"):
        eal("26.07", "-l", "0-1", "--no-auto-probing")
    with pytest.raises(InputError, match=r"in DPDK 24\.11 and later"):
        eal("23.11", "-l", "0-1", "--log-color")
    for rel in ("21.11", "26.07"):
        with pytest.raises(InputError, match="service cores"):
            eal(rel, "-l", "0-1", "-S", "2")
