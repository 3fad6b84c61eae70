"""Read a user's own DPDK build as its compiler sees it.

What changes footprints is decided where ``lib/mempool/rte_mempool.c`` is compiled: the build's
``-D``/``-U`` flags, then ``-include rte_config.h`` (config/meson.build adds it to every compile), which
``#include <rte_build_config.h>`` (v22.11:config/rte_config.h:15), the header meson writes
(config/meson.build: ``configure_file(output: 'rte_build_config.h')``).  Three ways in (:mod:`.locate`):

* a header (rte_config.h or rte_build_config.h), its includes followed on its own folder;
* a folder: a meson build folder (its ``compile_commands.json``: the exact flags, ``c_args`` included),
  an include folder or an install prefix;
* ``pkg-config --cflags libdpdk``: libdpdk.pc's ``-I``, ``-include rte_config.h`` and any ``-D``.

``RTE_LIBRTE_MEMPOOL_DEBUG``/``_STATS`` are never written by meson: rte_config.h only says they are "not
set" (v22.11:config/rte_config.h:49-50); a debug or stats build defines them in ``c_args``
(``-Dc_args=-DRTE_LIBRTE_MEMPOOL_DEBUG``), which reach compile_commands.json but not libdpdk.pc
(buildtools/pkg-config/meson.build: Cflags are ``-include rte_config.h`` and ``machine_args`` only).
"""

from __future__ import annotations

import os
from pathlib import Path

from mpcalc.dpdk.core.buildconfig.config import ARCH_SPELLINGS, BuildConfig, config_of
from mpcalc.dpdk.core.buildconfig.cpp import Preprocessor
from mpcalc.dpdk.core.errors import InputError


def parse(text: str, path: str) -> BuildConfig:
    """The BuildConfig of one header's text (its ``#include`` lines are not followed).

    >>> cfg = parse("#define RTE_ARCH armv8\\n#define RTE_CACHE_LINE_SIZE 128\\n#define RTE_MAX_LCORE 256\\n"
    ...             "#define RTE_VER_YEAR 22\\n#define RTE_VER_MONTH 11\\n", "x.h")
    >>> cfg.arch, cfg.cache_line, cfg.max_lcore, cfg.dpdk
    ('arm64', 128, 256, '22.11')
    """
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        header = Path(tmp) / "header.h"
        header.write_text(text)
        pp = Preprocessor([])
        pp.include(header)
        for macro in list(pp.macros):
            pp.macros[macro] = pp.macros[macro]._replace(where=pp.macros[macro].where.replace(str(header), path))
    return config_of(pp, path, flags_read=False)


def read(path: str | os.PathLike[str]) -> BuildConfig:
    """A build's configuration from a header, a build or include folder, or a compile_commands.json."""
    from mpcalc.dpdk.core.buildconfig.locate import read_path

    return read_path(Path(path))


def from_pkg_config(pkg_config: str = "pkg-config", env: dict[str, str] | None = None) -> BuildConfig:
    """The configuration ``pkg-config --cflags libdpdk`` gives a compiler."""
    from mpcalc.dpdk.core.buildconfig.locate import read_pkg_config

    return read_pkg_config(pkg_config, env)


def find_installed(pkg_config: str = "pkg-config") -> Path:
    """The rte_build_config.h on the include path of the DPDK that ``pkg-config libdpdk`` finds."""
    from mpcalc.dpdk.core.buildconfig.locate import pkg_config_flags, search_path

    quote, dirs = search_path(pkg_config_flags(pkg_config, None), Path.cwd())
    for d in (*quote, *dirs):
        if (d / "rte_build_config.h").is_file():
            return d / "rte_build_config.h"
    raise InputError("pkg-config libdpdk names no folder with rte_build_config.h", param="--pkg-config")


__all__ = ["ARCH_SPELLINGS", "BuildConfig", "find_installed", "from_pkg_config", "parse", "read"]
