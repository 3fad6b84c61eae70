"""The hugepage advice of an SPDK target in SPDK's own terms: the ``-s`` to pass, ``HUGEMEM``/``NRHUGE``/``HUGENODE``
for ``scripts/setup.sh``, and the Kubernetes container's arguments.

SPDK takes no ``--socket-mem``: its ``-s MB`` becomes EAL's ``-m MB`` (v24.09:lib/env_dpdk/init.c:298-303), which
preallocates that memory at start-up as ``--socket-mem`` does (one node: all on node 0).  ``scripts/setup.sh``
reserves ``NRHUGE`` pages (``HUGEMEM`` MB rounded up to pages when NRHUGE is not given) *on every NUMA node*
unless ``HUGENODE`` names the nodes (``nodes_hp[0]=N``, v24.09:scripts/setup.sh:51-60, 518-560, 858-873).

The pages are the plan's page model's (:mod:`mpcalc.service.plan`), on the heap plus the most the alignment of SPDK's
aligned buffers can leave free below them (the model's ``alignment_slack_bytes``).  Proven on SPDK v24.09's
spdk_tgt (tests/conformance/spdk/bisect.txt): ``-s 848`` (424 pages) is the smallest that starts it on 2 MiB
pages, 430 pages without ``-s`` (the heap then grows by allocation, ``--match-allocations``), and
``--no-huge -s 934`` under 4 KiB pages; on v26.05 (tests/conformance/spdk/v26.05/bisect.txt) 405 pages with ``-s``,
409 without and ``--no-huge -s 886``.

Pure: no click, no rich.
"""

from __future__ import annotations

from typing import Any

MIB = 1 << 20


def in_spdk_terms(out: dict[str, Any], huge: list[str]) -> dict[str, Any]:
    """``out`` (appadvice's advice for the command line ``huge``, on hugepages) in SPDK's terms."""
    settings = dict(out.get("settings") or {})
    page = int(out["page_size"])
    pages = sum(int(s.get("pages") or 0) for s in out.get("sockets") or ())
    if settings and pages:
        mb = -(-pages * page // MIB)
        run_as = [*huge, "-s", str(mb)]
        settings["eal_args"] = f"-s {mb}"
        spdk = {
            "mem_size_mb": mb,
            "args": ["-s", str(mb)],
            "setup_sh": {
                "HUGEMEM": mb,
                "NRHUGE": pages,
                "HUGENODE": f"nodes_hp[0]={pages}",
                "command": f"HUGENODE='nodes_hp[0]={pages}' NRHUGE={pages} scripts/setup.sh",
            },
            "notes": [
                f"-s {mb} becomes EAL's -m {mb}: SPDK preallocates it at start-up (build_eal_cmdline, "
                "v24.09:lib/env_dpdk/init.c:298-303); without -s the heap grows by each allocation "
                "(--match-allocations) and needs a few pages more (measured on SPDK v24.09: 430 pages for spdk_tgt's "
                "defaults against 424 with -s 848; on v26.05 409 against 405)",
                "scripts/setup.sh puts NRHUGE (or HUGEMEM / page size) pages on every NUMA node unless HUGENODE "
                "names them (v24.09:scripts/setup.sh:518-560): HUGENODE keeps the other nodes' pages free",
            ],
        }
        assumes = [str(x) for x in settings.get("assumes") or []]
        settings["assumes"] = [
            f"SPDK is started with -s {mb}: EAL preallocates those pages as one heap region (as with --socket-mem, "
            "which SPDK does not take); without -s the heap grows on demand and needs a few pages more",
            *assumes[1:],
            "SPDK's aligned buffers (the 1 MiB zero buffers, iobuf's 4 KiB-aligned pools, a malloc bdev's 2 MiB "
            "alignment) may leave up to their alignment free below them: the pages hold that worst case",
        ]
        k8s = settings.get("kubernetes")
        if isinstance(k8s, dict):
            k8s = dict(k8s)
            k8s["containers"] = [{**c, "eal_args": ["-s", str(mb)]} for c in k8s.get("containers") or ()]
            pod = k8s.get("pod")
            if isinstance(pod, dict):
                spec = dict(pod.get("spec") or {})
                spec["containers"] = [{**c, "args": run_as} for c in spec.get("containers") or ()]
                k8s["pod"] = {**pod, "spec": spec}
            settings["kubernetes"] = k8s
        out = {**out, "settings": settings, "run_as": run_as, "spdk": spdk}
    nh = out.get("no_huge")
    if isinstance(nh, dict):
        mb = int(nh["memory_mb"])
        out = {
            **out,
            "no_huge": {
                **nh,
                "eal_args": f"--no-huge -s {mb}",
                "spdk_args": ["--no-huge", "-s", str(mb)],
                "note": str(nh["note"]).replace("the memory is -m", "the memory is -s").replace("needs -m", "needs -s")
                + "; SPDK's aligned buffers' worst-case gaps included (measured: spdk_tgt's defaults start with "
                "-s 934 and not 933 on SPDK v24.09, -s 886 and not 885 on v26.05)",
            },
        }
    return out
