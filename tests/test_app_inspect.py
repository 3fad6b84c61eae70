"""inspect on a real testpmd capture (issue 14): two pools whose names extend each other, xbuf's pinned data
zones, and the whole memzone dump explained by mpcalc app of the same command line.

tests/conformance/apps/testpmd-xbuf-two-sizes.txt is testpmd's ``dump_mempool`` and ``dump_memzone`` (segment
lines dropped) of Debian's 22.11.11 dpdk-testpmd run as COMMAND below, recorded with
``(sleep 3; echo dump_mempool; sleep 2; echo dump_memzone; sleep 2; echo quit) | stdbuf -o0 dpdk-testpmd ...``.
"""

from __future__ import annotations

from pathlib import Path

from mpcalc import inspect as ins
from mpcalc.dpdk.platform import Platform
from mpcalc.inspect.apps import explain, is_chunk_of, pinned_zones
from mpcalc.inspect.model import object_zones

CAPTURE = Path(__file__).resolve().parent / "conformance" / "apps" / "testpmd-xbuf-two-sizes.txt"
COMMAND = ["dpdk-testpmd", "-l", "0-1", "--no-huge", "-m", "1024", "--no-pci", "--vdev", "net_null0", "--", "-i",
           "--total-num-mbufs=5000", "--mp-alloc=xbuf", "--mbuf-size=2048,1024"]


def test_a_pool_whose_name_extends_another_is_not_its_chunk():
    parsed = ins.parse(CAPTURE.read_text(), CAPTURE.name)
    assert list(parsed.pools) == ["mb_pool_0", "mb_pool_0_1"]
    assert object_zones(parsed, "mb_pool_0") == ["MP_mb_pool_0_0"]
    assert object_zones(parsed, "mb_pool_0_1") == ["MP_mb_pool_0_1_0"]
    assert not is_chunk_of("MP_mb_pool_0_1", "mb_pool_0", parsed.zones)
    assert pinned_zones("mb_pool_0", parsed.zones) == [f"MP_mb_pool_0_xb_{i}" for i in range(5)]


def test_every_pool_is_explained_and_xbuf_zones_belong_to_their_pool():
    report = ins.inspect_text(CAPTURE.read_text(), CAPTURE.name)
    assert [(p.to_dict()["name"], p.to_dict()["explained"]) for p in report.pools] == [
        ("mb_pool_0", True), ("mb_pool_0_1", True)]
    assert [z["name"] for z in report.other_memzones] == ["rte_eth_dev_data", "rte_pdump_stats", "RTE_METRICS"]


def test_the_whole_dump_is_explained_by_mpcalc_app():
    parsed = ins.parse(CAPTURE.read_text(), CAPTURE.name)
    out = explain({n: z.len for n, z in parsed.zones.items()}, COMMAND, Platform())
    assert out["explained"] and len(out["rows"]) == 17 and out["not_dumped"] == []
