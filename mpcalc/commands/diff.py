"""``mpcalc diff``: one sizing command under two platforms or releases."""

from __future__ import annotations

import click

from ..cli import EXIT_OK, EXIT_REJECTED, cli, output, output_options
from ..dpdk.records import Report, diff_reports


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

