"""A route list held as columns (a few bytes a route), and the plain route file read in bulk.

:class:`RouteTable` keeps networks (``array('I')`` for IPv4, a list of ints for IPv6), depths (a
bytearray), next hops and source line numbers as columns; a :class:`~mpcalc.dpdk.objects.routes.parse.Route` is
made only when one is asked for (the route a report names).  :class:`TableBuilder` appends to one.

:func:`parse_plain` reads the plain format of ``.parse`` a chunk of text at a time.  A chunk whose every
line is ``PREFIX/DEPTH NEXTHOP`` (one space) or every line ``PREFIX/DEPTH`` goes through C-level bulk
operations (``str.split``, ``socket.inet_pton``, ``array``): about a microsecond a route.  Any other
chunk, or one with a bad line, goes through ``.parse.parse_routes`` line by line, which also words the
error (``file:line: 'text' is not an IPv4 prefix``): both paths accept exactly the same lines.

Pure Python, stdlib only (no click, no rich).
"""

from __future__ import annotations

import socket
import sys
from array import array
from collections.abc import Iterable, Iterator, Sequence
from itertools import repeat
from operator import and_

from mpcalc.dpdk.core.errors import InputError
from mpcalc.dpdk.objects.routes.parse import _WIDTH, Route, parse_routes

_DEPTH = {4: {str(d): d for d in range(33)}, 6: {str(d): d for d in range(129)}}
_MASK4 = [0xFFFFFFFF ^ ((1 << (32 - d)) - 1) for d in range(33)]
_FULL6 = (1 << 128) - 1
_MASK6 = [_FULL6 ^ ((1 << (128 - d)) - 1) for d in range(129)]


class RouteTable(Sequence[Route]):
    """Routes as columns.  ``next_hops`` is None when no route has one; else a next hop per route, None
    where a line gives none.  ``lines`` is None when route i is on line i + 1."""

    def __init__(
        self,
        family: int,
        nets: Sequence[int],
        depths: bytearray,
        next_hops: Sequence[int | None] | None = None,
        lines: Sequence[int] | None = None,
        source: str = "",
    ) -> None:
        self.family = family
        self.nets = nets
        self.depths = depths
        self.next_hops = next_hops
        self.lines = lines
        self.source = source
        self.format = "plain"  #: the format it was read in (mpcalc.dpdk.objects.routes.sources.FORMATS)

    def __len__(self) -> int:
        return len(self.depths)

    def _route(self, i: int) -> Route:
        nh = None if self.next_hops is None else self.next_hops[i]
        line = i + 1 if self.lines is None else self.lines[i]
        return Route(network=self.nets[i], depth=self.depths[i], next_hop=nh, line=line)

    def __getitem__(self, i):  # type: ignore[no-untyped-def]
        if isinstance(i, slice):
            return [self._route(j) for j in range(*i.indices(len(self)))]
        if i < 0:
            i += len(self)
        if not 0 <= i < len(self):
            raise IndexError(i)
        return self._route(i)

    def __iter__(self) -> Iterator[Route]:
        return (self._route(i) for i in range(len(self)))

    def columns(self, default: int) -> tuple[Sequence[int], bytearray, array[int]]:
        """(networks, depths, next-hop ids + 1): what the replays read (see :func:`next_hop_ids`)."""
        n = len(self)
        nhs = self.next_hops
        if nhs is None:  # every route a next hop of its own
            return self.nets, self.depths, array("I", range(2, n + 2))
        if isinstance(nhs, array):
            return self.nets, self.depths, next_hop_ids(nhs, default)
        values = [-(i + 1) if h is None else h for i, h in enumerate(nhs)]
        return self.nets, self.depths, next_hop_ids(values, default)

    def next_hop_above(self, limit: int) -> int:
        """The first route whose next hop exceeds ``limit`` (len if none)."""
        nhs = self.next_hops
        if nhs is None:
            return len(self)
        for i, h in enumerate(nhs):
            if h is not None and h > limit:
                return i
        return len(self)


class TableBuilder:
    """Appends columns chunk by chunk; :meth:`table` hands the result over."""

    def __init__(self, family: int, source: str) -> None:
        if family not in _WIDTH:
            raise InputError(f"address family must be 4 or 6, not {family!r}", param="family")
        self.family = family
        self.source = source
        self.nets: array[int] | list[int] = array("I") if family == 4 else []
        self.depths = bytearray()
        self.nhs: array[int] | list[int | None] | None = None
        self.lines: array[int] | None = None
        self.count = 0

    def add(
        self,
        nets: Iterable[int],
        depths: bytes | bytearray,
        nhs: Sequence[int | None] | None,
        lines: Sequence[int] | None,
        first_line: int,
    ) -> None:
        """Append routes; ``lines`` None: route k of this chunk is on line first_line + k."""
        n = len(depths)
        before = self.count
        if lines is None and self.lines is None and first_line != before + 1:
            self.lines = array("I", range(1, before + 1))
        if self.lines is not None:
            self.lines.extend(range(first_line, first_line + n) if lines is None else lines)
        elif lines is not None:
            self.lines = array("I", range(1, before + 1))
            self.lines.extend(lines)
        self.nets.extend(nets)
        self.depths += depths
        if nhs is None:
            if self.nhs is not None:
                self.nhs.extend(repeat(None, n))  # type: ignore[arg-type]
        else:
            if self.nhs is None:
                self.nhs = array("Q") if isinstance(nhs, array) else [None] * before
                if before and isinstance(self.nhs, array):
                    self.nhs = [None] * before
            if isinstance(self.nhs, array) and not isinstance(nhs, array):
                self.nhs = list(self.nhs)
            self.nhs.extend(nhs)  # type: ignore[arg-type]
        self.count += n

    def add_routes(self, routes: Sequence[Route]) -> None:
        nhs = [r.next_hop for r in routes]
        self.add(
            [r.network for r in routes],
            bytes(r.depth for r in routes),
            None if all(h is None for h in nhs) else nhs,
            [r.line for r in routes],
            0,
        )

    def table(self) -> RouteTable:
        return RouteTable(self.family, self.nets, self.depths, self.nhs, self.lines, self.source)


