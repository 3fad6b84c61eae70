"""An SPDK application's own command line (``spdk_app_parse_args``) and the EAL command line SPDK builds from it.

``spdk_app_parse_args`` (v24.09:lib/event/app.c:1200-1470) reads ``SPDK_APP_GETOPT_STRING``
(``c:de:ghi:m:n:p:r:s:uvA:B:L:RW:``, v24.09:include/spdk/event.h:294) and the long options of
``g_cmdline_options`` (v24.09:lib/event/app.c:82-150), plus the application's own (spdk_tgt: ``-f``, ``-S``,
v24.09:app/spdk_tgt/spdk_tgt.c:19-25; nvmf_tgt: none, v24.09:app/nvmf_tgt/nvmf_main.c:40).
``build_eal_cmdline`` (v24.09:lib/env_dpdk/init.c:218-566) turns the options into EAL's argv: ``-c MASK``
(or ``-l`` for ``[list]``, ``--lcores``), ``-n``, ``-m`` from ``-s``, ``--main-lcore``, ``--no-pci``,
``--no-huge --iova-mode=va``, ``--huge-unlink``, ``--huge-dir``, ``--no-telemetry``, the log levels,
``--base-virtaddr``, ``--match-allocations`` (unless ``--no-huge`` or ``--legacy-mem``), ``--file-prefix`` and
``--env-context``'s words last.

Pure: stdlib only.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from mpcalc.dpdk.apps.spdk.profile import Profile
from mpcalc.dpdk.core.errors import InputError

#: short options that take a value and flags (SPDK_APP_GETOPT_STRING, v24.09:include/spdk/event.h:294)
_SHORT_VALUE = frozenset("ceimnprsABLW")
_SHORT_FLAG = frozenset("dghuvR")
_LONG_VALUE = {
    "config": "c",
    "json": "json",
    "tpoint-group": "e",
    "shm-id": "i",
    "cpumask": "m",
    "mem-channels": "n",
    "main-core": "p",
    "rpc-socket": "r",
    "mem-size": "s",
    "pci-blocked": "B",
    "logflag": "L",
    "pci-allowed": "A",
    "huge-dir": "huge-dir",
    "num-trace-entries": "num-trace-entries",
    "iova-mode": "iova-mode",
    "base-virtaddr": "base-virtaddr",
    "env-context": "env-context",
    "rpcs-allowed": "rpcs-allowed",
    "vfio-vf-token": "vfio-vf-token",
    "msg-mempool-size": "msg-mempool-size",
    "lcores": "lcores",
}
_LONG_FLAG = {
    "limit-coredump": "d",
    "single-file-segments": "g",
    "help": "h",
    "no-pci": "u",
    "version": "v",
    "huge-unlink": "R",
    "interrupt-mode": "interrupt-mode",
    "silence-noticelog": "silence-noticelog",
    "wait-for-rpc": "wait-for-rpc",
    "json-ignore-init-errors": "json-ignore-init-errors",
    "disable-cpumask-locks": "disable-cpumask-locks",
    "no-rpc-server": "no-rpc-server",
    "enforce-numa": "enforce-numa",
    "no-huge": "no-huge",
}
#: the applications' own options (spdk_tgt's -f pid file and -S vhost socket path, v24.09:app/spdk_tgt/spdk_tgt.c:19-25)
_APP_VALUE = {"spdk_tgt": frozenset("fS"), "nvmf_tgt": frozenset()}

SPDK_APP_DPDK_DEFAULT_CORE_MASK = "0x1"  # v24.09:lib/event/app.c:33
SPDK_APP_DPDK_DEFAULT_BASE_VIRTADDR = 0x200000000000  # v24.09:lib/event/app.c:34
#: SPDK_APP_DEFAULT_NUM_TRACE_ENTRIES = SPDK_DEFAULT_NUM_TRACE_ENTRIES (v24.09:lib/event/app.c:28)
SPDK_DEFAULT_NUM_TRACE_ENTRIES = 32 * 1024


@dataclass
class SpdkArgs:
    """What ``spdk_app_parse_args`` stored in ``struct spdk_app_opts`` that changes memory, and the rest."""

    program: str
    reactor_mask: str | None = None
    lcore_map: str | None = None
    mem_size: int = -1  # SPDK_APP_DPDK_DEFAULT_MEM_SIZE (v24.09:lib/event/app.c:30)
    no_huge: bool = False
    shm_id: int = -1  # v24.09:lib/event/app.c:314
    mem_channel: int = -1
    main_core: int = -1
    no_pci: bool = False
    hugepage_single_segments: bool = False
    unlink_hugepage: bool = False
    hugedir: str | None = None
    iova_mode: str | None = None
    base_virtaddr: int = SPDK_APP_DPDK_DEFAULT_BASE_VIRTADDR
    env_context: str | None = None
    json_config: str | None = None
    msg_mempool_size: int | None = None
    num_entries: int = SPDK_DEFAULT_NUM_TRACE_ENTRIES
    pci_allowed: list[str] = field(default_factory=list)
    pci_blocked: list[str] = field(default_factory=list)
    wait_for_rpc: bool = False
    given: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, object]:
        return {
            "cpumask": self.reactor_mask,
            "lcores": self.lcore_map,
            "mem_size_mb": None if self.mem_size < 0 else self.mem_size,
            "no_huge": self.no_huge,
            "shm_id": self.shm_id,
            "no_pci": self.no_pci,
            "huge_dir": self.hugedir,
            "iova_mode": self.iova_mode,
            "env_context": self.env_context,
            "json": self.json_config,
            "msg_mempool_size": self.msg_mempool_size,
            "num_trace_entries": self.num_entries,
            "wait_for_rpc": self.wait_for_rpc,
        }


def parse_capacity(text: str) -> tuple[int, bool]:
    """``spdk_parse_capacity``: ``sscanf("%lu%c")``, a number and one optional binary prefix k, m or g (either
    case; what follows it is not read), and whether a prefix was given (v24.09:lib/util/string.c:335-377).

    >>> parse_capacity("512"), parse_capacity("1G"), parse_capacity("64mb")
    ((512, False), (1073741824, True), (67108864, True))
    """
    s = text.lstrip()
    digits = len(s) - len(s.lstrip("0123456789"))
    if digits == 0:
        raise ValueError(text)
    number, rest = int(s[:digits]), s[digits:]
    if not rest:
        return number, False
    shift = {"k": 10, "m": 20, "g": 30}.get(rest[0].lower())
    if shift is None:
        raise ValueError(text)
    return number << shift, True


def _strtol(text: str, base: int = 0) -> int:
    """``spdk_strtol``: the whole string a number (base 0: 0x for hex), else a negative errno."""
    try:
        return int(text.strip(), base)
    except ValueError:
        return -22


def parse(argv: list[str]) -> SpdkArgs:
    """An SPDK application's command line, as ``spdk_app_parse_args`` reads it."""
    import os

    program = os.path.basename(argv[0])
    app_value = _APP_VALUE.get(program, frozenset())
    out = SpdkArgs(program=program, given=list(argv[1:]))
    args = list(argv[1:])
    i = 0
    while i < len(args):
        tok = args[i]
        i += 1
        if tok == "--":
            if i < len(args):
                raise InputError(f"{program} takes no positional argument {args[i]!r}", param="command")
            break
        value: str | None = None
        if tok.startswith("--"):
            name, eq, inline = tok[2:].partition("=")
            if name in _LONG_VALUE:
                key = _LONG_VALUE[name]
                if eq:
                    value = inline
                elif i < len(args):
                    value, i = args[i], i + 1
                else:
                    raise InputError(f"{program}: option {tok!r} requires an argument", param="command")
            elif name in _LONG_FLAG:
                key = _LONG_FLAG[name]
                if eq:
                    raise InputError(f"{program}: option {tok!r} doesn't allow an argument", param="command")
            else:
                raise InputError(
                    f"{program}: unrecognized option {tok!r} (spdk_app_parse_args prints its usage and exits)",
                    param="command",
                )
        elif tok.startswith("-") and len(tok) >= 2:
            key = tok[1]
            if key in _SHORT_VALUE or key in app_value:
                if len(tok) > 2:
                    value = tok[2:]
                elif i < len(args):
                    value, i = args[i], i + 1
                else:
                    raise InputError(f"{program}: option requires an argument -- '{key}'", param="command")
            elif key in _SHORT_FLAG:
                if len(tok) > 2:  # bundled flags (-gu)
                    args.insert(i, "-" + tok[2:])
            else:
                raise InputError(f"{program}: invalid option -- '{key}'", param="command")
        else:
            raise InputError(f"{program} takes no positional argument {tok!r}", param="command")
        _apply(out, key, value)
    return out


