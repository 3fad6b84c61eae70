"""The hugepage advice of VPP (``mpcalc app -- vpp ...``): the pages per NUMA node and page size that
``details.vpp`` counts (its buffer maps, DPDK's heap at least VPP's 16 MB pre-reserve, a main heap or stats
segment on hugepages), in the kernel's own settings.  VPP takes no ``--socket-mem`` (``dpdk { socket-mem }`` is
parsed and ignored), so the advice is ``nr_hugepages`` per node.  Pure: no click, no rich."""

from __future__ import annotations

from mpcalc.dpdk.core.platform import DEFAULT_PAGE_SIZE
from mpcalc.dpdk.core.records import Result


def _kb(page: int) -> int:
    return page >> 10


def advice(result: Result) -> dict[str, object]:
    """The pages to reserve per node and size, and the commands that reserve them."""
    v = result.details["vpp"]
    assert isinstance(v, dict)
    nodes = v["numa"]
    per_size: dict[int, int] = {}
    commands: list[str] = []
    pages: dict[str, dict[str, int]] = {}
    for n in nodes:
        node = n["numa"]
        pages[str(node)] = dict(n["nr_hugepages"])
        for size, count in n["nr_hugepages"].items():
            per_size[int(size)] = per_size.get(int(size), 0) + count
            sysfs = f"/sys/devices/system/node/node{node}/hugepages/hugepages-{_kb(int(size))}kB/nr_hugepages"
            commands.append(f"echo {count} > {sysfs}")
    totals = {str(k): per_size[k] for k in sorted(per_size)}
    sysctl = [f"sysctl -w vm.nr_hugepages={c}" for s, c in sorted(per_size.items()) if s == DEFAULT_PAGE_SIZE]
    boot = [f"hugepagesz=1G hugepages={c}" for s, c in sorted(per_size.items()) if s == 1 << 30]
    mapped: dict[str, int] = {}
    for n in nodes:
        for size, count in n["hugepages_mapped"].items():
            mapped[size] = mapped.get(size, 0) + count
    return {
        "pages": pages,
        "nr_hugepages": totals,
        "mapped": mapped,
        "commands": commands,
        "sysctl": sysctl,
        "kernel_cmdline": boot,
        "socket_mem": None,
        "note": (
            "VPP maps its buffers itself (pmalloc, on the default hugepage size) and runs DPDK --in-memory: it "
            "ignores dpdk { socket-mem } ('socket-mem argument is deprecated'); reserve nr_hugepages per node. "
            "Running as root VPP tops a node up itself when too few pages are free (clib_sysfs_prealloc_hugepages), "
            "which these settings make unnecessary"
        ),
    }
