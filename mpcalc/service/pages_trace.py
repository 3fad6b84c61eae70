"""The hugepage advice of a traced run (``mpcalc trace``): the plan's page model, one item a socket.

Each socket's item is the start-up's live set on the target (mpcalc.dpdk.apps.trace) and, on top, what the
run held at its peak beyond that live set (``peak - start-up``, as recorded): the pages must hold the
peak.  The trace counts EAL's own allocations itself, as ``[[app]]`` does.  Pure: no click, no rich.
"""

from __future__ import annotations

from typing import Any

from mpcalc.dpdk.core.platform import DEFAULT_PAGE_SIZE, Platform
from mpcalc.dpdk.core.records import Result
from mpcalc.service.plan import EAL_INIT_HEAP, Item, PlanReport, socket_plans

__all__ = ["advice"]


def advice(result: Result, platform: Platform) -> dict[str, object]:
    """The pages per socket and the settings (``--socket-mem``, ``nr_hugepages``) for the traced run."""
    page = platform.page_size if platform.page_size > 4096 else DEFAULT_PAGE_SIZE
    p = platform._replace(page_size=page)
    d: Any = result.details
    if d.get("secondary"):
        return {
            "page_size": page,
            "note": "a secondary process: it allocates from the heap the primary set up (the primary's memory "
            "options size it): size the primary, with this trace's allocations on top",
        }
    startup = {s["socket"]: s["heap_bytes"] for s in d["startup"]["heap_bytes"]}
    peaks = {s["socket"]: s["heap_bytes"] for s in d["peak"]}
    items = []
    for s in d["sockets"]:
        socket = s["socket"]
        transient = max(0, peaks.get(socket, 0) - startup.get(socket, 0))
        heap = s["heap_bytes"] + transient
        r = result._replace(heap_bytes=heap, total_bytes=s["total_bytes"] + transient, details={})
        items.append(Item(kind="app", name=f"trace socket {socket}", socket=socket, result=r))
    report = PlanReport(path="<trace>", platform=p, items=tuple(items), sockets=socket_plans(items, p, EAL_INIT_HEAP))
    settings = report.settings()
    return {
        "page_size": page,
        "sockets": [s.to_dict() for s in report.sockets],
        "settings": settings,
        "assumes": [
            "the pages hold the recorded peak: the start-up's live set on the target, and what the run "
            "held beyond it at its peak, as recorded"
        ],
    }
