"""Whole DPDK applications sized from their own command line: ``mpcalc app -- dpdk-testpmd -l 0-1 ...``.

The program is recognised by its name (:data:`PROGRAMS`: ``dpdk-testpmd``/``testpmd``,
``dpdk-l3fwd``/``l3fwd``, SPDK's ``spdk_tgt`` and ``nvmf_tgt``); EAL's part of the command line is parsed as
EAL parses it (:mod:`.eal`), the ports on it as ethdev and their drivers make them (:mod:`.ethdev`), and the
application's part with the application's own option meanings and defaults (one module per application:
:mod:`.testpmd`, :mod:`.l3fwd`).  Adding an application (OVS, VPP, pktgen) is one module with
``build(eal_args, app_argv, platform) -> (Parts, pools, details, notes)`` and one line in
:data:`PROGRAMS`.  An application that builds EAL's command line from its own options (SPDK, :mod:`.spdk`)
adds ``eal_command_line(argv) -> (eal_argv, app_argv)`` and ``on_hugepages(argv)`` (:func:`eal_of`,
:func:`hugepage_command`).  An application whose memory is not an EAL command line (FD.io VPP: its
startup.conf, :mod:`.vpp`) has a module with ``size(argv, platform, cpus, release)`` of its own instead, listed
in :data:`OWN_SIZERS`.

The result lists every memzone in the order the application reserves it, every other allocation, the
totals and the pages of the heap; ``details.sockets`` gives the heap bytes per NUMA socket that the
hugepage advice (mpcalc.service.plan) turns into ``--socket-mem`` and ``nr_hugepages``.

Pure: stdlib only.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Mapping
from typing import Any

from mpcalc.dpdk.apps.eal import EalArgs, check_cpus, check_eal, eal_parts, on_hugepages, parse_eal, platform_for
from mpcalc.dpdk.apps.names import real_names
from mpcalc.dpdk.apps.spdk.profile import DEFAULT_RELEASE as SPDK_DEFAULT_RELEASE
from mpcalc.dpdk.apps.spdk.profile import RELEASES as SPDK_RELEASES
from mpcalc.dpdk.apps.testpmd import ANON_ROLE
from mpcalc.dpdk.apps.vpp.profiles import PROFILES as VPP_PROFILES
from mpcalc.dpdk.core.declare import ObjectDecl, Param, Resolved
from mpcalc.dpdk.core.errors import InputError
from mpcalc.dpdk.core.heap import hugepages
from mpcalc.dpdk.core.machine import CPUS, parse_cpus
from mpcalc.dpdk.core.platform import Platform
from mpcalc.dpdk.core.records import Result
from mpcalc.dpdk.core.standalone import Parts, finish
from mpcalc.dpdk.core.struct_sizes import sizes
from mpcalc.dpdk.drivers.naming import DEVBIND, NIC, bindings_of, read_devbind

#: program name -> the module under mpcalc.dpdk.apps that sizes it
PROGRAMS: dict[str, str] = {
    "dpdk-testpmd": "testpmd",
    "testpmd": "testpmd",
    "dpdk-l3fwd": "l3fwd",
    "l3fwd": "l3fwd",
    "spdk_tgt": "spdk",
    "nvmf_tgt": "spdk",
    "vpp": "vpp",
}

#: the applications whose module sizes the whole command line itself (no EAL command line of their own)
OWN_SIZERS = frozenset({"vpp"})

#: the VPP releases profiled, newest last
VPP_RELEASES = tuple(VPP_PROFILES)


def program_of(argv: list[str]) -> str:
    """The application module for a command line's program (its base name: ``/usr/bin/dpdk-testpmd``)."""
    if not argv:
        raise InputError(
            "give the application's command line after --: mpcalc app -- dpdk-testpmd -l 0-1 ...", param="command_line"
        )
    base = os.path.basename(argv[0])
    if base not in PROGRAMS:
        raise InputError(
            f"{base!r} is not an application mpcalc knows (known: {', '.join(PROGRAMS)})", param="command_line"
        )
    return PROGRAMS[base]


def eal_of(argv: list[str], release: str | None = None, app_release: str | None = None) -> tuple[EalArgs, list[str]]:
    """EAL's options of an application's command line and the application's own arguments: read off the
    command line itself (testpmd, l3fwd: EAL's options, then ``--``), or off the EAL command line the
    application builds from its own options (SPDK: its module's ``eal_command_line``, of the application's
    release ``app_release``)."""
    module = importlib.import_module(f"{__package__}.{program_of(argv)}")
    translate = getattr(module, "eal_command_line", None)
    if translate is None:
        return parse_eal(argv, release)
    eal_argv, app_argv = translate(list(argv), app_release)
    e, _ = parse_eal(eal_argv, release)
    return e, app_argv


def hugepage_command(argv: list[str]) -> list[str]:
    """The command line on hugepages, what the advice sizes: without the options that choose 4 KiB pages or a
    memory amount, EAL's (:func:`mpcalc.dpdk.apps.eal.on_hugepages`) or the application's own (SPDK's
    ``--no-huge`` and ``-s``: its module's ``on_hugepages``)."""
    module = importlib.import_module(f"{__package__}.{program_of(argv)}")
    own = getattr(module, "on_hugepages", None)
    return own(list(argv)) if own is not None else on_hugepages(argv)


