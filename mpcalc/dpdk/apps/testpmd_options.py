"""The options of dpdk-testpmd (app/test-pmd/parameters.c at each release): which take a value, which are flags,
since and until which release each exists, and those whose memory effect the model does not know (refused by
name).  A table: data only, read by :mod:`.testpmd`.
"""

from __future__ import annotations


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


#: options that take a value (parameters.c lgopts, v22.11:app/test-pmd/parameters.c:585-707), and flags
_WITH_VALUE = _words("""cmdline-file eth-peers-configfile eth-peer stats-period display-xstats nb-cores nb-ports
coremask portmask portlist port-numa-config ring-numa-config socket-num mbuf-size total-num-mbufs max-pkt-len
max-lro-pkt-size latencystats bitrate-stats port-topology forward-mode rxq txq rxd txd hairpinq hairpin-mode burst
flowgen-clones flowgen-flows mbcache txpt txht txwt txfreet txrst rxpt rxht rxwt rxfreet rxoffs rxpkts rxhdrs
txpkts eth-link-speed print-event mask-event tx-offloads rx-offloads vxlan-gpe-port geneve-parsed-port mp-alloc
tx-ip tx-udp noisy-tx-sw-buffer-size noisy-tx-sw-buffer-flushtime noisy-lkup-memory noisy-lkup-num-writes
noisy-lkup-num-reads noisy-lkup-num-reads-writes rx-mq-mode noisy-forward-mode hairpin-map num-procs proc-id
pkt-filter-mode pkt-filter-report-hash pkt-filter-size pkt-filter-drop-queue cmdline-file-noecho txonly-flows""")
_FLAGS = _words("""help interactive auto-start tx-first numa no-numa mp-anon disable-crc-strip enable-lro
enable-rx-cksum enable-rx-timestamp enable-scatter enable-hw-vlan enable-hw-vlan-filter enable-hw-vlan-strip
enable-hw-vlan-extend enable-hw-qinq-strip enable-drop-en disable-rss rss-ip rss-udp rss-level-outer
rss-level-inner no-flush-rx flow-isolate-all multi-rx-mempool txonly-multi-flow disable-link-check
disable-device-start no-lsc-interrupt no-rmv-interrupt hot-plug mlockall no-mlockall no-iova-contig
record-core-cycles record-burst-stats disable-flow-flush enable-rss""")
#: options testpmd gained after 21.11 and the release that has them (diff of the lgopts of
#: app/test-pmd/parameters.c at each stable tag): rxhdrs, multi-rx-mempool (v22.11.11:...:674-676);
#: enable-rss, cmdline-file-noecho (v25.11.2:...:54, 124, 276, 315); txonly-flows (v26.07:...:196, 353)
_SINCE = {
    "multi-rx-mempool": "22.11",
    "rxhdrs": "22.11",
    "disable-flow-flush": "23.11",
    "noisy-forward-mode": "23.11",
    "hairpin-map": "24.11",
    "num-procs": "24.11",
    "proc-id": "24.11",
    "enable-rss": "25.11",
    "cmdline-file-noecho": "25.11",
    "txonly-flows": "26.07",
}
#: the Flow Director options, up to 21.11 (v21.11.9:app/test-pmd/parameters.c:630-633, 968-1030; removed with
#: the deprecated fdir_conf by 5007ac1318): a NIC's configuration, no memory on the vdev ports
_UNTIL = {f"pkt-filter-{k}": "21.11" for k in ("mode", "report-hash", "size", "drop-queue")}
_OPTIONAL = frozenset({"rxq-share"})
#: options that change memory in ways the model does not count: refused by name
_NOT_MODELLED = {
    "latencystats": "rte_latencystats_init's memzone",
    "bitrate-stats": "rte_stats_bitrate_create's allocations",
    "hairpinq": "hairpin queues",
    "port-numa-config": "per-port NUMA placement",
    "ring-numa-config": "per-ring NUMA placement",
    "multi-rx-mempool": "per-queue mempools",
    "rxpkts": "buffer split segments",
    "rxhdrs": "buffer split headers",
    "noisy-tx-sw-buffer-size": "the noisy forwarding engine's FIFOs",
    "noisy-lkup-memory": "the noisy forwarding engine's memory",
    "hot-plug": "hot-plug monitoring",
    "cmdline-file": "a command file (its commands may create anything)",
    "cmdline-file-noecho": "a command file (its commands may create anything)",
    "noisy-forward-mode": "the noisy forwarding engine's memory",
    "hairpin-map": "hairpin queues",
    "num-procs": "multi-process queue sharing",
    "proc-id": "multi-process queue sharing",
}
#: values of the options above that are testpmd's own default, accepted (the run is the one without the option):
#: nb_hairpinq, noisy_tx_sw_bufsz and noisy_lkup_mem_sz are zero-initialised globals, read with atoi
#: (v22.11.11:app/test-pmd/testpmd.c:288, 337, 348; parameters.c:1063-1087, 1390-1416); noisy_fwd_mode's
#: first value is NOISY_FWD_MODE_IO "io" (v23.11.7:app/test-pmd/testpmd.c:338-347); num_procs is 1 and proc_id
#: 0, atoi too (v24.11.6:app/test-pmd/testpmd.c:549, 555; parameters.c:1721-1726)
_DEFAULTS: dict[str, int | str] = {
    "hairpinq": 0,
    "noisy-tx-sw-buffer-size": 0,
    "noisy-lkup-memory": 0,
    "noisy-forward-mode": "io",
    "num-procs": 1,
    "proc-id": 0,
}
