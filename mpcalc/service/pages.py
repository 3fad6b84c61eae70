"""Hugepage advice for the objects that are a whole application (``app``, ``ovs``): the plan's page model
(mpcalc.service.plan) on the object as a one-item plan, in each one's own words.  One mechanism: a result DPDK
accepts gets ``details.advice`` from its object's adviser here.  Pure: no click, no rich."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from mpcalc.dpdk.core.platform import Platform
from mpcalc.dpdk.core.records import Result

Adviser = Callable[[Mapping[str, Any], Result, Platform], dict[str, object]]


def _app(inputs: Mapping[str, Any], result: Result, platform: Platform) -> dict[str, object]:
    from mpcalc.dpdk.core.machine import parse_cpus
    from mpcalc.dpdk.drivers.naming import read_devbind
    from mpcalc.service.pages_app import advice

    if result.details.get("application") == "vpp":  # VPP takes no --socket-mem: its own pages (pages_vpp)
        from mpcalc.service.pages_vpp import advice as vpp_advice

        return vpp_advice(result)

    cpus, nics, devbind = inputs.get("cpus"), inputs.get("nic"), inputs.get("devbind")
    return advice(
        list(inputs["command_line"]),
        platform,
        parse_cpus(cpus) if cpus is not None else None,
        list(nics) if nics else None,
        read_devbind(devbind),
        inputs.get("spdk_release"),
    )


def _ovs(inputs: Mapping[str, Any], result: Result, platform: Platform) -> dict[str, object]:
    from mpcalc.service.pages_ovs import advice

    return advice(result, platform, inputs)


def _trace(inputs: Mapping[str, Any], result: Result, platform: Platform) -> dict[str, object]:
    from mpcalc.service.pages_trace import advice

    return advice(result, platform)


#: object name -> its adviser
ADVISERS: dict[str, Adviser] = {"app": _app, "ovs": _ovs, "trace": _trace}


def advise(command: str, inputs: Mapping[str, Any], result: Result, platform: Platform) -> Result:
    """``result`` with ``details.advice`` when its object has an adviser and DPDK accepts it."""
    adviser = ADVISERS.get(command)
    if adviser is None or not result.ok:
        return result
    return result._replace(details={**result.details, "advice": adviser(inputs, result, platform)})
