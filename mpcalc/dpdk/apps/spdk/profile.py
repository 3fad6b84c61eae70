"""What an SPDK release's targets create at start-up, and the build-dependent sizes, measured.

A profile is one SPDK release built one way: which subsystems each target (``spdk_tgt``, ``nvmf_tgt``) starts
and, for each pool, the element size ``sizeof`` gave in that build.  The sizes are *measured*: read from
``env_dpdk_get_mem_stats``'s mempool dump (``elt_size``) of the real target, recorded under
``tests/conformance/spdk/`` and its release folders (the SPDK tag and commit, DPDK and the parts each build held:
its README).  A size
that depends on the build (``bdev_io``: ``sizeof(struct spdk_bdev_io)`` plus the largest per-I/O context of
the bdev modules linked in, v24.09:lib/bdev/bdev.c:2243-2247) is exact for the module set measured, and a
stated range for any other (:data:`BDEV_IO_RANGE`).

Measured: v24.09 (the default, :data:`DEFAULT_RELEASE`), v26.01 (the LTS) and v26.05; what each release's source
does differently where the model reads it is a field of its profile, cited at that release's lines.  Releases
not measured are refused by name (:func:`measured`), with what their source says differs.

Pure: stdlib only.
"""

from __future__ import annotations

from dataclasses import dataclass

from mpcalc.dpdk.core.errors import InputError


@dataclass(frozen=True)
class Profile:
    """One SPDK release, one build: the measured sizes, which subsystems each target starts, and what the
    release's source does differently where the model reads it."""

    release: str
    commit: str
    #: the DPDK versions this release's dpdk_pci_init accepts (``cite["dpdk_pci_init"]``): (year, month, lowest
    #: minor, highest minor)
    dpdk_supported: tuple[tuple[int, int, int, int], ...]
    sizes: dict[str, int]
    #: the bdev modules of the measured build (CONFIG at configure time): bdev_io's size holds for these
    bdev_modules: tuple[str, ...]
    #: the subsystems each target starts, in spdk_subsystem_init's order (what allocates is in pools.py)
    subsystems: dict[str, tuple[str, ...]]
    measured: str
    #: where each check and rule the model reproduces is in this release's source (``path:lines``)
    cite: dict[str, str]
    #: spdk_reactors_init's event pool: 262,143 events up to v24.09, EVENT_MSG_MEMPOOL_SIZE after
    event_pool: int = 262_144 - 1
    #: build_eal_cmdline turns a core mask into ``-l LIST`` (coremask_to_corelist) instead of passing ``-c MASK``
    mask_as_core_list: bool = False
    #: build_eal_cmdline adds ``--legacy-mem`` after ``--no-huge``
    no_huge_legacy_mem: bool = False
    #: build_eal_cmdline adds ``--proc-type=auto`` (with ``-i``) only when the env context has no --proc-type
    proc_type_unless_given: bool = False
    #: dpdk_pci_init's one message for every DPDK it refuses ("DPDK version %02d.%02d.%d is not supported.")
    one_dpdk_message: bool = False
    #: spdk_app_start sets up the trace before it creates the app thread (after it, up to v24.09)
    trace_before_app_thread: bool = False
    #: iobuf_set_options takes enable_numa (one pool pair per NUMA node); SPDK_CONFIG_MAX_NUMA_NODES of the build
    iobuf_numa: bool = False
    max_numa_nodes: int = 1
    #: nvmf_create_transport's iobuf caches are iobuf_small_cache_size/iobuf_large_cache_size, half of each
    #: pool shared by the poll groups by default; num_shared_buffers and io_unit_size deprecated and unused
    nvmf_iobuf_caches: bool = False


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
    cite={
        "dpdk_pci_init": "lib/env_dpdk/pci_dpdk.c:16-85",
        "dpdk_22_11": "lib/env_dpdk/pci_dpdk.c:49-59",
        "event_pool": "lib/event/reactor.c:278-282",
        "app_start": "lib/event/app.c:919-949",
        "build_eal_cmdline": "lib/env_dpdk/init.c:218-566",
        "bdev_mgmt_channel_create": "lib/bdev/bdev.c:2046-2075",
        "bdev_set_opts": "lib/bdev/bdev.c:513-520",
        "iobuf_small_pool_count": "lib/thread/iobuf.c:228-232",
        "iobuf_large_pool_count": "lib/thread/iobuf.c:233-237",
        "iobuf_small_bufsize": "lib/thread/iobuf.c:239-243",
        "iobuf_large_bufsize": "lib/thread/iobuf.c:245-249",
        "iscsi_parse_options": "lib/iscsi/iscsi_subsystem.c:493-506",
        "malloc_num_blocks": "module/bdev/malloc/bdev_malloc.c:714-717",
        "malloc_block_size": "module/bdev/malloc/bdev_malloc.c:719-722",
        "malloc_md_size": "module/bdev/malloc/bdev_malloc.c:729-740",
        "transport_io_unit_zero": "lib/nvmf/transport.c:269-272",
        "transport_io_unit_large": "lib/nvmf/transport.c:274-278",
        "transport_shared_buffers": "lib/nvmf/transport.c:287-291",
        "transport_poll_group_cache": "lib/nvmf/transport.c:606-641",
    },
)

