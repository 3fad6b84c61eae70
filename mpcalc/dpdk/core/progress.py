"""How far the model's long work has got (reading a route file, replaying it), told to whoever asked.

Pure: the model writes nothing.  A front end that wants a counter passes its reporter down with
:func:`reporting` (the command line passes mpcalc.stream.Progress, drawn on a terminal only); without one,
the work reports to no one.  A reporter is called as ``reporter(what, total)`` when a piece of work starts
and returns what follows it: ``update(done)`` as it goes, ``close()`` when it ends.

>>> seen = []
>>> class Counter:
...     def __init__(self, what, total=None):
...         self.what = what
...     def update(self, done):
...         seen.append((self.what, done))
...     def close(self):
...         seen.append((self.what, "done"))
>>> with task("replaying") as update:
...     update is None
True
>>> with reporting(Counter), task("replaying", total=2) as update:
...     update(1)
>>> seen
[('replaying', 1), ('replaying', 'done')]
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Callable, Iterator
from typing import Protocol


class Tracker(Protocol):
    """One piece of work, as a reporter follows it."""

    def update(self, done: int) -> None: ...

    def close(self) -> None: ...


#: ``reporter(what, total) -> Tracker``: what a front end passes down
Reporter = Callable[..., Tracker]

_REPORTER: contextvars.ContextVar[Reporter | None] = contextvars.ContextVar("mpcalc_progress", default=None)


@contextlib.contextmanager
def reporting(reporter: Reporter | None) -> Iterator[None]:
    """The model's work reports to ``reporter`` inside this block (None: to no one)."""
    token = _REPORTER.set(reporter)
    try:
        yield
    finally:
        _REPORTER.reset(token)


@contextlib.contextmanager
def task(what: str, total: int | None = None) -> Iterator[Callable[[int], None] | None]:
    """A piece of work: the callback to tell how far it got (None when no one asked), closed at the end."""
    reporter = _REPORTER.get()
    if reporter is None:
        yield None
        return
    tracker = reporter(what, total=total)
    try:
        yield tracker.update
    finally:
        tracker.close()
