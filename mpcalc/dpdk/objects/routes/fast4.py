"""The DIR24_8 replay (IPv4 rte_fib_add) kept to the state that matters: exact, and a route at a time.

``.dir24_8`` replays v22.11.11:lib/fib/dir24_8.c line by line on a pointer RIB and a 16 M-entry tbl24; this
module computes the same figures from what decides them:

* With adds only, and while DPDK's wrap-around bug has not struck (see ``.dir24_8``), the tables hold the
  longest-prefix match of the RIB: ``install_to_fib`` writes a route's next hop exactly where it is the best
  match (modify_fib, dir24_8.c:361-409), and ``tbl8_recycle`` (dir24_8.c:192-258) folds a group back into
  its tbl24 entry when its 256 entries agree.  So a /24 holds a tbl8 group iff its entries differ, which
  only a route longer than /24 (a *deep* route) can make them do.  Only /24s holding deep routes (*deep
  blocks*) are kept entry by entry (:class:`_Block`); every other /24 is its covering route's next hop.
* An add touches a deep block where ``modify_fib`` leaves a gap around its more specific routes that ends
  inside the /24: one ``install_to_fib`` per run of entries the new route becomes the best match of, in
  address order; the run that reaches the end of the /24 is the left edge of a range crossing a /24
  boundary, which also demands a second free group (dir24_8.c:273-291).  Each touch allocates a group if the
  /24 has none (filled with its tbl24 value), writes, and frees it if uniform.
* The RIB (lib/rib/rte_rib.c) is needed for: the exact lookup (a dict), the parent's next hop (the deepest
  route covering the /24, ``M24``, or in a deep block the deepest deep route over each entry, ``deps``),
  the reservation test of a deep route (``rte_rib_get_nxt(ip, 24)``: is the /24 deep?), and the nodes an
  insert adds: one, one more if the route branches off an existing subtree below its parent (an element
  under ``ip/(parent depth + 1)``), none if it lands on an intermediate node (both halves of it hold
  elements).  Those questions read ``M8``/``M16``/``M24``: for each /8, /16, /24, one plus the depth of the
  deepest route that meets it (``DEEP`` in ``M24`` for a deep block), at most 256 bytes a question.

The wrap-around bug (modify_fib's ``ledge == redge`` path reaching the end of the address space, then
``install_to_fib(0, 0)``) is detected and raises :class:`Clobbered`: the table is then no longer the
longest-prefix match, and the planner replays the whole list with ``.dir24_8``.

Pure Python, stdlib only (no click, no rich).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from mmap import mmap

from mpcalc.dpdk.objects.routes.add_record import DUP, NEW, REPLACE, SAME, Trace
from mpcalc.dpdk.objects.routes.deep24 import (
    _BYTE,
    _DEEP,
    _M32,
    DEEP,
    EQ,
    FILL,
    LOW,
    LT,
    MASK,
    SHIFT,
    UP,
    ZERO,
    _Block,
    runs,
)
from mpcalc.dpdk.objects.routes.groups import zeroed, zeroed_u32

CHUNK = 1 << 16  #: routes between two progress reports


class Clobbered(Exception):
    """modify_fib's wrap-around bug struck at route ``index``: the fast replay cannot follow."""

    def __init__(self, index: int) -> None:
        super().__init__(index)
        self.index = index


