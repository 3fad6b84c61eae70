"""mpcalc.dpdk.objects.routes: the route-file parser and the tbl8 / RIB-node planner.

The tbl8 numbers here are worked by hand from DPDK v22.11.11 lib/fib/dir24_8.c
and lib/fib/trie.c; tests/conformance/test_tbl8_capacity.py checks the same
planner against the real library.
"""

from __future__ import annotations

import ipaddress
import random
import sys
from pathlib import Path

import pytest

from mpcalc.dpdk.core.errors import InputError
from mpcalc.dpdk.objects import routes as R
from mpcalc.dpdk.objects.routes import Route, parse_routes, plan, read_routes, tbl8_needed

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "routes"


def v4(text: str) -> int:
    return int(ipaddress.IPv4Address(text))


def v6(text: str) -> int:
    return int(ipaddress.IPv6Address(text))


# --------------------------------------------------------------------------
# parser


def test_parse_good_lines():
    lines = [
        "# a table\n",
        "\n",
        "10.0.0.0/8\n",
        "  10.1.0.0/16   7  \n",
        "10.1.2.0/24\t42 # trailing comment\n",
        "   # indented comment\n",
        "0.0.0.0/0 0",
        "255.255.255.255/32 18446744073709551615",
    ]
    got = parse_routes(lines, 4, source="t.txt")
    assert got == [
        Route(network=v4("10.0.0.0"), depth=8, next_hop=None, line=3),
        Route(network=v4("10.1.0.0"), depth=16, next_hop=7, line=4),
        Route(network=v4("10.1.2.0"), depth=24, next_hop=42, line=5),
        Route(network=0, depth=0, next_hop=0, line=7),
        Route(network=(1 << 32) - 1, depth=32, next_hop=(1 << 64) - 1, line=8),
    ]


def test_host_bits_are_masked_like_dpdk():
    # dir24_8_modify: ip &= rte_rib_depth_to_mask(depth); trie_modify: ip_masked
    (r,) = parse_routes(["10.1.2.3/8 1"], 4)
    assert (r.network, r.depth) == (v4("10.0.0.0"), 8)
    (r,) = parse_routes(["2001:db8::ffff/32"], 6)
    assert r.network == v6("2001:db8::") and r.prefix(6) == "2001:db8::/32"
    (r,) = parse_routes(["1.2.3.4/0"], 4)
    assert r.network == 0


@pytest.mark.parametrize(
    "text, expect",
    [
        ("2001:db8::/32", "2001:db8::"),
        ("2001:0DB8:0000:0000:0000:0000:0000:0001/128", "2001:db8::1"),
        ("::/0", "::"),
        ("::ffff:192.0.2.1/128", "::ffff:c000:201"),
        ("fe80::1:2/64", "fe80::"),
    ],
)
def test_ipv6_forms(text, expect):
    (r,) = parse_routes([text + " 3"], 6)
    assert r.network == v6(expect) and r.next_hop == 3


@pytest.mark.parametrize(
    "line, why",
    [
        ("10.0.0.300/8", "is not an IPv4 prefix"),
        ("10.0.0.0", "no /depth"),
        ("10.0.0.0/33", "depth 33 > 32"),
        ("10.0.0.0/-1", "bad depth"),
        ("10.0.0.0/8x", "bad depth"),
        ("10.0.0/8", "is not an IPv4 prefix"),
        ("010.0.0.0/8", "is not an IPv4 prefix"),
        ("10.0.0.0/8 -1", "not an unsigned integer"),
        ("10.0.0.0/8 0x10", "not an unsigned integer"),
        ("10.0.0.0/8 18446744073709551616", "above 2^64-1"),
        ("10.0.0.0/8 1 2", "more than a prefix and a next hop"),
        ("2001:db8::/32", "is not an IPv4 prefix"),
        ("１0.0.0.0/8", "is not an IPv4 prefix"),  # noqa: RUF001 - a full-width digit on purpose
    ],
)
def test_bad_ipv4_lines_name_file_and_line(line, why):
    lines = ["# header", "10.0.0.0/8 1", "", line, "11.0.0.0/8"]
    with pytest.raises(InputError) as exc:
        parse_routes(lines, 4, source="routes.txt")
    msg = str(exc.value)
    assert msg.startswith(f"routes.txt:4: {line.strip()!r} ")
    assert why in msg
    assert exc.value.param == "routes.txt"


