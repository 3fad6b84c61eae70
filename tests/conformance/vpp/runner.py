"""Run an installed VPP with one startup.conf and capture what it maps: its CLI output, the hugepage counters,
its hugetlb mappings (/proc/<pid>/smaps) and, with the allocspy shim (tests/conformance/apps/allocspy.c, built
by tests/conformance/apps/runner.py's recipe), DPDK's memzones.  Used by tests/conformance/test_vpp_real.py's
live re-run (``MPCALC_VPP=/path/to/vpp``) and to record the cases of this folder.

The configuration runs VPP on loopback only: ``unix { nodaemon cli-listen <dir>/cli.sock }``, its own API
segment prefix, socket and DPDK file prefix.  VPP may raise ``nr_hugepages`` itself when fewer pages are free
than it needs (clib_sysfs_prealloc_hugepages); the counters before and after say so.
"""

from __future__ import annotations

import json
import os
import pathlib
import re
import signal
import subprocess
import time

COMMANDS = (
    "show version",
    "show buffers",
    "show physmem",
    "show physmem detail",
    "show memory main-heap",
    "show dpdk physmem",
    "show dpdk buffer",
    "show threads",
    "show hardware-interfaces",
    "show interface rx-placement",
)


def harness(run_dir: str, plugins: str | None) -> str:
    """The sections that keep VPP to loopback and its own files."""
    out = (
        f"unix {{ nodaemon nosyslog cli-listen {run_dir}/cli.sock runtime-dir {run_dir}/run log {run_dir}/vpp.log }}\n"
        "api-segment { prefix vpp-mpcalc }\n"
        f"socksvr {{ socket-name {run_dir}/api.sock }}\n"
    )
    return out + (f"plugins {{ path {plugins} }}\n" if plugins else "")


def hugepage_counters() -> dict[str, dict[str, int]]:
    out = {}
    for d in sorted(pathlib.Path("/sys/kernel/mm/hugepages").iterdir()):
        out[d.name] = {k: int((d / k).read_text()) for k in ("nr_hugepages", "free_hugepages", "resv_hugepages")}
    return out


def hugetlb_maps(pid: int) -> list[dict[str, object]]:
    """The mappings of /proc/<pid>/smaps on pages other than 4 KiB, and the memfd ones."""
    maps: list[dict[str, object]] = []
    cur: dict[str, object] | None = None
    for line in pathlib.Path(f"/proc/{pid}/smaps").read_text().splitlines():
        if re.match(r"^[0-9a-f]+-[0-9a-f]+ ", line):
            parts = line.split(None, 5)
            lo, hi = (int(x, 16) for x in parts[0].split("-"))
            cur = {"range": parts[0], "name": parts[5].strip() if len(parts) > 5 else "", "size": hi - lo}
            maps.append(cur)
        elif cur is not None and ":" in line:
            k, v = line.split(":", 1)
            if k in ("KernelPageSize", "Rss", "Private_Hugetlb", "Shared_Hugetlb", "Locked"):
                cur[k] = v.strip()
    return [m for m in maps if m.get("KernelPageSize") != "4 kB" or "memfd" in str(m["name"])]


def run_case(vpp: str, conf: str, out_dir: pathlib.Path, spy: str | None = None, settle: float = 2.0) -> dict[str, str]:
    """Start ``vpp -c <out_dir>/startup.conf`` (``conf`` after the harness), run :data:`COMMANDS`, stop it."""
    run_dir = str(out_dir / "run")
    pathlib.Path(run_dir, "run").mkdir(parents=True, exist_ok=True)
    vppctl = str(pathlib.Path(vpp).with_name("vppctl"))
    text = harness(run_dir, os.environ.get("MPCALC_VPP_PLUGINS")) + conf
    (out_dir / "startup.conf").write_text(text)
    env = dict(os.environ)
    if spy:
        env.update(LD_PRELOAD=spy, ALLOCSPY_LOG=str(out_dir / "allocspy.log"))
    before = hugepage_counters()
    with open(out_dir / "vpp-stdout.txt", "w") as log:
        proc = subprocess.Popen(
            [vpp, "-c", str(out_dir / "startup.conf")],
            stdout=log,
            stderr=subprocess.STDOUT,
            env=env,
            stdin=subprocess.DEVNULL,
        )
        cli = f"{run_dir}/cli.sock"
        t0 = time.time()
        while not os.path.exists(cli) and proc.poll() is None and time.time() - t0 < 60:
            time.sleep(0.2)
        got: dict[str, str] = {}
        record: dict[str, object] = {"before": before}
        if proc.poll() is None:
            time.sleep(settle)
            for c in COMMANDS:
                try:
                    r = subprocess.run([vppctl, "-s", cli, c], capture_output=True, text=True, timeout=30)
                    got[c] = r.stdout + r.stderr
                except subprocess.TimeoutExpired:  # show dpdk physmem of a --no-huge heap fills its pipe
                    got[c] = "(no answer in 30 s)\n"
                (out_dir / (c.replace(" ", "-") + ".txt")).write_text(got[c])
            record["during"] = hugepage_counters()
            record["smaps"] = hugetlb_maps(proc.pid)
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        else:
            proc.wait()
    record["rc"] = proc.returncode
    record["after"] = hugepage_counters()
    (out_dir / "run.json").write_text(json.dumps(record, indent=1) + "\n")
    return got
