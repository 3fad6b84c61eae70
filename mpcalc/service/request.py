"""The application layer: one pure function from a request to a report and an exit code.

Every front end builds a :class:`Request` from parsed values (the command line, a batch line, a
sweep point, a diff side) and calls :func:`evaluate`: the flag combinations, ``--fit``,
``--explain`` and the CI gates are applied here, once.  No click, no rich: what is over budget
comes back as messages for the front end to print.
"""

import functools
from collections.abc import Mapping
from typing import Any, NamedTuple

from mpcalc.dpdk.core import registry
from mpcalc.dpdk.core.declare import Param
from mpcalc.dpdk.core.heap import assemble
from mpcalc.dpdk.core.platform import PLATFORM_KEYS, Platform, describe, platform_from
from mpcalc.dpdk.core.records import Footprint, Result
from mpcalc.dpdk.core.tuples import positional
from mpcalc.service.documents import Report
from mpcalc.service.exitcodes import ExitCode
from mpcalc.service.job import Job, complete, fit_rejection
from mpcalc.service.pages import advise

#: --tolerance's default: no growth allowed against --baseline (and what says --tolerance was not given)
NO_TOLERANCE = "0"


class Analysis(NamedTuple):
    """What to do besides sizing: --explain, --fit, and the CI gates."""

    explain: bool = False
    fit: int | None = None
    max_total: int | None = None
    baseline: str | None = None
    tolerance: str = NO_TOLERANCE


#: no analysis asked for (one object: a request without one is told by identity)
NO_ANALYSIS = Analysis()


class Request(NamedTuple):
    """One sizing command: the object, its parameters and the platform's (parsed; absent ones take
    their declared defaults), and the analyses."""

    command: str
    args: Mapping[str, Any]
    platform: Mapping[str, Any]
    analysis: Analysis = Analysis()


#: ``Request(*values)``, as :func:`mpcalc.dpdk.core.records.positional` makes it (a batch makes one a line)
new_request = positional(Request)


class Outcome(NamedTuple):
    #: the report; with --max-total or --baseline its ``gates`` section (mpcalc.service.gates.gate_report)
    report: Report
    code: ExitCode
    #: the failed checks of the report's gates (one line each), for stderr
    messages: tuple[str, ...] = ()


def job_of(request: Request) -> Job:
    """The request's object, platform and checked arguments (InputError for a bad combination)."""
    decl = registry.get(request.command)
    platform = platform_from(request.platform)
    args = request.args
    if request.analysis.fit is not None:
        args = dict(args)
        key = decl.fit_key(args)
        if key is None:
            from mpcalc.dpdk.core.errors import InputError

            raise InputError(f"{request.command} has nothing --fit can grow", param="--fit")
        if args.get(key) is None:
            args[key] = 1  # --fit finds it
    return Job.of(decl, platform, args)


def evaluate(request: Request) -> Outcome:
    """Size the request's object under each of its flag combinations, with --fit, --explain and the gates."""
    job = job_of(request)
    analysis = request.analysis
    masks = request.args.get("flags") or [0]
    results = [advise(job.command, job.inputs, _one(job, mask, analysis), job.platform) for mask in masks]
    inputs = job.inputs if analysis.fit is None else sized_inputs(job, results)
    report = Report(
        command=job.command,
        platform=describe(job.platform),
        inputs=inputs,
        results=tuple(results),
        notes=platform_notes(job.platform, *objects_zones(results)),
    )
    problems: tuple[str, ...] = ()
    if analysis.max_total is not None or analysis.baseline is not None or analysis.tolerance != NO_TOLERANCE:
        from mpcalc.service.gates import failures, gate_report  # reads JSON with --baseline: loaded with a gate

        section = gate_report(
            max_total=analysis.max_total,
            baseline=analysis.baseline,
            tol=None if analysis.tolerance == NO_TOLERANCE else analysis.tolerance,
            command=report.command,
            inputs=report.inputs,
            platform=report.platform,
            results=report.results,
        )
        report = report._replace(gates=section)
        problems = failures(section)
    code = ExitCode.BUDGET if problems else ExitCode.OK if report.ok else ExitCode.REJECTED
    return Outcome(report, code, problems)


class Numbers(NamedTuple):
    """:func:`footprints`' answer: the object, its inputs as sized, and each flag combination's numbers."""

    command: str
    inputs: Mapping[str, Any]
    results: list[tuple[int, Footprint]]


_new_numbers = positional(Numbers)


def footprints(request: Request) -> Numbers:
    """The numbers of :func:`evaluate`'s results, per flag combination: from the object's footprint
    function when it has one and nothing else is asked (no --fit, --explain or gate), else read off
    the results."""
    analysis = request.analysis
    decl = registry.get(request.command)
    numbers = decl.footprint
    if (analysis is not NO_ANALYSIS and analysis != NO_ANALYSIS) or numbers is None:
        report = evaluate(request).report
        return Numbers(report.command, report.inputs, [(r.flags, r.footprint) for r in report.results])
    platform = platform_from(request.platform)
    inputs, extra = complete(decl, request.args)[1]  # what Job.of makes of them, without the Job
    masks = request.args.get("flags") or [0]
    return _new_numbers((request.command, inputs, [(mask, numbers(inputs, extra, mask, platform)) for mask in masks]))


