"""``mpcalc sweep``: one command over a range of one option and every flag combination.

``mpcalc sweep rib --vary routes=1K..10M --steps 50 --log --page-size 4K`` evaluates ``rib`` at 50
route counts spaced evenly on a log scale, under each of the 8 flag combinations (unless ``--flags``
is given), and writes one row per (value, flag combination) as CSV (default) or JSON Lines, ready
to plot.  ``--plot FILE.svg`` also draws the curves (the metric against the swept value, one line
per flag combination) with matplotlib, the optional extra ``plot``.
"""

from __future__ import annotations

import math
import sys
from typing import Any

import click

from .batch import Evaluator, LineError, Progress, SIZING_COMMANDS

#: most points a sweep may have (before multiplying by the flag combinations)
MAX_STEPS = 100_000
METRICS = ("total_bytes", "heap_bytes", "hugepages", "object_size")
COLUMNS = ("flags", "ok", "object_size", "total_bytes", "heap_bytes", "hugepages", "errors")


def points(lo: int, hi: int, steps: int, log: bool) -> list[int]:
    """``steps`` integers from ``lo`` to ``hi`` (both included), evenly or geometrically spaced; duplicates
    (a range narrower than the steps) are dropped.

    >>> points(0, 100, 5, False), points(1, 10000, 5, True), points(1, 3, 10, False)
    ([0, 25, 50, 75, 100], [1, 10, 100, 1000, 10000], [1, 2, 3])
    """
    if steps == 1 or lo == hi:
        return [lo] if lo == hi or steps == 1 else [lo, hi]
    n = steps - 1
    if log:
        ratio = math.log(hi / lo)
        values = [lo] + [min(hi, max(lo, round(lo * math.exp(ratio * i / n)))) for i in range(1, n)] + [hi]
    else:
        span = hi - lo
        values = [lo + (span * i + n // 2) // n for i in range(steps)]
    return sorted(set(values))


def _parse_vary(text: str) -> tuple[str, str, str]:
    key, sep, rng = text.partition("=")
    lo, dots, hi = rng.partition("..")
    if not sep or not dots or not key.strip() or not lo.strip() or not hi.strip():
        raise click.BadParameter(f"{text!r} is not KEY=LO..HI (e.g. count=1K..10M)", param_hint="'--vary'")
    return key.strip().replace("-", "_"), lo.strip(), hi.strip()


@click.command("sweep", context_settings={"ignore_unknown_options": True})
@click.argument("command_name", metavar="COMMAND")
@click.option("--vary", required=True, metavar="KEY=LO..HI",
              help="The option to sweep and its range, e.g. count=1K..10M or elt-size=8..4K.")
@click.option("--steps", type=click.IntRange(1, MAX_STEPS), default=50, show_default=True,
              help=f"Points in the range (at most {MAX_STEPS:,}; fewer when the range has fewer integers).")
@click.option("--log", "log_scale", is_flag=True, help="Space the points geometrically (LO must be at least 1).")
@click.option("--format", "fmt", type=click.Choice(["csv", "jsonl"]), default="csv", show_default=True,
              help="Rows as CSV or JSON Lines.")
@click.option("--metric", type=click.Choice(METRICS), default="total_bytes", show_default=True,
              help="What --plot draws.")
@click.option("--plot", "plot_file", type=click.Path(dir_okay=False, writable=True), default=None,
              help="Also draw the curves into this file (.svg, .png, .pdf); needs the extra mpcalc[plot].")
@click.argument("options", nargs=-1, type=click.UNPROCESSED)
@click.pass_context
def command(ctx: click.Context, command_name: str, vary: str, steps: int, log_scale: bool, fmt: str, metric: str,
            plot_file: str | None, options: tuple[str, ...]) -> int:
    """Evaluate COMMAND over a range of one option and every flag combination, ready to plot.

    Example: mpcalc sweep rib --vary routes=1K..10M --steps 50 --log --page-size 4K --plot rib.svg

    Other options go to COMMAND (as on its own command line); without --flags every combination of
    no_cache_align, no_spread and no_iova_contig is evaluated.  One row per value and flag combination.
    """
    if command_name not in SIZING_COMMANDS:
        raise click.UsageError(f"sweep needs a sizing command ({', '.join(SIZING_COMMANDS)}), not {command_name!r}")
    key, lo_text, hi_text = _parse_vary(vary)
    ev = Evaluator(ctx)
    cmd, keys, _ = ev.table(command_name)
    param = keys.get(key)
    from ..params import Count, Size

    if param is None or not isinstance(param.type, (Count, Size)):
        numeric = sorted(k for k, p in keys.items() if isinstance(p.type, (Count, Size)))
        raise click.BadParameter(f"{command_name} has no count or size option {key!r} (it has: {', '.join(numeric)})",
                                 param_hint="'--vary'")
    opt = "--" + key.replace("_", "-")
    try:
        lo = param.type.convert(lo_text, param, ctx)
        hi = param.type.convert(hi_text, param, ctx)
    except click.BadParameter as exc:
        raise click.BadParameter(f"{opt}: {exc.message}", param_hint="'--vary'") from None
    if lo > hi:
        raise click.BadParameter(f"the range {lo_text}..{hi_text} is empty ({lo:,} > {hi:,})", param_hint="'--vary'")
    if log_scale and lo < 1:
        raise click.BadParameter(f"--log needs a range from at least 1, not {lo_text}", param_hint="'--vary'")
    if any(o == opt or o.startswith(opt + "=") or o in param.opts for o in options):
        raise click.UsageError(f"{opt} is what --vary sets; do not give it too")
    args = [*options, opt, str(lo)]
    try:
        with cmd.make_context(command_name, args, parent=ctx) as sub:
            params = dict(sub.params)
            given_flags = sub.get_parameter_source("flag_masks") not in (None, click.core.ParameterSource.DEFAULT)
    except click.ClickException as exc:
        raise click.UsageError(f"{command_name}: {exc.format_message()}") from None
    if "fmt" in params and params.get("fmt") not in (None, "json") or params.get("as_json"):
        raise click.UsageError("--format and --json belong to sweep here: use --format csv|jsonl")
    if "flag_masks" in params and not given_flags:
        from ..flags import sizing_combinations

        params["flag_masks"] = sizing_combinations()
    params["fmt"], params["as_json"] = "json", False
    values = points(lo, hi, steps, log_scale)
    return _run(ev, command_name, key, param.name, values, params, fmt, metric, plot_file)  # type: ignore[arg-type]


def _run(ev: Evaluator, name: str, key: str, pname: str, values: list[int], params: dict[str, Any], fmt: str,
         metric: str, plot_file: str | None) -> int:
    from ..flags import flag_names

    out = sys.stdout
    if plot_file is not None:
        _matplotlib()  # fail before the work, with the one-line hint
    if fmt == "csv":
        out.write(",".join((key, *COLUMNS)) + "\n")
    else:
        from .batch import _dumps

        dumps = _dumps()
    labels: dict[int, str] = {}
    curves: dict[str, list[tuple[int, int | None]]] = {}
    worst = 0
    progress = Progress("sweep", total=len(values))
    buf: list[str] = []
    for i, value in enumerate(values):
        params[pname] = value
        try:
            report = ev.report(name, params)
        except LineError as exc:
            where = f" at {key}={value}" if i else ""
            raise click.UsageError(f"{name}{where}: {exc}") from None
        for r in report.results:
            label = labels.get(r.flags)
            if label is None:
                label = labels[r.flags] = "|".join(flag_names(r.flags)) or "none"
            obj = r.mempools[0].objsz.total_size if r.mempools and r.mempools[0].objsz else None
            errors = "|".join(e.errno or "hazard" for e in r.errors)
            row = (label, not r.errors, obj, r.total_bytes, r.heap_bytes, r.hugepages, errors)
            if fmt == "csv":
                buf.append(f"{value},{label},{'true' if row[1] else 'false'},{'' if obj is None else obj},"
                           f"{r.total_bytes},{r.heap_bytes},{'' if r.hugepages is None else r.hugepages},{errors}\n")
            else:
                buf.append(dumps({key: value, **dict(zip(COLUMNS, row))}) + "\n")
            if plot_file is not None:
                y = dict(zip(COLUMNS, row))[metric]
                curves.setdefault(label, []).append((value, None if r.errors else y))
            if r.errors:
                worst = 1
        if len(buf) >= 4096:
            out.write("".join(buf))
            buf.clear()
        if i & 0xFF == 0:
            progress.update(i)
    out.write("".join(buf))
    out.flush()
    progress.close()
    if plot_file is not None:
        plot(plot_file, curves, name=name, key=key, metric=metric, log=_is_log(values), platform=report.platform)
    return worst


def _is_log(values: list[int]) -> bool:
    if len(values) < 3 or values[0] < 1:
        return False
    return values[1] - values[0] < (values[-1] - values[-2]) / 2


def _matplotlib() -> Any:
    try:
        import matplotlib
    except ImportError:
        raise click.UsageError("--plot needs matplotlib: pip install 'mpcalc[plot]'") from None
    return matplotlib


def plot(path: str, curves: dict[str, list[tuple[int, int | None]]], *, name: str, key: str, metric: str,
         log: bool, platform: dict[str, object]) -> None:
    """Draw one line per flag combination: ``metric`` against the swept value (no display, no pyplot)."""
    _matplotlib()
    from matplotlib.figure import Figure

    fig = Figure(figsize=(9, 5.5), layout="constrained")
    ax = fig.add_subplot()
    for label, pts in curves.items():
        xs = [x for x, _ in pts]
        ys = [math.nan if y is None else y for _, y in pts]
        ax.plot(xs, ys, marker="." if len(xs) <= 60 else None, linewidth=1.2, label=label)
    if log:
        ax.set_xscale("log")
        if metric != "object_size":
            ax.set_yscale("log")
    ax.set_xlabel(key)
    ax.set_ylabel(metric + (" (bytes)" if metric != "hugepages" else ""))
    from ..units import page_label

    ax.set_title(f"mpcalc {name}: {metric} against {key} (DPDK {platform.get('dpdk')} {platform.get('arch')}, "
                 f"page size {page_label(platform.get('page_size') or 0)})", fontsize=10)  # type: ignore[arg-type]
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(title="flags", fontsize=8)
    try:
        fig.savefig(path, metadata={"Date": None} if path.lower().endswith((".svg", ".pdf")) else None)
    except (OSError, ValueError) as exc:
        raise click.UsageError(f"--plot: cannot write {path!r}: {exc}") from None
