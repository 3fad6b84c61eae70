"""Each default and rule lives in one place: the platform's defaults (DEFAULT_CHANNELS, DEFAULT_RANKS,
DEFAULT_PAGE_SIZE) are what Platform, make_platform and the declared Params default to, and the 2 MiB
default page is written out nowhere else; a name's C strlen and the hugepage count are one function each."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import mpcalc
from mpcalc.dpdk.apps import testpmd
from mpcalc.dpdk.core import platform as plat
from mpcalc.dpdk.core.heap import hugepages
from mpcalc.dpdk.core.standalone import name_bytes


def test_the_platform_defaults_are_one_constant_each():
    defaults = {"channels": plat.DEFAULT_CHANNELS, "ranks": plat.DEFAULT_RANKS, "page_size": plat.DEFAULT_PAGE_SIZE}
    declared = {p.key: p.default for p in plat.PLATFORM_PARAMS if p.key in defaults}
    made = plat.make_platform()
    assert declared == defaults
    assert {k: getattr(plat.Platform(), k) for k in defaults} == defaults
    assert {k: getattr(made, k) for k in defaults} == defaults
    signature = inspect.signature(plat.make_platform).parameters
    assert {k: signature[k].default for k in defaults} == defaults


def test_the_default_page_is_written_out_once():
    """``2 << 20`` (or 2 * 1024 * 1024, 2097152) only where DEFAULT_PAGE_SIZE is set, in the levers' list of
    page sizes, as DPDK's RTE_PGSIZE_2M in the external buffers' zone size, and in a doctest's output."""
    pattern = re.compile(r"2 << 20|2 \* 1024 \* 1024|\b2097152\b")
    found = []
    for path in Path(mpcalc.__file__).parent.rglob("*.py"):
        for line in path.read_text().splitlines():
            if pattern.search(line) and "DEFAULT_PAGE_SIZE = " not in line and ">>>" not in line:
                found.append(f"{path.parent.name}/{path.name}")
    assert sorted(found) == ["apps/testpmd.py", "core/levers.py", "core/units.py"]


def test_one_strlen_and_one_hugepage_count():
    assert name_bytes("é" * 3) == 6 and name_bytes("abc") == 3
    assert hugepages((2 << 20) + 1, plat.Platform()) == 2
    assert hugepages(1, plat.Platform(page_size=0)) is None
    assert testpmd.extbuf_zone_size(plat.Platform()) == plat.DEFAULT_PAGE_SIZE - 4 * 64
