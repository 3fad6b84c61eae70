"""Flag vocabularies of the objects whose flags are not mempool flags: rte_ring's ``RING_F_*`` and
rte_hash's ``RTE_HASH_EXTRA_FLAGS_*``.

A :class:`FlagSet` parses ``sp_enq,sc_deq``, ``RING_F_SP_ENQ|RING_F_SC_DEQ`` or a mask (``0x3``) into
the raw mask (bits DPDK does not know are kept, so that the model can predict what DPDK does with
them), names a mask, and lists the combinations ``--flags all`` evaluates: those of the flags that
change the footprint.  Mempool flags stay in :mod:`mpcalc.dpdk.flags`.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from typing import NamedTuple

from .errors import InputError
from .flags import _mask


class FlagSet(NamedTuple):
    """One object's flags: short name -> bit, the DPDK macro prefixes, the sizing flags."""

    name: str
    bits: Mapping[str, int]
    prefixes: tuple[str, ...]
    #: the flags whose combinations change a footprint: what ``--flags all`` sweeps
    sizing: tuple[str, ...]
    #: bit combinations DPDK refuses, and why (``--flags all`` leaves them out)
    exclusive: tuple[tuple[int, int], ...] = ()

    def parse(self, text: str) -> int:
        """The mask of ``text``.

        >>> hex(RING_FLAGS.parse("sp_enq, RING_F_SC_DEQ")), RING_FLAGS.parse("0x14"), RING_FLAGS.parse("none")
        ('0x3', 20, 0)
        >>> HASH_FLAGS.parse("RTE_HASH_EXTRA_FLAGS_EXT_TABLE|multi_writer_add")
        10
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
                name = name[len(prefix):]
                break
        name = name.lower()
        if name == "none":
            return 0
        if name not in self.bits:
            raise InputError(f"unknown {self.name} flag {token!r} (known: {', '.join(self.bits)}, none, or a mask "
                             f"such as {max(self.bits.values()) | 1:#x})")
        return self.bits[name]

    def names(self, mask: int) -> list[str]:
        """Short names of the set bits, unknown bits as hex.

        >>> RING_FLAGS.names(0x85)
        ['sp_enq', 'exact_sz', '0x80']
        """
        out = [n for n, bit in self.bits.items() if mask & bit]
        rest = mask & ~sum(self.bits.values())
        if rest:
            out.append(hex(rest))
        return out

    def combinations(self) -> list[int]:
        """Every combination of the sizing flags DPDK accepts, no flag first.

        >>> RING_FLAGS.combinations(), len(HASH_FLAGS.combinations())
        ([0, 4], 12)
        """
        bits = [self.bits[n] for n in self.sizing]
        masks = {sum(c) for r in range(len(bits) + 1) for c in itertools.combinations(bits, r)}
        return sorted(m for m in masks if not any(m & a and m & b for a, b in self.exclusive))


#: RING_F_* (v22.11:lib/ring/rte_ring_core.h:153-170), identical 21.11-26.07
RING_FLAGS = FlagSet(
    name="ring",
    bits={"sp_enq": 0x1, "sc_deq": 0x2, "exact_sz": 0x4, "mp_rts_enq": 0x8, "mc_rts_deq": 0x10, "mp_hts_enq": 0x20,
          "mc_hts_deq": 0x40},
    prefixes=("RTE_RING_F_", "RING_F_"),
    sizing=("exact_sz",),
)

#: RTE_HASH_EXTRA_FLAGS_* (v22.11:lib/hash/rte_hash.h:34-56), identical 21.11-26.07
HASH_FLAGS = FlagSet(
    name="hash",
    bits={"trans_mem_support": 0x1, "multi_writer_add": 0x2, "rw_concurrency": 0x4, "ext_table": 0x8,
          "no_free_on_del": 0x10, "rw_concurrency_lf": 0x20},
    prefixes=("RTE_HASH_EXTRA_FLAGS_",),
    sizing=("multi_writer_add", "rw_concurrency", "ext_table", "rw_concurrency_lf"),
    # rw_concurrency with rw_concurrency_lf: EINVAL (v22.11:lib/hash/rte_cuckoo_hash.c:182-188)
    exclusive=((0x4, 0x20),),
)

VOCABULARIES: dict[str, FlagSet] = {"ring": RING_FLAGS, "hash": HASH_FLAGS}

#: result kind -> the flag set its Result.flags is in (the others are mempool flags)
KIND_FLAGS: dict[str, FlagSet] = {"ring": RING_FLAGS, "hash": HASH_FLAGS}

#: result kinds that reserve memzones outside any mempool: their JSON results list them as ``memzones``
OWN_ZONES = frozenset({"ring", "hash", "lpm", "lpm6", "app", "ovs"})
