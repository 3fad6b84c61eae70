"""``mpcalc trace``: DPDK's CTF traces of real runs, replayed and held against the same run's own view.

The traces and views are recorded (tests/conformance/traces/README.md gives each run's commands): every
application there was traced with Debian's DPDK 22.11.11 and, while it ran, asked for its memzones and its heap
(testpmd's ``dump memzone``, telemetry ``/eal/memzone_info`` and ``/eal/heap_info``).  These tests read the
recordings only, so they need no DPDK.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from mpcalc.dpdk.apps.trace import _streams, ctf, read_events, recorded_release, replay
from mpcalc.dpdk.apps.trace.sizing import heap_of
from mpcalc.dpdk.core.errors import InputError
from mpcalc.dpdk.core.heap import heap_cost, memzone_len
from mpcalc.dpdk.core.platform import make_platform
from mpcalc.dpdk.core.units import parse_size
from mpcalc.inspect import parse

_C_READER = ctf.ACCEL is not None

TRACES = Path(__file__).parent / "conformance" / "traces"
#: the recorded runs whose view was taken while they ran
VIEWED = sorted(p.name for p in TRACES.iterdir() if (p / "view.txt").is_file() and (p / "ctf").is_dir())
#: runs whose buffer was too small on purpose (tests/conformance/traces/README.md)
LOST = {"lost", "lost-overwrite"}
P = make_platform(dpdk="22.11")


def _bufsz(case: str) -> int:
    """The --trace-bufsz the run was recorded with (COMMAND), else DPDK's default, 1 MiB."""
    command = TRACES / case / "COMMAND"
    found = re.search(r"--trace-bufsz[= ](\S+?)['\"]?(?:\s|$)", command.read_text()) if command.is_file() else None
    return parse_size(found.group(1)) if found else 1 << 20


def _same(fields: dict[str, Any]) -> dict[str, Any]:
    """An event's fields as both readers must give them.  Where DPDK lost a payload (``size`` 0: a NULL type,
    whose bytes DPDK never wrote, so they read 0) babeltrace2 prints the type string of an earlier event: an
    empty text array does not clear its buffer.  That text is babeltrace2's, not the trace's: left out."""
    out = {k: list(v) if isinstance(v, tuple) else v for k, v in fields.items()}
    if out.get("size") == 0 and "type" in out:
        del out["type"]
    return out


@pytest.mark.parametrize("case", sorted(p.name for p in TRACES.iterdir() if (p / "events.txt").is_file()))
def test_the_ctf_reader_reads_what_babeltrace2_prints(case: str) -> None:
    """mpcalc's own CTF reader gives every event babeltrace2 printed, in its order, with the same fields."""
    ours, _ = read_events(str(TRACES / case / "ctf"), wanted=None)
    theirs, _ = read_events(str(TRACES / case / "events.txt"))
    a = [(e.name, _same(e.fields)) for e in ours]
    b = [(e.name, _same(e.fields)) for e in theirs]
    assert len(a) == len(b) > 0
    assert a == b


