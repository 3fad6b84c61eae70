"""The tbl8 planner (mpcalc.dpdk.objects.routes) against the real DPDK 22.11 rte_fib / rte_fib6.

For seeded random route tables (short prefixes, deep prefixes clustered in a
few /24s or IPv6 sites, duplicates, re-announcements with a new next hop,
children with their parent's next hop, host bits, the default route; with and
without next hops -- without, the probe is given the line number, i.e. all
different), the planner's numbers are checked against the probe's
``fibadd`` replies:

* with exactly ``tbl8_needed`` groups of real capacity every add succeeds;
* with fewer, DPDK fails exactly where ``RoutePlan.first_failure`` says, with
  the errno it says (ENOSPC), for every capacity tried;
* with ``min_max_routes`` (2*max_routes RIB nodes) every add succeeds, with one
  less the add that ``first_failure`` names fails with ENOMEM.

DIR24_8 really provides num_tbl8 rounded up to a multiple of 64, so each IPv4
table is padded (routes in fresh /24s, inserted before the add that sets the
need) until its need is k*64 (then "exactly needed" is testable: num_tbl8 =
k*64 succeeds) or k*64+1 (then "one less" is testable: num_tbl8 = k*64 fails),
and every smaller multiple of 64 is checked to fail at the predicted route.
The trie uses num_tbl8 as given: need and need-1 are both tested directly.
"""

from __future__ import annotations

import random

import pytest

from mpcalc.dpdk.objects.routes import RoutePlan, parse_routes, plan

NH_ENUM_2B = 1  # RTE_FIB_DIR24_8_2B / RTE_FIB6_TRIE_2B: next hops up to 32767
TABLES = 24  # per family


# --------------------------------------------------------------------------
# table generators: lists of (address text with host bits, depth, next hop or None)


def _v4_text(x: int) -> str:
    return ".".join(str((x >> s) & 255) for s in (24, 16, 8, 0))


def _v4_table(seed: int, with_nh: bool) -> list[tuple[str, int, int | None]]:
    rng = random.Random(seed)
    nhs = list(range(0, 12)) if with_nh else [None]
    hot = [(10 << 24) | (rng.randrange(1 << 10) << 8) for _ in range(rng.randint(20, 90))]
    hot += [(172 << 24) | (16 << 16) | (rng.randrange(16) << 8) for _ in range(rng.randint(0, 10))]
    out: list[tuple[int, int, int | None]] = []

    def nh() -> int | None:
        return rng.choice(nhs)

    for _ in range(rng.randint(150, 450)):
        r = rng.random()
        if r < 0.55:  # deep, clustered in the hot /24s
            out.append((rng.choice(hot) | rng.randrange(256), rng.randint(25, 32), nh()))
        elif r < 0.70:  # short prefixes, often covering the hot /24s
            base = rng.choice(hot) if rng.random() < 0.7 else rng.randrange(1 << 32)
            out.append((base | rng.randrange(256), rng.choice([0, 1, 4, 8, 12, 16, 20, 22, 23, 24]), nh()))
        elif r < 0.80 and out:  # the same prefix again, same or another next hop
            a, d, h = rng.choice(out)
            out.append((a, d, h if rng.random() < 0.5 else nh()))
        elif r < 0.93 and out:  # a child carrying its parent's next hop
            a, d, h = rng.choice(out)
            dd = rng.randint(d, 32)
            out.append(((a & ~((1 << (32 - d)) - 1) & 0xFFFFFFFF) | rng.randrange(1 << (32 - d)), dd, h))
        else:  # tails of /24s: install_to_fib's two-group left edge
            out.append((rng.choice(hot) | 128 | rng.randrange(128), rng.choice([25, 26, 27]), nh()))
    return [(_v4_text(a), d, h) for a, d, h in out]


def _v6_text(x: int) -> str:
    import ipaddress

    return str(ipaddress.IPv6Address(x))


