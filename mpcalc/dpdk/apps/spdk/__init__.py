"""SPDK's storage targets (``spdk_tgt``, ``nvmf_tgt``) from their own command line and JSON config.

SPDK runs on DPDK's memory (lib/env_dpdk): ``spdk_mempool_create`` is ``rte_mempool_create`` with the cache
clamped to ``min(cache, (count / 2) / rte_lcore_count(), RTE_MEMPOOL_CACHE_MAX_SIZE)`` and flags 0
(v24.09:lib/env_dpdk/env.c:181-212), ``spdk_ring_create`` is ``rte_ring_create("ring_<n>_<pid>", count,
RING_F_EXACT_SZ | ...)`` with one global counter (env.c:392-420), ``spdk_malloc``/``spdk_zmalloc`` are
``rte_malloc_socket``/``rte_zmalloc_socket`` with the alignment raised to the cache line (env.c:28-60).  So
every pool, ring and buffer is sized by mpcalc's own mempool, ring and heap models.

:mod:`.options` reads the command line (``spdk_app_parse_args``) and makes the EAL command line SPDK passes to
``rte_eal_init`` (``build_eal_cmdline``); :mod:`.json_config` the JSON config; :mod:`.profile` the measured sizes of
the release; :func:`build` the start-up, in SPDK's order:

1. ``spdk_reactors_init`` (v24.09:lib/event/reactor.c:270-330): ``evtpool_<pid>`` (262,143 events up to v24.09,
   16,383 from v25.01: :attr:`.profile.Profile.event_pool`; the default cache) and, through
   ``spdk_thread_lib_init_ext``, ``msgpool_<pid>`` (``max(262,143, cores x 4,096)`` messages, no cache;
   app.c:276-290, thread.c:339-357); one 65,536-entry event ring per reactor.
2. ``spdk_thread_create("app_thread")``: a 65,536-entry message ring (thread.c:528), as every SPDK thread.
3. ``spdk_trace_init``'s bit array of threads (v24.09:lib/trace/trace.c:270) unless ``--num-trace-entries 0``
   (before the app thread from v26.01: :attr:`.profile.Profile.trace_before_app_thread`).
4. The subsystems (:data:`.profile.Profile.subsystems`): fsdev's ``fsdev_io_<pid>`` pool; iobuf's two rings and
   two ``spdk_malloc``s of the whole pools (lib/thread/iobuf.c:95-150); bdev's ``bdev_io_<pid>`` pool and 1 MiB
   zero buffer (lib/bdev/bdev.c:2221-2262), the ftl module's two 1 MiB buffers (lib/ftl/ftl_core.c:782-800) and
   the null module's 64 KiB read buffer (module/bdev/null/bdev_null.c:436); nvmf's bit arrays (tgt and the
   discovery subsystem) and one poll group thread per core (module/event/subsystems/nvmf/nvmf_tgt.c:200-225);
   iSCSI's five pools (lib/iscsi/iscsi_subsystem.c:43-150) and one poll group thread per core.
5. The runtime RPCs of the JSON config: ``bdev_malloc_create``'s buffer, ``nvmf_create_transport``'s per poll
   group control message buffers (TCP), ``nvmf_create_subsystem``'s bit array.

Pure: stdlib only.
"""

from __future__ import annotations

from typing import Any

from mpcalc.dpdk.apps.eal import EalArgs
from mpcalc.dpdk.apps.names import NULL
from mpcalc.dpdk.apps.spdk import json_config as cfg
from mpcalc.dpdk.apps.spdk.options import SpdkArgs, eal_argv, parse
from mpcalc.dpdk.apps.spdk.profile import Profile, dpdk_check, measured
from mpcalc.dpdk.core.errors import InputError, Rejection
from mpcalc.dpdk.core.platform import Platform
from mpcalc.dpdk.core.records import Allocation, Mempool
from mpcalc.dpdk.core.standalone import Parts
from mpcalc.dpdk.objects.mempool.create import PoolSpec, create_pool
from mpcalc.dpdk.objects.ring import EXACT_SZ, SC_DEQ, ring_parts

__all__ = ["build", "eal_command_line", "on_hugepages", "parse"]

