"""Synthetic full-table-like route lists, generated deterministically (stdlib only).

Shared by the full-size conformance tests (test_tbl8_fulltable.py) and bench/routes.py.  The shape follows
a BGP full table: IPv4 mostly /24 (about 60 %), then /22, /23, /20, /21, /16, ...; a third of the prefixes
are more-specifics of another prefix of the table (as announcements of a provider's aggregate and its
customers' pieces are); a small share deeper than /24, clustered in a few thousand /24s, so that tbl8
groups are used, recycled and reserved; next hops from a few dozen peers, more-specifics often carrying
their aggregate's next hop (rte_fib_add's "same as the parent" path); a few re-announcements (the same
prefix again, or with a new next hop).  IPv6 mostly /48, /32, /44, /40, /36, /29, with deep prefixes up to
/128 in a few sites.

``ipv4_rows`` / ``ipv6_rows`` return ``(network, depth, next_hop)`` triples (network as an int, host bits
cleared); ``lines`` renders them as a route file (``PREFIX/DEPTH NH``), which is also the probe's
``fibadd`` line format.
"""

from __future__ import annotations

import ipaddress
import random
from collections.abc import Iterable

#: (depth, weight) of a full IPv4 table's prefix lengths, deep prefixes included
_V4_DEPTHS = [
    (8, 1),
    (9, 1),
    (10, 2),
    (11, 5),
    (12, 12),
    (13, 25),
    (14, 50),
    (15, 80),
    (16, 1300),
    (17, 800),
    (18, 1300),
    (19, 2500),
    (20, 4000),
    (21, 4500),
    (22, 11000),
    (23, 10000),
    (24, 59000),
    (25, 120),
    (26, 150),
    (27, 120),
    (28, 100),
    (29, 100),
    (30, 80),
    (31, 20),
    (32, 110),
]
_V6_DEPTHS = [
    (16, 1),
    (19, 2),
    (20, 10),
    (22, 10),
    (24, 20),
    (28, 60),
    (29, 900),
    (30, 150),
    (31, 60),
    (32, 1500),
    (33, 250),
    (34, 200),
    (35, 150),
    (36, 700),
    (37, 100),
    (38, 150),
    (39, 100),
    (40, 800),
    (41, 100),
    (42, 200),
    (43, 100),
    (44, 900),
    (45, 150),
    (46, 250),
    (47, 400),
    (48, 5000),
    (56, 60),
    (60, 20),
    (64, 60),
    (96, 5),
    (112, 5),
    (124, 5),
    (127, 5),
    (128, 30),
]


def _depth_picker(rng: random.Random, table: list[tuple[int, int]]):  # type: ignore[no-untyped-def]
    depths = [d for d, _ in table]
    cum = []
    total = 0
    for _, w in table:
        total += w
        cum.append(total)
    return lambda k: rng.choices(depths, cum_weights=cum, k=k)


def ipv4_rows(n: int, seed: int = 1, *, order: str = "random") -> list[tuple[int, int, int]]:
    """``n`` IPv4 routes (network, depth, next hop); ``order`` "random" or "sorted" (by address, then depth)."""
    rng = random.Random(seed)
    pick = _depth_picker(rng, _V4_DEPTHS)
    peers = 48
    hot = [rng.randrange(1, 224) << 24 | rng.getrandbits(16) << 8 for _ in range(max(1, n // 400))]
    rows: list[tuple[int, int, int]] = []
    depths = pick(n)
    getrandbits, random_, randrange = rng.getrandbits, rng.random, rng.randrange
    for i in range(n):
        d = depths[i]
        r = random_()
        if rows and r < 0.33:  # a more-specific of an earlier prefix
            pnet, pd, pnh = rows[randrange(len(rows))]
            if pd < d:
                net = pnet | getrandbits(32 - pd)
                nh = pnh if random_() < 0.5 else randrange(peers)
                rows.append((net & (0xFFFFFFFF ^ ((1 << (32 - d)) - 1)), d, nh))
                continue
        # deep prefixes cluster in a few /24s
        net = hot[randrange(len(hot))] | getrandbits(8) if d > 24 else randrange(1, 224) << 24 | getrandbits(24)
        if r > 0.995 and rows:  # the same prefix again, same or another next hop
            net, d, nh = rows[randrange(len(rows))]
            rows.append((net, d, nh if random_() < 0.5 else randrange(peers)))
            continue
        rows.append((net & (0xFFFFFFFF ^ ((1 << (32 - d)) - 1)), d, randrange(peers)))
    if order == "sorted":
        rows.sort(key=lambda t: (t[0], t[1]))
    else:
        rng.shuffle(rows)
    return rows


def ipv6_rows(n: int, seed: int = 1, *, order: str = "random") -> list[tuple[int, int, int]]:
    """``n`` IPv6 routes (network, depth, next hop), mostly under 2000::/3."""
    rng = random.Random(seed)
    pick = _depth_picker(rng, _V6_DEPTHS)
    peers = 48
    sites = [(0x2000 | rng.getrandbits(13)) << 112 | rng.getrandbits(32) << 80 for _ in range(max(1, n // 200))]
    rows: list[tuple[int, int, int]] = []
    depths = pick(n)
    getrandbits, random_, randrange = rng.getrandbits, rng.random, rng.randrange
    full = (1 << 128) - 1
    for i in range(n):
        d = depths[i]
        r = random_()
        if rows and r < 0.3:
            pnet, pd, pnh = rows[randrange(len(rows))]
            if pd < d:
                net = pnet | getrandbits(128 - pd)
                nh = pnh if random_() < 0.5 else randrange(peers)
                rows.append((net & (full ^ ((1 << (128 - d)) - 1)), d, nh))
                continue
        if d > 48:
            net = sites[randrange(len(sites))] | getrandbits(80)
        else:
            net = (0x2000 | getrandbits(13)) << 112 | getrandbits(112)
        if r > 0.995 and rows:
            net, d, nh = rows[randrange(len(rows))]
            rows.append((net, d, nh if random_() < 0.5 else randrange(peers)))
            continue
        rows.append((net & (full ^ ((1 << (128 - d)) - 1)), d, randrange(peers)))
    if order == "sorted":
        rows.sort(key=lambda t: (t[0], t[1]))
    else:
        rng.shuffle(rows)
    return rows


def _v4(x: int) -> str:
    return f"{x >> 24}.{x >> 16 & 255}.{x >> 8 & 255}.{x & 255}"


def lines(rows: Iterable[tuple[int, int, int]], family: int) -> list[str]:
    """``PREFIX/DEPTH NH`` lines (a route file, and the probe's fibadd lines)."""
    if family == 4:
        return [f"{_v4(a)}/{d} {h}" for a, d, h in rows]
    v6 = ipaddress.IPv6Address
    return [f"{v6(a)}/{d} {h}" for a, d, h in rows]