def sized_inputs(job: Job, results: list[Result]) -> dict[str, Any]:
    """The report's ``input`` under --fit: the configuration that was sized, --fit's answer in place of
    the value it grew (and of what derives from it: a RIB's max_nodes).  When the flag combinations'
    answers differ, or none fits, those keys are null and each result's ``details.fit`` holds its own."""
    key = job.fit_key
    fits = [r.details.get("fit") for r in results]
    values = {fit.get("value") if isinstance(fit, dict) else None for fit in fits}
    value = values.pop() if len(values) == 1 else None
    if value is not None:
        return job.decl.resolve({**job.args, key: value}).inputs
    one, two = job.decl.resolve({**job.args, key: 1}).inputs, job.decl.resolve({**job.args, key: 2}).inputs
    return {k: None if one.get(k) != two.get(k) else v for k, v in one.items()}


def _one(job: Job, mask: int, analysis: Analysis) -> Result:
    extra: dict[str, object] = {}
    if analysis.fit is not None:
        value, result = job.fit(mask, analysis.fit)
        if value is None:
            result = assemble(job.command, mask, job.platform, errors=[fit_rejection(job, analysis.fit)])
        else:
            nxt = job.result(mask, **{job.fit_key: value + 1})
            assert result is not None  # job.fit found a value: it has its result
            extra["fit"] = {
                "budget": analysis.fit,
                "on": "heap_bytes",
                "key": job.decl.input_name(job.fit_key),
                "value": value,
                "heap_bytes": result.heap_bytes,
                "next_heap_bytes": nxt.heap_bytes,
            }
    else:
        result = job.result(mask)
    assert result is not None
    if analysis.explain and (result.mempools or result.zones or result.allocations):
        from mpcalc.service import explain

        extra["explain"] = {
            "steps": explain.steps(result, job.platform),
            "savings": explain.savings(result, job.variants(mask)),
        }
    if extra:
        result = result._replace(details={**result.details, **extra})
    return result


def objects_zones(results: list[Result]) -> tuple[int, int]:
    """(the most objects memzones of one result, the largest heap_bytes): what RTE_MEMPOOL_ALIGN's note adds to."""
    zones = max((sum(z.role == "objects" for mp in r.mempools for z in mp.memzones) for r in results), default=0)
    return zones, max((r.heap_bytes for r in results), default=0)


@functools.lru_cache(maxsize=256)
def platform_notes(platform: Platform, zones: int = 0, most: int = 0) -> tuple[str, ...]:
    notes = []
    if platform.mempool_align > platform.cache_line:
        # rte_mempool_populate_default reserves each objects memzone aligned to RTE_MEMPOOL_ALIGN
        # (v22.11:lib/mempool/rte_mempool.c:578-580, rte_mempool_ops_default.c:63); malloc_elem_alloc carves
        # it from the end of a free element, its data start floored to the alignment, and keeps a trailer
        # too small to split inside the element (v22.11:lib/eal/common/malloc_elem.c:230-233,434-439)
        slack = platform.mempool_align - platform.cache_line
        notes.append(
            f"RTE_MEMPOOL_ALIGN {platform.mempool_align} is over the {platform.cache_line}-byte cache line: "
            f"the malloc heap grows by 0 or {slack} bytes more than heap_bytes per objects memzone, as the "
            f"free space it is carved from ends"
            + (f" (here {zones}: heap_bytes up to {most:,} + {zones * slack:,})" if zones else "")
        )
    if not platform.spreads and (platform.channels, platform.ranks) != (4, 1):
        notes.append(
            f"--channels/--ranks have no effect on {platform.arch}: DPDK spreads objects over memory "
            "channels and ranks only on x86 (arch_mem_object_align)"
        )
    build_notes = dict(platform.sources).get("build_notes")
    if build_notes:
        notes.append(build_notes)
    if platform.stats and platform.release.stats_switch == "debug":
        notes.append(f"DPDK {platform.dpdk} has no RTE_LIBRTE_MEMPOOL_STATS: its statistics come with --debug")
    return tuple(notes)


#: the analyses' inputs, declared once for the command line and batch lines (the gates: command line only)
ANALYSIS_PARAMS = (
    Param("explain", "bool", "Show the derivation of every figure and the savings on the table.", default=False),
    Param(
        "fit",
        "size",
        "Find the largest count (pool, mbuf), max_nodes or max_routes whose heap_bytes fit SIZE.",
        lo=1,
        hi=1 << 50,
        metavar="SIZE",
    ),
    Param(
        "max_total",
        "size",
        "Exit 3 when a total_bytes is over SIZE.",
        hi=1 << 62,
        metavar="SIZE",
        fronts=frozenset({"cli"}),
    ),
    Param(
        "baseline",
        "path",
        "A previous --json report: exit 3 when a total grew by more than --tolerance.",
        fronts=frozenset({"cli"}),
    ),
    Param(
        "tolerance",
        "text",
        "Growth allowed against --baseline: bytes (64K) or a percentage (2%).",
        default=NO_TOLERANCE,
        show_default=True,
        metavar="SIZE|PCT",
        fronts=frozenset({"cli"}),
    ),
)


def request_of(command: str, values: Mapping[str, Any]) -> Request:
    """A request from parsed values keyed as the declarations key them (the object's, the platform's
    and the analyses' parameters; any other key is ignored here: each front end checks its own)."""
    decl = registry.get(command)
    analysis = Analysis(**{p.key: values.get(p.key, p.default) for p in ANALYSIS_PARAMS})
    return Request(
        command=command,
        args={p.key: values.get(p.key, p.default) for p in decl.params},
        platform={k: values[k] for k in PLATFORM_KEYS if values.get(k) is not None},
        analysis=analysis,
    )
