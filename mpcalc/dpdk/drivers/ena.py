"""net_ena: the Amazon Elastic Network Adapter (AWS EC2's ENA, 1d0f:ec20 and 1d0f:ec21).

What queue set-up allocates: per Rx queue the buffer info (struct ena_rx_buffer per entry), the refill buffer
(an mbuf pointer per entry) and the free-request ids (uint16_t per entry); per Tx queue the buffer info, the
free-request ids and, in LLQ mode, the push buffer of the device's tx_max_header_size (``dev``, default 96).
nb_desc must be a power of two no larger than the device's maximum (``dev["max_rx_ring_size"]``,
``dev["max_tx_ring_size"]``: 8192 and 1024 are common), default ring 1024.

The ena_com layer's DMA memory (ENA_MEM_ALLOC_COHERENT) is a memzone each: at probe the customer metrics buffer
(23.11+), the MMIO read response, the admin SQ and CQ, the AENQ, the host info and debug area, the RSS indirection
table, hash key and hash control; at dev start each Rx queue's submission and completion rings, then each Tx
queue's (in LLQ mode, the default, a Tx SQ is the device's memory: only its completion ring and a bounce buffer
are the host's). Up to 21.11 a zone is ``ena_alloc_<n>``, n from the process-wide ``ena_alloc_cnt`` (from 1: every ENA
port's probe in EAL's probe order, then every port's dev start in the application's order);
from 22.11 ``ena_p<port>_mz<n>``, n the port's own ``memzone_cnt`` (from 0), a number taken even when the zone is
freed again (the host info and debug area of a device without host attributes). The device's answers that decide
them are given on ``-a`` (:data:`PROPS`): AWS's current devices are the defaults.

At 21.11 a port's numbers follow those of the ENA ports probed, and started, before it (``probed_before``,
``probed``, ``started_before``: the process's other ENA ports, :class:`~.pmd.Process`); a port alone numbers from 1.
From the driver's source, not run. Pure: stdlib only.
"""

from __future__ import annotations

import sys

from mpcalc.dpdk.core.errors import Rejection
from mpcalc.dpdk.drivers.pcibase import (
    RTE_CACHE_LINE_SIZE,
    Alloc,
    DescLim,
    QueueParts,
    Source,
    Zone,
    dev_int,
    load_lines,
    load_sizes,
    refuse,
    same_dir,
    since,
)
from mpcalc.dpdk.drivers.pcipmd import declare
from mpcalc.dpdk.drivers.pmd import RX_OFFLOAD_TIMESTAMP, QueueConf

NAME = "net_ena"
PROVENANCE = "source"
DIRS = same_dir("drivers/net/ena")
ENA_DEFAULT_RING_SIZE = 1024
ENA_MIN_RING_DESC = 128
ENA_ADMIN_QUEUE_DEPTH = 32  # base/ena_com.c, "aq_depth"
ENA_ASYNC_QUEUE_DEPTH = 16  # base/ena_com.c, "aenq_depth"
ENA_CDESC_RING_SIZE_ALIGNMENT = 4096  # (1 << 12), "cdesc_align"
ENA_COM_BOUNCE_BUFFER_CNTRL_CNT = 4  # "bounce_cnt"
ENA_CUSTOMER_METRICS_BUFFER_SIZE = 512  # 23.11+, "metrics_size"
ENA_RX_RSS_TABLE_LOG_SIZE = 7  # up to 24.11 the table asked for; from 25.11 the device's max_size, "rss_log"
SZ_4K = 4096  # the host info, "host_info_size"
#: the debug area: 32 bytes of name (ETH_GSTRING_LEN) and a u64 value per statistic, "debug_area"
ETH_GSTRING_LEN = 32
LLQ_ENTRY_SIZE = 128  # llq_ring_entry_size_value, 256 with the large LLQ header, "llq_entry"

