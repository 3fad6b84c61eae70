"""Kubernetes: a pod's hugepage resources, volumes and EAL options, and the node's pages per NUMA node, from
the page model's pages per socket (mpcalc.service.plan.socket_plans).  The one place ``plan``, ``app``, ``ovs``
and ``trace`` get their ``kubernetes`` block from (JSON), which ``--format k8s`` writes as YAML
(mpcalc.render.yaml_k8s).  Pure: no click, no rich.

Kubernetes' rules for hugepages (kubernetes.io/docs/tasks/manage-hugepages/scheduling-hugepages/, and the API
server's validation of a container's resources):

* ``hugepages-<size>`` is a container's resource; its request must equal its limit (no overcommit);
* the limit is the container's own (its hugetlb cgroup): the containers of a pod do not share it;
* a container that asks for hugepages must also ask for ``cpu`` or ``memory``;
* the volume is an ``emptyDir`` of ``medium: HugePages`` when the pod uses one page size, and of
  ``medium: HugePages-<size>`` (one volume a size) when it uses several.

A 1 GiB page cannot be split across NUMA nodes: each node's pages are rounded up on that node (the page
model's pages per socket are), then summed for the container.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from mpcalc.dpdk.apps.eal import has_option
from mpcalc.dpdk.core.errors import InputError
from mpcalc.dpdk.core.intmath import ceil_div
from mpcalc.dpdk.core.units import page_label

#: the commands whose answer is a whole application: the ones ``--format k8s`` writes
COMMANDS = ("plan", "app", "ovs", "trace")
#: the container of a plan that names none, and of ``app``, ``ovs`` and ``trace``
DEFAULT_CONTAINER = "dpdk"
#: the capability DPDK needs to lock its hugepages (mlock of the memory it maps: the container's default set
#: has no IPC_LOCK)
CAPABILITIES = ("IPC_LOCK",)
#: where the hugepage volume is mounted (EAL's default search: /proc/mounts' hugetlbfs of the page size)
MOUNT_PATH = "/dev/hugepages"
#: a container's and a pod's name: a DNS-1123 label
_LABEL = re.compile(r"^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$")

#: what every kubernetes block warns
WARN_PER_CONTAINER = (
    "the hugepage limit is per container: each container's DPDK process needs its own pages (a sidecar's are "
    "not the main container's), and the pod's total is their sum"
)
WARN_SIGBUS = (
    "a container that touches more hugepages than its limit gets SIGBUS on the first touch of the page over "
    "the limit, not ENOMEM from mmap (ENOMEM only where the runtime also sets the reserved limit, "
    "hugetlb.<size>.rsvd.max, or from a hugetlbfs mount's size=); EAL survives that SIGBUS while it maps its "
    "own pages ('SIGBUS: Cannot mmap more hugepages of size 2MB', or 1024MB, in its debug log) and fails to start "
    "('EAL: Cannot init memory'); any other code that maps hugepages dies of it. The EAL options here "
    "(--socket-limit equal to the limit) keep EAL from asking for more"
)
NOTE_MEMORY = (
    "memory: mpcalc knows no ordinary (non-hugepage) memory of this application (its binary and libraries, "
    "EAL's fbarrays and memory config, thread stacks, malloc): Kubernetes requires a cpu or memory request "
    "beside hugepages; set memory from the process's measured resident size"
)
NOTE_PREFIX = (
    "--in-memory: no hugepage files, no secondary process; a primary with secondaries in the same pod shares "
    "the hugepage volume instead: --file-prefix NAME --huge-dir " + MOUNT_PATH + " in each of them"
)

NOTE_SIZES = (
    "several page sizes (the pod's, or the node's --node-hugepages): each container's EAL is given its own "
    "volume's hugetlbfs (--huge-dir, the only page size it then finds) and a --file-prefix, not --in-memory, "
    "which would let EAL map the node's other page sizes anonymously, outside the container's limits (a SIGBUS); "
    "its hugepage files are in that volume"
)


def not_for(command: str) -> InputError:
    """The error of ``--format k8s`` on a command that is not a whole application's."""
    return InputError(
        f"--format k8s is for a whole application's answer ({', '.join(COMMANDS)}), not {command}", param="--format"
    )


def unit(page_size: int) -> str:
    """A page size as Kubernetes names it.

    >>> unit(2 << 20), unit(1 << 30), unit(64 << 10)
    ('2Mi', '1Gi', '64Ki')
    """
    return page_label(page_size).replace("K", "Ki").replace("M", "Mi").replace("G", "Gi")


