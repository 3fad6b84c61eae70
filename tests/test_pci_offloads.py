"""The PCI drivers' offload capabilities (mpcalc/dpdk/drivers/pci_offloads.py, read from each dev_infos_get and held
to the mirror by tests/conformance/test_pci_offloads.py) and the offloads the applications hand the queue set-ups,
through the Pmd and through the installed ``mpcalc``."""

from __future__ import annotations

import json
import re

import pytest

from mpcalc.dpdk import drivers
from mpcalc.dpdk.core.platform import Platform
from mpcalc.dpdk.drivers import bnxt, pci, pci_offloads
from mpcalc.dpdk.drivers import pmd as b
from mpcalc.dpdk.drivers.pcibase import RELEASES
from mpcalc.dpdk.drivers.pmd import Port
from tests.test_pci_cli import run
from tests.test_pci_rings import _bnxt_rx_zone


def capa(name: str, rel: str, **dev: object) -> tuple[int, int]:
    return drivers.get(name).offload_capa(
        Port(0, "0000:3b:00.0", name, {k: str(v) for k, v in dev.items()}), Platform(dpdk=rel)
    )


# (pmd, the release before, the release of the change, Rx bits added, Tx bits added): what the tags' sources say
CHANGES = [
    ("net_e1000_igb", "23.11", "24.11", 0, b.TX_OFFLOAD_SEND_ON_TIMESTAMP),
    ("net_e1000_igb_vf", "23.11", "24.11", 0, b.TX_OFFLOAD_SEND_ON_TIMESTAMP),
    ("net_igc", "22.11", "23.11", b.RX_OFFLOAD_TIMESTAMP, b.TX_OFFLOAD_SEND_ON_TIMESTAMP),
    ("net_ice", "21.11", "22.11", b.RX_OFFLOAD_BUFFER_SPLIT, 0),
    ("net_ice", "24.11", "25.11", 0, b.TX_OFFLOAD_SEND_ON_TIMESTAMP),
    ("net_iavf", "21.11", "22.11", b.RX_OFFLOAD_TIMESTAMP, b.TX_OFFLOAD_OUTER_UDP_CKSUM),
    ("net_virtio", "24.11", "25.11", b.RX_OFFLOAD_RSS_HASH, 0),
    ("net_ena", "21.11", "22.11", 0, b.TX_OFFLOAD_MBUF_FAST_FREE),
    ("net_ena", "24.11", "25.11", b.RX_OFFLOAD_TIMESTAMP, 0),
    ("net_bnxt", "23.11", "24.11", b.RX_OFFLOAD_BUFFER_SPLIT, b.TX_OFFLOAD_UDP_TSO),
]


@pytest.mark.parametrize(("name", "before", "at", "rx", "tx"), CHANGES, ids=lambda v: str(v))
def test_the_capabilities_change_where_the_driver_did(name, before, at, rx, tx):
    (rx0, tx0), (rx1, tx1) = capa(name, before), capa(name, at)
    assert (rx1 & ~rx0, tx1 & ~tx0, rx0 & ~rx1, tx0 & ~tx1) == (rx, tx, 0, 0)


def test_the_families_that_did_not_change_and_what_they_offer():
    for name in ("net_e1000_em", "net_ixgbe", "net_ixgbe_vf", "net_i40e", "net_vmxnet3", "mlx5_pci"):
        assert capa(name, "21.11") == capa(name, "26.07"), name
    # em_get_rx_port_offloads_capa: VLAN strip/filter, the checksums, KEEP_CRC and SCATTER, no LRO
    em = b.RX_OFFLOAD_VLAN_STRIP | b.RX_OFFLOAD_VLAN_FILTER | b.RX_OFFLOAD_CHECKSUM | b.RX_OFFLOAD_KEEP_CRC
    assert capa("net_e1000_em", "22.11")[0] == em | b.RX_OFFLOAD_SCATTER == 0x1220F
    # ixgbe: LRO (RSC) on the 82599 PF, not its VF; MACsec and inline IPsec on the PF only
    pf, vf = capa("net_ixgbe", "22.11"), capa("net_ixgbe_vf", "22.11")
    assert pf[0] & b.RX_OFFLOAD_TCP_LRO and not vf[0] & b.RX_OFFLOAD_TCP_LRO
    assert pf[1] & ~vf[1] == b.TX_OFFLOAD_MACSEC_INSERT | b.TX_OFFLOAD_SECURITY
    assert (
        capa("mlx5_pci", "22.11")[0] & b.RX_OFFLOAD_TCP_LRO and capa("net_vmxnet3", "22.11")[0] & b.RX_OFFLOAD_TCP_LRO
    )


