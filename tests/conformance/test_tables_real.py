"""rte_ring, the mempool drivers, rte_lpm, rte_lpm6 and rte_hash against the real DPDK, byte for byte (issue 13).

Randomized grids (tables_grid.py) of valid and refused configurations: sizes near every power of two and at
the 32-bit limits, every flag, names at DPDK's limits.  Each case is created in the probe and freed again.
"""

from __future__ import annotations

from mpcalc.dpdk.objects import ring as dpdk_ring

from . import grid, tables_grid

RING_CASES = 1500
RINGMEMSIZE_CASES = 600
OPS_CASES = 700


def _platform(probe):  # type: ignore[no-untyped-def]
    return grid.platform_for(probe.platform, 4, 1, probe.platform["page_size"])


def test_probe_sizes_match_the_model(probes):
    from mpcalc.dpdk.objects.mempool.ops import STACK_STRUCT_LINES

    probe = probes[(4, 1)]
    p = _platform(probe)
    assert probe.platform["sizeof"]["rte_stack"] == STACK_STRUCT_LINES * p.cache_line


def test_ring_grid(probes):
    """rte_ring_create_elem over counts near every power of two and the 32-bit edges, every flag, esizes."""
    probe = probes[(4, 1)]
    cases = tables_grid.ring_cases(RING_CASES)
    failures, replies = tables_grid.run_cases(probe, cases, _platform(probe))
    assert not failures, f"{len(failures)} of {len(cases)} differ:\n" + "\n".join(failures[:20])
    refused = sum(not r["ok"] for r in replies)
    broken = sum(r["ok"] and r["size"] == 0 for r in replies)
    assert 100 < refused < len(cases) // 2 and broken > 20, (refused, broken)


def test_ring_memsize_to_the_32_bit_limits(probes):
    """rte_ring_get_memsize_elem for every esize and count up to 2^32 - 1 (no allocation)."""
    probe = probes[(4, 1)]
    p = _platform(probe)
    cases = tables_grid.ringmemsize_cases(RINGMEMSIZE_CASES)
    replies = probe.run_many([f"ringmemsize {e} {c}" for e, c in cases])
    bad = []
    for (esize, count), reply in zip(cases, replies, strict=True):
        size, err = dpdk_ring.memsize_elem(esize, count, p)
        mine = size if err is None else -22
        if mine != reply["memsize"]:
            bad.append((esize, count, mine, reply["memsize"]))
    assert not bad, bad[:10]


def test_mempool_drivers_grid(probes):
    """rte_mempool_create_empty + set_ops_byname + populate_default, and rte_pktmbuf_pool_create_by_ops, for
    every driver: the ring or stack memzone, the tailq entries, names at the stack's shorter limit."""
    probe = probes[(4, 1)]
    cases = tables_grid.ops_cases(OPS_CASES)
    failures, replies = tables_grid.run_cases(probe, cases, _platform(probe))
    assert not failures, f"{len(failures)} of {len(cases)} differ:\n" + "\n".join(failures[:20])
    by_ops = {ops: sum(r["ok"] and r["ops_name"] == ops for r in replies) for ops in tables_grid.OPS}
    assert all(n > 20 for n in by_ops.values()), by_ops
    stacks = [r for c, r in zip(cases, replies, strict=True) if c.ops in ("stack", "lf_stack")]
    assert any(r["errno"] == "ENAMETOOLONG" for r in stacks)


LPM_CASES = 300
LPM6_CASES = 250
HASH_CASES = 900
ROUTE_SETS = 60


def test_lpm_grid(probes):
    """rte_lpm_create: the 64 MiB LPM_<name>, the rules and tbl8 tables and their uint32_t wraps."""
    probe = probes[(4, 1)]
    cases = tables_grid.lpm_cases(LPM_CASES)
    failures, replies = tables_grid.run_cases(probe, cases, _platform(probe))
    assert not failures, f"{len(failures)} of {len(cases)} differ:\n" + "\n".join(failures[:20])
    errnos = {r["errno"] for r in replies}
    assert {"EINVAL", "ENOMEM", None} <= errnos and sum(r["ok"] for r in replies) > LPM_CASES // 2


def test_lpm6_grid(probes):
    """rte_lpm6_create: its rules hash (ring, buckets, keys), tbl8 pool and headers, LPM_<name>."""
    probe = probes[(4, 1)]
    cases = tables_grid.lpm6_cases(LPM6_CASES)
    failures, replies = tables_grid.run_cases(probe, cases, _platform(probe))
    assert not failures, f"{len(failures)} of {len(cases)} differ:\n" + "\n".join(failures[:20])
    assert sum(r["ok"] for r in replies) > LPM6_CASES // 2


