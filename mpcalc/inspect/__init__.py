"""``mpcalc inspect``: read what a live DPDK process reports and hold it against the model.

Pure Python (no click, no rich).  Three steps:

1. :func:`parse` (:mod:`.dispatch`) reads any mix of

   * ``rte_mempool_dump()`` text (``dpdk-proc-info --show-mempool``, testpmd's
     ``dump_mempool``), in the formats of 21.11 to 26.07
     (lib/mempool/rte_mempool.c, ``rte_mempool_dump`` / ``rte_mempool_dump_cache``):
     24.11 adds ``memory chunk at ...`` lines, 25.11 hides zero cache counts
     (``internal cache infos (hide zero value items):``), 26.07 adds ``avg ...``
     statistics lines (:mod:`.parse_mempool`);
   * the per-pool summary of ``dpdk-proc-info --show-mempool=NAME``
     (app/proc-info/main.c ``show_mempool``; :mod:`.parse_procinfo`);
   * ``rte_memzone_dump()`` text (lib/eal/common/eal_common_memzone.c; 24.11 adds
     ``Total Memory Zones size = ...M``; :mod:`.parse_memzone`);
   * the JSON that ``dpdk-telemetry.py`` prints for ``/mempool/list`` and
     ``/mempool/info,<name>`` (23.11 adds ``total_cache_count`` and ``common_pool_count``;
     :mod:`.parse_telemetry`).

   Unknown lines are skipped and counted; a malformed line of a known kind raises
   :class:`InputError` naming its line number.

2. :func:`reconcile` (:mod:`.reconcile`) recovers each pool's configuration, picks the platform
   the evidence allows (options pin values; :mod:`.search`), recomputes the pool with
   :func:`mpcalc.dpdk.objects.mempool.size` (:mod:`.model`), compares every memzone and names likely causes of
   a difference.

3. The same engine evaluates what each lever the pool's creator has (:mod:`.kinds`: the sizing flags of
   rte_mempool_create, the n, cache and data room of rte_pktmbuf_pool_create, a FIB's max_routes), or another
   page size, would save (:func:`advise`, :mod:`.advice`).

Given the application's command line (``mpcalc inspect DUMP -- dpdk-testpmd ...``), :mod:`.apps` runs
``mpcalc app`` on it and explains every memzone of the dump (matched, differs, extra, missing), grouped by
owner (a pool, a FIB with its RIB node pool and table allocations, ethdev, ...), and the heap to the byte
when the input has telemetry's ``/eal/heap_info,0``.

The report and its JSON and CSV projections are in :mod:`.report`; the table is drawn by
:mod:`mpcalc.render.inspect_view`.
"""

from __future__ import annotations

from mpcalc.dpdk.core.platform import DEFAULT_PAGE_SIZE, Platform
from mpcalc.inspect.dispatch import parse
from mpcalc.inspect.dump_report import CSV_COLUMNS, InspectReport, PoolReport, csv_rows
from mpcalc.inspect.dumps import Parsed, PoolDump, ZoneDump
from mpcalc.inspect.pool_model import Measured
from mpcalc.inspect.reconcile import reconcile, reconcile_pool
from mpcalc.inspect.savings import advise
from mpcalc.inspect.search import BUILDS, PAGE_SIZES, RELEASE_PREFERENCE, SPREADS, Choice, Evidence, Pins

__all__ = [
    "BUILDS",
    "CSV_COLUMNS",
    "PAGE_SIZES",
    "RELEASE_PREFERENCE",
    "SPREADS",
    "Choice",
    "Evidence",
    "InspectReport",
    "Measured",
    "Parsed",
    "Pins",
    "PoolDump",
    "PoolReport",
    "ZoneDump",
    "advise",
    "csv_rows",
    "inspect_parsed",
    "inspect_text",
    "inspect_trace",
    "parse",
    "reconcile",
    "reconcile_pool",
]


def inspect_text(
    text: str, source: str = "<input>", pins: Pins | None = None, command_line: list[str] | None = None
) -> InspectReport:
    """Parse ``text`` and reconcile it: the whole of ``mpcalc inspect`` but the rendering.  With the
    application's ``command_line``, the dump is also explained by ``mpcalc app`` of it (report.application)."""
    return inspect_parsed(parse(text, source), pins, command_line)


def inspect_trace(path: str, pins: Pins | None = None, command_line: list[str] | None = None) -> InspectReport:
    """:func:`inspect_text` of a DPDK trace (a CTF folder, or babeltrace2's text): the memzones and pools alive at
    the end of the run's start-up (:mod:`.parse_trace`)."""
    from mpcalc.inspect.parse_trace import parse_trace

    return inspect_parsed(parse_trace(path, _platform(pins or Pins())), pins, command_line)


def inspect_parsed(parsed: Parsed, pins: Pins | None = None, command_line: list[str] | None = None) -> InspectReport:
    """Reconcile what was read (and, with the application's command line, explain it by ``mpcalc app``)."""
    from mpcalc.inspect.app_dump import app_model, explain

    if not command_line:
        return reconcile(parsed, pins)
    app = app_model(command_line, _platform(pins or Pins()))
    report = reconcile(parsed, pins, app.kinds)
    report.application = explain(parsed, app)
    return report


def _platform(pins: Pins) -> Platform:
    """The platform ``mpcalc app`` runs the command line on: the pinned values, defaults elsewhere (the command
    line's own EAL options, --no-huge and -n/-r, apply on top)."""
    from mpcalc.dpdk.core.platform import make_platform

    return make_platform(
        dpdk=pins.dpdk,
        arch=pins.arch,
        cache_line=pins.cache_line,
        max_lcore=pins.max_lcore,
        channels=pins.channels or 4,
        ranks=pins.ranks or 1,
        page_size=pins.page_size or DEFAULT_PAGE_SIZE,
        debug=pins.debug,
        stats=pins.stats,
    )
