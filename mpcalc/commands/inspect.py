"""``mpcalc inspect FILE|-``: a live DPDK's dumps against the model (issue 8).

The parsing and reconciliation are in :mod:`mpcalc.inspect` (pure), the renderings in
:mod:`mpcalc.render.inspect`; this module is the click command.
"""

from __future__ import annotations

import sys

import click

from .. import inspect as ins
from ..app.exitcodes import ExitCode
from ..cli import output_options
from ..dpdk.facts import ARCHES, RELEASES
from ..dpdk.intmath import U32_MAX
from ..params import Count, PageSize
from ..render import inspect as draw


@click.command("inspect")
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--dpdk", type=click.Choice(sorted(RELEASES)), default=None,
              help="Pin the DPDK release [default: what the dump format allows, 22.11 first].")
@click.option("--arch", type=click.Choice(sorted(ARCHES)), default=None, help="Pin the build architecture.")
@click.option("--cache-line", type=click.Choice(["64", "128"]), default=None, help="Pin RTE_CACHE_LINE_SIZE.")
@click.option("--max-lcore", type=Count(minimum=1, maximum=65535), default=None, help="Pin RTE_MAX_LCORE.")
@click.option("--channels", type=Count(minimum=1, maximum=U32_MAX), default=None, help="Pin EAL -n.")
@click.option("--ranks", type=Count(minimum=1, maximum=16), default=None, help="Pin EAL -r.")
@click.option("--page-size", type=PageSize(), default=None, help="Pin the page size (4K, 2M, 1G, none).")
@click.option("--debug/--no-debug", default=None, help="Pin a RTE_LIBRTE_MEMPOOL_DEBUG build (or not).")
@click.option("--stats/--no-stats", default=None, help="Pin a RTE_LIBRTE_MEMPOOL_STATS build (or not).")
@output_options
def command(file: str, dpdk: str | None, arch: str | None, cache_line: str | None, max_lcore: int | None,
            channels: int | None, ranks: int | None, page_size: int | None, debug: bool | None,
            stats: bool | None, fmt: str) -> int:
    """Read what a live DPDK reports and hold it against the model.

    FILE (or - for stdin) holds any mix of rte_mempool_dump() text (dpdk-proc-info --show-mempool,
    testpmd's dump_mempool), rte_memzone_dump() text and the JSON dpdk-telemetry.py prints for
    /mempool/list and /mempool/info,NAME. Each pool's configuration is recovered, recomputed and
    compared memzone by memzone; differences get a likely cause; advice ranks what flags, a smaller
    cache, a count under the ring's power of two or another page size would save. Options pin what
    the dump cannot tell; everything else is inferred.
    """
    if file == "-":
        text, source = sys.stdin.read(), "<stdin>"
    else:
        try:
            with open(file, encoding="utf-8", errors="replace") as fh:
                text = fh.read()
        except OSError as exc:
            raise click.UsageError(f"cannot read {file!r}: {exc.strerror}") from None
        source = file
    pins = ins.Pins(dpdk=dpdk, arch=arch, cache_line=int(cache_line) if cache_line else None, max_lcore=max_lcore,
                    channels=channels, ranks=ranks, page_size=page_size, debug=debug, stats=stats)
    report = ins.inspect_text(text, source, pins)
    doc = report.to_dict()
    if fmt == "json":
        draw.render_json(doc, sys.stdout)
    elif fmt in ("csv", "tsv"):
        draw.render_csv(doc, sys.stdout, fmt)
    else:
        draw.render_table(doc, sys.stdout)
    return ExitCode.OK
