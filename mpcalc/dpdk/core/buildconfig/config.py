"""What a build's configuration says (:class:`BuildConfig`), from the macros its preprocessor saw (:func:`config_of`).

Pure: stdlib only.
"""

from __future__ import annotations

from typing import NamedTuple

from mpcalc.dpdk.core.buildconfig.cpp import Preprocessor
from mpcalc.dpdk.core.errors import InputError

#: RTE_ARCH as DPDK's meson files write it (``dpdk_conf.set('RTE_ARCH', ...)``; the same at every tag
#: from v21.11 to v26.07) -> mpcalc's architecture.  mpcalc's own names and GCC's ``aarch64`` are
#: accepted too, for hand-written files.
ARCH_SPELLINGS = {
    "x86_64": "x86_64",  # v22.11:config/x86/meson.build:67
    "armv8": "arm64",  # v22.11:config/arm/meson.build:546 (every aarch64 build, any -Dplatform)
    "ppc_64": "ppc64le",  # v22.11:config/ppc/meson.build:8
    "riscv": "riscv64",  # v22.11:config/riscv/meson.build:17
    "loongarch": "loongarch64",  # v22.11:config/loongarch/meson.build:7
    "arm64": "arm64",
    "aarch64": "arm64",
    "ppc64le": "ppc64le",
    "riscv64": "riscv64",
    "loongarch64": "loongarch64",
}
#: 32-bit builds DPDK can make and mpcalc does not model
ARCH_32BIT = {
    "i686": "v22.11:config/x86/meson.build:70",
    "armv7": "v22.11:config/arm/meson.build:538",
    "armv8_aarch32": "v22.11:config/arm/meson.build:53",
}
#: the macros read, and the BuildConfig field each one sets
KEYS = {
    "RTE_ARCH": "arch",
    "RTE_CACHE_LINE_SIZE": "cache_line",
    "RTE_MAX_LCORE": "max_lcore",
    "RTE_MEMPOOL_ALIGN": "mempool_align",
    "RTE_VER_YEAR": "dpdk",
    "RTE_VER_MONTH": "dpdk",
    "RTE_LIBRTE_MEMPOOL_DEBUG": "debug",
    "RTE_LIBRTE_MEMPOOL_STATS": "stats",
}


class BuildConfig(NamedTuple):
    """The values of a build that change footprints; ``None`` where the build is silent.

    ``debug``/``stats`` are whether the switch is defined (rte_mempool.h tests them with ``#ifdef``,
    v24.11:lib/mempool/rte_mempool.h:63,157).  ``origins`` says, per field, where its value was read
    (``file:line`` or the flag); ``notes`` what the reader could not see.
    """

    path: str
    dpdk: str | None = None
    arch: str | None = None
    cache_line: int | None = None
    max_lcore: int | None = None
    mempool_align: int | None = None
    debug: bool = False
    stats: bool = False
    origins: tuple[tuple[str, str], ...] = ()
    notes: tuple[str, ...] = ()
    #: True when the build's compile flags were read (compile_commands.json, pkg-config), so an
    #: undefined debug/stats switch means a build without it
    flags_read: bool = False


def config_of(pp: Preprocessor, path: str, *, flags_read: bool, notes: tuple[str, ...] = ()) -> BuildConfig:
    """The BuildConfig of a preprocessor's macros once the build's headers are read."""
    origins: dict[str, str] = {}

    def number(key: str) -> int | None:
        macro = pp.macros.get(key)
        if macro is None:
            return None
        value = pp.evaluate(macro.value, macro.where, strict=True)
        origins[KEYS[key]] = f"{key} {value} ({macro.where})"
        return value

    arch = None
    if "RTE_ARCH" in pp.macros:
        macro = pp.macros["RTE_ARCH"]
        spelling = macro.value.strip().strip('"')
        if spelling in ARCH_32BIT:
            raise InputError(
                f"{macro.where}: RTE_ARCH {spelling} is a 32-bit build ({ARCH_32BIT[spelling]}); "
                "mpcalc models 64-bit builds: " + ", ".join(sorted(set(ARCH_SPELLINGS.values()))),
                param="--build-config",
            )
        arch = ARCH_SPELLINGS.get(spelling)
        if arch is None:
            raise InputError(
                f"{macro.where}: RTE_ARCH {spelling!r} is not an architecture mpcalc knows "
                f"(DPDK writes {', '.join(list(ARCH_SPELLINGS)[:5])})",
                param="--build-config",
            )
        origins["arch"] = f"RTE_ARCH {spelling} ({macro.where})"
    year, month = number("RTE_VER_YEAR"), number("RTE_VER_MONTH")
    if year is not None and month is not None:
        origins["dpdk"] = f"RTE_VER_YEAR {year}, RTE_VER_MONTH {month} ({pp.macros['RTE_VER_MONTH'].where})"
    switches = {}
    for key in ("RTE_LIBRTE_MEMPOOL_DEBUG", "RTE_LIBRTE_MEMPOOL_STATS"):
        switch = pp.macros.get(key)
        switches[key] = switch is not None
        if switch is not None:
            origins[KEYS[key]] = f"{key} ({switch.where})"
        elif flags_read:
            origins[KEYS[key]] = f"{key} not defined (build {path})"
    return BuildConfig(
        path=path,
        dpdk=f"{year:02d}.{month:02d}" if year is not None and month is not None else None,
        arch=arch,
        cache_line=number("RTE_CACHE_LINE_SIZE"),
        max_lcore=number("RTE_MAX_LCORE"),
        mempool_align=number("RTE_MEMPOOL_ALIGN"),
        debug=switches["RTE_LIBRTE_MEMPOOL_DEBUG"],
        stats=switches["RTE_LIBRTE_MEMPOOL_STATS"],
        origins=tuple(origins.items()),
        notes=notes,
        flags_read=flags_read,
    )
