"""``mpcalc app`` against a live SPDK target (issue 29): run the real spdk_tgt/nvmf_tgt under --no-huge, read
its ``env_dpdk_get_mem_stats`` dump, hold mpcalc to it by memzone name and length, mempool and heap.

Skips unless ``SPDK_BUILD`` names an SPDK build folder (its ``build/bin`` and ``scripts/rpc.py``; the recorded
runs are tests/conformance/spdk/, held by tests/test_spdk_dumps.py in every run); ``SPDK_RELEASE`` names its
release (a measured profile: v24.09 by default).  SPDK v24.09 refuses Debian's
DPDK 22.11.11 by its version string (tests/conformance/spdk/README.md): the run preloads the one-function
library of that README, compiled here, when ``SPDK_DPDK_VERSION_SHIM`` is set.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from mpcalc.dpdk import apps
from mpcalc.dpdk.core.platform import Platform
from tests import spdk_dump as sd

BUILD = Path(os.environ.get("SPDK_BUILD", "/nonexistent"))
RELEASE = os.environ.get("SPDK_RELEASE")
pytestmark = pytest.mark.skipif(
    not (BUILD / "build" / "bin" / "spdk_tgt").exists() or os.geteuid() != 0,
    reason="no SPDK build (SPDK_BUILD) or not root",
)


def _shim(tmp: Path) -> str | None:
    if not os.environ.get("SPDK_DPDK_VERSION_SHIM"):
        return None
    src = tmp / "dpdkver.c"
    src.write_text('const char *rte_version(void) { return "DPDK 22.11.4"; }\n')
    out = tmp / "dpdkver.so"
    subprocess.run([shutil.which("cc") or "cc", "-shared", "-fPIC", "-o", str(out), str(src)], check=True)
    return str(out)


@pytest.mark.parametrize(
    "argv", [["spdk_tgt", "--no-huge", "-s", "1024", "-u"], ["nvmf_tgt", "-m", "0x3", "--no-huge", "-s", "512"]]
)
def test_live_target_against_mpcalc(tmp_path, argv):
    sock = str(tmp_path / "rpc.sock")
    env = dict(os.environ, LD_LIBRARY_PATH=str(BUILD / "build" / "lib"))
    shim = _shim(tmp_path)
    if shim:
        env["LD_PRELOAD"] = shim
    log = (tmp_path / "stdout.txt").open("w")
    proc = subprocess.Popen(
        [str(BUILD / "build" / "bin" / argv[0]), *argv[1:], "-r", sock], stdout=log, stderr=log, env=env
    )
    rpc = [str(BUILD / "scripts" / "rpc.py"), "-s", sock]
    try:
        for _ in range(120):
            if proc.poll() is not None:
                pytest.fail((tmp_path / "stdout.txt").read_text())
            if subprocess.run([*rpc, "-t", "2", "framework_wait_init"], capture_output=True).returncode == 0:
                break
            time.sleep(0.5)
        subprocess.run([*rpc, "env_dpdk_get_mem_stats"], check=True, capture_output=True)
        dump = Path("/tmp/spdk_mem_dump.txt").read_text()
    finally:
        subprocess.run([*rpc, "spdk_kill_instance", "SIGTERM"], capture_output=True)
        proc.wait(timeout=60)
    case = tmp_path / "case"
    case.mkdir()
    (case / "mem_dump.txt").write_text(dump)
    (case / "stdout.txt").write_text((tmp_path / "stdout.txt").read_text())
    d = sd.read(str(case))
    r = apps.size(argv, Platform(), spdk_release=RELEASE)
    mine = {z.name: z.len for mp in r.mempools for z in mp.memzones} | {z.name: z.len for z in r.zones}
    assert mine == {k: v for k, v in d.memzones.items() if k != "rte_eth_dev_data"}
    eth = d.memzones.get("rte_eth_dev_data")
    assert r.heap_bytes == sum(ln - pad for _, ln, pad in d.busy) - (eth + 128 if eth else 0)
