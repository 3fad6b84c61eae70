"""Read a DPDK build's ``rte_build_config.h`` (the user's own build)."""

import os
import re
from typing import NamedTuple
from pathlib import Path

from .errors import InputError

#: RTE_ARCH as meson writes it (config/<arch>/meson.build) -> mpcalc's architecture name
_ARCH = {"x86_64": "x86_64", "aarch64": "arm64", "arm64": "arm64", "armv8a": "arm64", "ppc_64": "ppc64le",
         "ppc64le": "ppc64le", "riscv": "riscv64", "riscv64": "riscv64", "loongarch": "loongarch64",
         "loongarch64": "loongarch64"}
_DEFINE = re.compile(r"^\s*#\s*define\s+(\w+)(?:\s+(.*?))?\s*$")
MAX_BYTES = 4 * 2**20


class BuildConfig(NamedTuple):
    """The values of a build that change footprints; ``None`` where the file is silent."""

    path: str
    dpdk: str | None = None
    arch: str | None = None
    cache_line: int | None = None
    max_lcore: int | None = None
    mempool_align: int | None = None
    debug: bool = False
    stats: bool = False


def parse(text: str, path: str) -> BuildConfig:
    """Parse the ``#define`` lines of rte_build_config.h.

    >>> cfg = parse("#define RTE_ARCH aarch64\\n#define RTE_CACHE_LINE_SIZE 128\\n#define RTE_MAX_LCORE 256\\n"
    ...             "#define RTE_VER_YEAR 22\\n#define RTE_VER_MONTH 11\\n", "x.h")
    >>> cfg.arch, cfg.cache_line, cfg.max_lcore, cfg.dpdk
    ('arm64', 128, 256, '22.11')
    """
    defs: dict[str, str] = {}
    for line in text.splitlines():
        m = _DEFINE.match(line)
        if m:
            defs[m.group(1)] = (m.group(2) or "").strip().strip('"')

    def number(key: str) -> int | None:
        if key not in defs:
            return None
        try:
            return int(defs[key], 0)
        except ValueError:
            raise InputError(f"{path}: {key} is {defs[key]!r}, not a number", param="--build-config") from None

    arch = None
    if "RTE_ARCH" in defs:
        arch = _ARCH.get(defs["RTE_ARCH"])
        if arch is None:
            raise InputError(f"{path}: RTE_ARCH {defs['RTE_ARCH']!r} is not an architecture mpcalc knows",
                             param="--build-config")
    year, month = number("RTE_VER_YEAR"), number("RTE_VER_MONTH")
    return BuildConfig(
        path=path,
        dpdk=f"{year:02d}.{month:02d}" if year is not None and month is not None else None,
        arch=arch,
        cache_line=number("RTE_CACHE_LINE_SIZE"),
        max_lcore=number("RTE_MAX_LCORE"),
        mempool_align=number("RTE_MEMPOOL_ALIGN"),
        debug="RTE_LIBRTE_MEMPOOL_DEBUG" in defs,
        stats="RTE_LIBRTE_MEMPOOL_STATS" in defs,
    )


def read(path: str | os.PathLike[str]) -> BuildConfig:
    p = Path(path)
    try:
        data = p.read_bytes()[: MAX_BYTES + 1]
    except OSError as exc:
        raise InputError(f"cannot read build config {str(p)!r}: {exc.strerror}", param="--build-config") from None
    if len(data) > MAX_BYTES or b"\0" in data:
        raise InputError(f"{str(p)!r} is not an rte_build_config.h (binary or over 4 MiB)", param="--build-config")
    try:
        text = data.decode()
    except UnicodeDecodeError:
        raise InputError(f"{str(p)!r} is not UTF-8 text", param="--build-config") from None
    cfg = parse(text, str(p))
    if cfg.cache_line is None and cfg.max_lcore is None and cfg.arch is None:
        raise InputError(f"{str(p)!r} defines none of RTE_ARCH, RTE_CACHE_LINE_SIZE, RTE_MAX_LCORE",
                         param="--build-config")
    return cfg


def find_installed(pkg_config: str = "pkg-config") -> Path:
    """The rte_build_config.h of the DPDK that ``pkg-config libdpdk`` finds."""
    import shlex
    import subprocess

    try:
        out = subprocess.run([pkg_config, "--cflags-only-I", "libdpdk"], capture_output=True, text=True,
                             check=True, timeout=30).stdout
    except (OSError, subprocess.SubprocessError) as exc:
        raise InputError(f"pkg-config libdpdk failed: {exc}", param="--pkg-config") from None
    for flag in shlex.split(out):
        if flag.startswith("-I"):
            candidate = Path(flag[2:]) / "rte_build_config.h"
            if candidate.is_file():
                return candidate
    raise InputError("pkg-config libdpdk names no folder with rte_build_config.h", param="--pkg-config")
