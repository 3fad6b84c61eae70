"""mpcalc app: what changes with the release (apps/releases.py), the anon pool's mmap, DPDK's type strings."""

from __future__ import annotations

import pytest

from mpcalc.dpdk import apps
from mpcalc.dpdk.apps.testpmd import ANON_ROLE
from mpcalc.dpdk.errors import InputError
from mpcalc.dpdk.platform import Platform

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
        _size(["dpdk-l3fwd", "-l", "0", "--no-huge", "--vdev", "net_null0", "--", "-p", "0x1", "--config=(0,0,0)"],
              "23.11")
    relax = ["dpdk-l3fwd", "-l", "0", "--no-huge", "--vdev", "net_null0", "--", "-p", "0x1", "--config=(0,0,0)",
             "--relax-rx-offload"]
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
