"""The sizing commands: ``pool``, ``rib``, ``rib6``, ``fib``, ``fib6`` and ``mbuf``.

Each is built by a factory when it is named (mpcalc.commands.COMMANDS): click builds every option
object of a command it constructs, and ``mpcalc rib ...`` should not pay for ``fib``'s.
"""

from __future__ import annotations

import sys
from typing import Any

import click

from .. import engine
from ..dpdk import fib as fibmod
from ..cli import Analysis, cache_options, finish, flags_option, sizing_options
from ..dpdk.errors import InputError
from ..dpdk.intmath import INT_MAX
from ..jobs import Job
from ..params import Count, Size
from ..dpdk.platform import Platform


def pool() -> click.Command:
    @click.command("pool")
    @click.option("--count", "-n", type=Count(minimum=0), default=None, help="Number of objects (n); required "
                  "unless --fit.")
    @click.option("--elt-size", type=Size(), required=True, help="Element size in bytes.")
    @click.option("--private-size", type=Size(), default=0, show_default=True, help="Private data size.")
    @click.option("--name", default="mp", show_default=True, help="Pool name (memzones MP_<name>...).")
    @cache_options
    @flags_option
    @sizing_options
    def command(count: int | None, elt_size: int, cache_size: int, private_size: int, name: str, cache_layout: str,
             flag_masks: list[int], platform: Platform, analysis: Analysis, fmt: str) -> int:
        """An rte_mempool_create() pool with the default ring ops."""
        count = _required(count, "--count", analysis)
        inputs = dict(name=name, count=count, elt_size=elt_size, cache_size=cache_size, private_size=private_size,
                      cache_layout=cache_layout)
        return finish(Job(command="pool", platform=platform, args=inputs), flag_masks, fmt, analysis, inputs)

    return command


def _required(value: int | None, option: str, analysis: Analysis) -> int:
    if value is None:
        if analysis.fit is None:
            raise click.UsageError(f"{option} is required (unless --fit finds it)")
        return 1
    return value


def rib_command(family: int) -> click.Command:
    kind = "rib" if family == 4 else "rib6"
    node = "rte_rib_node (40 B)" if family == 4 else "rte_rib6_node (56 B)"

    @click.option("--routes", type=Count(minimum=1, maximum=INT_MAX), default=None,
                  help="Routes; max_nodes = 2 x routes, as rte_fib_create sizes its RIB.")
    @click.option("--nodes", type=Count(minimum=1, maximum=INT_MAX), default=None, help="max_nodes directly.")
    @click.option("--ext-size", type=Size(), default=0, show_default=True, help="ext_sz: bytes added to each node.")
    @click.option("--name", default=kind, show_default=True, help="RIB name (memzones MP_MP_<name>...).")
    @flags_option
    @sizing_options
    def command(routes: int | None, nodes: int | None, ext_size: int, name: str, flag_masks: list[int],
                platform: Platform, analysis: Analysis, fmt: str) -> int:
        if routes is not None and nodes is not None or (routes is None and nodes is None and analysis.fit is None):
            raise click.UsageError("give exactly one of --routes and --nodes")
        if routes is None and nodes is None:
            routes = 1  # --fit finds max_routes
        max_nodes = engine.rib_max_nodes(routes) if routes is not None else nodes
        inputs = dict(name=name, routes=routes, max_nodes=max_nodes, ext_size=ext_size)
        job = Job(command=kind, platform=platform, args={**inputs, "family": family})
        return finish(job, flag_masks, fmt, analysis, inputs)

    command.__doc__ = (f"An rte_{kind}_create() RIB: a node pool of {node} + ext_size objects. "
                       "--flags sets the node pool's flags (DPDK uses none; the RIB patch proposes "
                       "no_cache_align,no_spread,no_iova_contig).")
    return click.command(kind)(command)



