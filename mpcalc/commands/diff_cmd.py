"""``mpcalc diff``: one sizing command under two platforms or releases."""

from __future__ import annotations

import click

from mpcalc.cli import cli, output, output_options, refuse_overwriting
from mpcalc.service.exitcodes import ExitCode


@click.command("diff", context_settings={"ignore_unknown_options": True, "allow_interspersed_args": False})
@click.option("--left", default="", metavar="OPTIONS", help="Options of the left side, e.g. '--dpdk 21.11'.")
@click.option("--right", default="", metavar="OPTIONS", help="Options of the right side, e.g. '--dpdk 25.11'.")
@output_options
@click.argument("command", nargs=-1, type=click.UNPROCESSED, required=True)
@click.pass_context
def command(ctx: click.Context, left: str, right: str, command: tuple[str, ...], fmt: str) -> int:
    """The same configuration under two platforms or releases, side by side.

    Example: mpcalc diff --left '--dpdk 21.11' --right '--dpdk 25.11' mbuf --count 8191 --cache-size 256
    """
    import shlex

    from mpcalc.dpdk.core.registry import NAMES
    from mpcalc.service.documents import diff_reports
    from mpcalc.service.request import evaluate, request_of

    name, *args = command
    if name not in NAMES:
        raise click.UsageError(f"diff needs a sizing command ({', '.join(NAMES)}), not {name!r}")
    sub = cli.get_command(ctx, name)
    assert sub is not None
    reports, formats = [], []
    for side in (left, right):
        try:
            extra = shlex.split(side)
        except ValueError as exc:
            raise click.UsageError(f"cannot split {side!r}: {exc}") from None
        with sub.make_context(name, [*args, *extra], parent=ctx) as sub_ctx:
            values = dict(sub_ctx.params)
        # the side's own --format/--json (written after the command, it went to the command)
        fmt_side, as_json, svg = values.pop("fmt", None), values.pop("as_json", False), values.pop("svg", None)
        formats.append("json" if as_json else fmt_side)
        if svg:
            refuse_overwriting(svg, "--svg", sub_ctx)
            ctx.meta["mpcalc.svg"] = svg
        reports.append(evaluate(request_of(name, values)).report)
    result = diff_reports(reports[0], reports[1])
    output(result, (formats[0] or "table") if fmt == "table" else fmt)
    return ExitCode.OK if result.ok else ExitCode.REJECTED
