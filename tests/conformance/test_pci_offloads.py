"""The PCI drivers' offload capabilities (:mod:`mpcalc.dpdk.drivers.pci_offloads`), held to DPDK's own source.

For each driver and release this reads the driver's ``dev_infos_get`` at the tag: every statement assigning
``rx_offload_capa`` / ``tx_offload_capa``, what it ors in resolved through the driver's own functions and macros
(statements that clear bits, ``&=``, left out; every condition taken, the full-featured device), down to the
``RTE_ETH_RX_OFFLOAD_*`` / ``RTE_ETH_TX_OFFLOAD_*`` names, then drops what the module's ``NOT_ON`` says the
modelled device lacks. It reads a DPDK git repository (``MPCALC_DPDK_GIT``, else /work/.mirror/DPDK+dpdk/repo) and
skips when there is none. ``python tests/conformance/test_pci_offloads.py`` prints the ``CAPA`` table
(mpcalc/dpdk/drivers/offloads.json).
"""

from __future__ import annotations

import os
import re
import subprocess
from functools import cache
from pathlib import Path

import pytest

from mpcalc.dpdk.drivers import pci_offloads, pmd
from mpcalc.dpdk.drivers.pcibase import RELEASES, TAGS, since

GIT = Path(os.environ.get("MPCALC_DPDK_GIT", "/work/.mirror/DPDK+dpdk/repo"))
pytestmark = pytest.mark.skipif(not (GIT / "HEAD").exists(), reason=f"no DPDK git repository at {GIT}")

TOKEN = re.compile(r"\bRTE_ETH_(RX|TX)_OFFLOAD_([A-Z0-9_]+)\b")
NOT_CALLS = {"if", "for", "while", "switch", "return", "sizeof"}
#: pmd -> (its folder: (before 25.11, drivers/net/intel/<x> from 25.11) or one folder, its dev_infos_get)
SPEC: dict[str, tuple[tuple[str, str] | str, str]] = {
    "net_e1000_em": (("e1000", "e1000"), "eth_em_infos_get"),
    "net_e1000_igb": (("e1000", "e1000"), "eth_igb_infos_get"),
    "net_e1000_igb_vf": (("e1000", "e1000"), "eth_igbvf_infos_get"),
    "net_igc": (("igc", "e1000"), "eth_igc_infos_get"),
    "net_ixgbe": (("ixgbe", "ixgbe"), "ixgbe_dev_info_get"),
    "net_ixgbe_vf": (("ixgbe", "ixgbe"), "ixgbevf_dev_info_get"),
    "net_i40e": (("i40e", "i40e"), "i40e_dev_info_get"),
    "net_ice": (("ice", "ice"), "ice_dev_info_get"),
    "net_iavf": (("iavf", "iavf"), "iavf_dev_info_get"),
    "net_vmxnet3": ("drivers/net/vmxnet3", "vmxnet3_dev_info_get"),
    "net_virtio": ("drivers/net/virtio", "virtio_dev_info_get"),
    "net_ena": ("drivers/net/ena", "ena_infos_get"),
    "net_bnxt": ("drivers/net/bnxt", "bnxt_dev_info_get_op"),
    "mlx5_pci": ("drivers/net/mlx5", "mlx5_dev_infos_get"),
}


def folders(pmd_name: str, rel: str) -> list[str]:
    d = SPEC[pmd_name][0]
    if isinstance(d, str):
        return [d]
    old, new = d
    return [f"drivers/net/intel/{new}", "drivers/net/intel/common"] if since(rel, "25.11") else [f"drivers/net/{old}"]


