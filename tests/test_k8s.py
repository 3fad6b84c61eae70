"""``--format k8s`` and the JSON's ``kubernetes`` block (mpcalc.service.k8s, mpcalc.render.yaml_k8s): the pod's
hugepage resources per container, the EAL options by release, the node's pages per NUMA node, the warnings.

The manifests are held to the Kubernetes API's own schema (kubernetes-validate, offline, strict: an
unknown field is an error), and the YAML to what PyYAML reads back (the JSON's block, to the value)."""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import kubernetes_validate
import pytest
import yaml
from conftest import doc_blocks
from hypothesis import given
from hypothesis import strategies as st

from mpcalc.render.yaml_k8s import scalar
from mpcalc.service import k8s
from mpcalc.service.plan import load, plan

ROOT = Path(__file__).resolve().parents[1]
PLANS = sorted((ROOT / "examples" / "plans").glob("*.toml"))
TESTPMD = ["dpdk-testpmd", "-l", "0-1", "--no-pci", "--vdev", "net_null0", "--", "-i", "--total-num-mbufs=8192"]
L3FWD = [
    "dpdk-l3fwd", "-l", "0", "--no-pci", "--vdev", "net_tap0,iface=t0", "--vdev", "net_tap1,iface=t1", "--",
    "-p", "0x3", "--config=(0,0,0),(1,0,0)", "--lookup=fib",
]  # fmt: skip
#: every whole application's command: (args of mpcalc, the pages its advice is known to need on socket 0)
COMMANDS = {
    "plan l3fwd-router": (["plan", str(ROOT / "examples/plans/l3fwd-router.toml")], 392),
    "app testpmd": (["app", "--", *TESTPMD], 16),  # bisected on real pages (tests/test_app.py)
    "app l3fwd": (["app", "--", *L3FWD], 133),
    "ovs": (["ovs", "--port", "dpdk0"], 379),  # README: OVS's guide, shared MTU 1500
    "trace": (["trace", str(ROOT / "tests/conformance/traces/l3fwd-lpm/ctf")], 108),  # README: --socket-mem 216
}
K8S_VERSION = kubernetes_validate.latest_version()


