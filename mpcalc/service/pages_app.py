"""The hugepage advice of a whole application (``mpcalc app``): the plan's page model, for its command line.

The application is sized again on hugepages of the platform's page size (2 MiB by default): its command
line without ``--no-huge``/``-m``, which change the page size and not what it allocates.  Its result becomes
one plan item, and :func:`mpcalc.service.plan.socket_plans` and :meth:`PlanReport.settings` give the pages per
socket and the settings (``--socket-mem``, ``nr_hugepages``): the same model as ``mpcalc plan``
(proven on real 2 MiB pages by tests/conformance/test_plan_hugepages.py and test_apps_real.py).

Pure: no click, no rich.
"""

from __future__ import annotations

from typing import Any

from mpcalc.dpdk import apps
from mpcalc.dpdk.apps.testpmd import EXTMEM_PAGE_SIZES
from mpcalc.dpdk.core.platform import DEFAULT_PAGE_SIZE, Platform
from mpcalc.dpdk.core.records import Result
from mpcalc.service.plan import EAL_INIT_HEAP, Item, PlanReport, iova_pa_chunk_headers, no_huge_settings, socket_plans

#: the page testpmd's --mp-alloc=xmemhuge maps first (RTE_PGSIZE_2M): the pod's hugepages-2Mi
XMEMHUGE_PAGE = EXTMEM_PAGE_SIZES[0]


def advice(
    argv: list[str],
    platform: Platform,
    cpus: tuple[int, ...] | None = None,
    nics: list[str] | None = None,
    devbind: str | None = None,
    spdk_release: str | None = None,
) -> dict[str, object]:
    """The pages per socket and the settings for the application on ``platform``'s hugepages (on the
    machine of ``cpus``, when given; its PCI NICs bound by ``nics``/``devbind``, as the sizing had them; an SPDK
    target of ``spdk_release``)."""
    page = platform.page_size if platform.page_size > 4096 else DEFAULT_PAGE_SIZE
    p = platform._replace(page_size=page)
    huge = apps.hugepage_command(argv)
    result: Result = apps.size(huge, p, cpus, nics, devbind, spdk_release=spdk_release)
    # an application's buffers aligned above the cache line may leave up to that much free below them (SPDK's
    # alignment_slack_bytes): the pages hold the worst case
    planned = result._replace(heap_bytes=result.heap_bytes + slack_of(result))
    report = PlanReport(
        path="<app>",
        platform=p,
        items=(Item(kind="app", name="app", socket=0, result=planned),),
        sockets=socket_plans([Item(kind="app", name="app", socket=0, result=planned)], p, EAL_INIT_HEAP),
    )
    settings = report.settings(command=tuple(huge))
    found = result.details.get("extmem_hugepages")
    own = [dict(m) for m in found] if isinstance(found, list) else []
    if own and settings:
        settings = with_own_hugepages(settings, sum(int(m["pages"]) for m in own), page)
    pa = iova_pa_chunk_headers([result], p)
    out: dict[str, object] = {
        "command": huge,
        "page_size": page,
        "heap_bytes": result.heap_bytes,
        # IOVA as PA cuts each objects memzone into one chunk per physically contiguous run of pages, each with
        # its own 192-byte MEMPOOL_MEMHDR element (rte_mempool_populate_virt, v22.11.11:lib/mempool/
        # rte_mempool.c:334, 414-444): how many runs the kernel gives cannot be known offline; the advice's
        # pages cover the top
        "heap_range": {
            "low": result.heap_bytes,
            "high": result.heap_bytes + pa,
            "why": "IOVA as VA, or one physically contiguous run per objects memzone: the low end; IOVA as PA "
            f"with every page its own run (the worst case): {pa:,} B more, a 192-byte MEMPOOL_MEMHDR element "
            "per further chunk; the advice covers the high end",
        },
        "own_hugepages": own,
        "sockets": [s.to_dict() for s in report.sockets],
        "settings": settings,
        "run_as": [*huge[:1], *str(settings.get("eal_args", "")).split(), *huge[1:]] if settings else huge,
    }
    if huge != argv and "--no-huge" in argv[: argv.index("--") if "--" in argv else len(argv)]:
        out["no_huge"] = no_huge(argv, apps.size(argv, platform, cpus, nics, devbind, spdk_release=spdk_release))
    if apps.program_of(argv) == "spdk":
        from mpcalc.service.pages_spdk import in_spdk_terms

        out = in_spdk_terms(out, huge)
    return out


