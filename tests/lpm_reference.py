"""The LPM route replay as it was first written: a set of rules and a set of extended tbl entries, a Python
list per figure, and the first failure found by walking the routes.  It is the reference the fast replay of
mpcalc.dpdk.objects.lpm_routes is tested against (tests/test_lpm_routes.py, the full-table conformance test).

``rte_lpm_add`` (v22.11:lib/lpm/rte_lpm.c:799-844): depth 0 EINVAL, then rule_add (ENOSPC once max_rules
rules exist), then add_depth_big (one tbl8 group per /24 not yet extended).  ``rte_lpm6_add``
(v22.11:lib/lpm/rte_lpm6.c:852-902): depth 0 EINVAL, then simulate_add (one group per level of 8 bits past
24 whose path is not extended yet; ENOSPC before the rule is looked at), then rule_add.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from mpcalc.dpdk.core.errors import Rejection

NH_BITS = {4: 24, 6: 21}
WIDTH = {4: 32, 6: 128}


@dataclass
class ReferencePlan:
    family: int
    routes: Sequence  # of mpcalc.dpdk.objects.routes.parse.Route
    new_rule: list[bool] = field(default_factory=list)
    new_groups: list[int] = field(default_factory=list)
    bad_depth: list[bool] = field(default_factory=list)

    @property
    def rules_needed(self) -> int:
        return sum(r for r, bad in zip(self.new_rule, self.bad_depth, strict=True) if not bad)

    @property
    def tbl8_needed(self) -> int:
        return sum(g for g, bad in zip(self.new_groups, self.bad_depth, strict=True) if not bad)

    def failure(self, max_rules: int, tbl8s: int) -> list[Rejection]:
        """The first route whose add fails in a table of this size, or a hazard for next hops too wide."""
        fn = "rte_lpm_add" if self.family == 4 else "rte_lpm6_add"
        src = "v22.11:lib/lpm/rte_lpm.c" if self.family == 4 else "v22.11:lib/lpm/rte_lpm6.c"
        rules = groups = 0
        # (first written inside the loop below: a sum over every route for each route, O(n^2))
        needs = f"; the table needs max_rules {self.rules_needed} and {self.tbl8_needed} tbl8 groups"
        for i, route in enumerate(self.routes):
            where = f"route {i + 1} ({route.prefix(self.family)}, line {route.line})"
            if self.bad_depth[i]:
                return [
                    Rejection(
                        "EINVAL",
                        f"{where} fails: depth 0 is refused (an LPM table has no default route; "
                        "look-ups that miss return -ENOENT)",
                        fn,
                        f"{src}:806-808" if self.family == 4 else f"{src}:864-865",
                    )
                ]
            rule_fails = self.new_rule[i] and rules == max_rules
            tbl8_fails = groups + self.new_groups[i] > tbl8s
            # rte_lpm_add checks the rule first, rte_lpm6_add the tbl8 groups first (simulate_add)
            first = (
                ("rule" if rule_fails else "tbl8" if tbl8_fails else None)
                if self.family == 4
                else ("tbl8" if tbl8_fails else "rule" if rule_fails else None)
            )
            if first == "rule":
                return [
                    Rejection(
                        "ENOSPC",
                        f"{where} fails: the rules table is full ({max_rules} rules){needs}",
                        fn,
                        f"{src}:393-417,814-825" if self.family == 4 else f"{src}:498-499,877-880",
                    )
                ]
            if first == "tbl8":
                return [
                    Rejection(
                        "ENOSPC",
                        f"{where} fails: it needs {self.new_groups[i]} more tbl8 group(s) and "
                        f"{tbl8s - groups} of {tbl8s} are free{needs}",
                        fn,
                        f"{src}:646-663,830-840" if self.family == 4 else f"{src}:815-846,872-874",
                    )
                ]
            rules += self.new_rule[i]
            groups += self.new_groups[i]
        wide = [r for r in self.routes if r.next_hop is not None and r.next_hop >> NH_BITS[self.family]]
        if wide:
            bits = NH_BITS[self.family]
            return [
                Rejection(
                    None,
                    f"{len(wide)} route(s) (first: line {wide[0].line}, next hop {wide[0].next_hop}) "
                    f"have a next hop above 2^{bits} - 1: the add succeeds and the table keeps only the "
                    f"low {bits} bits",
                    fn,
                    "v22.11:lib/lpm/rte_lpm.h:84" if self.family == 4 else "v22.11:lib/lpm/rte_lpm6.c:57",
                )
            ]
        return []


def reference_plan(routes: Sequence, family: int) -> ReferencePlan:
    """Replay the adds: which routes make a new rule and how many tbl8 groups each one takes."""
    p = ReferencePlan(family, routes)
    width = WIDTH[family]
    rules: set[tuple[int, int]] = set()
    nodes: set[tuple[int, int]] = set()  # (bits, prefix) of every extended tbl entry: one tbl8 group each
    for r in routes:
        bad = r.depth == 0
        p.bad_depth.append(bad)
        key = (r.network, r.depth)
        new = not bad and key not in rules
        p.new_rule.append(new)
        need = []
        if not bad and r.depth > 24:
            # a group for each level of 8 bits past 24 whose path is not extended yet
            levels = 1 if family == 4 else -(-(r.depth - 24) // 8)
            for j in range(levels):
                bits = 24 + 8 * j
                node = (bits, r.network >> (width - bits))
                if node not in nodes:
                    need.append(node)
        p.new_groups.append(len(need))
        if not bad:
            rules.add(key)
            nodes.update(need)
    return p