PID = "<pid>"  # getpid() in SPDK's names: the recorded dumps' pids are replaced by it
RTE_MEMPOOL_CACHE_MAX_SIZE = 512  # v22.11:config/rte_config.h:60
SIZE_MAX = 2**64 - 1  # SPDK_MEMPOOL_DEFAULT_CACHE_SIZE (v24.09:include/spdk/env.h:310)
SPDK_DEFAULT_MSG_MEMPOOL_SIZE = 262_144 - 1  # include/spdk/thread.h:183
SPDK_MSG_MEMPOOL_CACHE_SIZE = 1024  # include/spdk/thread.h:181
PER_CORE_MSG = 4 * SPDK_MSG_MEMPOOL_CACHE_SIZE  # SPDK_APP_PER_CORE_MSG_MEMPOOL_SIZE (lib/event/app.c:43)
THREAD_RING = 65_536  # thread.c:528 and reactor.c:214
# iobuf (v24.09:lib/thread/iobuf.c:12-22)
IOBUF_MIN_SMALL_POOL_SIZE, IOBUF_MIN_LARGE_POOL_SIZE = 64, 8
IOBUF_DEFAULT_SMALL_POOL_SIZE, IOBUF_DEFAULT_LARGE_POOL_SIZE = 8192, 1024
IOBUF_ALIGNMENT = 4096
IOBUF_MIN_SMALL_BUFSIZE, IOBUF_MIN_LARGE_BUFSIZE = 4096, 8192
IOBUF_DEFAULT_SMALL_BUFSIZE, IOBUF_DEFAULT_LARGE_BUFSIZE = 8 * 1024, 132 * 1024
# bdev (v24.09:lib/bdev/bdev.c:38-42, lib/bdev/bdev_internal.h:11)
SPDK_BDEV_IO_POOL_SIZE, SPDK_BDEV_IO_CACHE_SIZE = 64 * 1024 - 1, 256
BUF_SMALL_CACHE_SIZE, BUF_LARGE_CACHE_SIZE = 128, 16
ZERO_BUFFER_SIZE = 0x100000
FTL_ZERO_BUFFER_SIZE = 0x100000  # lib/ftl/ftl_core.h:40
SPDK_BDEV_LARGE_BUF_MAX_SIZE = 64 * 1024  # include/spdk/bdev.h:29
SPDK_FSDEV_IO_POOL_SIZE = 64 * 1024 - 1  # lib/fsdev/fsdev.c:18
#: a malloc bdev's buffers are spdk_zmalloc'ed 2 MiB aligned (module/bdev/malloc/bdev_malloc.c:760, 769)
MALLOC_BDEV_ALIGNMENT = 0x200000
# nvmf (lib/nvmf/nvmf.c:23, nvmf_internal.h:268; lib/nvmf/tcp.c:32-49; include/spdk_internal/nvme_tcp.h:29)
SPDK_NVMF_DEFAULT_MAX_SUBSYSTEMS = 1024
NVMF_MAX_LISTENERS_PER_SUBSYSTEM = 16
UINT32_MAX = 2**32 - 1  # the transport's "computed" cache size (SPDK_NVMF_TCP_DEFAULT_*BUFFER_CACHE_SIZE)
TCP_DEFAULTS = {
    "max_queue_depth": 128,
    "max_io_qpairs_per_ctrlr": 127,
    "in_capsule_data_size": 4096,
    "max_io_size": 131072,
    "io_unit_size": 131072,
    "max_aq_depth": 128,
    "num_shared_buffers": 511,
    "buf_cache_size": UINT32_MAX,
    "control_msg_num": 32,
}
SPDK_NVME_TCP_IN_CAPSULE_DATA_MAX_SIZE = 8192
NVMF_DATA_BUFFER_ALIGNMENT = 4096
# iSCSI (lib/iscsi/iscsi.h:26-95, iscsi_subsystem.c:28, 104, 295-300; include/spdk/bdev.h:31-38)
ISCSI_DEFAULTS = {
    "max_sessions": 128,
    "max_queue_depth": 64,
    "max_large_datain_per_connection": 64,
    "max_r2t_per_connection": 4,
    "first_burst_length": 8192,
}
MAX_DATA_OUT_PER_CONNECTION = 16
SPDK_ISCSI_MAX_RECV_DATA_SEGMENT_LENGTH = 65536
ISCSI_DATA_BUFFER_ALIGNMENT = 0x1000
DEFAULT_TASK_POOL_SIZE = 32768
SPDK_BDEV_MAX_INTERLEAVED_MD_SIZE = 64


def eal_command_line(argv: list[str], release: str | None = None) -> tuple[list[str], list[str]]:
    """The EAL command line SPDK ``release`` builds from ``argv`` (:func:`.options.eal_argv`), and ``argv``
    itself: what :func:`mpcalc.dpdk.apps.size` parses as EAL's and passes to :func:`build`."""
    a = parse(argv)
    return eal_argv(a, measured(release)), list(argv)


def on_hugepages(argv: list[str]) -> list[str]:
    """The command line on hugepages: without ``--no-huge`` and ``-s``/``--mem-size`` (what the advice replaces)."""
    out: list[str] = []
    it = iter(argv)
    for tok in it:
        if tok == "--no-huge":
            continue
        if tok in ("-s", "--mem-size"):
            next(it, None)
            continue
        if tok.startswith("--mem-size=") or (tok.startswith("-s") and len(tok) > 2 and not tok.startswith("--")):
            continue
        out.append(tok)
    return out


