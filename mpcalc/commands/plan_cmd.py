"""``mpcalc plan FILE``: every pool, mbuf pool, RIB and FIB of an application, per socket."""

from __future__ import annotations

import click

from mpcalc import userio
from mpcalc.cli import output, output_options, plot_option
from mpcalc.dpdk.core.platform import PLATFORM_PARAMS, parse_node_hugepages
from mpcalc.params import Declared
from mpcalc.service.exitcodes import ExitCode
from mpcalc.service.request import ANALYSIS_PARAMS

NODE_HUGEPAGES = next(p for p in PLATFORM_PARAMS if p.key == "node_hugepages")


@click.command("plan")
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=False))
@click.option(
    "--fit",
    type=Declared(next(p for p in ANALYSIS_PARAMS if p.key == "fit")),
    default=None,
    metavar="SIZE",
    help="Grow one item (--fit-item) to the largest count, nodes or routes with which its socket's "
    "pages still fit SIZE.",
)
@click.option("--fit-item", default=None, metavar="NAME", help="The item --fit grows.")
@click.option(
    "--node-hugepages",
    type=Declared(NODE_HUGEPAGES),
    default=None,
    metavar=NODE_HUGEPAGES.metavar,
    help=NODE_HUGEPAGES.help + " Over the file's [platform] node_hugepages.",
)
@output_options
@plot_option
def command(file: str, fit: int | None, fit_item: str | None, node_hugepages: str | None, fmt: str) -> int:
    """A whole application from a TOML file: each item, the total per NUMA socket, the hugepages each
    socket needs, and ready-to-paste --socket-mem, nr_hugepages and Kubernetes settings."""
    from mpcalc.service import plan as planmod

    if (fit is None) != (fit_item is None):
        raise click.UsageError("--fit and --fit-item go together")
    doc, path = planmod.load(file)
    if node_hugepages is not None:
        parse_node_hugepages(node_hugepages)  # a bad value names --node-hugepages, not the file
        table = doc.get("platform")
        doc = {**doc, "platform": {**(table if isinstance(table, dict) else {}), "node_hugepages": node_hugepages}}
    if fit is not None and fit_item is not None:
        key, value, report = planmod.fit_item(doc, path, fit_item, fit)
        output(report, fmt)
        if value is None:
            click.echo(f"mpcalc: no valid {key} of {fit_item!r} fits {fit:,} bytes", err=True)
            return ExitCode.REJECTED
        userio.info(f"--fit: {fit_item} {key} {value:,} is the largest that fits {fit:,} bytes")
        return ExitCode.OK if report.ok else ExitCode.REJECTED
    report = planmod.plan(doc, path)
    output(report, fmt)
    return ExitCode.OK if report.ok else ExitCode.REJECTED
