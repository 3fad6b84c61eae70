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
        from ..dpdk.flags import sizing_combinations

        params["flag_masks"] = sizing_combinations()
    params["fmt"], params["as_json"] = "json", False
    values = points(lo, hi, steps, log_scale)
    return _run(ev, command_name, key, param.name, values, params, fmt, metric, plot_file)  # type: ignore[arg-type]


def _run(ev: Evaluator, name: str, key: str, pname: str, values: list[int], params: dict[str, Any], fmt: str,
         metric: str, plot_file: str | None) -> int:
    from ..dpdk.flags import flag_names

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
    fast = footprints(name, pname, values[:_BLOCK], params)  # a block at a time: progress shows meanwhile
    platform = fast[0] if fast is not None else None
    for i, value in enumerate(values):
        if fast is not None:
            if i % _BLOCK == 0 and i:
                fast = footprints(name, pname, values[i:i + _BLOCK], params)
            results = fast[1][i % _BLOCK]  # type: ignore[index]
        else:
            params[pname] = value
            try:
                report = ev.report(name, params)
            except LineError as exc:
                where = f" at {key}={value}" if i else ""
                raise click.UsageError(f"{name}{where}: {exc}") from None
            platform = report.platform
            results = [(r.flags, r.errors, r.mempools[0].objsz.total_size if r.mempools and r.mempools[0].objsz
                        else None, r.total_bytes, r.heap_bytes, r.hugepages) for r in report.results]
        for flags, errs, obj, total, heap, pages in results:
            label = labels.get(flags)
            if label is None:
                label = labels[flags] = "|".join(flag_names(flags)) or "none"
            errors = "|".join(e.errno or "hazard" for e in errs)
            row = (label, not errs, obj, total, heap, pages, errors)
            if fmt == "csv":
                buf.append(f"{value},{label},{'true' if row[1] else 'false'},{'' if obj is None else obj},"
                           f"{total},{heap},{'' if pages is None else pages},{errors}\n")
            else:
                buf.append(dumps({key: value, **dict(zip(COLUMNS, row))}) + "\n")
            if plot_file is not None:
                y = dict(zip(COLUMNS, row))[metric]
                curves.setdefault(label, []).append((value, None if errs else y))
            if errs:
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
        plot(plot_file, curves, name=name, key=key, metric=metric, log=_is_log(values), platform=platform)  # type: ignore[arg-type]
    return worst


#: (flag mask, errors, object size, total bytes, heap bytes, hugepages) of one flag combination
Row = tuple[int, tuple[Any, ...], int | None, int, int, int | None]


def footprints(name: str, pname: str, values: list[int], params: dict[str, Any],
               ) -> tuple[dict[str, object], list[list[Row]]] | None:
    """A pool or RIB sweep from sizes alone (:meth:`mpcalc.dpdk.mempool.PoolCalc.sizes_many`,
    :func:`mpcalc.dpdk.rib.rib_footprints`, a flag combination at a time): the platform's description and,
    per value, each flag combination's row.  None when the sweep needs the command's own code:
    another command, a build file, --explain, --fit or a CI gate, a platform or an option pair the
    command rejects."""
    from ..cli import platform_of
    from ..dpdk.mempool import pool_calc
    from ..dpdk.platform import describe
    from ..dpdk.rib import rib_footprints, rib_max_nodes
    from .batch import _FULL_PATH_PARAMS, _PLATFORM_PARAMS, FAST_COMMANDS

    # batch's own list, and the CI gates: a sweep may carry them (a batch line may not)
    if name not in FAST_COMMANDS or any(params.get(k) for k in (*_FULL_PATH_PARAMS, *_GATES)):
        return None
    try:
        calc = pool_calc(platform_of(*(params[k] for k in _PLATFORM_PARAMS)))
    except ValueError:
        return None
    n = len(values)
    column = {k: values if k == pname else [params[k]] * n for k in params}
    per_mask = []
    for mask in params["flag_masks"]:
        if name == "pool":
            if params.get("count") is None and pname != "count":
                return None
            per_mask.append(calc.sizes_many(column["name"], column["count"], column["elt_size"],
                                            column["cache_size"], column["private_size"], [mask] * n,
                                            column["cache_layout"]))
        else:
            routes, nodes = params.get("routes"), params.get("nodes")
            if (routes is None) == (nodes is None):  # exactly one is set, and --vary set it
                return None
            max_nodes = [rib_max_nodes(v) for v in column["routes"]] if routes is not None else column["nodes"]
            per_mask.append(rib_footprints(column["name"], max_nodes, column["ext_size"], [mask] * n,
                                           4 if name == "rib" else 6, calc))
    page = calc.p.page_size
    rows = [[(mask, fp.errors, fp.object_size, fp.total_bytes, fp.heap_bytes, -(-fp.heap_bytes // page) if page
              else None) for mask, fp in zip(params["flag_masks"], at)] for at in zip(*per_mask)]
    return describe(calc.p), rows


#: values summed at a time
_BLOCK = 4096
#: the CI gates: a sweep that carries one runs the command's own code (it reports what is over budget)
_GATES = ("max_total", "baseline")


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
    from ..dpdk.units import page_label

    ax.set_title(f"mpcalc {name}: {metric} against {key} (DPDK {platform.get('dpdk')} {platform.get('arch')}, "
                 f"page size {page_label(platform.get('page_size') or 0)})", fontsize=10)  # type: ignore[arg-type]
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(title="flags", fontsize=8)
    try:
        fig.savefig(path, metadata={"Date": None} if path.lower().endswith((".svg", ".pdf")) else None)
    except (OSError, ValueError) as exc:
        raise click.UsageError(f"--plot: cannot write {path!r}: {exc}") from None
