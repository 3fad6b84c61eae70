"""The line-by-line replay: every rte_fib_add / rte_fib6_add on ``.dir24_8`` / ``.trie`` and the RIB of ``.rib``.

It follows DPDK v22.11.11 statement by statement (the tbl24, every tbl8 group's 256 entries, every RIB
node), at about 20,000 routes a second.  ``.fast4`` and ``.fast6`` compute the same figures from the state
that matters; this replay is what they are tested against, and what the planner falls back to where they
cannot follow DPDK (after its wrap-around bug has struck, when the tables no longer hold the longest-prefix
match of the RIB).

Pure Python, stdlib only (no click, no rich).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from mpcalc.dpdk.objects.routes.add_record import KIND, Trace
from mpcalc.dpdk.objects.routes.dir24_8 import _Dir24_8
from mpcalc.dpdk.objects.routes.trie import _Trie


def replay(
    nets: Sequence[int],
    depths: bytes | bytearray,
    values: Sequence[int],
    family: int,
    default: int,
    progress: Callable[[int], None] | None = None,
) -> Trace:
    """Replay the adds in order; ``values`` are the next hops (only their equality matters)."""
    dp = _Dir24_8() if family == 4 else _Trie()
    ids: dict[int, int] = {default: 0}  # next hop -> small id: what the simulated tables hold
    masks = dp.rib.masks
    trace = Trace(len(depths))
    seen: set[int] = set()
    g = dp.g
    for i in range(len(depths)):
        if progress is not None and not i & 0xFFFF:
            progress(i)
        depth = depths[i]
        ip = nets[i] & masks[depth]
        seen.add(ip << 8 | depth)
        vid = ids.setdefault(values[i], len(ids))
        before = dp.rib.cur_nodes
        g.peak = g.in_use
        kind, rsvd, _rib = dp.add(ip, depth, vid)
        if dp.clobbered:
            trace.clobbers.append(i)
            dp.clobbered = False
        code = KIND.index(kind)
        if code < 2:
            code |= (dp.rib.cur_nodes - before) << 2
        trace.codes.append(code)
        trace.event(i, g.peak, rsvd, g.in_use)
    trace.in_use, trace.rsvd, trace.distinct = g.in_use, dp.rsvd, len(seen)
    return trace
