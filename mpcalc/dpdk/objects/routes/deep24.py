"""The tables and the deep blocks of ``.fast4`` (the DIR24_8 replay): byte-translation tables for the
per-/24 summaries, the gap runs of a /24, and a /24 that holds routes longer than /24 (v22.11.11:lib/fib/
dir24_8.c keeps a tbl8 group for it while its entries differ).

Pure Python, stdlib only (no click, no rich).
"""

from __future__ import annotations

_M32 = 0xFFFFFFFF
MASK = [_M32 ^ ((1 << (32 - d)) - 1) for d in range(33)]
DEEP = 33  #: M24 marker of a /24 holding deep routes
_DEEP = bytes((DEEP,))
#: UP[t]: byte -> max(byte, t); LOW[t]: the bytes below t (deleted: what is left is >= t)
UP = [bytes(max(x, t) for x in range(256)) for t in range(34)]
LOW = [bytes(range(t)) for t in range(34)]
#: gap masks: LT[d] marks entries whose deepest deep route is shallower than d (a new route's entries),
#: EQ[d] those whose deepest is d (a replaced route's own), ZERO those with no deep route (a short route's)
LT = [bytes(1 if x < d else 0 for x in range(256)) for d in range(34)]
EQ = [bytes(1 if x == d else 0 for x in range(256)) for d in range(34)]
ZERO = EQ[0]
_BYTE = [bytes((c,)) for c in range(256)]
#: SHIFT[m]: net >> SHIFT[m] is the half of the route of depth m - 1 that holds net
SHIFT = [0] + [32 - m for m in range(1, 34)]
#: FILL[d]: M24 over the /24s of a route of depth d < 24 that covers nothing yet
FILL = [b""] * 12 + [bytes((d + 1,)) * (1 << (24 - d)) for d in range(12, 24)]


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