@pytest.mark.parametrize("case", sorted(p.name for p in TRACES.iterdir() if (p / "ctf").is_dir()))
@pytest.mark.parametrize("chunk", [64, 1 << 20])
def test_the_fast_reading_replays_as_the_full_one(case: str, chunk: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Reading only the fields the replay uses, a chunk at a time (of 64 bytes: every event across a chunk's
    end), gives the events of the plain reading, and the same replay."""
    from mpcalc.dpdk.apps.trace import ctf

    full = list(read_events(str(TRACES / case / "ctf"), wanted=None)[0])
    monkeypatch.setattr(ctf, "CHUNK", chunk)
    fast = list(read_events(str(TRACES / case / "ctf"))[0])
    assert [(e.name, e.stream, e.timestamp) for e in fast] == [(e.name, e.stream, e.timestamp) for e in full]
    assert all(f.fields == e.fields for f, e in zip(fast, full, strict=True) if f.fields)
    if case not in LOST:
        assert replay(iter(fast), P, case) == replay(iter(full), P, case)


@pytest.mark.parametrize("case", [c for c in VIEWED if c not in LOST])
def test_the_replay_is_the_runs_own_view(case: str) -> None:
    """Every memzone of the running application, by name and length, and its heap's Alloc_size to the byte, less
    the trace buffers tracing itself allocated (--trace-bufsz + 64 B each, not in the trace)."""
    view = parse((TRACES / case / "view.txt").read_text(), case)
    events, env = read_events(str(TRACES / case / "ctf"))
    p = P._replace(dpdk=recorded_release(env) or "22.11")
    run = replay(events, p, case, env)
    live = run.startup
    assert {n: memzone_len(z.requested, p) for n, z in live.zones.items()} == {n: z.len for n, z in view.zones.items()}
    if 0 not in view.heaps:
        return
    heap = view.heaps[0]
    ours = heap_of(live, p).get(0, 0)
    count = sum(1 for z in live.zones.values() if z.socket < 256) + len(live.allocs) + len(live.lost)
    buffers = heap["Alloc_count"] - count
    # one trace buffer in the heap per EAL lcore's stream (the control threads' are ordinary memory)
    lcores = [s for s in _streams(str(TRACES / case / "ctf")) if s["lcore"] is not None]
    assert buffers == len(lcores)
    # a lost payload not recovered from addresses counts as the smallest element: here that is what it was
    assert heap["Alloc_size"] - ours == buffers * heap_cost(_bufsz(case) + 64, p)
    if case.startswith("l3fwd"):  # its lost payloads all lie between elements of known addresses
        assert live.lost and all(a.recovered for a in live.lost)


def test_a_no_huge_trace_retargeted_to_2m_pages_is_the_real_2m_run(run_json: Any) -> None:
    """testpmd traced under --no-huge, sized for 2 MiB pages, has the memzones of the same command run on real 2 MiB
    hugepages (testpmd-null-default-2m's own view)."""
    code, doc = run_json("trace", str(TRACES / "testpmd-null-default" / "ctf"), "--page-size", "2M")
    assert code == 0
    result = doc["results"][0]
    zones = {z["name"]: z["len"] for mp in result["mempools"] for z in mp["memzones"]}
    zones.update({z["name"]: z["len"] for z in result["memzones"]})
    real = parse((TRACES / "testpmd-null-default-2m" / "view.txt").read_text(), "2m")
    assert zones == {n: z.len for n, z in real.zones.items()}
    assert result["details"]["recorded"]["page_size"] == 4096
    assert result["details"]["unexplained_bytes"] == 0


def test_the_json_answer(run_json: Any) -> None:
    code, doc = run_json("trace", str(TRACES / "testpmd-null-2port-mq"))  # the folder holding the CTF folder
    assert code == 0
    d = doc["results"][0]["details"]
    assert d["recorded"]["dpdk"] == "22.11" and d["recorded"]["arch"] == "x86_64"
    assert [c["status"] for c in d["reconcile"]] == ["matched"]
    # net_null's 16 queue structures are rte_zmalloc_socket(NULL, ...): sizes lost; the first port's 8 lie between
    # elements of known addresses, the second's do not (test_the_replay_is_the_runs_own_view holds the heap exact)
    assert d["lost_payloads"] == {"startup": 16, "recovered": 8, "end": 16} and d["exact"] is False
    _, em = run_json("trace", str(TRACES / "l3fwd-em" / "ctf"))
    assert em["results"][0]["details"]["exact"] is True
    assert d["advice"]["settings"]["eal_args"].startswith("--socket-mem ")
    assert len(d["ports"]) == 2 and {p["rx_queues"] for p in d["ports"]} == {4}


def test_babeltrace2_text_on_stdin_gives_the_same_answer(run: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    direct = run("trace", str(TRACES / "l3fwd-lpm" / "ctf"), "--json")
    monkeypatch.setattr("sys.stdin", io.StringIO((TRACES / "l3fwd-lpm" / "events.txt").read_text()))
    piped = run("trace", "-", "--json")
    a, b = json.loads(direct.out), json.loads(piped.out)
    for doc in (a, b):
        doc["input"].pop("trace")
        doc["results"][0]["details"].pop("trace")
        doc["results"][0]["details"].pop("notes")
    assert a == b


def test_the_rib_patch_on_a_traced_l3fwd(run_json: Any) -> None:
    """l3fwd's FIB node pools re-targeted with the RIB patch's flags: each node costs 64 B, not 192."""
    path = str(TRACES / "l3fwd-fib" / "ctf")
    _, before = run_json("trace", path)
    _, after = run_json("trace", path, "--pool-flags", "MP_IPV4_*=no_cache_align,no_spread,no_iova_contig")

    def pools(doc: dict[str, Any]) -> dict[str, Any]:
        return {mp["name"]: mp for mp in doc["results"][0]["mempools"]}

    b, a = pools(before)["MP_IPV4_L3FWD_FIB_0"], pools(after)["MP_IPV4_L3FWD_FIB_0"]
    assert (b["total_size"], a["total_size"]) == (192, 64)
    assert pools(after)["MP_IPV6_L3FWD_FIB_0"]["total_size"] == pools(before)["MP_IPV6_L3FWD_FIB_0"]["total_size"]
    assert after["results"][0]["heap_bytes"] < before["results"][0]["heap_bytes"]


def test_an_external_heap_is_not_hugepages(run_json: Any) -> None:
    """testpmd --mp-alloc=xmem: its pool's memzones are on an external heap (socket 256), memory testpmd mapped
    itself; the advice is for socket 0's EAL pages alone."""
    _, doc = run_json("trace", str(TRACES / "testpmd-null-xmem" / "ctf"))
    d = doc["results"][0]["details"]
    assert [s["socket"] for s in d["sockets"]] == [0]
    assert d["advice"]["settings"]["eal_args"] == "--socket-mem 12"


def test_a_plan_item(tmp_path: Path, run: Any) -> None:
    plan = tmp_path / "plan.toml"
    plan.write_text(f'[[trace]]\nname = "l3fwd"\ntrace = [{json.dumps(str(TRACES / "l3fwd-em" / "ctf"))}]\n')
    code, out, err = run("plan", str(plan), "--json")
    assert code == 0, err
    item = json.loads(out)["items"][0]
    assert item["kind"] == "trace" and item["result"]["heap_bytes"] > 0


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda d: d / "nothing", "no such file or folder"),
        (lambda d: d, "no CTF trace here"),
        (lambda d: _copy(d, "a") and _copy(d, "b") and d, "holds 2 traces"),
        (lambda d: _cut(_copy(d, "t"), 100), "truncated"),
        (lambda d: _garble(_copy(d, "t")), "not in the metadata"),
        (lambda d: _text(d, "not an event\n"), "not babeltrace2's text of an event"),
        (lambda d: _text(d, "[1] (+?) " + "x" * (1 << 20)), "over 65,536 characters"),  # read to the bound only
        (
            lambda d: _text(d, '[1] (+?) lib.ethdev.start: { cpu_id = 0x0, name = "x" }, { port_id = 0x0 }\n'),
            "has no lib.eal.mem.malloc event",
        ),
        (lambda d: _text(d, '[1] (+?) lib.eal.mem.malloc: { cpu_id = 0x0, name = "x" }, { type = \n'), "unexpected"),
    ],
)
def test_bad_traces_get_one_line_and_exit_2(tmp_path: Path, run: Any, make: Any, message: str) -> None:
    code, _, err = run("trace", str(make(tmp_path)))
    assert code == 2
    assert message in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def _copy(d: Path, name: str) -> Path:
    shutil.copytree(TRACES / "l3fwd-fib" / "ctf", d / name)
    return d / name


