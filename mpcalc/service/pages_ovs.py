"""``mpcalc ovs``'s hugepage advice: mpcalc.service.plan's page model (``socket_plans``, ``PlanReport.settings``)
on the ports as one plan item, in OVS's own words (other_config:dpdk-socket-mem).  Pure: no click, no rich."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from mpcalc.dpdk.core.platform import Platform
from mpcalc.dpdk.core.records import Result

if TYPE_CHECKING:
    from mpcalc.service.plan import PlanReport


def configure(report: PlanReport) -> str:
    """OVS's own EAL settings for the pages: dpdk-socket-mem and dpdk-socket-limit (OVS passes --in-memory
    itself unless dpdk-extra says --in-memory or --legacy-mem: v3.1.7:lib/dpdk.c:335)."""
    from mpcalc.service.k8s import per_node_mb

    mb = per_node_mb([(s.socket, s.pages or 0) for s in report.sockets], report.platform.page_size)
    return (
        f"ovs-vsctl set Open_vSwitch . other_config:dpdk-socket-mem={mb} other_config:dpdk-socket-limit={mb} "
        "(OVS adds --in-memory itself)"
    )


def advice(result: Result, platform: Platform, inputs: Mapping[str, Any] | None = None) -> dict[str, object]:
    """The settings of the one-item plan (``[[ovs]]``) holding ``result``."""
    from mpcalc.service.plan import EAL_INIT_HEAP, Item, PlanReport, socket_plans

    items = (Item(kind="ovs", name="ovs", socket=0, result=result),)
    report = PlanReport(
        path="<mpcalc ovs>", platform=platform, items=items, sockets=socket_plans(list(items), platform, EAL_INIT_HEAP)
    )
    settings = report.settings(configure=(configure(report),), pod="ovs-vswitchd") if platform.page_size else {}
    if not settings:
        return {"pages": None, "note": "no page size (--page-size none): no hugepage advice"}
    if settings.get("no_huge"):
        mb = settings["memory_mb"]
        extra = f"--no-huge --legacy-mem -m {mb}"
        return {
            "page_size": platform.page_size,
            "sockets": [s.to_dict() for s in report.sockets],
            "pages": {str(s.socket): s.pages for s in report.sockets},
            "eal_heap": report.sockets[0].eal_heap,
            "no_huge": True,
            "memory_mb": mb,
            "dpdk-extra": extra,
            # OVS adds --in-memory unless --legacy-mem is given (v3.1.0:lib/dpdk.c:334-337)
            "ovs-vsctl": f'ovs-vsctl set Open_vSwitch . other_config:dpdk-extra="{extra}"',
            "nr_hugepages": [],
            "assumes": [
                *settings["assumes"],  # type: ignore[misc]
                "--legacy-mem beside --no-huge keeps OVS from adding --in-memory (the runs proving the model)",
                "this -m holds every pool's objects in one memzone as modelled; with less, "
                "rte_mempool_populate_default may split a pool over several smaller memzones that still fit",
                "a NIC's driver allocates its own descriptor rings and data: the advice counts net_null's",
            ],
        }
    socket_mem = str(settings["socket_mem"])
    peak = _peak(result, platform, inputs)
    pages0 = report.sockets[0].pages or 0
    kb = platform.page_size // 1024
    grow = pages0 + ON_DEMAND_PAGES
    halving = _halving_cite(result)
    assumes = [
        str(a).replace(
            "without --socket-mem the heap grows on demand and needs a few pages more",
            f"without other_config:dpdk-socket-mem (OVS's default: the heap grows on demand) give nr_hugepages "
            f"{grow}: the last pool's objects are then split over many memzones (13 to 22 in the real runs) and "
            f"took 1 to {ON_DEMAND_PAGES} pages more",
        )
        for a in settings["assumes"]  # type: ignore[attr-defined]
    ]
    return {
        "page_size": platform.page_size,
        "sockets": [s.to_dict() for s in report.sockets],
        "pages": {str(s.socket): s.pages for s in report.sockets},
        "eal_heap": report.sockets[0].eal_heap,
        "dpdk-socket-mem": socket_mem,
        "ovs-vsctl": f"ovs-vsctl set Open_vSwitch . other_config:dpdk-socket-mem={socket_mem}",
        "nr_hugepages": settings["nr_hugepages"],
        **({"peak": peak} if peak else {}),
        "minimum": True,
        "one_page_less": (
            f"these are the fewest pages that hold every pool at full size: with one page less a pool does not "
            f"fit, and OVS halves its count and retries under a new name, down to MIN_NB_MBUF 16,384 mbufs "
            f"(dpdk_mp_create, {halving}); a pool of fewer than 32,768 mbufs, whose half is under that, is not "
            "created at all, and its port is not added"
        ),
        "without_dpdk_socket_mem": {
            "pages": {"0": grow},
            "nr_hugepages": [f"echo {grow} > /sys/devices/system/node/node0/hugepages/hugepages-{kb}kB/nr_hugepages"],
        },
        "kubernetes": settings["kubernetes"],
        "assumes": [
            *assumes,
            "a NIC's driver allocates its own descriptor rings and data: the advice counts net_null's",
        ],
    }


def _peak(result: Result, platform: Platform, inputs: Mapping[str, Any] | None) -> dict[str, object] | None:
    """With --change: the pages of the step whose alive pools take the most heap (the pools of that step in
    place of the first configuration's), and its dpdk-socket-mem; None without changes."""
    from mpcalc.dpdk.apps.ovs import PORT, parse_port
    from mpcalc.dpdk.apps.ovs.sequence import replay
    from mpcalc.dpdk.apps.ovs.versions import ovs_release
    from mpcalc.dpdk.core.machine import parse_cpus
    from mpcalc.service.plan import EAL_INIT_HEAP, Item, socket_plans

    d = result.details
    peak, steps = d.get("peak"), d.get("sequence")
    if not isinstance(peak, dict) or not isinstance(steps, list) or not inputs:
        return None
    ports = [parse_port(t) for t in PORT.parse(inputs["port"])]
    cpus = inputs.get("cpus")
    _, every = replay(
        ports,
        list(inputs.get("change") or ()),
        bool(inputs.get("per_port_memory")),
        inputs.get("pmd_cpu_mask"),
        ovs_release(inputs.get("ovs"), platform.dpdk),
        platform,
        inputs.get("ovs_hash") or "mhash",
        inputs.get("shared_mempool_config"),
        parse_cpus(cpus) if cpus is not None else None,
    )
    first = steps[len(ports) - 1]
    pools = tuple(every[n] for n in peak["alive"])
    heap = result.heap_bytes - int(first["pool_heap_bytes"]) + int(peak["pool_heap_bytes"])
    where = result._replace(mempools=pools, heap_bytes=heap)
    (sock,) = socket_plans([Item(kind="ovs", name="ovs", socket=0, result=where)], platform, EAL_INIT_HEAP)
    pages = sock.pages or 0
    mb = pages * platform.page_size // 2**20
    return {
        "step": peak["step"],
        "pages": {"0": pages},
        "dpdk-socket-mem": str(mb),
        "ovs-vsctl": f"ovs-vsctl set Open_vSwitch . other_config:dpdk-socket-mem={mb}",
        "why": "the pools alive at once peak at this step: OVS frees an unused pool only at the next pool "
        "request (dpdk_mp_sweep in dpdk_mp_get); with the first configuration's pages alone the step's new "
        "pool is halved or not created",
    }


#: the pages OVS needed beyond the advice without other_config:dpdk-socket-mem (EAL's heap grown on demand: the
#: last pool's objects split over 13-22 memzones), measured on OVS 3.1.0 / DPDK 22.11 with 2 MiB pages: 1 or 2
ON_DEMAND_PAGES = 2


def _halving_cite(result: Result) -> str:
    """The line of dpdk_mp_create's halving loop at the result's OVS release."""
    from mpcalc.dpdk.apps.ovs.versions import ovs_release

    d = result.details
    return ovs_release(str(d.get("ovs")), str(d.get("ovs_dpdk"))).cite("halving")
