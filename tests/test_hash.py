"""rte_hash: figures measured on the real DPDK 22.11 (tests/conformance/test_tables_real.py) and the rules read
in DPDK's source."""

from __future__ import annotations

import pytest

from mpcalc.dpdk.core.platform import make_platform
from mpcalc.dpdk.objects import hash as dpdk_hash
from mpcalc.dpdk.objects.objflags import HASH_FLAGS

X86 = make_platform()
ARM = make_platform(arch="arm64")


@pytest.mark.parametrize(
    "flags,heap,zones,count",
    [
        (0, 50944, ["RG_HT_h"], 7),
        (0x2, 405568, ["RG_HT_h"], 9),  # per-lcore caches: 127 x 63 more key slots, 128 x 320 B, a rwlock
        (0x8, 60992, ["RG_HT_h", "RG_HT_EXT_h"], 10),
        (0x28, 65280, ["RG_HT_h", "RG_HT_EXT_h"], 11),
    ],
)
def test_as_measured(flags, heap, zones, count):
    r = dpdk_hash.size("h", 1024, 16, flags, X86)
    assert r.heap_bytes == heap and [m.name for m in r.memzones] == zones
    assert len(r.allocations) + len(r.memzones) == count and r.ok


def test_refusals():
    for entries, key_len, flags in ((7, 16, 0), ((1 << 30) + 1, 16, 0), (8, 0, 0), (8, 4, 0x40), (8, 4, 0x24)):
        assert dpdk_hash.size("h", entries, key_len, flags, X86).errors[0].errno == "EINVAL"


def test_2_30_entries_pass_the_check_but_not_the_ring():
    r = dpdk_hash.size("h", 1 << 30, 16, 0, X86)
    assert [e.errno for e in r.errors] == ["EINVAL"] and "ring" in r.errors[0].reason and not r.memzones
    assert dpdk_hash.size("h", (1 << 30) - 1, 16, 0, X86).ok


def test_key_length_wraps():
    assert dpdk_hash.size("h", 8, 2**32 - 20, 0, X86).errors[0].errno == "EUNSET"
    hazard = dpdk_hash.size("h", 8, 2**32 - 1, 0, X86)
    assert [e.errno for e in hazard.errors] == [None] and hazard.details["key_entry_size"] == 16


def test_arm64_lines_and_lcores():
    r = dpdk_hash.size("h", 1024, 16, 0x2, ARM)
    caches = next(a for a in r.allocations if a.name == "local_free_slots")
    assert caches.size == 256 * 384 and r.details["num_key_slots"] == 1024 + 255 * 63 + 1


def test_ring_names_are_cut_and_26_07_refuses_long_names():
    name = "x" * 30
    r = dpdk_hash.size(name, 64, 8, 0x8, X86)
    assert [m.name for m in r.memzones] == ["RG_HT_" + "x" * 25, "RG_HT_EXT_" + "x" * 21]
    assert dpdk_hash.size("y" * 32, 64, 8, 0, make_platform(dpdk="26.07")).errors[0].errno == "ENAMETOOLONG"


def test_hash_command_and_flags_all(run_json):
    code, doc = run_json("hash", "--entries", "1M", "--key-len", "16", "--extra-flags", "all")
    assert code == 0 and len(doc["results"]) == len(HASH_FLAGS.combinations()) == 12
    code, doc = run_json("hash", "--entries", "1024", "--key-len", "16", "--flags", "ext_table")
    assert doc["results"][0]["flags"] == ["ext_table"]