def quantity(n: int) -> str:
    """Bytes as an exact Kubernetes quantity, in the largest binary unit that divides them.

    >>> quantity(32 << 20), quantity(4 << 30), quantity(1536 << 10), quantity(1000)
    ('32Mi', '4Gi', '1536Ki', '1000')
    """
    for suffix, size in (("Gi", 1 << 30), ("Mi", 1 << 20), ("Ki", 1 << 10)):
        if n and n % size == 0:
            return f"{n // size}{suffix}"
    return str(n)


def medium(page_size: int, sizes: Sequence[int]) -> str:
    """The emptyDir medium of ``page_size``'s volume in a pod that uses ``sizes``.

    >>> medium(2 << 20, [2 << 20]), medium(2 << 20, [2 << 20, 1 << 30])
    ('HugePages', 'HugePages-2Mi')
    """
    return "HugePages" if len(set(sizes)) == 1 else f"HugePages-{unit(page_size)}"


def label(text: str, what: str) -> str:
    """``text`` as a DNS-1123 label (a container's or pod's name), or an error naming it."""
    if not _LABEL.match(text):
        raise InputError(
            f"{what} {text!r} is not a Kubernetes name (lower-case letters, digits and '-', at most 63)",
            param=what,
        )
    return text


def pod_name(text: str) -> str:
    """A pod's name made from a program's or a file's name: ``dpdk-l3fwd``, ``l3fwd-router``."""
    name = re.sub(r"[^a-z0-9-]+", "-", text.lower()).strip("-")[:63].strip("-")
    return name or DEFAULT_CONTAINER


@dataclass(frozen=True)
class Need:
    """One container: the pages its DPDK process needs on each NUMA node, of one page size."""

    container: str
    page_size: int
    #: (NUMA node, pages), each node's pages rounded up on that node
    pages: tuple[tuple[int, int], ...]
    #: ordinary memory mpcalc knows the container holds outside hugepages (bytes), and what it is
    memory: int = 0
    memory_what: tuple[str, ...] = ()
    #: the command that runs it, when mpcalc knows it (with the EAL options added), else none
    command: tuple[str, ...] = ()
    #: how the EAL options are given when not on a command line (OVS: other_config)
    configure: tuple[str, ...] = ()

    @property
    def total(self) -> int:
        return sum(n for _, n in self.pages) * self.page_size


def nr_hugepages(node: int, page_size: int, count: int) -> str:
    """The write that gives NUMA node ``node`` ``count`` pages of ``page_size``.

    >>> nr_hugepages(1, 1 << 30, 2)
    'echo 2 > /sys/devices/system/node/node1/hugepages/hugepages-1048576kB/nr_hugepages'
    """
    return f"echo {count} > /sys/devices/system/node/node{node}/hugepages/hugepages-{page_size >> 10}kB/nr_hugepages"


def per_node_mb(pages: Sequence[tuple[int, int]], page_size: int) -> str:
    """``--socket-mem``'s value: MiB per NUMA node from 0 to the last one used.

    >>> per_node_mb([(0, 16), (1, 3)], 2 << 20), per_node_mb([(1, 2)], 1 << 30)
    ('32,6', '0,2048')
    """
    by = dict(pages)
    return ",".join(str(by.get(i, 0) * page_size >> 20) for i in range(max(by, default=0) + 1))


