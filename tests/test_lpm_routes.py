"""lpm / lpm6 --routes-file: the streamed replay of mpcalc.dpdk.objects.lpm_routes against the set-based reference
(tests/lpm_reference.py), route by route, in totals and in the first failure for any table size; every
route source; the planner's bound."""

from __future__ import annotations

import gzip
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mpcalc.dpdk.core.errors import InputError
from mpcalc.dpdk.objects import fib, fib_spec, lpm_replay, lpm_routes
from mpcalc.dpdk.objects.routes.parse import Route
from mpcalc.dpdk.objects.routes.route_table import TableBuilder
from tests.lpm_reference import reference_plan
from tests.test_routes_sources import _mrt

WIDTH = {4: 32, 6: 128}


def _mask(net: int, d: int, family: int) -> int:
    w = WIDTH[family]
    return net & (((1 << w) - 1) ^ ((1 << (w - d)) - 1))


@st.composite
def route_lists(draw, family: int):  # type: ignore[no-untyped-def]
    """Routes clustered in a few /16s (IPv4) or /32s (IPv6), so that rules repeat and tbl8 paths share
    prefixes; some depth 0, some next hops wider than the tables' bit fields."""
    w = WIDTH[family]
    anchors = draw(st.lists(st.integers(0, (1 << 16) - 1), min_size=1, max_size=4))
    depth = st.one_of(st.integers(0, w), st.integers(22, 34 if family == 4 else 72)).map(lambda d: min(d, w))
    n = draw(st.integers(0, 60))
    routes = []
    for line in range(1, n + 1):
        d = draw(depth)
        low = draw(st.one_of(st.integers(0, 3), st.integers(0, (1 << (w - 16)) - 1)))
        if family == 6:
            low = low << 64 | draw(st.integers(0, 3)) << 40 if draw(st.booleans()) else low
        net = _mask(draw(st.sampled_from(anchors)) << (w - 16) | low % (1 << (w - 16)), d, family)
        nh = draw(st.one_of(st.none(), st.integers(0, 9), st.integers(0, (1 << 25) - 1)))
        routes.append(Route(network=net, depth=d, next_hop=nh, line=line))
    return routes


def _table(routes: list[Route], family: int):  # type: ignore[no-untyped-def]
    b = TableBuilder(family, "t")
    if routes:
        b.add_routes(routes)
    return b.table()


def _same(routes: list[Route], family: int, sizes: list[tuple[int, int]]) -> None:
    fast = lpm_routes.plan(_table(routes, family), family)
    ref = reference_plan(routes, family)
    n = len(routes)
    assert [fast.new_rule(i) for i in range(n)] == ref.new_rule
    assert [fast.new_groups(i) for i in range(n)] == ref.new_groups
    assert [fast.bad_depth(i) for i in range(n)] == ref.bad_depth
    assert (fast.rules_needed, fast.tbl8_needed) == (ref.rules_needed, ref.tbl8_needed)
    for rules, tbl8 in sizes:
        assert fast.failure(rules, tbl8) == ref.failure(rules, tbl8), (rules, tbl8)


def _sizes(draw, need_rules: int, need_tbl8: int):  # type: ignore[no-untyped-def]
    pick = st.tuples(st.integers(0, need_rules + 2), st.integers(0, need_tbl8 + 2))
    return [
        (need_rules, need_tbl8),
        (max(0, need_rules - 1), need_tbl8),
        (need_rules, max(0, need_tbl8 - 1)),
        *draw(st.lists(pick, max_size=6)),
    ]


@pytest.mark.parametrize("family", [4, 6])
@pytest.mark.parametrize("chunk", [3, lpm_routes.CHUNK])
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_fast_replay_is_the_reference(monkeypatch, family, chunk, data):
    """Per route, in totals and in the first failure (errno, route, wording, source) for any table size;
    with a chunk of 3 routes the cumulative counts cross many chunk boundaries."""
    monkeypatch.setattr(lpm_routes, "CHUNK", chunk)
    routes = data.draw(route_lists(family))
    ref = reference_plan(routes, family)
    _same(routes, family, _sizes(data.draw, ref.rules_needed, ref.tbl8_needed))