def _v6_table(seed: int, with_nh: bool) -> list[tuple[str, int, int | None]]:
    rng = random.Random(seed)
    nhs = list(range(0, 12)) if with_nh else [None]
    base = 0x2001_0DB8 << 96
    sites = [base | (rng.randrange(1 << 12) << 84) | (rng.randrange(4) << 72) for _ in range(rng.randint(3, 10))]
    sites += [(0x2A00 << 112) | (rng.randrange(1 << 16) << 96) for _ in range(rng.randint(0, 4))]
    out: list[tuple[int, int, int | None]] = []

    def nh() -> int | None:
        return rng.choice(nhs)

    for _ in range(rng.randint(40, 160)):
        r = rng.random()
        if r < 0.55:  # deep prefixes under a few sites: shared 8-bit stride nodes
            s = rng.choice(sites)
            out.append(
                (
                    s | rng.randrange(1 << 72) if rng.random() < 0.6 else s | rng.randrange(1 << 24),
                    rng.choice([32, 40, 44, 48, 56, 60, 64, 72, 96, 112, 120, 124, 127, 128]),
                    nh(),
                )
            )
        elif r < 0.70:  # short prefixes covering sites
            s = rng.choice(sites) if rng.random() < 0.8 else rng.randrange(1 << 128)
            out.append((s | rng.randrange(1 << 64), rng.choice([0, 3, 8, 16, 20, 24, 28, 32]), nh()))
        elif r < 0.80 and out:
            a, d, h = rng.choice(out)
            out.append((a, d, h if rng.random() < 0.5 else nh()))
        elif r < 0.93 and out:
            a, d, h = rng.choice(out)
            dd = rng.randint(d, min(128, d + 40))
            out.append(((a >> (128 - d) << (128 - d)) | rng.randrange(1 << (128 - d)) if d < 128 else a, dd, h))
        else:
            s = rng.choice(sites)
            out.append((s | rng.randrange(1 << 96), rng.randint(25, 128), nh()))
    return [(_v6_text(a), d, h) for a, d, h in out]


def _file_text(rows: list[tuple[str, int, int | None]], rng: random.Random) -> list[str]:
    """A route file with comments and blank lines around the routes."""
    lines = ["# generated table", ""]
    for a, d, h in rows:
        text = f"{a}/{d}" + ("" if h is None else f"\t{h}")
        if rng.random() < 0.1:
            text += "   # note"
        lines.append(text)
        if rng.random() < 0.05:
            lines.append("   # a comment line")
    return lines


def _probe_lines(rows: list[tuple[str, int, int | None]]) -> list[str]:
    # no next hop in the file: give DPDK the line number (all different, never the default 0)
    return [f"{a}/{d} {i + 1 if h is None else h}" for i, (a, d, h) in enumerate(rows)]


def _pads(n: int, rng: random.Random, with_nh: bool) -> list:
    """n routes X.0/26, X.64/26 or X.128/26 in fresh /24s of 100.64.0.0/10 (no
    other route has a prefix longer than /24 there): one tbl8 and one
    reservation each, no transient group."""
    return [
        (_v4_text((100 << 24) | (64 << 16) | (x << 8) | 64 * rng.randrange(3)), 26, 20000 + j if with_nh else None)
        for j, x in enumerate(rng.sample(range(1 << 14), n))
    ]


def _pad_v4(rows: list, pl: RoutePlan, target: int, seed: int, with_nh: bool) -> list:
    """Pad the table until its need is exactly ``target``.

    First try: the pads at random places before the first add that reaches
    the need -- each raises every later requirement by one, unless a default
    route clobbers the tbl24 after them (DPDK's wrap bug, see
    RoutePlan.clobbers), which the re-plan catches.  Otherwise: the pads at
    the end, where pad j needs max(rsvd, in use) + j + 1 groups."""
    rng = random.Random(seed ^ 0x5EED)
    need = pl.tbl8_needed
    limit = next(i for i in range(len(rows)) if max(pl.tbl8_need[i], pl.rsvd_need[i]) == need) if need else len(rows)
    padded = list(rows)
    for pad in _pads(target - need, rng, with_nh):
        padded.insert(rng.randint(0, limit), pad)
    if _plan(padded, 4)[1].tbl8_needed == target:
        return padded
    return list(rows) + _pads(target - max(pl.tbl8_in_use, pl.tbl8_reserved), rng, with_nh)


def _plan(rows, family) -> tuple[list[str], RoutePlan]:
    rng = random.Random(len(rows))
    routes = parse_routes(_file_text(rows, rng), family, source="gen")
    assert len(routes) == len(rows)
    return _probe_lines(rows), plan(routes, family)


def _fib(probe, family: int, name: str, max_routes: int, num_tbl8: int) -> None:
    cmd = "fib" if family == 4 else "fib6"
    rep = probe.run(f"{cmd} {name} {max_routes} 1 {NH_ENUM_2B} {num_tbl8} 0 keep")
    assert rep["ok"], rep


