"""Route files replayed as ``rte_lpm_add`` / ``rte_lpm6_add`` do: the rules and tbl8 groups an LPM table
needs, and the first route that fails in a smaller one (``lpm --routes-file``, ``lpm6 --routes-file``).

The file format is the FIB planner's (one ``PREFIX/DEPTH [NEXT_HOP]`` a line, ``#`` comments, host bits
masked as DPDK masks them).  With adds only (no deletes) neither table ever frees a tbl8 group, so
the replay is exact in counts:

* ``rte_lpm_add`` (v22.11:lib/lpm/rte_lpm.c:799-844) refuses depth 0 and above 32 (EINVAL: an LPM has
  no default route ``0.0.0.0/0``), adds the rule first (rule_add, rte_lpm.c:362-435: ENOSPC once
  ``max_rules`` distinct (prefix, depth) rules exist; the same rule again only updates its next
  hop), then for a depth above 24 takes one tbl8 group for each /24 block not yet extended
  (add_depth_big, rte_lpm.c:614-760; ENOSPC when none is free, and the rule is deleted again).
* ``rte_lpm6_add`` (v22.11:lib/lpm/rte_lpm6.c:852-902) refuses depth 0 and above 128, then first
  simulates the add (simulate_add, rte_lpm6.c:815-846): a route of depth d needs one tbl8 group per
  8 bits past the first 24 whose path does not exist yet, and fails with ENOSPC *before* its rule is
  looked at; then rule_add (rte_lpm6.c:482-514) refuses a new rule once ``max_rules`` exist.

Next hops are stored in bit fields: 24 bits in rte_lpm (v22.11:lib/lpm/rte_lpm.h:84), 21 in rte_lpm6
(v22.11:lib/lpm/rte_lpm6.c:57); a larger next hop is added without error and truncated in the tables.
"""

from __future__ import annotations

import ipaddress
import os
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .declare import Resolved
from .errors import InputError, Rejection

#: bounded work: a replay is a few set operations per route
MAX_ROUTES = 2_000_000
NH_BITS = {4: 24, 6: 21}
WIDTH = {4: 32, 6: 128}
#: what examples/l3fwd/l3fwd_lpm.c asks for (v22.11:examples/l3fwd/l3fwd_lpm.c:36-39)
L3FWD = {4: (1024, 1 << 8), 6: (1024, 1 << 16)}


@dataclass(frozen=True)
class LpmRoute:
    network: int
    depth: int
    next_hop: int | None
    line: int

    def prefix(self, family: int) -> str:
        cls = ipaddress.IPv4Address if family == 4 else ipaddress.IPv6Address
        return f"{cls(self.network)}/{self.depth}"


def parse(lines: Iterable[str], family: int, source: str) -> list[LpmRoute]:
    """``PREFIX/DEPTH [NEXT_HOP]`` lines; a bad line raises InputError naming ``source:line``."""
    out = []
    for lineno, raw in enumerate(lines, 1):
        fields = raw.split("#", 1)[0].split()
        if not fields:
            continue
        if len(fields) > 2:
            raise InputError(f"{source}:{lineno}: {raw.strip()!r} has more than a prefix and a next hop", param=source)
        addr, slash, depth_text = fields[0].partition("/")
        try:
            if not slash or not depth_text.isdigit() or not addr.isascii() or "%" in addr:
                raise ValueError
            depth = int(depth_text)
            net = ipaddress.ip_network(f"{addr}/{depth}", strict=False)
            if net.version != family:
                raise ValueError
        except ValueError:
            raise InputError(f"{source}:{lineno}: {raw.strip()!r} is not an IPv{family} prefix", param=source) from None
        nh = None
        if len(fields) == 2:
            if not fields[1].isdigit() or int(fields[1]) > 0xFFFFFFFF:
                raise InputError(f"{source}:{lineno}: next hop {fields[1]!r} is not a uint32_t", param=source)
            nh = int(fields[1])
        out.append(LpmRoute(int(net.network_address), depth, nh, lineno))
    return out


def read(path: str, family: int) -> list[LpmRoute]:
    if path == "-":
        return parse(sys.stdin, family, "<stdin>")
    try:
        with open(os.fspath(path), encoding="utf-8") as fh:
            return parse(fh, family, path)
    except OSError as exc:
        raise InputError(f"{path}: cannot read: {exc.strerror or exc}", param=path) from exc
    except UnicodeDecodeError as exc:
        raise InputError(f"{path}: not UTF-8 text: not a route list", param=path) from exc


