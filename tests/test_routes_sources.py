"""Route sources (mpcalc.dpdk.objects.routes.sources, mpcalc.dpdk.objects.routes.route_table): the plain format
read in bulk,
ip route, FRR json, BIRD, bgpdump -m and MRT RIB dumps (built here, RFC 6396), compressed or not; and
fib/fib6 --routes-file with them: the answer first, EINVAL for a next hop the FIB cannot hold."""

from __future__ import annotations

import bz2
import gzip
import ipaddress
import json
import lzma
import random
import struct

import pytest

from mpcalc.dpdk.core.errors import InputError
from mpcalc.dpdk.objects.routes import parse_routes, plan
from mpcalc.dpdk.objects.routes import route_table as T
from mpcalc.dpdk.objects.routes.sources import detect, read_table

# --------------------------------------------------------------------------
# the plain format: bulk and line by line read the same


def _bulk_or_lines(text: str, family: int) -> list:
    b = T.TableBuilder(family, "t")
    T.parse_plain(text, family, b)
    return list(b.table())


def _token(rng: random.Random, family: int) -> str:
    if family == 4:
        a = ".".join(str(rng.randrange(256)) for _ in range(4))
    else:
        a = str(ipaddress.IPv6Address(rng.getrandbits(128)))
    d = rng.randrange(33 if family == 4 else 129)
    return f"{a}/{d}"


@pytest.mark.parametrize("family", [4, 6])
def test_bulk_path_reads_what_the_line_parser_reads(family):
    rng = random.Random(family)
    for case in range(200):
        n = rng.randint(1, 30)
        shape = case % 4
        rows = []
        for _ in range(n):
            p = _token(rng, family)
            if shape == 0:
                rows.append(f"{p} {rng.randrange(1 << 20)}")
            elif shape == 1:
                rows.append(p)
            else:  # anything the line parser takes, or refuses
                extra = rng.choice(["", " 7", "\t9", "  3 ", " # c", " 0x1", " 1 2", " -1", " 007", "\r"])
                rows.append(rng.choice(["", " "]) + p + extra)
        text = "\n".join(rows) + rng.choice(["", "\n"])
        try:
            want = parse_routes(text.splitlines(), family, source="t")
        except InputError as exc:
            with pytest.raises(InputError) as got:
                _bulk_or_lines(text, family)
            assert str(got.value) == str(exc)
            continue
        assert _bulk_or_lines(text, family) == want


def test_bulk_path_is_taken_for_canonical_lines():
    text = "".join(f"10.{i >> 8}.{i & 255}.0/24 {i}\n" for i in range(1000))
    assert T._bulk(text, 4) is not None
    assert T._bulk(text.replace(" ", "\t"), 4) is None
    assert T._bulk("10.0.0.0/8 1\n10.0.0.0/8 1 2\n", 4) is None  # a field too many: the line parser says so


def test_plain_file_in_chunks_keeps_line_numbers(tmp_path, monkeypatch):
    import mpcalc.dpdk.objects.routes.sources as S

    monkeypatch.setattr(S, "CHUNK", 64)
    path = tmp_path / "r.txt"
    lines = [f"10.0.{i}.0/24 {i}" for i in range(50)] + ["# note", "", "10.1.0.0/16"] + ["10.2.0.0/33"]
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(InputError, match=r"r\.txt:54: '10\.2\.0\.0/33'"):
        read_table(path, 4)
    path.write_text("\n".join(lines[:-1]) + "\n")
    t = read_table(path, 4)
    assert len(t) == 51 and t[50].line == 53 and t[50].next_hop is None and t[49].next_hop == 49
    assert list(t) == parse_routes(lines[:-1], 4)


# --------------------------------------------------------------------------
# text sources

