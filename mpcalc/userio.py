"""What every command shares around its output, below the commands themselves: the switches
``--quiet`` and ``--no-color`` (accepted before or after the command name), a stdout whose reader
went away (``mpcalc ... | head -3``), and the informational lines ``--quiet`` silences.

:func:`mpcalc.cli.main` calls :func:`restore` when a command is done, so a run in-process (the test
suite, examples/regen.py) leaves ``sys.stdout``, ``sys.stderr`` and ``NO_COLOR`` as it found them.
"""

from __future__ import annotations

import io
import os
import sys
from typing import Any, TextIO

import click

from mpcalc.dpdk.core.errors import STDOUT, OutputError, os_reason

QUIET_HELP = "Print nothing but errors: no report, no progress, no notes; the exit code is the answer."
NO_COLOR_HELP = "No colour, even on a terminal (as NO_COLOR=1 does)."

#: what :func:`restore` puts back: (sys.stdout, sys.stderr) before --quiet, NO_COLOR before --no-color
_saved_streams: tuple[TextIO, TextIO] | None = None
_saved_no_color: list[str | None] = []


class _NotATerminal(io.TextIOBase):
    """stderr under --quiet: the same stream, but no progress line draws on it (it says it is no terminal)."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def isatty(self) -> bool:
        return False

    def write(self, text: str) -> int:
        return self._stream.write(text)

    def flush(self) -> None:
        self._stream.flush()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def quiet() -> bool:
    """Whether --quiet is in force."""
    return _saved_streams is not None


def _set_quiet(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    global _saved_streams
    if not value or ctx.resilient_parsing or _saved_streams is not None:
        return
    _saved_streams = (sys.stdout, sys.stderr)
    sys.stdout = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 - closed by restore()
    sys.stderr = _NotATerminal(sys.stderr)


def _set_no_color(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    if not value or ctx.resilient_parsing or _saved_no_color:
        return
    _saved_no_color.append(os.environ.get("NO_COLOR"))
    os.environ["NO_COLOR"] = "1"


def switches() -> list[click.Option]:
    """--quiet/-q and --no-color, for the group and for every command (each takes effect when parsed)."""
    return [
        click.Option(
            ["-q", "--quiet"], is_flag=True, expose_value=False, is_eager=True, callback=_set_quiet, help=QUIET_HELP
        ),
        click.Option(
            ["--no-color", "--no-colour"],
            is_flag=True,
            expose_value=False,
            is_eager=True,
            callback=_set_no_color,
            help=NO_COLOR_HELP,
        ),
    ]


def add_switches(command: click.Command) -> click.Command:
    """``command`` with the switches among its options (once)."""
    names = {name for p in command.params for name in getattr(p, "opts", ())}
    if "--quiet" not in names:
        command.params.extend(switches())
    return command


def info(line: str) -> None:
    """An informational line on stderr (``mpcalc: ...``); --quiet drops it."""
    if not quiet():
        click.echo(f"mpcalc: {line}", err=True)


class _Checked:
    """``sys.stdout`` during a run: a write or flush that fails (closed, full, an I/O error) raises
    :class:`~mpcalc.dpdk.core.errors.OutputError` naming it; a reader that went away stays a BrokenPipeError (no
    error, :func:`stdout_closed`).  ``stream`` None: the process started with its stdout closed (``>&-``)."""

    encoding = "utf-8"
    errors = "strict"

    def __init__(self, stream: TextIO | None) -> None:
        self._stream = stream

    def _failed(self, exc: BaseException) -> OutputError:
        stdout_closed()  # what is still buffered goes nowhere: the flush at exit does not fail again
        return OutputError(STDOUT, os_reason(exc))

    def write(self, text: str) -> int:
        if not isinstance(text, str):
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")  # click's probe
        if not text:
            return 0  # click's other probe: nothing to write, nothing to fail
        if self._stream is None:
            raise OutputError(STDOUT, "it is closed")
        try:
            return self._stream.write(text)
        except BrokenPipeError:
            raise
        except (OSError, ValueError) as exc:  # ValueError: a closed file
            raise self._failed(exc) from None

    def flush(self) -> None:
        if self._stream is None:
            return
        try:
            self._stream.flush()
        except BrokenPipeError:
            raise
        except (OSError, ValueError) as exc:
            raise self._failed(exc) from None

    def isatty(self) -> bool:
        return self._stream is not None and self._stream.isatty()

    def fileno(self) -> int:
        if self._stream is None:
            raise io.UnsupportedOperation("standard output is closed")
        return self._stream.fileno()

    def __getattr__(self, name: str) -> Any:
        if self._stream is None:
            raise AttributeError(name)
        return getattr(self._stream, name)


def checking() -> TextIO:
    """Put a :class:`_Checked` stdout in place; return the stream it replaced (for :func:`unchecked`)."""
    stream = sys.stdout
    sys.stdout = _Checked(stream)
    return stream


def unchecked(stream: TextIO) -> None:
    """The stdout :func:`checking` replaced, back."""
    sys.stdout = stream


def stdout_closed() -> None:
    """The reader of stdout is gone (``| head``): what is left to print goes to /dev/null, so neither the
    next write nor the flush at exit fails again.  Not an error: the exit code stays the command's."""
    try:
        fd = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(fd, sys.stdout.fileno())
        finally:
            os.close(fd)
    except (OSError, ValueError, AttributeError):  # no file descriptor (a run in-process)
        pass


def restore() -> None:
    """Undo --quiet and --no-color (end of a command)."""
    global _saved_streams
    if _saved_streams is not None:
        devnull, sys.stdout = sys.stdout, _saved_streams[0]
        sys.stderr = _saved_streams[1]
        _saved_streams = None
        devnull.close()
    if _saved_no_color:
        old = _saved_no_color.pop()
        if old is None:
            os.environ.pop("NO_COLOR", None)
        else:
            os.environ["NO_COLOR"] = old
