"""The one fast way to make a record: a NamedTuple from a tuple of its values, without a Python frame.

Pure: stdlib only.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

_T = TypeVar("_T", bound=tuple[Any, ...])

__all__ = ["positional"]


def positional(cls: type[_T]) -> Callable[[tuple[Any, ...]], _T]:
    """``cls(*values)`` of a NamedTuple class without its generated ``__new__`` (a Python frame), for the
    records a batch line makes: ``positional(Footprint)((size, total, heap, pages, errors))``.

    >>> from mpcalc.dpdk.core.records import Footprint
    >>> positional(Footprint)((64, 1, 2, None, ())) == Footprint(64, 1, 2, None, ())
    True
    """
    return functools.partial(tuple.__new__, cls)
