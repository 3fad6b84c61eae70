"""mpcalc's PCI driver models held to the real runs: testpmd in a QEMU guest on QEMU's emulated NICs (e1000,
e1000-82545em, e1000e, vmxnet3, virtio-net-pci: 1, 2 and 4 queue pairs, a 1024 Rx queue, packed and legacy),
captured in tests/conformance/drivers/qemu/<nic>-<case>/ (Debian's 22.11.11) and in its v24.11.6/, v25.11.2/ and
v26.07/ (DPDK 24.11.6, 25.11.2 and 26.07, each built from its tag), each replayed at its own release.

Each capture keeps the testpmd command line (COMMAND), the QEMU device options (QEMU), the device's properties
the model takes (DEVICE.json: what the guest showed, e.g. the queue pairs), testpmd's output with ``dump_memzone``
(its per-segment lines removed) and the telemetry answers. Every driver memzone (``eth_p*``, ``port*_vq*``) is held
by name, length and order; every refusal by its text; the probed driver by the PCI id tables; from 23.11 the
virtio Rx software rings (``rte_zmalloc`` s, not memzones) by the heap's element count.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest

from mpcalc.dpdk.core.heap import heap_cost, memzone_len
from mpcalc.dpdk.core.platform import Platform
from mpcalc.dpdk.drivers import pci

HERE = Path(__file__).resolve().parent / "conformance" / "drivers" / "qemu"
#: each recorded release and the folder of its runs
RUNS = {"22.11": HERE, "24.11": HERE / "v24.11.6", "25.11": HERE / "v25.11.2", "26.07": HERE / "v26.07"}
LATER = [rel for rel in RUNS if rel != "22.11"]
CASES = [(rel, p.name) for rel, d in RUNS.items() for p in sorted(d.iterdir()) if (p / "COMMAND").exists()]
ONE_PORT = [(rel, c) for rel, c in CASES if not c.startswith("two-ports")]
ZONE = re.compile(r"^Zone \d+: name:<([^>]+)>, len:(0x[0-9a-f]+),")
# 22.11 logs the probe under EAL; 24.11 under PCI_BUS at INFO, below the bus's NOTICE default, hence the
# later captures' --log-level=bus.pci:info (PCI_LOG, v24.11.6:drivers/bus/pci/pci_common.c:292, 953)
PROBE = re.compile(r"(?:EAL|PCI_BUS): Probe PCI driver: (\S+) \(([0-9a-f]{4}):([0-9a-f]{4})\) device: (\S+)")
DRIVER_ZONE = re.compile(r"^(eth_p\d+_|port\d+_vq\d+)")
SLACK = 192  # MALLOC_ELEM_OVERHEAD (128) + MIN_DATA_SIZE (64) on x86_64
#: the later releases' runs with ``vectorized=1`` on -a, each with the run of the same device without it
VECTORIZED = {
    "virtio-vectorized-default": "virtio-default",
    "virtio-packed-vectorized-default": "virtio-packed-default",
}


def test_the_captures_are_there():
    assert len([c for rel, c in CASES if rel == "22.11"]) >= 20


@pytest.mark.parametrize("release", LATER)
def test_every_22_11_run_is_recorded_at_the_later_release(release):
    first = {c for rel, c in CASES if rel == "22.11"}
    assert first <= {c for rel, c in CASES if rel == release}
    assert {v for pair in VECTORIZED.items() for v in pair} <= {c for rel, c in CASES if rel == release}


def _arg(cmd: str, name: str) -> int:
    m = re.search(rf"--{name}=(\d+)", cmd)
    return int(m.group(1)) if m else 0


def _devargs(cmd: str, addr: str) -> dict[str, int]:
    """The ``-a ADDR,key=value`` devargs of the command line for ``addr``."""
    m = re.search(rf"-a {re.escape(addr)},(\S+)", cmd)
    return {k: int(v) for k, _, v in (kv.partition("=") for kv in m.group(1).split(","))} if m else {}


def _run(release: str, case: str) -> tuple[str, str, dict, list[tuple[str, ...]]]:
    d = RUNS[release] / case
    cmd = (d / "COMMAND").read_text().strip()
    out = (d / "testpmd.txt").read_text()
    devices = json.loads((d / "DEVICE.json").read_text())
    probed = [m.groups() for m in map(PROBE.search, out.splitlines()) if m]
    assert probed, "no PCI driver probed"
    return cmd, out, devices, probed


def _port_memories(release: str, case: str) -> list[pci.PortMemory]:
    cmd, _, devices, probed = _run(release, case)
    rxq, txq = _arg(cmd, "rxq") or 1, _arg(cmd, "txq") or 1
    # ports are numbered in the PCI bus's probe order
    return [
        pci.port_memory(
            name, release, port, rxq, txq, _arg(cmd, "rxd"), _arg(cmd, "txd"), devices[addr] | _devargs(cmd, addr)
        )
        for port, (name, _, _, addr) in enumerate(probed)
    ]


@pytest.mark.parametrize("case", CASES, ids=[f"{r}-{c}" for r, c in CASES])
def test_driver_memzones_match_the_guest(case):
    release, name = case
    _, out, _, probed = _run(release, name)
    for pmd, vendor, device, _ in probed:
        assert pci.pmd_for_id(int(vendor, 16), int(device, 16), release) == pmd  # the id tables agree with EAL
    p = Platform(dpdk=release)
    want: list[tuple[str, int]] = []
    reasons: list[str] = []
    for m in _port_memories(release, name):
        want += [(z.name, memzone_len(z.size, p)) for z in m.zones if DRIVER_ZONE.match(z.name)]
        reasons += [e.reason for e in m.errors]
    got = [(n, int(ln, 16)) for n, ln in (mm.groups() for mm in map(ZONE.match, out.splitlines()) if mm)]
    assert [z for z in got if DRIVER_ZONE.match(z[0])] == want
    for r in reasons:
        assert r in out
    if not reasons:
        assert "Fail to configure" not in out


@pytest.mark.parametrize("case", ONE_PORT, ids=[f"{r}-{c}" for r, c in ONE_PORT])
def test_the_queue_counts_telemetry_reports(case):
    release, name = case
    d = RUNS[release] / name
    tele = [json.loads(line) for line in (d / "telemetry.txt").read_text().splitlines() if line.startswith("{")]
    info = next(t["/ethdev/info"] for t in tele if "/ethdev/info" in t)
    cmd = (d / "COMMAND").read_text()
    assert info["nb_rx_queues"] == (_arg(cmd, "rxq") or 1) and info["nb_tx_queues"] == (_arg(cmd, "txq") or 1)


def _heap(release: str, case: str) -> tuple[int, int]:
    """The heap's busy elements and bytes at testpmd's prompt, less the mbuf pool's chunk headers: one
    MEMPOOL_MEMHDR per IOVA-contiguous chunk (rte_mempool_populate_virt), as many as the guest's hugepages were
    physically scattered, which differs from run to run (``dump_mempool``'s nb_mem_chunks)."""
    d = RUNS[release] / case
    tele = [json.loads(line) for line in (d / "telemetry.txt").read_text().splitlines() if line.startswith("{")]
    heap = next(t["/eal/heap_info"] for t in tele if "/eal/heap_info" in t)
    chunks = [int(n) for n in re.findall(r"^  nb_mem_chunks=(\d+)$", (d / "testpmd.txt").read_text(), re.M)]
    assert len(chunks) == 1  # testpmd's one mbuf pool
    p = Platform(dpdk=release)
    return heap["Alloc_count"] - chunks[0], heap["Alloc_size"] - chunks[0] * heap_cost(p.release.memhdr_size, p)


@pytest.mark.parametrize("release", LATER)
@pytest.mark.parametrize("case", sorted(VECTORIZED))
def test_the_virtio_rx_software_rings_come_with_vectorized_only(release, case):
    # from 23.11 virtio_rxq_sw_ring_alloc returns at once unless hw->use_vec_rx, set at probe from the
    # vectorized devarg (v24.11.6:drivers/net/virtio/virtqueue.c:387-388, virtio_ethdev.c:1974-1976): each Rx
    # virtqueue of the device gets its sw_ring and fake mbuf with vectorized=1 even where configure then leaves
    # the vectorized path (mergeable buffers; packed without AVX512), and none without it
    base = VECTORIZED[case]
    (vec,), (plain,) = _port_memories(release, case), _port_memories(release, base)
    more = Counter((a.name, a.size) for a in vec.allocs) - Counter((a.name, a.size) for a in plain.allocs)
    assert not Counter((a.name, a.size) for a in plain.allocs) - Counter((a.name, a.size) for a in vec.allocs)
    assert {n for n, _ in more} == {"sw_ring"}
    (count, size), (count0, size0) = _heap(release, case), _heap(release, base)
    p = Platform(dpdk=release)
    assert count - count0 == sum(more.values())
    # the bytes: each run's vring memzones, aligned to 4096, may each leave up to MALLOC_ELEM_OVERHEAD +
    # MIN_DATA_SIZE of their free block in an element (malloc_elem_alloc,
    # v24.11.6:lib/eal/common/malloc_elem.c), which the smaller allocations around them fill as they come
    vrings = sum(1 for z in vec.zones if "vring" in z.role)
    assert abs(size - size0 - sum(heap_cost(s, p) * k for (_, s), k in more.items())) <= SLACK * vrings


@pytest.mark.parametrize("case", CASES, ids=[f"{r}-{c}" for r, c in CASES])
def test_the_registered_pmds_give_the_same_memzones_through_ethdev(case):
    # the Pmd declarations (pcipmd.declare) driven by ethdev's own composition (drivers/ethdev.py): the same
    # memzones by name, length and order (testpmd sets up each port's Tx queues before its Rx queues:
    # start_port, v22.11.11:app/test-pmd/testpmd.c:3092, 3132; QueueConf.tx_first)
    from mpcalc.dpdk.core.errors import InputError
    from mpcalc.dpdk.drivers import ethdev, naming
    from mpcalc.dpdk.drivers.pmd import QueueConf

    release, name = case
    cmd, out, devices, probed = _run(release, name)
    # the command line's own -a (with its devargs: vectorized=1), each NIC named as a user does:
    # --nic ADDR=VENDOR:DEVICE,PROP=VALUE... (the device's own properties)
    allowed = [addr + "".join(f",{k}={v}" for k, v in _devargs(cmd, addr).items()) for *_, addr in probed]
    nics = [
        f"{addr}={v}:{dv}" + "".join(f",{k}={int(w)}" for k, w in sorted(devices[addr].items()))
        for _, v, dv, addr in probed
    ]
    bindings = naming.bindings_of(nics, None)
    p = Platform(dpdk=release)
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
