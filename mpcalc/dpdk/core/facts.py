"""Per-release and per-architecture facts, each with the DPDK source it comes from.

A citation is ``tag:path:line``, read in DPDK's git repository at that tag.
Sizes that depend on the cache line are not stored per architecture: they are
computed from the layout facts here by :mod:`mpcalc.dpdk.core.platform`.
"""

from collections.abc import Mapping
from typing import NamedTuple, TypeVar

from mpcalc.dpdk.core.errors import InputError

_T = TypeVar("_T")


class ReleaseFacts(NamedTuple):
    """What one DPDK release builds, as far as memory footprints go."""

    version: str
    #: the point release modelled: the newest stable tag of the branch (what distributions ship).
    stable_tag: str
    #: ``void *objs[RTE_MEMPOOL_CACHE_MAX_SIZE * k]`` in struct rte_mempool_cache.
    cache_objs_multiplier: int
    #: whether ``objs`` starts on its own cache line.
    cache_objs_aligned: bool
    #: bytes of struct rte_mempool_cache before ``objs`` (size, flushthresh, len).
    cache_head_bytes: int
    #: RTE_MEMPOOL_CACHE_MAX_SIZE.
    cache_max_size: int
    #: "flushthresh": floor(1.5 * cache_size) must not exceed n; "size": cache_size <= n.
    cache_size_rule: str
    #: end offset of the last member of struct rte_mempool (the struct is cache aligned).
    mempool_struct_end: int
    #: the switch that adds per-lcore statistics to struct rte_mempool: "stats"
    #: (RTE_LIBRTE_MEMPOOL_STATS) or "debug" (21.11: RTE_LIBRTE_MEMPOOL_DEBUG).
    stats_switch: str
    #: ``stats[RTE_MAX_LCORE + k]``.
    stats_lcore_extra: int
    #: bytes of struct rte_mempool_debug_stats before alignment, and its RTE_CACHE_GUARD lines.
    debug_stats_body: int
    debug_stats_guard_lines: int
    #: struct rte_mempool_objhdr without / with RTE_LIBRTE_MEMPOOL_DEBUG.
    objhdr_size: int
    objhdr_debug_size: int
    #: struct rte_mempool_objtlr (exists only with RTE_LIBRTE_MEMPOOL_DEBUG).
    objtlr_debug_size: int
    #: struct rte_mempool_memhdr, one rte_zmalloc per populated chunk.
    memhdr_size: int
    #: struct rte_tailq_entry, one rte_zmalloc per mempool, ring, RIB, FIB.
    tailq_entry_size: int
    #: struct rte_ring is this many cache lines (data, prod, cons, each with a guard).
    ring_struct_lines: int
    #: cache lines rte_ring_get_memsize_elem adds after the slots.
    ring_guard_lines: int
    #: struct malloc_elem before its cache-line alignment.
    malloc_elem_bytes: int
    #: name buffers.
    memzone_namesize: int
    ring_namesize: int
    mempool_namesize: int
    #: RIB structs.
    rib_node_size: int
    rib6_node_size: int
    rib_struct_size: int
    rib6_struct_size: int
    rib_namesize: int
    #: FIB structs; the data-plane tables' headers end here, then tbl24 starts on a cache line.
    fib_struct_size: int
    fib6_struct_size: int
    dir24_8_tbl_head: int
    trie_tbl_head: int
    #: bytes allocated after tbl24 for the AVX512 gathers (stable backport, commit 66ed1786ad).
    tbl24_extra_bytes: int
    #: mbuf pools.
    mbuf_size: int
    pktmbuf_pool_private_size: int
    mbuf_priv_align: int
    pktmbuf_headroom: int
    mbuf_default_dataroom: int
    citations: Mapping[str, str]

    def derive(self, *, citations: Mapping[str, str], **changes: object) -> "ReleaseFacts":
        """Another release: the fields that change, each with the citation at its own tag."""
        missing = sorted(set(changes) - {"version", "stable_tag"} - set(citations))
        if missing:
            raise ValueError(f"changed facts without a citation: {missing!r}")
        return self._replace(citations={**self.citations, **citations}, **changes)  # type: ignore[arg-type]


class ArchFacts(NamedTuple):
    """Defaults of one DPDK build platform (config/<arch>/meson.build)."""

    name: str
    cache_line: int
    max_lcore: int
    #: arch_mem_object_align spreads objects over channels and ranks (x86 only).
    spreads: bool
    citations: Mapping[str, str]
    #: RTE_MEMPOOL_ALIGN when a SoC sets it apart from the cache line.
    mempool_align: int | None = None
    description: str = ""
    #: the first release with a build config for this architecture.
    since: str = "21.11"