def test_issue_example_message():
    lines = ["10.0.0.0/8"] * 6 + ["10.0.0.300/8"]
    with pytest.raises(InputError, match=r"^routes\.txt:7: '10\.0\.0\.300/8' is not an IPv4 prefix$"):
        parse_routes(lines, 4, source="routes.txt")


@pytest.mark.parametrize(
    "line", ["2001:db8::/129", "10.0.0.0/8", "2001:db8:::/32", "fe80::1%eth0/64", "2001:db8::g/32"]
)
def test_bad_ipv6_lines(line):
    with pytest.raises(InputError, match=r"^<stdin>:2: .* is not an IPv6 prefix"):
        parse_routes(["::/0", line], 6)


def test_bad_family():
    with pytest.raises(InputError):
        parse_routes([], 5)


def test_fast_ipv4_parser_agrees_with_ipaddress():
    rng = random.Random(7)
    pieces = ["0", "00", "01", "1", "9", "10", "99", "100", "199", "255", "256", "300", "1000", "", "a", " 1", "+1"]
    for _ in range(3000):
        text = ".".join(rng.choice(pieces) for _ in range(rng.choice([3, 4, 4, 4, 5])))
        try:
            want = int(ipaddress.IPv4Address(text))
        except ValueError:
            want = None
        assert R._ipv4(text) == want, text


def test_read_routes_examples():
    r4 = read_routes(EXAMPLES / "ipv4-small.txt", 4)
    r6 = read_routes(str(EXAMPLES / "ipv6-small.txt"), 6)
    assert len(r4) == 15 and len(r6) == 12
    assert plan(r4, 4).tbl8_needed == 3
    assert plan(r6, 6).tbl8_needed == 26


def test_read_routes_errors(tmp_path, monkeypatch):
    missing = tmp_path / "nope.txt"
    with pytest.raises(InputError, match=r"nope\.txt: cannot read"):
        read_routes(missing, 4)
    with pytest.raises(InputError, match="cannot read"):
        read_routes(tmp_path, 4)  # a directory
    binary = tmp_path / "bin.txt"
    binary.write_bytes(b"10.0.0.0/8\n\0\1\2")
    with pytest.raises(InputError, match=r"bin\.txt: binary file"):
        read_routes(binary, 4)
    latin = tmp_path / "latin.txt"
    latin.write_bytes(b"10.0.0.0/8 # caf\xe9\n")
    with pytest.raises(InputError, match=r"latin\.txt: not UTF-8"):
        read_routes(latin, 4)
    bad = tmp_path / "bad.txt"
    bad.write_text("10.0.0.0/8\n10.0.0.0/88\n")
    with pytest.raises(InputError, match=r"bad\.txt:2: '10\.0\.0\.0/88'"):
        read_routes(bad, 4)
    big = tmp_path / "big.txt"
    big.write_text("10.0.0.0/8\n" * 100)
    monkeypatch.setattr(R.parse, "MAX_FILE_BYTES", 1000)
    with pytest.raises(InputError, match="larger than"):
        read_routes(big, 4)
    monkeypatch.setattr(R.parse, "MAX_FILE_BYTES", 1 << 20)
    monkeypatch.setattr(R.parse, "MAX_LINES", 99)
    with pytest.raises(InputError, match="more than 99 lines"):
        read_routes(big, 4)


def test_a_million_lines_are_read(tmp_path):
    path = tmp_path / "m.txt"
    path.write_text("".join(f"10.{i >> 16 & 255}.{i >> 8 & 255}.{i & 255}/32 {i & 1023}\n" for i in range(1_000_000)))
    got = read_routes(path, 4)  # how fast: bench/routes.py
    assert len(got) == 1_000_000 and got[-1].network == v4("10.15.66.63")


def test_routes_module_is_pure():
    assert "click" not in R.__dict__ and "rich" not in R.__dict__
    src = Path(R.__file__).read_text()
    assert "import click" not in src and "import rich" not in src and "from rich" not in src


# --------------------------------------------------------------------------
# planner: hand-worked examples (DIR24_8)


def P(lines, family=4):
    return plan(parse_routes(lines, family), family)


def test_dir24_8_one_group_per_deep_slash24():
    pl = P(["10.0.0.0/26 1", "10.0.0.64/26 2", "10.0.1.7/32 3", "10.0.2.0/25 4"])
    assert (pl.tbl8_needed, pl.tbl8_in_use, pl.tbl8_reserved) == (3, 3, 3)


