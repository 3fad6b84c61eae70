"""What the PCI drivers reserve beyond their queue set-ups' descriptor rings, from their source at every release
(mpcalc/dpdk/drivers/: ena's ena_com memzones at probe and dev start, bnxt's aggregation ring and TPA area and its
ring-info structures, mlx5's MR caches, ice's Tx time-stamp ring), each figure computed here from the cited
lines' own arithmetic and the structs' pahole sizes (the modules' SIZES).

The lines themselves are held to the DPDK mirror by tests/conformance/test_pci_sources.py, the tables the models
count by tests/conformance/test_pci_counts.py.
"""

from __future__ import annotations

import pytest

from mpcalc.dpdk import apps, drivers
from mpcalc.dpdk.core.errors import Rejection
from mpcalc.dpdk.core.platform import Platform
from mpcalc.dpdk.drivers import bnxt, ena, ethdev, ice, mlx5, pci, zone_owner
from mpcalc.dpdk.drivers.pcibase import RELEASES, TAGS, QueueParts, align32pow2, align_ceil, bitmap_footprint
from mpcalc.dpdk.drivers.pmd import (
    RX_OFFLOAD_SCATTER,
    RX_OFFLOAD_TCP_LRO,
    RX_OFFLOAD_TIMESTAMP,
    TX_OFFLOAD_SEND_ON_TIMESTAMP,
    Port,
    Process,
    QueueConf,
)


def conf(**kw: int) -> QueueConf:
    return QueueConf(1, 1, 0, 0, False, **kw)


def zones(got: object) -> list[tuple[str, int]]:
    assert not isinstance(got, Rejection), got
    z = got.zones if isinstance(got, QueueParts) else got[0]  # type: ignore[index, union-attr]
    return [(x.name, x.size) for x in z]


def allocs(got: object) -> list[tuple[str, int]]:
    assert not isinstance(got, Rejection), got
    a = got.allocs if isinstance(got, QueueParts) else got[1]  # type: ignore[index, union-attr]
    return [(x.name, x.size) for x in a]


# --- ena


def _ena_probe_sizes(rel: str, host: bool = True, key: bool = True, metrics: int = 6, log: int = 7) -> list:
    """ena_com's coherent allocations at probe, from the cited lines: (bytes, kept) in their order."""
    s = ena.SIZES[rel]
    n = ena.COUNTS[rel]
    # ENA_STATS_ARRAY_GLOBAL + ENA_STATS_ARRAY_ENI up to 22.11, + metrics_num + ENA_STATS_ARRAY_ENA_SRD from 23.11
    debug = n["stats_global"] + (n["stats_eni"] if rel < "23.11" else metrics + n["stats_srd"])
    out = [(512, True)] if rel >= "23.11" else []  # ENA_CUSTOMER_METRICS_BUFFER_SIZE
    out += [
        (s["ena_admin_ena_mmio_req_read_less_resp"], True),
        (32 * s["ena_admin_aq_entry"], True),  # ADMIN_SQ_SIZE(ENA_ADMIN_QUEUE_DEPTH)
        (32 * s["ena_admin_acq_entry"], True),
        (16 * s["ena_admin_aenq_entry"], True),  # ADMIN_AENQ_SIZE(ENA_ASYNC_QUEUE_DEPTH)
        (4096, host),  # SZ_4K host info
        (debug * (32 + 8), host),  # ETH_GSTRING_LEN + sizeof(u64) a statistic
        ((1 << log) * s["ena_admin_rss_ind_table_entry"], True),
    ]
    out += [(s["ena_admin_feature_rss_flow_hash_control"], True)] if key else []
    return [*out, (s["ena_admin_feature_rss_hash_control"], True)]


def _ena_name(rel: str, port: int, n: int) -> str:
    return f"ena_alloc_{n + 1}" if rel == "21.11" else f"ena_p{port}_mz{n}"


