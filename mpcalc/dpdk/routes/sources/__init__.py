"""Route tables read from where routers keep them, streamed into a :class:`~mpcalc.dpdk.routes.table.RouteTable`.

Formats (``--routes-format``; ``auto`` looks at the first bytes):

- ``plain``: one ``PREFIX/DEPTH [NEXT_HOP]`` a line (``.parse``);
- ``ip``: ``ip route`` / ``ip -6 route`` output (``default``, ``via``, ``dev``, route types, ``nexthop`` lines);
- ``frr-json``: FRR's ``show ip route json`` / ``show ipv6 route json`` (the selected route of each prefix);
- ``bird``: BIRD 1.x and 2.x ``show route`` (the first, best, route of each prefix);
- ``bgpdump``: ``bgpdump -m`` lines (RIB entries and announcements);
- ``mrt``: MRT RIB dumps as RouteViews and RIPE RIS publish them (RFC 6396 TABLE_DUMP_V2, and TABLE_DUMP).

Any of them gzip-, bzip2- or xz-compressed (recognised by their magic bytes, not by the name).  A route
dump lists a prefix once per peer: ``bgpdump`` and ``mrt`` keep the first entry of each prefix (its next
hop, as the peer announced it); the other formats list a router's own table, in which a prefix given again
is a re-announcement, replayed as DPDK would (a duplicate, or a new next hop).  Next hops are what the
route says (gateway and interface, ECMP sets included), numbered in order of appearance from 1; only
their equality matters to DPDK.  Routes of the other address family are skipped (a dump holds both).

Pure Python, stdlib only (no click, no rich).
"""

from __future__ import annotations

import bz2
import gzip
import lzma
import os
import sys
from collections.abc import Callable, Iterable, Iterator
from typing import IO, cast

from ...errors import InputError
from .. import accel
from ..table import RouteTable, TableBuilder, parse_plain
from . import mrt, text

FORMATS = ("auto", "plain", "ip", "frr-json", "bird", "bgpdump", "mrt")
CHUNK = 8 << 20  #: bytes read at a time
#: the routes a read holds at most (fib.MAX_PLANNED_ROUTES is the planner's own bound)
MAX_ROUTES = 1 << 26

Progress = Callable[[int], None]


def _open(path: str) -> tuple[IO[bytes], IO[bytes]]:
    """(the file's bytes, decompressed if it is gzip, bzip2 or xz; the file itself)."""
    if path == "-":
        raw: IO[bytes] = sys.stdin.buffer
    else:
        try:
            raw = open(path, "rb")  # noqa: SIM115 - closed by read_table
        except OSError as exc:
            raise InputError(f"{path}: cannot read: {exc.strerror or exc}", param=path) from exc
    peek = getattr(raw, "peek", None)
    head = peek(6)[:6] if peek is not None else b""
    if head[:2] == b"\x1f\x8b":
        return cast(IO[bytes], gzip.GzipFile(fileobj=raw)), raw
    if head[:3] == b"BZh":
        return cast(IO[bytes], bz2.BZ2File(raw)), raw
    if head[:6] == b"\xfd7zXZ\x00":
        return cast(IO[bytes], lzma.LZMAFile(raw)), raw
    return raw, raw


def detect(head: bytes) -> str:
    """The format of a file from its first bytes (decompressed)."""
    if mrt.looks_like(head):
        return "mrt"
    sample = head.decode("utf-8", "replace")
    stripped = sample.lstrip()
    if stripped.startswith("{"):
        return "frr-json"
    lines = [ln for ln in sample.splitlines()[:-1] or sample.splitlines() if ln.strip()]
    first = next((ln for ln in lines if not ln.lstrip().startswith("#")), "")
    if first.startswith(("TABLE_DUMP|", "TABLE_DUMP2|", "BGP4MP|", "BGP4MP_ET|")):
        return "bgpdump"
    if any(text.BIRD_MARK.search(ln) for ln in lines[:50]):
        return "bird"
    fields = first.split("#", 1)[0].split()
    if not fields:
        return "plain"
    if (len(fields) >= 2 and not fields[1].isdigit()) or fields[0] in text.IP_FIRST_WORDS:
        return "ip"
    return "plain"


