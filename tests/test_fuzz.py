"""Fuzzing the real CLI entry point: no input makes mpcalc crash, lie about its exit code, or print non-JSON.

A seeded generator drives more than 10,000 argument vectors, plan files and route files through
``mpcalc.cli.main``.  Every run must end with an exit code in {0, 1, 2, 3}, no traceback and no
"internal error" on stderr, a usage error (2) in one line, and valid JSON on stdout whenever
--json was given and the exit code is 0 or 1.
"""

from __future__ import annotations

import contextlib
import io
import itertools
import json
import random
from pathlib import Path

import pytest

from mpcalc.cli import main

SEED = 20261130
ROOT = Path(__file__).resolve().parent.parent

COMMANDS = {
    "pool": ["--count", "-n", "--elt-size", "--cache-size", "--private-size", "--name", "--cache-layout"],
    "rib": ["--routes", "--nodes", "--ext-size", "--name"],
    "rib6": ["--routes", "--nodes", "--ext-size", "--name"],
    "fib": ["--routes", "--type", "--nh-size", "--tbl8", "--ext-size", "--name", "--routes-file"],
    "fib6": ["--routes", "--type", "--nh-size", "--tbl8", "--ext-size", "--name", "--routes-file"],
    "mbuf": [
        "--count",
        "-n",
        "--cache-size",
        "--priv-size",
        "--data-room",
        "--mtu",
        "--lcores",
        "--name",
        "--cache-layout",
    ],
}
SHARED = [
    "--flags",
    "--page-size",
    "--channels",
    "--ranks",
    "--dpdk",
    "--arch",
    "--platform",
    "--cache-line",
    "--max-lcore",
    "--debug",
    "--stats",
    "--format",
    "--json",
    "--explain",
    "--fit",
    "--max-total",
    "--tolerance",
]
FLAGS_ONLY = {"--json", "--debug", "--stats", "--explain"}
VALUES = {
    "number": [
        "0",
        "1",
        "7",
        "8",
        "40",
        "56",
        "64",
        "100",
        "250",
        "256",
        "512",
        "513",
        "2176",
        "8191",
        "8192",
        "65535",
        "65536",
        "1K",
        "1Ki",
        "1M",
        "1Mi",
        "2M",
        "1G",
        "4294967295",
        "4294967296",
        "2147483647",
        "1073741823",
        "1073741824",
        "-1",
        "0.5",
        "1.5K",
        "1e3",
        "0x10",
        "12QB",
        "",
        " ",
        "inf",
        "nan",
        "99999999999999999999999",
        "1_000",
        "٣",
    ],
    "--flags": [
        "none",
        "all",
        "no_spread",
        "no_cache_align,no_spread",
        "RTE_MEMPOOL_F_NO_IOVA_CONTIG|sp_put",
        "0x23",
        "0x40",
        "0xffffffff",
        "0x100000000",
        "bogus",
        "",
        ",,",
        "MEMPOOL_F_SC_GET",
    ],
    "--page-size": ["4K", "64K", "2M", "1G", "none", "3K", "0", "16G", "2MB", "x"],
    "--dpdk": ["21.11", "22.11", "23.11", "24.11", "25.11", "26.07", "20.11", "latest"],
    "--arch": ["x86_64", "arm64", "ppc64le", "riscv64", "loongarch64", "sparc"],
    "--platform": ["graviton2", "graviton3", "cn10k", "znver5", "kunpeng930", "nope"],
    "--cache-line": ["64", "128", "32"],
    "--format": ["table", "json", "csv", "tsv", "markdown", "xml"],
    "--type": ["dir24_8", "trie", "dummy", "lpm"],
    "--nh-size": ["1", "2", "4", "8", "3"],
    "--cache-layout": ["pointer", "index", "bits"],
    "--name": ["x", "rib", "a" * 22, "a" * 23, "a" * 25, "a" * 26, "a" * 29, "a" * 70, "", "ünï", "sp ace"],
    "--tolerance": ["0", "2%", "64K", "-1%", "x%", "lots"],
}


def _value(rng: random.Random, option: str) -> str:
    pool = VALUES.get(option, VALUES["number"])
    return rng.choice(pool)


def argv_cases(n: int, routes_files: list[str]) -> list[list[str]]:
    rng = random.Random(SEED)
    cases = []
    for _ in range(n):
        command = rng.choice([*COMMANDS, "schema", "nosuch", "--version", "--help"])
        argv = [command]
        options = COMMANDS.get(command, [])
        for _ in range(rng.randint(0, 7)):
            option = rng.choice(options + SHARED) if options else rng.choice(SHARED)
            argv.append(option)
            if option in FLAGS_ONLY:
                continue
            if option == "--routes-file":
                argv.append(rng.choice(routes_files))
            elif rng.random() < 0.97:
                argv.append(_value(rng, option))
        if rng.random() < 0.05:
            argv.insert(rng.randrange(len(argv) + 1), rng.choice(["--", "-x", "--zzz", "pool"]))
        if command in ("pool", "mbuf", "rib", "rib6", "fib", "fib6") and rng.random() < 0.6:
            # mostly-valid commands too, so the success paths are fuzzed as much as the errors
            argv += {
                "pool": ["--count", "1000", "--elt-size", "64"],
                "mbuf": ["--count", "1000"],
                "rib": ["--routes", "1000"],
                "rib6": ["--nodes", "100"],
                "fib": ["--routes", "100"],
                "fib6": ["--routes", "100"],
            }[command]
        if rng.random() < 0.5:
            argv.append("--json")
        cases.append(argv)
    return cases


