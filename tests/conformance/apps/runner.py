"""Run the real dpdk-testpmd and dpdk-l3fwd and read their memory through telemetry (stdlib only).

* testpmd is Debian's (``/usr/bin/dpdk-testpmd``, package dpdk-dev);
* l3fwd is built here from the examples Debian's ``dpdk-doc`` ships (``/usr/share/dpdk/examples/l3fwd``,
  the installed release's own source) against the installed libdpdk, in tests/conformance/.build/: no
  l3fwd source is kept in this repository.

:func:`run_app` starts the program with a private ``--file-prefix``, waits for its prompt (testpmd ``-i``)
or its main loop (l3fwd), asks ``dpdk-telemetry.py`` for ``/eal/memzone_list``, each
``/eal/memzone_info,<id>`` and ``/eal/heap_info,0``, and stops it.  ``App.zones`` maps each memzone's
name to (length, socket); ``App.heap`` is socket 0's heap (Alloc_size, Alloc_count, Heap_size).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
BUILD = HERE.parent / ".build"
EXAMPLES = Path("/usr/share/dpdk/examples")
TESTPMD = "/usr/bin/dpdk-testpmd"
READY = {"testpmd": "testpmd> ", "l3fwd": "entering main loop"}


class AppError(RuntimeError):
    """The program did not come up; ``output`` is all it wrote (the message keeps the end of it)."""

    def __init__(self, message: str, output: str = "") -> None:
        super().__init__(message)
        self.output = output


def build_l3fwd() -> Path:
    """examples/l3fwd from dpdk-doc, built with its own Makefile (pkg-config libdpdk) under .build/."""
    src = EXAMPLES / "l3fwd"
    if not (src / "main.c").is_file():
        raise AppError(f"{src} missing: apt-get install dpdk-doc (scripts/test.sh does)")
    work = BUILD / "examples"
    binary = work / "l3fwd" / "build" / "l3fwd-shared"
    stamp = work / "l3fwd" / ".source"
    version = subprocess.run(["pkg-config", "--modversion", "libdpdk"], capture_output=True, text=True).stdout.strip()
    if binary.is_file() and stamp.is_file() and stamp.read_text() == version:
        return binary
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    for name in ("l3fwd", "common"):  # the Makefile includes ../common
        shutil.copytree(EXAMPLES / name, work / name)
    res = subprocess.run(["nice", "make", "-C", str(work / "l3fwd"), "-j2", "shared"], capture_output=True, text=True)
    if res.returncode != 0 or not binary.is_file():
        raise AppError(f"building l3fwd failed:\n{res.stdout[-2000:]}\n{res.stderr[-2000:]}")
    stamp.write_text(version)
    return binary


@dataclass
class App:
    argv: list[str]
    zones: dict[str, tuple[int, int]] = field(default_factory=dict)
    order: list[str] = field(default_factory=list)
    heap: dict[str, int] = field(default_factory=dict)
    output: str = ""


def _telemetry(prefix: str, commands: list[str]) -> list[dict]:
    client = shutil.which("dpdk-telemetry.py")
    if client is None:
        raise AppError("dpdk-telemetry.py not found: apt-get install dpdk-dev")
    res = subprocess.run(
        [client, "-f", prefix], input="".join(c + "\n" for c in commands), capture_output=True, text=True, timeout=120
    )
    replies = [json.loads(line[line.index("{") :]) for line in res.stdout.splitlines() if "{" in line]
    if len(replies) != len(commands):
        raise AppError(f"telemetry answered {len(replies)} of {len(commands)}: {res.stdout[-500:]} {res.stderr[-500:]}")
    return replies


def program(name: str) -> str:
    return TESTPMD if name == "testpmd" else str(build_l3fwd())


def run_app(kind: str, eal: list[str], app: list[str], prefix: str, timeout: float = 120) -> App:
    """Start ``kind`` (testpmd or l3fwd) with ``eal`` + ``--file-prefix prefix`` -- ``app``; read its memory.

    Raises AppError if it exits before it is ready (its output is in the message)."""
    argv = [program(kind), "--file-prefix", prefix, *eal, "--", *app]
    out = App(argv=argv)
    with tempfile.TemporaryFile(mode="w+") as log:
        proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=log, stderr=subprocess.STDOUT, text=True)
        try:
            deadline = time.monotonic() + timeout
            while True:
                log.seek(0)
                text = log.read()
                if READY[kind] in text:
                    break
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise AppError(f"{kind} did not come up (exit {proc.poll()}):\n{text[-3000:]}", text)
                time.sleep(0.2)
            ids = _telemetry(prefix, ["/eal/memzone_list"])[0]["/eal/memzone_list"]
            infos = _telemetry(prefix, [f"/eal/memzone_info,{i}" for i in ids] + ["/eal/heap_info,0"])
            for reply in infos[:-1]:
                z = reply["/eal/memzone_info"]
                out.zones[z["Name"]] = (int(z["Length"]), int(z["Socket"]))
                out.order.append(z["Name"])
            out.heap = infos[-1]["/eal/heap_info"]
        finally:
            stop(proc, kind)
            log.seek(0)
            out.output = log.read()
            shutil.rmtree(f"/var/run/dpdk/{prefix}", ignore_errors=True)
    return out


def started(kind: str, eal: list[str], app: list[str], prefix: str) -> tuple[bool, str]:
    """Whether the application comes up at all (for the hugepage bisection), and its last output."""
    try:
        run_app(kind, eal, app, prefix, timeout=90)
        return True, ""
    except AppError as exc:
        return False, str(exc)[-400:]


__all__ = ["App", "AppError", "build_l3fwd", "os", "run_app", "started"]


def stop(proc: subprocess.Popen[str], kind: str) -> None:
    """End a running application as its user would: testpmd's ``quit``, l3fwd's SIGINT; kill it after 60 s."""
    if proc.poll() is not None:
        return
    if kind == "testpmd":
        try:
            assert proc.stdin is not None
            proc.stdin.write("quit\n")
            proc.stdin.flush()
        except OSError:
            pass
    else:
        proc.send_signal(signal.SIGINT)
    try:
        proc.wait(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
