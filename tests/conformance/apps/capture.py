"""Captures of the real applications for ``mpcalc inspect``: what a user pastes, recorded from the real programs.

* testpmd (``-i``): its own ``dump_mempool`` and ``dump_memzone`` commands (rte_mempool_list_dump,
  rte_memzone_dump; v22.11:app/test-pmd/cmdline.c ``cmd_dump_parsed``), then ``dpdk-telemetry.py``'s
  ``/eal/memzone_list``, every ``/eal/memzone_info,<id>``, ``/eal/heap_info,0``, ``/mempool/list`` and every
  ``/mempool/info,<name>``;
* l3fwd (no command line of its own): the same telemetry replies only.

The text is what the program and the telemetry client print, concatenated (the program's log included:
``mpcalc inspect`` skips lines it does not know).  ``python -m tests.conformance.apps.capture OUT -- testpmd
EAL... -- APP...`` writes one by hand.  Stdlib only.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
import time

from .runner import READY, AppError, program, stop

DUMPS = ("dump_mempool", "dump_memzone")


def _client(prefix: str, commands: list[str]) -> list[str]:
    """The telemetry client's reply lines, one per command (the JSON as it prints it)."""
    client = shutil.which("dpdk-telemetry.py")
    if client is None:
        raise AppError("dpdk-telemetry.py not found: apt-get install dpdk-dev")
    res = subprocess.run(
        [client, "-f", prefix], input="".join(c + "\n" for c in commands), capture_output=True, text=True, timeout=120
    )
    lines = [ln for ln in res.stdout.splitlines() if ln.lstrip().startswith("{")]
    if len(lines) != len(commands):
        raise AppError(f"telemetry answered {len(lines)} of {len(commands)}: {res.stdout[-500:]} {res.stderr[-500:]}")
    return lines


def telemetry(prefix: str) -> list[str]:
    """Every memzone, socket 0's heap and every mempool, as dpdk-telemetry.py prints them."""
    [zlist] = _client(prefix, ["/eal/memzone_list"])
    ids = json.loads(zlist)["/eal/memzone_list"]
    [plist] = _client(prefix, ["/mempool/list"])
    pools = json.loads(plist)["/mempool/list"]
    return [
        zlist,
        *_client(prefix, [f"/eal/memzone_info,{i}" for i in ids] + ["/eal/heap_info,0"]),
        plist,
        *_client(prefix, [f"/mempool/info,{n}" for n in pools]),
    ]


def _wait(log, proc: subprocess.Popen, marker: str, count: int, deadline: float) -> str:
    while True:
        log.seek(0)
        text = log.read()
        if text.count(marker) >= count:
            return text
        if proc.poll() is not None or time.monotonic() > deadline:
            raise AppError(f"no {marker!r} x{count} (exit {proc.poll()}):\n{text[-3000:]}")
        time.sleep(0.2)


def capture(
    kind: str,
    eal: list[str],
    app: list[str],
    prefix: str,
    *,
    dumps: bool = True,
    with_telemetry: bool = True,
    timeout: float = 120,
) -> str:
    """Start ``kind`` (testpmd or l3fwd) as ``program --file-prefix prefix EAL -- APP``; return its dumps (testpmd,
    when ``dumps``) and the telemetry replies (when ``with_telemetry``), as one text."""
    argv = [program(kind), "--file-prefix", prefix, *eal, "--", *app]
    if kind == "testpmd" and dumps:
        # the dumps are stdio, the prompt is write(2): flushed a line at a time, they stay in order (unbuffered,
        # -o0, a syscall per fprintf, made a 4 KiB-page dump outlast the deadline on a loaded machine)
        argv = ["stdbuf", "-oL", *argv]
    replies: list[str] = []
    with tempfile.TemporaryFile(mode="w+") as log:
        proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=log, stderr=subprocess.STDOUT, text=True)
        try:
            deadline = time.monotonic() + timeout
            _wait(log, proc, READY[kind], 1, deadline)
            if kind == "testpmd" and dumps:
                assert proc.stdin is not None
                for n, cmd in enumerate(DUMPS, 2):
                    proc.stdin.write(cmd + "\n")
                    proc.stdin.flush()
                    _wait(log, proc, READY[kind], n, deadline)  # the prompt again: the dump is complete
            if with_telemetry:
                replies = telemetry(prefix)
        finally:
            stop(proc, kind)
            log.seek(0)
            output = log.read()
            shutil.rmtree(f"/var/run/dpdk/{prefix}", ignore_errors=True)
    text = output if kind == "testpmd" and dumps else ""
    return text + "".join(r + "\n" for r in replies)


def trim(text: str) -> str:
    """The capture without the second and later ``physical segments used`` lines of each memzone (a 4 KiB-page
    memzone lists one per page; the first gives the page size, all a reader uses): what the repository keeps."""
    out, seen = [], False
    for line in text.splitlines(keepends=True):
        if line.startswith("  addr: "):
            if seen:
                continue
            seen = True
        elif line.startswith("Zone "):
            seen = False
        out.append(line)
    return "".join(out)


if __name__ == "__main__":
    out, _, rest = sys.argv[1], sys.argv[2], sys.argv[3:]
    which, rest = rest[0], rest[1:]
    cut = rest.index("--")
    with open(out, "w") as fh:
        fh.write(trim(capture(which, rest[:cut], rest[cut + 1 :], f"mpcalc_capture_{which}")))
