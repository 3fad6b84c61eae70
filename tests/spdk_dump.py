"""Reading the recorded ``env_dpdk_get_mem_stats`` dumps of tests/conformance/spdk/ (SPDK's
spdk_env_dpdk_dump_mem_stats: rte_memzone_dump, rte_mempool_list_dump, rte_malloc_dump_stats,
rte_malloc_dump_heaps, v24.09:lib/env_dpdk/env.c:450-463), with the run's pid replaced by ``<pid>``.

A case is a folder of tests/conformance/spdk/: v24.09's at the top (``nohuge-default``), the other releases'
under the release (``v26.05/nohuge-default``)."""

from __future__ import annotations

import re
import shlex
from pathlib import Path
from typing import NamedTuple

SPDK = Path(__file__).parent / "conformance" / "spdk"


class Dump(NamedTuple):
    memzones: dict[str, int]
    mempools: dict[str, dict[str, int]]
    busy: list[tuple[int, int, int]]  # (address, len, pad) of the heap's BUSY elements
    heap_size: int
    alloc_size: int
    memory_size: int


def pid_of(case: str) -> str:
    m = re.search(r"--file-prefix=spdk_pid(\d+)", (SPDK / case / "stdout.txt").read_text())
    assert m, case
    return m[1]


#: the release whose runs are at the top of tests/conformance/spdk/
TOP_RELEASE = "v24.09"


def release_of(case: str) -> str:
    """The SPDK release of a case: its release folder, v24.09 at the top."""
    return case.split("/")[0] if "/" in case else TOP_RELEASE


def folder(release: str) -> Path:
    """The folder of a release's runs (and its bisect.txt)."""
    return SPDK if release == TOP_RELEASE else SPDK / release


def command(case: str) -> list[str]:
    """The command line of the case (COMMAND's first line starting with the program), its JSON config the one
    kept in the case's folder."""
    for line in (SPDK / case / "COMMAND").read_text().splitlines():
        if line.startswith(("spdk_tgt ", "nvmf_tgt ")):
            toks = shlex.split(line)
            return [str(SPDK / case / Path(t).name) if t.endswith(".json") else t for t in toks]
    raise AssertionError(case)


def read(case: str) -> Dump:
    text = (SPDK / case / "mem_dump.txt").read_text()
    pid = pid_of(case)
    text = text.replace(f"_{pid}", "_<pid>")
    zones = {m[1]: int(m[2], 16) for m in re.finditer(r"Zone \d+: name:<(.*?)>, len:(0x[0-9a-f]+)", text)}
    pools: dict[str, dict[str, int]] = {}
    for block in text.split("\nmempool <")[1:]:
        name = block.split(">@", 1)[0]
        fields = dict(re.findall(r"^\s+(size|elt_size|cache_size|populated_size|total_obj_size)=(\d+)", block, re.M))
        pools[name] = {k: int(v) for k, v in fields.items()}
    heaps = text.split("DPDK malloc heaps.")[1]
    busy = [
        (int(m[1], 16), int(m[2], 16), int(m[3], 16))
        for m in re.finditer(
            r"Malloc element at (0x[0-9a-f]+) \(BUSY\)\n  len: (0x[0-9a-f]+) pad: (0x[0-9a-f]+)", heaps
        )
    ]
    stats = text.split("DPDK malloc stats.")[1].split("Heap id:1")[0]
    heap_size = int(re.search(r"Heap_size:(\d+)", stats)[1])  # type: ignore[index]
    alloc_size = int(re.search(r"Alloc_size:(\d+)", stats)[1])  # type: ignore[index]
    memory = int(re.search(r"DPDK memory size (\d+)", text)[1])  # type: ignore[index]
    return Dump(zones, pools, busy, heap_size, alloc_size, memory)
