"""Ground-truth oracle: drive a real DPDK through ``probe.c``.

The probe is a small C program linked against the system's DPDK
(``pkg-config libdpdk``).  It initialises the EAL once and then answers
one JSON line per command read from stdin (see README.md beside this file).

Nothing in here skips silently: a probe that cannot be built, an EAL that
does not start, a probe that dies or answers garbage all raise
:class:`OracleError` carrying the tail of the probe's stderr.

Stdlib only.  Designed so a cross-built probe can run under an emulator:
``build_probe(cc="aarch64-linux-gnu-gcc", pkg_config_env={...})`` and
``Probe(binary, runner=["qemu-aarch64-static", "-L", sysroot])``.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import itertools
import json
import os
import select
import shlex
import shutil
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

HERE = Path(__file__).resolve().parent
PROBE_SRC = HERE / "probe.c"
DEFAULT_BUILD_DIR = HERE / ".build"

HUGEPAGE_2M_SYSFS = Path("/sys/kernel/mm/hugepages/hugepages-2048kB")

__all__ = [
    "ARM64_SYSROOT",
    "OracleError",
    "Probe",
    "ProbeCommandError",
    "arm64_pkg_config_env",
    "arm64_probe_factory",
    "build_arm64_probe",
    "build_probe",
    "can_reserve_hugepages",
    "dpdk_runtime_dir",
    "hugepages",
]


class OracleError(RuntimeError):
    """The oracle itself failed (build, EAL start, crash, timeout, protocol)."""


class ProbeCommandError(OracleError):
    """The probe rejected a command line as malformed (a test bug, not DPDK)."""


def _tail(text: str, lines: int = 40) -> str:
    return "\n".join(text.rstrip().splitlines()[-lines:])


# --------------------------------------------------------------------------
# building


def _pkg_config(pkg_config: str, env: dict[str, str], static: bool = False) -> tuple[list[str], list[str]]:
    def run(*args: str) -> list[str]:
        if static:
            args = ("--static", *args)
        try:
            res = subprocess.run(
                [pkg_config, *args, "libdpdk"],
                env=env,
                capture_output=True,
                text=True,
                check=False,
            )
        except FileNotFoundError as exc:
            raise OracleError(f"{pkg_config} not found: {exc}") from exc
        if res.returncode != 0:
            raise OracleError(
                f"`{pkg_config} {' '.join(args)} libdpdk` failed (rc={res.returncode}):\n{_tail(res.stderr)}"
            )
        return shlex.split(res.stdout)

    return run("--cflags"), run("--libs")


def build_probe(
    cc: str = "gcc",
    pkg_config_env: dict[str, str] | None = None,
    out_dir: Path | None = None,
    *,
    pkg_config: str = "pkg-config",
    extra_cflags: Sequence[str] = (),
    static: bool = False,
) -> Path:
    """Compile probe.c against libdpdk and return the binary's path.

    ``pkg_config_env`` is merged over os.environ for the pkg-config call
    (e.g. ``{"PKG_CONFIG_PATH": ..., "PKG_CONFIG_SYSROOT_DIR": ...}`` or
    ``PKG_CONFIG_LIBDIR`` for a cross build).  The binary's name encodes
    the compiler and a hash of the flags, so native and cross builds live
    side by side in ``out_dir`` (default tests/conformance/.build/).  It is
    rebuilt only when missing or older than probe.c.

    ``static`` links a static DPDK install (``pkg-config --static``, which
    wraps the DPDK and driver archives in ``-Wl,--whole-archive`` so the
    mempool ``ring_*`` ops register themselves).  A static probe needs no
    plugin directory, which a shared build refuses under a world-writable
    path such as /tmp.
    """
    out_dir = Path(out_dir) if out_dir is not None else DEFAULT_BUILD_DIR
    env = dict(os.environ)
    if pkg_config_env:
        env.update(pkg_config_env)
    cflags, libs = _pkg_config(pkg_config, env, static)
    cmd_tail = ["-O1", "-g", "-Wall", *extra_cflags, *cflags]
    key = hashlib.sha256(json.dumps([cc, cmd_tail, libs]).encode()).hexdigest()[:12]
    out_dir.mkdir(parents=True, exist_ok=True)
    binary = out_dir / f"probe-{Path(cc).name}-{key}"
    if binary.exists() and binary.stat().st_mtime >= PROBE_SRC.stat().st_mtime:
        return binary
    tmp = binary.with_name(f"{binary.name}.tmp{os.getpid()}")
    cmd = [cc, *cmd_tail, str(PROBE_SRC), "-o", str(tmp), *libs]
    try:
        res = subprocess.run(cmd, capture_output=True, text=True, check=False)
    except FileNotFoundError as exc:
        raise OracleError(f"compiler {cc!r} not found: {exc}") from exc
    if res.returncode != 0:
        tmp.unlink(missing_ok=True)
        raise OracleError(
            f"building the probe failed (rc={res.returncode}):\n{shlex.join(cmd)}\n{_tail(res.stderr + res.stdout)}"
        )
    os.replace(tmp, binary)
    return binary


# --------------------------------------------------------------------------
# running


def dpdk_runtime_dir(file_prefix: str) -> Path:
    """Where EAL keeps its per-prefix runtime files (same rule as EAL)."""
    base = Path("/var/run") if os.geteuid() == 0 else Path(os.environ.get("XDG_RUNTIME_DIR") or "/tmp")
    return base / "dpdk" / file_prefix


_counter = itertools.count()


class Probe:
    """One running probe process (one EAL instance); a context manager.

    ``eal_args`` replaces the computed EAL argument list entirely (it must
    then contain its own ``--file-prefix`` if cleanup of the runtime dir is
    wanted; pass ``file_prefix`` too so close() knows what to remove).
    ``runner`` prefixes the command line (e.g. an emulator).
    """

    def __init__(
        self,
        binary: Path | str | None = None,
        *,
        nchannel: int = 4,
        nrank: int = 1,
        mem_mb: int | None = None,
        hugepages: bool = False,
        huge_dir: Path | str | None = None,
        eal_args: Sequence[str] | None = None,
        extra_eal_args: Sequence[str] = (),
        runner: Sequence[str] = (),
        timeout: float = 120.0,
        startup_timeout: float = 120.0,
        file_prefix: str | None = None,
        env: dict[str, str] | None = None,
    ) -> None:
        self.binary = Path(binary) if binary is not None else build_probe()
        self.file_prefix = file_prefix or f"mpcalc{os.getpid()}_{next(_counter)}"
        self.hugepages = hugepages
        self.huge_dir = Path(huge_dir) if huge_dir is not None else None
        self.timeout = timeout
        if eal_args is None:
            eal_args = self.default_eal_args(
                nchannel=nchannel,
                nrank=nrank,
                mem_mb=mem_mb,
                hugepages=hugepages,
                huge_dir=self.huge_dir,
                file_prefix=self.file_prefix,
            )
        self.eal_args = [*eal_args, *extra_eal_args]
        self.argv = [*runner, str(self.binary), *self.eal_args]
        self._stderr = tempfile.TemporaryFile(mode="w+b", prefix="mpcalc-probe-")  # noqa: SIM115 (closed by close())
        self._buf = b""
        self._lock = threading.Lock()
        self.platform: dict = {}
        try:
            self.proc = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self._stderr,
                env=env,
                bufsize=0,
            )
        except OSError as exc:
            self._stderr.close()
            raise OracleError(f"cannot start probe {self.argv}: {exc}") from exc
        try:
            first = self._readline(startup_timeout, "EAL start-up")
            if "platform" not in first:
                raise OracleError(f"first probe line is not the platform line: {first}")
            self.platform = first["platform"]
        except BaseException:
            self._kill()
            self._cleanup_files()
            self._stderr.close()
            raise

    # -- construction helpers ------------------------------------------------

    @staticmethod
    def default_eal_args(
        *,
        nchannel: int = 4,
        nrank: int = 1,
        mem_mb: int | None = None,
        hugepages: bool = False,
        huge_dir: Path | None = None,
        file_prefix: str,
    ) -> list[str]:
        args = [
            "--no-pci",
            "-l",
            "0",
            "--file-prefix",
            file_prefix,
            "-n",
            str(nchannel),
            "-r",
            str(nrank),
            "--no-telemetry",
        ]
        if hugepages:
            if huge_dir is None:
                raise OracleError("hugepages=True needs huge_dir (see hugepages())")
            args += ["--huge-dir", str(huge_dir)]
            # without -m EAL allocates hugepages on demand (dynamic memory)
            if mem_mb is not None:
                args += ["-m", str(mem_mb)]
        else:
            args += ["--no-huge", "-m", str(mem_mb if mem_mb is not None else 3072)]
        return args

    # -- i/o -------------------------------------------------------------------

    def stderr_tail(self, lines: int = 40) -> str:
        try:
            self._stderr.flush()
            self._stderr.seek(0)
            data = self._stderr.read().decode(errors="replace")
        except (ValueError, OSError):
            return "<stderr unavailable>"
        return _tail(data, lines)

    def _fail(self, what: str) -> OracleError:
        rc = self.proc.poll()
        return OracleError(f"probe {what} (rc={rc}, argv={shlex.join(self.argv)}); stderr tail:\n{self.stderr_tail()}")

    def _readline(self, timeout: float, what: str) -> dict:
        deadline = time.monotonic() + timeout
        fd = self.proc.stdout.fileno()
        while b"\n" not in self._buf:
            left = deadline - time.monotonic()
            if left <= 0:
                self._kill()
                raise self._fail(f"timed out after {timeout}s waiting for {what}")
            ready, _, _ = select.select([fd], [], [], left)
            if not ready:
                continue
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                self.proc.wait(timeout=10)
                raise self._fail(f"exited while waiting for {what}")
            self._buf += chunk
        line, self._buf = self._buf.split(b"\n", 1)
        try:
            return json.loads(line)
        except json.JSONDecodeError as exc:
            self._kill()
            raise self._fail(f"sent a non-JSON line {line[:300]!r} ({exc})") from exc

    def _write(self, data: bytes) -> None:
        try:
            self.proc.stdin.write(data)
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError) as exc:
            raise self._fail(f"closed its stdin ({exc})") from exc

    @staticmethod
    def _encode(cmd: str, extra_lines: Iterable[str]) -> bytes:
        lines = [cmd, *extra_lines]
        for ln in lines:
            if "\n" in ln:
                raise ValueError(f"command line contains a newline: {ln!r}")
        return ("\n".join(lines) + "\n").encode()

    def _check(self, cmd: str, reply: dict, check: bool) -> dict:
        word = cmd.split()[0] if cmd.split() else None
        if reply.get("cmd") != word:
            self._kill()
            raise self._fail(f"answered {reply!r} to {cmd!r} (stream out of sync)")
        if check and "error" in reply:
            raise ProbeCommandError(f"probe rejected {cmd!r}: {reply['error']}")
        return reply

    def run(
        self, cmd: str, extra_lines: Sequence[str] = (), *, check: bool = True, timeout: float | None = None
    ) -> dict:
        """Send one command (plus its extra lines, for fibadd); return the reply.

        With ``check`` (default) a reply carrying "error" (malformed command)
        raises ProbeCommandError; DPDK failures are normal replies (ok false).
        """
        with self._lock:
            if self.proc.poll() is not None:
                raise self._fail("is not running")
            self._write(self._encode(cmd, extra_lines))
            reply = self._readline(timeout or self.timeout, f"reply to {cmd!r}")
            return self._check(cmd, reply, check)

    def run_many(
        self, cmds: Iterable[str | tuple[str, Sequence[str]]], *, check: bool = True, timeout: float | None = None
    ) -> list[dict]:
        """Pipeline many commands; return the replies in order.

        Each item is a command string or ``(command, extra_lines)``.  A
        writer thread feeds stdin while replies are read, so large batches
        cannot deadlock on full pipes.  ``timeout`` applies per reply.
        """
        items = [(c, ()) if isinstance(c, str) else (c[0], tuple(c[1])) for c in cmds]
        payload = b"".join(self._encode(c, x) for c, x in items)
        errors: list[BaseException] = []

        def writer() -> None:
            try:
                self.proc.stdin.write(payload)
                self.proc.stdin.flush()
            except BaseException as exc:  # reported after the reads
                errors.append(exc)

        replies = []
        with self._lock:
            if self.proc.poll() is not None:
                raise self._fail("is not running")
            t = threading.Thread(target=writer, daemon=True)
            t.start()
            try:
                for cmd, _ in items:
                    reply = self._readline(timeout or self.timeout, f"reply to {cmd!r}")
                    replies.append(self._check(cmd, reply, check))
            finally:
                t.join(timeout=5)
            if errors:
                raise self._fail(f"stdin write failed ({errors[0]})")
        return replies

    # -- shutdown --------------------------------------------------------------

    def _kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.proc.wait(timeout=10)

    def _cleanup_files(self) -> None:
        shutil.rmtree(dpdk_runtime_dir(self.file_prefix), ignore_errors=True)
        if self.huge_dir is not None and self.huge_dir.is_dir():
            for f in self.huge_dir.glob(f"{self.file_prefix}map_*"):
                with contextlib.suppress(OSError):
                    f.unlink()

    def close(self, timeout: float = 30.0) -> int:
        """Send quit, wait for exit, remove EAL runtime files; return rc.

        Raises OracleError if the probe had to be killed or exited non-zero.
        """
        if getattr(self, "proc", None) is None:
            return 0
        err = None
        try:
            if self.proc.poll() is None:
                with contextlib.suppress(BrokenPipeError, OSError):
                    self.proc.stdin.write(b"quit\n")
                    self.proc.stdin.flush()
                with contextlib.suppress(OSError):
                    self.proc.stdin.close()
                try:
                    self.proc.wait(timeout=timeout)
                except subprocess.TimeoutExpired:
                    self._kill()
                    err = self._fail(f"did not exit within {timeout}s of quit")
            if err is None and self.proc.returncode != 0:
                err = self._fail("exited with an error")
        finally:
            with contextlib.suppress(OSError):
                self.proc.stdout.close()
            self._cleanup_files()
            rc = self.proc.returncode
            self._stderr.close()
            self.proc = None
        if err is not None:
            raise err
        return rc

    def __enter__(self) -> Probe:
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        if exc_type is None:
            self.close()
        else:  # don't mask the original error
            with contextlib.suppress(Exception):
                self.close()

    def __del__(self) -> None:  # last resort, never raises
        with contextlib.suppress(Exception):
            if getattr(self, "proc", None) is not None:
                self._kill()
                self._cleanup_files()


# --------------------------------------------------------------------------
# hugepages (root only)


def _hp_read(name: str) -> int:
    return int((HUGEPAGE_2M_SYSFS / name).read_text().strip())


def _hp_set_nr(n: int) -> None:
    (HUGEPAGE_2M_SYSFS / "nr_hugepages").write_text(f"{n}\n")


def _sh(*cmd: str) -> subprocess.CompletedProcess:
    return subprocess.run(list(cmd), capture_output=True, text=True, check=False)


@contextlib.contextmanager
def hugepages(count: int, mount_dir: Path | str | None = None) -> Iterator[tuple[Path, int]]:
    """Reserve ``count`` more 2 MiB hugepages and mount a private hugetlbfs.

    Writes nr_hugepages (2048 kB size; on a 2 MiB-default kernel this is
    /proc/sys/vm/nr_hugepages) to current + count, mounts hugetlbfs with
    pagesize=2M on a fresh directory created inside ``mount_dir`` (default:
    the system temp dir) and yields ``(dir, free_pages)``, free_pages being
    the number of free 2 MiB pages after the reservation (the kernel may
    grant fewer than asked).  On exit: unmount, remove the dir, lower
    nr_hugepages by what this added (not back to the value it read: other
    users may have raised it meanwhile).  Raises OracleError if any step fails.
    """
    if not HUGEPAGE_2M_SYSFS.is_dir():
        raise OracleError(f"{HUGEPAGE_2M_SYSFS} missing: no 2 MiB hugepage support")
    old_nr = _hp_read("nr_hugepages")
    added = 0  # what this raised nr_hugepages by: lowered by exactly that (others may raise it meanwhile)
    mnt: Path | None = None
    mounted = False
    try:
        try:
            _hp_set_nr(old_nr + count)
            added = _hp_read("nr_hugepages") - old_nr
        except OSError as exc:
            raise OracleError(f"cannot write nr_hugepages: {exc}") from exc
        free = _hp_read("free_hugepages")
        mnt = Path(tempfile.mkdtemp(prefix="mpcalc-huge-", dir=mount_dir))
        res = _sh("mount", "-t", "hugetlbfs", "-o", "pagesize=2M", "nodev", str(mnt))
        if res.returncode != 0:
            raise OracleError(f"mounting hugetlbfs on {mnt} failed: {res.stderr.strip()}")
        mounted = True
        yield mnt, free
    finally:
        problems = []
        if mounted:
            res = _sh("umount", str(mnt))
            if res.returncode != 0:
                res2 = _sh("umount", "-l", str(mnt))
                problems.append(
                    f"umount {mnt}: {res.stderr.strip()}"
                    + ("" if res2.returncode == 0 else " (lazy umount failed too)")
                )
        if mnt is not None:
            with contextlib.suppress(OSError):
                mnt.rmdir()
        try:
            if added > 0:
                _hp_set_nr(_hp_read("nr_hugepages") - added)
        except OSError as exc:
            problems.append(f"lowering nr_hugepages by {added}: {exc}")
        if problems:
            raise OracleError("hugepages cleanup: " + "; ".join(problems))


@functools.cache
def can_reserve_hugepages() -> bool:
    """True if this process can really reserve a 2 MiB page and mount hugetlbfs.

    Tries it (one page, one mount) and restores everything.
    """
    if os.geteuid() != 0 or not HUGEPAGE_2M_SYSFS.is_dir():
        return False
    if shutil.which("mount") is None or shutil.which("umount") is None:
        return False
    try:
        with hugepages(1) as (_, free):
            return free >= 1
    except (OracleError, OSError):
        return False


# --------------------------------------------------------------------------
# arm64: Debian's libdpdk-dev:arm64 in a sysroot, a cross-built probe, qemu-user


ARM64_TRIPLET = "aarch64-linux-gnu"
#: made by scripts/arm64-sysroot.sh (git-ignored)
ARM64_SYSROOT = DEFAULT_BUILD_DIR / "arm64-sysroot"
ARM64_CC = f"{ARM64_TRIPLET}-gcc"
ARM64_QEMU = "qemu-aarch64-static"


def arm64_pkg_config_env(sysroot: Path | str = ARM64_SYSROOT) -> dict[str, str]:
    """pkg-config sees only the sysroot's .pc files and prefixes their paths with it."""
    root = Path(sysroot)
    return {
        "PKG_CONFIG_LIBDIR": f"{root}/usr/lib/{ARM64_TRIPLET}/pkgconfig:{root}/usr/share/pkgconfig",
        "PKG_CONFIG_SYSROOT_DIR": str(root),
        "PKG_CONFIG_PATH": "",
    }


