"""The platform a footprint is computed for, and the struct sizes it implies."""

import functools
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, NamedTuple

from mpcalc.dpdk.core import facts as _facts
from mpcalc.dpdk.core.errors import InputError
from mpcalc.dpdk.core.intmath import ceil_a, log2_exact

if TYPE_CHECKING:  # only a type: reading build files is imported when used
    from mpcalc.dpdk.core.buildconfig import BuildConfig
    from mpcalc.dpdk.core.declare import Param


#: DPDK's fallbacks when EAL was given no -n/-r: rte_memory_get_nchannel()/nrank() return 0 and
#: rte_mempool uses 4 channels and 1 rank (v22.11:lib/mempool/rte_mempool.c:97-103)
DEFAULT_CHANNELS = 4
DEFAULT_RANKS = 1
#: the page size a platform has unless told: 2 MiB hugepages
DEFAULT_PAGE_SIZE = 2 << 20


#: the largest RTE_MAX_LCORE mpcalc takes (--max-lcore, and an lcore a dump names)
MAX_LCORE_LIMIT = 65535


class Platform(NamedTuple):
    """Everything outside the pool's own parameters that changes its footprint.

    ``channels`` and ``ranks`` are what ``rte_memory_get_nchannel()/nrank()``
    return; DPDK falls back to 4 and 1 when EAL was given no ``-n``/``-r``
    (v22.11:lib/mempool/rte_mempool.c:97-103).  ``page_size`` 0 means no page
    constraint (``--page-size none``).  ``sources`` says where each value came
    from: the default, an option, a named platform or a build file.
    """

    dpdk: str = _facts.DEFAULT_RELEASE
    arch: str = _facts.DEFAULT_ARCH
    preset: str | None = None
    cache_line: int = 64
    mempool_align: int = 64
    max_lcore: int = 128
    spreads: bool = True
    channels: int = DEFAULT_CHANNELS
    ranks: int = DEFAULT_RANKS
    page_size: int = DEFAULT_PAGE_SIZE
    debug: bool = False
    stats: bool = False
    #: the hugepages each NUMA node of the machine (a Kubernetes node) holds, per page size:
    #: ((page size, (node 0's pages, node 1's, ...)), ...), page size 0 for the page size in force; None: not given
    node_hugepages: tuple[tuple[int, tuple[int, ...]], ...] | None = None
    sources: tuple[tuple[str, str], ...] = ()

    @property
    def release(self) -> _facts.ReleaseFacts:
        found = _facts.RELEASES.get(self.dpdk)  # the plain lookup first: struct sizes ask for it often
        return found if found is not None else _facts.release(self.dpdk)

    @property
    def pg_shift(self) -> int:
        return log2_exact(self.page_size) if self.page_size else 0

    # --- struct sizes derived from the release layout and the cache line ----

    @property
    def objhdr_size(self) -> int:
        r = self.release
        return r.objhdr_debug_size if self.debug else r.objhdr_size

    @property
    def objtlr_size(self) -> int:
        return self.release.objtlr_debug_size if self.debug else 0

    @property
    def stats_enabled(self) -> bool:
        """Per-lcore statistics in struct rte_mempool: RTE_LIBRTE_MEMPOOL_STATS, or DEBUG in 21.11."""
        return self.debug if self.release.stats_switch == "debug" else self.stats

    @property
    def sizeof_debug_stats(self) -> int:
        """sizeof(struct rte_mempool_debug_stats): cache aligned, with RTE_CACHE_GUARD from 23.11.

        >>> Platform(stats=True).sizeof_debug_stats, Platform(dpdk="23.11").sizeof_debug_stats
        (128, 192)
        """
        r = self.release
        return ceil_a(r.debug_stats_body, self.cache_line) + r.debug_stats_guard_lines * self.cache_line

    @property
    def sizeof_mempool(self) -> int:
        """sizeof(struct rte_mempool): cache aligned (v22.11:lib/mempool/rte_mempool.h:219-262), plus
        ``stats[RTE_MAX_LCORE + k]`` in a statistics build.

        >>> Platform().sizeof_mempool, Platform(stats=True).sizeof_mempool
        (192, 16704)
        >>> Platform(dpdk="23.11", stats=True).sizeof_mempool
        24960
        """
        size = ceil_a(self.release.mempool_struct_end, self.cache_line)
        if self.stats_enabled:
            size += (self.max_lcore + self.release.stats_lcore_extra) * self.sizeof_debug_stats
        return size

    def sizeof_mempool_cache(self, slot_bytes: int = 8) -> int:
        """sizeof(struct rte_mempool_cache); ``slot_bytes`` 4 models the index-based cache.

        >>> Platform().sizeof_mempool_cache(), Platform(cache_line=128).sizeof_mempool_cache()
        (8256, 8320)
        """
        r = self.release
        head = ceil_a(r.cache_head_bytes, self.cache_line if r.cache_objs_aligned else 8)
        slots = r.cache_max_size * r.cache_objs_multiplier * slot_bytes
        return ceil_a(head + slots, self.cache_line)

    @property
    def sizeof_ring(self) -> int:
        """sizeof(struct rte_ring).

        >>> Platform().sizeof_ring, Platform(cache_line=128).sizeof_ring
        (384, 768)
        """
        return self.release.ring_struct_lines * self.cache_line

    @property
    def malloc_elem_header(self) -> int:
        """MALLOC_ELEM_HEADER_LEN: struct malloc_elem, cache aligned."""
        return ceil_a(self.release.malloc_elem_bytes, self.cache_line)