def cache_of(cache: int, count: int, lcores: int) -> int:
    """spdk_mempool_create_ctor's cache: no more than half the elements in the caches, at most
    RTE_MEMPOOL_CACHE_MAX_SIZE (v24.09:lib/env_dpdk/env.c:191-200).

    >>> cache_of(SIZE_MAX, 262_143, 1), cache_of(256, 2048, 2), cache_of(0, 100, 1)
    (512, 256, 0)
    """
    return min(cache, (count // 2) // lcores, RTE_MEMPOOL_CACHE_MAX_SIZE)


def bit_array_bytes(bits: int) -> int:
    """``spdk_bit_array_create(bits)``: offsetof(words) 8 + one 8-byte word per 64 bits + one spare word,
    through spdk_realloc (v24.09:lib/util/bit_array.c:66-90).

    >>> bit_array_bytes(0), bit_array_bytes(16), bit_array_bytes(1024)
    (16, 24, 144)
    """
    return 8 + 8 * (-(-bits // 64)) + 8


class _Start:
    """The start-up being built: parts, pools, the ring counter, SPDK's complaints."""

    def __init__(self, a: SpdkArgs, e: EalArgs, p: Platform, prof: Profile) -> None:
        self.a, self.e, self.p, self.prof = a, e, p, prof
        self.parts = Parts()
        self.pools: list[Mempool] = []
        self.notes: list[str] = []
        self.rings = 0
        self.lcores = len(e.lcores)
        self.threads: list[str] = []
        self.slack = 0  # the most the heap loses below the allocations aligned above the cache line
        self.bdev_iobuf = (BUF_SMALL_CACHE_SIZE, BUF_LARGE_CACHE_SIZE)
        self.tcp_cache: dict[str, int] = {}  # the iobuf cache each TCP poll group asks (iobuf_get_stats: v26.05)

    def pool(self, name: str, count: int, elt: int, cache: int, role: str) -> None:
        # role: what the pool holds, for the reader of this code; the records keep the mempool model's roles
        self.pools.append(create_pool(PoolSpec(name, count, elt, cache_of(cache, count, self.lcores)), self.p))

    def ring(self, count: int, role: str, flags: int = 0) -> None:
        name = f"ring_{self.rings}_{PID}"
        self.rings += 1
        parts, _ = ring_parts(name, count, self.p, 8, EXACT_SZ | flags, role=role, fn="spdk_ring_create")
        self.parts.extend(parts)

    def malloc(self, size: int, align: int, role: str) -> None:
        # spdk_malloc/spdk_zmalloc: rte_malloc_socket with align = max(align, RTE_CACHE_LINE_SIZE) (env.c:37, 54)
        al = max(align, self.p.cache_line)
        self.slack += al - self.p.cache_line
        self.parts.allocations.append(Allocation(NULL, size, f"{role}: spdk_malloc, {al}-byte aligned"))

    def thread(self, name: str) -> None:
        self.threads.append(name)
        self.ring(THREAD_RING, f"{name}: message ring", SC_DEQ)

    def at(self, key: str) -> str:
        """Where the release's source has the check or rule ``key`` (``v26.05:lib/...:lines``)."""
        return f"{self.prof.release}:{self.prof.cite[key]}"

    def refuse(self, reason: str, function: str, source: str, errno: str = "EINVAL") -> None:
        self.parts.errors.append(Rejection(errno, reason, function, source))


def build(
    e: EalArgs, argv: list[str], p: Platform, release: str | None = None
) -> tuple[Parts, list[Mempool], dict[str, object], list[str]]:
    """Everything the target allocates from DPDK's heap up to its RPC server taking requests, in SPDK's order;
    ``release``: the SPDK release (:data:`.profile.DEFAULT_RELEASE` by default)."""
    a = parse(argv)
    prof = measured(release)
    refusal = dpdk_check(prof, p.release.version)
    if refusal is not None:
        raise InputError(
            f"SPDK {prof.release} exits: '{refusal}' (dpdk_pci_init, {prof.release}:{prof.cite['dpdk_pci_init']}); "
            "give the DPDK release it is built against (--release)",
            param="command",
        )
    stable = p.release.stable_tag.removeprefix("v")
    if dpdk_check(prof, stable) is not None:
        # mpcalc's release is the branch's newest stable tag; SPDK checks the point release it runs with
        s_notes = [
            f"SPDK {prof.release} refuses DPDK {stable} itself ('{dpdk_check(prof, stable)}', dpdk_pci_init, "
            f"{prof.release}:{prof.cite['dpdk_22_11']}): it runs on {p.release.version}'s earlier point "
            "releases (the recorded runs are 22.11.11 with its version string changed: "
            "tests/conformance/spdk/README.md)"
        ]
    else:
        s_notes = []
    if a.program not in prof.subsystems:
        raise InputError(f"{a.program!r} is not an SPDK target mpcalc knows ({', '.join(prof.subsystems)})")
    conf = cfg.read(a.json_config) if a.json_config else cfg.Config()
    s = _Start(a, e, p, prof)
    s.notes += s_notes
    sz = prof.sizes
    rel = prof.release
    # 1. spdk_reactors_init: the event pool, the message pool, one event ring per reactor
    s.pool(f"evtpool_{PID}", prof.event_pool, sz["spdk_event"], SIZE_MAX, "events (spdk_reactors_init)")
    msg = a.msg_mempool_size or max(SPDK_DEFAULT_MSG_MEMPOOL_SIZE, s.lcores * PER_CORE_MSG)
    s.pool(f"msgpool_{PID}", msg, sz["spdk_msg"], 0, "messages (spdk_thread_lib_init_ext)")
    for core in e.lcores:
        s.ring(THREAD_RING, f"reactor {core}: event ring", SC_DEQ)
    # 2. the app thread and 3. spdk_trace_init (when num_entries != 0): its thread bit array (0 user threads),
    # after the app thread up to v24.09, before it from v26.01 (prof.cite["app_start"])
    if not prof.trace_before_app_thread:
        s.thread("app_thread")
    if a.num_entries:
        s.malloc(bit_array_bytes(0), 64, "spdk_trace_init: thread bit array")
    if prof.trace_before_app_thread:
        s.thread("app_thread")
    # 4. the subsystems; the start-up RPCs of the JSON config first
    iobuf = _iobuf_opts(s, conf)
    bdev = _bdev_opts(s, conf)
    for sub in prof.subsystems[a.program]:
        if sub == "iobuf" and iobuf is not None:
            # one small and one large pool per NUMA node with enable_numa (iobuf_node_initialize): the model's
            # machine is one node, whose pools these are
            small, large, sbuf, lbuf = iobuf
            s.ring(small, "iobuf small pool ring (spdk_iobuf_initialize)")
            s.malloc(small * sbuf, IOBUF_ALIGNMENT, f"iobuf small pool: {small:,} x {sbuf:,} B")
            s.ring(large, "iobuf large pool ring (spdk_iobuf_initialize)")
            s.malloc(large * lbuf, IOBUF_ALIGNMENT, f"iobuf large pool: {large:,} x {lbuf:,} B")
        elif sub == "fsdev":
            s.pool(f"fsdev_io_{PID}", SPDK_FSDEV_IO_POOL_SIZE, sz["fsdev_io"], 0, "fsdev I/O (spdk_fsdev_initialize)")
        elif sub == "bdev" and bdev is not None:
            pool_size, _cache = bdev
            s.pool(f"bdev_io_{PID}", pool_size, sz["bdev_io"], 0, "bdev I/O (spdk_bdev_initialize)")
            s.malloc(ZERO_BUFFER_SIZE, ZERO_BUFFER_SIZE, "bdev zero buffer (spdk_bdev_initialize)")
            s.malloc(FTL_ZERO_BUFFER_SIZE, FTL_ZERO_BUFFER_SIZE, "ftl write buffer (spdk_ftl_init)")
            s.malloc(FTL_ZERO_BUFFER_SIZE, FTL_ZERO_BUFFER_SIZE, "ftl read buffer (spdk_ftl_init)")
            s.malloc(SPDK_BDEV_LARGE_BUF_MAX_SIZE, 0, "bdev_null read buffer (bdev_null_initialize)")
        elif sub == "nvmf":
            max_subs = SPDK_NVMF_DEFAULT_MAX_SUBSYSTEMS
            for params in conf.startup("nvmf_set_max_subsystems"):
                max_subs = cfg.uint(params, "max_subsystems", max_subs, "nvmf_set_max_subsystems")
            s.malloc(bit_array_bytes(max_subs), 64, "spdk_nvmf_tgt_create: subsystem ids bit array")
            s.malloc(bit_array_bytes(NVMF_MAX_LISTENERS_PER_SUBSYSTEM), 64, "discovery subsystem: listener ids")
            for i, _core in enumerate(e.lcores):
                s.thread(f"nvmf_tgt_poll_group_{i:03d}")
        elif sub == "iscsi":
            _iscsi(s, conf)
            for i, _core in enumerate(e.lcores):
                s.thread(f"iscsi_poll_group_{i}")
    # 5. the runtime RPCs, in the file's order
    nvmf_groups = sum(1 for t in s.threads if t.startswith("nvmf_tgt_poll_group"))
    for rpc in conf.rpcs:
        if rpc.method == "bdev_malloc_create":
            _malloc_bdev(s, rpc.params)
        elif rpc.method == "nvmf_create_transport":
            _transport(s, rpc.params, iobuf, nvmf_groups)
        elif rpc.method == "nvmf_create_subsystem":
            s.malloc(bit_array_bytes(NVMF_MAX_LISTENERS_PER_SUBSYSTEM), 64, f"{rpc.params.get('nqn')}: listener ids")
    if bdev is not None:
        small_c, large_c = s.bdev_iobuf
        s.notes.append(
            f"each SPDK thread that opens a bdev channel takes bdev_io_cache_size {bdev[1]} bdev_ios and "
            f"{small_c} small and {large_c} large iobuf buffers from the pools (bdev_mgmt_channel_create, "
            f"{rel}:{prof.cite['bdev_mgmt_channel_create']}): at start-up the app thread's; more threads with "
            "bdevs take more"
        )
    if conf.ignored:
        s.notes.append(
            "the JSON config's RPCs not modelled, taken to allocate nothing from the DPDK heap: "
            + ", ".join(conf.ignored)
        )
    if conf.no_memory:
        s.notes.append("RPCs that allocate no DPDK memory at start-up: " + ", ".join(conf.no_memory))
    s.notes += [
        f"SPDK {rel} as measured ({prof.measured}); bdev_io's element is {sz['bdev_io']} B with the bdev modules "
        f"{', '.join(prof.bdev_modules)}: sizeof(struct spdk_bdev_io) {sz['spdk_bdev_io_struct']} B + the largest "
        f"module context {sz['bdev_io'] - sz['spdk_bdev_io_struct']} B; a build with other modules (crypto, compress, "
        f"ocf, xnvme, uring, rbd, daos, the iSCSI initiator) has at least {sz['spdk_bdev_io_struct']} B and may have "
        "more than the measured size",
        "spdk_tgt built with vhost (SPDK's default) also starts the vhost_blk and vhost_scsi subsystems "
        "(app/spdk_tgt/Makefile:28): their start-up allocations were not measured",
        "the pools' names carry SPDK's pid (getpid()): shown as <pid>",
        "SPDK's trace buffer (--num-trace-entries) and the per-thread structures are shared memory and libc "
        "memory, not DPDK's heap",
    ]
    if not a.no_pci:
        s.notes.append(
            "SPDK does not pass --no-pci: DPDK's PMDs probe the machine's PCI devices (a virtio-net NIC reserves "
            "rte_eth_dev_data even when its probe fails); give -u/--no-pci if no NVMe device is used"
        )
    if a.pci_allowed or a.pci_blocked:
        s.notes.append("NVMe controllers attached later (bdev_nvme_attach_controller) take queue memory not counted")
    details: dict[str, Any] = {
        # malloc_elem_alloc may leave a free gap below an element aligned above the cache line, up to
        # align - cache line bytes (v22.11:lib/eal/common/malloc_elem.c:414-470): what the memory must hold
        # beyond the elements' bytes in the worst case (the advice counts it)
        "alignment_slack_bytes": s.slack,
        "spdk": {
            "release": rel,
            "commit": prof.commit,
            "options": a.to_dict(),
            "eal_command_line": eal_argv(a, prof),
            "reactors": list(e.lcores),
            "threads": list(s.threads),
            "nvmf_tcp_iobuf_cache": s.tcp_cache or None,
            "json_config": {
                "path": conf.path,
                "rpcs": [r.method for r in conf.rpcs],
                "ignored": conf.ignored,
                "no_memory": conf.no_memory,
            },
        },
    }
    return s.parts, s.pools, details, s.notes


def _iobuf_opts(s: _Start, conf: cfg.Config) -> tuple[int, int, int, int] | None:
    """iobuf_set_options (module/event/subsystems/iobuf/iobuf_rpc.c:12-40) through spdk_iobuf_set_opts's
    checks (v24.09:lib/thread/iobuf.c:216-262); the buffer sizes rounded up to IOBUF_ALIGNMENT at init."""
    small, large = IOBUF_DEFAULT_SMALL_POOL_SIZE, IOBUF_DEFAULT_LARGE_POOL_SIZE
    sbuf, lbuf = IOBUF_DEFAULT_SMALL_BUFSIZE, IOBUF_DEFAULT_LARGE_BUFSIZE
    for params in conf.startup("iobuf_set_options"):
        m = "iobuf_set_options"
        n_small = cfg.uint(params, "small_pool_count", small, m, 64)
        n_large = cfg.uint(params, "large_pool_count", large, m, 64)
        b_small = cfg.uint(params, "small_bufsize", sbuf, m)
        b_large = cfg.uint(params, "large_bufsize", lbuf, m)
        for bad, text, line in (
            (
                n_small < IOBUF_MIN_SMALL_POOL_SIZE,
                f"small_pool_count must be at least {IOBUF_MIN_SMALL_POOL_SIZE}",
                "iobuf_small_pool_count",
            ),
            (
                n_large < IOBUF_MIN_LARGE_POOL_SIZE,
                f"large_pool_count must be at least {IOBUF_MIN_LARGE_POOL_SIZE}",
                "iobuf_large_pool_count",
            ),
            (
                b_small < IOBUF_MIN_SMALL_BUFSIZE,
                f"small_bufsize must be at least {IOBUF_MIN_SMALL_BUFSIZE}",
                "iobuf_small_bufsize",
            ),
            (
                b_large < IOBUF_MIN_LARGE_BUFSIZE,
                f"large_bufsize must be at least {IOBUF_MIN_LARGE_BUFSIZE}",
                "iobuf_large_bufsize",
            ),
        ):
            if bad:
                s.refuse(
                    f"{text}: the RPC fails and the JSON config does not load (the application stops)",
                    "spdk_iobuf_set_opts",
                    s.at(line),
                )
                return None
        if s.prof.iobuf_numa and params.get("enable_numa") is True:
            s.notes.append(
                "iobuf_set_options enable_numa: one small and one large pool per NUMA node (iobuf_node_initialize); "
                "the model's machine is one node (a build with SPDK_CONFIG_MAX_NUMA_NODES "
                f"{s.prof.max_numa_nodes} refuses a machine with more, {s.at('iobuf_enable_numa')})"
            )
        small, large, sbuf, lbuf = n_small, n_large, b_small, b_large
    align = IOBUF_ALIGNMENT
    return small, large, -(-sbuf // align) * align, -(-lbuf // align) * align


def _bdev_opts(s: _Start, conf: cfg.Config) -> tuple[int, int] | None:
    """bdev_set_options through spdk_bdev_set_opts's check: the pool holds a cache per thread and one more
    (v24.09:lib/bdev/bdev.c:495-535); at start-up only the app thread exists."""
    pool, cache = SPDK_BDEV_IO_POOL_SIZE, SPDK_BDEV_IO_CACHE_SIZE
    for params in conf.startup("bdev_set_options"):
        m = "bdev_set_options"
        n_pool = cfg.uint(params, "bdev_io_pool_size", pool, m)
        n_cache = cfg.uint(params, "bdev_io_cache_size", cache, m)
        threads = 1
        need = n_cache * (threads + 1)
        if n_pool < need:
            s.refuse(
                f"bdev_io_pool_size {n_pool} is not compatible with bdev_io_cache_size {n_cache} and {threads} "
                f"threads; bdev_io_pool_size must be at least {need}",
                "spdk_bdev_set_opts",
                s.at("bdev_set_opts"),
            )
            return None
        pool, cache = n_pool, n_cache
        s.bdev_iobuf = (
            cfg.uint(params, "iobuf_small_cache_size", BUF_SMALL_CACHE_SIZE, m),
            cfg.uint(params, "iobuf_large_cache_size", BUF_LARGE_CACHE_SIZE, m),
        )
    return pool, cache


def _iscsi(s: _Start, conf: cfg.Config) -> None:
    """iscsi_initialize_all_pools (v24.09:lib/iscsi/iscsi_subsystem.c:43-150) with iscsi_opts_init's defaults
    (iscsi_subsystem.c:295-327) and iscsi_set_options' keys (lib/iscsi/iscsi_rpc.c:1738-1751): the pool
    sizes keep their defaults unless given (the RPC decodes into defaulted opts)."""
    o = dict(ISCSI_DEFAULTS)
    for params in conf.startup("iscsi_set_options"):
        for key in o:
            o[key] = cfg.uint(params, key, o[key], "iscsi_set_options")
    d = ISCSI_DEFAULTS
    per_conn = 2 * (d["max_queue_depth"] + d["max_large_datain_per_connection"] + 2 * d["max_r2t_per_connection"] + 8)
    sizes = {
        "pdu_pool_size": d["max_sessions"] * per_conn,
        "immediate_data_pool_size": d["max_sessions"] * 128,
        "data_out_pool_size": d["max_sessions"] * MAX_DATA_OUT_PER_CONNECTION,
    }
    for params in conf.startup("iscsi_set_options"):
        for key in sizes:
            sizes[key] = cfg.uint(params, key, sizes[key], "iscsi_set_options")
            if key in params and sizes[key] == 0:
                s.refuse(
                    f"0 is invalid. {key} must be more than 0",
                    "iscsi_parse_options",
                    s.at("iscsi_parse_options"),
                )
                return
    sz = s.prof.sizes

    def with_md(x: int) -> int:  # SPDK_BDEV_BUF_SIZE_WITH_MD (include/spdk/bdev.h:38)
        return (x // 512) * (512 + SPDK_BDEV_MAX_INTERLEAVED_MD_SIZE)

    imm = o["first_burst_length"] + 4 + 4 + 8 + 52  # iscsi_get_max_immediate_data_size (lib/iscsi/iscsi.h:463-477)
    imm_mobj = with_md(imm) + sz["spdk_mobj"] + ISCSI_DATA_BUFFER_ALIGNMENT
    dout_mobj = with_md(SPDK_ISCSI_MAX_RECV_DATA_SEGMENT_LENGTH) + sz["spdk_mobj"] + ISCSI_DATA_BUFFER_ALIGNMENT
    s.pool("PDU_Pool", sizes["pdu_pool_size"], sz["iscsi_pdu"], 256, "iSCSI PDUs")
    s.pool("PDU_immediate_data_Pool", sizes["immediate_data_pool_size"], imm_mobj, 256, "iSCSI immediate data")
    s.pool("PDU_data_out_Pool", sizes["data_out_pool_size"], dout_mobj, 256, "iSCSI data-out")
    s.pool("Session_Pool", o["max_sessions"], sz["iscsi_sess"], 0, "iSCSI sessions")
    s.pool("SCSI_TASK_Pool", DEFAULT_TASK_POOL_SIZE, sz["iscsi_task"], 128, "iSCSI tasks")


def _malloc_bdev(s: _Start, params: dict[str, Any]) -> None:
    """bdev_malloc_create: the disk's buffer, 2 MiB aligned, and a separate metadata buffer when md_size is
    given without md_interleave (v24.09:module/bdev/malloc/bdev_malloc.c:705-775)."""
    m = "bdev_malloc_create"
    blocks = cfg.uint(params, "num_blocks", 0, m, 64)
    bs = cfg.uint(params, "block_size", 512, m)
    md = cfg.uint(params, "md_size", 0, m)
    inter = bool(params.get("md_interleave", False))
    name = params.get("name") or "Malloc"
    if blocks == 0:
        s.refuse("Disk num_blocks must be greater than 0", "create_malloc_disk", s.at("malloc_num_blocks"))
        return
    if bs % 512:
        s.refuse("Data block size must be 512 bytes aligned", "create_malloc_disk", s.at("malloc_block_size"))
        return
    if md not in (0, 8, 16, 32, 64, 128):
        s.refuse(f"metadata size {md} is not supported", "create_malloc_disk", s.at("malloc_md_size"))
        return
    block = bs + md if inter else bs
    s.malloc(blocks * block, MALLOC_BDEV_ALIGNMENT, f"{name}: malloc bdev buffer ({blocks:,} x {block} B)")
    if md and not inter:
        s.malloc(blocks * md, MALLOC_BDEV_ALIGNMENT, f"{name}: malloc bdev metadata buffer")


def _transport(s: _Start, params: dict[str, Any], iobuf: tuple[int, int, int, int] | None, groups: int) -> None:
    """nvmf_create_transport (lib/nvmf/nvmf_rpc.c:2460-2660): nvmf_transport_create's checks
    (v24.09:lib/nvmf/transport.c:255-291), each poll group's iobuf cache (:func:`_tcp_caches_shared_buffers`,
    :func:`_tcp_caches_iobuf`), and per poll group the TCP control message list when the in-capsule data size is
    below 8 KiB (tcp.c:1577-1610, 1656-1663, v26.05:lib/nvmf/tcp.c:1607-1608, 1672-1676); the buffers are
    iobuf's, no memory of their own."""
    m = "nvmf_create_transport"
    trtype = str(params.get("trtype", "")).upper()
    if trtype != "TCP":
        s.notes.append(f"nvmf_create_transport {trtype or '?'}: only the TCP transport is modelled; not counted")
        return
    o = {k: cfg.uint(params, k, v, m) for k, v in TCP_DEFAULTS.items()}
    if iobuf is None:
        return
    caches = (
        _tcp_caches_iobuf(s, params, iobuf, groups)
        if s.prof.nvmf_iobuf_caches
        else _tcp_caches_shared_buffers(s, o, iobuf, groups)
    )
    if caches is None:
        return
    small, large, _sbuf, _lbuf = iobuf
    s.tcp_cache = {"small_per_poll_group": caches[0], "large_per_poll_group": caches[1], "poll_groups": groups}
    # each poll group's iobuf channel fills its cache from the pools (spdk_iobuf_channel_init); the app thread's
    # bdev channel holds its share already
    small_c, large_c = s.bdev_iobuf
    free = {"small": small - small_c, "large": large - large_c}
    want = dict(zip(("small", "large"), caches, strict=True))
    counts = {"small": small, "large": large}
    for _g in range(groups):
        for kind in ("small", "large"):
            if want[kind] > free[kind]:
                s.notes.append(
                    f"SPDK logs: 'Failed to populate 'nvmf_TCP' iobuf {kind} buffer cache at {free[kind]}/{want[kind]} "
                    f"entries. You may need to increase spdk_iobuf_opts.{kind}_pool_count ({counts[kind]})' and "
                    "'Unable to reserve the full number of buffers for the pg buffer cache.': the poll group runs "
                    f"without a cache (spdk_iobuf_channel_init, {s.at('transport_poll_group_cache')})"
                )
                break
        else:
            free = {k: free[k] - want[k] for k in free}
    if o["in_capsule_data_size"] < SPDK_NVME_TCP_IN_CAPSULE_DATA_MAX_SIZE:
        for i in range(groups):
            s.malloc(
                o["control_msg_num"] * SPDK_NVME_TCP_IN_CAPSULE_DATA_MAX_SIZE,
                NVMF_DATA_BUFFER_ALIGNMENT,
                f"nvmf_tgt_poll_group_{i:03d}: TCP control messages ({o['control_msg_num']} x 8 KiB)",
            )


def _tcp_caches_shared_buffers(
    s: _Start, o: dict[str, int], iobuf: tuple[int, int, int, int], groups: int
) -> tuple[int, int] | None:
    """Up to v26.01: io_unit_size's checks, num_shared_buffers against the pools, and each poll group's cache,
    three quarters of num_shared_buffers shared by the poll groups, large buffers only when io_unit_size is above
    the small buffer (v24.09:lib/nvmf/transport.c:255-291, 606-617)."""
    small, large, sbuf, lbuf = iobuf
    if o["io_unit_size"] == 0:
        s.refuse("io_unit_size cannot be 0", "nvmf_transport_create", s.at("transport_io_unit_zero"))
        return None
    if o["io_unit_size"] > lbuf:
        s.refuse(
            f"io_unit_size {o['io_unit_size']} is larger than iobuf pool large buffer size {lbuf}",
            "nvmf_transport_create",
            s.at("transport_io_unit_large"),
        )
        return None
    count = small if o["io_unit_size"] <= sbuf else min(small, large)
    if o["num_shared_buffers"] > count:
        s.notes.append(
            f"SPDK warns: 'The num_shared_buffers value ({o['num_shared_buffers']}) is larger than the available "
            f"iobuf pool size ({count}). Please increase the iobuf pool sizes.' ({s.at('transport_shared_buffers')})"
        )
    cache = o["buf_cache_size"]
    if cache == UINT32_MAX:
        cache = (o["num_shared_buffers"] * 3 // 4) // max(groups, 1)
    return cache, cache if o["io_unit_size"] > sbuf else 0


def _tcp_caches_iobuf(
    s: _Start, params: dict[str, Any], iobuf: tuple[int, int, int, int], groups: int
) -> tuple[int, int] | None:
    """From v26.05: iobuf_small_cache_size (buf_cache_size its deprecated name) and iobuf_large_cache_size, each
    cut to half the pool over the cores when it and the cores would take more than the pool, and by default half
    of each pool shared by the poll groups; num_shared_buffers and io_unit_size are decoded, logged as deprecated
    and not used (v26.05:lib/nvmf/transport.c:292-308, 639-655; lib/nvmf/nvmf_rpc.c:2413-2432)."""
    m = "nvmf_create_transport"
    small, large, _sbuf, _lbuf = iobuf
    for key, use in (
        ("num_shared_buffers", "does not use it"),
        ("io_unit_size", "does not use it"),
        ("buf_cache_size", "takes it as iobuf_small_cache_size"),
    ):
        if key in params:
            cfg.uint(params, key, 0, m)
            s.notes.append(
                f"nvmf_create_transport {key}: SPDK logs it as deprecated and {use} ({s.at('transport_deprecated')})"
            )
    small_c = cfg.uint(params, "buf_cache_size", UINT32_MAX, m)
    small_c = cfg.uint(params, "iobuf_small_cache_size", small_c, m)
    large_c = cfg.uint(params, "iobuf_large_cache_size", UINT32_MAX, m)
    if small_c == 0 and large_c == 0:
        return 0, 0  # nvmf_transport_use_iobuf: no cache, no iobuf channel
    cores = s.lcores
    out = []
    for kind, given, pool in (("small", small_c, small), ("large", large_c, large)):
        if given not in (UINT32_MAX, 0) and given * cores > pool:
            s.notes.append(
                f"SPDK warns: 'per core iobuf_{kind}_cache_size {given * cores} is larger than iobuf {kind} buffer "
                f"count {pool}, limiting to 50% of the pool' ({s.at('transport_iobuf_cache_cap')})"
            )
            given = pool // cores // 2
        out.append((pool // 2) // max(groups, 1) if given == UINT32_MAX else given)
    return out[0], out[1]
