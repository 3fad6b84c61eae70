"""One event of a DPDK trace, as both readers (the CTF one and babeltrace2's text) give it.

Pure: stdlib only.
"""

from __future__ import annotations

from typing import Any, NamedTuple

__all__ = ["Event", "Stream"]


class Stream(NamedTuple):
    """One per-thread stream of the trace (``channel0_<n>``): the ``packet.context`` DPDK writes
    (``cpu_id``, the thread's ``name``; v22.11:lib/eal/common/eal_common_trace_ctf.c:212-215)."""

    index: int  # type: ignore[assignment]  # the stream's number; shadows tuple.index, as namedtuples allow
    cpu_id: int
    thread: str


class Event(NamedTuple):
    """A trace event: its tracepoint name, its fields by the names DPDK registers them under (CTF's
    leading ``_`` removed: ``align``), its stream and its 48-bit timestamp (TSC cycles, ordering only)."""

    name: str
    fields: dict[str, Any]
    stream: Stream
    timestamp: int