@pytest.mark.parametrize("rel", RELEASES)
def test_ena_probe_reserves_ena_coms_zones_numbered_in_their_order(rel):
    want = _ena_probe_sizes(rel)
    got = ena.probe(rel, 1)
    assert zones(got) == [(_ena_name(rel, 1, n), b) for n, (b, _) in enumerate(want)]
    # the admin queues are 32 x 64-byte entries, the AENQ 16 x 64, the host info 4 KiB, at every release
    assert [b for _, b in zones(got)][-8:-4] == [2048, 2048, 1024, 4096]
    assert all(z.align == 64 and z.cite.startswith(TAGS[rel] + ":") for z in got[0])
    s = ena.SIZES[rel]
    heap = [
        ("ethdev private structure", s["ena_adapter"]),
        ("ena admin_queue->comp_ctx", 32 * s["ena_comp_ctx"]),  # ENA_ADMIN_QUEUE_DEPTH completion contexts
        ("ena rss->host_rss_ind_tbl", 128 * 2),  # a u16 per table entry
    ]
    heap += [("adapter RSS indirection table", 128 * 4)] if rel >= "25.11" else []
    assert allocs(got) == [*heap, ("adapter stats", s["ena_driver_stats"])]
    # the debug area: 9 statistics up to 22.11, 16 at 23.11 (rx_overruns among the global ones), 15 after
    assert want[-4][0] == {"21.11": 360, "22.11": 360, "23.11": 640}.get(rel, 600)


@pytest.mark.parametrize("rel", RELEASES)
def test_ena_device_answers_take_zones_away_but_not_their_numbers(rel):
    # without host attributes the host info and debug area are freed again: their numbers stay taken
    dev = {"host_attr": False, "rss_hash_function": False}
    want = _ena_probe_sizes(rel, host=False, key=False)
    got = zones(ena.probe(rel, 0, dev))
    assert got == [(_ena_name(rel, 0, n), b) for n, (b, kept) in enumerate(want) if kept]
    assert ena.probe_zones(rel, 0, dev)[1] == len(want)
    if rel >= "23.11":  # the legacy (ENI) metrics are one fewer, none without either capability
        n = ena.COUNTS[rel]
        for d, m in (({"customer_metrics": False}, 5), ({"customer_metrics": False, "eni_stats": False}, 0)):
            assert ena.debug_entries(rel, d) == n["stats_global"] + m + n["stats_srd"]
    # from 25.11 the indirection table is the device's size
    big = ena.probe(rel, 0, {"rss_table_log_size": 9})
    log = 9 if rel >= "25.11" else 7
    assert dict(zones(big))[_ena_name(rel, 0, len(_ena_probe_sizes(rel)) - 3)] == (1 << log) * 4
    assert dict(allocs(big))["ena rss->host_rss_ind_tbl"] == (1 << log) * 2


@pytest.mark.parametrize("rel", RELEASES)
def test_ena_start_reserves_every_rx_then_every_tx_queues_rings(rel):
    s = ena.SIZES[rel]
    base = len(_ena_probe_sizes(rel))
    got = ena.start(rel, 0, 2, 3, nb_rxd=2048, nb_txd=512)
    rx = [2048 * s["ena_eth_io_rx_desc"], 2048 * s["ena_eth_io_rx_cdesc_base"]] * 2  # SQ, CQ of each Rx queue
    tx = [512 * s["ena_eth_io_tx_cdesc"]] * 3  # LLQ: only the CQ is the host's
    assert zones(got) == [(_ena_name(rel, 0, base + i), b) for i, b in enumerate(rx + tx)]
    assert [z.align for z in got[0]] == [64, 4096, 64, 4096, 4096, 4096, 4096]  # ENA_CDESC_RING_SIZE_ALIGNMENT
    assert allocs(got) == [("ena io_sq->bounce_buf_ctrl.base_buffer", 4 * 128)] * 3
    assert allocs(ena.start(rel, 0, 0, 1, {"llq_entry_size": 256})) == [
        ("ena io_sq->bounce_buf_ctrl.base_buffer", 1024)
    ]
    host = ena.start(rel, 0, 1, 1, {"llq": False}, nb_rxd=256, nb_txd=256)
    assert [b for _, b in zones(host)] == [256 * 16, 256 * 16, 256 * 16, 256 * 8] and allocs(host) == []
    # the Rx timestamp offload: the 32-byte extended completions from 25.11
    ts = ena.start(rel, 0, 1, 0, nb_rxd=1024, conf=conf(rx_offloads=RX_OFFLOAD_TIMESTAMP))
    assert [b for _, b in zones(ts)] == [1024 * 16, 1024 * (32 if rel >= "25.11" else 16)]


