"""The library's entry points: one sizing function per DPDK object (the model is in mpcalc.dpdk).

Pure Python: no click, no rich (tests/test_purity.py proves it).  Each function returns a
:class:`~mpcalc.dpdk.records.Result`; DPDK's rejections are data in ``Result.errors``, never
exceptions.  Bad input raises :class:`~mpcalc.dpdk.errors.InputError`.  mpcalc.dpdk.fib and
mpcalc.dpdk.mbuf load with the first FIB or mbuf pool (PEP 562), so that ``mpcalc pool`` and
``mpcalc rib`` start without them.
"""

from typing import TYPE_CHECKING, Any

from .dpdk.eal import assemble
from .dpdk.mempool import PoolSpec
from .dpdk.mempool import size as pool
from .dpdk.records import Result
from .dpdk.rib import rib_max_nodes
from .dpdk.rib import size as rib

if TYPE_CHECKING:  # loaded on first use (__getattr__)
    from .dpdk.fib import size as fib
    from .dpdk.fib_spec import FibSpec
    from .dpdk.mbuf import MbufSpec
    from .dpdk.mbuf import size as mbuf

__all__ = ["FibSpec", "MbufSpec", "PoolSpec", "Result", "assemble", "fib", "mbuf", "pool", "rib", "rib_max_nodes"]

_LAZY = {
    "FibSpec": ("fib_spec", "FibSpec"),
    "fib": ("fib", "size"),
    "MbufSpec": ("mbuf", "MbufSpec"),
    "mbuf": ("mbuf", "size"),
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        module, attr = _LAZY[name]
        return getattr(importlib.import_module(f"{__package__}.dpdk.{module}"), attr)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