def _cut(trace: Path, keep: int) -> Path:
    stream = max(trace.glob("channel*"), key=lambda f: f.stat().st_size)
    stream.write_bytes(stream.read_bytes()[: 56 + keep])
    return trace


def _garble(trace: Path) -> Path:
    stream = max(trace.glob("channel*"), key=lambda f: f.stat().st_size)
    data = bytearray(stream.read_bytes())
    data[56 + 6 : 56 + 8] = b"\xff\xff"  # the first event's id
    stream.write_bytes(bytes(data))
    return trace


def _text(d: Path, body: str) -> Path:
    (d / "events.txt").write_text(body)
    return d / "events.txt"


def test_a_trace_whose_start_was_overwritten_is_refused(run: Any) -> None:
    """--trace-mode=overwrite (DPDK's default) with a 4 KiB buffer: only the events since the last wrap remain."""
    for path in ("ctf", "events.txt"):
        code, _, err = run("trace", str(TRACES / "lost-overwrite" / path))
        assert code == 2 and "never reserved in the trace" in err and "--trace-bufsz" in err


def test_a_trace_whose_buffer_filled_up_is_refused(run: Any, run_json: Any) -> None:
    """--trace-mode=discard with a 4 KiB buffer: DPDK marks nothing; the stream ends within one event of 4,096 and
    the run's end (its ports stopped) is missing: refused. A stream that ends there by chance in a whole run (16 MiB
    buffer, 65,512 bytes: testpmd-null-anon) is only flagged."""
    code, _, err = run("trace", str(TRACES / "lost" / "ctf"))
    assert code == 2 and "within one event of 4,096" in err and "--trace-bufsz" in err
    code, doc = run_json("trace", str(TRACES / "testpmd-null-anon" / "ctf"))
    assert code == 0
    assert any("within one event of 65,536" in n for n in doc["results"][0]["details"]["notes"])
    _, fine = run_json("trace", str(TRACES / "l3fwd-fib" / "ctf"))
    assert not any("within one event" in n for n in fine["results"][0]["details"]["notes"])