class Gather:
    """Routes appended one at a time to a :class:`TableBuilder`, 65,536 at a time: host bits already masked,
    next hops numbered from 1 in order of appearance (only their equality matters to DPDK), and with
    ``dedup`` the first route of each prefix kept (a route dump lists a prefix once per peer)."""

    def __init__(self, builder: TableBuilder, dedup: bool) -> None:
        self.builder = builder
        self.seen: set[int] | None = set() if dedup else None
        self.hops: dict[object, int] = {}
        self._reset()

    def _reset(self) -> None:
        self.nets: list[int] = []
        self.depths = bytearray()
        self.nhs = array("Q")
        self.lines = array("I")

    def add(self, net: int, depth: int, hop: object, line: int) -> None:
        if self.seen is not None:
            key = net << 8 | depth
            if key in self.seen:
                return
            self.seen.add(key)
        self.nets.append(net)
        self.depths.append(depth)
        self.nhs.append(self.hops.setdefault(hop, len(self.hops) + 1))
        self.lines.append(line)
        if len(self.depths) >= 1 << 16:
            self.flush()

    def flush(self) -> None:
        if self.depths:
            self.builder.add(self.nets, self.depths, self.nhs, self.lines, 0)
            self._reset()


def _bulk(text: str, family: int) -> tuple[Sequence[int], bytes, array[int] | None] | None:
    """Columns of a chunk in the canonical shape (every line ``PREFIX/DEPTH NH`` with one space, or
    every line ``PREFIX/DEPTH``; no comment, no blank line), or None to read it line by line."""
    if "#" in text or "\n\n" in text or "  " in text or " \n" in text or "\n " in text:
        return None
    if text.startswith((" ", "\n")) or text.endswith(" "):
        return None
    lines = text.split("\n")
    if lines and not lines[-1]:
        lines.pop()
    n = len(lines)
    if not n or list(map(str.count, lines, repeat("/"))).count(1) != n:
        return None
    spaces = list(map(str.count, lines, repeat(" ")))
    if spaces.count(1) == n:
        with_nh = True
    elif spaces.count(0) == n:
        with_nh = False
    else:
        return None
    toks = text.replace("/", " ").split()
    step = 3 if with_nh else 2
    if len(toks) != step * n:
        return None
    try:
        depth_of = _DEPTH[family]
        depths = bytes(map(depth_of.__getitem__, toks[1::step]))
        af = socket.AF_INET if family == 4 else socket.AF_INET6
        packed = b"".join(map(socket.inet_pton, repeat(af, n), toks[0::step]))
        nhs = None
        if with_nh:
            nh_text = toks[2::step]
            if not "".join(nh_text).isdigit():  # ASCII digits only (the text decoded as ASCII)
                return None
            nhs = array("Q", map(int, nh_text))  # OverflowError above 2^64-1
    except (KeyError, OSError, ValueError, OverflowError):
        return None
    if family == 4:
        raw = array("I")
        raw.frombytes(packed)
        if sys.byteorder == "little":
            raw.byteswap()
        nets: Sequence[int] = array("I", map(and_, raw, map(_MASK4.__getitem__, depths)))
    else:
        words = array("Q")
        words.frombytes(packed)
        if sys.byteorder == "little":
            words.byteswap()
        nets = [(h << 64 | lo) & _MASK6[d] for h, lo, d in zip(words[0::2], words[1::2], depths, strict=True)]
    return nets, depths, nhs


def parse_plain(text: str, family: int, builder: TableBuilder, first_line: int = 1) -> int:
    """Append the routes of ``text`` (whole lines, the first one numbered ``first_line``); returns the
    number of lines read."""
    cols = _bulk(text, family) if text.isascii() else None
    if cols is not None:
        nets, depths, nhs = cols
        builder.add(nets, depths, nhs, None, first_line)
        return len(depths)
    lines = text.splitlines()
    builder.add_routes(parse_routes(lines, family, source=builder.source, start=first_line))
    return len(lines)


def next_hop_ids(values: Sequence[int], default: int) -> array[int]:
    """Small ids for next hops, plus one: equal for equal values, 1 for ``default`` (DPDK only compares
    them; 0 is left for "no route")."""
    uniq = dict.fromkeys(values)
    uniq.pop(default, None)
    ids = dict(zip(uniq, range(2, len(uniq) + 2), strict=True))
    ids[default] = 1
    return array("I", map(ids.__getitem__, values))
