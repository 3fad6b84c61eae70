"""The documents a command answers with: a report of one object, a diff of two.  JSON is their
projection (``to_dict``); the renderers draw them."""

from typing import NamedTuple

from mpcalc import __version__
from mpcalc.dpdk.core.flags import flags_label
from mpcalc.dpdk.core.records import SCHEMA_VERSION, Result


class Report(NamedTuple):
    """What one command computed: the platform, the inputs and one result per flag combination."""

    command: str
    platform: dict[str, object]
    inputs: dict[str, object]
    results: tuple[Result, ...]
    notes: tuple[str, ...] = ()
    #: the CI gates' checks (mpcalc.service.gates.gate_report), when --max-total or --baseline asked for them
    gates: dict[str, object] | None = None

    @property
    def ok(self) -> bool:
        return all(r.ok for r in self.results)

    def to_dict(self) -> dict[str, object]:
        doc: dict[str, object] = {
            "schema_version": SCHEMA_VERSION,
            "mpcalc_version": __version__,
            "command": self.command,
            "platform": dict(self.platform),
            "input": dict(self.inputs),
            "results": [r.to_dict() for r in self.results],
            "notes": list(self.notes),
        }
        if self.gates is not None:
            doc["gates"] = self.gates
        return doc


class DiffRow(NamedTuple):
    """One memzone, allocation or total on both sides."""

    result: str
    section: str
    name: str
    left: int | None
    right: int | None

    @property
    def delta(self) -> int:
        return (self.right or 0) - (self.left or 0)

    def to_dict(self) -> dict[str, object]:
        return {
            "result": self.result,
            "section": self.section,
            "name": self.name,
            "left": self.left,
            "right": self.right,
            "delta": self.delta,
        }


class DiffReport(NamedTuple):
    """The same configuration under two platforms or releases (``mpcalc diff``)."""

    left: Report
    right: Report
    rows: tuple[DiffRow, ...]

    @property
    def ok(self) -> bool:
        return self.left.ok and self.right.ok

    def to_dict(self) -> dict[str, object]:

        return {
            "schema_version": SCHEMA_VERSION,
            "mpcalc_version": __version__,
            "command": "diff",
            "left": self.left.to_dict(),
            "right": self.right.to_dict(),
            "rows": [r.to_dict() for r in self.rows],
        }


def _items(result: dict) -> list[tuple[str, str, int]]:
    items = []
    for mp in result["mempools"]:
        items += [("memzone", m["name"], m["len"]) for m in mp["memzones"]]
        items += [("allocation", a["name"], a["size"]) for a in mp["allocations"]]
    items += [("memzone", m["name"], m["len"]) for m in result.get("memzones", ())]
    items += [("allocation", a["name"], a["size"]) for a in result["allocations"]]
    items += [("total", k, result[k]) for k in ("total_bytes", "heap_bytes") if result[k] is not None]
    return items


def diff_reports(left: Report, right: Report) -> DiffReport:
    """Pair the results (by flag combination) and their items (by section and name)."""
    rows: list[DiffRow] = []
    lres, rres = left.to_dict()["results"], right.to_dict()["results"]
    for lr, rr in zip(lres, rres, strict=True):  # type: ignore[call-overload]
        label = flags_label(lr["flags"])
        lmap = {(s, n): v for s, n, v in _items(lr)}
        rmap = {(s, n): v for s, n, v in _items(rr)}
        keys = list(dict.fromkeys([(s, n) for s, n, _ in _items(lr)] + [(s, n) for s, n, _ in _items(rr)]))
        keys.sort(key=lambda k: k[0] == "total")
        rows += [
            DiffRow(result=label, section=s, name=n, left=lmap.get((s, n)), right=rmap.get((s, n))) for s, n in keys
        ]
    return DiffReport(left=left, right=right, rows=tuple(rows))
