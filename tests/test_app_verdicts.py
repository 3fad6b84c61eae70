"""mpcalc app's verdicts on a command line (issue 26): what the real programs accept, refuse and leave behind.

The figures and messages were read off real runs of Debian's dpdk-testpmd 22.11.11 and l3fwd v22.11.11;
tests/conformance/test_apps_real.py runs them again.
"""

from __future__ import annotations

import json
import re

import pytest

from mpcalc.dpdk import apps
from mpcalc.dpdk.apps import eal_options, l3fwd, testpmd_options
from mpcalc.dpdk.core.errors import InputError
from mpcalc.dpdk.core.platform import Platform

NOHUGE = ["--no-huge", "-m", "1024", "--no-pci"]
NULL = ["dpdk-testpmd", "-l", "0-1", *NOHUGE, "--vdev", "net_null0"]
TAPS = ["--vdev", "net_tap0,iface=a", "--vdev", "net_tap1,iface=b"]
L3FWD = ["dpdk-l3fwd", "-l", "0", *NOHUGE, *TAPS]
L3 = ["-p", "0x3", "--config=(0,0,0),(1,0,0)"]


def size(argv: list[str], release: str = "22.11"):
    return apps.size(argv, Platform(dpdk=release))


def same_run(a, b) -> bool:
    return (
        a.heap_bytes == b.heap_bytes
        and [(z.name, z.len) for z in a.memzones] == [(z.name, z.len) for z in b.memzones]
        and a.details["allocation_count"] == b.details["allocation_count"]
    )


# --- (1) an option whose value is the program's default is the run without it -------------------------------


@pytest.mark.parametrize(
    "eal_opts",
    [
        ["--proc-type=primary"],
        ["--proc-type", "PRIMARY"],  # strncasecmp
        ["--proc-type=auto"],
        ["--mbuf-pool-ops-name", "ring_mp_mc"],
    ],
)
def test_eal_defaults_are_accepted(eal_opts):
    base = size([*NULL, "--", "-i", "--total-num-mbufs=8192"])
    given = size([NULL[0], *eal_opts, *NULL[1:], "--", "-i", "--total-num-mbufs=8192"])
    assert same_run(base, given)
    assert any("--proc-type=auto is taken as a primary" in n for n in given.details["notes"]) == (
        "--proc-type=auto" in eal_opts
    )


@pytest.mark.parametrize(
    "opts,message",
    [
        (["--proc-type=secondary"], "secondary process reserves nothing"),
        (["--proc-type=second"], "Invalid process type specified"),
        (["--mbuf-pool-ops-name", "stack"], "every mbuf pool's mempool driver"),
    ],
)
def test_eal_values_that_are_not_the_default_are_still_refused(opts, message):
    with pytest.raises(InputError, match=message):
        size([NULL[0], *opts, *NULL[1:], "--", "-i"])


@pytest.mark.parametrize("option,value", [(k, str(v)) for k, v in testpmd_options._DEFAULTS.items()])
def test_testpmd_defaults_are_accepted(option, value):
    release = "24.11"  # every option of the table exists there
    base = size([*NULL, "--", "-i", "--total-num-mbufs=8192"], release)
    given = size([*NULL, "--", "-i", "--total-num-mbufs=8192", f"--{option}={value}"], release)
    assert same_run(base, given)


@pytest.mark.parametrize(
    "option,value", [("hairpinq", "1"), ("noisy-lkup-memory", "8"), ("num-procs", "2"), ("noisy-forward-mode", "mac")]
)
def test_testpmd_other_values_are_still_refused(option, value):
    with pytest.raises(InputError, match="not modelled"):
        size([*NULL, "--", "-i", f"--{option}={value}"], "24.11")


def test_every_not_modelled_option_with_a_default_value_is_in_the_defaults_tables():
    """The options refused by name whose absence is a value the program also takes from the command line."""
    assert set(eal_options._DEFAULTS) <= set(eal_options._NOT_MODELLED)
    assert set(testpmd_options._DEFAULTS) <= set(testpmd_options._NOT_MODELLED)
    assert "mode" not in l3fwd._NOT_MODELLED


