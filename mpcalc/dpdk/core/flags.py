"""Flag vocabularies (:class:`FlagSet`), the mempool's, and the implications DPDK applies to mempool flags.

Values are identical from 21.11 to 26.07: lib/mempool/rte_mempool.h
(v22.11:lib/mempool/rte_mempool.h:264-312).
"""

from __future__ import annotations

import enum
import itertools
import string
from collections.abc import Iterable, Mapping
from typing import NamedTuple

from mpcalc.dpdk.core.errors import InputError


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


class FlagSet(NamedTuple):
    """One object's flag vocabulary: short name -> bit, the DPDK macro prefixes, the sizing flags.

    :meth:`parse` reads ``no_cache_align,no_spread``, ``RTE_MEMPOOL_F_NO_SPREAD|SP_PUT`` or a mask (``0x23``)
    into the raw mask (bits DPDK does not know are kept, so that the model can predict what DPDK does with
    them); :meth:`names` names a mask; :meth:`combinations` lists what ``--flags all`` evaluates.  The
    mempool's is :data:`MEMPOOL_FLAGS`; rte_ring's and rte_hash's are in mpcalc.dpdk.objects.objflags.
    """

    name: str
    bits: Mapping[str, int]
    prefixes: tuple[str, ...]
    #: the flags whose combinations change a footprint: what ``--flags all`` sweeps
    sizing: tuple[str, ...]
    #: bit combinations DPDK refuses (``--flags all`` leaves them out)
    exclusive: tuple[tuple[int, int], ...] = ()
    #: the flags a user may give, as an error lists them (None: every one of :attr:`bits`)
    offered: tuple[str, ...] | None = None

    @property
    def offer(self) -> list[str]:
        """The flag names a user may give (what an error lists, and shell completion offers)."""
        return list(self.offered if self.offered is not None else self.bits)

    def parse(self, text: str) -> int:
        """The mask of ``text``.

        >>> hex(MEMPOOL_FLAGS.parse("no_cache_align,no_spread")), MEMPOOL_FLAGS.parse("none")
        ('0x3', 0)
        >>> hex(MEMPOOL_FLAGS.parse("RTE_MEMPOOL_F_NO_IOVA_CONTIG | sc_get")), hex(MEMPOOL_FLAGS.parse("0x23"))
        ('0x28', '0x23')
        """
        tokens = text.replace(",", " ").replace("|", " ").split()
        if not tokens:
            raise InputError(f"empty flag list {text!r}")
        mask = 0
        for token in tokens:
            mask |= self._lookup(token)
        return mask

    def _lookup(self, token: str) -> int:
        value = _mask(token)
        if value is not None:
            if value >= 1 << 32:
                raise InputError(f"flag mask {token!r} does not fit the 32-bit flags field")
            return value
        name = token.upper()
        for prefix in self.prefixes:
            if name.startswith(prefix):
                name = name[len(prefix) :]
                break
        name = name.lower()
        if name == "none":
            return 0
        if name not in self.bits:
            known = ", ".join(self.offer)
            example = sum(self.bits[n] for n in self.sizing[:2]) | 1
            raise InputError(
                f"unknown {self.name} flag {token!r} (known: {known}, none, or a mask such as {example:#x})"
            )
        return self.bits[name]

    def names(self, mask: int) -> list[str]:
        """Short names of the set bits, unknown bits as hex.

        >>> MEMPOOL_FLAGS.names(0x23), MEMPOOL_FLAGS.names(0), MEMPOOL_FLAGS.names(0x102)
        (['no_spread', 'no_cache_align', 'no_iova_contig'], [], ['no_cache_align', '0x100'])
        """
        out = [n for n, bit in self.bits.items() if mask & bit]
        rest = mask & ~sum(self.bits.values())
        if rest:
            out.append(hex(rest))
        return out

    def combinations(self) -> list[int]:
        """Every combination of the sizing flags DPDK accepts, no flag first.

        >>> [MEMPOOL_FLAGS.names(m) for m in MEMPOOL_FLAGS.combinations()][:3]
        [[], ['no_spread'], ['no_cache_align']]
        """
        bits = [self.bits[n] for n in self.sizing]
        masks = {sum(c) for r in range(len(bits) + 1) for c in itertools.combinations(bits, r)}
        return sorted(m for m in masks if not any(m & a and m & b for a, b in self.exclusive))


#: RTE_MEMPOOL_F_* (v22.11:lib/mempool/rte_mempool.h:264-312); a user gives the valid user flags only
MEMPOOL_FLAGS = FlagSet(
    name="mempool",
    bits={str(f.name).lower(): int(f) for f in MempoolFlag},
    prefixes=("RTE_MEMPOOL_F_", "MEMPOOL_F_"),
    sizing=tuple(str(f.name).lower() for f in SIZING_FLAGS),
    offered=tuple(str(f.name).lower() for f in MempoolFlag if f & VALID_USER_FLAGS),
)


def flags_label(names: Iterable[str], *, prose: bool = False) -> str:
    """A flag combination in one word: its flag names joined by ``|`` (as C writes a mask), or ``none``.

    The one spelling of a combination: a result's label (CSV, diffs, pictures, batch and sweep answers),
    the CI gates' checks and messages, and what a baseline is matched by.  ``prose``: the same names as
    a table's text shows them, a list a terminal can wrap between names.

    >>> flags_label(["no_spread", "no_cache_align"]), flags_label([]), flags_label(["sp_enq", "sc_deq"], prose=True)
    ('no_spread|no_cache_align', 'none', 'sp_enq, sc_deq')
    """
    return (", " if prose else "|").join(names) or "none"


def parse_flags(text: str) -> int:
    """Parse mempool flags (:meth:`FlagSet.parse` of :data:`MEMPOOL_FLAGS`).

    The result is the raw mask; bits DPDK does not accept are kept so that the
    engine can predict DPDK's EINVAL.
    """
    return MEMPOOL_FLAGS.parse(text)


def flag_names(mask: int) -> list[str]:
    """Short names of the set mempool flags, unknown bits as hex (:meth:`FlagSet.names`)."""
    return MEMPOOL_FLAGS.names(mask)


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
    """The 8 combinations of the sizing flags, DPDK's default (no flag) first (:meth:`FlagSet.combinations`)."""
    return MEMPOOL_FLAGS.combinations()
