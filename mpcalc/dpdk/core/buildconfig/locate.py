"""Where a build's configuration is read from: a header, a folder, compile_commands.json, pkg-config.

GCC's rules (gcc.gnu.org/onlinedocs/cpp, "Invocation"): ``-D``/``-U`` act in command-line order, then the
``-include`` files are read, each "as if #include \\"file\\"" but looked up first in the working folder;
``#include "..."`` searches the including file's folder, ``-iquote``, then ``-I``, ``-isystem``,
``-idirafter``; ``#include <...>`` the last three only.
"""

from __future__ import annotations

import json
import os
import shlex
from pathlib import Path

from mpcalc.dpdk.core.buildconfig.config import BuildConfig, config_of
from mpcalc.dpdk.core.buildconfig.cpp import MAX_BYTES, Preprocessor
from mpcalc.dpdk.core.errors import InputError

#: the compile whose flags decide the footprints (its objects' layout, the pool's struct)
MEMPOOL_SOURCE = "lib/mempool/rte_mempool.c"
_PREFIXED = ("-I", "-D", "-U", "-iquote", "-isystem", "-idirafter", "-include")


def _flag_pairs(flags: list[str]) -> list[tuple[str, str]]:
    """``-I dir`` and ``-Idir`` alike as (flag, value); other flags are dropped."""
    out: list[tuple[str, str]] = []
    i = 0
    while i < len(flags):
        f = flags[i]
        for name in _PREFIXED:
            if f == name and i + 1 < len(flags):
                out.append((name, flags[i + 1]))
                i += 1
                break
            if f.startswith(name) and len(f) > len(name) and not (name == "-I" and f.startswith("-include")):
                if name in ("-I", "-D", "-U"):
                    out.append((name, f[len(name) :]))
                break
        i += 1
    return out


def search_path(flags: list[str], cwd: Path) -> tuple[list[Path], list[Path]]:
    """(-iquote folders, then -I, -isystem, -idirafter folders), relative ones from ``cwd``."""
    pairs = _flag_pairs(flags)
    by = {name: [cwd / v for n, v in pairs if n == name] for name in ("-iquote", "-I", "-isystem", "-idirafter")}
    return by["-iquote"], [*by["-I"], *by["-isystem"], *by["-idirafter"]]


def read_flags(flags: list[str], cwd: Path, origin: str, path: str) -> BuildConfig:
    """What a compile with these flags sees of the configuration (``-D``/``-U``, then ``-include``)."""
    quote, dirs = search_path(flags, cwd)
    pp = Preprocessor(dirs, quote)
    pairs = _flag_pairs(flags)
    for name, value in pairs:
        if name == "-D":
            pp.define_flag(value, f"-D{value} in {origin}")
        elif name == "-U":
            pp.undefine(value)
    notes: list[str] = []
    forced = [v for n, v in pairs if n == "-include"]
    if "rte_config.h" not in [Path(f).name for f in forced]:
        forced.append("rte_config.h")  # an old libdpdk.pc or a hand-made flag list: what DPDK's headers expect
    for name in forced:
        found = (cwd / name) if (cwd / name).is_file() else pp.find(name, True, None)
        if found is not None:
            pp.include(found)
        elif name == "rte_config.h" and pp.find("rte_build_config.h", False, None) is not None:
            # a build folder without its source tree: rte_config.h defines no value mpcalc reads
            # (config/rte_config.h at v21.11.9 ... v26.07), so its include is read directly
            pp.include(pp.find("rte_build_config.h", False, None))  # type: ignore[arg-type]
            notes.append(
                "rte_config.h is not on the include path (the source tree is gone?): rte_build_config.h read directly"
            )
        elif not name.startswith("rte_"):
            continue
        else:
            raise InputError(
                f"{origin}: -include {name} is on no folder of the include path "
                f"({', '.join(str(d) for d in dirs) or 'none'})",
                param="--build-config",
            )
    _check_found(pp, path)
    return config_of(pp, path, flags_read=True, notes=tuple(notes))


def _check_found(pp: Preprocessor, path: str) -> None:
    if "rte_build_config.h" in pp.not_found:
        raise InputError(
            f"{path}: #include <rte_build_config.h> is on no folder of the include path "
            f"({', '.join(str(d) for d in pp.include_dirs) or 'none'})",
            param="--build-config",
        )
    if not any(k in pp.macros for k in ("RTE_ARCH", "RTE_CACHE_LINE_SIZE", "RTE_MAX_LCORE")):
        raise InputError(
            f"{path!r} defines none of RTE_ARCH, RTE_CACHE_LINE_SIZE, RTE_MAX_LCORE "
            f"(read: {', '.join(pp.files) or 'nothing'})",
            param="--build-config",
        )


