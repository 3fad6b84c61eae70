"""The mpcalc command line: thin click commands over the engine.

Shared option bundles are decorators; :func:`main` is the one place that turns
errors into exit codes (0 ok, 1 DPDK would reject, 2 usage, 3 over budget).
"""

import functools
import sys
from collections.abc import Callable
from typing import Any, NamedTuple

import click

from . import __version__, engine
from .dpdk.errors import InputError
from .dpdk.facts import ARCHES, DEFAULT_ARCH, DEFAULT_RELEASE, PRESETS, RELEASES
from .dpdk.flags import flag_names
from .dpdk.intmath import U32_MAX
from .jobs import Job, fit_rejection
from .dpdk.records import Report, Result
from .params import Count, Flags, PageSize, Size
from .dpdk.platform import Platform, describe, make_platform
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
            from .dpdk import buildconfig

            bc = buildconfig.read(build_config or buildconfig.find_installed())
            platform = make_platform(dpdk=dpdk, arch=arch, platform=preset, channels=channels, ranks=ranks,
                                     page_size=page_size, cache_line=int(cache_line) if cache_line else None,
                                     max_lcore=max_lcore, debug=debug, stats=stats, build_config=bc)
        else:
            platform = platform_of(dpdk, arch, preset, cache_line, max_lcore, debug, stats, channels, ranks, page_size)
        return func(*args, platform=platform, **kwargs)

    return wrapper


@functools.lru_cache(maxsize=1024)
def platform_of(dpdk: str | None, arch: str | None, preset: str | None, cache_line: str | None,
                max_lcore: int | None, debug: bool | None, stats: bool | None, channels: int, ranks: int,
                page_size: int) -> Platform:
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


def sizing_options(func: Callable[..., Any]) -> Callable[..., Any]:
    """What every sizing command takes after its own options: the platform, the analyses, the output."""
    return platform_options(analysis_options(output_options(func)))


def finish(job: Job, masks: list[int], fmt: str, analysis: Analysis, inputs: dict[str, Any]) -> int:
    """Evaluate a job under each flag mask (fitted with --fit, explained with --explain), render, gate."""
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
            from . import explain as explainer

            extra["explain"] = {"steps": explainer.steps(result, job.platform),
                                "savings": explainer.savings(result, job.variants(mask))}
        if extra:
            result = result._replace(details={**result.details, **extra})
        results.append(result)
    rc = emit(job.command, job.platform, inputs, results, fmt)
    return max(rc, gates(analysis, results))


def gates(analysis: Analysis, results: list[Result]) -> int:
    """CI gates: print what is over budget or grew, and say whether to exit 3."""
    problems = []
    if analysis.max_total is not None:
        for r in results:
            if r.total_bytes > analysis.max_total:
                problems.append(f"total_bytes {r.total_bytes:,} ({','.join(flag_names(r.flags)) or 'none'}) is over "
                                f"--max-total {analysis.max_total:,}")
    if analysis.baseline is not None:
        from .gates import check_baseline  # reads JSON: imported only with --baseline

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
    """Commands are built when named (or listed), not at every start-up: mpcalc.commands.COMMANDS."""

    def _load(self, name: str) -> None:
        import importlib

        from .commands import COMMANDS

        module, attr = COMMANDS[name]
        made = getattr(importlib.import_module(f"{__package__}.commands.{module}"), attr)
        self.add_command(made if isinstance(made, click.Command) else made(), name)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        from .commands import COMMANDS

        if cmd_name not in self.commands and cmd_name in COMMANDS:
            self._load(cmd_name)
        return super().get_command(ctx, cmd_name)

    def list_commands(self, ctx: click.Context) -> list[str]:
        from .commands import COMMANDS

        return sorted(COMMANDS)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(__version__, prog_name="mpcalc")
def cli() -> None:
    """Exact DPDK memory footprints of mempools, mbuf pools, RIBs and FIBs, offline.

    Counts take 1K/1M/1G (10^3, 10^6, 10^9) or 1Ki/1Mi/1Gi (2^10, 2^20, 2^30);
    byte sizes take K/M/G or KiB/MiB/GiB (binary) and KB/MB/GB (decimal).
    """


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