IP4 = """default via 192.168.1.1 dev eth0 proto dhcp src 192.168.1.100 metric 100
10.0.0.0/8 via 10.1.1.1 dev eth1
10.1.0.0/16 proto static metric 20
\tnexthop via 10.1.1.2 dev eth1 weight 1
\tnexthop via 10.1.1.3 dev eth2 weight 1
192.168.1.0/24 dev eth0 proto kernel scope link src 192.168.1.100
blackhole 10.9.0.0/16
unreachable 10.10.0.0/16
192.168.1.5 via 192.168.1.1 dev eth0
10.10.0.0/16 via 10.1.1.1 dev eth1
"""
IP6 = """2001:db8::/32 via fe80::1 dev eth0 proto static metric 1024 pref medium
fe80::/64 dev eth0 proto kernel metric 256 pref medium
default via fe80::1 dev eth0 proto ra metric 1024 expires 1799sec hoplimit 64 pref medium
"""
BIRD2 = """BIRD 2.0.7 ready.
Table master4:
10.0.0.0/8           unicast [static1 2023-01-01] * (200)
\tvia 192.0.2.1 on eth0
10.1.0.0/16          unicast [bgp1 2023-01-01] * (100) [AS65001i]
\tvia 192.0.2.2 on eth0
                     unicast [bgp2 2023-01-01] (100) [AS65002i]
\tvia 192.0.2.3 on eth0
10.2.0.0/16          blackhole [static1 2023-01-01] * (200)
10.3.0.0/16          unicast [static1 2023-01-01] * (200)
\tvia 192.0.2.1 on eth0 weight 1
\tvia 192.0.2.2 on eth1 weight 1
10.4.0.0/16          unicast [bgp3 2023-01-01] * (100) [AS65003i]
\tvia 192.0.2.2 on eth0
\tType: BGP univ
\tBGP.next_hop: 192.0.2.2
"""
BIRD1 = """10.0.0.0/8         via 192.0.2.1 on eth0 [static1 2023-01-01] * (200)
10.1.0.0/16        via 192.0.2.2 on eth0 [bgp1 2023-01-01] * (100) [AS65001i]
                   via 192.0.2.3 on eth0 [bgp2 2023-01-01] (100) [AS65002i]
10.2.0.0/16        blackhole [static1 2023-01-01] * (200)
"""
BGPDUMP = """TABLE_DUMP2|1690848000|B|187.16.216.23|199524|1.0.0.0/24|199524 13335|IGP|187.16.216.23|0|0||NAG||
TABLE_DUMP2|1690848000|B|187.16.217.1|65001|1.0.0.0/24|65001 13335|IGP|187.16.217.1|0|0||NAG||
TABLE_DUMP2|1690848000|B|187.16.217.1|65001|1.0.4.0/22|65001 38803|IGP|187.16.217.1|0|0||NAG||
TABLE_DUMP2|1690848000|B|2001:7f8::1|199524|2001:db8::/32|199524 13335|IGP|2001:7f8::1|0|0||NAG||
BGP4MP|1690848000|W|187.16.216.23|199524|1.0.8.0/24
BGP4MP|1690848000|A|187.16.216.23|199524|1.0.8.0/24|199524 13335|IGP|187.16.216.23|0|0||NAG||
"""
FRR = {
    "10.0.0.0/8": [
        {
            "prefix": "10.0.0.0/8",
            "selected": True,
            "nexthops": [{"ip": "192.0.2.1", "interfaceName": "eth0", "active": True}],
        }
    ],
    "10.1.0.0/16": [
        {"prefix": "10.1.0.0/16", "nexthops": [{"ip": "192.0.2.9", "active": True}]},
        {
            "prefix": "10.1.0.0/16",
            "selected": True,
            "nexthops": [{"ip": "192.0.2.2", "active": True}, {"ip": "192.0.2.3", "active": True}],
        },
    ],
    "192.168.1.0/24": [
        {
            "prefix": "192.168.1.0/24",
            "selected": True,
            "nexthops": [{"directlyConnected": True, "interfaceName": "eth0", "active": True}],
        }
    ],
    "2001:db8::/32": [{"prefix": "2001:db8::/32", "selected": True, "nexthops": [{"ip": "fe80::1", "active": True}]}],
}


def _read(tmp_path, name: str, data: str | bytes, family: int, fmt: str = "auto") -> list[tuple[str, int | None, int]]:
    path = tmp_path / name
    path.write_bytes(data.encode() if isinstance(data, str) else data)
    return [(r.prefix(family), r.next_hop, r.line) for r in read_table(path, family, fmt)]