def make_platform(
    *,
    dpdk: str | None = None,
    arch: str | None = None,
    platform: str | None = None,
    channels: int = DEFAULT_CHANNELS,
    ranks: int = DEFAULT_RANKS,
    page_size: int = DEFAULT_PAGE_SIZE,
    cache_line: int | None = None,
    max_lcore: int | None = None,
    debug: bool | None = None,
    stats: bool | None = None,
    build_config: "BuildConfig | None" = None,
    node_hugepages: str | None = None,
) -> Platform:
    """Resolve a platform.  Precedence: an explicit option, then the build file, then the
    named platform (``--platform``), then the architecture's default build."""
    sources: dict[str, str] = {}
    bc = build_config

    def pick(key: str, option: Any, from_file: Any, fallback: Any, fallback_src: str) -> Any:
        file_src = dict(bc.origins).get(key, f"build {bc.path}") if bc else ""  # "RTE_X 64 (file:line)"
        for value, src in ((option, "option"), (from_file, file_src), (fallback, fallback_src)):
            if value is not None:
                sources[key] = src
                return value
        raise AssertionError(key)

    version = str(pick("dpdk", dpdk, bc.dpdk if bc else None, _facts.DEFAULT_RELEASE, "default"))
    rel = _facts.release(version)
    preset = _facts.preset(platform) if platform else None
    arch_name = str(
        pick(
            "arch",
            arch,
            bc.arch if bc else None,
            preset.arch if preset else _facts.DEFAULT_ARCH,
            f"platform {platform}" if preset else "default",
        )
    )
    a = _facts.arch(arch_name)
    if _facts.version_key(version) < _facts.version_key(a.since):
        raise InputError(f"DPDK {version} has no build config for {arch_name} (from {a.since})", param="--arch")
    if preset and preset.arch != arch_name:
        raise InputError(f"platform {platform!r} is an {preset.arch} build, not {arch_name}", param="--platform")
    step = preset.at(version) if preset else None
    base_src = f"platform {platform} ({step.source})" if step else f"{arch_name} default ({a.citations['cache_line']})"
    cl = int(
        pick(
            "cache_line", cache_line, bc.cache_line if bc else None, step.cache_line if step else a.cache_line, base_src
        )
    )
    lcores = int(
        pick(
            "max_lcore",
            max_lcore,
            bc.max_lcore if bc else None,
            step.max_lcore if step else a.max_lcore,
            f"platform {platform} ({step.source})" if step else f"{arch_name} default ({a.citations['max_lcore']})",
        )
    )
    align_default = (step.mempool_align if step else a.mempool_align) or cl
    line_src = "RTE_CACHE_LINE_SIZE (v22.11:lib/mempool/rte_mempool.h:132-137)"
    ma = int(
        pick(
            "mempool_align",
            None,
            bc.mempool_align if bc else None,
            align_default,
            base_src if (step and step.mempool_align) else line_src,
        )
    )
    # a build whose compile flags were read says "off" too (the switches live only in c_args)
    dbg = bool(
        pick("debug", debug, (bc.debug if bc.flags_read else bc.debug or None) if bc else None, False, "default")
    )
    sts = bool(
        pick("stats", stats, (bc.stats if bc.flags_read else bc.stats or None) if bc else None, False, "default")
    )
    if bc and bc.notes:
        sources["build_notes"] = "; ".join(bc.notes)
    if cl not in (64, 128):
        raise InputError(f"cache line {cl!r} is not 64 or 128", param="--cache-line")
    if lcores < 1:
        raise InputError(f"RTE_MAX_LCORE {lcores!r} must be at least 1", param="--max-lcore")
    if channels < 1:
        raise InputError(f"channels must be at least 1, not {channels!r}", param="--channels")
    if not 1 <= ranks <= 16:
        # EAL accepts -r 1..16 (v22.11:lib/eal/common/eal_common_options.c:1740-1746)
        raise InputError(f"ranks must be 1 to 16, not {ranks!r}", param="--ranks")
    if page_size and page_size & (page_size - 1):
        raise InputError(f"page size {page_size!r} is not a power of two", param="--page-size")
    return Platform(
        dpdk=rel.version,
        arch=a.name,
        preset=platform,
        cache_line=cl,
        mempool_align=ma,
        max_lcore=lcores,
        spreads=a.spreads,
        channels=channels,
        ranks=ranks,
        page_size=page_size,
        debug=dbg,
        stats=sts,
        node_hugepages=parse_node_hugepages(node_hugepages) if node_hugepages is not None else None,
        sources=tuple(sources.items()),
    )


