"""Every line the PCI driver models cite, held to DPDK's own source at its stable tag.

Each module's ``SOURCE`` names, per key, a file and a pattern; ``LINES[rel][key]`` is the line the pattern is on
(its nth match) at the release's tag. This reads the tag from a DPDK git repository (``MPCALC_DPDK_GIT``, else
/work/.mirror/DPDK+dpdk/repo) and skips when there is none. The PCI id tables (:mod:`mpcalc.dpdk.drivers.pci_ids`)
are checked the same way: the table's line opens the array the driver registers.
"""

from __future__ import annotations

import os
import re
import subprocess
from functools import cache
from pathlib import Path

import pytest

from mpcalc.dpdk.drivers import pci, pci_ids
from mpcalc.dpdk.drivers.pcibase import RELEASES, TAGS

GIT = Path(os.environ.get("MPCALC_DPDK_GIT", "/work/.mirror/DPDK+dpdk/repo"))
pytestmark = pytest.mark.skipif(not (GIT / "HEAD").exists(), reason=f"no DPDK git repository at {GIT}")

MODULES = sorted({m.__name__: m for m in pci.PMDS.values()}.values(), key=lambda m: m.__name__)


@cache
def lines(tag: str, path: str) -> tuple[str, ...] | None:
    r = subprocess.run(
        ["git", "-C", str(GIT), "show", f"{tag}:{path}"], capture_output=True, text=True, errors="replace"
    )
    return tuple(r.stdout.splitlines()) if r.returncode == 0 else None


@pytest.mark.parametrize("rel", RELEASES)
@pytest.mark.parametrize("mod", MODULES, ids=lambda m: m.__name__.rsplit(".", 1)[1])
def test_every_cited_line_says_what_the_model_read(mod, rel):
    src = mod.SOURCE
    tag = TAGS[rel]
    wrong = []
    for key in src.keys:
        line = src.lines[rel].get(key)
        text = lines(tag, src.path(rel, key))
        rx = src.pattern(key)
        hits = [i for i, t in enumerate(text or (), 1) if rx.search(t)]
        n = src.nth(key)
        found = hits[n - 1] if len(hits) >= n else None
        if found != line:
            wrong.append(f"{key}: model {line}, {tag}:{src.path(rel, key)} {found}")
    assert wrong == []


@pytest.mark.parametrize("pmd", sorted(pci_ids.CITES))
def test_the_pci_id_tables_open_where_cited(pmd):
    for rel, cite in pci_ids.CITES[pmd].items():
        tag, path, line = cite.split(":")
        text = lines(tag, path)
        assert text is not None and re.search(r"struct rte_pci_id \w+\[\] = \{", text[int(line) - 1]), cite
        ids = set()
        for t in text[int(line) :]:
            if t.strip().startswith("};"):
                break
            ids |= set(re.findall(r"RTE_PCI_DEVICE\(\s*(\w+)\s*,\s*(\w+)\s*\)", t))
        known = [k for k, (first, last) in pci_ids.IDS[pmd].items() if first <= rel and (not last or rel <= last)]
        # one entry in the model for every entry of the table (entries may span lines: at least as many)
        assert len(known) >= len(ids) - sum(1 for v, d in ids if not d), (pmd, rel)