def _both(run: Any, args: list[str]) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The k8s YAML's documents and the JSON's kubernetes block of one command."""
    rc, out, err = run(args[0], "--format", "k8s", *args[1:])  # before an application's own command line
    assert rc == 0, err
    docs = list(yaml.safe_load_all(out))
    rc, js, err = run(args[0], "--json", *args[1:])
    assert rc == 0, err
    (block,) = k8s.of(json.loads(js))
    return docs, block


@pytest.mark.parametrize("name", COMMANDS)
def test_the_yaml_is_the_json_and_kubernetes_takes_it(run, name):
    args, pages = COMMANDS[name]
    docs, block = _both(run, args)
    pod, profile = docs
    assert pod == block["pod"] and profile == block["performance_profile"]
    # the Kubernetes API's schema, strict: no field it does not know
    kubernetes_validate.validate(pod, K8S_VERSION, strict=True)
    (container,) = pod["spec"]["containers"]
    hp = container["resources"]["limits"]
    assert container["resources"]["requests"] == hp == {"hugepages-2Mi": f"{pages * 2}Mi"}
    assert container["securityContext"]["capabilities"]["add"] == ["IPC_LOCK"]
    assert pod["spec"]["volumes"] == [{"name": "hugepages-2mi", "emptyDir": {"medium": "HugePages"}}]
    assert container["volumeMounts"] == [{"name": "hugepages-2mi", "mountPath": "/dev/hugepages"}]
    assert profile["spec"]["hugepages"]["pages"] == [{"size": "2M", "count": pages, "node": 0}]
    assert block["node"]["nr_hugepages"] == [
        f"echo {pages} > /sys/devices/system/node/node0/hugepages/hugepages-2048kB/nr_hugepages"
    ]
    assert block["node"]["kernel_cmdline"] == f"hugepagesz=2M hugepages={pages}"
    assert block["warnings"][:2] == [k8s.WARN_PER_CONTAINER, k8s.WARN_SIGBUS]


def test_the_comments_say_the_warnings_and_the_node(run):
    _, out, _ = run("plan", str(ROOT / "examples/plans/l3fwd-router.toml"), "--format", "k8s")
    comments = [ln for ln in out.splitlines() if ln.startswith("#")]
    assert f"# warning: {k8s.WARN_SIGBUS}" in comments and f"# warning: {k8s.WARN_PER_CONTAINER}" in comments
    assert f"# note: dpdk: {k8s.NOTE_MEMORY}" in comments
    assert "#   kernel command line: hugepagesz=2M hugepages=392" in out
    assert "# note: dpdk: add the EAL options to the application's command line: --in-memory --socket-mem 784 " \
        "--socket-limit 784" in comments  # fmt: skip


def test_an_application_runs_its_own_command_line_inside_the_limit(run):
    docs, block = _both(run, ["app", "--", *TESTPMD])
    (container,) = docs[0]["spec"]["containers"]
    assert container["args"] == [
        "dpdk-testpmd", "--in-memory", "--socket-mem", "32", "--socket-limit", "32", *TESTPMD[1:]
    ]  # fmt: skip
    assert block["containers"][0]["eal_args"] == ["--in-memory", "--socket-mem", "32", "--socket-limit", "32"]
    # an --in-memory already there is not given twice
    docs, _ = _both(run, ["app", "--", "dpdk-testpmd", "--in-memory", *TESTPMD[1:]])
    assert docs[0]["spec"]["containers"][0]["args"].count("--in-memory") == 1


@pytest.mark.parametrize(
    ("dpdk", "options"),
    [
        ("21.11", ["--in-memory", "--socket-mem", "32", "--socket-limit", "32"]),
        ("24.11", ["--in-memory", "--socket-mem", "32", "--socket-limit", "32"]),
        # v25.11:lib/eal/common/eal_option_list.h:85-88: --numa-mem/--numa-limit, the old names aliases
        ("25.11", ["--in-memory", "--numa-mem", "32", "--numa-limit", "32"]),
        ("26.07", ["--in-memory", "--numa-mem", "32", "--numa-limit", "32", "--pagesz-mem", "2M:32M"]),
    ],
)
def test_the_eal_options_are_the_releases_own(dpdk, options):
    assert k8s.eal_options([(0, 16)], 2 << 20, dpdk) == options


def test_a_plan_on_two_nodes_rounds_each_node_up_then_sums(run):
    """vswitch.toml: two sockets of 1 GiB pages; a 1 GiB page cannot be split across nodes."""
    report = plan(*load(ROOT / "examples/plans/vswitch.toml"))
    per_node = [(s.socket, s.pages) for s in report.sockets]
    assert per_node == [(0, 2), (1, 2)]
    block = report.settings()["kubernetes"]
    (c,) = block["containers"]
    assert c["resources"]["limits"] == {"hugepages-1Gi": "4Gi"}
    assert c["eal_args"] == ["--in-memory", "--socket-mem", "2048,2048", "--socket-limit", "2048,2048"]
    assert block["performance_profile"]["spec"]["hugepages"] == {
        "defaultHugepagesSize": "1G",
        "pages": [{"size": "1G", "count": 2, "node": 0}, {"size": "1G", "count": 2, "node": 1}],
    }
    assert block["node"]["kernel_cmdline"] == "hugepagesz=1G hugepages=4"
    # the rounding is each node's: bytes that would fit 3 pages summed need 4 on two nodes
    heap = [s.heap_bytes + s.eal_heap for s in report.sockets]
    assert all((n - 1) << 30 < h <= n << 30 for h, (_, n) in zip(heap, per_node, strict=True))
    assert -(-sum(heap) // (1 << 30)) == 3  # the sum's rounding would give one page too few


SIDECAR = """
[platform]
node_hugepages = "{capacity}"

[[mbuf]]
name = "rx"
count = "32Ki"
container = "fwd"

[[ring]]
name = "events"
count = 1024
container = "{sidecar}"

