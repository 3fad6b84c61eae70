"""rte_fib / rte_fib6: the RIB node pool and the data-plane tables.

rte_fib_create (v22.11:lib/fib/rte_fib.c:148-239), dir24_8_create
(v22.11.11:lib/fib/dir24_8.c:496-565), rte_fib6_create (v22.11:lib/fib/rte_fib6.c:149-240),
trie_create (v22.11.11:lib/fib/trie.c:621-681).  The ``fib`` and ``fib6`` objects: :data:`FIB`, :data:`FIB6`.
"""

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from mpcalc.dpdk.core.declare import FLAGS, ObjectDecl, Param, Resolved
from mpcalc.dpdk.core.errors import InputError, Rejection, check_u32
from mpcalc.dpdk.core.heap import assemble
from mpcalc.dpdk.core.intmath import INT_MAX, ceil_a, u32
from mpcalc.dpdk.core.platform import Platform
from mpcalc.dpdk.core.records import Allocation, Mempool, Result
from mpcalc.dpdk.objects.fib_routes import answer, route_failure, route_plan
from mpcalc.dpdk.objects.fib_spec import TBL8_GROUP_ENTRIES, TBL24_ENTRIES, TYPES, FibSpec, max_nh, provided_tbl8
from mpcalc.dpdk.objects.mempool import RING_LIMIT
from mpcalc.dpdk.objects.rib import rib_max_nodes, rib_parts

if (
    TYPE_CHECKING
):  # annotations only: mpcalc.dpdk.objects.routes (ipaddress, the RIB replay) loads when a route file is read
    from mpcalc.dpdk.objects.routes import Route, RoutePlan


def _reject(errno: str, reason: str, function: str, source: str) -> Rejection:
    return Rejection(errno=errno, reason=reason, function=function, source=source)


def dataplane(spec: FibSpec, p: Platform) -> tuple[list[Allocation], list[Rejection]]:
    """The rte_malloc allocations of init_dataplane, or DPDK's rejection."""
    r = p.release
    if spec.dp_type == "dummy":
        return [], []
    fn = "dir24_8_create" if spec.family == 4 else "trie_create"
    src = "v22.11:lib/fib/dir24_8.c:504-514" if spec.family == 4 else "v22.11:lib/fib/trie.c:613-623"
    valid = (1, 2, 4, 8) if spec.family == 4 else (2, 4, 8)
    if spec.nh_size not in valid:
        return [], [_reject("EINVAL", f"next-hop size {spec.nh_size} B is not one of {valid}", fn, src)]
    limit = max_nh(spec.nh_size)
    if spec.num_tbl8 == 0:
        return [], [_reject("EINVAL", "num_tbl8 is 0", fn, src)]
    if spec.num_tbl8 > limit:
        return [], [
            _reject(
                "EINVAL",
                f"num_tbl8 {spec.num_tbl8} exceeds {limit}, the largest a {spec.nh_size}-byte next hop encodes",
                fn,
                src,
            )
        ]
    if spec.default_nh > limit:
        return [], [_reject("EINVAL", f"default next hop {spec.default_nh} exceeds {limit}", fn, src)]
    groups = provided_tbl8(spec)
    head = ceil_a(r.dir24_8_tbl_head if spec.family == 4 else r.trie_tbl_head, p.cache_line)
    allocs = [
        Allocation(
            name=f"DP_{spec.name}",
            size=head + TBL24_ENTRIES * spec.nh_size + r.tbl24_extra_bytes,
            role="dir24_8_tbl + tbl24" if spec.family == 4 else "rte_trie_tbl + tbl24",
        ),
        Allocation(
            name=f"TBL8_{spec.name}",
            size=TBL8_GROUP_ENTRIES * spec.nh_size * (groups + 1),
            role=f"tbl8: {groups} groups + 1",
        ),
    ]
    if spec.family == 4:
        bitmap = ceil_a(groups, 64) >> 3
        if bitmap == 0:
            # num_tbl8 above 0xFFFFFFC0 wraps to 0 groups; rte_zmalloc(0) fails (v22.11:lib/fib/dir24_8.c:547-555)
            return [], [
                _reject(
                    "ENOMEM",
                    f"num_tbl8 {spec.num_tbl8} rounds up to 0 in uint32: the bitmap allocation has size 0 and fails",
                    fn,
                    "v22.11:lib/fib/dir24_8.c:518-555",
                )
            ]
        allocs.append(Allocation(name=f"TBL8_idxes_{spec.name}", size=bitmap, role="tbl8 index bitmap"))
    else:
        allocs.append(Allocation(name=f"TBL8_idxes_{spec.name}", size=4 * groups, role="tbl8 index pool"))
    return allocs, []