KEYS = {
    "dev_private": ("ena_ethdev.c", r"sizeof\(struct ena_adapter\), eth_ena_dev_init"),
    "default_ring": ("ena_ethdev.h", r"define ENA_DEFAULT_RING_SIZE\s+1024"),
    "rx_pow2": ("ena_ethdev.c", r"\"Unsupported size of Rx queue: %d is not a power of 2."),
    "rx_max": ("ena_ethdev.c", r"\"Unsupported size of Rx queue \(max size: %d\)"),
    "rx_buffer_info": ("ena_ethdev.c", r"rte_zmalloc_socket\(\"rxq->buffer_info\","),
    "rx_refill": ("ena_ethdev.c", r"rte_zmalloc_socket\(\"rxq->rx_refill_buffer\","),
    "rx_empty": ("ena_ethdev.c", r"rte_zmalloc_socket\(\"rxq->empty_rx_reqs\","),
    "tx_pow2": ("ena_ethdev.c", r"\"Unsupported size of Tx queue: %d is not a power of 2."),
    "tx_max": ("ena_ethdev.c", r"\"Unsupported size of Tx queue \(max size: %d\)"),
    "tx_buffer_info": ("ena_ethdev.c", r"rte_zmalloc_socket\(\"txq->tx_buffer_info\","),
    "tx_empty": ("ena_ethdev.c", r"rte_zmalloc_socket\(\"txq->empty_tx_reqs\","),
    "tx_push": ("ena_ethdev.c", r"rte_zmalloc_socket\(\"txq->push_buf_intermediate_buf\","),
    "lim": ("ena_ethdev.c", r"dev_info->rx_desc_lim.nb_max = adapter->max_rx_ring_size;"),
    # ENA_MEM_ALLOC_COHERENT: a memzone named by a counter (21.11: the global ena_alloc_cnt, in the platform
    # header's macro; 22.11+: ena_mem_alloc_coherent and the adapter's memzone_cnt), cache-line aligned
    "alloc_cnt": ("base/ena_plat_dpdk.h", r"\"ena_alloc_%\" PRIi64 \"\","),
    "alloc_cnt_add": ("base/ena_plat_dpdk.h", r"rte_atomic64_add_return\(&ena_alloc_cnt,\s*1\)\);"),
    "alloc_cnt_global": ("ena_ethdev.c", r"^rte_atomic64_t ena_alloc_cnt;"),
    "plat_reserve": ("base/ena_plat_dpdk.h", r"mz = rte_memzone_reserve_aligned\(z_name, \(size\),"),
    "mz_name": ("ena_ethdev.c", r"rc = snprintf\(z_name, RTE_MEMZONE_NAMESIZE, \"ena_p%d_mz%\" PRIu64"),
    "mz_cnt": ("ena_ethdev.c", r"adapter->memzone_cnt\+\+;"),
    "mz_reserve": ("ena_ethdev.c", r"memzone = rte_memzone_reserve_aligned\(z_name, size, socket_id,"),
    "coherent_align": ("base/ena_plat_dpdk.h", r"mem_handle, RTE_CACHE_LINE_SIZE\)"),
    "mem_alloc": ("base/ena_plat_dpdk.h", r"define ENA_MEM_ALLOC\(dmadev, size\) rte_zmalloc\(NULL, size, 1\)"),
    "mem_alloc_node": ("base/ena_plat_dpdk.h", r"virt = rte_zmalloc_socket\(NULL, size, 0, node\);"),
    # probe (eth_ena_dev_init, ena_device_init), in its order
    "adapter_zero": ("ena_ethdev.c", r"memset\(adapter, 0, sizeof\(struct ena_adapter\)\);"),
    "metrics_alloc": ("ena_ethdev.c", r"rc = ena_com_allocate_customer_metrics_buffer\(ena_dev\);"),
    "metrics_size": ("base/ena_com.h", r"define ENA_CUSTOMER_METRICS_BUFFER_SIZE 512"),
    "mmio_init": ("ena_ethdev.c", r"rc = ena_com_mmio_reg_read_request_init\(ena_dev\);"),
    "mmio_size": ("base/ena_com.c", r"sizeof\(\*mmio_read->read_resp\),"),
    "admin_init": ("ena_ethdev.c", r"rc = ena_com_admin_init\(ena_dev, &aenq_handlers\);"),
    "aq_depth": ("base/ena_com.c", r"define ENA_ADMIN_QUEUE_DEPTH 32"),
    "aenq_depth": ("base/ena_com.c", r"define ENA_ASYNC_QUEUE_DEPTH 16"),
    "comp_ctx_size": ("base/ena_com.c", r"size_t size = admin_queue->q_depth \* sizeof\(struct ena_comp_ctx\);"),
    "comp_ctx": ("base/ena_com.c", r"admin_queue->comp_ctx = ENA_MEM_ALLOC\(admin_queue->q_dmadev, size\);"),
    "init_sq": ("base/ena_com.c", r"ret = ena_com_admin_init_sq\(admin_queue\);"),
    "init_cq": ("base/ena_com.c", r"ret = ena_com_admin_init_cq\(admin_queue\);"),
    "init_aenq": ("base/ena_com.c", r"ret = ena_com_admin_init_aenq\(ena_dev, aenq_handlers\);"),
    "sq_size": (
        "base/ena_com.h",
        r"define ADMIN_SQ_SIZE\(depth\)\s+\(\(depth\) \* sizeof\(struct ena_admin_aq_entry\)\)",
    ),
    "cq_size": (
        "base/ena_com.h",
        r"define ADMIN_CQ_SIZE\(depth\)\s+\(\(depth\) \* sizeof\(struct ena_admin_acq_entry\)\)",
    ),
    "aenq_size": (
        "base/ena_com.h",
        r"define ADMIN_AENQ_SIZE\(depth\)\s+\(\(depth\) \* sizeof\(struct ena_admin_aenq_entry\)\)",
    ),
    "host_info": ("ena_ethdev.c", r"rc = ena_com_allocate_host_info\(ena_dev\);"),
    "host_info_size": ("base/ena_com.c", r"^\s+SZ_4K,$"),
    "host_attr_fail": ("ena_ethdev.c", r"ena_com_delete_host_info\(ena_dev\);"),
    "config_debug": ("ena_ethdev.c", r"^\s+ena_config_debug_area\(adapter\);"),
    "debug_area": ("ena_ethdev.c", r"debug_area_size = ss_count \* ETH_GSTRING_LEN \+ sizeof\(u64\) \* ss_count;"),
    "gstring": ("ena_ethdev.c", r"define ETH_GSTRING_LEN\s+32"),
    "debug_fail": ("ena_ethdev.c", r"ena_com_delete_debug_area\(&adapter->ena_dev\);"),
    "xstats_num": ("ena_ethdev.c", r"return ENA_STATS_ARRAY_GLOBAL \+"),
    "stats_global": ("ena_ethdev.c", r"ena_stats_global_strings\[\] = \{"),
    "stats_eni": ("ena_ethdev.c", r"ena_stats_eni_strings\[\] = \{"),
    "stats_metrics": ("ena_ethdev.c", r"ena_stats_metrics_strings\[\] = \{"),
    "stats_srd": ("ena_ethdev.c", r"ena_stats_srd_strings\[\] = \{"),
    "metrics_num": ("ena_ethdev.c", r"metrics_num = ENA_STATS_ARRAY_METRICS;"),
    "metrics_legacy": ("ena_ethdev.c", r"metrics_num = ENA_STATS_ARRAY_METRICS_LEGACY;"),
    "rss_init": ("ena_ethdev.c", r"rc = ena_com_rss_init\(ena_dev"),
    "rss_log": ("ena_ethdev.h", r"define ENA_RX_RSS_TABLE_LOG_SIZE\s+7"),
    "ind_max": ("base/ena_com.c", r"requested_log_tbl_size = get_resp.u.ind_table.max_size;"),
    "ind_tbl": ("base/ena_com.c", r"^\s+sizeof\(struct ena_admin_rss_ind_table_entry\);"),
    "host_ind_tbl": ("base/ena_com.c", r"rss->host_rss_ind_tbl =$"),
    "hash_key_cap": (
        "base/ena_com.c",
        r"if \(!ena_com_check_supported_feature_id\(ena_dev, ENA_ADMIN_RSS_HASH_FUNCTION\)\)",
    ),
    "hash_key": ("base/ena_com.c", r"^\s+sizeof\(\*rss->hash_key\),$"),
    "hash_ctrl": ("base/ena_com.c", r"^\s+sizeof\(\*rss->hash_ctrl\),$"),
    "indirect_table": ("ena_ethdev.c", r"adapter->indirect_table = rte_zmalloc\(\"adapter RSS indirection table\","),
    "drv_stats": ("ena_ethdev.c", r"adapter->drv_stats = rte_zmalloc\(\"adapter stats\","),
    # dev start: every Rx queue, then every Tx queue (ena_create_io_queue -> ena_com_create_io_queue: SQ, then CQ)
    "start_rx": ("ena_ethdev.c", r"rc = ena_queue_start_all\(dev, ENA_RING_TYPE_RX\);"),
    "start_tx": ("ena_ethdev.c", r"rc = ena_queue_start_all\(dev, ENA_RING_TYPE_TX\);"),
    "queue_size": ("ena_ethdev.c", r"ctx.queue_size = ring->ring_size;"),
    "create_io": ("ena_ethdev.c", r"rc = ena_com_create_io_queue\(ena_dev, &ctx\);"),
    "sq_desc": ("base/ena_com.c", r"sizeof\(struct ena_eth_io_tx_desc\) :"),
    "sq_host": ("base/ena_com.c", r"if \(io_sq->mem_queue_type == ENA_ADMIN_PLACEMENT_POLICY_HOST\) \{"),
    "bounce_size": ("base/ena_com.c", r"size = (\(size_t\))?io_sq->bounce_buf_ctrl.buffer_size \*"),
    "bounce_cnt": ("base/ena_com.c", r"define ENA_COM_BOUNCE_BUFFER_CNTRL_CNT\s+4"),
    "llq_entry": ("ena_ethdev.c", r"llq_config->llq_ring_entry_size_value = 128;"),
    "cq_desc": ("base/ena_com.c", r"sizeof\(struct ena_eth_io_rx_cdesc_base\);"),
    "cq_desc_ext": ("base/ena_com.c", r"sizeof\(struct ena_eth_io_rx_cdesc_ext\);"),
    "rx_ts": ("ena_ethdev.c", r"adapter->ena_dev.use_extended_rx_cdesc = hw_rx_requested;"),
    "cq_align": ("base/ena_com.c", r"ENA_CDESC_RING_SIZE_ALIGNMENT\);", 1),
    "cdesc_align": (
        {"21.11": "base/ena_com.h", "22.11": "base/ena_com.h", "*": "base/ena_plat_dpdk.h"},
        r"define ENA_CDESC_RING_SIZE_ALIGNMENT\s+\(1 << 12\)",
    ),
}

