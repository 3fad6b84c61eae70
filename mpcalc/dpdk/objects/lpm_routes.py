"""Route tables replayed as ``rte_lpm_add`` / ``rte_lpm6_add`` do: the rules and tbl8 groups an LPM table
needs, and the first route that fails in a smaller one (``lpm --routes-file``, ``lpm6 --routes-file``).

The table is read by :func:`mpcalc.dpdk.objects.routes.sources.read_table` (every ``--routes-format``, compressed
or not, its progress told to the front end's reporter: the FIB planner's reader and option).  With adds only
(no deletes) neither table ever frees a tbl8 group, so what decides each add is small, and the same at every
supported tag (checked at v21.11.9, v22.11, v23.11.7, v24.11.6, v25.11.2 and v26.07: only atomics, logging, the name
check and, from 24.11, ``struct rte_ipv6_addr`` changed):

* ``rte_lpm_add`` (v22.11:lib/lpm/rte_lpm.c:799-844) refuses depth 0 and above 32 (EINVAL, :806-808: an
  LPM has no default route ``0.0.0.0/0``), adds the rule first (rule_add, rte_lpm.c:362-435: ENOSPC once
  ``max_rules`` distinct (prefix, depth) rules exist, :393-417; the same rule again only updates its next
  hop), then for a depth above 24 takes one tbl8 group if its /24 is not extended yet (add_depth_big,
  rte_lpm.c:646-708; tbl8_alloc's ENOSPC at :659-663, and the rule is deleted again, :830-840).
* ``rte_lpm6_add`` (v22.11:lib/lpm/rte_lpm6.c:852-902) refuses depth 0 and above 128 (:864-865), then
  first simulates the add (simulate_add, rte_lpm6.c:596-637,815-846): a route of depth d needs one tbl8
  group per 8 bits past the first 24 from the first level of its path that is not extended yet, and fails
  with ENOSPC (:841-843) *before* its rule is looked at; then rule_add (rte_lpm6.c:482-514) refuses a new
  rule once ``max_rules`` exist (:498-499).

So the replay keeps one "seen" byte per prefix for depths up to 24 (lazily zeroed mappings), a set for the
deeper rules, and the extended /24s (and, for IPv6, the extended tbl8 entries of deeper levels); per route it
records one byte (:data:`NEW_RULE`, the new tbl8 groups, :data:`BAD_DEPTH`).  The first failure for a
table size comes from cumulative counts kept per chunk of routes: the (max_rules + 1)-th new rule, the
first route whose groups exceed the table, the first depth 0, in DPDK's order of checks.

rule_add has three ENOSPC tests (the end of the route's depth group, the insertion point of an empty group,
each deeper group in the make-room loop, rte_lpm.c:393-417); the rules are packed by depth from index 0, so
with adds only each is "the deepest group ends at max_rules": a new rule fails iff max_rules rules exist.
(A tbl8 failure's rule_delete can leave an empty group with a non-zero first_rule, but only after the first
failure, past which nothing is predicted.)  rule_add also scans every rule of the route's depth for a
duplicate (:370-396), which makes DPDK's own build of a full IPv4 table quadratic (minutes for a million
routes).  rte_lpm6's rule_add inserts into a rules hash of ``max_rules * 1.2 + 64`` entries
(rte_lpm6.c:268-277) whose own ENOSPC (a full cuckoo path) is not modelled: below 84 % load in 8-entry
buckets it has not happened in any test, the full tables included.

Next hops are stored in bit fields: 24 bits in rte_lpm (v22.11:lib/lpm/rte_lpm.h:84), 21 in rte_lpm6
(v22.11:lib/lpm/rte_lpm6.c:57); a larger next hop is added without error and truncated in the tables.
Both functions take a ``uint32_t`` next hop: a plain file giving a larger one is refused.

Pure Python, stdlib only (no click, no rich).
"""

from __future__ import annotations

from array import array
from bisect import bisect_right
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from mpcalc.dpdk.core.declare import Param, Resolved
from mpcalc.dpdk.core.errors import InputError, Rejection
from mpcalc.dpdk.core.intmath import U32_MAX
from mpcalc.dpdk.objects.fib import FIB
from mpcalc.dpdk.objects.fib_spec import MAX_PLANNED_ROUTES
from mpcalc.dpdk.objects.lpm_replay import BAD_DEPTH as BAD_DEPTH
from mpcalc.dpdk.objects.lpm_replay import CHUNK as CHUNK
from mpcalc.dpdk.objects.lpm_replay import GROUP_SHIFT as GROUP_SHIFT
from mpcalc.dpdk.objects.lpm_replay import NEW_RULE as NEW_RULE
from mpcalc.dpdk.objects.lpm_replay import replay4 as replay4
from mpcalc.dpdk.objects.lpm_replay import replay6 as replay6

