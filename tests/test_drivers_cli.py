"""The drivers through the installed ``mpcalc`` (a subprocess, as a user runs it): ``mpcalc app`` and
``mpcalc ovs`` with container ports, a NIC named by its address, ``mpcalc inspect`` naming a driver's
memzones; every ``--json`` document validated against what ``mpcalc schema`` prints."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from tests.test_newuser import mpcalc

CAPTURES = Path(__file__).resolve().parent / "conformance" / "drivers"
VU = "net_virtio_user0,path=/run/vu.sock,queues=2,queue_size=1024"
TESTPMD = ["dpdk-testpmd", "-l", "0-1", "--no-pci", "--vdev", VU, "--vdev", "net_memif0,role=server", "--"]


@pytest.fixture(scope="module")
def validator() -> Draft202012Validator:
    run = mpcalc("schema")
    assert run.code == 0, run.err
    return Draft202012Validator(json.loads(run.out))


def _valid(validator: Draft202012Validator, doc: dict) -> None:
    errors = sorted(validator.iter_errors(doc), key=str)
    assert not errors, [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in errors]


def test_app_with_container_ports(validator):
    run = mpcalc("app", "--json", "--", *TESTPMD, "-i", "--rxq=2", "--txq=2", "--rxd=2048")
    assert run.code == 0, run.err
    doc = json.loads(run.out)
    _valid(validator, doc)
    result = doc["results"][0]
    zones = {z["name"]: z["len"] for z in result["memzones"]}
    assert zones["port0_vq0"] == 32768 and zones["port0_vq1_hdr"] == 1024 * 144 and zones["port0_vq4_hdr"] == 4096
    assert "RG_HT_memif-sh" in zones
    notes = "\n".join(result["details"]["notes"])
    assert "2048 rx descriptors asked, the driver uses 1024" in notes
    assert "memfd_create" in notes  # memif's region: outside the heap, said so
    assert doc["input"]["nic"] is None and doc["input"]["devbind"] is None


def test_an_unknown_driver_is_refused_by_name(validator):
    run = mpcalc("app", "--", "dpdk-testpmd", "-l", "0-1", "--vdev", "net_failsafe0", "--", "-i")
    assert run.code != 0 and not run.out
    assert "net_failsafe driver is not modelled (known: net_null, net_ring, net_tap, net_virtio_user" in run.err
    assert len(run.err.strip().splitlines()) == 1 and "Traceback" not in run.err


def test_a_pci_address_asks_for_its_driver(tmp_path):
    run = mpcalc("app", "--", "dpdk-testpmd", "-l", "0-1", "-a", "0000:3b:00.0", "--", "-i")
    assert run.code != 0 and "give --nic 0000:3b:00.0=DRIVER" in run.err
    bad = mpcalc(
        "app", "--nic", "0000:3b:00.0=net_nope", "--", "dpdk-testpmd", "-l", "0-1", "-a", "3b:00.0", "--", "-i"
    )
    assert bad.code != 0 and "the net_nope driver is not modelled for a PCI device" in bad.err
    unknown = mpcalc(
        "app", "--nic", "3b:00.0=abcd:0001", "--", "dpdk-testpmd", "-l", "0-1", "-a", "3b:00.0", "--", "-i"
    )
    assert unknown.code != 0 and "no modelled driver has PCI id abcd:0001" in unknown.err
    status = tmp_path / "devbind.txt"
    status.write_text(
        "Network devices using DPDK-compatible driver\n============================================\n"
        "0000:3b:00.0 'Some NIC abcd' drv=vfio-pci unused=nosuchmod\n"
    )
    devbind = mpcalc("app", "--devbind", str(status), "--", "dpdk-testpmd", "-l", "0-1", "--", "-i")
    assert devbind.code != 0 and "give --nic 0000:3b:00.0=DRIVER" in devbind.err


def test_ovs_with_a_dpdk_devargs_port(validator):
    run = mpcalc("ovs", "--json", "--port", "dpdk0", "--port", f"vu0,n_rxq=2,dpdk-devargs={VU}")
    assert run.code == 0, run.err
    doc = json.loads(run.out)
    _valid(validator, doc)
    result = doc["results"][0]
    zones = {z["name"]: z["len"] for z in result["memzones"]}
    assert zones["port1_vq0"] == 32768  # OVS's second port: the device's vrings at its queue_size
    assert result["details"]["ports"]["vu0"]["dpdk_devargs"] == VU
    plain = json.loads(mpcalc("ovs", "--json", "--port", "dpdk0", "--port", "vu0,n_rxq=2").out)["results"][0]
    assert not any(z["name"].startswith("port1_vq") for z in plain["memzones"])


def test_inspect_names_the_drivers_memzones():
    text = (CAPTURES / "vu-q2-s256.txt").read_text()
    argv = shlex.split(text.splitlines()[0][2:])
    i = argv.index("--file-prefix")
    del argv[i : i + 2]
    run = mpcalc("inspect", str(CAPTURES / "vu-q2-s256.txt"), "--json", "--", *argv)
    assert run.code in (0, 1), run.err
    doc = json.loads(run.out)

    def rows(o):
        if isinstance(o, dict):
            if "rows" in o and isinstance(o["rows"], list):
                yield from o["rows"]
            for v in o.values():
                yield from rows(v)
        elif isinstance(o, list):
            for v in o:
                yield from rows(v)

    owners = {r["name"]: r["owner"] for r in rows(doc) if isinstance(r, dict) and "owner" in r}
    assert owners["port0_vq4_hdr"] == "driver net_virtio_user"
    assert all(owners[f"port0_vq{i}"] == "driver net_virtio_user" for i in range(5))
