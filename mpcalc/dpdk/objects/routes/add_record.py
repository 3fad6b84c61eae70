"""What a replay of rte_fib_add / rte_fib6_add records, compactly, and the per-route figures made from it.

A replay (``.fast4`` for DIR24_8, ``.fast6`` for the trie, or the line-by-line reference of ``.dir24_8`` /
``.trie``) records one byte per route, :data:`KIND` in its low two bits and, for a new route, the RIB nodes its
``rte_rib_insert`` adds in the next two (0: it validated an intermediate node, after a transient second
allocation; 1: a leaf or a parent; 2: a leaf and the intermediate node of its branch;
v22.11.11:lib/rib/rte_rib.c:238-342).  The tbl8 figures change only at a few routes (an add that allocates
or frees a group, or tests the reservation): those are *events*, ``(route, tbl8s needed, reservation
needed, groups in use after)``; every other route needs the groups in use before it (``g.peak`` reset to
``in_use``) and no reservation.  :class:`Trace` turns both into the per-route arrays of
:class:`~mpcalc.dpdk.objects.routes.planner.RoutePlan` on demand, so a million-route plan holds a megabyte, not four
tuples of a million Python ints.

Pure Python, stdlib only (no click, no rich).
"""

from __future__ import annotations

from array import array
from collections.abc import Iterator, Sequence
from itertools import accumulate
from typing import overload

#: kind codes (the low two bits of a route's byte)
NEW, SAME, DUP, REPLACE = 0, 1, 2, 3
KIND = ("new", "same-as-parent", "duplicate", "replace")
#: byte -> kind code, byte -> RIB nodes added, byte -> 1 for a new route (new or same-as-parent)
_KIND_OF = bytes(b & 3 for b in range(256))
_DELTA_OF = bytes((b >> 2) & 3 if b & 3 < DUP else 0 for b in range(256))
_REUSE_OF = bytes(1 if b & 3 < DUP and (b >> 2) & 3 == 0 else 0 for b in range(256))
_NEW_OF = bytes(1 if b & 3 < DUP else 0 for b in range(256))


class Kinds(Sequence[str]):
    """The kinds of the routes, read off the trace's bytes (``"new"``, ``"same-as-parent"``, ...)."""

    def __init__(self, codes: bytes | bytearray) -> None:
        self._codes = bytes(codes).translate(_KIND_OF)

    def __len__(self) -> int:
        return len(self._codes)

    @overload
    def __getitem__(self, i: int) -> str: ...
    @overload
    def __getitem__(self, i: slice) -> Sequence[str]: ...
    def __getitem__(self, i: int | slice) -> str | Sequence[str]:
        if isinstance(i, slice):
            return [KIND[c] for c in self._codes[i]]
        return KIND[self._codes[i]]

    def __iter__(self) -> Iterator[str]:
        return (KIND[c] for c in self._codes)

    def count(self, value: object) -> int:
        return self._codes.count(KIND.index(value)) if isinstance(value, str) and value in KIND else 0

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Kinds):
            return self._codes == other._codes
        if isinstance(other, (tuple, list)):
            return len(other) == len(self) and all(a == b for a, b in zip(self, other, strict=True))
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._codes)

    def __repr__(self) -> str:
        return f"Kinds({len(self)} routes)"


class Trace:
    """One replay's record: a byte per route and the tbl8 events (see the module docstring)."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.codes = bytearray()
        self.ev_route: list[int] = []
        self.ev_peak: list[int] = []
        self.ev_rsvd: list[int] = []
        self.ev_after: list[int] = []
        self.in_use = 0  #: groups in use at the end
        self.rsvd = 0  #: rsvd_tbl8s at the end
        self.distinct = 0
        self.clobbers: list[int] = []

    def event(self, i: int, peak: int, rsvd_need: int, after: int) -> None:
        self.ev_route.append(i)
        self.ev_peak.append(peak)
        self.ev_rsvd.append(rsvd_need)
        self.ev_after.append(after)

    # -- the per-route arrays -------------------------------------------------------------------------------

    def tbl8_need(self) -> array[int]:
        """Per route: the most groups in use during its add (``g.peak``)."""
        out = array("Q", bytes(8 * self.n))
        prev, level = 0, 0
        for i, peak, after in zip(self.ev_route, self.ev_peak, self.ev_after, strict=True):
            if i > prev and level:
                out[prev:i] = array("Q", [level]) * (i - prev)
            out[i] = peak
            prev, level = i + 1, after
        if self.n > prev and level:
            out[prev:] = array("Q", [level]) * (self.n - prev)
        return out

    def rsvd_need(self) -> array[int]:
        """Per route: the tbl8 count its reservation test needs (0: none)."""
        out = array("Q", bytes(8 * self.n))
        for i, need in zip(self.ev_route, self.ev_rsvd, strict=True):
            out[i] = need
        return out

    def rib_need(self) -> array[int]:
        """Per route: the RIB nodes in use when its insert allocates the most (0 for a duplicate or a
        replacement, which insert nothing): the nodes before it plus one, or after it if more."""
        codes = bytes(self.codes)
        after = accumulate(codes.translate(_DELTA_OF))
        reuse = codes.translate(_REUSE_OF)
        new = codes.translate(_NEW_OF)
        return array("Q", [(a + r) * f for a, r, f in zip(after, reuse, new, strict=True)])

    def rib_nodes(self) -> int:
        """RIB nodes in use at the end."""
        return sum(bytes(self.codes).translate(_DELTA_OF))

    def rib_peak(self) -> int:
        """The most RIB nodes in use at once: the final count, plus one if the last insert that added
        anything came before a validation of an intermediate node (whose transient node then tops it)."""
        codes = bytes(self.codes)
        nodes = sum(codes.translate(_DELTA_OF))
        reuse = codes.translate(_REUSE_OF)
        last_reuse = reuse.rfind(1)
        if last_reuse < 0:
            return nodes
        delta = codes.translate(_DELTA_OF)
        grown_after = any(delta[last_reuse + 1 :])
        return nodes + (0 if grown_after else 1)

    def kinds(self) -> Kinds:
        return Kinds(self.codes)

    def count(self, kind: int) -> int:
        return bytes(self.codes).translate(_KIND_OF).count(kind)

    def tbl8_peak(self) -> int:
        return max(self.ev_peak, default=0)

    def rsvd_peak(self) -> int:
        return max(self.ev_rsvd, default=0)