[[mbuf]]
name = "tx"
count = "16Ki"
socket = 1
container = "fwd"
"""


def _sidecar(tmp_path: Path, capacity: str = "100,100", sidecar: str = "metrics") -> Path:
    path = tmp_path / "pod.toml"
    path.write_text(SIDECAR.format(capacity=capacity, sidecar=sidecar))
    return path


def test_each_container_is_its_own_process_with_its_own_limit(tmp_path, run):
    report = plan(*load(_sidecar(tmp_path)))
    block = report.settings()["kubernetes"]
    fwd, metrics = block["pod"]["spec"]["containers"]
    assert (fwd["name"], metrics["name"]) == ("fwd", "metrics")
    by = dict(report.containers)
    # each container's EAL heap is its own (socket 0): the sidecar is one ring and EAL's heap, one page
    assert [(s.socket, s.eal_heap) for s in by["metrics"]] == [(0, 155_904)]
    assert [s.pages for s in by["metrics"]] == [1]
    fwd_pages = {s.socket: s.pages for s in by["fwd"]}
    assert fwd["resources"]["limits"] == {"hugepages-2Mi": f"{sum(fwd_pages.values()) * 2}Mi"}
    assert metrics["resources"]["limits"] == {"hugepages-2Mi": "2Mi"}
    # the node holds both containers' pages
    node = {p["node"]: p["count"] for p in block["node"]["pages"]}
    assert node == {0: fwd_pages[0] + 1, 1: fwd_pages[1]}
    # the whole plan (one process) counts EAL's heap once: two containers may need a page more
    assert sum(node.values()) >= sum(s.pages for s in report.sockets)
    kubernetes_validate.validate(block["pod"], K8S_VERSION, strict=True)
    rc, out, err = run("plan", str(_sidecar(tmp_path)), "--json")
    assert rc == 0, err
    items = json.loads(out)["items"]
    assert {i["name"]: i["container"] for i in items} == {"rx": "fwd", "events": "metrics", "tx": "fwd"}


def test_a_node_that_cannot_hold_the_pages_is_warned_of(tmp_path, run):
    report = plan(*load(_sidecar(tmp_path)))
    need0 = next(p["count"] for p in report.settings()["kubernetes"]["node"]["pages"] if p["node"] == 0)
    ok = plan(*load(_sidecar(tmp_path, f"{need0},100"))).settings()["kubernetes"]
    assert len(ok["warnings"]) == 2
    short = plan(*load(_sidecar(tmp_path, f"{need0 - 1},100"))).settings()["kubernetes"]
    assert short["warnings"][2] == (
        f"NUMA node 0 needs {need0:,} pages of 2M, the node holds {need0 - 1:,}: the pod cannot be scheduled "
        "there (DPDK's memory on that node is not movable to another)"
    )
    one = plan(*load(_sidecar(tmp_path, "100"))).settings()["kubernetes"]  # no node 1 given: it holds none
    assert "NUMA node 1 needs" in one["warnings"][2]
    rc, out, _ = run("plan", str(_sidecar(tmp_path, f"{need0 - 1},100")), "--format", "k8s")
    assert rc == 0 and f"# warning: NUMA node 0 needs {need0:,} pages of 2M" in out


@pytest.mark.parametrize(
    ("capacity", "sidecar", "message"),
    [
        ("lots", "metrics", "[platform], key 'node_hugepages': 'lots' is not a list of page counts"),
        ("100", "Metrics_1", "[[ring]] 'events', key 'container': container 'Metrics_1' is not a Kubernetes name"),
    ],
)
def test_a_bad_key_is_one_line_naming_it(tmp_path, run, capacity, sidecar, message):
    rc, out, err = run("plan", str(_sidecar(tmp_path, capacity, sidecar)), "--format", "k8s")
    assert rc == 2 and not out
    assert message in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize(
    "args",
    [
        ["pool", "-n", "100", "--elt-size", "40"],
        ["diff", "--right", "--dpdk 24.11", "rib", "--routes", "1K"],
        ["inspect", str(ROOT / "examples/inspect/mempool-dump.txt")],
    ],
)
def test_what_is_not_a_whole_application_is_refused(run, args):
    rc, out, err = run(*args, "--format", "k8s")
    assert rc == 2 and not out
    assert err.strip() == f"mpcalc: error: --format k8s is for a whole application's answer (plan, app, ovs, trace), " \
        f"not {args[0]}"  # fmt: skip


def test_what_dpdk_refuses_gets_no_manifest(run, tmp_path):
    # (an mtu_request OVS refuses is no longer a refusal: OVS warns and runs with MTU 1500, tests/test_ovs.py)
    plan = tmp_path / "bad.toml"
    plan.write_text('[[ring]]\nname = "r"\ncount = 1000\n')  # rte_ring_create: EINVAL, not a power of two
    rc, out, _ = run("plan", str(plan), "--format", "k8s")
    assert rc == 1
    assert out.startswith("# mpcalc plan: no manifest: EINVAL: the ring needs 1000, not a power of two slots")
    assert list(yaml.safe_load_all(out)) == []
    path = tmp_path / "ring.toml"
    path.write_text('[[ring]]\nname = "r"\ncount = 1000\n')  # not a power of two: rte_ring_create refuses it
    rc, out, _ = run("plan", str(path), "--format", "k8s")
    assert rc == 1 and out.startswith("# mpcalc plan: no manifest: EINVAL: ") and len(out.splitlines()) == 1


def test_anonymous_memory_is_a_memory_request(run):
    """testpmd --mp-alloc=anon: the objects are one anonymous mmap (rte_mempool_populate_anon): memory."""
    docs, block = _both(run, ["app", "--", *TESTPMD, "--mp-alloc=anon"])
    (c,) = block["containers"]
    assert c["memory_bytes"] > 0
    limits = docs[0]["spec"]["containers"][0]["resources"]["limits"]
    assert limits["memory"] == f"{-(-c['memory_bytes'] // 2**20)}Mi"
    assert not any(n.endswith(k8s.NOTE_MEMORY) for n in block["notes"])
    kubernetes_validate.validate(docs[0], K8S_VERSION, strict=True)


def test_the_validator_catches_what_kubernetes_refuses():
    """The check above can fail: an unknown field, a quantity that is no quantity."""
    pod = plan(*load(ROOT / "examples/plans/l3fwd-router.toml")).settings()["kubernetes"]["pod"]
    bad = json.loads(json.dumps(pod))
    bad["spec"]["containers"][0]["volumeMount"] = bad["spec"]["containers"][0].pop("volumeMounts")
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(bad, K8S_VERSION, strict=True)


@given(st.text(max_size=20))
def test_a_string_reads_back_as_itself(text):
    assert yaml.safe_load(f"key: {scalar(text)}") == {"key": text}


@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(max_size=8),
        lambda kids: st.lists(kids, max_size=3) | st.dictionaries(st.text(max_size=6), kids, max_size=3),
        max_leaves=12,
    )
)
def test_a_document_reads_back_as_itself(value):
    from mpcalc.render.yaml_k8s import lines

    assert yaml.safe_load("\n".join(lines({"doc": value}))) == {"doc": value}


RECORDS = ROOT / "tests" / "conformance" / "k8s"
APP_RECORDS = sorted(
    set(RECORDS.glob("*.txt")) - {RECORDS / f"{n}-cgroup.txt" for n in ("ovs", "two-sizes", "node-sizes")}
)


@pytest.mark.parametrize("path", APP_RECORDS, ids=lambda p: p.name)
def test_the_real_kernel_runs_are_of_what_mpcalc_writes_today(run, path):
    """tests/conformance/k8s/: each run's limit and the container's args are what --format k8s writes now;
    the limit started it and one page below did not."""
    text = path.read_text()
    first, args_line = text.splitlines()[:2]
    argv = shlex.split(first.removeprefix("$ mpcalc app --format k8s -- "))
    docs, _ = _both(run, ["app", "--", *argv])
    (container,) = docs[0]["spec"]["containers"]
    assert args_line == "# container args: " + " ".join(container["args"])
    limit = container["resources"]["limits"]["hugepages-2Mi"]
    limits = re.findall(r"^# limit: .* = (\d+) \((\w+)\)$|^# limit: hugetlbfs size=(\d+) \((\w+)\)$", text, re.M)
    shown = [(a or c, b or d) for a, b, c, d in limits]
    assert shown[0][1] == limit and int(shown[0][0]) == int(limit[:-2]) << 20
    assert all(int(n) == int(shown[0][0]) - (2 << 20) for n, _ in shown[1:])
    assert re.findall(r"^# started: (\w+)$", text, re.M) == ["True"] + ["False"] * (len(shown) - 1)


def test_the_real_ovs_run_is_of_what_mpcalc_writes_today(run):
    """tests/conformance/k8s/ovs-cgroup.txt: OVS's settings and limit are what mpcalc ovs writes now."""
    text = (RECORDS / "ovs-cgroup.txt").read_text()
    first, configure = text.splitlines()[:2]
    args = first.removeprefix("$ mpcalc ovs --format k8s ").split()
    _, block = _both(run, ["ovs", *args])
    assert configure.removeprefix("# ") in block["notes"]
    limit = block["containers"][0]["resources"]["limits"]["hugepages-2Mi"]
    limits = [int(n) for n in re.findall(r"^# limit: hugetlb.2MB.max = (\d+) ", text, re.M)]
    assert limits == [int(limit[:-2]) << 20, (int(limit[:-2]) << 20) - (2 << 20)]
    assert re.findall(r"^# pools created: (\w+)$", text, re.M) == ["True", "False"]


