"""``mpcalc batch``: many configurations, one JSON line each, answered as a stream.

Input is JSON Lines: one object per line, keyed like the command line.  ``"command"`` names
the object (a sizing command: mpcalc.dpdk.core.registry); every other key is a long option with ``_``
for ``-`` (``elt_size`` for ``--elt-size``, ``platform`` for ``--platform``), its value a JSON
number, ``true``/``false`` for a switch, or the string the command line takes (``"1M"``,
``"2M"``, ``"no_cache_align|no_spread"``); ``flags`` may also be a list or ``"all"``.  Values
are parsed by the objects' declarations, so batch and CLI accept exactly the same inputs.

Output: one JSON line per input line, in order.  By default it is the document the command's
``--json`` prints (compact, on one line); ``--compact`` writes a short record per configuration
instead (the totals of each flag combination).  A line that cannot be used yields an error
record ``{"line": N, "key": ..., "error": ..., "exit_code": 2}`` and the batch goes on.  Blank
lines are skipped.  Exit code: 4 if mpcalc failed on a line (an internal error: a bug), else 2 if any
line was bad, else 1 if DPDK would reject any configuration, else 0.

The input is read in chunks as it arrives and every answer is written (and flushed) before the
next read waits, so a producer may feed configurations one at a time (mpcalc.stream).  The
evaluation is mpcalc.service.batch.
"""

from __future__ import annotations

import sys

import click


@click.command("batch")
@click.argument("input_file", metavar="[FILE]", type=click.Path(dir_okay=False, allow_dash=True), default="-")
@click.option(
    "--compact",
    is_flag=True,
    help="One short record per line (flags, object size, totals, errnos) instead of the full document.",
)
@click.option(
    "--jobs",
    "-j",
    type=click.IntRange(0, 64),
    default=0,
    show_default=True,
    help="Worker processes for a FILE (answers stay in order); 0: one per CPU for a file of 1 MiB or "
    "more, else 1. A pipe is always answered by this process, read by read.",
)
def command(input_file: str, compact: bool, jobs: int) -> int:
    """Evaluate JSON Lines configurations (FILE or stdin), one JSON answer per line, streaming.

    Each line is an object such as {"command": "pool", "count": 1000, "elt_size": 40, "flags": ["no_spread"]}:
    "command" is a sizing command (pool, ring, app, ...); every other key is a long option with _ for -.
    Each answer is the document --json prints (or, with --compact, a short record); a bad line
    yields {"line": N, "key": ..., "error": ..., "exit_code": 2} and the batch goes on.
    Exit code: 4 on an internal error (a bug), else 2 if any line was bad, else 1 if DPDK would reject any
    configuration, else 0.
    """
    from mpcalc.service.parallel import answer

    if input_file == "-":
        return answer(sys.stdin.buffer, sys.stdout, compact, freeze=True)
    try:
        source = open(input_file, "rb")  # noqa: SIM115 - closed below
    except OSError as exc:
        raise click.BadParameter(f"cannot read {input_file!r}: {exc.strerror}", param_hint="FILE") from None
    with source:
        if jobs == 0:
            import os

            big = os.fstat(source.fileno()).st_size >= 1 << 20
            jobs = min(len(os.sched_getaffinity(0)), 8) if big else 1
        return answer(source, sys.stdout, compact, freeze=True, jobs=jobs)
