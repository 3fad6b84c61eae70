"""The container and virtual PMDs (issue 31) against real runs of Debian's 22.11.11 testpmd.

tests/conformance/drivers/ holds each run (its command line first, README.md there says how the peers and
the veth were set up): ``mpcalc app`` given the same command line must name every memzone with its exact
length (none more, none fewer) and account for socket 0's heap to the element and the byte; a vring
memzone aligned to 4096 may leave up to MALLOC_ELEM_OVERHEAD + MIN_DATA_SIZE (192 B) of its free block in
its element (malloc_elem_alloc, v22.11.11:lib/eal/common/malloc_elem.c:413-470), which no model of the
addresses sees: the heap bytes are held within that.  The runs need nothing: these tests replay them; the
last ones re-run what this machine can (skipped without testpmd and hugepages).
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
from pathlib import Path

import pytest

from mpcalc.dpdk import apps, drivers
from mpcalc.dpdk.core.errors import InputError
from mpcalc.dpdk.core.platform import Platform
from mpcalc.dpdk.drivers import vhost

HERE = Path(__file__).resolve().parent / "drivers"
CAPTURES = sorted(p.stem for p in HERE.glob("*.txt") if not p.stem.startswith("refuse-"))
SLACK = 192  # MALLOC_ELEM_OVERHEAD (128) + MIN_DATA_SIZE (64) on x86_64


def recorded(ident: str) -> tuple[list[str], dict[str, int], dict[str, object]]:
    """The command line (the pcap file at its place here), every memzone (name -> length) and the heap."""
    lines = (HERE / f"{ident}.txt").read_text().splitlines()
    argv = shlex.split(lines[0][2:].replace("/tmp/nic/in.pcap", str(HERE / "in.pcap")))
    i = argv.index("--file-prefix")
    del argv[i : i + 2]
    zones: dict[str, int] = {}
    heap: dict[str, object] = {}
    for line in lines:
        if line.startswith('{"/eal/memzone_info"'):
            z = json.loads(line)["/eal/memzone_info"]
            zones[z["Name"]] = int(z["Length"])
        elif line.startswith('{"/eal/heap_info"'):
            heap = json.loads(line)["/eal/heap_info"]
    return argv, zones, heap


def _aligned_zones(model) -> int:
    return sum(1 for z in model.memzones if "vring" in z.role)


def _peer(ident: str) -> list:
    """What a connected peer adds to a vhost port (the runs' peers: vh-<q>-peer<ring size>)."""
    if "-peer" not in ident:
        return []
    q = int(ident.split("-")[1][1:])
    size = int(ident.rsplit("peer", 1)[1])
    return vhost.peer(None, 2 * q, size, Platform())  # type: ignore[arg-type]


@pytest.mark.parametrize("ident", [c for c in CAPTURES if c not in ("bond4-member", "memif-client-q2")])
def test_every_memzone_and_the_heap(ident):
    from mpcalc.dpdk.core.heap import heap_cost

    argv, zones, heap = recorded(ident)
    model = apps.size(argv, Platform())
    assert model.ok, model.errors
    assert {z.name: z.len for z in model.memzones} == zones, ident
    peer = _peer(ident)
    d = model.details
    count = d["allocation_count"] + d["memzone_count"] + len(peer)
    assert int(heap["Alloc_count"]) == count, ident
    mine = d["sockets"][0]["heap_bytes"] + sum(heap_cost(a.size, Platform()) for a in peer)
    real = int(heap["Alloc_size"])
    assert mine <= real <= mine + SLACK * _aligned_zones(model), (ident, real - mine)
    if not _aligned_zones(model):
        assert real == mine, ident


def test_memif_rsize_and_bsize_change_nothing_on_the_heap():
    a, b = recorded("memif-server"), recorded("memif-server-rsize12")
    assert a[1] == b[1] and a[2]["Alloc_size"] == b[2]["Alloc_size"]
    assert apps.size(a[0], Platform()).heap_bytes == apps.size(b[0], Platform()).heap_bytes


def test_virtio_user_rings_follow_queue_size_not_rxd():
    argv, zones, _ = recorded("vu-q1-s1024-rxd256")
    assert zones["port0_vq0"] == 32768 and zones["port0_vq1_hdr"] == 1024 * 144
    assert "--rxd=256" in argv


def test_a_connected_memif_client_adds_what_the_model_states_as_connection_state():
    """The client's connection (control channel, messages, regions table) is on the heap while connected: more
    than the unconnected model, never less, and its memzones the same."""
    argv, zones, heap = recorded("memif-client-q2")
    model = apps.size(argv, Platform())
    assert {z.name: z.len for z in model.memzones} == zones
    assert int(heap["Alloc_size"]) > model.details["sockets"][0]["heap_bytes"]


def test_bonding_with_member_at_22_11_is_refused_and_the_real_bond_is_absent():
    argv, zones, _ = recorded("bond4-member")
    with pytest.raises(InputError, match=r"member= is not a net_bonding argument at DPDK 22.11"):
        apps.size(argv, Platform())
    text = (HERE / "bond4-member.txt").read_text()
    assert '"/ethdev/list": [0, 1]' in text  # the two members only: the bond did not probe
    assert not any(n.startswith("RG_slave") for n in zones)


@pytest.mark.parametrize(
    "ident,said",
    [
        ("refuse-vu-queues9", "arg queues 9 exceeds the limit 8"),
        ("refuse-vu-multiq-nocq", "multi-q requires ctrl-q"),
        ("refuse-afp-rxq", "Fail: input rxq (4) can't be greater than max_rx_queues (2) of port 0"),
        ("refuse-vu-rxd16", "Invalid value for nb_rx_desc(=16), should be: <= 32768, >= 32, and a product of 1"),
        ("refuse-vu-txd40000", "Invalid value for nb_tx_desc(=40000), should be: <= 32768, >= 32, and a product of 1"),
    ],
)
def test_the_drivers_refusals_are_the_programs_words(ident, said):
    text = (HERE / f"{ident}.txt").read_text()
    assert said in text
    argv = shlex.split(text.splitlines()[0][2:])
    i = argv.index("--file-prefix")
    del argv[i : i + 2]
    with pytest.raises(InputError) as exc:
        apps.size(argv, Platform())
    assert said in str(exc.value)


def test_the_recorded_drivers_are_the_ones_declared_as_run():
    run = {p.name for p in drivers.all_pmds() if p.provenance == "run"}
    assert {
        "net_virtio_user",
        "net_vhost",
        "net_memif",
        "net_af_packet",
        "net_af_xdp",
        "net_pcap",
        "net_bonding",
    } <= run


# --- live re-runs (skipped without the program) ----------------------------------------------------------

NOHUGE = ["-l", "0-1", "--no-huge", "-m", "1024", "--no-pci"]
MBUFS = ["-i", "--total-num-mbufs=4096"]
PCAP = f"net_pcap0,rx_pcap={HERE / 'in.pcap'},tx_pcap=/tmp/mpcalc_live_out.pcap,infinite_rx=1"
BOND = ["--vdev", "net_ring0", "--vdev", "net_ring1", "--vdev", "net_bonding0,mode=4,slave=net_ring0,slave=net_ring1"]
LIVE = [
    ("memif-server", [*NOHUGE, "--vdev", "net_memif0,role=server,socket=/tmp/mpcalc_memif_live.sock"], MBUFS),
    ("pcap-infinite", [*NOHUGE, "--vdev", PCAP], MBUFS),
    ("bond4-ring2-q2", [*NOHUGE, *BOND], [*MBUFS, "--rxq=2", "--txq=2"]),
]


@pytest.mark.skipif(shutil.which("dpdk-testpmd") is None, reason="Debian's dpdk package (dpdk-testpmd) is absent")
@pytest.mark.parametrize("case", LIVE, ids=[c[0] for c in LIVE])
def test_live_rerun_matches_the_model(case):
    from .apps.runner import run_app

    ident, eal, app = case
    real = run_app("testpmd", eal, app, f"mpcalc_drv_{os.getpid()}")
    model = apps.size(["dpdk-testpmd", *eal, "--", *app], Platform())
    assert {n: ln for n, (ln, _) in real.zones.items()} == {z.name: z.len for z in model.memzones}, ident
    d = model.details
    assert int(real.heap["Alloc_size"]) == d["sockets"][0]["heap_bytes"], ident
    assert int(real.heap["Alloc_count"]) == d["allocation_count"] + d["memzone_count"], ident


@pytest.mark.parametrize("ident", [c for c in CAPTURES if c != "bond4-member"])
def test_the_ports_are_the_programs_by_id_name_and_queues(ident):
    """telemetry's /ethdev/info of every port: its id, device name and queue counts, as the model numbers them."""
    argv, _, _ = recorded(ident)
    model = apps.size(argv, Platform())
    real = [
        json.loads(line)["/ethdev/info"]
        for line in (HERE / f"{ident}.txt").read_text().splitlines()
        if line.startswith('{"/ethdev/info"')
    ]
    assert [(e["port_id"], e["name"]) for e in real] == [(pt["port_id"], pt["name"]) for pt in model.details["ports"]]
    t = model.details["testpmd"]
    for e in real:
        if e["dev_configured"]:
            assert (e["nb_rx_queues"], e["nb_tx_queues"]) == (t["rxq"], t["txq"]), (ident, e["name"])
