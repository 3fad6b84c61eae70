"""Human output with rich: object layout, memzones and allocations, totals.

rich is imported here only, so JSON and CSV never pay for it.
"""

from __future__ import annotations

import os
from typing import TextIO

from rich.console import Console
from rich.table import Table
from rich.text import Text

from ..app.report import DiffReport, Report
from ..dpdk.units import iec, page_label


def save_svg(report: object, path: str) -> None:
    """The table view of any report, recorded and saved as SVG (rich's export)."""
    import io

    from . import render

    buf = io.StringIO()
    console = Console(file=buf, record=True, width=120, force_terminal=True, color_system="truecolor", markup=False,
                      emoji=False)
    global _RECORDING
    _RECORDING = console
    try:
        render(report, "table", buf)
    finally:
        _RECORDING = None
    console.save_svg(path, title="mpcalc")


_RECORDING: Console | None = None


def console_for(stream: TextIO) -> Console:
    """A terminal gets its own width and colour; a pipe or file gets 120 columns and no escape codes.

    Text is printed as it is: no console markup (a pool name may hold ``[``) and no emoji codes
    (which would also load rich's 3,600-entry emoji table).
    """
    if _RECORDING is not None:
        return _RECORDING
    tty = stream.isatty()
    return Console(
        file=stream,
        no_color="NO_COLOR" in os.environ,
        highlight=False,
        markup=False,
        emoji=False,
        width=None if tty else 120,
        force_terminal=tty,
        color_system="auto" if tty else None,
    )


def _platform_line(report: Report) -> str:
    p = report.platform
    spread = f"{p['channels']} channels x {p['ranks']} ranks" if p["spreads"] else "no spreading on this arch"
    build = "".join(f", {k}" for k in ("debug", "stats") if p[k])
    line = (f"DPDK {p['dpdk']} ({p['dpdk_stable_tag']}) {p['arch']}"
            f"{' ' + str(p['platform']) if p['platform'] else ''}: cache line {p['cache_line']} B, "
            f"RTE_MAX_LCORE {p['max_lcore']}, {spread}, page size {page_label(p['page_size'])}{build}")  # type: ignore[arg-type]
    chosen = [f"{k} from {v}" for k, v in p["sources"].items()  # type: ignore[union-attr]
              if v.startswith(("option", "platform", "build file"))]
    if chosen:
        line += "\n  " + "; ".join(chosen)
    return line


def _flags_label(result: dict) -> str:
    return ",".join(result["flags"]) or "none"


def _layout_bar(mp: dict, width: int = 32) -> Text:
    total = mp["total_size"] or 1
    parts = [
        ("▒", mp["header_size"], "cyan"),
        ("█", mp["elt_size"], "green"),
        ("░", mp["trailer_size"], "yellow"),
    ]
    bar = Text()
    for char, size, style in parts:
        bar.append(char * round(width * size / total), style=style)
    return bar


def _result_tables(console: Console, report: Report, result: dict) -> None:
    for mp in result["mempools"]:
        if mp["total_size"] is not None:
            t = Table(title=f"objects of mempool {mp['name']} ({mp['count']:,} x {mp['elt_size_requested']:,} B)",
                      title_justify="left")
            for col in ("header_size", "elt_size", "trailer_size", "total_size", "layout (▒ header █ elt ░ trailer)"):
                t.add_column(col, justify="left" if col.startswith("layout") else "right")
            t.add_row(*(f"{mp[c]:,}" for c in ("header_size", "elt_size", "trailer_size", "total_size")),
                      _layout_bar(mp))
            console.print(t)
    t = Table(title=f"reserved ({_flags_label(result)})", title_justify="left")
    t.add_column("kind")
    t.add_column("name")
    t.add_column("bytes", justify="right")
    t.add_column("IEC", justify="right")
    for mp in result["mempools"]:
        for mz in mp["memzones"]:
            t.add_row("memzone" + (" (leaked)" if mz.get("leaked") else ""), mz["name"], f"{mz['len']:,}",
                      iec(mz["len"]))
        for a in mp["allocations"]:
            t.add_row("rte_malloc", a["name"], f"{a['size']:,}", iec(a["size"]))
    for mz in result.get("memzones", ()):  # a ring's or a hash's own memzones
        t.add_row("memzone", mz["name"], f"{mz['len']:,}", iec(mz["len"]))
    for a in result["allocations"]:
        t.add_row("rte_malloc", a["name"], f"{a['size']:,}", iec(a["size"]))
    t.add_section()
    t.add_row("total", "total_bytes", f"{result['total_bytes']:,}", iec(result["total_bytes"]))
    t.add_row("heap", "heap_bytes", f"{result['heap_bytes']:,}", iec(result["heap_bytes"]))
    console.print(t)
    details = {k: v for k, v in result["details"].items() if k not in ("explain", "fit")}
    _details(console, details)
    fit = result["details"].get("fit")
    if fit:
        console.print(f"--fit: {fit['key']} {fit['value']:,} is the largest whose heap_bytes "
                      f"({fit['heap_bytes']:,}) fit {fit['budget']:,}; {fit['value'] + 1:,} needs "
                      f"{fit['next_heap_bytes']:,}")
    explained = result["details"].get("explain")
    if explained:
        _explain(console, explained)
    if result["hugepages"] is not None:
        console.print(f"pages of {page_label(report.platform['page_size'])}: {result['hugepages']:,}")  # type: ignore[arg-type]
    for e in result["errors"]:
        console.print(Text.assemble((e["errno"] or "hazard", "bold red"),
                                    f": {e['reason']} ({e['function']}, {e['source']})"))


def _flatten(prefix: str, value: object) -> list[tuple[str, object]]:
    if isinstance(value, dict):
        return [row for k, v in value.items() for row in _flatten(f"{prefix}{k}.", v)]
    return [(prefix.rstrip("."), value)]


