#!/usr/bin/env python3
"""Measure mpcalc's speed in one run, as ratios: start-up, batch throughput, and the real DPDK probe.

    python bench/bench.py                 # everything (the probe part needs libdpdk-dev; root not needed)
    python bench/bench.py --runs 50 --configs 50000 --no-probe

1. Start-up (hyperfine-like: interleaved runs after warm-up, medians): ``mpcalc rib --routes 1M --json``
   against ``python -c "import click"``, and the table view against ``python -c "import click,
   rich.console, rich.table"``.  Goal: at most 1.25x each.
2. Batch: ``mpcalc batch --compact`` over distinct configurations (the conformance grid's pools and
   RIBs: about 180,000 by default), the full documents over a tenth of them, and both over a stream
   that repeats 300 (CI jobs and sweeps repeat); wall time with start-up included, best of 3.
   Goal: 100,000 configurations a second.
3. The real library: the same distinct configurations asked of the conformance probe
   (tests/conformance/oracle.py: a C program that creates each pool/RIB in a running DPDK and reports
   what it reserved), EAL start-up excluded; and a check that both agree.

Every command runs with one fresh bytecode cache (PYTHONPYCACHEPREFIX, written during the warm-up), so
mpcalc and click are both measured from compiled bytecode, as after ``pip install``.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def mpcalc_argv() -> list[str]:
    script = Path(sys.executable).with_name("mpcalc")
    if script.exists():
        return [str(script)]
    return [sys.executable, "-m", "mpcalc"]


def environment(pycache: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "PYTHONPROFILEIMPORTTIME")}
    env["PYTHONPYCACHEPREFIX"] = pycache
    return env


def time_commands(
    commands: dict[str, list[str]], runs: int, warmup: int, env: dict[str, str]
) -> dict[str, list[float]]:
    """Wall time of each command, ``runs`` times, interleaved (so load drifts hit all alike)."""
    times: dict[str, list[float]] = {k: [] for k in commands}
    for i in range(warmup + runs):
        for name, argv in commands.items():
            start = time.perf_counter()
            subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, check=False)
            if i >= warmup:
                times[name].append(time.perf_counter() - start)
    return times


def startup(runs: int, env: dict[str, str]) -> list[tuple[str, str]]:
    py = sys.executable
    mp = mpcalc_argv()
    commands = {
        "floor": [py, "-c", "import click"],
        "floor_rich": [py, "-c", "import click, rich.console, rich.table"],
        "engine": [py, "-c", "import click, mpcalc.api"],
        "json": [*mp, "rib", "--routes", "1M", "--json"],
        "table": [*mp, "rib", "--routes", "1M"],
        "csv": [*mp, "rib", "--routes", "1M", "--format", "csv"],
        "bare": [py, "-c", "pass"],
    }
    t = {k: statistics.median(v) * 1000 for k, v in time_commands(commands, runs, 3, env).items()}
    return [
        ("python -c pass (interpreter)", f"{t['bare']:.1f} ms"),
        ("python -c 'import click' (floor)", f"{t['floor']:.1f} ms"),
        ("python -c 'import click, rich.console, rich.table'", f"{t['floor_rich']:.1f} ms"),
        ("mpcalc rib --routes 1M --json", f"{t['json']:.1f} ms = {t['json'] / t['floor']:.2f} x floor (goal 1.25)"),
        ("mpcalc rib --routes 1M --format csv", f"{t['csv']:.1f} ms = {t['csv'] / t['floor']:.2f} x floor"),
        (
            "mpcalc rib --routes 1M (table)",
            f"{t['table']:.1f} ms = {t['table'] / t['floor_rich']:.2f} x floor+rich (goal 1.25)",
        ),
        (
            "  ours above the floor (json, table)",
            f"{t['json'] - t['floor']:.1f} ms, {t['table'] - t['floor_rich']:.1f} ms",
        ),
        ("import mpcalc.api, above the floor (goal: well under 10 ms)", f"{t['engine'] - t['floor']:.1f} ms"),
    ]


def cases(n: int):
    """Distinct pool/RIB configurations the probe can create: the conformance grid, on 4 channels x 1 rank."""
    from tests.conformance import grid

    out = []
    seed = grid.SEED + 11
    while len(out) < n:
        out += [dataclasses.replace(c, channels=4, ranks=1) for c in grid.cases(max(n, 1000), seed=seed)]
        seed += 1
    seen, unique = set(), []
    for i, c in enumerate(out):
        c = dataclasses.replace(c, name=f"b{i}")  # unique names: the probe keeps (leaked) memzones
        key = dataclasses.replace(c, name="")
        if key not in seen:
            seen.add(key)
            unique.append(c)
    return unique[:n]


def record(c, page_size: int) -> dict:
    base = {"page_size": page_size, "channels": c.channels, "ranks": c.ranks}
    if c.kind == "pool":
        return {
            "command": "pool",
            "name": c.name,
            "count": c.count,
            "elt_size": c.elt_size,
            "cache_size": c.cache_size,
            "private_size": c.private_size,
            "flags": f"{c.flags:#x}",
            **base,
        }
    return {"command": c.kind, "name": c.name, "nodes": c.count, "ext_size": c.elt_size, **base}


def run_batch(path: Path, args: list[str], env: dict[str, str]) -> tuple[float, int, int]:
    seconds, lines, code, _ = run_batch_rss(path, args, env)
    return seconds, lines, code


#: runs ``mpcalc`` and, at exit, writes its own peak resident size (VmHWM, KiB) to stderr: the high-water mark
#: of its own memory map (getrusage and wait4 would count the forking parent's, which Linux carries over)
_HWM = (
    "import atexit, sys\n"
    "def hwm():\n"
    "    for line in open('/proc/self/status'):\n"
    "        if line.startswith('VmHWM:'):\n"
    "            sys.stderr.write('VmHWM ' + line.split()[1] + '\\n')\n"
    "atexit.register(hwm)\n"
    "sys.argv = ['mpcalc', *sys.argv[1:]]\n"
    "from mpcalc.__main__ import run\n"
    "run()\n"
)


def run_batch_rss(path: Path, args: list[str], env: dict[str, str]) -> tuple[float, int, int, int]:
    """Wall time, answer lines, exit code and peak resident size (KiB) of one ``mpcalc batch``."""
    start = time.perf_counter()
    with tempfile.TemporaryFile() as out:
        proc = subprocess.run(
            [sys.executable, "-c", _HWM, "batch", *args, str(path)],
            stdout=out,
            stderr=subprocess.PIPE,
            env=env,
            check=False,
        )
        seconds = time.perf_counter() - start
        out.seek(0)
        lines = sum(chunk.count(b"\n") for chunk in iter(lambda: out.read(1 << 20), b""))
    hwm = [int(x.split()[1]) for x in proc.stderr.decode().splitlines() if x.startswith("VmHWM ")]
    return seconds, lines, proc.returncode, hwm[-1] if hwm else 0


def random_records(n: int, seed: int = 12) -> list[dict]:
    """``n`` distinct random configurations: pools (count, element, cache and private sizes and flags all
    varying, a few rejected by DPDK) and RIBs, on a few platforms."""
    import random

    rng = random.Random(seed)
    seen: set[str] = set()
    out: list[dict] = []
    while len(out) < n:
        base = {
            "page_size": rng.choice(["4K", "2M", "1G"]),
            "channels": rng.choice([1, 2, 4, 6]),
            "dpdk": rng.choice(["22.11", "23.11", "26.07"]),
        }
        if rng.random() < 0.8:
            count = rng.randint(1, 4_000_000)
            rec = {
                "command": "pool",
                "name": f"p{rng.randint(0, 999)}",
                "count": count,
                "elt_size": rng.randint(1, 65536),
                "cache_size": rng.choice([0, 0, 32, 64, 250, 256, 512]),
                "private_size": rng.choice([0, 0, 8, 64, rng.randint(0, 4096)]),
                "flags": rng.choice(
                    [
                        "none",
                        "no_spread",
                        "no_cache_align",
                        "no_iova_contig",
                        "0x23",
                        "no_spread|no_iova_contig",
                        "sp_put|sc_get",
                    ]
                ),
                **base,
            }
        else:
            rec = {
                "command": rng.choice(["rib", "rib6"]),
                "name": f"r{rng.randint(0, 99)}",
                "routes": rng.randint(1, 2_000_000),
                "ext_size": rng.choice([0, 0, 8, 16, 64]),
                "flags": rng.choice(["none", "no_cache_align|no_spread|no_iova_contig"]),
                **base,
            }
        text = json.dumps(rec)
        if text not in seen:
            seen.add(text)
            out.append(rec)
    return out


def memory(env: dict[str, str], tmp: Path) -> list[tuple[str, str]]:
    """Throughput on distinct random lines (one process, then one per CPU), and the peak resident size of
    one process at 10,000 and 100,000 lines (goal: flat)."""
    records = random_records(100_000, seed=99)
    rows = []
    path = tmp / "random-100000.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    for args in ([], ["--compact"]):
        for jobs in ("1", "0"):
            best = min(run_batch(path, [*args, "--jobs", jobs], env)[0] for _ in range(3))
            rows.append(
                (
                    f"batch {' '.join(args) or '(full documents)'}, 100,000 distinct random lines, "
                    f"{'one process' if jobs == '1' else 'a worker per CPU'}",
                    f"{100_000 / best:,.0f} lines/s ({best:.2f} s, start-up included)",
                )
            )
    for args in (["--jobs", "1"], ["--compact", "--jobs", "1"]):
        peak = {}
        for n in (10_000, 100_000):
            path = tmp / f"memory-{n}.jsonl"
            path.write_text("".join(json.dumps(r) + "\n" for r in records[:n]))
            seconds, lines, _, rss = run_batch_rss(path, args, env)
            assert lines == n, (lines, n)
            peak[n] = rss
            rows.append(
                (
                    f"batch {' '.join(args) or '(full documents)'}, {n:,} distinct random lines",
                    f"{n / seconds:,.0f} lines/s, peak RSS {rss / 1024:,.1f} MiB",
                )
            )
        rows.append(("  peak RSS at 100,000 / at 10,000 (goal at most 1.25)", f"{peak[100_000] / peak[10_000]:.2f}"))
    return rows


def batch(n: int, repeats: int, env: dict[str, str], tmp: Path, page_size: int) -> tuple[list[tuple[str, str]], list]:
    cs = cases(n)
    lines = [json.dumps(record(c, page_size)) + "\n" for c in cs]
    distinct = tmp / "distinct.jsonl"
    distinct.write_text("".join(lines))
    documents = tmp / "documents.jsonl"  # full documents are 10x slower: a tenth of the lines
    documents.write_text("".join(lines[: max(1, len(lines) // 10)]))
    repeated = tmp / "repeated.jsonl"
    repeated.write_text("".join(lines[i % 300] for i in range(repeats)))
    empty = tmp / "empty.jsonl"
    empty.write_text("")
    start_up = min(run_batch(empty, ["--compact"], env)[0] for _ in range(5))
    rows = [("batch start-up (an empty input)", f"{start_up * 1000:.0f} ms")]
    for label, path, args in (
        ("distinct", documents, []),
        ("distinct", distinct, ["--compact"]),
        ("300 repeated", repeated, []),
        ("300 repeated", repeated, ["--compact"]),
    ):
        count = sum(1 for _ in path.open())
        best = min(run_batch(path, args, env)[0] for _ in range(3))
        rows.append(
            (
                f"batch {' '.join(args) or '(full documents)'}, {count:,} {label}",
                f"{count / best:,.0f} configs/s ({best:.2f} s, start-up included)",
            )
        )
    return rows, cs


def probe(cs, env: dict[str, str], tmp: Path) -> list[tuple[str, str]]:
    from tests.conformance import grid
    from tests.conformance.oracle import Probe, build_probe

    binary = build_probe()
    start = time.perf_counter()
    with Probe(binary, nchannel=4, nrank=1) as pr:
        eal = time.perf_counter() - start
        page = pr.platform["page_size"]
        start = time.perf_counter()
        replies = pr.run_many([c.command() for c in cs])
        asked = time.perf_counter() - start
    p = grid.platform_for({**pr.platform}, 4, 1, page)
    disagree = sum(1 for c, r in zip(cs, replies, strict=True) if grid.mismatches(c, c.compute(p), r))
    path = tmp / "probe.jsonl"
    path.write_text("".join(json.dumps(record(c, page)) + "\n" for c in cs))
    ours = min(run_batch(path, ["--compact"], env)[0] for _ in range(3))
    return [
        ("real DPDK (probe): EAL start-up", f"{eal * 1000:.0f} ms"),
        (f"real DPDK (probe): {len(cs):,} configurations", f"{len(cs) / asked:,.0f} configs/s ({asked:.2f} s)"),
        (
            f"mpcalc batch --compact, the same {len(cs):,}",
            f"{len(cs) / ours:,.0f} configs/s ({ours:.2f} s, start-up included) = {asked / ours:.1f} x the probe",
        ),
        ("answers that differ (engine vs probe)", f"{disagree}"),
    ]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=30, help="start-up runs per command (after 3 warm-ups)")
    ap.add_argument(
        "--configs",
        type=int,
        default=200_000,
        help="configurations drawn for the batch (duplicates dropped: about 9 in 10 stay)",
    )
    ap.add_argument("--repeats", type=int, default=200_000, help="lines of the repeating batch stream")
    ap.add_argument("--probe-configs", type=int, default=2_000, help="configurations asked of the real DPDK")
    ap.add_argument("--no-probe", action="store_true", help="skip the real-DPDK comparison")
    args = ap.parse_args()

    tmp = Path(tempfile.mkdtemp(prefix="mpcalc-bench-"))
    env = environment(str(tmp / "pycache"))
    try:
        rows = [("machine", f"{platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}")]
        rows += startup(args.runs, env)
        batch_rows, _ = batch(args.configs, args.repeats, env, tmp, 4096)
        rows += batch_rows
        rows += memory(env, tmp)
        if not args.no_probe:
            try:
                rows += probe(cases(args.probe_configs), env, tmp)
            except Exception as exc:
                rows.append(("real DPDK (probe)", f"not measured: {type(exc).__name__}: {str(exc).splitlines()[0]}"))
        width = max(len(k) for k, _ in rows)
        for key, value in rows:
            print(f"{key:<{width}}  {value}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
