#!/usr/bin/env python3
"""Record a DPDK build's real replies for tests/conformance/test_build_headers.py.

usage: scripts/record-build-replies.py PREFIX NAME [CFLAG ...]

PREFIX is an installed static DPDK (its lib/<triplet>/pkgconfig/libdpdk.pc); NAME is a folder of
tests/conformance/builds/ (recorded by meson setup of the same tag and options: builds/README.md);
CFLAGs are the build's own c_args (-DRTE_LIBRTE_MEMPOOL_DEBUG), which DPDK's libdpdk.pc does not carry:
the probe is compiled with them so its sizeof table is the library's.  The probe (tests/conformance/probe.c)
answers the commands the live suite sends, fewer of them (grid.cases(160) over every (channels, ranks) the
grid draws, fib_cases(40), mbuf_cases(60), memsize_cases(60)), written as
builds/NAME/replies.jsonl.gz in the format of tests/conformance/vectors/ (README there).
Runs as root (EAL), with --no-huge: 4 KiB pages.
"""

import gzip
import json
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.conformance import grid  # noqa: E402
from tests.conformance.oracle import Probe, build_probe  # noqa: E402

DROP = ("chunk_lens", "heap_total", "heap_free")


def main() -> None:
    prefix, name, *cflags = sys.argv[1:]
    pc = next(Path(prefix).glob("lib/*/pkgconfig"), None) or Path(prefix) / "lib/pkgconfig"
    binary = build_probe(pkg_config_env={"PKG_CONFIG_PATH": str(pc)}, extra_cflags=cflags, static=True)
    groups: dict[tuple[int, int], list[str]] = defaultdict(list)
    for case in grid.cases(160):
        groups[(case.channels, case.ranks)].append(case.command())
    rest = [c.command() for c in grid.fib_cases(40)] + [c.command() for c in grid.mbuf_cases(60)]
    rest += [f"memsize {e} {f} {n} {s}" for e, f, n, s in grid.memsize_cases(60)]
    rest += [f"calc {e} {f}" for e in (0, 1, 40, 56, 64, 1000, 65535) for f in (0, 1, 2, 3)]
    groups[(4, 1)] += rest
    lines = []
    for (c, r), cmds in sorted(groups.items()):
        with Probe(binary, nchannel=c, nrank=r) as probe:
            tag = "v" + probe.platform["version"].removeprefix("DPDK ").removesuffix(".0")
            for cmd, reply in zip(cmds, probe.run_many(cmds), strict=True):
                lines.append(
                    {
                        "tag": tag,
                        "channels": c,
                        "ranks": r,
                        "platform": probe.platform,
                        "cmd": cmd,
                        "reply": {k: v for k, v in reply.items() if k not in DROP},
                    }
                )
    out = ROOT / "tests/conformance/builds" / name / "replies.jsonl.gz"
    with gzip.open(out, "wt") as f:
        for ln in lines:
            f.write(json.dumps(ln, sort_keys=True, separators=(",", ":")) + "\n")
    print(f"{out}: {len(lines)} replies")


if __name__ == "__main__":
    main()
