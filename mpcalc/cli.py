"""The mpcalc command line: thin click commands over the engine.

Shared option bundles are decorators; :func:`main` is the one place that turns
errors into exit codes (0 ok, 1 DPDK would reject, 2 usage, 3 over budget).
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from typing import Any, NamedTuple

import click

from . import __version__, engine
from . import fib as fibmod
from .errors import InputError
from .facts import ARCHES, DEFAULT_ARCH, DEFAULT_RELEASE, PRESETS, RELEASES
from .flags import flag_names
from .intmath import INT_MAX, U32_MAX
from .jobs import Job, fit_rejection
from .model import Report, Result, diff_reports
from .params import Count, Flags, PageSize, Size
from .platform import Platform, describe, make_platform
from .render import FORMATS, render

EXIT_OK, EXIT_REJECTED, EXIT_USAGE, EXIT_BUDGET = 0, 1, 2, 3


def platform_options(func: Callable[..., Any]) -> Callable[..., Any]:
    """The build and the machine: release, architecture, named platform, overrides, EAL -n/-r, pages."""

    @click.option("--dpdk", type=click.Choice(sorted(RELEASES)), default=None,
                  help=f"DPDK release (its newest stable point release) [default: {DEFAULT_RELEASE}].")
    @click.option("--arch", type=click.Choice(sorted(ARCHES)), default=None,
                  help=f"Build architecture [default: {DEFAULT_ARCH}].")
    @click.option("--platform", "preset", type=click.Choice(sorted(PRESETS)), default=None,
                  help="A named build whose cache line or RTE_MAX_LCORE differ (arm64 SoCs as "
                       "-Dplatform=..., native Zen builds).")
    @click.option("--cache-line", type=click.Choice(["64", "128"]), default=None,
                  help="Override RTE_CACHE_LINE_SIZE.")
    @click.option("--max-lcore", type=Count(minimum=1, maximum=65535), default=None,
                  help="Override RTE_MAX_LCORE.")
    @click.option("--debug/--no-debug", default=None, help="A RTE_LIBRTE_MEMPOOL_DEBUG build (object cookies).")
    @click.option("--stats/--no-stats", default=None, help="A RTE_LIBRTE_MEMPOOL_STATS build (per-lcore statistics).")
    @click.option("--build-config", type=click.Path(dir_okay=False), default=None,
                  help="Read arch, cache line, RTE_MAX_LCORE, release and debug switches from an "
                       "rte_build_config.h.")
    @click.option("--pkg-config", "use_pkg_config", is_flag=True,
                  help="Use the rte_build_config.h of the DPDK that pkg-config libdpdk finds.")
    @click.option("--channels", type=Count(minimum=1, maximum=U32_MAX), default=4, show_default=True,
                  help="Memory channels (EAL -n); DPDK uses 4 when -n is not given. x86 only.")
    @click.option("--ranks", type=Count(minimum=1, maximum=16), default=1, show_default=True,
                  help="Memory ranks (EAL -r); DPDK uses 1 when -r is not given. x86 only.")
    @click.option("--page-size", type=PageSize(), default="2M", show_default=True,
                  help="Smallest page size in use (4K with --no-huge; none: no page constraint).")
    @functools.wraps(func)
    def wrapper(*args: Any, dpdk: str | None, arch: str | None, preset: str | None, cache_line: str | None,
                max_lcore: int | None, debug: bool | None, stats: bool | None, build_config: str | None,
                use_pkg_config: bool, channels: int, ranks: int, page_size: int, **kwargs: Any) -> Any:
        if build_config and use_pkg_config:
            raise click.UsageError("give at most one of --build-config and --pkg-config")
        if build_config or use_pkg_config:
            from . import buildconfig

            bc = buildconfig.read(build_config or buildconfig.find_installed())
            platform = make_platform(dpdk=dpdk, arch=arch, platform=preset, channels=channels, ranks=ranks,
                                     page_size=page_size, cache_line=int(cache_line) if cache_line else None,
                                     max_lcore=max_lcore, debug=debug, stats=stats, build_config=bc)
        else:
            platform = _platform(dpdk, arch, preset, cache_line, max_lcore, debug, stats, channels, ranks, page_size)
        return func(*args, platform=platform, **kwargs)

    return wrapper


@functools.lru_cache(maxsize=1024)
def _platform(dpdk: str | None, arch: str | None, preset: str | None, cache_line: str | None, max_lcore: int | None,
              debug: bool | None, stats: bool | None, channels: int, ranks: int, page_size: int) -> Platform:
    """make_platform memoized on the options (no build file): batch and sweep ask for one platform many times."""
    return make_platform(dpdk=dpdk, arch=arch, platform=preset, channels=channels, ranks=ranks, page_size=page_size,
                         cache_line=int(cache_line) if cache_line else None, max_lcore=max_lcore, debug=debug,
                         stats=stats)


def output_options(func: Callable[..., Any]) -> Callable[..., Any]:
    """--format table|json|csv|tsv and --json."""

    @click.option("--format", "fmt", type=click.Choice(sorted(FORMATS)), default=None,
                  help="Output format (default: table).")
    @click.option("--json", "as_json", is_flag=True, help="Shorthand for --format json.")
    @click.option("--svg", type=click.Path(dir_okay=False, writable=True), default=None, metavar="FILE",
                  help="Also save the table view as an SVG.")
    @functools.wraps(func)
    def wrapper(*args: Any, fmt: str | None, as_json: bool, svg: str | None, **kwargs: Any) -> Any:
        if as_json and fmt not in (None, "json"):
            raise click.UsageError(f"--json conflicts with --format {fmt}")
        if svg:
            click.get_current_context().meta["mpcalc.svg"] = svg
        return func(*args, fmt="json" if as_json else (fmt or "table"), **kwargs)

    return wrapper


def output(report: object, fmt: str) -> None:
    """Draw a report on stdout, and save its table view as SVG when --svg asked for it."""
    render(report, fmt, sys.stdout)
    ctx = click.get_current_context(silent=True)
    svg = ctx.meta.get("mpcalc.svg") if ctx else None
    if svg:
        from .render.table import save_svg

        try:
            save_svg(report, svg)
        except OSError as exc:
            raise InputError(f"cannot write {svg!r}: {exc.strerror}", param="--svg") from None


def cache_options(func: Callable[..., Any]) -> Callable[..., Any]:
    """--cache-size and --cache-layout, for the commands whose pool has per-lcore caches."""
    func = click.option("--cache-layout", type=click.Choice(["pointer", "index"]), default="pointer",
                        show_default=True, help="Per-lcore cache slots: pointers (DPDK) or 32-bit indices "
                        "(the index-based cache RFC).")(func)
    return click.option("--cache-size", type=Count(), default=0, show_default=True,
                        help="Per-lcore cache size.")(func)


def flags_option(func: Callable[..., Any]) -> Callable[..., Any]:
    return click.option("--flags", "flag_masks", type=Flags(), default="none", show_default=True,
                        help="Mempool flags: a list (no_cache_align,no_spread), DPDK macro names, a mask "
                             "(0x23), none, or all (every combination of no_cache_align, no_spread and "
                             "no_iova_contig).")(func)


class Analysis(NamedTuple):
    explain: bool = False
    fit: int | None = None
    max_total: int | None = None
    baseline: str | None = None
    tolerance: str = "0"


def analysis_options(func: Callable[..., Any]) -> Callable[..., Any]:
    """--explain, --fit, and the CI gates --max-total, --baseline, --tolerance."""

    @click.option("--explain", is_flag=True, help="Show the derivation of every figure and the savings on the table.")
    @click.option("--fit", type=Size(minimum=1, maximum=1 << 50), default=None, metavar="SIZE",
                  help="Find the largest count (pool, mbuf), max_nodes or max_routes whose heap_bytes fit SIZE.")
    @click.option("--max-total", type=Size(minimum=0, maximum=1 << 62), default=None, metavar="SIZE",
                  help="Exit 3 when a total_bytes is over SIZE.")
    @click.option("--baseline", type=click.Path(dir_okay=False), default=None,
                  help="A previous --json report: exit 3 when a total grew by more than --tolerance.")
    @click.option("--tolerance", default="0", show_default=True, metavar="SIZE|PCT",
                  help="Growth allowed against --baseline: bytes (64K) or a percentage (2%).")
    @functools.wraps(func)
    def wrapper(*args: Any, explain: bool, fit: int | None, max_total: int | None, baseline: str | None,
                tolerance: str, **kwargs: Any) -> Any:
        return func(*args, analysis=Analysis(explain=explain, fit=fit, max_total=max_total, baseline=baseline,
                                             tolerance=tolerance), **kwargs)

    return wrapper


def finish(job: Job, masks: list[int], fmt: str, analysis: Analysis, inputs: dict[str, Any]) -> int:
    """Evaluate a job under each flag mask (fitted with --fit, explained with --explain), render, gate."""
    from . import explain as explainer

    results = []
    for mask in masks:
        extra: dict[str, object] = {}
        if analysis.fit is not None:
            value, result = job.fit(mask, analysis.fit)
            if value is None:
                result = engine.assemble(job.command, mask, job.platform, errors=[fit_rejection(job, analysis.fit)])
            else:
                nxt = job.result(mask, **{job.fit_key: value + 1})
                extra["fit"] = {"budget": analysis.fit, "on": "heap_bytes", "key": job.fit_key, "value": value,
                                "heap_bytes": result.heap_bytes, "next_heap_bytes": nxt.heap_bytes}
        else:
            result = job.result(mask)
        if analysis.explain and result.mempools:
            extra["explain"] = {"steps": explainer.steps(result, job.platform),
                                "savings": explainer.savings(result, job.variants(mask))}
        if extra:
            result = result._replace(details={**result.details, **extra})
        results.append(result)
    rc = emit(job.command, job.platform, inputs, results, fmt)
    return max(rc, gates(analysis, results))


def gates(analysis: Analysis, results: list[Result]) -> int:
    """CI gates: print what is over budget or grew, and say whether to exit 3."""
    from .gates import check_baseline

    problems = []
    if analysis.max_total is not None:
        for r in results:
            if r.total_bytes > analysis.max_total:
                problems.append(f"total_bytes {r.total_bytes:,} ({','.join(flag_names(r.flags)) or 'none'}) is over "
                                f"--max-total {analysis.max_total:,}")
    if analysis.baseline is not None:
        problems += check_baseline(analysis.baseline, results, analysis.tolerance)
    for line in problems:
        click.echo(f"mpcalc: {line}", err=True)
    return EXIT_BUDGET if problems else EXIT_OK


def platform_notes(platform: Platform) -> tuple[str, ...]:
    notes = []
    if not platform.spreads and (platform.channels, platform.ranks) != (4, 1):
        notes.append(f"--channels/--ranks have no effect on {platform.arch}: DPDK spreads objects over memory "
                     "channels and ranks only on x86 (arch_mem_object_align)")
    if platform.stats and platform.release.stats_switch == "debug":
        notes.append(f"DPDK {platform.dpdk} has no RTE_LIBRTE_MEMPOOL_STATS: its statistics come with --debug")
    return tuple(notes)


def emit(command: str, platform: Platform, inputs: dict[str, Any], results: list[Result], fmt: str) -> int:
    """Render a report (or hand it to ``mpcalc diff``) and return the exit code it deserves."""
    report = Report(command=command, platform=describe(platform), inputs=inputs, results=tuple(results),
                    notes=platform_notes(platform))
    ctx = click.get_current_context(silent=True)
    collector = ctx.find_object(list) if ctx else None
    if collector is not None:
        collector.append((report, fmt))
        return EXIT_OK if report.ok else EXIT_REJECTED
    output(report, fmt)
    return EXIT_OK if report.ok else EXIT_REJECTED


class _Group(click.Group):
    """The commands of mpcalc/commands/ are imported when named (or listed), not at every start-up."""

    def _load(self, names: tuple[str, ...]) -> None:
        import importlib

        for name in names:
            module = importlib.import_module(f"{__package__}.commands.{name}")
            if module.command.name not in self.commands:
                self.add_command(module.command)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        from .commands import MODULES

        if cmd_name not in self.commands:
            self._load(tuple(m for m in MODULES if m == cmd_name) or MODULES)
        return super().get_command(ctx, cmd_name)

    def list_commands(self, ctx: click.Context) -> list[str]:
        from .commands import MODULES

        self._load(MODULES)
        return super().list_commands(ctx)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(__version__, prog_name="mpcalc")
def cli() -> None:
    """Exact DPDK memory footprints of mempools, mbuf pools, RIBs and FIBs, offline.

    Counts take 1K/1M/1G (10^3, 10^6, 10^9) or 1Ki/1Mi/1Gi (2^10, 2^20, 2^30);
    byte sizes take K/M/G or KiB/MiB/GiB (binary) and KB/MB/GB (decimal).
    """


@cli.command()
@click.option("--count", "-n", type=Count(minimum=0), default=None, help="Number of objects (n); required "
              "unless --fit.")
@click.option("--elt-size", type=Size(), required=True, help="Element size in bytes.")
@click.option("--private-size", type=Size(), default=0, show_default=True, help="Private data size.")
@click.option("--name", default="mp", show_default=True, help="Pool name (memzones MP_<name>...).")
@cache_options
@flags_option
@platform_options
@analysis_options
@output_options
def pool(count: int | None, elt_size: int, cache_size: int, private_size: int, name: str, cache_layout: str,
         flag_masks: list[int], platform: Platform, analysis: Analysis, fmt: str) -> int:
    """An rte_mempool_create() pool with the default ring ops."""
    count = _required(count, "--count", analysis)
    inputs = dict(name=name, count=count, elt_size=elt_size, cache_size=cache_size, private_size=private_size,
                  cache_layout=cache_layout)
    return finish(Job(command="pool", platform=platform, args=inputs), flag_masks, fmt, analysis, inputs)


def _required(value: int | None, option: str, analysis: Analysis) -> int:
    if value is None:
        if analysis.fit is None:
            raise click.UsageError(f"{option} is required (unless --fit finds it)")
        return 1
    return value


def rib_command(family: int) -> Callable[..., int]:
    kind = "rib" if family == 4 else "rib6"
    node = "rte_rib_node (40 B)" if family == 4 else "rte_rib6_node (56 B)"

    @click.option("--routes", type=Count(minimum=1, maximum=INT_MAX), default=None,
                  help="Routes; max_nodes = 2 x routes, as rte_fib_create sizes its RIB.")
    @click.option("--nodes", type=Count(minimum=1, maximum=INT_MAX), default=None, help="max_nodes directly.")
    @click.option("--ext-size", type=Size(), default=0, show_default=True, help="ext_sz: bytes added to each node.")
    @click.option("--name", default=kind, show_default=True, help="RIB name (memzones MP_MP_<name>...).")
    @flags_option
    @platform_options
    @analysis_options
    @output_options
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
    return command


cli.command("rib")(rib_command(4))
cli.command("rib6")(rib_command(6))


def fib_command(family: int) -> Callable[..., int]:
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
    @platform_options
    @analysis_options
    @output_options
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
    return command


def _route_plan(path: str | None, family: int, dp_type: str) -> tuple[list, Any]:
    """Read a route file (or stdin) and, for DIR24_8/TRIE, replay it to plan the tbl8 groups."""
    if path is None:
        return [], None
    from . import routes as routemod

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


cli.command("fib")(fib_command(4))
cli.command("fib6")(fib_command(6))


@cli.command()
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
@platform_options
@analysis_options
@output_options
def mbuf(count: int | None, cache_size: int, priv_size: int, data_room: int | None, mtu: int | None,
         lcores: int | None, name: str, cache_layout: str, platform: Platform, analysis: Analysis, fmt: str) -> int:
    """An rte_pktmbuf_pool_create() pool of packet buffers."""
    if data_room is not None and mtu is not None:
        raise click.UsageError("give at most one of --data-room and --mtu")
    count = _required(count, "--count", analysis)
    inputs = dict(name=name, count=count, cache_size=cache_size, priv_size=priv_size, data_room=data_room, mtu=mtu,
                  lcores=lcores, cache_layout=cache_layout)
    return finish(Job(command="mbuf", platform=platform, args=inputs), [0], fmt, analysis, inputs)


@cli.command(context_settings={"ignore_unknown_options": True, "allow_interspersed_args": False})
@click.option("--left", default="", metavar="OPTIONS", help="Options of the left side, e.g. '--dpdk 21.11'.")
@click.option("--right", default="", metavar="OPTIONS", help="Options of the right side, e.g. '--dpdk 25.11'.")
@output_options
@click.argument("command", nargs=-1, type=click.UNPROCESSED, required=True)
@click.pass_context
def diff(ctx: click.Context, left: str, right: str, command: tuple[str, ...], fmt: str) -> int:
    """The same configuration under two platforms or releases, side by side.

    Example: mpcalc diff --left '--dpdk 21.11' --right '--dpdk 25.11' mbuf --count 8191 --cache-size 256
    """
    import shlex

    name, *args = command
    sub = cli.get_command(ctx, name)
    if sub is None or name in ("diff", "schema"):
        raise click.UsageError(f"diff needs a sizing command (pool, rib, rib6, fib, fib6, mbuf), not {name!r}")
    reports: list[tuple[Report, str]] = []
    for side in (left, right):
        try:
            extra = shlex.split(side)
        except ValueError as exc:
            raise click.UsageError(f"cannot split {side!r}: {exc}") from None
        with sub.make_context(name, [*args, *extra], parent=ctx, obj=reports) as sub_ctx:
            sub.invoke(sub_ctx)
    result = diff_reports(reports[0][0], reports[1][0])
    # a --format/--json written after the command (it went to the command) counts too
    output(result, reports[0][1] if fmt == "table" else fmt)
    return EXIT_OK if result.ok else EXIT_REJECTED


@cli.command()
def schema() -> int:
    """Print the JSON Schema of the JSON output."""
    from importlib.resources import files

    click.echo(files("mpcalc").joinpath("schema.json").read_text(), nl=False)
    return EXIT_OK


def main(argv: list[str] | None = None) -> int:
    """Run the CLI and return its exit code; errors become one line on stderr."""
    try:
        rc = cli.main(args=argv, prog_name="mpcalc", standalone_mode=False)
    except click.exceptions.Exit as exc:
        return exc.exit_code
    except click.exceptions.Abort:
        click.echo("mpcalc: aborted", err=True)
        return EXIT_USAGE
    except click.ClickException as exc:
        click.echo(f"mpcalc: error: {exc.format_message()}", err=True)
        return EXIT_USAGE
    except InputError as exc:
        where = f"{exc.param}: " if exc.param else ""
        click.echo(f"mpcalc: error: {where}{exc}", err=True)
        return EXIT_USAGE
    except BrokenPipeError:
        return EXIT_OK
    except Exception as exc:  # noqa: BLE001 - the one place internal faults become an exit code
        click.echo(f"mpcalc: internal error: {type(exc).__name__}: {exc}", err=True)
        return EXIT_REJECTED
    return rc if isinstance(rc, int) else EXIT_OK


def run() -> None:
    sys.exit(main())


# Commands in their own modules (mpcalc/commands/, they use the bundles above) load on demand: _Group.
