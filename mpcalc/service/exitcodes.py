"""The exit codes of every mpcalc command, streams included (docs/exit-codes.md)."""

import enum


class ExitCode(enum.IntEnum):
    OK = 0
    #: DPDK would reject a configuration (or an answer could not be found)
    REJECTED = 1
    #: a bad option, value, file or line
    USAGE = 2
    #: a CI gate: a total over --max-total, or grown beyond --baseline's tolerance
    BUDGET = 3
    #: a fault of mpcalc itself (a bug), never a verdict on the configuration
    INTERNAL = 4
    #: an output cannot be written: standard output closed or full, a file that cannot be written
    OUTPUT = 5
    #: interrupted (Ctrl-C), as a shell reports a SIGINT
    INTERRUPTED = 130
