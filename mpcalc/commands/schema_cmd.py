"""``mpcalc schema``: the JSON Schema of every document mpcalc prints, or of a plan file."""

from __future__ import annotations

import json

import click

from mpcalc.service.exitcodes import ExitCode


@click.command("schema")
@click.option(
    "--document",
    type=click.Choice(["output", "plan-file"]),
    default="output",
    show_default=True,
    help="output: every JSON document mpcalc prints; plan-file: the TOML file mpcalc plan reads.",
)
def command(document: str) -> int:
    """Print a JSON Schema: of mpcalc's JSON output, or of a plan file."""
    from mpcalc.service import schema

    doc = schema.documents() if document == "output" else schema.plan_file()
    click.echo(json.dumps(doc, indent=2))
    return ExitCode.OK