#: the build of v26.05 and v26.01 measured (tests/conformance/spdk/README.md: the same parts as v24.09's)
_V26_MODULES = V24_09.bdev_modules
_V26_MEASURED = (
    "on Debian 12's DPDK 22.11.11, x86_64, gcc 12, vhost, virtio, crypto, RDMA and the other optional parts "
    "configured off (tests/conformance/spdk/README.md)"
)
#: dpdk_pci_init of v26.01 and v26.05 (v26.05:lib/env_dpdk/pci_dpdk.c:17-104): 21.11-22.07 (fn_table_2207),
#: 22.11.0-4, 23.03/07/11.0, 24.03.0, 24.07.0, 24.11.0-2, 25.03/07/11.0 (fn_table_2211); refused below 21.11 and
#: from 27
_V26_DPDK = (
    *V24_09.dpdk_supported,
    (24, 11, 0, 2),
    (25, 3, 0, 0),
    (25, 7, 0, 0),
    (25, 11, 0, 0),
)
#: the checks the model reproduces at the same lines in v26.01 and v26.05
_V26_CITE = {
    "event_pool": "lib/event/reactor.c:273-289",
    "iobuf_small_pool_count": "lib/thread/iobuf.c:297-301",
    "iobuf_large_pool_count": "lib/thread/iobuf.c:302-306",
    "iobuf_small_bufsize": "lib/thread/iobuf.c:308-312",
    "iobuf_large_bufsize": "lib/thread/iobuf.c:314-318",
    "iobuf_enable_numa": "lib/thread/iobuf.c:320-328",
    "iscsi_parse_options": "lib/iscsi/iscsi_subsystem.c:493-506",
}

