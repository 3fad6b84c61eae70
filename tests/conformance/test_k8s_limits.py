"""``--format k8s``'s limits on the real kernel (issue 30): the real applications started under exactly the
hugepage limit mpcalc writes for their command line, enforced by the kernel, start (testpmd forwards);
one page less fails as the warning says.

Two enforcements, each where this kernel has it:

* the hugetlb cgroup (cgroup v2's ``hugetlb.2MB.max``: what the kubelet sets for a container's
  ``hugepages-2Mi`` limit), the application in a cgroup of its own, run with the container's ``args`` as
  mpcalc writes them (``--in-memory --socket-mem N --socket-limit N``): at the limit it starts; one page
  below, EAL's page fault over the limit is a SIGBUS, which EAL survives while it maps its pages ('SIGBUS:
  Cannot mmap more hugepages of size 2MB') and then fails ('Cannot init EAL: Cannot allocate memory'); the
  cgroup counts the refusal (``hugetlb.2MB.events`` max).  With the reserved limit
  (``hugetlb.2MB.rsvd.max``, the runtime-spec's reserved accounting) one page below, mmap itself fails:
  no SIGBUS;
* a hugetlbfs mount whose ``size=`` is the limit (``--huge-dir`` on it, ``--file-prefix`` instead of
  ``--in-memory``): the kernel refuses the page over the limit page by page.

The pages come from ``oracle.hugepages`` (nr_hugepages raised and restored); a cgroup made here is removed
and the cgroup v2 root's ``subtree_control`` restored.  ``python -m tests.conformance.test_k8s_limits``
records the runs (the commands and their output) into tests/conformance/k8s/.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from mpcalc.cli import main
from mpcalc.service import k8s

from .oracle import can_reserve_hugepages, hugepages
from .test_ovs_real import OVS_DPDK

HERE = Path(__file__).resolve().parent
RECORDS = HERE / "k8s"
PAGE = 2 << 20
TESTPMD = ["dpdk-testpmd", "-l", "0-1", "--no-pci", "--vdev", "net_null0", "--", "-i", "--total-num-mbufs=8192"]
L3FWD = [
    "dpdk-l3fwd", "-l", "0", "--no-pci", "--vdev", "net_tap0,iface=mpck0", "--vdev", "net_tap1,iface=mpck1", "--",
    "-p", "0x3", "--config=(0,0,0),(1,0,0)", "--lookup=fib",
]  # fmt: skip
#: name -> the application's command line, as given to mpcalc app
APPS = {"testpmd": TESTPMD, "l3fwd-fib": L3FWD}
READY = {"dpdk-testpmd": "testpmd> ", "dpdk-l3fwd": "entering main loop"}
#: EAL's debug log of its own pages: where the SIGBUS it survives is said (a log level takes no memory)
DEBUG = "--log-level=lib.eal:debug"


def manifest(argv: list[str]) -> tuple[list[str], int]:
    """The container's args and hugepages-2Mi limit (bytes) mpcalc writes for ``argv`` (its JSON block)."""
    import contextlib as _c
    import io

    out = io.StringIO()
    with _c.redirect_stdout(out):
        assert main(["app", "--json", "--", *argv]) == 0
    (block,) = k8s.of(json.loads(out.getvalue()))
    (container,) = block["pod"]["spec"]["containers"]
    limit = container["resources"]["limits"]["hugepages-2Mi"]
    assert limit == container["resources"]["requests"]["hugepages-2Mi"] and limit.endswith("Mi")
    return list(container["args"]), int(limit[:-2]) << 20


def _binary(name: str) -> str:
    if name == "dpdk-l3fwd":
        from .apps.runner import build_l3fwd

        return str(build_l3fwd())
    return "/usr/bin/" + name


@dataclass
class Run:
    command: str
    limit: str
    started: bool
    forwarded: bool
    output: str
    events_max: int | None = None

    def record(self) -> str:
        lines = [f"$ {self.command}", f"# limit: {self.limit}", self.output.rstrip(), f"# started: {self.started}"]
        if self.events_max is not None:
            lines.append(f"# hugetlb.2MB.events max {self.events_max}")
        return "\n".join(lines) + "\n"


