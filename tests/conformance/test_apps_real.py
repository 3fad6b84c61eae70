"""``mpcalc app`` against the real programs (issue 14): every memzone by name and length, and the heap.

The real dpdk-testpmd (Debian's dpdk-dev) and dpdk-l3fwd (built from dpdk-doc's examples of the installed
release, tests/conformance/apps/runner.py) run under EAL --no-huge on vdev ports (net_null, net_ring,
net_tap); telemetry gives every memzone (name, length, socket) and socket 0's heap.  mpcalc, given the same
command line, must name every memzone with its exact length, put each on the right heap (testpmd's
--mp-alloc=xmem pool on the external heap), and account for the heap to the byte and the element.
"""

from __future__ import annotations

import os

import pytest

from mpcalc.dpdk import apps
from mpcalc.dpdk.platform import Platform

from .apps.runner import run_app

NOHUGE = ["--no-huge", "-m", "1024", "--no-pci"]
TAPS = ["--vdev", "net_tap0,iface=mpct0", "--vdev", "net_tap1,iface=mpct1"]

#: (id, program, EAL options, application options)
CASES = [
    ("testpmd-null", "testpmd", ["-l", "0-1", *NOHUGE, "--vdev", "net_null0"], ["-i", "--total-num-mbufs=8192"]),
    ("testpmd-ring-3lcores-default-mbufs", "testpmd",
     ["--lcores", "(0-2)@0", *NOHUGE, "--vdev", "net_ring0", "--vdev", "net_ring1"],
     ["-i", "--rxq=2", "--txq=2", "--rxd=512", "--txd=512"]),
    ("testpmd-tap", "testpmd", ["-l", "0-1", *NOHUGE, "--vdev", "net_tap0,iface=mpct0"],
     ["-i", "--total-num-mbufs=4096"]),
    ("testpmd-tap2-queues", "testpmd", ["-l", "0-1", *NOHUGE, *TAPS],
     ["-i", "--total-num-mbufs=4096", "--rxq=2", "--txq=2", "--rxd=256", "--no-lsc-interrupt"]),
    ("testpmd-xbuf-two-sizes", "testpmd", ["-l", "0-1", *NOHUGE, "--vdev", "net_null0,size=128"],
     ["-i", "--total-num-mbufs=5000", "--mp-alloc=xbuf", "--mbuf-size=2048,1024", "--mbcache=64"]),
    ("testpmd-anon", "testpmd", ["-l", "0-1", *NOHUGE, "--vdev", "net_null0"],
     ["-i", "--total-num-mbufs=5000", "--mp-alloc=anon"]),
    ("testpmd-xmem", "testpmd", ["-l", "0-1", *NOHUGE, "--vdev", "net_null0"],
     ["-i", "--total-num-mbufs=5000", "--mp-alloc=xmem"]),
    ("l3fwd-fib-tap", "l3fwd", ["-l", "0", *NOHUGE, *TAPS],
     ["-p", "0x3", "--config=(0,0,0),(1,0,0)", "--lookup=fib"]),
    ("l3fwd-lpm-tap", "l3fwd", ["-l", "0", *NOHUGE, *TAPS],
     ["-p", "0x3", "--config=(0,0,0),(1,0,0)", "--lookup=lpm", "-P"]),
    ("l3fwd-em-per-port-pool", "l3fwd", ["--lcores", "(0-1)@0", *NOHUGE, *TAPS],
     ["-p", "0x3", "--config=(0,0,0),(0,1,1),(1,0,0),(1,1,1)", "--lookup=em", "--per-port-pool",
      "--rx-queue-size", "512"]),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_every_memzone_and_the_heap(case):
    ident, kind, eal, app = case
    real = run_app(kind, eal, app, f"mpcalc_app_{os.getpid()}_{ident[:12]}")
    model = apps.size([f"dpdk-{kind}", *eal, "--", *app], Platform())
    assert model.ok, model.errors
    mine = {z.name: z for z in model.memzones}
    # every memzone of the real run, by name and length, and none more
    assert {n: ln for n, (ln, _) in real.zones.items()} == {n: z.len for n, z in mine.items()}, ident
    # each on its heap: socket 0, or testpmd's external heap (socket 256 and up) for --mp-alloc=xmem
    for name, (_, socket) in real.zones.items():
        assert (socket >= 256) == ("extmem heap" in mine[name].role), (ident, name, socket)
    # socket 0's heap: every byte and every element
    ext = sum(1 for z in mine.values() if "extmem heap" in z.role)
    d = model.details
    assert int(real.heap["Alloc_size"]) == d["sockets"][0]["heap_bytes"], ident
    assert int(real.heap["Alloc_count"]) == d["allocation_count"] + d["memzone_count"] - ext, ident


def test_refusals_are_the_programs_own():
    """What mpcalc refuses, the program refuses too: l3fwd on a net_null port (no RX checksum offload)."""
    from .apps.runner import AppError

    with pytest.raises(AppError, match="requested Rx offloads"):
        run_app("l3fwd", ["-l", "0", *NOHUGE, "--vdev", "net_null0"], ["-p", "0x1", "--config=(0,0,0)"],
                f"mpcalc_app_{os.getpid()}_refuse")
    from mpcalc.dpdk.errors import InputError

    with pytest.raises(InputError, match="RX checksum offload"):
        apps.size(["dpdk-l3fwd", "-l", "0", *NOHUGE, "--vdev", "net_null0", "--", "-p", "0x1", "--config=(0,0,0)"],
                  Platform())
