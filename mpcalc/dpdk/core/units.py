"""Parse counts and byte sizes, and show bytes to people.

Counts: ``1K``/``1M``/``1G``/``1T`` are powers of 10; ``1Ki``/``1Mi``/``1Gi``/``1Ti``
powers of 2.  Byte sizes: ``K``/``M``/``G``/``T`` and ``KiB``/``MiB``/... are
binary (as hugepage sizes are written: ``2M``, ``1G``); ``KB``/``MB``/``GB``/``TB``
are decimal; a bare number or ``B`` means bytes.  Fractions are accepted only when
the value is a whole number (``1.5M`` is 1,500,000; ``0.5`` is an error).
"""

from __future__ import annotations

import re

from mpcalc.dpdk.core.errors import InputError
from mpcalc.dpdk.core.limits import quote

_NUMBER = re.compile(r"^\s*(?P<num>[0-9][0-9_]*(?:\.[0-9]+)?|0[xX][0-9a-fA-F]+)\s*(?P<unit>[A-Za-z]*)\s*$")

_COUNT_UNITS = {
    "": 1,
    "k": 10**3,
    "m": 10**6,
    "g": 10**9,
    "t": 10**12,
    "ki": 2**10,
    "mi": 2**20,
    "gi": 2**30,
    "ti": 2**40,
}

_SIZE_UNITS = {
    "": 1,
    "b": 1,
    "k": 2**10,
    "m": 2**20,
    "g": 2**30,
    "t": 2**40,
    "ki": 2**10,
    "mi": 2**20,
    "gi": 2**30,
    "ti": 2**40,
    "kib": 2**10,
    "mib": 2**20,
    "gib": 2**30,
    "tib": 2**40,
    "kb": 10**3,
    "mb": 10**6,
    "gb": 10**9,
    "tb": 10**12,
}


def _parse(text: str | int, units: dict[str, int], what: str) -> int:
    if isinstance(text, int) and not isinstance(text, bool):
        return text
    match = _NUMBER.match(str(text))
    if match is None:
        raise InputError(f"{quote(text)} is not a {what}")
    num, unit = match["num"], match["unit"].lower()
    if unit not in units:
        raise InputError(f"{quote(text)} has an unknown unit {match['unit']!r}")
    if num[:2].lower() == "0x":
        return int(num, 16) * units[unit]
    if "." not in num:
        return int(num.replace("_", "")) * units[unit]
    from fractions import Fraction  # exact decimals, imported only when a number has a point

    value = Fraction(num.replace("_", "")) * units[unit]
    if value.denominator != 1:
        raise InputError(f"{quote(text)} is not a whole number of {'bytes' if what == 'size' else 'items'}")
    return int(value)


def parse_count(text: str | int) -> int:
    """Parse an object or route count.

    >>> parse_count("1M"), parse_count("1Mi"), parse_count("1.5K"), parse_count("8191")
    (1000000, 1048576, 1500, 8191)
    """
    return _parse(text, _COUNT_UNITS, "count")


def parse_size(text: str | int) -> int:
    """Parse a byte size.

    >>> parse_size("2M"), parse_size("1GiB"), parse_size("1GB"), parse_size("64B"), parse_size("4K")
    (2097152, 1073741824, 1000000000, 64, 4096)
    """
    return _parse(text, _SIZE_UNITS, "size")


_IEC = ("B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB")


def iec(nbytes: int) -> str:
    """A byte count in IEC units for people (exact below 1 KiB).

    >>> iec(64), iec(409044672), iec(2**20), iec(1057024)
    ('64 B', '390.1 MiB', '1.0 MiB', '1.0 MiB')
    """
    value = abs(nbytes)
    exp = 0
    while value >= 1024 and exp < len(_IEC) - 1:
        value //= 1024
        exp += 1
    if exp == 0:
        return f"{nbytes} B"
    shown = abs(nbytes) / 1024**exp  # floats only for the human-readable text
    if round(shown, 1) >= 1024 and exp < len(_IEC) - 1:
        exp += 1
        shown = abs(nbytes) / 1024**exp
    sign = "-" if nbytes < 0 else ""
    return f"{sign}{shown:.1f} {_IEC[exp]}"


def size_label(nbytes: int) -> str:
    """Exact bytes with IEC beside them.

    >>> size_label(409044672)
    '409,044,672 B (390.1 MiB)'
    >>> size_label(64)
    '64 B'
    """
    if abs(nbytes) < 1024:
        return f"{nbytes:,} B"
    return f"{nbytes:,} B ({iec(nbytes)})"


def page_label(page_size: int) -> str:
    """How a page size is written on the command line.

    >>> page_label(4096), page_label(2 * 2**20), page_label(2**30), page_label(0), page_label(65536)
    ('4K', '2M', '1G', 'none', '64K')
    """
    if page_size == 0:
        return "none"
    for suffix, unit in (("G", 2**30), ("M", 2**20), ("K", 2**10)):
        if page_size % unit == 0:
            return f"{page_size // unit}{suffix}"
    return str(page_size)