def read_compile_commands(file: Path) -> BuildConfig:
    """The flags that compile rte_mempool.c in a meson build's compile_commands.json."""
    try:
        if file.stat().st_size > 64 * MAX_BYTES:
            raise InputError(f"{str(file)!r} is over 256 MiB", param="--build-config")
        entries = json.loads(file.read_text())
    except OSError as exc:
        raise InputError(f"cannot read {str(file)!r}: {exc.strerror}", param="--build-config") from None
    except (ValueError, UnicodeDecodeError):
        raise InputError(f"{str(file)!r} is not a compile_commands.json (not JSON)", param="--build-config") from None
    if not isinstance(entries, list):
        raise InputError(f"{str(file)!r} is not a compile_commands.json (not a list)", param="--build-config")
    entry = next((e for e in entries if isinstance(e, dict) and str(e.get("file", "")).endswith(MEMPOOL_SOURCE)), None)
    if entry is None:
        raise InputError(
            f"{str(file)!r} has no compile of {MEMPOOL_SOURCE}: not a DPDK build with the mempool library",
            param="--build-config",
        )
    flags = entry.get("arguments") or shlex.split(str(entry.get("command", "")))
    cwd = file.parent / str(entry.get("directory", "."))
    return read_flags([str(f) for f in flags], cwd, f"{file}'s compile of {MEMPOOL_SOURCE}", str(file))


def read_header(header: Path) -> BuildConfig:
    """A header (rte_config.h, rte_build_config.h) with its own folder on the include path, as ``-I``."""
    pp = Preprocessor([header.parent])
    pp.include(header)
    _check_found(pp, str(header))
    return config_of(pp, str(header), flags_read=False)


def read_path(path: Path) -> BuildConfig:
    """A header, a compile_commands.json, or a folder: a meson build (compile_commands.json), an include
    folder, an install prefix (include/), or Debian's /usr/include/dpdk (whose rte_config.h is in the
    multiarch folder next to it, ``../<triplet>/dpdk``, as libdpdk.pc's second -I says)."""
    if path.is_file():
        return read_compile_commands(path) if path.name.endswith(".json") else read_header(path)
    if not path.is_dir():
        raise InputError(f"cannot read build config {str(path)!r}: no such file or folder", param="--build-config")
    if (path / "compile_commands.json").is_file():
        return read_compile_commands(path / "compile_commands.json")
    candidates = [
        path,
        path / "include",
        path / "include" / "dpdk",
        *sorted(path.parent.glob("*-linux-*/dpdk")),
        *sorted((path / "include").glob("*-linux-*/dpdk")),
    ]
    dirs = [d for d in candidates if d.is_dir()]
    for name in ("rte_config.h", "rte_build_config.h"):
        for d in dirs:
            if (d / name).is_file():
                pp = Preprocessor(dirs)
                pp.include(d / name)
                _check_found(pp, str(path))
                return config_of(pp, str(path), flags_read=False)
    raise InputError(
        f"{str(path)!r} holds no rte_config.h, rte_build_config.h or compile_commands.json", param="--build-config"
    )


def pkg_config_flags(pkg_config: str, env: dict[str, str] | None) -> list[str]:
    import subprocess

    try:
        out = subprocess.run(
            [pkg_config, "--cflags", "libdpdk"],
            capture_output=True,
            text=True,
            check=True,
            timeout=30,
            env={**os.environ, **(env or {})},
        ).stdout
    except subprocess.CalledProcessError as exc:
        raise InputError(f"pkg-config libdpdk failed: {exc.stderr.strip() or exc}", param="--pkg-config") from None
    except (OSError, subprocess.SubprocessError) as exc:
        raise InputError(f"pkg-config libdpdk failed: {exc}", param="--pkg-config") from None
    return shlex.split(out)


def read_pkg_config(pkg_config: str, env: dict[str, str] | None) -> BuildConfig:
    flags = pkg_config_flags(pkg_config, env)
    cfg = read_flags(flags, Path.cwd(), "pkg-config --cflags libdpdk", "pkg-config libdpdk")
    note = (
        "libdpdk.pc carries no -D of the build's c_args (buildtools/pkg-config/meson.build): a debug or stats "
        "build made with -Dc_args shows in its build folder (--build-config BUILD_DIR) or with --debug/--stats"
    )
    return cfg._replace(notes=(*cfg.notes, note))