#: each key's line at each release: mpcalc/dpdk/drivers/lines/ena.json, read from the DPDK mirror
#: (tests/conformance/test_pci_sources.py holds them to it)
LINES = load_lines("ena")

#: the entries of the statistics tables the debug area is sized by (ena_xstats_calc_num), counted in each table
#: opening at its cited line (tests/conformance/test_pci_counts.py holds them to the mirror)
# --- COUNTS: generated from the DPDK mirror
COUNTS: dict[str, dict[str, int]] = {
    "21.11": {"stats_global": 4, "stats_eni": 5},
    "22.11": {"stats_global": 4, "stats_eni": 5},
    "23.11": {"stats_global": 5, "stats_metrics": 6, "stats_srd": 5},
    "24.11": {"stats_global": 4, "stats_metrics": 6, "stats_srd": 5},
    "25.11": {"stats_global": 4, "stats_metrics": 6, "stats_srd": 5},
    "26.07": {"stats_global": 4, "stats_metrics": 6, "stats_srd": 5},
}
# --- end COUNTS

#: the device properties given on -a (see mpcalc.dpdk.drivers.pcipmd): its ring limits and queues, its LLQ (the
#: push buffer's tx_max_header_size; llq_entry_size 256 with the large LLQ header), and what ena_com asks of it at
#: probe: host_attr (ENA_ADMIN_HOST_ATTR_CONFIG: without it the host info and debug area zones are freed),
#: rss_hash_function (ENA_ADMIN_RSS_HASH_FUNCTION: the hash key zone), customer_metrics / eni_stats (the metrics
#: the debug area holds, 23.11+), rss_table_log_size (25.11+: the device's indirection table, log2). Every flag
#: defaults to on, the table to 7 (128 entries, what the driver asked for up to 24.11).
PROPS = (
    "max_rx_ring_size",
    "max_tx_ring_size",
    "max_queues",
    "tx_max_header_size",
    "llq",
    "llq_entry_size",
    "host_attr",
    "rss_hash_function",
    "customer_metrics",
    "eni_stats",
    "rss_table_log_size",
)
BOOL_PROPS = ("llq", "host_attr", "rss_hash_function", "customer_metrics", "eni_stats")