if TYPE_CHECKING:  # annotations only: the route modules load when a route file is read
    from mpcalc.dpdk.objects.routes.parse import Route
    from mpcalc.dpdk.objects.routes.route_table import RouteTable

NH_BITS = {4: 24, 6: 21}
WIDTH = {4: 32, 6: 128}
#: what examples/l3fwd/l3fwd_lpm.c asks for (v22.11:examples/l3fwd/l3fwd_lpm.c:36-39)
L3FWD = {4: (1024, 1 << 8), 6: (1024, 1 << 16)}
#: the routes a replay takes at most: the FIB planner's bound (mpcalc.dpdk.objects.fib_spec.MAX_PLANNED_ROUTES)
MAX_ROUTES = MAX_PLANNED_ROUTES
#: --routes-format, declared once by the FIB (mpcalc.dpdk.objects.fib)
ROUTES_FORMAT: Param = next(p for p in FIB.params if p.key == "routes_format")

_RULE_T = bytes(c & NEW_RULE for c in range(256))
_GROUPS_T = bytes(0 if c & BAD_DEPTH else c >> GROUP_SHIFT & 15 for c in range(256))


class LpmPlan:
    """Each route's needs given that every route before it was added (``codes``: one byte a route), the
    totals, and the first route that fails in a table of a given size (:meth:`failure`)."""

    def __init__(self, family: int, table: Sequence[Route], codes: bytearray) -> None:
        self.family = family
        self.table = table
        self.codes = codes
        # new rules and tbl8 groups before each chunk of CHUNK routes (len: chunks + 1)
        self._rules_cum = array("Q", [0])
        self._groups_cum = array("Q", [0])
        for lo in range(0, len(codes), CHUNK):
            chunk = codes[lo : lo + CHUNK]
            self._rules_cum.append(self._rules_cum[-1] + chunk.translate(_RULE_T).count(1))
            self._groups_cum.append(self._groups_cum[-1] + sum(chunk.translate(_GROUPS_T)))
        self.rules_needed = self._rules_cum[-1]
        self.tbl8_needed = self._groups_cum[-1]
        self.refused = codes.count(BAD_DEPTH)
        self._wide: tuple[int, int] | None = None

    def new_rule(self, i: int) -> bool:
        return bool(self.codes[i] & NEW_RULE)

    def new_groups(self, i: int) -> int:
        return _GROUPS_T[self.codes[i]]

    def bad_depth(self, i: int) -> bool:
        return self.codes[i] == BAD_DEPTH

    def wide(self) -> tuple[int, int]:
        """(routes whose next hop does not fit the table's bit field, the first of them; len if none)."""
        if self._wide is None:
            self._wide = above(self.table, (1 << NH_BITS[self.family]) - 1)
        return self._wide

    def wanted(self) -> tuple[int, int]:
        """The max_rules and number_tbl8s the table needs, at least 1 each (rte_lpm_create and rte_lpm6_create
        refuse 0 rules, v22.11:lib/lpm/rte_lpm.c:161-165, rte_lpm6.c:258-264; 0 tbl8 groups fails their
        0-byte rte_zmalloc)."""
        return max(1, self.rules_needed), max(1, self.tbl8_needed)

    def to_dict(self) -> dict[str, object]:
        return {
            "routes": len(self.codes),
            "rules_needed": self.rules_needed,
            "tbl8_needed": self.tbl8_needed,
            "refused_depth_0": self.refused,
            "next_hops_truncated": self.wide()[0],
            "format": getattr(self.table, "format", "plain"),
        }

    # -- the first failure -------------------------------------------------------------------------------

    def _before(self, i: int) -> tuple[int, int]:
        """(new rules, tbl8 groups) of the routes before route i."""
        c = i // CHUNK
        part = self.codes[c * CHUNK : i]
        return self._rules_cum[c] + part.translate(_RULE_T).count(1), self._groups_cum[c] + sum(
            part.translate(_GROUPS_T)
        )

    def _rule_fails(self, max_rules: int) -> int:
        """The route that would be rule max_rules + 1 (rule_add's ENOSPC); len if none."""
        if self.rules_needed <= max_rules:
            return len(self.codes)
        c = bisect_right(self._rules_cum, max_rules) - 1  # the chunk holding it
        count = self._rules_cum[c]
        lo = c * CHUNK
        for i, code in enumerate(self.codes[lo : lo + CHUNK], lo):
            count += code & NEW_RULE
            if count > max_rules:
                return i
        raise AssertionError("cumulative rule counts")  # pragma: no cover

    def _tbl8_fails(self, tbl8s: int) -> int:
        """The first route whose groups exceed ``tbl8s`` with those of the routes before (ENOSPC)."""
        if self.tbl8_needed <= tbl8s:
            return len(self.codes)
        c = bisect_right(self._groups_cum, tbl8s) - 1
        count = self._groups_cum[c]
        lo = c * CHUNK
        for i, code in enumerate(self.codes[lo : lo + CHUNK].translate(_GROUPS_T), lo):
            count += code
            if count > tbl8s:
                return i
        raise AssertionError("cumulative group counts")  # pragma: no cover

    def _where(self, i: int) -> str:
        route = self.table[i]
        unit = "record" if getattr(self.table, "format", "plain") == "mrt" else "line"
        return f"route {i + 1} ({route.prefix(self.family)}" + (f", {unit} {route.line})" if route.line else ")")

    def failure(self, max_rules: int, tbl8s: int) -> list[Rejection]:
        """The first route whose add fails in a table of this size, or a hazard for next hops too wide."""
        v4 = self.family == 4
        fn = "rte_lpm_add" if v4 else "rte_lpm6_add"
        src = "v22.11:lib/lpm/rte_lpm.c" if v4 else "v22.11:lib/lpm/rte_lpm6.c"
        n = len(self.codes)
        bad = self.codes.find(BAD_DEPTH)
        bad = n if bad < 0 else bad
        rule_at, tbl8_at = self._rule_fails(max_rules), self._tbl8_fails(tbl8s)
        i = min(bad, rule_at, tbl8_at)
        if i < n:
            where = self._where(i)
            if i == bad:
                return [
                    Rejection(
                        "EINVAL",
                        f"{where} fails: depth 0 is refused (an LPM table has no default route; "
                        "look-ups that miss return -ENOENT)",
                        fn,
                        f"{src}:806-808" if v4 else f"{src}:864-865",
                    )
                ]
            needs = f"; the table needs max_rules {self.rules_needed} and {self.tbl8_needed} tbl8 groups"
            # rte_lpm_add checks the rule first, rte_lpm6_add the tbl8 groups first (simulate_add)
            if i == rule_at and (v4 or i != tbl8_at):
                return [
                    Rejection(
                        "ENOSPC",
                        f"{where} fails: the rules table is full ({max_rules} rules){needs}",
                        fn,
                        f"{src}:393-417,814-825" if v4 else f"{src}:498-499,877-880",
                    )
                ]
            groups = self._before(i)[1]
            return [
                Rejection(
                    "ENOSPC",
                    f"{where} fails: it needs {self.new_groups(i)} more tbl8 group(s) and "
                    f"{tbl8s - groups} of {tbl8s} are free{needs}",
                    fn,
                    f"{src}:646-663,830-840" if v4 else f"{src}:815-846,872-874",
                )
            ]
        count, first = self.wide()
        if count:
            bits = NH_BITS[self.family]
            route = self.table[first]
            return [
                Rejection(
                    None,
                    f"{count} route(s) (first: line {route.line}, next hop {route.next_hop}) "
                    f"have a next hop above 2^{bits} - 1: the add succeeds and the table keeps only the "
                    f"low {bits} bits",
                    fn,
                    "v22.11:lib/lpm/rte_lpm.h:84" if v4 else "v22.11:lib/lpm/rte_lpm6.c:57",
                )
            ]
        return []