def test_the_readme_shows_the_k8s_example_as_it_is():
    """docs/kubernetes.md's example is examples/36-plan.txt (kept current by tests/test_examples.py), verbatim."""
    recorded = (ROOT / "examples" / "36-plan.txt").read_text()
    assert recorded.startswith("$ mpcalc plan examples/plans/cnf-pod.toml --format k8s\n")
    shown = recorded[: recorded.rindex("(exit code 0)")]
    assert shown in [block for _, block in doc_blocks("console")]


@pytest.mark.parametrize("path", PLANS, ids=lambda p: p.name)
def test_every_example_plan_is_a_pod_kubernetes_takes(run, path):
    docs, block = _both(run, ["plan", str(path)])
    assert docs[0] == block["pod"]
    kubernetes_validate.validate(docs[0], K8S_VERSION, strict=True)
    report = plan(*load(path))
    for c, (name, sockets) in zip(block["containers"], report.containers or (("dpdk", report.sockets),), strict=True):
        page = dict(report.page_sizes).get(name, report.platform.page_size)
        assert c["name"] == name and c["resources"]["limits"] == {
            f"hugepages-{k8s.unit(page)}": k8s.quantity(sum(s.pages for s in sockets) * page)
        }


# --- several page sizes in one pod ---------------------------------------------------------------------