def git(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", "-C", str(GIT), *args], capture_output=True, text=True, errors="replace")


@cache
def show(tag: str, path: str) -> tuple[str, ...]:
    r = git("show", f"{tag}:{path}")
    return tuple(r.stdout.splitlines()) if r.returncode == 0 else ()


@cache
def sources(tag: str, folder: str) -> tuple[str, ...]:
    out = git("ls-tree", "-r", "--name-only", tag, folder).stdout.split()
    return tuple(p for p in out if p.endswith((".c", ".h")))


def _is_definition(text: tuple[str, ...], i: int) -> bool:
    # a function's definition: its parameters close before a "{" at column 0, no ";" (a prototype) before it
    for t in text[i : i + 12]:
        if t.rstrip().endswith(";"):
            return False
        if t.startswith("{"):
            return True
    return False


def find(tag: str, dirs: list[str], name: str, kind: str) -> tuple[str, int] | None:
    """Where a function ("fn", its definition) or a macro ("def") of the driver starts: (path, 0-based line)."""
    rx = re.compile(rf"^#define\s+{name}\b" if kind == "def" else rf"^(?:[\w\*]+\s+)*\**{name}\(")
    for d in dirs:
        for path in sources(tag, d):
            text = show(tag, path)
            for i, t in enumerate(text):
                if rx.match(t) and (kind == "def" or _is_definition(text, i)):
                    return path, i
    return None


def body(text: tuple[str, ...], i: int, kind: str) -> list[tuple[int, str]]:
    """A macro's lines (its backslash continuations) or a function's, from its "{" to its closing "}"."""
    if kind == "def":
        out = [(i, text[i])]
        while text[out[-1][0]].rstrip().endswith("\\"):
            out.append((out[-1][0] + 1, text[out[-1][0] + 1]))
        return out
    j = i
    while not text[j].startswith("{"):
        j += 1
    out = []
    while text[j].rstrip() != "}":
        out.append((j, text[j]))
        j += 1
    return out


def statements(lines: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """(first line, text) of each statement, comments dropped; split at ";", "{" and "}"."""
    out: list[tuple[int, str]] = []
    cur, start = "", -1
    for j, t in lines:
        t = re.sub(r"/\*.*?\*/|//.*", "", t)
        for part in re.split(r"(;|\{|\})", t):
            if part in (";", "{", "}"):
                if cur.strip():
                    out.append((start, cur))
                cur, start = "", -1
            else:
                if part.strip() and start < 0:
                    start = j
                cur += " " + part
    if cur.strip():
        out.append((start, cur))
    return out


class Reader:
    """What one driver's dev_infos_get ors into its capabilities at one tag: the bit names and the lines."""

    def __init__(self, tag: str, dirs: list[str]) -> None:
        self.tag, self.dirs = tag, dirs
        self.bits: dict[str, set[str]] = {"RX": set(), "TX": set()}
        self.lines: list[tuple[str, int]] = []
        self.seen: set[tuple[str, str]] = set()

    def expr(self, text: str, path: str, line: int, info: list[tuple[int, str]] | None) -> None:
        names = TOKEN.findall(text)
        for side, name in names:
            self.bits[side].add(name)
        if names and (path, line + 1) not in self.lines:
            self.lines.append((path, line + 1))
        for name in re.findall(r"\b([A-Za-z_]\w*)\s*\(", text):
            if name not in NOT_CALLS:
                self.unit(name, "fn")
        for name in re.findall(r"\b([A-Z][A-Z0-9_]*[A-Z0-9])\b", text):
            if not name.startswith("RTE_ETH_"):
                self.unit(name, "def")
        # dev_info->rx_queue_offload_capa ored in: what dev_infos_get assigned it
        for side in re.findall(r"->(rx|tx)_queue_offload_capa\b", text):
            for at, st in info or ():
                m = re.search(rf"\b\w+->{side}_queue_offload_capa\s*\|?=(.*)", st, re.S)
                if m:
                    self.expr(m[1], path, at, None)

    def unit(self, name: str, kind: str) -> None:
        if (name, kind) in self.seen:
            return
        self.seen.add((name, kind))
        where = find(self.tag, self.dirs, name, kind)
        if where is None:
            return
        path, i = where
        lines = body(show(self.tag, path), i, kind)
        if kind == "def":
            self.expr(" ".join(t.rstrip("\\") for _, t in lines).split(name, 1)[1], path, i, None)
            return
        for at, st in statements(lines[1:]):
            if "&=" not in st:
                self.expr(st, path, at, None)

    def info(self, name: str) -> None:
        where = find(self.tag, self.dirs, name, "fn")
        assert where is not None, (self.tag, name)
        path, i = where
        sts = statements(body(show(self.tag, path), i, "fn")[1:])
        for at, st in sts:
            m = re.search(r"\b\w+->(rx|tx)_offload_capa\s*\|?=(.*)", st, re.S)
            if m:
                self.expr(m[2], path, at, sts)


def read(pmd_name: str, rel: str) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """(Rx bit names, Tx bit names, the lines that set them) of a driver at a release, less its ``NOT_ON``."""
    tag = TAGS[rel]
    r = Reader(tag, folders(pmd_name, rel))
    r.info(SPEC[pmd_name][1])
    drop = pci_offloads.NOT_ON.get(pmd_name, {})
    rx = tuple(sorted(n for n in r.bits["RX"] if f"RX_{n}" not in drop))
    tx = tuple(sorted(n for n in r.bits["TX"] if f"TX_{n}" not in drop))
    cite: list[str] = []
    for path, line in r.lines:
        where = f"{tag}:{path}"
        if cite and cite[-1].rsplit(":", 1)[0] == where:
            cite[-1] += f",{line}"
        else:
            cite.append(f"{where}:{line}")
    return rx, tx, tuple(cite)


@pytest.mark.parametrize("rel", RELEASES)
@pytest.mark.parametrize("pmd_name", sorted(SPEC))
def test_the_capabilities_are_the_drivers(pmd_name, rel):
    assert pci_offloads.CAPA[pmd_name][rel] == read(pmd_name, rel)


@pytest.mark.parametrize("rel", RELEASES)
def test_every_bit_is_rte_ethdev_hs(rel):
    text = "\n".join(show(TAGS[rel], "lib/ethdev/rte_ethdev.h"))
    names = {
        f"{side}_{n}"
        for v in pci_offloads.CAPA.values()
        for c in v.values()
        for side, g in zip(("RX", "TX"), c[:2], strict=True)
        for n in g
    }
    for name in sorted(names):
        m = re.search(rf"#define RTE_ETH_{name.replace('_', '_OFFLOAD_', 1)}\s+RTE_BIT64\((\d+)\)", text)
        assert m, name
        assert getattr(pmd, name.replace("_", "_OFFLOAD_", 1)) == 1 << int(m[1]), name


def test_every_driver_is_read():
    assert set(pci_offloads.CAPA) == set(SPEC)


if __name__ == "__main__":  # mpcalc/dpdk/drivers/offloads.json
    import json

    table = {
        name: {rel: dict(zip(("rx", "tx", "source"), map(list, read(name, rel)), strict=True)) for rel in RELEASES}
        for name in SPEC
    }
    print(json.dumps(table, indent=1))
