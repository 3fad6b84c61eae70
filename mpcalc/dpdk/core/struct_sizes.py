"""The struct sizes a whole application's start-up allocates, per DPDK release and architecture, as measured.

``sizeof`` of the structs that EAL, ethdev, the vdev drivers, testpmd and l3fwd allocate (rte_zmalloc or a
memzone of exactly that size).  Each release's figures were read from a build of that release's newest
stable tag (x86_64, ``-Dplatform=generic``): 22.11 from Debian 12's 22.11.11 packages, the others from the
tag's own build (DWARF of the static debug build: gdb ``print sizeof(struct ...)``); each is checked,
allocation by allocation and byte for byte against the heap, by the real programs' runs recorded in
tests/conformance/vectors/apps/ (tests/conformance/test_apps_releases.py).  Each entry cites the struct's
definition at the tag (``tag:file:line``).  What was not measured is refused by :func:`sizes`, with the
reason: the model would otherwise give another architecture's or release's layout as if it were known.

Pure: stdlib only.
"""

from __future__ import annotations

from mpcalc.dpdk.core.errors import InputError
from mpcalc.dpdk.core.platform import Platform

#: release -> name -> (sizeof on x86_64, where it is defined at the release's stable tag)
MEASURED: dict[str, dict[str, tuple[int, str]]] = {
    "21.11": {
        # the anonymous struct behind eth_dev_shared_data: next_owner_id, ownership lock and RTE_MAX_ETHPORTS
        # struct rte_eth_dev_data of 6,976 B (v21.11.9:lib/ethdev/rte_ethdev.c:69-73, 403-420)
        "eth_dev_data_shared": (223_296, "v21.11.9:lib/ethdev/rte_ethdev.c:69-73"),
        "eth_dev_callback": (48, "v21.11.9:lib/ethdev/rte_ethdev.c:184"),
        "intr_handle": (64, "v21.11.9:lib/eal/common/eal_interrupts.h:8"),
        "epoll_event": (48, "v21.11.9:lib/eal/include/rte_epoll.h:41"),
        "null_internals": (82_272, "v21.11.9:drivers/net/null/rte_eth_null.c:48"),
        "ring_internals": (792, "v21.11.9:drivers/net/ring/rte_eth_ring.c:47"),
        "tap_internals": (4_056, "v21.11.9:drivers/net/tap/rte_eth_tap.h:68"),
        "tap_process_private": (128, "v21.11.9:drivers/net/tap/rte_eth_tap.h:97"),
        "iovec": (16, "struct iovec, <sys/uio.h>"),
        "rte_port": (180_568, "v21.11.9:app/test-pmd/testpmd.h:241"),
        "fwd_lcore": (64, "v21.11.9:app/test-pmd/testpmd.h:289"),
        "fwd_stream": (4_208, "v21.11.9:app/test-pmd/testpmd.h:135"),
        "pdump_stats": (4_194_312, "v21.11.9:lib/pdump/rte_pdump.c:74-78"),
        "metrics": (86_032, "v21.11.9:lib/metrics/rte_metrics.c:46"),
        "gro_ctx": (520, "v21.11.9:lib/gro/rte_gro.c:76"),
        "gro_tcp4_tbl": (32, "v21.11.9:lib/gro/gro_tcp4.h:80"),
        "gro_tcp4_item": (40, "v21.11.9:lib/gro/gro_tcp4.h:47"),
        "gro_tcp4_flow": (32, "v21.11.9:lib/gro/gro_tcp4.h:38"),
        "rte_mbuf_ext_shared_info": (24, "v21.11.9:lib/mbuf/rte_mbuf_core.h:772"),
        "service_spec_impl": (128, "v21.11.9:lib/eal/common/rte_service.c:38"),
        # not cache-aligned yet: 640 B a lcore (v21.11.9:lib/eal/common/rte_service.c:64-72)
        "core_state": (640, "v21.11.9:lib/eal/common/rte_service.c:64"),
        "l3fwd_event_resources": (184, "v21.11.9:examples/l3fwd/l3fwd_event.h:61"),
        "eth_rxtx_callback": (24, "v21.11.9:lib/ethdev/ethdev_driver.h:29"),
    },
    "22.11": {
        # struct rte_eth_dev_data_shared: RTE_MAX_ETHPORTS struct rte_eth_dev_data + lock/next_owner_id, the
        # rte_eth_dev_data memzone (eth_dev_shared_data_prepare, v22.11:lib/ethdev/ethdev_private.c:323-336)
        "eth_dev_data_shared": (196_672, "v22.11:lib/ethdev/ethdev_driver.h:117-204"),
        "eth_dev_callback": (48, "v22.11:lib/ethdev/ethdev_private.h:16-24"),
        "intr_handle": (64, "v22.11:lib/eal/common/eal_interrupts.h:9-34"),
        "epoll_event": (48, "v22.11:lib/eal/include/rte_epoll.h:40-46"),
        "null_internals": (82_272, "v22.11:drivers/net/null/rte_eth_null.c:38-54"),
        "ring_internals": (792, "v22.11:drivers/net/ring/rte_eth_ring.c:49-60"),
        "tap_internals": (4_056, "v22.11:drivers/net/tap/rte_eth_tap.h:68-101"),
        "tap_process_private": (128, "v22.11:drivers/net/tap/rte_eth_tap.h:103-107"),
        "iovec": (16, "struct iovec, <sys/uio.h>"),
        "rte_port": (196_224, "v22.11:app/test-pmd/testpmd.h:248-305"),
        "fwd_lcore": (64, "v22.11:app/test-pmd/testpmd.h:365-377"),
        "fwd_stream": (4_208, "v22.11:app/test-pmd/testpmd.h:139-183"),
        "pdump_stats": (4_194_312, "v22.11:lib/pdump/rte_pdump.c:75-79"),
        "metrics": (86_032, "v22.11:lib/metrics/rte_metrics.c:47-60"),
        "gro_ctx": (520, "v22.11:lib/gro/rte_gro.c:66-75"),
        "gro_tcp4_tbl": (32, "v22.11:lib/gro/gro_tcp4.h:78-89"),
        "gro_tcp4_item": (40, "v22.11:lib/gro/gro_tcp4.h:48-74"),
        "gro_tcp4_flow": (32, "v22.11:lib/gro/gro_tcp4.h:41-46"),
        "rte_mbuf_ext_shared_info": (24, "v22.11:lib/mbuf/rte_mbuf_core.h:657-662"),
        "service_spec_impl": (128, "v22.11:lib/eal/common/rte_service.c:33-52"),
        "core_state": (1_152, "v22.11:lib/eal/common/rte_service.c:62-71"),
        "l3fwd_event_resources": (184, "v22.11:examples/l3fwd/l3fwd_event.h:56-86"),
        "eth_rxtx_callback": (24, "v22.11:lib/ethdev/ethdev_driver.h:31"),
    },
    "23.11": {
        "eth_dev_data_shared": (196_672, "v23.11.7:lib/ethdev/ethdev_driver.h (struct rte_eth_dev_shared_data)"),
        "eth_dev_callback": (48, "v23.11.7:lib/ethdev/ethdev_private.h:33"),
        "intr_handle": (64, "v23.11.7:lib/eal/common/eal_interrupts.h:8"),
        "epoll_event": (48, "v23.11.7:lib/eal/include/rte_epoll.h"),
        "null_internals": (82_272, "v23.11.7:drivers/net/null/rte_eth_null.c:50"),
        "ring_internals": (792, "v23.11.7:drivers/net/ring/rte_eth_ring.c:51"),
        "tap_internals": (3_960, "v23.11.7:drivers/net/tap/rte_eth_tap.h:68"),
        "tap_process_private": (128, "v23.11.7:drivers/net/tap/rte_eth_tap.h:98"),
        "iovec": (16, "struct iovec, <sys/uio.h>"),
        "rte_port": (196_240, "v23.11.7:app/test-pmd/testpmd.h:320"),
        "fwd_lcore": (72, "v23.11.7:app/test-pmd/testpmd.h:375"),
        "fwd_stream": (4_288, "v23.11.7:app/test-pmd/testpmd.h:162"),
        "pdump_stats": (4_194_312, "v23.11.7:lib/pdump/rte_pdump.c:75-79"),
        "metrics": (86_032, "v23.11.7:lib/metrics/rte_metrics.c:45"),
        "gro_ctx": (520, "v23.11.7:lib/gro/rte_gro.c:84"),
        "gro_tcp4_tbl": (32, "v23.11.7:lib/gro/gro_tcp4.h:31"),
        # struct gro_tcp4_item became the shared struct gro_tcp_item (v23.11.7:lib/gro/gro_tcp.h:41)
        "gro_tcp4_item": (40, "v23.11.7:lib/gro/gro_tcp.h:41"),
        "gro_tcp4_flow": (32, "v23.11.7:lib/gro/gro_tcp4.h:19"),
        "rte_mbuf_ext_shared_info": (24, "v23.11.7:lib/mbuf/rte_mbuf_core.h"),
        "service_spec_impl": (128, "v23.11.7:lib/eal/common/rte_service.c:35"),
        "core_state": (1_152, "v23.11.7:lib/eal/common/rte_service.c:64"),
        "l3fwd_event_resources": (184, "v23.11.7:examples/l3fwd/l3fwd_event.h:63"),
        "eth_rxtx_callback": (24, "v23.11.7:lib/ethdev/ethdev_driver.h:32"),
        "mbuf_dyn_shm": (136, "v23.11.7:lib/mbuf/rte_mbuf_dyn.c:44"),
        "mbuf_dynflag_elt": (72, "v23.11.7:lib/mbuf/rte_mbuf_dyn.c:33"),
    },
    "24.11": {
        "eth_dev_data_shared": (196_672, "v24.11.6:lib/ethdev/ethdev_driver.h (struct rte_eth_dev_shared_data)"),
        "eth_dev_callback": (48, "v24.11.6:lib/ethdev/ethdev_private.h:33"),
        "intr_handle": (64, "v24.11.6:lib/eal/common/eal_interrupts.h:8"),
        "epoll_event": (48, "v24.11.6:lib/eal/include/rte_epoll.h"),
        "null_internals": (82_272, "v24.11.6:drivers/net/null/rte_eth_null.c:50"),
        "ring_internals": (1_048, "v24.11.6:drivers/net/ring/rte_eth_ring.c:52"),
        "tap_internals": (15_016, "v24.11.6:drivers/net/tap/rte_eth_tap.h:69"),
        "tap_process_private": (256, "v24.11.6:drivers/net/tap/rte_eth_tap.h:99"),
        "iovec": (16, "struct iovec, <sys/uio.h>"),
        "rte_port": (196_240, "v24.11.6:app/test-pmd/testpmd.h:331"),
        "fwd_lcore": (72, "v24.11.6:app/test-pmd/testpmd.h:386"),
        "fwd_stream": (4_288, "v24.11.6:app/test-pmd/testpmd.h:173"),
        "pdump_stats": (4_194_312, "v24.11.6:lib/pdump/rte_pdump.c:74-78"),
        "metrics": (86_032, "v24.11.6:lib/metrics/rte_metrics.c:45"),
        "gro_ctx": (520, "v24.11.6:lib/gro/rte_gro.c:84"),
        "gro_tcp4_tbl": (32, "v24.11.6:lib/gro/gro_tcp4.h:31"),
        "gro_tcp4_item": (40, "v24.11.6:lib/gro/gro_tcp.h:41"),
        "gro_tcp4_flow": (32, "v24.11.6:lib/gro/gro_tcp4.h:19"),
        "rte_mbuf_ext_shared_info": (24, "v24.11.6:lib/mbuf/rte_mbuf_core.h"),
        "service_spec_impl": (128, "v24.11.6:lib/eal/common/rte_service.c:37"),
        "core_state": (2_112, "v24.11.6:lib/eal/common/rte_service.c:68"),
        "l3fwd_event_resources": (184, "v24.11.6:examples/l3fwd/l3fwd_event.h:63"),
        "eth_rxtx_callback": (24, "v24.11.6:lib/ethdev/ethdev_driver.h:32"),
        "mbuf_dyn_shm": (136, "v24.11.6:lib/mbuf/rte_mbuf_dyn.c:47"),
        "mbuf_dynflag_elt": (72, "v24.11.6:lib/mbuf/rte_mbuf_dyn.c:36"),
    },
    "25.11": {
        "eth_dev_data_shared": (196_672, "v25.11.2:lib/ethdev/ethdev_private.h:16 (struct eth_dev_shared)"),
        "eth_dev_callback": (48, "v25.11.2:lib/ethdev/ethdev_private.h:33"),
        "intr_handle": (64, "v25.11.2:lib/eal/common/eal_interrupts.h:8"),
        "epoll_event": (48, "v25.11.2:lib/eal/include/rte_epoll.h:41"),
        # null_queue gained rx_bytes and tx_bytes: 2 x RTE_MAX_QUEUES_PER_PORT x 16 B more
        # (v25.11.2:drivers/net/null/rte_eth_null.c:34-45)
        "null_internals": (115_040, "v25.11.2:drivers/net/null/rte_eth_null.c:53"),
        "ring_internals": (1_048, "v25.11.2:drivers/net/ring/rte_eth_ring.c:53"),
        "tap_internals": (14_976, "v25.11.2:drivers/net/tap/rte_eth_tap.h:69"),
        "tap_process_private": (256, "v25.11.2:drivers/net/tap/rte_eth_tap.h:98"),
        "iovec": (16, "struct iovec, <sys/uio.h>"),
        "rte_port": (195_600, "v25.11.2:app/test-pmd/testpmd.h:340"),
        "fwd_lcore": (72, "v25.11.2:app/test-pmd/testpmd.h:395"),
        "fwd_stream": (4_288, "v25.11.2:app/test-pmd/testpmd.h:182"),
        "pdump_stats": (4_194_312, "v25.11.2:lib/pdump/rte_pdump.c:102-106"),
        "metrics": (86_032, "v25.11.2:lib/metrics/rte_metrics.c:46"),
        "gro_ctx": (520, "v25.11.2:lib/gro/rte_gro.c:85"),
        "gro_tcp4_tbl": (32, "v25.11.2:lib/gro/gro_tcp4.h:31"),
        "gro_tcp4_item": (40, "v25.11.2:lib/gro/gro_tcp.h:41"),
        "gro_tcp4_flow": (32, "v25.11.2:lib/gro/gro_tcp4.h:19"),
        "rte_mbuf_ext_shared_info": (24, "v25.11.2:lib/mbuf/rte_mbuf_core.h:699"),
        "service_spec_impl": (128, "v25.11.2:lib/eal/common/rte_service.c:38"),
        "core_state": (2_112, "v25.11.2:lib/eal/common/rte_service.c:69"),
        "l3fwd_event_resources": (184, "v25.11.2:examples/l3fwd/l3fwd_event.h:63"),
        "eth_rxtx_callback": (24, "v25.11.2:lib/ethdev/ethdev_driver.h:53"),
        "mbuf_dyn_shm": (136, "v25.11.2:lib/mbuf/rte_mbuf_dyn.c:48"),
        "mbuf_dynflag_elt": (72, "v25.11.2:lib/mbuf/rte_mbuf_dyn.c:37"),
    },
    "26.07": {
        "eth_dev_data_shared": (196_672, "v26.07:lib/ethdev/ethdev_private.h:16 (struct eth_dev_shared)"),
        "eth_dev_callback": (48, "v26.07:lib/ethdev/ethdev_private.h:33"),
        "intr_handle": (64, "v26.07:lib/eal/common/eal_interrupts.h:8"),
        "epoll_event": (48, "v26.07:lib/eal/include/rte_epoll.h:41"),
        "null_internals": (115_040, "v26.07:drivers/net/null/rte_eth_null.c:53"),
        "ring_internals": (1_048, "v26.07:drivers/net/ring/rte_eth_ring.c:53"),
        "tap_internals": (144, "v26.07:drivers/net/tap/rte_eth_tap.h:69"),
        "tap_process_private": (256, "v26.07:drivers/net/tap/rte_eth_tap.h:100"),
        # 23e2387b49 moved the queues out of struct pmd_internals (15 KiB -> 144 B) into one allocation each
        "tap_rx_queue": (80, "v26.07:drivers/net/tap/rte_eth_tap.h:45"),
        "tap_tx_queue": (88, "v26.07:drivers/net/tap/rte_eth_tap.h:59"),
        "iovec": (16, "struct iovec, <sys/uio.h>"),
        "rte_port": (195_600, "v26.07:app/test-pmd/testpmd.h:340"),
        "fwd_lcore": (72, "v26.07:app/test-pmd/testpmd.h:395"),
        "fwd_stream": (4_288, "v26.07:app/test-pmd/testpmd.h:182"),
        "pdump_stats": (4_194_312, "v26.07:lib/pdump/rte_pdump.c:102-106"),
        "metrics": (86_032, "v26.07:lib/metrics/rte_metrics.c:46"),
        "gro_ctx": (520, "v26.07:lib/gro/rte_gro.c:85"),
        "gro_tcp4_tbl": (32, "v26.07:lib/gro/gro_tcp4.h:31"),
        "gro_tcp4_item": (40, "v26.07:lib/gro/gro_tcp.h:41"),
        "gro_tcp4_flow": (32, "v26.07:lib/gro/gro_tcp4.h:19"),
        "rte_mbuf_ext_shared_info": (24, "v26.07:lib/mbuf/rte_mbuf_core.h:699"),
        "service_spec_impl": (128, "v26.07:lib/eal/common/rte_service.c:38"),
        "core_state": (2_112, "v26.07:lib/eal/common/rte_service.c:69"),
        "l3fwd_event_resources": (184, "v26.07:examples/l3fwd/l3fwd_event.h:63"),
        "eth_rxtx_callback": (24, "v26.07:lib/ethdev/ethdev_driver.h:53"),
        "mbuf_dyn_shm": (136, "v26.07:lib/mbuf/rte_mbuf_dyn.c:48"),
        "mbuf_dynflag_elt": (72, "v26.07:lib/mbuf/rte_mbuf_dyn.c:37"),
    },
}

