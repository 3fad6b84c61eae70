"""The TRIE data plane of rte_fib6 with groups kept sparse: install_to_dp and what it calls, exactly.

A port of v22.11.11:lib/fib/trie.c:install_to_dp (359-433) with build_common_root (284-314), write_edge
(316-353), recycle_root_path (265-282) and tbl8_recycle (172-226).  The ``.trie`` replay holds each tbl8
group as a list of 256 entries and each pointer as a group index; here a group is the node it covers (the
address bits above it, at depth 24 + 8 j for level j), its entries a dict (the value most hold, and the
entries that differ), and a pointer is the value :data:`PTR` (the child is the entry's node one level
down).  Which index DPDK hands a group out of its pool does not change a count, and a group is never
uniform while it holds a pointer (tbl8_recycle refuses one whose first entry is a pointer, and two
pointers always differ), so nothing is lost.  A route's next hop is its id + 1 (1: the default next hop).

Pure Python, stdlib only (no click, no rich).
"""

from __future__ import annotations

from array import array

from mpcalc.dpdk.objects.routes.groups import zeroed_u32

PTR = 0xFFFFFFFF  #: an entry that points to the group one level down (TRIE_EXT_ENT)
FILL = -1  #: the key of a group's fill value
_FULL = (1 << 128) - 1

# A tbl8 group is a dict: FILL -> the value most entries hold, entry -> value for the entries that hold
# another one.  Next hops are ids + 1 (>= 1) and PTR is not 0, so ``grp.get(e) or grp[FILL]`` reads.


def gset(grp: dict[int, int], lo: int, n: int, value: int) -> None:
    """Entries [lo, lo + n) of a group = value."""
    if n > 128:  # most entries: the value becomes the fill, the entries outside the range the exceptions
        fill = grp[FILL]
        keep = [(e, grp.get(e) or fill) for e in (*range(lo), *range(lo + n, 256))]
        grp.clear()
        grp[FILL] = value
        grp.update((e, v) for e, v in keep if v != value)
    elif value == grp[FILL]:
        for e in range(lo, lo + n):
            grp.pop(e, None)
    else:
        for e in range(lo, lo + n):
            grp[e] = value


def uniform(grp: dict[int, int]) -> int:
    """tbl8_recycle's test (trie.c:172-226): the value all 256 entries hold, or PTR if they differ or the
    first one points."""
    if len(grp) == 1:
        return grp[FILL]
    if len(grp) == 257:  # every entry differs from the fill value: do they agree with each other?
        first = grp[0]
        if all(v == first for e, v in grp.items() if e != FILL):
            return first
    return PTR


