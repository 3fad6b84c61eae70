#!/usr/bin/env python3
"""The route planner against the real DPDK building the same FIB: whole process against whole process.

    python bench/routes.py                      # full tables: 1,000,000 IPv4 and 200,000 IPv6 prefixes
    python bench/routes.py --runs 5 --order random sorted
    python bench/routes.py --file rib.txt:4     # your own table (plain format), as IPv4
    python bench/routes.py --big 16000000       # and mpcalc alone on a 16-million-route table
    python bench/routes.py --kind lpm --runs 1  # the LPM planners against rte_lpm / rte_lpm6

For each table, the same file is given to:

* ``mpcalc fib|fib6 --routes-file FILE --json`` (with the C part where it was built, see setup.py), and
  again with ``MPCALC_PURE=1`` (the pure-Python path; the same answers);
* the conformance probe (tests/conformance/probe.c, linked to the system's DPDK 22.11): EAL start-up
  (``--no-huge``), ``rte_fib_create`` / ``rte_fib6_create`` with the ``--routes`` and ``--tbl8`` mpcalc
  answered (the same FIB), ``rte_fib_add`` of every line, exit.  The bench checks that DPDK adds every route
  with exactly that much (a smaller FIB failing where the planner says is tests/conformance' work).

Each process runs ``--runs`` times, interleaved; the table shows the median wall time and the peak
resident size (``wait4``'s ``ru_maxrss``).  The tables are synthetic full-table-like lists
(tests/conformance/fulltable.py: the prefix-length mix of a BGP full table, more-specifics, a few routes
longer than /24, re-announcements), in random order (what costs DPDK the most) and in address order (how
route dumps list them).

``--kind lpm`` does the same for ``mpcalc lpm|lpm6 --routes-file`` against the probe's ``rte_lpm_create`` /
``rte_lpm6_create`` with the ``--max-rules`` and ``--tbl8`` mpcalc answered and ``rte_lpm_add`` /
``rte_lpm6_add`` of every line.  rte_lpm_add scans every rule of the route's depth (rule_add,
v22.11:lib/lpm/rte_lpm.c:370-424), so DPDK's IPv4 LPM build is quadratic: minutes for a million routes.
"""

from __future__ import annotations

import argparse
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
    return [str(script)] if script.exists() else [sys.executable, "-m", "mpcalc"]


def measure(argv: list[str], env: dict[str, str] | None = None, stdin: Path | None = None) -> tuple[float, int, bytes]:
    """(wall seconds, peak RSS in KiB, stdout) of one process."""
    with tempfile.TemporaryFile() as out, open(stdin or os.devnull, "rb") as inp:
        start = time.perf_counter()
        proc = subprocess.Popen(argv, stdin=inp, stdout=out, stderr=subprocess.DEVNULL, env=env)
        _, status, usage = os.wait4(proc.pid, 0)
        seconds = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        data = out.read()
    if proc.returncode not in (0, 1):
        raise RuntimeError(f"{argv[:3]} exited {proc.returncode}")
    return seconds, usage.ru_maxrss, data


def _in_child(*args: str) -> None:
    """Run ``routes.py --write ARGS`` in a process of its own.  A child's peak RSS (``ru_maxrss``) starts at
    its parent's RSS when it forks (Linux keeps the larger across exec), so the tables are built elsewhere:
    this process stays small, below every process it measures."""
    subprocess.run([sys.executable, __file__, "--write", *args], check=True)


def _write(args: list[str]) -> None:
    if args[0] == "big":
        big_table(Path(args[2]), int(args[1]))
        return
    from tests.conformance import fulltable

    family, n, order, path = int(args[0]), int(args[1]), args[2], Path(args[3])
    rows = (fulltable.ipv4_rows if family == 4 else fulltable.ipv6_rows)(n, 1, order=order)
    path.write_text("\n".join(fulltable.lines(rows, family)) + "\n")