def test_every_heap_element_of_the_start_up(run: Any, run_json: Any) -> None:
    """details.elements: each memzone and rte_malloc element of the start-up, with what it asked for and its heap
    element; their heap elements are the start-up's heap (recorded), and the table says how many there are."""
    _, doc = run_json("trace", str(TRACES / "l3fwd-em" / "ctf"))
    d = doc["results"][0]["details"]
    elements = d["elements"]
    assert sum(e["element_bytes"] for e in elements) == d["startup"]["heap_bytes"][0]["heap_bytes"]
    assert [e["event"] for e in elements] == sorted(e["event"] for e in elements)
    pool = [e for e in elements if e.get("owner") == "MP_IPV4_L3FWD_EM_0" or e.get("memzone", "").startswith("MP_")]
    assert pool and all("element_bytes" in e for e in pool)
    assert f"{len(elements):,} heap elements" in run("trace", str(TRACES / "l3fwd-em" / "ctf")).out


def test_several_processes_are_refused_naming_each(run: Any) -> None:
    """A primary and a secondary traced into one --trace-dir: a folder each (tests/conformance/traces/multi-process)."""
    code, _, err = run("trace", str(TRACES / "multi-process" / "trace-dir"))
    assert code == 2 and "holds 2 traces" in err and "each process" in err
    docs = [
        json.loads(run("trace", str(one), "--json").out)
        for one in sorted((TRACES / "multi-process" / "trace-dir").iterdir())
    ]
    secondary = [d for d in docs if "a secondary process" in " ".join(d["results"][0]["details"]["notes"])]
    assert len(secondary) == 1
    d = secondary[0]["results"][0]["details"]
    assert d["secondary"] is True and d["trace"]["streams"][2]["thread"] == "dpdk-proc-info"
    assert "settings" not in d["advice"] and "secondary process" in d["advice"]["note"]  # no --socket-mem 0


def test_the_metadata_reader_refuses_what_is_not_ctf() -> None:
    from mpcalc.dpdk.apps.trace.ctf import read_metadata

    with pytest.raises(InputError, match="not CTF metadata"):
        read_metadata("hello", "m")


@pytest.mark.parametrize("case", ["testpmd-null-default", "testpmd-null-2port-mq", "l3fwd-fib", "l3fwd-em", "maker"])
def test_inspect_takes_a_trace(run_json: Any, case: str) -> None:
    """``mpcalc inspect TRACE``: each pool alive at the end of start-up recovered from its recorded creation and
    explained, its memzones measured in the trace (the page size its pools asked for)."""
    code, doc = run_json("inspect", str(TRACES / case / "ctf"))
    assert code == 0
    assert doc["formats"] == ["dpdk_trace"] if "formats" in doc else True
    pools = doc["pools"]
    assert pools and all(p["explained"] and p["unexplained_bytes"] == 0 for p in pools), [
        (p["name"], p["unexplained_bytes"]) for p in pools if not p["explained"]
    ]
    assert {p["platform"]["page_size"] for p in pools} == {4096}


