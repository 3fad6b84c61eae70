"""The target machine's CPUs (``--cpus LIST``), for the whole applications that name CPUs (``app``, ``ovs``).

EAL refuses an lcore whose CPU the machine does not have (eal_cpu_detected: its
``/sys/devices/system/cpu/cpu<N>/topology/core_id``, v22.11.11:lib/eal/linux/eal_lcore.c:14-31) and OVS skips
the pmd-cpu-mask bits of CPUs it does not find (lib/ovs-numa.c).  Which CPUs the target has cannot be known
offline: :data:`CPUS` declares the option once for both objects, written as the kernel writes
``/sys/devices/system/cpu/online`` (``0-1``, ``0-3,8-11``); without it the CPUs are taken as written, and
said so.

Pure: stdlib only.
"""

from __future__ import annotations

from mpcalc.dpdk.core.declare import Param
from mpcalc.dpdk.core.errors import InputError

#: the option both objects take, one declaration
CPUS = Param(
    "cpus",
    "text",
    "The target machine's online CPUs, as /sys/devices/system/cpu/online writes them (0-1, 0-3,8-11): "
    "lcores and PMD CPUs it lacks are checked as EAL and OVS check them [default: the CPUs are taken to exist].",
    metavar="LIST",
)


def parse_cpus(text: str) -> tuple[int, ...]:
    """``0-3,8-11`` (the kernel's cpulist format, Documentation/admin-guide/cputopology.rst) -> the CPU ids.

    >>> parse_cpus("0-1"), parse_cpus("0,2-3\\n")
    ((0, 1), (0, 2, 3))
    """
    out: set[int] = set()
    for part in text.strip().split(","):
        lo, dash, hi = part.strip().partition("-")
        try:
            a, b = int(lo), int(hi if dash else lo)
        except ValueError:
            raise InputError(
                f"--cpus {text.strip()!r}: write the CPUs as /sys/devices/system/cpu/online does (0-3,8-11)",
                param="cpus",
            ) from None
        if a > b or a < 0:
            raise InputError(f"--cpus {text.strip()!r}: the range {part.strip()!r} is empty", param="cpus")
        out.update(range(a, b + 1))
    return tuple(sorted(out))


def cpu_list(cpus: tuple[int, ...]) -> str:
    """The CPUs in the kernel's own format, as EAL prints them.

    >>> cpu_list((0, 1, 2, 5, 7, 8))
    '0-2,5,7-8'
    """
    runs: list[str] = []
    for c in cpus:
        if runs and int(runs[-1].rsplit("-", 1)[-1]) == c - 1:
            runs[-1] = f"{runs[-1].split('-')[0]}-{c}"
        else:
            runs.append(str(c))
    return ",".join(runs)