def test_hash_grid(probes):
    """rte_hash_create over entries near every power of two and the limits, key lengths to the 32-bit wrap,
    every extra flag."""
    probe = probes[(4, 1)]
    cases = tables_grid.hash_cases(HASH_CASES)
    failures, replies = tables_grid.run_cases(probe, cases, _platform(probe))
    assert not failures, f"{len(failures)} of {len(cases)} differ:\n" + "\n".join(failures[:20])
    ok = sum(r["ok"] for r in replies)
    assert HASH_CASES // 3 < ok < HASH_CASES - 100, ok


def _replay(probe, family: int, sets) -> list[str]:  # type: ignore[no-untyped-def]
    """Create a table just too small (or just big enough) for each route set, add the routes in the probe
    and compare the first failure with the planner's."""
    import random

    from mpcalc.dpdk.objects import lpm_routes

    rng = random.Random(family)
    kind = "lpm" if family == 4 else "lpm6"
    failures = []
    for i, routes in enumerate(sets):
        plan = lpm_routes.plan(lpm_routes.parse([f"{a}/{d} {nh}" for a, d, nh in routes], family, "<grid>"), family)
        rules = max(1, plan.rules_needed - rng.choice((0, 0, 1, 3)))
        tbl8 = max(1, plan.tbl8_needed - rng.choice((0, 0, 1, 2)))
        name = f"{kind}add{i}"
        created = probe.run(f"{kind} {name} {rules} {tbl8} keep")
        assert created["ok"], created
        reply = probe.run(f"lpmadd {name} {family} {len(routes)}", [f"{a}/{d} {nh}" for a, d, nh in routes])
        probe.run(f"free {name}")
        mine = plan.failure(rules, tbl8)
        expected = (
            (None, None) if not mine or mine[0].errno is None else (int(mine[0].reason.split()[1]) - 1, mine[0].errno)
        )
        real = (reply["failed_at"], reply["errno"])
        if expected != real:
            failures.append(
                f"set {i} ({len(routes)} routes, max_rules {rules}, tbl8 {tbl8}): mpcalc {expected} "
                f"!= DPDK {real}: {mine}"
            )
    return failures


def test_lpm_route_replay(probes):
    """lpm --routes-file: the first rte_lpm_add that fails in a table one rule or tbl8 group too small."""
    failures = _replay(probes[(4, 1)], 4, tables_grid.route_sets(ROUTE_SETS, 4))
    assert not failures, "\n".join(failures[:10])


def test_lpm6_route_replay(probes):
    """lpm6 --routes-file: rte_lpm6_add's simulate_add (tbl8 groups first) and its rules."""
    failures = _replay(probes[(4, 1)], 6, tables_grid.route_sets(ROUTE_SETS, 6))
    assert not failures, "\n".join(failures[:10])


def test_inspect_recognises_the_tables_in_real_dumps(probe_binary):
    """A live EAL with a stack pool, a ring, a hash and an lpm6: rte_mempool_dump + rte_memzone_dump read by
    mpcalc inspect, every memzone recognised and explained."""
    from mpcalc import inspect as ins

    from .oracle import Probe

    with Probe(probe_binary) as probe:
        for cmd in (
            "poolops stk 1000 64 0 0 0 stack keep",
            "poolops lfs 777 100 0 0 0 lf_stack keep",
            "ring rx 4096 8 0 keep",
            "ring tx 1000 16 4 keep",
            "hash flows 65536 16 0x8 keep",
            "lpm6 v6 1000 256 keep",
            "lpm v4 1000 256 keep",
        ):
            assert probe.run(cmd)["ok"], cmd
        text = probe.run("dump")["text"] + probe.run("mzdump")["text"]
    doc = ins.inspect_text(text).to_dict()
    pools = {p["name"]: p for p in doc["pools"]}
    assert pools["stk"]["explained"] and pools["lfs"]["explained"]
    assert [m["role"] for m in pools["stk"]["memzones"]] == ["header", "stack", "objects"]
    others = {z["name"]: z for z in doc["other_memzones"]}
    assert {n: z.get("object") for n, z in others.items() if z.get("object")} == {
        "RG_rx": "ring",
        "RG_tx": "ring",
        "RG_HT_flows": "hash",
        "RG_HT_EXT_flows": "hash",
        "RG_HT_LRH_v6": "lpm6",
    }
    assert others["RG_rx"]["explained"] and "4,096 slots" in others["RG_rx"]["text"]
    # a memzone dump gives only the length: 1,024 slots of 16 B read as the same bytes of 8-byte slots
    assert "2,048 slots of 8 B" in others["RG_tx"]["text"] and others["RG_tx"]["explained"]
