"""A FIB's route file: reading and replaying it (``route_plan``), the answer a report leads with (``answer``:
the ``--routes`` and ``--tbl8`` to pass, and the headroom), and the first route whose ``rte_fib_add`` /
``rte_fib6_add`` fails in a FIB of the size asked (``route_failure``).  The replay itself is
mpcalc.dpdk.objects.routes; the FIB's sizes are mpcalc.dpdk.objects.fib.
"""

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from mpcalc.dpdk.core.errors import InputError, Rejection
from mpcalc.dpdk.objects.fib_spec import MAX_PLANNED_ROUTES, FibSpec, max_nh, provided_tbl8
from mpcalc.dpdk.objects.rib import rib_max_nodes

if TYPE_CHECKING:  # annotations only: mpcalc.dpdk.objects.routes loads when a route file is read
    from mpcalc.dpdk.objects.routes import Route, RoutePlan
    from mpcalc.dpdk.objects.routes.route_table import RouteTable


def answer(spec: FibSpec, plan: "RoutePlan") -> dict[str, int]:
    """What a route file asks of rte_fib_create, first in a FIB's details: the ``--routes`` (max_routes)
    and ``--tbl8`` (num_tbl8) to pass, and the room this FIB leaves (negative: what it lacks): RIB nodes
    (2 x max_routes, v22.11:lib/fib/rte_fib.c:165-166; a route takes one or two) and tbl8 groups (DIR24_8
    provides num_tbl8 rounded up to 64, v22.11:lib/fib/dir24_8.c:518-519)."""
    return {
        "routes": plan.min_max_routes,
        "tbl8": plan.num_tbl8,
        "rib_nodes_headroom": rib_max_nodes(spec.max_routes) - plan.rib_nodes_needed,
        "tbl8_headroom": provided_tbl8(spec) - plan.tbl8_needed,
    }


def _big_next_hop(spec: FibSpec, plan: "RoutePlan", routes: Sequence["Route"]) -> tuple[int, bool]:
    """The first route whose next hop DPDK refuses as above get_max_nh(nh_sz) (len if none), and whether
    that is silent.  dir24_8_modify tests it first, for every add (v22.11.11:lib/fib/dir24_8.c:428-429);
    the trie only in modify_dp (trie.c:470-471): a duplicate or a route with its parent's next hop is taken,
    a replaced next hop is refused but rte_fib6_add returns 0 (trie.c:567-570), a new route fails."""
    limit = max_nh(spec.nh_size)
    above = getattr(routes, "next_hop_above", None)
    n = len(routes)
    start = (
        above(limit)
        if above is not None
        else next((i for i, r in enumerate(routes) if r.next_hop is not None and r.next_hop > limit), n)
    )
    if spec.family == 4 or start >= n:
        return start, False
    kinds = plan.kinds
    for i in range(start, n):
        nh = routes[i].next_hop
        if nh is not None and nh > limit and kinds[i] in ("new", "replace"):
            return i, kinds[i] == "replace"
    return n, False


def route_failure(spec: FibSpec, plan: "RoutePlan", routes: Sequence["Route"]) -> list[Rejection]:
    """The first route whose rte_fib_add fails in a FIB of this size (mpcalc.dpdk.objects.routes replays DPDK's
    adds)."""
    failure = plan.first_failure(
        tbl8s=provided_tbl8(spec) if spec.dp_type != "dummy" else None, rib_nodes=max(rib_max_nodes(spec.max_routes), 0)
    )
    big, quiet = _big_next_hop(spec, plan, routes)
    fn = "rte_fib_add" if spec.family == 4 else "rte_fib6_add"
    if big < len(routes) and (
        failure is None
        or big < failure.index
        or (big == failure.index and (spec.family == 4 or failure.reason.startswith("tbl8 allocation")))
    ):
        route = routes[big]
        where = _where(spec, routes, big)
        limit = max_nh(spec.nh_size)
        src = "v22.11.11:lib/fib/dir24_8.c:428-429" if spec.family == 4 else "v22.11.11:lib/fib/trie.c:470-471"
        if quiet:
            return [
                Rejection(
                    errno=None,
                    reason=f"{where}: next hop {route.next_hop} is above {limit}, the largest a "
                    f"{spec.nh_size}-byte next hop holds: modify_dp refuses it, rte_fib6_add returns 0 and "
                    "the route keeps its old next hop",
                    function=fn,
                    source=src,
                )
            ]
        return [
            Rejection(
                errno="EINVAL",
                reason=f"{where} fails: next hop {route.next_hop} is above {limit}, the "
                f"largest a {spec.nh_size}-byte next hop holds",
                function=fn,
                source=src,
            )
        ]
    if failure is None:
        return []
    where = _where(spec, routes, failure.index)
    needs = f"; the table needs {plan.tbl8_needed} tbl8 groups and {plan.min_max_routes} max_routes"
    src = "v22.11.11:lib/fib/dir24_8.c:447-471" if spec.family == 4 else "v22.11.11:lib/fib/trie.c:545-592"
    if failure.errno == "ENOMEM":
        src = "v22.11.11:lib/rib/rte_rib.c:79-90 (node_alloc from the node pool)"
    if failure.silent:
        return [
            Rejection(
                errno=None,
                reason=f"{where}: {failure.reason}; DPDK returns 0 but the table is wrong from here{needs}",
                function=fn,
                source=src,
            )
        ]
    return [Rejection(errno=failure.errno, reason=f"{where} fails: {failure.reason}{needs}", function=fn, source=src)]


def _where(spec: FibSpec, routes: Sequence["Route"], i: int) -> str:
    route = routes[i]
    unit = "record" if getattr(routes, "format", "plain") == "mrt" else "line"
    return f"route {i + 1} ({route.prefix(spec.family)}" + (f", {unit} {route.line})" if route.line else ")")


def route_plan(
    path: str | None, family: int, dp_type: str, fmt: str = "auto"
) -> tuple["RouteTable | list[Any]", "RoutePlan | None"]:
    """Read a route table ('-': standard input) in ``fmt`` and, for DIR24_8/TRIE, replay it to plan the tbl8
    groups; how far the reading and the replay got goes to the front end's reporter (mpcalc.dpdk.core.progress)."""
    if path is None:
        return [], None
    from mpcalc.dpdk.core.progress import task
    from mpcalc.dpdk.objects import routes as routemod
    from mpcalc.dpdk.objects.routes.sources import read_table

    with task("reading routes (bytes)") as reading:
        table = read_table(path, family, fmt, progress=reading)
    if dp_type == "dummy":
        return table, None
    if len(table) > MAX_PLANNED_ROUTES:
        raise InputError(
            f"{path}: {len(table):,} routes; the tbl8 planner takes at most {MAX_PLANNED_ROUTES:,}: "
            "give --routes and --tbl8 instead, or plan a part of the table",
            param="--routes-file",
        )
    with task(f"replaying rte_{'fib' if family == 4 else 'fib6'}_add", total=len(table)) as replaying:
        return table, routemod.plan(table, family, dp_type, progress=replaying)