class PresetStep(NamedTuple):
    """A build preset's values from one release on."""

    since: str
    cache_line: int
    max_lcore: int
    mempool_align: int | None
    source: str


class Preset(NamedTuple):
    """A named build (``-Dplatform=<soc>`` on arm64; a native Zen build on x86), as DPDK's
    config/<arch>/meson.build resolves it: ``flags_common + implementer + part_number + soc``,
    later entries winning (v22.11:config/arm/meson.build:609)."""

    name: str
    arch: str
    description: str
    steps: tuple[PresetStep, ...]

    def at(self, version: str) -> PresetStep:
        found = [s for s in self.steps if version_key(s.since) <= version_key(version)]
        if not found:
            raise InputError(
                f"platform {self.name!r} does not exist in DPDK {version} (from {self.steps[0].since})",
                param="--platform",
            )
        return found[-1]


def version_key(version: str) -> tuple[int, ...]:
    """Order release versions.

    >>> version_key("21.11") < version_key("26.07")
    True
    """
    return tuple(int(part) for part in version.split("."))


_V22_11 = ReleaseFacts(
    version="22.11",
    stable_tag="v22.11.11",
    cache_objs_multiplier=2,
    cache_objs_aligned=True,
    cache_head_bytes=12,
    cache_max_size=512,
    cache_size_rule="flushthresh",
    stats_switch="stats",
    stats_lcore_extra=1,
    debug_stats_body=96,
    debug_stats_guard_lines=0,
    mempool_struct_end=152,
    objhdr_size=24,
    objhdr_debug_size=32,
    objtlr_debug_size=8,
    memhdr_size=56,
    tailq_entry_size=24,
    ring_struct_lines=6,
    ring_guard_lines=0,
    malloc_elem_bytes=80,
    memzone_namesize=32,
    ring_namesize=29,
    mempool_namesize=26,
    rib_node_size=40,
    rib6_node_size=56,
    rib_struct_size=96,
    rib6_struct_size=96,
    rib_namesize=64,
    fib_struct_size=112,
    fib6_struct_size=112,
    dir24_8_tbl_head=40,
    trie_tbl_head=52,
    tbl24_extra_bytes=4,
    mbuf_size=128,
    pktmbuf_pool_private_size=8,
    mbuf_priv_align=8,
    pktmbuf_headroom=128,
    mbuf_default_dataroom=2048,
    citations={
        "cache_objs_multiplier": "v22.11:lib/mempool/rte_mempool.h:110",
        "cache_objs_aligned": "v22.11:lib/mempool/rte_mempool.h:110",
        "cache_head_bytes": "v22.11:lib/mempool/rte_mempool.h:88-90",
        "cache_max_size": "v22.11:config/rte_config.h:49",
        "cache_size_rule": "v22.11:lib/mempool/rte_mempool.c:51-53,838-839",
        "stats_switch": "v22.11:lib/mempool/rte_mempool.h:61,258-261",
        "stats_lcore_extra": "v22.11:lib/mempool/rte_mempool.h:260",
        "debug_stats_body": "v22.11:lib/mempool/rte_mempool.h:68-81",
        "debug_stats_guard_lines": "v22.11:lib/mempool/rte_mempool.h:68-81",
        "mempool_struct_end": "v22.11:lib/mempool/rte_mempool.h:219-262",
        "objhdr_size": "v22.11:lib/mempool/rte_mempool.h:150-157",
        "objhdr_debug_size": "v22.11:lib/mempool/rte_mempool.h:150-157",
        "objtlr_debug_size": "v22.11:lib/mempool/rte_mempool.h:172-176",
        "memhdr_size": "v22.11:lib/mempool/rte_mempool.h:195-203",
        "tailq_entry_size": "v22.11:lib/eal/include/rte_tailq.h:22-25",
        "ring_struct_lines": "v22.11:lib/ring/rte_ring_core.h:120-151",
        "ring_guard_lines": "v22.11:lib/ring/rte_ring.c:69-70",
        "malloc_elem_bytes": "v22.11:lib/eal/common/malloc_elem.h:23-51",
        "memzone_namesize": "v22.11:lib/eal/include/rte_memzone.h:50",
        "ring_namesize": "v22.11:lib/ring/rte_ring_core.h:52-53",
        "mempool_namesize": "v22.11:lib/mempool/rte_mempool.h:125-126",
        "rib_node_size": "v22.11:lib/rib/rte_rib.c:30-39",
        "rib6_node_size": "v22.11:lib/rib/rte_rib6.c:29-38",
        "rib_struct_size": "v22.11:lib/rib/rte_rib.c:41-48",
        "rib6_struct_size": "v22.11:lib/rib/rte_rib6.c:40-47",
        "rib_namesize": "v22.11:lib/rib/rte_rib.c:28",
        "fib_struct_size": "v22.11:lib/fib/rte_fib.c:38-46",
        "fib6_struct_size": "v22.11:lib/fib/rte_fib6.c:38-48",
        "dir24_8_tbl_head": "v22.11:lib/fib/dir24_8.h:26-36",
        "trie_tbl_head": "v22.11:lib/fib/trie.h:29-40",
        "tbl24_extra_bytes": "v22.11.7:lib/fib/dir24_8.c:528-530 and trie.c (0 before v22.11.7)",
        "mbuf_size": "v22.11:lib/mbuf/rte_mbuf_core.h:465-668",
        "pktmbuf_pool_private_size": "v22.11:lib/mbuf/rte_mbuf.h:299-303",
        "mbuf_priv_align": "v22.11:lib/mbuf/rte_mbuf_core.h:395",
        "pktmbuf_headroom": "v22.11:config/rte_config.h:55",
        "mbuf_default_dataroom": "v22.11:lib/mbuf/rte_mbuf_core.h:403",
    },
)

