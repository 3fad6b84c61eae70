"""The optional C part of the route planner (mpcalc/dpdk/objects/routes/_accel.c, built by setup.py) against its Python
twins: the replays (fast4, fast6) and the bulk reader of plain lines (table._bulk).

The extension is optional by design (a machine without a compiler installs the pure-Python package), so these
tests need it built (``python setup.py build_ext --inplace``, or ``pip install .``); the Python replays are held
to the line-by-line reference in tests/test_routes_fast.py either way.
"""

from __future__ import annotations

import ipaddress
import os
import random
import subprocess
import sys

import pytest

from mpcalc.dpdk.objects.routes import accel, fast4, fast6, planner
from mpcalc.dpdk.objects.routes import route_table as T
from tests.conformance.test_tbl8_capacity import _v4_table, _v6_table
from tests.test_routes_fast import _routes, dense4, dense6, tiles4

pytestmark = pytest.mark.skipif(accel.ACCEL is None, reason="the C extension is not built (setup.py build_ext)")


def _python(nets, depths, ids, family):
    try:
        return (fast4.Replay4() if family == 4 else fast6.Replay6()).run(nets, depths, ids)
    except fast4.Clobbered as exc:
        return exc.index


def _c(nets, depths, ids, family):
    try:
        return accel.replay(nets, depths, ids, family)
    except fast4.Clobbered as exc:
        return exc.index


def _figures(trace):
    if isinstance(trace, int):
        return trace
    return (
        bytes(trace.codes),
        list(trace.tbl8_need()),
        list(trace.rsvd_need()),
        trace.in_use,
        trace.rsvd,
        trace.distinct,
    )


@pytest.mark.parametrize(
    "family, make, count",
    [
        (4, lambda s: _v4_table(3000 + s, s % 2 == 0), 25),
        (4, dense4, 80),
        (4, tiles4, 60),
        (6, lambda s: _v6_table(4000 + s, s % 2 == 0), 25),
        (6, dense6, 120),
    ],
)
def test_c_replays_are_the_python_replays(family, make, count):
    for seed in range(count):
        rows = make(seed)
        if seed % 4 == 3:
            rows = sorted(rows, key=lambda r: (int(ipaddress.ip_address(r[0])), r[1]))
        nets, depths, ids = planner._columns(_routes(rows, family), family, 0)
        want = _figures(_python(nets, depths, ids, family))
        assert _figures(_c(nets, depths, ids, family)) == want, seed
        if family == 6 and seed % 5 == 0:  # ids beyond 16 bits: the C trie's 4-byte groups
            wide = [v if v == 1 else v + 70000 for v in ids]
            assert _figures(_c(nets, depths, wide, family)) == want, seed


@pytest.mark.parametrize("family", [4, 6])
def test_c_reader_is_the_bulk_reader(family):
    rng = random.Random(family)
    for case in range(300):
        rows = []
        for _ in range(rng.randint(1, 20)):
            if family == 4:
                octets = ["0", "1", "10", "255", "256", "01", str(rng.randrange(256))]
                a = ".".join(rng.choice(octets) for _ in range(4))
            else:
                a = str(ipaddress.IPv6Address(rng.getrandbits(128)))
                a = rng.choice([a, a.upper(), a + ":", "::ffff:1.2.3.4", "1::2::3"])
            d = rng.choice(["0", "8", "24", "32", "33", "128", "129", "024", "", "x"])
            nh = rng.choice(["", " 0", " 7", " 18446744073709551615", " 18446744073709551616", " 07", " +1"])
            rows.append(f"{a}/{d}{nh if case % 3 else ' 5'}")
        text = "\n".join(rows) + rng.choice(["", "\n"])
        got = accel.parse(text.encode(), family)
        want = T._bulk(text, family)
        if got is None:
            continue  # the C reader may leave a chunk to Python; what it reads, it must read alike
        assert want is not None, text
        assert (list(got[0]), bytes(got[1]), None if got[2] is None else list(got[2])) == (
            list(want[0]),
            bytes(want[1]),
            None if want[2] is None else list(want[2]),
        ), text


def test_c_reader_takes_the_canonical_chunk():
    text = "".join(f"10.{i >> 8}.{i & 255}.7/24 {i}\n" for i in range(1000))
    nets, depths, nhs = accel.parse(text.encode(), 4)
    assert len(depths) == 1000 and nets[3] == int(ipaddress.IPv4Address("10.0.3.0")) and nhs[999] == 999


def test_pure_switch():
    code = "from mpcalc.dpdk.objects.routes import accel; print(accel.ACCEL is None)"
    env = {**os.environ, "MPCALC_PURE": "1"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True).stdout
    assert out.strip() == "True"
