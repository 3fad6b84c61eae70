"""What an SPDK release's targets create at start-up, and the build-dependent sizes, measured.

A profile is one SPDK release built one way: which subsystems each target (``spdk_tgt``, ``nvmf_tgt``) starts
and, for each pool, the element size ``sizeof`` gave in that build.  The sizes are *measured*: read from
``env_dpdk_get_mem_stats``'s mempool dump (``elt_size``) of the real target, recorded under
``tests/conformance/spdk/`` (the SPDK tag and commit, DPDK, the configure switches in its README).  A size
that depends on the build (``bdev_io``: ``sizeof(struct spdk_bdev_io)`` plus the largest per-I/O context of
the bdev modules linked in, v24.09:lib/bdev/bdev.c:2243-2247) is exact for the module set measured, and a
stated range for any other (:data:`BDEV_IO_RANGE`).

Releases not measured are refused by name (:func:`measured`), with what their source says differs.

Pure: stdlib only.
"""

from __future__ import annotations

from dataclasses import dataclass

from mpcalc.dpdk.core.errors import InputError


@dataclass(frozen=True)
class Profile:
    """One SPDK release, one build: the measured sizes and which subsystems each target starts."""

    release: str
    commit: str
    #: the DPDK versions this release's dpdk_pci_init accepts (v24.09:lib/env_dpdk/pci_dpdk.c:42-85): a
    #: predicate over (year, month, minor) and SPDK's own message for the rest
    dpdk_supported: tuple[tuple[int, int, int, int], ...]
    sizes: dict[str, int]
    #: the bdev modules of the measured build (CONFIG at configure time): bdev_io's size holds for these
    bdev_modules: tuple[str, ...]
    #: the subsystems each target starts, in spdk_subsystem_init's order (what allocates is in pools.py)
    subsystems: dict[str, tuple[str, ...]]
    measured: str


#: v24.09 (19524ad45373e35d5fdc06f4e081444d87ceed80) on Debian 12's DPDK 22.11.11, the bdev modules
#: tests/conformance/spdk/README.md lists: every value below read from the recorded dumps' mempool elt_size, or
#: from the source where said
V24_09 = Profile(
    release="v24.09",
    commit="19524ad45373e35d5fdc06f4e081444d87ceed80",
    # pci_dpdk.c:42-85: 22.11.0-4 (fn_table_2211), 23.03.0, 23.07.0, 23.11.0, 24.03.0, 24.07.0; 21.11-22.07
    # (fn_table_2207); refused below 21.11 and from 25
    dpdk_supported=(
        (21, 11, 0, 99),
        (22, 3, 0, 99),
        (22, 7, 0, 99),
        (22, 11, 0, 4),
        (23, 3, 0, 0),
        (23, 7, 0, 0),
        (23, 11, 0, 0),
        (24, 3, 0, 0),
        (24, 7, 0, 0),
    ),
    sizes={
        "spdk_event": 32,  # evtpool elt_size (sizeof(struct spdk_event), reactor.c:278-282)
        "spdk_msg": 24,  # msgpool elt_size (sizeof(struct spdk_msg), thread.c:346-349)
        "bdev_io": 1296,  # bdev_io elt_size: sizeof(struct spdk_bdev_io) + bdev_module_get_max_ctx_size()
        "spdk_bdev_io_struct": 1024,  # sizeof(struct spdk_bdev_io) (pahole of the build's libspdk_bdev.so)
        "fsdev_io": 400,  # fsdev_io elt_size: sizeof(struct spdk_fsdev_io) 368 (pahole) + the largest module context
        "iscsi_pdu": 504,  # PDU_Pool elt_size (sizeof(struct spdk_iscsi_pdu))
        "iscsi_sess": 120,  # Session_Pool elt_size (sizeof(struct spdk_iscsi_sess))
        "iscsi_task": 432,  # SCSI_TASK_Pool elt_size (sizeof(struct spdk_iscsi_task))
        "spdk_mobj": 24,  # sizeof(struct spdk_mobj) (pahole; lib/iscsi/iscsi.h:119-123)
    },
    bdev_modules=(
        "malloc",
        "null",
        "nvme",
        "passthru",
        "lvol",
        "raid",
        "error",
        "gpt",
        "split",
        "delay",
        "zone_block",
        "aio",
        "ftl",
    ),
    subsystems={
        # spdk_tgt links every event subsystem built (app/spdk_tgt/Makefile: SPDK_LIB_LIST = $(ALL_MODULES_LIST)
        # event ...): the recorded dumps show fsdev, bdev, nvmf and iscsi pools
        "spdk_tgt": ("iobuf", "fsdev", "bdev", "nvmf", "iscsi"),
        # nvmf_tgt: event_nvmf and its dependencies (app/nvmf_tgt/Makefile)
        "nvmf_tgt": ("iobuf", "bdev", "nvmf"),
    },
    measured="SPDK v24.09 on Debian 12's DPDK 22.11.11, x86_64, gcc 12, vhost, virtio, crypto, RDMA and the other "
    "optional parts configured off (tests/conformance/spdk/README.md)",
)

