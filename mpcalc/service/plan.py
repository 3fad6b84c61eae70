"""``mpcalc plan``: a whole application from a TOML file, per NUMA socket, with the hugepage settings.

Pure: no click, no rich.  Every bad key raises :class:`InputError` naming the file, the item and the key.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mpcalc import __version__
from mpcalc.dpdk.core import registry
from mpcalc.dpdk.core.declare import Param
from mpcalc.dpdk.core.errors import InputError
from mpcalc.dpdk.core.heap import heap_cost
from mpcalc.dpdk.core.intmath import ceil_div, largest
from mpcalc.dpdk.core.limits import MAX_PLAN_BYTES, check_toml_shape
from mpcalc.dpdk.core.platform import PLATFORM_PARAMS, Platform, describe, platform_from
from mpcalc.dpdk.core.records import SCHEMA_VERSION, Result
from mpcalc.dpdk.core.units import page_label
from mpcalc.service.job import Job
from mpcalc.service.k8s import (
    DEFAULT_CONTAINER,
    Need,
    kubernetes,
    label,
    nr_hugepages,
    per_node_mb,
    pod_name,
)

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
MAX_ITEMS = 10_000


#: the plan-only key of [platform]: heap bytes rte_eal_init allocates on socket 0
EAL_HEAP = Param(
    "eal_heap", "size", "Heap bytes EAL's own initialisation takes on socket 0.", default=EAL_INIT_HEAP, hi=1 << 40
)
SOCKET = Param("socket", "count", "The NUMA socket the item's memory is on.", default=0, hi=255)
NAME = Param("name", "text", "The item's name (its memzones' names).")
CONTAINER = Param(
    "container",
    "text",
    "The pod's container (a DPDK process of its own: its own EAL heap and hugepage limit) the item is in; "
    f"items that name none are in {DEFAULT_CONTAINER!r}.",
)
PAGE_SIZE = Param(
    "page_size",
    "page",
    "The page size of the item's hugepages (default: [platform] page_size). A container is one DPDK process on "
    "one page size: its items share it; containers on different page sizes make a pod of several.",
)


def item_params(kind: str) -> dict[str, Param]:
    """The keys an item of ``kind`` may have: the object's declared parameters (one set of flags) and its socket."""
    keys = {k: p._replace(all_combinations=False) for k, p in registry.get(kind).keys("plan").items()}
    return {**keys, "name": NAME, "socket": SOCKET, "container": CONTAINER, "page_size": PAGE_SIZE}


def platform_params() -> dict[str, Param]:
    return {
        **{p.key: p for p in PLATFORM_PARAMS if "plan" in p.fronts},
        "eal_heap": EAL_HEAP,
    }


@dataclass(frozen=True, kw_only=True)
class Item:
    kind: str
    name: str
    socket: int
    result: Result
    #: the pod's container the plan puts it in (None: the plan names no container)
    container: str | None = None
    #: the page size the plan gives the item (None: the platform's)
    page_size: int | None = None
    #: where the plan file has it ("[[ring]] 'events'"), for errors
    where: str = ""

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {"kind": self.kind, "name": self.name, "socket": self.socket}
        if self.container is not None:
            out["container"] = self.container
        if self.page_size is not None:
            out["page_size"] = self.page_size
        return {**out, "result": self.result.to_dict()}


@dataclass(frozen=True, kw_only=True)
class SocketPlan:
    socket: int
    total_bytes: int
    heap_bytes: int
    eal_heap: int
    pages: int | None

    def to_dict(self) -> dict[str, object]:
        return {
            "socket": self.socket,
            "total_bytes": self.total_bytes,
            "heap_bytes": self.heap_bytes,
            "eal_heap": self.eal_heap,
            "pages": self.pages,
        }


def _command_of(items: list[Item]) -> tuple[str, ...]:
    """The command line a container runs when it is one [[app]] item (on hugepages:
    mpcalc.dpdk.apps.hugepage_command), else none known (a trace's items have none)."""
    from mpcalc.dpdk.apps import hugepage_command

    argv = items[0].result.details.get("command_line") if len(items) == 1 else None
    return tuple(hugepage_command([str(a) for a in argv])) if isinstance(argv, list) else ()


