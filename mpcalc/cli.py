"""The mpcalc command line: the group, the commands made from the declarations, and :func:`main`.

Each DPDK object's command is made from its declaration (:func:`sizing_command`); the other
commands live in mpcalc.commands.  :func:`main` is the one place that turns errors into exit codes
(mpcalc.service.exitcodes.ExitCode).
"""

import functools
import os
import sys
from collections.abc import Callable
from typing import Any

import click

from mpcalc import __version__, global_platform, userio
from mpcalc.dpdk.core.errors import InputError, OutputError
from mpcalc.dpdk.core.progress import Tracker
from mpcalc.render import FORMATS, render
from mpcalc.service.exitcodes import ExitCode


def output_options(func: Callable[..., Any]) -> Callable[..., Any]:
    """--format table|json|csv|tsv and --json."""

    @click.option(
        "--format", "fmt", type=click.Choice(sorted(FORMATS)), default=None, help="Output format (default: table)."
    )
    @click.option("--json", "as_json", is_flag=True, help="Shorthand for --format json.")
    @click.option(
        "--svg",
        type=click.Path(dir_okay=False, writable=True),
        default=None,
        metavar="FILE",
        help="Also save the table view as an SVG.",
    )
    @functools.wraps(func)
    def wrapper(*args: Any, fmt: str | None, as_json: bool, svg: str | None, **kwargs: Any) -> Any:
        if as_json and fmt not in (None, "json"):
            raise click.UsageError(f"--json conflicts with --format {fmt}")
        ctx = click.get_current_context()
        if svg:
            ctx.meta["mpcalc.svg"] = svg
        for option, key in (("--svg", "mpcalc.svg"), ("--plot", "mpcalc.plot")):
            if ctx.meta.get(key):
                refuse_overwriting(ctx.meta[key], option, ctx)
        return func(*args, fmt="json" if as_json else (fmt or "table"), **kwargs)

    return wrapper


#: the parameters that name a file a command writes, not one it reads
_OUTPUT_FILES = frozenset({"svg", "plot", "plot_file"})


def _input_paths(ctx: click.Context) -> list[str]:
    """The files a command reads, as given: its path options (click.Path, or a declared path) and its
    parents' (the platform's options before the command name), and every word of its arguments (a plan
    file, ``mpcalc trace TRACE``, an application's command line and the files it names)."""
    from mpcalc.params import Declared

    found = []
    at: click.Context | None = ctx
    while at is not None:
        for p in at.command.params:
            kind = p.type.param.kind if isinstance(p.type, Declared) else None
            reads = isinstance(p, click.Argument) or kind == "path" or isinstance(p.type, click.Path)
            if p.name in _OUTPUT_FILES or not reads:
                continue
            value = at.params.get(p.name or "")
            found += [v for v in (value if isinstance(value, list | tuple) else [value]) if isinstance(v, str)]
        at = at.parent
    return [v for v in found if v != "-"]


def refuse_overwriting(path: str, option: str, ctx: click.Context) -> None:
    """An output file that is one of the command's inputs (the same file, by os.path.samefile) is refused
    before any work: it would be overwritten."""
    for given in _input_paths(ctx):
        try:
            same = os.path.samefile(path, given)
        except (OSError, ValueError):  # one of them does not exist: not the same file
            continue
        if same:
            raise InputError(
                f"{path!r} is an input of the command ({given!r}): writing it would overwrite it", param=option
            )


def output(report: object, fmt: str) -> None:
    """Draw a report on stdout, and save its table view as SVG when --svg asked for it.

    A reader that goes away (``| head -3``) is no error: the rest of the report is dropped and the
    command goes on to its exit code (mpcalc.userio.stdout_closed)."""
    try:
        render(report, fmt, sys.stdout)
        sys.stdout.flush()
    except BrokenPipeError:
        userio.stdout_closed()
    ctx = click.get_current_context(silent=True)
    svg = ctx.meta.get("mpcalc.svg") if ctx else None
    if svg:
        from mpcalc.render.table import save_svg

        save_svg(report, svg)  # an OutputError if it cannot be written
    picture = ctx.meta.get("mpcalc.plot") if ctx else None
    if picture:
        from mpcalc.render import plot

        plot.document(picture, report.to_dict())  # type: ignore[attr-defined]


