"""Properties of --fit and of the three views (hypothesis)."""

from __future__ import annotations

import contextlib
import io
import json

from hypothesis import given, settings
from hypothesis import strategies as st

from mpcalc.cli import main
from mpcalc.dpdk.core.flags import sizing_combinations
from mpcalc.dpdk.core.platform import make_platform
from mpcalc.dpdk.objects.mempool import POOL
from mpcalc.service.job import Job

PAGES = st.sampled_from([4096, 2 << 20, 1 << 30, 0])


@settings(max_examples=60, deadline=None)
@given(
    elt=st.integers(1, 70_000),
    cache=st.sampled_from([0, 32, 256, 512]),
    flags=st.sampled_from(sizing_combinations()),
    page=PAGES,
    budget=st.integers(10_000, 1 << 34),
    channels=st.integers(1, 8),
)
def test_fit_fits_and_one_more_does_not(elt, cache, flags, page, budget, channels):
    p = make_platform(page_size=page, channels=channels)
    job = Job.of(
        POOL,
        p,
        dict(name="mp", count=1, elt_size=elt, cache_size=cache, private_size=0, cache_layout="pointer"),
    )
    value, best = job.fit(flags, budget)
    if value is None:
        # nothing valid fits: the smallest valid pool is over budget (or the cache forbids small pools)
        first_valid = max(1, cache * 3 // 2)
        assert job.result(flags, count=first_valid).heap_bytes > budget or (best is not None and best.errors)
        return
    assert not best.errors and best.heap_bytes <= budget
    nxt = job.result(flags, count=value + 1)
    assert nxt.errors or nxt.heap_bytes > budget


def _run(argv):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        rc = main(argv)
    return rc, out.getvalue()


@settings(max_examples=40, deadline=None)
@given(count=st.integers(1, 3_000_000), elt=st.integers(1, 9000), page=st.sampled_from(["4K", "2M", "1G", "none"]))
def test_table_json_and_csv_show_the_same_numbers(count, elt, page):
    args = ["pool", "--count", str(count), "--elt-size", str(elt), "--page-size", page]
    _, js = _run([*args, "--json"])
    _, csv_out = _run([*args, "--format", "csv"])
    _, table = _run(args)
    result = json.loads(js)["results"][0]
    numbers = {
        row.split(",")[3]: int(row.split(",")[4]) for row in csv_out.splitlines()[1:] if row.split(",")[4].isdigit()
    }
    assert numbers["total_bytes"] == result["total_bytes"] and numbers["heap_bytes"] == result["heap_bytes"]
    for mz in result["mempools"][0]["memzones"]:
        assert numbers[mz["name"]] == mz["len"]
        assert f"{mz['len']:,}" in table
    assert f"{result['total_bytes']:,}" in table and f"{result['heap_bytes']:,}" in table