def route_files(tmp: Path) -> list[str]:
    rng = random.Random(SEED + 1)
    files = []
    lines4 = [
        "10.0.0.0/8 1",
        "10.1.2.0/25 2",
        "10.1.2.128/25",
        "0.0.0.0/0 3",
        "192.168.1.1/32",
        "# comment",
        "",
        "10.0.0.300/8",
        "10.0.0.0/33",
        "garbage",
        "2001:db8::/32",
        "1.2.3.4/24 99999999999999999999999",
        "\x00\x01",
        "10.0.0.0/8 nexthop",
    ]
    lines6 = [
        "2001:db8::/32 1",
        "2001:db8:1::/48",
        "::/0 2",
        "2001:db8::1/128 3",
        "fe80::/10",
        "10.0.0.0/8",
        "2001:db8::/129",
        "# x",
        "",
    ]
    for i in range(12):
        pool = lines4 if i % 2 == 0 else lines6
        path = tmp / f"routes{i}.txt"
        path.write_text("\n".join(rng.choice(pool) for _ in range(rng.randint(0, 40))))
        files.append(str(path))
    (tmp / "binary.txt").write_bytes(bytes(range(256)))
    (tmp / "latin1.txt").write_bytes("10.0.0.0/8 \xe9\n".encode("latin-1"))
    return [*files, str(tmp / "binary.txt"), str(tmp / "latin1.txt"), str(tmp / "missing.txt"), str(tmp)]


def plan_files(tmp: Path, n: int) -> list[Path]:
    rng = random.Random(SEED + 2)
    examples = [p.read_text() for p in sorted((ROOT / "examples" / "plans").glob("*.toml"))]
    mutations = [
        lambda t: t.replace("count", "cuont", 1),
        lambda t: t.replace('"', "", 1),
        lambda t: t + "\n[[pool]]\n",
        lambda t: t.replace("= ", "= -", 1),
        lambda t: t.replace("256", "0.5", 1),
        lambda t: t + "\nx = 1\n",
        lambda t: t.replace("[[", "[", 1),
        lambda t: t[: len(t) // 2],
        lambda t: t.replace("22.11", "19.11"),
        lambda t: t + '\n[[mbuf]]\nname = "rx"\ncount = 1\n',
        lambda t: t.replace("2M", "3M"),
        lambda t: "",
        lambda t: t.replace('name = "', 'name = "' + "x" * 30, 1),
        lambda t: t.replace("socket = 1", "socket = 999"),
        lambda t: t + "\n[platform]\n",
        lambda t: "\x00" + t,
        lambda t: t,
    ]
    paths = []
    for i in range(n):
        text = rng.choice(examples)
        for _ in range(rng.randint(0, 3)):
            text = rng.choice(mutations)(text)
        path = tmp / f"plan{i}.toml"
        path.write_text(text)
        paths.append(path)
    return paths


def drive(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            rc = main(argv)
        except SystemExit as exc:  # main() must not raise, not even SystemExit
            return -1, out.getvalue(), f"SystemExit {exc.code}"
    return rc, out.getvalue(), err.getvalue()


def check(argv: list[str], rc: int, out: str, err: str) -> str | None:
    if rc not in (0, 1, 2, 3):
        return f"exit code {rc}"
    if "Traceback" in err or "Traceback" in out:
        return "traceback"
    if "internal error" in err:
        return f"internal error: {err.strip()}"
    if rc == 2 and len(err.strip().splitlines()) != 1:
        return f"usage error not one line: {err!r}"
    json_asked = (
        "--json" in argv
        or "--format=json" in argv
        or any(a == "--format" and b == "json" for a, b in itertools.pairwise(argv))
    )
    if json_asked and rc in (0, 1) and argv[0] not in ("--help", "--version", "schema") and "--help" not in argv:
        try:
            json.loads(out)
        except ValueError:
            return f"stdout is not JSON: {out[:200]!r}"
    return None


def test_fuzz_argument_vectors(tmp_path):
    cases = argv_cases(10_500, route_files(tmp_path))
    failures = []
    seen_codes = set()
    for argv in cases:
        rc, out, err = drive(argv)
        seen_codes.add(rc)
        problem = check(argv, rc, out, err)
        if problem:
            failures.append(f"{argv!r}: {problem}")
    assert not failures, f"{len(failures)} of {len(cases)} failed:\n" + "\n".join(failures[:15])
    assert {0, 1, 2} <= seen_codes  # the generator reaches successes, rejections and usage errors


def test_fuzz_plan_files(tmp_path):
    failures = []
    for path in plan_files(tmp_path, 400):
        for extra in ([], ["--json"]):
            argv = ["plan", str(path), *extra]
            rc, out, err = drive(argv)
            problem = check(argv, rc, out, err)
            if problem:
                failures.append(f"{path.name}: {problem}")
    assert not failures, "\n".join(failures[:15])


@pytest.mark.parametrize(
    "argv",
    [
        ["pool", "--count", "4294967295", "--elt-size", "4294967295", "--json"],
        ["rib", "--nodes", "2147483647", "--json"],
        ["fib", "--routes", "2147483647", "--tbl8", "4294967295", "--nh-size", "8", "--json"],
        [
            "mbuf",
            "--count",
            "4294967295",
            "--cache-size",
            "512",
            "--data-room",
            "65535",
            "--priv-size",
            "65528",
            "--json",
        ],
        ["pool", "--elt-size", "1", "--fit", "1T", "--json"],
        ["pool", "--count", "1073741823", "--elt-size", "65536", "--explain", "--json"],
    ],
)
def test_huge_inputs_finish_with_an_answer(argv):
    rc, out, err = drive(argv)
    assert check(argv, rc, out, err) is None
    assert rc in (0, 1)
