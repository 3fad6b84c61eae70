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
    "k8s": "yaml_k8s",
}


#: the modules of the table views of a diff and a plan (a report's is mpcalc.render.table itself)
TABLE_VIEWS: dict[str, str] = {"diff": "table_diff", "plan": "table_plan"}


def render(report: object, fmt: str, stream: TextIO) -> None:
    """Draw a Report, a DiffReport or a PlanReport in one of FORMATS."""
    from mpcalc.service.documents import DiffReport, Report  # loaded with the first report, not at start-up

    kind = "diff" if isinstance(report, DiffReport) else "report" if isinstance(report, Report) else "plan"
    name = TABLE_VIEWS.get(kind, "table") if fmt == "table" else FORMATS[fmt]
    module = importlib.import_module(f"{__name__}.{name}")
    if kind == "diff":
        module.render_diff(report, stream, fmt=fmt)
    elif kind == "report":
        module.render(report, stream, fmt=fmt)
    else:
        module.render_plan(report, stream, fmt=fmt)
