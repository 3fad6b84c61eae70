"""The container and virtual PMDs (issue 31) against real runs of testpmd: Debian's 22.11.11, and the own
testpmd of v24.11.6, v25.11.2 and v26.07.

tests/conformance/drivers/ holds each 22.11 run, its v24.11.6/, v25.11.2/ and v26.07/ those of each later
release (their command lines first, README.md there says how the peers and the veth were set up):
``mpcalc app`` given the same command line at that release must name every memzone with its exact length
(none more, none fewer) and account for socket 0's heap to the element and the byte; a vring memzone
aligned to 4096 may leave up to MALLOC_ELEM_OVERHEAD + MIN_DATA_SIZE (192 B) of its free block in its
element (malloc_elem_alloc, v22.11.11:lib/eal/common/malloc_elem.c:413-470), which no model of the
addresses sees: the heap bytes are held within that.  The runs need nothing: these tests replay them; the
last ones re-run what this machine can (skipped without testpmd and hugepages).
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
from pathlib import Path

import pytest

from mpcalc.dpdk import apps, drivers
from mpcalc.dpdk.core.errors import InputError
from mpcalc.dpdk.core.platform import Platform
from mpcalc.dpdk.drivers import bonding, vhost

HERE = Path(__file__).resolve().parent / "drivers"
#: each recorded release and the folder of its runs
RUNS = {"22.11": HERE, "24.11": HERE / "v24.11.6", "25.11": HERE / "v25.11.2", "26.07": HERE / "v26.07"}
CAPTURES = [
    (rel, p.stem) for rel, d in RUNS.items() for p in sorted(d.glob("*.txt")) if not p.stem.startswith("refuse-")
]
SLACK = 192  # MALLOC_ELEM_OVERHEAD (128) + MIN_DATA_SIZE (64) on x86_64


def ids(cases) -> list[str]:
    return [f"{rel}/{ident}" for rel, ident, *_ in cases]


def recorded(ident: str, release: str = "22.11") -> tuple[list[str], dict[str, int], dict[str, object]]:
    """The command line (the pcap file at its place here), every memzone (name -> length) and the heap."""
    lines = (RUNS[release] / f"{ident}.txt").read_text().splitlines()
    argv = shlex.split(re.sub(r"[^=,\s]*/in\.pcap", str(HERE / "in.pcap"), lines[0][2:]))
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


def _bond_key_refused(release: str, ident: str) -> bool:
    """A bond given the other release's member key (22.11 ``member=``, 24.11 ``slave=``): it does not probe."""
    argv, _, _ = recorded(ident, release)
    wrong = "slave" if bonding.member_key(Platform(dpdk=release)) == "member" else "member"
    return any(a.startswith("--vdev=net_bonding") and f",{wrong}=" in a for a in argv)


BOND_REFUSED = [(rel, ident) for rel, ident in CAPTURES if ident.startswith("bond") and _bond_key_refused(rel, ident)]
CONNECTED = {"memif-client-q2"}  # a connected client: its connection state is more than the model


def _aligned_zones(model) -> int:
    return sum(1 for z in model.memzones if "vring" in z.role)


def _peer(ident: str, release: str) -> list:
    """What a connected peer adds to a vhost port (the runs' peers: vh-<q>-peer<ring size>)."""
    if "-peer" not in ident:
        return []
    q = int(ident.split("-")[1][1:])
    size = int(ident.rsplit("peer", 1)[1])
    return vhost.peer(None, 2 * q, size, Platform(dpdk=release))  # type: ignore[arg-type]


EXACT = [(rel, ident) for rel, ident in CAPTURES if (rel, ident) not in BOND_REFUSED and ident not in CONNECTED]


LATER = [rel for rel in RUNS if rel != "22.11"]  # the releases run on their own testpmd