#: the architectures measured
ARCHES = ("x86_64",)


def sizes(p: Platform) -> dict[str, int]:
    """The measured struct sizes for ``p``'s release and architecture; refuses what was not measured."""
    rel = p.release.version
    if rel not in MEASURED or p.arch not in ARCHES:
        known = ", ".join(MEASURED)
        why = (
            f"DPDK {rel} was not built and run"
            if rel not in MEASURED
            else f"no {p.arch} build of the applications was run (their struct sizes and the drivers' differ by "
            "architecture)"
        )
        raise InputError(
            f"application sizing knows the struct sizes measured on real runs: DPDK {known} on "
            f"{', '.join(ARCHES)} (asked: {rel} on {p.arch}: {why})",
            param="--dpdk",
        )
    return {k: v for k, (v, _) in MEASURED[rel].items()}


#: RTE_ETH_EVENT_MAX at the release (enum rte_eth_event_type): the callbacks an application registers for
#: every event; 11 at 21.11 (v21.11.9:lib/ethdev/rte_ethdev.h:3793-3807), 15 from 22.11 (ERR_RECOVERING,
#: RECOVERY_SUCCESS, RECOVERY_FAILED and RX_AVAIL_THRESH added; v22.11.11:lib/ethdev/rte_ethdev.h:3956); read
#: from each build's DWARF (gdb ``print (int)RTE_ETH_EVENT_MAX``)
ETH_EVENT_MAX = {"21.11": 11}


