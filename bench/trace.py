"""Benchmark ``mpcalc trace`` against babeltrace2 on a large CTF trace, and its memory against the trace's length.

The trace is a recorded one (tests/conformance/traces/<case>/ctf, a real testpmd start-up) whose busiest stream's
events are repeated until it holds ``--events`` events: the same allocations and frees again and again, so the
live set stays the size of one start-up while the events grow.  Measured, each the best of ``--runs``:

* ``babeltrace2 DIR > /dev/null``: the reference reader printing every event (Debian's babeltrace2);
* ``mpcalc trace DIR --json > /dev/null``: the whole command, start-up included;
* the peak RSS of ``mpcalc trace`` on the full trace and on a tenth of it (the goal: the same).

    python bench/trace.py --events 10000000
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HEADER = 56  # the packet header and context of a DPDK stream file


def make_trace(source: Path, events: int, out: Path) -> int:
    """A copy of the trace at ``source`` whose busiest stream repeats its events up to about ``events``."""
    shutil.copytree(source, out)
    busiest = max((p for p in out.iterdir() if p.name != "metadata"), key=lambda p: p.stat().st_size)
    data = busiest.read_bytes()
    body = data[HEADER:]
    sys.path.insert(0, str(ROOT))
    from mpcalc.dpdk.apps.trace import read_events

    per = sum(1 for _ in read_events(str(source), wanted=frozenset())[0])
    copies = max(1, events // per)
    with busiest.open("wb") as f:
        f.write(data[:HEADER])
        for _ in range(copies):
            f.write(body)  # each copy's length is a multiple of 8: the events stay aligned
    return per * copies


def best(argv: list[str], runs: int) -> tuple[float, float, int]:
    """The best wall time and the best CPU time (user + system: what a shared machine's other work moves least)
    of ``runs`` runs, and the largest peak RSS (KiB) of any."""
    times, cpu, rss = [], [], 0
    for _ in range(runs):
        t0 = time.perf_counter()
        proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL)
        _, status, usage = os.wait4(proc.pid, 0)
        times.append(time.perf_counter() - t0)
        cpu.append(usage.ru_utime + usage.ru_stime)
        if status:
            raise SystemExit(f"{argv[0]} failed: {status}")
        rss = max(rss, usage.ru_maxrss)
    return min(times), min(cpu), rss


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--events", type=int, default=10_000_000)
    ap.add_argument("--case", default="testpmd-null-2port-mq")
    ap.add_argument("--runs", type=int, default=3)
    a = ap.parse_args()
    mpcalc = str(Path(sys.executable).with_name("mpcalc"))
    source = ROOT / "tests" / "conformance" / "traces" / a.case / "ctf"
    with tempfile.TemporaryDirectory() as tmp:
        big, small = Path(tmp) / "big", Path(tmp) / "small"
        n = make_trace(source, a.events, big)
        m = make_trace(source, a.events // 10, small)
        rows = []
        if shutil.which("babeltrace2"):
            rows.append((f"babeltrace2, {n:,} events", *best(["babeltrace2", str(big)], a.runs)))
        rows.append((f"mpcalc trace --json, {n:,} events", *best([mpcalc, "trace", str(big), "--json"], a.runs)))
        rows.append((f"mpcalc trace --json, {m:,} events", *best([mpcalc, "trace", str(small), "--json"], a.runs)))
    print(f"{'measure':<48} {'wall s':>8} {'CPU s':>8} {'peak RSS MiB':>13}")
    for what, t, c, r in rows:
        print(f"{what:<48} {t:8.2f} {c:8.2f} {r / 1024:13.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