def eal_options(
    pages: Sequence[tuple[int, int]],
    page_size: int,
    release: str,
    others: Sequence[int] = (),
    container: str = DEFAULT_CONTAINER,
    mount: str | None = None,
) -> list[str]:
    """The EAL options that keep DPDK of ``release`` inside the limit: no hugepage files (``--in-memory``),
    each node's pages preallocated and no more allowed (``--socket-mem``/``--socket-limit``, named
    ``--numa-mem``/``--numa-limit`` from 25.11, the old names kept as aliases:
    v25.11:lib/eal/common/eal_option_list.h:85-88), and the page size's total (``--pagesz-mem
    <pagesz>:<limit>``, where the release has it: v26.07:lib/eal/common/eal_common_options.c:1902-1988).

    In a pod or on a node of several page sizes (``others``: the other sizes, which this container has no limit
    of; ``mount``: where its own size's volume is)
    ``--in-memory`` would let EAL map any page size the node has, anonymously, with or without a hugetlbfs of
    it (v22.11:lib/eal/linux/eal_hugepage_info.c:508-535), and its preallocation takes the largest page size
    first (v22.11:lib/eal/common/eal_common_dynmem.c:455-500, the sizes sorted by eal_hugepage_info.c:578):
    a 1 GiB page in a container without ``hugepages-1Gi`` is a SIGBUS.  Its own volume's hugetlbfs
    (``--huge-dir``, every release) is the only page size EAL then finds (eal_hugepage_info.c:195-295: a mount
    that is not --huge-dir is not used), with a ``--file-prefix`` for its files; ``--pagesz-mem <size>:0`` for
    each other size where the release has it.

    >>> eal_options([(0, 2)], 1 << 30, "22.11", others=[2 << 20], container="fwd")
    ['--file-prefix', 'fwd', '--huge-dir', '/dev/hugepages-1Gi', '--socket-mem', '2048', '--socket-limit', '2048']
    >>> eal_options([(0, 2)], 1 << 30, "26.07", others=[2 << 20], container="fwd")[-4:]
    ['--pagesz-mem', '1G:2048M', '--pagesz-mem', '2M:0']
    """
    mb = per_node_mb(pages, page_size)
    new = has_option("numa-mem", release)
    sizes = [page_size, *others]
    where = (
        ["--in-memory"] if not others else ["--file-prefix", container, "--huge-dir", mount or _mount(page_size, sizes)]
    )
    out = [*where, "--numa-mem" if new else "--socket-mem", mb, "--numa-limit" if new else "--socket-limit", mb]
    if has_option("pagesz-mem", release):
        total = sum(n for _, n in pages) * page_size
        out += ["--pagesz-mem", f"{page_label(page_size)}:{total >> 20}M"]
        out += [a for z in sorted(set(others) - {page_size}) for a in ("--pagesz-mem", f"{page_label(z)}:0")]
    return out


def _eal_of(need: Need, release: str, sizes: Sequence[int], node_sizes: Sequence[int] = ()) -> list[str]:
    """A container's EAL options in a pod of ``sizes`` on a node that has pages of ``node_sizes`` (OVS, which
    adds --in-memory itself, is configured on its pod's sizes only)."""
    others = sorted({*sizes, *(() if need.configure else node_sizes)} - {need.page_size})
    return eal_options(need.pages, need.page_size, release, others, need.container, _mount(need.page_size, sizes))


def _container(need: Need, release: str, sizes: Sequence[int], node_sizes: Sequence[int]) -> dict[str, object]:
    hp = {f"hugepages-{unit(need.page_size)}": quantity(need.total)}
    if need.memory:
        hp["memory"] = quantity(ceil_div(need.memory, 1 << 20) << 20)
    eal = _eal_of(need, release, sizes, node_sizes)
    command = list(need.command)
    own = command[: command.index("--") if "--" in command else None]
    if "--in-memory" in own:
        if "--in-memory" in eal:
            eal.remove("--in-memory")
        else:  # several page sizes: --in-memory would let EAL map the sizes the container has no limit of
            command.remove("--in-memory")
    spec: dict[str, object] = {"name": need.container}
    if command:
        spec["args"] = [*command[:1], *eal, *command[1:]]
    spec["resources"] = {"requests": dict(hp), "limits": dict(hp)}
    spec["securityContext"] = {"capabilities": {"add": list(CAPABILITIES)}}
    spec["volumeMounts"] = [{"name": _volume(need.page_size), "mountPath": _mount(need.page_size, sizes)}]
    return spec


def _volume(page_size: int) -> str:
    return f"hugepages-{unit(page_size).lower()}"


def _mount(page_size: int, sizes: Sequence[int]) -> str:
    return MOUNT_PATH if len(set(sizes)) == 1 else f"{MOUNT_PATH}-{unit(page_size)}"