def eth_event_max(p: Platform) -> int:
    """RTE_ETH_EVENT_MAX at ``p``'s release."""
    return ETH_EVENT_MAX.get(p.release.version, 15)


def citation(p: Platform, name: str) -> str:
    """Where struct ``name`` is defined at ``p``'s release."""
    return MEASURED[p.release.version][name][1]


def check_option(
    program: str, name: str, p: Platform | None, added: dict[str, str], removed: dict[str, str], exits: str
) -> None:
    """Refuse ``--name`` at a release whose ``program`` does not have it: ``added`` maps an option to the first
    release with it, ``removed`` to the last; ``exits`` is what the program says.  Without a platform, none."""
    if p is None:
        return
    rel = p.release.version
    if name in added and not since(p, added[name]):
        raise InputError(
            f"{program} --{name}: {program} has it from DPDK {added[name]} (asked: {rel}; it exits: {exits!r})",
            param="command",
        )
    if name in removed and since(p, _next(removed[name])):
        raise InputError(
            f"{program} --{name}: {program} had it up to DPDK {removed[name]} (asked: {rel}; it exits: {exits!r})",
            param="command",
        )


def _next(version: str) -> str:
    """The release after ``version`` among the modelled ones."""
    from mpcalc.dpdk.core.facts import RELEASES, version_key

    later = sorted((v for v in RELEASES if version_key(v) > version_key(version)), key=version_key)
    return later[0] if later else "99.99"


def since(p: Platform, version: str) -> bool:
    """Whether ``p``'s release is ``version`` or later (a behaviour that changed at that release)."""
    from mpcalc.dpdk.core.facts import version_key

    return version_key(p.release.version) >= version_key(version)
