"""``mpcalc sweep --plot``: the swept metric against the swept value, one line per flag combination
(matplotlib, the optional extra ``plot``; no display, no pyplot)."""

from __future__ import annotations

import math
import os
from typing import Any

from mpcalc.dpdk.core.errors import InputError
from mpcalc.dpdk.core.units import page_label


def is_log(values: list[int]) -> bool:
    if len(values) < 3 or values[0] < 1:
        return False
    return values[1] - values[0] < (values[-1] - values[-2]) / 2


def matplotlib() -> Any:
    """matplotlib, or an InputError saying how to install it."""
    try:
        import matplotlib
    except ImportError:
        raise InputError("--plot needs matplotlib: pip install 'mpcalc[plot]'") from None
    return matplotlib


#: most marker lines a picture draws of one kind (a 4 KiB page boundary every few points would hide the curves)
MAX_MARKERS = 40


def sweep(
    path: str,
    curves: dict[str, list[tuple[int, float | None]]],
    *,
    name: str,
    key: str,
    metric: str,
    log: bool,
    platform: dict[str, object],
    pages: list[int | None],
    held: list[int],
    per: tuple[str, str] | None,
) -> None:
    """A sweep: ``metric`` against the swept value, one line per distinct curve (flag combinations whose
    curves coincide share one line and one legend entry), with dotted lines where the first combination
    takes one more hugepage and dashed lines where a pool's ring doubles."""
    from mpcalc.render.figures import merge_identical, ring_doublings, steps

    matplotlib()
    from matplotlib.figure import Figure

    fig = Figure(figsize=(11, 5.8), layout="constrained")
    ax = fig.add_subplot()
    merged = merge_identical(curves)
    styles = ("-", "--", "-.", ":")
    for n, curve in enumerate(merged):
        xs = [x for x, _ in curve.points]
        ys = [math.nan if y is None else y for _, y in curve.points]
        # curves that nearly coincide stay visible: each later one thinner, and dashed differently
        ax.plot(
            xs,
            ys,
            marker="." if len(xs) <= 60 else None,
            linewidth=max(3.2 - 0.5 * n, 0.9),
            linestyle=styles[n % len(styles)],
            drawstyle="steps-post",
            label="\n= ".join(curve.labels),
        )
    xs = [x for x, _ in next(iter(curves.values()))] if curves else []
    for i, x in enumerate(steps(xs, [None if p is None else float(p) for p in pages])[:MAX_MARKERS]):
        ax.axvline(x, color="0.55", linestyle=":", linewidth=0.8, label="one hugepage more" if i == 0 else None)
    if per and per[0] in ("count", "max_nodes") and xs and all(x > 0 for x in xs):
        factors = {h // x for h, x in zip(held, xs, strict=True) if h % x == 0}
        if len(factors) == 1:  # the ring holds a fixed multiple of the swept value (a RIB: 2 nodes a route)
            doublings = ring_doublings(xs[0], xs[-1], factors.pop())
            for i, x in enumerate(doublings[:MAX_MARKERS]):
                ax.axvline(
                    x,
                    color="0.35",
                    linestyle="--",
                    linewidth=0.8,
                    label="the ring doubles (rte_align32pow2(n + 1))" if i == 0 else None,
                )
    if log:
        ax.set_xscale("log")
        if metric in ("total_bytes", "heap_bytes"):
            ax.set_yscale("log")
    ax.set_xlabel(key)
    unit = per[1] if per else "object"
    ax.set_ylabel(
        {
            "per_object": f"bytes per {unit}",
            "overhead": f"bytes per {unit} beyond elt_size",
            "hugepages": "hugepages",
            "object_size": "object size (bytes)",
        }.get(metric, f"{metric} (bytes)")
    )
    page = platform.get("page_size")
    ax.set_title(
        f"mpcalc {name}: {metric.replace('_', ' ')} against {key} (DPDK {platform.get('dpdk')} "
        f"{platform.get('arch')}, page size {page_label(page if isinstance(page, int) else 0)})",
        fontsize=10,
    )
    ax.grid(True, which="both", alpha=0.3)
    fig.legend(title="flags", fontsize=8, loc="outside right upper")
    save(fig, path)


def save(fig: Any, path: str) -> None:
    """Save a figure by the file's extension (.svg, .png, .pdf), reproducibly (no date in SVG or PDF)."""
    import matplotlib as mpl

    from mpcalc.render.files import replacing

    ext = os.path.splitext(path)[1].lower().lstrip(".")
    if ext and ext not in fig.canvas.get_supported_filetypes():
        raise InputError(f"cannot write {path!r}: matplotlib writes no .{ext} file", param="--plot")
    with replacing(path, "--plot") as tmp, mpl.rc_context({"svg.hashsalt": "mpcalc"}):
        # the same ids in every run: a diff shows real changes
        # no extension: matplotlib's own default format, not the temporary file's random suffix
        fig.savefig(
            tmp,
            format=ext or mpl.rcParams["savefig.format"],
            metadata={"Date": None} if ext in ("svg", "pdf") else None,
        )


def _stacked(ax: Any, bars: list[Any], *, scale: int, unit: str, colors: dict[str, Any]) -> None:
    """Horizontal stacked bars (figures.Bar), one row each, top to bottom."""
    for row, bar in enumerate(bars):
        left = 0
        for seg in bar.segments:
            ax.barh(
                row,
                seg.bytes / scale,
                left=left / scale,
                color=colors[seg.label],
                edgecolor="white",
                linewidth=0.5,
                label=seg.label,
            )
            left += seg.bytes
        ax.text(left / scale, row, f"  {left:,} B", va="center", fontsize=8)
    ax.set_yticks(range(len(bars)), [b.label for b in bars], fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel(unit)


def _palette(labels: list[str]) -> dict[str, Any]:
    from matplotlib import colormaps

    cmap = colormaps["tab20"]
    return {label: cmap(i % 20) for i, label in enumerate(dict.fromkeys(labels))}


def _legend(fig: Any, axes: list[Any]) -> None:
    handles: dict[str, Any] = {}
    for ax in axes:
        for h, label in zip(*ax.get_legend_handles_labels(), strict=True):
            handles.setdefault(label, h)
    fig.legend(handles.values(), handles.keys(), fontsize=8, loc="outside right upper")


def report(path: str, doc: dict[str, Any]) -> None:
    """A sizing command's report: each flag combination's heap by kind and, where the object has a pool,
    the object layout (header, element, trailer) under each."""
    from mpcalc.render.figures import KINDS, layouts, report_figure

    matplotlib()
    from matplotlib.figure import Figure

    bars = report_figure(doc)
    laid = layouts(doc)
    fig = Figure(figsize=(11, 1.6 + 0.45 * len(bars) * (2 if laid else 1)), layout="constrained")
    axes = fig.subplots(2 if laid else 1, 1, squeeze=False)[:, 0]
    colors = _palette([*KINDS, "header", "element", "trailer"])
    _stacked(axes[0], bars, scale=1 << 20, unit="MiB of heap", colors=colors)
    axes[0].set_title(f"mpcalc {doc['command']}: heap by kind under each flag combination", fontsize=10)
    if laid:
        from mpcalc.render.figures import Bar, Segment

        objs = [
            Bar(x.flags, (Segment("header", x.header), Segment("element", x.element), Segment("trailer", x.trailer)))
            for x in laid
        ]
        _stacked(axes[1], objs, scale=1, unit="bytes per object", colors=colors)
        axes[1].set_title("one object: header, element and trailer (rte_mempool_calc_obj_size)", fontsize=10)
    _legend(fig, list(axes))
    save(fig, path)


def plan(path: str, sockets: list[Any]) -> None:
    """A plan (or a whole application): per NUMA socket (figures.SocketFigure), its heap by item and by kind,
    the hugepage boundaries and the advised --socket-mem."""
    from mpcalc.render.figures import KINDS

    matplotlib()
    from matplotlib.figure import Figure

    fig = Figure(figsize=(11, 1.4 + 1.3 * len(sockets)), layout="constrained")
    axes = fig.subplots(len(sockets), 1, squeeze=False)[:, 0]
    labels = [s.label for sock in sockets for s in sock.by_item.segments]
    colors = _palette([*KINDS, *labels])
    for ax, sock in zip(axes, sockets, strict=True):
        _stacked(ax, [sock.by_item, sock.by_kind], scale=1 << 20, unit="MiB", colors=colors)
        advised = sock.advised
        if advised is not None and sock.page_size:
            if sock.pages and sock.pages <= 64:
                for n in range(1, sock.pages):
                    ax.axvline(n * sock.page_size / (1 << 20), color="0.8", linewidth=0.5, zorder=0)
            ax.axvline(
                advised / (1 << 20),
                color="black",
                linestyle="--",
                linewidth=1,
                label=f"--socket-mem ({sock.pages} pages of {page_label(sock.page_size)})",
            )
        ax.set_title(
            f"socket {sock.socket}: {sock.by_item.total:,} B of heap"
            + (f", --socket-mem {advised // (1 << 20)} MB" if advised is not None else ""),
            fontsize=10,
        )
    _legend(fig, list(axes))
    save(fig, path)


def document(path: str, doc: dict[str, Any]) -> None:
    """Draw any document that has a picture: a plan (per socket) or a sizing command's report."""
    from mpcalc.render.figures import advised_figure, plan_figure

    if doc.get("command") == "plan" or "sockets" in doc:
        plan(path, plan_figure(doc))
    elif advised_figure(doc):  # a whole application: per socket, as a plan
        plan(path, advised_figure(doc))
    else:
        report(path, doc)