@pytest.mark.parametrize("opts", [["--mode=poll"], ["--mode", "poll"], ["--event-vector-size", "16"]])
def test_l3fwd_poll_mode_is_its_default(opts):
    assert same_run(size([*L3FWD, "--", *L3]), size([*L3FWD, "--", *L3, *opts]))


@pytest.mark.parametrize(
    "opts,message",
    [
        (["--mode=eventdev"], "eventdev mode .* is not modelled"),
        (["--eventq-sched=atomic"], r"eventq_sched is valid only when event mode is selected.*main\.c:919-922"),
        (["--event-eth-rxqs=2"], r"eth_rx_queues is valid only when event mode is selected.*main\.c:914-917"),
        (["--event-vector"], "event vector pools"),
    ],
)
def test_l3fwd_eventdev_options_in_poll_mode(opts, message):
    with pytest.raises(InputError, match=message):
        size([*L3FWD, "--", *L3, *opts])


# --- (2) what the real program refuses, or the port it leaves unconfigured --------------------------------------


def test_testpmd_without_queues_exits():
    with pytest.raises(InputError, match=r"Either rx or tx queues should be non-zero.*parameters\.c:1088-1091"):
        size([*NULL, "--", "-i", "--rxq=0", "--txq=0"])
    with pytest.raises(InputError, match=r"Either rx or tx queues should be non-zero.*testpmd\.c:4521-4522"):
        size([*NULL, "--", "-i", "--rxq=0", "--txq=0"], "24.11")
    assert size([*NULL, "--", "-i", "--rxq=0"]).ok  # Tx queues alone are a run
    # up to 23.11 the check follows every option; from 24.11 it is made once, on the final values
    with pytest.raises(InputError, match="non-zero"):
        size([*NULL, "--", "-i", "--rxq=0", "--txq=0", "--rxq=1"], "23.11")
    assert size([*NULL, "--", "-i", "--rxq=0", "--txq=0", "--rxq=1"], "24.11").ok


def test_testpmd_scatter_on_net_null_leaves_the_port_unconfigured():
    """The real run: 'requested Rx offloads 0x2000 doesn't match Rx offloads capabilities 0x0', 'Fail to
    configure port 0', 'Start ports failed', the prompt; heap 20,721,216 B in 501 elements, against
    20,738,240 B in 505 without the option (telemetry, -m 256, --total-num-mbufs=2048)."""
    argv = ["dpdk-testpmd", "-l", "0-1", "--no-huge", "-m", "256", "--no-pci", "--vdev", "net_null0"]
    plain = size([*argv, "--", "-i", "--total-num-mbufs=2048"])
    for opt in ("--enable-scatter", "--rx-offloads=0x2000"):
        r = size([*argv, "--", "-i", "--total-num-mbufs=2048", opt])
        assert r.ok and r.details["unconfigured_ports"] == [0]
        assert (plain.heap_bytes, r.heap_bytes) == (20_738_240, 20_721_216)
        count = r.details["allocation_count"] + r.details["memzone_count"]
        assert count == 501 and plain.details["allocation_count"] + plain.details["memzone_count"] == 505
        (note,) = [n for n in r.details["notes"] if "Fail to configure port 0" in n]
        assert "requested Rx offloads 0x2000 doesn't match Rx offloads capabilities 0x0" in note
    # without -i testpmd exits
    with pytest.raises(InputError, match="Start ports failed"):
        size([*argv, "--", "--total-num-mbufs=2048", "--enable-scatter"])
    # net_ring has scatter: configured as without it
    ring = ["dpdk-testpmd", "-l", "0-1", *NOHUGE, "--vdev", "net_ring0", "--", "-i", "--total-num-mbufs=2048"]
    assert same_run(size(ring), size([*ring, "--enable-scatter"]))
    assert size([*ring, "--enable-scatter"]).details["unconfigured_ports"] == []