SOURCE = Source(DIRS, KEYS, LINES)

STRUCTS = (
    ("net_ena",),
    (
        "ena_rx_buffer",
        "ena_tx_buffer",
        "ena_adapter",
        "ena_ring",
        "ena_admin_ena_mmio_req_read_less_resp",
        "ena_admin_aq_entry",
        "ena_admin_acq_entry",
        "ena_admin_aenq_entry",
        "ena_admin_rss_ind_table_entry",
        "ena_admin_feature_rss_flow_hash_control",
        "ena_admin_feature_rss_hash_control",
        "ena_eth_io_tx_desc",
        "ena_eth_io_rx_desc",
        "ena_eth_io_tx_cdesc",
        "ena_eth_io_rx_cdesc_base",
        "ena_eth_io_rx_cdesc_ext",
        "ena_comp_ctx",
        "ena_driver_stats",
    ),
)
SIZES = load_sizes("ena")  # mpcalc/dpdk/drivers/sizes/ena.json


def desc_lim(rel: str, dev: dict[str, object] | None = None) -> tuple[DescLim, DescLim]:
    c = SOURCE.cite(rel, "lim")
    return (
        DescLim(dev_int(dev, "max_rx_ring_size", 8192), ENA_MIN_RING_DESC, 1, c),
        DescLim(dev_int(dev, "max_tx_ring_size", 1024), ENA_MIN_RING_DESC, 1, c),
    )


