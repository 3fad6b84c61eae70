"""Route tables read from where routers keep them, streamed into a
:class:`~mpcalc.dpdk.objects.routes.route_table.RouteTable`.

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

from mpcalc.dpdk.core.errors import QUOTE_CHARS, InputError
from mpcalc.dpdk.core.limits import (
    MAX_DECOMPRESSED_BYTES,
    MAX_JSON_FILE_BYTES,
    MAX_LINE_BYTES,
    MAX_RATIO,
    MAX_ROUTES,
    RATIO_AFTER_BYTES,
    too_long,
)
from mpcalc.dpdk.objects.routes import accel
from mpcalc.dpdk.objects.routes.route_table import RouteTable, TableBuilder, parse_plain
from mpcalc.dpdk.objects.routes.sources import mrt, text

FORMATS = ("auto", "plain", "ip", "frr-json", "bird", "bgpdump", "mrt")
CHUNK = 8 << 20  #: bytes read at a time

Progress = Callable[[int], None]


class _Counted:
    """A compressed file read through a decompressor: how many bytes it gave."""

    def __init__(self, raw: IO[bytes]) -> None:
        self.raw, self.count = raw, 0

    def read(self, n: int = -1) -> bytes:
        data = self.raw.read(n)
        self.count += len(data)
        return data


class _Bounded:
    """The decompressed bytes of a file, refused past :data:`~mpcalc.dpdk.core.limits.MAX_DECOMPRESSED_BYTES` or
    past :data:`~mpcalc.dpdk.core.limits.MAX_RATIO` times the compressed bytes read (a bomb), as they come."""

    def __init__(self, stream: IO[bytes], raw: _Counted, name: str) -> None:
        self.stream, self.raw, self.name, self.count = stream, raw, name, 0

    def _check(self, data: bytes) -> bytes:
        self.count += len(data)
        if self.count > MAX_DECOMPRESSED_BYTES:
            raise InputError(
                f"{self.name}: decompresses to more than {MAX_DECOMPRESSED_BYTES:,} bytes", param=self.name
            )
        if self.count > RATIO_AFTER_BYTES and self.count > MAX_RATIO * self.raw.count:
            raise InputError(
                f"{self.name}: decompresses to more than {MAX_RATIO:,} times its size "
                f"({self.raw.count:,} bytes to {self.count:,} so far): a compression bomb, not a route table",
                param=self.name,
            )
        return data

    def read(self, n: int = -1) -> bytes:
        return self._check(self.stream.read(n))

    def peek(self, n: int = 0) -> bytes:
        return cast(bytes, self.stream.peek(n))  # type: ignore[attr-defined]

    def close(self) -> None:
        self.stream.close()


def _open(path: str) -> tuple[IO[bytes], IO[bytes]]:
    """(the file's bytes, decompressed if it is gzip, bzip2 or xz, within the bounds of :class:`_Bounded`;
    the file itself)."""
    if path == "-":
        raw: IO[bytes] = sys.stdin.buffer
    else:
        try:
            raw = open(path, "rb")  # noqa: SIM115 - closed by read_table
        except OSError as exc:
            raise InputError(f"{path}: cannot read: {exc.strerror or exc}", param=path) from exc
    peek = getattr(raw, "peek", None)
    head = peek(6)[:6] if peek is not None else b""
    counted = _Counted(raw)
    if head[:2] == b"\x1f\x8b":
        stream: IO[bytes] = cast(IO[bytes], gzip.GzipFile(fileobj=cast(IO[bytes], counted)))
    elif head[:3] == b"BZh":
        stream = cast(IO[bytes], bz2.BZ2File(cast(IO[bytes], counted)))
    elif head[:6] == b"\xfd7zXZ\x00":
        stream = cast(IO[bytes], lzma.LZMAFile(cast(IO[bytes], counted)))  # noqa: SIM115 - closed by read_table
    else:
        return raw, raw
    shown = "<stdin>" if path == "-" else path
    return cast(IO[bytes], _Bounded(stream, counted, shown)), raw


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


def _chunks(
    stream: IO[bytes], name: str, progress: Progress | None, limit: int | None = MAX_LINE_BYTES
) -> Iterator[bytes]:
    """Whole lines, CHUNK bytes or so at a time.  Each read is refused at once if it holds a NUL byte (a
    binary file), and the unfinished line it leaves if that is over ``limit`` bytes (None: no line bound, for
    FRR's JSON, held whole, which is bounded by MAX_JSON_FILE_BYTES instead): the bounds apply as the bytes
    arrive, before a line is put together."""
    tail: list[bytes] = []  # the unfinished line, in the pieces it came in
    tail_len = 0
    lines = 0  # complete lines so far
    done = 0
    while True:
        block = stream.read(CHUNK)
        if not block:
            break
        if b"\0" in block:
            raise _binary(name)
        done += len(block)
        if limit is None and done > MAX_JSON_FILE_BYTES:
            raise InputError(f"{name}: larger than {MAX_JSON_FILE_BYTES:,} bytes (FRR JSON is read whole)", param=name)
        if progress is not None:
            progress(done)
        cut = block.rfind(b"\n") + 1
        if not cut:
            tail.append(block)
            tail_len += len(block)
            if limit is not None and tail_len > limit:
                raise too_long(name, lines + 1, b"".join(tail)[: QUOTE_CHARS + 1].decode("utf-8", "replace"))
            continue
        lines += block.count(b"\n", 0, cut)
        yield b"".join((*tail, block[:cut])) if tail else block[:cut]
        tail = [block[cut:]] if cut < len(block) else []
        tail_len = len(block) - cut
        if limit is not None and tail_len > limit:
            raise too_long(name, lines + 1, block[cut : cut + QUOTE_CHARS + 1].decode("utf-8", "replace"))
    if tail:
        yield b"".join(tail)


def _binary(name: str) -> InputError:
    return InputError(f"{name}: binary file (contains NUL bytes), not a route list", param=name)


def _decode(chunk: bytes, name: str) -> str:
    if b"\0" in chunk:
        raise _binary(name)
    try:
        return chunk.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"{name}: not UTF-8 text (byte {exc.start}): not a route list", param=name) from exc


def _plain(stream: IO[bytes], builder: TableBuilder, progress: Progress | None) -> None:
    line = 1
    for chunk in _chunks(stream, builder.source, progress):
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


def _lines(
    stream: IO[bytes], name: str, progress: Progress | None, limit: int | None = MAX_LINE_BYTES
) -> Iterator[tuple[int, str]]:
    """(number, line) of a text route file, each line within ``limit`` bytes (a character is at most 4)."""
    number = 1
    for chunk in _chunks(stream, name, progress, limit):
        for line in _decode(chunk, name).splitlines():
            if limit is not None and len(line) > limit // 4 and len(line.encode()) > limit:
                raise too_long(name, number, line[: QUOTE_CHARS + 1])
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
            # FRR's JSON is held whole (its members decoded one at a time): no line bound, the file's
            lines = _lines(stream, shown, progress, None if fmt == "frr-json" else MAX_LINE_BYTES)
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