def _apply(out: SpdkArgs, key: str, value: str | None) -> None:
    v = value or ""
    prog = out.program
    if key == "m":
        if out.lcore_map:  # v24.09:lib/event/app.c:1262-1265
            raise InputError(f"{prog}: lcore map and core mask can't be set simultaneously", param="command")
        out.reactor_mask = v
    elif key == "lcores":
        if out.reactor_mask:  # v24.09:lib/event/app.c:1268-1271
            raise InputError(f"{prog}: lcore map and core mask can't be set simultaneously", param="command")
        out.lcore_map = v
    elif key == "s":
        try:
            mb, prefixed = parse_capacity(v)
        except ValueError:
            raise InputError(
                f"{prog}: invalid memory pool size `-s {v}` (v24.09:lib/event/app.c:1307-1312)", param="command"
            ) from None
        if prefixed:
            mb //= 1024 * 1024
        if mb > 2**31 - 1:
            raise InputError(f"{prog}: invalid memory pool size `-s {v}`", param="command")
        out.mem_size = mb
    elif key == "no-huge":
        out.no_huge = True
    elif key == "i":
        n = _strtol(v.removeprefix("-"), 0)
        if n < 0:
            raise InputError(f"{prog}: Invalid shared memory ID {v}", param="command")
        out.shm_id = -n if v.startswith("-") else n
    elif key == "n":
        n = _strtol(v)
        if n < 0:
            raise InputError(f"{prog}: Invalid memory channel {v}", param="command")
        out.mem_channel = n
    elif key == "p":
        n = _strtol(v)
        if n < 0:
            raise InputError(f"{prog}: Invalid main core {v}", param="command")
        out.main_core = n
    elif key == "u":
        out.no_pci = True
    elif key == "g":
        out.hugepage_single_segments = True
    elif key == "R":
        out.unlink_hugepage = True
    elif key == "huge-dir":
        out.hugedir = v
    elif key == "iova-mode":
        out.iova_mode = v
    elif key == "base-virtaddr":
        n = _strtol(v)
        if n < 0:
            raise InputError(f"{prog}: Invalid base-virtaddr {v}", param="command")
        out.base_virtaddr = n
    elif key == "env-context":
        out.env_context = v
    elif key in ("json", "c"):
        out.json_config = v
    elif key == "msg-mempool-size":
        n = _strtol(v, 10)
        if n <= 0:  # v24.09:lib/event/app.c:1331-1336
            raise InputError(f"{prog}: Invalid message memory pool size {v}", param="command")
        out.msg_mempool_size = n
    elif key == "num-trace-entries":
        n = _strtol(v, 10)
        if n < 0:
            raise InputError(f"{prog}: Invalid num-trace-entries {v}", param="command")
        out.num_entries = n
    elif key == "A":
        out.pci_allowed.append(v)
    elif key == "B":
        out.pci_blocked.append(v)
    elif key == "wait-for-rpc":
        out.wait_for_rpc = True
    elif key in ("h", "v"):
        raise InputError(f"{prog} -{key} prints and exits: nothing is allocated", param="command")


