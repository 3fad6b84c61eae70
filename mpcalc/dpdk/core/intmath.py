"""Exact integer helpers that mirror DPDK's C macros.

Every byte count in mpcalc is a Python ``int``; these helpers reproduce the C
semantics (including the uint32 wrap-around) of the macros DPDK uses.

>>> gcd(3, 4), gcd(2, 4), gcd(0, 4), gcd(4, 0)
(1, 2, 4, 4)
"""

from __future__ import annotations

import math
from collections.abc import Callable

U32 = 1 << 32
U32_MAX = U32 - 1
INT_MAX = (1 << 31) - 1


def ceil_a(value: int, align: int) -> int:
    """Round ``value`` up to a multiple of ``align`` (``RTE_ALIGN_CEIL``).

    >>> ceil_a(40, 8), ceil_a(0, 64), ceil_a(65, 64)
    (40, 0, 128)
    """
    return -(-value // align) * align


def u32(value: int) -> int:
    """Truncate to ``uint32_t`` as C assignment does.

    >>> u32(1 << 32), u32(-1)
    (0, 4294967295)
    """
    return value & U32_MAX


def align32pow2(value: int) -> int:
    """``rte_align32pow2``: next power of two of a uint32, wrapping to 0.

    >>> align32pow2(1000001), align32pow2(8192), align32pow2(0), align32pow2(2**31 + 1)
    (1048576, 8192, 0, 0)
    """
    x = value & U32_MAX  # DPDK: x--, then x |= x >> 1 ... >> 16, then x + 1; 0 wraps to 0xffffffff + 1 == 0
    return (1 << (x - 1).bit_length()) & U32_MAX if x else 0


def is_pow2(value: int) -> bool:
    """DPDK's ``POWEROF2(x)``, ``((x - 1) & x) == 0``, which holds for 0.

    >>> is_pow2(0), is_pow2(64), is_pow2(96)
    (True, True, False)
    """
    return ((value - 1) & value) == 0


#: ``get_gcd`` (v22.11:lib/mempool/rte_mempool.c:60-82): Euclid on unsigned ints, gcd(0, b) == b; for the
#: non-negative operands DPDK gives it, that is ``math.gcd`` (in C: the object layout calls it in a loop).
gcd: Callable[[int, int], int] = math.gcd


def ceil_div(value: int, divisor: int) -> int:
    """Integer division rounding up.

    >>> ceil_div(7, 2), ceil_div(8, 2), ceil_div(0, 2)
    (4, 4, 0)
    """
    return -(-value // divisor)


def log2_exact(value: int) -> int:
    """``rte_bsf32`` of a power of two.

    >>> log2_exact(4096), log2_exact(1 << 30)
    (12, 30)
    """
    if value <= 0 or value & (value - 1):
        raise ValueError(f"not a power of two: {value!r}")
    return value.bit_length() - 1


def largest(fits: Callable[[int], bool], lo: int, hi: int) -> int | None:
    """The largest n in [lo, hi] with ``fits(n)``, for a predicate true up to some point and false
    after it (binary search); None when ``fits(lo)`` is false.

    >>> largest(lambda n: n * n <= 50, 1, 100), largest(lambda n: False, 1, 9), largest(lambda n: True, 1, 9)
    (7, None, 9)
    """
    if not fits(lo):
        return None
    while lo < hi:  # invariant: fits(lo); the answer is in [lo, hi]
        mid = (lo + hi + 1) // 2
        if fits(mid):
            lo = mid
        else:
            hi = mid - 1
    return lo