SIZES = ROOT / "examples" / "plans" / "cnf-sizes.toml"
GIB, MIB2 = 1 << 30, 2 << 20
MPCALC = Path(sys.executable).with_name("mpcalc")


def _installed(*args: str) -> subprocess.CompletedProcess[str]:
    """The installed ``mpcalc`` command, as an operator runs it."""
    return subprocess.run([str(MPCALC), *args], capture_output=True, text=True, check=False)


def test_a_pod_of_two_page_sizes_has_each_size_s_resources_volume_and_mount(run_json):
    """cnf-sizes.toml: testpmd on 1 GiB pages (container fwd), a sidecar on 2 MiB (monitor)."""
    rc, doc = run_json("plan", str(SIZES))  # the JSON, validated against mpcalc schema
    assert rc == 0
    block = doc["settings"]["kubernetes"]
    report = plan(*load(SIZES))
    sockets = dict(report.containers)
    fwd_pages = sum(s.pages for s in sockets["fwd"])
    mon_pages = sum(s.pages for s in sockets["monitor"])
    assert (fwd_pages, mon_pages) == (1, 10)
    assert block["page_sizes"] == [MIB2, GIB]
    pod = block["pod"]
    fwd, mon = pod["spec"]["containers"]
    assert fwd["resources"] == {"requests": {"hugepages-1Gi": "1Gi"}, "limits": {"hugepages-1Gi": "1Gi"}}
    assert mon["resources"] == {"requests": {"hugepages-2Mi": "20Mi"}, "limits": {"hugepages-2Mi": "20Mi"}}
    assert pod["spec"]["volumes"] == [
        {"name": "hugepages-2mi", "emptyDir": {"medium": "HugePages-2Mi"}},
        {"name": "hugepages-1gi", "emptyDir": {"medium": "HugePages-1Gi"}},
    ]
    assert fwd["volumeMounts"] == [{"name": "hugepages-1gi", "mountPath": "/dev/hugepages-1Gi"}]
    assert mon["volumeMounts"] == [{"name": "hugepages-2mi", "mountPath": "/dev/hugepages-2Mi"}]
    # the EAL options: each container's own volume (--huge-dir) and a --file-prefix, not --in-memory
    assert fwd["args"][:9] == [
        "dpdk-testpmd", "--file-prefix", "fwd", "--huge-dir", "/dev/hugepages-1Gi", "--socket-mem", "1024",
        "--socket-limit", "1024",
    ]  # fmt: skip
    assert "--in-memory" not in fwd["args"]
    assert "monitor: add the EAL options to the application's command line: --file-prefix monitor --huge-dir " \
        "/dev/hugepages-2Mi --socket-mem 20 --socket-limit 20" in block["notes"]  # fmt: skip
    assert k8s.NOTE_SIZES in block["notes"] and k8s.NOTE_PREFIX not in block["notes"]
    # the node: both sizes, per NUMA node
    assert block["node"]["kernel_cmdline"] == "hugepagesz=2M hugepages=10 hugepagesz=1G hugepages=1"
    assert block["node"]["nr_hugepages"] == [
        "echo 10 > /sys/devices/system/node/node0/hugepages/hugepages-2048kB/nr_hugepages",
        "echo 1 > /sys/devices/system/node/node0/hugepages/hugepages-1048576kB/nr_hugepages",
    ]
    assert block["performance_profile"]["spec"]["hugepages"]["pages"] == [
        {"size": "2M", "count": 10, "node": 0},
        {"size": "1G", "count": 1, "node": 0},
    ]
    assert block["node"]["capacity"] == [
        {"size": "2M", "page_size": MIB2, "pages": [512, 512]},
        {"size": "1G", "page_size": GIB, "pages": [4, 4]},
    ]
    assert len(block["warnings"]) == 2  # the node holds both
    kubernetes_validate.validate(pod, K8S_VERSION, strict=True)
    # the items say their page size; the whole-plan view says what it is
    assert {i["name"]: i.get("page_size") for i in doc["items"]} == {
        "testpmd": GIB,
        "monitor_pool": None,
        "monitor_events": None,
    }
    assert any("the containers use 2M and 1G pages" in a for a in doc["settings"]["assumes"])


