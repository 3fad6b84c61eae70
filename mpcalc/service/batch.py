"""``mpcalc batch``'s evaluation: one JSON object -> one answer, through the declarations and
:func:`mpcalc.service.request.evaluate` like every other front end.

A line's keys are the declared keys of its object, of the platform and of the analyses (``--explain``,
``--fit``) that batch lines accept; each value is parsed by its declaration (:meth:`Param.parse`), so
batch, plan and command line accept exactly the same values.  Answers are memoized on a line's exact
text, in a bounded table: a long stream's memory stays flat.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import IO, Any

from mpcalc.dpdk.core import registry
from mpcalc.dpdk.core.declare import Param
from mpcalc.dpdk.core.errors import InputError
from mpcalc.dpdk.core.limits import MAX_DEPTH, MAX_LINE_BYTES, json_too_deep, quote
from mpcalc.dpdk.core.platform import PLATFORM_PARAMS
from mpcalc.dpdk.core.records import Footprint, kind_flags_label
from mpcalc.service.exitcodes import ExitCode
from mpcalc.service.request import ANALYSIS_PARAMS, NO_ANALYSIS, Analysis, Request, evaluate, footprints, new_request
from mpcalc.service.shapes import Key, Reader, shape_reader
from mpcalc.stream import Progress, split_chunks

#: the kinds whose value may be a JSON array: flag names, OVS's ports, an application's command line
_LISTS = frozenset({"flags", "list", "argv"})
#: the kinds whose integers in their declared range are their own parsed values
RANGED = frozenset({"count", "size"})
#: memo sizes: a table is cleared when it grows past this (bounded memory)
MEMO_LIMIT = 4096
#: a shape's reader is built when this many records of it came (a line of a shape of its own is read)
READ_AFTER = 8
#: shape readers kept per command (a record of a shape without one is read key by key)
READERS = 4
#: the keys a command line has but a batch line may not (batch writes the output itself; the CI gates
#: belong to single runs)
NOT_IN_BATCH = ("format", "json", "svg", *(p.key for p in ANALYSIS_PARAMS if "batch" not in p.fronts))

dumps: Callable[[Any], str] = json.JSONEncoder(ensure_ascii=True, separators=(",", ":")).encode


def document_writer() -> Callable[[Any], str]:
    """:data:`dumps` for a float-free document, faster: orjson where installed, whose compact output is
    json's for ASCII text, integers up to 64 bits, strings, booleans and nulls; anything else (non-ASCII
    text, a larger integer) is written by json.  A document with floats (--explain's percentages) must
    go to :data:`dumps` itself: json and orjson spell some floats differently."""
    orjson: Any
    try:
        import orjson
    except ImportError:  # no wheel for this machine: json alone
        return dumps

    def write(doc: Any) -> str:
        try:
            raw: bytes = orjson.dumps(doc)
        except orjson.JSONEncodeError:  # an integer past 64 bits
            return dumps(doc)
        return raw.decode() if raw.isascii() else dumps(doc)

    return write


class LineError(Exception):
    """A batch line that cannot be evaluated: the key it concerns and the message."""

    def __init__(self, message: str, key: str | None = None, exit_code: int = ExitCode.USAGE) -> None:
        super().__init__(message)
        self.key = key
        self.exit_code = exit_code


def keys_of(command: str) -> dict[str, Param]:
    """Every key a batch line of ``command`` may have, with its declaration."""
    decl = registry.get(command)
    return {p.key: p for p in (*decl.params, *PLATFORM_PARAMS, *ANALYSIS_PARAMS) if "batch" in p.fronts}


class Lines:
    """Turn batch records into requests (:meth:`request`) and answers (:meth:`answer`)."""

    def __init__(self) -> None:
        self._keys: dict[str, dict[str, Param]] = {}
        self._parsed: dict[tuple[str, str], dict[Any, Any]] = {}
        self._tables: dict[str, tuple[dict[str, Key], tuple[str, ...]]] = {}
        #: by command, the readers of its last READERS shapes that came READ_AFTER times, the newest first
        self._readers: dict[str, tuple[Reader, ...]] = {}
        #: by shape (the command, then the keys in order), the records :meth:`read` read
        self._shapes: dict[tuple[str, ...], int] = {}
        self.write = document_writer()

    def keys(self, name: object) -> dict[str, Param]:
        found = self._keys.get(name) if isinstance(name, str) else None
        if found is None:
            if not isinstance(name, str) or name not in registry.OBJECTS:
                raise LineError(f"command {quote(name)} is not one of {', '.join(registry.NAMES)}", key="command")
            found = self._keys[name] = keys_of(name)
        return found

    def parse(self, name: str, param: Param, value: Any) -> Any:
        """A value as its declaration parses it (memoized: a batch repeats few distinct values)."""
        if isinstance(value, float) and param.kind != "choice":  # a choice's number is the choice's to read
            if not value.is_integer():
                raise LineError(f"{quote(value)} is not a value for {param.option}", key=param.key)
            value = int(value)
        if (
            isinstance(value, dict)
            or (isinstance(value, list) and param.kind not in _LISTS)
            or (isinstance(value, list) and any(isinstance(v, list | dict) for v in value))
        ):
            raise LineError(f"{quote(value)} is not a value for {param.option}", key=param.key)
        if isinstance(value, bool) != (param.kind == "bool"):
            raise LineError(
                f"{quote(value)} is not a value for {param.option}"
                + (" (true or false)" if param.kind == "bool" else ""),
                key=param.key,
            )
        memo = self._memo(name, param.key)
        # a string or an integer is its own key (as :meth:`request` looks it up); others with their type
        key = value if type(value) in (str, int) else (tuple(value) if isinstance(value, list) else value, type(value))
        try:
            return memo[key]
        except KeyError:
            pass
        try:
            out = param.parse(value)
        except InputError as exc:
            raise LineError(str(exc), key=param.key) from None
        if len(memo) >= MEMO_LIMIT:
            memo.clear()
        memo[key] = out
        return out

    def _memo(self, name: str, key: str) -> dict[Any, Any]:
        """The parsed values of key ``key`` of command ``name``, by value."""
        found = self._parsed.get((name, key))
        if found is None:
            found = self._parsed[(name, key)] = {}
        return found

    def _table(self, name: str) -> tuple[dict[str, Key], tuple[str, ...]]:
        """The keys of command ``name``: per key, the part of a request it goes to (0: the object's args,
        1: the platform, 2: the analysis), the (lowest, highest) value of a count or size (else (1, 0):
        none in range), its declaration, its parsed values; and the keys a line must give."""
        keys = self.keys(name)  # a LineError for an unknown command
        found = self._tables.get(name)
        if found is None:
            objs = {p.key for p in registry.get(name).params}
            plat = {p.key for p in PLATFORM_PARAMS}
            table = {
                k: Key(
                    part=0 if k in objs else 1 if k in plat else 2,
                    lo=p.lo if p.kind in RANGED else 1,
                    hi=p.hi if p.kind in RANGED else 0,
                    param=p,
                    memo=self._memo(name, k),
                )
                for k, p in keys.items()
            }
            found = self._tables[name] = (table, tuple(k for k, p in keys.items() if p.required))
        return found

    def request(self, record: dict[str, Any]) -> Request:
        """The request of a line's record: by the reader (:func:`mpcalc.service.shapes.shape_reader`) of one
        of the last :data:`READERS` shapes of its command that came :data:`READ_AFTER` times, else (and
        for whatever the readers leave) by :meth:`read`."""
        name = record.get("command")
        if type(name) is not str:
            return self.read(record)
        for reader in self._readers.get(name, ()):
            found = reader(record)
            if found is not None:
                return found
        request = self.read(record)
        shape = (name, *record)
        seen = self._shapes.get(shape, 0) + 1
        if len(self._shapes) >= MEMO_LIMIT:
            self._shapes.clear()
        self._shapes[shape] = seen
        if seen == READ_AFTER:
            table, required = self._tables[name]
            built = shape_reader(command=name, keys=tuple(record), table=table, required=required)
            if built is not None:
                self._readers[name] = (built, *self._readers.get(name, ()))[:READERS]
        return request

    def read(self, record: dict[str, Any]) -> Request:
        """The request of a line's record, key by key, or a :class:`LineError` that names the key."""
        name = record.get("command")
        if name is None:
            raise LineError('no "command" key (one of ' + ", ".join(registry.NAMES) + ")", key="command")
        table, required = (self._tables.get(name) if type(name) is str else None) or self._table(name)
        parts: tuple[dict[str, Any], dict[str, Any], dict[str, Any]] = ({}, {}, {})
        for key, value in record.items():
            found = table.get(key)
            if found is None:
                if key == "command":
                    continue
                why = " (not in a batch)" if key in NOT_IN_BATCH else ""
                raise LineError(f"unknown key {quote(key)} for {name}{why}; known: {', '.join(sorted(table))}", key=key)
            if value is None:
                continue
            part, lo, hi, param, memo = found
            kind = type(value)
            if kind is int and lo <= value <= hi:
                parts[part][key] = value  # what Param.parse returns for a count or size in range
                continue
            if kind is str or kind is int:  # the usual value: one memo lookup, no call
                known = memo.get(value)
                if known is not None:
                    parts[part][key] = known
                    continue
            parts[part][key] = self.parse(name, param, value)
        args, platform, analysis = parts
        for key in required:
            if args.get(key) is None:
                raise LineError(f"{name} needs {key!r}", key=key)
        if args.get("routes_file") == "-":
            raise LineError("routes_file '-' would read the batch's own input", key="routes_file")
        return new_request((name, args, platform, Analysis(**analysis) if analysis else NO_ANALYSIS))

    def answer(self, value: Any, compact: bool) -> tuple[bool, str, int]:
        """The answer to one line's JSON value, as (numbered, text, exit code): a numbered answer is
        written as ``{"line":N`` + text, a full document (which carries no line number) as it is."""
        try:
            if isinstance(value, NotJSON):
                raise LineError(f"not JSON: {value.message}")
            if not isinstance(value, dict):
                raise LineError(f"a line must be a JSON object, not {type(value).__name__}")
            request = self.request(value)
            try:
                if compact:
                    answer = footprints(request)
                    return (True, *compact_tail(answer.command, answer.results))
                outcome = evaluate(request)
            except InputError as exc:
                raise LineError(str(exc), key=exc.param.lstrip("-").replace("-", "_") if exc.param else None) from None
        except LineError as exc:
            return numbered(
                dumps({"line": 0, "key": exc.key, "error": str(exc), "exit_code": exc.exit_code}), exc.exit_code
            )
        except Exception as exc:
            return numbered(
                dumps(
                    {
                        "line": 0,
                        "key": None,
                        "error": f"internal error: {type(exc).__name__}: {exc}",
                        "exit_code": ExitCode.INTERNAL,
                    }
                ),
                ExitCode.INTERNAL,
            )
        write = dumps if request.analysis.explain else self.write
        return False, write(outcome.report.to_dict()), outcome.code


def numbered(record: str, code: int) -> tuple[bool, str, int]:
    """A record written with line number 0, as the text that follows ``{"line":N``."""
    head = '{"line":0'
    assert record.startswith(head)
    return True, record[len(head) :], code


def compact_tail(command: str, results: list[tuple[int, Footprint]]) -> tuple[str, int]:
    """The short answer, after its ``{"line":N``: per flag combination, the object size and the totals;
    and its exit code.  (f-strings: half the time of the same ``%`` template, measured.)"""
    parts = []
    ok = True
    for flags, fp in results:
        errnos = ""
        if fp.errors:
            ok = False
            errnos = ",".join(f'"{e.errno or "hazard"}"' for e in fp.errors)
        size = "null" if fp.object_size is None else fp.object_size
        pages = "null" if fp.hugepages is None else fp.hugepages
        parts.append(
            f'{{"flags":"{kind_flags_label(command, flags)}","object_size":{size},"total_bytes":{fp.total_bytes},'
            f'"heap_bytes":{fp.heap_bytes},"hugepages":{pages},"errors":[{errnos}]}}'
        )
    text = f',"command":"{command}","ok":{"true" if ok else "false"},"results":[{",".join(parts)}]}}'
    return text, _OK if ok else _REJECTED


_OK, _REJECTED = ExitCode.OK, ExitCode.REJECTED


class NotJSON:
    """What :func:`parser` returns for a line that is not JSON (the decoder's message), or is JSON nested
    deeper than :data:`~mpcalc.dpdk.core.limits.MAX_DEPTH`."""

    def __init__(self, message: str) -> None:
        self.message = message


_SCALARS = {str, int, bool, type(None)}


def parser() -> Callable[[bytes], Any]:
    """``json.loads`` for a stripped line, with the same results, faster: orjson where installed, for an
    object of strings, integers, booleans and nulls (orjson reads an integer past 64 bits as a float,
    json does not: anything else is read again by json); anything json cannot read comes back as
    :class:`NotJSON` with json's own message, and so does a line nested deeper than
    :data:`~mpcalc.dpdk.core.limits.MAX_DEPTH` (checked before json, whose recursion it would exhaust)."""
    loads = json.loads
    orjson: Any
    try:
        import orjson
    except ImportError:  # no wheel for this machine: json alone
        orjson = None

    def parse(text: bytes) -> Any:
        if orjson is not None:
            try:
                value = orjson.loads(text)
            except orjson.JSONDecodeError:
                pass  # json words the error
            else:
                if type(value) is dict and set(map(type, value.values())) <= _SCALARS:
                    return value
        if json_too_deep(text):
            return NotJSON(f"nested deeper than {MAX_DEPTH} levels: {quote(text.decode(errors='replace'))}")
        try:
            return loads(text)
        except ValueError as exc:  # JSONDecodeError, UnicodeDecodeError
            return NotJSON(str(exc))

    return parse


class Answerer:
    """Answers the lines of one read: a batch's state (the parser, the memo of answers by a line's exact
    text, the requests' memo tables), in the ``mpcalc batch`` process or in one of its workers."""

    def __init__(self, compact: bool) -> None:
        self.compact = compact
        self.parse = parser()
        self.lines = Lines()
        self.seen: dict[bytes, tuple[bool, str, int]] = {}
        self.too_long = numbered(
            dumps(
                {
                    "line": 0,
                    "key": None,
                    "error": f"line is longer than {MAX_LINE_BYTES:,} bytes",
                    "exit_code": ExitCode.USAGE,
                }
            ),
            ExitCode.USAGE,
        )

    def chunk(self, first: int, chunk: list[bytes | None]) -> tuple[str, int]:
        """The answers to lines ``first``, ``first + 1``, ... (None: a line over the length limit), as one
        text, and the worst exit code among them."""
        seen, pending = self.seen, []
        worst = ExitCode.OK
        for number, line in enumerate(chunk, first):
            if line is None:
                numbered_, answer, code = self.too_long
            else:
                text = line.strip()
                if not text:
                    continue  # a blank line
                found = seen.get(text)
                if found is None:
                    if len(seen) >= MEMO_LIMIT:
                        seen.clear()
                    found = seen[text] = self.lines.answer(self.parse(text), self.compact)
                numbered_, answer, code = found
            pending.append(f'{{"line":{number}{answer}\n' if numbered_ else answer + "\n")
            if code > worst:
                worst = ExitCode(code)
        return "".join(pending), worst


def run_batch(source: IO[bytes], out: IO[str], compact: bool, *, freeze: bool = False) -> int:
    """Answer every line of ``source`` on ``out`` in this process; return the exit code (the worst line's).

    Every read's answers are written (and flushed) before the next read waits, so a producer may feed
    lines one at a time.  Several processes: :func:`mpcalc.service.parallel.answer`.

    ``freeze`` (the ``mpcalc batch`` process) moves what the batch keeps out of the cyclic collector's
    sight after every read (``gc.freeze``): its full collections would otherwise rescan the memo
    tables again and again.  A batch makes no cyclic garbage (tests/test_batch_memory.py).
    """
    import gc

    worst = ExitCode.OK
    progress = Progress("batch")
    answerer = Answerer(compact)
    for first, chunk in split_chunks(source, before_read=out.flush):
        text, code = answerer.chunk(first, chunk)
        out.write(text)
        worst = max(worst, ExitCode(code))
        progress.update(first + len(chunk) - 1)
        if freeze:
            gc.freeze()
    out.flush()
    progress.close()
    return worst
