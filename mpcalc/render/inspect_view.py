"""``mpcalc inspect``'s renderings of an :meth:`mpcalc.inspect.InspectReport.to_dict` document.

JSON (the document itself), CSV/TSV in long form (:func:`mpcalc.inspect.csv_rows`) and the table;
rich is imported only when the table is drawn.
"""

from __future__ import annotations

import csv
import json
from typing import Any, TextIO

from mpcalc.dpdk.core.flags import flags_label
from mpcalc.dpdk.core.units import iec, page_label
from mpcalc.inspect import CSV_COLUMNS, csv_rows


def render_json(doc: dict[str, Any], stream: TextIO) -> None:
    json.dump(doc, stream, indent=2)
    stream.write("\n")


def render_csv(doc: dict[str, Any], stream: TextIO, fmt: str = "csv") -> None:
    writer = csv.writer(stream, delimiter="\t" if fmt == "tsv" else ",", lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    writer.writerows(csv_rows(doc))


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


def render_table(doc: dict[str, Any], stream: TextIO) -> None:
    """The table view: per pool the recovered platform, model and measurement, causes and advice; then the totals."""
    from rich.table import Table
    from rich.text import Text

    from mpcalc.render.table import console_for

    console = console_for(stream)
    inp = doc["input"]
    console.print(
        f"{inp['file']}: {inp['lines']} lines ({', '.join(inp['formats']) or 'nothing known'}); "
        f"{inp['skipped_lines']} unknown lines skipped"
    )
    for p in doc["pools"]:
        r = p["recovered"]
        console.print()
        console.print(
            Text.assemble(
                (f"pool {p['name']}", "bold"),
                f" ({', '.join(p['sources'])}): {r['count']:,} x elt_size {r['elt_size']} ({r['elt_size_range'][0]}.."
                f"{r['elt_size_range'][1]} requested), cache_size {r['cache_size']}, private {r['private_data_size']}, "
                f"flags {flags_label(r['flags'], prose=True)}, ops {r['ops_name'] or '?'}",
            )
        )
        console.print(
            f"DPDK {r['dpdk']} {r['arch']}: cache line {r['cache_line']} B, RTE_MAX_LCORE {r['max_lcore']}, "
            f"{r['channels']} channels x {r['ranks']} ranks, page size {page_label(r['page_size'])}"
            f"{', debug' if r['debug'] else ''}{', stats' if r['stats'] else ''}"
        )
        src = Table(title="recovered platform: where each value comes from", title_justify="left")
        src.add_column("value")
        src.add_column("source")
        for k, v in r["sources"].items():
            src.add_row(k, v)
        console.print(src)
        t = Table(title="model and measurement", title_justify="left")
        for col, just in (
            ("section", "left"),
            ("name", "left"),
            ("modelled", "right"),
            ("measured", "right"),
            ("delta", "right"),
            ("measured from", "left"),
        ):
            t.add_column(col, justify=just)  # type: ignore[arg-type]
        for o in p["object"]:
            t.add_row("object", o["name"], _n(o["modelled"]), _n(o["measured"]), _delta(o["delta"]), "dump")
        for m in p["memzones"]:
            t.add_row("memzone", m["name"], _n(m["modelled"]), _n(m["measured"]), _delta(m["delta"]), m["how"])
        t.add_row(
            "total",
            "unexplained_bytes",
            "",
            "",
            _delta(p["unexplained_bytes"]),
            "the model explains the dump"
            if p["explained"]
            else ("not measured" if p["measured_bytes"] is None else "see causes"),
        )
        console.print(t)
        for c in p["causes"]:
            console.print(f"  likely cause: {c['text']}")
        if p["advice"]:
            a = Table(
                title=f"what {p['name']} could save (of {p['total_bytes']:,} B, {iec(p['total_bytes'])})",
                title_justify="left",
            )
            for col, just in (("#", "right"), ("change", "left"), ("saves", "right"), ("%", "right"), ("note", "left")):
                a.add_column(col, justify=just)  # type: ignore[arg-type]
            for x in p["advice"]:
                a.add_row(str(x["rank"]), x["change"], f"{x['saves_bytes']:,} B", f"{x['saves_percent']}%", x["note"])
            console.print(a)
        for note in p["notes"]:
            console.print(f"  note: {note}")
    if doc["other_memzones"]:
        console.print()
        console.print(
            f"{len(doc['other_memzones'])} other memzones, "
            f"{doc['totals']['other_memzone_bytes']:,} B: "
            + ", ".join(z["name"] for z in doc["other_memzones"][:12])
            + (" ..." if len(doc["other_memzones"]) > 12 else "")
        )
    t = doc["totals"]
    console.print()
    console.print(
        f"total: {t['pools']} pools, modelled {t['modelled_bytes']:,} B, measured "
        f"{_n(t['measured_bytes'])} B, unexplained {_delta(t['unexplained_bytes'])} B"
    )
    if doc["advice"]:
        a = Table(title="advice in total", title_justify="left")
        for col, just in (("#", "right"), ("change", "left"), ("saves", "right"), ("%", "right"), ("pools", "left")):
            a.add_column(col, justify=just)  # type: ignore[arg-type]
        for x in doc["advice"]:
            a.add_row(
                str(x["rank"]), x["change"], f"{x['saves_bytes']:,} B", f"{x['saves_percent']}%", ", ".join(x["pools"])
            )
        console.print(a)
    for note in doc["notes"]:
        console.print(f"note: {note}")
    if doc.get("application"):
        _application(console, doc["application"])


def _application(console: Any, app: dict[str, Any]) -> None:
    """The dump against mpcalc app of the command line: every memzone, the owners, the heap."""
    from rich.table import Table

    c = app["counts"]
    console.print()
    console.print(f"application: {' '.join(app['command_line'])}")
    t = Table(
        title=f"every memzone against mpcalc app: {c['matched']} matched, {c['differs']} differ, "
        f"{c['extra']} extra, {c['missing']} missing",
        title_justify="left",
    )
    for col, just in (
        ("memzone", "left"),
        ("status", "left"),
        ("owner", "left"),
        ("dumped", "right"),
        ("modelled", "right"),
        ("delta", "right"),
    ):
        t.add_column(col, justify=just)  # type: ignore[arg-type]
    for r in app["rows"]:
        delta = None if r["dumped"] is None or r["modelled"] is None else r["dumped"] - r["modelled"]
        t.add_row(r["name"], r["status"], r["owner"] or "-", _n(r["dumped"]), _n(r["modelled"]), _delta(delta))
    console.print(t)
    g = Table(title="by owner (heap allocations: rte_malloc, in no memzone dump)", title_justify="left")
    for col, just in (
        ("owner", "left"),
        ("kind", "left"),
        ("memzones", "right"),
        ("dumped", "right"),
        ("modelled", "right"),
        ("heap allocations", "right"),
    ):
        g.add_column(col, justify=just)  # type: ignore[arg-type]
    for x in app["groups"]:
        g.add_row(
            x["name"],
            x["kind"],
            str(len(x["memzones"])),
            _n(x["dumped_bytes"]),
            _n(x["modelled_bytes"]),
            _n(x["allocation_bytes"]),
        )
    console.print(g)
    h = app.get("heap")
    if h:
        console.print(
            f"heap (telemetry /eal/heap_info,0): Alloc_size {h['alloc_size']:,} B, the model "
            f"{h['modelled_bytes']:,} B; Alloc_count {_n(h['alloc_count'])}, the model "
            f"{h['modelled_count']:,}: {'matched' if h['match'] else 'differs'}"
        )
    console.print(
        "every memzone explained by mpcalc app"
        if app["explained"]
        else "not explained: see the rows that are not 'matched'"
    )