class TrieDP:
    """The tables of one rte_fib6 trie: a tbl24 and the groups per level (node -> group)."""

    def __init__(self) -> None:
        # every entry the default next hop (trie.c:656), 1: held as value ^ 1, so that it starts zeroed
        self.tbl24 = zeroed_u32(1 << 24)
        self.levels: list[dict[int, dict[int, int]]] = [{} for _ in range(13)]
        self.in_use = 0
        self.peak = 0

    # an entry is (level, node, index): level -1 is the tbl24 (node 0), else the group levels[level][node]

    def read(self, level: int, node: int, e: int) -> int:
        if level < 0:
            return self.tbl24[e] ^ 1
        grp = self.levels[level][node]
        return grp.get(e) or grp[FILL]

    def write(self, level: int, node: int, e: int, value: int, n: int = 1) -> None:  # write_to_dp
        if level < 0:
            if n == 1:
                self.tbl24[e] = value ^ 1
            elif n > 0:
                self.tbl24[e : e + n] = array("I", [value ^ 1]) * n
        else:
            gset(self.levels[level][node], e, n, value)

    def child(self, level: int, node: int, e: int, value: int) -> int:
        """The node one level below entry e; with a value there, tbl8_alloc a group filled with it
        (trie.c:145-160) and point the entry to it."""
        below = e if level < 0 else node << 8 | e
        if value != PTR:
            self.levels[level + 1][below] = {FILL: value}
            self.in_use += 1
            if self.in_use > self.peak:
                self.peak = self.in_use
        return below

    def recycle(self, level: int, node: int) -> int:
        """tbl8_recycle: free the group if uniform; its value, else PTR."""
        value = uniform(self.levels[level][node])
        if value != PTR:
            del self.levels[level][node]
            self.in_use -= 1
        return value

    def write_edge(
        self, ip: int, pos: int, value: int, ln: int, ledge: bool, level: int, node: int, e: int
    ) -> None:  # write_edge (trie.c:316-353)
        val = value
        if ln:
            val = self.read(level, node, e)
            sub = self.child(level, node, e, val)
            val = PTR
            b = ip >> (120 - 8 * pos) & 255
            self.write_edge(ip, pos + 1, value, ln - 1, ledge, level + 1, sub, b)
            grp = self.levels[level + 1][sub]
            if ledge:
                gset(grp, b + 1, 255 - b, value)
            else:
                gset(grp, 0, b, value)
            uni = self.recycle(level + 1, sub)
            if uni != PTR:
                val = uni
        self.write(level, node, e, val)

    def recycle_root_path(
        self, ip: int, pos: int, common_tbl8: int, level: int, node: int, e: int
    ) -> None:  # recycle_root_path (trie.c:265-282)
        if self.read(level, node, e) != PTR:
            return
        sub = e if level < 0 else node << 8 | e
        if common_tbl8:
            self.recycle_root_path(ip, pos + 1, common_tbl8 - 1, level + 1, sub, ip >> (120 - 8 * pos) & 255)
        uni = self.recycle(level + 1, sub)
        if uni != PTR:
            self.write(level, node, e, uni)

    def leaf(self, net: int, d: int, value: int) -> None:
        """:meth:`install` over a whole route net/d that has no more specific route: the same
        allocations, writes and frees, worked out directly.  Below /24, both edges take a group of
        the tbl24 entry for a moment (llen = rlen = 1, trie.c:390-395).  From /24 on, build_common_root
        walks the route's bytes down to byte floor(d/8) (at most 15), the root group's entries of the
        route are written, and recycle_root_path frees the uniform groups from the bottom up, stopping
        at the first that is not (its parent then holds a pointer, so is not uniform either)."""
        if d < 24:
            if self.in_use + 1 > self.peak:
                self.peak = self.in_use + 1
            lo, hi = net >> 104, (net + (1 << (128 - d)) - 1) >> 104
            self.tbl24[lo : hi + 1] = array("I", [value ^ 1]) * (hi - lo + 1)
            return
        c = min(d >> 3, 15)
        levels = self.levels
        path: list[dict[int, int]] = []
        parent: dict[int, int] | None = None
        pe = net >> 104
        val = self.tbl24[pe] ^ 1
        top = c - 2  # groups on the path: levels 0 .. c - 3, the last one the root
        if not d & 7 and d < 128:
            # the root is the route's own node: allocated, filled with the route, found uniform and
            # freed at once (if it had existed, routes would lie below the route); its parent entry
            # ends with the route's value
            top -= 1
        for j in range(top):
            if val != PTR:  # tbl8_alloc, filled with the entry's value, and the entry points to it
                grp = levels[j][net >> (104 - 8 * j)] = {FILL: val}
                self.in_use += 1
                if self.in_use > self.peak:
                    self.peak = self.in_use
                if parent is None:
                    self.tbl24[pe] = PTR ^ 1
                else:
                    gset(parent, pe, 1, PTR)
            else:
                grp = levels[j][net >> (104 - 8 * j)]
            path.append(grp)
            parent = grp
            pe = net >> (96 - 8 * j) & 255
            val = grp.get(pe) or grp[FILL]
        if top < c - 2:  # the transient root
            if self.in_use + 1 > self.peak:
                self.peak = self.in_use + 1
            if parent is None:
                self.tbl24[pe] = value ^ 1
            else:
                gset(parent, pe, 1, value)
        else:
            left = net >> (120 - 8 * c) & 255
            gset(parent, left, 1 if d == 128 else 256 >> (d & 7), value)  # type: ignore[arg-type]
        for j in range(top - 1, -1, -1):
            uni = uniform(path[j])
            if uni == PTR:
                break
            del levels[j][net >> (104 - 8 * j)]
            self.in_use -= 1
            if j:
                gset(path[j - 1], net >> (104 - 8 * j) & 255, 1, uni)
            else:
                self.tbl24[net >> 104] = uni ^ 1

    def install(self, ledge: int, r: int, value: int) -> None:
        """install_to_dp (trie.c:359-433): ``value`` over [ledge, r) (r = 0: to the end)."""
        redge = (r - 1) & _FULL
        x = ledge ^ redge
        common = min(15, (128 - x.bit_length()) >> 3)
        # build_common_root (trie.c:284-314): the groups of the bytes both edges share
        level, node = -1, 0
        for i in range(3, common + 1):
            e = ledge >> 104 if i == 3 else ledge >> (128 - 8 * i) & 255
            val = self.read(level, node, e)
            sub = self.child(level, node, e, val)
            if val != PTR:
                self.write(level, node, e, PTR)
            level, node = level + 1, sub
        first = max(common, 3)
        i = 15
        while i > first and not ledge >> (120 - 8 * i) & 255:
            i -= 1
        llen = i - first + (common < 3)
        i = 15
        while i > first and redge >> (120 - 8 * i) & 255 == 255:
            i -= 1
        rlen = i - first + (common < 3)
        if common < 3:
            left, right = ledge >> 104, redge >> 104
        else:
            left, right = ledge >> (120 - 8 * common) & 255, redge >> (120 - 8 * common) & 255
        pos = first + (common >= 3)
        self.write_edge(ledge, pos, value, llen, True, level, node, left)
        if right > left + 1:
            self.write(level, node, left + 1, value, right - (left + 1))
        self.write_edge(redge, pos, value, rlen, False, level, node, right)
        self.recycle_root_path(ledge, 3, 0 if common < 3 else common - 2, -1, 0, ledge >> 104)
