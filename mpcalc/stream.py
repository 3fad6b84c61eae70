"""Reading a stream of lines, and progress on a terminal: what batch and sweep share, apart from
what they evaluate.  No click, no rich."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator
from typing import IO

from mpcalc.dpdk.core.limits import MAX_LINE_BYTES

#: read size: one read of what has arrived, then every complete line of it is answered
_CHUNK = 1 << 16


def split_chunks(
    stream: IO[bytes],
    limit: int = MAX_LINE_BYTES,
    before_read: Callable[[], None] | None = None,
) -> Iterator[tuple[int, list[bytes | None]]]:
    """(number of the first line, the lines) for every read of a binary stream that completes lines.

    Lines are numbered from 1.  A line longer than ``limit`` bytes comes as ``None`` and is never
    held in memory whole.  ``before_read`` runs before every read that may wait (to flush the
    answers so far).  One ``bytes.split`` a read, not a Python step a line.
    """
    read = getattr(stream, "read1", None) or stream.read
    number = 1
    pending: list[bytes] = []  # the start of an unfinished line
    pending_len = 0
    skipping = False  # the unfinished line is over the limit: its bytes are dropped
    while True:
        if before_read is not None:
            before_read()
        chunk = read(_CHUNK)
        if not chunk:
            break
        lines: list[bytes | None] = chunk.split(b"\n")  # type: ignore[assignment]
        tail = lines.pop()  # after the last newline: the start of the next line
        if lines:
            if skipping:
                lines[0], skipping = None, False
            elif pending:
                head = lines[0]
                assert head is not None  # only a too-long line is None, and this one is being completed
                lines[0] = None if pending_len + len(head) > limit else b"".join(pending) + head
            pending, pending_len = [], 0
            if limit < _CHUNK:  # whole lines of one read are shorter than a read
                lines = [x if x is None or len(x) <= limit else None for x in lines]
            yield number, lines
            number += len(lines)
        if not skipping and tail:
            pending_len += len(tail)
            if pending_len > limit:
                skipping, pending, pending_len = True, [], 0
            else:
                pending.append(tail)
    if skipping or pending:
        yield number, [None if skipping else b"".join(pending)]


def split_lines(
    stream: IO[bytes],
    limit: int = MAX_LINE_BYTES,
    before_read: Callable[[], None] | None = None,
) -> Iterator[tuple[int, bytes | None]]:
    """(1-based number, line) for every line of a binary stream (:func:`split_chunks`, a line at a time)."""
    for first, lines in split_chunks(stream, limit, before_read):
        yield from enumerate(lines, first)


class Progress:
    """A one-line counter on stderr, redrawn at most 5 times a second, only when stderr is a terminal."""

    def __init__(self, what: str, total: int | None = None, stream: IO[str] | None = None) -> None:
        self.stream = stream if stream is not None else sys.stderr
        try:
            self.enabled = self.stream.isatty()
        except (AttributeError, ValueError):
            self.enabled = False
        self.what, self.total = what, total
        self.start = self.last = time.monotonic()
        self.shown = False

    def update(self, done: int) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        if now - self.last < 0.2 or now - self.start < 0.5:
            return
        self.last = now
        rate = done / max(now - self.start, 1e-9)
        of = f" of {self.total:,}" if self.total else ""
        self.stream.write(f"\r{self.what}: {done:,}{of} ({rate:,.0f}/s)\x1b[K")
        self.stream.flush()
        self.shown = True

    def close(self) -> None:
        if self.shown:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