def test_the_two_size_yaml_is_the_json_and_kubernetes_takes_it_from_the_installed_command():
    out = _installed("plan", str(SIZES), "--format", "k8s")
    assert out.returncode == 0, out.stderr
    pod, profile = yaml.safe_load_all(out.stdout)
    js = _installed("plan", str(SIZES), "--json")
    (block,) = k8s.of(json.loads(js.stdout))
    assert pod == block["pod"] and profile == block["performance_profile"]
    kubernetes_validate.validate(pod, K8S_VERSION, strict=True)
    assert f"# note: {k8s.NOTE_SIZES}" in out.stdout.splitlines()
    assert "#   kernel command line: hugepagesz=2M hugepages=10 hugepagesz=1G hugepages=1 (" in out.stdout


@pytest.mark.parametrize(
    ("dpdk", "fwd"),
    [
        ("22.11", ["--file-prefix", "fwd", "--huge-dir", "/dev/hugepages-1Gi", "--socket-mem", "1024",
                   "--socket-limit", "1024"]),
        ("25.11", ["--file-prefix", "fwd", "--huge-dir", "/dev/hugepages-1Gi", "--numa-mem", "1024",
                   "--numa-limit", "1024"]),
        # v26.07:lib/eal/common/eal_common_options.c:1949: a limit of 0 "disables allocation for this page size"
        ("26.07", ["--file-prefix", "fwd", "--huge-dir", "/dev/hugepages-1Gi", "--numa-mem", "1024",
                   "--numa-limit", "1024", "--pagesz-mem", "1G:1024M", "--pagesz-mem", "2M:0"]),
    ],
)  # fmt: skip
def test_each_release_s_eal_options_keep_a_container_inside_both_sizes(dpdk, fwd):
    doc, path = load(SIZES)
    doc = {**doc, "platform": {**doc["platform"], "dpdk": dpdk}}
    block = plan(doc, path).settings()["kubernetes"]
    by = {c["name"]: c["eal_args"] for c in block["containers"]}
    assert by["fwd"] == fwd
    assert by["monitor"][:4] == ["--file-prefix", "monitor", "--huge-dir", "/dev/hugepages-2Mi"]
    if dpdk == "26.07":
        assert by["monitor"][-4:] == ["--pagesz-mem", "2M:20M", "--pagesz-mem", "1G:0"]


TWO_NODES = """
[platform]
node_hugepages = "{capacity}"

[[mbuf]]
name = "rx0"
count = "600Ki"
container = "fwd"
page_size = "1G"

[[mbuf]]
name = "rx1"
count = "600Ki"
socket = 1
container = "fwd"
page_size = "1G"

[[ring]]
name = "events"
count = 1024
container = "metrics"
"""


def test_a_1g_container_on_two_nodes_rounds_each_node_then_sums_beside_a_2m_one(tmp_path):
    path = tmp_path / "pod.toml"
    path.write_text(TWO_NODES.format(capacity="2M:8,8 1G:2,2"))
    report = plan(*load(path))
    by = dict(report.containers)
    assert [(s.socket, s.pages) for s in by["fwd"]] == [(0, 2), (1, 2)]
    heap = [s.heap_bytes + s.eal_heap for s in by["fwd"]]
    assert -(-sum(heap) // GIB) == 3  # summed first, it would be a page too few
    block = report.settings()["kubernetes"]
    fwd, metrics = block["pod"]["spec"]["containers"]
    assert fwd["resources"]["limits"] == {"hugepages-1Gi": "4Gi"}
    assert metrics["resources"]["limits"] == {"hugepages-2Mi": "2Mi"}
    assert block["containers"][0]["eal_args"][:8] == [
        "--file-prefix", "fwd", "--huge-dir", "/dev/hugepages-1Gi", "--socket-mem", "2048,2048", "--socket-limit",
        "2048,2048",
    ]  # fmt: skip
    assert block["performance_profile"]["spec"]["hugepages"]["pages"] == [
        {"size": "2M", "count": 1, "node": 0},
        {"size": "1G", "count": 2, "node": 0},
        {"size": "1G", "count": 2, "node": 1},
    ]
    assert block["node"]["kernel_cmdline"] == "hugepagesz=2M hugepages=2 hugepagesz=1G hugepages=4"
    assert len(block["warnings"]) == 2
    kubernetes_validate.validate(block["pod"], K8S_VERSION, strict=True)
    # a node that holds one 1 GiB page on node 1: warned of, in that size's words
    path.write_text(TWO_NODES.format(capacity="2M:8,8 1G:2,1"))
    short = plan(*load(path)).settings()["kubernetes"]
    assert short["warnings"][2:] == [
        "NUMA node 1 needs 2 pages of 1G, the node holds 1: the pod cannot be scheduled there (DPDK's memory on "
        "that node is not movable to another)"
    ]
    # counts without a size are the [platform]'s page size (2M here): no 1G page said, none held
    path.write_text(TWO_NODES.format(capacity="8,8"))
    bare = plan(*load(path)).settings()["kubernetes"]
    assert [w.split(",")[0] for w in bare["warnings"][2:]] == [
        "NUMA node 0 needs 2 pages of 1G",
        "NUMA node 1 needs 2 pages of 1G",
    ]


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (
            '[[ring]]\nname = "a"\ncount = 1024\npage_size = "1G"\n[[ring]]\nname = "b"\ncount = 1024\n',
            "[[ring]] 'b', key 'page_size': container 'dpdk' is one DPDK process: [[ring]] 'a' is on 1G pages, "
            "this item on 2M; a process's heap places each memzone on whichever page size it has free (the "
            "objects ask for none), so give this item a container of its own",
        ),
        (
            '[[ring]]\nname = "a"\ncount = 1024\npage_size = "4K"\n',
            "[[ring]] 'a', key 'page_size': 4K is no hugepage size",
        ),
        (
            '[[ring]]\nname = "a"\ncount = 1024\npage_size = "3M"\n',
            "[[ring]] 'a', key 'page_size': '3M' is not a page size",
        ),
        (
            '[platform]\nnode_hugepages = "2M:1,1 2M:3"\n[[ring]]\nname = "a"\ncount = 1024\n',
            "[platform], key 'node_hugepages': '2M:1,1 2M:3' is not a list of page counts",
        ),
        (
            '[platform]\nnode_hugepages = "1G:1 8"\n[[ring]]\nname = "a"\ncount = 1024\n',
            "[platform], key 'node_hugepages': '1G:1 8' is not a list of page counts",
        ),
    ],
)
def test_a_container_on_two_page_sizes_or_a_bad_size_is_one_line_naming_the_key(tmp_path, body, message):
    path = tmp_path / "p.toml"
    path.write_text(body)
    out = _installed("plan", str(path), "--format", "k8s")
    assert out.returncode == 2 and not out.stdout
    assert message in out.stderr and len(out.stderr.strip().splitlines()) == 1, out.stderr


