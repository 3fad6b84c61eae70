"""Commands that live in their own modules; each module defines ``command``, a click command.

cli.py registers them at the end of its import, so a module here may import cli's shared
option bundles (``platform_options``, ``output_options``, ``flags_option``, ``emit``).
"""

from __future__ import annotations

import importlib

import click

#: module names under mpcalc.commands
MODULES: tuple[str, ...] = ("plan",)


def register(group: click.Group) -> None:
    for name in MODULES:
        module = importlib.import_module(f"{__name__}.{name}")
        group.add_command(module.command)
