"""The poll-mode driver declarations (mpcalc/dpdk/drivers/): the registry, ethdev's shared rules, and each
vdev driver's figures against the arithmetic of the cited source lines, release by release."""

from __future__ import annotations

import struct

import pytest

from mpcalc.dpdk import drivers
from mpcalc.dpdk.core.errors import InputError
from mpcalc.dpdk.core.platform import Platform
from mpcalc.dpdk.drivers import af_packet, af_xdp, bonding, ethdev, memif, pcap, vhost, virtio, virtio_user
from mpcalc.dpdk.drivers.pmd import DescLim, Pmd, QueueConf

RELEASES = ("21.11", "22.11", "23.11", "24.11", "25.11", "26.07")


def plat(release: str = "22.11") -> Platform:
    return Platform(dpdk=release)


def q(rxq: int = 1, txq: int = 1, rxd: int = 0, txd: int = 0) -> QueueConf:
    return QueueConf(rxq, txq, rxd, txd, lsc_interrupt=True)


# --- the registry -------------------------------------------------------------------------------------


def test_every_vdev_driver_is_found_by_name_and_alias():
    for name in (
        "net_null",
        "net_ring",
        "net_tap",
        "net_virtio_user",
        "net_vhost",
        "net_memif",
        "net_af_packet",
        "net_af_xdp",
        "net_pcap",
        "net_bonding",
    ):
        assert drivers.get(name).name == name
    assert drivers.get("eth_null").name == "net_null"
    assert drivers.get("virtio_user").name == "net_virtio_user"
    assert drivers.get("eth_bond").name == "net_bonding"


def test_the_vdev_name_binds_by_prefix_and_alias():
    # vdev_probe_all_drivers: the driver whose name (or alias) prefixes the device name
    assert ethdev.vdev_driver("net_virtio_user0") == "net_virtio_user"
    assert ethdev.vdev_driver("virtio_user3") == "net_virtio_user"
    assert ethdev.vdev_driver("eth_null1") == "net_null"
    assert ethdev.vdev_driver("net_memif") == "net_memif"
    with pytest.raises(InputError, match="the net_foo driver is not modelled"):
        ethdev.vdev_ports(["net_foo0"])


# --- ethdev's shared rules ----------------------------------------------------------------------------


def test_a_descriptor_count_outside_the_limits_is_refused():
    port = ethdev.vdev_ports(["net_virtio_user0,path=/tmp/s"])[0]
    with pytest.raises(InputError, match=r"nb_rx_desc\(=16\), should be: <= 32768, >= 32"):
        ethdev.configure(port, q(rxd=16), plat())
    with pytest.raises(InputError, match=r"nb_tx_desc\(=40000\), should be: <= 32768"):
        ethdev.configure(port, q(txd=40000), plat())


# --- virtio (virtio_user's queues; virtio PCI's too) --------------------------------------------------


