"""A PCI NIC's real devargs on ``-a`` (OVS's dpdk-devargs, VPP's ``dev ... { devargs ... }``), held to what its
driver does with them at the release (mpcalc/dpdk/drivers/pci_devargs.py, held to DPDK's source by
tests/conformance/test_pci_devargs.py): a key the driver reads is noted, its memory not modelled; a key it does not
know is refused in its own words where its probe fails on it, and noted as ignored where it does not.

Every text and line below is the driver's at that tag (the ``tag:path:line`` each assertion quotes).
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from mpcalc.dpdk.core.errors import InputError
from mpcalc.dpdk.core.platform import Platform
from mpcalc.dpdk.drivers import get, naming, pci, pci_devargs
from mpcalc.dpdk.drivers.pcibase import RELEASES

ADDR = "0000:3b:00.0"
MPCALC = shutil.which("mpcalc") or str(Path(__file__).resolve().parents[1] / ".venv" / "bin" / "mpcalc")


def notes(driver: str, release: str, devargs: str) -> list[str]:
    """The notes of one port ``-a ADDR,devargs`` bound to ``driver`` at ``release`` (refusals raise)."""
    pmd = get(driver)
    p = Platform(dpdk=release)
    [port] = naming.pci_ports([f"{ADDR},{devargs}"], {ADDR: naming.Nic(pmd)}, p)
    return naming.driver_devargs(pmd, ADDR, port.pairs, p)


def refusal(driver: str, release: str, devargs: str) -> str:
    with pytest.raises(InputError) as e:
        notes(driver, release, devargs)
    return str(e.value)


def test_every_pci_driver_has_its_parsing_at_every_release():
    assert sorted(pci_devargs.KEYS) == sorted(pci.PMDS)
    for name in pci.PMDS:
        assert sorted(pci_devargs.KEYS_AT[name]) == sorted(RELEASES)
        hook = get(name).parsing
        assert hook is not None
        assert all(hook(Platform(dpdk=rel)) == pci_devargs.parsing(name, rel) for rel in RELEASES)
        assert hook(None) == pci_devargs.parsing(name, RELEASES[-1])  # no platform: the newest release


# --- Intel: ice and iavf refuse a key they do not know, and their probe fails -------------------------------


def test_ice_reads_proto_xtr_and_refuses_a_key_it_does_not_know():
    assert notes("net_ice", "24.11", "proto_xtr=vlan,safe-mode-support=1") == [
        "devarg proto_xtr=vlan: read by net_ice, its memory not modelled",
        "devarg safe-mode-support=1: read by net_ice, its memory not modelled",
    ]
    # ice_parse_devargs: rte_kvargs_parse(devargs->args, ice_valid_args) fails (v24.11.6:...:2292-2296), and
    # ice_dev_init with it (:2556-2560); EAL: v24.11.6:drivers/bus/pci/pci_common.c:411
    text = refusal("net_ice", "24.11", "proto_xtr=vlan,mprq_en=1")
    assert text.startswith(
        f"-a {ADDR}: net_ice at 24.11 does not know devarg 'mprq_en' (not among the keys it reads, "
        "v24.11.6:drivers/net/ice/ice_ethdev.c:50): it logs 'Invalid kvargs key' "
        "(v24.11.6:drivers/net/ice/ice_ethdev.c:2294) and its probe fails (v24.11.6:drivers/net/ice/ice_ethdev.c:2558)"
    )
    assert text.endswith(
        f"EAL: 'Requested device {ADDR} cannot be used' (v24.11.6:drivers/bus/pci/pci_common.c:411): the device is "
        "not a port"
    )


def test_the_release_decides_iavf_knows_quanta_size_from_22_11():
    # iavf_valid_args: proto_xtr alone at v21.11.9:drivers/net/iavf/iavf_ethdev.c:38-41, quanta_size from 22.11
    text = refusal("net_iavf", "21.11", "quanta_size=4096")
    assert "net_iavf at 21.11 does not know devarg 'quanta_size' (not among the keys it reads" in text
    assert "it logs 'invalid kvargs key' (v21.11.9:drivers/net/iavf/iavf_ethdev.c:2173)" in text
    assert notes("net_iavf", "22.11", "quanta_size=4096") == [
        "devarg quanta_size=4096: read by net_iavf, its memory not modelled"
    ]


def test_iavf_with_cap_dcf_leaves_the_device_to_ice_dcf():
    # eth_iavf_pci_probe: if (iavf_dcf_cap_selected(...)) return 1 (v26.07:drivers/net/intel/iavf/iavf_ethdev.c:3623)
    assert refusal("net_iavf", "26.07", "cap=dcf") == (
        f"-a {ADDR}: cap=dcf: net_iavf's probe leaves the device to another driver "
        "(v26.07:drivers/net/intel/iavf/iavf_ethdev.c:3623), which is not modelled"
    )


# --- Intel: i40e and ixgbe drop every devarg when one is not theirs ------------------------------------------


def test_i40e_reads_its_keys_and_representor_through_ethdev():
    assert notes("net_i40e", "24.11", "queue-num-per-vf=8") == [
        "devarg queue-num-per-vf=8: read by net_i40e, its memory not modelled"
    ]
    # representor is ethdev's (rte_eth_devargs_parse, v24.11.6:drivers/net/i40e/i40e_ethdev.c:665), not in
    # valid_keys (:414-421): i40e's own rte_kvargs_parse fails and it reads none of its keys
    assert notes("net_i40e", "24.11", "queue-num-per-vf=8,representor=[0-1]") == [
        "devarg queue-num-per-vf=8: ignored by net_i40e: with representor in its devargs its rte_kvargs_parse fails",
        "devarg representor=[0-1]: read by net_i40e, its memory not modelled",
    ]


def test_an_unknown_key_makes_ixgbe_ignore_all_its_devargs_and_probe_on():
    # ixgbe_parse_devargs: kvlist == NULL -> return (v24.11.6:drivers/net/ixgbe/ixgbe_ethdev.c:1065-1067)
    assert notes("net_ixgbe", "24.11", "fiber_sdp3_no_tx_disable=1,foo=1") == [
        "devarg fiber_sdp3_no_tx_disable=1: ignored by net_ixgbe: with foo in its devargs its rte_kvargs_parse fails",
        "devarg foo=1: ignored by net_ixgbe, and its other devargs: its rte_kvargs_parse fails",
    ]
    assert notes("net_ixgbe_vf", "24.11", "pflink_fullchk=1") == [
        "devarg pflink_fullchk=1: read by net_ixgbe_vf, its memory not modelled"
    ]


def test_the_models_own_properties_are_not_the_drivers_devargs():
    # max_queues is the model's (ixgbe.PROPS): neither noted nor held to ixgbe_valid_arguments
    assert notes("net_ixgbe", "24.11", "max_queues=4,fiber_sdp3_no_tx_disable=1") == [
        "devarg fiber_sdp3_no_tx_disable=1: read by net_ixgbe, its memory not modelled"
    ]
    assert notes("net_ice", "24.11", "max_queues=4") == []


# --- drivers that parse no devargs: e1000, igb, igc, vmxnet3 ---------------------------------------------------


@pytest.mark.parametrize("driver", ["net_e1000_em", "net_e1000_igb", "net_e1000_igb_vf", "net_igc", "net_vmxnet3"])
def test_a_driver_that_parses_no_devargs_ignores_them(driver):
    assert notes(driver, "24.11", "foo=1") == [f"devarg foo=1: ignored by {driver} (it parses no devargs)"]


# --- virtio, ena, bnxt, mlx5 -----------------------------------------------------------------------------------


def test_virtio_reads_speed_passes_over_others_and_leaves_a_vdpa_device():
    # virtio_dev_devargs_parse / virtio_pci_devargs_parse: rte_kvargs_parse(devargs->args, NULL), then their keys
    assert notes("net_virtio", "24.11", "speed=10000,foo=1,max_queue_pairs=4") == [
        "devarg speed=10000: read by net_virtio, its memory not modelled",
        "devarg foo=1: ignored by net_virtio (it reads only speed, vdpa, vectorized)",
    ]
    assert "vdpa=1: net_virtio's probe leaves the device to another driver" in refusal("net_virtio", "24.11", "vdpa=1")


def test_ena_refuses_a_key_of_another_release_quoting_its_devargs():
    assert notes("net_ena", "24.11", "llq_policy=1") == [
        "devarg llq_policy=1: read by net_ena, its memory not modelled"
    ]
    # ena_parse_devargs: PMD_INIT_LOG(ERR, "Invalid device arguments: %s\n", devargs->args) at 21.11
    text = refusal("net_ena", "21.11", "llq_policy=1")
    assert "it logs 'Invalid device arguments: llq_policy=1' (v21.11.9:drivers/net/ena/ena_ethdev.c:3115)" in text
    assert "its probe fails (v21.11.9:drivers/net/ena/ena_ethdev.c:1870)" in text


def test_bnxt_refuses_a_key_it_does_not_know_without_a_word_of_its_own():
    # bnxt_parse_dev_args: kvlist == NULL -> return -EINVAL, no log (v24.11.6:drivers/net/bnxt/bnxt_ethdev.c:6402-6404)
    text = refusal("net_bnxt", "24.11", "flow-xstat=1,foo=1")
    assert "net_bnxt at 24.11 does not know devarg 'foo'" in text
    assert "its devargs parse fails (v24.11.6:drivers/net/bnxt/bnxt_ethdev.c:6404) and its probe fails" in text


def test_mlx5_refuses_an_unknown_key_from_22_11_and_only_warns_at_21_11():
    assert notes("mlx5_pci", "24.11", "mprq_en=1,rx_vec_en=0,txq_inline_max=128,dv_flow_en=2") == [
        "devarg mprq_en=1: read by mlx5_pci, its memory not modelled",
        "devarg dv_flow_en=2: read by mlx5_pci, its memory not modelled",
    ]  # rx_vec_en and txq_inline_max are the model's too (mlx5.PROPS: the DevX rings' sizes)
    # mlx5_kvargs_validate (v24.11.6:drivers/common/mlx5/mlx5_common.c:234), from mlx5_common_dev_probe (:1036)
    assert (
        "it logs 'Key \"foo\" is unknown for the provided classes.' (v24.11.6:drivers/common/mlx5/mlx5_common.c:234)"
        in (refusal("mlx5_pci", "24.11", "foo=1"))
    )
    # mlx5_args_check: DRV_LOG(WARNING, "%s: unknown parameter, maybe it's for another class.") and returns 0
    assert notes("mlx5_pci", "21.11", "foo=1") == [
        "devarg foo=1: ignored by mlx5_pci, which logs 'foo: unknown parameter, maybe it's for another class.'"
    ]
    assert "class=crypto: mlx5_pci's probe leaves the device" in refusal("mlx5_pci", "24.11", "class=crypto")
    assert notes("mlx5_pci", "24.11", "class=eth") == ["devarg class=eth: read by mlx5_pci, its memory not modelled"]


# --- every report says it: testpmd, OVS, VPP ------------------------------------------------------------------


def test_testpmds_report_notes_each_devarg_the_driver_reads():
    from mpcalc.dpdk.apps import testpmd
    from mpcalc.dpdk.apps.eal import parse_eal

    e, rest = parse_eal(["dpdk-testpmd", "-l", "0-1", "-a", f"{ADDR},proto_xtr=vlan", "--", "-i"])
    e.pci_bindings = naming.bindings_of([f"{ADDR}=ice"], None)
    *_, said = testpmd.build(e, rest, Platform(dpdk="24.11"))
    assert f"port 0 ({ADDR}, net_ice): devarg proto_xtr=vlan: read by net_ice, its memory not modelled" in said


def test_ovs_dpdk_devargs_go_the_same_way():
    from mpcalc.dpdk.apps import ovs

    port = ovs.parse_port(f"p0,dpdk-devargs={ADDR},proto_xtr=vlan")
    r = ovs.size([port], False, None, None, Platform(dpdk="24.11"), nics=[f"{ADDR}=ice"])
    assert (
        f"port 0 ({ADDR}, net_ice): devarg proto_xtr=vlan: read by net_ice, its memory not modelled"
        in (r.details["notes"])
    )
    with pytest.raises(InputError, match=r"^dpdk-devargs 0000:3b:00\.0: net_ice at 24\.11 does not know devarg 'foo'"):
        ovs.size(
            [ovs.parse_port(f"p0,dpdk-devargs={ADDR},foo=1")],
            False,
            None,
            None,
            Platform(dpdk="24.11"),
            nics=[f"{ADDR}=ice"],
        )


def test_vpps_dev_devargs_go_the_same_way():
    from mpcalc.dpdk.apps import vpp

    text = f"cpu {{ main-core 0 }} dpdk {{ dev {ADDR} {{ devargs proto_xtr=vlan }} }}"
    r = vpp.size(["vpp", *text.split()], Platform(), release="26.06", nics=(f"{ADDR}=ice",))
    assert (
        f"port 0 ({ADDR}, net_ice): devarg proto_xtr=vlan: read by net_ice, its memory not modelled"
        in (r.details["notes"])
    )


# --- the installed command -------------------------------------------------------------------------------------


def test_the_installed_command_notes_a_read_devarg_and_refuses_an_unknown_one():
    argv = ["dpdk-testpmd", "-l", "0-1", "-a", f"{ADDR},proto_xtr=vlan", "--", "-i"]
    r = subprocess.run(
        [MPCALC, "app", "--dpdk", "24.11", "--nic", f"{ADDR}=ice", "--json", "--", *argv],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert r.returncode == 0, r.stderr
    said = json.loads(r.stdout)["results"][0]["details"]["notes"]
    assert f"port 0 ({ADDR}, net_ice): devarg proto_xtr=vlan: read by net_ice, its memory not modelled" in said
    argv[4] = f"{ADDR},proto_xtr=vlan,foo=1"
    r = subprocess.run(
        [MPCALC, "app", "--dpdk", "24.11", "--nic", f"{ADDR}=ice", "--", *argv],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert r.stderr.startswith(f"mpcalc: error: command: -a {ADDR}: net_ice at 24.11 does not know devarg 'foo'")
    assert "it logs 'Invalid kvargs key' (v24.11.6:drivers/net/ice/ice_ethdev.c:2294)" in r.stderr


# --- a device whose probe fails is no port: the application goes on without it --------------------------------


def test_a_device_whose_probe_fails_is_left_out_and_the_next_takes_its_port_id():
    """EAL says 'Requested device ... cannot be used' and goes on (pci_probe, rte_bus_probe): testpmd sizes the
    other port, now port 0; with no port left the device's refusal is testpmd's."""
    from mpcalc.dpdk.apps import testpmd
    from mpcalc.dpdk.apps.eal import parse_eal

    other = "0000:3b:00.1"
    e, rest = parse_eal(["dpdk-testpmd", "-l", "0-1", "-a", f"{ADDR},foo=1", "-a", other, "--", "-i"])
    e.pci_bindings = naming.bindings_of([f"{ADDR}=ice", f"{other}=ice"], None)
    parts, _, _, said = testpmd.build(e, rest, Platform(dpdk="24.11"))
    [line] = [n for n in said if "goes on without it" in n]
    assert line.startswith(f"-a {ADDR}: net_ice at 24.11 does not know devarg 'foo'")
    assert f"EAL: 'Requested device {ADDR} cannot be used'" in line
    assert any(f"port 0 ({other}, net_ice)" in n for n in said)
    assert not any("port 1 (" in n for n in said)
    assert "eth_p0_q0_rx_ring" in {z.name for z in parts.zones}
    assert not any(z.name.startswith("eth_p1_") for z in parts.zones)
    e, rest = parse_eal(["dpdk-testpmd", "-l", "0-1", "-a", f"{ADDR},foo=1", "--", "-i"])
    e.pci_bindings = naming.bindings_of([f"{ADDR}=ice"], None)
    with pytest.raises(InputError, match=r"^-a 0000:3b:00\.0: net_ice at 24\.11 does not know devarg 'foo'"):
        testpmd.build(e, rest, Platform(dpdk="24.11"))


def test_vpp_goes_on_without_the_device_even_when_none_is_left():
    from mpcalc.dpdk.apps import vpp

    text = f"cpu {{ main-core 0 }} dpdk {{ dev {ADDR} {{ devargs foo=1 }} }}"
    r = vpp.size(["vpp", *text.split()], Platform(), release="26.06", nics=(f"{ADDR}=ice",))
    assert any("does not know devarg 'foo'" in n and n.endswith("VPP goes on without it") for n in r.details["notes"])
    assert not any(z.name.startswith("eth_p0_") for z in r.zones)


def test_a_devarg_the_model_reads_is_still_the_drivers_at_the_release():
    """mlx5's txq_mem_algn exists from 25.11: before, the driver refuses it as any key it does not know, though the
    model reads it where it exists; a device property (max_wqe) is the model's at every release, and a devarg is no
    --nic property."""
    from mpcalc.dpdk.apps import testpmd
    from mpcalc.dpdk.apps.eal import parse_eal

    def build(devargs: str, dpdk: str, nic: str = f"{ADDR}=mlx5_pci"):
        e, rest = parse_eal(["dpdk-testpmd", "-l", "0-1", "-a", f"{ADDR},{devargs}", "--", "-i"])
        e.pci_bindings = naming.bindings_of([nic], None)
        return testpmd.build(e, rest, Platform(dpdk=dpdk))

    with pytest.raises(InputError, match=r"mlx5_pci at 24\.11 does not know devarg 'txq_mem_algn'"):
        build("txq_mem_algn=0", "24.11")
    *_, said = build("txq_mem_algn=0", "25.11")
    assert not any("txq_mem_algn" in n for n in said)
    build("max_wqe=8192", "22.11")
    with pytest.raises(InputError, match=r"'txq_mem_algn' is not a property of mlx5_pci \(its properties: "):
        build("txq_mem_algn=0", "25.11", nic=f"{ADDR}=mlx5_pci,txq_mem_algn=0")
