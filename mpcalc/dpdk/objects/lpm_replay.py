"""The streamed replays of ``rte_lpm_add`` (:func:`replay4`) and ``rte_lpm6_add`` (:func:`replay6`): one byte a
route (:data:`NEW_RULE`, the new tbl8 groups from bit :data:`GROUP_SHIFT`, :data:`BAD_DEPTH`), given every
route before it was added.  What decides each add, with DPDK's citations, is in :mod:`.lpm_routes`, which
reads these bytes; this module only keeps the state: one "seen" byte per prefix for depths up to 24 (lazily
zeroed mappings), a set for the deeper rules, and the extended /24s (and, for IPv6, the extended tbl8 entries
of deeper levels).

Pure Python, stdlib only (no click, no rich).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

NEW_RULE = 0x01  #: route byte: the add makes a new rule
GROUP_SHIFT = 1  #: route byte: bits 1-4, the tbl8 groups the add takes (IPv6: at most 13)
BAD_DEPTH = 0x80  #: route byte: depth 0, refused (EINVAL)
CHUNK = 1 << 16  #: routes per cumulative count (and between two progress reports)
WIDTH4, WIDTH6 = 32, 128


def _seen_tables(depths: bytes | bytearray) -> list[Any]:
    """One zero byte per prefix of each depth 1..24 the table uses (lazily zeroed anonymous mappings)."""
    from mpcalc.dpdk.objects.routes.groups import zeroed

    present = set(depths)
    return [zeroed(1 << d) if d in present and 0 < d <= 24 else None for d in range(25)]


def _deep(
    nets: Sequence[int], depths: bytes | bytearray, width: int, codes: bytearray, progress: Callable[[int], None] | None
) -> Iterator[tuple[int, int, int]]:
    """Replay the adds of depth 24 or less into ``codes`` (a new rule once per prefix; depth 0 refused) and
    yield (index, depth, network) of the deeper routes, in order: the same in rte_lpm_add and rte_lpm6_add."""
    n = len(depths)
    seen = _seen_tables(depths)
    shift = [width - d for d in range(25)]
    for lo in range(0, n, CHUNK):
        if progress is not None:
            progress(lo)
        hi = min(n, lo + CHUNK)
        for i, d, net in zip(range(lo, hi), depths[lo:hi], nets[lo:hi]):  # noqa: B905
            if d > 24:
                yield i, d, net
            elif d:
                tab = seen[d]
                s = net >> shift[d]
                if not tab[s]:
                    tab[s] = 1
                    codes[i] = NEW_RULE
            else:
                codes[i] = BAD_DEPTH


def replay4(nets: Sequence[int], depths: bytes | bytearray, progress: Callable[[int], None] | None = None) -> bytearray:
    """Each rte_lpm_add's route byte, given that every add before it succeeded (see the module)."""
    from mpcalc.dpdk.objects.routes.groups import zeroed

    codes = bytearray(len(depths))
    deep: set[int] = set()  # net << 6 | depth of the rules deeper than 24
    extended = zeroed(1 << 24)  # the /24s holding a tbl8 group (add_depth_big)
    new_group = NEW_RULE | 1 << GROUP_SHIFT
    for i, d, net in _deep(nets, depths, WIDTH4, codes, progress):
        key = net << 6 | d
        b = net >> 8
        if key in deep:  # the rule exists, and so its /24's group
            continue
        deep.add(key)
        if extended[b]:
            codes[i] = NEW_RULE
        else:
            extended[b] = 1
            codes[i] = new_group
    return codes


def replay6(nets: Sequence[int], depths: bytes | bytearray, progress: Callable[[int], None] | None = None) -> bytearray:
    """Each rte_lpm6_add's route byte, given that every add before it succeeded: simulate_add's groups
    (rte_lpm6.c:596-637) are those of the levels from the first one of the path not extended yet."""
    from mpcalc.dpdk.objects.routes.groups import zeroed

    codes = bytearray(len(depths))
    rules: set[int] = set()  # net << 8 | depth of the rules deeper than 24
    extended = zeroed(1 << 24)  # tbl24 entries pointing to a tbl8 group
    nodes: set[int] = set()  # tbl8 entries (of the levels at 32, 40, ... 120 bits) pointing to a group
    levels = [0] * 25 + [-(-(d - 24) // 8) for d in range(25, 129)]
    # the entry of level k >= 1 (a tbl8 group's, at 24 + 8k bits): its prefix and a sentinel bit above it
    node_shift = [104 - 8 * k for k in range(13)]
    sentinel = [1 << (24 + 8 * k) for k in range(13)]
    for i, d, net in _deep(nets, depths, WIDTH6, codes, progress):
        key = net << 8 | d
        code = 0 if key in rules else NEW_RULE
        if code:
            rules.add(key)
        top = levels[d]
        b = net >> 104
        if extended[b]:  # follow the path while its entries are extended
            j = 1
            while j < top and (net >> node_shift[j] | sentinel[j]) in nodes:
                j += 1
        else:
            extended[b] = 1
            j = 0
        for k in range(j or 1, top):
            nodes.add(net >> node_shift[k] | sentinel[k])
        codes[i] = code | (top - j) << GROUP_SHIFT
    return codes