def slack_of(result: Result) -> int:
    """The heap bytes an application's alignment may leave free beyond its elements (``alignment_slack_bytes``
    of its details, SPDK's; 0 for the applications without)."""
    slack = result.details.get("alignment_slack_bytes")
    return slack if isinstance(slack, int) else 0


def no_huge(argv: list[str], result: Result) -> dict[str, object]:
    """The command line as given, under --no-huge: its memory is -m MB of the process's own 4 KiB pages, not
    hugepages (mpcalc.service.plan.no_huge_settings); the -m that holds its heap, and whether the one given does."""
    e, _ = apps.eal_of(argv)
    need = no_huge_settings(result.heap_bytes + slack_of(result))
    mb = int(str(need["memory_mb"]))
    given = e.memory_mb if e.memory_mb is not None else 64  # MEMSIZE_IF_NO_HUGE_PAGE
    holds = given >= mb
    return {
        "memory_mb": mb,
        "eal_args": f"-m {mb}",
        "given_mb": given,
        "holds": holds,
        "note": (
            f"as given (--no-huge) the memory is -m, {given} MB of the process's own 4 KiB pages, not hugepages: "
            f"the heap ({result.heap_bytes:,} B) needs -m {mb}"
            + ("" if holds else f"; with -m {given} a pool or a port cannot be created")
        ),
    }


def _with_own_pages(k8s: dict[str, Any], pages: int) -> dict[str, Any]:
    """The Kubernetes block with ``pages`` 2 MiB pages more for the (first) container, on NUMA node 0: its
    hugepages-2Mi request and limit (the same object in the Pod), and the node's pages."""
    import copy

    from mpcalc.service.k8s import quantity

    out = copy.deepcopy(k8s)
    first = out["containers"][0]
    for kind in ("requests", "limits"):
        held = first["resources"][kind]
        before = _bytes(held.get("hugepages-2Mi", "0"))
        held["hugepages-2Mi"] = quantity(before + pages * XMEMHUGE_PAGE)
    for pod_container in out["pod"]["spec"]["containers"]:
        if pod_container.get("name") == first["name"]:
            pod_container["resources"] = first["resources"]
    return out


def _bytes(q: str) -> int:
    """A Kubernetes quantity of :func:`mpcalc.service.k8s.quantity` (``18Mi``, ``4Gi``) in bytes."""
    for suffix, size in (("Gi", 1 << 30), ("Mi", 1 << 20), ("Ki", 1 << 10)):
        if q.endswith(suffix):
            return int(q.removesuffix(suffix)) * size
    return int(q)


def with_own_hugepages(settings: dict[str, object], pages: int, page: int) -> dict[str, object]:
    """The settings when the application maps ``pages`` 2 MiB hugepages of its own besides EAL's (testpmd
    --mp-alloc=xmemhuge: mmap(MAP_HUGETLB | MAP_HUGE_2MB), v22.11.11:app/test-pmd/testpmd.c:851-870): they come
    from the kernel's pool of 2 MiB pages, not from --socket-mem, so nr_hugepages (node 0, the local node of
    the main lcore's thread) and the Kubernetes request count them; --socket-mem does not."""
    out = dict(settings)
    given = settings.get("nr_hugepages")
    lines = [str(x) for x in given] if isinstance(given, list) else []
    node0 = "/sys/devices/system/node/node0/hugepages/hugepages-2048kB/nr_hugepages"
    if page == XMEMHUGE_PAGE and lines and lines[0].endswith(node0):
        n = int(lines[0].split()[1]) + pages
        lines[0] = f"echo {n} > {node0}"
    else:
        lines.append(f"echo {pages} > {node0}")
    out["nr_hugepages"] = lines
    k8s = settings.get("kubernetes")
    if isinstance(k8s, dict) and k8s.get("containers"):
        out["kubernetes"] = _with_own_pages(k8s, pages)
    assumes = settings.get("assumes")
    out["assumes"] = [
        *(assumes if isinstance(assumes, list) else []),
        f"the application maps {pages} 2 MiB hugepage(s) of its own (testpmd --mp-alloc=xmemhuge: MAP_HUGETLB, "
        "setup_extmem), outside --socket-mem: nr_hugepages counts them, --socket-mem does not; with fewer "
        "testpmd exits ('Could not create external memory', v22.11.11:app/test-pmd/testpmd.c:1208-1209)",
    ]
    return out
