"""The options ``rte_eal_init`` knows, by release: which take a value, which are flags, since and until which
release each exists, their long aliases, and those whose memory effect the model does not know (refused by
name).  A table: data only, read by :mod:`.eal`.
"""

from __future__ import annotations

#: EAL options that take a value (short and long), v22.11:lib/eal/common/eal_common_options.c:53-108
_SHORT_WITH_VALUE = frozenset("abcsSdlmnr")
_SHORT_FLAGS = frozenset("vhA")
_SHORT_OPTIONAL = frozenset("R")  # -R[base] from 25.11
_LONG_WITH_VALUE = frozenset(
    {
        "allow",
        "block",
        "base-virtaddr",
        "file-prefix",
        "huge-dir",
        "iova-mode",
        "lcores",
        "log-level",
        "trace",
        "trace-dir",
        "trace-bufsz",
        "trace-mode",
        "main-lcore",
        "mbuf-pool-ops-name",
        "proc-type",
        "socket-mem",
        "socket-limit",
        "syslog",
        "vdev",
        "vfio-intr",
        "vfio-vf-token",
        "force-max-simd-bitwidth",
        "coremask",
        "driver-path",
        "memory-channels",
        "memory-ranks",
        "memory-size",
        "numa-mem",
        "numa-limit",
        "service-corelist",
        "service-coremask",
        "pagesz-mem",
    }
)
#: optional value (``has_arg`` 2): --huge-unlink[=existing|always|never], --huge-worker-stack[=size]
_LONG_OPTIONAL = frozenset({"huge-unlink", "huge-worker-stack", "log-color", "log-timestamp", "remap-lcore-ids"})
_LONG_FLAGS = frozenset(
    {
        "create-uio-dev",
        "help",
        "no-hpet",
        "no-huge",
        "no-pci",
        "no-shconf",
        "in-memory",
        "vmware-tsc-map",
        "legacy-mem",
        "single-file-segments",
        "match-allocations",
        "telemetry",
        "no-telemetry",
        "version",
        "auto-probing",
        "no-auto-probing",
    }
)
#: option names EAL gained after 21.11 and the release that has them: --huge-worker-stack
#: (v22.11.11:lib/eal/common/eal_options.h), --log-color and --log-timestamp (v24.11.6:lib/eal/common/
#: eal_options.h:36-41); 25.11's argparse option list adds long names for the short options and -R
#: (v25.11.2:lib/eal/common/eal_option_list.h); 26.07 adds --auto-probing, -A and --pagesz-mem
#: (v26.07:lib/eal/common/eal_option_list.h)
_SINCE = {
    "huge-worker-stack": "22.11",
    "log-color": "24.11",
    "log-timestamp": "24.11",
    **dict.fromkeys(
        (
            "coremask",
            "driver-path",
            "memory-channels",
            "memory-ranks",
            "memory-size",
            "numa-mem",
            "numa-limit",
            "remap-lcore-ids",
            "R",
            "service-corelist",
            "service-coremask",
            "version",
        ),
        "25.11",
    ),
    **dict.fromkeys(("auto-probing", "no-auto-probing", "A", "pagesz-mem"), "26.07"),
}
#: 25.11's long names of the older options (v25.11.2:lib/eal/common/eal_option_list.h: STR_ARG and STR_ALIAS)
_ALIASES = {
    "coremask": "c",
    "driver-path": "d",
    "memory-channels": "n",
    "memory-ranks": "r",
    "memory-size": "m",
    "numa-mem": "socket-mem",
    "numa-limit": "socket-limit",
    "service-corelist": "S",
    "service-coremask": "s",
}
#: options whose memory effect the model does not know: refused by name rather than ignored
_NOT_MODELLED = {
    "legacy-mem": "--legacy-mem maps all memory at start-up in one go (the heap layout differs)",
    "huge-worker-stack": "--huge-worker-stack allocates each worker's stack from the heap",
    "d": "-d loads a driver library whose probe the model does not know",
    "mbuf-pool-ops-name": "--mbuf-pool-ops-name changes every mbuf pool's mempool driver",
    "proc-type": "a secondary process reserves nothing of its own (size the primary)",
    "s": "-s makes service cores, whose service memory the model does not count",
    "S": "-S makes service cores, whose service memory the model does not count",
    "no-auto-probing": "--no-auto-probing changes which devices are probed",
    "A": "-A (--no-auto-probing) changes which devices are probed",
}

#: values of the options above that are EAL's own default: the run is the one without the option, so they are
#: accepted.  --proc-type: eal_parse_proc_type compares with strncasecmp (v22.11.11:lib/eal/common/
#: eal_common_options.c:1463-1472), primary is the default (RTE_PROC_PRIMARY) and auto is eal_proc_type_detect,
#: primary when no primary of the --file-prefix runs (v22.11.11:lib/eal/linux/eal.c:348-370); a name that is
#: none of them is RTE_PROC_INVALID, refused (eal_common_options.c:2072-2075).  --mbuf-pool-ops-name: only
#: stored (v22.11.11:lib/eal/linux/eal.c:743-755), and rte_mbuf_best_mempool_ops gives
#: RTE_MBUF_DEFAULT_MEMPOOL_OPS "ring_mp_mc" without it (v22.11.11:lib/mbuf/rte_mbuf_pool_ops.c:88-102,
#: config/rte_config.h:53)
_DEFAULTS: dict[str, frozenset[str]] = {
    "proc-type": frozenset({"primary", "auto"}),
    "mbuf-pool-ops-name": frozenset({"ring_mp_mc"}),
}
#: options whose value EAL compares without case (strncasecmp)
_NOCASE = frozenset({"proc-type"})
#: the values EAL knows of an option whose other values are refused
_CHOICES: dict[str, tuple[frozenset[str], str]] = {
    "proc-type": (
        frozenset({"primary", "secondary", "auto"}),
        "EAL refuses it: 'Invalid process type specified' (v22.11.11:lib/eal/common/eal_common_options.c:2072-2075)",
    ),
}
