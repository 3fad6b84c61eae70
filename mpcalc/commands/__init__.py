"""mpcalc's commands other than the DPDK objects' own (those are made from their declarations by
mpcalc.cli.sizing_command), each built when it is named.

cli.py's group imports a command's module only when the command is named (or the commands are
listed): click constructs every option object of a command it builds, and ``mpcalc rib ...``
should pay for neither ``plan``'s options nor ``inspect``'s parsers.
"""

from __future__ import annotations

#: command name -> module under mpcalc.commands whose ``command`` is the click command
COMMANDS: dict[str, str] = {
    "diff": "diff_cmd",
    "schema": "schema_cmd",
    "plan": "plan_cmd",
    "batch": "batch_cmd",
    "sweep": "sweep_cmd",
    "inspect": "inspect_cmd",
}
