"""``mpcalc schema``: the JSON Schema of every document mpcalc prints."""

from __future__ import annotations

import click

from ..app.exitcodes import ExitCode


@click.command("schema")
def command() -> int:
    """Print the JSON Schema of the JSON output."""
    from importlib.resources import files

    click.echo(files("mpcalc").joinpath("schema.json").read_text(), nl=False)
    return ExitCode.OK