def test_dir24_8_no_group_for_short_prefixes():
    pl = P(["0.0.0.0/0 1", "10.0.0.0/8 2", "10.1.0.0/24 3"])
    assert (pl.tbl8_needed, pl.tbl8_in_use) == (0, 0)
    assert pl.num_tbl8 == 1  # rte_fib_create rejects num_tbl8 = 0


def test_dir24_8_tail_of_a_slash24_needs_two_free_groups():
    # 10.0.0.128/25 -> install_to_fib(10.0.0.128, 10.0.1.0): the range crosses
    # a /24 boundary, so the left edge allocates one group and checks that a
    # second is free (dir24_8.c:273-291)
    pl = P(["10.0.0.128/25 1"])
    assert (pl.tbl8_needed, pl.tbl8_peak, pl.tbl8_in_use) == (2, 2, 1)
    assert P(["10.0.0.0/25 1"]).tbl8_needed == 1


def test_dir24_8_equal_next_hop_to_parent_changes_nothing():
    pl = P(["10.0.0.0/8 1", "10.0.0.0/25 1"])
    assert (pl.tbl8_needed, pl.tbl8_in_use, pl.tbl8_reserved, pl.same_as_parent) == (1, 0, 0, 1)
    # ...but the route sits in the RIB, so the next route of that /24 is not
    # reserved for, although it allocates (and needs the two-group edge)
    pl = P(["10.0.0.0/8 1", "10.0.0.0/25 1", "10.0.0.128/25 2"])
    assert (pl.tbl8_needed, pl.tbl8_in_use, pl.tbl8_reserved) == (2, 1, 0)


def test_dir24_8_without_next_hops_all_differ():
    assert P(["10.0.0.0/8", "10.0.0.0/25"]).tbl8_in_use == 1
    assert P(["10.0.0.0/8 5", "10.0.0.0/25 5"]).tbl8_in_use == 0


def test_dir24_8_uniform_group_is_recycled_but_stays_reserved():
    pl = P(["10.0.0.0/25 5", "10.0.0.128/25 5"])
    assert (pl.tbl8_needed, pl.tbl8_in_use, pl.tbl8_reserved) == (1, 0, 1)
    # a route equal to the default next hop (0, no parent): written, found
    # uniform, freed at once -- one group needed transiently
    pl = P(["10.0.0.0/25 0"])
    assert (pl.tbl8_needed, pl.tbl8_in_use, pl.tbl8_reserved) == (1, 0, 1)


def test_dir24_8_reservation_can_exceed_groups_in_use():
    # 64 /24s each reserved once, all recycled: in use 0, but a 65th /24 needs 65
    lines = [f"10.0.{i}.0/25 7\n10.0.{i}.128/25 7" for i in range(64)]
    lines = [*"\n".join(lines).splitlines(), "10.9.9.0/26 1"]
    pl = P(lines)
    assert (pl.tbl8_in_use, pl.tbl8_reserved, pl.tbl8_needed) == (1, 65, 65)
    f = pl.first_failure(64)
    assert (f.index, f.errno) == (128, "ENOSPC") and "reservation" in f.reason


def test_dir24_8_duplicates_and_replacements():
    pl = P(["10.0.0.0/25 1", "10.0.0.0/25 1", "10.0.0.0/25 2", "10.0.0.5/25 2"])
    assert (pl.routes, pl.distinct_routes, pl.duplicates, pl.replacements) == (4, 1, 2, 1)
    assert pl.kinds == ("new", "duplicate", "replace", "duplicate")
    assert pl.tbl8_needed == 1


def test_dir24_8_replacement_failure_is_silent():
    # 10.0.0.0/25 carries its parent's next hop (no group); giving it a new
    # next hop needs a group, and DPDK returns 0 even without one
    # (the reservation test runs for it, but does not count it: rsvd stays 63)
    lines = [f"10.1.{i}.0/26 {i + 10}" for i in range(63)] + [
        "10.0.0.0/8 1",
        "10.0.0.0/26 1",
        "10.0.0.64/26 9",  # 64th group, not reserved
        "10.0.5.0/26 1",
        "10.0.5.0/26 2",
    ]
    pl = P(lines)
    assert (pl.tbl8_needed, pl.tbl8_reserved, pl.kinds[-1]) == (65, 63, "replace")
    f = pl.first_failure(64)
    assert (f.index, f.errno, f.silent) == (67, "ENOSPC", True)