@dataclass(frozen=True, kw_only=True)
class PlanReport:
    path: str
    platform: Platform
    items: tuple[Item, ...]
    sockets: tuple[SocketPlan, ...]
    #: each container's sockets (its own process: its own EAL heap), when the plan names containers
    containers: tuple[tuple[str, tuple[SocketPlan, ...]], ...] = ()
    #: each container's page size, when the plan's containers are on different ones (else the platform's)
    page_sizes: tuple[tuple[str, int], ...] = ()

    @property
    def capacity(self) -> dict[int, tuple[int, ...]] | None:
        """The pages each NUMA node holds per page size (--node-hugepages, [platform] node_hugepages), the page
        size in force for counts given without one; None when not given."""
        given = self.platform.node_hugepages
        return None if given is None else {size or self.platform.page_size: n for size, n in given}

    @property
    def ok(self) -> bool:
        return all(i.result.ok for i in self.items)

    def needs(self, command: tuple[str, ...] = (), configure: tuple[str, ...] = ()) -> list[Need]:
        """Each container's pages per NUMA node, and the ordinary memory mpcalc knows it holds outside hugepages
        (testpmd's --mp-alloc=anon objects: one anonymous mmap each); a container that is one [[app]] runs
        that application's command line (on hugepages)."""
        from mpcalc.dpdk.apps.testpmd import ANON_ROLE

        groups = self.containers or ((DEFAULT_CONTAINER, self.sockets),)
        out = []
        for name, sockets in groups:
            mine = [i for i in self.items if (i.container or DEFAULT_CONTAINER) == name]
            anon = [a for i in mine for mp in i.result.mempools for a in mp.allocations if a.role == ANON_ROLE]
            out.append(
                Need(
                    container=name,
                    page_size=dict(self.page_sizes).get(name, self.platform.page_size),
                    pages=tuple((s.socket, s.pages or 0) for s in sockets),
                    memory=sum(a.size for a in anon),
                    memory_what=tuple(f"{a.name}: {a.size:,} B" for a in anon),
                    command=command or _command_of(mine),
                    configure=configure,
                )
            )
        return out

    def settings(
        self, command: tuple[str, ...] = (), configure: tuple[str, ...] = (), pod: str | None = None
    ) -> dict[str, object]:
        """Ready-to-paste settings for the page size in force; the Kubernetes block's containers run
        ``command`` (with the EAL options added) or are configured by ``configure``, when given, in the
        pod ``pod`` (default: the program's or the plan file's name)."""
        p = self.platform
        if not p.page_size:
            return {}
        by_socket = {s.socket: s.pages or 0 for s in self.sockets}
        if p.page_size == NO_HUGE_PAGE:
            return no_huge_settings(sum(by_socket.values()) * p.page_size)
        mb = per_node_mb(sorted(by_socket.items()), p.page_size)
        several = sorted({size for _, size in self.page_sizes})
        return {
            "assumes": [
                *(
                    [
                        f"the containers use {' and '.join(page_label(z) for z in several)} pages: socket_mem, "
                        "eal_args and nr_hugepages here are the whole plan as one process on "
                        f"{page_label(p.page_size)} pages; each container's own pages, EAL options and the node's "
                        "pages per size are in kubernetes"
                    ]
                    if len(several) > 1
                    else []
                ),
                "EAL is started with this --socket-mem: it preallocates those pages as one heap region; "
                "without --socket-mem the heap grows on demand and needs a few pages more",
                "IOVA as PA with every page its own physically contiguous run (the worst case, EAL's default "
                "as root without an IOMMU): each extra chunk of an objects memzone costs a 192-byte heap "
                "element; IOVA as VA needs at most one page less",
            ],
            "socket_mem": mb,
            "eal_args": f"--socket-mem {mb}",
            "nr_hugepages": [nr_hugepages(s, p.page_size, n) for s, n in sorted(by_socket.items())],
            "kubernetes": kubernetes(
                self.needs(command, configure),
                p.release.version,
                pod or pod_name(command[0].rsplit("/", 1)[-1] if command else Path(self.path).stem.strip("<>")),
                self.capacity,
            ),
        }

    def to_dict(self) -> dict[str, object]:
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


#: the page size of EAL's --no-huge memory, RTE_PGSIZE_4K (v22.11.11:lib/eal/linux/eal_memory.c:1156-1200)
NO_HUGE_PAGE = 4096