def fib_parts(spec: FibSpec, flags: int, p: Platform) -> tuple[list[Mempool], list[Allocation], list[Rejection]]:
    """Everything rte_fib_create / rte_fib6_create reserve, in DPDK's order; a later
    rejection frees what came before (v22.11:lib/fib/rte_fib.c:225-238)."""
    r = p.release
    fn = f"rte_{spec.kind}_create"
    src = f"v22.11:lib/fib/rte_{spec.kind}.c:159-163"
    if spec.max_routes < 0:
        return [], [], [_reject("EINVAL", f"max_routes {spec.max_routes} is negative", fn, src)]
    if spec.dp_type not in TYPES[spec.family]:
        return [], [], [_reject("EINVAL", f"type {spec.dp_type!r} is not one of {TYPES[spec.family]}", fn, src)]
    # rib_conf.max_nodes = conf->max_routes * 2, in a C int (v22.11:lib/fib/rte_fib.c:165-166)
    mempools, rib_allocs, errors = rib_parts(
        spec.name, rib_max_nodes(spec.max_routes), u32(spec.ext_size), flags, spec.family, p
    )
    if errors or any(mp.errors for mp in mempools):
        return mempools, rib_allocs, errors
    dp, errors = dataplane(spec, p)
    if errors:
        return [], [], errors
    prefix = "FIB_" if spec.family == 4 else "FIB6_"
    allocs = [
        *rib_allocs,
        Allocation(name=f"{prefix}TAILQ_ENTRY", size=r.tailq_entry_size, role="tailq entry"),
        Allocation(
            name=prefix + spec.name,
            size=r.fib_struct_size if spec.family == 4 else r.fib6_struct_size,
            role=f"struct rte_{spec.kind}",
        ),
        *dp,
    ]
    return mempools, allocs, []


def size(
    spec: FibSpec, flags: int, p: Platform, plan: "RoutePlan | None" = None, routes: Sequence["Route"] = ()
) -> Result:
    """``rte_fib_create`` / ``rte_fib6_create``; ``flags`` are the RIB node pool's.

    With a route ``plan`` (mpcalc.dpdk.objects.routes), also whether adding those routes in
    order fits: the first rte_fib_add that would fail is reported as DPDK's error.
    """
    check_u32((spec.num_tbl8, "num_tbl8"), (spec.ext_size, "ext_size"))
    mempools, allocs, errors = fib_parts(spec, flags, p)
    details: dict[str, object] = {
        "type": spec.dp_type,
        "max_routes": spec.max_routes,
        "max_nodes": rib_max_nodes(spec.max_routes),
        "nh_size": spec.nh_size,
        "ext_size": spec.ext_size,
    }
    if spec.dp_type != "dummy":
        details.update(num_tbl8=spec.num_tbl8, tbl8_provided=provided_tbl8(spec))
    if plan is not None:
        details = {"answer": answer(spec, plan), **details}
        details["route_plan"] = {**plan.to_dict(), "format": getattr(routes, "format", "plain")}
        details["tbl8_needed"] = plan.tbl8_needed
        if not errors and not any(mp.errors for mp in mempools):
            errors = [*errors, *route_failure(spec, plan, routes)]
    return assemble(spec.kind, flags, p, mempools, allocs, errors, details)