def run(args: list[str], limit: str, cgroup: Path | None = None, timeout: float = 90) -> Run:
    """Start ``args`` (in ``cgroup`` when given) until it is ready or exits; testpmd forwards for a second."""
    program = args[0]
    argv = [_binary(program), *args[1:]]

    def enter() -> None:  # in the child, before exec: into the limited cgroup
        if cgroup is not None:
            (cgroup / "cgroup.procs").write_text(str(os.getpid()))

    with tempfile.TemporaryFile(mode="w+") as log:
        proc = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=log, stderr=subprocess.STDOUT, text=True, preexec_fn=enter
        )
        started = forwarded = False
        try:
            deadline = time.monotonic() + timeout
            while proc.poll() is None and time.monotonic() < deadline:
                log.seek(0)
                if READY[program] in log.read():
                    started = True
                    break
                time.sleep(0.2)
            if started and program == "dpdk-testpmd":
                assert proc.stdin is not None
                proc.stdin.write("start\n")
                proc.stdin.flush()
                time.sleep(1)
                proc.stdin.write("stop\n")
                proc.stdin.flush()
                time.sleep(1)
        finally:
            if proc.poll() is None:
                if program == "dpdk-testpmd":
                    with contextlib.suppress(OSError):
                        assert proc.stdin is not None
                        proc.stdin.write("quit\n")
                        proc.stdin.flush()
                else:
                    proc.send_signal(signal.SIGINT)
                try:
                    proc.wait(timeout=60)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
            log.seek(0)
            text = log.read()
    if started and program == "dpdk-testpmd":
        rx = [int(n) for n in re.findall(r"RX-packets: +(\d+)", text)]
        forwarded = bool(rx) and max(rx) > 0
    shown = " ".join(args) if cgroup is None else f"(in {cgroup.name}) " + " ".join(args)
    return Run(shown, limit, started, forwarded, _trim(text))


def _trim(text: str) -> str:
    """The run's output without the lines of its shared library loading (a few hundred)."""
    drop = ("EAL: open shared lib", "log level changed", "EAL: Registered [", "EAL: Module /sys/module")
    return "\n".join(ln for ln in text.splitlines() if not any(d in ln for d in drop))


def _cgroup2_root() -> Path | None:
    """The cgroup v2 hierarchy, if this kernel's hugetlb controller is in it."""
    for line in Path("/proc/mounts").read_text().splitlines():
        _, mnt, fstype, *_ = line.split()
        if fstype == "cgroup2" and "hugetlb" in (Path(mnt) / "cgroup.controllers").read_text().split():
            return Path(mnt)
    return None


@contextlib.contextmanager
def hugetlb_cgroup() -> Iterator[Path]:
    """A cgroup of its own with the hugetlb controller; removed, and the root's subtree_control restored."""
    root = _cgroup2_root()
    assert root is not None
    control = root / "cgroup.subtree_control"
    enabled = "hugetlb" not in control.read_text().split()
    if enabled:
        control.write_text("+hugetlb")
    group = root / f"mpcalc-k8s-{os.getpid()}"
    group.mkdir()
    try:
        yield group
    finally:
        for _ in range(50):  # the last child may take a moment to leave
            try:
                group.rmdir()
                break
            except OSError:
                time.sleep(0.1)
        if enabled:
            control.write_text("-hugetlb")


def _events_max(group: Path, size: str = "2MB") -> int:
    return int(dict(ln.split() for ln in (group / f"hugetlb.{size}.events").read_text().splitlines())["max"])