def write_tables(tmp: Path, orders: list[str], v4: int, v6: int) -> list[tuple[str, Path, int, int]]:
    out = []
    for order in orders:
        for family, n in ((4, v4), (6, v6)):
            if not n:
                continue
            path = tmp / f"ipv{family}-{n}-{order}.txt"
            _in_child(str(family), str(n), order, str(path))
            out.append((f"IPv{family}, {n:,} prefixes, {order} order", path, family, n))
    return out


def big_table(tmp: Path, n: int) -> Path:
    """n IPv4 routes: every /24 of 1.0.0.0-223.255.255.255 (up to n) in a shuffled order, then shorter
    prefixes over them; a next hop of 64."""
    import random

    rng = random.Random(16)
    blocks = list(range(1 << 16, 224 << 16))
    rng.shuffle(blocks)
    path = tmp / f"ipv4-{n}.txt"
    with open(path, "w") as fh:
        take = min(n, len(blocks))
        for k in range(0, take, 1 << 20):
            fh.write("".join(f"{b >> 16}.{b >> 8 & 255}.{b & 255}.0/24 {b % 64}\n" for b in blocks[k : k + (1 << 20)]))
        fh.write(
            "".join(
                f"{rng.randrange(1, 224)}.{rng.randrange(256)}.0.0/{rng.randrange(8, 24)} {rng.randrange(64)}\n"
                for _ in range(n - take)
            )
        )
    return path


def count_lines(path: Path) -> int:
    with open(path, "rb") as fh:
        return sum(chunk.count(b"\n") for chunk in iter(lambda: fh.read(1 << 20), b""))


def probe_command(tmp: Path, path: Path, family: int, routes: int, tbl8: int, kind: str = "fib") -> Path:
    """The probe's stdin: create the FIB (or LPM) mpcalc sized, add every line, quit."""
    n = count_lines(path)
    cmd = tmp / f"{path.name}.{kind}.probe"
    with open(cmd, "w") as fh:
        name = kind if family == 4 else kind + "6"
        if kind == "fib":
            fh.write(f"{name} bench {routes} 1 2 {tbl8} 0 keep\nfibadd bench {family} {n}\n")
        else:
            fh.write(f"{name} bench {routes} {tbl8} keep\nlpmadd bench {family} {n}\n")
        with open(path) as src:
            shutil.copyfileobj(src, fh)
        fh.write("quit\n")
    return cmd


def _median(values: list[tuple[float, int]]) -> tuple[float, int]:
    """The median time and the largest peak RSS of a command's runs."""
    return statistics.median(v[0] for v in values), max(v[1] for v in values)