#: Releases mpcalc models.  Each is the newest stable point release of its branch; every
#: fact was checked at that branch's tag (the line numbers are the GA tag's).
RELEASES: dict[str, ReleaseFacts] = {
    "21.11": _V22_11.derive(
        version="21.11",
        stable_tag="v21.11.9",
        cache_objs_multiplier=3,
        cache_objs_aligned=False,
        stats_switch="debug",
        stats_lcore_extra=0,
        citations={
            "cache_objs_multiplier": "v21.11:lib/mempool/rte_mempool.h:97",
            "cache_objs_aligned": "v21.11:lib/mempool/rte_mempool.h:89-98",
            "stats_switch": "v21.11:lib/mempool/rte_mempool.h:248-251 (stats under RTE_LIBRTE_MEMPOOL_DEBUG)",
            "stats_lcore_extra": "v21.11:lib/mempool/rte_mempool.h:250",
            "tbl24_extra_bytes": "v21.11.9:lib/fib/dir24_8.c (backport of 66ed1786ad; absent in v21.11.8)",
        },
    ),
    "22.11": _V22_11,
    "23.11": _V22_11.derive(
        version="23.11",
        stable_tag="v23.11.7",
        debug_stats_guard_lines=1,
        citations={
            "debug_stats_guard_lines": "v23.11:lib/mempool/rte_mempool.h:81 (RTE_CACHE_GUARD, a1934215a7); "
            "RTE_CACHE_GUARD_LINES 1 at v23.11:config/rte_config.h:31",
            "tbl24_extra_bytes": "v23.11.3:lib/fib/dir24_8.c (backport of 66ed1786ad)",
        },
    ),
}
RELEASES["24.11"] = RELEASES["23.11"].derive(
    version="24.11",
    stable_tag="v24.11.6",
    dir24_8_tbl_head=64,
    citations={
        "dir24_8_tbl_head": "v24.11:lib/fib/dir24_8.h:31-45 (RCU fields)",
        "tbl24_extra_bytes": "v24.11:lib/fib/dir24_8.c:564, trie.c:639 (66ed1786ad)",
        "cache_objs_multiplier": "v24.11:lib/mempool/rte_mempool.h:113",
        "pktmbuf_headroom": "v24.11:meson_options.txt:53 (pkt_mbuf_headroom, default 128)",
    },
)
RELEASES["25.11"] = RELEASES["24.11"].derive(
    version="25.11",
    stable_tag="v25.11.2",
    trie_tbl_head=72,
    citations={
        "trie_tbl_head": "v25.11:lib/fib/trie.h:32-47 (RCU fields, 200ccb9ebd)",
        "cache_size_rule": "v25.11:lib/mempool/rte_mempool.c:58,852-853",
    },
)
RELEASES["26.07"] = RELEASES["25.11"].derive(
    version="26.07",
    stable_tag="v26.07",
    cache_size_rule="size",
    ring_guard_lines=1,
    citations={
        "cache_size_rule": "v26.07:lib/mempool/rte_mempool.c:842-843 (f5e1310f16)",
        "ring_guard_lines": "v26.07:lib/ring/rte_ring.c:78,83-84 (1aa79b747b)",
        "cache_objs_multiplier": "v26.07:lib/mempool/rte_mempool.h:115",
    },
)

