"""JSON: the report's own projection, one document."""

from __future__ import annotations

import json
from typing import TextIO

from ..model import DiffReport, Report


def render(report: Report, stream: TextIO, fmt: str = "json") -> None:
    json.dump(report.to_dict(), stream, indent=2)
    stream.write("\n")


def render_diff(diff: DiffReport, stream: TextIO, fmt: str = "json") -> None:
    json.dump(diff.to_dict(), stream, indent=2)
    stream.write("\n")


render_plan = render_diff  # any document with to_dict()
