"""The PCI PMD models (mpcalc/dpdk/drivers/: e1000_em, igb, igc, ixgbe, i40e, ice, iavf, vmxnet3, virtio_pci, ena,
bnxt, mlx5): every figure at every release, computed here from the cited source lines' own arithmetic.

The lines themselves are held to the DPDK mirror by tests/conformance/test_pci_sources.py; the QEMU guest's
captures by tests/test_pci_qemu.py.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mpcalc.dpdk.core.errors import Rejection
from mpcalc.dpdk.drivers import (
    bnxt,
    e1000_em,
    ena,
    i40e,
    iavf,
    ice,
    igb,
    igc,
    ixgbe,
    mlx5,
    pci,
    virtio_pci,
    vmxnet3,
    zone_owner,
)
from mpcalc.dpdk.drivers.pcibase import RELEASES, TAGS, QueueParts, align_ceil

ALL = [e1000_em, igb, igc, ixgbe, i40e, ice, iavf, vmxnet3, virtio_pci, ena, bnxt, mlx5]


def zones(q: QueueParts | Rejection) -> dict[str, int]:
    assert isinstance(q, QueueParts), q
    return {z.name: z.size for z in q.zones}


def allocs(q: QueueParts | Rejection) -> list[tuple[str, int]]:
    assert isinstance(q, QueueParts), q
    return [(a.name, a.size) for a in q.allocs]


@pytest.mark.parametrize("rel", RELEASES)
def test_em_rings_are_sized_for_4096_descriptors_whatever_nb_desc(rel):
    # rsize = sizeof(rxq->rx_ring[0]) * E1000_MAX_RING_DESC: 16 * 4096, for 32 descriptors as for 4096
    for n in (32, 256, 4096):
        assert zones(e1000_em.rx_queue_setup(rel, 0, 0, n)) == {"eth_p0_q0_rx_ring": 16 * 4096}
        assert zones(e1000_em.tx_queue_setup(rel, 1, 1, n)) == {"eth_p1_q1_tx_ring": 16 * 4096}
    s = e1000_em.SIZES[rel]
    assert allocs(e1000_em.rx_queue_setup(rel, 0, 0, 512)) == [
        ("ethdev RX queue", s["em_rx_queue"]),
        ("rxq->sw_ring", 8 * 512),
    ]
    assert allocs(e1000_em.tx_queue_setup(rel, 0, 0, 512)) == [
        ("ethdev TX queue", s["em_tx_queue"]),
        ("txq->sw_ring", 16 * 512),
    ]
    rx, tx = e1000_em.desc_lim(rel)
    assert (rx.nb_max, rx.nb_min, rx.nb_align) == (4096, 32, 8) == (tx.nb_max, tx.nb_min, tx.nb_align)
    assert e1000_em.max_queues(rel) == (2, 2) and e1000_em.default_ring(rel) == (256, 256)
    for bad in (100, 16, 4104):
        r = e1000_em.rx_queue_setup(rel, 0, 0, bad)
        assert isinstance(r, Rejection) and r.errno == "EINVAL" and r.source.startswith(TAGS[rel])


@pytest.mark.parametrize("rel", RELEASES)
def test_igb_and_igc_rings(rel):
    assert zones(igb.rx_queue_setup(rel, 0, 2, 64)) == {"eth_p0_q2_rx_ring": 16 * 4096}
    assert igb.rx_queue_setup(rel, 0, 0, 64).zones[0].align == 128  # E1000_ALIGN
    # IGC_MAX_RXD = 0x80000 / sizeof(union igc_adv_rx_desc) = 32768 descriptors: 512 KiB a queue
    assert zones(igc.rx_queue_setup(rel, 0, 0, 8)) == {"eth_p0_q0_rx_ring": 0x80000}
    tx = igc.tx_queue_setup(rel, 0, 0, 1024)
    assert zones(tx) == {"eth_p0_q0_tx_ring": 0x80000}
    dummy = ("dummy_pkt", 64) in allocs(tx)
    assert dummy == (rel in ("23.11", "25.11", "26.07"))
    r = igc.tx_queue_setup(rel, 0, 0, 12)
    assert (
        isinstance(r, Rejection)
        and r.reason == "TX-descriptor must be a multiple of 8 and between 32768 and 8, cur: 12"
    )
    r = igc.rx_queue_setup(rel, 0, 0, 12)
    assert (
        isinstance(r, Rejection) and r.reason == "RX descriptor must be multiple of 8(cur: 12) and between 8 and 32768"
    )


@pytest.mark.parametrize("rel", RELEASES)
def test_ixgbe_rings_follow_ixgbe_max_ring_desc(rel):
    mx = 8192 if rel >= "24.11" else 4096
    # RX_RING_SZ = (IXGBE_MAX_RING_DESC + RTE_PMD_IXGBE_RX_MAX_BURST) * sizeof(union ixgbe_adv_rx_desc)
    assert zones(ixgbe.rx_queue_setup(rel, 0, 0, 512)) == {"eth_p0_q0_rx_ring": (mx + 32) * 16}
    tx_name = "eth_p0_q0_ixgbe_tx_ring" if rel >= "25.11" else "eth_p0_q0_tx_ring"
    assert zones(ixgbe.tx_queue_setup(rel, 0, 0, 512)) == {tx_name: 16 * mx}
    s = ixgbe.SIZES[rel]
    rxe = s["ci_rx_entry" if rel >= "25.11" else "ixgbe_rx_entry"]
    got = dict(allocs(ixgbe.rx_queue_setup(rel, 0, 0, 512)))
    assert got["rxq->sw_ring"] == rxe * (512 + 32)  # bulk allocation allowed: 32 divides 512
    got = dict(allocs(ixgbe.rx_queue_setup(rel, 0, 0, 1000)))
    assert got["rxq->sw_ring"] == rxe * 1000  # 1000 % 32: no bulk allocation, no extra entries
    txq = dict(allocs(ixgbe.tx_queue_setup(rel, 0, 0, 512)))["ethdev TX queue"]
    if rel >= "25.11":
        assert txq == s["ci_tx_queue"] + 2 * s["ixgbe_advctx_info"]  # + IXGBE_CTX_NUM contexts
    else:
        assert txq == s["ixgbe_tx_queue"]
    rs = [a for a in allocs(ixgbe.tx_queue_setup(rel, 0, 0, 512)) if a[0] == "ixgbe txq->rs_last_id"]
    assert rs == ([("ixgbe txq->rs_last_id", 2 * 512 // 32)] if rel == "26.07" else [])
    r = ixgbe.rx_queue_setup(rel, 0, 0, 64)
    if rel == "26.07":
        assert isinstance(r, Rejection) and r.reason == "rx ring size (64) must be > 2 * rx_free_thresh (32)"
    else:
        assert isinstance(r, QueueParts)
    lim = ixgbe.desc_lim(rel)[0]
    assert (lim.nb_max, lim.nb_min, lim.nb_align) == (mx, 32 if rel == "21.11" else 64, 8)


@pytest.mark.parametrize("rel", RELEASES)
@pytest.mark.parametrize("mod", [i40e, ice, iavf])
def test_700_800_series_rings(rel, mod):
    mx = {
        i40e: 8160 if rel >= "24.11" else 4096,
        ice: 8160 if rel >= "24.11" else 4096,
        iavf: 8160 if rel == "26.07" else 4096,
    }[mod]
    rx = mod.rx_queue_setup(rel, 0, 0, 1024)
    # RTE_ALIGN((MAX_RING_DESC + RX_MAX_BURST) * 32-byte descriptors, 4096), 128-aligned
    assert zones(rx) == {"eth_p0_q0_rx_ring": align_ceil((mx + 32) * 32, 4096)}
    assert rx.zones[0].align == 128
    name = {"26.07": "ci_tx_ring", "25.11": f"{mod.NAME[4:]}_tx_ring"}.get(rel, "tx_ring")
    assert zones(mod.tx_queue_setup(rel, 0, 0, 1024)) == {f"eth_p0_q0_{name}": align_ceil(16 * mx, 4096)}
    sw = [b for n, b in allocs(rx) if "sw ring" in n or "sw_ring" in n][-1]
    assert sw == 8 * (1024 + 32)  # 8-byte entries (mbuf pointers), nb_desc + 32
    for bad in (48, 1000, mx + 32):
        r = mod.rx_queue_setup(rel, 0, 0, bad)
        assert isinstance(r, Rejection) and r.reason == f"Number ({bad}) of receive descriptors is invalid"
    lim = mod.desc_lim(rel)[0]
    assert (lim.nb_max, lim.nb_min, lim.nb_align) == (mx, 64, 32)


def test_ice_e830_from_25_11():
    # ICE_MAX_NUM_DESC_BY_MAC: 8096 on an E830
    assert zones(ice.rx_queue_setup("25.11", 0, 0, 512, {"e830": True})) == {
        "eth_p0_q0_rx_ring": align_ceil(8128 * 32, 4096)
    }
    assert zones(ice.rx_queue_setup("24.11", 0, 0, 512, {"e830": True})) == {
        "eth_p0_q0_rx_ring": align_ceil(8192 * 32, 4096)
    }


@pytest.mark.parametrize("rel", RELEASES)
def test_vmxnet3_rings_follow_nb_desc(rel):
    # Tx: (Vmxnet3_TxDesc 16 + Vmxnet3_TxCompDesc 16 + TxDataDesc 128) per descriptor, nb_desc & ~31
    assert zones(vmxnet3.tx_queue_setup(rel, 0, 0, 512)) == {"eth_p0_q0_txdesc": 512 * 160}
    assert zones(vmxnet3.tx_queue_setup(rel, 0, 0, 1000)) == {"eth_p0_q0_txdesc": 992 * 160}
    # Rx: two command rings of nb_desc and a completion ring of 2 nb_desc, 16 bytes each
    assert zones(vmxnet3.rx_queue_setup(rel, 0, 0, 512)) == {"eth_p0_q0_rxdesc": 4 * 512 * 16}
    # a version-3 device adds the Rx data ring (VMXNET3_DEF_RXDATA_DESC_SIZE 256 a descriptor)
    assert zones(vmxnet3.rx_queue_setup(rel, 0, 0, 512, {"version": 4})) == {
        "eth_p0_q0_rxdesc": 4 * 512 * 16 + 256 * 512
    }
    v7 = zones(vmxnet3.rx_queue_setup(rel, 0, 0, 1000, {"version": 7}))["eth_p0_q0_rxdesc"]
    n = 512 if rel >= "23.11" else 992  # rte_align32prevpow2 on a version-7 device from 23.11
    assert v7 == 4 * n * 16 + 256 * n
    r = vmxnet3.tx_queue_setup(rel, 0, 0, 100)
    assert isinstance(r, Rejection) and r.reason == "VMXNET3 Tx Ring Size Min: 512"
    r = vmxnet3.rx_queue_setup(rel, 0, 0, 100)
    assert (
        isinstance(r, Rejection) and r.reason == "VMXNET3 Rx Ring Size Min: 256"
    )  # the driver's text; its test is 128
    z, _ = vmxnet3.configure(rel, 0, 2, 2, rss=True)
    s = vmxnet3.SIZES[rel]
    assert {x.name: x.size for x in z} == {
        "eth_p0_shared": s["Vmxnet3_DriverShared"],
        "eth_p0_queuedesc": 4 * 256,
        "eth_p0_rss_conf": s["VMXNET3_RSSConf"],
    }
    (mr,), _ = vmxnet3.start(rel, 0, 2, 2)
    assert mr.size == 24 + (24 if rel == "21.11" else 32) * 16


@pytest.mark.parametrize("rel", RELEASES)
def test_virtio_makes_every_queue_at_probe(rel):
    z, a = virtio_pci.probe(rel, 0, {"max_queue_pairs": 2})
    got = {x.name: x.size for x in z}
    # vring_size(256) = align(16*256 + 4 + 2*256, 4096) + 4 + 8*256 = 10244 -> 12288; ctrl (64): 4612 -> 8192
    assert got == {
        "port0_vq0": 12288,
        "port0_vq1": 12288,
        "port0_vq1_hdr": 256 * 144,
        "port0_vq2": 12288,
        "port0_vq3": 12288,
        "port0_vq3_hdr": 256 * 144,
        "port0_vq4": 8192,
        "port0_vq4_hdr": 4096,
    }
    s = virtio_pci.SIZES[rel]
    vq = [b for n, b in ((x.name, x.size) for x in a) if n == "port0_vq0"]
    assert vq == [align_ceil(s["virtqueue"] + 256 * 16, 64)]
    # the Rx software ring: always up to 22.11, from 23.11 only vectorized (test below)
    assert (("sw_ring", (64 + 256) * 8) in [(x.name, x.size) for x in a]) == (rel in ("21.11", "22.11"))
    assert virtio_pci.rx_queue_setup(rel, 0, 0, 2048).nb_desc == 256  # clamped to the virtqueue's size
    assert virtio_pci.rx_queue_setup(rel, 0, 0, 128).nb_desc == 128
    bad = virtio_pci.probe(rel, 0, {"rx_queue_size": 1000})
    assert isinstance(bad, Rejection) and bad.reason == "split virtqueue size is not power of 2"


@pytest.mark.parametrize("rel", RELEASES)
def test_ena_bnxt_mlx5(rel):
    r = ena.rx_queue_setup(rel, 0, 0, 1000)
    assert isinstance(r, Rejection) and r.reason == "Unsupported size of Rx queue: 1000 is not a power of 2."
    r = ena.tx_queue_setup(rel, 0, 0, 2048)
    assert isinstance(r, Rejection) and r.reason == "Unsupported size of Tx queue (max size: 1024)"
    got = dict(allocs(ena.rx_queue_setup(rel, 0, 0, 1024)))
    assert got["rxq->rx_refill_buffer"] == 8 * 1024 and got["rxq->empty_rx_reqs"] == 2 * 1024
    assert bnxt.rx_queue_setup(rel, 0, 0, 1000).nb_desc == 1024  # rte_align32pow2
    r = bnxt.tx_queue_setup(rel, 0, 0, 8192)
    assert isinstance(r, Rejection) and r.reason == "nb_desc 8192 is invalid"
    nr_bds = [b for n, b in allocs(bnxt.tx_queue_setup(rel, 0, 0, 1000)) if n == "bnxt_nr_bds"]
    assert nr_bds == ([2 * 1024] if rel >= "23.11" else [])
    q = mlx5.rx_queue_setup(rel, 0, 0, 1000)
    assert q.nb_desc == 1024 and q.zones == () and q.outside
    s = mlx5.SIZES[rel]
    assert allocs(q)[1] == ("mlx5 rxq_ctrl", s["mlx5_rxq_ctrl"] + 8 * (1024 + 4))
    assert allocs(mlx5.tx_queue_setup(rel, 0, 0, 512))[0] == ("mlx5 txq_ctrl", s["mlx5_txq_ctrl"] + 8 * 512)


@pytest.mark.parametrize("rel", RELEASES)
@pytest.mark.parametrize("mod", ALL, ids=lambda m: m.NAME)
def test_every_struct_a_model_uses_is_measured_and_every_citation_resolves(rel, mod):
    # a whole port at its defaults touches every SIZES key the model uses and every citation of that path
    pmd = mod.NAME
    m = pci.port_memory(pmd, rel, 0, 2, 2, dev={"max_queue_pairs": 2})
    assert not [e for e in m.errors if e.errno != "EINVAL"], m.errors
    for z in m.zones:
        assert z.cite.startswith(TAGS[rel] + ":") and z.size > 0
    for a in m.allocs:
        assert a.cite.startswith(TAGS[rel] + ":") and a.size > 0
    assert ("run" if mod in (e1000_em, vmxnet3, virtio_pci) else "source") == mod.PROVENANCE


@given(n=st.integers(4, 512).map(lambda k: k * 8), rel=st.sampled_from(RELEASES))
def test_descriptor_ring_drivers_reserve_the_same_zone_for_any_nb_desc(n, rel):
    # em, igb, ixgbe: the zone is the driver's maximum; only the software ring grows with nb_desc
    for mod in (e1000_em, igb, ixgbe):
        lim = mod.desc_lim(rel)[0]
        if not lim.nb_min <= n <= lim.nb_max:
            continue
        a, b = mod.rx_queue_setup(rel, 0, 0, n), mod.rx_queue_setup(rel, 0, 0, lim.nb_max)
        if isinstance(a, Rejection):  # 26.07's ixgbe: a ring not above 2 * rx_free_thresh (64) is refused
            assert rel == "26.07" and n <= 64
            continue
        assert zones(a) == zones(b)


def test_pci_ids_name_the_driver():
    assert pci.pmd_for_id(0x8086, 0x100E, "22.11") == "net_e1000_em"  # QEMU's e1000 (82540EM)
    assert pci.pmd_for_id(0x8086, 0x10D3, "22.11") == "net_e1000_em"  # QEMU's e1000e (82574L)
    assert pci.pmd_for_id(0x15AD, 0x07B0, "22.11") == "net_vmxnet3"
    assert pci.pmd_for_id(0x1AF4, 0x1000, "22.11") == pci.pmd_for_id(0x1AF4, 0x1041, "26.07") == "net_virtio"
    assert pci.pmd_for_id(0x8086, 0x1572, "22.11") == "net_i40e"  # X710 10GbE SFP+
    assert pci.pmd_for_id(0x8086, 0x1592, "22.11") == "net_ice"  # E810-C QSFP
    assert pci.pmd_for_id(0x8086, 0x1889, "22.11") == "net_iavf"  # the adaptive VF
    assert pci.pmd_for_id(0x8086, 0x10FB, "22.11") == "net_ixgbe"  # 82599ES SFP+
    assert pci.pmd_for_id(0x15B3, 0x1017, "22.11") == "mlx5_pci"  # ConnectX-5
    assert pci.pmd_for_id(0x1D0F, 0xEC20, "22.11") == "net_ena"
    assert pci.pmd_for_id(0x14E4, 0x16D7, "22.11") == "net_bnxt"  # BCM57414
    assert pci.pmd_for_id(0x1234, 0x5678, "22.11") is None
    assert pci.pmd_named("ixgbe") == "net_ixgbe" and pci.pmd_named("net_mlx5") == "mlx5_pci"
    assert pci.parse_id("0x8086:0x1572") == (0x8086, 0x1572)


def test_the_vfs_are_their_pfs_queues_with_fewer_of_them():
    from mpcalc.dpdk import drivers
    from mpcalc.dpdk.drivers import igb_vf, ixgbe_vf

    assert drivers.by_pci(0x8086, 0x10ED).name == "net_ixgbe_vf"  # 82599 VF
    assert drivers.by_pci(0x8086, 0x1520).name == "net_e1000_igb_vf"  # I350 VF
    assert ixgbe_vf.max_queues("22.11") == (8, 8) and igb_vf.max_queues("22.11") == (2, 2)
    assert zones(ixgbe_vf.rx_queue_setup("24.11", 0, 0, 512)) == zones(ixgbe.rx_queue_setup("24.11", 0, 0, 512))


def _bnxt_tx_zone(ring: int) -> int:
    """bnxt_alloc_rings for a Tx queue, from its own lines (v22.11.11:drivers/net/bnxt/bnxt_ring.c:124-209):
    stats 176 - 8 (or 160/176 from 24.11) -> 192 -> 256; vmem ring * 8 (rounded to 64, 128); cp ring ring * 16
    (64, 128); the Tx BD ring ring * 16 (64, 4096); each start at 4 KiB."""
    vmem = align_ceil(align_ceil(ring * 8, 64), 128)
    cp_start = align_ceil(256 + vmem, 4096)
    tx_start = align_ceil(cp_start + align_ceil(align_ceil(ring * 16, 64), 128), 4096)
    return align_ceil(tx_start + align_ceil(ring * 16, 4096), 4096)


@pytest.mark.parametrize("rel", RELEASES)
def test_bnxt_tx_ring_memzone(rel):
    assert bnxt.stats_len(rel) == 256
    dev = {"pci_addr": "0000:3b:00.1"}
    for nb, ring, size in ((16, 16, 12288), (256, 256, 12288), (512, 512, 24576), (1000, 1024, 45056),
                           (4096, 4096, 167936)):  # fmt: skip
        assert _bnxt_tx_zone(ring) == size
        q = bnxt.tx_queue_setup(rel, 0, 10, nb, dev)
        assert zones(q) == {"bnxt_0000:3b:00.1-000a_txr": size}
        z = q.zones[0]
        assert z.align == 4096 and z.cite.startswith(f"{TAGS[rel]}:drivers/net/bnxt/bnxt_txq.c:")
    # a dump's or a trace's bnxt_alloc_rings zones are the driver's
    assert zone_owner("bnxt_0000:3b:00.1-000a_txr") == zone_owner("bnxt_0000:3b:00.1-000a_rxr") == "driver net_bnxt"
    # the Rx queue's: vmem (ring + BNXT_RX_EXTRA_MBUF_ENTRIES 8) * 8 (64, 128); cp ring 2 * ring * 16 (64, 128);
    # the Rx BD ring ring * 16 (64, 4096); no aggregation ring (scattered_rx is 0 at set-up)
    for nb, ring, size in ((16, 16, 12288), (256, 256, 16384), (512, 512, 32768), (1000, 1024, 61440),
                           (8192, 8192, 462848)):  # fmt: skip
        vmem = align_ceil(align_ceil(8 * (ring + 8), 64), 128)
        rx_start = align_ceil(align_ceil(256 + vmem, 4096) + align_ceil(2 * ring * 16, 128), 4096)
        assert align_ceil(rx_start + align_ceil(ring * 16, 4096), 4096) == size
        q = bnxt.rx_queue_setup(rel, 0, 1, nb, dev)
        assert zones(q) == {"bnxt_0000:3b:00.1-0001_rxr": size}
        assert q.zones[0].align == 4096 and q.zones[0].cite.startswith(f"{TAGS[rel]}:drivers/net/bnxt/bnxt_rxq.c:")
    assert all("aggregation" not in z.role for z in q.zones)  # no configuration given: not scattered


@pytest.mark.parametrize("rel", RELEASES)
def test_virtio_pci_rx_software_ring_only_vectorized_from_23_11(rel):
    # virtio_rxq_sw_ring_alloc: "SW ring is only used with vectorized datapath" from 23.11
    # (v24.11.6:drivers/net/virtio/virtqueue.c:387-388); eth_virtio_dev_init sets use_vec_rx from vectorized=1
    from mpcalc.dpdk.drivers import virtio_pci

    def rx_allocs(dev):
        _zones, allocs = virtio_pci.probe(rel, 0, dev)
        return [a for a in allocs if a.name == "sw_ring"]

    always = rel in ("21.11", "22.11")
    plain, vec = rx_allocs({"ctrl_vq": False}), rx_allocs({"ctrl_vq": False, "vectorized": True})
    assert [a.size for a in vec] == [(64 + 256) * 8, virtio_pci.SIZES[rel]["rte_mbuf"]]
    assert plain == (vec if always else [])
    if not always:
        assert "virtqueue.c:387" in vec[0].cite