def test_the_releases_recorded():
    """Every 22.11 run but the refusals is also recorded at each later release, and every run is replayed."""
    at = {rel: {ident for r, ident in CAPTURES if r == rel} for rel in RUNS}
    assert LATER == ["24.11", "25.11", "26.07"]
    for rel in LATER:
        assert at["22.11"] <= at[rel], (rel, at["22.11"] - at[rel])
    assert len(EXACT) + len(BOND_REFUSED) + len(CONNECTED) * len(RUNS) == len(CAPTURES)


@pytest.mark.parametrize("case", EXACT, ids=ids(EXACT))
def test_every_memzone_and_the_heap(case):
    from mpcalc.dpdk.core.heap import heap_cost

    release, ident = case
    p = Platform(dpdk=release)
    argv, zones, heap = recorded(ident, release)
    model = apps.size(argv, p)
    assert model.ok, model.errors
    assert {z.name: z.len for z in model.memzones} == zones, ident
    peer = _peer(ident, release)
    d = model.details
    count = d["allocation_count"] + d["memzone_count"] + len(peer)
    assert int(heap["Alloc_count"]) == count, ident
    mine = d["sockets"][0]["heap_bytes"] + sum(heap_cost(a.size, p) for a in peer)
    real = int(heap["Alloc_size"])
    assert mine <= real <= mine + SLACK * _aligned_zones(model), (ident, real - mine)
    if not _aligned_zones(model):
        assert real == mine, ident


@pytest.mark.parametrize("release", RUNS)
def test_memif_rsize_and_bsize_change_nothing_on_the_heap(release):
    a, b = recorded("memif-server", release), recorded("memif-server-rsize12", release)
    assert a[1] == b[1] and a[2]["Alloc_size"] == b[2]["Alloc_size"]
    p = Platform(dpdk=release)
    assert apps.size(a[0], p).heap_bytes == apps.size(b[0], p).heap_bytes


@pytest.mark.parametrize("release", RUNS)
def test_virtio_user_rings_follow_queue_size_not_rxd(release):
    argv, zones, _ = recorded("vu-q1-s1024-rxd256", release)
    assert zones["port0_vq0"] == 32768 and zones["port0_vq1_hdr"] == 1024 * 144
    assert "--rxd=256" in argv


@pytest.mark.parametrize("release", LATER)
def test_virtio_user_multi_queue_without_cq_is_refused_at_22_11_and_given_the_control_queue_from_23_11(release):
    """22.11's probe refuses queues=2,cq=0 (refuse-vu-multiq-nocq); 24.11's sets cq = 1 once there is more than
    one queue pair (v24.11.6:drivers/net/virtio/virtio_user/virtio_user_dev.c:776-777), and 25.11's: the real
    runs have the control queue port0_vq4 and its page."""
    assert "multi-q requires ctrl-q" in (HERE / "refuse-vu-multiq-nocq.txt").read_text()
    argv, zones, _ = recorded("vu-q2-cq0", release)
    assert any(a.endswith("queues=2,cq=0") for a in argv) and zones["port0_vq4_hdr"] == 4096
    with pytest.raises(InputError, match="multi-q requires ctrl-q"):
        apps.size(argv, Platform(dpdk="22.11"))
    assert {z.name for z in apps.size(argv, Platform(dpdk=release)).memzones} >= {"port0_vq4", "port0_vq4_hdr"}


@pytest.mark.parametrize("release", RUNS)
def test_a_connected_memif_client_adds_what_the_model_states_as_connection_state(release):
    """The client's connection (control channel, messages, regions table) is on the heap while connected: more
    than the unconnected model, never less, and its memzones the same."""
    argv, zones, heap = recorded("memif-client-q2", release)
    model = apps.size(argv, Platform(dpdk=release))
    assert {z.name: z.len for z in model.memzones} == zones
    assert int(heap["Alloc_size"]) > model.details["sockets"][0]["heap_bytes"]


