"""``mpcalc batch``: many configurations, one JSON line each, answered as a stream.

Input is JSON Lines: one object per line, keyed like the command line.  ``"command"`` names
the command (pool, rib, rib6, fib, fib6, mbuf); every other key is a long option with ``_``
for ``-`` (``elt_size`` for ``--elt-size``, ``platform`` for ``--platform``), its value a JSON
number, ``true``/``false`` for a switch, or the string the command line takes (``"1M"``,
``"2M"``, ``"no_cache_align|no_spread"``); ``flags`` may also be a list or ``"all"``.  Values
are parsed by the CLI's own parameter types, so batch and CLI accept exactly the same inputs.

Output: one JSON line per input line, in order.  By default it is the document the command's
``--json`` prints (compact, on one line); ``--compact`` writes a short record per configuration
instead (the totals of each flag combination).  A line that cannot be used yields an error
record ``{"line": N, "key": ..., "error": ..., "exit_code": 2}`` and the batch goes on.  Blank
lines are skipped.  Exit code: 2 if any line was bad, else 1 if DPDK would reject any
configuration, else 0.

The input is read in chunks as it arrives and every answer is written (and flushed) before the
next read waits, so a producer may feed configurations one at a time.  A line longer than
:data:`MAX_LINE_BYTES` is skipped, not stored, and answered with an error record.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator
from typing import IO, Any

import click

#: the commands a batch line may name
SIZING_COMMANDS = ("pool", "rib", "rib6", "fib", "fib6", "mbuf")
#: longest accepted input line (bytes, without its newline)
MAX_LINE_BYTES = 1 << 20
#: options of a command that a batch line may not set (parameter -> key): batch writes the output itself,
#: and the CI gates (--max-total, --baseline) belong to single runs
_OUTPUT_PARAMS = {"fmt": "format", "as_json": "json", "svg": "svg", "max_total": "max_total", "baseline": "baseline",
                  "tolerance": "tolerance"}
#: options that read a file: a configuration with one is not memoized
_FILE_PARAMS = ("routes_file", "build_config", "use_pkg_config")
#: memo sizes: the tables are cleared when they grow past this (bounded memory)
_MEMO_LIMIT = 1 << 16
#: read size: one read of what has arrived, then every complete line of it is answered
_CHUNK = 1 << 16

EXIT_OK, EXIT_REJECTED, EXIT_USAGE = 0, 1, 2


class LineError(Exception):
    """A batch line that cannot be evaluated: the key it concerns and the message."""

    def __init__(self, message: str, key: str | None = None, exit_code: int = EXIT_USAGE) -> None:
        super().__init__(message)
        self.key = key
        self.exit_code = exit_code


def _dumps() -> Callable[[Any], str]:
    import json

    return json.JSONEncoder(ensure_ascii=True, separators=(",", ":")).encode


class Evaluator:
    """Parse configurations with the CLI's parameter types and run the CLI's own command bodies.

    ``record(cmd, mapping)`` turns a batch record into the command's click parameters;
    ``report(cmd, params)`` runs the command and returns its :class:`~mpcalc.model.Report`.
    Conversions, parameter sets and reports are memoized (every input is immutable), so a
    repeated configuration costs a dictionary lookup.
    """

    def __init__(self, ctx: click.Context) -> None:
        self.ctx = ctx
        root = ctx.find_root()
        self.group: click.Group = root.command  # type: ignore[assignment]
        self._tables: dict[str, tuple[click.Command, dict[str, click.Parameter], dict[str, Any]]] = {}
        self._converted: dict[tuple[str, str, Any], Any] = {}
        self._reports: dict[tuple, Any] = {}
        self._required: dict[str, list[tuple[str, str]]] = {}
        self._collector: list = []

    # --- parameters --------------------------------------------------------------------------

    def table(self, name: object) -> tuple[click.Command, dict[str, click.Parameter], dict[str, Any]]:
        """The command, its keys (long option names with ``_``) and its converted defaults."""
        found = self._tables.get(name)  # type: ignore[arg-type]
        if found is not None:
            return found
        if not isinstance(name, str) or name not in SIZING_COMMANDS:
            raise LineError(f"command {name!r} is not one of {', '.join(SIZING_COMMANDS)}", key="command")
        cmd = self.group.get_command(self.ctx, name)
        if cmd is None:  # pragma: no cover - the sizing commands are always registered
            raise LineError(f"command {name!r} is not available", key="command")
        keys: dict[str, click.Parameter] = {}
        defaults: dict[str, Any] = {}
        sub = click.Context(cmd, info_name=name, parent=self.ctx)
        for param in cmd.params:
            if not isinstance(param, click.Option):
                continue
            if param.name not in _OUTPUT_PARAMS:
                for opt in param.opts:
                    if opt.startswith("--"):
                        keys[opt[2:].replace("-", "_")] = param
            default = "json" if param.name == "fmt" else param.get_default(sub)
            if param.required:
                continue
            defaults[param.name] = None if default is None else param.type.convert(default, param, sub)  # type: ignore[index]
        self._required[name] = [(p.name, p.opts[-1].lstrip("-").replace("-", "_")) for p in cmd.params
                                if p.required and p.name]
        self._tables[name] = found = (cmd, keys, defaults)
        return found

    def convert(self, cmd: str, key: str, param: click.Parameter, value: Any) -> Any:
        """A value as the command line would parse it (memoized on hashable values)."""
        if isinstance(value, list):
            if param.name != "flag_masks" or not all(isinstance(v, str) for v in value):
                raise LineError(f"{value!r} is not a value for --{key.replace('_', '-')}", key=key)
            value = ",".join(value) if value else "none"
        elif isinstance(value, dict) or (isinstance(value, float) and not value.is_integer()):
            raise LineError(f"{value!r} is not a value for --{key.replace('_', '-')}", key=key)
        elif isinstance(value, float):
            value = int(value)
        switch = isinstance(param.type, click.types.BoolParamType)
        if isinstance(value, bool) != switch:
            raise LineError(f"{value!r} is not a value for --{key.replace('_', '-')}"
                            + (" (true or false)" if switch else ""), key=key)
        memo = (cmd, key, value)
        try:
            return self._converted[memo]
        except KeyError:
            pass
        raw = str(value) if isinstance(param.type, click.Choice) and isinstance(value, int) else value
        try:
            out = param.type.convert(raw, param, self.ctx)
        except click.BadParameter as exc:
            raise LineError(exc.message, key=key) from None
        if len(self._converted) >= _MEMO_LIMIT:
            self._converted.clear()
        self._converted[memo] = out
        return out

    def params(self, record: dict[str, Any]) -> tuple[str, dict[str, Any], tuple | None]:
        """A batch record as (command, the click parameters its callback takes, its memo key)."""
        if "command" not in record:
            raise LineError("no \"command\" key (one of " + ", ".join(SIZING_COMMANDS) + ")", key="command")
        name = record["command"]
        cmd, keys, defaults = self.table(name)
        params = dict(defaults)
        given: list[tuple[str, Any]] = []
        for key, value in record.items():
            if key == "command":
                continue
            param = keys.get(key)
            if param is None:
                why = " (not in a batch)" if key in _OUTPUT_PARAMS.values() else ""
                raise LineError(f"unknown key {key!r} for {name}{why}; known: {', '.join(sorted(keys))}", key=key)
            if value is None:
                continue
            params[param.name] = out = self.convert(name, key, param, value)  # type: ignore[index]
            given.append((param.name, tuple(out) if isinstance(out, list) else out))  # type: ignore[arg-type]
        for pname, key in self._required[name]:
            if params.get(pname) is None:
                raise LineError(f"{name} needs {key!r}", key=key)
        if params.get("routes_file") == "-":
            raise LineError("routes_file '-' would read the batch's own input", key="routes_file")
        memo = None if any(params.get(k) for k in _FILE_PARAMS) else (name, *sorted(given))
        return name, params, memo

    # --- evaluation --------------------------------------------------------------------------

    def report(self, name: str, params: dict[str, Any], memo: tuple | None = None) -> Any:
        """Run the command's callback (the CLI's own code) and collect its report; ``memo``, the key
        of a configuration that reads no file, remembers it."""
        if memo is not None:
            hit = self._reports.get(memo)
            if hit is not None:
                return hit
        cmd, _, _ = self.table(name)
        collector = self._collector
        collector.clear()
        previous, self.ctx.obj = self.ctx.obj, collector
        try:
            cmd.callback(**params)  # type: ignore[misc]
        except click.ClickException as exc:
            raise LineError(exc.format_message()) from None
        except ValueError as exc:  # InputError (an MpcalcError) and friends: the user's value
            raise LineError(str(exc), key=_key(getattr(exc, "param", None))) from None
        finally:
            self.ctx.obj = previous
        report = collector[0][0]
        if memo is not None:
            if len(self._reports) >= _MEMO_LIMIT:
                self._reports.clear()
            self._reports[memo] = report
        return report


def _key(param: str | None) -> str | None:
    return param.lstrip("-").replace("-", "_") if param else None


def split_lines(stream: IO[bytes], limit: int = MAX_LINE_BYTES, before_read: Callable[[], None] | None = None,
                ) -> Iterator[tuple[int, bytes | None]]:
    """(1-based number, line) for every line of a binary stream, read in chunks as they arrive.

    A line longer than ``limit`` bytes is yielded as ``None`` and never held in memory whole.
    ``before_read`` runs before every read that may wait (to flush the answers so far).
    """
    read = getattr(stream, "read1", None) or stream.read
    number = 0
    pending: list[bytes] = []
    pending_len = 0
    skipping = False
    while True:
        if before_read is not None:
            before_read()
        chunk = read(_CHUNK)
        if not chunk:
            break
        start = 0
        while True:
            end = chunk.find(b"\n", start)
            if end < 0:
                rest = chunk[start:]
                if not skipping:
                    pending_len += len(rest)
                    if pending_len > limit:
                        skipping, pending, pending_len = True, [], 0
                    else:
                        pending.append(rest)
                break
            number += 1
            if skipping:
                skipping = False
                yield number, None
            else:
                piece = chunk[start:end]
                if pending:
                    pending.append(piece)
                    piece = b"".join(pending)
                    pending, pending_len = [], 0
                yield number, (piece if len(piece) <= limit else None)
            start = end + 1
    if skipping or pending:
        number += 1
        yield number, (None if skipping else b"".join(pending))


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


def compact_record(line: int, name: str, report: Any, labels: dict[int, str]) -> str:
    """The short answer: per flag combination, the object size and the totals."""
    from ..flags import flag_names

    parts = []
    for r in report.results:
        label = labels.get(r.flags)
        if label is None:
            label = labels[r.flags] = "|".join(flag_names(r.flags)) or "none"
        obj = r.mempools[0].objsz.total_size if r.mempools and r.mempools[0].objsz else None
        errnos = ",".join('"%s"' % (e.errno or "hazard") for e in r.errors)
        parts.append('{"flags":"%s","object_size":%s,"total_bytes":%d,"heap_bytes":%d,"hugepages":%s,"errors":[%s]}'
                     % (label, "null" if obj is None else obj, r.total_bytes, r.heap_bytes,
                        "null" if r.hugepages is None else r.hugepages, errnos))
    return '{"line":%d,"command":"%s","ok":%s,"results":[%s]}' % (
        line, name, "true" if report.ok else "false", ",".join(parts))


def run_batch(ctx: click.Context, source: IO[bytes], out: IO[str], compact: bool) -> int:
    """Answer every line of ``source`` on ``out``; return the exit code."""
    import json

    dumps = _dumps()
    loads = json.loads
    ev = Evaluator(ctx)
    labels: dict[int, str] = {}
    #: the answer of a line's exact text (the line number is filled in per line)
    seen: dict[bytes, tuple[str, str | None, int]] = {}
    pending: list[str] = []
    worst = EXIT_OK
    progress = Progress("batch")

    def flush() -> None:
        if pending:
            out.write("".join(pending))
            pending.clear()
        out.flush()

    for number, line in split_lines(source, before_read=flush):
        if line is None:
            rec = {"line": number, "key": None, "error": f"line is longer than {MAX_LINE_BYTES:,} bytes",
                   "exit_code": EXIT_USAGE}
            pending.append(dumps(rec) + "\n")
            worst = EXIT_USAGE
            continue
        text = line.strip()
        if not text:
            continue
        hit = seen.get(text)
        if hit is None:
            hit = _answer(ev, text, loads, dumps, compact, labels)
            if len(seen) >= _MEMO_LIMIT:
                seen.clear()
            seen[text] = hit
        head, tail, code = hit
        pending.append(head + "\n" if tail is None else f"{head}{number}{tail}\n")
        if code > worst:
            worst = code
        if len(pending) >= 4096:
            out.write("".join(pending))
            pending.clear()
        if number & 0x3FF == 0:
            progress.update(number)
    flush()
    progress.close()
    return worst


def _answer(ev: Evaluator, text: bytes, loads: Callable[[bytes], Any], dumps: Callable[[Any], str], compact: bool,
            labels: dict[int, str]) -> tuple[str, str | None, int]:
    """The answer to one line as (head, tail, exit code): ``head + str(line) + tail``, or ``head``
    alone when ``tail`` is None (the full document does not carry the line number)."""
    try:
        try:
            record = loads(text)
        except ValueError as exc:  # JSONDecodeError, UnicodeDecodeError
            raise LineError(f"not JSON: {exc}") from None
        if not isinstance(record, dict):
            raise LineError(f"a line must be a JSON object, not {type(record).__name__}")
        report = ev.report(*ev.params(record))
        name = report.command
    except LineError as exc:
        return _numbered(dumps({"line": 0, "key": exc.key, "error": str(exc), "exit_code": exc.exit_code}),
                         exc.exit_code)
    except Exception as exc:  # noqa: BLE001 - an internal fault on one line must not end the batch
        return _numbered(dumps({"line": 0, "key": None, "error": f"internal error: {type(exc).__name__}: {exc}",
                                "exit_code": EXIT_REJECTED}), EXIT_REJECTED)
    code = EXIT_OK if report.ok else EXIT_REJECTED
    if compact:
        return _numbered(compact_record(0, name, report, labels), code)
    return dumps(report.to_dict()), None, code


def _numbered(record: str, code: int) -> tuple[str, str | None, int]:
    head = '{"line":'
    assert record.startswith(head + "0")
    return head, record[len(head) + 1:], code


@click.command("batch")
@click.argument("input_file", metavar="[FILE]", type=click.Path(dir_okay=False, allow_dash=True), default="-")
@click.option("--compact", is_flag=True,
              help="One short record per line (flags, object size, totals, errnos) instead of the full document.")
@click.pass_context
def command(ctx: click.Context, input_file: str, compact: bool) -> int:
    """Evaluate JSON Lines configurations (FILE or stdin), one JSON answer per line, streaming.

    Each line is an object such as {"command": "pool", "count": 1000, "elt_size": 40, "flags": ["no_spread"]}:
    "command" is pool, rib, rib6, fib, fib6 or mbuf; every other key is a long option with _ for -.
    Each answer is the document --json prints (or, with --compact, a short record); a bad line
    yields {"line": N, "key": ..., "error": ..., "exit_code": 2} and the batch goes on.
    Exit code: 2 if any line was bad, else 1 if DPDK would reject any configuration, else 0.
    """
    out = sys.stdout
    if input_file == "-":
        source = sys.stdin.buffer
        return run_batch(ctx, source, out, compact)
    try:
        source = open(input_file, "rb")  # noqa: SIM115 - closed below
    except OSError as exc:
        raise click.BadParameter(f"cannot read {input_file!r}: {exc.strerror}", param_hint="FILE") from None
    with source:
        return run_batch(ctx, source, out, compact)
