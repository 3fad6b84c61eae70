"""``mpcalc inspect FILE|- [-- COMMAND LINE]``: a live DPDK's dumps against the model (issues 8 and 14).

The parsing and reconciliation are in :mod:`mpcalc.inspect` (pure), the renderings in
:mod:`mpcalc.render.inspect_view`; this module is the click command.
"""

from __future__ import annotations

import io
import os
import sys

import click

from mpcalc import inspect as ins
from mpcalc.cli import output_options
from mpcalc.dpdk.apps.trace.babeltrace_text import is_text_trace
from mpcalc.dpdk.core.limits import MAX_DUMP_BYTES
from mpcalc.render import inspect_view as draw
from mpcalc.service.exitcodes import ExitCode

#: the platform options inspect can pin (the platform's own declarations, with no default)
PINS = ("dpdk", "arch", "cache_line", "max_lcore", "channels", "ranks", "page_size", "debug", "stats")


def _pin_options() -> list[click.Option]:
    from mpcalc.dpdk.core.platform import PLATFORM_PARAMS
    from mpcalc.params import option

    declared = {p.key: p for p in PLATFORM_PARAMS}
    return [
        option(
            declared[k]._replace(default=None, show_default=False),
            help="Pin (else inferred from the dump): " + declared[k].help,
        )
        for k in PINS
    ]


@click.command("inspect", params=_pin_options())
@click.argument("file", type=click.Path(allow_dash=True))
@click.argument("command_line", nargs=-1, type=click.UNPROCESSED, metavar="[-- COMMAND LINE]")
@output_options
def command(file: str, command_line: tuple[str, ...], fmt: str, **pinned: object) -> int:
    """Read what a live DPDK reports and hold it against the model.

    FILE (or - for stdin) is a DPDK trace (a CTF folder as EAL --trace-dir writes it, or babeltrace2's
    text of one: the pools and memzones alive at the end of its start-up), or holds any mix of
    rte_mempool_dump() text (dpdk-proc-info --show-mempool, testpmd's dump_mempool), rte_memzone_dump()
    text and the JSON dpdk-telemetry.py prints for /mempool/list and /mempool/info,NAME. Each pool's
    configuration is recovered, recomputed and
    compared memzone by memzone; differences get a likely cause; advice ranks what flags, a smaller
    cache, a count under the ring's power of two or another page size would save. Options pin what
    the dump cannot tell; everything else is inferred.

    After --, the application's own command line (dpdk-testpmd or dpdk-l3fwd, as run): every memzone of
    the dump is explained by mpcalc app of it (matched, differs, extra or missing), grouped by owner
    (a pool, a FIB with its RIB node pool and tables, ethdev, ...), the heap checked against telemetry's
    /eal/heap_info,0, and each pool advised only the levers its creator has.
    """
    pins = ins.Pins(**pinned)  # type: ignore[arg-type]
    command = list(command_line) or None
    if file != "-" and os.path.isdir(file):  # a CTF trace as DPDK writes it
        return _show(ins.inspect_trace(file, pins, command), fmt)
    if file == "-":
        text, source = sys.stdin.read(MAX_DUMP_BYTES + 1), "<stdin>"  # no more than the bound is read
    else:
        try:
            with open(file, encoding="utf-8", errors="replace") as fh:
                text = fh.read(MAX_DUMP_BYTES + 1)
        except OSError as exc:
            raise click.UsageError(f"cannot read {file!r}: {exc.strerror}") from None
        source = file
    if is_text_trace(next((ln for ln in text.splitlines() if ln.strip()), "")):  # babeltrace2's text of a trace
        if file == "-":
            if len(text) > MAX_DUMP_BYTES:  # read no further than the bound: a trace this long is read from its file
                raise click.UsageError(f"<stdin>: a trace over {MAX_DUMP_BYTES:,} bytes: give its file or CTF folder")
            sys.stdin = io.StringIO(text)  # the trace reader reads standard input itself
        return _show(ins.inspect_trace(file, pins, command), fmt)
    if len(text) > MAX_DUMP_BYTES:
        raise click.UsageError(f"{source}: larger than {MAX_DUMP_BYTES:,} bytes; give the dumps of one process")
    return _show(ins.inspect_text(text, source, pins, command), fmt)


def _show(report: ins.InspectReport, fmt: str) -> int:
    if fmt == "k8s":
        from mpcalc.service.k8s import not_for

        raise not_for("inspect")
    doc = report.to_dict()
    if fmt == "json":
        draw.render_json(doc, sys.stdout)
    elif fmt in ("csv", "tsv"):
        draw.render_csv(doc, sys.stdout, fmt)
    else:
        draw.render_table(doc, sys.stdout)
    return ExitCode.OK