def max_queues(rel: str, dev: dict[str, object] | None = None) -> tuple[int, int]:
    n = dev_int(dev, "max_queues", 8)
    return n, n


def default_ring(rel: str) -> tuple[int, int]:
    return ENA_DEFAULT_RING_SIZE, ENA_DEFAULT_RING_SIZE


def _check(rel: str, side: str, nb_desc: int, mx: int) -> Rejection | None:
    name = "Rx" if side == "rx" else "Tx"
    if nb_desc <= 0 or nb_desc & (nb_desc - 1):
        return refuse(
            f"Unsupported size of {name} queue: {nb_desc} is not a power of 2.",
            f"ena_{side}_queue_setup",
            SOURCE.cite(rel, f"{side}_pow2"),
        )
    if nb_desc > mx:
        return refuse(
            f"Unsupported size of {name} queue (max size: {mx})",
            f"ena_{side}_queue_setup",
            SOURCE.cite(rel, f"{side}_max"),
        )
    return None


def _on(dev: dict[str, object] | None, key: str) -> bool:
    """A device flag of :data:`PROPS`, on unless given as off."""
    return bool((dev or {}).get(key, True))


def llq(dev: dict[str, object] | None) -> bool:
    """The Tx queues' placement: LLQ (the device's memory) unless the device lacks it (``llq=0``)."""
    return _on(dev, "llq")


def rx_queue_setup(
    rel: str, port: int, queue: int, nb_desc: int, dev: dict[str, object] | None = None
) -> QueueParts | Rejection:
    """ena_rx_queue_setup."""
    bad = _check(rel, "rx", nb_desc, dev_int(dev, "max_rx_ring_size", 8192))
    if bad:
        return bad
    s = SIZES[rel]
    c = SOURCE.cite
    return QueueParts(
        nb_desc,
        allocs=(
            Alloc(
                "rxq->buffer_info",
                s["ena_rx_buffer"] * nb_desc,
                RTE_CACHE_LINE_SIZE,
                c(rel, "rx_buffer_info"),
                "rx buffer info",
            ),
            Alloc("rxq->rx_refill_buffer", 8 * nb_desc, RTE_CACHE_LINE_SIZE, c(rel, "rx_refill"), "rx refill buffer"),
            Alloc("rxq->empty_rx_reqs", 2 * nb_desc, RTE_CACHE_LINE_SIZE, c(rel, "rx_empty"), "rx free request ids"),
        ),
    )


def tx_queue_setup(
    rel: str, port: int, queue: int, nb_desc: int, dev: dict[str, object] | None = None
) -> QueueParts | Rejection:
    """ena_tx_queue_setup (the push buffer in LLQ mode, ``dev["llq"]``, default on)."""
    bad = _check(rel, "tx", nb_desc, dev_int(dev, "max_tx_ring_size", 1024))
    if bad:
        return bad
    s = SIZES[rel]
    c = SOURCE.cite
    allocs = [
        Alloc(
            "txq->tx_buffer_info",
            s["ena_tx_buffer"] * nb_desc,
            RTE_CACHE_LINE_SIZE,
            c(rel, "tx_buffer_info"),
            "tx buffer info",
        ),
        Alloc("txq->empty_tx_reqs", 2 * nb_desc, RTE_CACHE_LINE_SIZE, c(rel, "tx_empty"), "tx free request ids"),
    ]
    if llq(dev):
        allocs.append(
            Alloc(
                "txq->push_buf_intermediate_buf",
                dev_int(dev, "tx_max_header_size", 96),
                RTE_CACHE_LINE_SIZE,
                c(rel, "tx_push"),
                "LLQ push buffer",
            )
        )
    return QueueParts(
        nb_desc,
        allocs=tuple(allocs),
        outside=("LLQ Tx descriptors in the device's memory (BAR)",) if llq(dev) else (),
    )


def zone_name(rel: str, port: int, n: int) -> str:
    """The name of an ENA_MEM_ALLOC_COHERENT memzone, n from 0: up to 21.11 ``ena_alloc_<n + 1>``, n the
    process's (snprintf of rte_atomic64_add_return(&ena_alloc_cnt, 1): the numbers every ENA port took before,
    :func:`first_number`), from 22.11 ``ena_p<port>_mz<n>``, n the port's (ena_mem_alloc_coherent: the
    adapter's memzone_cnt, zeroed with the adapter at probe and taken before the reservation).

    >>> zone_name("21.11", 0, 0), zone_name("22.11", 1, 9)
    ('ena_alloc_1', 'ena_p1_mz9')
    """
    return f"ena_alloc_{n + 1}" if not since(rel, "22.11") else f"ena_p{port}_mz{n}"