def main() -> None:
    if sys.argv[1:2] == ["--write"]:
        _write(sys.argv[2:])
        return
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--order", nargs="+", default=["random", "sorted"], choices=["random", "sorted"])
    ap.add_argument("--v4", type=int, default=1_000_000, help="IPv4 prefixes (0: none)")
    ap.add_argument("--v6", type=int, default=200_000, help="IPv6 prefixes (0: none)")
    ap.add_argument("--file", action="append", default=[], metavar="PATH:FAMILY", help="a table of your own")
    ap.add_argument("--big", type=int, default=0, help="also plan an IPv4 table of this many routes (mpcalc alone)")
    ap.add_argument("--no-probe", action="store_true")
    ap.add_argument(
        "--kind",
        nargs="+",
        default=["fib"],
        choices=["fib", "lpm"],
        help="fib: fib/fib6 --routes-file against rte_fib_add; lpm: lpm/lpm6 against rte_lpm_add",
    )
    args = ap.parse_args()

    from tests.conformance.oracle import Probe, build_probe, dpdk_runtime_dir

    tmp = Path(tempfile.mkdtemp(prefix="mpcalc-routes-bench-"))
    try:
        tables = write_tables(tmp, args.order, args.v4, args.v6)
        for spec in args.file:
            name, _, fam = spec.rpartition(":")
            tables.append((name, Path(name), int(fam), count_lines(Path(name))))
        probe = None if args.no_probe else build_probe()
        env = dict(os.environ)
        pure = {**env, "MPCALC_PURE": "1"}
        rows = []
        for kind, (label, path, family, n) in ((k, t) for k in args.kind for t in tables):
            command = kind if family == 4 else kind + "6"
            argv = [*mpcalc_argv(), command, "--routes-file", str(path), "--json"]
            seconds, rss, out = measure(argv, env)
            doc = json.loads(out)
            if kind == "fib":
                answer = doc["results"][0]["details"]["answer"]
            else:  # the rules and tbl8 groups the file needs: the sizes mpcalc resolved
                answer = {"routes": doc["input"]["max_rules"], "tbl8": doc["input"]["tbl8"]}
            cmd = probe_command(tmp, path, family, answer["routes"], answer["tbl8"], kind) if probe else None
            label = f"`{command}`: {label}"
            runs: dict[str, list[tuple[float, int]]] = {"mpcalc": [], "pure": [], "dpdk": []}
            agree = None
            for _ in range(args.runs):
                runs["mpcalc"].append(measure(argv, env)[:2])
                runs["pure"].append(measure(argv, pure)[:2])
                if cmd is not None:
                    prefix = f"mpcalc_bench_{os.getpid()}"
                    eal = Probe.default_eal_args(file_prefix=prefix)
                    t, r, reply = measure([str(probe), *eal], stdin=cmd)
                    shutil.rmtree(dpdk_runtime_dir(prefix), ignore_errors=True)
                    answers = [json.loads(x) for x in reply.splitlines() if x.startswith(b"{")]
                    added = next(a for a in answers if a.get("cmd") in ("fibadd", "lpmadd"))
                    agree = added["added"] == n and added["failed_at"] is None
                    runs["dpdk"].append((t, r))

            m, p = _median(runs["mpcalc"]), _median(runs["pure"])
            d = _median(runs["dpdk"]) if runs["dpdk"] else None
            rows.append((label, answer, m, p, d, agree))
        if args.big:
            path = tmp / f"ipv4-{args.big}.txt"
            _in_child("big", str(args.big), str(tmp))
            for kind in args.kind:
                argv = [*mpcalc_argv(), kind, "--routes-file", str(path), "--json"]
                seconds, rss, out = measure(argv, env)
                doc = json.loads(out)
                answer = (
                    doc["results"][0]["details"]["answer"]
                    if kind == "fib"
                    else {"routes": doc["input"]["max_rules"], "tbl8": doc["input"]["tbl8"]}
                )
                rows.append(
                    (
                        f"`{kind}`: IPv4, {args.big:,} routes (/24s shuffled, then shorter ones)",
                        answer,
                        (seconds, rss),
                        None,
                        None,
                        None,
                    )
                )
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    import resource

    floor = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(
        f"{time.strftime('%Y-%m-%d')}, {platform.machine()}, {os.cpu_count()} CPUs, Python "
        f"{platform.python_version()}; median of {args.runs} runs, peak RSS the largest (this process: "
        f"{floor:,.0f} MiB, a floor for every peak RSS below)\n"
    )
    print(
        "| table | --routes (lpm: --max-rules) / --tbl8 | mpcalc | mpcalc (pure Python) | DPDK 22.11 (probe) | "
        "DPDK / mpcalc | "
        "DPDK takes it |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for label, answer, m, p, d, agree in rows:

        def cell(x: tuple[float, int] | None) -> str:
            return "-" if x is None else f"{x[0]:.2f} s, {x[1] / 1024:,.0f} MiB"

        ratio = f"{d[0] / m[0]:.1f} x time, {d[1] / m[1]:.1f} x memory" if d else "-"
        took = "-" if agree is None else ("yes" if agree else "NO")
        print(
            f"| {label} | {answer['routes']:,} / {answer['tbl8']:,} | {cell(m)} | {cell(p)} | {cell(d)} | "
            f"{ratio} | {took} |"
        )


if __name__ == "__main__":
    main()