def test_inspect_reads_babeltrace2_text_as_the_ctf(run: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    ctf = json.loads(run("inspect", str(TRACES / "l3fwd-em" / "ctf"), "--json").out)
    monkeypatch.setattr("sys.stdin", io.StringIO((TRACES / "l3fwd-em" / "events.txt").read_text()))
    text = json.loads(run("inspect", "-", "--json").out)
    for doc in (ctf, text):
        doc.pop("source", None)
    assert [p["memzones"] for p in ctf["pools"]] == [p["memzones"] for p in text["pools"]]


def test_a_build_of_another_release_and_rte_max_lcore(run_json: Any) -> None:
    """DPDK v26.07 built native on this machine's CPU: RTE_MAX_LCORE 256 (config/x86/meson.build). The trace's
    release and build are found, kept for the target unless an option re-targets them."""
    path = str(TRACES / "v26.07-testpmd-null-default" / "ctf")
    _, doc = run_json("trace", path)
    d = doc["results"][0]["details"]
    assert (d["recorded"]["dpdk"], d["recorded"]["max_lcore"], d["unexplained_bytes"]) == ("26.07", 256, 0)
    assert (d["target"]["dpdk"], d["target"]["max_lcore"]) == ("26.07", 256)
    header = {z["name"]: z["len"] for z in doc["results"][0]["mempools"][0]["memzones"]}["MP_mb_pool_0"]
    _, smaller = run_json("trace", path, "--max-lcore", "128")
    assert smaller["results"][0]["details"]["target"]["max_lcore"] == 128
    assert {z["name"]: z["len"] for z in smaller["results"][0]["mempools"][0]["memzones"]}["MP_mb_pool_0"] == (
        header - 128 * 8256  # 128 fewer per-lcore caches of 8,256 B (sizeof(struct rte_mempool_cache))
    )
    # from 24.11 a memzone's rte_free comes after its memzone.free: not a free of an unknown pointer
    assert not any("never allocated" in n for n in d["notes"])


def _read_all(path: Path, accel: Any, monkeypatch: pytest.MonkeyPatch, wanted: Any = None) -> list[Any]:
    from mpcalc.dpdk.apps.trace import ctf

    monkeypatch.setattr(ctf, "ACCEL", accel)
    return [(e.name, repr(e.fields), e.stream, e.timestamp) for e in read_events(str(path), wanted=wanted)[0]]


@pytest.mark.skipif(not _C_READER, reason="the C reader is not built")
@pytest.mark.parametrize("case", sorted(p.name for p in TRACES.iterdir() if (p / "ctf").is_dir()))
def test_the_c_reader_reads_as_the_python_one(case: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from mpcalc.dpdk.apps.trace import ctf

    accel = ctf.ACCEL
    for wanted in (None, frozenset({"lib.eal.mem.malloc", "lib.eal.memzone.reserve"})):
        fast = _read_all(TRACES / case / "ctf", accel, monkeypatch, wanted)
        plain = _read_all(TRACES / case / "ctf", None, monkeypatch, wanted)
        assert fast == plain


@pytest.mark.skipif(not _C_READER, reason="the C reader is not built")
def test_the_c_reader_reads_any_stream_as_the_python_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Streams of random events (every id of a real metadata, random field bytes: texts without their NUL, NaNs,
    negative numbers), cut at random: the C and the Python reader give the same events, or the same error."""
    from hypothesis import given
    from hypothesis import strategies as st

    from mpcalc.dpdk.apps.trace import ctf

    source = TRACES / "v26.07-testpmd-null-default" / "ctf"
    meta = ctf.read_metadata((source / "metadata").read_text())
    ids = sorted(meta.events)
    accel = ctf.ACCEL

    @given(st.lists(st.tuples(st.sampled_from(ids), st.binary(min_size=0, max_size=64)), max_size=40), st.data())
    def check(events: list[tuple[int, bytes]], data: Any) -> None:
        body = bytearray()
        for ident, noise in events:
            size = ctf.event_size(meta, ident)
            payload = (noise * (size // max(len(noise), 1) + 1))[:size] if noise else bytes(size)
            body += ((ident << 48) | len(body)).to_bytes(8, "little") + payload
            body += bytes(-len(body) & 7)
        cut = data.draw(st.integers(min_value=0, max_value=len(body)))
        folder = tmp_path / "t"
        folder.mkdir(exist_ok=True)
        (folder / "metadata").write_text((source / "metadata").read_text())
        (folder / "channel0_0").write_bytes((source / "channel0_0").read_bytes()[:56] + bytes(body[:cut]))
        outcomes = []
        for reader in (accel, None):
            try:
                outcomes.append(_read_all(folder, reader, monkeypatch))
            except InputError as exc:
                outcomes.append(str(exc))
        assert outcomes[0] == outcomes[1]

    check()


@pytest.mark.parametrize("release", ["21.11", "23.11", "24.11", "25.11", "26.07"])
def test_the_traces_of_every_release_built_from_its_tag(run_json: Any, release: str) -> None:
    """testpmd of each release built from its tag: its release found, every pool the model's (21.11 has no
    loongarch64 build: a candidate platform it lacks is passed over)."""
    for case in ("testpmd-null-default", "testpmd-null-2port-mq"):
        code, doc = run_json("trace", str(TRACES / f"v{release}-{case}" / "ctf"))
        d = doc["results"][0]["details"]
        assert code == 0 and d["recorded"]["dpdk"] == release and d["unexplained_bytes"] == 0
        assert [c["status"] for c in d["reconcile"]] == ["matched"]