def _counter(rel: str) -> str:
    """The lines that name a zone and take its number."""
    if not since(rel, "22.11"):
        return "; ".join(
            (
                SOURCE.cite(rel, "alloc_cnt", "alloc_cnt_add", "plat_reserve", "coherent_align"),
                SOURCE.cite(rel, "alloc_cnt_global"),
            )
        )
    return (
        f"{SOURCE.cite(rel, 'mz_name', 'mz_cnt', 'mz_reserve', 'adapter_zero')}; {SOURCE.cite(rel, 'coherent_align')}"
    )


def rss_table_log(rel: str, dev: dict[str, object] | None) -> int:
    """log2 of the RSS indirection table: ENA_RX_RSS_TABLE_LOG_SIZE (7) up to 24.11, the device's
    ind_table.max_size from 25.11 (``dev["rss_table_log_size"]``, default 7)."""
    if since(rel, "25.11"):
        return dev_int(dev, "rss_table_log_size", ENA_RX_RSS_TABLE_LOG_SIZE)
    return ENA_RX_RSS_TABLE_LOG_SIZE


def debug_entries(rel: str, dev: dict[str, object] | None) -> int:
    """ena_xstats_calc_num at probe (no queue configured yet): ENA_STATS_ARRAY_GLOBAL + ENA_STATS_ARRAY_ENI up
    to 22.11; from 23.11 ENA_STATS_ARRAY_GLOBAL + metrics_num + ENA_STATS_ARRAY_ENA_SRD, metrics_num the
    customer metrics (ENA_STATS_ARRAY_METRICS) with ENA_ADMIN_CUSTOMER_METRICS, else the legacy ones
    (ENA_STATS_ARRAY_METRICS - 1) with ENA_ADMIN_ENI_STATS, else 0 (ena_get_metrics_entries)."""
    n = COUNTS[rel]
    if not since(rel, "23.11"):
        return n["stats_global"] + n["stats_eni"]
    if _on(dev, "customer_metrics"):
        metrics = n["stats_metrics"]
    else:
        metrics = n["stats_metrics"] - 1 if _on(dev, "eni_stats") else 0
    return n["stats_global"] + metrics + n["stats_srd"]


def _probe_coherent(rel: str, dev: dict[str, object] | None) -> list[tuple[int, str, str, bool]]:
    """What probe asks ENA_MEM_ALLOC_COHERENT for, in its order: (bytes, role, citation, kept: False for a zone
    freed again at probe, whose number is taken all the same)."""
    s = SIZES[rel]
    c = SOURCE.cite
    host = _on(dev, "host_attr")
    out: list[tuple[int, str, str, bool]] = []
    if since(rel, "23.11"):
        out.append(
            (ENA_CUSTOMER_METRICS_BUFFER_SIZE, "customer metrics buffer", c(rel, "metrics_alloc", "metrics_size"), True)
        )
    out += [
        (s["ena_admin_ena_mmio_req_read_less_resp"], "MMIO read response", c(rel, "mmio_init", "mmio_size"), True),
        (ENA_ADMIN_QUEUE_DEPTH * s["ena_admin_aq_entry"], "admin SQ", c(rel, "aq_depth", "init_sq", "sq_size"), True),
        (ENA_ADMIN_QUEUE_DEPTH * s["ena_admin_acq_entry"], "admin CQ", c(rel, "aq_depth", "init_cq", "cq_size"), True),
        (
            ENA_ASYNC_QUEUE_DEPTH * s["ena_admin_aenq_entry"],
            "AENQ",
            c(rel, "aenq_depth", "init_aenq", "aenq_size"),
            True,
        ),
        (SZ_4K, "host info", "; ".join((c(rel, "host_info", "host_attr_fail"), c(rel, "host_info_size"))), host),
        (
            debug_entries(rel, dev) * (ETH_GSTRING_LEN + 8),
            "debug area (xstats names and values)",
            c(
                rel,
                *[
                    k
                    for k in (
                        "config_debug",
                        "debug_area",
                        "gstring",
                        "debug_fail",
                        "xstats_num",
                        "metrics_num",
                        "metrics_legacy",
                        "stats_global",
                        "stats_eni",
                        "stats_metrics",
                        "stats_srd",
                    )
                    if SOURCE.has(rel, k)
                ],
            ),
            host,
        ),
    ]
    log = rss_table_log(rel, dev)
    ind = "; ".join((c(rel, "rss_init"), c(rel, "ind_max" if since(rel, "25.11") else "ind_tbl")))
    out.append(((1 << log) * s["ena_admin_rss_ind_table_entry"], "RSS indirection table", ind, True))
    if _on(dev, "rss_hash_function"):
        out.append(
            (s["ena_admin_feature_rss_flow_hash_control"], "RSS hash key", c(rel, "hash_key_cap", "hash_key"), True)
        )
    out.append((s["ena_admin_feature_rss_hash_control"], "RSS hash control", c(rel, "hash_ctrl"), True))
    return out


