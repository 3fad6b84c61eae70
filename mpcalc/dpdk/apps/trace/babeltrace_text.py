"""A reader of ``babeltrace2``'s text output of a DPDK trace (its default ``text:pretty`` sink).

One event a line: ``[time] (+delta) NAME: { cpu_id = 0x0, name = "dpdk-testpmd" }, { FIELD = VALUE, ... }``
(the packet context, then the payload); values are integers (decimal, or ``0x`` hexadecimal), quoted
strings, reals, or arrays ``[ [0] = 1, [1] = 2 ]``.  The lines come in babeltrace2's order (it merges
the streams by their timestamps), and that order is kept.

Pure: stdlib only.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import IO, Any

from mpcalc.dpdk.apps.trace.events import Event, Stream
from mpcalc.dpdk.core.errors import InputError
from mpcalc.dpdk.core.limits import MAX_TRACE_LINE

__all__ = ["is_text_trace", "parse_line", "read_text"]


_HEAD = re.compile(r"\[[^\]]*\]\s+\([^)]*\)\s+(?:\S+\s+)?([A-Za-z_][\w.]*):\s")
_TOKEN = re.compile(r'\s*(?:(\{)|(\})|(\[)|(\])|(,)|(=)|"((?:[^"\\]|\\.)*)"|([^\s,={}\[\]"]+))')


def is_text_trace(line: str) -> bool:
    """Whether a line looks like babeltrace2's text of an event."""
    return _HEAD.match(line) is not None


def _value(tokens: list[tuple[int, str]], i: int, where: str) -> tuple[Any, int]:
    kind, text = tokens[i]
    if kind == 1:  # a struct
        return _struct(tokens, i, where)
    if kind == 3:  # an array: [ [0] = v, ... ]
        out, i = [], i + 1
        while tokens[i][0] != 4:
            if tokens[i][0] == 5:
                i += 1
                continue
            if tokens[i][0] != 3 or tokens[i + 2][0] != 4 or tokens[i + 3][0] != 6:
                raise InputError(f"{where}: an array that is not babeltrace2's [ [0] = value, ... ]")
            v, i = _value(tokens, i + 4, where)
            out.append(v)
        return out, i + 1
    if kind == 7:
        return re.sub(r"\\(.)", r"\1", text), i + 1
    if kind == 8:
        try:
            return int(text, 0), i + 1
        except ValueError:
            try:
                return float(text), i + 1
            except ValueError:
                return text, i + 1
    raise InputError(f"{where}: unexpected {text!r}")


def _struct(tokens: list[tuple[int, str]], i: int, where: str) -> tuple[dict[str, Any], int]:
    out: dict[str, Any] = {}
    i += 1
    while tokens[i][0] != 2:
        if tokens[i][0] == 5:
            i += 1
            continue
        if tokens[i][0] != 8 or tokens[i + 1][0] != 6:
            raise InputError(f"{where}: a field that is not NAME = VALUE: {tokens[i][1]!r}")
        key = tokens[i][1]
        out[key], i = _value(tokens, i + 2, where)
    return out, i + 1


def _tokens(text: str, where: str) -> list[tuple[int, str]]:
    out, at = [], 0
    while at < len(text):
        m = _TOKEN.match(text, at)
        if m is None or m.end() == at:
            if text[at:].strip():
                raise InputError(f"{where}: cannot read {text[at : at + 40]!r}")
            break
        at = m.end()
        kind = m.lastindex or 0
        out.append((kind, m.group(kind) if kind else ""))
    out.append((0, ""))  # the end: every loop above stops on it as on a closing token it lacks
    return out


def parse_line(line: str, where: str) -> tuple[str, list[dict[str, Any]]] | None:
    """The event name and its brace groups (packet context, payload), or None for a line that is no event.

    >>> parse_line('[1.0] (+?) lib.x: { cpu_id = 0x0, name = "t" }, { len = 0x40, s = "a b" }', 'l1')
    ('lib.x', [{'cpu_id': 0, 'name': 't'}, {'len': 64, 's': 'a b'}])
    """
    m = _HEAD.match(line)
    if m is None:
        return None
    tokens = _tokens(line[m.end() :], where)
    groups: list[dict[str, Any]] = []
    i = 0
    while tokens[i][0]:
        if tokens[i][0] == 5:
            i += 1
            continue
        if tokens[i][0] != 1:
            raise InputError(f"{where}: expected '{{', found {tokens[i][1]!r}")
        try:
            group, i = _struct(tokens, i, where)
        except IndexError:
            raise InputError(f"{where}: the line ends inside a brace group: truncated") from None
        groups.append(group)
    return m.group(1), groups


def _lines(stream: IO[str]) -> Iterator[str]:
    """The lines of ``stream``, each read no further than :data:`MAX_TRACE_LINE` + 1 characters (a longer one is refused
    as it is read, not gathered first)."""
    while True:
        line = stream.readline(MAX_TRACE_LINE + 1)
        if not line:
            return
        yield line


def read_text(lines: Iterable[str] | IO[str], source: str) -> Iterator[Event]:
    """The events of babeltrace2's text (an open file, or lines), in its order; a line that is not an event is an
    error that names it."""
    streams: dict[tuple[int, str], Stream] = {}
    if hasattr(lines, "readline"):
        lines = _lines(lines)  # type: ignore[arg-type]
    for no, line in enumerate(lines, 1):
        if len(line) > MAX_TRACE_LINE:
            raise InputError(
                f"{source}, line {no}: over {MAX_TRACE_LINE:,} characters: not babeltrace2's text of an event"
            )
        line = line.rstrip("\r\n")
        if not line.strip():
            continue
        where = f"{source}, line {no}"
        parsed = parse_line(line, where)
        if parsed is None:
            raise InputError(f"{where}: not babeltrace2's text of an event: {line[:80]!r}")
        name, groups = parsed
        context = groups[0] if len(groups) > 1 else {}
        payload = groups[-1] if groups else {}
        key = (int(context.get("cpu_id", 0)), str(context.get("name", "")))
        stream = streams.get(key)
        if stream is None:
            stream = streams[key] = Stream(len(streams), *key)
        yield Event(name, payload, stream, no)
