"""The LPM route replay (mpcalc.dpdk.objects.lpm_routes) against the real rte_lpm / rte_lpm6 of DPDK 22.11 on
full-size tables: tests/conformance/fulltable.py's synthetic full tables (1,000,000 IPv4, 200,000 IPv6
prefixes; a BGP table's prefix-length mix, more-specifics, routes longer than /24 in a few thousand /24s,
re-announcements), in random order and in address order.

For each table the fast replay equals the set-based reference (tests/lpm_reference.py) route by route, and
the probe's ``lpmadd`` (rte_lpm_add / rte_lpm6_add of every line, stopping at the first failure) agrees:

* IPv6, the whole table: with the ``--max-rules`` and ``--tbl8`` answered, DPDK adds every route; with one
  rule less, one tbl8 group less, half the groups, the add the plan names fails with its errno
  (rte_lpm6_add: simulate_add's groups before the rule).
* IPv4, the whole table, with smaller tables whose first failure falls in the first 150,000 routes (a rules
  table of 150,000; the tbl8 groups the first 150,000 routes take); and its first 250,000 routes with
  exactly the answered sizes (every route added), one rule less, one group less.  Not the whole million
  with exact sizes: rte_lpm's rule_add scans every rule of the route's depth (v22.11:lib/lpm/rte_lpm.c:
  370-396; then the make-room loop, :413-424), so DPDK's adds are quadratic in the rules of a depth: 1.6 s
  for 100,000 routes of this table, 6 s for 200,000, about 150 s for the million (three such runs would
  not fit the suite's time).

About two minutes in all (IPv4 in address order only with MPCALC_FULL_TABLES=1: full_orders.py).
"""

from __future__ import annotations

import pytest

from mpcalc.dpdk.objects import lpm_routes
from tests.lpm_reference import reference_plan

from . import fulltable
from .full_orders import FULL_ORDERS

SIZES = {4: 1_000_000, 6: 200_000}
EARLY = 150_000  #: IPv4: the smaller tables fail within this many routes
PREFIX = 250_000  #: IPv4: the routes replayed whole with the exact sizes


def _reference_codes(table, family: int) -> bytes:  # type: ignore[no-untyped-def]
    ref = reference_plan(list(table), family)
    return bytes(
        lpm_routes.BAD_DEPTH if bad else new | groups << lpm_routes.GROUP_SHIFT
        for new, groups, bad in zip(ref.new_rule, ref.new_groups, ref.bad_depth, strict=True)
    )


def _expect(probe, family: int, lines: list[str], pl: lpm_routes.LpmPlan, rules: int, tbl8: int) -> None:  # type: ignore[no-untyped-def]
    kind = "lpm" if family == 4 else "lpm6"
    created = probe.run(f"{kind} full {rules} {tbl8} keep")
    assert created["ok"], created
    try:
        rep = probe.run(f"lpmadd full {family} {len(lines)}", lines, timeout=900)
    finally:
        probe.run("free full")
    assert rep["ok"], rep
    mine = pl.failure(rules, tbl8)
    where = f"max_rules {rules}, tbl8 {tbl8}: mpcalc {mine} vs DPDK {rep}"
    if not mine or mine[0].errno is None:
        assert rep["failed_at"] is None and rep["added"] == len(lines), where
    else:
        assert (rep["failed_at"], rep["errno"]) == (int(mine[0].reason.split()[1]) - 1, mine[0].errno), where


def _plan(lines: list[str], family: int, name: str) -> lpm_routes.LpmPlan:
    table = lpm_routes.parse(lines, family, name)
    pl = lpm_routes.plan(table, family)
    assert bytes(pl.codes) == _reference_codes(table, family)
    return pl


@pytest.mark.parametrize("family, order", FULL_ORDERS)
def test_lpm_full_table(probes, family, order):
    rows = (fulltable.ipv4_rows if family == 4 else fulltable.ipv6_rows)(SIZES[family], 7, order=order)
    lines = fulltable.lines(rows, family)
    pl = _plan(lines, family, f"full-ipv{family}-{order}")
    rules, tbl8 = pl.rules_needed, pl.tbl8_needed
    assert pl.refused == 0 and rules < len(lines) and tbl8 > 1000
    probe = probes[(4, 1)]
    if family == 6:
        for r, t in ((rules, tbl8), (rules - 1, tbl8), (rules, tbl8 - 1), (rules, tbl8 // 2), (rules // 2, tbl8)):
            _expect(probe, 6, lines, pl, r, t)
        return
    early_groups = pl._before(EARLY)[1]
    assert 0 < early_groups < tbl8
    _expect(probe, 4, lines, pl, EARLY, tbl8)
    _expect(probe, 4, lines, pl, rules, early_groups)
    head = lines[:PREFIX]
    pl = _plan(head, 4, f"full-ipv4-{order}-head")
    rules, tbl8 = pl.rules_needed, pl.tbl8_needed
    for r, t in ((rules, tbl8), (rules - 1, tbl8), (rules, tbl8 - 1)):
        _expect(probe, 4, head, pl, r, t)