class Replay4:
    """One replay; :meth:`run` returns the :class:`~mpcalc.dpdk.objects.routes.add_record.Trace`.

    Next hops come as ids + 1 (equal for equal next hops, 1 for the default next hop).  The route of depth
    d <= 24 at ``net`` is ``rt[d][net >> (32 - d)]`` (its next hop id + 1; 0: no such route), and
    ``halves[d][h]`` is 1 if something lies under its half h = ``net >> (31 - d)`` (its lower half), h + 1
    (its upper half); a deeper one is ``deep[net << 6 | d]`` = next hop id + 1 | halves << 32 (bit 0:
    lower, bit 1: upper)."""

    def __init__(self) -> None:
        self.rt: list[memoryview] = [memoryview(b"")] * 25
        self.halves: list[mmap] = [zeroed(0)] * 25
        self.deep: dict[int, int] = {}
        self.blocks: dict[int, _Block] = {}
        self.m24 = zeroed(1 << 24)
        self.present = 0  # bit d: the list has routes of depth d
        self.count = 0  # routes in the RIB
        self.in_use = 0
        self.peak = 0
        self.rsvd = 0
        self.trace = Trace(0)

    def route(self, net: int, d: int) -> int:
        """The route net/d (masked): its next hop id + 1, 0 if absent."""
        if d > 24:
            return self.deep.get(net << 6 | d, 0) & _M32
        return self.rt[d][net >> (32 - d)] if self.present >> d & 1 else 0

    # -- the RIB questions ---------------------------------------------------------------------------------

    def inside(self, a: int, d: int) -> bool:
        """Is there a route of depth >= d under a/d (a route equal to a/d counts)?"""
        a &= MASK[d]
        if d > 24:
            blk = self.blocks.get(a >> 8)
            if blk is None:
                return False
            o = a & 255
            if d == 32:
                return blk.deps[o] >= 32
            return bool(blk.deps[o : o + (1 << (32 - d))].translate(None, LOW[d]))
        s = a >> 8
        if d == 24:
            return self.m24[s] > 24
        return bool(self.m24[s : s + (1 << (24 - d))].translate(None, LOW[d + 1]))

    def probe(self, net: int, lo: int, hi: int) -> int:
        """The deepest route over net of a depth in [lo, hi), by exact lookups; -1 if none."""
        bits = self.present & ((1 << hi) - (1 << lo))
        while bits:
            d = bits.bit_length() - 1
            if self.route(net & MASK[d], d):
                return d
            bits ^= 1 << d
        return -1

    def nodes(self, i: int, net: int, d: int, pd: int, desc: bool) -> int:
        """RIB nodes rte_rib_insert adds for route i, a new net/d whose parent has depth pd (-1: none), and
        the parent's halves updated; ``desc``: routes exist below net/d."""
        if desc:  # it lands above existing routes: on an intermediate node iff both halves hold some
            half = 1 << (31 - d)
            low, high = self.inside(net, d + 1), self.inside(net + half, d + 1)
            self.set_halves(net, d, low | high << 1)
            return 0 if low and high else 1
        if pd < 0:  # under no route: a leaf, and a branch node unless the RIB is empty (the first route)
            return 2 if i else 1
        if pd > 24:
            side = 1 << (net >> (31 - pd) & 1)
            key = (net & MASK[pd]) << 6 | pd
            old = self.deep[key]
            self.deep[key] = old | side << 32
            return 2 if old >> 32 & side else 1
        tab, h = self.halves[pd], net >> (31 - pd)
        old = tab[h]
        tab[h] = 1
        return 2 if old else 1

    def set_halves(self, net: int, d: int, bits: int) -> None:
        if d > 24:
            key = net << 6 | d
            self.deep[key] = self.deep.get(key, 0) & _M32 | bits << 32
        else:
            h = net >> (31 - d)
            self.halves[d][h : h + 2] = _BYTE[bits & 1] + _BYTE[bits >> 1]

    # -- the data plane ------------------------------------------------------------------------------------

    def touch(self, blk: _Block, lo: int, hi: int, value: int) -> None:
        """One install_to_fib on entries [lo, hi) of a deep block (dir24_8.c:260-359)."""
        if not blk.ext:  # tbl8_alloc; a range reaching the /24's end also checks a second free group
            self.in_use += 1
            peak = self.in_use + (hi == 256)
            if peak > self.peak:
                self.peak = peak
            blk.ext = True
        code = blk.code(value, lo, hi)
        codes = blk.codes
        codes[lo:hi] = _BYTE[code] * (hi - lo)
        if codes.count(codes[0]) == 256:  # tbl8_recycle
            blk.ext = False
            self.in_use -= 1

    def clobbers(self, net: int, d: int) -> bool:
        """Does modifying net/d hit the wrap-around bug (dir24_8.c:380-383 then 398-402)?  Only a route that
        reaches 255.255.255.255 can: its last more specific route ends there too, and it starts exactly
        where the one before ends (no install in between), so ledge wraps to 0 unchecked."""
        if net != MASK[d]:
            return False
        for c in range(d + 1, 33):  # the shallowest more specific route that also reaches the end
            start = MASK[c]
            if self.route(start, c):
                y = (start - 1) & _M32
                return any(self.route(y & MASK[e], e) for e in range(d + 1, 33))
        return False

    def shallow_blocks(self, i: int, net: int, d: int, value: int, write: bool, replace: bool) -> None:
        """A route of depth <= 24 over deep blocks: the blocks it becomes the cover of, and with ``write``
        the gaps modify_fib fills in them (their entries that no deep route covers)."""
        m24, blocks = self.m24, self.blocks
        b1 = (net >> 8) + (1 << (24 - d))
        k = m24.find(_DEEP, net >> 8, b1)
        if k < 0:
            return
        self.peak = self.in_use
        enc = d + 1
        touched = False
        while k >= 0:
            blk = blocks[k]
            if blk.cover == enc if replace else blk.cover < enc:
                blk.cover = enc
                if write:
                    touched = True
                    for lo, hi in runs(bytes(blk.deps).translate(ZERO)):
                        self.touch(blk, lo, hi, value)
            k = m24.find(_DEEP, k + 1, b1)
        if touched:
            self.trace.event(i, self.peak, 0, self.in_use)

    # -- the adds ------------------------------------------------------------------------------------------

    def add_shallow(self, i: int, net: int, d: int, value: int) -> int:
        """A new route of depth <= 24 (dir24_8.c:456-471), the general case; returns its trace byte."""
        m24 = self.m24
        b0, b1 = net >> 8, (net >> 8) + (1 << (24 - d))
        m = m24[b0]
        cover = self.blocks[b0].cover if m == DEEP else m
        pd = cover - 1 if cover <= d else self.probe(net, 0, d)
        seg = m24[b0:b1]
        desc = bool(seg.translate(None, LOW[d + 1]))
        nodes = self.nodes(i, net, d, pd, desc)
        self.rt[d][net >> (32 - d)] = value
        same = pd >= 0 and self.route(net & MASK[pd], pd) == value
        if seg.find(DEEP) >= 0:
            self.shallow_blocks(i, net, d, value, not same, False)
        m24[b0:b1] = seg.translate(UP[d + 1])
        if not same and self.clobbers(net, d):
            raise Clobbered(i)
        return (SAME if same else NEW) | nodes << 2

    def add_deep(self, i: int, net: int, d: int, value: int) -> int:
        """A route longer than /24 (dir24_8.c:411-471); returns its trace byte."""
        key = net << 6 | d
        old = self.deep.get(key, 0) & _M32
        if old:
            if old == value:
                return DUP
            self.replace(i, net, d, value)
            self.deep[key] = self.deep[key] & ~_M32 | value
            return REPLACE
        k, o, size = net >> 8, net & 255, 1 << (32 - d)
        blk = self.blocks.get(k)
        if blk is None:  # no deep route in this /24: the reservation test applies
            rsvd_need = self.rsvd + 1
            cover = self.m24[k]
            pd = cover - 1
            nodes = self.nodes(i, net, d, pd, False)
            blk = self.blocks[k] = _Block(self.route(net & MASK[pd], pd) if cover else 1, cover)
            self.m24[k] = DEEP
        else:
            rsvd_need = 0
            d0 = blk.deps[o]
            if d0 == 0:
                pd = blk.cover - 1
            elif d0 < d:
                pd = d0
            else:
                pd = self.probe(net, 25, d)
                if pd < 0:
                    pd = blk.cover - 1
            desc = d < 32 and bool(blk.deps[o : o + size].translate(None, LOW[d + 1]))
            nodes = self.nodes(i, net, d, pd, desc)
        self.deep[key] = self.deep.get(key, 0) | value
        same = pd >= 0 and self.route(net & MASK[pd], pd) == value
        old_deps = bytes(blk.deps[o : o + size])
        blk.deps[o : o + size] = old_deps.translate(UP[d])
        self.peak = self.in_use
        if not same:
            if self.clobbers(net, d):
                raise Clobbered(i)
            for lo, hi in runs(old_deps.translate(LT[d]), o):
                self.touch(blk, lo, hi, value)
            if rsvd_need:
                self.rsvd += 1
        self.trace.event(i, self.peak, rsvd_need, self.in_use)
        return (SAME if same else NEW) | nodes << 2

    def again(self, i: int, net: int, d: int, value: int, old: int) -> int:
        """A route of depth <= 24 already in the RIB (dir24_8.c:437-446); returns its trace byte."""
        if old == value:
            return DUP
        self.replace(i, net, d, value)
        self.rt[d][net >> (32 - d)] = value
        return REPLACE

    def replace(self, i: int, net: int, d: int, value: int) -> None:
        """A known route with a new next hop: modify_fib rewrites where it is the best match."""
        if self.clobbers(net, d):
            raise Clobbered(i)
        if d <= 24:
            self.shallow_blocks(i, net, d, value, True, True)
            return
        blk = self.blocks[net >> 8]
        o = net & 255
        self.peak = self.in_use
        for lo, hi in runs(bytes(blk.deps[o : o + (1 << (32 - d))]).translate(EQ[d]), o):
            self.touch(blk, lo, hi, value)
        self.trace.event(i, self.peak, 0, self.in_use)

    # -- the replay ----------------------------------------------------------------------------------------

    def run(
        self,
        nets: Sequence[int],
        depths: bytes | bytearray,
        ids: Sequence[int],
        progress: Callable[[int], None] | None = None,
    ) -> Trace:
        """Replay; ``nets`` masked to their depths, ``ids[i]`` route i's next hop id + 1 (1: the default
        next hop)."""
        n = len(depths)
        trace = self.trace = Trace(n)
        codes_append = trace.codes.append
        for d in set(depths):  # every depth the list uses: probe() tries no other
            self.present |= 1 << d
            if d <= 24:
                self.rt[d] = zeroed_u32(1 << d)
                self.halves[d] = zeroed(2 << d)
        rt, halves, m24, low = self.rt, self.halves, self.m24, LOW
        rt24 = rt[24]
        for lo in range(0, n, CHUNK):
            if progress is not None:
                progress(lo)
            hi = min(n, lo + CHUNK)
            for i, d, net, v in zip(range(lo, hi), depths[lo:hi], nets[lo:hi], ids[lo:hi]):  # noqa: B905
                # inlined: a new route with nothing below it (no deeper route over its /24s, no deep
                # block), whose parent is then the cover of its first /24; else add_shallow / add_deep
                if d == 24:
                    b0 = net >> 8
                    old = rt24[b0]
                    if old:
                        codes_append(self.again(i, net, d, v, old))
                        continue
                    m = m24[b0]
                    if m > 24:
                        codes_append(self.add_shallow(i, net, d, v))
                        continue
                    m24[b0] = 25
                    rt24[b0] = v
                elif d < 24:
                    tab = rt[d]
                    slot = net >> (32 - d)
                    old = tab[slot]
                    if old:
                        codes_append(self.again(i, net, d, v, old))
                        continue
                    b0 = net >> 8
                    b1 = b0 + (1 << (24 - d))
                    seg = m24[b0:b1]
                    if seg.translate(None, low[d + 1]):
                        codes_append(self.add_shallow(i, net, d, v))
                        continue
                    m = seg[0]
                    m24[b0:b1] = FILL[d] if d >= 12 else _BYTE[d + 1] * (b1 - b0)
                    tab[slot] = v
                else:
                    codes_append(self.add_deep(i, net, d, v))
                    continue
                if m:  # the parent: does its half already hold something?
                    h = net >> SHIFT[m]
                    half = halves[m - 1]
                    if half[h]:
                        code = 8
                    else:
                        half[h] = 1
                        code = 4
                    if rt[m - 1][h >> 1] == v:
                        code |= SAME
                else:
                    code = 8 if i else 4
                codes_append(code)
        self.count = trace.count(NEW) + trace.count(SAME)
        trace.in_use, trace.rsvd, trace.distinct = self.in_use, self.rsvd, self.count
        return trace