def cgroup_runs(args: list[str], limit: int) -> list[Run]:
    """At the limit, one page below it (hugetlb.2MB.max), one page below as a reserved limit (rsvd.max)."""
    out = []
    cases = [("max", limit), ("max", limit - PAGE), ("rsvd.max", limit - PAGE)]
    for knob, value in cases:
        with hugetlb_cgroup() as group:
            (group / f"hugetlb.2MB.{knob}").write_text(str(value))
            r = run([*args[:1], DEBUG, *args[1:]], f"hugetlb.2MB.{knob} = {value} ({k8s.quantity(value)})", group)
            r.events_max = _events_max(group)
            out.append(r)
    return out


@contextlib.contextmanager
def hugetlbfs(options: str) -> Iterator[Path]:
    """A hugetlbfs mount with ``options`` (``pagesize=2M,size=N``); unmounted and removed afterwards."""
    mnt = Path(tempfile.mkdtemp(prefix="mpcalc-k8s-"))
    res = subprocess.run(["mount", "-t", "hugetlbfs", "-o", options, "nodev", str(mnt)])
    try:
        assert res.returncode == 0, "mounting hugetlbfs failed"
        yield mnt
    finally:
        if res.returncode == 0:
            subprocess.run(["umount", str(mnt)], check=False)
        mnt.rmdir()


def sized_mount(size: int) -> contextlib.AbstractContextManager[Path]:
    """A hugetlbfs mount of 2 MiB pages whose ``size=`` is ``size``."""
    return hugetlbfs(f"pagesize=2M,size={size}")


def mount_runs(args: list[str], limit: int) -> list[Run]:
    """``--in-memory`` replaced by a --file-prefix on a hugetlbfs mount of ``size=`` the limit, then one page less."""
    out = []
    for value in (limit, limit - PAGE):
        with sized_mount(value) as mnt:
            eal = [a for a in args[1:] if a != "--in-memory"]
            r = run(
                [args[0], "--file-prefix", f"mpcalc_k8s_{os.getpid()}", "--huge-dir", str(mnt), DEBUG, *eal],
                f"hugetlbfs size={value} ({k8s.quantity(value)})",
            )
            out.append(r)
    return out


def _check(name: str, runs: list[Run], kind: str) -> None:
    at, below = runs[0], runs[1]
    assert at.started, f"{name}: the limit mpcalc writes does not start it:\n{at.output[-2000:]}"
    if name == "testpmd":  # net_null: packets without a wire
        assert at.forwarded, f"{name}: started but did not forward:\n{at.output[-2000:]}"
    assert not below.started, f"{name}: one page below the limit it still starts"
    assert "EAL: Cannot init memory" in below.output, below.output[-2000:]
    refused = "alloc_seg(): mmap() failed: Cannot allocate memory"
    if kind == "cgroup":  # the page fault over the limit: SIGBUS, survived by EAL, counted by the cgroup
        assert "SIGBUS: Cannot mmap more hugepages of size 2MB" in below.output, below.output[-2000:]
        assert at.events_max == 0 and below.events_max and below.events_max > 0
        rsvd = runs[2]  # reserved accounting: mmap itself fails, no SIGBUS
        assert not rsvd.started and "SIGBUS" not in rsvd.output and refused in rsvd.output, rsvd.output[-2000:]
        assert "EAL: Cannot init memory" in rsvd.output
    else:  # hugetlbfs size=: the mount's quota refuses the mapping
        assert refused in below.output and "SIGBUS" not in below.output, below.output[-2000:]


NEEDS = pytest.mark.skipif(not can_reserve_hugepages(), reason="needs root and 2 MiB hugepages (nr_hugepages)")


@pytest.fixture(scope="module")
def pages():
    """Enough free 2 MiB pages for the largest limit, and one spare; nr_hugepages restored afterwards."""
    need = max(manifest(argv)[1] for argv in APPS.values()) // PAGE + 1
    with hugepages(need) as (_, free):
        assert free >= need, f"asked the kernel for {need} free 2 MiB pages, got {free}"
        yield free


@NEEDS
@pytest.mark.skipif(_cgroup2_root() is None, reason="this kernel has no cgroup v2 hugetlb controller")
@pytest.mark.parametrize("name", APPS)
def test_the_hugetlb_cgroup_limit_starts_it_and_a_page_less_does_not(pages, name):
    args, limit = manifest(APPS[name])
    _check(name, cgroup_runs(args, limit), "cgroup")


