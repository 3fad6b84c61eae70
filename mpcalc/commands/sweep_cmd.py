"""``mpcalc sweep``: one command over a range of one option and every flag combination.

``mpcalc sweep rib --vary routes=1K..10M --steps 50 --log --page-size 4K`` evaluates ``rib`` at 50
route counts spaced evenly on a log scale, under each of the 8 flag combinations (unless ``--flags``
is given), and writes one row per (value, flag combination) as CSV (default) or JSON Lines, ready
to plot.  ``--plot FILE.svg`` also draws the curves (mpcalc.render.plot).  The evaluation is
mpcalc.service.sweep; the options go through the command's own parser.
"""

from __future__ import annotations

import sys

import click

from mpcalc.service.batch import dumps
from mpcalc.service.exitcodes import ExitCode
from mpcalc.service.request import Request
from mpcalc.service.sweep import COLUMNS, MAX_STEPS, METRICS, metric_value, points, rows
from mpcalc.stream import Progress


def _parse_vary(text: str) -> tuple[str, str, str]:
    key, sep, rng = text.partition("=")
    lo, dots, hi = rng.partition("..")
    if not sep or not dots or not key.strip() or not lo.strip() or not hi.strip():
        raise click.BadParameter(f"{text!r} is not KEY=LO..HI (e.g. count=1K..10M)", param_hint="'--vary'")
    return key.strip().replace("-", "_"), lo.strip(), hi.strip()


@click.command("sweep", context_settings={"ignore_unknown_options": True})
@click.argument("command_name", metavar="COMMAND")
@click.option(
    "--vary",
    required=True,
    metavar="KEY=LO..HI",
    help="The option to sweep and its range, e.g. count=1K..10M or elt-size=8..4K.",
)
@click.option(
    "--steps",
    type=click.IntRange(1, MAX_STEPS),
    default=50,
    show_default=True,
    help=f"Points in the range (at most {MAX_STEPS:,}; fewer when the range has fewer integers).",
)
@click.option("--log", "log_scale", is_flag=True, help="Space the points geometrically (LO must be at least 1).")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["csv", "jsonl"]),
    default="csv",
    show_default=True,
    help="Rows as CSV or JSON Lines.",
)
@click.option(
    "--metric",
    type=click.Choice(METRICS),
    default=None,
    help="What --plot draws [default: per_object, the bytes per object (node, route, mbuf) where the "
    "object holds some, else total_bytes].",
)
@click.option(
    "--plot",
    "plot_file",
    type=click.Path(dir_okay=False, writable=True),
    default=None,
    help="Also draw the curves into this file (.svg, .png, .pdf); needs the extra mpcalc[plot].",
)
@click.argument("options", nargs=-1, type=click.UNPROCESSED)
@click.pass_context
def command(
    ctx: click.Context,
    command_name: str,
    vary: str,
    steps: int,
    log_scale: bool,
    fmt: str,
    metric: str | None,
    plot_file: str | None,
    options: tuple[str, ...],
) -> int:
    """Evaluate COMMAND over a range of one option and every flag combination, ready to plot.

    Example: mpcalc sweep rib --vary routes=1K..10M --steps 50 --log --page-size 4K --plot rib.svg

    Other options go to COMMAND (as on its own command line); without --flags every combination of
    no_cache_align, no_spread and no_iova_contig is evaluated.  One row per value and flag combination.
    """
    from mpcalc.cli import cli
    from mpcalc.dpdk.core import registry
    from mpcalc.dpdk.core.errors import InputError
    from mpcalc.dpdk.core.platform import PLATFORM_PARAMS
    from mpcalc.service.request import request_of

    if command_name not in registry.NAMES:
        raise click.UsageError(f"sweep needs a sizing command ({', '.join(registry.NAMES)}), not {command_name!r}")
    key, lo_text, hi_text = _parse_vary(vary)
    cmd = cli.get_command(ctx, command_name)
    assert cmd is not None
    numeric = {p.key: p for p in (*registry.get(command_name).params, *PLATFORM_PARAMS) if p.numeric_kind}
    param = numeric.get(key)
    if param is None:
        raise click.BadParameter(
            f"{command_name} has no count or size option {key!r} (it has: {', '.join(sorted(numeric))})",
            param_hint="'--vary'",
        )
    opt = param.option
    try:
        lo, hi = param.parse(lo_text), param.parse(hi_text)
    except InputError as exc:
        raise click.BadParameter(f"{opt}: {exc}", param_hint="'--vary'") from None
    if lo > hi:
        raise click.BadParameter(f"the range {lo_text}..{hi_text} is empty ({lo:,} > {hi:,})", param_hint="'--vary'")
    if log_scale and lo < 1:
        raise click.BadParameter(f"--log needs a range from at least 1, not {lo_text}", param_hint="'--vary'")
    if any(o == opt or o.startswith(opt + "=") or o == param.short for o in options):
        raise click.UsageError(f"{opt} is what --vary sets; do not give it too")
    args = [*options, opt, str(lo)]
    try:
        with cmd.make_context(command_name, args, parent=ctx) as sub:
            params = dict(sub.params)
            given_flags = sub.get_parameter_source("flags") not in (None, click.core.ParameterSource.DEFAULT)
    except click.ClickException as exc:
        raise click.UsageError(f"{command_name}: {exc.format_message()}") from None
    if plot_file is not None:
        from mpcalc.cli import refuse_overwriting

        refuse_overwriting(plot_file, "--plot", sub)
    if ("fmt" in params and params.get("fmt") not in (None, "json")) or params.get("as_json"):
        raise click.UsageError("--format and --json belong to sweep here: use --format csv|jsonl")
    if "flags" in params and not given_flags:
        flags_param = registry.get(command_name).param("flags")  # mempool flags, or a ring's or a hash's own
        params["flags"] = flags_param.parse("all") if flags_param else [0]
    per = registry.get(command_name).per
    if metric is None:
        metric = "per_object" if per else "total_bytes"
    if metric in ("per_object", "overhead") and per is None:
        raise click.BadParameter(f"{command_name} holds no objects to divide by", param_hint="'--metric'")
    if metric == "overhead" and registry.get(command_name).param("elt_size") is None:
        raise click.BadParameter(f"{command_name} has no element size to take away", param_hint="'--metric'")
    values = points(lo, hi, steps, log_scale)
    return _run(request_of(command_name, params), key, values, fmt, metric, plot_file, per)


