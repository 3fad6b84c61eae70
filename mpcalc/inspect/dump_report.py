"""The inspect report: per pool and for the whole input, its JSON projection (:meth:`InspectReport.to_dict`)
and the long-form CSV rows of that projection (:func:`csv_rows`).

Pure Python (no click, no rich).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from mpcalc.dpdk.core.records import SCHEMA_VERSION
from mpcalc.inspect.dumps import Parsed

if TYPE_CHECKING:
    from mpcalc.inspect.search import Choice


@dataclass(kw_only=True)
class PoolReport:
    name: str
    sources: list[str]
    recovered: dict[str, Any]
    platform: dict[str, Any]
    object_rows: list[dict[str, Any]]
    memzones: list[dict[str, Any]]
    modelled_bytes: int
    measured_bytes: int | None
    unexplained_bytes: int
    explained: bool
    causes: list[dict[str, Any]]
    advice: list[dict[str, Any]]
    notes: list[str]
    total_bytes: int
    #: the platform choice, when the lengths (or the evidence alone) settled it
    choice: Choice | None = None
    #: how the pool was created (mpcalc.inspect.kinds.Kind.to_dict)
    kind: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "sources": self.sources,
            "recovered": self.recovered,
            "platform": self.platform,
            "object": self.object_rows,
            "memzones": self.memzones,
            "modelled_bytes": self.modelled_bytes,
            "measured_bytes": self.measured_bytes,
            "modelled_bytes_of_measured": sum(r["modelled"] for r in self.memzones if r["measured"] is not None),
            "unexplained_bytes": self.unexplained_bytes,
            "explained": self.explained,
            "total_bytes": self.total_bytes,
            "causes": self.causes,
            "advice": self.advice,
            "notes": self.notes,
            "kind": self.kind,
        }


@dataclass
class InspectReport:
    source: str
    parsed: Parsed
    pools: list[PoolReport]
    other_memzones: list[dict[str, Any]]
    advice: list[dict[str, Any]]
    notes: list[str]
    #: the dump against ``mpcalc app`` of the application's command line (mpcalc.inspect.app_dump.explain)
    application: dict[str, Any] | None = None

    @property
    def unexplained_bytes(self) -> int:
        return sum(p.unexplained_bytes for p in self.pools)

    def to_dict(self) -> dict[str, Any]:
        from mpcalc import __version__

        modelled = sum(p.modelled_bytes for p in self.pools)
        measured = [p.measured_bytes for p in self.pools if p.measured_bytes is not None]
        return {
            "schema_version": SCHEMA_VERSION,
            "mpcalc_version": __version__,
            "command": "inspect",
            "input": {
                "file": self.source,
                "lines": self.parsed.lines,
                "formats": list(self.parsed.formats),
                "skipped_lines": len(self.parsed.skipped),
                "skipped": [{"line": n, "text": t[:200]} for n, t in self.parsed.skipped[:50]],
                "listed_pools": list(self.parsed.listed),
            },
            "pools": [p.to_dict() for p in self.pools],
            "other_memzones": self.other_memzones,
            "totals": {
                "pools": len(self.pools),
                "modelled_bytes": modelled,
                "measured_bytes": sum(measured) if measured else None,
                "modelled_bytes_of_measured": sum(
                    r["modelled"] for p in self.pools for r in p.memzones if r["measured"] is not None
                ),
                "unexplained_bytes": self.unexplained_bytes,
                "explained_pools": sum(1 for p in self.pools if p.explained),
                "other_memzone_bytes": sum(z["len"] for z in self.other_memzones),
            },
            "advice": self.advice,
            "notes": self.notes,
            **({"application": self.application} if self.application is not None else {}),
        }


# --------------------------------------------------------------------------------------------
# CSV (long form, like the other commands)

CSV_COLUMNS = ("pool", "section", "name", "modelled", "measured", "delta", "note")


def csv_rows(doc: dict[str, Any]) -> list[tuple[Any, ...]]:
    """The rows under :data:`CSV_COLUMNS` of a :meth:`InspectReport.to_dict` document."""
    rows: list[tuple[Any, ...]] = []
    for p in doc["pools"]:
        for o in p["object"]:
            rows.append((p["name"], "object", o["name"], o["modelled"], o["measured"], o["delta"], ""))
        for m in p["memzones"]:
            rows.append((p["name"], "memzone", m["name"], m["modelled"], m["measured"], m["delta"], m["how"]))
        rows.append((p["name"], "total", "unexplained_bytes", "", "", p["unexplained_bytes"], ""))
        for c in p["causes"]:
            rows.append((p["name"], "cause", c["kind"], "", "", "", c["text"]))
        for a in p["advice"]:
            rows.append(
                (
                    p["name"],
                    "advice",
                    a["change"],
                    a["total_bytes_after"],
                    "",
                    -a["saves_bytes"],
                    f"{a['saves_percent']}%: {a['note']}",
                )
            )
    for z in doc["other_memzones"]:
        rows.append(("", "memzone", z["name"], "", z["len"], "", "not a modelled pool"))
    for a in doc["advice"]:
        rows.append(("", "advice", a["change"], "", "", -a["saves_bytes"], f"{a['saves_percent']}%"))
    rows += app_rows(doc.get("application"))
    t = doc["totals"]
    rows.append(
        ("", "total", "unexplained_bytes", t["modelled_bytes"], t["measured_bytes"], t["unexplained_bytes"], "")
    )
    return [tuple("" if v is None else v for v in r) for r in rows]


def app_rows(app: dict[str, Any] | None) -> list[tuple[Any, ...]]:
    """The CSV rows of the application explanation: each memzone (section ``app memzone``, the note its status
    and owner), each owner (``app group``: its memzones' bytes, the note its heap allocations) and the heap."""
    if not app:
        return []
    rows: list[tuple[Any, ...]] = []
    for r in app["rows"]:
        delta = None if r["dumped"] is None or r["modelled"] is None else r["dumped"] - r["modelled"]
        rows.append(
            (
                "",
                "app memzone",
                r["name"],
                r["modelled"],
                r["dumped"],
                delta,
                f"{r['status']}: {r['owner'] or 'no object of the model'}",
            )
        )
    for g in app["groups"]:
        rows.append(
            (
                "",
                "app group",
                g["name"],
                g["modelled_bytes"],
                g["dumped_bytes"],
                g["dumped_bytes"] - g["modelled_bytes"],
                f"{g['kind']}; {len(g['memzones'])} memzones; heap allocations {g['allocation_bytes']} B",
            )
        )
    h = app.get("heap")
    if h:
        rows.append(
            (
                "",
                "app heap",
                "Alloc_size",
                h["modelled_bytes"],
                h["alloc_size"],
                h["alloc_size"] - h["modelled_bytes"],
                f"Alloc_count {h['alloc_count']} (model "
                f"{h['modelled_count']}); {'matched' if h['match'] else 'differs'}",
            )
        )
    c = app["counts"]
    rows.append(
        (
            "",
            "app total",
            "memzones",
            app["modelled_bytes"],
            app["dumped_bytes"],
            app["dumped_bytes"] - app["modelled_bytes"],
            f"{c['matched']} matched, {c['differs']} differ, {c['extra']} extra, {c['missing']} missing",
        )
    )
    return rows