@pytest.mark.parametrize("case", BOND_REFUSED, ids=ids(BOND_REFUSED))
def test_bonding_with_the_other_releases_key_is_refused_and_the_real_bond_is_absent(case):
    """22.11 takes slave=, 24.11 and 25.11 member=: given the other, the real bond does not probe and testpmd runs
    on the members alone (22.11: bond4-member; later: every slave= run)."""
    release, ident = case
    argv, zones, _ = recorded(ident, release)
    wrong = "member" if release == "22.11" else "slave"
    with pytest.raises(InputError, match=rf"{wrong}= is not a net_bonding argument at DPDK {release}"):
        apps.size(argv, Platform(dpdk=release))
    text = (RUNS[release] / f"{ident}.txt").read_text()
    assert '"/ethdev/list": [0, 1]' in text  # the two members only: the bond did not probe
    assert not any(n.startswith(("RG_slave", "RG_member")) for n in zones)


def test_every_bond_run_is_recorded_probing_at_some_release():
    probed = {ident for rel, ident in EXACT if ident.startswith("bond")}
    assert {ident for _, ident in BOND_REFUSED} <= probed and {"bond4-member", "bond4-null2"} <= probed


RX_DESC = "Invalid value for nb_rx_desc(=16), should be: <= 32768, >= 32, and a product of 1"
TX_DESC = "Invalid value for nb_tx_desc(=40000), should be: <= 32768, >= 32, and a product of 1"
REFUSALS = [
    ("22.11", "refuse-vu-queues9", "arg queues 9 exceeds the limit 8"),
    ("22.11", "refuse-vu-multiq-nocq", "multi-q requires ctrl-q"),
    *[
        (rel, ident, said)
        for rel in RUNS
        for ident, said in (
            ("refuse-afp-rxq", "Fail: input rxq (4) can't be greater than max_rx_queues (2) of port 0"),
            ("refuse-vu-rxd16", RX_DESC),
            ("refuse-vu-txd40000", TX_DESC),
        )
    ],
]


@pytest.mark.parametrize("case", REFUSALS, ids=ids(REFUSALS))
def test_the_drivers_refusals_are_the_programs_words(case):
    release, ident, said = case
    text = (RUNS[release] / f"{ident}.txt").read_text()
    assert said in text
    argv = shlex.split(text.splitlines()[0][2:])
    i = argv.index("--file-prefix")
    del argv[i : i + 2]
    with pytest.raises(InputError) as exc:
        apps.size(argv, Platform(dpdk=release))
    assert said in str(exc.value)


@pytest.mark.parametrize("release", LATER)
def test_later_releases_accept_more_than_8_virtio_user_queue_pairs(release):
    """22.11 refuses queues=9 at probe (refuse-vu-queues9); 24.11 and 25.11 ran it (vu-q9: 19 virtqueues)."""
    _, zones, _ = recorded("vu-q9", release)
    assert {f"port0_vq{i}" for i in range(19)} <= set(zones) and "port0_vq18_hdr" in zones


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


PORTED = [c for c in CAPTURES if c not in BOND_REFUSED]


@pytest.mark.parametrize("case", PORTED, ids=ids(PORTED))
def test_the_ports_are_the_programs_by_id_name_and_queues(case):
    """telemetry's /ethdev/info of every port: its id, device name and queue counts, as the model numbers them."""
    release, ident = case
    argv, _, _ = recorded(ident, release)
    model = apps.size(argv, Platform(dpdk=release))
    real = [
        json.loads(line)["/ethdev/info"]
        for line in (RUNS[release] / f"{ident}.txt").read_text().splitlines()
        if line.startswith('{"/ethdev/info"')
    ]
    assert [(e["port_id"], e["name"]) for e in real] == [(pt["port_id"], pt["name"]) for pt in model.details["ports"]]
    t = model.details["testpmd"]
    for e in real:
        if e["dev_configured"]:
            assert (e["nb_rx_queues"], e["nb_tx_queues"]) == (t["rxq"], t["txq"]), (ident, e["name"])