def probe_zones(
    rel: str, port: int, dev: dict[str, object] | None = None, first: int = 0
) -> tuple[tuple[Zone, ...], int]:
    """The memzones ena_com reserves at probe, numbered from ``first``, and how many numbers of the counter
    they take."""
    got = _probe_coherent(rel, dev)
    cnt = _counter(rel)
    zones = tuple(
        Zone(zone_name(rel, port, first + n), size, RTE_CACHE_LINE_SIZE, f"{cite}; {cnt}", f"ena_com {role}")
        for n, (size, role, cite, kept) in enumerate(got)
        if kept
    )
    return zones, len(got)


def start_numbers(nb_rxq: int, nb_txq: int, dev: dict[str, object] | None) -> int:
    """The counter's numbers a dev start takes: two a Rx queue (its submission and completion rings), two a Tx
    queue, one in LLQ mode (its completion ring: the submission ring is the device's)."""
    return 2 * nb_rxq + (1 if llq(dev) else 2) * nb_txq


def first_number(
    rel: str,
    dev: dict[str, object] | None,
    probed: tuple[dict[str, object] | None, ...] = (),
    started_before: tuple[tuple[dict[str, object] | None, int, int], ...] = (),
    at_start: bool = False,
) -> int:
    """The counter's first number (from 0) for a port's probe (``probed``: the ENA ports probed before it) or
    dev start (``probed``: every ENA port EAL probed, this one too; ``started_before``: the ENA ports the
    application started before it, with their queue counts). Up to 21.11 the counter is the process's
    (ena_alloc_cnt): EAL probes every device before the application configures and starts any, and a zone freed
    at probe keeps its number; from 22.11 it is the port's own (the adapter's memzone_cnt), from 0 at its probe."""
    if since(rel, "22.11"):
        return probe_zones(rel, 0, dev)[1] if at_start else 0
    n = sum(probe_zones(rel, 0, d)[1] for d in probed)
    return n + sum(start_numbers(rx, tx, d) for d, rx, tx in started_before) if at_start else n


def probe(
    rel: str, port: int, dev: dict[str, object] | None = None, probed_before: tuple[dict[str, object], ...] = ()
) -> tuple[tuple[Zone, ...], tuple[Alloc, ...]]:
    """eth_ena_dev_init: the device's dev_private (rte_eth_dev_pci_generic_probe(pci_dev, sizeof(struct
    ena_adapter), ...), named by the PCI address, v22.11.11:lib/ethdev/ethdev_pci.h:97), then ena_com's memzones
    (:func:`probe_zones`) and its ENA_MEM_ALLOC (rte_zmalloc(NULL, size, 1)) buffers: the admin queue's completion
    contexts, the host copy of the RSS indirection table; the driver's own RSS table (25.11+) and statistics."""
    s = SIZES[rel]
    c = SOURCE.cite
    log = rss_table_log(rel, dev)
    allocs = [
        Alloc("ethdev private structure", s["ena_adapter"], RTE_CACHE_LINE_SIZE, c(rel, "dev_private"), "dev_private"),
        Alloc(
            "ena admin_queue->comp_ctx",
            ENA_ADMIN_QUEUE_DEPTH * s["ena_comp_ctx"],
            1,
            "; ".join((c(rel, "aq_depth", "comp_ctx_size", "comp_ctx"), c(rel, "mem_alloc"))),
            "admin completion contexts",
        ),
        Alloc(
            "ena rss->host_rss_ind_tbl",
            (1 << log) * 2,
            1,
            "; ".join((c(rel, "host_ind_tbl"), c(rel, "mem_alloc"))),
            "host RSS indirection table",
        ),
    ]
    if SOURCE.has(rel, "indirect_table"):
        allocs.append(
            Alloc(
                "adapter RSS indirection table",
                4 * (1 << log),
                RTE_CACHE_LINE_SIZE,
                c(rel, "indirect_table"),
                "RSS indirection table (driver's copy)",
            )
        )
    allocs.append(
        Alloc("adapter stats", s["ena_driver_stats"], RTE_CACHE_LINE_SIZE, c(rel, "drv_stats"), "driver stats")
    )
    return probe_zones(rel, port, dev, first_number(rel, dev, probed_before))[0], tuple(allocs)


