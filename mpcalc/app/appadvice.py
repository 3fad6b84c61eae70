"""The hugepage advice of a whole application (``mpcalc app``): the plan's page model, for its command line.

The application is sized again on hugepages of the platform's page size (2 MiB by default): its command
line without ``--no-huge``/``-m``, which change the page size and not what it allocates.  Its result becomes
one plan item, and :func:`mpcalc.app.plan.socket_plans` and :meth:`PlanReport.settings` give the pages per
socket and the settings (``--socket-mem``, ``nr_hugepages``): the same model as ``mpcalc plan``
(proven on real 2 MiB pages by tests/conformance/test_plan_hugepages.py and test_apps_real.py).

Pure: no click, no rich.
"""

from __future__ import annotations

from ..dpdk import apps
from ..dpdk.platform import Platform
from ..dpdk.records import Result
from .plan import EAL_INIT_HEAP, Item, PlanReport, socket_plans

#: EAL's options of a memory amount per NUMA node (25.11's names and their aliases): what the advice replaces
MEMORY_OPTIONS = ("--socket-mem", "--socket-limit", "--numa-mem", "--numa-limit")


def on_hugepages(argv: list[str]) -> list[str]:
    """The command line without the EAL options that choose 4 KiB pages or a memory amount
    (``--no-huge``, ``-m N``, :data:`MEMORY_OPTIONS`): what the advice replaces."""
    out: list[str] = []
    it = iter(range(len(argv)))
    eal_end = argv.index("--") if "--" in argv else len(argv)
    for i in it:
        tok = argv[i]
        if i < eal_end:
            if tok == "--no-huge":
                continue
            if tok in ("-m", *MEMORY_OPTIONS):
                next(it, None)
                continue
            if (tok.startswith("-m") and tok[2:].isdigit()) or tok.startswith(tuple(o + "=" for o in MEMORY_OPTIONS)):
                continue
        out.append(tok)
    return out


def advice(argv: list[str], platform: Platform) -> dict[str, object]:
    """The pages per socket and the settings for the application on ``platform``'s hugepages."""
    page = platform.page_size if platform.page_size > 4096 else 2 << 20
    p = platform._replace(page_size=page)
    huge = on_hugepages(argv)
    result: Result = apps.size(huge, p)
    report = PlanReport(
        path="<app>",
        platform=p,
        items=(Item(kind="app", name="app", socket=0, result=result),),
        sockets=socket_plans([Item(kind="app", name="app", socket=0, result=result)], p, EAL_INIT_HEAP),
    )
    settings = report.settings(command=tuple(huge))
    return {
        "command": huge,
        "page_size": page,
        "heap_bytes": result.heap_bytes,
        "sockets": [s.to_dict() for s in report.sockets],
        "settings": settings,
        "run_as": [*huge[:1], *str(settings.get("eal_args", "")).split(), *huge[1:]] if settings else huge,
    }