@NEEDS
@pytest.mark.parametrize("name", APPS)
def test_a_hugetlbfs_of_the_limit_starts_it_and_a_page_less_does_not(pages, name):
    args, limit = manifest(APPS[name])
    _check(name, mount_runs(args, limit), "mount")


def record() -> None:
    """Rerun every case and write tests/conformance/k8s/<app>-<enforcement>.txt."""
    need = max(manifest(argv)[1] for argv in APPS.values()) // PAGE + 1
    with hugepages(need):
        for name, argv in APPS.items():
            args, limit = manifest(argv)
            head = f"$ mpcalc app --format k8s -- {' '.join(argv)}\n# container args: {' '.join(args)}\n"
            for kind, runs in (("cgroup", cgroup_runs(args, limit)), ("hugetlbfs", mount_runs(args, limit))):
                text = head + "\n".join(r.record() for r in runs)
                (RECORDS / f"{name}-{kind}.txt").write_text(text)
                _check(name, runs, "cgroup" if kind == "cgroup" else "mount")


#: ``mpcalc ovs`` of the README's OVS guide example: one DPDK port, shared MTU-1500 pool
OVS_PORTS = ["dpdk0"]


def ovs_manifest() -> tuple[str, int]:
    """The ovs-vsctl settings and the hugepages-2Mi limit (bytes) ``mpcalc ovs`` writes for OVS_PORTS."""
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["ovs", "--json", *(a for p in OVS_PORTS for a in ("--port", p))]) == 0
    (block,) = k8s.of(json.loads(out.getvalue()))
    (container,) = block["pod"]["spec"]["containers"]
    limit = container["resources"]["limits"]["hugepages-2Mi"]
    (configure,) = [n for n in block["notes"] if "ovs-vsctl" in n]
    return configure, int(limit[:-2]) << 20


