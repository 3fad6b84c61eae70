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