# --- the node's capacity for every whole application ------------------------------------------------------


@pytest.mark.parametrize("name", COMMANDS)
def test_every_whole_application_takes_the_node_s_capacity(run, schema_validator, name):
    """--node-hugepages (declared once, with the platform): the warning in the JSON and in the YAML."""

    def run_json(*argv: str) -> tuple[int, dict[str, Any]]:  # --json before an application's command line
        rc, out, err = run(argv[0], "--json", *argv[1:])
        doc = json.loads(out)
        assert not list(schema_validator.iter_errors(doc)), err
        return rc, doc

    args, pages = COMMANDS[name]
    where = 1 if args[0] != "app" else args.index("--")
    fits = [*args[:where], "--node-hugepages", f"2M:{pages}", *args[where:]]
    short = [*args[:where], "--node-hugepages", str(pages - 1), *args[where:]]
    rc, doc = run_json(*fits)
    assert rc == 0
    (block,) = k8s.of(doc)
    assert block["node"]["capacity"] == [{"size": "2M", "page_size": MIB2, "pages": [pages]}]
    assert len(block["warnings"]) == 2
    rc, doc = run_json(*short)
    (block,) = k8s.of(doc)
    warning = (
        f"NUMA node 0 needs {pages:,} pages of 2M, the node holds {pages - 1:,}: the pod cannot be scheduled there "
        "(DPDK's memory on that node is not movable to another)"
    )
    assert block["warnings"][2:] == [warning]
    rc, out, _ = run(short[0], "--format", "k8s", *short[1:])
    assert rc == 0 and f"# warning: {warning}" in out.splitlines()


def test_the_plan_s_option_is_over_its_file(run_json):
    rc, doc = run_json("plan", str(SIZES), "--node-hugepages", "2M:512 1G:0")
    assert rc == 0
    block = doc["settings"]["kubernetes"]
    assert block["node"]["capacity"][1] == {"size": "1G", "page_size": GIB, "pages": [0]}
    assert [w.split(":")[0] for w in block["warnings"][2:]] == ["NUMA node 0 needs 1 pages of 1G, the node holds 0"]


@pytest.mark.parametrize("value", ["lots", "1G:", "2M:1,x", "3M:4", "1,1 1G:2", ""])
def test_a_bad_node_hugepages_is_one_line_from_the_installed_command(value):
    out = _installed("ovs", "--port", "dpdk0", "--node-hugepages", value, "--format", "k8s")
    assert out.returncode == 2 and not out.stdout
    assert out.stderr.startswith(f"mpcalc: error: --node-hugepages: {value!r} is not a list of page counts")
    assert len(out.stderr.strip().splitlines()) == 1


