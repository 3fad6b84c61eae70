"""Output formats.  One registry; each renderer is imported only when used."""

from __future__ import annotations

import importlib
from typing import TextIO

#: format name -> module (under mpcalc.render) whose ``render(report, stream)`` draws it
FORMATS: dict[str, str] = {
    "table": "table",
    "json": "jsonfmt",
    "csv": "csvfmt",
    "tsv": "csvfmt",
    "markdown": "markdown",
}


def render(report: object, fmt: str, stream: TextIO) -> None:
    """Draw a Report, a DiffReport or a PlanReport in one of FORMATS."""
    from ..app.report import DiffReport, Report  # loaded with the first report, not at start-up

    module = importlib.import_module(f"{__name__}.{FORMATS[fmt]}")
    if isinstance(report, DiffReport):
        module.render_diff(report, stream, fmt=fmt)
    elif isinstance(report, Report):
        module.render(report, stream, fmt=fmt)
    else:
        module.render_plan(report, stream, fmt=fmt)
