"""mpcalc.dpdk.core.flags: parsing flag lists, names, and the implications rte_mempool_create_empty applies.

Values: lib/mempool/rte_mempool.h (v22.11:264-312); RTE_MEMPOOL_VALID_USER_FLAGS = 0x2f.
"""

from __future__ import annotations

import pytest

from mpcalc.dpdk.core.errors import InputError
from mpcalc.dpdk.core.flags import (
    SIZING_FLAGS,
    VALID_USER_FLAGS,
    MempoolFlag,
    effective_flags,
    flag_names,
    parse_flags,
    sizing_combinations,
)

NS, NCA, SP, SC, CREATED, NIC, NON_IO = (0x1, 0x2, 0x4, 0x8, 0x10, 0x20, 0x40)


def test_flag_values_match_dpdk():
    # v22.11:lib/mempool/rte_mempool.h:264-300
    assert MempoolFlag.NO_SPREAD == NS
    assert MempoolFlag.NO_CACHE_ALIGN == NCA
    assert MempoolFlag.SP_PUT == SP
    assert MempoolFlag.SC_GET == SC
    assert MempoolFlag.POOL_CREATED == CREATED
    assert MempoolFlag.NO_IOVA_CONTIG == NIC
    assert MempoolFlag.NON_IO == NON_IO
    # v22.11:lib/mempool/rte_mempool.h:304-308
    assert VALID_USER_FLAGS == 0x2F


@pytest.mark.parametrize(
    ("text", "mask"),
    [
        ("no_spread", NS),
        ("no_cache_align", NCA),
        ("sp_put", SP),
        ("sc_get", SC),
        ("no_iova_contig", NIC),
        ("NO_SPREAD", NS),
        ("No_Cache_Align", NCA),
        ("RTE_MEMPOOL_F_NO_SPREAD", NS),
        ("RTE_MEMPOOL_F_NO_CACHE_ALIGN", NCA),
        ("RTE_MEMPOOL_F_SP_PUT", SP),
        ("RTE_MEMPOOL_F_SC_GET", SC),
        ("RTE_MEMPOOL_F_NO_IOVA_CONTIG", NIC),
        ("rte_mempool_f_no_iova_contig", NIC),
        ("MEMPOOL_F_NO_SPREAD", NS),  # legacy aliases, still defined in v26.07
        ("MEMPOOL_F_NO_CACHE_ALIGN", NCA),
        ("MEMPOOL_F_SP_PUT", SP),
        ("MEMPOOL_F_SC_GET", SC),
        ("MEMPOOL_F_NO_IOVA_CONTIG", NIC),
    ],
)
def test_single_names(text, mask):
    assert parse_flags(text) == mask


@pytest.mark.parametrize(
    ("text", "mask"),
    [
        ("0x23", 0x23),
        ("0X23", 0x23),
        ("35", 0x23),
        ("0", 0),
        ("0x0", 0),
        ("0x40", 0x40),  # kept: the engine predicts DPDK's EINVAL
        ("0xffffffff", 0xFFFFFFFF),
    ],
)
def test_masks(text, mask):
    assert parse_flags(text) == mask


@pytest.mark.parametrize(
    ("text", "mask"),
    [
        ("no_cache_align,no_spread", NCA | NS),
        ("no_cache_align|no_spread", NCA | NS),
        ("no_cache_align no_spread", NCA | NS),
        ("no_cache_align, no_spread", NCA | NS),
        ("  no_cache_align , no_spread ,, ", NCA | NS),
        ("RTE_MEMPOOL_F_NO_SPREAD|SP_PUT", NS | SP),
        ("RTE_MEMPOOL_F_NO_IOVA_CONTIG | sc_get", NIC | SC),
        ("no_cache_align,no_spread,no_iova_contig", 0x23),
        ("MEMPOOL_F_SP_PUT|RTE_MEMPOOL_F_SC_GET", SP | SC),
        ("0x1,no_cache_align", NS | NCA),
        ("no_spread,no_spread", NS),
        ("none", 0),
        ("NONE", 0),
        ("none,no_spread", NS),
    ],
)
def test_lists(text, mask):
    assert parse_flags(text) == mask


@pytest.mark.parametrize("token", ["bogus", "no-spread", "nospread", "RTE_MEMPOOL_F_BOGUS", "-1", "0xZZ", "all"])
def test_unknown_token_is_named(token):
    with pytest.raises(InputError) as info:
        parse_flags(f"no_spread,{token}")
    assert repr(token) in str(info.value)
    assert isinstance(info.value, ValueError)


def test_unknown_flag_lists_the_known_ones():
    with pytest.raises(InputError) as info:
        parse_flags("bogus")
    msg = str(info.value)
    for name in ("no_spread", "no_cache_align", "sp_put", "sc_get", "no_iova_contig", "none"):
        assert name in msg
    # internal flags are not offered
    assert "pool_created" not in msg and "non_io" not in msg


@pytest.mark.parametrize("text", ["", "   ", ",", "|, "])
def test_empty_list(text):
    with pytest.raises(InputError):
        parse_flags(text)


def test_mask_wider_than_32_bits():
    with pytest.raises(InputError) as info:
        parse_flags("0x100000000")
    assert "'0x100000000'" in str(info.value)


@pytest.mark.parametrize(
    ("mask", "names"),
    [
        (0, []),
        (0x23, ["no_spread", "no_cache_align", "no_iova_contig"]),
        (0x7F, ["no_spread", "no_cache_align", "sp_put", "sc_get", "pool_created", "no_iova_contig", "non_io"]),
        (0x102, ["no_cache_align", "0x100"]),
        (0x80, ["0x80"]),
    ],
)
def test_flag_names(mask, names):
    assert flag_names(mask) == names


@pytest.mark.parametrize("mask", range(0, 0x80))
def test_flag_names_round_trip(mask):
    assert parse_flags(",".join(flag_names(mask)) or "none") == mask


# --- effective_flags: v22.11:lib/mempool/rte_mempool.c:850-858 -----------------------------------------------------


def test_effective_flags_adds_non_io():
    assert effective_flags(0) == NON_IO


def test_no_cache_align_implies_no_spread():
    assert effective_flags(NCA) == NCA | NS | NON_IO


def test_no_spread_does_not_imply_no_cache_align():
    assert effective_flags(NS) == NS | NON_IO


def test_effective_flags_keeps_other_bits():
    assert effective_flags(SP | SC | NIC) == SP | SC | NIC | NON_IO
    assert effective_flags(0x100) == 0x100 | NON_IO


@pytest.mark.parametrize("mask", range(0, 0x80))
def test_effective_flags_idempotent_and_monotone(mask):
    eff = effective_flags(mask)
    assert effective_flags(eff) == eff
    assert eff & mask == mask


# --- sizing_combinations: what --flags all sweeps ------------------------------------------------------------------


def test_sizing_combinations():
    combos = sizing_combinations()
    assert len(combos) == 8
    assert len(set(combos)) == 8
    assert combos[0] == 0  # DPDK's default first
    assert combos == sorted(combos)
    assert set(combos) == {0, NS, NCA, NS | NCA, NIC, NIC | NS, NIC | NCA, NIC | NCA | NS}
    assert all(isinstance(c, int) for c in combos)
    assert all(c & ~VALID_USER_FLAGS == 0 for c in combos)


def test_sizing_flags_are_the_three_that_change_size():
    assert set(SIZING_FLAGS) == {MempoolFlag.NO_CACHE_ALIGN, MempoolFlag.NO_SPREAD, MempoolFlag.NO_IOVA_CONTIG}