def test_the_real_two_size_run_is_of_what_mpcalc_writes_today(run):
    """tests/conformance/k8s/two-sizes-cgroup.txt: each container's args and limits are what mpcalc writes now;
    at the limits it started, one page below its own size's it did not (SIGBUS, Cannot init memory)."""
    text = (RECORDS / "two-sizes-cgroup.txt").read_text()
    first = text.splitlines()[0]
    docs, _ = _both(run, ["plan", str(ROOT / first.removeprefix("$ mpcalc plan --format k8s "))])
    containers = {c["name"]: c for c in docs[0]["spec"]["containers"]}
    shown = dict(re.findall(r"^# container (\w+) args: (.*)$", text, re.M))
    assert shown == {name: " ".join(c["args"]) for name, c in containers.items()}
    assert re.findall(r"^# started: (\w+)$", text, re.M) == ["True", "False", "True", "False"]
    assert "EAL: SIGBUS: Cannot mmap more hugepages of size 1024MB" in text
    assert "EAL: SIGBUS: Cannot mmap more hugepages of size 2MB" in text
    limits = re.findall(r"^# limit: hugetlb.2MB.max = (\d+) .*, hugetlb.1GB.max = (\d+) ", text, re.M)
    fwd = containers["fwd"]["resources"]["limits"]["hugepages-1Gi"]
    mon = containers["mon"]["resources"]["limits"]["hugepages-2Mi"]
    gib, mib = int(fwd[:-2]) << 30, int(mon[:-2]) << 20
    assert limits == [("0", str(gib)), ("0", str(gib - GIB)), (str(mib), "0"), (str(mib - MIB2), "0")]


def test_a_node_with_other_page_sizes_keeps_even_a_one_size_pod_on_its_own(run):
    """--node-hugepages naming a size the pod does not use: EAL would map it under --in-memory (the largest
    first), so the container gets its volume as --huge-dir; a size the node holds none of changes nothing."""
    docs, block = _both(run, ["app", "--node-hugepages", "2M:100 1G:2", "--", *TESTPMD])
    (c,) = docs[0]["spec"]["containers"]
    assert c["args"][:9] == [
        "dpdk-testpmd", "--file-prefix", "dpdk", "--huge-dir", "/dev/hugepages", "--socket-mem", "32",
        "--socket-limit", "32",
    ]  # fmt: skip
    assert c["volumeMounts"] == [{"name": "hugepages-2mi", "mountPath": "/dev/hugepages"}]
    assert k8s.NOTE_SIZES in block["notes"]
    assert block["warnings"][2:] == []  # the node holds the pod's 2M pages; its 1G ones are not asked for
    docs, block = _both(run, ["app", "--node-hugepages", "2M:100 1G:0", "--", *TESTPMD])
    assert docs[0]["spec"]["containers"][0]["args"][1] == "--in-memory" and k8s.NOTE_PREFIX in block["notes"]
    # OVS adds --in-memory itself: its settings stay other_config's
    _, block = _both(run, ["ovs", "--port", "dpdk0", "--node-hugepages", "2M:1000 1G:2"])
    assert block["containers"][0]["eal_args"][0] == "--in-memory"


def test_the_real_node_sizes_run_is_of_what_mpcalc_writes_today(run):
    """tests/conformance/k8s/node-sizes-cgroup.txt: the 2 MiB pod's args as mpcalc writes them without the node's
    1 GiB pages (--in-memory: SIGBUS on the 1 GiB page EAL takes first) and with them (--huge-dir: it starts)."""
    text = (RECORDS / "node-sizes-cgroup.txt").read_text()
    head, *_ = text.splitlines()
    node, argv = re.fullmatch(r"\$ mpcalc app --format k8s \[--node-hugepages (.*)\] -- (.*)", head).groups()
    ran = [shlex.split(c) for c in re.findall(r"^\$ \(in [\w-]+\) (.*)$", text, re.M)]
    without, _ = _both(run, ["app", "--", *shlex.split(argv)])
    told, _ = _both(run, ["app", "--node-hugepages", node, "--", *shlex.split(argv)])
    expect = [without[0]["spec"]["containers"][0]["args"], told[0]["spec"]["containers"][0]["args"]]
    for args, shown in zip(expect, ran, strict=True):
        shown = [a for a in shown if a != "--log-level=lib.eal:debug"]
        if "--huge-dir" in args:  # the run's own mount and prefix
            for option in ("--huge-dir", "--file-prefix"):
                shown[shown.index(option) + 1] = args[args.index(option) + 1]
        assert shown == args
    assert re.findall(r"^# started: (\w+)$", text, re.M) == ["False", "True"]
    assert "EAL: SIGBUS: Cannot mmap more hugepages of size 1024MB" in text.split("# started: False")[0]
