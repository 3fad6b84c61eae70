"""The table view of ``mpcalc diff`` (mpcalc.render.table's console and helpers)."""

from __future__ import annotations

from typing import TextIO

from rich.table import Table
from rich.text import Text

from mpcalc.dpdk.core.flags import flags_label
from mpcalc.dpdk.core.units import iec
from mpcalc.render.table import _errors, _platform_line, _title, console_for
from mpcalc.service.documents import DiffReport


def _side_cell(value: int | None, section: str, rejected: str | None) -> str:
    """A side's figure: ``-`` where it has no such item; a rejected side's totals are its errno."""
    if rejected:
        return rejected if section == "total" else "-"
    return "-" if value is None else f"{value:,}"


def render_diff(diff: DiffReport, stream: TextIO, fmt: str = "table") -> None:
    """One table per flag combination: each memzone, then each rte_malloc allocation, then the totals;
    a side DPDK rejects shows its errno in its cells and the reason under the table."""
    console = console_for(stream)
    console.print(_platform_line(diff.left, console, "left:  "), soft_wrap=True)
    console.print(_platform_line(diff.right, console, "right: "), soft_wrap=True)
    left, right = diff.left.to_dict()["results"], diff.right.to_dict()["results"]
    for lres, rres in zip(left, right, strict=True):  # type: ignore[call-overload]
        label = flags_label(lres["flags"])
        lerr = next((e["errno"] for e in lres["errors"] if e["errno"]), None)  # a hazard keeps its numbers
        rerr = next((e["errno"] for e in rres["errors"] if e["errno"]), None)
        rows = [row for row in diff.rows if row.result == label]
        _title(console, f"right minus left (flags {flags_label(lres['flags'], prose=True)})")
        t = Table(caption="memzones, rte_malloc allocations, totals", caption_justify="right")
        t.add_column("name", overflow="fold")
        for col in ("left", "right", "delta", "IEC"):
            t.add_column(col, justify="right", no_wrap=True)
        section = None
        for row in rows:
            if section is not None and row.section != section:
                t.add_section()
            section = row.section
            lcell, rcell = _side_cell(row.left, row.section, lerr), _side_cell(row.right, row.section, rerr)
            if lerr or rerr:
                delta = Text("")
                iec_delta = ""
            else:
                style = "red" if row.delta > 0 else ("green" if row.delta < 0 else "")
                delta, iec_delta = Text(f"{row.delta:+,}", style=style), iec(row.delta) if row.delta else ""
            t.add_row(row.name, lcell, rcell, delta, iec_delta)
        console.print(t)
        _errors(console, lres["errors"], prefix="left: ")
        _errors(console, rres["errors"], prefix="right: ")
