"""mpcalc ovs's verdicts (issue 26): what ovs-vswitchd survives, the PMD CPUs it really has, the advice's margin.

Read off real runs of Debian's ovs-vswitchd 3.1.0 on DPDK 22.11.11; tests/conformance/test_ovs_real.py runs
them again.
"""

from __future__ import annotations

from mpcalc.dpdk.apps.ovs import size
from mpcalc.dpdk.apps.ovs.netdev import Port
from mpcalc.dpdk.core.platform import Platform

P4K = Platform(page_size=4096)


def test_pmd_cpu_mask_bits_of_cpus_the_machine_lacks_are_skipped():
    """mask 0x7 on a 2-CPU machine: OVS makes 2 PMD threads, so a DPDK port has 3 Tx queues, not 4."""
    ports = [Port("p0", n_rxq=2, n_rxq_desc=512, n_txq_desc=256)]
    on2 = size(ports, True, "0x7", None, P4K, cpus=(0, 1))
    assert on2.details["pmd_threads"] == 2 and on2.details["ports"]["p0"]["n_txq"] == 3
    assert any("the machine has no CPU 2 (--cpus): OVS skips those bits" in n for n in on2.details["notes"])
    # per-port memory: the count, and so the pool's name, follow the Tx queues
    assert on2.details["ports"]["p0"]["n_mbufs"] == 2 * 512 + 3 * 256 + 2 * 32 + 16_384
    as_written = size(ports, True, "0x7", None, P4K)
    assert as_written.details["ports"]["p0"]["n_txq"] == 4
    assert any("is taken as written" in n and "give --cpus" in n for n in as_written.details["notes"])
    assert as_written.details["ports"]["p0"]["pool"] != on2.details["ports"]["p0"]["pool"]
    # a mask of CPUs the machine all has: no note
    assert not size(ports, True, "0x3", None, P4K, cpus=(0, 1)).details["notes"]


def test_the_cpus_option_of_ovs(run_json):
    code, doc = run_json("ovs", "--port", "p0", "--pmd-cpu-mask", "0x7", "--cpus", "0-1", "--page-size", "4K")
    assert code == 0 and doc["results"][0]["details"]["ports"]["p0"]["n_txq"] == 3
    assert doc["input"]["cpus"] == "0-1"


def test_settings_ovs_survives_give_the_pools_and_the_advice(run_json):
    """An mtu_request OVS refuses and an unusable shared-mempool-config: a warning, MTU 1500, the pool it
    creates, exit 0 and the advice (not exit 1 with no advice)."""
    for argv in (
        ["--port", "p0,mtu_request=9703"],
        ["--port", "p0,mtu_request=67"],
        ["--port", "p0", "--shared-mempool-config", "9000,x:1"],
    ):
        code, doc = run_json("ovs", *argv)
        res = doc["results"][0]
        assert code == 0 and not res["errors"], argv
        assert res["details"]["ports"]["p0"]["pool"] == "ovs6ffa666e00021580262144"  # the MTU-1500 pool
        assert res["details"]["notes"] and res["details"]["advice"]["pages"]["0"] > 0


def test_the_advice_is_the_minimum_and_says_what_one_page_less_and_no_socket_mem_do(run_json):
    code, doc = run_json("ovs", "--port", "p0")
    assert code == 0
    adv = doc["results"][0]["details"]["advice"]
    pages = adv["pages"]["0"]
    assert adv["minimum"] is True and "halves its count and retries under a new name" in adv["one_page_less"]
    assert "lib/netdev-dpdk.c:834" in adv["one_page_less"]  # dpdk_mp_create's halving loop, v3.1.7
    assert adv["without_dpdk_socket_mem"]["pages"] == {"0": pages + 2}
    assert adv["without_dpdk_socket_mem"]["nr_hugepages"] == [
        f"echo {pages + 2} > /sys/devices/system/node/node0/hugepages/hugepages-2048kB/nr_hugepages"
    ]
    assert not any("a few pages" in a for a in adv["assumes"])
    assert any(f"give nr_hugepages {pages + 2}" in a for a in adv["assumes"])


SEQ_PORTS = [Port("p0", n_rxq_desc=64, n_txq_desc=64)]
SEQ = (
    "set p0,mtu_request=3000",
    "set p0,n_rxq=2",
    "add p1,n_rxq_desc=64,n_txq_desc=64",
    "del p0",
    "add p2,mtu_request=800,n_rxq_desc=64,n_txq_desc=64",
)


def test_a_reconfiguration_keeps_the_old_pool_until_the_next_request():
    """The real run of tests/conformance/test_ovs_real.py::test_reconfiguration_keeps_the_pools_ovs_keeps."""
    r = size(SEQ_PORTS, True, None, None, P4K, changes=SEQ)
    steps = r.details["sequence"]
    assert [s["alive"] for s in steps] == [
        ["ovs6ffa666e00021580016608"],
        ["ovs6ffa666e00021580016608", "ovs6ffa666e00031820016608"],  # the MTU-1500 pool stays
        ["ovs6ffa666e00031820016608", "ovs6ffa666e00031820016704"],  # swept inside this request
        ["ovs6ffa666e00031820016704", "ovs4f470bfb00021580016608"],  # p1's pool named after p1
        ["ovs6ffa666e00031820016704", "ovs4f470bfb00021580016608"],  # deleted: released, not freed
        ["ovs4f470bfb00021580016608", "ovscf1ee1b400011340016608"],
    ]
    assert steps[4]["unused"] == ["ovs6ffa666e00031820016704"] and steps[5]["freed"] == ["ovs6ffa666e00031820016704"]
    assert r.details["peak"]["step"] == "set p0,n_rxq=2"
    assert r.details["peak"]["pool_heap_bytes"] == max(s["pool_heap_bytes"] for s in steps)


def test_shared_memory_changes_that_keep_the_mtu_ask_for_no_pool():
    r = size(
        [Port("p0"), Port("p1", mtu_request=9000)],
        False,
        None,
        None,
        P4K,
        changes=("set p0,n_rxq=4", "set p1,mtu_request=1500", "add p2,mtu_request=800"),
    )
    alive = [s["alive"] for s in r.details["sequence"]]
    assert alive[2] == alive[1]  # n_rxq changed, the MTU kept: no request, no sweep
    assert alive[3] == alive[2] and r.details["sequence"][3]["unused"] == [alive[1][1]]  # p1 reuses p0's pool
    assert alive[4] == [alive[1][0], "ovscf1ee1b400011340016384"]  # p2's request sweeps the 9000 pool


def test_the_advice_covers_the_peak(run_json, run):
    argv = ["--port", "p0,n_rxq_desc=64,n_txq_desc=64", "--per-port-memory", *(a for c in SEQ for a in ("--change", c))]
    code, doc = run_json("ovs", *argv)
    adv = doc["results"][0]["details"]["advice"]
    assert code == 0 and adv["peak"]["step"] == "set p0,n_rxq=2"
    assert adv["peak"]["pages"]["0"] > adv["pages"]["0"]
    assert adv["peak"]["ovs-vsctl"].endswith(f"dpdk-socket-mem={adv['peak']['pages']['0'] * 2}")
    code, _, err = run("ovs", "--port", "p0", "--change", "set p9,mtu_request=9000")
    assert code == 2 and "no port 'p9'" in err
    code, _, err = run("ovs", "--port", "p0", "--change", "rename p0")
    assert code == 2 and "write add NAME" in err
