"""The answer a route file gives, in words, first in the table view of ``fib``/``fib6``/``lpm``/``lpm6
--routes-file``.

Reads ``details.answer`` and ``details.route_plan`` of a result (mpcalc.dpdk.objects.fib_routes.answer,
mpcalc.dpdk.objects.lpm_routes.route_report): the ``--routes`` (an LPM: ``--max-rules``) and ``--tbl8`` to pass, what
the table needs, and the room the table as asked for leaves.
No rich: the table renderer prints these lines as it prints its other sentences.
"""

from __future__ import annotations


def lines(result: dict) -> list[str]:
    """The leading sentences for a result with a route plan (none otherwise)."""
    details = result.get("details") or {}
    answer, plan = details.get("answer"), details.get("route_plan")
    if not isinstance(answer, dict) or not isinstance(plan, dict):
        return []
    if "max_rules" in answer:  # an LPM (mpcalc.dpdk.objects.lpm_routes.route_report)
        return [
            f"pass --max-rules {answer['max_rules']:,} --tbl8 {answer['tbl8']:,}",
            f"{plan['routes']:,} routes need {plan['rules_needed']:,} rules, {plan['tbl8_needed']:,} tbl8 groups",
            f"headroom (--max-rules {details.get('max_rules', 0):,} --tbl8 {details.get('number_tbl8s', 0):,}): "
            f"{answer['rules_headroom']:+,} rules, {answer['tbl8_headroom']:+,} tbl8 groups",
        ]
    provided = details.get("tbl8_provided")
    gives = f"; {provided:,} groups" if plan.get("dp_type") == "dir24_8" and provided is not None else ""
    read = f"{plan['routes']:,} routes"
    if plan["distinct_routes"] != plan["routes"]:
        read += f" ({plan['distinct_routes']:,} distinct)"
    return [
        f"pass --routes {answer['routes']:,} --tbl8 {answer['tbl8']:,}",
        f"{read} need {plan['rib_nodes_needed']:,} RIB nodes, {plan['tbl8_needed']:,} tbl8 groups",
        f"headroom (--routes {details.get('max_routes', 0):,} --tbl8 {details.get('num_tbl8', 0):,}{gives}): "
        f"{answer['rib_nodes_headroom']:+,} RIB nodes, {answer['tbl8_headroom']:+,} tbl8 groups",
    ]
