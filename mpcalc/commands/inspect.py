"""``mpcalc inspect FILE|-``: a live DPDK's dumps against the model (issue 8).

The parsing and reconciliation are in :mod:`mpcalc.inspect` (pure); this module is
the click command and its three renderings.
"""

from __future__ import annotations

import csv
import json
import sys
from typing import Any, TextIO

import click

from .. import inspect as ins
from ..cli import EXIT_OK, output_options
from ..dpdk.facts import ARCHES, RELEASES
from ..dpdk.intmath import U32_MAX
from ..params import Count, PageSize
from ..dpdk.units import iec, page_label


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
        json.dump(doc, sys.stdout, indent=2)
        sys.stdout.write("\n")
    elif fmt in ("csv", "tsv"):
        writer = csv.writer(sys.stdout, delimiter="\t" if fmt == "tsv" else ",", lineterminator="\n")
        writer.writerow(ins.CSV_COLUMNS)
        writer.writerows(ins.csv_rows(doc))
    else:
        _table(doc, sys.stdout)
    return EXIT_OK


def _n(value: Any) -> str:
    if value is None or value == "":
        return "-"
    if isinstance(value, int):
        return f"{value:,}"
    return str(value)


def _delta(value: Any) -> str:
    if value is None:
        return "-"
    return "0" if value == 0 else f"{value:+,}"


def _table(doc: dict[str, Any], stream: TextIO) -> None:
    from rich.table import Table
    from rich.text import Text

    from ..render.table import console_for

    console = console_for(stream)
    inp = doc["input"]
    console.print(f"{inp['file']}: {inp['lines']} lines ({', '.join(inp['formats']) or 'nothing known'}); "
                  f"{inp['skipped_lines']} unknown lines skipped")
    for p in doc["pools"]:
        r = p["recovered"]
        console.print()
        console.print(Text.assemble(
            (f"pool {p['name']}", "bold"),
            f" ({', '.join(p['sources'])}): {r['count']:,} x elt_size {r['elt_size']} ({r['elt_size_range'][0]}.."
            f"{r['elt_size_range'][1]} requested), cache_size {r['cache_size']}, private {r['private_data_size']}, "
            f"flags {', '.join(r['flags']) or 'none'}, ops {r['ops_name'] or '?'}"))
        console.print(f"DPDK {r['dpdk']} {r['arch']}: cache line {r['cache_line']} B, RTE_MAX_LCORE {r['max_lcore']}, "
                      f"{r['channels']} channels x {r['ranks']} ranks, page size {page_label(r['page_size'])}"
                      f"{', debug' if r['debug'] else ''}{', stats' if r['stats'] else ''}")
        src = Table(title="recovered platform: where each value comes from", title_justify="left")
        src.add_column("value")
        src.add_column("source")
        for k, v in r["sources"].items():
            src.add_row(k, v)
        console.print(src)
        t = Table(title="model and measurement", title_justify="left")
        for col, just in (("section", "left"), ("name", "left"), ("modelled", "right"), ("measured", "right"),
                          ("delta", "right"), ("measured from", "left")):
            t.add_column(col, justify=just)  # type: ignore[arg-type]
        for o in p["object"]:
            t.add_row("object", o["name"], _n(o["modelled"]), _n(o["measured"]), _delta(o["delta"]), "dump")
        for m in p["memzones"]:
            t.add_row("memzone", m["name"], _n(m["modelled"]), _n(m["measured"]), _delta(m["delta"]), m["how"])
        t.add_row("total", "unexplained_bytes", "", "", _delta(p["unexplained_bytes"]),
                  "the model explains the dump" if p["explained"] else
                  ("not measured" if p["measured_bytes"] is None else "see causes"))
        console.print(t)
        for c in p["causes"]:
            console.print(f"  likely cause: {c['text']}")
        if p["advice"]:
            a = Table(title=f"what {p['name']} could save (of {p['total_bytes']:,} B, {iec(p['total_bytes'])})",
                      title_justify="left")
            for col, just in (("#", "right"), ("change", "left"), ("saves", "right"), ("%", "right"),
                              ("note", "left")):
                a.add_column(col, justify=just)  # type: ignore[arg-type]
            for x in p["advice"]:
                a.add_row(str(x["rank"]), x["change"], f"{x['saves_bytes']:,} B", f"{x['saves_percent']}%",
                          x["note"])
            console.print(a)
        for note in p["notes"]:
            console.print(f"  note: {note}")
    if doc["other_memzones"]:
        console.print()
        console.print(f"{len(doc['other_memzones'])} other memzones, "
                      f"{doc['totals']['other_memzone_bytes']:,} B: "
                      + ", ".join(z["name"] for z in doc["other_memzones"][:12])
                      + (" ..." if len(doc["other_memzones"]) > 12 else ""))
    t = doc["totals"]
    console.print()
    console.print(f"total: {t['pools']} pools, modelled {t['modelled_bytes']:,} B, measured "
                  f"{_n(t['measured_bytes'])} B, unexplained {_delta(t['unexplained_bytes'])} B")
    if doc["advice"]:
        a = Table(title="advice in total", title_justify="left")
        for col, just in (("#", "right"), ("change", "left"), ("saves", "right"), ("%", "right"), ("pools", "left")):
            a.add_column(col, justify=just)  # type: ignore[arg-type]
        for x in doc["advice"]:
            a.add_row(str(x["rank"]), x["change"], f"{x['saves_bytes']:,} B", f"{x['saves_percent']}%",
                      ", ".join(x["pools"]))
        console.print(a)
    for note in doc["notes"]:
        console.print(f"note: {note}")