def _check_arm64_sysroot(root: Path) -> None:
    needed = [
        f"usr/lib/{ARM64_TRIPLET}/pkgconfig/libdpdk.pc",
        f"usr/lib/{ARM64_TRIPLET}/librte_eal.so.23",
        "lib/ld-linux-aarch64.so.1",
    ]
    missing = [n for n in needed if not (root / n).exists()]
    if missing:
        raise OracleError(
            f"arm64 sysroot {root} is incomplete (missing {', '.join(missing)}): "
            "run scripts/arm64-sysroot.sh (scripts/test.sh does)"
        )


def build_arm64_probe(sysroot: Path | str = ARM64_SYSROOT, out_dir: Path | None = None, *, cc: str = ARM64_CC) -> Path:
    """Cross-compile probe.c against the sysroot's DPDK (armv8 generic) and return the binary."""
    root = Path(sysroot).resolve()
    _check_arm64_sysroot(root)
    env = arm64_pkg_config_env(root)
    cflags, _ = _pkg_config("pkg-config", {**os.environ, **env})
    host_only = [f for f in cflags if f.startswith("-march=") and "armv8" not in f]
    if host_only or not any(f.startswith("-I" + str(root)) for f in cflags):
        raise OracleError(f"cross pkg-config gave host flags for arm64: {shlex.join(cflags)}")
    return build_probe(cc, env, out_dir, extra_cflags=[f"--sysroot={root}"])


def arm64_probe_factory(sysroot: Path | str = ARM64_SYSROOT, *, qemu: str = ARM64_QEMU, out_dir: Path | None = None):
    """Build the arm64 probe; return ``make(**probe_kwargs) -> Probe`` running it under qemu-user.

    EAL finds its driver plugins (librte_mempool_ring among them) in the sysroot through qemu's
    ``-L`` path redirection, so the default EAL options work unchanged.
    """
    root = Path(sysroot).resolve()
    binary = build_arm64_probe(root, out_dir)
    emulator = shutil.which(qemu)
    if emulator is None:
        raise OracleError(f"{qemu} not found (Debian package qemu-user-static; scripts/test.sh installs it)")
    runner = [emulator, "-L", str(root)]
    env = {**os.environ, "QEMU_LD_PREFIX": str(root)}

    def make(**kwargs) -> Probe:
        kwargs.setdefault("runner", runner)
        kwargs.setdefault("env", env)
        return Probe(binary, **kwargs)

    make.binary = binary  # type: ignore[attr-defined]
    make.runner = runner  # type: ignore[attr-defined]
    return make
