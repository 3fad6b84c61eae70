"""A proportional bar for the terminal: a breakdown (mpcalc.render.figures) as one line of coloured blocks
and a legend, drawn with rich under the plan and report tables.  No extra dependency."""

from __future__ import annotations

from typing import Any

from mpcalc.render.figures import Bar

#: rich colours, one per segment in turn
COLOURS = (
    "blue",
    "cyan",
    "magenta",
    "green",
    "yellow",
    "red",
    "bright_blue",
    "bright_magenta",
    "bright_green",
    "bright_yellow",
    "bright_red",
    "bright_cyan",
)


def cells(bar: Bar, width: int) -> list[int]:
    """How many of ``width`` cells each segment takes: proportional (largest remainders), and at least one
    for a segment that has bytes when the width allows, so no part vanishes.

    >>> from mpcalc.render.figures import Segment
    >>> cells(Bar("x", (Segment("a", 90), Segment("b", 9), Segment("c", 1))), 10)
    [8, 1, 1]
    """
    total = bar.total
    if total <= 0 or width <= 0:
        return [0] * len(bar.segments)
    exact = [s.bytes * width / total for s in bar.segments]
    out = [int(x) for x in exact]
    for i in sorted(range(len(out)), key=lambda i: exact[i] - out[i], reverse=True)[: width - sum(out)]:
        out[i] += 1
    for i, s in enumerate(bar.segments):  # a small part still shows: take a cell from the largest
        if s.bytes and not out[i] and len([c for c in out if c]) < width:
            biggest = max(range(len(out)), key=out.__getitem__)
            out[biggest] -= 1
            out[i] = 1
    return out


def text(bar: Bar, width: int) -> Any:
    """The bar and its legend as a rich Text ``width`` columns wide; the legend wraps between entries, never
    inside one."""
    from rich.text import Text

    from mpcalc.dpdk.core.units import iec

    head = f"{bar.label}: "
    out = Text(head)
    for n, colour in zip(cells(bar, max(width - len(head), 10)), _cycle(len(bar.segments)), strict=True):
        out.append("█" * n, style=colour)
    used = width  # start a legend line
    for seg, colour in zip(bar.segments, _cycle(len(bar.segments)), strict=True):
        entry = f"{seg.label} {iec(seg.bytes)}"
        if used + 4 + len(entry) > width:
            out.append("\n")
            used = 0
        out.append("  ■ ", style=colour)
        out.append(entry)
        used += 4 + len(entry)
    return out


def _cycle(n: int) -> list[str]:
    return [COLOURS[i % len(COLOURS)] for i in range(n)]