#: v26.05 (d519b163cbc0e2f28c35d9bc86d610da368b032c) built as v24.09 was: every size below read from the recorded
#: v26.05 dumps' mempool elt_size or the build's debug information (tests/conformance/spdk/README.md)
V26_05 = Profile(
    release="v26.05",
    commit="d519b163cbc0e2f28c35d9bc86d610da368b032c",
    # v26.05:lib/env_dpdk/pci_dpdk.c:64-94: 26.03.0 too (fn_table_2211)
    dpdk_supported=(*_V26_DPDK, (26, 3, 0, 0)),
    sizes={
        **V24_09.sizes,
        "bdev_io": 1496,  # bdev_io elt_size: sizeof(struct spdk_bdev_io) 1216 + the largest module context 280
        "spdk_bdev_io_struct": 1216,  # pahole of the v26.05 build's libspdk_bdev.so
        "iscsi_pdu": 512,  # PDU_Pool elt_size (sizeof(struct spdk_iscsi_pdu), pahole 512)
        "iscsi_task": 440,  # SCSI_TASK_Pool elt_size (sizeof(struct spdk_iscsi_task), pahole 440)
    },
    bdev_modules=_V26_MODULES,
    subsystems=dict(V24_09.subsystems),
    measured=f"SPDK v26.05 {_V26_MEASURED}",
    cite={
        **_V26_CITE,
        "dpdk_pci_init": "lib/env_dpdk/pci_dpdk.c:17-104",
        "dpdk_22_11": "lib/env_dpdk/pci_dpdk.c:48-58, 101-103",
        "app_start": "lib/event/app.c:995-1017",
        "build_eal_cmdline": "lib/env_dpdk/init.c:332-697",
        "bdev_mgmt_channel_create": "lib/bdev/bdev.c:2184-2226",
        "bdev_set_opts": "lib/bdev/bdev.c:525-532",
        "malloc_num_blocks": "module/bdev/malloc/bdev_malloc.c:860-863",
        "malloc_block_size": "module/bdev/malloc/bdev_malloc.c:865-868",
        "malloc_md_size": "module/bdev/malloc/bdev_malloc.c:888-899",
        "transport_iobuf_cache_cap": "lib/nvmf/transport.c:292-308",
        "transport_deprecated": "lib/nvmf/nvmf_rpc.c:2413-2432",
        "transport_poll_group_cache": "lib/nvmf/transport.c:605-678",
    },
    event_pool=(1 << 14) - 1,  # EVENT_MSG_MEMPOOL_SIZE (v26.05:lib/event/reactor.c:273-274)
    mask_as_core_list=True,  # v26.05:lib/env_dpdk/init.c:396-406
    no_huge_legacy_mem=True,  # v26.05:lib/env_dpdk/init.c:479-481
    proc_type_unless_given=True,  # v26.05:lib/env_dpdk/init.c:658-664
    one_dpdk_message=True,  # v26.05:lib/env_dpdk/pci_dpdk.c:101-103
    trace_before_app_thread=True,  # v26.05:lib/event/app.c:1006-1017
    iobuf_numa=True,  # v26.05:lib/thread/iobuf.c:63-66, 320-328; CONFIG_MAX_NUMA_NODES=1 (configure's default)
    nvmf_iobuf_caches=True,  # v26.05:lib/nvmf/transport.c:292-308, 629-672
)

#: v26.01 (LTS, 2ef883ef96e79c3cc16da02f667a7a58c2453f2f) built as v24.09 was, measured as v26.05: v26.05's event
#: pool, iobuf per NUMA node, EAL --legacy-mem and DPDK message, but ``-c MASK`` and the v24.09 TCP transport
#: (num_shared_buffers, io_unit_size)
V26_01 = Profile(
    release="v26.01",
    commit="2ef883ef96e79c3cc16da02f667a7a58c2453f2f",
    # v26.01:lib/env_dpdk/pci_dpdk.c:43-92: any 26.x falls to fn_table_2207 (its last else)
    dpdk_supported=(*_V26_DPDK, (26, 3, 0, 99), (26, 7, 0, 99), (26, 11, 0, 99)),
    # the v26.01 dumps' elt_size and its build's pahole gave v26.05's sizes, every one
    sizes=dict(V26_05.sizes),
    bdev_modules=_V26_MODULES,
    subsystems=dict(V24_09.subsystems),
    measured=f"SPDK v26.01 {_V26_MEASURED}",
    cite={
        **_V26_CITE,
        "dpdk_pci_init": "lib/env_dpdk/pci_dpdk.c:17-97",
        "dpdk_22_11": "lib/env_dpdk/pci_dpdk.c:48-58, 94-96",
        "app_start": "lib/event/app.c:972-994",
        "build_eal_cmdline": "lib/env_dpdk/init.c:288-643",
        "bdev_mgmt_channel_create": "lib/bdev/bdev.c:2148-2190",
        "bdev_set_opts": "lib/bdev/bdev.c:521-528",
        "malloc_num_blocks": "module/bdev/malloc/bdev_malloc.c:766-769",
        "malloc_block_size": "module/bdev/malloc/bdev_malloc.c:771-774",
        "malloc_md_size": "module/bdev/malloc/bdev_malloc.c:794-805",
        "transport_io_unit_zero": "lib/nvmf/transport.c:291-294",
        "transport_io_unit_large": "lib/nvmf/transport.c:295-299",
        "transport_shared_buffers": "lib/nvmf/transport.c:308-312",
        "transport_poll_group_cache": "lib/nvmf/transport.c:610-685",
    },
    event_pool=(1 << 14) - 1,  # v26.01:lib/event/reactor.c:273-274
    no_huge_legacy_mem=True,  # v26.01:lib/env_dpdk/init.c:426-428
    proc_type_unless_given=True,  # v26.01:lib/env_dpdk/init.c:604-610
    one_dpdk_message=True,  # v26.01:lib/env_dpdk/pci_dpdk.c:94-96
    trace_before_app_thread=True,  # v26.01:lib/event/app.c:989-994
    iobuf_numa=True,  # v26.01:lib/thread/iobuf.c:320-328
)

