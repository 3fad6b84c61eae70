"""Turn a recorded probe command line back into the grid case that produced it.

The vectors in ``vectors/`` store the exact probe command (``Case.command()``,
``FibCase.command()``, ``MbufCase.command()``); :func:`case_from_command`
inverts those three formats so a recording can be replayed through the engine
without the probe.  ``memsize`` and ``calc`` lines are parsed by
:func:`memsize_args` and :func:`calc_args`.
"""

from __future__ import annotations

from .grid import Case, FibCase, MbufCase

__all__ = ["calc_args", "case_from_command", "command_word", "memsize_args"]


def command_word(cmd: str) -> str:
    return cmd.split()[0]


def _ints(parts: list[str], n: int, cmd: str) -> list[int]:
    if len(parts) != n:
        raise ValueError(f"expected {n} arguments in {cmd!r}")
    return [int(x, 0) for x in parts]


def case_from_command(cmd: str, channels: int = 4, ranks: int = 1) -> Case | FibCase | MbufCase:
    """The grid case whose ``command()`` is ``cmd`` (``channels``/``ranks``: EAL -n/-r of the probe).

    >>> case_from_command("pool c7 100 40 0 8 0x21", 2, 3)
    Case(kind='pool', name='c7', count=100, elt_size=40, cache_size=0, private_size=8, flags=33, channels=2, ranks=3)
    >>> case_from_command("fib6 c1 10 1 3 5 0")
    FibCase(family=6, name='c1', max_routes=10, dp_type='trie', nh_size=8, num_tbl8=5, ext_size=0)
    """
    word, name, *rest = cmd.split()
    if word == "pool":
        count, elt, cache, priv, flags = _ints(rest, 5, cmd)
        case = Case("pool", name, count, elt, cache, priv, flags, channels, ranks)
    elif word in ("rib", "rib6"):
        count, ext = _ints(rest, 2, cmd)
        case = Case(word, name, count, ext, 0, 0, 0, channels, ranks)
    elif word in ("fib", "fib6"):
        routes, type_id, nh_enum, tbl8, ext = _ints(rest, 5, cmd)
        family = 4 if word == "fib" else 6
        dp_type = "dummy" if type_id == 0 else ("dir24_8" if family == 4 else "trie")
        case = FibCase(family, name, routes, dp_type, 1 << nh_enum, tbl8, ext)
    elif word == "mbuf":
        count, cache, priv, room = _ints(rest, 4, cmd)
        case = MbufCase(name, count, cache, priv, room)
    else:
        raise ValueError(f"not a create command: {cmd!r}")
    if case.command() != cmd:  # the parse must round-trip exactly
        raise ValueError(f"{cmd!r} re-renders as {case.command()!r}")
    return case


def memsize_args(cmd: str) -> tuple[int, int, int, int]:
    """``memsize ELT FLAGS OBJ_NUM PG_SHIFT`` -> (elt, flags, obj_num, pg_shift)."""
    word, *rest = cmd.split()
    if word != "memsize":
        raise ValueError(cmd)
    elt, flags, num, shift = _ints(rest, 4, cmd)
    return elt, flags, num, shift


def calc_args(cmd: str) -> tuple[int, int]:
    """``calc ELT FLAGS`` -> (elt, flags)."""
    word, *rest = cmd.split()
    if word != "calc":
        raise ValueError(cmd)
    elt, flags = _ints(rest, 2, cmd)
    return elt, flags
