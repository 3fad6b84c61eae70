"""Markdown: GitHub tables for reviews and docs; the same rows as CSV."""

from __future__ import annotations

import io
from typing import TextIO

from mpcalc.render import csvfmt


def _table(text: str) -> str:
    import csv

    rows = list(csv.reader(io.StringIO(text)))
    if not rows:
        return ""
    out = ["| " + " | ".join(rows[0]) + " |", "|" + "---|" * len(rows[0])]
    for row in rows[1:]:
        out.append("| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |")
    return "\n".join(out) + "\n"


def _via_csv(draw, report, stream: TextIO) -> None:
    buf = io.StringIO()
    draw(report, buf, fmt="csv")
    stream.write(_table(buf.getvalue()))


def render(report, stream: TextIO, fmt: str = "markdown") -> None:
    p = report.platform
    stream.write(
        f"**mpcalc {report.command}**: DPDK {p['dpdk']} ({p['dpdk_stable_tag']}) {p['arch']}, cache line "
        f"{p['cache_line']} B, RTE_MAX_LCORE {p['max_lcore']}, page size {p['page_size']:,} B\n\n"
    )
    _via_csv(csvfmt.render, report, stream)


def render_diff(diff, stream: TextIO, fmt: str = "markdown") -> None:
    _via_csv(csvfmt.render_diff, diff, stream)


def render_plan(plan, stream: TextIO, fmt: str = "markdown") -> None:
    _via_csv(csvfmt.render_plan, plan, stream)
