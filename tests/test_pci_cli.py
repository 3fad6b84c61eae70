"""The installed ``mpcalc`` on the QEMU guest's testpmd command lines: ``mpcalc app --nic ADDR=DRIVER --json --
<COMMAND>`` gives every memzone of the capture (testpmd's, the mempool's and the drivers') by name and length,
at each recorded release (``--dpdk``: Debian's 22.11.11, and the v24.11.6/, v25.11.2/ and v26.07/ runs of each tag's
own testpmd).

The command line is the run's own; the --nic binding uses the PCI id EAL printed (``ADDR=VENDOR:DEVICE``) or the
driver's name, then the device's properties (DEVICE.json: what the guest's NIC had, e.g. virtio's queue pairs),
which the driver reads from the device: ``--nic ADDR=DRIVER,PROP=VALUE``. The JSON is validated against
``mpcalc schema``.
"""

from __future__ import annotations

import json
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.test_pci_qemu import PROBE, RUNS, ZONE

MPCALC = shutil.which("mpcalc") or str(Path(__file__).resolve().parents[1] / ".venv" / "bin" / "mpcalc")
CASES = [
    (rel, p.name)
    for rel, d in RUNS.items()
    for p in sorted(d.iterdir())
    if (p / "COMMAND").exists() and "Fail to configure" not in (p / "testpmd.txt").read_text()
]


