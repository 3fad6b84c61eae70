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

from array import array
from collections.abc import Callable, Sequence

from .trace import DUP, NEW, REPLACE, SAME, Trace

_M32 = 0xFFFFFFFF
MASK = [_M32 ^ ((1 << (32 - d)) - 1) for d in range(33)]
DEEP = 33  #: M24 marker of a /24 holding deep routes
#: UP[t]: byte -> max(byte, t); LOW[t]: the bytes below t (deleted: what is left is >= t)
UP = [bytes(max(x, t) for x in range(256)) for t in range(34)]
LOW = [bytes(range(t)) for t in range(34)]
#: gap masks: LT[d] marks entries whose deepest deep route is shallower than d (a new route's entries),
#: EQ[d] those whose deepest is d (a replaced route's own), ZERO those with no deep route (a short route's)
LT = [bytes(1 if x < d else 0 for x in range(256)) for d in range(34)]
EQ = [bytes(1 if x == d else 0 for x in range(256)) for d in range(34)]
ZERO = EQ[0]
_BYTE = [bytes((c,)) for c in range(256)]
CHUNK = 1 << 16  #: routes between two progress reports


class Clobbered(Exception):  # noqa: N818 - a signal, not an error
    """modify_fib's wrap-around bug struck at route ``index``: the fast replay cannot follow."""

    def __init__(self, index: int) -> None:
        super().__init__(index)
        self.index = index


def runs(mask: bytes, base: int = 0) -> list[tuple[int, int]]:
    """The runs of 1 bytes in ``mask`` as (start, end), offset by ``base``.

    >>> runs(bytes([0, 1, 1, 0, 1]), 10)
    [(11, 13), (14, 15)]
    """
    out = []
    pos = mask.find(1)
    while pos >= 0:
        end = mask.find(0, pos)
        if end < 0:
            end = len(mask)
        out.append((base + pos, base + end))
        pos = mask.find(1, end)
    return out


class _Block:
    """A /24 with deep routes: its 256 entries (palette codes), the deepest deep route over each entry, whether
    it holds a tbl8 group, and 1 + the depth of the deepest route of at most /24 covering it (0: none)."""

    __slots__ = ("codes", "cover", "deps", "ext", "pal")

    def __init__(self, value: int, cover: int) -> None:
        self.codes = bytearray(256)
        self.pal = [value]
        self.deps = bytearray(256)
        self.ext = False
        self.cover = cover

    def code(self, value: int, lo: int, hi: int) -> int:
        """The palette code of ``value``, about to be written over entries [lo, hi)."""
        pal = self.pal
        try:
            return pal.index(value)
        except ValueError:
            pass
        if len(pal) == 256:  # recode what stays outside [lo, hi): at most 255 distinct values
            keep = sorted(set(self.codes[:lo]) | set(self.codes[hi:]))
            table = bytearray(256)
            for new, old in enumerate(keep):
                table[old] = new
            self.codes = bytearray(self.codes.translate(table))
            self.pal = pal = [pal[c] for c in keep]
        pal.append(value)
        return len(pal) - 1