ARCHES: dict[str, ArchFacts] = {
    "x86_64": ArchFacts(
        name="x86_64",
        cache_line=64,
        max_lcore=128,
        spreads=True,
        description="x86-64, generic build",
        citations={
            "cache_line": "v22.11:config/x86/meson.build:73",
            "max_lcore": "v22.11:config/x86/meson.build:74",
            "spreads": "v22.11:lib/mempool/rte_mempool.c:55-110",
        },
    ),
    "arm64": ArchFacts(
        name="arm64",
        cache_line=128,
        max_lcore=256,
        spreads=False,
        description="armv8, -Dplatform=generic (Debian's build)",
        citations={
            "cache_line": "v22.11:config/arm/meson.build:22",
            "max_lcore": "v22.11:config/arm/meson.build:35-36",
            "spreads": "v22.11:lib/mempool/rte_mempool.c:111-116 (identity off x86)",
        },
    ),
    "ppc64le": ArchFacts(
        name="ppc64le",
        cache_line=128,
        max_lcore=128,
        spreads=False,
        description="POWER, little endian",
        citations={
            "cache_line": "v22.11:config/ppc/meson.build:125",
            "max_lcore": "v22.11:config/ppc/meson.build:117",
            "spreads": "v22.11:lib/mempool/rte_mempool.c:111-116 (identity off x86)",
        },
    ),
    "riscv64": ArchFacts(
        name="riscv64",
        cache_line=64,
        max_lcore=128,
        spreads=False,
        description="RISC-V 64, generic vendor",
        since="22.11",
        citations={
            "cache_line": "v22.11:config/riscv/meson.build:24",
            "max_lcore": "v22.11:config/riscv/meson.build:42",
            "spreads": "v22.11:lib/mempool/rte_mempool.c:111-116 (identity off x86)",
        },
    ),
    "loongarch64": ArchFacts(
        name="loongarch64",
        cache_line=64,
        max_lcore=64,
        spreads=False,
        description="LoongArch 64",
        since="22.11",
        citations={
            "cache_line": "v22.11:config/loongarch/meson.build:17",
            "max_lcore": "v22.11:config/loongarch/meson.build:18",
            "spreads": "v22.11:lib/mempool/rte_mempool.c:111-116 (identity off x86)",
        },
    ),
}


def _steps(*rows: tuple[str, int, int, int | None, str]) -> tuple[PresetStep, ...]:
    return tuple(
        PresetStep(since=v, cache_line=cl, max_lcore=lc, mempool_align=ma, source=src) for v, cl, lc, ma, src in rows
    )