def kubernetes(
    needs: Sequence[Need], release: str, pod: str, capacity: Mapping[int, Sequence[int]] | None = None
) -> dict[str, object]:
    """The ``kubernetes`` block: each container's resources, EAL options and mount, the pod and its volumes,
    the node's pages per NUMA node and size (kernel command line, sysfs, an OpenShift PerformanceProfile),
    and the warnings."""
    sizes = sorted({n.page_size for n in needs})
    node_sizes = sorted(z for z, counts in (capacity or {}).items() if any(counts))
    containers = [_container(n, release, sizes, node_sizes) for n in needs]
    names = [n.container for n in needs]
    dup = next((c for c in names if names.count(c) > 1), None)
    if dup is not None:
        raise InputError(f"two containers are named {dup!r}", param="container")
    node: dict[tuple[int, int], int] = {}  # (page size, NUMA node) -> pages, every container's
    for n in needs:
        for socket, count in n.pages:
            node[(n.page_size, socket)] = node.get((n.page_size, socket), 0) + count
    warnings = [WARN_PER_CONTAINER, WARN_SIGBUS]
    if capacity is not None:
        for (size, socket), count in sorted(node.items()):
            counts = capacity.get(size, ())
            held = counts[socket] if socket < len(counts) else 0
            if count > held:
                warnings.append(
                    f"NUMA node {socket} needs {count:,} pages of {page_label(size)}, the node holds {held:,}: "
                    "the pod cannot be scheduled there (DPDK's memory on that node is not movable to another)"
                )
    notes: list[str] = []
    for n in needs:
        if n.memory:
            notes.append(
                f"{n.container}: memory {quantity(ceil_div(n.memory, 1 << 20) << 20)} is what mpcalc knows outside "
                f"hugepages ({'; '.join(n.memory_what)}), rounded up to MiB; the process's other ordinary memory "
                "comes on top"
            )
        else:
            notes.append(f"{n.container}: {NOTE_MEMORY}")
        if not n.command and not n.configure:
            notes.append(
                f"{n.container}: add the EAL options to the application's command line: "
                + " ".join(_eal_of(n, release, sizes, node_sizes))
            )
        notes += [f"{n.container}: {c}" for c in n.configure]
    several = any("--huge-dir" in _eal_of(n, release, sizes, node_sizes) for n in needs)
    notes.append(NOTE_SIZES if several else NOTE_PREFIX)
    nodes = max((socket for _, socket in node), default=0) + 1
    most = {size: max((c for (z, _), c in node.items() if z == size), default=0) for size in sizes}
    cmdline = [f"hugepagesz={page_label(size)} hugepages={most[size] * nodes}" for size in sizes]
    pages = [
        {"node": socket, "size": page_label(size), "page_size": size, "count": count}
        for (size, socket), count in sorted(node.items())
    ]
    return {
        "page_sizes": sizes,
        "containers": [
            {
                "name": n.container,
                "page_size": n.page_size,
                "pages": [{"node": s, "count": c} for s, c in n.pages],
                "memory_bytes": n.memory,
                "eal_args": _eal_of(n, release, sizes, node_sizes),
                "resources": c["resources"],
            }
            for n, c in zip(needs, containers, strict=True)
        ],
        "pod": {
            "apiVersion": "v1",
            "kind": "Pod",
            "metadata": {"name": label(pod, "pod")},
            "spec": {
                "containers": containers,
                "volumes": [{"name": _volume(s), "emptyDir": {"medium": medium(s, sizes)}} for s in sizes],
            },
        },
        "node": {
            "pages": pages,
            "kernel_cmdline": " ".join(cmdline),
            "kernel_cmdline_note": (
                f"the kernel spreads boot-time pages evenly over the NUMA nodes: this is the most any node needs "
                f"times {nodes} node(s); the sysfs writes set each node exactly"
            ),
            "nr_hugepages": [nr_hugepages(socket, size, count) for (size, socket), count in sorted(node.items())],
            "capacity": (
                [
                    {"size": page_label(size), "page_size": size, "pages": list(counts)}
                    for size, counts in sorted(capacity.items())
                ]
                if capacity is not None
                else None
            ),
        },
        "performance_profile": {
            "apiVersion": "performance.openshift.io/v2",
            "kind": "PerformanceProfile",
            "metadata": {"name": label(pod, "pod")},
            "spec": {
                "hugepages": {
                    "defaultHugepagesSize": page_label(sizes[0]),
                    "pages": [
                        {"size": page_label(size), "count": count, "node": socket}
                        for (size, socket), count in sorted(node.items())
                    ],
                }
            },
        },
        "warnings": warnings,
        "notes": notes,
    }


def of(doc: Mapping[str, object]) -> list[dict[str, object]]:
    """The kubernetes blocks of a printed document (a plan's settings, an app's, an ovs' or a trace's
    advice), one a result; none when the command is not a whole application's."""
    if doc.get("command") == "plan":
        settings = doc.get("settings") or {}
        return [settings["kubernetes"]] if "kubernetes" in settings else []  # type: ignore[operator,index]
    out = []
    for r in doc.get("results", []):  # type: ignore[attr-defined]
        advice = r.get("details", {}).get("advice") or {}
        block = advice.get("kubernetes") or (advice.get("settings") or {}).get("kubernetes")
        if block:
            out.append(block)
    return out