class Replay4:
    """One replay; :meth:`run` returns the :class:`~mpcalc.dpdk.routes.trace.Trace`.

    Next hops come as ids (equal ids for equal next hops, 0 for the default next hop); the route of depth d
    <= 24 at ``net`` is ``rt[d][net >> (32 - d)]`` (its next hop id + 1; 0: no such route), a deeper one
    ``deep[net << 6 | d]``."""

    def __init__(self) -> None:
        self.rt: list[array[int] | None] = [None] * 25
        self.deep: dict[int, int] = {}
        self.blocks: dict[int, _Block] = {}
        self.m8 = bytearray(1 << 8)
        self.m16 = bytearray(1 << 16)
        self.m24 = bytearray(1 << 24)
        self.present = 0  # bit d: some route of depth d exists
        self.count = 0  # routes in the RIB
        self.in_use = 0
        self.peak = 0
        self.rsvd = 0
        self.trace = Trace(0)

    def table(self, d: int) -> array[int]:
        tab = self.rt[d]
        if tab is None:
            tab = self.rt[d] = array("I", bytes(4 << d))
        return tab

    def route(self, net: int, d: int) -> int:
        """The route net/d: its next hop id + 1, 0 if absent."""
        if d > 24:
            return self.deep.get(net << 6 | d, 0)
        tab = self.rt[d]
        return 0 if tab is None else tab[net >> (32 - d)]

    # -- the questions -------------------------------------------------------------------------------------

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
            return bool(blk.deps[o:o + (1 << (32 - d))].translate(None, LOW[d]))
        if d > 16:
            arr, s, w = self.m24, a >> 8, 24 - d
        elif d > 8:
            arr, s, w = self.m16, a >> 16, 16 - d
        else:
            arr, s, w = self.m8, a >> 24, 8 - d
        if w == 0:
            return arr[s] > d
        return bool(arr[s:s + (1 << w)].translate(None, LOW[d + 1]))

    def probe(self, net: int, lo: int, hi: int) -> int:
        """The deepest route over net of a depth in [lo, hi), by exact lookups; -1 if none."""
        bits = self.present & ((1 << hi) - (1 << lo))
        while bits:
            d = bits.bit_length() - 1
            if self.route(net & MASK[d], d):
                return d
            bits ^= 1 << d
        return -1

    def delta(self, net: int, d: int, pd: int, desc: bool) -> int:
        """RIB nodes rte_rib_insert adds for net/d whose parent has depth pd (-1: none)."""
        if desc:  # it lands above existing routes: on an intermediate node iff both halves hold some
            half = 1 << (31 - d)
            return 0 if self.inside(net, d + 1) and self.inside(net + half, d + 1) else 1
        if pd >= 0:
            return 2 if self.inside(net, pd + 1) else 1
        return 2 if self.count else 1

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
        if (net + (1 << (32 - d))) >> 32 == 0:
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
        k = m24.find(DEEP, net >> 8, b1)
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
                    for lo, hi in runs(blk.deps.translate(ZERO)):
                        self.touch(blk, lo, hi, value)
            k = m24.find(DEEP, k + 1, b1)
        if touched:
            self.trace.event(i, self.peak, 0, self.in_use)

    def add_deep(self, i: int, net: int, d: int, value: int) -> int:
        """A route longer than /24 (dir24_8.c:411-471); returns its trace byte."""
        key = net << 6 | d
        old = self.deep.get(key, 0)
        if old:
            if old == value + 1:
                return DUP
            self.replace(i, net, d, value)
            self.deep[key] = value + 1
            return REPLACE
        k, o, size = net >> 8, net & 255, 1 << (32 - d)
        blk = self.blocks.get(k)
        if blk is None:  # no deep route in this /24: the reservation test applies
            rsvd_need = self.rsvd + 1
            cover = self.m24[k]
            pd = cover - 1
            nodes = self.delta(net, d, pd, False)
            blk = self.blocks[k] = _Block(self.route(net & MASK[pd], pd) - 1 if cover else 0, cover)
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
            desc = d < 32 and bool(blk.deps[o:o + size].translate(None, LOW[d + 1]))
            nodes = self.delta(net, d, pd, desc)
        self.deep[key] = value + 1
        self.count += 1
        same = pd >= 0 and self.route(net & MASK[pd], pd) == value + 1
        old_deps = bytes(blk.deps[o:o + size])
        blk.deps[o:o + size] = old_deps.translate(UP[d])
        if self.m16[net >> 16] <= d:
            self.m16[net >> 16] = d + 1
        if self.m8[net >> 24] <= d:
            self.m8[net >> 24] = d + 1
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
        for lo, hi in runs(blk.deps[o:o + (1 << (32 - d))].translate(EQ[d]), o):
            self.touch(blk, lo, hi, value)
        self.trace.event(i, self.peak, 0, self.in_use)

    # -- the replay ----------------------------------------------------------------------------------------

    def run(self, nets: Sequence[int], depths: bytes | bytearray, ids: Sequence[int],
            progress: Callable[[int], None] | None = None) -> Trace:
        """Replay; ``ids[i]`` is route i's next hop id (0: the default next hop)."""
        n = len(depths)
        trace = self.trace = Trace(n)
        codes_append = trace.codes.append
        rt = self.rt
        for d in set(depths):  # every depth the list uses: probe() tries no other
            self.present |= 1 << d
            if d <= 24:
                self.table(d)
        m8, m16, m24, blocks = self.m8, self.m16, self.m24, self.blocks
        mask, up, low = MASK, UP, LOW
        count = 0
        for lo in range(0, n, CHUNK):
            if progress is not None:
                progress(lo)
            hi = min(n, lo + CHUNK)
            for i, d, net, v in zip(range(lo, hi), depths[lo:hi], nets[lo:hi], ids[lo:hi]):  # noqa: B905
                if d > 24:
                    self.count = count
                    codes_append(self.add_deep(i, net & mask[d], d, v))
                    count = self.count
                    continue
                net &= mask[d]
                v += 1
                tab = rt[d]
                slot = net >> (32 - d)
                old = tab[slot]  # type: ignore[index]
                if old:
                    if old == v:
                        codes_append(DUP)
                        continue
                    self.replace(i, net, d, v - 1)
                    tab[slot] = v  # type: ignore[index]
                    codes_append(REPLACE)
                    continue
                b0 = net >> 8
                m = m24[b0]
                cover = blocks[b0].cover if m == DEEP else m
                pd = cover - 1 if cover <= d else self.probe(net, 0, d)
                # the RIB nodes the insert adds (see delta): inlined for the usual cases
                if d == 24 and m != DEEP or d < 24 and not (
                        m24[b0:b0 + (1 << (24 - d))].translate(None, low[d + 1]) if d > 16 else self.inside(net, d)):
                    if pd < 0:
                        nodes = 8 if count else 4
                    else:
                        q = pd + 1
                        if q > 16:
                            a = (net & mask[q]) >> 8
                            hit = m24[a] > q if q == 24 else m24[a:a + (1 << (24 - q))].translate(None, low[q + 1])
                        else:
                            hit = self.inside(net, q)
                        nodes = 8 if hit else 4
                else:
                    nodes = self.delta(net, d, pd, True) << 2
                tab[slot] = v  # type: ignore[index]
                count += 1
                if pd >= 0 and rt[pd][net >> (32 - pd)] == v:  # type: ignore[index]
                    same = True
                    nodes |= SAME
                else:
                    same = False
                enc = d + 1
                if d == 24:
                    if m < 25:
                        m24[b0] = 25
                    elif m == DEEP:
                        self.shallow_blocks(i, net, d, v - 1, not same, False)
                else:
                    b1 = b0 + (1 << (24 - d))
                    seg = m24[b0:b1]
                    if seg.find(DEEP) >= 0:
                        self.shallow_blocks(i, net, d, v - 1, not same, False)
                    m24[b0:b1] = seg.translate(up[enc])
                if net == mask[d] and not same and self.clobbers(net, d):
                    raise Clobbered(i)
                if d >= 16:
                    if m16[net >> 16] < enc:
                        m16[net >> 16] = enc
                else:
                    s = net >> 16
                    e = s + (1 << (16 - d))
                    m16[s:e] = m16[s:e].translate(up[enc])
                if d >= 8:
                    if m8[net >> 24] < enc:
                        m8[net >> 24] = enc
                else:
                    s = net >> 24
                    e = s + (1 << (8 - d))
                    m8[s:e] = m8[s:e].translate(up[enc])
                codes_append(nodes)
        self.count = count
        trace.in_use, trace.rsvd = self.in_use, self.rsvd
        trace.distinct = count
        return trace
