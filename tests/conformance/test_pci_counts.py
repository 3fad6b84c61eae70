"""The table sizes the PCI driver models count (a module's ``COUNTS``), held to DPDK's own source at each tag.

``COUNTS[rel][key]`` is the number of entries of the C array that opens at the line ``key`` cites
(``LINES[rel][key]``, itself held by test_pci_sources.py): the lines up to its closing ``};``, blank lines and
comments left out, one entry a line. This reads the tag from a DPDK git repository (``MPCALC_DPDK_GIT``, else
/work/.mirror/DPDK+dpdk/repo) and skips when there is none.
"""

from __future__ import annotations

import pytest

from mpcalc.dpdk.drivers.pcibase import TAGS
from tests.conformance.test_pci_sources import GIT, MODULES, lines

pytestmark = pytest.mark.skipif(not (GIT / "HEAD").exists(), reason=f"no DPDK git repository at {GIT}")

COUNTED = [m for m in MODULES if hasattr(m, "COUNTS")]


def entries(text: tuple[str, ...], opening: int) -> int:
    n = 0
    for t in text[opening:]:
        s = t.strip()
        if s.startswith("};"):
            return n
        if s and not s.startswith(("/*", "*", "//")):
            n += 1
    raise AssertionError("no closing '};'")


@pytest.mark.parametrize("mod", COUNTED, ids=lambda m: m.__name__.rsplit(".", 1)[1])
def test_every_counted_table_has_the_entries_the_model_counts(mod):
    wrong = []
    for rel, counts in mod.COUNTS.items():
        for key, n in counts.items():
            line = mod.SOURCE.lines[rel][key]
            text = lines(TAGS[rel], mod.SOURCE.path(rel, key))
            got = entries(text or (), line) if line else None
            if got != n:
                wrong.append(f"{rel} {key}: model {n}, {TAGS[rel]}:{mod.SOURCE.path(rel, key)}:{line} {got}")
    assert wrong == []
