"""A batch line's request, read by a function compiled for its shape: its command and its set of keys.

A batch's lines mostly share a few shapes, and :meth:`mpcalc.app.batch.Lines.read` goes key by key
through a table (a sixth of a compact line's time; measured with callgrind).  :func:`compile_shape`
writes, once per shape, the same reading as straight-line Python, as :func:`collections.namedtuple`
and :mod:`dataclasses` write their methods: a count or size in its declared range is taken as it is;
any other string or integer is looked up among its key's parsed values.  The function returns None
for a record it cannot read so (a value out of range, of another type, or not parsed yet): that
record is ``Lines.read``'s, which parses and memoizes its values, and words every error.  Nothing
here decides what a value means; the table does (``Lines._table``, from the declarations).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ..dpdk.declare import Param
from .request import NO_ANALYSIS, Request, new_request

#: a batch key of a command, as ``Lines._table`` gives it: (part of the request: 0 the object's arguments,
#: 1 the platform, 2 the analysis; the lowest and highest count or size, (1, 0) for none; its declaration;
#: its parsed values by value)
Key = tuple[int, int, int, Param, dict[Any, Any]]

#: a compiled reader: a record's request, or None
Reader = Callable[[Mapping[str, Any]], "Request | None"]


def compile_shape(
    name: str, keys: tuple[str, ...], table: Mapping[str, Key], required: tuple[str, ...]
) -> Reader | None:
    """The reader of the records of command ``name`` with the keys ``keys`` (``command`` among them; in
    any order: it reads a record that has exactly these keys), or None when such a record always
    needs ``Lines.read``: a key it does not know, an analysis key, a missing required key, or
    ``routes_file`` (whose ``-`` it refuses).

    >>> from mpcalc.app.batch import Lines
    >>> table, required = Lines()._table("pool")
    >>> read = compile_shape("pool", ("command", "count", "elt_size"), table, required)
    >>> read({"command": "pool", "elt_size": 40, "count": 1000})
    Request(command='pool', args={'count': 1000, 'elt_size': 40}, platform={}, analysis=Analysis(...))
    >>> read({"command": "pool", "count": -1, "elt_size": 40}) is None  # out of range: Lines.read words it
    True
    >>> read({"command": "pool", "count": 1000, "elt_size": 40, "cache_size": 0}) is None  # another shape
    True
    """
    fields = [k for k in keys if k != "command"]
    if (
        any(k not in table or table[k][0] == 2 for k in fields)
        or not set(required) <= set(fields)
        or "routes_file" in fields
        or len(set(fields)) != len(fields)
    ):
        return None
    namespace: dict[str, Any] = {"new_request": new_request, "NO_ANALYSIS": NO_ANALYSIS}
    # the values, or None for a record of another shape
    lines = ["def read(record):", f"    if len(record) != {len(fields) + 1}:", "        return None", "    try:"]
    lines += [f"        v{i} = record[{key!r}]" for i, key in enumerate(fields)]
    lines += ["    except KeyError:", "        return None"]
    parts: tuple[list[str], list[str]] = ([], [])
    for i, key in enumerate(fields):
        part, lo, hi, _param, memo = table[key]
        namespace[f"get{i}"] = memo.get
        if lo <= hi:  # a count or a size: in range, the value is what Param.parse returns
            lines += [
                f"    if type(v{i}) is int and {lo} <= v{i} <= {hi}:",
                f"        x{i} = v{i}",
                f"    elif type(v{i}) is str:",
                f"        x{i} = get{i}(v{i})",
                f"        if x{i} is None:",
                "            return None",
                "    else:",
                "        return None",
            ]
        else:  # as Lines.read: a bool, a float or a list is parsed with its type
            lines += [
                f"    if type(v{i}) is not str and type(v{i}) is not int:",
                "        return None",
                f"    x{i} = get{i}(v{i})",
                f"    if x{i} is None:",
                "        return None",
            ]
        parts[part].append(f"{key!r}: x{i}")
    args, platform = (", ".join(p) for p in parts)
    lines.append(f"    return new_request(({name!r}, {{{args}}}, {{{platform}}}, NO_ANALYSIS))")
    # the keys are declared ones (checked above), written with repr; the bounds are integers
    exec(compile("\n".join(lines), f"<batch reader of {', '.join(fields)}>", "exec"), namespace)
    reader: Reader = namespace["read"]
    return reader
