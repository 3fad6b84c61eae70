"""A DPDK trace as ``mpcalc inspect`` input: the live set at the end of the run's start-up, as a dump would give it.

The trace (a CTF folder, or babeltrace2's text of one) is replayed by :func:`mpcalc.dpdk.apps.trace.recorded`; each
memzone alive at the end of start-up becomes a :class:`ZoneDump` (its length as DPDK reports it:
``memzone_len`` of the length asked for, on the recorded platform's cache line) and each mempool a
:class:`PoolDump` with the creation arguments ``lib.mempool.create.empty`` recorded (``size``, ``elt_size``,
``cache_size``, ``private_data_size``, ``flags``) and its driver (``lib.mempool.set.ops.byname``); the page
size is the one the pools laid their objects out for (``lib.mempool.get.page.size``).  The trace
is a complete list of the process's memzones, so one the model expects and the trace lacks is measured absent.

Pure Python (no click, no rich).
"""

from __future__ import annotations

from mpcalc.dpdk.core.heap import memzone_len
from mpcalc.dpdk.core.platform import Platform
from mpcalc.inspect.dumps import Parsed, ZoneDump

__all__ = ["FORMAT", "parse_trace"]

#: the input format's name in the report's ``formats``
FORMAT = "dpdk_trace"


def parse_trace(path: str, platform: Platform) -> Parsed:
    """The memzones and pools alive at the end of the traced run's start-up (``-``: babeltrace2's text on stdin)."""
    from mpcalc.dpdk.apps.trace import recorded

    rec = recorded(path, platform)
    live, p = rec.run.startup, rec.platform
    out = Parsed(source=path, lines=rec.run.events, memzone_dump=True)
    out.saw(FORMAT)
    # the page size the pools laid their objects out for (lib.mempool.get.page.size): the memzones' pages
    page = max(rec.run.page_sizes) if rec.run.page_sizes else None
    for z in sorted(live.zones.values(), key=lambda z: z.seq):
        out.zones[z.name] = ZoneDump(
            name=z.name,
            len=memzone_len(z.requested, p),
            line=z.seq,
            socket_id=max(z.socket, 0),
            flags=z.flags,
            pagesz=page,
            source="trace",
        )
    for r in live.pools.values():
        pool = out.pool(r.name, r.seq, FORMAT)
        pool.fields.update(
            {
                "size": r.count,
                "elt_size": r.elt_size,
                "cache_size": r.cache_size,
                "private_data_size": r.private_size,
                "flags": r.flags,
                **({"ops_name": r.ops} if r.ops else {}),
                **({"populated_size": r.count} if r.populated else {}),
            }
        )
    return out
