"""Fixtures that start the real DPDK (Debian libdpdk-dev) through the probe."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import pytest

from .oracle import Probe, build_probe


@pytest.fixture(scope="session")
def probe_binary():
    return build_probe()


@pytest.fixture(scope="session")
def probes(probe_binary) -> Iterator[dict[tuple[int, int], Probe]]:
    """A cache of running probes, one per (channels, ranks): EAL -n/-r are fixed per process."""
    started: dict[tuple[int, int], Probe] = {}

    class _Cache(dict):
        def __missing__(self, key: tuple[int, int]) -> Probe:
            channels, ranks = key
            started[key] = self[key] = Probe(probe_binary, nchannel=channels, nrank=ranks)
            return started[key]

    cache = _Cache()
    yield cache
    for probe in started.values():
        with contextlib.suppress(Exception):
            probe.close()
