"""``mpcalc batch`` freezes what it keeps out of the cyclic collector's sight (gc.freeze): that is right only
if a batch makes no cyclic garbage, which this test holds it to. Its memo tables are bounded."""

from __future__ import annotations

import gc
import io
import json

from mpcalc.service import batch

LINES = [
    {"command": "pool", "count": 1000, "elt_size": 40},
    {"command": "pool", "count": "1M", "elt_size": "2K", "cache_size": 256, "flags": "all"},
    {"command": "pool", "count": 0, "elt_size": 8},  # DPDK rejects it
    {"command": "rib", "routes": "1M", "flags": ["no_cache_align", "no_spread"]},
    {"command": "rib6", "nodes": 10},
    {"command": "fib", "routes": 1000, "tbl8": 64},
    {"command": "fib6", "routes": 1000, "type": "dummy"},
    {"command": "mbuf", "count": 8191, "mtu": 1500, "cache_size": 256, "lcores": 2},
    {"command": "pool", "count": 100, "elt_size": 8, "explain": True},
    {"command": "pool", "elt_size": 8, "fit": "1M"},
    {"command": "pool", "count": "1X"},  # a bad value
    {"command": "nosuch"},
]


def _run(compact: bool, lines: list[str]) -> str:
    out = io.StringIO()
    batch.run_batch(io.BytesIO("".join(lines).encode()), out, compact)
    return out.getvalue()


def test_a_batch_leaves_no_cyclic_garbage():
    lines = [json.dumps(r) + "\n" for r in LINES] + ["not json\n", "[1, 2]\n", "\n"]
    gc.collect()
    gc.disable()
    try:
        for compact in (False, True):
            _run(compact, lines * 3)
        assert gc.collect() == 0
    finally:
        gc.enable()


def test_memo_tables_stay_bounded(monkeypatch):
    monkeypatch.setattr(batch, "MEMO_LIMIT", 8)
    lines = [
        json.dumps({"command": "pool", "count": n + 1, "elt_size": f"{n % 50 + 1}B", "name": f"p{n}"}) + "\n"
        for n in range(200)
    ]
    seen_sizes = []
    real_init = batch.Lines.__init__

    def spy(self):  # the Lines object of the batch, to look at its tables afterwards
        real_init(self)
        seen_sizes.append(self)

    monkeypatch.setattr(batch.Lines, "__init__", spy)
    out = _run(True, lines)
    assert out.count("\n") == 200
    memos = seen_sizes[0]._parsed  # per key of a command, its parsed values
    assert 0 < len(memos) <= len(batch.keys_of("pool"))
    assert 0 < max(map(len, memos.values())) <= 8