def test_ice_send_on_timestamp_is_the_e830s_from_26_07():
    # 25.11 gives it to every device out of safe mode, 26.07 to an E830 only (ice_dev_info_get)
    ts = b.TX_OFFLOAD_SEND_ON_TIMESTAMP
    assert capa("net_ice", "25.11")[1] & ts and not capa("net_ice", "26.07")[1] & ts
    assert capa("net_ice", "26.07", e830=1)[1] & ts


def test_every_pci_pmd_has_its_capabilities_at_every_release():
    assert set(pci_offloads.CAPA) == set(pci.PMDS)
    for name in pci.PMDS:
        for rel in RELEASES:
            rx, tx = capa(name, rel)
            assert rx & b.RX_OFFLOAD_CHECKSUM or rx & b.RX_OFFLOAD_TCP_CKSUM, (name, rel)
            assert tx & b.TX_OFFLOAD_MULTI_SEGS, (name, rel)  # every one sends chained mbufs


# --- the applications' offloads reach the queue set-ups, through the installed mpcalc


def _app(nic: str, *testpmd: str, dpdk: str = "22.11") -> dict:
    argv = ["dpdk-testpmd", "-l", "0-1", "-a", nic.split("=")[0], "--", "-i", "--rxd=1024", *testpmd]
    r = run(["app", "--nic", nic, "--dpdk", dpdk, "--json", "--", *argv])
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)["results"][0]


def test_bnxt_scatter_and_lro_from_testpmd_give_the_scattered_zone_and_the_tpa_area():
    zone = "bnxt_0000:3b:00.0-0000_rxr"
    lens = {
        o: {z["name"]: z["len"] for z in _app("0000:3b:00.0=bnxt", *o)["memzones"]}
        for o in [(), ("--enable-scatter",), ("--enable-lro",)]
    }
    tpa = bnxt.SIZES["22.11"]["bnxt_tpa_info"]
    assert lens[()][zone] == _bnxt_rx_zone(1024, False) == 61440
    assert lens[("--enable-scatter",)][zone] == _bnxt_rx_zone(1024, True) == 258624
    # TPA_MAX_AGGS (64) struct bnxt_tpa_info of 544 bytes (pahole) more: the TPA area of an LRO port
    assert lens[("--enable-lro",)][zone] == _bnxt_rx_zone(1024, True, 64 * tpa) == 258624 + 64 * 544


def test_e1000_refuses_lro_in_ethdevs_words_and_ice_takes_scatter():
    argv = ["dpdk-testpmd", "-l", "0-1", "-a", "0000:00:03.0", "--", "--enable-lro"]
    r = run(["app", "--nic", "0000:00:03.0=e1000", "--json", "--", *argv])
    assert r.returncode != 0
    assert re.search(
        r"Ethdev port_id=0 requested Rx offloads 0x10 doesn't match Rx offloads capabilities 0x1220f in "
        r"rte_eth_dev_configure\(\)",
        r.stderr + r.stdout,
    )
    res = _app("0000:3b:00.0=ice", "--enable-scatter")
    assert res["details"]["unconfigured_ports"] == []
    assert "eth_p0_q0_rx_ring" in {z["name"] for z in res["memzones"]}


# --- OVS and VPP hand their offloads to the queue set-ups too ---------------------------------------------------

BNXT_ADDR = "0000:3b:00.0"
BNXT_ZONE = f"bnxt_{BNXT_ADDR}-0000_rxr"