@pytest.mark.parametrize("rel", RELEASES)
def test_an_ena_port_in_testpmd_gets_its_zones_named_and_its_rings_sized_by_rxd(rel):
    argv = ["dpdk-testpmd", "-l", "0-1", "-a", "00:05.0", "--", "-i", "--rxq=2", "--txq=2", "--rxd=512"]
    r = apps.size(argv, Platform(dpdk=rel), nics=["00:05.0=ena"])
    names = [z.name for z in r.memzones if zone_owner(z.name) == "driver net_ena"]
    base = len(_ena_probe_sizes(rel))
    assert names == [_ena_name(rel, 0, n) for n in range(base + 2 * 2 + 2)]
    lens = {z.name: z.len for z in r.memzones}
    assert lens[_ena_name(rel, 0, base)] == 512 * 16 and lens[_ena_name(rel, 0, base + 4)] == 1024 * 8
    assert (
        "port 0 (0000:00:05.0, net_ena): outside the DPDK heap: LLQ Tx descriptors in the device's memory (BAR)"
        in (r.details["notes"])
    )
    m = pci.port_memory("net_ena", rel, 0, 1, 1, 256, 128)
    assert [z.size for z in m.zones[base:]] == [256 * 16, 256 * 16, 128 * 8]


def _ena_process(rel: str, devs: list[dict[str, str]], queues: list[tuple[int, int]]) -> list[list[str]]:
    """Several ENA ports of one process: EAL probes them all (ethdev.probe_ports), then the application configures
    and starts each in turn (ethdev.configure); each port's zone names, probe's then start's."""
    ports = [Port(i, f"0000:00:0{5 + i}.0", "net_ena", d, tuple(d.items())) for i, d in enumerate(devs)]
    process = Process(tuple(ports))
    for pt in ports:
        pt.process = process
    p = Platform(dpdk=rel)
    names = [[z.name for z in ethdev.probe_ports([pt], p).zones if z.name.startswith("ena")] for pt in ports]
    for pt, (rxq, txq) in zip(ports, queues, strict=True):
        got = ethdev.configure(pt, QueueConf(rxq, txq, 256, 256, False), p)[0]
        names[pt.port_id] += [z.name for z in got.zones if z.name.startswith("ena")]
    return names


@pytest.mark.parametrize("rel", RELEASES)
def test_ena_alloc_numbers_are_the_process_s_at_21_11(rel):
    # ena_alloc_cnt (v21.11.9:drivers/net/ena/ena_ethdev.c:70) is one counter for every ENA port: EAL probes
    # every device before the application starts any, so the second port's probe follows the first's, and the
    # starts follow all the probes, in the order the ports start; a zone freed at probe keeps its number
    probe = len(_ena_probe_sizes(rel))
    two = _ena_process(rel, [{}, {}], [(1, 1), (1, 1)])
    # a dev start: an Rx queue's submission and completion rings, an LLQ Tx queue's completion ring
    if rel == "21.11":
        assert two[0] == [_ena_name(rel, 0, n) for n in (*range(probe), 2 * probe, 2 * probe + 1, 2 * probe + 2)]
        assert two[1] == [
            _ena_name(rel, 1, n) for n in (*range(probe, 2 * probe), *range(2 * probe + 3, 2 * probe + 6))
        ]
    else:  # 22.11+: each port's own memzone_cnt, unchanged
        assert two == [[_ena_name(rel, i, n) for n in range(probe + 3)] for i in (0, 1)]
    # three ports: the first without LLQ (two numbers a Tx queue), the second without host attributes (its host
    # info and debug area freed, their numbers taken), the second with two Rx and two Tx queues
    devs = [{"llq": "0"}, {"host_attr": "0"}, {}]
    three = _ena_process(rel, devs, [(1, 1), (2, 2), (1, 1)])
    freed = [n for n, (_, kept) in enumerate(_ena_probe_sizes(rel, host=False)) if not kept]
    assert len(freed) == 2
    if rel == "21.11":
        starts = 3 * probe
        want = [
            [*range(probe), *range(starts, starts + 4)],
            [*(n for n in range(probe, 2 * probe) if n - probe not in freed), *range(starts + 4, starts + 10)],
            [*range(2 * probe, 3 * probe), *range(starts + 10, starts + 13)],
        ]
    else:
        want = [
            list(range(probe + 4)),
            [*(n for n in range(probe) if n not in freed), *range(probe, probe + 6)],
            list(range(probe + 3)),
        ]
    assert three == [[_ena_name(rel, i, n) for n in w] for i, w in enumerate(want)]
    # every zone name once in the process
    assert len({z for port in three for z in port}) == sum(map(len, three))