def plot_option(func: Callable[..., Any]) -> Callable[..., Any]:
    """--plot FILE: also draw the report (.svg, .png or .pdf by the name; the extra mpcalc[plot])."""

    def remember(ctx: click.Context, param: click.Parameter, value: str | None) -> None:
        if value:
            from mpcalc.render import plot

            plot.matplotlib()  # say it is missing before the work
            ctx.meta["mpcalc.plot"] = value

    return click.option(
        "--plot",
        type=click.Path(dir_okay=False, writable=True),
        default=None,
        metavar="FILE",
        expose_value=False,
        callback=remember,
        help="Also draw the report into FILE (.svg, .png, .pdf; needs mpcalc[plot]).",
    )(func)


def naming_the_option(exc: InputError, values: dict[str, Any]) -> InputError:
    """An error about a value that names the value (a route file's path) names the option that gave it."""
    if exc.param and not exc.param.startswith("-"):
        for key, value in values.items():
            if value == exc.param:
                return InputError(str(exc), param="--" + key.replace("_", "-"))
    return exc


def sizing_command(name: str) -> click.Command:
    """The command of a DPDK object, made from its declaration: its own options, then the platform's,
    the analyses' and the output's."""
    from mpcalc.dpdk.core import registry
    from mpcalc.dpdk.core.platform import PLATFORM_PARAMS
    from mpcalc.params import option
    from mpcalc.service.request import ANALYSIS_PARAMS, evaluate, request_of

    decl = registry.get(name)
    declared = [p for p in (*decl.params, *PLATFORM_PARAMS, *ANALYSIS_PARAMS) if "cli" in p.fronts]

    @output_options
    @plot_option
    def run(fmt: str, **values: Any) -> int:
        request = request_of(name, values)
        try:
            outcome = evaluate(request)
        except InputError as exc:
            raise naming_the_option(exc, values) from None
        report = outcome.report
        output(report, fmt)
        if userio.quiet():  # no report: DPDK's refusals are the errors left to say
            for r in report.results:
                for e in r.errors:
                    click.echo(f"mpcalc: {e.errno or 'hazard'}: {e.reason} ({e.function}, {e.source})", err=True)
        for line in outcome.messages:
            click.echo(f"mpcalc: {line}", err=True)
        return int(outcome.code)

    return click.command(name, params=[option(p) for p in declared], help=decl.summary)(run)


class _Group(click.Group):
    """Commands are built when named (or listed), not at every start-up: one per DPDK object
    (mpcalc.dpdk.core.registry.OBJECTS, made by :func:`sizing_command`), and mpcalc.commands.COMMANDS."""

    def _load(self, name: str) -> None:
        import importlib

        from mpcalc.commands import COMMANDS
        from mpcalc.dpdk.core.registry import OBJECTS

        if name in OBJECTS:
            self.add_command(userio.add_switches(sizing_command(name)), name)
            return
        module = COMMANDS[name]
        command = importlib.import_module(f"{__package__}.commands.{module}").command
        self.add_command(userio.add_switches(command), name)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        from mpcalc.commands import COMMANDS
        from mpcalc.dpdk.core.registry import OBJECTS

        if cmd_name not in self.commands and (cmd_name in COMMANDS or cmd_name in OBJECTS):
            self._load(cmd_name)
        return super().get_command(ctx, cmd_name)

    def list_commands(self, ctx: click.Context) -> list[str]:
        from mpcalc.commands import COMMANDS
        from mpcalc.dpdk.core.registry import OBJECTS

        return sorted({*COMMANDS, *OBJECTS})

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        """Bare ``mpcalc``: the help on stdout, and exit 2 (a command is needed), whatever click's version."""
        if not args and not ctx.resilient_parsing:
            try:
                click.echo(ctx.get_help())
            except BrokenPipeError:
                userio.stdout_closed()
            ctx.exit(ExitCode.USAGE)
        return super().parse_args(ctx, args)

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        """An unknown command names the closest ones (``mpcalc ribb``: did you mean 'rib' or 'rib6'?)."""
        name = args[0] if args else ""
        if not ctx.resilient_parsing and not name.startswith("-") and self.get_command(ctx, name) is None:
            import difflib

            known = self.list_commands(ctx)
            close = difflib.get_close_matches(name, known, n=3, cutoff=0.6)
            hint = (
                f"Did you mean {' or '.join(repr(c) for c in close)}?"
                if close
                else f"The commands are {', '.join(known)}."
            )
            raise click.UsageError(f"No such command {name!r}. {hint}", ctx)
        return super().resolve_command(ctx, args)

    def make_context(
        self, info_name: str | None, args: list[str], parent: click.Context | None = None, **extra: Any
    ) -> click.Context:
        """``mpcalc --help | true``: the help's reader is gone; not an error (click would exit 1)."""
        try:
            return super().make_context(info_name, args, parent, **extra)
        except BrokenPipeError:
            userio.stdout_closed()
            raise click.exceptions.Exit(ExitCode.OK) from None

    def invoke(self, ctx: click.Context) -> Any:
        """A command whose reader goes away (``mpcalc batch ... | head``) stops there, and exits as far as
        it got: a closed pipe is not an error."""
        try:
            return super().invoke(ctx)
        except BrokenPipeError:
            userio.stdout_closed()
            return ExitCode.OK


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(__version__, prog_name="mpcalc")
def cli() -> None:
    """Exact DPDK memory footprints of DPDK's objects and whole applications, offline.

    Counts take 1K/1M/1G (10^3, 10^6, 10^9) or 1Ki/1Mi/1Gi (2^10, 2^20, 2^30);
    byte sizes take K/M/G or KiB/MiB/GiB (binary) and KB/MB/GB (decimal).
    Platform options (--dpdk, --arch, --build-config, ...) go before or after a sizing command.
    """
    global_platform.forward(click.get_current_context())