#: num_tbl8 when neither --tbl8 nor a route file says: what examples/l3fwd/l3fwd_fib.c asks for
DEFAULT_TBL8 = 1 << 15
#: --routes-format: how a route file is written (mpcalc.dpdk.objects.routes.sources)
ROUTE_FORMATS = ("auto", "plain", "ip", "frr-json", "bird", "bgpdump", "mrt")


def _declare(family: int) -> ObjectDecl:
    kind = "fib" if family == 4 else "fib6"
    types = TYPES[family][::-1]
    sizes = ("1", "2", "4", "8")  # fib6 has no 1-byte next hop: DPDK rejects it (EINVAL)

    def resolve(a: Mapping[str, Any]) -> Resolved:
        routes, path, dp_type = a["routes"], a.get("routes_file"), a["type"]
        if routes is None and path is None:
            raise InputError("give --routes, --routes-file or both")
        table, plan = route_plan(path, family, dp_type, a.get("routes_format") or "auto")
        if routes is None:
            routes = max(len(table), plan.min_max_routes if plan else 0)
        tbl8 = a["tbl8"]
        if tbl8 is None:
            tbl8 = plan.num_tbl8 if plan else DEFAULT_TBL8
        return Resolved(
            {
                "name": a["name"],
                "routes": routes,
                "routes_file": path,
                "routes_format": a.get("routes_format") or "auto",
                "type": dp_type,
                "nh_size": a["nh_size"],
                "tbl8": tbl8,
                "ext_size": a["ext_size"],
            },
            {"plan": plan, "table": table},
        )

    def build(a: Mapping[str, Any], extra: Mapping[str, Any], flags: int, p: Platform) -> Result:
        spec = FibSpec(
            family=family,
            name=a["name"],
            max_routes=a["routes"],
            type=a["type"],
            nh_size=a["nh_size"],
            num_tbl8=a["tbl8"],
            ext_size=a["ext_size"],
        )
        return size(spec, flags, p, extra.get("plan"), extra.get("table", ()))

    return ObjectDecl(
        name=kind,
        summary=(
            f"An rte_{kind}_create() FIB: its RIB node pool and its lookup tables. --flags sets the node "
            "pool's flags, as the RIB patch proposes."
        ),
        params=(
            Param(
                "routes",
                "count",
                "max_routes; the RIB gets 2 x max_routes nodes [default with --routes-file: what the file needs].",
                hi=INT_MAX,
            ),
            Param(
                "routes_file",
                "path",
                "A route table: count the routes and plan the tbl8 groups by replaying "
                "DPDK's adds; '-' reads stdin (see --routes-format).",
                fronts=frozenset({"cli", "batch"}),
            ),
            Param(
                "routes_format",
                "choice",
                "How --routes-file is written: PREFIX/DEPTH [NEXT_HOP] lines (plain), "
                "ip route output, FRR show ip route json, BIRD show route, bgpdump -m, an MRT RIB dump (RouteViews, "
                "RIPE RIS); gzip, bzip2 or xz. auto: told by its first bytes.",
                default="auto",
                choices=ROUTE_FORMATS,
                show_default=True,
                fronts=frozenset({"cli", "batch"}),
            ),
            Param("type", "choice", "Data plane.", default=types[0], choices=types, show_default=True),
            Param(
                "nh_size",
                "choice",
                "Next-hop size in bytes.",
                default=4,
                choices=sizes,
                numeric=True,
                show_default=True,
            ),
            Param(
                "tbl8",
                "count",
                "num_tbl8: tbl8 groups [default: what --routes-file needs, else 32768 as examples/l3fwd].",
            ),
            Param("ext_size", "size", "rib_ext_sz.", default=0, show_default=True),
            Param("name", "text", "FIB name (memzones MP_MP_<name>...).", default=kind, show_default=True),
            FLAGS,
        ),
        build=build,
        resolve=resolve,
        fit={"routes": RING_LIMIT // 2},
        per=("routes", "route"),
        zone_prefix="MP_MP_",
    )


FIB = _declare(4)
FIB6 = _declare(6)
