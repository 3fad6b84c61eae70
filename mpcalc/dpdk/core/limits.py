"""The bounds of every reader, each in one constant (docs/limits.md), and the checks that apply them
as the input is read, before its cost is paid.

A refusal is an :class:`~mpcalc.dpdk.core.errors.InputError` of one line that quotes at most
:data:`QUOTE_CHARS` characters of the input (:func:`quote`).

Pure Python, stdlib only (no click, no rich).
"""

from __future__ import annotations

import re

from mpcalc.dpdk.core.errors import QUOTE_CHARS, InputError

#: longest line, in bytes without its newline: a batch line, a route line (text formats), a dump line
MAX_LINE_BYTES = 1 << 20
#: largest FRR JSON route file, in bytes (decompressed): it is held whole, and has no line bound
MAX_JSON_FILE_BYTES = 4 << 30
#: longest MRT record (an MRT file's "line": one prefix and its entries, one per peer), in bytes
MAX_MRT_RECORD_BYTES = 16 << 20
#: deepest nesting of a JSON value (a batch line, an FRR JSON route file, a telemetry reply) or of a TOML
#: document (a plan file): arrays, objects, tables and inline tables
MAX_DEPTH = 64
#: most parts of one dotted TOML key (``a.b.c`` has 3)
MAX_KEY_PARTS = 16
#: most keys in one TOML document (a plan file)
MAX_KEYS = 20_000
#: largest plan file, in bytes
MAX_PLAN_BYTES = 1 << 20
#: largest ``mpcalc inspect`` input (dumps and telemetry), in bytes
MAX_DUMP_BYTES = 256 << 20
#: most bytes a compressed route file may decompress to
MAX_DECOMPRESSED_BYTES = 16 << 30
#: most decompressed bytes per compressed byte, once :data:`RATIO_AFTER_BYTES` have come out
MAX_RATIO = 200
#: the decompressed bytes below which the ratio is not held against a file (a small file's headers)
RATIO_AFTER_BYTES = 64 << 20
#: longest line of babeltrace2's text of a trace, in characters (a DPDK event's text is under 2 KiB)
MAX_TRACE_LINE = 64 * 1024
#: largest stream file of a CTF trace, in bytes (a thread's trace buffer is --trace-bufsz, 1 MiB by default)
MAX_TRACE_STREAM_BYTES = 1 << 32
#: largest metadata file of a CTF trace, in bytes (DPDK 26.07's declares 532 tracepoints in about 100 KiB)
MAX_TRACE_METADATA_BYTES = 16 << 20
#: most routes a route file may hold (``fib.MAX_PLANNED_ROUTES`` is the FIB planner's own, lower, bound)
MAX_ROUTES = 1 << 26


def quote(value: object) -> str:
    """``repr(value)``, cut to about :data:`QUOTE_CHARS` characters (a container's first items, its nested
    containers as ``...``: no repr of a deep or huge value is ever made).

    >>> quote("abc")
    "'abc'"
    >>> quote(b"x" * 100)
    "b'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'... (100 bytes)"
    >>> quote([[[[1]]], 2])
    "['...', 2]"
    """
    if isinstance(value, str | bytes) and len(value) > QUOTE_CHARS:
        unit = "bytes" if isinstance(value, bytes) else "characters"
        return f"{value[:QUOTE_CHARS]!r}... ({len(value):,} {unit})"
    if isinstance(value, dict):
        value = {_elided(k): _elided(v) for k, v in list(value.items())[:8]}
    elif isinstance(value, list | tuple):
        value = [_elided(v) for v in list(value)[:8]]
    text = repr(value)
    return text if len(text) <= QUOTE_CHARS else text[:QUOTE_CHARS] + "..."


def _elided(value: object) -> object:
    """A container inside a quoted container, as ``'...'``; a long text cut."""
    if isinstance(value, list | tuple | dict):
        return "..."
    if isinstance(value, str | bytes) and len(value) > QUOTE_CHARS:
        return value[:QUOTE_CHARS]
    return value


def too_long(what: str, line: int | None, start: bytes | str) -> InputError:
    """The refusal of a line over :data:`MAX_LINE_BYTES`, quoting its start (give a little more than
    :data:`QUOTE_CHARS` of it: ``...`` says there is more)."""
    at = f" {line:,}" if line is not None else ""
    return InputError(f"{what}: line{at} is longer than {MAX_LINE_BYTES:,} bytes: {quote_start(start)}", param=what)


def cut(text: str) -> str:
    """A text shown unquoted, cut to :data:`QUOTE_CHARS` characters (``...`` if there is more)."""
    return text if len(text) <= QUOTE_CHARS else text[:QUOTE_CHARS] + "..."


def quote_start(text: bytes | str) -> str:
    """The start of a text, quoted: at most :data:`QUOTE_CHARS` characters, ``...`` if there is more."""
    return repr(text[:QUOTE_CHARS]) + ("..." if len(text) > QUOTE_CHARS else "")


#: a JSON string (its escapes included), whose brackets are no nesting; what is not a bracket
_JSON_STRING = (re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL), re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL))
_NOT_BRACKET = (re.compile(rb"[^\[\]{}]+"), re.compile(r"[^\[\]{}]+"))