@pytest.mark.parametrize("family", [4, 6])
def test_full_table_like_lists(family):
    """100,000 IPv4 / 40,000 IPv6 routes of the conformance suite's full-table shape, random and sorted."""
    from tests.conformance import fulltable

    rng = random.Random(family)
    for order in ("random", "sorted"):
        rows = (fulltable.ipv4_rows if family == 4 else fulltable.ipv6_rows)(
            100_000 if family == 4 else 40_000, 3, order=order
        )
        routes = [Route(network=a, depth=d, next_hop=h, line=i) for i, (a, d, h) in enumerate(rows, 1)]
        ref = reference_plan(routes, family)
        r, t = ref.rules_needed, ref.tbl8_needed
        sizes = [
            (r, t),
            (r - 1, t),
            (r, t - 1),
            (r // 2, t),
            (r, t // 3),
            *((rng.randrange(r), rng.randrange(t)) for _ in range(10)),
        ]
        _same(routes, family, sizes)


def test_check_order_and_errnos():
    v4 = lpm_routes.parse(["10.0.0.0/8 1", "10.1.2.0/25 2", "10.1.2.128/25 3", "10.1.3.0/32 4"], 4, "<t>")
    p = lpm_routes.plan(v4, 4)
    # route 4 is both rule 4 and group 2: rte_lpm_add checks the rule first (rule_add, then add_depth_big)
    (err,) = p.failure(3, 1)
    assert err.errno == "ENOSPC" and err.reason.startswith("route 4 ") and "rules table is full" in err.reason
    v6 = lpm_routes.parse(["2001:db8::/48 1", "2001:db8:0:1::/64 2"], 6, "<t>")
    p = lpm_routes.plan(v6, 6)
    # rte_lpm6_add: simulate_add's groups first
    (err,) = p.failure(1, 4)
    assert err.errno == "ENOSPC" and err.reason.startswith("route 2 ")
    assert "2 more tbl8 group(s) and 1 of 4" in err.reason
    (err,) = lpm_routes.plan(lpm_routes.parse(["10.0.0.0/8 1", "0.0.0.0/0 2"], 4, "<t>"), 4).failure(1, 1)
    assert err.errno == "EINVAL" and err.reason.startswith("route 2 ")


def test_next_hop_must_be_a_uint32():
    with pytest.raises(InputError, match=r"<t>:2: next hop 4294967296 is not a uint32_t"):
        lpm_routes.parse(["10.0.0.0/8 1", f"10.0.0.0/9 {1 << 32}"], 4, "<t>")
    assert (
        lpm_routes.plan(lpm_routes.parse([f"10.0.0.0/8 {(1 << 32) - 1}"], 4, "<t>"), 4).failure(1, 1)[0].errno is None
    )


def test_the_bound_is_the_fib_planners():
    assert lpm_routes.MAX_ROUTES == fib_spec.MAX_PLANNED_ROUTES >= 16_000_000
    assert lpm_routes.ROUTES_FORMAT is next(p for p in fib.FIB.params if p.key == "routes_format")


def test_lpm_reads_every_source(tmp_path, run, run_json):
    """--routes-file reads what fib --routes-file reads: an MRT dump (gzip), ip route output."""
    path = tmp_path / "bview.gz"
    path.write_bytes(gzip.compress(_mrt()))
    code, doc = run_json("lpm", "--routes-file", str(path))
    (err,) = doc["results"][0]["errors"]  # the MRT dump's 0.0.0.0/0: rte_lpm has no default route
    assert code == 1 and err["errno"] == "EINVAL" and "route 4 (0.0.0.0/0, record " in err["reason"]
    plan = doc["results"][0]["details"]["route_plan"]
    assert plan["format"] == "mrt" and plan["routes"] == 6 and plan["refused_depth_0"] == 1
    code, doc = run_json("lpm6", "--routes-file", str(path))
    assert code == 0 and doc["results"][0]["details"]["route_plan"]["tbl8_needed"] == 1
    assert doc["input"]["routes_format"] == "auto"
    ip = tmp_path / "ip.txt"
    ip.write_text(
        "10.0.0.0/8 via 192.0.2.1 dev eth0\n10.1.2.0/25 dev eth1 proto static\n10.1.2.128/25 via 192.0.2.1 dev eth0\n"
    )
    code, doc = run_json("lpm", "--routes-file", str(ip), "--routes-format", "ip")
    plan = doc["results"][0]["details"]["route_plan"]
    assert code == 0 and (plan["rules_needed"], plan["tbl8_needed"], plan["format"]) == (3, 1, "ip")
    assert (doc["input"]["max_rules"], doc["input"]["tbl8"]) == (3, 1)
    code, _, err = run("lpm", "--routes-file", str(ip), "--routes-format", "plain")  # a usage error naming the line
    assert code == 2 and "ip.txt:1" in err


def test_progress_and_bound(tmp_path, monkeypatch):
    """The replay reports its progress a chunk at a time; a table above the bound is refused, naming it."""
    monkeypatch.setattr(lpm_replay, "CHUNK", 2)  # the replay reports its progress every CHUNK routes
    seen: list[int] = []
    table = lpm_routes.parse(["10.0.0.0/8", "10.0.0.0/25", "10.0.1.0/25", "2.0.0.0/8", "10.0.0.0/8"], 4, "<t>")
    p = lpm_routes.plan(table, 4, progress=seen.append)
    assert seen == [0, 2, 4] and (p.rules_needed, p.tbl8_needed) == (4, 2)
    path = tmp_path / "r.txt"
    path.write_text("10.0.0.0/8\n10.1.0.0/16\n10.2.0.0/16\n")
    monkeypatch.setattr(lpm_routes, "MAX_ROUTES", 2)
    with pytest.raises(InputError, match=r"r\.txt: 3 routes; the LPM replay takes at most 2"):
        lpm_routes.read(str(path), 4)


@pytest.mark.parametrize(
    "kind, routes",
    [
        ("lpm", "10.0.0.0/8\n10.1.2.0/25\n10.1.3.0/26\n192.168.0.0/16 3\n"),
        ("lpm6", "2001:db8::/32\n2001:db8:1::/48\n2001:db8:1:2::/64\n"),
    ],
)
def test_the_answer_leads_the_report(tmp_path, run, run_json, kind, routes):
    """details.answer first: the --max-rules and --tbl8 to pass and the headroom; the table view opens with them."""
    path = tmp_path / "r.txt"
    path.write_text(routes)
    code, doc = run_json(kind, "--routes-file", str(path))
    details = doc["results"][0]["details"]
    plan = details["route_plan"]
    assert code == 0 and next(iter(details)) == "answer"
    assert details["answer"] == {
        "max_rules": plan["rules_needed"],
        "tbl8": plan["tbl8_needed"],
        "rules_headroom": 0,
        "tbl8_headroom": 0,
    }
    code, doc = run_json(
        kind,
        "--routes-file",
        str(path),
        "--max-rules",
        str(plan["rules_needed"] - 1),
        "--tbl8",
        str(plan["tbl8_needed"] + 5),
    )
    details = doc["results"][0]["details"]
    assert code == 1 and doc["results"][0]["errors"][0]["errno"] == "ENOSPC"
    assert (details["answer"]["rules_headroom"], details["answer"]["tbl8_headroom"]) == (-1, 5)
    res = run(kind, "--routes-file", str(path), "--max-rules", str(plan["rules_needed"] - 1))
    lines = res.out.splitlines()
    assert lines[2] == f"pass --max-rules {plan['rules_needed']:,} --tbl8 {plan['tbl8_needed']:,}"
    assert lines[4].startswith(f"headroom (--max-rules {plan['rules_needed'] - 1:,} --tbl8 ") and "-1 rules" in lines[4]