def test_the_first_failing_port_and_those_after_it_are_unconfigured():
    argv = ["dpdk-testpmd", "-l", "0-1", *NOHUGE, "--vdev", "net_ring0", "--vdev", "net_null1", "--vdev", "net_null2"]
    r = size([*argv, "--", "-i", "--total-num-mbufs=2048", "--enable-scatter"])
    assert r.details["unconfigured_ports"] == [1, 2]
    # MBUF_FAST_FREE, testpmd's own default Tx offload, is dropped where the port lacks it
    assert size([*argv, "--", "-i", "--tx-offloads=0x10000"]).details["unconfigured_ports"] == []
    assert size([*argv, "--", "-i", "--tx-offloads=0x8000"]).details["unconfigured_ports"] == [1, 2]


def test_testpmd_frame_and_tap_queue_refusals_leave_the_port_unconfigured():
    tap = ["dpdk-testpmd", "-l", "0-1", *NOHUGE, "--vdev", "net_tap0,iface=a", "--", "-i", "--total-num-mbufs=2048"]
    r = size([*tap, "--max-pkt-len=9000"])
    assert r.details["unconfigured_ports"] == [0] and not any(mp.name == "mp_net_tap0" for mp in r.mempools)
    assert any("Frame size (9000) > device max frame size (1522)" in n for n in r.details["notes"])
    assert size([*tap, "--max-pkt-len=1522"]).details["unconfigured_ports"] == []
    assert size([*tap, "--max-pkt-len=9000"], "23.11").details["unconfigured_ports"] == []  # jumbo from 23.11
    r = size([*tap, "--rxq=2", "--txq=1"])
    assert r.details["unconfigured_ports"] == [0]
    assert any("number of rx queues 2 must be equal to number of tx queues 1" in n for n in r.details["notes"])


def test_l3fwd_jumbo_frames_on_net_tap():
    with pytest.raises(
        InputError, match=r"Frame size \(9000\) > device max frame size \(1522\).*Cannot configure device: err=-22"
    ):
        size([*L3FWD, "--", *L3, "--max-pkt-len", "9000"])
    assert size([*L3FWD, "--", *L3, "--max-pkt-len", "1522"]).ok
    assert size([*L3FWD, "--", *L3, "--max-pkt-len", "9000"], "23.11").ok
    with pytest.raises(InputError, match="must be equal to number of tx queues"):
        size(["dpdk-l3fwd", "-l", "0", *NOHUGE, *TAPS, "--", "-p", "0x3", "--config=(0,0,0),(0,1,0),(1,0,0)"])


# --- (3) lcores the target machine lacks ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "lcores,said",
    [
        (["-l", "0-2"], "'lcore 2 unavailable', 'invalid core list, please check specified cores are part of 0-1'"),
        (["-c", "0x5"], "'lcore 2 unavailable', 'invalid coremask, please check specified cores are part of 0-1'"),
        (["--lcores", "(0-1)@2"], "'core 2 unavailable', 'invalid parameter for --lcores'"),
    ],
)
def test_lcores_on_cpus_the_machine_lacks_are_refused_as_eal_refuses_them(lcores, said):
    argv = ["dpdk-testpmd", *lcores, *NOHUGE, "--vdev", "net_null0", "--", "-i"]
    with pytest.raises(InputError, match=re.escape(said)):
        apps.size(argv, Platform(), cpus=(0, 1))
    # on a machine that has the CPUs, the same run, without the note
    r = apps.size(argv, Platform(), cpus=(0, 1, 2))
    assert r.ok and not any("--cpus" in n for n in r.details["notes"])


def test_lcores_mapped_to_cpus_the_machine_has_are_a_run():
    argv = ["dpdk-testpmd", "--lcores", "(0-2)@0,3@1", *NOHUGE, "--vdev", "net_null0", "--", "-i"]
    assert apps.size(argv, Platform(), cpus=(0, 1)).details["forwarding_lcores"] == 3


def test_without_cpus_a_note_says_the_cpus_are_taken_to_exist():
    r = apps.size(["dpdk-testpmd", "-l", "0-2", *NOHUGE, "--vdev", "net_null0", "--", "-i"], Platform())
    (note,) = [n for n in r.details["notes"] if "--cpus" in n]
    assert "CPU(s) 0-2, taken to exist on the target machine" in note


