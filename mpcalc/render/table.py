"""Human output with rich: object layout, memzones and allocations, totals.

rich is imported here only, so JSON and CSV never pay for it.  Every table is laid out to read at
80 columns: titles are printed above the tables (they never wrap inside a narrow table), words are
never split (lists wrap after their commas), and wide content moves to a second line rather than
into a wider table.  The width is ``COLUMNS`` when set, else the terminal's (:func:`width_for`).
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Sequence
from typing import TextIO

from rich.console import Console
from rich.table import Table
from rich.text import Text

from mpcalc.dpdk.core.flags import flags_label
from mpcalc.dpdk.core.units import iec, page_label
from mpcalc.render import routeanswer
from mpcalc.render.bars import text as bar_text
from mpcalc.render.figures import Bar, Segment, breakdown
from mpcalc.service.documents import Report

#: width of a pipe or file when neither COLUMNS nor a terminal says (a CI log, a cron job's file)
PIPE_WIDTH = 120
#: width of the --svg view
SVG_WIDTH = 100


def save_svg(report: object, path: str) -> None:
    """The table view of any report, recorded and saved as SVG (rich's export), replacing ``path`` whole
    (mpcalc.render.files)."""
    import io

    from mpcalc.render import render

    buf = io.StringIO()
    console = Console(
        file=buf, record=True, width=SVG_WIDTH, force_terminal=True, color_system="truecolor", markup=False, emoji=False
    )
    global _RECORDING
    _RECORDING = console
    try:
        render(report, "table", buf)
    finally:
        _RECORDING = None
    from mpcalc.render.files import replacing

    with replacing(path, "--svg") as tmp:
        console.save_svg(tmp, title="mpcalc")


_RECORDING: Console | None = None


def width_for(stream: TextIO) -> int | None:
    """The width to draw ``stream`` at: ``COLUMNS`` when it is a positive number; else the terminal's
    own (None: rich asks it); for a pipe or a file, the width of the terminal stderr is on (``| head``,
    ``| less``, ``> file`` typed at a terminal), else :data:`PIPE_WIDTH`."""
    columns = os.environ.get("COLUMNS", "").strip()
    if columns.isdigit() and int(columns) > 0:
        return int(columns)
    if _isatty(stream):
        return None
    if _isatty(sys.stderr):
        try:
            return os.get_terminal_size(sys.stderr.fileno()).columns or PIPE_WIDTH
        except (OSError, ValueError, AttributeError):
            pass
    return PIPE_WIDTH


def _isatty(stream: object) -> bool:
    try:
        return bool(stream.isatty())  # type: ignore[attr-defined]
    except (AttributeError, ValueError):
        return False


def _reader_gone(console: Console) -> None:
    """rich's own handling of a closed pipe exits with status 1; mpcalc.cli.output decides instead."""
    console.quiet = True
    raise BrokenPipeError


def console_for(stream: TextIO) -> Console:
    """A terminal gets its own width (or COLUMNS) and colour; a pipe or a file gets no escape codes and
    the width :func:`width_for` says.  ``NO_COLOR`` (set and not empty, https://no-color.org) and ``--no-color`` turn
    colour off.

    Text is printed as it is: no console markup (a pool name may hold ``[``) and no emoji codes
    (which would also load rich's 3,600-entry emoji table).
    """
    if _RECORDING is not None:
        return _RECORDING
    tty = _isatty(stream)
    console = Console(
        file=stream,
        no_color=bool(os.environ.get("NO_COLOR")),
        highlight=False,
        markup=False,
        emoji=False,
        width=width_for(stream),
        force_terminal=tty,
        color_system="auto" if tty else None,
    )
    console.on_broken_pipe = lambda: _reader_gone(console)  # type: ignore[method-assign]
    return console


def _title(console: Console, text: str) -> None:
    """A table's title, on its own line above it (a rich title would wrap at the table's width)."""
    console.print(Text(text, style="bold"))


def _words(text: str) -> str:
    """A list written ``a,b,c`` wraps after its commas: ``a, b, c`` (numbers such as 8,191 stay whole)."""
    return re.sub(r",(?=[A-Za-z_])", ", ", text)


def platform_lines(p: dict, width: int = PIPE_WIDTH, prefix: str = "") -> str:
    """The platform in two short lines, and where the values chosen (not defaults) came from, each source
    once: ``dpdk, arch from option``.  Wrapped at ``width`` between words."""
    spread = f"{p['channels']} channels x {p['ranks']} ranks" if p["spreads"] else "no spreading on this arch"
    build = "".join(f", {k}" for k in ("debug", "stats") if p[k])
    named = f" {p['platform']}" if p["platform"] else ""
    lines = [
        f"{prefix}DPDK {p['dpdk']} ({p['dpdk_stable_tag']}) {p['arch']}{named}, page size "
        f"{page_label(p['page_size'])}{build}",
        f"  cache line {p['cache_line']} B, RTE_MAX_LCORE {p['max_lcore']}, {spread}",
    ]
    by_source: dict[str, list[str]] = {}
    for key, src in p["sources"].items():
        if src.startswith(("option", "platform", "build")) or src.endswith("[platform]"):
            by_source.setdefault(src, []).append(key)
    if by_source:
        lines.append("  " + "; ".join(f"{', '.join(keys)} from {src}" for src, keys in by_source.items()))
    return "\n".join(hanging(line, width) for line in lines)


def _platform_line(report: Report, console: Console, prefix: str = "") -> str:
    return platform_lines(report.platform, console.width, prefix)


def _layout_bar(mp: dict, width: int = 20) -> Text:
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


def _say(console: Console, line: str, style: str | None = None) -> None:
    """A sentence, wrapped between words with a hanging indent (:func:`hanging`)."""
    console.print(hanging(line, console.width), style=style, soft_wrap=True)


def _errors(console: Console, errors: list[dict], prefix: str = "") -> None:
    """Each error: errno (or ``hazard``), DPDK's reason, the function and the source line that decides it."""
    for e in errors:
        head = f"{prefix}{e['errno'] or 'hazard'}"
        text = Text(hanging(f"{head}: {e['reason']} ({e['function']}, {e['source']})", console.width))
        text.stylize("bold red", 0, len(head))
        console.print(text, soft_wrap=True)


def _result_tables(console: Console, report: Report, result: dict) -> None:
    for i, line in enumerate(routeanswer.lines(result)):  # a route file's answer leads (render/routeanswer.py)
        _say(console, line, style="bold" if i == 0 else None)
    for mp in result["mempools"]:
        if mp["total_size"] is not None:
            _title(console, f"objects of mempool {mp['name']}: {mp['count']:,} x {mp['elt_size_requested']:,} B")
            t = Table(caption="▒ header  █ elt  ░ trailer", caption_justify="right")
            for col in ("header_size", "elt_size", "trailer_size", "total_size", "layout"):
                t.add_column(col, justify="left" if col == "layout" else "right", no_wrap=True)
            t.add_row(
                *(f"{mp[c]:,}" for c in ("header_size", "elt_size", "trailer_size", "total_size")), _layout_bar(mp)
            )
            console.print(t)
    _title(console, f"reserved (flags {flags_label(result['flags'], prose=True)})")
    t = Table()
    t.add_column("kind", no_wrap=True)
    t.add_column("name", overflow="fold")
    t.add_column("bytes", justify="right", no_wrap=True)
    t.add_column("IEC", justify="right", no_wrap=True)
    for mp in result["mempools"]:
        for mz in mp["memzones"]:
            t.add_row(
                "memzone" + (" (leaked)" if mz.get("leaked") else ""), mz["name"], f"{mz['len']:,}", iec(mz["len"])
            )
        for a in mp["allocations"]:  # an anonymous mmap (testpmd --mp-alloc=anon) is no rte_malloc
            kind = "mmap (anon)" if a["role"].startswith("objects: anonymous mmap") else "rte_malloc"
            t.add_row(kind, a["name"], f"{a['size']:,}", iec(a["size"]))
    for mz in result.get("memzones", ()):  # a ring's or a hash's own memzones
        t.add_row("memzone", mz["name"], f"{mz['len']:,}", iec(mz["len"]))
    for a in result["allocations"]:
        t.add_row("rte_malloc", a["name"], f"{a['size']:,}", iec(a["size"]))
    t.add_section()
    t.add_row("total", "total_bytes", f"{result['total_bytes']:,}", iec(result["total_bytes"]))
    t.add_row("heap", "heap_bytes", f"{result['heap_bytes']:,}", iec(result["heap_bytes"]))
    console.print(t)
    details = {k: v for k, v in result["details"].items() if k not in ("explain", "fit", "elements")}
    _details(console, details)
    elements = result["details"].get("elements")
    if elements:  # a traced run's every heap element: a list for --json, a count here
        console.print(f"{len(elements):,} heap elements, each with what it asked for: --json (details.elements)")
    fit = result["details"].get("fit")
    if fit:
        _say(console, fit_sentence(fit))
    explained = result["details"].get("explain")
    if explained:
        _explain(console, explained)
    if result["hugepages"] is not None:
        # an application's pages are its EAL's (--no-huge: 4 KiB), given in its details; else the platform's
        page = result["details"].get("page_size", report.platform["page_size"])
        console.print(f"pages of {page_label(page)}: {result['hugepages']:,}")
    _errors(console, result["errors"])


def fit_sentence(fit: dict) -> str:
    """The answer of --fit, first: ``--fit 1,073,741,824: count 14,680,039 (heap_bytes ...)``."""
    return (
        f"--fit {fit['budget']:,}: {fit['key']} {fit['value']:,}, the largest whose heap_bytes fit "
        f"({fit['heap_bytes']:,}; {fit['value'] + 1:,} would need {fit['next_heap_bytes']:,})"
    )


def _flatten(prefix: str, value: object) -> Sequence[tuple[str, object]]:
    """Dotted keys down to the scalars: dicts by key, lists of dicts by position (``advice.sockets.0.pages``);
    the Kubernetes block is each container's resources (``--format k8s`` writes the whole of it)."""
    if prefix.endswith("kubernetes.") and isinstance(value, dict) and "containers" in value:
        return [
            (f"{prefix}{c['name']}.{kind}", ", ".join(f"{k}: {v}" for k, v in c["resources"][kind].items()))
            for c in value["containers"]
            for kind in ("requests", "limits")
        ] + [(f"{prefix}yaml", "--format k8s")]
    if isinstance(value, dict):
        return [row for k, v in value.items() for row in _flatten(f"{prefix}{k}.", v)]
    if isinstance(value, (list, tuple)) and value and all(isinstance(v, dict) for v in value):
        return [row for i, v in enumerate(value) for row in _flatten(f"{prefix}{i}.", v)]
    return [(prefix.rstrip("."), value)]


def shown(value: object) -> str:
    """A detail as people read it: numbers with separators, yes/no, lists joined (``none`` when empty),
    ``-`` for nothing; never a Python repr."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return f"{value:,}"
    if value is None:
        return "-"
    if isinstance(value, (list, tuple)):
        return ", ".join(shown(v) for v in value) or "none"
    if isinstance(value, dict):
        return ", ".join(f"{k} {shown(v)}" for k, v in value.items()) or "none"
    return str(value)


def _details(console: Console, details: dict) -> None:
    if not details:
        return
    _title(console, "details")
    t = Table(show_header=False)
    t.add_column("key", overflow="fold")
    t.add_column("value")
    for key, value in _flatten("", details):
        text = shown(value)
        if (
            isinstance(value, int)
            and not isinstance(value, bool)
            and value >= 1024
            and ("bytes" in key or "memzone" in key or "struct" in key or "saves" in key)
        ):
            text += f" ({iec(value)})"
        t.add_row(key, text)
    console.print(t)


def hanging(line: str, width: int) -> str:
    """``line`` wrapped at ``width`` between words, its continuation lines indented 4 more than it is."""
    import textwrap

    indent = " " * (len(line) - len(line.lstrip(" ")))
    return textwrap.fill(
        line.strip(),
        width=max(width, 40),
        initial_indent=indent,
        subsequent_indent=indent + "    ",
        break_long_words=False,
        break_on_hyphens=False,
    )


def _explain(console: Console, explained: dict) -> None:
    console.print("how DPDK gets there:")
    for step in explained["steps"]:
        console.print(hanging(f"  {step}", console.width), highlight=False, markup=False, soft_wrap=True)
    if explained["savings"]:
        _title(console, "savings on the table, largest first")
        t = Table()
        t.add_column("change")
        for col in ("total_bytes", "saves", "IEC", "%"):
            t.add_column(col, justify="right", no_wrap=True)
        for row in explained["savings"]:
            t.add_row(
                _words(row["change"]),
                f"{row['total_bytes']:,}",
                f"{row['saves']:,}",
                row["saves_iec"],
                f"{row['saves_percent']}%",
            )
        console.print(t)


def _summary(console: Console, results: list[dict]) -> None:
    """Every flag combination, ranked: the flags asked for, those DPDK adds, the object and the totals;
    with --fit, the value each combination fits instead of the saving (each sizes a different count)."""
    base = results[0]["total_bytes"]
    fits = [r["details"].get("fit") for r in results]
    fit_key = next((f["key"] for f in fits if f), None)
    _title(
        console,
        "every flag combination, smallest first"
        if fit_key is None
        else f"every flag combination, largest {fit_key} first",
    )
    t = Table(caption=None if fit_key else "saves: against no flags, DPDK's default", caption_justify="right")
    width = max((len(n) for r in results for n in r["effective_flags"]), default=4)
    t.add_column("flags", min_width=width)
    t.add_column("DPDK adds", min_width=min(width, 9))
    for col in ("object", "total_bytes", "IEC", fit_key or "saves"):
        t.add_column(col, justify="right", no_wrap=True)

    def order(r: dict) -> tuple:
        fit = r["details"].get("fit")
        return (bool(r["errors"]), -fit["value"] if fit else 0, r["total_bytes"])

    for r in sorted(results, key=order):
        obj = r["mempools"][0]["total_size"] if r["mempools"] else None
        added = [f for f in r["effective_flags"] if f not in r["flags"]]
        if fit_key:
            fit = r["details"].get("fit")
            last = "-" if not fit else f"{fit['value']:,}"
        else:
            saved = base - r["total_bytes"]
            last = f"{100 * saved / base:.1f}%" if base else "-"
        t.add_row(
            flags_label(r["flags"], prose=True),
            ", ".join(added) or "-",
            "-" if obj is None else f"{obj:,} B",
            f"{r['total_bytes']:,}",
            iec(r["total_bytes"]),
            "error" if r["errors"] else last,
        )
    console.print(t)
    for r in results:
        _errors(console, r["errors"], prefix=f"{flags_label(r['flags'], prose=True)}: ")


def render(report: Report, stream: TextIO, fmt: str = "table") -> None:
    console = console_for(stream)
    console.print(_platform_line(report, console), soft_wrap=True)
    for note in report.notes:
        _say(console, f"note: {note}")
    results = report.to_dict()["results"]
    if len(results) > 1:  # type: ignore[arg-type]
        _summary(console, results)  # type: ignore[arg-type]
    else:
        for result in results:  # type: ignore[attr-defined]
            _result_tables(console, report, result)
            if not result["errors"]:
                _bar(console, Bar("heap", tuple(Segment(k, v) for k, v in breakdown(result).items())))


def _bar(console: Console, bar: Bar) -> None:
    """The proportional bar of a breakdown (mpcalc.render.bars), as wide as the console allows."""
    console.print(bar_text(bar, console.width), soft_wrap=True)