@pytest.mark.parametrize(
    "name, data, family, fmt, want",
    [
        (
            "ip4",
            IP4,
            4,
            "ip",
            [
                ("0.0.0.0/0", 1, 1),
                ("10.0.0.0/8", 2, 2),
                ("10.1.0.0/16", 3, 3),
                ("192.168.1.0/24", 4, 6),
                ("10.9.0.0/16", 5, 7),
                ("10.10.0.0/16", 6, 8),
                ("192.168.1.5/32", 1, 9),
                ("10.10.0.0/16", 2, 10),
            ],
        ),
        ("ip6", IP6, 6, "ip", [("2001:db8::/32", 1, 1), ("fe80::/64", 2, 2), ("::/0", 1, 3)]),
        ("ip6-as-4", IP6, 4, "ip", None),
        (
            "bird2",
            BIRD2,
            4,
            "bird",
            [
                ("10.0.0.0/8", 1, 3),
                ("10.1.0.0/16", 2, 5),
                ("10.2.0.0/16", 3, 9),
                ("10.3.0.0/16", 4, 10),
                ("10.4.0.0/16", 2, 13),
            ],
        ),
        ("bird1", BIRD1, 4, "bird", [("10.0.0.0/8", 1, 1), ("10.1.0.0/16", 2, 2), ("10.2.0.0/16", 3, 4)]),
        ("dump4", BGPDUMP, 4, "bgpdump", [("1.0.0.0/24", 1, 1), ("1.0.4.0/22", 2, 3), ("1.0.8.0/24", 1, 6)]),
        ("dump6", BGPDUMP, 6, "bgpdump", [("2001:db8::/32", 1, 4)]),
        (
            "frr4",
            json.dumps(FRR, indent=1),
            4,
            "frr-json",
            [("10.0.0.0/8", 1, 2), ("10.1.0.0/16", 2, 15), ("192.168.1.0/24", 3, 40)],
        ),
        ("frr6-vrf", json.dumps({"default": FRR}), 6, "frr-json", [("2001:db8::/32", 1, 1)]),
    ],
)
def test_text_sources(tmp_path, name, data, family, fmt, want):
    assert detect(data.encode()) == fmt
    if want is None:  # ip -6 route output read for rte_fib: no IPv4 route
        with pytest.raises(InputError, match="no IPv4 route"):
            _read(tmp_path, name, data, family)
        return
    assert _read(tmp_path, name, data, family) == want
    assert _read(tmp_path, name + ".gz", gzip.compress(data.encode()), family) == want


def test_text_source_errors(tmp_path):
    with pytest.raises(InputError, match=r"x:2: 10\.0\.0\.0/40 is not an IPv4 prefix"):
        _read(tmp_path, "x", "10.0.0.0/8 via 10.0.0.1\n10.0.0.0/40 dev eth0\n", 4, "ip")
    with pytest.raises(InputError, match=r"not a JSON object"):
        _read(tmp_path, "x", "[1, 2]", 4, "frr-json")
    with pytest.raises(InputError, match=r"x:2: malformed JSON"):
        _read(tmp_path, "x", '{"10.0.0.0/8": [{}],\n "10.1.0.0/16": [{]}', 4, "frr-json")
    with pytest.raises(InputError, match="routes format 'cisco'"):
        _read(tmp_path, "x", "", 4, "cisco")


# --------------------------------------------------------------------------
# MRT (RFC 6396), written here


def _attr(code: int, value: bytes, extended: bool = False) -> bytes:
    if extended:
        return struct.pack("!BBH", 0x50, code, len(value)) + value
    return struct.pack("!BBB", 0x40, code, len(value)) + value


def _record(kind: int, sub: int, body: bytes) -> bytes:
    return struct.pack("!IHHI", 1690848000, kind, sub, len(body)) + body


def _peer_index() -> bytes:
    peers = struct.pack("!BI4sH", 0, 1, bytes([192, 0, 2, 1]), 65001)
    peers += struct.pack("!BI4sI", 2, 2, bytes([192, 0, 2, 2]), 65002)
    return _record(13, 1, struct.pack("!IH", 0x01020304, 4) + b"view" + struct.pack("!H", 2) + peers)


def _rib(sub: int, seq: int, net: int, depth: int, family: int, hops: list[bytes], addpath: bool = False) -> bytes:
    nbytes = (depth + 7) // 8
    width = 32 if family == 4 else 128
    prefix = (net >> (width - 8 * nbytes)).to_bytes(nbytes, "big") if nbytes else b""
    entries = b""
    for k, hop in enumerate(hops):
        if family == 4:
            attrs = _attr(1, b"\x00") + _attr(2, b"\x02\x01\x00\x00\xfd\xe9", extended=k % 2 == 1) + _attr(3, hop)
        else:
            attrs = _attr(1, b"\x00") + _attr(14, bytes([len(hop)]) + hop, extended=True)
        entries += struct.pack("!HI", k, 1690848000) + (struct.pack("!I", k + 1) if addpath else b"")
        entries += struct.pack("!H", len(attrs)) + attrs
    body = struct.pack("!IB", seq, depth) + prefix + struct.pack("!H", len(hops)) + entries
    return _record(13, sub, body)


