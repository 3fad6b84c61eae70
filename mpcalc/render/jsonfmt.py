"""JSON: the report's own projection, one document."""

from __future__ import annotations

import json
from typing import TextIO

from mpcalc.service.documents import DiffReport, Report


def render(report: Report | DiffReport, stream: TextIO, fmt: str = "json") -> None:
    stream.write(json.dumps(report.to_dict(), indent=2) + "\n")  # one write, not one per token


render_diff = render_plan = render  # any document with to_dict()