def _ovs_zone(mtu: int, *extra: str) -> tuple[int, list[str]]:
    port = f"p0,mtu_request={mtu},n_rxq_desc=1024,dpdk-devargs={BNXT_ADDR}"
    r = run(["ovs", "--port", port, "--nic", f"{BNXT_ADDR}=bnxt", "--json", *extra])
    assert r.returncode == 0, r.stderr
    res = json.loads(r.stdout)["results"][0]
    return {z["name"]: z["len"] for z in res["memzones"]}[BNXT_ZONE], res["details"]["notes"]


def test_ovs_asks_for_scatter_above_1500_and_bnxt_makes_its_aggregation_ring():
    """dpdk_eth_dev_port_config asks for scatter when the MTU is above RTE_ETHER_MTU: the jumbo port's pool has
    room for the whole frame (9,344 B), so only the offload makes bnxt scattered."""
    small, said = _ovs_zone(1500)
    assert small == _bnxt_rx_zone(1024, False)
    assert any("OVS asks for Rx offloads 0x1000e and Tx offloads 0x0" in n for n in said), said
    big, said = _ovs_zone(9000)
    assert big == _bnxt_rx_zone(1024, True)
    assert any("OVS asks for Rx offloads 0x1200e" in n for n in said), said
    # userspace TSO: DPDK_TX_TSO_OFFLOAD_FLAGS (TSO, TCP, UDP, IPv4 checksums) at 3.1, bnxt has them all
    _, said = _ovs_zone(1500, "--userspace-tso")
    assert any("Tx offloads 0x2e (dpdk_eth_dev_init" in n for n in said), said


def test_ovs_data_room_is_its_pools():
    """A jumbo OVS port's Rx queues get its pool's data room (dpdk_buf_size), not a 2,048 B one: without the
    scatter offload (a device that lacks it) the MTU alone would not make bnxt scattered."""
    from mpcalc.dpdk.apps import ovs
    from mpcalc.dpdk.drivers import bnxt as bx

    r31 = ovs.versions.RELEASES["3.1"]
    plan = ovs.plan([ovs.parse_port("p0,mtu_request=9000")], False, None, r31, Platform(), "mhash")
    [pp] = plan.ports
    assert pp.data_room == 9216 + 128  # ROUND_UP(9000 + 26, 1024) + RTE_PKTMBUF_HEADROOM
    conf = b.QueueConf(1, 2, 1024, 1024, False, rx_data_room=pp.data_room, mtu=9000)
    assert not bx.scattered("22.11", conf)


@pytest.mark.parametrize(
    ("version", "driver", "tso", "rx", "tx"),
    [
        # up to 3.1: no Tx offload without userspace TSO, then all four flags or none
        ("3.1", "net_ice", False, 0x1000E, 0),
        ("3.1", "net_ice", True, 0x1000E, 0x3E),
        ("3.1", "net_e1000_em", True, 0xE, 0),
        # a VF strips the CRC: no keep-CRC asked
        ("3.1", "net_iavf", False, 0xE, 0),
        # 3.2: each checksum the device has; TCP TSO with userspace TSO; net_tap loses its L4 checksums
        ("3.2", "net_ice", False, 0x1000E, 0x1E),
        ("3.2", "net_tap", False, 0, 0x2),
        # 3.3: the outer checksums, tunnel TSO (not GRE's before 3.5)
        ("3.3", "net_ice", True, 0x1000E, 0x1E | 0x20 | 0x80 | 0x100000 | 0x200 | 0x1000),
        ("3.5", "net_ice", True, 0x1000E, 0x1E | 0x20 | 0x80 | 0x100000 | 0x200 | 0x1000 | 0x400),
        # 3.7.1: net_tap keeps its checksums
        ("3.7", "net_tap", False, 0, 0xE),
    ],
)
def test_ovs_offloads_follow_the_release(version, driver, tso, rx, tx):
    from mpcalc.dpdk.apps.ovs.ovs_offloads import port_offloads
    from mpcalc.dpdk.apps.ovs.versions import RELEASES

    ice_rx, ice_tx = 0x1000E, 0x1E | 0x20 | 0x80 | 0x100000 | 0x200 | 0x1000 | 0x400
    caps = {
        "net_ice": (ice_rx, ice_tx),
        "net_iavf": (ice_rx, ice_tx),
        "net_e1000_em": (0xE, 0xE),
        "net_tap": (0, 0xE),
    }[driver]
    got = port_offloads(RELEASES[version], driver, *caps, 1500, tso)
    assert (got[0], got[1]) == (rx, tx)
    assert got[2].startswith("dpdk_eth_dev_init and dpdk_eth_dev_port_config, v")


