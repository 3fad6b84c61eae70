"""SPDK's targets (issue 29): the command line, the EAL command line SPDK builds, the JSON config, every pool's
figure against SPDK's source arithmetic, SPDK's own complaints, the advice in SPDK's terms, the CLI.

The recorded real runs are held in tests/test_spdk_dumps.py."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from mpcalc.dpdk import apps
from mpcalc.dpdk.apps import spdk
from mpcalc.dpdk.apps.spdk import json_config, options, profile
from mpcalc.dpdk.core.errors import InputError
from mpcalc.dpdk.core.platform import Platform, make_platform
from tests import spdk_dump as sd

MPCALC = Path(sys.executable).with_name("mpcalc")  # the installed command
SPDK = Path(__file__).parent / "conformance" / "spdk"


def size(*argv: str, p: Platform | None = None, release: str | None = None):
    return apps.size(list(argv), p or Platform(), spdk_release=release)


def pools(r) -> dict[str, object]:
    return {mp.name: mp for mp in r.mempools}


def zones(r) -> dict[str, int]:
    out = {z.name: z.len for mp in r.mempools for z in mp.memzones}
    out.update({z.name: z.len for z in r.zones})
    return out


def write(tmp_path: Path, *rpcs: tuple[str, str, dict]) -> str:
    subs: dict[str, list[dict]] = {}
    for sub, method, params in rpcs:
        subs.setdefault(sub, []).append({"method": method, "params": params})
    path = tmp_path / "config.json"
    path.write_text(json.dumps({"subsystems": [{"subsystem": s, "config": c} for s, c in subs.items()]}))
    return str(path)


# --- the command line and the EAL command line ------------------------------------------------------------


@pytest.mark.parametrize("release", ["v24.09", "v26.05", "v26.01"])
def test_eal_command_line_is_the_one_spdk_printed(release):
    """build_eal_cmdline's line, as the real spdk_tgt printed it ('DPDK EAL parameters', stdout.txt): v26.05's
    ``-l 0`` for the mask 0x1, v26.01's and v26.05's ``--legacy-mem`` after ``--no-huge``."""
    for case in ("nohuge-default", "huge-default", "nvmf-tcp"):
        where = sd.folder(release) / case
        argv = sd.command(str(where.relative_to(SPDK)))
        printed = (where / "stdout.txt").read_text().split("DPDK EAL parameters: ")[1].split(" ]")[0].split()
        mine = options.eal_argv(options.parse(argv), profile.measured(release))
        # SPDK's pushed "-c 0x1" is one argv element; its --iova-mode=pa comes from the machine's IOMMU width
        printed = [t for t in printed if t != "--iova-mode=pa"]
        pid = next(t for t in printed if t.startswith("--file-prefix=")).removeprefix("--file-prefix=spdk_pid")
        assert " ".join(mine).replace("<pid>", pid).replace("spdk_tgt", printed[0]).replace(
            "nvmf_tgt", printed[0]
        ) == " ".join(printed)


def test_spdk_options_become_eal_options():
    e, _ = apps.eal_of(["spdk_tgt", "-m", "[0-1]", "-s", "1G", "-u", "--no-huge"])
    assert e.lcores == (0, 1) and e.memory_mb == 1024 and e.no_huge and e.no_pci
    e, _ = apps.eal_of(["spdk_tgt", "--lcores", "(0-1)@0"])
    assert e.lcores == (0, 1)
    e, _ = apps.eal_of(["spdk_tgt"])  # the default core mask 0x1
    assert e.lcores == (0,) and e.memory_mb is None and not e.no_huge


def test_parse_capacity():
    assert options.parse_capacity("512") == (512, False)
    assert options.parse_capacity("2G") == (2 << 30, True)
    assert options.parse_capacity("100MB") == (100 << 20, True)
    with pytest.raises(ValueError):
        options.parse_capacity("lots")


@pytest.mark.parametrize(
    "argv, said",
    [
        (["spdk_tgt", "--no-huge"], "Disabling hugepages requires specifying how much memory"),
        (["spdk_tgt", "--no-huge", "-s", "512", "--huge-dir", "/mnt/h"], "--no-huge invalid with other hugepage"),
        (["spdk_tgt", "-s", "lots"], "invalid memory pool size `-s lots`"),
        (["spdk_tgt", "-m", "0x3", "--lcores", "0-1"], "lcore map and core mask can't be set simultaneously"),
        (["spdk_tgt", "--frobnicate"], "unrecognized option '--frobnicate'"),
        (["nvmf_tgt", "-f", "/tmp/pid"], "invalid option -- 'f'"),  # -f is spdk_tgt's own
        (["spdk_tgt", "--msg-mempool-size", "0"], "Invalid message memory pool size 0"),
        (["spdk_tgt", "--no-huge", "-s", "512", "--iova-mode", "pa"], "iova-mode=pa is incompatible"),
    ],
)
def test_spdk_refuses_what_spdk_refuses(argv, said):
    with pytest.raises(InputError, match=said.replace("(", r"\(").replace("[", r"\[")):
        size(*argv)


def test_spdk_tgt_takes_its_own_options():
    r = size("spdk_tgt", "-f", "/tmp/spdk.pid", "-S", "/var/tmp", "--no-huge", "-s", "1024")
    assert r.ok


# --- the figures -----------------------------------------------------------------------------------------


def test_defaults_of_spdk_tgt():
    """Every pool at SPDK's defaults (v24.09): counts, element sizes (the measured profile) and caches."""
    r = size("spdk_tgt", "--no-huge", "-s", "1024")
    got = {n: (mp.count, mp.elt_size, mp.cache_size) for n, mp in pools(r).items()}
    assert got == {
        "evtpool_<pid>": (262_143, 32, 512),  # SPDK_MEMPOOL_DEFAULT_CACHE_SIZE clamped to 512
        "msgpool_<pid>": (262_143, 24, 0),
        "fsdev_io_<pid>": (65_535, 400, 0),
        "bdev_io_<pid>": (65_535, 1296, 0),
        "PDU_Pool": (128 * 2 * (64 + 64 + 2 * 4 + 8), 504, 256),  # MaxSessions x NUM_PDU_PER_CONNECTION
        "PDU_immediate_data_Pool": (128 * 128, (8268 // 512) * 576 + 24 + 4096, 256),
        "PDU_data_out_Pool": (128 * 16, (65536 // 512) * 576 + 24 + 4096, 256),
        "Session_Pool": (128, 120, 0),
        "SCSI_TASK_Pool": (32_768, 432, 128),
    }
    big = [a for a in r.allocations if a.size >= 1 << 20]
    assert [a.size for a in big] == [8192 * 8192, 1024 * 135168, 1 << 20, 1 << 20, 1 << 20]
    assert 8192 * 8192 + 1024 * 135168 == 205_520_896  # iobuf's data, the figure
    z = zones(r)
    # one 65,536-entry ring per reactor and per thread: align32pow2(65537) slots of 8 B + the 384-byte header
    assert [n for n, ln in z.items() if ln == 131072 * 8 + 384] == [
        "RG_ring_0_<pid>",
        "RG_ring_1_<pid>",
        "RG_ring_4_<pid>",
        "RG_ring_5_<pid>",
    ]
    assert z["RG_ring_2_<pid>"] == 16384 * 8 + 384 and z["RG_ring_3_<pid>"] == 2048 * 8 + 384  # iobuf's rings
    assert r.details["spdk"]["threads"] == ["app_thread", "nvmf_tgt_poll_group_000", "iscsi_poll_group_0"]


def test_nvmf_tgt_has_no_iscsi_nor_fsdev_and_a_poll_group_per_core():
    r = size("nvmf_tgt", "-m", "0x3", "--no-huge", "-s", "1024")
    assert set(pools(r)) == {"evtpool_<pid>", "msgpool_<pid>", "bdev_io_<pid>"}
    assert r.details["spdk"]["threads"] == ["app_thread", "nvmf_tgt_poll_group_000", "nvmf_tgt_poll_group_001"]
    assert pools(r)["evtpool_<pid>"].cache_size == 512  # (262143 / 2) / 2 lcores is still above 512


def test_message_pool_grows_with_cores_and_msg_mempool_size():
    assert spdk.SPDK_DEFAULT_MSG_MEMPOOL_SIZE == 262_143
    r = size("nvmf_tgt", "--msg-mempool-size", "1000", "--no-huge", "-s", "1024")
    assert pools(r)["msgpool_<pid>"].count == 1000
    # max(262143, cores x 4096): 64 cores and more (lib/event/app.c:276-290)
    assert max(262_143, 64 * spdk.PER_CORE_MSG) == 262_144


def test_cache_clamp_and_bit_arrays():
    assert spdk.cache_of(spdk.SIZE_MAX, 262_143, 1) == 512
    assert spdk.cache_of(256, 100, 2) == 25  # (100 / 2) / 2
    assert spdk.bit_array_bytes(0) == 16 and spdk.bit_array_bytes(1024) == 144 and spdk.bit_array_bytes(65) == 32


def test_no_trace_entries_no_trace_bit_array():
    with_trace = size("nvmf_tgt", "--no-huge", "-s", "1024")
    without = size("nvmf_tgt", "--no-huge", "-s", "1024", "--num-trace-entries", "0")
    assert with_trace.heap_bytes - without.heap_bytes == 128 + 64  # one 16-byte element


def test_iobuf_and_bdev_options_from_the_json_config(tmp_path):
    path = write(
        tmp_path,
        ("iobuf", "iobuf_set_options", {"small_pool_count": 16383, "large_pool_count": 2047, "small_bufsize": 6000}),
        ("bdev", "bdev_set_options", {"bdev_io_pool_size": 32767, "bdev_io_cache_size": 128}),
    )
    r = size("nvmf_tgt", "--no-huge", "-s", "2048", "--json", path)
    assert r.ok
    sizes = [a.size for a in r.allocations if "iobuf" in a.role]
    assert sizes == [16383 * 8192, 2047 * 135168]  # 6000 rounded up to IOBUF_ALIGNMENT
    assert pools(r)["bdev_io_<pid>"].count == 32767


@pytest.mark.parametrize(
    "params, said",
    [
        ({"small_pool_count": 63}, "small_pool_count must be at least 64"),
        ({"large_pool_count": 7}, "large_pool_count must be at least 8"),
        ({"small_bufsize": 4095}, "small_bufsize must be at least 4096"),
        ({"large_bufsize": 8191}, "large_bufsize must be at least 8192"),
    ],
)
def test_iobuf_checks_with_spdks_messages(tmp_path, params, said):
    r = size("spdk_tgt", "--no-huge", "-s", "1024", "--json", write(tmp_path, ("iobuf", "iobuf_set_options", params)))
    assert not r.ok and said in r.errors[0].reason and r.errors[0].function == "spdk_iobuf_set_opts"


@pytest.mark.parametrize("release", ["v24.09", "v26.05", "v26.01"])
def test_iobuf_refusal_is_the_recorded_one(release):
    """refuse-iobuf (small_pool_count 32): SPDK's message and the line it printed it from, the model's cite."""
    path = sd.folder(release) / "refuse-iobuf" / "iobuf_small.json"
    r = size("spdk_tgt", "--no-huge", "-s", "1024", "--json", str(path), release=release)
    printed = (sd.folder(release) / "refuse-iobuf" / "stdout.txt").read_text()
    cite = profile.measured(release).cite["iobuf_small_pool_count"]
    first = int(cite.split(":")[1].split("-")[0])
    line = next(x for x in printed.splitlines() if "small_pool_count must be at least 64" in x)
    assert not r.ok and r.errors[0].source == f"{release}:{cite}"
    assert f"iobuf.c: {first + 1}:spdk_iobuf_set_opts" in line


@pytest.mark.parametrize("release", ["v24.09", "v26.05", "v26.01"])
def test_bdev_pool_check_with_spdks_message(tmp_path, release):
    """The recorded run refuse-bdev printed these two lines (stdout.txt), at the release's lines."""
    path = write(tmp_path, ("bdev", "bdev_set_options", {"bdev_io_pool_size": 300, "bdev_io_cache_size": 256}))
    r = size("spdk_tgt", "--no-huge", "-s", "1024", "--json", path, release=release)
    printed = (sd.folder(release) / "refuse-bdev" / "stdout.txt").read_text()
    first = int(profile.measured(release).cite["bdev_set_opts"].split(":")[1].split("-")[0])
    assert r.errors[0].source == f"{release}:{profile.measured(release).cite['bdev_set_opts']}"
    assert f"bdev.c: {first + 2}:spdk_bdev_set_opts: *ERROR*: bdev_io_pool_size 300" in printed
    assert "bdev_io_pool_size 300 is not compatible with bdev_io_cache_size 256 and 1 threads" in printed
    assert "bdev_io_pool_size must be at least 512" in printed
    assert not r.ok
    assert "bdev_io_pool_size 300 is not compatible with bdev_io_cache_size 256 and 1 threads" in r.errors[0].reason
    assert "bdev_io_pool_size must be at least 512" in r.errors[0].reason


@pytest.mark.parametrize("release", ["v24.09", "v26.01"])
def test_transport_warnings_are_spdks(release):
    """nvmf-shared-big: the real nvmf_tgt's warning and errors, word for word (v26.01's TCP transport is
    v24.09's)."""
    path = sd.folder(release) / "nvmf-shared-big" / "nvmf_shared_big.json"
    r = size("nvmf_tgt", "--no-huge", "-s", "1024", "--json", str(path), release=release)
    printed = (sd.folder(release) / "nvmf-shared-big" / "stdout.txt").read_text()
    notes = " ".join(r.details["notes"])
    for line in (
        "The num_shared_buffers value (4095) is larger than the available iobuf pool size (256). "
        "Please increase the iobuf pool sizes.",
        "Failed to populate 'nvmf_TCP' iobuf small buffer cache at 896/3071 entries. You may need to increase "
        "spdk_iobuf_opts.small_pool_count (1024)",
        "Unable to reserve the full number of buffers for the pg buffer cache.",
    ):
        assert line in printed and line in notes
    assert r.ok  # SPDK warns and runs


def test_transport_of_v26_05_takes_no_shared_buffers():
    """nvmf-shared-big on v26.05: num_shared_buffers is decoded and logged as deprecated, no warning about the
    pools nor a failed cache (each poll group takes half of each pool: iobuf_get_stats, tests/test_spdk_dumps.py)."""
    path = sd.folder("v26.05") / "nvmf-shared-big" / "nvmf_shared_big.json"
    r = size("nvmf_tgt", "--no-huge", "-s", "1024", "--json", str(path), release="v26.05")
    printed = (sd.folder("v26.05") / "nvmf-shared-big" / "stdout.txt").read_text()
    notes = " ".join(r.details["notes"])
    assert "nvmf_create_transport_num_shared_buffers: deprecated feature" in printed
    assert "num_shared_buffers: SPDK logs it as deprecated and does not use it" in notes
    for v24 in ("The num_shared_buffers value", "Failed to populate", "Unable to reserve the full number"):
        assert v24 not in printed and v24 not in notes
    assert r.details["spdk"]["nvmf_tcp_iobuf_cache"] == {
        "small_per_poll_group": 1024 // 2,
        "large_per_poll_group": 256 // 2,
        "poll_groups": 1,
    }


def test_v26_05_caps_a_cache_the_cores_cannot_hold(tmp_path):
    """iobuf_small_cache_size x cores above the pool: SPDK warns and takes half the pool over the cores
    (v26.05:lib/nvmf/transport.c:292-308)."""
    path = write(tmp_path, ("nvmf", "nvmf_create_transport", {"trtype": "TCP", "iobuf_small_cache_size": 5000}))
    r = size("nvmf_tgt", "-m", "0x3", "--no-huge", "-s", "1024", "--json", path, release="v26.05")
    assert "per core iobuf_small_cache_size 10000 is larger than iobuf small buffer count 8192" in " ".join(
        r.details["notes"]
    )
    assert r.details["spdk"]["nvmf_tcp_iobuf_cache"]["small_per_poll_group"] == 8192 // 2 // 2


def test_malloc_bdev_and_tcp_control_messages(tmp_path):
    path = write(
        tmp_path,
        ("bdev", "bdev_malloc_create", {"name": "M0", "num_blocks": 2048, "block_size": 4096, "md_size": 8}),
        ("nvmf", "nvmf_create_transport", {"trtype": "TCP"}),
        ("nvmf", "nvmf_create_subsystem", {"nqn": "nqn.x:1"}),
        ("nvmf", "bdev_nvme_attach_controller", {"name": "n0"}),
    )
    r = size("nvmf_tgt", "-m", "0x3", "--no-huge", "-s", "1024", "--json", path)
    mine = [
        (a.size, a.role.split(": ")[0])
        for a in r.allocations
        if a.role.startswith(("M0", "nvmf_tgt_poll_group", "nqn.x"))
    ]
    assert mine == [
        (2048 * 4096, "M0"),  # num_blocks x block_size, 2 MiB aligned
        (2048 * 8, "M0"),  # the separate metadata buffer (md_size without md_interleave)
        (32 * 8192, "nvmf_tgt_poll_group_000"),  # control_msg_num x SPDK_NVME_TCP_IN_CAPSULE_DATA_MAX_SIZE
        (32 * 8192, "nvmf_tgt_poll_group_001"),
        (24, "nqn.x:1"),  # its listener ids bit array
    ]
    assert "bdev_nvme_attach_controller" in r.details["spdk"]["json_config"]["ignored"]
    assert any("not modelled" in n and "bdev_nvme_attach_controller" in n for n in r.details["notes"])


def test_in_capsule_data_of_8k_needs_no_control_messages(tmp_path):
    path = write(tmp_path, ("nvmf", "nvmf_create_transport", {"trtype": "TCP", "in_capsule_data_size": 8192}))
    r = size("nvmf_tgt", "--no-huge", "-s", "1024", "--json", path)
    assert not [a for a in r.allocations if "TCP control" in a.role]


def test_bad_json_config_is_an_input_error(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(InputError, match="is not JSON"):
        size("spdk_tgt", "--json", str(bad))
    with pytest.raises(InputError, match="No such file"):
        size("spdk_tgt", "--json", str(tmp_path / "absent.json"))
    bad.write_text(json.dumps({"subsystems": {}}))
    with pytest.raises(InputError, match="'subsystems' should be an array"):
        size("spdk_tgt", "--json", str(bad))
    bad.write_text(
        json.dumps(
            {
                "subsystems": [
                    {
                        "subsystem": "iobuf",
                        "config": [{"method": "iobuf_set_options", "params": {"small_pool_count": -1}}],
                    }
                ]
            }
        )
    )
    with pytest.raises(InputError, match="small_pool_count -1 is not a uint64"):
        size("spdk_tgt", "--json", str(bad))


def test_config_lists_what_it_ignores():
    c = json_config.parse(
        {"subsystems": [{"subsystem": "x", "config": [{"method": "a_thing"}, {"method": "vmd_enable"}]}]}
    )
    assert c.ignored == ["a_thing"] and c.no_memory == ["vmd_enable"]


# --- the releases ----------------------------------------------------------------------------------------


def test_spdk_refuses_the_dpdk_it_refuses():
    assert profile.dpdk_check(profile.V24_09, "22.11") is None
    assert profile.dpdk_check(profile.V24_09, "22.11.11") == "DPDK LTS version 22.11.11 not supported."
    assert profile.dpdk_check(profile.V24_09, "24.11") == "DPDK version 24.11.0 is not supported."
    assert profile.dpdk_check(profile.V24_09, "25.11") == "DPDK version 25.11.0 not supported."
    with pytest.raises(InputError, match=r"DPDK version 25\.11\.0 not supported"):
        size("spdk_tgt", p=make_platform(dpdk="25.11"))


def test_a_release_not_measured_is_refused_with_what_its_source_says():
    with pytest.raises(InputError, match=r"v24\.01 is not measured.*no fsdev subsystem"):
        profile.measured("v24.01")
    with pytest.raises(InputError, match=r"v25\.05 is not measured \(measured: v24\.09, v26\.01, v26\.05\)"):
        size("spdk_tgt", "--no-huge", "-s", "1024", release="v25.05")


def test_the_releases_dpdk_checks():
    """v26.01 and v26.05 refuse every DPDK they refuse with one message (not_supported:); v26.05 takes 26.03.0
    and 24.11.0-2, v26.01 takes any 26.x (its last else, fn_table_2207)."""
    v26_05, v26_01 = profile.V26_05, profile.V26_01
    assert profile.dpdk_check(v26_05, "22.11.11") == "DPDK version 22.11.11 is not supported."
    assert profile.dpdk_check(v26_05, "24.11.2") is None and profile.dpdk_check(v26_05, "24.11.3") is not None
    assert profile.dpdk_check(v26_05, "26.03") is None and profile.dpdk_check(v26_05, "26.07") is not None
    assert profile.dpdk_check(v26_01, "26.07") is None
    assert profile.dpdk_check(v26_05, "27.03") == "DPDK version 27.03.0 is not supported."


def test_v26_event_pool_trace_order_and_core_list():
    """v26.05: 16,383 events (EVENT_MSG_MEMPOOL_SHIFT 14) and -l for a core mask; v26.01 keeps -c."""
    r = size("spdk_tgt", "-m", "0xd", "--no-huge", "-s", "1024", release="v26.05")
    assert pools(r)["evtpool_<pid>"].count == 16_383
    assert r.details["spdk"]["eal_command_line"][2:4] == ["-l", "0,2-3"]
    old = size("spdk_tgt", "-m", "0xd", "--no-huge", "-s", "1024", release="v26.01")
    assert old.details["spdk"]["eal_command_line"][2:4] == ["-c", "0xd"]
    with pytest.raises(InputError, match="Invalid core mask 'zz'"):
        size("spdk_tgt", "-m", "zz", "--no-huge", "-s", "1024", release="v26.05")


def test_spdk_release_option(run):
    rc, out, err = run("app", "--json", "--spdk-release", "v26.05", "--", "spdk_tgt", "--no-huge", "-s", "1024")
    assert rc == 0, err
    assert json.loads(out)["results"][0]["details"]["spdk"]["release"] == "v26.05"
    rc, _, err = run("app", "--spdk-release", "v25.09", "--", "spdk_tgt", "--no-huge", "-s", "1024")
    assert rc != 0 and "v25.09 is not measured" in err


# --- the advice ------------------------------------------------------------------------------------------


def advice(run, *argv: str) -> dict:
    """The advice of ``mpcalc app --json [OPTIONS --] COMMAND``: ``--`` added unless given."""
    rc, out, err = run("app", "--json", *(argv if "--" in argv else ("--", *argv)))
    assert rc == 0, err
    return json.loads(out)["results"][0]["details"]["advice"]


def test_advice_in_spdks_terms(run):
    a = advice(run, "spdk_tgt", "--no-huge", "-s", "1024")
    s = a["settings"]
    pages = a["sockets"][0]["pages"]
    assert s["eal_args"] == f"-s {pages * 2}" and a["run_as"] == ["spdk_tgt", "-s", str(pages * 2)]
    assert a["spdk"]["setup_sh"] == {
        "HUGEMEM": pages * 2,
        "NRHUGE": pages,
        "HUGENODE": f"nodes_hp[0]={pages}",
        "command": f"HUGENODE='nodes_hp[0]={pages}' NRHUGE={pages} scripts/setup.sh",
    }
    assert a["no_huge"]["spdk_args"] == ["--no-huge", "-s", str(a["no_huge"]["memory_mb"])]
    pod = s["kubernetes"]["pod"]["spec"]["containers"][0]["args"]
    assert pod == a["run_as"]


@pytest.mark.parametrize(
    "release, measured",
    [
        # (spdk_tgt -s, nvmf_tgt -s, pages without -s, pages with -s): bisect.txt; advised 935, 449, -, 425
        ("v24.09", (934, 448, 430, 424)),
        # advised 888, 402, -, 406
        ("v26.05", (886, 401, 409, 405)),
        # the same as v26.05: the same pools (tests/test_spdk_dumps.py)
        ("v26.01", (886, 401, 409, 405)),
    ],
)
def test_advice_holds_the_bisected_memory(run, release, measured):
    """The smallest memory the real targets start with (the release's bisect.txt) against the advice: the advice
    is never below it, and above it by at most the aligned buffers' worst-case gaps."""
    text = (sd.folder(release) / "bisect.txt").read_text()
    smallest = tuple(int(line.split()[1]) for line in text.splitlines() if line.startswith("smallest"))
    assert smallest == measured
    nohuge_tgt, nohuge_nvmf, _pages_dynamic, pages_preallocated = smallest
    a = advice(run, "--spdk-release", release, "--", "spdk_tgt", "--no-huge", "-s", "1024")
    assert nohuge_tgt <= a["no_huge"]["memory_mb"] <= nohuge_tgt + 3
    assert pages_preallocated <= a["sockets"][0]["pages"] <= pages_preallocated + 1
    cfg = str(sd.folder(release) / "nvmf-tcp" / "nvmf_tcp.json")
    nvmf = advice(
        run, "--spdk-release", release, "--", "nvmf_tgt", "-m", "0x3", "--no-huge", "-s", "1024", "--json", cfg
    )
    assert nohuge_nvmf <= nvmf["no_huge"]["memory_mb"] <= nohuge_nvmf + 6


def test_plan_item_of_an_spdk_target(run, tmp_path):
    plan = tmp_path / "spdk.toml"
    plan.write_text('[[app]]\nname = "tgt"\ncommand_line = ["nvmf_tgt", "-m", "0x3", "--no-huge", "-s", "1024"]\n')
    rc, out, err = run("plan", str(plan), "--json")
    assert rc == 0, err
    doc = json.loads(out)
    assert (
        doc["items"][0]["result"]["heap_bytes"] == size("nvmf_tgt", "-m", "0x3", "--no-huge", "-s", "1024").heap_bytes
    )
    plan.write_text(plan.read_text() + 'spdk_release = "v26.05"\n')
    rc, out, err = run("plan", str(plan), "--json")
    assert rc == 0, err
    item = json.loads(out)["items"][0]["result"]
    assert item["details"]["spdk"]["release"] == "v26.05"
    assert item["heap_bytes"] == size("nvmf_tgt", "-m", "0x3", "--no-huge", "-s", "1024", release="v26.05").heap_bytes


def test_the_json_validates_against_mpcalc_schema(run):
    _, printed, _ = run("schema")
    validator = Draft202012Validator(json.loads(printed))
    rc, out, _ = run("app", "--json", "--", "spdk_tgt", "-m", "0x3", "--no-huge", "-s", "1024")
    assert rc == 0
    errors = sorted(validator.iter_errors(json.loads(out)), key=str)
    assert not errors, [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in errors]


# --- the installed command -------------------------------------------------------------------------------


def mpcalc(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(MPCALC), *argv], capture_output=True, text=True, timeout=120, check=False)


def test_installed_command_sizes_spdk_tgt():
    p = mpcalc("app", "--json", "--", "spdk_tgt", "--no-huge", "-s", "1024")
    assert p.returncode == 0, p.stderr
    doc = json.loads(p.stdout)
    r = doc["results"][0]
    assert r["heap_bytes"] == 976_925_632  # the recorded dump's heap, to the byte (test_spdk_dumps.py)
    assert {m["name"] for m in r["mempools"]} >= {"bdev_io_<pid>", "msgpool_<pid>", "evtpool_<pid>"}


def test_installed_command_says_spdks_refusal_on_one_line():
    p = mpcalc("app", "--", "spdk_tgt", "--no-huge")
    assert p.returncode != 0 and "Traceback" not in p.stderr
    assert len(p.stderr.strip().splitlines()) == 1
    assert "Disabling hugepages requires specifying how much memory will be allocated using -s" in p.stderr


def test_installed_command_table():
    p = mpcalc("app", "--", "nvmf_tgt", "-m", "0x3", "--no-huge", "-s", "1024")
    assert p.returncode == 0, p.stderr
    assert "bdev_io_<pid>" in p.stdout and "advice" in p.stdout


# --- properties ------------------------------------------------------------------------------------------

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


@settings(max_examples=40, deadline=None)
@given(
    small=st.integers(64, 1 << 20),
    large=st.integers(8, 1 << 16),
    sbuf=st.integers(4096, 64 * 1024),
    lbuf=st.integers(8192, 1 << 20),
)
def test_iobuf_pools_are_their_counts_times_their_aligned_buffers(tmp_path_factory, small, large, sbuf, lbuf):
    """iobuf's two allocations are count x the buffer size rounded up to 4 KiB, its rings align32pow2(count + 1)
    slots (spdk_iobuf_initialize, v24.09:lib/thread/iobuf.c:95-150; RING_F_EXACT_SZ)."""
    params = {"small_pool_count": small, "large_pool_count": large, "small_bufsize": sbuf, "large_bufsize": lbuf}
    path = write(tmp_path_factory.mktemp("c"), ("iobuf", "iobuf_set_options", params))
    r = size("nvmf_tgt", "--no-huge", "-s", "1024", "--json", path)
    assert [a.size for a in r.allocations if a.role.startswith("iobuf")] == [
        small * -(-sbuf // 4096) * 4096,
        large * -(-lbuf // 4096) * 4096,
    ]
    z = zones(r)
    pow2 = [1 << (n).bit_length() for n in (small, large)]  # align32pow2(n + 1)
    assert [z["RG_ring_2_<pid>"], z["RG_ring_3_<pid>"]] == [p2 * 8 + 384 for p2 in pow2]


def test_python_api_and_the_docs_block():
    """mpcalc.api sizes an SPDK target as the command does; docs/spdk.md's Python block, run as a doctest."""
    import doctest
    import re

    from mpcalc import api

    r = api.size("app", command_line=["nvmf_tgt", "-m", "0x3", "--no-huge", "-s", "1024"]).results[0]
    assert r.heap_bytes == size("nvmf_tgt", "-m", "0x3", "--no-huge", "-s", "1024").heap_bytes
    text = (Path(__file__).resolve().parent.parent / "docs" / "spdk.md").read_text()
    block = re.search(r"```python\n(.*?)```", text, re.S).group(1)  # type: ignore[union-attr]
    test = doctest.DocTestParser().get_doctest(block, {}, "docs/spdk.md", "docs/spdk.md", 0)
    result = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE).run(test)
    assert result.failed == 0 and result.attempted >= 2
