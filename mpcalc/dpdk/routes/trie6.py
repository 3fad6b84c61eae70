"""The TRIE data plane of rte_fib6 with groups kept sparse: install_to_dp and what it calls, exactly.

A port of v22.11.11:lib/fib/trie.c:install_to_dp (359-433) with build_common_root (284-314), write_edge
(316-353), recycle_root_path (265-282) and tbl8_recycle (172-226).  The ``.trie`` replay holds each tbl8
group as a list of 256 entries and each pointer as a group index; here a group is the node it covers (the
address bits above it, at depth 24 + 8 j for level j), its entries palette codes (a bytearray of 256 and
a short list of values), and a pointer is the value :data:`PTR` (the child is the entry's node one level
down).  Which index DPDK hands a group out of its pool does not change a count, and a group is never
uniform while it holds a pointer (tbl8_recycle refuses one whose first entry is a pointer, and two
pointers always differ), so nothing is lost.  A route's next hop is its id + 1 (1: the default next hop,
0 is :data:`PTR`).

Pure Python, stdlib only (no click, no rich).
"""

from __future__ import annotations

from array import array

from .groups import zeroed_u32

PTR = 0  #: an entry that points to the group one level down (TRIE_EXT_ENT)
_FULL = (1 << 128) - 1
_BYTE = [bytes((c,)) for c in range(256)]


class _Group:
    __slots__ = ("codes", "pal")

    def __init__(self, fill: int) -> None:
        self.codes = bytearray(256)
        self.pal = [fill]

    def get(self, e: int) -> int:
        return self.pal[self.codes[e]]

    def set(self, lo: int, n: int, value: int) -> None:
        """Entries [lo, lo + n) = value."""
        if n <= 0:
            return
        pal, codes = self.pal, self.codes
        try:
            code = pal.index(value)
        except ValueError:
            if len(pal) == 256:  # recode what stays: at most 255 values outside [lo, lo + n)
                keep = sorted(set(codes[:lo]) | set(codes[lo + n:]))
                table = bytearray(256)
                for new, old in enumerate(keep):
                    table[old] = new
                codes[:] = codes.translate(table)
                pal[:] = [pal[c] for c in keep]
            code = len(pal)
            pal.append(value)
        if n == 1:
            codes[lo] = code
        else:
            codes[lo:lo + n] = _BYTE[code] * n

    def uniform(self) -> int:
        """tbl8_recycle's test: the value all 256 entries hold, or PTR if they differ or point."""
        codes = self.codes
        value = self.pal[codes[0]]
        if value == PTR or codes.count(codes[0]) != 256:
            return PTR
        return value


class TrieDP:
    """The tables of one rte_fib6 trie: a tbl24 and the groups per level (node -> group)."""

    def __init__(self) -> None:
        # every entry the default next hop (trie.c:656), 1: held as value ^ 1, so that it starts zeroed
        self.tbl24 = zeroed_u32(1 << 24)
        self.levels: list[dict[int, _Group]] = [{} for _ in range(13)]
        self.in_use = 0
        self.peak = 0

    # an entry is (level, node, index): level -1 is the tbl24 (node 0), else the group levels[level][node]

    def read(self, level: int, node: int, e: int) -> int:
        if level < 0:
            return self.tbl24[e] ^ 1
        return self.levels[level][node].pal[self.levels[level][node].codes[e]]

    def write(self, level: int, node: int, e: int, value: int, n: int = 1) -> None:  # write_to_dp
        if level < 0:
            if n == 1:
                self.tbl24[e] = value ^ 1
            elif n > 0:
                self.tbl24[e:e + n] = array("I", [value ^ 1]) * n
        else:
            self.levels[level][node].set(e, n, value)

    def child(self, level: int, node: int, e: int, value: int) -> int:
        """The node one level below entry e; with a value there, tbl8_alloc a group filled with it
        (trie.c:145-160) and point the entry to it."""
        below = e if level < 0 else node << 8 | e
        if value != PTR:
            self.levels[level + 1][below] = _Group(value)
            self.in_use += 1
            if self.in_use > self.peak:
                self.peak = self.in_use
        return below

    def recycle(self, level: int, node: int) -> int:
        """tbl8_recycle: free the group if uniform; its value, else PTR."""
        grp = self.levels[level][node]
        value = grp.uniform()
        if value != PTR:
            del self.levels[level][node]
            self.in_use -= 1
        return value

    def write_edge(self, ip: int, pos: int, value: int, ln: int, ledge: bool, level: int, node: int,
                   e: int) -> None:  # write_edge (trie.c:316-353)
        val = value
        if ln:
            val = self.read(level, node, e)
            sub = self.child(level, node, e, val)
            val = PTR
            b = ip >> (120 - 8 * pos) & 255
            self.write_edge(ip, pos + 1, value, ln - 1, ledge, level + 1, sub, b)
            grp = self.levels[level + 1][sub]
            if ledge:
                grp.set(b + 1, 255 - b, value)
            else:
                grp.set(0, b, value)
            uni = self.recycle(level + 1, sub)
            if uni != PTR:
                val = uni
        self.write(level, node, e, val)

    def recycle_root_path(self, ip: int, pos: int, common_tbl8: int, level: int, node: int,
                          e: int) -> None:  # recycle_root_path (trie.c:265-282)
        if self.read(level, node, e) != PTR:
            return
        sub = e if level < 0 else node << 8 | e
        if common_tbl8:
            self.recycle_root_path(ip, pos + 1, common_tbl8 - 1, level + 1, sub, ip >> (120 - 8 * pos) & 255)
        uni = self.recycle(level + 1, sub)
        if uni != PTR:
            self.write(level, node, e, uni)

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