def _mrt() -> bytes:
    v4 = [bytes([192, 0, 2, 1]), bytes([192, 0, 2, 2])]
    v6 = [ipaddress.IPv6Address("2001:db8::1").packed + ipaddress.IPv6Address("fe80::1").packed]
    out = _peer_index()
    out += _rib(2, 0, int(ipaddress.IPv4Address("1.0.0.0")), 24, 4, v4)
    out += _rib(2, 1, int(ipaddress.IPv4Address("1.0.4.0")), 22, 4, v4[::-1])
    out += _rib(2, 2, int(ipaddress.IPv4Address("1.0.0.0")), 24, 4, v4[::-1])  # again: dropped
    out += _rib(3, 3, int(ipaddress.IPv4Address("224.0.0.0")), 4, 4, v4)  # multicast: skipped
    out += _rib(8, 4, int(ipaddress.IPv4Address("1.0.8.0")), 21, 4, v4, addpath=True)
    out += _rib(4, 5, int(ipaddress.IPv6Address("2001:db8::")), 32, 6, v6)
    out += _rib(2, 6, 0, 0, 4, v4[1:])
    generic = struct.pack("!IHB", 7, 1, 1) + bytes([16, 10, 9]) + struct.pack("!H", 1)
    attrs = _attr(3, bytes([192, 0, 2, 9]))
    generic += struct.pack("!HIH", 0, 0, len(attrs)) + attrs
    out += _record(13, 6, generic)
    # TABLE_DUMP (type 12), one prefix and one peer a record
    attrs = _attr(3, bytes([192, 0, 2, 7]))
    out += _record(
        12,
        1,
        struct.pack("!HH4sBBI4sHH", 0, 8, bytes([2, 0, 0, 0]), 8, 1, 0, bytes([192, 0, 2, 7]), 65007, len(attrs))
        + attrs,
    )
    out += _record(16, 4, b"\x00" * 20)  # a BGP4MP message: skipped
    return out


MRT4 = [
    ("1.0.0.0/24", 1, 2),
    ("1.0.4.0/22", 2, 3),
    ("1.0.8.0/21", 1, 6),
    ("0.0.0.0/0", 2, 8),
    ("10.9.0.0/16", 3, 9),
    ("2.0.0.0/8", 4, 10),
]


@pytest.mark.parametrize("pack", [bytes, gzip.compress, bz2.compress, lzma.compress])
def test_mrt_rib_dump(tmp_path, pack):
    data = pack(_mrt())
    assert _read(tmp_path, "rib", data, 4) == MRT4
    assert _read(tmp_path, "rib", data, 6) == [("2001:db8::/32", 1, 7)]


def test_mrt_detect_and_truncation(tmp_path):
    data = _mrt()
    assert detect(data) == "mrt" and detect(b"10.0.0.0/8 1\n") == "plain"
    with pytest.raises(InputError, match=r"MRT record 11: truncated"):
        _read(tmp_path, "rib", data[:-5], 4, "mrt")


# --------------------------------------------------------------------------
# fib / fib6 --routes-file with sources: the answer, the errors


def test_fib_reads_an_mrt_dump(tmp_path, run_json):
    path = tmp_path / "bview.gz"
    path.write_bytes(gzip.compress(_mrt()))
    code, doc = run_json("fib", "--routes-file", str(path))
    assert code == 0, doc
    details = doc["results"][0]["details"]
    assert next(iter(details)) == "answer"
    assert details["route_plan"]["format"] == "mrt" and details["route_plan"]["routes"] == 6
    assert details["answer"]["routes"] == details["route_plan"]["min_max_routes"]
    assert details["answer"]["tbl8"] == details["route_plan"]["num_tbl8"]
    assert details["answer"]["tbl8_headroom"] == details["tbl8_provided"] - details["tbl8_needed"]