def _add(probe, family: int, name: str, lines: list[str]) -> dict:
    rep = probe.run(f"fibadd {name} {family} {len(lines)}", lines)
    probe.run(f"free {name}")
    assert rep["ok"], rep
    return rep


def _check(probe, family, name, lines, pl: RoutePlan, *, tbl8s: int, num_tbl8: int, max_routes: int) -> str:
    """Create, add, compare with the prediction; return what happened."""
    _fib(probe, family, name, max_routes, num_tbl8)
    rep = _add(probe, family, name, lines)
    ff = pl.first_failure(tbl8s, 2 * max_routes)
    where = f"{name}: tbl8s={tbl8s} max_routes={max_routes} plan={pl}"
    if ff is None:
        assert rep["failed_at"] is None and rep["added"] == len(lines), (where, rep)
        return "ok"
    if ff.silent:  # a replaced next hop ran out of tbl8s: DPDK returns 0 anyway
        assert rep["failed_at"] is None or rep["failed_at"] > ff.index, (where, ff, rep)
        return "silent"
    assert (rep["failed_at"], rep["errno"]) == (ff.index, ff.errno), (where, ff, rep)
    assert rep["added"] == ff.index, (where, rep)
    return ff.errno


def _big(pl: RoutePlan) -> int:
    return 4 * pl.routes + 16  # max_routes: 2x this many RIB nodes never run out


