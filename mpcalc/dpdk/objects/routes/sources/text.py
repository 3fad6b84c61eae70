"""Route tables in text: ``ip route``, BIRD ``show route``, ``bgpdump -m``, FRR ``show ip route json``.

Each reader yields ``(line, address, depth, next hop)`` for the routes of one address family (depth None:
a host route); :func:`collect` turns those into columns.  A line that is not a route (a header, a
banner, an attribute of ``show route all``, a withdrawal) is skipped; a route whose prefix does not
parse is an error naming its line.

Pure Python, stdlib only (no click, no rich).
"""

from __future__ import annotations

import json
import re
import socket
from collections.abc import Iterable, Iterator

from mpcalc.dpdk.core.errors import InputError
from mpcalc.dpdk.core.limits import check_json_depth, cut, quote
from mpcalc.dpdk.objects.routes.route_table import Gather, TableBuilder

Row = tuple[int, str, int | None, object]
Lines = Iterable[tuple[int, str]]

#: first words of ``ip route`` lines that are not an address
IP_FIRST_WORDS = frozenset(
    {
        "default",
        "unicast",
        "local",
        "broadcast",
        "multicast",
        "blackhole",
        "unreachable",
        "prohibit",
        "throw",
        "nat",
        "anycast",
    }
)
_IP_TYPES = IP_FIRST_WORDS - {"default"}
#: what says a text is BIRD's
BIRD_MARK = re.compile(
    r"^(BIRD \d|Table \w+:|\S+/\d+\s+(unicast|blackhole|unreachable|prohibit)\s+\[|"
    r"\S+/\d+\s+via \S+ on \S+ \[)"
)
_FAMILY_SEP = {4: ".", 6: ":"}


def _family(addr: str) -> int:
    return 6 if ":" in addr else 4


# -- ip route -----------------------------------------------------------------------------------------------


def ip_route(lines: Lines, family: int, source: str) -> Iterator[Row]:
    """``ip [-6] route [show table ...]`` (iproute2): ``[TYPE] PREFIX|default [via ADDR] [dev NAME] ...``;
    a multipath route lists its hops on the ``nexthop`` lines that follow it."""
    pending: tuple[int, str, int | None, list[str]] | None = None
    depth: int | None
    for number, line in lines:
        words = line.split()
        if not words or words[0].startswith("#"):
            continue
        if words[0] == "nexthop":
            if pending is not None:
                pending[3].append(" ".join(_hop(words[1:])))
            continue
        if pending is not None:
            yield pending[0], pending[1], pending[2], tuple(pending[3])
            pending = None
        kind = "unicast"
        if words[0] in _IP_TYPES:
            kind, words = words[0], words[1:]
        if not words:
            raise InputError(f"{source}:{number}: {line.strip()!r} has no prefix", param=source)
        dest = words[0]
        hop = _hop(words[1:])
        if dest == "default":
            via = next((h.split()[1] for h in hop if h.startswith("via ")), None)
            if via is not None and _family(via) != family and "inet" not in line.split():
                continue  # an IPv6 default route in ip -6 route output (or the reverse)
            addr, depth = ("0.0.0.0" if family == 4 else "::"), 0
        else:
            addr, slash, d = dest.partition("/")
            if _family(addr) != family:
                continue
            depth = (int(d) if d.isdigit() else -1) if slash else None
        pending = (number, addr, depth, [kind, " ".join(hop)])
    if pending is not None:
        yield pending[0], pending[1], pending[2], tuple(pending[3])


def _hop(words: list[str]) -> list[str]:
    """The words of a route that name its next hop: ``via [inet|inet6] ADDR``, ``dev NAME``, ``nhid N``."""
    out = []
    for i, w in enumerate(words):
        if w in ("via", "dev", "nhid") and i + 1 < len(words):
            nxt = words[i + 1]
            if nxt in ("inet", "inet6") and i + 2 < len(words):
                nxt = words[i + 2]
            out.append(f"{w} {nxt}")
    return out


# -- BIRD ---------------------------------------------------------------------------------------------------

_BIRD_HOP = re.compile(r"\b(via \S+(?: on \S+)?|dev \S+)")
_BIRD_KIND = re.compile(r"^\s*(unicast|blackhole|unreachable|prohibit)\b")


def bird(lines: Lines, family: int, source: str) -> Iterator[Row]:
    """BIRD ``show route [all]`` (1.x: ``PREFIX via ADDR on IF [proto ...] * ...``; 2.x: ``PREFIX unicast
    [proto ...] * ...`` then indented ``via ADDR on IF`` lines).  A prefix's first route is its best; the
    prefix's other routes (indented lines with their own ``[proto ...]``) and the attribute lines of
    ``show route all`` are skipped."""
    current: tuple[int, str, int | None, list[str]] | None = None
    best = False  # the indented hop lines that follow belong to the prefix's first route
    for number, line in lines:
        if not line.strip():
            continue
        if not line[0].isspace():
            head = line.split()[0]
            if "/" not in head:
                continue  # "Table master4:", a banner
            if current is not None:
                yield current[0], current[1], current[2], tuple(current[3])
            addr, _, d = head.partition("/")
            if _family(addr) != family:
                current, best = None, False
                continue
            rest = line[len(head) :]
            kind = _BIRD_KIND.match(rest)
            hops = [] if kind is None else [kind.group(1)]
            hops += _BIRD_HOP.findall(rest.split("[", 1)[0])
            current = (number, addr, int(d) if d.isdigit() else -1, hops)
            best = True
            continue
        if current is None:
            continue
        stripped = line.strip()
        if "[" in stripped:
            best = False  # another route of the same prefix
        elif best and stripped.startswith(("via ", "dev ")):
            current[3].extend(_BIRD_HOP.findall(stripped))
    if current is not None:
        yield current[0], current[1], current[2], tuple(current[3])