def test_ena_alloc_numbers_in_testpmd_at_21_11():
    argv = ["dpdk-testpmd", "-l", "0-1", "-a", "00:05.0", "-a", "00:06.0", "--", "-i", "--rxq=2", "--txq=1"]
    r = apps.size(argv, Platform(dpdk="21.11"), nics=["00:05.0=ena", "00:06.0=ena"])
    names = [z.name for z in r.memzones if zone_owner(z.name) == "driver net_ena"]
    probe = len(_ena_probe_sizes("21.11"))
    # two probes, then two starts of 2 x 2 + 1 numbers: 2 x 9 + 2 x 5 zones, named ena_alloc_1 to ena_alloc_28
    assert sorted(names, key=lambda n: int(n.rsplit("_", 1)[1])) == [f"ena_alloc_{n}" for n in range(1, 2 * probe + 11)]


# --- bnxt


def _bnxt_rx_zone(ring: int, agg: bool, tpa: int = 0) -> int:
    """bnxt_alloc_rings for an Rx queue, from its own lines: vmem (ring + 8) mbuf pointers (64, 128); with the
    aggregation ring its vmem 4 x ring pointers (64); the completion ring rte_align32pow2(2 x ring (x 4)) x 16
    (64, 128); the Rx BD ring ring x 16 (64, 4096); then 4 x that, the bitmap of 4 x ring bits and the TPA area."""
    vmem = align_ceil(align_ceil(8 * (ring + 8), 64), 128)
    ag_vmem = align_ceil(4 * ring * 8, 64) if agg else 0
    cp_start = align_ceil(256 + vmem + ag_vmem, 4096)
    cp = align_ceil(align_ceil(align32pow2(2 * ring * (4 if agg else 1)) * 16, 64), 128)
    rx_start = align_ceil(cp_start + cp, 4096)
    rx_len = align_ceil(align_ceil(ring * 16, 64), 4096)
    ag_start = align_ceil(rx_start + rx_len, 4096)
    if not agg:
        return ag_start
    return ag_start + 4 * rx_len + align_ceil(bitmap_footprint(4 * ring), 64) + align_ceil(tpa, 64)