def size(
    argv: list[str],
    p: Platform,
    cpus: tuple[int, ...] | None = None,
    nics: list[str] | tuple[str, ...] | None = None,
    devbind: str | None = None,
    vpp_release: str | None = None,
    spdk_release: str | None = None,
) -> Result:
    """Every memzone and allocation of the application's start-up, and their totals; with ``cpus``, the
    target machine's CPUs, the lcores checked against them; ``vpp_release``: the VPP profile (the newest by
    default); ``spdk_release``: the SPDK release of spdk_tgt/nvmf_tgt (v24.09 by default)."""
    program = program_of(argv)
    module = importlib.import_module(f"{__package__}.{program}")
    if program in OWN_SIZERS:
        return module.size(argv, p, cpus, release=vpp_release, nics=nics, devbind=devbind)  # type: ignore[no-any-return]
    app_release = spdk_release if program == "spdk" else None
    e, app_argv = eal_of(argv, p.release.version, app_release)
    # the target machine's NICs: which driver takes each PCI address (--nic, --devbind: drivers.naming)
    e.pci_bindings, e.devbind = bindings_of(nics, devbind), devbind
    notes = check_eal(e)
    notes += check_cpus(e, cpus)
    where = platform_for(e, p)
    sizes(where)  # the struct sizes are known for the releases and architectures measured: refuse the others
    parts = Parts()
    parts.allocations += eal_parts(where)
    build_args = (e, app_argv, where) if app_release is None else (e, app_argv, where, app_release)
    app_parts, pools, details, app_notes = module.build(*build_args)
    parts.extend(app_parts)
    parts.mempools += pools
    parts.allocations = real_names(parts.allocations)  # DPDK's own type strings (names.py)
    memzones = [z for mp in parts.mempools for z in mp.memzones] + parts.zones
    result = finish("app", 0, where, parts)
    heap = result.heap_bytes  # an --mp-alloc=xmem pool's memzones are on the external heap: not counted
    details = {
        "program": os.path.basename(argv[0]),
        "application": program_of(argv),
        "command_line": list(argv),
        "eal": e.to_dict(),
        **details,
        "page_size": where.page_size,
        "memzone_count": len(memzones),
        # heap elements only: --mp-alloc=anon's objects are an mmap of their own (listed, not on the heap)
        "allocation_count": len(parts.allocations)
        + sum(1 for mp in parts.mempools for a in mp.allocations if a.role != ANON_ROLE),
        "sockets": [{"socket": 0, "heap_bytes": heap}],
        "notes": notes + app_notes,
    }
    return result._replace(details=details, heap_bytes=heap, hugepages=hugepages(heap, where))


def _resolve(args: Mapping[str, Any]) -> Resolved:
    argv = list(args.get("command_line") or ())
    program_of(argv)
    cpus, nics, devbind = args.get("cpus"), args.get("nic"), args.get("devbind")
    inputs = {
        "command_line": argv,
        "cpus": cpus,
        "nic": list(nics) if nics else None,
        "devbind": devbind,
        "vpp_release": args.get("vpp_release"),
        "spdk_release": args.get("spdk_release"),
    }
    extra = {
        "cpus": parse_cpus(cpus) if cpus is not None else None,
        "nic": list(nics or ()),
        "devbind": read_devbind(devbind),
    }
    return Resolved(inputs, extra)


def _build(inputs: Mapping[str, Any], extra: Mapping[str, Any], flags: int, p: Platform) -> Result:
    return size(
        list(inputs["command_line"]),
        p,
        extra.get("cpus"),
        extra.get("nic"),
        extra.get("devbind"),
        inputs.get("vpp_release"),
        inputs.get("spdk_release"),
    )


APP = ObjectDecl(
    name="app",
    summary="A whole DPDK application from its own command line (after --): every memzone of its start-up and "
    "the hugepages it needs (dpdk-testpmd, dpdk-l3fwd, SPDK's spdk_tgt and nvmf_tgt; vpp from its startup.conf).",
    params=(
        Param(
            "command_line",
            "argv",
            "The application's command line, exactly as run: the program, EAL's options, "
            "--, the application's options (SPDK's targets: their own options, --json CONFIG included).",
            default=None,
            required=True,
            metavar="-- COMMAND LINE",
        ),
        CPUS,
        NIC,
        DEVBIND,
        Param(
            "vpp_release",
            "choice",
            "The FD.io VPP release whose profile reads a vpp command line (its startup.conf keys and facts).",
            default=VPP_RELEASES[-1],
            choices=VPP_RELEASES,
            show_default=True,
        ),
        Param(
            "spdk_release",
            "choice",
            "The SPDK release of an spdk_tgt/nvmf_tgt command line (its measured profile: pools, sizes, EAL "
            "command line, checks); a release not measured is refused with what its source says differs.",
            default=SPDK_DEFAULT_RELEASE,
            choices=SPDK_RELEASES,
            show_default=True,
        ),
    ),
    build=_build,
    resolve=_resolve,
    zone_prefix="app:",
    own_zones=True,
)
