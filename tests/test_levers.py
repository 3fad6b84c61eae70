"""One list of savings levers (mpcalc.dpdk.core.levers): --explain's variants (Job.variants) and inspect's advice
(inspect.advice.advise) take theirs from it, and offer the same page sizes."""

from __future__ import annotations

import pytest

from mpcalc.dpdk.core import levers, registry
from mpcalc.dpdk.core.platform import Platform
from mpcalc.dpdk.core.units import page_label
from mpcalc.inspect.dumps import PoolDump
from mpcalc.inspect.pool_model import model
from mpcalc.inspect.savings import advise
from mpcalc.service.job import Job

#: a pool whose 3000-byte objects waste most of a 4K page: every other page size saves
POOL = {"count": 1000, "elt_size": 3000}


def offered(page_sizes: tuple[int, ...], monkeypatch: pytest.MonkeyPatch) -> tuple[set[str], set[str]]:
    """The page sizes --explain's variants and inspect's advice offer, with ``page_sizes`` the levers'."""
    monkeypatch.setattr(levers, "PAGE_SIZES", page_sizes)
    plat = Platform(page_size=4096)
    job = Job.of(registry.get("pool"), plat, POOL)
    explain = {label.removeprefix("page size ") for label in job.variants(0) if label.startswith("page size ")}
    dump = PoolDump(name="p", line=1, fields={"size": POOL["count"], "elt_size": POOL["elt_size"], "flags": 0})
    advice = advise(dump, plat, model(dump, plat))
    return explain, {a["key"].removeprefix("page:") for a in advice if a["key"].startswith("page:")}


def test_explain_and_inspect_offer_the_same_page_sizes(monkeypatch):
    explain, advice = offered(levers.PAGE_SIZES, monkeypatch)
    assert explain == advice == {page_label(size) for size in levers.PAGE_SIZES if size != 4096}
    # and they follow the one list when it changes
    assert offered((64 << 10, 1 << 30), monkeypatch) == ({"64K", "1G"}, {"64K", "1G"})


def test_the_levers_of_a_pool():
    keys = [lever.key for lever in levers.levers(flags=0x2, cache_size=256, cache_layout="pointer", count=8192)]
    # no_cache_align implies no_spread: not a lever of its own
    assert keys == ["flag:no_iova_contig", "cache:index", "cache:half", "cache:0", "count:pow2"]
    assert [lever.key for lever in levers.levers(flags=0x20, page_size=4096)] == [
        "flag:no_cache_align",
        "flag:no_spread",
        "flag:all",
    ]  # no page lever: NO_IOVA_CONTIG objects ignore pages
    assert [lever.key for lever in levers.levers(page_size=0)] == ["page:4K", "page:2M", "page:1G"]