def parse_node_hugepages(text: str) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """``--node-hugepages`` (a plan's ``[platform] node_hugepages``): the pages each NUMA node holds (its
    nr_hugepages), comma-separated from node 0, for the page size in force (``512,512``: page size 0 here) or
    for each page size named (``2M:512,512 1G:4,4``, the sizes separated by spaces or ``;``).

    >>> parse_node_hugepages("512,512"), parse_node_hugepages(" 8 ")
    (((0, (512, 512)),), ((0, (8,)),))
    >>> [(size >> 20, counts) for size, counts in parse_node_hugepages("2M:1024,1024; 1G:4,0")]
    [(2, (1024, 1024)), (1024, (4, 0))]
    """
    from mpcalc.dpdk.core.units import parse_size

    bad = InputError(
        f'{str(text)!r} is not a list of page counts, one per NUMA node ("512,512"), or of page sizes and their '
        'counts ("2M:512,512 1G:4,4")',
        param="--node-hugepages",
    )
    out: dict[int, tuple[int, ...]] = {}
    for part in str(text).replace(";", " ").split() or [""]:
        size_text, _, counts = part.rpartition(":")
        try:
            size = parse_size(size_text) if size_text else 0
        except (InputError, ValueError):
            raise bad from None
        values = counts.split(",")
        if (size_text and (size < 4096 or size & (size - 1))) or size in out or not all(v.isdigit() for v in values):
            raise bad
        out[size] = tuple(int(v) for v in values)
    if 0 in out and len(out) > 1:
        raise bad
    return tuple(sorted(out.items()))


@functools.lru_cache(maxsize=256)
def describe(p: Platform) -> dict[str, object]:
    """The platform section of a report (memoized: callers copy it before changing it)."""
    return {
        "dpdk": p.dpdk,
        "dpdk_stable_tag": p.release.stable_tag,
        "arch": p.arch,
        "platform": p.preset,
        "cache_line": p.cache_line,
        "mempool_align": p.mempool_align,
        "max_lcore": p.max_lcore,
        "channels": p.channels,
        "ranks": p.ranks,
        "spreads": p.spreads,
        "page_size": p.page_size,
        "debug": p.debug,
        "stats": p.stats,
        "sources": dict(p.sources),
    }


# --- the platform's inputs, declared once for the command line, plan files and batch lines --------


