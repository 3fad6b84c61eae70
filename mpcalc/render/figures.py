"""What the pictures show, as data read off a report's JSON projection (no drawing here: mpcalc.render.plot
draws it with matplotlib, mpcalc.render.table draws the terminal bar).  Every value comes from the report;
nothing is recomputed, and each breakdown adds up to the heap bytes it splits.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple

from mpcalc.dpdk.core.flags import flags_label

#: the kinds a result's heap is split into, in drawing order
KINDS = ("objects", "ring", "header and caches", "tables", "other memzones", "other allocations", "heap overhead")
#: memzone roles -> kind
_ZONE_KINDS = {"objects": "objects", "ring": "ring", "header": "header and caches"}


def kind_of_allocation(role: str) -> str:
    """A table (tbl24, tbl8 and their indexes, an LPM's or hash's tables) or another allocation."""
    return "tables" if "tbl" in role or "table" in role or "bucket" in role or "key" in role else "other allocations"


def breakdown(result: Mapping[str, Any]) -> dict[str, int]:
    """A result's heap bytes by kind (KINDS; kinds it has none of are left out).  The parts add up to
    ``heap_bytes``: memzones and allocations by their size, and the malloc elements' headers and rounding
    as ``heap overhead``."""
    out = dict.fromkeys(KINDS, 0)
    zones = [z for mp in result["mempools"] for z in mp["memzones"]] + list(result.get("memzones", ()))
    for z in zones:
        if not off_heap(z["role"]):
            out[_ZONE_KINDS.get(z["role"], "other memzones")] += z["len"]
    allocations = [a for mp in result["mempools"] for a in mp["allocations"]] + list(result["allocations"])
    for a in allocations:
        if not off_heap(a["role"]):
            out[kind_of_allocation(a["role"])] += a["size"]
    out["heap overhead"] = result["heap_bytes"] - sum(out.values())
    return {k: v for k, v in out.items() if v}


def off_heap(role: str) -> bool:
    """Memory listed in a result but not on the heaps its ``heap_bytes`` counts: testpmd's external heap
    'extmem' (--mp-alloc=xmem, xmemhuge) and --mp-alloc=anon's mmap."""
    from mpcalc.dpdk.apps.testpmd import ANON_ROLE, EXTMEM_ROLE_SUFFIX

    return role == ANON_ROLE or role.endswith(EXTMEM_ROLE_SUFFIX)


class Segment(NamedTuple):
    label: str
    bytes: int


class Bar(NamedTuple):
    """One stacked bar: its label and its segments, in drawing order."""

    label: str
    segments: tuple[Segment, ...]

    @property
    def total(self) -> int:
        return sum(s.bytes for s in self.segments)


class SocketFigure(NamedTuple):
    """A NUMA socket of a plan: its memory by item and by kind, and the pages the advice gives it."""

    socket: int
    by_item: Bar
    by_kind: Bar
    page_size: int
    pages: int | None

    @property
    def advised(self) -> int | None:
        """The bytes of --socket-mem for this socket (its pages)."""
        return None if self.pages is None else self.pages * self.page_size


def plan_figure(doc: Mapping[str, Any]) -> list[SocketFigure]:
    """A plan document's sockets (``mpcalc plan --json``)."""
    page = int(doc["platform"]["page_size"] or 0)
    out = []
    for sock in doc["sockets"]:
        items = [i for i in doc["items"] if i["socket"] == sock["socket"]]
        by_item = [Segment(f"{i['kind']} {i['name']}", i["result"]["heap_bytes"]) for i in items]
        kinds: dict[str, int] = {}
        for i in items:
            for kind, size in breakdown(i["result"]).items():
                kinds[kind] = kinds.get(kind, 0) + size
        eal = Segment("EAL", sock["eal_heap"])
        out.append(
            SocketFigure(
                socket=sock["socket"],
                by_item=Bar("by item", (*by_item, eal) if eal.bytes else tuple(by_item)),
                by_kind=Bar(
                    "by kind", (*(Segment(k, kinds[k]) for k in KINDS if kinds.get(k)), *((eal,) if eal.bytes else ()))
                ),
                page_size=page,
                pages=sock["pages"],
            )
        )
    return out