def _details(console: Console, details: dict) -> None:
    if not details:
        return
    t = Table(title="details", title_justify="left", show_header=False)
    t.add_column("key")
    t.add_column("value", overflow="fold")
    for key, value in _flatten("", details):
        shown = f"{value:,}" if isinstance(value, int) and not isinstance(value, bool) else str(value)
        if isinstance(value, int) and not isinstance(value, bool) and value >= 1024 and (
                "bytes" in key or "memzone" in key or "struct" in key or "saves" in key):
            shown += f" ({iec(value)})"
        t.add_row(key, shown)
    console.print(t)


def _explain(console: Console, explained: dict) -> None:
    console.print("how DPDK gets there:")
    for step in explained["steps"]:
        console.print(f"  {step}", highlight=False, markup=False)
    if explained["savings"]:
        t = Table(title="savings on the table, largest first", title_justify="left")
        for col in ("change", "total_bytes", "saves", "IEC", "%"):
            t.add_column(col, justify="left" if col == "change" else "right")
        for row in explained["savings"]:
            t.add_row(row["change"], f"{row['total_bytes']:,}", f"{row['saves']:,}", row["saves_iec"],
                      f"{row['saves_percent']}%")
        console.print(t)


def _summary(console: Console, results: list[dict]) -> None:
    base = results[0]["total_bytes"]
    t = Table(title="every flag combination, smallest first; savings against DPDK's default (no flags)",
              title_justify="left")
    for col in ("flags", "effective", "object", "total_bytes", "IEC", "saves"):
        t.add_column(col, justify="right" if col in ("object", "total_bytes", "IEC", "saves") else "left",
                     overflow="fold")
    for r in sorted(results, key=lambda r: (bool(r["errors"]), r["total_bytes"])):
        obj = r["mempools"][0]["total_size"] if r["mempools"] else None
        saved = base - r["total_bytes"]
        pct = f" ({100 * saved / base:.1f}%)" if base else ""
        t.add_row(", ".join(r["flags"]) or "none", ", ".join(r["effective_flags"]) or "none",
                  "-" if obj is None else f"{obj:,} B", f"{r['total_bytes']:,}", iec(r["total_bytes"]),
                  "error" if r["errors"] else f"{saved:,} B{pct}")
    console.print(t)


def render(report: Report, stream: TextIO, fmt: str = "table") -> None:
    console = console_for(stream)
    console.print(_platform_line(report))
    for note in report.notes:
        console.print(f"note: {note}")
    results = report.to_dict()["results"]
    if len(results) > 1:  # type: ignore[arg-type]
        _summary(console, results)  # type: ignore[arg-type]
    else:
        for result in results:  # type: ignore[union-attr]
            _result_tables(console, report, result)


def render_diff(diff: DiffReport, stream: TextIO, fmt: str = "table") -> None:
    console = console_for(stream)
    console.print("left:  " + _platform_line(diff.left))
    console.print("right: " + _platform_line(diff.right))
    t = Table(title="right minus left", title_justify="left")
    for col in ("flags", "kind", "name", "left", "right", "delta", "IEC"):
        t.add_column(col, justify="right" if col in ("left", "right", "delta", "IEC") else "left")
    for row in diff.rows:
        if row.section == "total" and row.name == "total_bytes":
            t.add_section()
        delta = row.delta
        style = "red" if delta > 0 else ("green" if delta < 0 else "")
        t.add_row(row.result, row.section, row.name, "-" if row.left is None else f"{row.left:,}",
                  "-" if row.right is None else f"{row.right:,}", Text(f"{delta:+,}", style=style),
                  iec(delta) if delta else "")
    console.print(t)


def render_plan(report, stream: TextIO, fmt: str = "table") -> None:  # type: ignore[no-untyped-def]
    console = console_for(stream)
    doc = report.to_dict()
    console.print(f"plan {doc['file']}")
    console.print(_platform_line(type("R", (), {"platform": doc["platform"]})()))  # type: ignore[arg-type]
    t = Table(title="items", title_justify="left")
    for col in ("socket", "kind", "name", "total_bytes", "heap_bytes", "IEC", "errors"):
        t.add_column(col, justify="right" if col in ("socket", "total_bytes", "heap_bytes", "IEC") else "left")
    for item in doc["items"]:
        r = item["result"]
        t.add_row(str(item["socket"]), item["kind"], item["name"], f"{r['total_bytes']:,}", f"{r['heap_bytes']:,}",
                  iec(r["heap_bytes"]), ", ".join(e["errno"] or "hazard" for e in r["errors"]))
    console.print(t)
    page = doc["platform"]["page_size"]
    s = Table(title=f"per socket ({page_label(page)} pages)", title_justify="left")
    for col in ("socket", "items heap_bytes", "EAL heap", "pages", "IEC"):
        s.add_column(col, justify="right")
    for sock in doc["sockets"]:
        pages = sock["pages"]
        s.add_row(str(sock["socket"]), f"{sock['heap_bytes']:,}", f"{sock['eal_heap']:,}",
                  "-" if pages is None else f"{pages:,}", "-" if pages is None else iec(pages * page))
    console.print(s)
    settings = doc["settings"]
    if settings:
        console.print(f"EAL: {settings['eal_args']}")
        for line in settings["assumes"]:
            console.print(f"  assumes: {line}", style="dim")
        for line in settings["nr_hugepages"]:
            console.print(line)
        res = settings["kubernetes"]["resources"]
        console.print("kubernetes:\n  resources:")
        for kind in ("requests", "limits"):
            console.print(f"    {kind}:")
            for key, value in res[kind].items():
                console.print(f"      {key}: {value}")