def test_next_hop_above_the_next_hop_size(tmp_path, run_json):
    path = tmp_path / "r.txt"
    path.write_text("10.0.0.0/8 5\n10.1.0.0/16 200\n10.2.0.0/16 7\n")
    code, doc = run_json("fib", "--routes-file", str(path), "--nh-size", "1")
    (err,) = doc["results"][0]["errors"]
    assert code == 1 and err["errno"] == "EINVAL" and "route 2 (10.1.0.0/16, line 2)" in err["reason"]
    assert run_json("fib", "--routes-file", str(path), "--nh-size", "2")[0] == 0
    # the trie tests it in modify_dp only: a replaced next hop is refused quietly, a new route fails
    path.write_text("2001:db8::/32 5\n2001:db8::/32 40001\n2001:db8:1::/48 40002\n")
    code, doc = run_json("fib6", "--routes-file", str(path), "--nh-size", "2")
    (err,) = doc["results"][0]["errors"]
    assert code == 1 and err["errno"] is None and "route 2 (2001:db8::/32, line 2)" in err["reason"]
    path.write_text("2001:db8::/32 5\n2001:db8:1::/48 40002\n")
    code, doc = run_json("fib6", "--routes-file", str(path), "--nh-size", "2")
    (err,) = doc["results"][0]["errors"]
    assert code == 1 and err["errno"] == "EINVAL" and "route 2 (2001:db8:1::/48, line 2)" in err["reason"]


def test_plan_of_a_table_read_whole_equals_the_plan_of_its_routes(tmp_path):
    path = tmp_path / "r.txt"
    rng = random.Random(5)
    lines = [
        f"10.{rng.randrange(4)}.{rng.randrange(256)}.{rng.randrange(256)}/{rng.choice([16, 24, 25, 28, 32])} "
        f"{rng.randrange(5)}"
        for _ in range(3000)
    ]
    path.write_text("\n".join(lines) + "\n")
    assert plan(read_table(path, 4), 4).to_dict() == plan(parse_routes(lines, 4), 4).to_dict()


def test_route_plan_progress_stdin_and_bound(tmp_path, monkeypatch, run_json):
    import io
    import sys

    import mpcalc.stream
    from mpcalc.dpdk.core.progress import reporting
    from mpcalc.dpdk.objects import fib_routes

    shown: list[tuple[str, int | None, list[int]]] = []

    class Recorder:
        def __init__(self, what: str, total: int | None = None, stream=None) -> None:
            self.row = (what, total, [])
            shown.append(self.row)

        def update(self, done: int) -> None:
            self.row[2].append(done)

        def close(self) -> None:
            pass

    path = tmp_path / "r.txt"
    path.write_text("".join(f"{10 + (i >> 16)}.{i >> 8 & 255}.{i & 255}.0/24 {i % 7}\n" for i in range(70000)))
    table, pl = fib_routes.route_plan(str(path), 4, "dir24_8")
    assert shown == []  # the model reports to no one unless a front end passes its reporter down
    with reporting(Recorder):
        table, pl = fib_routes.route_plan(str(path), 4, "dir24_8")
    assert [(w, t) for w, t, _ in shown] == [("reading routes (bytes)", None), ("replaying rte_fib_add", 70000)]
    assert shown[0][2][-1] == path.stat().st_size and shown[1][2][0] == 0
    assert len(table) == 70000 and pl.distinct_routes == 70000
    shown.clear()
    monkeypatch.setattr(mpcalc.stream, "Progress", Recorder)  # what the command line passes down
    assert run_json("lpm", "--routes-file", str(path))[0] == 0
    assert [(w, t) for w, t, _ in shown] == [("reading routes (bytes)", None), ("replaying rte_lpm_add", 70000)]
    monkeypatch.setattr(fib_routes, "MAX_PLANNED_ROUTES", 69999)  # the bound fib declares, as route_plan reads it
    with pytest.raises(InputError, match="70,000 routes; the tbl8 planner takes at most 69,999"):
        fib_routes.route_plan(str(path), 4, "dir24_8")
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"10.0.0.0/8 1\n10.0.0.0/25 2\n")))
    code, doc = run_json("fib", "--routes-file", "-")
    assert code == 0 and doc["results"][0]["details"]["answer"]["tbl8"] == 1


def test_progress_draws_on_a_terminal(monkeypatch):
    import io

    import mpcalc.stream as S

    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    clock = iter(float(x) for x in range(100))
    monkeypatch.setattr(S.time, "monotonic", lambda: next(clock))
    out = Tty()
    bar = S.Progress("replaying rte_fib_add", total=1000, stream=out)
    bar.update(500)
    bar.close()
    assert "replaying rte_fib_add: 500 of 1,000" in out.getvalue() and out.getvalue().endswith("\r\x1b[K")
