"""Route files: ``Route``, ``parse_routes``, ``read_routes``.

``parse_routes`` / ``read_routes`` read one prefix per line::

    # comment
    10.0.0.0/8            # no next hop: all such routes are assumed distinct
    10.1.2.0/24   7       # next hop 7 (an unsigned integer, at most 2^64-1)

Addresses: IPv4 as four decimal octets without leading zeros, IPv6 as the
ipaddress module reads it, without a scope id.  Host bits are accepted and
masked away, as DPDK does (``ip &= mask`` in v22.11.11:lib/fib/dir24_8.c:433
dir24_8_modify, trie.c:542-543 trie_modify), so ``10.1.2.3/24`` is the route
``10.1.2.0/24``.

Pure Python, stdlib only (no click, no rich).
"""

from __future__ import annotations

import ipaddress
import os
from collections.abc import Iterable
from dataclasses import dataclass

from mpcalc.dpdk.core.errors import InputError
from mpcalc.dpdk.core.limits import quote

MAX_FILE_BYTES = 64 << 20  #: read_routes refuses larger files
MAX_LINES = 10_000_000  #: ... and files with more lines
MAX_NEXT_HOP = (1 << 64) - 1  #: rte_fib_add takes a uint64_t next hop
_WIDTH = {4: 32, 6: 128}


@dataclass(frozen=True, kw_only=True, slots=True)
class Route:
    """One line of a route file: ``network`` is the masked address as an int."""

    network: int
    depth: int
    next_hop: int | None = None
    line: int = 0  #: 1-based line number in the source, 0 if not from a file

    def prefix(self, family: int) -> str:
        cls = ipaddress.IPv4Address if family == 4 else ipaddress.IPv6Address
        return f"{cls(self.network)}/{self.depth}"


def _ipv4(text: str) -> int | None:
    """Dotted quad, four decimal octets without leading zeros (what
    ipaddress.IPv4Address and inet_pton accept), or None."""
    parts = text.split(".")
    if len(parts) != 4:
        return None
    value = 0
    for part in parts:
        if not (part.isascii() and part.isdigit()) or len(part) > 3 or (len(part) > 1 and part[0] == "0"):
            return None
        octet = int(part)
        if octet > 255:
            return None
        value = (value << 8) | octet
    return value


def _ipv6(text: str) -> int | None:
    if "%" in text or not text.isascii():  # no scope ids
        return None
    try:
        return int(ipaddress.IPv6Address(text))
    except ValueError:
        return None


def parse_routes(lines: Iterable[str], family: int, *, source: str = "<stdin>", start: int = 1) -> list[Route]:
    """Parse route lines (the first one numbered ``start``); a bad line raises InputError naming
    ``source:line``."""
    if family not in _WIDTH:
        raise InputError(f"address family must be 4 or 6, not {family!r}", param="family")
    width = _WIDTH[family]
    parse_addr = _ipv4 if family == 4 else _ipv6
    fam_name = f"IPv{family}"
    routes: list[Route] = []
    append = routes.append
    full = (1 << width) - 1
    masks = [full ^ ((1 << (width - d)) - 1) for d in range(width + 1)]
    for lineno, raw in enumerate(lines, start):
        text = raw
        if "#" in text:
            text = text[: text.index("#")]
        fields = text.split()
        if not fields:
            continue

        def bad(why: str) -> InputError:
            return InputError(f"{source}:{lineno}: {quote(raw.strip())} {why}", param=source)  # noqa: B023 - used at once

        if len(fields) > 2:
            raise bad("has more than a prefix and a next hop")
        pfx = fields[0]
        addr_text, slash, depth_text = pfx.partition("/")
        if not slash:
            raise bad(f"is not an {fam_name} prefix (no /depth)")
        if not (depth_text.isascii() and depth_text.isdigit()) or len(depth_text) > 3:
            raise bad(f"is not an {fam_name} prefix (bad depth {quote(depth_text)})")
        depth = int(depth_text)
        if depth > width:
            raise bad(f"is not an {fam_name} prefix (depth {depth} > {width})")
        addr = parse_addr(addr_text)
        if addr is None:
            raise bad(f"is not an {fam_name} prefix")
        nh = None
        if len(fields) == 2:
            nh_text = fields[1]
            if not (nh_text.isascii() and nh_text.isdigit()):
                raise bad(f"has a next hop {quote(nh_text)} that is not an unsigned integer")
            nh = int(nh_text)
            if nh > MAX_NEXT_HOP:
                raise bad(f"has a next hop {nh} above 2^64-1")
        append(Route(network=addr & masks[depth], depth=depth, next_hop=nh, line=lineno))
    return routes


def read_routes(path: str | os.PathLike[str], family: int) -> list[Route]:
    """Read a route file (UTF-8 text, at most 64 MiB and 10M lines)."""
    name = os.fspath(path)
    try:
        with open(name, "rb") as fh:
            data = fh.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise InputError(f"{name}: cannot read: {exc.strerror or exc}", param=name) from exc
    if len(data) > MAX_FILE_BYTES:
        raise InputError(f"{name}: larger than {MAX_FILE_BYTES >> 20} MiB; split the table", param=name)
    if b"\0" in data:
        raise InputError(f"{name}: binary file (contains NUL bytes), not a route list", param=name)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"{name}: not UTF-8 text (byte {exc.start}): not a route list", param=name) from exc
    lines = text.splitlines()
    if len(lines) > MAX_LINES:
        raise InputError(f"{name}: more than {MAX_LINES:,} lines; split the table", param=name)
    return parse_routes(lines, family, source=name)