@dataclass
class LpmPlan:
    """Each route's needs, given that every route before it was added."""

    family: int
    routes: list[LpmRoute]
    #: per route: a new rule, the tbl8 groups it takes, refused outright (depth 0)
    new_rule: list[bool] = field(default_factory=list)
    new_groups: list[int] = field(default_factory=list)
    bad_depth: list[bool] = field(default_factory=list)

    @property
    def rules_needed(self) -> int:
        return sum(r for r, bad in zip(self.new_rule, self.bad_depth, strict=True) if not bad)

    @property
    def tbl8_needed(self) -> int:
        return sum(g for g, bad in zip(self.new_groups, self.bad_depth, strict=True) if not bad)

    def to_dict(self) -> dict[str, object]:
        wide = [r for r in self.routes if r.next_hop is not None and r.next_hop >> NH_BITS[self.family]]
        return {"routes": len(self.routes), "rules_needed": self.rules_needed, "tbl8_needed": self.tbl8_needed,
                "refused_depth_0": sum(self.bad_depth), "next_hops_truncated": len(wide)}

    def failure(self, max_rules: int, tbl8s: int) -> list[Rejection]:
        """The first route whose add fails in a table of this size, or a hazard for next hops too wide."""
        fn = "rte_lpm_add" if self.family == 4 else "rte_lpm6_add"
        src = "v22.11:lib/lpm/rte_lpm.c" if self.family == 4 else "v22.11:lib/lpm/rte_lpm6.c"
        rules = groups = 0
        for i, route in enumerate(self.routes):
            where = f"route {i + 1} ({route.prefix(self.family)}, line {route.line})"
            needs = f"; the table needs max_rules {self.rules_needed} and {self.tbl8_needed} tbl8 groups"
            if self.bad_depth[i]:
                return [Rejection("EINVAL", f"{where} fails: depth 0 is refused (an LPM table has no default route; "
                                  "look-ups that miss return -ENOENT)", fn,
                                  f"{src}:807-808" if self.family == 4 else f"{src}:863-865")]
            rule_fails = self.new_rule[i] and rules == max_rules
            tbl8_fails = groups + self.new_groups[i] > tbl8s
            # rte_lpm_add checks the rule first, rte_lpm6_add the tbl8 groups first (simulate_add)
            first = ("rule" if rule_fails else "tbl8" if tbl8_fails else None) if self.family == 4 else \
                ("tbl8" if tbl8_fails else "rule" if rule_fails else None)
            if first == "rule":
                return [Rejection("ENOSPC", f"{where} fails: the rules table is full ({max_rules} rules){needs}", fn,
                                  f"{src}:394-417" if self.family == 4 else f"{src}:498-499")]
            if first == "tbl8":
                return [Rejection("ENOSPC", f"{where} fails: it needs {self.new_groups[i]} more tbl8 group(s) and "
                                  f"{tbl8s - groups} of {tbl8s} are free{needs}", fn,
                                  f"{src}:614-640,836-840" if self.family == 4 else f"{src}:596-640,815-846")]
            rules += self.new_rule[i]
            groups += self.new_groups[i]
        wide = [r for r in self.routes if r.next_hop is not None and r.next_hop >> NH_BITS[self.family]]
        if wide:
            bits = NH_BITS[self.family]
            return [Rejection(None, f"{len(wide)} route(s) (first: line {wide[0].line}, next hop {wide[0].next_hop}) "
                              f"have a next hop above 2^{bits} - 1: the add succeeds and the table keeps only the "
                              f"low {bits} bits", fn, "v22.11:lib/lpm/rte_lpm.h:84" if self.family == 4
                              else "v22.11:lib/lpm/rte_lpm6.c:57")]
        return []


def plan(routes: list[LpmRoute], family: int) -> LpmPlan:
    """Replay the adds: which routes make a new rule and how many tbl8 groups each one takes."""
    p = LpmPlan(family, routes)
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


def resolve_routes(a: Mapping[str, Any], family: int) -> Resolved:
    """The ``lpm`` / ``lpm6`` inputs: max_rules and tbl8 from the options, else from the route file, else l3fwd's."""
    path = a.get("routes_file")
    routes: list[LpmRoute] = []
    lpm_plan = None
    if path is not None:
        routes = read(path, family)
        if len(routes) > MAX_ROUTES:
            raise InputError(f"{path}: {len(routes):,} routes; the replay takes at most {MAX_ROUTES:,}",
                             param="--routes-file")
        lpm_plan = plan(routes, family)
    default_rules, default_tbl8 = L3FWD[family]
    max_rules = a["max_rules"]
    if max_rules is None:
        max_rules = max(1, lpm_plan.rules_needed) if lpm_plan else default_rules
    tbl8 = a["tbl8"]
    if tbl8 is None:
        # number_tbl8s 0 fails the creation (a 0-byte rte_malloc): at least one group
        tbl8 = max(1, lpm_plan.tbl8_needed) if lpm_plan else default_tbl8
    return Resolved({"name": a["name"], "max_rules": max_rules, "tbl8": tbl8, "routes_file": path},
                    {"plan": lpm_plan})