def test_the_cpus_option_on_the_command_line(run):
    argv = ["dpdk-testpmd", "-l", "0-2", *NOHUGE, "--vdev", "net_null0", "--", "-i"]
    code, _, err = run("app", "--cpus", "0-1", "--", *argv)
    assert code == 2 and "lcore 2 unavailable" in err
    code, out, _ = run("app", "--cpus", "0-3,8-11", "--json", "--", *argv)
    assert code == 0 and json.loads(out)["input"]["cpus"] == "0-3,8-11"
    code, _, err = run("app", "--cpus", "0-x", "--", *argv)
    assert code == 2 and "as /sys/devices/system/cpu/online does" in err


# --- (4) --mp-alloc=xmemhuge: testpmd's own hugepages ----------------------------------------------------------

XMH = ["dpdk-testpmd", "-l", "0-1", "--no-pci", "--vdev", "net_null0", "--", "-i", "--mp-alloc=xmemhuge"]


def test_xmemhuge_maps_its_own_hugepages():
    """A real run (--socket-mem 32, --total-num-mbufs=2048): 83 pages taken, 16 of them EAL's; testpmd logs
    'Allocated 134MB of external memory'."""
    r = size([*XMH, "--total-num-mbufs=2048"])
    assert r.details["extmem_hugepages"] == [
        {"pool": "mb_pool_0", "bytes": 67 * 2**21, "page_size": 2 << 20, "pages": 67}
    ]
    # one mapping per pool (setup_extmem per mbuf size); none for xmem, whose 4 KiB pages are not hugepages
    two = size([*XMH, "--total-num-mbufs=2048", "--mbuf-size=2048,1024"]).details["extmem_hugepages"]
    assert [m["pool"] for m in two] == ["mb_pool_0", "mb_pool_0_1"]
    assert size([*XMH[:-1], "--mp-alloc=xmem", "--total-num-mbufs=2048"]).details["extmem_hugepages"] == []


def test_the_advice_counts_xmemhuge_pages_in_nr_hugepages_not_socket_mem(run):
    code, out, _ = run("app", "--json", "--", *XMH, "--total-num-mbufs=2048")
    assert code == 0
    adv = json.loads(out)["results"][0]["details"]["advice"]
    (eal,) = adv["sockets"]
    s = adv["settings"]
    assert s["socket_mem"] == str(eal["pages"] * 2)  # EAL's pages only
    assert s["nr_hugepages"] == [
        f"echo {eal['pages'] + 67} > /sys/devices/system/node/node0/hugepages/hugepages-2048kB/nr_hugepages"
    ]
    (container,) = s["kubernetes"]["containers"]
    assert container["resources"]["limits"]["hugepages-2Mi"] == f"{(eal['pages'] + 67) * 2}Mi"
    assert s["kubernetes"]["pod"]["spec"]["containers"][0]["resources"] == container["resources"]
    assert "Could not create external memory" in s["assumes"][-1]
    # on 1 GiB pages, the 2 MiB pages are a line of their own
    code, out, _ = run("app", "--json", "--page-size", "1G", "--", *XMH, "--total-num-mbufs=2048")
    lines = json.loads(out)["results"][0]["details"]["advice"]["settings"]["nr_hugepages"]
    assert lines[-1] == "echo 67 > /sys/devices/system/node/node0/hugepages/hugepages-2048kB/nr_hugepages"
    assert "hugepages-1048576kB" in lines[0]


@pytest.mark.parametrize("mode", ["xmemhuge", "xmem", "anon", "native"])
def test_the_heap_breakdown_adds_up_to_the_heap_with_nothing_negative(mode):
    from mpcalc.render.figures import breakdown

    r = size([*XMH[:-1], f"--mp-alloc={mode}", "--total-num-mbufs=2048"]).to_dict()
    parts = breakdown(r)
    assert sum(parts.values()) == r["heap_bytes"] and min(parts.values()) > 0
    assert ("objects" in parts) == (mode == "native")  # the others' objects are not on the sockets' heap


def test_the_text_legend_has_no_negative_overhead(run):
    code, out, _ = run("app", "--", *XMH[:-1], "--mp-alloc=xmemhuge", "--total-num-mbufs=2048")
    assert code == 0 and "heap overhead -" not in out and "heap overhead" in out


