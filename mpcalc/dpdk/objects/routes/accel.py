"""The replays and the plain reader in C (``._accel``) where it was built, else in Python: the same answers.

``setup.py`` builds ``mpcalc/dpdk/objects/routes/_accel.c`` as an optional extension: where there is no compiler the
package installs without it and these functions return None, so their callers run ``.fast4`` / ``.fast6`` /
``.table._bulk``.  The C code is a port of those Python functions, statement for statement, and
tests/test_routes_accel.py holds them to each other (and both to the line-by-line reference).
``MPCALC_PURE=1`` in the environment makes :data:`ACCEL` None: the pure path, on a machine that has both; so
does a build of another version of the C source (its ``VERSION``: rebuild with ``python setup.py build_ext
--inplace``).

Pure Python, stdlib only (no click, no rich); the extension, where present, is stdlib-free C.
"""

from __future__ import annotations

import sys
from array import array
from collections.abc import Sequence

from mpcalc.dpdk.core.extensions import load_extension
from mpcalc.dpdk.objects.routes.add_record import Trace
from mpcalc.dpdk.objects.routes.fast4 import Clobbered

#: the _accel.c this Python expects (its VERSION): a build of an older source is not used
VERSION = 2


#: the C module, or None (not built, or MPCALC_PURE set)
ACCEL = load_extension(f"{__package__}._accel", VERSION)


def _trace(result: tuple[bytes, bytes, bytes, bytes, bytes, int, int, int, int], n: int) -> Trace:
    codes, route, peak, rsvd, after, in_use, reserved, distinct, clobbered = result
    if clobbered >= 0:
        raise Clobbered(clobbered)
    trace = Trace(n)
    trace.codes = bytearray(codes)
    for name, raw in (("ev_route", route), ("ev_peak", peak), ("ev_rsvd", rsvd), ("ev_after", after)):
        column = array("Q")
        column.frombytes(raw)
        setattr(trace, name, column)
    trace.in_use, trace.rsvd, trace.distinct = in_use, reserved, distinct
    return trace


def _u32(values: Sequence[int]) -> array[int] | memoryview:
    if isinstance(values, array) and values.typecode == "I" and values.itemsize == 4:
        return values
    return array("I", values)


def replay(nets: Sequence[int], depths: bytes | bytearray, ids: Sequence[int], family: int) -> Trace | None:
    """The trace in C (raises Clobbered as the Python replays do), or None where there is no C replay."""
    if ACCEL is None or array("I").itemsize != 4:
        return None
    if family == 4:
        return _trace(ACCEL.replay4(_u32(nets), bytes(depths), _u32(ids)), len(depths))
    replay6 = getattr(ACCEL, "replay6", None)  # needs a 128-bit integer type in C
    if replay6 is None:
        return None
    packed = b"".join([x.to_bytes(16, "big") for x in nets])
    return _trace(replay6(packed, bytes(depths), _u32(ids)), len(depths))


def parse(data: bytes, family: int) -> tuple[Sequence[int], bytes, array[int] | None] | None:
    """Columns of a chunk of canonical plain lines (see ``table._bulk``), or None."""
    parser = getattr(ACCEL, "parse", None)
    if parser is None or array("I").itemsize != 4:
        return None
    got = parser(data, family)
    if got is None:
        return None
    raw, depths, raw_nhs = got
    nets: Sequence[int]
    if family == 4:
        nets = array("I")
        nets.frombytes(raw)
    else:
        words = array("Q")
        words.frombytes(raw)
        if sys.byteorder == "little":
            words.byteswap()
        nets = [h << 64 | lo for h, lo in zip(words[0::2], words[1::2], strict=True)]
    nhs = None
    if raw_nhs is not None:
        nhs = array("Q")
        nhs.frombytes(raw_nhs)
    return nets, depths, nhs