@pytest.mark.parametrize("seed", range(TABLES))
def test_dir24_8_tbl8_capacity(probes, seed):
    probe = probes[(4, 1)]
    with_nh = seed % 2 == 0
    rows = _v4_table(1000 + seed, with_nh)
    _, pl0 = _plan(rows, 4)
    need0 = pl0.tbl8_needed
    k = -(-need0 // 64)
    # even seeds: need = k*64 exactly; odd seeds: need = k*64 + 1
    target = 64 * max(k, 1) if seed % 4 < 2 else (64 * k + 1 if need0 <= 64 * k + 1 else 64 * (k + 1) + 1)
    rows = _pad_v4(rows, pl0, target, seed, with_nh)
    lines, pl = _plan(rows, 4)
    assert pl.tbl8_needed == target, (need0, target, pl)
    name = f"r4_{seed}"
    big = _big(pl)
    top = 64 * -(-target // 64)
    outcomes = {}
    # real capacity top >= need: everything fits; with need == k*64 that is exactly the need
    outcomes[top] = _check(probe, 4, name, lines, pl, tbl8s=top, num_tbl8=target, max_routes=big)
    assert outcomes[top] == "ok"
    if target % 64 == 1:  # real capacity need - 1 (num_tbl8 = 64k, not rounded)
        assert _check(probe, 4, name, lines, pl, tbl8s=target - 1, num_tbl8=target - 1, max_routes=big) in (
            "ENOSPC",
            "silent",
        )
    for cap in range(64, top, 64):  # every smaller real capacity fails where predicted
        outcomes[cap] = _check(
            probe, 4, name, lines, pl, tbl8s=cap, num_tbl8=cap - 63 if cap > 64 else 1, max_routes=big
        )
        assert outcomes[cap] != "ok"
    # the RIB node pool: enough, and one route (two nodes) less
    mr = pl.min_max_routes
    assert _check(probe, 4, name, lines, pl, tbl8s=top, num_tbl8=top, max_routes=mr) == "ok"
    if mr > 1:
        assert _check(probe, 4, name, lines, pl, tbl8s=top, num_tbl8=top, max_routes=mr - 1) == "ENOMEM"


@pytest.mark.parametrize("seed", range(TABLES))
def test_trie_tbl8_capacity(probes, seed):
    probe = probes[(4, 1)]
    with_nh = seed % 2 == 0
    rows = _v6_table(2000 + seed, with_nh)
    lines, pl = _plan(rows, 6)
    need = pl.tbl8_needed
    assert need > 0
    name = f"r6_{seed}"
    big = _big(pl)
    assert _check(probe, 6, name, lines, pl, tbl8s=need, num_tbl8=need, max_routes=big) == "ok"
    assert (
        _check(probe, 6, name, lines, pl, tbl8s=need - 1, num_tbl8=need - 1, max_routes=big) != "ok"
        if need > 1
        else True
    )
    for cap in sorted({need // 2, need * 3 // 4, need - 2} - {0}):
        if cap < need - 1:
            assert _check(probe, 6, name, lines, pl, tbl8s=cap, num_tbl8=cap, max_routes=big) != "ok"
    mr = pl.min_max_routes
    assert _check(probe, 6, name, lines, pl, tbl8s=need, num_tbl8=need, max_routes=mr) == "ok"
    if mr > 1:
        assert _check(probe, 6, name, lines, pl, tbl8s=need, num_tbl8=need, max_routes=mr - 1) == "ENOMEM"


def test_wraparound_clobber(probes):
    """DPDK's wrap bug, seen through the tbl8 count: 0/1 and 128/1 tile the
    address space, so adding 0/0 after them makes modify_fib / modify_dp call
    install(0, 0): the whole tbl24 gets the default's next hop and the tbl8 of
    10.0.0.0/24 (2001:db8::/32) is leaked, not freed.  The next route in that
    /24 then needs two fresh groups (the left-edge pair) instead of none."""
    probe = probes[(4, 1)]
    v4 = [f"100.64.{i}.0/26 {100 + i}" for i in range(62)] + [
        "10.0.0.0/25 1",
        "0.0.0.0/1 2",
        "128.0.0.0/1 3",
        "0.0.0.0/0 4",
        "10.0.0.128/25 5",
    ]
    pl = plan(parse_routes(v4, 4), 4)
    assert pl.clobbers == (65,)
    assert pl.tbl8_needed == 65 and pl.tbl8_in_use == 64  # 62 pads + the leaked group + a new one
    assert _check(probe, 4, "clob4", v4, pl, tbl8s=128, num_tbl8=65, max_routes=1000) == "ok"
    assert _check(probe, 4, "clob4", v4, pl, tbl8s=64, num_tbl8=64, max_routes=1000) == "ENOSPC"
    assert pl.first_failure(64).index == 66
    v6 = ["2001:db8::/33 1", "::/1 2", "8000::/1 3", "::/0 4", "2001:db8:8000::/33 5"]
    pl = plan(parse_routes(v6, 6), 6)
    assert pl.clobbers == (3,)
    assert _check(probe, 6, "clob6", v6, pl, tbl8s=pl.tbl8_needed, num_tbl8=pl.tbl8_needed, max_routes=100) == "ok"
    assert (
        _check(probe, 6, "clob6", v6, pl, tbl8s=pl.tbl8_needed - 1, num_tbl8=pl.tbl8_needed - 1, max_routes=100)
        == "ENOSPC"
    )
    assert pl.first_failure(pl.tbl8_needed - 1).index == 4


def test_trie_short_route_needs_a_transient_group(probes):
    """A /24 (or shorter) route still takes a tbl8 for a moment: the left edge of
    install_to_dp goes one level down and recycles the group (trie.c:390-395)."""
    probe = probes[(4, 1)]
    lines = ["3000::/25 5", "2001:db8::/24 1", "2001::/16 2"]
    pl = plan(parse_routes(lines, 6), 6)
    assert pl.tbl8_need == (1, 2, 2) and pl.tbl8_in_use == 1
    assert _check(probe, 6, "short6", lines, pl, tbl8s=2, num_tbl8=2, max_routes=100) == "ok"
    assert _check(probe, 6, "short6", lines, pl, tbl8s=1, num_tbl8=1, max_routes=100) == "ENOSPC"
    assert pl.first_failure(1).index == 1


def test_dir24_8_silent_replacement(probes):
    """A replaced next hop that needs a group DPDK lacks: rte_fib_add still
    returns 0 (dir24_8.c:442-445); 2 * 64 groups hold it."""
    probe = probes[(4, 1)]
    lines = [f"10.1.{i}.0/26 {i + 10}" for i in range(63)] + [
        "10.0.0.0/8 1",
        "10.0.0.0/26 1",
        "10.0.0.64/26 9",
        "10.0.5.0/26 1",
        "10.0.5.0/26 2",
        "10.0.6.0/26 3",
    ]
    pl = plan(parse_routes(lines, 4), 4)
    assert pl.tbl8_needed == 66
    f = pl.first_failure(64)
    assert (f.index, f.silent) == (67, True)
    assert _check(probe, 4, "sil4", lines, pl, tbl8s=128, num_tbl8=66, max_routes=1000) == "ok"
    _fib(probe, 4, "sil4", 1000, 64)
    rep = _add(probe, 4, "sil4", lines)
    # the replacement "succeeds" (its table entries are not written); the next
    # new /24 passes the reservation test (rsvd 63) but finds no free group
    assert (rep["failed_at"], rep["errno"]) == (68, "ENOSPC"), rep
