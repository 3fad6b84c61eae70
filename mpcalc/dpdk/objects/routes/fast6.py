"""The TRIE replay (IPv6 rte_fib6_add) with the RIB's answers worked out from the sorted list first.

v22.11.11:lib/fib/trie.c:trie_modify (520-593) asks the RIB (lib/rib/rte_rib6.c) for: the exact route,
its parent (``rte_rib6_lookup_parent``: is the next hop the same?), whether a route lies deeper than
``ip/floor8(depth)`` and else the route over ``ip`` (the reservation, trie.c:545-559), the more specific
routes in address order (modify_dp's ``rte_rib6_get_nxt`` walk, 464-518), and rte_rib6_insert the nodes
it takes.  Here the whole list is sorted once (preorder: by address, then depth) and one pass with a stack
of ancestors gives each distinct prefix its parent *at the time it is first added* (the deepest ancestor
added earlier), the time of its earliest descendant, and where its subtree ends.  Then the adds are
replayed in order: the more specific routes present at a given time are the subtree's elements added
before then, found by skipping whole subtrees that hold none; the nodes an insert takes come from two bits
a route (as in ``.fast4``: does each half already hold something?); the reservation's "deeper route below
ip/floor8(depth)" is a set of byte-aligned prefixes with routes under them.  The tables are ``.trie6``'s:
install_to_dp and what it calls, on groups kept sparse.

DPDK's wrap-around bug (modify_dp's ``ledge == redge`` path reaching the end of the address space, then
install_to_dp from ::) raises :class:`~mpcalc.dpdk.objects.routes.fast4.Clobbered`; the planner then replays the
list with ``.trie``.

Pure Python, stdlib only (no click, no rich).
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Sequence
from itertools import accumulate, repeat
from operator import ne

from mpcalc.dpdk.objects.routes.add_record import DUP, NEW, REPLACE, SAME, Trace
from mpcalc.dpdk.objects.routes.fast4 import CHUNK, Clobbered
from mpcalc.dpdk.objects.routes.trie6 import TrieDP

__all__ = ["Clobbered", "Replay6"]

_FULL = (1 << 128) - 1


def _ceil8(x: int) -> int:
    return (x + 7) & ~7


class Replay6:
    """One replay; :meth:`run` returns the :class:`~mpcalc.dpdk.objects.routes.add_record.Trace`."""

    def __init__(self) -> None:
        self.dp = TrieDP()
        self.rsvd = 0
        self.below: set[int] = set()  # (prefix << 8 | f) for byte depths f >= 24 with a route deeper below

    # -- the sorted pass -----------------------------------------------------------------------------------

    def sort(self, nets: Sequence[int], depths: bytes | bytearray) -> array[int]:
        """Distinct prefixes in preorder (``knet``, ``kdep``), each with the route that first adds it
        (``tau``), its parent then (``pidx``, -1: none), its earliest descendant (``fmin``, len(depths): none)
        and the end of its subtree (``send``); returns route -> prefix."""
        n = len(depths)
        keys = [net << 8 | d for net, d in zip(nets, depths, strict=True)]
        order = sorted(range(n), key=keys.__getitem__)
        skeys = list(map(keys.__getitem__, order))
        first = list(map(ne, skeys, [-1, *skeys[:-1]]))
        elem = array("I", bytes(4 * n))
        list(map(elem.__setitem__, order, [x - 1 for x in accumulate(first)]))
        firsts = [i for i, f in zip(order, first, strict=True) if f]
        self.tau = tau = array("Q", firsts)
        self.knet = knet = [nets[i] for i in firsts]
        self.kdep = kdep = bytes(depths[i] for i in firsts)
        m = len(firsts)
        pidx = self.pidx = array("q", repeat(-1, m))
        fmin = self.fmin = array("Q", repeat(n, m))
        send = self.send = array("I", repeat(m, m))
        stack: list[int] = []
        for k in range(m):
            net, t = knet[k], tau[k]
            while stack:
                j = stack[-1]
                sh = 128 - kdep[j]
                if net >> sh == knet[j] >> sh:
                    break
                stack.pop()
                send[j] = k
                if stack:
                    x = min(fmin[j], tau[j])
                    if x < fmin[stack[-1]]:
                        fmin[stack[-1]] = x
            for j in reversed(stack):
                if tau[j] < t:
                    pidx[k] = j
                    break
            stack.append(k)
        while stack:
            j = stack.pop()
            if stack:
                x = min(fmin[j], tau[j])
                if x < fmin[stack[-1]]:
                    fmin[stack[-1]] = x
        self.halves = bytearray(m)  # bit 0: a route under the lower half, bit 1: under the upper half
        self.cur = array("I", bytes(4 * m))  # next hop id + 1 of each prefix (0: not added yet)
        return elem

    def children(self, k: int, t: int) -> list[int]:
        """The more specific routes of prefix k present before route t, outermost only, in address order:
        what rte_rib6_get_nxt(RTE_RIB6_GET_NXT_COVER) walks (rte_rib6.c)."""
        out = []
        tau, fmin, send = self.tau, self.fmin, self.send
        e, end = k + 1, send[k]
        while e < end:
            if tau[e] < t:
                out.append(e)
                e = send[e]
            elif fmin[e] < t:
                e += 1
            else:
                e = send[e]
        return out

    def holds(self, lo: int, hi: int, t: int) -> bool:
        """Is a route present before route t among prefixes [lo, hi) (a union of whole subtrees)?"""
        tau, fmin, send = self.tau, self.fmin, self.send
        e = lo
        while e < hi:
            if tau[e] < t or fmin[e] < t:
                return True
            e = send[e]
        return False

    def half_start(self, k: int) -> int:
        """The first prefix of k's upper half (its subtree's end if none)."""
        net, d = self.knet[k], self.kdep[k]
        key = (net | 1 << (127 - d)) << 8 | (d + 1)
        knet, kdep = self.knet, self.kdep
        lo, hi = k + 1, self.send[k]
        while lo < hi:
            mid = (lo + hi) >> 1
            if knet[mid] << 8 | kdep[mid] < key:
                lo = mid + 1
            else:
                hi = mid
        return lo

    # -- the adds ------------------------------------------------------------------------------------------

    def nodes(self, k: int, t: int, p: int) -> int:
        """RIB nodes rte_rib6_insert takes for prefix k first added by route t, parent p (-1: none)."""
        if self.fmin[k] < t:  # routes below it: on an intermediate node iff both halves hold some
            b = self.half_start(k)
            low, high = self.holds(k + 1, b, t), self.holds(b, self.send[k], t)
            self.halves[k] = low | high << 1
            return 0 if low and high else 1
        if p < 0:
            return 2 if t else 1
        side = 1 << (self.knet[k] >> (127 - self.kdep[p]) & 1)
        old = self.halves[p]
        self.halves[p] = old | side
        return 2 if old & side else 1

    def modify(self, i: int, k: int, value: int) -> None:
        """modify_dp (trie.c:464-518) for prefix k at route i."""
        net, d = self.knet[k], self.kdep[k]
        knet, kdep = self.knet, self.kdep
        ledge = net
        seen = False
        install = self.dp.install
        kids = self.children(k, i) if self.fmin[k] < i else ()
        if not kids:  # the usual case: one install over the whole route
            self.dp.leaf(net, d, value)
            return
        for c in kids:
            seen = True
            redge = knet[c]
            nxt = (redge + (1 << (128 - kdep[c]))) & _FULL  # get_nxt_net: uint8_t arithmetic, mod 2^128
            if ledge == redge:
                ledge = nxt
                continue
            install(ledge, redge, value)
            ledge = nxt
            if not ledge:  # wrapped around the end of the address space
                return
        redge = (net + (1 << (128 - d))) & _FULL
        if ledge == redge and ledge:
            return
        if seen and not ledge:
            raise Clobbered(i)  # install_to_dp from :: : the wrap-around bug (trie.c:487-490, 506-511)
        install(ledge, redge, value)

    def add(self, i: int, k: int, value: int) -> int:
        """trie_modify(RTE_FIB6_ADD) (trie.c:520-593) for route i, prefix k; returns its trace byte."""
        dp = self.dp
        old = self.cur[k]
        if old:
            if old == value:
                return DUP
            dp.peak = dp.in_use
            self.modify(i, k, value)  # a failure is swallowed: rte_fib6_add returns 0 (trie.c:567-570)
            self.cur[k] = value
            self.trace.event(i, dp.peak, 0, dp.in_use)
            return REPLACE
        net, d = self.knet[k], self.kdep[k]
        p = self.pidx[k]
        rsvd_need = 0
        depth_diff = 0
        if d > 24:
            f = d & ~7
            if (net >> (128 - f)) << 8 | f not in self.below:  # nothing deeper below ip/floor8(depth)
                parent_depth = max(self.kdep[p], 24) if p >= 0 else 24
                depth_diff = (_ceil8(d) - _ceil8(parent_depth)) >> 3
            rsvd_need = self.rsvd + depth_diff
            for f in range(24, d, 8):
                self.below.add((net >> (128 - f)) << 8 | f)
        nodes = self.nodes(k, i, p)
        self.cur[k] = value
        dp.peak = dp.in_use
        same = p >= 0 and self.cur[p] == value
        if not same:
            self.modify(i, k, value)
            self.rsvd += depth_diff
        self.trace.event(i, dp.peak, rsvd_need, dp.in_use)
        return (SAME if same else NEW) | nodes << 2

    def run(
        self,
        nets: Sequence[int],
        depths: bytes | bytearray,
        ids: Sequence[int],
        progress: Callable[[int], None] | None = None,
    ) -> Trace:
        """Replay; ``nets`` masked to their depths, ``ids[i]`` route i's next hop id + 1 (1: the default)."""
        n = len(depths)
        elem = self.sort(nets, depths)
        trace = self.trace = Trace(n)
        append = trace.codes.append
        add = self.add
        for lo in range(0, n, CHUNK):
            if progress is not None:
                progress(lo)
            for i in range(lo, min(n, lo + CHUNK)):
                append(add(i, elem[i], ids[i]))
        trace.in_use, trace.rsvd, trace.distinct = self.dp.in_use, self.rsvd, len(self.tau)
        return trace
