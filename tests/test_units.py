"""mpcalc.dpdk.core.units: counts (SI vs IEC), byte sizes (binary vs decimal), labels."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mpcalc.dpdk.core.errors import InputError, MpcalcError
from mpcalc.dpdk.core.intmath import align32pow2
from mpcalc.dpdk.core.units import iec, page_label, parse_count, parse_size, size_label

# --- counts ----------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("0", 0),
        ("8191", 8191),
        ("1K", 10**3),
        ("1k", 10**3),
        ("1M", 10**6),
        ("1G", 10**9),
        ("1T", 10**12),
        ("1Ki", 2**10),
        ("1ki", 2**10),
        ("1Mi", 2**20),
        ("1Gi", 2**30),
        ("1Ti", 2**40),
        ("2Mi", 2 * 2**20),
        ("1.5K", 1500),
        ("1.50K", 1500),
        ("2.5M", 2_500_000),
        ("0.5Ki", 512),
        ("1.0", 1),
        ("1_000", 1000),
        ("0x10", 16),
        ("0X1f", 31),
        ("  42  ", 42),
        ("8 K", 8000),
    ],
)
def test_parse_count(text, expected):
    assert parse_count(text) == expected


def test_parse_count_passes_ints_through():
    assert parse_count(8191) == 8191


@pytest.mark.parametrize("text", ["0.5", "1.5", "1.0001K", "0.1Ki"])
def test_parse_count_rejects_fractions_that_are_not_whole(text):
    with pytest.raises(InputError) as info:
        parse_count(text)
    assert repr(text) in str(info.value)
    assert "whole number" in str(info.value)


@pytest.mark.parametrize("text", ["-5", "", "abc", "K", "1..5", "1e3x", "1.", ".5", "one"])
def test_parse_count_rejects_garbage_quoting_it(text):
    with pytest.raises(InputError) as info:
        parse_count(text)
    assert repr(text) in str(info.value)


@pytest.mark.parametrize("text", ["1KB", "1KiB", "1X", "1e", "10 bytes"])
def test_parse_count_rejects_unknown_units(text):
    with pytest.raises(InputError) as info:
        parse_count(text)
    assert repr(text) in str(info.value)
    assert "unit" in str(info.value)


def test_input_error_is_a_value_error():
    assert issubclass(InputError, MpcalcError)
    assert issubclass(InputError, ValueError)
    with pytest.raises(ValueError):
        parse_count("nope")


def test_bool_is_not_a_count():
    with pytest.raises(InputError):
        parse_count(True)  # type: ignore[arg-type]


# --- sizes -----------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("64", 64),
        ("64B", 64),
        ("64b", 64),
        ("4K", 4096),
        ("2M", 2 * 2**20),
        ("1G", 2**30),
        ("1T", 2**40),
        ("4Ki", 4096),
        ("1KiB", 2**10),
        ("1MiB", 2**20),
        ("1GiB", 2**30),
        ("1TiB", 2**40),
        ("1kib", 2**10),
        ("4KB", 4000),
        ("1MB", 10**6),
        ("1GB", 10**9),
        ("1TB", 10**12),
        ("1.5M", 3 * 2**19),
        ("0.5K", 512),
        ("1.5KB", 1500),
        ("0x40", 64),
    ],
)
def test_parse_size(text, expected):
    assert parse_size(text) == expected


def test_binary_and_decimal_sizes_differ():
    assert parse_size("1G") == parse_size("1GiB") != parse_size("1GB")


@pytest.mark.parametrize("text", ["0.5", "1.5B", "0.3K", "1.0000001KB"])
def test_parse_size_rejects_fractional_bytes(text):
    with pytest.raises(InputError) as info:
        parse_size(text)
    assert repr(text) in str(info.value)
    assert "bytes" in str(info.value)


@pytest.mark.parametrize("text", ["64X", "4KBB", "1Q", "2Mb/s"])
def test_parse_size_rejects_unknown_units(text):
    with pytest.raises(InputError) as info:
        parse_size(text)
    assert repr(text) in str(info.value)


@pytest.mark.parametrize("text", ["-64", "", "size", "4 K B"])
def test_parse_size_rejects_garbage(text):
    with pytest.raises(InputError) as info:
        parse_size(text)
    assert repr(text) in str(info.value)


# --- labels ----------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("nbytes", "expected"),
    [
        (0, "0 B"),
        (64, "64 B"),
        (1023, "1023 B"),
        (1024, "1.0 KiB"),
        (1536, "1.5 KiB"),
        (65920, "64.4 KiB"),
        (2**20, "1.0 MiB"),
        (1057024, "1.0 MiB"),
        (409044672, "390.1 MiB"),
        (134217728, "128.0 MiB"),
        (2**30, "1.0 GiB"),
        (2**40, "1.0 TiB"),
        (-2048, "-2.0 KiB"),
    ],
)
def test_iec(nbytes, expected):
    assert iec(nbytes) == expected


def test_iec_never_shows_1024_of_a_unit():
    assert iec(2**20 - 1) == "1.0 MiB"


@pytest.mark.parametrize(
    ("nbytes", "expected"),
    [
        (64, "64 B"),
        (1023, "1,023 B"),
        (1024, "1,024 B (1.0 KiB)"),
        (409044672, "409,044,672 B (390.1 MiB)"),
        (34674880, "34,674,880 B (33.1 MiB)"),
    ],
)
def test_size_label(nbytes, expected):
    assert size_label(nbytes) == expected


@pytest.mark.parametrize(
    ("size", "expected"),
    [(0, "none"), (4096, "4K"), (65536, "64K"), (2 * 2**20, "2M"), (2**30, "1G"), (16 * 2**30, "16G"), (100, "100")],
)
def test_page_label(size, expected):
    assert page_label(size) == expected


@pytest.mark.parametrize("label", ["4K", "64K", "2M", "1G"])
def test_page_label_round_trips_through_parse_size(label):
    assert page_label(parse_size(label)) == label


def _align32pow2_as_dpdk(v: int) -> int:
    """rte_align32pow2 line by line (lib/eal/include/rte_common.h): the reference for the fast form."""
    x = (v - 1) & 0xFFFFFFFF
    for shift in (1, 2, 4, 8, 16):
        x |= x >> shift
    return (x + 1) & 0xFFFFFFFF


@given(st.one_of(st.integers(0, 2**32 - 1), st.sampled_from([0, 1, 2, 3, 2**31 - 1, 2**31, 2**31 + 1, 2**32 - 1])))
def test_align32pow2_is_dpdks(v):
    assert align32pow2(v) == _align32pow2_as_dpdk(v)