@pytest.mark.parametrize(
    "size,packed,zone",
    [
        (256, False, 12288),
        (512, False, 20480),
        (1024, False, 32768),
        (2048, False, 61440),
        (256, True, 12288),
        (1000, True, 20480),
    ],
)
def test_the_vring_memzone_is_the_ring_rounded_to_4096(size, packed, zone):
    # vring_size (virtio_ring.h:132-150): descriptors 16 B, avail 4 + 2n aligned to 4096, used 4 + 8n
    split = (-(-(16 * size + 4 + 2 * size) // 4096) * 4096) + 4 + 8 * size
    packed_size = (-(-(16 * size + 4) // 4096) * 4096) + 4
    assert virtio.vring_size(size, packed) == (packed_size if packed else split)
    assert virtio.ring_zone_len(size, packed) == zone


@pytest.mark.parametrize("release,vq", [("21.11", 256), ("22.11", 248), ("23.11", 248), ("24.11", 256), ("26.07", 256)])
def test_virtio_user_queues_are_made_at_probe_sized_by_queue_size(release, vq):
    port = ethdev.vdev_ports(["net_virtio_user0,path=/tmp/s,queues=2,queue_size=512"])[0]
    parts = virtio_user.probe(port, plat(release))
    assert [(z.name, z.len) for z in parts.zones] == [
        ("port0_vq0", 20480),
        ("port0_vq1", 20480),
        ("port0_vq1_hdr", 512 * 144),
        ("port0_vq2", 20480),
        ("port0_vq3", 20480),
        ("port0_vq3_hdr", 512 * 144),
        ("port0_vq4", 20480),
        ("port0_vq4_hdr", 4096),  # the control queue (cq defaults to 1 with queues > 1)
    ]
    structs = [a.size for a in parts.allocations if a.name.startswith("port0_vq")]
    assert structs == [-(-(vq + 512 * 16) // 64) * 64] * 5  # struct virtqueue + a vq_desc_extra per entry
    sw = [a.size for a in parts.allocations if a.name == "sw_ring"]
    if release in ("21.11", "22.11"):
        assert sw == [(64 + 512) * 8, 128] * 2  # RX_MAX_BURST + size pointers, a fake mbuf, per Rx queue
    else:  # the vectorized datapath's only (virtio_rxq_sw_ring_alloc): the 24.11.6 runs
        assert sw == []
        vec = ethdev.vdev_ports(["net_virtio_user0,path=/tmp/s,queues=2,queue_size=512,vectorized=1"])[0]
        assert [a.size for a in virtio_user.probe(vec, plat(release)).allocations if a.name == "sw_ring"] == [
            (64 + 512) * 8,
            128,
        ] * 2
    dev = parts.allocations[0]
    assert dev.size == virtio_user.VIRTIO_USER_DEV[release]
    metadata = [a for a in parts.allocations if a.name == "virtio_user_dev"]
    if release in ("21.11", "22.11"):
        assert not metadata  # the vrings were arrays in struct virtio_user_dev
    else:  # virtio_user_alloc_vrings: 5 vrings' callfds, kickfds, struct vring, and 2 qp_enabled bools
        assert [a.size for a in metadata] == [20, 20, 5 * virtio_user.VRING_STRUCT[release], 2]


def test_virtio_user_nb_desc_changes_nothing_and_uses_at_most_the_ring():
    port = ethdev.vdev_ports(["net_virtio_user0,path=/tmp/s"])[0]
    a, _ = ethdev.configure(port, q(rxd=1024, txd=64), plat())
    b, _ = ethdev.configure(port, q(), plat())
    assert a.allocations == b.allocations and a.zones == b.zones == []
    assert drivers.get(port.driver).descriptors_used(port, 1024, "rx", plat()) == 256
    assert drivers.get(port.driver).descriptors_used(port, 64, "tx", plat()) == 64


def test_virtio_user_refusals_are_the_probes_own():
    one = ethdev.vdev_ports(["net_virtio_user0,path=/tmp/s,queues=2,cq=0"])[0]
    with pytest.raises(InputError, match="multi-q requires ctrl-q"):
        virtio_user.probe(one, plat())
    # from 23.11 more than one queue pair makes the control queue whatever cq= says (virtio_user_dev_init)
    assert [z.name for z in virtio_user.probe(one, plat("23.11")).zones][-2:] == ["port0_vq4", "port0_vq4_hdr"]
    nine = ethdev.vdev_ports(["net_virtio_user0,path=/tmp/s,queues=9"])[0]
    with pytest.raises(InputError, match="arg queues 9 exceeds the limit 8"):
        virtio_user.probe(nine, plat("22.11"))
    assert virtio_user.probe(nine, plat("23.11")).zones  # the check is gone at 23.11
    with pytest.raises(InputError, match="arg path is mandatory"):
        virtio_user.probe(ethdev.vdev_ports(["net_virtio_user0"])[0], plat())
    odd = ethdev.vdev_ports(["net_virtio_user0,path=/tmp/s,queue_size=300"])[0]
    with pytest.raises(InputError, match="not a power of 2"):
        virtio_user.probe(odd, plat())


def test_virtio_user_max_queues_is_its_queues():
    port = ethdev.vdev_ports(["net_virtio_user0,path=/tmp/s,queues=2"])[0]
    with pytest.raises(InputError, match="at most 2"):
        ethdev.configure(port, q(4, 4), plat())


# --- vhost ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("release", RELEASES)
def test_vhost_port_structures(release):
    port = ethdev.vdev_ports(["net_vhost0,iface=/tmp/vhost.sock,queues=2"])[0]
    p = plat(release)
    assert [a.size for a in vhost.probe(port, p).allocations] == [vhost.PMD_INTERNAL[release], 6, 16]
    conf, _ = ethdev.configure(port, q(2, 2), p)
    assert [a.size for a in conf.allocations] == [8192, 8192, 24, 4108] + [vhost.VHOST_QUEUE[release]] * 4


def test_vhost_peer_rings_are_sized_by_the_peers_ring_size():
    # per vring: a vring_used_elem (8 B) and a batch_copy_elem (32 B) per entry of the peer's ring
    a = vhost.peer(None, 2, 256, plat())  # type: ignore[arg-type]
    assert [x.size for x in a] == [6336, 384, 384, 256, 64, 2048, 8192, 2048, 8192]
    b = vhost.peer(None, 4, 1024, plat("24.11"))  # type: ignore[arg-type]
    assert b[0].size == 6464 and sum(x.size for x in b[-8:]) == 4 * (1024 * 8 + 1024 * 32)
    # the memory table: the peer's one region up to 25.11, room for VHOST_MEMORY_MAX_NREGIONS 8 from 26.07
    peers = {r: vhost.peer(None, 2, 256, plat(r)) for r in RELEASES}  # type: ignore[arg-type]
    tables = {r: [x.size for x in got if x.name == "vhost-mem-table"] for r, got in peers.items()}
    assert tables == {r: [8 + 56 * (8 if r == "26.07" else 1)] for r in RELEASES}


# --- memif ---------------------------------------------------------------------------------------------


def test_memif_region_is_outside_the_heap_and_rsize_bsize_change_nothing_on_it():
    small = ethdev.vdev_ports(["net_memif0,role=server"])[0]
    big = ethdev.vdev_ports(["net_memif0,role=server,rsize=12,bsize=4096"])[0]
    assert memif.probe(small, plat()).allocations == memif.probe(big, plat()).allocations
    # memif_region_init_shm: rings x (ring header 128 + 16 B a descriptor) + the buffers
    assert memif.region_bytes(big, q(2, 2)) == 4 * (128 + 16 * 4096) + 4096 * 4096 * 4
    assert "memfd" in memif.outside_heap(big, q(2, 2), plat())[0]


def test_memif_socket_hash_is_made_once_per_process():
    ports = ethdev.vdev_ports(["net_memif0,role=server,socket=/tmp/a", "net_memif1,role=server,socket=/tmp/b"])
    parts = ethdev.probe_ports(ports, plat())
    assert [z.name for z in parts.zones].count("RG_HT_memif-sh") == 1


@pytest.mark.parametrize("release", RELEASES)
def test_memif_server_and_client_structures(release):
    p = plat(release)
    server = ethdev.vdev_ports(["net_memif0,role=server"])[0]
    client = ethdev.vdev_ports(["net_memif0"])[0]
    sizes = [a.size for a in memif.probe(server, p).allocations]
    assert sizes[:4] == [6, memif.PMD_INTERNALS[release], 2056, 144] and sizes[-1] == 88
    assert len(sizes) == 4 + 6 + 1  # the listener's interrupt handle and its callback copy: 3 elements each
    assert len(memif.probe(client, p).allocations) == 5  # no listener; its control channel only when connected


# --- af_packet, af_xdp, pcap ---------------------------------------------------------------------------


@pytest.mark.parametrize("release", RELEASES)
def test_af_packet_frames_and_queues(release):
    port = ethdev.vdev_ports(["net_af_packet0,iface=veth0,qpairs=2,framecnt=1024"])[0]
    sizes = [a.size for a in af_packet.probe(port, plat(release)).allocations]
    name = [] if release == "21.11" else [len("veth0") + 1]
    assert sizes == [64, 2 * af_packet.PKT_RX_QUEUE[release], 2 * 64, *name] + [1024 * 16] * 4
    assert af_packet.ring_bytes(port) == 2 * 4096 * (2048 * 1024 // 4096)


def test_af_packet_release_differences():
    port = ethdev.vdev_ports(["net_af_packet0,iface=veth0,framesz=4096"])[0]
    assert af_packet.max_rx_pktlen(port, plat("25.11")) == 1518
    assert af_packet.max_rx_pktlen(port, plat("26.07")) == 4096 - 52 + 20
    fan = ethdev.vdev_ports(["net_af_packet0,iface=veth0,fanout_mode=cpu"])[0]
    with pytest.raises(InputError, match=r"from DPDK 25\.11"):
        af_packet.probe(fan, plat("24.11"))


@pytest.mark.parametrize("release", RELEASES)
def test_af_xdp_structures(release):
    port = ethdev.vdev_ports(["net_af_xdp0,iface=veth0,queue_count=2"])[0]
    sizes = [a.size for a in af_xdp.probe(port, plat(release)).allocations]
    private = [] if release == "21.11" else [4096]
    assert sizes == [af_xdp.PMD_INTERNALS[release], 2 * 224, 2 * 96, *private]
    assert drivers.get(port.driver).default_ring_size(port, plat(release)) == (2048, 2048)


def test_af_xdp_arguments_by_release():
    port = ethdev.vdev_ports(["net_af_xdp0,iface=veth0,use_cni=1"])[0]
    with pytest.raises(InputError, match=r"from DPDK 23\.11"):
        af_xdp.probe(port, plat("22.11"))


def _pcap_file(path, packets: int) -> None:
    with open(path, "wb") as fh:
        fh.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1))
        for i in range(packets):
            fh.write(struct.pack("<IIII", i, 0, 60, 60) + bytes(60))


def test_pcap_infinite_rx_ring_is_sized_by_the_files_packets(tmp_path):
    f = tmp_path / "in.pcap"
    _pcap_file(f, 20)
    assert pcap.pcap_packets(str(f)) == 20
    port = ethdev.vdev_ports([f"net_pcap0,rx_pcap={f},tx_pcap={tmp_path / 'o.pcap'},infinite_rx=1"])[0]
    parts = pcap.rx_queue_setup(port, 0, 512, q(), plat())
    # rte_ring_create(PCAP_RING0, rte_align64pow2(20 + 1) = 32): struct rte_ring + 32 pointers
    assert [(z.name, z.len) for z in parts.zones] == [("RG_PCAP_RING0", 384 + 32 * 8)]
    plain = ethdev.vdev_ports([f"net_pcap0,rx_pcap={f}"])[0]
    assert not pcap.rx_queue_setup(plain, 0, 512, q(), plat()).zones


def test_pcap_reserves_the_mbuf_dyn_zone_before_its_port_up_to_25_11():
    ports = ethdev.vdev_ports(["net_pcap0,iface=veth0"])
    assert [z.name for z in ethdev.probe_ports(ports, plat()).zones] == ["rte_mbuf_dyn", "rte_eth_dev_data"]
    assert [z.name for z in ethdev.probe_ports(ports, plat("25.11")).zones] == ["rte_mbuf_dyn", "rte_eth_dev_data"]
    # 26.07: the timestamp field is dev_configure's, with RTE_ETH_RX_OFFLOAD_TIMESTAMP only
    assert [z.name for z in ethdev.probe_ports(ports, plat("26.07")).zones] == ["rte_eth_dev_data"]


def test_pcap_tx_queue_bounce_buffer_of_snaplen_from_26_07():
    port = ethdev.vdev_ports(["net_pcap0,iface=veth0"])[0]
    assert [a.size for a in pcap.tx_queue_setup(port, 0, 512, q(), plat("26.07")).allocations] == [65535]
    assert not pcap.tx_queue_setup(port, 0, 512, q(), plat("25.11")).allocations
    short = ethdev.vdev_ports(["net_pcap0,iface=veth0,snaplen=1500"])[0]
    assert [a.size for a in pcap.tx_queue_setup(short, 0, 512, q(), plat("26.07")).allocations] == [1500]
    with pytest.raises(InputError, match=r"snaplen is a net_pcap argument from DPDK 26\.07"):
        pcap.probe(short, plat("25.11"))


# --- bonding -------------------------------------------------------------------------------------------


def test_bonding_mode4_pools_and_rings_per_member_by_release():
    ports = ethdev.vdev_ports(["net_null0", "net_null1", "net_bonding0,mode=4,slave=net_null0,slave=net_null1"])
    bond = ports[2]
    assert bond.member_ids == (0, 1)
    parts = bonding.start(bond, q(1, 1), plat("22.11"))
    assert [mp.name for mp in parts.mempools] == ["slave_port0_pool", "slave_port1_pool"]
    assert [z.name for z in parts.zones] == ["RG_slave_0_rx", "RG_slave_0_tx", "RG_slave_1_rx", "RG_slave_1_tx"]
    assert parts.mempools[0].count == 1 + 512  # BOND_MODE_8023AX_SLAVE_TX_PKTS + the bond's Tx descriptors
    members = ethdev.vdev_ports(["net_null0", "net_null1", "net_bonding0,mode=4,member=net_null0,member=net_null1"])
    named = bonding.start(members[2], q(1, 2, txd=1024), plat("23.11"))
    assert named.mempools[0].name == "member_port0_pool" and named.mempools[0].count == 1 + 2 * 1024
    assert not bonding.start(
        ethdev.vdev_ports(["net_null0", "net_bonding0,mode=1,slave=net_null0"])[1], q(), plat()
    ).zones


def test_bonding_with_the_other_releases_member_key_fails_to_probe():
    ports = ethdev.vdev_ports(["net_null0", "net_bonding0,mode=4,member=net_null0"])
    with pytest.raises(InputError, match=r"member= is not a net_bonding argument at DPDK 22.11 \(it takes slave=\)"):
        bonding.probe(ports[1], plat("22.11"))
    with pytest.raises(InputError, match="names no port probed before it"):
        ethdev.vdev_ports(["net_bonding0,mode=4,slave=net_null0", "net_null0"])


# --- naming a NIC --------------------------------------------------------------------------------------


@pytest.mark.parametrize("port", ["dpdk0", "dpdk0,n_rxq=4", "dpdk0,n_rxq=2,n_rxq_desc=1024"])
def test_ovs_dpdk_devargs_of_net_null_is_the_measured_port(port):
    """OVS's per-port figure was measured on net_null: naming that same driver with dpdk-devargs gives the same
    heap, element for element (OVS's own part is the measurement less the modelled net_null)."""
    from mpcalc.dpdk.apps import ovs

    plain = ovs.size([ovs.parse_port(port)], False, None, None, plat())
    named = ovs.size([ovs.parse_port(port + ",dpdk-devargs=net_null0")], False, None, None, plat())
    assert named.heap_bytes == plain.heap_bytes
    assert [z.name for z in named.zones] == [z.name for z in plain.zones]


def test_ovs_dpdk_devargs_of_a_pci_address_needs_its_driver():
    from mpcalc.dpdk.apps import ovs

    with pytest.raises(InputError, match=r"dpdk-devargs 0000:3b:00\.0: its driver is the target machine's"):
        ovs.size([ovs.parse_port("p0,dpdk-devargs=0000:3b:00.0")], False, None, None, plat())
    with pytest.raises(InputError, match="dpdk-devargs is for type=dpdk ports"):
        ovs.parse_port("v0,type=dpdkvhostuser,dpdk-devargs=net_null0")


def test_a_nic_named_by_address_gets_its_drivers_queue_memory():
    """The whole path a PCI driver module takes: -a ADDR bound by --nic (or --devbind) to a registered Pmd whose
    queue set-ups reserve rte_eth_dma_zone_reserve rings: testpmd's ports come first, in address order."""
    from mpcalc.dpdk import apps
    from mpcalc.dpdk.core.records import Allocation
    from mpcalc.dpdk.core.standalone import Parts
    from mpcalc.dpdk.drivers.pmd import dma_zone

    def ring(kind):
        def setup(port, queue_id, nb_desc, q, p):
            out = Parts()
            out.zones.append(dma_zone(port, f"{kind}_ring", queue_id, nb_desc * 16, p, f"{kind} ring"))
            out.allocations.append(Allocation("testnic sw ring", nb_desc * 8, f"{kind} sw ring"))
            return out

        return setup

    pmd = Pmd(
        name="net_testnic",
        source="test",
        bus="pci",
        pci_ids=((0x1234, 0xABCD),),  # an id no real driver claims (net_ice has the E810s)
        kernel_drivers=("testnic",),
        default_ring_size=lambda port, p: (1024, 1024),
        rx_desc_lim=lambda port, p: DescLim(4096, 64, 32),
        rx_queue_setup=ring("rx"),
        tx_queue_setup=ring("tx"),
    )
    drivers.register(pmd)
    try:
        argv = ["dpdk-testpmd", "-l", "0-1", "-a", "3b:00.1", "-a", "3b:00.0", "--vdev", "net_null0", "--"]
        r = apps.size([*argv, "-i", "--rxq=2", "--txq=2"], plat(), nics=["3b:00.0=testnic", "3b:00.1=1234:abcd"])
        zones = {z.name: z.len for z in r.memzones}
        assert zones["eth_p0_q1_rx_ring"] == 1024 * 16 and zones["eth_p1_q0_tx_ring"] == 1024 * 16
        ports = r.details["ports"]
        assert [(pt["port_id"], pt["name"], pt["driver"]) for pt in ports] == [
            (0, "0000:3b:00.0", "net_testnic"),
            (1, "0000:3b:00.1", "net_testnic"),
            (2, "net_null0", "net_null"),
        ]
        assert any("from the driver's source, not run" in n for n in r.details["notes"])
        with pytest.raises(InputError, match=r"nb_rx_desc\(=100\), should be: <= 4096, >= 64, and a product of 32"):
            apps.size([*argv, "-i", "--rxd=100"], plat(), nics=["3b:00.0=testnic", "3b:00.1=testnic"])
    finally:
        drivers.unregister(pmd)