# -- bgpdump -m ---------------------------------------------------------------------------------------------


def bgpdump(lines: Lines, family: int, source: str) -> Iterator[Row]:
    """``bgpdump -m``: ``TYPE|TIME|B|PEER|PEER_AS|PREFIX|AS_PATH|ORIGIN|NEXT_HOP|...``.  RIB entries (B)
    and announcements (A) are routes; withdrawals (W) and state changes are skipped."""
    sep = _FAMILY_SEP[family]
    for number, line in lines:
        fields = line.split("|")
        if len(fields) < 9 or fields[2] not in ("B", "A"):
            continue
        prefix = fields[5]
        addr, _, d = prefix.partition("/")
        if sep not in addr or (family == 4 and ":" in addr):
            continue
        yield number, addr, int(d) if d.isdigit() else -1, fields[8]


# -- FRR JSON -----------------------------------------------------------------------------------------------

_WS = re.compile(r"\s*")


def _entries(lines: Lines, source: str) -> Iterator[tuple[int, str, object]]:
    """(line, key, value) of the members of a JSON object, decoded one at a time (the text is held, not a
    full table's worth of Python objects): ``{"PREFIX": [ROUTES], ...}``, or a VRF level above."""
    text = "\n".join(line for _n, line in lines)
    decoder = json.JSONDecoder()

    def bad(why: str) -> InputError:
        return InputError(f"{source}:{1 + text.count(chr(10), 0, pos)}: {why} (FRR show ip route json)", param=source)

    check_json_depth(text, source)  # before the decoder recurses into it
    pos = _WS.match(text).end()  # type: ignore[union-attr]
    if not text.startswith("{", pos):
        raise bad("not a JSON object")
    pos += 1
    line, last = 1, 0
    while True:
        pos = _WS.match(text, pos).end()  # type: ignore[union-attr]
        if text.startswith("}", pos):
            return
        if text.startswith(",", pos):
            pos = _WS.match(text, pos + 1).end()  # type: ignore[union-attr]
        try:
            start = pos
            key, pos = decoder.raw_decode(text, pos)
            pos = _WS.match(text, pos).end()  # type: ignore[union-attr]
            if not isinstance(key, str) or not text.startswith(":", pos):
                raise bad("malformed JSON")
            value, pos = decoder.raw_decode(text, _WS.match(text, pos + 1).end())  # type: ignore[union-attr]
        except json.JSONDecodeError as exc:
            raise bad(f"malformed JSON: {exc.msg}") from exc
        line += text.count("\n", last, start)
        last = start
        yield line, key, value


def frr_json(lines: Lines, family: int, source: str) -> Iterator[Row]:
    """FRR ``show ip route [vrf all] json``: each prefix's selected route (else its first), next hops
    from its active hops (address, interface, or the hop's type: blackhole, unreachable, ...).  A prefix's
    value must be a list of route objects, a route's ``nexthops`` a list of objects: anything else is an
    error naming its line and quoting the value."""
    for number, key, value in _entries(lines, source):
        # a VRF's members are the prefixes
        items = list(value.items()) if isinstance(value, dict) else [(key, value)]
        for prefix, routes in items:
            if "/" not in prefix:
                continue
            if not isinstance(routes, list) or not routes or not all(isinstance(r, dict) for r in routes):
                raise _frr_bad(source, number, f"{prefix}'s routes are not a list of route objects", routes)
            addr, _, d = prefix.partition("/")
            if _family(addr) != family:
                continue
            route = next((r for r in routes if r.get("selected")), routes[0])
            nexthops = route.get("nexthops", [])
            if not isinstance(nexthops, list) or not all(isinstance(h, dict) for h in nexthops):
                raise _frr_bad(source, number, f"{prefix}'s nexthops are not a list of objects", nexthops)
            hops = []
            for hop in nexthops:
                if hop.get("active", True):
                    hops.append(
                        str(
                            hop.get("ip")
                            or hop.get("interfaceName")
                            or hop.get("type")
                            or ("blackhole" if hop.get("blackhole") else "connected")
                        )
                    )
            yield number, addr, int(d) if d.isdigit() else -1, tuple(hops)


def _frr_bad(source: str, line: int, why: str, value: object) -> InputError:
    return InputError(f"{source}:{line}: {why}: {quote(value)} (FRR show ip route json)", param=source)


# -- the columns --------------------------------------------------------------------------------------------


def collect(rows: Iterable[Row], family: int, builder: TableBuilder, *, dedup: bool = False) -> None:
    """Append routes to ``builder``: addresses parsed (as ``.parse`` reads them), host bits masked,
    next hops numbered from 1 in order of appearance; ``dedup`` keeps a prefix's first route only."""
    width = 32 if family == 4 else 128
    af = socket.AF_INET if family == 4 else socket.AF_INET6
    full = (1 << width) - 1
    masks = [full ^ ((1 << (width - d)) - 1) for d in range(width + 1)]
    routes = Gather(builder, dedup)
    source = builder.source
    for number, addr, depth, hop in rows:
        if depth is None:
            depth = width
        try:
            if not 0 <= depth <= width:
                raise ValueError
            net = int.from_bytes(socket.inet_pton(af, addr), "big") & masks[depth]
        except (OSError, ValueError):
            prefix = cut(f"{addr}/{depth}")
            raise InputError(f"{source}:{number}: {prefix} is not an IPv{family} prefix", param=source) from None
        routes.add(net, depth, hop, number)
    routes.flush()