def _run(
    request: Request,
    key: str,
    values: list[int],
    fmt: str,
    metric: str,
    plot_file: str | None,
    per: tuple[str, str] | None,
) -> int:
    from mpcalc.render import csvfmt, plot

    out = sys.stdout
    if plot_file is not None:
        plot.matplotlib()  # fail before the work, with the one-line hint
    write_csv = csvfmt.sweep_writer(out, key) if fmt == "csv" else None
    curves: dict[str, list[tuple[int, float | None]]] = {}
    pages: list[int | None] = []
    held: list[int] = []
    worst = ExitCode.OK
    progress = Progress("sweep", total=len(values))
    buf: list[str] = []
    platform: dict[str, object] = {}
    for i, point in enumerate(rows(request, key, values)):
        value, platform = point.value, point.platform
        if write_csv is not None:
            write_csv(value, point.rows)
        for row in point.rows:
            label, ok = row[0], row[1]
            if write_csv is None:
                buf.append(dumps({key: value, **dict(zip(COLUMNS, row, strict=True))}) + "\n")
            if plot_file is not None:
                curves.setdefault(label, []).append((value, metric_value(metric, row, point.inputs, per)))
            if not ok:
                worst = ExitCode.REJECTED
        if plot_file is not None:
            pages.append(point.rows[0][5] if point.rows and point.rows[0][1] else None)
            held.append(point.inputs[per[0]] if per else 0)
        if len(buf) >= 4096:
            out.write("".join(buf))
            buf.clear()
        if i & 0xFF == 0:
            progress.update(i)
    out.write("".join(buf))
    out.flush()
    progress.close()
    if plot_file is not None:
        plot.sweep(
            plot_file,
            curves,
            name=request.command,
            key=key,
            metric=metric,
            log=plot.is_log(values),
            platform=platform,
            pages=pages,
            held=held,
            per=per,
        )
    return worst