global_platform.add(cli)  # the platform options before the command too


userio.add_switches(cli)  # --quiet and --no-color before the command name too


def main(argv: list[str] | None = None) -> int:
    """Run the CLI and return its exit code (mpcalc.service.exitcodes.ExitCode, docs/exit-codes.md); an error
    becomes one line on stderr.  A run leaves sys.stdout, sys.stderr and the environment as it found them.

    stdout is checked as it is written (userio.checking): one that cannot be written (closed, full) is one
    line naming it, exit ExitCode.OUTPUT, whatever the command (--help too)."""
    stdout = userio.checking()
    try:
        code = _main(argv)
        try:
            sys.stdout.flush()  # a reader that went away shows here, not as a traceback at exit
        except BrokenPipeError:
            userio.stdout_closed()
        except OutputError as exc:
            code = _output_failed(exc)
        return code
    finally:
        userio.restore()
        userio.unchecked(stdout)


def _output_failed(exc: OutputError) -> int:
    click.echo(f"mpcalc: error: {exc}", err=True)
    return ExitCode.OUTPUT


def _terminal_progress(what: str, total: int | None = None) -> Tracker:
    """mpcalc.stream.Progress, loaded when the model first starts long work (not at every start)."""
    from mpcalc.stream import Progress

    return Progress(what, total=total)


def _main(argv: list[str] | None) -> int:
    from mpcalc.dpdk.core.progress import reporting

    try:
        with reporting(_terminal_progress):  # the model's long work (a route file) counted on a terminal's stderr
            rc = cli.main(args=argv, prog_name="mpcalc", standalone_mode=False)
    except click.exceptions.Exit as exc:
        return exc.exit_code
    except click.exceptions.Abort:
        click.echo("mpcalc: interrupted", err=True)
        return ExitCode.INTERRUPTED
    except click.ClickException as exc:
        click.echo(f"mpcalc: error: {exc.format_message()}", err=True)
        return ExitCode.USAGE
    except InputError as exc:
        where = f"{exc.param}: " if exc.param and not str(exc).startswith(exc.param) else ""
        click.echo(f"mpcalc: error: {where}{exc}", err=True)
        return ExitCode.USAGE
    except BrokenPipeError:
        userio.stdout_closed()
        return ExitCode.OK
    except OutputError as exc:
        return _output_failed(exc)
    except Exception as exc:
        click.echo(f"mpcalc: internal error (a bug: please report it): {type(exc).__name__}: {exc}", err=True)
        return ExitCode.INTERNAL
    return rc if isinstance(rc, int) else ExitCode.OK