def _platform_params() -> tuple["Param", ...]:
    from mpcalc.dpdk.core.declare import Param

    return (
        Param(
            "dpdk",
            "choice",
            "DPDK release (its newest stable point release).",
            choices=tuple(sorted(_facts.RELEASES)),
            show_default=_facts.DEFAULT_RELEASE,
        ),
        Param(
            "arch",
            "choice",
            "Build architecture.",
            choices=tuple(sorted(_facts.ARCHES)),
            show_default=_facts.DEFAULT_ARCH,
        ),
        Param(
            "platform",
            "choice",
            "A named build whose cache line or RTE_MAX_LCORE differ (arm64 SoCs as -Dplatform=..., native Zen builds).",
            choices=tuple(sorted(_facts.PRESETS)),
        ),
        Param("cache_line", "choice", "Override RTE_CACHE_LINE_SIZE.", choices=("64", "128"), numeric=True),
        Param("max_lcore", "count", "Override RTE_MAX_LCORE.", lo=1, hi=MAX_LCORE_LIMIT),
        Param("debug", "bool", "A RTE_LIBRTE_MEMPOOL_DEBUG build (object cookies)."),
        Param("stats", "bool", "A RTE_LIBRTE_MEMPOOL_STATS build (per-lcore statistics)."),
        Param(
            "build_config",
            "path",
            "Read arch, cache line, RTE_MAX_LCORE, RTE_MEMPOOL_ALIGN, release and the "
            "debug/stats switches from your DPDK build: rte_config.h or rte_build_config.h (includes followed), "
            "an include folder, or a meson build folder (its compile_commands.json: c_args too).",
        ),
        Param(
            "pkg_config",
            "bool",
            "Read them as pkg-config --cflags libdpdk gives them to the compiler "
            "(its -I, -D and -include rte_config.h).",
            default=False,
            fronts=frozenset({"cli", "batch"}),
        ),
        Param(
            "channels",
            "count",
            "Memory channels (EAL -n); DPDK uses 4 when -n is not given. x86 only.",
            default=DEFAULT_CHANNELS,
            lo=1,
            show_default=True,
        ),
        Param(
            "ranks",
            "count",
            "Memory ranks (EAL -r); DPDK uses 1 when -r is not given. x86 only.",
            default=DEFAULT_RANKS,
            lo=1,
            hi=16,
            show_default=True,
        ),
        Param(
            "page_size",
            "page",
            "Smallest page size in use (4K with --no-huge; none: no page constraint).",
            default=DEFAULT_PAGE_SIZE,
            show_default="2M",
        ),
        Param(
            "node_hugepages",
            "text",
            "The hugepages each NUMA node of the node holds (its nr_hugepages), from node 0: 512,512 (of the "
            "page size in force) or 2M:512,512;1G:4,4. app, ovs, trace and plan warn in their Kubernetes block "
            "when one NUMA node needs more.",
            metavar="PAGES",
        ),
    )


PLATFORM_PARAMS = _platform_params()
#: the keys of PLATFORM_PARAMS, in order
PLATFORM_KEYS = tuple(p.key for p in PLATFORM_PARAMS)


def platform_from(args: "Mapping[str, Any]", base_dir: str | None = None) -> Platform:
    """The platform of a request's platform arguments (PLATFORM_KEYS; absent ones take their defaults).
    ``build_config`` is read relative to ``base_dir`` when given (a plan file's folder)."""
    build_config, use_pkg_config = args.get("build_config"), args.get("pkg_config")
    if not build_config and not use_pkg_config:
        key = tuple(args.items())
        found = _BY_ITEMS.get(key)
        if found is None:
            if len(_BY_ITEMS) >= 1024:
                _BY_ITEMS.clear()
            found = _BY_ITEMS[key] = _platform_of(**_options(args))
        return found
    if build_config and use_pkg_config:
        raise InputError("give at most one of --build-config and --pkg-config")
    from mpcalc.dpdk.core import buildconfig

    if build_config:
        import os

        bc = buildconfig.read(os.path.join(base_dir, build_config) if base_dir else build_config)
    else:
        bc = buildconfig.from_pkg_config()
    return make_platform(**_options(args), build_config=bc)


#: the platform's keys that are not make_platform's options (a build file is read first)
_BUILD_KEYS = ("build_config", "pkg_config")


def _options(args: "Mapping[str, Any]") -> dict[str, Any]:
    """make_platform's options of a request's platform arguments, by key (absent ones take the declared
    defaults): the declared order of PLATFORM_PARAMS does not matter."""
    return {p.key: args.get(p.key, p.default) for p in PLATFORM_PARAMS if p.key not in _BUILD_KEYS}


#: platform_from's memo: the platform of the exact arguments given (a batch asks for few platforms, many times)
_BY_ITEMS: dict[tuple[tuple[str, Any], ...], Platform] = {}


#: make_platform memoized on the options (no build file), by keyword: batch and sweep ask for one platform many times
_platform_of = functools.lru_cache(maxsize=1024)(make_platform)