def coremask_to_corelist(mask: str) -> str:
    """``coremask_to_corelist``: a core mask as a core list, runs of cores as ``a-b`` (spdk_cpuset_parse's hex,
    with or without 0x; v26.05:lib/env_dpdk/init.c:290-330); SPDK refuses a mask it cannot read.

    >>> coremask_to_corelist("0x1"), coremask_to_corelist("0x3"), coremask_to_corelist("0xd")
    ('0', '0-1', '0,2-3')
    """
    try:
        bits = int(mask.removeprefix("0x").removeprefix("0X"), 16)
    except ValueError:
        bits = 0
    if bits <= 0:
        raise InputError(f"Invalid core mask '{mask}' (build_eal_cmdline, v26.05:lib/env_dpdk/init.c:396-403)")
    runs: list[str] = []
    cpu = 0
    while bits >> cpu:
        if not bits >> cpu & 1:
            cpu += 1
            continue
        start = cpu
        while bits >> (cpu + 1) & 1:
            cpu += 1
        runs.append(str(start) if cpu == start else f"{start}-{cpu}")
        cpu += 1
    return ",".join(runs)


def eal_argv(a: SpdkArgs, prof: Profile) -> list[str]:
    """The EAL command line ``build_eal_cmdline`` of ``prof``'s release makes (``prof.cite["build_eal_cmdline"]``),
    one EAL argv element per option value as DPDK's getopt reads it."""
    prog = a.program
    no_huge = a.no_huge or (a.env_context is not None and "--no-huge" in a.env_context)
    out = [prog]
    if a.shm_id < 0:
        out.append("--no-shconf")
    mask = a.reactor_mask if a.reactor_mask is not None else (None if a.lcore_map else SPDK_APP_DPDK_DEFAULT_CORE_MASK)
    if a.lcore_map:
        out.append(f"--lcores={a.lcore_map}")
    elif mask is not None and mask.startswith("-"):
        out += mask.split()
    elif mask is not None and mask.startswith("["):
        out += ["-l", mask[1:].removesuffix("]")]
    elif mask is not None and prof.mask_as_core_list:
        out += ["-l", coremask_to_corelist(mask)]
    elif mask is not None:
        out += ["-c", mask]
    if a.mem_channel > 0:
        out += ["-n", str(a.mem_channel)]
    if a.mem_size >= 0:
        out += ["-m", str(a.mem_size)]
    if a.main_core > 0:
        out.append(f"--main-lcore={a.main_core}")
    if a.no_pci:
        out.append("--no-pci")
    if no_huge:
        if a.hugepage_single_segments or a.unlink_hugepage or a.hugedir:  # init.c:331-335
            raise InputError(f"{prog}: --no-huge invalid with other hugepage options", param="command")
        if a.mem_size < 0:  # init.c:337-343
            raise InputError(
                f"{prog}: Disabling hugepages requires specifying how much memory will be allocated using -s "
                "parameter (v24.09:lib/env_dpdk/init.c:337-343)",
                param="command",
            )
        if a.iova_mode == "pa":  # init.c:346-352
            raise InputError(f"{prog}: iova-mode=pa is incompatible with specified no-huge parameter", param="command")
        out += ["--no-huge", *(["--legacy-mem"] if prof.no_huge_legacy_mem else []), "--iova-mode=va"]
    else:
        if a.hugepage_single_segments:
            out.append("--single-file-segments")
        if a.unlink_hugepage or (a.shm_id < 0 and not a.hugepage_single_segments):
            out.append("--huge-unlink")
        if a.hugedir:
            out.append(f"--huge-dir={a.hugedir}")
    out += [f"--allow={x}" for x in a.pci_allowed] if not a.pci_blocked else [f"--block={x}" for x in a.pci_blocked]
    out += [
        "--no-telemetry",
        "--log-level=lib.eal:6",
        "--log-level=lib.cryptodev:5",
        "--log-level=lib.power:5",
        "--log-level=user1:6",
    ]
    if a.iova_mode:
        out.append(f"--iova-mode={a.iova_mode}")
    out.append(f"--base-virtaddr={a.base_virtaddr:#x}")
    if not no_huge and (a.env_context is None or "--legacy-mem" not in a.env_context):
        out.append("--match-allocations")
    if a.shm_id < 0:
        out.append("--file-prefix=spdk_pid<pid>")
    else:
        out.append(f"--file-prefix=spdk{a.shm_id}")
        if not (prof.proc_type_unless_given and a.env_context and "--proc-type" in a.env_context):
            out.append("--proc-type=auto")
    if a.env_context:
        out += a.env_context.split()
    return out
