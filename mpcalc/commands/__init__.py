"""Commands that live in their own modules; each module defines ``command``, a click command.

cli.py's group imports a module here only when its command is named (or the commands are listed),
so a module may import cli's shared option bundles (``platform_options``, ``output_options``,
``flags_option``, ``emit``, ``output``) and costs nothing at start-up otherwise.
"""

from __future__ import annotations

#: module names under mpcalc.commands; each module's ``command`` is named like its module
MODULES: tuple[str, ...] = ("plan", "batch", "sweep", "inspect")
