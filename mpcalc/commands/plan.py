"""``mpcalc plan FILE``: every pool, mbuf pool, RIB and FIB of an application, per socket."""

from __future__ import annotations

import click

from ..cli import EXIT_OK, EXIT_REJECTED, output, output_options


@click.command("plan")
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=False))
@output_options
def command(file: str, fmt: str) -> int:
    """A whole application from a TOML file: each item, the total per NUMA socket, the hugepages each
    socket needs, and ready-to-paste --socket-mem, nr_hugepages and Kubernetes settings."""
    from .. import plan as planmod

    doc, path = planmod.load(file)
    report = planmod.plan(doc, path)
    output(report, fmt)
    return EXIT_OK if report.ok else EXIT_REJECTED
