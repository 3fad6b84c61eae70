"""mpcalc's commands, each built when it is named.

cli.py's group imports a command's module, and builds the command, only when the command is named
(or the commands are listed): click constructs every option object of a command it builds, and
``mpcalc rib ...`` should pay for neither ``fib``'s options nor ``inspect``'s parsers.  A module
may import cli's shared option bundles (``platform_options``, ``output_options``, ``flags_option``,
``finish``, ``emit``, ``output``).
"""

from __future__ import annotations

#: command name -> (module under mpcalc.commands, attribute): a click command, or a function that builds one
COMMANDS: dict[str, tuple[str, str]] = {
    "pool": ("sizing", "pool"),
    "rib": ("sizing", "rib"),
    "rib6": ("sizing", "rib6"),
    "fib": ("sizing", "fib"),
    "fib6": ("sizing", "fib6"),
    "mbuf": ("sizing", "mbuf"),
    "diff": ("diff", "command"),
    "schema": ("schema", "command"),
    "plan": ("plan", "command"),
    "batch": ("batch", "command"),
    "sweep": ("sweep", "command"),
    "inspect": ("inspect", "command"),
}
