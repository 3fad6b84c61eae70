"""``mpcalc sweep --plot``: the swept metric against the swept value, one line per flag combination
(matplotlib, the optional extra ``plot``; no display, no pyplot)."""

from __future__ import annotations

import math
from typing import Any

from ..dpdk.errors import InputError
from ..dpdk.units import page_label


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


def plot(path: str, curves: dict[str, list[tuple[int, int | None]]], *, name: str, key: str, metric: str,
         log: bool, platform: dict[str, object]) -> None:
    """Draw one line per flag combination: ``metric`` against the swept value (no display, no pyplot)."""
    matplotlib()
    from matplotlib.figure import Figure

    fig = Figure(figsize=(9, 5.5), layout="constrained")
    ax = fig.add_subplot()
    for label, pts in curves.items():
        xs = [x for x, _ in pts]
        ys = [math.nan if y is None else y for _, y in pts]
        ax.plot(xs, ys, marker="." if len(xs) <= 60 else None, linewidth=1.2, label=label)
    if log:
        ax.set_xscale("log")
        if metric != "object_size":
            ax.set_yscale("log")
    ax.set_xlabel(key)
    ax.set_ylabel(metric + (" (bytes)" if metric != "hugepages" else ""))
    ax.set_title(f"mpcalc {name}: {metric} against {key} (DPDK {platform.get('dpdk')} {platform.get('arch')}, "
                 f"page size {page_label(platform.get('page_size') or 0)})", fontsize=10)  # type: ignore[arg-type]
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(title="flags", fontsize=8)
    try:
        fig.savefig(path, metadata={"Date": None} if path.lower().endswith((".svg", ".pdf")) else None)
    except (OSError, ValueError) as exc:
        raise InputError(f"cannot write {path!r}: {exc}", param="--plot") from None
