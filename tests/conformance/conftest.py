"""Fixtures that start the real DPDK (Debian libdpdk-dev) through the probe, and the ``conformance`` mark.

Every test under tests/conformance/ is marked ``conformance``: ``pytest -m "not conformance"`` runs the unit suite
alone, ``pytest -m conformance`` this suite alone. When the ``-m`` expression cannot select a conformance test,
the modules here are not even imported (some evaluate ``skipif`` conditions that reserve hugepages at import).
"""

from __future__ import annotations

import contextlib
import itertools
import os
import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from .oracle import Probe, build_probe

HERE = Path(__file__).resolve().parent

#: an identifier of a pytest -m expression (the scanner's rule in _pytest/mark/expression.py)
_MARK_IDENT = re.compile(r"(?:\w|:|\+|-|\.|\[|\]|\\|/)+")
_MARK_KEYWORDS = {"and", "or", "not", "True", "False", "None"}


def _has(marks: set[str]) -> Callable[..., bool]:
    """A -m matcher for a test with exactly ``marks``."""
    return lambda name, /, **kwargs: name in marks


def _may_select_conformance(markexpr: str) -> bool:
    """Whether ``-m markexpr`` is true for some test marked ``conformance``, whatever its other marks.

    Tries every combination of the other names in the expression (True when unsure: a wrong True only costs
    importing this suite to deselect it; a wrong False would silently drop tests).
    """
    if not markexpr.strip():
        return True
    try:
        from _pytest.mark.expression import Expression

        expr = Expression.compile(markexpr)
        others = sorted({m.group() for m in _MARK_IDENT.finditer(markexpr)} - _MARK_KEYWORDS - {"conformance"})
        if len(others) > 12:
            return True
        return any(
            expr.evaluate(_has({"conformance", *(name for name, on in zip(others, values, strict=True) if on)}))
            for values in itertools.product((False, True), repeat=len(others))
        )
    except Exception:
        return True


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    if HERE in collection_path.parents and not _may_select_conformance(config.getoption("markexpr", "") or ""):
        return True
    return None


@pytest.hookimpl(tryfirst=True)  # before the mark plugin's hook deselects by -m
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if HERE in item.path.parents:
            item.add_marker(pytest.mark.conformance)


@pytest.fixture(scope="session")
def probe_binary():
    return build_probe()


#: the most probes the cache keeps alive at once (MPCALC_MAX_PROBES): each is an EAL with up to 3 GiB of
#: --no-huge memory, and the grids ask for 32 (channels, ranks) pairs (once 33 processes, 8.7 GB resident)
MAX_PROBES = max(2, int(os.environ.get("MPCALC_MAX_PROBES", "4")))


@pytest.fixture(scope="session")
def probes(probe_binary) -> Iterator[dict[tuple[int, int], Probe]]:
    """A cache of running probes, one per (channels, ranks): EAL -n/-r are fixed per process.  At most
    MAX_PROBES are alive: asking for another closes the least recently used one (never the default (4, 1),
    which tests hold for a long time); the grids use one (channels, ranks) group at a time."""
    started: dict[tuple[int, int], Probe] = {}

    class _Cache(dict):
        def __getitem__(self, key: tuple[int, int]) -> Probe:
            if key in started:  # most recently used last
                started[key] = started.pop(key)
            return super().__getitem__(key)

        def __missing__(self, key: tuple[int, int]) -> Probe:
            while len(started) >= MAX_PROBES:
                victim = next((k for k in started if k != (4, 1)), None)
                if victim is None:
                    break
                self.pop(victim, None)
                with contextlib.suppress(Exception):
                    started.pop(victim).close()
            channels, ranks = key
            started[key] = Probe(probe_binary, nchannel=channels, nrank=ranks)
            dict.__setitem__(self, key, started[key])
            return started[key]

    cache = _Cache()
    yield cache
    for probe in started.values():
        with contextlib.suppress(Exception):
            probe.close()