def test_wraparound_clobber_is_reported():
    pl = P(["0.0.0.0/1 1", "128.0.0.0/1 2", "0.0.0.0/0 3"])
    assert pl.clobbers == (2,)
    assert P(["0.0.0.0/1 1", "0.0.0.0/0 3"]).clobbers == ()
    assert P(["255.255.255.0/25 1", "255.255.255.128/25 2", "255.255.255.0/24 3"]).clobbers == (2,)
    assert P(["::/1 1", "8000::/1 2", "::/0 3"], 6).clobbers == (2,)


def test_rib_nodes_count_branching_nodes():
    # 10.0.0.0/8 and 11.0.0.0/8 branch at /7: an intermediate node, 3 in all
    pl = P(["10.0.0.0/8 1", "11.0.0.0/8 2"])
    assert (pl.rib_nodes_needed, pl.rib_nodes, pl.min_max_routes) == (3, 3, 2)
    # a route at the intermediate node's place reuses it, after a transient allocation
    pl = P(["10.0.0.0/8 1", "11.0.0.0/8 2", "10.0.0.0/7 3"])
    assert (pl.rib_nodes_needed, pl.rib_nodes) == (4, 3)
    # a parent of an existing route needs no intermediate node
    pl = P(["10.0.0.0/8 1", "10.0.0.0/7 2"])
    assert (pl.rib_nodes_needed, pl.rib_nodes) == (2, 2)
    f = P(["10.0.0.0/8 1", "11.0.0.0/8 2"]).first_failure(rib_nodes=2)
    assert (f.index, f.errno) == (1, "ENOMEM")


# --------------------------------------------------------------------------
# planner: TRIE


def test_trie_levels():
    # /32: the /24 entry gets a group for the /32s; build_common_root also
    # builds the /32's own table, found uniform and freed: 2 needed, 1 kept
    pl = P(["2001:db8::/32 1"], 6)
    assert (pl.tbl8_needed, pl.tbl8_in_use, pl.tbl8_reserved) == (2, 1, 1)
    pl = P(["2001:db8::/48 1"], 6)  # /24, /32 and /40 tables
    assert (pl.tbl8_needed, pl.tbl8_in_use, pl.tbl8_reserved) == (4, 3, 3)
    # even a /24 or shorter needs one free group for a moment: install_to_dp's
    # left edge always goes one level below the tbl24 (llen >= 1 when the
    # common part is under 3 bytes, trie.c:390-395), then recycles it
    pl = P(["2001:db8::/24 1", "2001::/16 2"], 6)
    assert (pl.tbl8_needed, pl.tbl8_in_use, pl.tbl8_need) == (1, 0, (1, 1))


def test_trie_reservation_does_not_see_shared_levels():
    # the second /48 shares all three tables (in use stays 3), but trie_modify
    # only looks for routes below 2001:db8:1::/48 itself: it reserves 3 more
    pl = P(["2001:db8::/48 1", "2001:db8:1::/48 2"], 6)
    assert (pl.tbl8_in_use, pl.tbl8_reserved, pl.tbl8_needed) == (3, 6, 6)
    assert pl.first_failure(5).index == 1


def test_trie_equal_next_hop_and_default():
    pl = P(["2001:db8::/32 4", "2001:db8::/48 4"], 6)
    assert (pl.tbl8_in_use, pl.tbl8_reserved, pl.same_as_parent) == (1, 1, 1)
    pl = P(["2001:db8::1/128 1", "::/0 2"], 6)
    assert (pl.tbl8_reserved, pl.tbl8_in_use, pl.tbl8_needed) == (13, 13, 14)


def test_tbl8_needed_and_checks():
    rs = parse_routes(["10.0.0.0/25 1"], 4)
    assert tbl8_needed(rs, 4, "dir24_8") == 1
    with pytest.raises(InputError):
        tbl8_needed(rs, 4, "trie")
    with pytest.raises(InputError):
        plan(rs, 6, "dummy")
    with pytest.raises(InputError):
        plan([Route(network=0, depth=33)], 4)
    assert plan([], 6).to_dict()["tbl8_needed"] == 0


def test_planner_plans_20000_routes():
    rng = random.Random(1)
    lines = [
        f"10.{rng.randrange(256)}.{rng.randrange(256)}.{rng.randrange(256)}/{rng.choice([16, 24, 28, 32])} "
        f"{rng.randrange(100)}"
        for _ in range(20000)
    ]
    pl = P(lines)  # how fast: bench/routes.py
    assert pl.routes == 20000
    assert "routes" in sys.modules["mpcalc.dpdk.objects.routes"].__name__