def start(
    rel: str,
    port: int,
    nb_rxq: int,
    nb_txq: int,
    dev: dict[str, object] | None = None,
    nb_rxd: int = ENA_DEFAULT_RING_SIZE,
    nb_txd: int = ENA_DEFAULT_RING_SIZE,
    conf: QueueConf | None = None,
    probed: tuple[dict[str, object], ...] | None = None,
    started_before: tuple[tuple[dict[str, object], int, int], ...] = (),
) -> tuple[tuple[Zone, ...], tuple[Alloc, ...]]:
    """ena_start: ena_queue_start_all for the Rx queues, then the Tx queues; each ena_create_io_queue ->
    ena_com_create_io_queue reserves the queue's submission ring (ena_com_init_io_sq: q_depth = ring_size =
    nb_desc descriptors of 16 bytes, unless a Tx queue is LLQ: its descriptors are the device's, and a bounce
    buffer of ENA_COM_BOUNCE_BUFFER_CNTRL_CNT LLQ entries is rte_zmalloc'ed) then its completion ring
    (ena_com_init_io_cq: 16-byte Rx / 8-byte Tx completions, the 32-byte extended Rx ones from 25.11 with the Rx
    timestamp offload; ENA_CDESC_RING_SIZE_ALIGNMENT), numbered after probe's zones (:func:`first_number`:
    ``probed`` every ENA port of the process, this one alone when not given)."""
    s = SIZES[rel]
    c = SOURCE.cite
    n = first_number(rel, dev, (dev,) if probed is None else probed, started_before, at_start=True)
    cnt = _counter(rel)
    ext = since(rel, "25.11") and bool(conf and conf.rx_offloads & RX_OFFLOAD_TIMESTAMP)
    rx_cq = s["ena_eth_io_rx_cdesc_ext"] if ext else s["ena_eth_io_rx_cdesc_base"]
    cq_cite = c(rel, *(("cq_desc", "cq_desc_ext", "cq_align") if ext else ("cq_desc", "cq_align")), "cdesc_align")
    ts_cite = f"; {c(rel, 'rx_ts')}" if ext else ""
    entry = dev_int(dev, "llq_entry_size", LLQ_ENTRY_SIZE)
    zones: list[Zone] = []
    allocs: list[Alloc] = []
    for side, count, nb in (("rx", nb_rxq, nb_rxd), ("tx", nb_txq, nb_txd)):
        at = c(rel, f"start_{side}", "queue_size", "create_io")
        for q in range(count):
            if side == "rx" or not llq(dev):
                zones.append(
                    Zone(
                        zone_name(rel, port, n),
                        nb * s[f"ena_eth_io_{side}_desc"],
                        RTE_CACHE_LINE_SIZE,
                        f"{at}; {c(rel, 'sq_desc', 'sq_host')}; {cnt}",
                        f"ena {side} queue {q} submission ring",
                    )
                )
                n += 1
            else:
                allocs.append(
                    Alloc(
                        "ena io_sq->bounce_buf_ctrl.base_buffer",
                        ENA_COM_BOUNCE_BUFFER_CNTRL_CNT * entry,
                        RTE_CACHE_LINE_SIZE,
                        f"{at}; {c(rel, 'sq_host', 'bounce_cnt', 'bounce_size')}; "
                        f"{c(rel, 'llq_entry')}; {c(rel, 'mem_alloc_node')}",
                        f"ena tx queue {q} LLQ bounce buffer",
                    )
                )
            size = nb * (rx_cq if side == "rx" else s["ena_eth_io_tx_cdesc"])
            zones.append(
                Zone(
                    zone_name(rel, port, n),
                    size,
                    ENA_CDESC_RING_SIZE_ALIGNMENT,
                    f"{at}{ts_cite if side == 'rx' else ''}; {cq_cite}; {cnt}",
                    f"ena {side} queue {q} completion ring",
                )
            )
            n += 1
    return tuple(zones), tuple(allocs)


PMD = declare(
    sys.modules[__name__],
    name=NAME,
    source="drivers/net/ena",
    kernel_drivers=("ena",),
    # ENA_MEM_ALLOC_COHERENT's memzones: "ena_alloc_%" PRIi64 up to 21.11, "ena_p%d_mz%" PRIu64 from 22.11
    zones=(r"ena_alloc_\d+", r"ena_p\d+_mz\d+"),
)
