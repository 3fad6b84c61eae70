"""Any DPDK application, from DPDK's own trace: ``mpcalc trace TRACE``.

An application started with EAL's ``--trace=`` options writes a CTF trace when it calls
``rte_eal_cleanup`` (``rte_trace_save``).  :func:`read_events` reads it (a CTF folder as DPDK writes it,
the folder that holds one, or ``babeltrace2``'s text of it in a file or on standard input: ``-``);
:func:`mpcalc.dpdk.apps.trace.replay.replay` replays it (every memzone, ``rte_malloc`` element and mempool,
freed as DPDK frees them; the live sets at the end of start-up and at the end; the peak per socket);
:mod:`.model` holds each pool against mpcalc's model and sizes the live set for the target build and
machine.  :data:`TRACE` is the object every front end is made from (the command, a plan's ``[[trace]]``
item, a batch line, the schema).

Pure: stdlib only.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator, Mapping
from typing import Any, NamedTuple

from mpcalc.dpdk.apps.trace import babeltrace_text, ctf
from mpcalc.dpdk.apps.trace.events import Event, Stream
from mpcalc.dpdk.apps.trace.replay import HANDLED, LOST_TYPE, NEEDED, TEARDOWN, Replay, replay
from mpcalc.dpdk.apps.trace.sizing import PoolCheck, heap_of, pool_flag_changes, reconcile, target_parts
from mpcalc.dpdk.core.declare import CACHE_LAYOUT, ObjectDecl, Param, Resolved
from mpcalc.dpdk.core.errors import InputError
from mpcalc.dpdk.core.facts import RELEASES
from mpcalc.dpdk.core.limits import MAX_TRACE_METADATA_BYTES, MAX_TRACE_STREAM_BYTES
from mpcalc.dpdk.core.platform import Platform, describe
from mpcalc.dpdk.core.records import Result
from mpcalc.dpdk.core.standalone import finish

__all__ = [
    "LOST_TYPE",
    "NEEDED",
    "RECORD_OPTIONS",
    "TEARDOWN",
    "TRACE",
    "Event",
    "Recorded",
    "Replay",
    "Stream",
    "read_events",
    "recorded",
    "replay",
    "size",
    "trace_folder",
]

#: the EAL options that record what a replay needs (every release 21.11 to 26.07 has these tracepoints)
RECORD_OPTIONS = (
    "--trace=lib\\.eal\\.mem.*",
    "--trace=lib\\.eal\\.memzone.*",
    "--trace=lib\\.mempool\\..*",
    "--trace=lib\\.ethdev\\..*",
)


def trace_folder(path: str) -> str | None:
    """The CTF folder of ``path``: itself, or the one folder below it holding a ``metadata`` file (DPDK writes
    ``<file-prefix>-<date>`` under ``--trace-dir``); None for a file (babeltrace2's text)."""
    if not os.path.isdir(path):
        return None
    if ctf.is_ctf_dir(path):
        return path
    inner = sorted(n for n in os.listdir(path) if ctf.is_ctf_dir(os.path.join(path, n)))
    if len(inner) == 1:
        return os.path.join(path, inner[0])
    if not inner:
        raise InputError(f"{path}: no CTF trace here (no metadata file, nor a folder holding one)", param="trace")
    raise InputError(
        f"{path} holds {len(inner)} traces ({', '.join(inner[:3])}{', ...' if len(inner) > 3 else ''}): "
        "each process (a primary, each secondary) writes its own; give one of them",
        param="trace",
    )


def _merged(folder: str, wanted: frozenset[str] | None) -> tuple[Iterator[Event], dict[str, str]]:
    """Every stream's events, merged by timestamp (the streams share DPDK's clock; a stream's own order is kept)."""
    import heapq

    where = os.path.join(folder, "metadata")
    if os.path.getsize(where) > MAX_TRACE_METADATA_BYTES:
        raise InputError(
            f"{where}: over {MAX_TRACE_METADATA_BYTES:,} bytes: not a DPDK trace's metadata", param="trace"
        )
    with open(where, encoding="utf-8", errors="replace") as f:
        meta = ctf.read_metadata(f.read(), where)
    files = ctf.stream_files(folder)
    if not files:
        raise InputError(f"{folder}: the trace has metadata but no stream file", param="trace")
    for path in files:
        if os.path.getsize(path) > MAX_TRACE_STREAM_BYTES:
            raise InputError(f"{path}: over {MAX_TRACE_STREAM_BYTES:,} bytes: not a DPDK trace buffer", param="trace")
    env = dict(meta.env)
    full = _full(files, meta)
    if full:
        env[FULL] = full
    streams = [
        ctf.read_stream(path, meta, i, wanted)
        for i, path in enumerate(files)
        if os.path.getsize(path) > ctf.PACKET_SIZE  # a thread that traced nothing
    ]
    if len(streams) == 1:
        return streams[0], env
    return heapq.merge(*streams, key=_timestamp), env


def _timestamp(e: Event) -> int:
    return e.timestamp


#: the environment key under which the reader passes on a stream that may have filled its buffer
FULL = "mpcalc.full"


def _full(files: list[str], meta: ctf.Metadata) -> str:
    """A stream that ends within one event of a power of two (``--trace-bufsz`` as it is usually given, 1 MiB
    by default): its buffer may have filled up, and in ``--trace-mode=discard`` DPDK drops every later event
    and marks nothing (``__rte_trace_mem_get``, v22.11:lib/eal/include/rte_trace_point.h:312-320).  Only a
    warning: a stream can end there by chance (testpmd-null-anon's wrote 65,512 bytes of a 16 MiB buffer)."""
    largest = 8 + max(ctf.event_size(meta, i) for i in meta.events)
    for path in files:
        used = os.path.getsize(path) - ctf.PACKET_SIZE
        room = 1 << used.bit_length() if used > 0 else 0
        if used > 0 and room - used < largest:
            return (
                f"{os.path.basename(path)} holds {used:,} bytes of events, within one event of {room:,}: if that "
                "was its --trace-bufsz, the buffer filled up and the events after it are missing (discard mode): "
                "record again with a larger --trace-bufsz"
            )
    return ""


def read_events(path: str, wanted: frozenset[str] | None = HANDLED) -> tuple[Iterator[Event], dict[str, str]]:
    """The events of the trace at ``path`` (``-``: babeltrace2's text on standard input), and its environment
    (``dpdk_version``; empty for babeltrace2's text, which does not print it).  A CTF event not named in
    ``wanted`` (by default the ones the replay reads) comes without its fields; None reads every one."""
    if path == "-":
        return babeltrace_text.read_text(sys.stdin, "<stdin>"), {}
    if not os.path.exists(path):
        raise InputError(f"{path}: no such file or folder", param="trace")
    folder = trace_folder(path)
    if folder is not None:
        return _merged(folder, wanted)
    with open(path, "rb") as f:
        head = f.read(4)
    if head == ctf.CTF_MAGIC.to_bytes(4, "little"):
        raise InputError(f"{path} is one stream of a CTF trace: give its folder (with the metadata file)")
    handle = open(path, encoding="utf-8", errors="replace")  # noqa: SIM115 - closed by the generator below

    def lines() -> Iterator[Event]:
        with handle:
            yield from babeltrace_text.read_text(handle, path)

    return lines(), {}


def recorded_release(env: Mapping[str, str]) -> str | None:
    """The release a trace was recorded with, as mpcalc names it (``DPDK 22.11.11`` -> ``22.11``)."""
    words = env.get("dpdk_version", "").split()
    version = words[-1] if words else ""
    branch = ".".join(version.split(".")[:2])
    return branch if branch in RELEASES else None


class Recorded(NamedTuple):
    """A trace replayed on the platform it was recorded on, its pools held against the model."""

    run: Replay
    platform: Platform
    checks: list[PoolCheck]
    #: the memzone names and allocation pointers the modelled pools account for
    zones: set[str]
    allocs: set[int]
    env: dict[str, str]


def recorded(path: str, p: Platform) -> Recorded:
    """Read and replay the trace at ``path`` on the platform it was recorded on (``p``'s, with the trace's own
    release and the architecture under which its pools are the model's), and reconcile its pools."""
    events, env = read_events(path)
    kept = list(events) if path == "-" else []  # standard input is read once: kept for a second replay

    def again() -> Iterator[Event]:
        return iter(kept) if path == "-" else read_events(path)[0]

    if path == "-":
        events = iter(kept)
    run, recorded_p, checks, zones, allocs = _recorded(events, again, env, path, p, recorded_release(env))
    return Recorded(run, recorded_p, checks, zones, allocs, env)


def size(path: str, p: Platform, changes: list[str] | None = None, cache_layout: str = "pointer") -> Result:
    """Replay the trace at ``path``, reconcile its pools, and size its start-up on ``p``."""
    rec = recorded(path, p)
    run, recorded_p, checks, zones, allocs, env = rec
    release = recorded_release(env)
    notes: list[str] = []
    p = _target(p, recorded_p, release)
    recorded_page = max(run.page_sizes) if run.page_sizes else None
    parts, by_socket = target_parts(
        run.startup, checks, zones, allocs, p, pool_flag_changes(changes or []), cache_layout
    )
    if "lib.eal.memzone.reserve" not in run.counts:
        notes.append(
            "no memzone was reserved: a secondary process (it looks the primary's memzones up"
            + (
                f", {run.counts['lib.eal.memzone.lookup']} lookups here"
                if "lib.eal.memzone.lookup" in run.counts
                else ""
            )
            + "; its allocations are on the primary's heap), or the trace lacks --trace='lib\\.eal\\.memzone.*'"
        )
    if FULL in env:
        full = env.pop(FULL)
        if not any(t in run.counts for t in TEARDOWN):
            # and no port was stopped or closed: the run's end is missing, so the buffer did fill up
            raise InputError(
                f"{path}: {full.split(': if that')[0]}, and no port was stopped or closed: the trace "
                "buffer filled up and DPDK dropped the events after it (--trace-mode=discard): record again with "
                "a larger --trace-bufsz",
                param="trace",
            )
        notes.append(full)
    if not env:
        notes.append("babeltrace2's text does not give the DPDK release: the target's (--dpdk) is assumed")
    lost = [a for a in run.startup.lost if not a.recovered]
    if len(lost) < len(run.startup.lost):
        notes.append(
            f"{len(run.startup.lost) - len(lost)} allocation(s) of the start-up lost their size in the trace "
            "(rte_malloc with a NULL type: DPDK's tracepoint returns before writing it); their heap elements were "
            "recovered from the addresses of the elements around them (a group's total is exact, its split is not)"
        )
    if lost:
        notes.append(
            f"{len(lost)} allocation(s) of the start-up lost their size in the trace and could not be recovered: "
            "each is counted as one element of the smallest size, so the heap is a lower bound"
        )
    if run.unseen_frees:
        notes.append(
            f"{len(run.unseen_frees)} free(s) of pointers the trace never allocated (allocated before "
            "tracing began, or lost payloads)"
        )
    others = sorted({s.thread for s in run.streams if s.cpu_id == ctf.LCORE_ID_ANY})
    if others:
        notes.append(
            f"threads that are not EAL lcores ({', '.join(others)}) allocated too: their events are replayed with "
            "the others (the process's heap is one)"
        )
    lcores = sum(1 for st in _streams(path) if st["lcore"] is not None) or len(run.streams)
    notes.append(
        f"tracing itself allocated {lcores} trace buffer(s) in the heap, one per EAL lcore's stream "
        "(--trace-bufsz + 64 B each; other threads' are ordinary memory): not in the trace, and not counted (the "
        "untraced application does not have them)"
    )
    result = finish("trace", 0, p, parts)
    sockets = []
    for s in sorted(by_socket):
        r = finish("trace", 0, p, by_socket[s])
        sockets.append({"socket": s, "heap_bytes": r.heap_bytes, "total_bytes": r.total_bytes})
    startup_heap, end_heap = heap_of(run.startup, recorded_p), heap_of(run.end, recorded_p)
    carried_zones = [z for z in result.zones]
    carried_allocs = [a for a in result.allocations]
    details: dict[str, object] = {
        "trace": {
            "source": path,
            "events": run.events,
            "dpdk_version": env.get("dpdk_version"),
            "streams": _streams(path),
            "tracepoints": dict(sorted(run.counts.items())),
        },
        "recorded": {
            "dpdk": recorded_p.dpdk,
            "arch": recorded_p.arch,
            "cache_line": recorded_p.cache_line,
            "max_lcore": recorded_p.max_lcore,
            "page_size": recorded_page,
            "found": "the release from the trace's metadata (env.dpdk_version); the architecture and "
            "RTE_MAX_LCORE under which every pool's memzones are the model's; the page size of "
            "lib.mempool.get.page.size",
        },
        # what the start-up is sized for: the options given, the rest as recorded (the report's platform is the
        # options' alone)
        "target": describe(p),
        "startup": {
            "rule": run.startup_rule,
            "event": run.startup.seq,
            "memzones": len(run.startup.zones),
            "allocations": len(run.startup.allocs) + len(run.startup.lost),
            "pools": sorted(run.startup.pools),
            "heap_bytes": _sockets(startup_heap),
        },
        "end": {
            "event": run.end.seq,
            "memzones": sorted(run.end.zones),
            "allocations": len(run.end.allocs) + len(run.end.lost),
            "heap_bytes": _sockets(end_heap),
        },
        "peak": [{"socket": s, "heap_bytes": b, "event": at} for s, (b, at) in sorted(run.peak.items())],
        "reconcile": [c.to_dict() for c in checks],
        "unexplained_bytes": sum(c.unexplained_bytes for c in checks),
        "carried": {
            "memzones": len(carried_zones),
            "allocations": len(carried_allocs),
            "bytes": sum(z.len for z in carried_zones) + sum(a.size for a in carried_allocs),
        },
        # every heap element of the start-up as the run made it: what it asked for and what the heap gave it
        "elements": _elements(run, recorded_p),
        "lost_payloads": {
            "startup": len(run.startup.lost),
            "recovered": sum(a.recovered for a in run.startup.lost),
            "end": len(run.end.lost),
        },
        "exact": not lost,
        "ports": [run.ports[k].to_dict() for k in sorted(run.ports)],
        "failed": [{"what": w, "name": n, "size": sz} for w, n, sz in run.failed],
        "sockets": sockets,
        # a secondary process reserves no memzone and sizes no heap: its allocations are on the primary's
        "secondary": "lib.eal.memzone.reserve" not in run.counts and "lib.eal.memzone.lookup" in run.counts,
        "notes": notes,
    }
    return result._replace(details=details)


#: the build facts a target takes from the recorded build unless an option gives one of the first three (the
#: fourth follows the cache line)
_BUILD_FACTS = ("arch", "cache_line", "max_lcore", "mempool_align")


def _defaulted(source: str) -> bool:
    """A platform value nobody gave: ``default``, or an architecture's ``x86_64 default (tag:file:line)``."""
    return source == "default" or " default (" in source


def _target(p: Platform, recorded_p: Platform, release: str | None) -> Platform:
    """The platform to size for: what the options give (``--dpdk``, ``--arch``, ``--max-lcore``, ...,
    ``--page-size``), the rest as recorded: the trace's release, and its build (architecture, cache line,
    RTE_MAX_LCORE) when no option names one of them."""
    sources = dict(p.sources)
    if release and sources.get("dpdk") == "default" and release != p.dpdk:
        p = p._replace(dpdk=release)
    if all(_defaulted(sources.get(k, "default")) for k in _BUILD_FACTS[:3]) and not p.preset:
        p = p._replace(**{k: getattr(recorded_p, k) for k in (*_BUILD_FACTS, "spreads", "preset")})
    return p


#: the RTE_MAX_LCORE values a recorded build is tried with beside its architecture's default: DPDK's own
#: configurations (config/x86/meson.build: 256 for native builds on some AMD CPUs at 26.07, 512 or 1024 on
#: large machines; config/arm/meson.build: per SoC, as low as 16 to 24)
RECORDED_MAX_LCORES = (128, 256, 512, 1024, 64, 48, 32, 24, 16)


def _recorded(
    events: Iterator[Event],
    again: Callable[[], Iterator[Event]],
    env: dict[str, str],
    path: str,
    p: Platform,
    release: str | None,
) -> tuple[Replay, Platform, list[PoolCheck], set[str], set[int]]:
    """The replay, on the platform the run was recorded on: the first, of the target's own build and each
    architecture's default build (4 channels, 1 rank: EAL's default) with each RTE_MAX_LCORE of
    :data:`RECORDED_MAX_LCORES`, under which every modelled pool's memzones are the model's (a trace does not say
    its architecture or build); the target's when none is."""
    from mpcalc.dpdk.core.facts import ARCHES
    from mpcalc.dpdk.core.platform import make_platform

    first = p._replace(dpdk=release) if release else p
    candidates = [first]
    for a in [first.arch, *sorted(set(ARCHES) - {first.arch})]:
        for m in (None, *RECORDED_MAX_LCORES):
            try:
                candidates.append(make_platform(dpdk=first.dpdk, arch=a, page_size=first.page_size, max_lcore=m))
            except InputError:  # a build the release does not have (21.11: no loongarch64)
                continue
    run = replay(events, first, path, env)
    best: tuple[Platform, list[PoolCheck], set[str], set[int]] | None = None
    for candidate in candidates:
        checks, zones, allocs = reconcile(run.startup, candidate)
        if best is None:
            best = (candidate, checks, zones, allocs)
        if all(c.status != "differs" for c in checks):
            best = (candidate, checks, zones, allocs)
            break
    assert best is not None
    if best[0] != first:  # the heap's element costs follow the recorded platform's cache line and malloc_elem
        run = replay(again(), best[0], path, env)
    return (run, *best)


def _elements(run: Replay, p: Platform) -> list[dict[str, object]]:
    """The start-up's memzones and rte_malloc elements in the order they were made: what each asked for (length
    or size, alignment, bound, socket), the pool it belongs to, and its heap element on ``p`` (memzone_len of a
    memzone, a malloc_elem header and the size rounded to the cache line)."""
    from mpcalc.dpdk.core.heap import heap_cost, memzone_len

    live = run.startup
    out: list[tuple[int, dict[str, object]]] = []
    for z in live.zones.values():
        length = memzone_len(z.requested, p)
        out.append(
            (
                z.seq,
                {
                    "event": z.seq,
                    "memzone": z.name,
                    "requested": z.requested,
                    "len": length,
                    "align": z.align,
                    "bound": z.bound,
                    "socket": z.socket,
                    "owner": z.owner or None,
                    "element_bytes": heap_cost(length, p),
                },
            )
        )
    for a in (*live.allocs.values(), *live.lost):
        out.append(
            (
                a.seq,
                {
                    "event": a.seq,
                    "type": a.type,
                    "size": a.size,
                    "align": a.align,
                    "socket": a.socket,
                    "owner": a.owner or None,
                    "size_lost": a.lost,
                    "recovered": a.recovered,
                    "element_bytes": heap_cost(a.size, p),
                },
            )
        )
    return [row for _, row in sorted(out, key=lambda r: r[0])]


def _streams(path: str) -> list[dict[str, object]]:
    """Each thread's stream of a CTF trace: its lcore (None: not an EAL lcore), its name and its bytes of
    events (babeltrace2's text: the threads that have events, as it names them)."""
    folder = trace_folder(path) if path != "-" else None
    if folder is None:
        return []
    out: list[dict[str, object]] = []
    for i, file in enumerate(ctf.stream_files(folder)):
        stream, size = ctf.stream_header(file)
        lcore = None if stream.cpu_id == ctf.LCORE_ID_ANY else stream.cpu_id
        out.append({"stream": i, "lcore": lcore, "thread": stream.thread, "event_bytes": size})
    return out


def _sockets(heap: Mapping[int, int]) -> list[dict[str, int]]:
    return [{"socket": s, "heap_bytes": b} for s, b in sorted(heap.items())]


def _resolve(args: Mapping[str, Any]) -> Resolved:
    given = list(args.get("trace") or ())
    if len(given) != 1:
        raise InputError(
            "give one trace: a CTF folder as DPDK writes it (--trace-dir), the folder holding one, "
            "or babeltrace2's text of it (a file, or - for standard input)",
            param="trace",
        )
    changes = list(args.get("pool_flags") or ())
    pool_flag_changes(changes)
    return Resolved({"trace": given, "pool_flags": changes, "cache_layout": args["cache_layout"]}, {})


def _build(inputs: Mapping[str, Any], extra: Mapping[str, Any], flags: int, p: Platform) -> Result:
    return size(inputs["trace"][0], p, list(inputs["pool_flags"]), inputs["cache_layout"])


TRACE = ObjectDecl(
    name="trace",
    summary="Any DPDK application from its own trace (EAL --trace=..., written at rte_eal_cleanup): every memzone, "
    "rte_malloc element and mempool of the run, its pools held against the model, and its start-up sized for "
    "the target build and machine (--dpdk, --arch, --page-size, ...). Record with: "
    + " ".join(RECORD_OPTIONS)
    + " --trace-dir DIR --trace-bufsz 16M.",
    params=(
        Param(
            "trace",
            "argv",
            "The trace: a CTF folder as DPDK writes it under --trace-dir (or that folder's parent holding one), "
            "or babeltrace2's text of it (a file, or - for standard input).",
            default=None,
            required=True,
            metavar="TRACE",
        ),
        Param(
            "pool_flags",
            "list",
            "Re-target a pool's mempool flags: NAME=FLAGS, NAME a pool name or a shell pattern "
            "(rib*=no_cache_align,no_spread,no_iova_contig); repeatable.",
            default=(),
            metavar="NAME=FLAGS",
        ),
        CACHE_LAYOUT,
    ),
    build=_build,
    resolve=_resolve,
    zone_prefix="trace:",
    own_zones=True,
)
