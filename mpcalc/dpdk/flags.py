"""Mempool flags: parsing, names and the implications DPDK applies.

Values are identical from 21.11 to 26.07: lib/mempool/rte_mempool.h
(v22.11:lib/mempool/rte_mempool.h:264-312).
"""

from __future__ import annotations

import enum
import itertools
import string

from .errors import InputError


class MempoolFlag(enum.IntFlag):
    NO_SPREAD = 0x0001
    NO_CACHE_ALIGN = 0x0002
    SP_PUT = 0x0004
    SC_GET = 0x0008
    POOL_CREATED = 0x0010  # internal: set once the ops are allocated
    NO_IOVA_CONTIG = 0x0020
    NON_IO = 0x0040  # internal: set by create_empty, cleared by a valid IOVA


#: RTE_MEMPOOL_VALID_USER_FLAGS (v22.11:lib/mempool/rte_mempool.h:304-308)
#: (a plain int: ``~`` on an IntFlag complements only the defined bits)
VALID_USER_FLAGS = int(
    MempoolFlag.NO_SPREAD
    | MempoolFlag.NO_CACHE_ALIGN
    | MempoolFlag.SP_PUT
    | MempoolFlag.SC_GET
    | MempoolFlag.NO_IOVA_CONTIG
)
_ALL_KNOWN = sum(int(f) for f in MempoolFlag)

#: The flags whose combinations change a footprint: what ``--flags all`` sweeps.
SIZING_FLAGS = (MempoolFlag.NO_CACHE_ALIGN, MempoolFlag.NO_SPREAD, MempoolFlag.NO_IOVA_CONTIG)


def _mask(token: str) -> int | None:
    """A decimal or 0x-hex mask, else None (plain string tests: no regex to compile at start-up).

    >>> _mask("35"), _mask("0x23"), _mask("0x"), _mask("no_spread"), _mask("\u0663")
    (35, 35, None, None, None)
    """
    if token.isascii() and token.isdigit():
        return int(token)
    digits = token[2:]
    if token[:2] in ("0x", "0X") and digits and all(c in string.hexdigits for c in digits):
        return int(digits, 16)
    return None


def _lookup(token: str) -> int:
    value = _mask(token)
    if value is not None:
        if value >= 1 << 32:
            raise InputError(f"flag mask {token!r} does not fit the 32-bit flags field")
        return value
    name = token.upper()
    for prefix in ("RTE_MEMPOOL_F_", "MEMPOOL_F_"):
        if name.startswith(prefix):
            name = name[len(prefix):]
            break
    if name in ("NONE", "0"):
        return 0
    try:
        return MempoolFlag[name].value
    except KeyError:
        known = ", ".join(str(f.name).lower() for f in MempoolFlag if f & VALID_USER_FLAGS)
        raise InputError(f"unknown flag {token!r} (known: {known}, none, or a mask such as 0x23)") from None


def parse_flags(text: str) -> int:
    """Parse ``no_cache_align,no_spread``, ``RTE_MEMPOOL_F_NO_SPREAD|SP_PUT``, ``0x23``, ``none``.

    The result is the raw mask; bits DPDK does not accept are kept so that the
    engine can predict DPDK's EINVAL.

    >>> hex(parse_flags("no_cache_align,no_spread")), parse_flags("none"), hex(parse_flags("0x23"))
    ('0x3', 0, '0x23')
    >>> hex(parse_flags("RTE_MEMPOOL_F_NO_IOVA_CONTIG | sc_get"))
    '0x28'
    """
    tokens = text.replace(",", " ").replace("|", " ").split()
    if not tokens:
        raise InputError(f"empty flag list {text!r}")
    mask = 0
    for token in tokens:
        mask |= _lookup(token)
    return mask


def flag_names(mask: int) -> list[str]:
    """Short names of the set bits, unknown bits as hex.

    >>> flag_names(0x23), flag_names(0), flag_names(0x102)
    (['no_spread', 'no_cache_align', 'no_iova_contig'], [], ['no_cache_align', '0x100'])
    """
    names = []
    for flag in MempoolFlag:
        if mask & flag:
            names.append(str(flag.name).lower())
    rest = mask & ~_ALL_KNOWN
    if rest:
        names.append(hex(rest))
    return names


def effective_flags(mask: int) -> int:
    """The flags ``rte_mempool_create_empty`` sizes the pool with.

    It adds NON_IO and makes NO_CACHE_ALIGN imply NO_SPREAD before calling
    ``rte_mempool_calc_obj_size`` (v22.11:lib/mempool/rte_mempool.c:850-858).

    >>> flag_names(effective_flags(MempoolFlag.NO_CACHE_ALIGN))
    ['no_spread', 'no_cache_align', 'non_io']
    """
    mask = int(mask) | MempoolFlag.NON_IO.value
    if mask & MempoolFlag.NO_CACHE_ALIGN:
        mask |= MempoolFlag.NO_SPREAD.value
    return mask


def sizing_combinations() -> list[int]:
    """The 8 combinations of the sizing flags, DPDK's default (no flag) first.

    >>> [flag_names(m) for m in sizing_combinations()][:3]
    [[], ['no_spread'], ['no_cache_align']]
    """
    combos = set()
    for r in range(len(SIZING_FLAGS) + 1):
        for subset in itertools.combinations(SIZING_FLAGS, r):
            combos.add(sum(subset))
    return sorted(int(c) for c in combos)
