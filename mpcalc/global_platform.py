"""The platform options before the command: ``mpcalc --build-config FILE rib ...``.

The group takes the platform's declared options (mpcalc.dpdk.core.platform.PLATFORM_PARAMS, made into click
options by mpcalc.params.option, as every sizing command does) and hands what was given to the command as
its defaults (click's ``default_map``): an option after the command still wins.  A command that takes no
platform options refuses them, saying where they go.
"""

from __future__ import annotations

from typing import Any

import click
from click.core import ParameterSource

_META = "mpcalc.platform_options"


def _remember(ctx: click.Context, param: click.Parameter, value: Any) -> Any:
    if param.name and ctx.get_parameter_source(param.name) in (
        ParameterSource.COMMANDLINE,
        ParameterSource.ENVIRONMENT,
    ):
        ctx.meta.setdefault(_META, {})[param.name] = value
    return value


def add(group: click.Group) -> click.Group:
    """``group`` with the platform options (values kept aside, not passed to its callback)."""
    from mpcalc.dpdk.core.platform import PLATFORM_PARAMS
    from mpcalc.params import option

    for p in PLATFORM_PARAMS:
        if "cli" in p.fronts:
            group.params.append(
                option(
                    p,
                    default=None,
                    show_default=False,
                    expose_value=False,
                    callback=_remember,
                    help=f"{p.help}  (Or after a sizing command.)",
                )
            )
    return group


def forward(ctx: click.Context) -> None:
    """Give the platform options seen before the command to the command (the group's callback calls this)."""
    given: dict[str, Any] = ctx.meta.pop(_META, {})
    name = ctx.invoked_subcommand
    if not given or not name:
        return
    command = ctx.command.get_command(ctx, name) if isinstance(ctx.command, click.Group) else None
    takes = {p.name for p in command.params} if command else set()
    refused = [k for k in given if k not in takes]
    if refused:
        from mpcalc.dpdk.core.registry import NAMES

        opts = ", ".join("--" + k.replace("_", "-") for k in refused)
        raise click.UsageError(
            f"`mpcalc {name}` takes no {opts}: the platform options go with a sizing command "
            f"(mpcalc {opts.split(',')[0]} ... {'|'.join(NAMES)} ..., before or after its name)",
            ctx,
        )
    ctx.default_map = {**(ctx.default_map or {}), name: {**(ctx.default_map or {}).get(name, {}), **given}}