def above(table: Sequence[Route], limit: int) -> tuple[int, int]:
    """(how many routes have a next hop above ``limit``, the first of them; len(table) if none)."""
    nhs = getattr(table, "next_hops", None)
    if nhs is None and not hasattr(table, "next_hops"):
        nhs = [r.next_hop for r in table]
    if nhs is None:
        return 0, len(table)
    if isinstance(nhs, array):
        if not nhs or max(nhs) <= limit:
            return 0, len(table)
        values: Iterable[int] = nhs
    else:
        values = (-1 if h is None else h for h in nhs)
    count, first = 0, len(table)
    for i, h in enumerate(values):
        if h > limit:
            count += 1
            if count == 1:
                first = i
    return count, first


def plan(table: Sequence[Route], family: int, progress: Callable[[int], None] | None = None) -> LpmPlan:
    """Replay the adds of ``table`` (a RouteTable, or Routes) into rte_lpm (4) or rte_lpm6 (6)."""
    if family not in WIDTH:
        raise InputError(f"address family must be 4 or 6, not {family!r}", param="family")
    cols = getattr(table, "nets", None), getattr(table, "depths", None)
    nets, depths = cols if cols[1] is not None else ([r.network for r in table], bytes(r.depth for r in table))
    assert nets is not None and depths is not None
    codes = (replay4 if family == 4 else replay6)(nets, depths, progress)
    return LpmPlan(family, table, codes)