PROFILES: dict[str, Profile] = {p.release: p for p in (V24_09, V26_01, V26_05)}
DEFAULT_RELEASE = "v24.09"

#: what the source of the releases not measured says, for the refusal
NOT_MEASURED = {
    "v24.01": "v24.01 (LTS) has no fsdev subsystem (no fsdev_io pool, no lib/fsdev) and the same iobuf, bdev, "
    "thread and reactor pools (v24.01:lib/thread/iobuf.c:12-24, lib/bdev/bdev.c:38-39, lib/event/reactor.c:218, "
    "lib/thread/thread.c:516); it accepts DPDK 22.11.0-4 and 23.x.0 (v24.01:lib/env_dpdk/pci_dpdk.c:43-72)",
    "v25.01": "from v25.01 the event pool is 16,383 events, not 262,143 (EVENT_MSG_MEMPOOL_SHIFT 14, "
    "v25.01-rc1:lib/event/reactor.c:272) and iobuf's pools are per NUMA node with enable_numa "
    "(v25.05:lib/thread/iobuf.c:63-65), as in the measured v26.01; its EAL command line, DPDK check and trace "
    "set-up were not compared with v26.01's",
}
for _r in ("v25.05", "v25.09"):
    NOT_MEASURED[_r] = NOT_MEASURED["v25.01"]

#: every release name mpcalc knows: the measured ones, then those refused with what their source says
RELEASES = (*PROFILES, *NOT_MEASURED)

#: bdev_io's element in a build with other bdev modules, a stated range: at least sizeof(struct spdk_bdev_io)
#: (1,024 B in the measured build: its debug information), plus the largest per-I/O context of the modules linked
#: in (272 B in the measured set, which gives the 1,296 B measured); a module set not measured may add more
BDEV_IO_RANGE = (1024, None)


def measured(release: str | None = None) -> Profile:
    """The measured profile of ``release`` (:data:`DEFAULT_RELEASE` by default); a release not measured is
    refused."""
    rel = release or DEFAULT_RELEASE
    if rel in PROFILES:
        return PROFILES[rel]
    said = f": {NOT_MEASURED[rel]}" if rel in NOT_MEASURED else ""
    raise InputError(f"SPDK {rel} is not measured (measured: {', '.join(PROFILES)}){said}", param="command")


def dpdk_check(prof: Profile, dpdk: str) -> str | None:
    """SPDK's own refusal of the DPDK release (dpdk_pci_init, ``prof.cite["dpdk_pci_init"]``), or None.

    ``dpdk`` is mpcalc's release (``22.11``, ``23.11.2``): a missing minor is .0.

    >>> dpdk_check(V24_09, "23.11"), dpdk_check(V24_09, "25.11") is not None, dpdk_check(V26_05, "25.11")
    (None, True, None)
    """
    parts = [int(x) for x in dpdk.split(".")]
    year, month, minor = [*parts, 0, 0, 0][:3]
    for y, m, lo, hi in prof.dpdk_supported:
        if (year, month) == (y, m) and lo <= minor <= hi:
            return None
    if prof.one_dpdk_message:  # not_supported: (v26.05:lib/env_dpdk/pci_dpdk.c:101-103)
        return f"DPDK version {year:02d}.{month:02d}.{minor} is not supported."
    if (year, month) == (22, 11):
        return f"DPDK LTS version 22.11.{minor} not supported."
    if year >= 25:
        return f"DPDK version {year}.{month:02d}.{minor} not supported."
    return f"DPDK version {year}.{month:02d}.{minor} is not supported."
