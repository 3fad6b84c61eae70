"""The fast replays (mpcalc.dpdk.objects.routes.fast4 / fast6) against the line-by-line reference replay.

The reference (``planner.plan(..., fast=False)``: ``.dir24_8`` / ``.trie`` on ``.rib``) follows DPDK
v22.11.11 statement by statement and is itself checked against the real library in
tests/conformance/test_tbl8_capacity.py.  Here every figure of the plan, and every per-route figure
(kinds, tbl8s, reservations, RIB nodes), must be identical, on tables built to hit the hard cases: deep
routes clustered in a few /24s (IPv6 sites), short routes added after the routes below them, routes
tiling a block with one next hop, tails of /24s, duplicates and re-announcements, children carrying their
parent's next hop, routes without next hops, the default route, the ends of the address space (where
DPDK's wrap-around bug strikes and the fast replays hand over to the reference).
"""

from __future__ import annotations

import ipaddress
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mpcalc.dpdk.objects.routes import fast4, fast6, parse_routes, planner
from mpcalc.dpdk.objects.routes.parse import Route
from tests.conformance.test_tbl8_capacity import _v4_table, _v6_table


def _v4(x: int) -> str:
    return str(ipaddress.IPv4Address(x))


def _v6(x: int) -> str:
    return str(ipaddress.IPv6Address(x))


def dense4(seed: int) -> list[tuple[str, int, int | None]]:
    """Routes crowded into a few /22s, at the bottom, the middle and the top of the address space."""
    rng = random.Random(seed)
    bases = [0x0A000000, 0xFFFFFC00, 0x00000000, 0x7FFFFC00, 0x80000000]
    nhs: list[int | None] = [None] if rng.random() < 0.2 else list(range(rng.randint(1, 5)))
    rows: list[tuple[str, int, int | None]] = []
    for _ in range(rng.randint(5, 120)):
        a = rng.choice(bases) | rng.getrandbits(10)
        d = rng.choice([0, 1, 2, 8, 16, 20, 22, 23, 24, 24, 24, 25, 26, 27, 28, 30, 31, 32, 32, *range(8, 33)])
        if rows and rng.random() < 0.2:
            text, d, _h = rng.choice(rows)
            a = int(ipaddress.IPv4Address(text))
        rows.append((_v4(a), d, rng.choice(nhs)))
    return rows


def tiles4(seed: int) -> list[tuple[str, int, int | None]]:
    """Deep routes that tile /24s, often with one next hop (groups found uniform and freed), covering
    routes before and after them."""
    rng = random.Random(seed)
    rows: list[tuple[str, int, int | None]] = []
    for b in rng.sample(range(64), 8):
        base = 0x0A000000 | b << 8
        depth = rng.choice([25, 26, 27, 28])
        nh = rng.randrange(3)
        for j in range(1 << (depth - 24)):
            rows.append((_v4(base | j << (32 - depth)), depth, nh if rng.random() < 0.8 else rng.randrange(3)))
        if rng.random() < 0.5:
            rows.append((_v4(base), 24, rng.randrange(3)))
    rows += [("10.0.0.0", rng.choice([8, 16, 18]), rng.randrange(3)) for _ in range(3)]
    rng.shuffle(rows)
    return rows


def dense6(seed: int) -> list[tuple[str, int, int | None]]:
    rng = random.Random(seed)
    bases = [0x20010DB8 << 96, (1 << 128) - (1 << 40), 0, 0xFE80 << 112]
    nhs: list[int | None] = [None] if rng.random() < 0.2 else list(range(rng.randint(1, 5)))
    rows: list[tuple[str, int, int | None]] = []
    for _ in range(rng.randint(3, 60)):
        a = rng.choice(bases) | rng.getrandbits(40)
        d = rng.choice(
            [0, 1, 8, 16, 23, 24, 25, 31, 32, 33, 40, 41, 47, 48, 56, 64, 96, 120, 127, 128, *range(16, 129)]
        )
        if rows and rng.random() < 0.2:
            text, d, _h = rng.choice(rows)
            a = int(ipaddress.IPv6Address(text))
        rows.append((_v6(a), d, rng.choice(nhs)))
    return rows


def _routes(rows, family: int) -> list[Route]:
    return parse_routes([f"{a}/{d}" + ("" if h is None else f" {h}") for a, d, h in rows], family)


def same_plan(routes: list[Route], family: int) -> bool:
    """Assert the fast and the reference plans agree in everything; True if the fast replay ran through
    (no wrap-around bug handed it over)."""
    fast = planner.plan(routes, family)
    ref = planner.plan(routes, family, fast=False)
    assert fast.to_dict() == ref.to_dict()
    assert tuple(fast.kinds) == tuple(ref.kinds)
    assert fast.tbl8_need == ref.tbl8_need
    assert fast.rsvd_need == ref.rsvd_need
    assert fast.rib_need == ref.rib_need
    for cap in {0, 1, ref.tbl8_needed // 2, max(0, ref.tbl8_needed - 1)}:
        assert fast.first_failure(cap) == ref.first_failure(cap)
    nodes = ref.rib_nodes_needed
    assert fast.first_failure(rib_nodes=nodes - 1) == ref.first_failure(rib_nodes=nodes - 1)
    nets, depths, ids = planner._columns(routes, family, 0)
    try:
        (fast4.Replay4() if family == 4 else fast6.Replay6()).run(nets, depths, ids)
    except fast4.Clobbered:
        return False
    return True


@pytest.mark.parametrize(
    "family, make, count",
    [
        (4, lambda s: _v4_table(1000 + s, s % 2 == 0), 20),
        (4, dense4, 60),
        (4, tiles4, 30),
        (6, lambda s: _v6_table(2000 + s, s % 2 == 0), 20),
        (6, dense6, 80),
    ],
)
def test_fast_replay_is_the_reference(family, make, count):
    ran = 0
    for seed in range(count):
        rows = make(seed)
        if seed % 4 == 3:  # in address order, as route sources list them
            rows = sorted(rows, key=lambda r: (int(ipaddress.ip_address(r[0])), r[1]))
        ran += same_plan(_routes(rows, family), family)
    assert ran >= count // 2  # the fast replay itself ran, not only the hand-over


def test_clobber_hands_over_to_the_reference():
    for family, lines in (
        (4, ["0.0.0.0/1 1", "128.0.0.0/1 2", "0.0.0.0/0 3"]),
        (4, ["255.255.255.0/25 1", "255.255.255.128/25 2", "255.255.255.0/24 3"]),
        (6, ["::/1 1", "8000::/1 2", "::/0 3"]),
    ):
        routes = parse_routes(lines, family)
        assert not same_plan(routes, family)
        assert planner.plan(routes, family).clobbers == (2,)


@st.composite
def tables(draw, family: int):
    width = 32 if family == 4 else 128
    hot = draw(st.lists(st.integers(0, (1 << width) - 1), min_size=1, max_size=4))
    n = draw(st.integers(1, 40))
    rows = []
    for _ in range(n):
        base = draw(st.sampled_from(hot))
        spread = draw(st.integers(0, 12))
        a = base ^ draw(st.integers(0, (1 << spread) - 1))
        d = draw(st.integers(0, width))
        nh = draw(st.one_of(st.none(), st.integers(0, 3)))
        rows.append(Route(network=a & ((1 << width) - 1) & ~((1 << (width - d)) - 1), depth=d, next_hop=nh))
    return rows


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables(4))
def test_fast4_property(routes):
    same_plan(routes, 4)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables(6))
def test_fast6_property(routes):
    same_plan(routes, 6)
