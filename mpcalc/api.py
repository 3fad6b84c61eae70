"""mpcalc from Python: every DPDK object and whole application, sized as its command sizes it.

:func:`size` takes a kind (:func:`kinds`: ``pool``, ``rib``, ``fib``, ``app``, ``ovs``, ``trace``, ...) and
its parameters keyed as ``mpcalc <kind> --help`` names them (``--elt-size`` is ``elt_size``), each given as
the command line would give it (``"1M"``, ``"2K"``) or as a number, and the platform's (``dpdk``,
``arch``, ``page_size``, ...) as ``platform=`` (``{"dpdk": "23.11", "page_size": "1G"}``).  It returns the
:class:`Report` the command renders: one :class:`Result` per flag combination, ``to_dict()`` the command's
``--json`` document.  The same declarations make the command, so the two cannot disagree (tests/test_api.py).

>>> from mpcalc import api
>>> report = api.size("rib", routes="1M")
>>> report.results[0].total_bytes
400801632
>>> api.size("pool", count=8191, elt_size="2304", platform={"page_size": "4K"}).results[0].hugepages
8208
>>> api.size("app", command_line=["dpdk-testpmd", "-l", "0-1", "--vdev", "net_null0", "--", "-i"]).ok
True

Bad input raises :class:`InputError`, whose message quotes the bad value; what DPDK itself would refuse is
data (``Result.errors``), not an exception.  The functions of the first mpcalc API (:func:`pool`,
:func:`rib`, :func:`fib`, :func:`mbuf` with their specs, and :func:`assemble`) stay: they take the model's
own arguments and a :class:`Platform` (:func:`platform`).

No click, no rich (tests/test_purity.py).  mpcalc.dpdk.objects.fib and .mbuf load with the first FIB or mbuf
pool (PEP 562), so that ``mpcalc pool`` and ``mpcalc rib`` start without them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from mpcalc.dpdk.core import registry
from mpcalc.dpdk.core.errors import InputError
from mpcalc.dpdk.core.heap import assemble
from mpcalc.dpdk.core.platform import PLATFORM_PARAMS, Platform, platform_from
from mpcalc.dpdk.core.records import Result
from mpcalc.dpdk.objects.mempool import PoolSpec
from mpcalc.dpdk.objects.mempool import size as pool
from mpcalc.dpdk.objects.rib import rib_max_nodes
from mpcalc.dpdk.objects.rib import size as rib
from mpcalc.service.documents import Report

if TYPE_CHECKING:  # loaded on first use (__getattr__)
    from mpcalc.dpdk.objects.fib import size as fib
    from mpcalc.dpdk.objects.fib_spec import FibSpec
    from mpcalc.dpdk.objects.mbuf import MbufSpec
    from mpcalc.dpdk.objects.mbuf import size as mbuf

__all__ = [
    "FibSpec",
    "InputError",
    "MbufSpec",
    "Platform",
    "PoolSpec",
    "Report",
    "Result",
    "assemble",
    "fib",
    "kinds",
    "mbuf",
    "platform",
    "pool",
    "rib",
    "rib_max_nodes",
    "size",
]

_LAZY = {
    "FibSpec": ("mpcalc.dpdk.objects.fib_spec", "FibSpec"),
    "fib": ("mpcalc.dpdk.objects.fib", "size"),
    "MbufSpec": ("mpcalc.dpdk.objects.mbuf", "MbufSpec"),
    "mbuf": ("mpcalc.dpdk.objects.mbuf", "size"),
}


def kinds() -> tuple[str, ...]:
    """Every kind :func:`size` sizes, in the order ``mpcalc --help`` lists them.

    >>> kinds()[:4]
    ('pool', 'mbuf', 'rib', 'fib')
    """
    return registry.NAMES


def _parsed(params: Any, given: Mapping[str, Any], what: str) -> dict[str, Any]:
    by_key = {p.key: p for p in params}
    unknown = sorted(set(given) - set(by_key))
    if unknown:
        raise InputError(f"{what} has no parameter {unknown[0]!r} (it has: {', '.join(by_key)})", param=unknown[0])
    return {k: by_key[k].parse(v) if v is not None else None for k, v in given.items()}


def platform(**options: Any) -> Platform:
    """The build and machine of ``options`` keyed as the platform's options (``dpdk="22.11"``,
    ``page_size="1G"``, ``max_lcore=256``, ...); absent ones take their defaults.

    >>> platform(page_size="1G").page_size, platform(dpdk="23.11").release.version
    (1073741824, '23.11')
    """
    return platform_from(_parsed(PLATFORM_PARAMS, options, "the platform"))


def size(kind: str, /, *, platform: Mapping[str, Any] | None = None, **args: Any) -> Report:
    """Size ``kind`` (one of :func:`kinds`) with ``args`` on ``platform`` (the platform's options), as
    ``mpcalc <kind>`` does: its Report (``to_dict()`` is the command's ``--json``).  A flags parameter takes a
    list of flag names (``flags=["no_cache_align"]``) or one comma-separated string.

    >>> size("ring", count=1000, flags="exact_sz").results[0].total_bytes
    8600
    >>> size("ring", counts=1)
    Traceback (most recent call last):
    ...
    mpcalc.dpdk.core.errors.InputError: ring has no parameter 'counts' (it has: count, esize, name, flags)
    """
    from mpcalc.service.request import evaluate, request_of  # the application layer, loaded with a request

    if kind not in registry.NAMES:
        raise InputError(f"{kind!r} is not a kind mpcalc sizes (known: {', '.join(registry.NAMES)})", param="kind")
    decl = registry.get(kind)
    values = _parsed(decl.params, args, kind)
    values.update(_parsed(PLATFORM_PARAMS, dict(platform or {}), "the platform"))
    return evaluate(request_of(kind, values)).report


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        module, attr = _LAZY[name]
        return getattr(importlib.import_module(module), attr)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
