"""The driver declaration (mpcalc/dpdk/drivers/pmd.py), its registry and ethdev's shared rules: net_null,
net_ring and net_tap moved onto it answer as before (tests/test_app*.py, the recorded runs)."""

from __future__ import annotations

import pytest

from mpcalc.dpdk import drivers
from mpcalc.dpdk.core.errors import InputError
from mpcalc.dpdk.core.platform import Platform
from mpcalc.dpdk.drivers import ethdev, naming
from mpcalc.dpdk.drivers.pmd import DEFAULT_DESC_LIM, DescLim, Pmd, Port, QueueConf, dma_zone, parse_devargs


def test_the_vdev_drivers_by_name_and_alias():
    for name in ("net_null", "net_ring", "net_tap"):
        assert drivers.get(name).name == name
        assert drivers.get(name).provenance == "run"
    assert drivers.get("eth_null").name == "net_null"
    assert drivers.names("vdev")[:3] == ["net_null", "net_ring", "net_tap"]


def test_an_unknown_driver_is_refused_by_name_listing_the_known():
    with pytest.raises(InputError, match=r"the net_foo driver is not modelled \(known: net_null, net_ring, net_tap"):
        drivers.get("net_foo")
    with pytest.raises(InputError, match="the net_foo driver is not modelled"):
        ethdev.vdev_ports(["net_foo0"])


def test_a_name_registered_twice_is_a_programming_error():
    with pytest.raises(ValueError, match="registered twice"):
        drivers.register(Pmd(name="net_null", source="x"))


def test_the_vdev_name_binds_by_prefix_and_alias():
    # vdev_probe_all_drivers: the driver whose name (or alias) prefixes the device name
    assert ethdev.vdev_driver("net_null0") == "net_null"
    assert ethdev.vdev_driver("eth_ring1") == "net_ring"
    assert ethdev.vdev_driver("net_memif0") == "net_memif" or drivers.find("net_memif") is None


def test_devargs_keep_every_pair_in_order():
    assert parse_devargs("net_bonding0,mode=4,slave=a,slave=b")[1] == (("mode", "4"), ("slave", "a"), ("slave", "b"))
    port = ethdev.vdev_ports(["net_null0,size=128,size=256"])[0]
    assert port.args == {"size": "256"} and len(port.pairs) == 2


def test_dma_zone_names_eth_p_q_ring_and_refuses_a_long_name():
    z = dma_zone(Port(3, "0000:3b:00.0", "x"), "rx_ring", 17, 1000, Platform(), "rx ring")
    assert (z.name, z.len) == ("eth_p3_q17_rx_ring", 1024)  # memzone_len: rounded to the cache line
    assert dma_zone(Port(0, "x", "x"), "tx_ring", 0, 24, Platform(), "r").len == 64
    with pytest.raises(InputError, match="ring name too long"):
        dma_zone(Port(3, "x", "x"), "a_ring_name_far_too_long", 1, 64, Platform(), "r")


def test_descriptor_limits_say_what_ethdev_says():
    # rte_eth_rx_queue_setup's own log line (v22.11.11:lib/ethdev/rte_ethdev.c:1974-1979)
    assert DescLim(32768, 32, 1).refusal(16, "rx") == (
        "Invalid value for nb_rx_desc(=16), should be: <= 32768, >= 32, and a product of 1"
    )
    assert DescLim(4096, 64, 32).refusal(100, "tx") is not None
    assert DescLim(4096, 64, 32).refusal(128, "tx") is None
    assert DEFAULT_DESC_LIM.refusal(65535, "rx") is None


def test_the_descriptor_count_is_the_applications_then_the_drivers_then_512():
    port = ethdev.vdev_ports(["net_tap0"])[0]
    assert ethdev.descriptors(port, QueueConf(1, 1, 0, 0, False), Platform()) == (512, 512)
    assert ethdev.descriptors(port, QueueConf(1, 1, 256, 1024, False), Platform()) == (256, 1024)


def test_ethdev_order_the_shared_zone_before_or_after_the_drivers_reservations():
    ring = ethdev.probe_ports(ethdev.vdev_ports(["net_ring0"]), Platform())
    assert [z.name for z in ring.zones][-1] == "rte_eth_dev_data"  # net_ring's rings come first
    null = ethdev.probe_ports(ethdev.vdev_ports(["net_null0", "net_null1"]), Platform())
    assert [z.name for z in null.zones] == ["rte_eth_dev_data"]  # once, for the first port