#: Named builds whose cache line, RTE_MEMPOOL_ALIGN or RTE_MAX_LCORE differ from their arch's default.
PRESETS: dict[str, Preset] = {
    p.name: p
    for p in (
        Preset(
            name="graviton2",
            arch="arm64",
            description="AWS Graviton2 (Neoverse-N1)",
            steps=_steps(
                ("21.11", 64, 160, None, "v21.11:config/arm/meson.build:66-77"),
                ("23.11", 64, 256, None, "v23.11:config/arm/meson.build:69-80"),
            ),
        ),
        Preset(
            name="graviton3",
            arch="arm64",
            description="AWS Graviton3 (Neoverse-V1)",
            steps=_steps(
                ("22.11", 64, 64, None, "v22.11:config/arm/meson.build:78-87"),
            ),
        ),
        Preset(
            name="graviton4",
            arch="arm64",
            description="AWS Graviton4 (Neoverse-V2)",
            steps=_steps(
                ("24.11", 64, 96, None, "v24.11:config/arm/meson.build:543-553"),
            ),
        ),
        Preset(
            name="grace",
            arch="arm64",
            description="NVIDIA Grace (Neoverse-V2)",
            steps=_steps(
                ("24.11", 64, 144, None, "v24.11:config/arm/meson.build:108-119"),
            ),
        ),
        Preset(
            name="altra",
            arch="arm64",
            description="Ampere Altra (Neoverse-N1)",
            steps=_steps(
                ("23.11", 64, 256, None, "v23.11:config/arm/meson.build:69-80"),
            ),
        ),
        Preset(
            name="ampereone",
            arch="arm64",
            description="AmpereOne",
            steps=_steps(
                ("23.11", 64, 320, None, "v23.11:config/arm/meson.build (socs)"),
            ),
        ),
        Preset(
            name="n2",
            arch="arm64",
            description="Arm Neoverse-N2",
            steps=_steps(
                ("21.11", 64, 64, None, "v22.11:config/arm/meson.build:88-98"),
                ("23.11", 64, 128, None, "v26.07:config/arm/meson.build:91-98"),
            ),
        ),
        Preset(
            name="cn9k",
            arch="arm64",
            description="Marvell OCTEON 9 (octeontx2 in 21.11)",
            steps=_steps(
                ("21.11", 128, 36, None, "v22.11:config/arm/meson.build (socs: cn9k)"),
            ),
        ),
        Preset(
            name="cn10k",
            arch="arm64",
            description="Marvell OCTEON 10",
            steps=_steps(
                ("21.11", 64, 24, None, "v21.11:config/arm/meson.build (socs: cn10k, no RTE_MEMPOOL_ALIGN)"),
                ("22.11", 64, 24, 128, "v22.11:config/arm/meson.build:312-318"),
            ),
        ),
        Preset(
            name="odyssey",
            arch="arm64",
            description="Marvell Odyssey",
            steps=_steps(
                ("24.11", 64, 80, 128, "v24.11:config/arm/meson.build:600-609"),
            ),
        ),
        Preset(
            name="kunpeng920",
            arch="arm64",
            description="HiSilicon Kunpeng 920",
            steps=_steps(
                ("21.11", 128, 256, None, "v22.11:config/arm/meson.build (socs: kunpeng920)"),
            ),
        ),
        Preset(
            name="kunpeng930",
            arch="arm64",
            description="HiSilicon Kunpeng 930",
            steps=_steps(
                ("21.11", 128, 1280, None, "v22.11:config/arm/meson.build (socs: kunpeng930)"),
            ),
        ),
        Preset(
            name="thunderx2",
            arch="arm64",
            description="Marvell ThunderX2",
            steps=_steps(
                ("21.11", 64, 256, None, "v22.11:config/arm/meson.build (socs: thunderx2)"),
            ),
        ),
        Preset(
            name="bluefield",
            arch="arm64",
            description="NVIDIA BlueField",
            steps=_steps(
                ("21.11", 64, 16, None, "v22.11:config/arm/meson.build (socs: bluefield)"),
            ),
        ),
        Preset(
            name="bluefield3",
            arch="arm64",
            description="NVIDIA BlueField-3",
            steps=_steps(
                ("23.11", 64, 32, None, "v23.11:config/arm/meson.build (socs: bluefield3)"),
            ),
        ),
        Preset(
            name="cobalt100",
            arch="arm64",
            description="Microsoft Cobalt 100",
            steps=_steps(
                ("25.11", 128, 128, None, "v26.07:config/arm/meson.build:490"),
            ),
        ),
        Preset(
            name="znver2",
            arch="x86_64",
            description="native build on AMD Zen 2 / Zen 3",
            steps=_steps(
                ("23.11", 64, 256, None, "v23.11:config/x86/meson.build:87-101 (platform=native)"),
            ),
        ),
        Preset(
            name="znver4",
            arch="x86_64",
            description="native build on AMD Zen 4",
            steps=_steps(
                ("23.11", 64, 512, None, "v23.11:config/x86/meson.build:87-101 (platform=native)"),
            ),
        ),
        Preset(
            name="znver5",
            arch="x86_64",
            description="native build on AMD Zen 5",
            steps=_steps(
                ("24.11", 64, 768, None, "v24.11:config/x86/meson.build:98-121; v26.07:config/x86/meson.build:27-49"),
            ),
        ),
    )
}

DEFAULT_RELEASE = "22.11"
DEFAULT_ARCH = "x86_64"


def _lookup(table: Mapping[str, _T], key: str, what: str, param: str) -> _T:
    try:
        return table[key]
    except KeyError:
        known = ", ".join(table)
        raise InputError(f"unknown {what} {key!r} (known: {known})", param=param) from None


def preset(name: str) -> Preset:
    return _lookup(PRESETS, name, "platform", "--platform")


def release(version: str) -> ReleaseFacts:
    return _lookup(RELEASES, version, "DPDK release", "--dpdk")


def arch(name: str) -> ArchFacts:
    return _lookup(ARCHES, name, "architecture", "--arch")


def uncited(facts: ReleaseFacts | ArchFacts) -> list[str]:
    """Fields of a facts record that have no citation (a test keeps this empty)."""
    skip = {"version", "stable_tag", "name", "citations", "description", "mempool_align", "since"}
    return [f for f in facts._fields if f not in skip and f not in facts.citations]
