"""The table view of ``mpcalc plan``: items, sockets, the proportional bars and the settings to paste
(mpcalc.render.table's console and helpers)."""

from __future__ import annotations

from typing import Any, TextIO

from rich.table import Table

from mpcalc.dpdk.core.units import iec, page_label
from mpcalc.render.figures import plan_figure
from mpcalc.render.table import _bar, _errors, _say, _title, console_for, platform_lines


def render_plan(report: Any, stream: TextIO, fmt: str = "table") -> None:
    console = console_for(stream)
    doc = report.to_dict()
    console.print(f"plan {doc['file']}")
    console.print(platform_lines(doc["platform"], console.width), soft_wrap=True)
    _title(console, "items")
    t = Table()
    with_errors = any(item["result"]["errors"] for item in doc["items"])
    columns = ["socket", "kind", "name", "total_bytes", "heap_bytes", "IEC"] + (["errors"] if with_errors else [])
    for col in columns:
        t.add_column(
            col,
            justify="right" if col in ("socket", "total_bytes", "heap_bytes", "IEC") else "left",
            overflow="fold" if col == "name" else "ellipsis",
            no_wrap=col != "name",
        )
    for item in doc["items"]:
        r = item["result"]
        cells = [
            str(item["socket"]),
            item["kind"],
            item["name"],
            f"{r['total_bytes']:,}",
            f"{r['heap_bytes']:,}",
            iec(r["heap_bytes"]),
        ]
        if with_errors:
            cells.append(", ".join(e["errno"] or "hazard" for e in r["errors"]))
        t.add_row(*cells)
    console.print(t)
    for item in doc["items"]:
        _errors(console, item["result"]["errors"], prefix=f"{item['kind']} {item['name']}: ")
    page = doc["platform"]["page_size"]
    _title(console, f"per socket ({page_label(page)} pages)")
    s = Table()
    for col in ("socket", "items heap_bytes", "EAL heap", "pages", "IEC"):
        s.add_column(col, justify="right")
    for sock in doc["sockets"]:
        pages = sock["pages"]
        s.add_row(
            str(sock["socket"]),
            f"{sock['heap_bytes']:,}",
            f"{sock['eal_heap']:,}",
            "-" if pages is None else f"{pages:,}",
            "-" if pages is None else iec(pages * page),
        )
    console.print(s)
    for fig in plan_figure(doc):
        for bar in (fig.by_item, fig.by_kind):
            _bar(console, bar._replace(label=f"socket {fig.socket} {bar.label}"))
    settings = doc["settings"]
    if settings:
        # settings to paste: never wrapped (a terminal folds them for the eye, a copy gets one line)
        console.print(f"EAL: {settings['eal_args']}", soft_wrap=True)
        for line in settings["assumes"]:
            _say(console, f"  assumes: {line}", style="dim")
        for line in settings["nr_hugepages"]:
            console.print(line, soft_wrap=True)
        if settings.get("no_huge"):
            console.print(f"no hugepages: --no-huge -m {settings['memory_mb']}", soft_wrap=True)
        # each container's resources (--format k8s writes the whole pod); 4 KiB pages: one memory request
        block = settings["kubernetes"]
        for c in block.get("containers") or [{"name": "app", "resources": block["resources"], "eal_args": []}]:
            console.print(f"kubernetes container {c['name']}:\n  resources:")
            for kind in ("requests", "limits"):
                console.print(f"    {kind}:")
                for key, value in c["resources"][kind].items():
                    console.print(f"      {key}: {value}")
            if c["eal_args"]:
                console.print(f"  EAL: {' '.join(c['eal_args'])}", soft_wrap=True)
