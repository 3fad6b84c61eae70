"""A batch line's request, read by a reader built once for its shape: its command and its set of keys.

A batch's lines mostly share a few shapes, and :meth:`mpcalc.service.batch.Lines.read` goes key by key
through a table, checking each key against the command's and wording every error (a sixth of a
compact line's time; measured with callgrind).  :func:`shape_reader` builds, once per shape, a
closure over that shape's steps (per part of the request, a dict of its keys to copy, and for each
key the range of a count or size and its parsed values), which reads a record of the shape with no
question ``Lines.read`` asks only of other shapes: a count or size in its declared range is taken
as it is; any other string or integer is looked up among its key's parsed values.  The reader
returns None for a record it cannot read so (another shape, a value out of range, of another type,
or not parsed yet): that record is ``Lines.read``'s, which parses and memoizes its values, and
words every error.  Nothing here decides what a value means; the table does (``Lines._table``,
from the declarations).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

from mpcalc.dpdk.core.declare import Param
from mpcalc.service.request import NO_ANALYSIS, Request, new_request


class Key(NamedTuple):
    """A batch key of a command, as ``Lines._table`` gives it."""

    #: the part of a request it goes to: 0 the object's arguments, 1 the platform, 2 the analysis
    part: int
    #: the lowest and highest count or size; (1, 0) for a key of another kind (no integer in range)
    lo: int
    hi: int
    #: its declaration
    param: Param
    #: its parsed values, by value (a string or an integer is its own key)
    memo: dict[Any, Any]


#: the one fast path of a batch line: a record's request, or None for ``Lines.read`` to read
Reader = Callable[[Mapping[str, Any]], "Request | None"]


def shape_reader(
    *, command: str, keys: tuple[str, ...], table: Mapping[str, Key], required: tuple[str, ...]
) -> Reader | None:
    """The reader of the records of command ``command`` with the keys ``keys`` (``command`` among
    them; in any order: it reads a record that has exactly these keys), or None when such a record
    always needs ``Lines.read``: a key it does not know, an analysis key, a missing required key, or
    ``routes_file`` (whose ``-`` it refuses).

    >>> from mpcalc.service.batch import Lines
    >>> table, required = Lines()._table("pool")
    >>> read = shape_reader(command="pool", keys=("command", "count", "elt_size"), table=table, required=required)
    >>> read({"command": "pool", "elt_size": 40, "count": 1000})
    Request(command='pool', args={'count': 1000, 'elt_size': 40}, platform={}, analysis=Analysis(...))
    >>> read({"command": "pool", "count": -1, "elt_size": 40}) is None  # out of range: Lines.read words it
    True
    >>> read({"command": "pool", "count": 1000, "elt_size": 40, "cache_size": 0}) is None  # another shape
    True
    """
    fields = [k for k in keys if k != "command"]
    if (
        any(k not in table or table[k].part == 2 for k in fields)
        or not set(required) <= set(fields)
        or "routes_file" in fields
        or len(set(fields)) != len(fields)
    ):
        return None
    size = len(fields) + 1

    def steps(part: int) -> tuple[tuple[str, int, int, Callable[[Any], Any]], ...]:
        """Per key of the part: the key, the lowest and highest count or size, its parsed values' get."""
        return tuple((k, table[k].lo, table[k].hi, table[k].memo.get) for k in fields if table[k].part == part)

    # each part's dict is a copy of one with its keys (no resizing as keys come), the values replaced
    parts = tuple((steps(part), dict.fromkeys(k for k in fields if table[k].part == part)) for part in (0, 1))
    make = new_request

    def read(record: Mapping[str, Any]) -> Request | None:
        if len(record) != size:  # with each key there: exactly this shape's keys
            return None
        out = []
        try:
            for part_steps, keys in parts:
                values = keys.copy()
                for key, lo, hi, get in part_steps:
                    value = record[key]
                    kind = type(value)
                    if kind is int and lo <= value <= hi:  # what Param.parse returns for a count or size in range
                        values[key] = value
                    elif kind is str or kind is int:
                        known = get(value)
                        if known is None:  # not parsed yet, or refused: Lines.read's
                            return None
                        values[key] = known
                    else:  # null, a bool, a float, a list: Lines.read's
                        return None
                out.append(values)
        except KeyError:  # another shape of as many keys
            return None
        return make((command, *out, NO_ANALYSIS))

    return read
