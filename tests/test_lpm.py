"""rte_lpm and rte_lpm6 and their route-file replays: figures measured on the real DPDK 22.11
(tests/conformance/test_tables_real.py, test_tables_arm64.py) and per-release rules from DPDK's source."""

from __future__ import annotations

from pathlib import Path

from mpcalc.dpdk.core.platform import make_platform
from mpcalc.dpdk.objects import lpm, lpm6, lpm_routes

X86 = make_platform()
ARM = make_platform(arch="arm64")
ROOT = Path(__file__).resolve().parents[1]


def test_lpm_as_measured():
    r = lpm.size("l1", 1000, 256, X86)
    assert [(a.name, a.size) for a in r.allocations] == [
        ("LPM_TAILQ_ENTRY", 24),
        ("LPM_l1", (1 << 26) + 448),
        ("rules_tbl", 8000),
        ("tbl8", 262144),
    ]
    assert r.heap_bytes == 67_380_032 and not r.memzones and r.ok
    assert lpm.size("l1", 1000, 256, ARM).allocations[1].size == (1 << 26) + 512


def test_lpm_refusals():
    assert lpm.size("l", 0, 256, X86).errors[0].errno == "EINVAL"
    assert lpm.size("l", 10, (1 << 24) + 1, X86).errors[0].errno == "EINVAL"
    zero = lpm.size("l", 10, 0, X86)  # rte_zmalloc of 0 bytes
    assert [e.errno for e in zero.errors] == ["ENOMEM"] and zero.total_bytes == 0


def test_lpm_uint32_wraps():
    wrapped = lpm.size("l", (1 << 29) + 10, 1 << 22, X86)
    assert [e.errno for e in wrapped.errors] == ["ENOMEM"]  # tbl8 wraps to 0 bytes
    small = lpm.size("l", (1 << 29) + 10, (1 << 22) + 3, X86)
    assert [e.errno for e in small.errors] == [None, None]
    assert [a.size for a in small.allocations][2:] == [80, 3072]


def test_lpm_long_names_cut_then_refused_in_26_07():
    name = "n" * 40
    assert lpm.size(name, 10, 1, X86).allocations[1].name == ("LPM_" + name)[:31]
    assert lpm.size(name, 10, 1, make_platform(dpdk="26.07")).errors[0].errno == "ENAMETOOLONG"


def test_lpm6_as_measured():
    r = lpm6.size("l61", 1000, 256, X86)
    assert r.heap_bytes == 67_442_624 and [(m.name, m.len) for m in r.memzones] == [("RG_HT_LRH_l61", 8576)]
    assert len(r.allocations) + len(r.memzones) == 11 and r.details["rule_hash_entries"] == 1264


def test_lpm6_rule_hash_conversion_per_architecture():
    x86 = lpm6.size("l", 3579139370, 16, X86)
    assert x86.details["rule_hash_entries"] == 12 and [e.errno for e in x86.errors] == [None]
    arm = lpm6.size("l", 3579139370, 16, ARM)
    assert [e.errno for e in arm.errors] == ["EINVAL"]


def test_lpm6_refusals():
    assert lpm6.size("l", 0, 1, X86).errors[0].errno == "EINVAL"
    assert lpm6.size("l", 1, (1 << 21) + 1, X86).errors[0].errno == "EINVAL"
    zero = lpm6.size("l", 100, 0, X86)
    assert [e.errno for e in zero.errors] == ["ENOMEM"] and zero.total_bytes == 0 and not zero.memzones
    big = lpm6.size("l", 894784800, 16, X86)  # 2^30 + 64 hash entries
    assert [e.errno for e in big.errors] == ["EINVAL"]


def _plan(lines, family):
    return lpm_routes.plan(lpm_routes.parse(lines, family, "<t>"), family)


def test_lpm_replay_counts_rules_and_blocks():
    p = _plan(["10.0.0.0/8 1", "10.1.2.0/25 2", "10.1.2.128/25 3", "10.1.3.0/32 4", "10.1.2.0/25 9"], 4)
    assert (p.rules_needed, p.tbl8_needed) == (4, 2)
    assert p.failure(4, 2) == []
    assert p.failure(3, 2)[0].errno == "ENOSPC" and "route 4" in p.failure(3, 2)[0].reason
    assert "route 4" in p.failure(4, 1)[0].reason  # 10.1.3.0/24 is the second block


def test_lpm6_replay_levels():
    p = _plan(["2001:db8::/48 1", "2001:db8:0:1::/64 2", "2002::/32 3"], 6)
    # /48: 3 groups (bits 24-31, 32-39, 40-47); /64 shares them and adds 2; /32 in another /24: 1
    assert (p.rules_needed, p.tbl8_needed) == (3, 6)
    assert "route 2" in p.failure(3, 4)[0].reason
    assert "route 2" in p.failure(1, 6)[0].reason  # rules checked after the tbl8 groups


def test_default_route_is_refused():
    p = _plan(["0.0.0.0/0 1", "10.0.0.0/8 2"], 4)
    assert p.failure(10, 10)[0].errno == "EINVAL"


def test_wide_next_hops_are_truncated():
    hazard = _plan([f"10.0.0.0/8 {1 << 24}"], 4).failure(10, 1)
    assert [e.errno for e in hazard] == [None] and "24" in hazard[0].reason
    assert _plan([f"2001:db8::/32 {1 << 21}"], 6).failure(10, 1)[0].errno is None


def test_lpm_commands(run_json):
    code, doc = run_json("lpm")
    assert code == 0 and doc["input"]["max_rules"] == 1024 and doc["input"]["tbl8"] == 256
    code, doc = run_json("lpm", "--routes-file", str(ROOT / "examples/routes/ipv4-small.txt"))
    assert code == 1 and doc["results"][0]["errors"][0]["errno"] == "EINVAL"  # its default route
    code, doc = run_json("lpm6", "--routes-file", str(ROOT / "examples/routes/ipv6-small.txt"), "--max-rules", "100")
    assert doc["results"][0]["details"]["route_plan"]["tbl8_needed"] == doc["input"]["tbl8"]