def _vpp(dpdk: str, dev: str = "", release: str = "24.10") -> tuple[int, list[str]]:
    from mpcalc.dpdk.apps import vpp

    text = f"cpu {{ main-core 0 }} dpdk {{ {dpdk} dev {BNXT_ADDR} {{ num-rx-desc 1024 {dev} }} }}"
    r = vpp.size(["vpp", *text.split()], Platform(), release=release, nics=(f"{BNXT_ADDR}=bnxt",))
    return {z.name: z.len for z in r.zones}[BNXT_ZONE], r.details["notes"]


@pytest.mark.parametrize("release", ["24.10", "26.06"])
def test_vpp_asks_for_scatter_unless_no_multi_seg_and_lro_with_enable_lro(release):
    tpa = bnxt.SIZES["24.11"]["bnxt_tpa_info"]
    assert _vpp("", release=release)[0] == _bnxt_rx_zone(1024, True)
    assert _vpp("no-multi-seg", release=release)[0] == _bnxt_rx_zone(1024, False)
    assert _vpp("enable-lro", release=release)[0] == _bnxt_rx_zone(1024, True, 64 * tpa)


def test_vpp_tx_offloads_by_release_and_words():
    def asked(dpdk: str, dev: str = "", release: str = "24.10") -> str:
        notes = _vpp(dpdk, dev, release)[1]
        [said] = [n for n in notes if "VPP asks for" in n]
        return said.split(": VPP asks for ")[1].split(" (")[0]

    assert asked("") == "Rx offloads 0x2002 and Tx offloads 0x800e"
    # from v25.10 the outer checksums are in the default list; before, only after enable-tcp-udp-checksum
    assert asked("", release="25.10") == "Rx offloads 0x2002 and Tx offloads 0x808e"
    assert asked("enable-tcp-udp-checksum enable-outer-checksum-offload") == "Rx offloads 0x200e and Tx offloads 0x808e"
    assert asked("no-tx-checksum-offload no-multi-seg") == "Rx offloads 0x2 and Tx offloads 0x0"
    # tso on wants enable-tcp-udp-checksum (VPP's warning otherwise); dev default's tso is every dev's
    notes = _vpp("", "tso on")[1]
    assert "[0] TCP/UDP checksum offload must be enabled: VPP leaves TSO off" in " ".join(notes)
    assert asked("enable-tcp-udp-checksum", "tso on") == "Rx offloads 0x200e and Tx offloads 0x822e"
    assert asked("enable-tcp-udp-checksum dev default { tso on }") == "Rx offloads 0x200e and Tx offloads 0x822e"
    assert asked("enable-tcp-udp-checksum dev default { tso on }", "tso off") == (
        "Rx offloads 0x200e and Tx offloads 0x800e"
    )
    # v26.06: the fast mbuf free with no-multi-seg and enable-mbuf-fast-free (bnxt offers it)
    assert asked("no-multi-seg enable-mbuf-fast-free", release="26.06") == "Rx offloads 0x2 and Tx offloads 0x1008e"


def test_vpp_outer_checksum_word_is_only_enable_tcp_udp_checksums_second_word():
    from mpcalc.dpdk.core.errors import InputError

    with pytest.raises(InputError, match="unknown input `enable-outer-checksum-offload"):
        _vpp("enable-outer-checksum-offload")