@pytest.mark.parametrize("rel", RELEASES)
def test_bnxt_a_scattered_port_has_the_aggregation_ring_and_lro_the_tpa_area(rel):
    dev = {"pci_addr": "0000:3b:00.0"}
    tpa = bnxt.SIZES[rel]["bnxt_tpa_info"]
    for nb in (16, 256, 1000, 8192):
        ring = align32pow2(nb)
        assert zones(bnxt.rx_queue_setup(rel, 0, 2, nb, dev)) == [
            ("bnxt_0000:3b:00.0-0002_rxr", _bnxt_rx_zone(ring, False))
        ]
        # an MTU above the pool's data room less RTE_PKTMBUF_HEADROOM (2176 - 128) less 26 bytes of headers
        assert zones(bnxt.rx_queue_setup(rel, 0, 2, nb, dev, conf(mtu=9000)))[0][1] == _bnxt_rx_zone(ring, True)
        assert zones(bnxt.rx_queue_setup(rel, 0, 2, nb, dev, conf(rx_offloads=RX_OFFLOAD_SCATTER)))[0][1] == (
            _bnxt_rx_zone(ring, True)
        )
        lro = conf(rx_offloads=RX_OFFLOAD_TCP_LRO)
        assert zones(bnxt.rx_queue_setup(rel, 0, 2, nb, dev, lro))[0][1] == _bnxt_rx_zone(ring, True, 64 * tpa)
        thor = bnxt.rx_queue_setup(rel, 0, 2, nb, {**dev, "p5": True}, lro)
        assert zones(thor)[0][1] == _bnxt_rx_zone(ring, True, 1024 * tpa)  # TPA_MAX_AGGS_TH on a P5
        thor2 = zones(bnxt.rx_queue_setup(rel, 0, 2, nb, {**dev, "p7": True}, lro))[0][1]
        assert thor2 == _bnxt_rx_zone(ring, True, (1024 if rel >= "24.11" else 64) * tpa)  # P7: 24.11+
    # the boundary: 2022 + 26 = 2048 fits a 2176-byte room, 2023 does not
    assert zones(bnxt.rx_queue_setup(rel, 0, 0, 1024, dev, conf(mtu=2022)))[0][1] == 61440
    assert zones(bnxt.rx_queue_setup(rel, 0, 0, 1024, dev, conf(mtu=2023)))[0][1] == 258624
    assert zones(bnxt.rx_queue_setup(rel, 0, 0, 1024, dev, conf(mtu=9000, rx_data_room=9300)))[0][1] == 61440
    assert bitmap_footprint(4096) == 576


@pytest.mark.parametrize("rel", RELEASES)
def test_bnxt_ring_info_structures(rel):
    s = bnxt.SIZES[rel]
    rx = allocs(bnxt.rx_queue_setup(rel, 0, 0, 512))
    ring_info = [
        ("bnxt_rx_ring", s["bnxt_rx_ring_info"]),
        ("bnxt_rx_ring_struct", s["bnxt_ring"]),
        ("bnxt_rx_ring", s["bnxt_cp_ring_info"]),
        ("bnxt_rx_ring_struct", s["bnxt_ring"]),
    ]
    assert rx == [("bnxt_rx_queue", s["bnxt_rx_queue"]), *ring_info]
    # started scattered: the ring memory made again, with the aggregation ring's struct
    assert allocs(bnxt.rx_queue_setup(rel, 0, 0, 512, None, conf(mtu=9000)))[1:] == [
        *ring_info,
        ("bnxt_rx_ring_struct", s["bnxt_ring"]),
    ]
    tx = allocs(bnxt.tx_queue_setup(rel, 0, 0, 512))
    assert tx[2:6] == [
        ("bnxt_tx_ring", s["bnxt_tx_ring_info"]),
        ("bnxt_tx_ring_struct", s["bnxt_ring"]),
        ("bnxt_tx_ring", s["bnxt_cp_ring_info"]),
        ("bnxt_tx_ring_struct", s["bnxt_ring"]),
    ]


def test_bnxt_in_testpmd_a_jumbo_mtu_makes_the_rx_zone_scattered_and_the_report_says_what_is_not_counted():
    argv = ["dpdk-testpmd", "-l", "0-1", "-a", "3b:00.0", "--", "-i", "--max-pkt-len=9018", "--rxd=1024"]
    r = apps.size(argv, Platform(dpdk="24.11"), nics=["3b:00.0=bnxt"])
    lens = {z.name: z.len for z in r.memzones}
    assert lens["bnxt_0000:3b:00.0-0000_rxr"] == _bnxt_rx_zone(1024, True)
    notes = [n for n in r.details["notes"] if "in the DPDK heap, not counted" in n]
    assert len(notes) == 2 and "def_cp" in notes[0] and "v24.11.6:drivers/net/bnxt/bnxt_ring.c:" in notes[0]
    for name in ("bnxt_0000:3b:00.0-0000_def_cp", "bnxt_0000:3b:00.0-tx_port_stats", "bnxt_0000:3b:00.0_vnicattr_1"):
        assert zone_owner(name) == "driver net_bnxt"


# --- mlx5


