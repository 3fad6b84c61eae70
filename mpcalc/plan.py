"""``mpcalc plan``: a whole application from a TOML file, per NUMA socket, with the hugepage settings.

Pure: no click, no rich.  Every bad key raises :class:`InputError` naming the file, the item and the key.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import engine
from .dpdk.buildconfig import read as read_build_config
from .dpdk.eal import heap_cost
from .dpdk.errors import InputError
from .dpdk.flags import parse_flags
from .dpdk.intmath import INT_MAX, U32_MAX, ceil_div, largest
from .dpdk.records import SCHEMA_VERSION, Result
from .dpdk.platform import Platform, describe, make_platform
from .dpdk.units import page_label, parse_count, parse_size

#: heap bytes rte_eal_init itself allocates: rte_service_init's two rte_calloc()s
#: (v22.11:lib/eal/common/rte_service.c:94-103), RTE_SERVICE_NUM_MAX 64 x 128-byte
#: struct rte_service_spec_impl = 8,192 and RTE_MAX_LCORE 128 x 1,152-byte struct core_state = 147,456,
#: each plus its 128-byte malloc element header.  Measured with the conformance probe on Debian's 22.11.11
#: (--no-pci -l 0; -l 0-1 gives the same) both with --no-huge and on real 2 MiB hugepages
#: (tests/conformance/test_plan_hugepages.py): the heap holds 155,904 bytes in 2 elements right after
#: rte_eal_init, and EAL maps no hugepage outside the heap (with --socket-mem M the hugetlbfs mount holds
#: exactly M / 2 MiB files and heap_totalsz is M; its fbarrays and memory config live in ordinary memory).
#: Devices, ethdev queues and other libraries an application initialises come on top.
EAL_INIT_HEAP = 155_904
MAX_FILE_BYTES = 1 << 20
MAX_ITEMS = 10_000


def _ranged(parser: Callable[[Any], int], what: str) -> Callable[[int, int], Callable[[Any], int]]:
    def bounded(lo: int = 0, hi: int = U32_MAX) -> Callable[[Any], int]:
        def parse(value: Any) -> int:
            n = parser(value) if not isinstance(value, bool) else None
            if n is None or not lo <= n <= hi:
                raise InputError(f"{value!r} is not {what} from {lo:,} to {hi:,}")
            return n
        return parse
    return bounded


_count = _ranged(parse_count, "a whole number")
_size = _ranged(parse_size, "a size in bytes")


def _flags(value: Any) -> list[int]:
    if isinstance(value, list):
        value = "|".join(str(v) for v in value) or "none"
    if not isinstance(value, (str, int)) or isinstance(value, bool):
        raise InputError(f"{value!r} is not a flag list")
    if str(value).strip().lower() == "all":
        raise InputError("'all' is for the single commands; a plan item has one set of flags")
    return [parse_flags(str(value))]


def _choice(*options: str) -> Callable[[Any], str]:
    def parse(value: Any) -> str:
        if value not in options:
            raise InputError(f"{value!r} is not one of {', '.join(options)}")
        return value
    return parse


def _name(value: Any) -> str:
    if not isinstance(value, str) or not value:
        raise InputError(f"{value!r} is not a name")
    return value


def _bool(value: Any) -> bool:
    if not isinstance(value, bool):
        raise InputError(f"{value!r} is not true or false")
    return value


def _page(value: Any) -> int:
    if isinstance(value, str) and value.strip().lower() == "none":
        return 0
    size = parse_size(value)
    if size < 4096 or size & (size - 1):
        raise InputError(f"{value!r} is not a page size (a power of two from 4K; or none)")
    return size


_COMMON = {"name": _name, "socket": _count(0, 255)}
#: every key an item may have, with its parser (the single commands' options)
KINDS: dict[str, dict[str, Callable[[Any], Any]]] = {
    "pool": {**_COMMON, "count": _count(), "elt_size": _size(), "cache_size": _count(), "private_size": _size(),
             "flags": _flags, "cache_layout": _choice("pointer", "index")},
    "mbuf": {**_COMMON, "count": _count(), "cache_size": _count(), "priv_size": _size(0, 0xFFFF),
             "data_room": _size(0, 0xFFFF), "mtu": _size(1, 0xFFFF), "cache_layout": _choice("pointer", "index")},
    "rib": {**_COMMON, "routes": _count(1, INT_MAX), "nodes": _count(1, INT_MAX), "ext_size": _size(),
            "flags": _flags},
    "fib": {**_COMMON, "routes": _count(0, INT_MAX), "type": _choice("dir24_8", "dummy"),
            "nh_size": _choice(1, 2, 4, 8), "tbl8": _count(), "ext_size": _size(), "flags": _flags},
}
KINDS["rib6"] = KINDS["rib"]
KINDS["fib6"] = {**KINDS["fib"], "type": _choice("trie", "dummy")}
REQUIRED = {"pool": ("count", "elt_size"), "mbuf": ("count",), "rib": (), "rib6": (), "fib": ("routes",),
            "fib6": ("routes",)}
PLATFORM_KEYS: dict[str, Callable[[Any], Any]] = {
    "dpdk": str, "arch": str, "platform": str, "channels": _count(1), "ranks": _count(1, 16), "page_size": _page,
    "cache_line": _choice(64, 128), "max_lcore": _count(1, 65535), "debug": _bool, "stats": _bool,
    "build_config": str, "eal_heap": _size(0, 1 << 40),
}


@dataclass(frozen=True, kw_only=True)
class Item:
    kind: str
    name: str
    socket: int
    result: Result

    def to_dict(self) -> dict[str, object]:
        return {"kind": self.kind, "name": self.name, "socket": self.socket, "result": self.result.to_dict()}


@dataclass(frozen=True, kw_only=True)
class SocketPlan:
    socket: int
    total_bytes: int
    heap_bytes: int
    eal_heap: int
    pages: int | None

    def to_dict(self) -> dict[str, object]:
        return {"socket": self.socket, "total_bytes": self.total_bytes, "heap_bytes": self.heap_bytes,
                "eal_heap": self.eal_heap, "pages": self.pages}


@dataclass(frozen=True, kw_only=True)
class PlanReport:
    path: str
    platform: Platform
    items: tuple[Item, ...]
    sockets: tuple[SocketPlan, ...]

    @property
    def ok(self) -> bool:
        return all(i.result.ok for i in self.items)

    def settings(self) -> dict[str, object]:
        """Ready-to-paste settings for the page size in force."""
        p = self.platform
        if not p.page_size:
            return {}
        by_socket = {s.socket: s.pages or 0 for s in self.sockets}
        top = max(by_socket) if by_socket else 0
        mb = [by_socket.get(i, 0) * p.page_size // 2**20 for i in range(top + 1)]
        kb = p.page_size // 1024
        k8s_unit = page_label(p.page_size).replace("K", "Ki").replace("M", "Mi").replace("G", "Gi")
        total = sum(by_socket.values()) * p.page_size
        return {
            "assumes": [
                "EAL starts with the --socket-mem below: it preallocates those pages as one heap region; "
                "without it the heap grows on demand and needs a few pages more",
                "IOVA as PA with every page its own physically contiguous run (the worst case, EAL's default "
                "as root without an IOMMU): each extra chunk of an objects memzone costs a 192-byte heap "
                "element; IOVA as VA needs at most one page less",
            ],
            "socket_mem": ",".join(str(m) for m in mb),
            "eal_args": f"--socket-mem {','.join(str(m) for m in mb)}",
            "nr_hugepages": [
                f"echo {n} > /sys/devices/system/node/node{s}/hugepages/hugepages-{kb}kB/nr_hugepages"
                for s, n in sorted(by_socket.items())],
            "kubernetes": {"resources": {
                "requests": {f"hugepages-{k8s_unit}": f"{total // 2**20}Mi"},
                "limits": {f"hugepages-{k8s_unit}": f"{total // 2**20}Mi"}}},
        }

    def to_dict(self) -> dict[str, object]:
        from . import __version__

        return {
            "schema_version": SCHEMA_VERSION,
            "mpcalc_version": __version__,
            "command": "plan",
            "file": self.path,
            "platform": describe(self.platform),
            "items": [i.to_dict() for i in self.items],
            "sockets": [s.to_dict() for s in self.sockets],
            "settings": self.settings(),
        }


def _item_error(path: str, where: str, key: str | None, exc: Exception) -> InputError:
    at = f"{path}: {where}" + (f", key {key!r}" if key else "")
    return InputError(f"{at}: {exc}", param=path)


def _parse_keys(path: str, where: str, table: Mapping[str, Any], spec: Mapping[str, Callable[[Any], Any]],
                ) -> dict[str, Any]:
    out = {}
    for key, value in table.items():
        if key not in spec:
            known = ", ".join(spec)
            raise _item_error(path, where, key, ValueError(f"unknown key (known: {known})"))
        try:
            out[key] = spec[key](value)
        except (InputError, ValueError, TypeError) as exc:
            raise _item_error(path, where, key, exc) from None
    return out


def _platform(path: str, doc: Mapping[str, Any]) -> tuple[Platform, int]:
    table = doc.get("platform", {})
    if not isinstance(table, dict):
        raise _item_error(path, "[platform]", None, ValueError("must be a table"))
    keys = _parse_keys(path, "[platform]", table, PLATFORM_KEYS)
    eal_heap = keys.pop("eal_heap", EAL_INIT_HEAP)
    bc = keys.pop("build_config", None)
    try:
        platform = make_platform(
            dpdk=keys.get("dpdk"), arch=keys.get("arch"), platform=keys.get("platform"),
            channels=keys.get("channels", 4), ranks=keys.get("ranks", 1), page_size=keys.get("page_size", 2 << 20),
            cache_line=keys.get("cache_line"), max_lcore=keys.get("max_lcore"), debug=keys.get("debug"),
            stats=keys.get("stats"),
            build_config=read_build_config(Path(path).parent / bc) if bc else None)
    except InputError as exc:
        raise _item_error(path, "[platform]", exc.param and exc.param.lstrip("-").replace("-", "_"), exc) from None
    return platform, eal_heap


def _compute(kind: str, keys: dict[str, Any], p: Platform) -> Result:
    flags = keys.get("flags", [0])[0]
    name = keys["name"]
    if kind == "pool":
        return engine.pool(engine.PoolSpec(name=name, count=keys["count"], elt_size=keys["elt_size"],
                                           cache_size=keys.get("cache_size", 0),
                                           private_size=keys.get("private_size", 0), flags=flags,
                                           cache_layout=keys.get("cache_layout", "pointer")), p)
    if kind == "mbuf":
        if "mtu" in keys and "data_room" in keys:
            raise InputError("give at most one of data_room and mtu")
        return engine.mbuf(engine.MbufSpec(name=name, count=keys["count"], cache_size=keys.get("cache_size", 0),
                                           priv_size=keys.get("priv_size", 0), data_room=keys.get("data_room"),
                                           mtu=keys.get("mtu"), cache_layout=keys.get("cache_layout", "pointer")),
                           p)
    if kind in ("rib", "rib6"):
        if ("routes" in keys) == ("nodes" in keys):
            raise InputError("give exactly one of routes and nodes")
        nodes = keys["nodes"] if "nodes" in keys else engine.rib_max_nodes(keys["routes"])
        return engine.rib(name, nodes, keys.get("ext_size", 0), flags, 4 if kind == "rib" else 6, p)
    family = 4 if kind == "fib" else 6
    spec = engine.FibSpec(family=family, name=name, max_routes=keys["routes"],
                          type=keys.get("type", "dir24_8" if family == 4 else "trie"),
                          nh_size=keys.get("nh_size", 4), num_tbl8=keys.get("tbl8", 1 << 15),
                          ext_size=keys.get("ext_size", 0))
    return engine.fib(spec, flags, p)


def load(path: str | Path) -> tuple[dict[str, Any], str]:
    p = Path(path)
    try:
        data = p.read_bytes()[: MAX_FILE_BYTES + 1]
    except OSError as exc:
        raise InputError(f"cannot read plan {str(p)!r}: {exc.strerror}", param=str(p)) from None
    if len(data) > MAX_FILE_BYTES:
        raise InputError(f"{p}: plan files are limited to {MAX_FILE_BYTES:,} bytes", param=str(p))
    if not data.strip():
        raise InputError(f"{p}: the plan file is empty", param=str(p))
    try:
        text = data.decode()
        return tomllib.loads(text), str(p)
    except UnicodeDecodeError:
        raise InputError(f"{p}: not UTF-8 text", param=str(p)) from None
    except tomllib.TOMLDecodeError as exc:
        raise InputError(f"{p}: not valid TOML: {exc}", param=str(p)) from None


def _iova_pa_chunk_headers(results: list[Result], p: Platform) -> int:
    """Heap bytes of the extra MEMPOOL_MEMHDRs the objects memzones get with IOVA as PA (worst case).

    The page model (proven on real 2 MiB hugepages by tests/conformance/test_plan_hugepages.py) is:
    pages = ceil((items' heap bytes + EAL's own + this) / page size), for an EAL started with
    ``--socket-mem`` equal to those pages:

    * --socket-mem preallocates its pages at start-up (v22.11:lib/eal/common/eal_common_dynmem.c:300-332)
      and the heap takes every VA-contiguous run as one free element (malloc_add_seg through
      rte_memseg_contig_walk, v22.11:lib/eal/common/malloc_heap.c:90-104, 1440): one run while the
      socket's pages fit one memseg list (RTE_MAX_MEMSEG_PER_LIST 8192 pages, RTE_MAX_MEM_MB_PER_LIST
      32768, v22.11:config/rte_config.h:33-34; 16 GiB of 2 MiB pages, 32 GiB of 1 GiB).  One region of N pages
      holds any elements whose sizes add up to N x page size: elements are cut from the end of the free
      element (elem_start_pt, v22.11:lib/eal/common/malloc_elem.c:219-245); every size here is a
      multiple of the cache line and every alignment 64, so no padding is lost; the region's own
      header is reused by the last element (malloc_elem_alloc pads instead of splitting,
      v22.11:lib/eal/common/malloc_elem.c:453).  Measured: N works and N - 1 fails for every plan there.
    * Without --socket-mem the heap grows on demand by whole pages per allocation that does not fit
      (try_expand_heap_primary, v22.11:lib/eal/common/malloc_heap.c:405-407); the new pages are not
      joined to the unused bottom of the previous region, so a dynamic-memory EAL needs a few pages
      more (measured: l3fwd-router.toml 401 pages instead of 392).  The advice is for --socket-mem.
    * IOVA as PA (what rte_eal_init picks when it can read physical addresses and finds no IOMMU,
      v22.11:lib/eal/linux/eal.c:1075-1103 and lib/eal/linux/eal_memory.c:1657-1668, e.g. root with
      igb_uio or vfio no-IOMMU): rte_mempool_populate_virt gives every physically contiguous run of
      pages of an objects memzone its own chunk and rte_zmalloc'ed MEMPOOL_MEMHDR
      (v22.11:lib/mempool/rte_mempool.c:334, 414-444).  Hugepages are rarely physically adjacent
      (measured: every page its own chunk), so this counts one chunk per page the objects use, at most
      ceil(n / objects per page) + 1 (a partial first page) and at most the pages the memzone touches.
      IOVA as VA (IOMMU, or no access to /proc/self/pagemap) has one chunk and needs up to these bytes
      less, never a page more.  Pools with RTE_MEMPOOL_F_NO_IOVA_CONTIG (page size 0 in
      rte_mempool_get_page_size, v22.11:lib/mempool/rte_mempool.c:467-472) and --no-huge 4 KiB pages
      (IOVA as VA: no physical addresses without hugepages) have one chunk.
    """
    if p.page_size <= 4096:
        return 0
    memhdr = heap_cost(p.release.memhdr_size, p)
    extra = 0
    for r in results:
        for mp in r.mempools:
            objs = [m for m in mp.memzones if m.role == "objects"]
            if mp.objs_per_page is None or not objs:
                continue
            touched = ceil_div(objs[0].len, p.page_size) + 1
            chunks = min(ceil_div(mp.count, mp.objs_per_page) + 1, touched) if mp.objs_per_page else touched
            extra += (chunks - 1) * memhdr
    return extra


def plan(doc: Mapping[str, Any], path: str = "<plan>") -> PlanReport:
    """Evaluate every item of a parsed plan file."""
    unknown = sorted(set(doc) - {"platform", *KINDS})
    if unknown:
        raise _item_error(path, f"[{unknown[0]}]", None,
                          ValueError(f"unknown table (known: platform, {', '.join(KINDS)})"))
    platform, eal_heap = _platform(path, doc)
    items: list[Item] = []
    seen: dict[tuple[int, str], str] = {}
    for kind in KINDS:
        entries = doc.get(kind, [])
        if isinstance(entries, dict):
            entries = [entries]
        if not isinstance(entries, list):
            raise _item_error(path, f"[{kind}]", None, ValueError("must be an array of tables ([[...]])"))
        for index, table in enumerate(entries, 1):
            where = f"[[{kind}]] #{index}"
            if not isinstance(table, dict):
                raise _item_error(path, where, None, ValueError("must be a table"))
            keys = _parse_keys(path, where, table, KINDS[kind])
            where = f"[[{kind}]] {keys.get('name', '#' + str(index))!r}"
            missing = [k for k in ("name", *REQUIRED[kind]) if k not in keys]
            if missing:
                raise _item_error(path, where, missing[0], ValueError("is required"))
            socket = keys.pop("socket", 0)
            # DPDK refuses a second pool, RIB or FIB of the same memzone name (EEXIST)
            mz = ("MP_" if kind in ("pool", "mbuf") else "MP_MP_") + keys["name"]
            if (0, mz) in seen:
                raise _item_error(path, where, "name", ValueError(
                    f"memzone {mz} is already used by {seen[(0, mz)]}: DPDK would fail with EEXIST"))
            seen[(0, mz)] = where
            try:
                result = _compute(kind, keys, platform)
            except InputError as exc:
                raise _item_error(path, where, exc.param, exc) from None
            items.append(Item(kind=kind, name=keys["name"], socket=socket, result=result))
            if len(items) > MAX_ITEMS:
                raise _item_error(path, where, None, ValueError(f"more than {MAX_ITEMS:,} items"))
    if not items:
        raise InputError(f"{path}: the plan lists no pool, mbuf, rib, rib6, fib or fib6", param=path)
    sockets = []
    for s in sorted({i.socket for i in items}):
        mine = [i.result for i in items if i.socket == s]
        heap = sum(r.heap_bytes for r in mine)
        # rte_eal_init's own allocations land on the main lcore's socket (assumed 0)
        eal = eal_heap if s == 0 else 0
        pages = (ceil_div(heap + eal + _iova_pa_chunk_headers(mine, platform), platform.page_size)
                 if platform.page_size else None)
        sockets.append(SocketPlan(socket=s, total_bytes=sum(r.total_bytes for r in mine), heap_bytes=heap,
                                  eal_heap=eal, pages=pages))
    return PlanReport(path=path, platform=platform, items=tuple(items), sockets=tuple(sockets))


__all__ = ["EAL_INIT_HEAP", "KINDS", "PlanReport", "load", "plan"]


#: the key --fit grows for each kind of item
FIT_KEYS = {"pool": ("count",), "mbuf": ("count",), "rib": ("nodes", "routes"), "rib6": ("nodes", "routes"),
            "fib": ("routes",), "fib6": ("routes",)}
FIT_LIMITS = {"count": (1 << 30) - 1, "nodes": (1 << 30) - 1, "routes": ((1 << 30) - 1) // 2}


def fit_item(doc: Mapping[str, Any], path: str, name: str, budget: int) -> tuple[str, int | None, PlanReport]:
    """The largest count (or routes, nodes) of item ``name`` with which its socket still fits ``budget``
    bytes of pages (``heap + EAL`` with no page size).  Exact: one more does not fit.  The other items
    stay as they are."""
    import copy

    where = None
    for kind in KINDS:
        entries = doc.get(kind, [])
        for index, table in enumerate(entries if isinstance(entries, list) else [entries]):
            if isinstance(table, dict) and table.get("name") == name:
                where = (kind, index)
    if where is None:
        raise InputError(f"{path}: no item named {name!r} to --fit", param="--fit-item")
    kind, index = where
    table = doc[kind][index] if isinstance(doc[kind], list) else doc[kind]
    key = next((k for k in FIT_KEYS[kind] if k in table), FIT_KEYS[kind][0])

    def evaluate(value: int) -> PlanReport:
        trial = copy.deepcopy(dict(doc))
        target = trial[kind][index] if isinstance(trial[kind], list) else trial[kind]
        target[key] = value
        return plan(trial, path)

    def used(rep: PlanReport) -> tuple[bool, int]:
        item = next(i for i in rep.items if i.name == name)
        sock = next(s for s in rep.sockets if s.socket == item.socket)
        size = sock.pages * rep.platform.page_size if sock.pages is not None else sock.heap_bytes + sock.eal_heap
        return bool(item.result.errors), size

    def fits(value: int) -> bool:
        rejected, size = used(evaluate(value))
        return rejected or size <= budget

    value = largest(fits, 1, FIT_LIMITS[key])
    if value is None:
        return key, None, evaluate(1)
    best = evaluate(value)
    return key, (None if used(best)[0] else value), best