def _chunks(stream: IO[bytes], progress: Progress | None) -> Iterator[bytes]:
    """Whole lines, CHUNK bytes or so at a time."""
    tail = b""
    done = 0
    while True:
        block = stream.read(CHUNK)
        if not block:
            break
        done += len(block)
        if progress is not None:
            progress(done)
        block = tail + block
        cut = block.rfind(b"\n") + 1
        if cut:
            tail = block[cut:]
            yield block[:cut]
        else:
            tail = block
    if tail:
        yield tail


def _decode(chunk: bytes, name: str) -> str:
    if b"\0" in chunk:
        raise InputError(f"{name}: binary file (contains NUL bytes), not a route list", param=name)
    try:
        return chunk.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"{name}: not UTF-8 text (byte {exc.start}): not a route list", param=name) from exc


def _plain(stream: IO[bytes], builder: TableBuilder, progress: Progress | None) -> None:
    line = 1
    for chunk in _chunks(stream, progress):
        cols = accel.parse(chunk, builder.family)  # canonical lines, in C where it was built
        if cols is not None:
            builder.add(cols[0], cols[1], cols[2], None, line)
            line += len(cols[1])
        else:
            line += parse_plain(_decode(chunk, builder.source), builder.family, builder, line)
        if builder.count > MAX_ROUTES:
            raise InputError(
                f"{builder.source}: more than {MAX_ROUTES:,} routes; split the table", param=builder.source
            )


def _lines(stream: IO[bytes], name: str, progress: Progress | None) -> Iterator[tuple[int, str]]:
    number = 1
    for chunk in _chunks(stream, progress):
        for line in _decode(chunk, name).splitlines():
            yield number, line
            number += 1


def read_table(
    path: str | os.PathLike[str], family: int, fmt: str = "auto", progress: Progress | None = None
) -> RouteTable:
    """Read a route table (``path`` '-': standard input) in ``fmt`` (one of :data:`FORMATS`).
    ``progress`` is called with the bytes read so far (decompressed)."""
    name = os.fspath(path)
    shown = "<stdin>" if name == "-" else name
    if fmt not in FORMATS:
        raise InputError(f"routes format {fmt!r} is not one of {', '.join(FORMATS)}", param="routes_format")
    stream, raw = _open(name)
    try:
        if fmt == "auto":
            peek = getattr(stream, "peek", None)
            fmt = detect(peek(1 << 16)[: 1 << 16] if peek is not None else b"")
        builder = TableBuilder(family, shown)
        if fmt == "plain":
            _plain(stream, builder, progress)
        elif fmt == "mrt":
            mrt.read(stream, family, builder, progress)
        else:
            rows: Iterable[text.Row]
            lines = _lines(stream, shown, progress)
            if fmt == "ip":
                rows = text.ip_route(lines, family, shown)
            elif fmt == "bird":
                rows = text.bird(lines, family, shown)
            elif fmt == "bgpdump":
                rows = text.bgpdump(lines, family, shown)
            else:
                rows = text.frr_json(lines, family, shown)
            text.collect(rows, family, builder, dedup=fmt == "bgpdump")
        if builder.count > MAX_ROUTES:
            raise InputError(f"{shown}: more than {MAX_ROUTES:,} routes; split the table", param=shown)
        if not builder.count and fmt != "plain":
            raise InputError(f"{shown}: no IPv{family} route in it (read as {fmt})", param=shown)
    except (OSError, EOFError, lzma.LZMAError) as exc:
        raise InputError(f"{shown}: cannot read: {exc}", param=shown) from exc
    finally:
        if raw is not sys.stdin.buffer:
            stream.close()
            raw.close()
    table = builder.table()
    table.format = fmt
    return table