@pytest.mark.parametrize("rel", RELEASES)
def test_mlx5_mr_caches(rel):
    # MLX5_MR_BTREE_CACHE_N (256) packed 20-byte struct mr_cache_entry a queue, twice as many for the device
    entry = mlx5.SIZES[rel]["mr_cache_entry"]
    assert entry == 8 + 8 + 4
    assert allocs(mlx5.rx_queue_setup(rel, 0, 0, 1024))[-1] == ("mlx5 rxq mr_ctrl.cache_bh", 256 * entry)
    assert allocs(mlx5.tx_queue_setup(rel, 0, 0, 1024))[-1] == ("mlx5 txq mr_ctrl.cache_bh", 256 * entry)
    assert allocs(mlx5.probe(rel, 0)) == [
        ("mlx5_common_device", mlx5.SIZES[rel]["mlx5_common_device"]),
        ("mlx5 mr_scache.cache", 512 * entry),
    ]
    said = mlx5.not_modelled(rel)
    assert len(said) == 6 and all(f"({TAGS[rel]}:drivers/" in t for t in said)
    pmd = drivers.get("mlx5_pci")
    port = Port(0, "0000:3b:00.0", "mlx5_pci")
    q = conf()
    p = Platform(dpdk=rel)
    assert pmd.not_modelled(port, q, p) == said and len(pmd.outside_heap(port, q, p)) == 3


# --- ice


@pytest.mark.parametrize("rel", RELEASES)
def test_ice_tx_time_stamp_ring(rel):
    e830 = {"e830": True}
    ts = conf(tx_offloads=TX_OFFLOAD_SEND_ON_TIMESTAMP)
    plain = ice.tx_queue_setup(rel, 0, 3, 1024, e830)
    got = ice.tx_queue_setup(rel, 0, 3, 1024, e830, ts)
    if rel < "25.11":  # no Tx time queue before 25.11
        assert got == plain and ice.not_modelled(rel, e830, ts) == ()
        return
    for nb, fetch in ((64, 0), (1024, 0), (1024, 40), (8064, 8)):
        # ice_calc_ts_ring_count: nb_desc + RTE_ALIGN(max_fetch_desc or 8, 32) 4-byte descriptors, 4 KiB-rounded
        q = ice.tx_queue_setup(rel, 0, 3, nb, {**e830, "txtime_fetch_desc": fetch}, ts)
        n = nb + align_ceil(fetch or 8, 32)
        assert zones(q)[1:] == [("eth_p0_q3_ice_tstamp_ring", align_ceil(4 * n, 4096))]
        assert allocs(q)[-1] == ("ice txq->tsq", ice.SIZES[rel]["ice_txtime"])
        assert zones(q)[0] == zones(ice.tx_queue_setup(rel, 0, 3, nb, e830))[0]
    assert zones(got)[1] == ("eth_p0_q3_ice_tstamp_ring", 8192)
    bad = ice.tx_queue_setup(rel, 0, 0, 1024, {}, ts)
    assert isinstance(bad, Rejection) and bad.reason == "Tx Time Queue is not supported on this device"
    assert "rte_mbuf_dyn_tx_timestamp_register" in ice.not_modelled(rel, e830, ts)[0]
    assert ice.not_modelled(rel, e830, conf()) == ()


def test_the_drivers_queue_set_ups_get_the_ports_configuration_through_the_pmd():
    # the Pmd hands the QueueConf to the module (pcibase.call): ice's time-stamp ring, bnxt's scattered zone
    p = Platform(dpdk="25.11")
    port = Port(0, "0000:3b:00.0", "net_ice", {"e830": "1"})
    q = QueueConf(1, 1, 1024, 1024, False, tx_offloads=TX_OFFLOAD_SEND_ON_TIMESTAMP)
    names = [z.name for z in drivers.get("net_ice").tx_queue_setup(port, 0, 1024, q, p).zones]
    assert names == ["eth_p0_q0_ice_tx_ring", "eth_p0_q0_ice_tstamp_ring"]
    bport = Port(0, "0000:3b:00.0", "net_bnxt")
    big = drivers.get("net_bnxt").rx_queue_setup(bport, 0, 1024, QueueConf(1, 1, 1024, 1024, False, mtu=9000), p)
    assert [z.len for z in big.zones] == [_bnxt_rx_zone(1024, True)]