def _check_next_hops(table: Sequence[Route], source: str) -> None:
    """rte_lpm_add / rte_lpm6_add take a uint32_t next hop (rte_lpm.h, rte_lpm6.h): refuse a larger one."""
    count, first = above(table, U32_MAX)
    if count:
        route = table[first]
        raise InputError(f"{source}:{route.line}: next hop {route.next_hop} is not a uint32_t", param=source)


def parse(lines: Iterable[str], family: int, source: str) -> RouteTable:
    """Plain ``PREFIX/DEPTH [NEXT_HOP]`` lines (the route reader's plain format) as a route table."""
    from mpcalc.dpdk.objects.routes.route_table import TableBuilder, parse_plain

    builder = TableBuilder(family, source)
    text = "".join(ln if ln.endswith("\n") else ln + "\n" for ln in lines)
    if text:
        parse_plain(text, family, builder)
    table = builder.table()
    _check_next_hops(table, source)
    return table


def read(path: str, family: int, fmt: str = "auto") -> RouteTable:
    """A route table in any ``--routes-format`` ('-': stdin), read as ``fib --routes-file`` reads it."""
    from mpcalc.dpdk.objects.fib_routes import route_plan

    table, _ = route_plan(path, family, "dummy", fmt)  # the dummy data plane: read only, with progress
    if len(table) > MAX_ROUTES:
        raise InputError(
            f"{path}: {len(table):,} routes; the LPM replay takes at most {MAX_ROUTES:,}: give "
            "--max-rules and --tbl8 instead, or plan a part of the table",
            param="--routes-file",
        )
    _check_next_hops(table, getattr(table, "source", "") or path)
    return table  # type: ignore[return-value]


def resolve_routes(a: Mapping[str, Any], family: int) -> Resolved:
    """The ``lpm`` / ``lpm6`` inputs: max_rules and tbl8 from the options, else from the route file, else l3fwd's."""
    path = a.get("routes_file")
    fmt = a.get("routes_format") or "auto"
    lpm_plan = None
    if path is not None:
        from mpcalc.dpdk.core.progress import task

        table = read(path, family, fmt)
        with task(f"replaying rte_{'lpm' if family == 4 else 'lpm6'}_add", total=len(table)) as replaying:
            lpm_plan = plan(table, family, progress=replaying)
    rules_wanted, tbl8_wanted = lpm_plan.wanted() if lpm_plan else L3FWD[family]
    max_rules = a["max_rules"] if a["max_rules"] is not None else rules_wanted
    tbl8 = a["tbl8"] if a["tbl8"] is not None else tbl8_wanted
    return Resolved(
        {"name": a["name"], "max_rules": max_rules, "tbl8": tbl8, "routes_file": path, "routes_format": fmt},
        {"plan": lpm_plan},
    )


def route_report(
    lpm_plan: LpmPlan, max_rules: int, tbl8s: int, failed: bool
) -> tuple[dict[str, object], list[Rejection]]:
    """A route plan's part of an LPM's report: the answer a report leads with (the ``--max-rules`` and
    ``--tbl8`` to pass, and the room this table leaves: negative, what it lacks), the plan's counts, and the
    first route whose add fails in this table (none when the creation itself failed)."""
    rules, tbl8 = lpm_plan.wanted()
    answer = {
        "max_rules": rules,
        "tbl8": tbl8,
        "rules_headroom": max_rules - lpm_plan.rules_needed,
        "tbl8_headroom": tbl8s - lpm_plan.tbl8_needed,
    }
    return {"answer": answer, "route_plan": lpm_plan.to_dict()}, [] if failed else lpm_plan.failure(max_rules, tbl8s)
