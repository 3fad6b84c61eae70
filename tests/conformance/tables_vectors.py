"""The commands recorded in vectors/tables-<tag>-x86_64.jsonl.gz (rings, mempool drivers, LPM, LPM6, hashes and
the route replays, from real static builds of each release: vectors/README.md), and their replay against mpcalc.

A recorded line is ``{"tag", "platform", "cmd", "lines", "reply"}``: ``lines`` are the route lines of an
``lpmadd`` command.  :func:`replay` recomputes every line with ``make_platform(dpdk=<release>)``.
"""

from __future__ import annotations

from collections.abc import Iterator

from mpcalc.dpdk.core.platform import Platform
from mpcalc.dpdk.objects import lpm_routes
from mpcalc.dpdk.objects import ring as dpdk_ring
from mpcalc.dpdk.objects.mempool.ops import STACK_STRUCT_LINES

from . import tables_grid

#: reply keys the replay does not use
DROP = ("chunk_lens", "heap_total", "heap_free")
ROUTE_SETS = 30


def _routes(family: int) -> Iterator[tuple[str, tuple[str, ...]]]:
    kind = "lpm" if family == 4 else "lpm6"
    for i, routes in enumerate(tables_grid.route_sets(ROUTE_SETS, family)):
        lines = tuple(f"{a}/{d} {nh}" for a, d, nh in routes)
        plan = lpm_routes.plan(lpm_routes.parse(lines, family, "<grid>"), family)
        rules, tbl8 = max(1, plan.rules_needed - i % 3), max(1, plan.tbl8_needed - i % 2)
        name = f"{kind}v{i}"
        yield f"{kind} {name} {rules} {tbl8} keep", ()
        yield f"lpmadd {name} {family} {len(lines)}", lines
        yield f"free {name}", ()


def commands() -> list[tuple[str, tuple[str, ...]]]:
    """Every recorded command and its extra lines, in the order they were sent to one probe."""
    out: list[tuple[str, tuple[str, ...]]] = []
    for cases in (
        tables_grid.ring_cases(800),
        tables_grid.ops_cases(400),
        tables_grid.lpm_cases(200),
        tables_grid.lpm6_cases(150),
        tables_grid.hash_cases(500),
    ):
        out += [(c.command(), ()) for c in cases]
    out += [(f"ringmemsize {e} {c}", ()) for e, c in tables_grid.ringmemsize_cases(300)]
    out += [*_routes(4), *_routes(6)]
    return out


def _cases() -> dict[str, object]:
    cases: dict[str, object] = {}
    for group in (
        tables_grid.ring_cases(800),
        tables_grid.ops_cases(400),
        tables_grid.lpm_cases(200),
        tables_grid.lpm6_cases(150),
        tables_grid.hash_cases(500),
    ):
        cases.update({c.command(): c for c in group})
    return cases


def platform_mismatches(plat: dict, p: Platform) -> list[str]:
    sizes = plat["sizeof"]
    want = {
        "rte_ring": p.sizeof_ring,
        "rte_stack": STACK_STRUCT_LINES * p.cache_line,
        "rte_lpm": (1 << 26) + p.cache_line,
    }
    return [f"sizeof({k}) {sizes[k]} != {v}" for k, v in want.items() if sizes[k] != v]


def replay(lines: list[dict], p: Platform) -> list[str]:
    """Every recorded line recomputed on ``p``: the mismatch descriptions."""
    cases = _cases()
    failures: list[str] = []
    sizes: dict[str, tuple[int, int]] = {}
    for line in lines:
        cmd, reply = line["cmd"], line["reply"]
        word = cmd.split()[0]
        if cmd in cases:
            case = cases[cmd]
            diffs = case.mismatches(case.compute(p), reply)  # type: ignore[attr-defined]
        elif word == "ringmemsize":
            esize, count = (int(x) for x in cmd.split()[1:])
            size, err = dpdk_ring.memsize_elem(esize, count, p)
            diffs = [] if (size if err is None else -22) == reply["memsize"] else [f"memsize {reply['memsize']}"]
        elif word in ("lpm", "lpm6") and cmd.endswith(" keep"):
            _, name, rules, tbl8, _ = cmd.split()
            sizes[name] = (int(rules), int(tbl8))
            diffs = [] if reply["ok"] else [f"the route table was not created: {reply}"]
        elif word == "lpmadd":
            _, name, family, _ = cmd.split()
            fam = int(family)
            plan = lpm_routes.plan(lpm_routes.parse(line["lines"], fam, "<vector>"), fam)
            mine = plan.failure(*sizes[name])
            expected = (
                (None, None)
                if not mine or mine[0].errno is None
                else (int(mine[0].reason.split()[1]) - 1, mine[0].errno)
            )
            diffs = [] if expected == (reply["failed_at"], reply["errno"]) else [f"mpcalc {expected} != DPDK {reply}"]
        elif word == "free":
            diffs = [] if reply["ok"] else [f"free failed: {reply}"]
        else:
            diffs = [f"unknown recorded command {cmd!r}"]
        if diffs:
            failures.append(f"{cmd}: " + "; ".join(diffs))
    return failures