# --- (6) 4 KiB pages are no hugepages ----------------------------------------------------------------------------


def test_4k_pages_advise_no_huge_and_m_not_nr_hugepages(run, tmp_path):
    code, out, _ = run("ovs", "--port", "p0", "--page-size", "4K", "--json")
    adv = json.loads(out)["results"][0]["details"]["advice"]
    assert code == 0 and "hugepages-4kB" not in out and adv["nr_hugepages"] == []
    assert adv["no_huge"] is True and adv["dpdk-extra"] == f"--no-huge --legacy-mem -m {adv['memory_mb']}"
    assert adv["memory_mb"] == -(-adv["pages"]["0"] * 4096 // 2**20)
    plan = tmp_path / "p.toml"
    plan.write_text('[platform]\npage_size = "4K"\n[[mbuf]]\nname = "a"\ncount = 8192\n')
    code, out, _ = run("plan", str(plan), "--json")
    s = json.loads(out)["settings"]
    assert code == 0 and "hugepages-4kB" not in out and s["nr_hugepages"] == []
    assert s["eal_args"] == f"--no-huge -m {s['memory_mb']}" and "not hugepages" in s["assumes"][0]
    assert s["kubernetes"]["resources"]["limits"] == {"memory": f"{s['memory_mb']}Mi"}
    code, out, _ = run("plan", str(plan))
    assert code == 0 and "hugepages-4kB" not in out and "--no-huge -m" in out


def test_an_app_under_no_huge_is_told_its_memory_is_m():
    """The real runs: -m 19 cannot create the pool, -m 20 starts (heap 20,738,240 B)."""
    from mpcalc.service.pages_app import advice

    argv = ["dpdk-testpmd", "-l", "0-1", "--no-huge", "-m", "16", "--no-pci", "--vdev", "net_null0"]
    adv = advice([*argv, "--", "-i", "--total-num-mbufs=2048"], Platform())
    nh = adv["no_huge"]
    assert isinstance(nh, dict) and (nh["memory_mb"], nh["given_mb"], nh["holds"]) == (20, 16, False)
    assert "not hugepages" in str(nh["note"]) and "cannot be created" in str(nh["note"])
    assert "no_huge" not in advice([*argv[:3], *argv[6:], "--", "-i"], Platform())  # on hugepages: none


def test_ovs_rx_queues_beyond_the_port_follow_its_limit():
    from mpcalc.dpdk.apps.ovs import size as ovs_size
    from mpcalc.dpdk.apps.ovs.netdev import Port

    p4k = Platform(page_size=4096)
    at_limit = ovs_size([Port("p0", n_rxq=1024)], False, None, None, p4k)
    beyond = ovs_size([Port("p0", n_rxq=1100)], False, None, None, p4k)
    assert beyond.heap_bytes == at_limit.heap_bytes  # the shared pool does not depend on n_rxq
    assert any("1100 Rx / 2 Tx queues asked, the port sets up 1024 / 2" in n for n in beyond.details["notes"])
    assert ovs_size([Port("p0", n_rxq=1000)], False, None, None, p4k).heap_bytes < at_limit.heap_bytes


# --- (7) IOVA as PA: the heap on hugepages is a stated range ---------------------------------------------------


def test_the_heap_on_hugepages_is_a_range_whose_top_the_advice_covers():
    """A real run on 2 MiB pages as root (IOVA as PA): heap 31,863,488 B, the top of the range: every one of
    the objects memzone's 11 pages its own chunk, 10 MEMPOOL_MEMHDR elements of 192 B more."""
    from mpcalc.service.pages_app import advice

    adv = advice(
        ["dpdk-testpmd", "-l", "0-1", "--no-pci", "--vdev", "net_null0", "--", "-i", "--total-num-mbufs=8192"],
        Platform(),
    )
    r = adv["heap_range"]
    assert isinstance(r, dict) and (r["low"], r["high"]) == (31_861_568, 31_861_568 + 10 * 192)
    (sock,) = adv["sockets"]  # type: ignore[misc]
    assert sock["pages"] * (2 << 20) >= r["high"]  # the advice covers the top
    assert "MEMPOOL_MEMHDR" in r["why"]
