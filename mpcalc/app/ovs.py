"""``mpcalc ovs``'s hugepage advice: mpcalc.app.plan's page model (``socket_plans``, ``PlanReport.settings``)
on the ports as one plan item, in OVS's own words (other_config:dpdk-socket-mem).  Pure: no click, no rich."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..dpdk.platform import Platform
from ..dpdk.records import Result

if TYPE_CHECKING:
    from .plan import PlanReport


def configure(report: PlanReport) -> str:
    """OVS's own EAL settings for the pages: dpdk-socket-mem and dpdk-socket-limit (OVS passes --in-memory
    itself unless dpdk-extra says --in-memory or --legacy-mem: v3.1.7:lib/dpdk.c:335)."""
    from .k8s import per_node_mb

    mb = per_node_mb([(s.socket, s.pages or 0) for s in report.sockets], report.platform.page_size)
    return (
        f"ovs-vsctl set Open_vSwitch . other_config:dpdk-socket-mem={mb} other_config:dpdk-socket-limit={mb} "
        "(OVS adds --in-memory itself)"
    )


def advice(result: Result, platform: Platform) -> dict[str, object]:
    """The settings of the one-item plan (``[[ovs]]``) holding ``result``."""
    from .plan import EAL_INIT_HEAP, Item, PlanReport, socket_plans

    items = (Item(kind="ovs", name="ovs", socket=0, result=result),)
    report = PlanReport(
        path="<mpcalc ovs>", platform=platform, items=items, sockets=socket_plans(list(items), platform, EAL_INIT_HEAP)
    )
    settings = report.settings(configure=(configure(report),), pod="ovs-vswitchd") if platform.page_size else {}
    if not settings:
        return {"pages": None, "note": "no page size (--page-size none): no hugepage advice"}
    socket_mem = str(settings["socket_mem"])
    return {
        "page_size": platform.page_size,
        "sockets": [s.to_dict() for s in report.sockets],
        "pages": {str(s.socket): s.pages for s in report.sockets},
        "eal_heap": report.sockets[0].eal_heap,
        "dpdk-socket-mem": socket_mem,
        "ovs-vsctl": f"ovs-vsctl set Open_vSwitch . other_config:dpdk-socket-mem={socket_mem}",
        "nr_hugepages": settings["nr_hugepages"],
        "kubernetes": settings["kubernetes"],
        "assumes": [
            *settings["assumes"],  # type: ignore[misc]
            "a NIC's driver allocates its own descriptor rings and data: the advice counts net_null's",
        ],
    }