def json_too_deep(text: bytes | str) -> bool:
    """Whether a JSON text nests deeper than :data:`MAX_DEPTH`, read without parsing it (so the bound is held
    before a recursive parser sees the text): its brackets, strings removed, lose their innermost pairs at
    each of :data:`MAX_DEPTH` passes (each a C-speed ``replace``).  A malformed text is too deep if its
    parser could go deeper than the bound before it finds the fault.

    >>> json_too_deep(b'{"a": [1, {"b": "[[[["}]}'), json_too_deep("[" * 65 + "]" * 65)
    (False, True)
    >>> json_too_deep('["' + "[" * 100 + '"]'), json_too_deep("[" * 100), json_too_deep("[" * 60 + "]}" * 5)
    (False, True, False)
    """
    if isinstance(text, str):
        if text.count("[") + text.count("{") <= MAX_DEPTH:
            return False  # shallow enough whatever the strings hold
        brackets = _NOT_BRACKET[1].sub("", _JSON_STRING[1].sub("", text)).encode()
    else:
        if text.count(b"[") + text.count(b"{") <= MAX_DEPTH:
            return False
        brackets = _NOT_BRACKET[0].sub(b"", _JSON_STRING[0].sub(b"", text))
    for passes in range(MAX_DEPTH):
        inner = brackets.replace(b"[]", b"").replace(b"{}", b"")
        if len(inner) == len(brackets):  # malformed: what is left opens at most this much deeper
            return passes + inner.count(b"[") + inner.count(b"{") > MAX_DEPTH
        if not inner:
            return False
        brackets = inner
    return True


def check_json_depth(text: bytes | str, what: str) -> None:
    """Refuse a JSON text nested deeper than :data:`MAX_DEPTH` (``what``: the file, line, ...)."""
    if json_too_deep(text):
        raise InputError(f"{what}: JSON nested deeper than {MAX_DEPTH} levels: {quote(text)}", param=what)


#: what a cheap scan of TOML sees: a comment, a string (basic, literal, multi-line), a bracket, a dot, a
#: comma, an equals sign, a newline; everything else is skipped
_TOML_TOKEN = re.compile(
    r'#[^\n]*|"""(?:[^\\]|\\.)*?"""|\'\'\'.*?\'\'\'|"(?:[^"\\\n]|\\.)*"|\'[^\'\n]*\'|[\[\]{}.,=\n]', re.DOTALL
)


def check_toml_shape(text: str, what: str) -> None:
    """Refuse a TOML text with a dotted key of more than :data:`MAX_KEY_PARTS` parts, more than
    :data:`MAX_KEYS` keys, or values nested deeper than :data:`MAX_DEPTH`: one scan of its tokens, linear in
    the text, before tomllib (quadratic in a key's parts, recursive in its nesting) reads it.  It counts what
    a valid document holds; a text it miscounts is one tomllib refuses.

    >>> check_toml_shape("a.b.c = [1.5, {d.e = 2}]\\n[x.y]\\nz = 'a.b.c.d'\\n", "p.toml")
    >>> check_toml_shape("k" + ".k" * 16 + " = 1", "p.toml")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    mpcalc.dpdk.core.errors.InputError: p.toml: line 1: a dotted key of more than 16 parts: 'k.k.k.k.k.k...
    """
    stack: list[str] = []  # the open arrays ("[") and inline tables ("{") of a value
    keys = 0
    parts = 1  # of the key being read: a line's, an inline table's or a [table] header's
    in_key = True  # before the key's "=", or inside a [table] header
    for m in _TOML_TOKEN.finditer(text):
        tok = m.group()
        if tok == "\n":
            if not stack:  # a new line of keys (an array may go on over lines)
                in_key, parts = True, 1
        elif tok[0] in "#\"'":
            continue
        elif tok == ".":
            if in_key:
                parts += 1
                if parts > MAX_KEY_PARTS:
                    start = text.rfind("\n", 0, m.start()) + 1
                    raise InputError(
                        f"{what}: line {text.count(chr(10), 0, m.start()) + 1}: a dotted key of more than "
                        f"{MAX_KEY_PARTS} parts: {quote_start(text[start : start + QUOTE_CHARS + 1])}",
                        param=what,
                    )
        elif tok == "=":
            keys += 1
            if keys > MAX_KEYS:
                raise InputError(f"{what}: more than {MAX_KEYS:,} keys", param=what)
            in_key, parts = False, 1
        elif tok == ",":
            if stack and stack[-1] == "{":
                in_key, parts = True, 1
        elif tok == "[" and not stack and in_key:
            continue  # a [table] or [[array of tables]] header: its dots are a key's
        elif tok in "[{":
            stack.append(tok)
            in_key, parts = tok == "{", 1
            if len(stack) > MAX_DEPTH:
                raise InputError(
                    f"{what}: line {text.count(chr(10), 0, m.start()) + 1}: values nested deeper than "
                    f"{MAX_DEPTH} levels",
                    param=what,
                )
        elif stack:  # "]" or "}" of a value
            stack.pop()
            in_key = False