DEVBIND = """
Network devices using DPDK-compatible driver
============================================
0000:3b:00.0 'Test NIC abcd' numa_node=0 drv=vfio-pci unused=testnic
0000:3b:00.1 'Test NIC abcd' numa_node=0 drv=vfio-pci unused=testnic

Network devices using kernel driver
===================================
0000:18:00.0 'Ethernet Controller X710 for 10GbE SFP+ 1572' if=ens785f0 drv=i40e unused=vfio-pci *Active*

Other Network devices
=====================
<none>
"""


def test_pci_addresses_are_written_in_full():
    assert naming.pci_addr("3b:00.0") == "0000:3b:00.0"
    assert naming.pci_addr("0000:3B:00.1") == "0000:3b:00.1"
    with pytest.raises(InputError, match="is not a PCI address"):
        naming.pci_addr("3b:00")


def test_devbind_status_is_read_as_the_script_prints_it():
    entries = naming.parse_devbind(DEVBIND)
    assert [(e.addr, e.device_id, e.driver, e.modules, e.dpdk_bound) for e in entries] == [
        ("0000:3b:00.0", 0xABCD, "vfio-pci", ("testnic",), True),
        ("0000:3b:00.1", 0xABCD, "vfio-pci", ("testnic",), True),
        ("0000:18:00.0", 0x1572, "i40e", ("vfio-pci",), False),
    ]
    assert entries[0].numa_node == 0 and entries[2].numa_node is None


def test_a_nic_is_bound_by_driver_name_by_id_and_by_devbind(fake_nic):
    assert naming.binding("0000:3b:00.0=net_testnic") == ("0000:3b:00.0", fake_nic)
    assert naming.binding("3b:00.0=1234:abcd") == ("0000:3b:00.0", fake_nic)
    assert naming.binding("3b:00.0=testnic") == ("0000:3b:00.0", fake_nic)
    assert drivers.by_pci(0x1234, 0xABCD) is fake_nic
    # the X710 its kernel driver holds is net_i40e's (drv=i40e), the PCI driver models know it
    assert naming.devbind_bindings(DEVBIND) == {
        "0000:3b:00.0": naming.Nic(fake_nic),
        "0000:3b:00.1": naming.Nic(fake_nic),
        "0000:18:00.0": naming.Nic(drivers.get("net_i40e")),
    }
    assert naming.probed_by_devbind(DEVBIND) == ["0000:3b:00.0", "0000:3b:00.1"]
    binds = naming.bindings_of(["3b:00.0=testnic", "3b:00.1=1234:abcd"], None)
    ports = naming.pci_ports(["0000:3b:00.1,rxq=2", "3b:00.0"], binds, None)
    assert [(p.port_id, p.name, p.args) for p in ports] == [(0, "0000:3b:00.0", {}), (1, "0000:3b:00.1", {"rxq": "2"})]
    with pytest.raises(InputError, match="argument 'txq' is not modelled"):
        naming.pci_ports(["3b:00.0,txq=2"], binds, None)


def test_eal_ports_put_pci_first_in_address_order_then_the_vdevs(fake_nic):
    from mpcalc.dpdk.apps.eal import parse_eal

    e, _ = parse_eal(["dpdk-testpmd", "-a", "3b:00.1", "-a", "3b:00.0", "--vdev", "net_null0", "--", "-i"])
    e.pci_bindings = naming.bindings_of(None, DEVBIND)
    assert [(p.port_id, p.name, p.driver) for p in ethdev.eal_ports(e, None)] == [
        (0, "0000:3b:00.0", "net_testnic"),
        (1, "0000:3b:00.1", "net_testnic"),
        (2, "net_null0", "net_null"),
    ]
    bare, _ = parse_eal(["dpdk-testpmd", "--vdev", "net_null0", "--", "-i"])
    bare.devbind, bare.pci_bindings = DEVBIND, naming.bindings_of(None, DEVBIND)
    assert [p.name for p in ethdev.eal_ports(bare, None)] == ["0000:3b:00.0", "0000:3b:00.1", "net_null0"]


def test_an_unbound_or_unknown_nic_is_refused_saying_how_to_name_it(fake_nic):
    with pytest.raises(InputError, match=r"give --nic 0000:3b:00.0=DRIVER"):
        naming.pci_ports(["0000:3b:00.0"], {}, None)
    with pytest.raises(InputError, match=r"no modelled driver has PCI id 1234:5678"):
        naming.binding("3b:00.0=1234:5678")
    with pytest.raises(InputError, match=r"the net_nope driver is not modelled for a PCI device"):
        naming.binding("3b:00.0=net_nope")
    with pytest.raises(InputError, match="give ADDR=DRIVER"):
        naming.binding("3b:00.0")