PROFILES: dict[str, Profile] = {"v24.09": V24_09}
DEFAULT_RELEASE = "v24.09"

#: what the source of the releases not measured says, for the refusal
NOT_MEASURED = {
    "v24.01": "v24.01 (LTS) has no fsdev subsystem (no fsdev_io pool, no lib/fsdev) and the same iobuf, bdev, "
    "thread and reactor pools (v24.01:lib/thread/iobuf.c:12-24, lib/bdev/bdev.c:38-39, lib/event/reactor.c:218, "
    "lib/thread/thread.c:516); it accepts DPDK 22.11.0-4 and 23.x.0 (v24.01:lib/env_dpdk/pci_dpdk.c:43-72)",
    "v25.01": "from v25.01 the event pool is 16,383 events, not 262,143 (EVENT_MSG_MEMPOOL_SHIFT 14, "
    "v25.01-rc1:lib/event/reactor.c:272) and iobuf's pools are per NUMA node with enable_numa "
    "(v25.05:lib/thread/iobuf.c:63-65)",
    "v26.05": "v26.05 keeps the iobuf and bdev defaults (v26.05:lib/thread/iobuf.c:12-24, lib/bdev/bdev.c:42-43), "
    "makes iobuf's pools per NUMA node with enable_numa (iobuf.c:64-66), has a 16,383-event pool "
    "(v26.05:lib/event/reactor.c:273-289) and accepts DPDK up to 26.03.0 (v26.05:lib/env_dpdk/pci_dpdk.c:42-102)",
}
for _r in ("v25.05", "v25.09", "v26.01"):
    NOT_MEASURED[_r] = NOT_MEASURED["v25.01"]

#: bdev_io's element in a build with other bdev modules, a stated range: at least sizeof(struct spdk_bdev_io)
#: (1,024 B in the measured build: its debug information), plus the largest per-I/O context of the modules linked
#: in (272 B in the measured set, which gives the 1,296 B measured); a module set not measured may add more
BDEV_IO_RANGE = (1024, None)


def measured(release: str | None = None) -> Profile:
    """The measured profile of ``release`` (v24.09 by default); a release not measured is refused."""
    rel = release or DEFAULT_RELEASE
    if rel in PROFILES:
        return PROFILES[rel]
    said = f": {NOT_MEASURED[rel]}" if rel in NOT_MEASURED else ""
    raise InputError(f"SPDK {rel} is not measured (measured: {', '.join(PROFILES)}){said}", param="command")


def dpdk_check(prof: Profile, dpdk: str) -> str | None:
    """SPDK's own refusal of the DPDK release (dpdk_pci_init, v24.09:lib/env_dpdk/pci_dpdk.c:16-85), or None.

    ``dpdk`` is mpcalc's release (``22.11``, ``23.11.2``): a missing minor is .0.

    >>> dpdk_check(V24_09, "23.11"), dpdk_check(V24_09, "25.11") is not None
    (None, True)
    """
    parts = [int(x) for x in dpdk.split(".")]
    year, month, minor = [*parts, 0, 0, 0][:3]
    for y, m, lo, hi in prof.dpdk_supported:
        if (year, month) == (y, m) and lo <= minor <= hi:
            return None
    if (year, month) == (22, 11):
        return f"DPDK LTS version 22.11.{minor} not supported."
    if year >= 25:
        return f"DPDK version {year}.{month:02d}.{minor} not supported."
    return f"DPDK version {year}.{month:02d}.{minor} is not supported."