def fib_command(family: int) -> click.Command:
    kind = "fib" if family == 4 else "fib6"
    types = list(fibmod.TYPES[family][::-1])
    sizes = ["1", "2", "4", "8"]  # fib6 has no 1-byte next hop: DPDK rejects it (EINVAL)

    @click.option("--routes", type=Count(minimum=0, maximum=INT_MAX), default=None,
                  help="max_routes; the RIB gets 2 x max_routes nodes [default with --routes-file: what the "
                       "file needs].")
    @click.option("--routes-file", type=click.Path(dir_okay=False, allow_dash=True), default=None,
                  help="One prefix per line (optionally a next hop): count the routes and plan the tbl8 groups "
                       "by replaying DPDK's adds; '-' reads stdin.")
    @click.option("--type", "dp_type", type=click.Choice(types), default=types[0], show_default=True,
                  help="Data plane.")
    @click.option("--nh-size", type=click.Choice(sizes), default="4", show_default=True,
                  help="Next-hop size in bytes.")
    @click.option("--tbl8", type=Count(minimum=0), default=None,
                  help="num_tbl8: tbl8 groups [default: what --routes-file needs, else 32768 as examples/l3fwd].")
    @click.option("--ext-size", type=Size(), default=0, show_default=True, help="rib_ext_sz.")
    @click.option("--name", default=kind, show_default=True, help="FIB name (memzones MP_MP_<name>...).")
    @flags_option
    @sizing_options
    def command(routes: int | None, routes_file: str | None, dp_type: str, nh_size: str, tbl8: int | None,
                ext_size: int, name: str, flag_masks: list[int], platform: Platform, analysis: Analysis,
                fmt: str) -> int:
        if routes is None and routes_file is None:
            if analysis.fit is None:
                raise click.UsageError("give --routes, --routes-file or both")
            routes = 1
        table, plan = _route_plan(routes_file, family, dp_type)
        if routes is None:
            routes = max(len(table), plan.min_max_routes if plan else 0)
        if tbl8 is None:
            tbl8 = plan.num_tbl8 if plan else 1 << 15
        inputs = dict(name=name, routes=routes, routes_file=routes_file, type=dp_type, nh_size=int(nh_size),
                      tbl8=tbl8, ext_size=ext_size)
        job = Job(command=kind, platform=platform, args={**inputs, "family": family, "plan": plan, "table": table})
        return finish(job, flag_masks, fmt, analysis, inputs)

    command.__doc__ = (f"An rte_{kind}_create() FIB: its RIB node pool and its lookup tables. "
                       "--flags sets the node pool's flags, as the RIB patch proposes.")
    return click.command(kind)(command)


def _route_plan(path: str | None, family: int, dp_type: str) -> tuple[list, Any]:
    """Read a route file (or stdin) and, for DIR24_8/TRIE, replay it to plan the tbl8 groups."""
    if path is None:
        return [], None
    from ..dpdk import routes as routemod

    if path == "-":
        table = routemod.parse_routes(sys.stdin, family, source="<stdin>")
    else:
        table = routemod.read_routes(path, family)
    if dp_type == "dummy":
        return table, None
    if len(table) > MAX_PLANNED_ROUTES:
        raise InputError(f"{path}: {len(table):,} routes; the tbl8 planner replays every rte_fib_add (about 6,000 "
                         f"routes a second) and takes at most {MAX_PLANNED_ROUTES:,}: give --routes and --tbl8 "
                         "instead, or plan a part of the table", param="--routes-file")
    return table, routemod.plan(table, family, dp_type)


#: bounded work: the planner's replay runs at roughly 6,000 routes a second on one core
MAX_PLANNED_ROUTES = 1_000_000


def mbuf() -> click.Command:
    @click.command("mbuf")
    @click.option("--count", "-n", type=Count(minimum=0), default=None, help="Number of mbufs; required unless --fit.")
    @click.option("--priv-size", type=Size(maximum=0xFFFF), default=0, show_default=True,
                  help="Application private area per mbuf (multiple of 8).")
    @click.option("--data-room", type=Size(maximum=0xFFFF), default=None,
                  help="Data room incl. headroom [default: RTE_MBUF_DEFAULT_BUF_SIZE, 2176].")
    @click.option("--mtu", type=Size(minimum=1, maximum=0xFFFF), default=None,
                  help="Derive the data room from an MTU: headroom + MTU + Ethernet header + CRC.")
    @click.option("--lcores", type=Count(minimum=1, maximum=65535), default=None,
                  help="Lcores using the pool: how many mbufs can sit idle in their caches.")
    @click.option("--name", default="mbuf_pool", show_default=True, help="Pool name.")
    @cache_options
    @sizing_options
    def command(count: int | None, cache_size: int, priv_size: int, data_room: int | None, mtu: int | None,
             lcores: int | None, name: str, cache_layout: str, platform: Platform, analysis: Analysis, fmt: str) -> int:
        """An rte_pktmbuf_pool_create() pool of packet buffers."""
        if data_room is not None and mtu is not None:
            raise click.UsageError("give at most one of --data-room and --mtu")
        count = _required(count, "--count", analysis)
        inputs = dict(name=name, count=count, cache_size=cache_size, priv_size=priv_size, data_room=data_room, mtu=mtu,
                      lcores=lcores, cache_layout=cache_layout)
        return finish(Job(command="mbuf", platform=platform, args=inputs), [0], fmt, analysis, inputs)

    return command


def rib() -> click.Command:
    return rib_command(4)


def rib6() -> click.Command:
    return rib_command(6)


def fib() -> click.Command:
    return fib_command(4)


def fib6() -> click.Command:
    return fib_command(6)
