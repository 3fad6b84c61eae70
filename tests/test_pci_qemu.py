"""mpcalc's PCI driver models held to the real runs: Debian's 22.11.11 testpmd in a QEMU guest on QEMU's
emulated NICs (e1000, e1000-82545em, e1000e, vmxnet3, virtio-net-pci: 1, 2 and 4 queue pairs, a 1024 Rx queue,
packed and legacy), captured in tests/conformance/drivers/qemu/<nic>-<case>/.

Each capture keeps the testpmd command line (COMMAND), the QEMU device options (QEMU), the device's properties
the model takes (DEVICE.json: what the guest showed, e.g. the queue pairs), testpmd's output with ``dump_memzone``
(its per-segment lines removed) and the telemetry answers. Every driver memzone (``eth_p*``, ``port*_vq*``) is held
by name, length and order; every refusal by its text; the probed driver by the PCI id tables.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from mpcalc.dpdk.core.heap import memzone_len
from mpcalc.dpdk.core.platform import Platform
from mpcalc.dpdk.drivers import pci

HERE = Path(__file__).resolve().parent / "conformance" / "drivers" / "qemu"
CASES = sorted(p.name for p in HERE.iterdir() if (p / "COMMAND").exists())
ZONE = re.compile(r"^Zone \d+: name:<([^>]+)>, len:(0x[0-9a-f]+),")
PROBE = re.compile(r"EAL: Probe PCI driver: (\S+) \(([0-9a-f]{4}):([0-9a-f]{4})\) device: (\S+)")
DRIVER_ZONE = re.compile(r"^(eth_p\d+_|port\d+_vq\d+)")


def test_the_captures_are_there():
    assert len(CASES) >= 20


def _arg(cmd: str, name: str) -> int:
    m = re.search(rf"--{name}=(\d+)", cmd)
    return int(m.group(1)) if m else 0


@pytest.mark.parametrize("case", CASES)
def test_driver_memzones_match_the_guest(case):
    d = HERE / case
    cmd = (d / "COMMAND").read_text().strip()
    out = (d / "testpmd.txt").read_text()
    devices = json.loads((d / "DEVICE.json").read_text())
    probed = [m.groups() for m in map(PROBE.search, out.splitlines()) if m]
    assert probed, "no PCI driver probed"
    rxq, txq = _arg(cmd, "rxq") or 1, _arg(cmd, "txq") or 1
    want: list[tuple[str, int]] = []
    reasons: list[str] = []
    p = Platform()
    # ports are numbered in the PCI bus's probe order
    for port, (name, vendor, device, addr) in enumerate(probed):
        assert pci.pmd_for_id(int(vendor, 16), int(device, 16), "22.11") == name  # the id tables agree with EAL
        m = pci.port_memory(name, "22.11", port, rxq, txq, _arg(cmd, "rxd"), _arg(cmd, "txd"), devices[addr])
        want += [(z.name, memzone_len(z.size, p)) for z in m.zones if DRIVER_ZONE.match(z.name)]
        reasons += [e.reason for e in m.errors]
    got = [(n, int(ln, 16)) for n, ln in (mm.groups() for mm in map(ZONE.match, out.splitlines()) if mm)]
    assert [z for z in got if DRIVER_ZONE.match(z[0])] == want
    for r in reasons:
        assert r in out
    if not reasons:
        assert "Fail to configure" not in out


@pytest.mark.parametrize("case", [c for c in CASES if not c.startswith("two-ports")])
def test_the_queue_counts_telemetry_reports(case):
    d = HERE / case
    tele = [json.loads(line) for line in (d / "telemetry.txt").read_text().splitlines() if line.startswith("{")]
    info = next(t["/ethdev/info"] for t in tele if "/ethdev/info" in t)
    cmd = (d / "COMMAND").read_text()
    assert info["nb_rx_queues"] == (_arg(cmd, "rxq") or 1) and info["nb_tx_queues"] == (_arg(cmd, "txq") or 1)


@pytest.mark.parametrize("case", CASES)
def test_the_registered_pmds_give_the_same_memzones_through_ethdev(case):
    # the Pmd declarations (pcipmd.declare) driven by ethdev's own composition (drivers/ethdev.py): the same
    # memzones by name, length and order (testpmd sets up each port's Tx queues before its Rx queues:
    # start_port, v22.11.11:app/test-pmd/testpmd.c:3092, 3132; QueueConf.tx_first)
    from mpcalc.dpdk.core.errors import InputError
    from mpcalc.dpdk.drivers import ethdev, naming
    from mpcalc.dpdk.drivers.pmd import QueueConf

    d = HERE / case
    cmd = (d / "COMMAND").read_text().strip()
    out = (d / "testpmd.txt").read_text()
    devices = json.loads((d / "DEVICE.json").read_text())
    probed = [m.groups() for m in map(PROBE.search, out.splitlines()) if m]
    # the command line's own -a, each NIC named as a user does: --nic ADDR=VENDOR:DEVICE,PROP=VALUE...
    allowed = [addr for *_, addr in probed]
    nics = [
        f"{addr}={v}:{dv}" + "".join(f",{k}={int(w)}" for k, w in sorted(devices[addr].items()))
        for _, v, dv, addr in probed
    ]
    bindings = naming.bindings_of(nics, None)
    p = Platform()
    ports = naming.pci_ports(allowed, bindings, p)
    zones = list(ethdev.probe_ports(ports, p).zones)
    rxq, txq = _arg(cmd, "rxq") or 1, _arg(cmd, "txq") or 1
    q = QueueConf(rxq, txq, _arg(cmd, "rxd"), _arg(cmd, "txd"), lsc_interrupt=False, tx_first=True)
    refused = False
    for port in ports:
        try:
            parts, _ = ethdev.configure(port, q, p)
        except InputError as e:
            assert re.search(r"Invalid value for nb_\w+_desc\(=\d+\)", str(e))
            refused = True
            continue
        zones += parts.zones
    got = [(n, int(ln, 16)) for n, ln in (mm.groups() for mm in map(ZONE.match, out.splitlines()) if mm)]
    want = [(z.name, z.len) for z in zones if DRIVER_ZONE.match(z.name)]
    if refused:  # ethdev refuses before any queue; the capture has what testpmd set up before the failure
        want_names = {n for n, _ in want}
        assert want_names <= {n for n, _ in got}
    else:
        assert [z for z in got if DRIVER_ZONE.match(z[0])] == want
