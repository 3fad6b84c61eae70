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

import gc
import operator
import sys
import time
from collections.abc import Callable, Iterator
from typing import IO, Any

import click

from ..cli import platform_of
from ..dpdk.mempool import pool_calc
from ..params import _Ranged
from ..dpdk.rib import rib_footprints, rib_max_nodes

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
    ``report(cmd, params)`` runs the command and returns its :class:`~mpcalc.dpdk.records.Report`.
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
        self._fast_plans: dict[object, tuple | None] = {}
        self._calcs: dict[tuple, Any] = {}

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
        memo = (cmd, key, value, type(value))  # with the type: True == 1, and both hash alike
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


    # --- the fast path ------------------------------------------------------------------------

    def _fast_plan(self, name: object) -> tuple | None:
        """For pool, rib and rib6: the keys the fast path takes; the counts and sizes among them, as
        key -> (parameter, minimum, maximum); the free-text ones, as key -> parameter; every key's
        click parameter (None for "command"); and the converted defaults."""
        try:
            return self._fast_plans[name]
        except (KeyError, TypeError):
            pass
        plan = None
        if name in FAST_COMMANDS:
            _, keys, defaults = self.table(name)
            params = {k: prm for k, prm in keys.items() if prm.name not in _FULL_PATH_PARAMS}
            ints = {k: (prm.name, *_int_range(prm)) for k, prm in params.items() if _int_range(prm)[0] is not None}
            texts = {k: prm.name for k, prm in params.items() if prm.type is click.STRING}
            texts["command"] = "command"
            plan = (frozenset(params) | {"command"}, ints, texts, params, defaults)
        self._fast_plans[name] = plan  # type: ignore[index]
        return plan

    def fast_many(self, records: list[Any], labels: dict[int, str]) -> list[tuple[str, int] | None]:
        """Compact answers (the text after ``{"line":N``, and the exit code) of pools and RIBs, summed
        from their sizes (:meth:`mpcalc.dpdk.mempool.PoolCalc.sizes`, :func:`mpcalc.dpdk.rib.rib_footprint`)
        without building their reports, column by column: records of one command and one key set
        are read, checked and converted a key at a time.  None for a record that needs the full
        path: another command, an option that reads a file or analyses (--explain, --fit), a value
        or platform the command rejects (the full path words the error), a missing count."""
        out: list[tuple[str, int] | None] = [None] * len(records)
        commands = [r.get("command") if type(r) is dict else None for r in records]
        for name in FAST_COMMANDS:
            index = [i for i, c in enumerate(commands) if c == name]
            if not index:
                continue
            rows = [records[i] for i in index]
            plan = self._fast_plan(name)
            keys = set().union(*rows)  # every key of the group
            if not keys <= plan[0]:  # type: ignore[index]
                keep = [j for j, r in enumerate(rows) if r.keys() <= plan[0]]  # type: ignore[index]
                index, rows = [index[j] for j in keep], [rows[j] for j in keep]
                keys = set().union(*rows)
            for i, answer in zip(index, self._fast_group(name, keys, rows, labels)):
                out[i] = answer
        return out

    def _fast_group(self, name: str, keys: set[str], rows: list[dict[str, Any]], labels: dict[int, str],
                    ) -> list[tuple[str, int] | None]:
        """The answers of rows of one command whose keys are all in ``keys`` (all known to the plan)."""
        n = len(rows)
        _, ints, texts, params, defaults = self._fast_plan(name)  # type: ignore[misc]
        good = [True] * n
        cols: dict[str, list[Any]] = {}
        every_key = set(map(len, rows)) == {len(keys)}  # each row has every key (the usual batch)
        for key in keys:
            if key == "command":
                continue
            # an absent key reads as null: the command's default
            col = list(map(operator.itemgetter(key), rows)) if every_key else [r.get(key) for r in rows]
            spec = ints.get(key)
            if spec is not None:
                pname, lo, hi = spec
                if not (set(map(type, col)) == _INT and lo <= min(col) and max(col) <= hi):
                    col = self._column(name, key, col, good, defaults.get(pname))
            elif key in texts:
                pname = texts[key]
                if set(map(type, col)) != _STR:
                    col = self._column(name, key, col, good, defaults.get(pname))
            else:
                pname = params[key].name
                if set(map(type, col)) <= _INT_STR:  # flags, page sizes: convert each distinct value once
                    try:
                        conv = {v: self.convert(name, key, params[key], v) for v in set(col)}
                    except LineError:
                        col = self._column(name, key, col, good, defaults.get(pname))
                    else:
                        col = [conv[v] for v in col]
                else:
                    col = self._column(name, key, col, good, defaults.get(pname))
            cols[pname] = col

        def column(pname: str) -> list[Any]:
            found = cols.get(pname)
            return found if found is not None else [defaults.get(pname)] * n

        calcs = self._calcs_of([column(p) for p in _PLATFORM_PARAMS], good)
        masks = column("flag_masks")
        if name == "pool":
            sizes = self._pool_sizes(calcs, good, column("name"), column("count"), column("elt_size"),
                                     column("cache_size"), column("private_size"), masks, column("cache_layout"))
        else:
            sizes = self._rib_sizes(calcs, good, 4 if name == "rib" else 6, column("name"), column("routes"),
                                    column("nodes"), column("ext_size"), masks)
        answers: list[tuple[str, int] | None] = []
        one = ',"command":"%s","ok":true,"results":[' % name + _RESULT + "]}"  # one flag combination, no error
        for fp, ms, calc in zip(sizes, masks, calcs):
            if fp is None:
                answers.append(None)
            elif type(fp) is not list and not fp.errors:  # the usual line: one flag combination, no error
                heap = fp.heap_bytes
                page = calc.p.page_size
                label = labels.get(ms[0]) or flags_label(ms[0], labels)
                answers.append((one % (label, fp.object_size, fp.total_bytes, heap,
                                       -(-heap // page) if page else "null", ""), EXIT_OK))
            else:
                answers.append(_compact(name, ms, fp if type(fp) is list else [fp], calc.p.page_size, labels))
        return answers

    def _column(self, name: str, key: str, col: list[Any], good: list[bool], default: Any) -> list[Any]:
        """A column converted a value at a time (the CLI's own conversion, memoized); a value it
        rejects marks its row for the full path."""
        _, ints, texts, params, _ = self._fast_plan(name)  # type: ignore[misc]
        prm = params[key]
        lo, hi = ints[key][1:] if key in ints else (None, None)
        text = key in texts
        seen: dict[tuple[Any, type], Any] = {}
        out = []
        for j, v in enumerate(col):
            kind = type(v)
            if v is None:
                out.append(default)
            elif kind is int and lo is not None and lo <= v <= hi or kind is str and text:
                out.append(v)
            elif kind is list or kind is dict:  # unhashable: converted (or refused) each time
                try:
                    out.append(self.convert(name, key, prm, v))
                except LineError:
                    good[j] = False
                    out.append(None)
            else:
                memo = (v, kind)
                if memo not in seen:
                    try:
                        seen[memo] = self.convert(name, key, prm, v)
                    except LineError:
                        seen[memo] = _BAD
                found = seen[memo]
                if found is _BAD:
                    good[j] = False
                out.append(found)
        return out

    def _calcs_of(self, columns: list[list[Any]], good: list[bool]) -> list[Any]:
        """Each row's platform, as its PoolCalc (None, and the row marked, where it is rejected)."""
        if all(good) and all(len(set(col)) == 1 for col in columns):  # one platform for every row: the usual batch
            calcs = [self._calc(tuple(col[0] for col in columns))] * len(good)
        else:  # (a row already marked has a rejected value in some column)
            calcs = [self._calc(pkey) if ok else None for ok, pkey in zip(good, zip(*columns))]
        for j, calc in enumerate(calcs):
            if calc is None:
                good[j] = False
        return calcs

    def _calc(self, pkey: tuple) -> Any:
        """The PoolCalc of platform_of(*pkey), memoized; None when the platform is rejected."""
        calc = self._calcs.get(pkey)
        if calc is None:
            try:
                calc = pool_calc(platform_of(*pkey))
            except ValueError:  # the full path words the platform's rejection
                return None
            if len(self._calcs) >= _MEMO_LIMIT:
                self._calcs.clear()
            self._calcs[pkey] = calc
        return calc

    @staticmethod
    def _pool_sizes(calcs: list[Any], good: list[bool], names: list[Any], counts: list[Any], elt_sizes: list[Any],
                    cache_sizes: list[Any], private_sizes: list[Any], masks: list[Any], layouts: list[Any],
                    ) -> list[Any]:
        """Each row's PoolSizes (:func:`_by_platform`); None for a row the full path answers (a
        rejected value, or a missing --count / elt_size)."""
        if all(good) and None not in counts and None not in elt_sizes:  # the usual batch
            rows = list(range(len(good)))
        else:
            rows = [j for j, ok in enumerate(good) if ok and counts[j] is not None and elt_sizes[j] is not None]
        columns = (names, counts, elt_sizes, cache_sizes, private_sizes, layouts)

        def sizes(calc: Any, at: list[int], mask: list[int], whole: bool) -> list[Any]:
            name, count, elt, cache, private, layout = columns if whole else _take(columns, at)
            return calc.sizes_many(name, count, elt, cache, private, mask, layout)

        return _by_platform(len(good), rows, calcs, masks, sizes)

    @staticmethod
    def _rib_sizes(calcs: list[Any], good: list[bool], family: int, names: list[Any], routes: list[Any],
                   nodes: list[Any], ext_sizes: list[Any], masks: list[Any]) -> list[Any]:
        """Each row's RibFootprint (:func:`_by_platform`); None for a row the full path answers (a
        rejected value, or not exactly one of routes and nodes)."""
        rows = [j for j, ok in enumerate(good) if ok and (routes[j] is None) != (nodes[j] is None)]

        def sizes(calc: Any, at: list[int], mask: list[int], whole: bool) -> list[Any]:
            max_nodes = [nodes[j] if routes[j] is None else rib_max_nodes(routes[j]) for j in at]
            name, ext = (names, ext_sizes) if whole else _take((names, ext_sizes), at)
            return rib_footprints(name, max_nodes, ext, mask, family, calc)

        return _by_platform(len(good), rows, calcs, masks, sizes)


def _take(columns: tuple[list[Any], ...], at: list[int]) -> tuple[list[Any], ...]:
    """The columns at positions ``at``."""
    return tuple([col[j] for j in at] for col in columns)


def _by_platform(n: int, rows: list[int], calcs: list[Any], masks: list[list[int]],
                 sizes: Callable[[Any, list[int], list[int], bool], list[Any]]) -> list[Any]:
    """Run ``sizes(calc, positions, masks, whole)`` once per platform over the rows (a row with several
    flag combinations once per combination; ``whole``: the positions are every row, in order).  Each
    row's result: one footprint for one flag combination, a list of them (in flag order) for several,
    None for a row not in ``rows``."""
    if len(rows) == n and len(set(map(id, calcs))) == 1 and set(map(len, masks)) == {1}:  # the usual batch
        return sizes(calcs[0], rows, [m[0] for m in masks], True)
    out: list[Any] = [None] * n
    groups: dict[int, list[int]] = {}
    for j in rows:
        groups.setdefault(id(calcs[j]), []).append(j)
    for at in groups.values():
        calc = calcs[at[0]]
        if all(len(masks[j]) == 1 for j in at):
            for j, s in zip(at, sizes(calc, at, [masks[j][0] for j in at], len(at) == n)):
                out[j] = s
        else:
            pos = [j for j in at for _ in masks[j]]
            for j in at:
                out[j] = []
            for j, s in zip(pos, sizes(calc, pos, [m for j in at for m in masks[j]], False)):
                out[j].append(s)
    return out


def _compact(name: str, masks: list[int], fps: list[Any], page: int, labels: dict[int, str]) -> tuple[str, int]:
    """The compact answer of one configuration from its footprints (one per flag combination)."""
    parts = []
    ok = True
    for mask, fp in zip(masks, fps):
        heap = fp.heap_bytes
        errnos = ""
        if fp.errors:
            ok = False
            errnos = ",".join('"%s"' % (e.errno or "hazard") for e in fp.errors)
        parts.append(compact_result(flags_label(mask, labels), fp.object_size, fp.total_bytes, heap,
                                    -(-heap // page) if page else None, errnos))
    return _TAIL % (name, "true" if ok else "false", ",".join(parts)), EXIT_OK if ok else EXIT_REJECTED


_BAD = object()  # a value the CLI rejects (its row goes down the full path)
_INT, _STR, _INT_STR = {int}, {str}, {int, str}  # a column's set of value types (a bool is not an int here)
_SCALARS = {str, int, bool, type(None)}


#: the commands the fast path answers, and the parameters that send a line down the full path
FAST_COMMANDS = ("pool", "rib", "rib6")
_FULL_PATH_PARAMS = frozenset({"build_config", "use_pkg_config", "explain", "fit"})
#: platform_of's arguments: parameters of every sizing command
_PLATFORM_PARAMS = ("dpdk", "arch", "preset", "cache_line", "max_lcore", "debug", "stats", "channels", "ranks",
                    "page_size")


def _int_range(prm: click.Parameter) -> tuple[int | None, int | None]:
    """(minimum, maximum) of a count or size parameter; (None, None) for any other."""
    t = prm.type
    if isinstance(t, _Ranged):
        return t.minimum, t.maximum
    return None, None


def _key(param: str | None) -> str | None:
    return param.lstrip("-").replace("-", "_") if param else None


def split_chunks(stream: IO[bytes], limit: int = MAX_LINE_BYTES, before_read: Callable[[], None] | None = None,
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
                lines[0] = None if pending_len + len(head) > limit else b"".join(pending) + head  # type: ignore[arg-type]
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


def split_lines(stream: IO[bytes], limit: int = MAX_LINE_BYTES, before_read: Callable[[], None] | None = None,
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


def flags_label(mask: int, labels: dict[int, str]) -> str:
    """``no_cache_align|no_spread`` (or ``none``), memoized in ``labels``."""
    label = labels.get(mask)
    if label is None:
        from ..dpdk.flags import flag_names

        label = labels[mask] = "|".join(flag_names(mask)) or "none"
    return label


#: one flag combination of a compact record, and the record after its ``{"line":N``
_RESULT = '{"flags":"%s","object_size":%s,"total_bytes":%d,"heap_bytes":%d,"hugepages":%s,"errors":[%s]}'
_TAIL = ',"command":"%s","ok":%s,"results":[%s]}'


def compact_result(label: str, object_size: int | None, total: int, heap: int, hugepages: int | None,
                   errnos: str = "") -> str:
    """One flag combination of a compact record (``errnos``: the quoted errnos, comma separated)."""
    return _RESULT % (label, "null" if object_size is None else object_size, total, heap,
                      "null" if hugepages is None else hugepages, errnos)


def compact_tail(report: Any, labels: dict[int, str]) -> str:
    """The short answer, after its ``{"line":N``: per flag combination, the object size and the totals."""
    parts = []
    for r in report.results:
        obj = r.mempools[0].objsz.total_size if r.mempools and r.mempools[0].objsz else None
        errnos = ",".join('"%s"' % (e.errno or "hazard") for e in r.errors)
        parts.append(compact_result(flags_label(r.flags, labels), obj, r.total_bytes, r.heap_bytes, r.hugepages,
                                    errnos))
    return _TAIL % (report.command, "true" if report.ok else "false", ",".join(parts))


def run_batch(ctx: click.Context, source: IO[bytes], out: IO[str], compact: bool, *, freeze: bool = False) -> int:
    """Answer every line of ``source`` on ``out``; return the exit code.

    A read's lines are answered together: each new line is parsed, the compact answers of pools
    and RIBs come from :meth:`Evaluator.fast_many`, every other line runs the command's own code.

    ``freeze`` (the ``mpcalc batch`` process) moves what the batch keeps (memo tables, answers) out
    of the cyclic collector's sight after every read (``gc.freeze``): its full collections would
    otherwise rescan them again and again, a sixth of a long batch's time.  A batch makes no
    cyclic garbage (tests/test_fastpath.py), so nothing is kept that reference counting would
    not free.
    """
    import json

    dumps = _dumps()
    parse = _parser(json)
    ev = Evaluator(ctx)
    labels: dict[int, str] = {}
    #: the answer of a line's exact text: (numbered, text, exit code); a numbered answer is written as
    #: '{"line":N' + text, a full document (which carries no line number) as it is
    seen: dict[bytes, tuple[bool, str, int]] = {}
    too_long = _numbered(dumps({"line": 0, "key": None, "error": f"line is longer than {MAX_LINE_BYTES:,} bytes",
                                "exit_code": EXIT_USAGE}), EXIT_USAGE)
    pending: list[str] = []
    worst = EXIT_OK
    progress = Progress("batch")

    def flush() -> None:
        if pending:
            out.write("".join(pending))
            pending.clear()
        out.flush()

    for first, lines in split_chunks(source, before_read=flush):
        texts = [None if line is None else line.strip() for line in lines]
        new = list(dict.fromkeys([t for t in texts if t and t not in seen]))
        if new:
            if len(seen) + len(new) > _MEMO_LIMIT:
                seen.clear()
            values = [parse(t) for t in new]
            fast: list[tuple[str, int] | None] = [None] * len(new)
            if compact:
                try:
                    fast = ev.fast_many(values, labels)
                except Exception:  # noqa: BLE001 - a fault of the shortcut: every line takes the command's code
                    pass
            for text, value, answer in zip(new, values, fast):
                seen[text] = (True, *answer) if answer is not None else _answer(ev, value, dumps, compact, labels)
        for number, text in enumerate(texts, first):
            if not text:
                if text is not None:
                    continue  # a blank line
                numbered, answer, code = too_long
            else:
                numbered, answer, code = seen[text]
            pending.append('{"line":%d%s\n' % (number, answer) if numbered else answer + "\n")
            if code > worst:
                worst = code
        if len(pending) >= 4096:
            out.write("".join(pending))
            pending.clear()
        progress.update(first + len(lines) - 1)
        if freeze:
            gc.freeze()
    flush()
    progress.close()
    return worst


class _NotJSON:
    """What :func:`_parser` returns for a line that is not JSON: the decoder's message."""

    def __init__(self, message: str) -> None:
        self.message = message


def _parser(json: Any) -> Callable[[bytes], Any]:
    """``json.loads`` for a stripped line, with the same results, faster: orjson where installed (3x),
    for an object of strings, integers, booleans and nulls (orjson reads an integer past 64 bits as a
    float, json does not: an object with a float, a list or an object inside is read again); else
    the decoder's ``raw_decode`` on UTF-8 (a third faster than json.loads: no encoding detection, no
    whitespace scan); anything else goes to ``json.loads``, which words the error exactly as before
    (returned as :class:`_NotJSON`)."""
    raw_decode = json.JSONDecoder().raw_decode
    loads = json.loads
    try:
        import orjson
    except ImportError:
        orjson = None

    def parse(text: bytes) -> Any:
        if orjson is not None:
            try:
                value = orjson.loads(text)
            except ValueError:  # orjson.JSONDecodeError: json words it
                pass
            else:
                if type(value) is dict and set(map(type, value.values())) <= _SCALARS:
                    return value
        try:
            string = text.decode()
            value, end = raw_decode(string)
            if end == len(string):
                return value
        except ValueError:  # JSONDecodeError, UnicodeDecodeError
            pass
        try:
            return loads(text)
        except ValueError as exc:  # JSONDecodeError, UnicodeDecodeError
            return _NotJSON(str(exc))

    return parse


def _answer(ev: Evaluator, value: Any, dumps: Callable[[Any], str], compact: bool, labels: dict[int, str],
            ) -> tuple[bool, str, int]:
    """The answer to one line's JSON value by the command's own code, as (numbered, text, exit code)."""
    try:
        if isinstance(value, _NotJSON):
            raise LineError(f"not JSON: {value.message}")
        if not isinstance(value, dict):
            raise LineError(f"a line must be a JSON object, not {type(value).__name__}")
        report = ev.report(*ev.params(value))
    except LineError as exc:
        return _numbered(dumps({"line": 0, "key": exc.key, "error": str(exc), "exit_code": exc.exit_code}),
                         exc.exit_code)
    except Exception as exc:  # noqa: BLE001 - an internal fault on one line must not end the batch
        return _numbered(dumps({"line": 0, "key": None, "error": f"internal error: {type(exc).__name__}: {exc}",
                                "exit_code": EXIT_REJECTED}), EXIT_REJECTED)
    code = EXIT_OK if report.ok else EXIT_REJECTED
    if compact:
        return True, compact_tail(report, labels), code
    return False, dumps(report.to_dict()), code


def _numbered(record: str, code: int) -> tuple[bool, str, int]:
    """A record written with line number 0, as the text that follows ``{"line":N``."""
    head = '{"line":0'
    assert record.startswith(head)
    return True, record[len(head):], code


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
        return run_batch(ctx, source, out, compact, freeze=True)
    try:
        source = open(input_file, "rb")  # noqa: SIM115 - closed below
    except OSError as exc:
        raise click.BadParameter(f"cannot read {input_file!r}: {exc.strerror}", param_hint="FILE") from None
    with source:
        return run_batch(ctx, source, out, compact, freeze=True)
