"""Exceptions raised for bad input, and the DPDK rejection record."""

import re
from typing import NamedTuple

from mpcalc.dpdk.core.intmath import U32_MAX

#: most characters of the input an error quotes (mpcalc.dpdk.core.limits.quote; InputError holds every message to it)
QUOTE_CHARS = 80
#: a quoted value in a message: a Python repr of a text, its quotes not inside a word (the apostrophe of
#: "doesn't" in a DPDK line the message carries opens no quote)
_QUOTED = re.compile(r"(?<!\w)(?:'(?:[^'\\\n]|\\.)*'|\"(?:[^\"\\\n]|\\.)*\")(?!\w)")
#: longest message, whatever it quotes
_MESSAGE_CHARS = 1000


def _bounded(message: str) -> str:
    """``message`` with every quoted value over :data:`QUOTE_CHARS` characters cut (``'abc'...``): however
    long a bad value, its error is short.

    >>> _bounded("x " * 50 + repr("a" * 200) + " is not a count")[-30:]
    "aaaaaaaaaaa'... is not a count"
    >>> line = "0x10 doesn't match " + "0x1220f " * 30 + "(rte_ethdev.c:1236): 'Fail to configure'"
    >>> _bounded(line) == line
    True
    """
    if len(message) <= 2 * QUOTE_CHARS:
        return message

    def cut(m: re.Match[str]) -> str:
        text = m.group()
        return text if len(text) <= QUOTE_CHARS + 2 else text[: QUOTE_CHARS + 1] + text[0] + "..."

    message = _QUOTED.sub(cut, message)
    return message if len(message) <= _MESSAGE_CHARS else message[:_MESSAGE_CHARS] + "..."


class MpcalcError(ValueError):
    """Base class of every error mpcalc raises on purpose."""


class InputError(MpcalcError):
    """A value given by the user cannot be used; the message quotes it.

    ``param`` names the option, file or key the value came from, when known.
    """

    def __init__(self, message: str, *, param: str | None = None) -> None:
        super().__init__(_bounded(message))
        self.param = param


def check_u32(*values: tuple[int, str]) -> None:
    """Each ``(value, name)`` a value DPDK takes as a uint32_t: else an InputError that quotes it.

    >>> check_u32((8191, "count"), (2304, "elt_size"))
    >>> check_u32((1 << 32, "count"))
    Traceback (most recent call last):
    ...
    mpcalc.dpdk.core.errors.InputError: count 4294967296 does not fit the uint32_t DPDK takes
    """
    for value, what in values:
        if not 0 <= value <= U32_MAX:
            raise InputError(f"{what} {value!r} does not fit the uint32_t DPDK takes", param=what)


class Rejection(NamedTuple):
    """A configuration that DPDK would refuse (or mishandle), with its errno.

    ``errno`` is the symbolic ``rte_errno`` DPDK sets, or ``None`` for a
    hazard: DPDK accepts the input but the result is broken (an integer wraps).
    """

    errno: str | None
    reason: str
    function: str
    source: str

    def to_dict(self) -> dict[str, object]:
        return {
            "errno": self.errno,
            "reason": self.reason,
            "function": self.function,
            "source": self.source,
        }


#: how an error names the standard output
STDOUT = "standard output"


class OutputError(MpcalcError):
    """An output that cannot be written (closed, full, a folder, no permission): the message names it.

    Never a bug, nor a bad input: exit code ``ExitCode.OUTPUT``."""

    def __init__(self, name: str, why: str) -> None:
        super().__init__(f"cannot write {name}: {why}")
        self.name = name


def os_reason(exc: BaseException) -> str:
    """What an OS error says, in words (``No space left on device``)."""
    return (exc.strerror if isinstance(exc, OSError) else None) or str(exc) or type(exc).__name__