def ovs_runs(vswitchd: str, limit: int, mount: Path) -> list[tuple[int, bool, str, int]]:
    """OVS (its own ovsdb-server, test_ovs_real.ovs) with dpdk-socket-mem = dpdk-socket-limit = the limit, its
    ovs-vswitchd in a hugetlb cgroup of hugetlb.2MB.max = the limit, then one page less: (limit, up, log, the
    cgroup's refusals).  No EAL debug log: OVS with --log-level=lib.eal:debug in dpdk-extra does not start."""
    from mpcalc.dpdk.apps.ovs import parse_port, size
    from mpcalc.dpdk.core.platform import platform_from

    from .test_ovs_real import OvsFailed, ovs

    model = size([parse_port(t) for t in OVS_PORTS], False, None, None, platform_from({"page_size": PAGE}))
    expected = {m.name for m in model.memzones}
    out = []
    for value in (limit, limit - PAGE):
        with hugetlb_cgroup() as group:
            (group / "hugetlb.2MB.max").write_text(str(value))
            try:
                with ovs(vswitchd, f"k8s{value >> 21}", 0, OVS_PORTS, huge=(mount, limit // PAGE), cgroup=group) as o:
                    up, log = expected <= set(o.memzones()), o.log()
            except OvsFailed as exc:
                up, log = False, str(exc)
            out.append((value, up, log, _events_max(group)))
    return out


@NEEDS
@pytest.mark.skipif(_cgroup2_root() is None, reason="this kernel has no cgroup v2 hugetlb controller")
@pytest.mark.skipif(not OVS_DPDK.exists(), reason="no ovs-vswitchd built with DPDK (openvswitch-switch-dpdk)")
def test_ovs_under_the_hugetlb_cgroup_limit_creates_its_pools_and_a_page_less_does_not():
    """ovs-vswitchd-dpdk run by its path (the system's ovs-vswitchd alternative is left alone)."""
    configure, limit = ovs_manifest()
    assert f"dpdk-socket-mem={limit >> 20} other_config:dpdk-socket-limit={limit >> 20}" in configure
    with hugepages(limit // PAGE + 1) as (mount, free):
        assert free > limit // PAGE
        (at, up, log, refused), (below, up_below, log_below, refused_below) = ovs_runs(str(OVS_DPDK), limit, mount)
    assert up and refused == 0, f"OVS under hugetlb.2MB.max = {at}:\n{log[-2000:]}"
    assert not up_below, f"OVS under hugetlb.2MB.max = {below} still creates its pools"
    assert "EAL: Cannot init memory" in log_below and "Unable to initialize DPDK: Cannot allocate memory" in log_below
    assert refused_below > 0, "the cgroup refused no page: not its limit that stopped OVS"


def record_ovs() -> None:
    """Rerun the OVS case (ovs-vswitchd-dpdk by its path) into tests/conformance/k8s/ovs-cgroup.txt."""
    configure, limit = ovs_manifest()
    lines = [f"$ mpcalc ovs --format k8s {' '.join('--port ' + p for p in OVS_PORTS)}", f"# {configure}"]
    with hugepages(limit // PAGE + 1) as (mount, _):
        for value, up, log, refused in ovs_runs(str(OVS_DPDK), limit, mount):
            lines += [f"# limit: hugetlb.2MB.max = {value} ({k8s.quantity(value)})", _trim(log).rstrip()]
            lines += [f"# pools created: {up}", f"# hugetlb.2MB.events max {refused}", ""]
    (RECORDS / "ovs-cgroup.txt").write_text("\n".join(lines))


#: a pod of two page sizes (issue 30): testpmd on 1 GiB pages in container fwd, testpmd on 2 MiB in mon
SIZES_PLAN = RECORDS / "two-sizes.toml"
GIB = 1 << 30
HUGETLB_1G = Path("/sys/kernel/mm/hugepages/hugepages-1048576kB")
#: the cgroup's name of a page size's hugetlb files
CGROUP_SIZE = {PAGE: "2MB", GIB: "1GB"}


def sizes_manifest() -> dict[str, tuple[list[str], dict[int, int]]]:
    """Each container of SIZES_PLAN: its args and its hugepage limits, bytes per page size (mpcalc plan --json)."""
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["plan", "--json", str(SIZES_PLAN)]) == 0
    (block,) = k8s.of(json.loads(out.getvalue()))
    units = {k8s.unit(size): size for size in (PAGE, GIB)}
    found = {}
    for c in block["pod"]["spec"]["containers"]:
        limits = c["resources"]["limits"]
        assert limits == c["resources"]["requests"]
        found[c["name"]] = (
            list(c["args"]),
            {
                units[k.removeprefix("hugepages-")]: int(v[:-2]) << (30 if v.endswith("Gi") else 20)
                for k, v in limits.items()
            },
        )
    return found


@contextlib.contextmanager
def one_gib_page() -> Iterator[bool]:
    """One 1 GiB page more in the kernel's pool (nr_hugepages of 1048576kB raised by one, lowered by one after):
    whether it is there, free."""
    nr = HUGETLB_1G / "nr_hugepages"
    before = int(nr.read_text())
    try:
        nr.write_text(str(before + 1))
    except OSError:
        yield False
        return
    try:
        yield int(nr.read_text()) == before + 1 and int((HUGETLB_1G / "free_hugepages").read_text()) >= 1
    finally:
        nr.write_text(str(int(nr.read_text()) - 1))


def size_mount(page: int) -> contextlib.AbstractContextManager[Path]:
    """A hugetlbfs mount of ``page``-size pages (the container's volume of medium HugePages-<size>)."""
    return hugetlbfs(f"pagesize={page >> 20}M")


def _on_mount(args: list[str], mnt: Path) -> list[str]:
    """The container's args with its volume's mount point (``--huge-dir``) ours and a --file-prefix of ours."""
    out = list(args)
    out[out.index("--huge-dir") + 1] = str(mnt)
    at = out.index("--file-prefix") + 1
    out[at] = f"mpcalc_k8s2_{out[at]}_{os.getpid()}"
    return out


def sizes_runs(name: str) -> list[Run]:
    """Container ``name`` of SIZES_PLAN in a cgroup of its limits for both page sizes (the kubelet sets a size
    the container does not request to 0), on a hugetlbfs of its page size: at its limits, then its own page
    size's limit one page below."""
    args, limits = sizes_manifest()[name]
    (page,) = limits
    out = []
    for value in (limits[page], limits[page] - page):
        with hugetlb_cgroup() as group, size_mount(page) as mnt:
            given = {size: (value if size == page else 0) for size in CGROUP_SIZE}
            for size, v in given.items():
                (group / f"hugetlb.{CGROUP_SIZE[size]}.max").write_text(str(v))
            argv = _on_mount(args, mnt)
            shown = ", ".join(
                f"hugetlb.{CGROUP_SIZE[z]}.max = {v} ({k8s.quantity(v) if v else 0})" for z, v in given.items()
            )
            r = run([*argv[:1], DEBUG, *argv[1:]], shown, group)
            r.events_max = _events_max(group, CGROUP_SIZE[page]) + _events_max(
                group, CGROUP_SIZE[PAGE if page == GIB else GIB]
            )
            out.append(r)
    return out


def _check_sizes(name: str, runs: list[Run]) -> None:
    at, below = runs
    assert at.started and at.forwarded, f"{name}: its limits do not start it:\n{at.output[-2000:]}"
    assert at.events_max == 0, f"{name}: the cgroup refused a page at the limits"
    assert not below.started, f"{name}: one page below it still starts"
    assert "EAL: Cannot init memory" in below.output, below.output[-2000:]
    assert below.events_max and below.events_max > 0, "the cgroup refused no page: not its limit that stopped it"


NEEDS_1G = pytest.mark.skipif(
    not HUGETLB_1G.is_dir() or os.geteuid() != 0, reason="no 1 GiB hugepages on this kernel, or not root"
)


@NEEDS
@NEEDS_1G
@pytest.mark.skipif(_cgroup2_root() is None, reason="this kernel has no cgroup v2 hugetlb controller")
@pytest.mark.parametrize("name", ["fwd", "mon"])
def test_a_pod_of_two_page_sizes_keeps_each_container_inside_both_limits(pages, name):
    """fwd: testpmd on one 1 GiB page (hugetlb.1GB.max = 1Gi, 2MB.max = 0); mon: testpmd on 2 MiB pages
    (2MB.max = its limit, 1GB.max = 0); each with --huge-dir on its volume's hugetlbfs, as mpcalc writes."""
    with one_gib_page() as got:
        if not got:
            pytest.skip("the kernel gives no 1 GiB page (echo to hugepages-1048576kB/nr_hugepages)")
        _check_sizes(name, sizes_runs(name))


def record_sizes() -> None:
    """Rerun the pod of two page sizes into tests/conformance/k8s/two-sizes-cgroup.txt."""
    manifest = sizes_manifest()
    lines = [f"$ mpcalc plan --format k8s {SIZES_PLAN.relative_to(HERE.parents[1])}"]
    with hugepages(max(lim.get(PAGE, 0) for _, lim in manifest.values()) // PAGE + 1), one_gib_page() as got:
        assert got, "no 1 GiB page"
        for name, (args, _) in manifest.items():
            lines.append(f"# container {name} args: {' '.join(args)}")
            runs = sizes_runs(name)
            lines += [r.record().replace("hugetlb.2MB.events max", "hugetlb events max (both sizes)") for r in runs]
            _check_sizes(name, runs)
    (RECORDS / "two-sizes-cgroup.txt").write_text("\n".join(lines))


#: a 2 MiB pod whose --socket-mem is over 1 GiB, on a node that also has a free 1 GiB page
BIG = [*TESTPMD[:-1], "--total-num-mbufs=460000"]
NODE = "2M:1000 1G:1"


def app_manifest(argv: list[str], *options: str) -> tuple[list[str], int]:
    """The container's args and hugepages-2Mi limit (bytes) of ``mpcalc app OPTIONS -- ARGV``."""
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["app", "--json", *options, "--", *argv]) == 0
    (block,) = k8s.of(json.loads(out.getvalue()))
    (container,) = block["pod"]["spec"]["containers"]
    return list(container["args"]), int(container["resources"]["limits"]["hugepages-2Mi"][:-2]) << 20


def node_sizes_runs() -> list[Run]:
    """BIG under its limit (hugetlb.2MB.max = the limit, 1GB.max = 0) with the args mpcalc writes without the
    node's sizes (--in-memory) and with them (--huge-dir on its 2 MiB volume), one 1 GiB page free."""
    in_memory, limit = app_manifest(BIG)
    huge_dir, same = app_manifest(BIG, "--node-hugepages", NODE)
    assert same == limit and "--in-memory" in in_memory and "--huge-dir" in huge_dir
    out = []
    for args in (in_memory, huge_dir):
        with hugetlb_cgroup() as group, size_mount(PAGE) as mnt:
            (group / "hugetlb.2MB.max").write_text(str(limit))
            (group / "hugetlb.1GB.max").write_text("0")
            argv = _on_mount(args, mnt) if "--huge-dir" in args else args
            shown = f"hugetlb.2MB.max = {limit} ({k8s.quantity(limit)}), hugetlb.1GB.max = 0 (0)"
            r = run([*argv[:1], DEBUG, *argv[1:]], shown, group, timeout=180)
            r.events_max = _events_max(group, "1GB")
            out.append(r)
    return out


def _check_node_sizes(runs: list[Run]) -> None:
    in_memory, huge_dir = runs
    assert not in_memory.started, "--in-memory started: EAL took no 1 GiB page"
    assert "EAL: SIGBUS: Cannot mmap more hugepages of size 1024MB" in in_memory.output, in_memory.output[-2000:]
    assert in_memory.events_max and in_memory.events_max > 0
    assert huge_dir.started and huge_dir.forwarded, huge_dir.output[-2000:]
    assert huge_dir.events_max == 0


@NEEDS
@NEEDS_1G
@pytest.mark.skipif(_cgroup2_root() is None, reason="this kernel has no cgroup v2 hugetlb controller")
def test_on_a_node_with_1g_pages_a_2m_pod_runs_on_its_volume_and_in_memory_does_not():
    """A 2 MiB pod of --socket-mem 1056 on a node with a free 1 GiB page: --in-memory (mpcalc's args when it is
    not told of the node's 1 GiB pages) preallocates the 1 GiB page first and gets SIGBUS (hugetlb.1GB.max 0);
    --huge-dir on its own volume (told: --node-hugepages 2M:1000 1G:1) starts and forwards."""
    _, limit = app_manifest(BIG)
    with hugepages(limit // PAGE + 1) as (_, free), one_gib_page() as got:
        if not got or free <= limit // PAGE:
            pytest.skip("the kernel gives no 1 GiB page, or too few 2 MiB ones")
        _check_node_sizes(node_sizes_runs())


def record_node_sizes() -> None:
    """Rerun the node of two sizes into tests/conformance/k8s/node-sizes-cgroup.txt."""
    _, limit = app_manifest(BIG)
    lines = [f"$ mpcalc app --format k8s [--node-hugepages {NODE}] -- {' '.join(BIG)}"]
    with hugepages(limit // PAGE + 1), one_gib_page() as got:
        assert got, "no 1 GiB page"
        runs = node_sizes_runs()
        lines += [r.record().replace("hugetlb.2MB.events max", "hugetlb.1GB.events max") for r in runs]
        _check_node_sizes(runs)
    (RECORDS / "node-sizes-cgroup.txt").write_text("\n".join(lines))


if __name__ == "__main__":
    import sys

    if sys.argv[1:] == ["sizes"]:
        record_sizes()
        record_node_sizes()
    else:
        record()
        record_ovs()
