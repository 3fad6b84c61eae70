"""The tbl8 planner against the real DPDK 22.11 on full-size tables: 1,000,000 IPv4 and 200,000 IPv6 prefixes.

The tables are tests/conformance/fulltable.py's synthetic full tables (a BGP table's prefix-length mix,
more-specifics, routes longer than /24 in a few thousand /24s, re-announcements), generated here, in random
order and in address order.  For each, the plan (``mpcalc.dpdk.objects.routes.plan``: the C replay where it was built,
else Python) must equal the pure-Python replays' (``fast4`` / ``fast6``) in every per-route figure, and the
probe's ``fibadd`` must agree with it:

* with the ``--routes`` and ``--tbl8`` it answers, DPDK adds every route;
* with one RIB node pair less (``min_max_routes - 1``), the add it names fails with ENOMEM;
* with fewer tbl8 groups (DIR24_8: the largest multiple of 64 below the need, DPDK rounding num_tbl8 up
  to 64; the trie: the need minus one, and half of it), the add it names fails, with its errno (or, for a
  replaced next hop, silently: DPDK returns 0 and the next add that needs a group fails).

About a minute in all (the probe adds a million routes in one to two seconds).
"""

from __future__ import annotations

import pytest

from mpcalc.dpdk.objects.routes import fast4, fast6, planner
from mpcalc.dpdk.objects.routes.route_table import TableBuilder, parse_plain

from . import fulltable
from .full_orders import FULL_ORDERS

NH_ENUM_4B = 2  # RTE_FIB_DIR24_8_4B / RTE_FIB6_TRIE_4B: the trie's 433,000 groups need more than 2 bytes
SIZES = {4: 1_000_000, 6: 200_000}


def _table(family: int, order: str):
    rows = (fulltable.ipv4_rows if family == 4 else fulltable.ipv6_rows)(SIZES[family], 7, order=order)
    lines = fulltable.lines(rows, family)
    builder = TableBuilder(family, f"full-ipv{family}-{order}")
    parse_plain("\n".join(lines) + "\n", family, builder)
    return lines, builder.table()


def _run(probe, family: int, lines: list[str], max_routes: int, num_tbl8: int) -> dict:
    kind = "fib" if family == 4 else "fib6"
    rep = probe.run(f"{kind} full {max_routes} 1 {NH_ENUM_4B} {num_tbl8} 0 keep")
    assert rep["ok"], rep
    try:
        rep = probe.run(f"fibadd full {family} {len(lines)}", lines, timeout=600)
    finally:
        probe.run("free full")
    assert rep["ok"], rep
    return rep


def _expect(probe, family, lines, pl, *, tbl8s: int, num_tbl8: int, max_routes: int) -> None:
    rep = _run(probe, family, lines, max_routes, num_tbl8)
    ff = pl.first_failure(tbl8s, 2 * max_routes)
    where = f"tbl8s={tbl8s} max_routes={max_routes}: {ff} vs {rep}"
    if ff is None:
        assert rep["failed_at"] is None and rep["added"] == len(lines), where
    elif ff.silent:
        assert rep["failed_at"] is None or rep["failed_at"] > ff.index, where
    else:
        assert (rep["failed_at"], rep["errno"]) == (ff.index, ff.errno), where


@pytest.mark.parametrize("family, order", FULL_ORDERS)
def test_full_table(probes, family, order):
    lines, table = _table(family, order)
    pl = planner.plan(table, family)
    # the plan the command prints is the pure-Python replays' too, route by route
    nets, depths, ids = table.columns(0)
    pure = (fast4.Replay4() if family == 4 else fast6.Replay6()).run(nets, depths, ids)
    assert bytes(pure.codes) == bytes(pl.trace.codes)
    assert list(pure.tbl8_need()) == list(pl._tbl8) and list(pure.rsvd_need()) == list(pl._rsvd)
    assert pl.routes == SIZES[family] and pl.tbl8_needed > 1000 and not pl.clobbers

    probe = probes[(4, 1)]
    need, routes = pl.tbl8_needed, pl.min_max_routes
    if family == 4:
        top = -(-need // 64) * 64
        _expect(probe, 4, lines, pl, tbl8s=top, num_tbl8=need, max_routes=routes)
        below = (need - 1) // 64 * 64
        _expect(probe, 4, lines, pl, tbl8s=below, num_tbl8=below, max_routes=routes)
    else:
        _expect(probe, 6, lines, pl, tbl8s=need, num_tbl8=need, max_routes=routes)
        _expect(probe, 6, lines, pl, tbl8s=need - 1, num_tbl8=need - 1, max_routes=routes)
        if order == "random":
            _expect(probe, 6, lines, pl, tbl8s=need // 2, num_tbl8=need // 2, max_routes=routes)
    big = -(-need // 64) * 64 if family == 4 else need
    _expect(probe, family, lines, pl, tbl8s=big, num_tbl8=big, max_routes=routes - 1)