def run(args: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([MPCALC, *args], capture_output=True, text=True, timeout=120)


def _command(case: str, by_id: bool, release: str = "22.11", props_on_a: bool = False) -> tuple[list[str], list[str]]:
    """The --nic options and the run's command line; ``props_on_a``: the device's properties on its -a instead
    (the form mpcalc also reads)."""
    d = RUNS[release] / case
    argv = shlex.split((d / "COMMAND").read_text())
    out = (d / "testpmd.txt").read_text()
    devices = json.loads((d / "DEVICE.json").read_text())
    nics = []
    for name, vendor, device, addr in (m.groups() for m in map(PROBE.search, out.splitlines()) if m):
        props = "".join(f",{k}={int(v)}" for k, v in sorted(devices[addr].items()))
        nic = f"{addr}={vendor}:{device}" if by_id else f"{addr}={name}"
        if props_on_a:
            i = next(k for k, a in enumerate(argv) if a.split(",")[0] == addr)  # -a ADDR or -a ADDR,devargs
            argv[i] += props
        else:
            nic += props
        nics += ["--nic", nic]
    return nics, argv


def test_the_devices_properties_on_nic_or_on_a_are_one():
    for case in ("virtio-q4-rxd512-txd1024", "vmxnet3-q2-rxd512-txd512"):
        on_nic, on_a = (_command(case, by_id=False, props_on_a=a) for a in (False, True))
        assert on_nic[1] != on_a[1]
        docs = [json.loads(run(["app", *nics, "--json", "--", *argv]).stdout) for nics, argv in (on_nic, on_a)]
        assert docs[0]["results"][0]["memzones"] == docs[1]["results"][0]["memzones"]
        assert docs[0]["results"][0]["heap_bytes"] == docs[1]["results"][0]["heap_bytes"]


def test_a_property_the_driver_has_not_is_refused_listing_its_own():
    argv = ["dpdk-testpmd", "-l", "0-1", "-a", "0000:00:13.0", "--", "-i"]
    r = run(["app", "--nic", "0000:00:13.0=virtio,max_queues=4", "--", *argv])
    assert r.returncode != 0 and "Traceback" not in r.stderr
    assert "'max_queues' is not a property of net_virtio (its properties: ctrl_vq, max_queue_pairs," in r.stderr


def _zones(doc: dict) -> list[tuple[str, int]]:
    res = doc["results"][0]
    return sorted((z["name"], z["len"]) for z in res["memzones"] + [z for m in res["mempools"] for z in m["memzones"]])


def _want(release: str, name: str) -> list[tuple[str, int]]:
    text = (RUNS[release] / name / "testpmd.txt").read_text()
    return sorted((n, int(ln, 16)) for n, ln in (m.groups() for m in map(ZONE.match, text.splitlines()) if m))


@pytest.fixture(scope="module")
def batch_answers() -> dict[tuple[str, str], dict]:
    """Every case through one run of the installed ``mpcalc batch`` (an ``app`` line each: the same request as
    ``mpcalc app --dpdk REL --nic ... -- COMMAND``), in case order."""
    lines = []
    for release, name in CASES:
        nics, argv = _command(name, by_id=name.endswith("default"), release=release)
        lines.append(json.dumps({"command": "app", "command_line": argv, "nic": nics[1::2], "dpdk": release}))
    r = subprocess.run(
        [MPCALC, "batch", "-"], input="\n".join(lines) + "\n", capture_output=True, text=True, timeout=600
    )
    assert r.returncode == 0, r.stderr
    docs = [json.loads(line) for line in r.stdout.splitlines()]
    assert len(docs) == len(CASES)
    return dict(zip(CASES, docs, strict=True))


@pytest.mark.parametrize("case", CASES, ids=[f"{r}-{c}" for r, c in CASES])
def test_mpcalc_gives_every_memzone_of_the_guest_run(case, batch_answers):
    assert _zones(batch_answers[case]) == _want(*case)


@pytest.mark.parametrize("release", list(RUNS))
def test_mpcalc_app_on_the_command_line_gives_every_memzone(release):
    """``mpcalc app`` itself, its own option parsing, on one case a NIC of each release: e1000e's and vmxnet3's
    ports in one run."""
    name = "two-ports-e1000e-vmxnet3"
    nics, argv = _command(name, by_id=False, release=release)
    r = run(["app", "--dpdk", release, *nics, "--json", "--", *argv])
    assert r.returncode == 0, r.stderr
    assert _zones(json.loads(r.stdout)) == _want(release, name)


def test_the_json_is_the_schema_s():
    jsonschema = pytest.importorskip("jsonschema")
    nics, argv = _command("virtio-q4-rxd512-txd1024", by_id=True)
    doc = json.loads(run(["app", *nics, "--json", "--", *argv]).stdout)
    schema = json.loads(run(["schema"]).stdout)
    jsonschema.validate(doc, schema)


def test_a_refused_descriptor_count_is_the_driver_limits_text():
    nics, argv = _command("e1000-rxd100", by_id=False)
    r = run(["app", *nics, "--", *argv])
    assert r.returncode != 0 and "Traceback" not in r.stderr
    assert "Invalid value for nb_rx_desc(=100), should be: <= 4096, >= 32, and a product of 8" in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1


def test_the_report_says_which_figures_are_from_source_only():
    argv = ["dpdk-testpmd", "-l", "0-1", "-a", "0000:3b:00.0", "--", "-i"]
    r = run(["app", "--nic", "0000:3b:00.0=ice", "--json", "--", *argv])
    assert r.returncode == 0, r.stderr
    res = json.loads(r.stdout)["results"][0]
    zones = {z["name"]: z["len"] for z in res["memzones"]}
    # ICE_MAX_RING_DESC 4096 at 22.11: RTE_ALIGN((4096 + 32) * 32, 4096) Rx, 4096 * 16 Tx, whatever --rxd
    assert zones["eth_p0_q0_rx_ring"] == 135168 and zones["eth_p0_q0_tx_ring"] == 65536
    assert "port 0 (0000:3b:00.0, net_ice): from the driver's source, not run" in res["details"]["notes"]
    r = run(["app", "--nic", "0000:3b:00.0=8086:1592", "--dpdk", "26.07", "--json", "--", *argv])
    zones = {z["name"]: z["len"] for z in json.loads(r.stdout)["results"][0]["memzones"]}
    assert zones["eth_p0_q0_rx_ring"] == 262144 and zones["eth_p0_q0_ci_tx_ring"] == 131072


@pytest.mark.parametrize("value", ["abc", "-1", "99999999999999999999", "65536"])
def test_a_device_property_that_is_no_number_in_range_is_one_clear_line(value):
    argv = ["dpdk-testpmd", "-l", "0-1", "-a", "0000:00:13.0", "--", "-i"]
    for nic, a in ((f"0000:00:13.0=virtio,max_queue_pairs={value}", argv), ("0000:00:13.0=virtio", None)):
        cmd = a if a is not None else [*argv[:4], f"0000:00:13.0,max_queue_pairs={value}", *argv[5:]]
        r = run(["app", "--nic", nic, "--", *cmd])
        assert r.returncode == 2, r.stderr
        assert len(r.stderr.strip().splitlines()) == 1 and "Traceback" not in r.stderr
        assert f"max_queue_pairs={value!r}: a device property is a number from 0 to 65,535" in r.stderr