def advised_figure(doc: Mapping[str, Any]) -> list[SocketFigure]:
    """A whole application's report (``mpcalc app``, ``mpcalc ovs``: a result with ``details.advice``): its
    heap by pool and by kind, and the pages its hugepage advice gives, per socket of the advice.  Empty when
    the advice sized another run (an application sized on 4 KiB pages is advised for hugepages)."""
    out = []
    for r in doc["results"]:
        advice = r["details"].get("advice") or {}
        if advice.get("heap_bytes", r["heap_bytes"]) != r["heap_bytes"]:
            continue
        for sock in advice.get("sockets") or ():
            pools = [
                Segment(
                    f"pool {mp['name']}",
                    sum(z["len"] for z in mp["memzones"]) + sum(a["size"] for a in mp["allocations"]),
                )
                for mp in r["mempools"]
            ]
            rest = r["heap_bytes"] - sum(s.bytes for s in pools)
            items = (*pools, Segment("the rest", rest)) if rest else tuple(pools)
            kinds = tuple(Segment(k, v) for k, v in breakdown(r).items())
            eal = Segment("EAL", sock["eal_heap"])
            out.append(
                SocketFigure(
                    sock["socket"],
                    Bar("by item", (*items, eal)),
                    Bar("by kind", (*kinds, eal)),
                    int(advice["page_size"]),
                    sock["pages"],
                )
            )
    return out


def report_figure(doc: Mapping[str, Any]) -> list[Bar]:
    """A sizing command's report (``--json``): one bar per flag combination, by kind."""
    return [Bar(flags_label(r["flags"]), tuple(Segment(k, v) for k, v in breakdown(r).items())) for r in doc["results"]]


class Layout(NamedTuple):
    """One object as its pool lays it out under a flag combination (rte_mempool_objsz)."""

    flags: str
    header: int
    element: int
    trailer: int


def layouts(doc: Mapping[str, Any]) -> list[Layout]:
    """A pool report's object layouts, one per flag combination that has one (its first mempool's)."""
    out = []
    for r in doc["results"]:
        if not r["mempools"] or r["mempools"][0]["total_size"] is None:
            continue
        mp = r["mempools"][0]
        out.append(Layout(flags_label(r["flags"]), mp["header_size"], mp["elt_size"], mp["trailer_size"]))
    return out


class Curve(NamedTuple):
    """A sweep curve: the flag combinations it stands for (identical curves are drawn once) and its points."""

    labels: tuple[str, ...]
    points: tuple[tuple[int, float | None], ...]


def merge_identical(curves: Mapping[str, Iterable[tuple[int, float | None]]]) -> list[Curve]:
    """One curve per distinct series, naming every flag combination that has it, in first-seen order.

    >>> [c.labels for c in merge_identical({"a": [(1, 2)], "b": [(1, 3)], "c": [(1, 2)]})]
    [('a', 'c'), ('b',)]
    """
    by_points: dict[tuple[tuple[int, float | None], ...], list[str]] = {}
    for label, pts in curves.items():
        by_points.setdefault(tuple(pts), []).append(label)
    return [Curve(tuple(labels), pts) for pts, labels in by_points.items()]


def steps(xs: list[int], ys: list[float | None]) -> list[int]:
    """The swept values at which a series changes (a page boundary crossed, a ring that doubles): each x
    whose y differs from the previous point's."""
    return [
        x for x, prev, y in zip(xs[1:], ys, ys[1:], strict=False) if y != prev and y is not None and prev is not None
    ]


def ring_doublings(lo: int, hi: int, per_object: int) -> list[int]:
    """Swept values in [lo, hi] at which a pool's ring doubles: ``rte_align32pow2(n + 1)`` slots
    (drivers/mempool/ring/rte_mempool_ring.c ring_alloc) grow when n reaches a power of two; ``per_object``
    objects per unit of the swept value (2 for a RIB's routes: max_nodes = 2 x routes).

    >>> ring_doublings(1000, 5000, 1), ring_doublings(1000, 5000, 2)
    ([1024, 2048, 4096], [1024, 2048, 4096])
    """
    out, power = [], 1
    while power <= hi * per_object:
        x = -(-power // per_object)
        if lo <= x <= hi and power >= 2:
            out.append(x)
        power <<= 1
    return out