def no_huge_settings(total: int) -> dict[str, object]:
    """The settings for 4 KiB pages, which are no hugepages (there is no hugepages-4kB/nr_hugepages): EAL
    with --no-huge maps ``-m`` MB of the process's own anonymous memory in 4 KiB pages, all on socket 0, as its
    one heap (v22.11.11:lib/eal/linux/eal_memory.c:1156-1200; 64 MB without -m, lib/eal/linux/eal.c:57,
    1150-1153); --socket-mem cannot be given with --no-huge (v22.11.11:lib/eal/common/eal_common_options.c:
    2101-2117).  ``total``: the pages' bytes."""
    mb = -(-total // 2**20)
    return {
        "assumes": [
            "4 KiB pages are not hugepages: EAL runs with --no-huge and takes its memory from -m (MB of the "
            "process's own anonymous memory, 4 KiB pages, all on socket 0), not from hugepages: no nr_hugepages "
            "to write, and --socket-mem cannot be used with --no-huge; without -m EAL takes 64 MB",
        ],
        "no_huge": True,
        "memory_mb": mb,
        "eal_args": f"--no-huge -m {mb}",
        "nr_hugepages": [],
        "kubernetes": {"resources": {"requests": {"memory": f"{mb}Mi"}, "limits": {"memory": f"{mb}Mi"}}},
    }


def _keyed(message: str) -> str:
    """A message as a plan file speaks: options (``--data-room``) as keys (``data_room``)."""
    import re

    return re.sub(r"--([a-z][a-z0-9-]*)", lambda m: m[1].replace("-", "_"), message)


def _item_error(path: str, where: str, key: str | None, exc: Exception) -> InputError:
    at = f"{path}: {where}" + (f", key {key!r}" if key else "")
    return InputError(f"{at}: {exc}", param=path)


def _parse_keys(path: str, where: str, table: Mapping[str, Any], spec: Mapping[str, Param]) -> dict[str, Any]:
    out = {}
    for key, value in table.items():
        if key not in spec:
            known = ", ".join(spec)
            raise _item_error(path, where, key, ValueError(f"unknown key (known: {known})"))
        try:
            out[key] = spec[key].parse(value)
        except (InputError, ValueError, TypeError) as exc:
            raise _item_error(path, where, key, exc) from None
    return out


def _platform(path: str, doc: Mapping[str, Any]) -> tuple[Platform, int]:
    table = doc.get("platform", {})
    if not isinstance(table, dict):
        raise _item_error(path, "[platform]", None, ValueError("must be a table"))
    keys = _parse_keys(path, "[platform]", table, platform_params())
    eal_heap = keys.pop("eal_heap", EAL_INIT_HEAP)
    try:
        platform = platform_from(keys, base_dir=str(Path(path).parent))
    except InputError as exc:
        raise _item_error(path, "[platform]", exc.param and exc.param.lstrip("-").replace("-", "_"), exc) from None
    # a value of [platform] came from the plan file, not from a command-line option
    return (
        platform._replace(
            sources=tuple((k, f"{path} [platform]" if v == "option" else v) for k, v in platform.sources)
        ),
        eal_heap,
    )


def _compute(kind: str, keys: dict[str, Any], p: Platform) -> Result:
    """An item's result: its object's declared checks and sizing, under its one set of flags."""
    job = Job.of(registry.get(kind), p, keys)
    return job.result(keys.get("flags", [0])[0])


def load(path: str | Path) -> tuple[dict[str, Any], str]:
    p = Path(path)
    try:
        with p.open("rb") as fh:
            data = fh.read(MAX_PLAN_BYTES + 1)  # no more than the bound is read
    except OSError as exc:
        raise InputError(f"cannot read plan file: {exc.strerror}", param=str(p)) from None
    if len(data) > MAX_PLAN_BYTES:
        raise InputError(f"{p}: plan files are limited to {MAX_PLAN_BYTES:,} bytes", param=str(p))
    if not data.strip():
        raise InputError(f"{p}: the plan file is empty", param=str(p))
    try:
        text = data.decode()
        check_toml_shape(text, str(p))  # its keys and nesting bounded before tomllib reads it
        return tomllib.loads(text), str(p)
    except UnicodeDecodeError:
        raise InputError(f"{p}: not UTF-8 text", param=str(p)) from None
    except tomllib.TOMLDecodeError as exc:
        raise InputError(f"{p}: not valid TOML: {exc}", param=str(p)) from None


def iova_pa_chunk_headers(results: list[Result], p: Platform) -> int:
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


def tables() -> dict[str, str]:
    """A plan file's tables of items (``[[ring]]``: ObjectDecl.plan_item) -> the object each is, in the
    registry's order."""
    return {registry.get(kind).plan_item: kind for kind in registry.NAMES}


def plan(doc: Mapping[str, Any], path: str = "<plan>") -> PlanReport:
    """Evaluate every item of a parsed plan file."""
    kinds = tables()
    unknown = sorted(set(doc) - {"platform", *kinds})
    if unknown:
        raise _item_error(
            path, f"[{unknown[0]}]", None, ValueError(f"unknown table (known: platform, {', '.join(kinds)})")
        )
    platform, eal_heap = _platform(path, doc)
    items: list[Item] = []
    seen: dict[tuple[int, str], str] = {}
    for name, kind in kinds.items():
        entries = doc.get(name, [])
        if isinstance(entries, dict):
            entries = [entries]
        if not isinstance(entries, list):
            raise _item_error(path, f"[{name}]", None, ValueError("must be an array of tables ([[...]])"))
        for index, table in enumerate(entries, 1):
            where = f"[[{name}]] #{index}"
            if not isinstance(table, dict):
                raise _item_error(path, where, None, ValueError("must be a table"))
            params = item_params(kind)
            if isinstance(table.get("name"), str):  # errors name the item as the file does
                where = f"[[{name}]] {table['name']!r}"
            keys = _parse_keys(path, where, table, params)
            where = f"[[{name}]] {keys.get('name', '#' + str(index))!r}"
            missing = [k for k, prm in params.items() if (prm.required or prm.needed or k == "name") and k not in keys]
            if missing:
                raise _item_error(path, where, missing[0], ValueError("is required"))
            socket = keys.pop("socket", 0)
            container = keys.pop("container", None)
            page_size = keys.pop("page_size", None)
            if page_size is not None and page_size <= NO_HUGE_PAGE:
                raise _item_error(
                    path,
                    where,
                    "page_size",
                    ValueError(
                        f"{page_label(page_size)} is no hugepage size: an item's page_size is a hugepage's (2M, "
                        "1G); 4 KiB pages (--no-huge) and none are the [platform]'s page_size"
                    ),
                )
            on = platform if page_size is None else platform._replace(page_size=page_size)
            if container is not None:
                try:
                    label(container, "container")
                except InputError as exc:
                    raise _item_error(path, where, "container", exc) from None
            # DPDK refuses a second pool, RIB or FIB of the same memzone name (EEXIST)
            mz = registry.get(kind).zone_prefix + keys["name"]
            if (0, mz) in seen:
                raise _item_error(
                    path,
                    where,
                    "name",
                    ValueError(f"memzone {mz} is already used by {seen[(0, mz)]}: DPDK would fail with EEXIST"),
                )
            seen[(0, mz)] = where
            try:
                result = _compute(kind, keys, on)
            except InputError as exc:
                raise _item_error(
                    path, where, exc.param and exc.param.lstrip("-").replace("-", "_"), InputError(_keyed(str(exc)))
                ) from None
            items.append(
                Item(
                    kind=kind,
                    name=keys["name"],
                    socket=socket,
                    result=result,
                    container=container,
                    page_size=page_size,
                    where=where,
                )
            )
            if len(items) > MAX_ITEMS:
                raise _item_error(path, where, None, ValueError(f"more than {MAX_ITEMS:,} items"))
    if not items:
        raise InputError(f"{path}: the plan lists no item (no {', '.join(f'[[{t}]]' for t in kinds)})", param=path)
    sizes = _container_page_sizes(path, items, platform.page_size)
    if len(set(sizes.values())) == 1:  # one page size: the plan's, whatever [platform] says
        platform = platform._replace(page_size=next(iter(sizes.values())))
    named = sorted(sizes) if any(i.container for i in items) else []
    containers = tuple(
        (
            c,
            socket_plans(
                [i for i in items if (i.container or DEFAULT_CONTAINER) == c],
                platform._replace(page_size=sizes[c]),
                eal_heap,
            ),
        )
        for c in named
    )
    return PlanReport(
        path=path,
        platform=platform,
        items=tuple(items),
        sockets=socket_plans(items, platform, eal_heap),
        containers=containers,
        page_sizes=tuple(sorted(sizes.items())) if len(set(sizes.values())) > 1 else (),
    )


def _container_page_sizes(path: str, items: list[Item], default: int) -> dict[str, int]:
    """Each container's page size: its items' (one DPDK process's heap takes each memzone from whichever page
    size it has free, the objects asking rte_memzone_reserve for none: v22.11:lib/eal/common/
    eal_common_memzone.c:150-165 and malloc_heap.c:35-60, 140-175, find_suitable_element's first free element
    that holds it, a size only with RTE_MEMZONE_2MB/1GB; so the items of one container are on one page size, or
    mpcalc could not say which pages they take)."""
    out: dict[str, int] = {}
    first: dict[str, Item] = {}
    for i in items:
        c = i.container or DEFAULT_CONTAINER
        size = i.page_size or default
        if c in out and out[c] != size:
            raise _item_error(
                path,
                i.where,
                "page_size",
                ValueError(
                    f"container {c!r} is one DPDK process: {first[c].where} is on {page_label(out[c])} pages, "
                    f"this item on {page_label(size)}; a process's heap places each memzone on whichever page "
                    "size it has free (the objects ask for none), so give this item a container of its own"
                ),
            )
        out.setdefault(c, size)
        first.setdefault(c, i)
    return out


def socket_plans(items: list[Item], platform: Platform, eal_heap: int) -> tuple[SocketPlan, ...]:
    """Each socket's heap and pages: the items' heap bytes, EAL's own and IOVA as PA's chunk headers."""
    sockets = []
    for s in sorted({i.socket for i in items}):
        mine = [i.result for i in items if i.socket == s]
        # VPP maps its own pages (its buffers, its DPDK heap at VPP's 16 MB floor): counted as the pages it wants,
        # its heap not again (mpcalc.dpdk.apps.vpp)
        own = [r for r in mine if "vpp" in r.details]
        dpdk = [r for r in mine if "vpp" not in r.details]
        heap = sum(r.heap_bytes for r in mine)
        # rte_eal_init's own allocations land on the main lcore's socket (assumed 0); an [[app]] counts them itself
        eal = eal_heap if s == 0 and not any(i.kind == "app" for i in items) else 0
        pages = (
            ceil_div(sum(r.heap_bytes for r in dpdk) + eal + iova_pa_chunk_headers(dpdk, platform), platform.page_size)
            + sum(_vpp_pages(r, s, platform.page_size) for r in own)
            if platform.page_size
            else None
        )
        sockets.append(
            SocketPlan(
                socket=s, total_bytes=sum(r.total_bytes for r in mine), heap_bytes=heap, eal_heap=eal, pages=pages
            )
        )
    return tuple(sockets)


def _vpp_pages(result: Result, socket: int, page: int) -> int:
    """The pages of ``page`` bytes VPP wants on ``socket`` (details.vpp.numa[].nr_hugepages)."""
    vpp = result.details["vpp"]
    assert isinstance(vpp, dict)
    return sum(int(n["nr_hugepages"].get(str(page), 0)) for n in vpp["numa"] if n["numa"] == socket)


__all__ = ["EAL_INIT_HEAP", "PlanReport", "item_params", "load", "plan"]


def fit_item(doc: Mapping[str, Any], path: str, name: str, budget: int) -> tuple[str, int | None, PlanReport]:
    """The largest count (or routes, nodes) of item ``name`` with which its socket still fits ``budget``
    bytes of pages (``heap + EAL`` with no page size).  Exact: one more does not fit.  The other items
    stay as they are."""
    import copy

    where = None
    for table_name, kind in tables().items():
        entries = doc.get(table_name, [])
        for index, table in enumerate(entries if isinstance(entries, list) else [entries]):
            if isinstance(table, dict) and table.get("name") == name:
                where = (table_name, kind, index)
    if where is None:
        raise InputError(f"{path}: no item named {name!r} to --fit", param="--fit-item")
    table_name, kind, index = where
    table = doc[table_name][index] if isinstance(doc[table_name], list) else doc[table_name]
    decl = registry.get(kind)
    key = decl.fit_key(table)
    assert key is not None

    def evaluate(value: int) -> PlanReport:
        trial = copy.deepcopy(dict(doc))
        target = trial[table_name][index] if isinstance(trial[table_name], list) else trial[table_name]
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

    value = largest(fits, 1, decl.fit[key])
    if value is None:
        return key, None, evaluate(1)
    best = evaluate(value)
    return key, (None if used(best)[0] else value), best
