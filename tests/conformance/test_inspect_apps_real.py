"""``mpcalc inspect DUMP -- COMMAND LINE`` on fresh captures of the real programs (issue 14).

Each case starts the real dpdk-testpmd (Debian's) or dpdk-l3fwd (built from dpdk-doc's examples) under EAL
--no-huge on vdev ports, records what a user would paste (testpmd's ``dump_mempool`` and ``dump_memzone``, and
dpdk-telemetry.py's ``/eal/memzone_list``, ``/eal/memzone_info,<id>``, ``/eal/heap_info,0``, ``/mempool/list``,
``/mempool/info,<name>``: tests/conformance/apps/capture.py), and inspects it with the same command line: every
memzone must be matched by mpcalc app (none extra, none missing, none of another length), the heap's Alloc_size
and Alloc_count must be the model's, every pool explained to the byte, and each pool advised only its
creator's levers.  The telemetry replies alone must do as well as the dumps.
"""

from __future__ import annotations

import os

import pytest

from mpcalc import inspect as ins

from .apps.capture import capture
from .test_apps_real import CASES as APP_CASES
from .test_apps_real import NOHUGE

#: tap interfaces of their own (test_apps_real uses mpct0/mpct1)
TAPS = ["--vdev", "net_tap0,iface=mpci0", "--vdev", "net_tap1,iface=mpci1"]

#: (id, program, EAL options, application options)
CASES = [
    (
        "testpmd-native-two",
        "testpmd",
        ["-l", "0-1", *NOHUGE, "--vdev", "net_null0"],
        ["-i", "--total-num-mbufs=5000", "--mbuf-size=2048,1024"],
    ),
    *(c for c in APP_CASES if c[0] in ("testpmd-anon", "testpmd-xmem")),  # the live suite's option sets
    (
        "testpmd-xbuf",
        "testpmd",
        ["-l", "0-1", *NOHUGE, "--vdev", "net_null0,size=128"],
        ["-i", "--total-num-mbufs=5000", "--mp-alloc=xbuf", "--mbuf-size=2048,1024", "--mbcache=64"],
    ),
    (
        "testpmd-ring-3lcores",
        "testpmd",
        ["--lcores", "(0-2)@0", *NOHUGE, "--vdev", "net_ring0", "--vdev", "net_ring1"],
        ["-i", "--rxq=2", "--txq=2", "--rxd=512", "--txd=512"],
    ),
    ("l3fwd-fib-tap", "l3fwd", ["-l", "0", *NOHUGE, *TAPS], ["-p", "0x3", "--config=(0,0,0),(1,0,0)", "--lookup=fib"]),
    (
        "l3fwd-lpm-tap",
        "l3fwd",
        ["-l", "0", *NOHUGE, *TAPS],
        ["-p", "0x3", "--config=(0,0,0),(1,0,0)", "--lookup=lpm", "-P"],
    ),
]


def _check(doc: dict, ident: str) -> None:
    app = doc["application"]
    odd = [r for r in app["rows"] if r["status"] != "matched"]
    assert not odd and app["rows"], (ident, odd)
    assert app["heap"] is not None and app["heap"]["match"], (ident, app["heap"])
    assert app["explained"]
    for p in doc["pools"]:
        assert p["explained"] and p["unexplained_bytes"] == 0, (ident, p["name"], p["memzones"], p["causes"])
        if p["kind"]["creator"] != "rte_mempool_create":
            assert not any(a["key"].startswith("flag:") for a in p["advice"]), (ident, p["name"])
    assert doc["totals"]["unexplained_bytes"] == 0


#: telemetry only: waiting for testpmd's prompt after each dump hung in 2 of 6 clean-clone runs of this case
#: (never in the others; three lcores on one CPU, net_ring's link events printed from another thread are the
#: likely cause, not proven); its dumps add nothing the telemetry does not say, and the other testpmd cases
#: read theirs
TELEMETRY_ONLY = {"testpmd-ring-3lcores"}


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_a_real_application_dump_is_explained_by_mpcalc_app(case):
    ident, kind, eal, app = case
    dumps = kind == "testpmd" and ident not in TELEMETRY_ONLY
    text = capture(kind, eal, app, f"mpcalc_insp_{os.getpid()}_{ident[:10]}", dumps=dumps)
    argv = [f"dpdk-{kind}", *eal, "--", *app]
    doc = ins.inspect_text(text, ident, command_line=argv).to_dict()
    _check(doc, ident)
    formats = doc["input"]["formats"]
    assert formats == (["mempool_dump", "memzone_dump", "telemetry"] if dumps else ["telemetry"])
    if dumps:  # the telemetry replies alone, without testpmd's dumps
        replies = "".join(line + "\n" for line in text.splitlines() if line.startswith('{"/'))
        alone = ins.inspect_text(replies, ident, command_line=argv).to_dict()
        _check(alone, ident + " (telemetry only)")
    names = {p["name"]: p for p in doc["pools"]}
    if ident == "testpmd-anon":
        assert [m["role"] for m in names["mb_pool_0"]["memzones"]] == ["header", "ring", "anonymous"]
    if ident == "testpmd-xbuf":
        assert names["mb_pool_0"]["memzones"][-1]["role"] == "pinned data"
    if ident == "l3fwd-fib-tap":
        groups = {g["name"]: g for g in doc["application"]["groups"]}
        fib = groups["FIB IPV4_L3FWD_FIB_0"]
        # the tables under DPDK's own type strings (mpcalc/dpdk/apps/names.py): "%p" of the rte_fib, "TBL8_%p"
        assert len(fib["memzones"]) == 3 and {a["name"] for a in fib["allocations"]} >= {
            "%p of rte_fib IPV4_L3FWD_FIB_0, 7 chars",
            "TBL8_%p of IPV4_L3FWD_FIB_0's table",
        }
        assert names["MP_IPV4_L3FWD_FIB_0"]["kind"]["levers"] == ["max_routes", "number_tbl8s"]
