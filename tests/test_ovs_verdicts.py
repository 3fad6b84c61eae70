"""mpcalc ovs's verdicts (issue 26): what ovs-vswitchd survives, the PMD CPUs it really has, the advice's margin.

Read off real runs of Debian's ovs-vswitchd 3.1.0 on DPDK 22.11.11; tests/conformance/test_ovs_real.py runs
them again.
"""

from __future__ import annotations

from mpcalc.dpdk.ovs import size
from mpcalc.dpdk.ovs.netdev import Port
from mpcalc.dpdk.platform import Platform

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
