"""tbl8 accounting shared by both data planes (DIR24_8 and TRIE).

``_Groups`` counts the tbl8 groups DPDK allocates and frees (tbl8_alloc in
v22.11.11:lib/fib/dir24_8.c and lib/fib/trie.c) and holds their contents;
``_tbl24`` is the tbl24 both data planes start with (dir24_8.c:537,
trie.c:656); ``_fill`` writes a run of tbl24 entries.

Pure Python, stdlib only (no click, no rich).
"""

from __future__ import annotations

import mmap
from array import array


class _Groups:
    """The tbl8 groups: contents (256 entries each) and the in-use count.

    Which index DPDK hands out (lowest free bit for dir24_8, a LIFO pool for
    the trie) does not change any count, so indexes are just kept distinct.
    """

    def __init__(self) -> None:
        self.data: dict[int, list[int]] = {}
        self.free: list[int] = []
        self.next = 0
        self.in_use = 0
        self.peak = 0  # the most groups ever in use at once: this add's requirement

    def alloc(self, fill: int) -> int:
        idx = self.free.pop() if self.free else self._fresh()
        self.in_use += 1
        if self.in_use > self.peak:
            self.peak = self.in_use
        self.data[idx] = [fill] * 256
        return idx

    def _fresh(self) -> int:
        self.next += 1
        return self.next - 1

    def put(self, idx: int) -> None:
        del self.data[idx]
        self.free.append(idx)
        self.in_use -= 1


def zeroed(n: int) -> mmap.mmap:
    """n zero bytes, indexable and sliceable like a bytearray: an anonymous mapping, whose pages the
    system zeroes only when first touched (a replay of ten routes does not clear 64 MiB)."""
    return mmap.mmap(-1, max(n, 1))


def zeroed_u32(n: int) -> memoryview:
    """n zero uint32_t, indexable and sliceable like an ``array('I')`` (see :func:`zeroed`)."""
    return memoryview(zeroed(4 * n)).cast("I")


def _tbl24() -> memoryview:
    # both data planes start with every tbl24 entry = def_nh << 1 (dir24_8.c:537,
    # trie.c:656); the default next hop is id 0, so the entry value is 0.
    return zeroed_u32(1 << 24)


def _fill(tbl: memoryview | array[int], start: int, n: int, val: int) -> None:
    if n > 0:
        tbl[start : start + n] = array("I", [val]) * n
