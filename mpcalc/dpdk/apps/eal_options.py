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
