"""Exceptions raised for bad input, and the DPDK rejection record."""

from typing import NamedTuple


class MpcalcError(ValueError):
    """Base class of every error mpcalc raises on purpose."""


class InputError(MpcalcError):
    """A value given by the user cannot be used; the message quotes it.

    ``param`` names the option, file or key the value came from, when known.
    """

    def __init__(self, message: str, *, param: str | None = None) -> None:
        super().__init__(message)
        self.param = param


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
