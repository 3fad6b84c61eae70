"""EAL's part of an application's command line, parsed as ``rte_eal_init`` parses it, and EAL's own memory.

``eal_parse_args`` (v22.11:lib/eal/linux/eal.c:598-760) reads the options of
``eal_short_options``/``eal_long_options`` (v22.11:lib/eal/common/eal_common_options.c:53-108) up to the
first ``--``; what follows belongs to the application.  Every option EAL knows is recognised here: the ones
that change memory are applied, the others are recorded as read (a log level takes no memory), and an option
EAL does not know is refused, as EAL refuses it.

Shared by every application module (testpmd, l3fwd, and any other DPDK program: OVS, VPP, pktgen): import
:func:`parse_eal`, :func:`eal_parts` and :func:`platform_for`.

Pure: stdlib only.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from mpcalc.dpdk.apps.eal_options import (
    _ALIASES,
    _CHOICES,
    _DEFAULTS,
    _LONG_FLAGS,
    _LONG_OPTIONAL,
    _LONG_WITH_VALUE,
    _NOCASE,
    _NOT_MODELLED,
    _SHORT_FLAGS,
    _SHORT_OPTIONAL,
    _SHORT_WITH_VALUE,
    _SINCE,
)
from mpcalc.dpdk.core.errors import InputError
from mpcalc.dpdk.core.platform import DEFAULT_PAGE_SIZE, Platform
from mpcalc.dpdk.core.records import Allocation


@dataclass
class EalArgs:
    """What ``rte_eal_init`` was told: the parts of the command line that change memory, and the rest."""

    program: str
    lcores: tuple[int, ...] = ()
    main_lcore: int | None = None
    channels: int | None = None
    ranks: int | None = None
    no_huge: bool = False
    memory_mb: int | None = None
    socket_mem: tuple[int, ...] | None = None
    socket_limit: tuple[int, ...] | None = None
    vdevs: list[str] = field(default_factory=list)
    pci_allowed: list[str] = field(default_factory=list)
    #: -b/--block: PCI devices EAL does not probe (without -a: EAL refuses both together)
    pci_blocked: list[str] = field(default_factory=list)
    #: the drivers of the PCI addresses (mpcalc's --nic and --devbind, the target machine's): not EAL's own
    pci_bindings: dict[str, Any] = field(default_factory=dict)
    devbind: str | None = None
    no_pci: bool = False
    iova_mode: str | None = None
    in_memory: bool = False
    telemetry: bool = True
    remap_base: int | None = None  # -R (25.11+): lcore ids renumbered from this base
    #: the CPUs the lcores run on (-l and -c: the lcore ids; --lcores: its @ CPU sets), and the option naming them
    cpus: tuple[int, ...] = ()
    lcore_option: str = ""
    #: --proc-type as given (primary, EAL's default, or auto: primary when no primary runs)
    proc_type: str = "primary"
    #: the EAL options as given, for the report
    given: list[str] = field(default_factory=list)

    @property
    def main(self) -> int:
        """The main lcore: --main-lcore, else the first lcore (v22.11:lib/eal/common/eal_common_options.c:2005-2010)."""
        return self.main_lcore if self.main_lcore is not None else (self.lcores[0] if self.lcores else 0)

    @property
    def workers(self) -> tuple[int, ...]:
        """The enabled lcores other than the main one (RTE_LCORE_FOREACH_WORKER)."""
        return tuple(lc for lc in self.lcores if lc != self.main)

    def to_dict(self) -> dict[str, object]:
        return {
            "lcores": list(self.lcores),
            "main_lcore": self.main,
            "channels": self.channels,
            "ranks": self.ranks,
            "no_huge": self.no_huge,
            "memory_mb": self.memory_mb,
            "socket_mem": list(self.socket_mem) if self.socket_mem is not None else None,
            "socket_limit": list(self.socket_limit) if self.socket_limit is not None else None,
            "vdevs": list(self.vdevs),
            "pci_allowed": list(self.pci_allowed),
            "pci_blocked": list(self.pci_blocked),
            "no_pci": self.no_pci,
            "iova_mode": self.iova_mode,
            "in_memory": self.in_memory,
            "telemetry": self.telemetry,
        }


def _int(text: str, what: str, base: int = 10) -> int:
    try:
        return int(text.strip(), base)
    except ValueError:
        raise InputError(f"EAL {what} {text!r} is not a number", param="command") from None


def parse_corelist(text: str) -> tuple[int, ...]:
    """``-l 0-3,5``: eal_parse_corelist (v22.11:lib/eal/common/eal_common_options.c:884-936).

    >>> parse_corelist("0-2,5")
    (0, 1, 2, 5)
    """
    cores: list[int] = []
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        a, b = _int(lo, "-l core"), _int(hi or lo, "-l core")
        cores += [c for c in range(min(a, b), max(a, b) + 1) if c not in cores]
    return tuple(sorted(cores))


def parse_coremask(text: str) -> tuple[int, ...]:
    """``-c 0x3``: eal_parse_coremask (v22.11:lib/eal/common/eal_common_options.c:760-808), a hex mask.

    >>> parse_coremask("0x5")
    (0, 2)
    """
    mask = _int(text.lower().removeprefix("0x"), "-c coremask", 16)
    return tuple(i for i in range(mask.bit_length()) if mask >> i & 1)


def parse_lcores(text: str) -> tuple[int, ...]:
    """``--lcores '(0-2)@0,3@1'``: the lcore ids of eal_parse_lcores
    (v22.11:lib/eal/common/eal_common_options.c:1203-1330); the CPUs they run on take no memory.

    >>> parse_lcores("(0-2)@0,3@1"), parse_lcores("0-1")
    ((0, 1, 2, 3), (0, 1))
    """
    lcores: list[int] = []
    depth, token = 0, ""
    groups: list[str] = []
    for ch in text + ",":
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if ch == "," and depth == 0:
            groups.append(token)
            token = ""
        else:
            token += ch
    for g in groups:
        ids = g.split("@", 1)[0].strip().strip("()")
        for c in parse_corelist(ids):
            if c not in lcores:
                lcores.append(c)
    return tuple(sorted(lcores))


def lcores_cpus(text: str) -> tuple[int, ...]:
    """The CPUs of ``--lcores``: each group's ``@`` CPU set, or the lcore ids of a group without one
    (eal_parse_lcores, v22.11.11:lib/eal/common/eal_common_options.c:1203-1330).

    >>> lcores_cpus("(0-2)@0,3@1"), lcores_cpus("0-1,(4,5)@(6,7)")
    ((0, 1), (0, 1, 6, 7))
    """
    cpus: set[int] = set()
    depth, token, groups = 0, "", []
    for ch in text + ",":
        depth += (ch == "(") - (ch == ")")
        if ch == "," and depth == 0:
            groups.append(token)
            token = ""
        else:
            token += ch
    for g in groups:
        ids, at, where = g.partition("@")
        cpus.update(parse_corelist((where if at else ids).strip().strip("()")))
    return tuple(sorted(cpus))


def check_cpus(e: EalArgs, cpus: tuple[int, ...] | None) -> list[str]:
    """The lcores' CPUs against the target machine's (``--cpus``): EAL refuses a CPU it does not detect
    (eal_cpu_detected); without ``--cpus``, a note that they are taken to exist."""
    from mpcalc.dpdk.core.machine import cpu_list

    used = e.cpus or e.lcores
    if cpus is None:
        return [
            f"the lcores run on CPU(s) {cpu_list(used)}, taken to exist on the target machine: give --cpus "
            "(its /sys/devices/system/cpu/online) to check them as EAL does"
        ]
    missing = [c for c in used if c not in cpus]
    if not missing:
        return []
    c, online = missing[0], cpu_list(cpus)
    if e.lcore_option == "lcores":
        said = (
            f"'core {c} unavailable', 'invalid parameter for --lcores' "
            "(check_cpuset, v22.11.11:lib/eal/common/eal_common_options.c:1150-1163, 1900-1905)"
        )
    else:
        what, line = ("coremask", "1681-1687") if e.lcore_option == "c" else ("core list", "1714-1720")
        said = (
            f"'lcore {c} unavailable', 'invalid {what}, please check specified cores are part of {online}' "
            f"(update_lcore_config, v22.11.11:lib/eal/common/eal_common_options.c:713-717, {line})"
        )
    raise InputError(
        f"the machine's CPUs are {online} (--cpus): EAL exits: {said}, then \"Invalid 'command line' arguments.\"",
        param="command",
    )


def _mb_list(text: str, what: str) -> tuple[int, ...]:
    """``--socket-mem 1024,0``: megabytes per socket (eal_parse_socket_arg, eal_common_options.c:1473-1512)."""
    return tuple(_int(v or "0", what) for v in text.split(","))


def split_command(argv: Sequence[str]) -> tuple[list[str], list[str]]:
    """The EAL part and the application part: EAL stops at the first ``--``
    (getopt_long; v22.11:lib/eal/linux/eal.c:604-760); everything after it is the application's."""
    args = list(argv[1:])
    if "--" in args:
        i = args.index("--")
        return args[:i], args[i + 1 :]
    return args, []


def has_option(name: str, release: str) -> bool:
    """Whether EAL of ``release`` knows the long option ``name`` (:data:`_SINCE`: the options added after 21.11).

    >>> has_option("socket-mem", "21.11"), has_option("numa-mem", "24.11"), has_option("numa-mem", "25.11")
    (True, False, True)
    """
    from mpcalc.dpdk.core.facts import version_key

    return name not in _SINCE or version_key(release) >= version_key(_SINCE[name])


def parse_eal(argv: Sequence[str], release: str | None = None) -> tuple[EalArgs, list[str]]:
    """EAL's options of a full command line, and the application's arguments; with ``release``, the options
    EAL has at that release only (:data:`_SINCE`; without it, every release's)."""
    from mpcalc.dpdk.core.facts import version_key

    if not argv:
        raise InputError("the command line is empty: give the program and its arguments after --", param="command")
    eal_argv, app_argv = split_command(argv)
    out = EalArgs(program=argv[0], given=list(eal_argv))
    it = iter(range(len(eal_argv)))
    for i in it:
        tok = eal_argv[i]
        name, value = _option(tok)
        if name is None:
            raise InputError(
                f"EAL takes no positional argument {tok!r} (the application's options go after --)", param="command"
            )
        takes = (name in _SHORT_WITH_VALUE) if len(name) == 1 else (name in _LONG_WITH_VALUE)
        flag = (name in _SHORT_FLAGS | _SHORT_OPTIONAL) if len(name) == 1 else (name in _LONG_FLAGS | _LONG_OPTIONAL)
        if release is not None and name in _SINCE and version_key(release) < version_key(_SINCE[name]):
            raise InputError(
                f"EAL option {tok!r} is in DPDK {_SINCE[name]} and later (asked: {release}; rte_eal_init refuses it)",
                param="command",
            )
        if not takes and not flag:
            raise InputError(
                f"EAL does not know the option {tok!r} (rte_eal_init refuses it: 'Invalid command line "
                "arguments'); the application's options go after --",
                param="command",
            )
        if takes and value is None:
            nxt = next(it, None)
            if nxt is None:
                raise InputError(f"EAL option {tok!r} needs a value", param="command")
            value = eal_argv[nxt]
        name = _ALIASES.get(name, name)
        given = (value or "").lower() if name in _NOCASE else (value or "")
        if name in _CHOICES and given not in _CHOICES[name][0]:
            raise InputError(f"{tok}: {_CHOICES[name][1]}", param="command")
        if name in _DEFAULTS and given in _DEFAULTS[name]:
            if name == "proc-type":
                out.proc_type = given
            continue  # EAL's own default: the run is the one without the option
        if name == "legacy-mem" and any(t == "--no-huge" for t in eal_argv):
            # --no-huge is legacy mode already: eal_legacy_hugepage_init sets legacy_mem itself
            # (v22.11.11:lib/eal/linux/eal_memory.c:1166-1167, the same to v25.11.2:1164-1165)
            continue
        if name in _NOT_MODELLED:
            raise InputError(f"{tok}: {_NOT_MODELLED[name]}; the model does not cover it", param="command")
        if name == "l" and value and ("@" in value or "(" in value):
            # from 25.11 -l is --lcores and takes its mappings (v25.11.2:lib/eal/common/eal_common_options.c:
            # 1947-1960); before, eal_parse_corelist refuses them
            if release is not None and version_key(release) < version_key("25.11"):
                raise InputError(
                    f"-l {value}: EAL takes a core list here, mappings are --lcores' (eal_parse_corelist)",
                    param="command",
                )
            name = "lcores"
        _apply(out, name, value)
    if out.remap_base is not None:
        # -R: the lcores renumbered from the base, in CPU order (update_lcore_config,
        # v25.11.2:lib/eal/common/eal_common_options.c:1935-1995)
        if out.main_lcore is not None:
            raise InputError(
                "-R with --main-lcore: the model does not know which renumbered lcore is meant", param="command"
            )
        out.lcores = tuple(range(out.remap_base, out.remap_base + len(out.lcores)))
    return out, app_argv


def _option(tok: str) -> tuple[str | None, str | None]:
    if tok.startswith("--"):
        name, eq, value = tok[2:].partition("=")
        return name, (value if eq else None)
    if tok.startswith("-") and len(tok) >= 2:
        return tok[1], (tok[2:] or None)
    return None, None


def _apply(out: EalArgs, name: str, value: str | None) -> None:
    v = value or ""
    if name == "l":
        out.lcores = out.cpus = parse_corelist(v)
        out.lcore_option = name
    elif name == "c":
        out.lcores = out.cpus = parse_coremask(v)
        out.lcore_option = name
    elif name == "lcores":
        out.lcores, out.cpus = parse_lcores(v), lcores_cpus(v)
        out.lcore_option = name
    elif name == "main-lcore":
        out.main_lcore = _int(v, "--main-lcore")
    elif name == "n":
        out.channels = _int(v, "-n")
    elif name == "r":
        out.ranks = _int(v, "-r")
    elif name == "no-huge":
        out.no_huge = True
    elif name == "m":
        out.memory_mb = _int(v, "-m")
    elif name == "socket-mem":
        out.socket_mem = _mb_list(v, "--socket-mem")
    elif name == "socket-limit":
        out.socket_limit = _mb_list(v, "--socket-limit")
    elif name == "vdev":
        out.vdevs.append(v)
    elif name in ("a", "allow", "b", "block"):
        if out.pci_blocked if name in ("a", "allow") else out.pci_allowed:
            # eal_parse_common_option's ba_conflict (v22.11.11:lib/eal/common/eal_common_options.c:1655-1670, 1958-1961)
            raise InputError("Options allow (-a) and block (-b) can't be used at the same time (EAL)", param="command")
        (out.pci_allowed if name in ("a", "allow") else out.pci_blocked).append(v)
    elif name == "no-pci":
        out.no_pci = True
    elif name == "iova-mode":
        if v not in ("pa", "va"):
            raise InputError(f"--iova-mode {v!r}: EAL takes pa or va", param="command")
        out.iova_mode = v
    elif name == "in-memory":
        out.in_memory = True
    elif name == "no-telemetry":
        out.telemetry = False
    elif name == "telemetry":
        out.telemetry = True
    elif name in ("R", "remap-lcore-ids"):
        out.remap_base = _int(v, "-R base", 0) if v else 0


def check_eal(e: EalArgs) -> list[str]:
    """What EAL would refuse, or what the model cannot know; returns notes for what it assumes."""
    notes: list[str] = []
    if not e.lcores:
        raise InputError(
            "give the lcores (-l, -c or --lcores): without them EAL runs one lcore on every CPU of "
            "the machine, which the model cannot know",
            param="command",
        )
    if e.main_lcore is not None and e.main_lcore not in e.lcores:
        raise InputError(
            f"--main-lcore {e.main_lcore} is not among the lcores {list(e.lcores)} (EAL refuses it)", param="command"
        )
    if e.no_huge and e.socket_mem is not None:
        raise InputError(
            "--socket-mem cannot be used with --no-huge (EAL refuses it: v22.11:lib/eal/linux/eal.c:716-721)",
            param="command",
        )
    if e.memory_mb is not None and e.socket_mem is not None:
        raise InputError(
            "-m and --socket-mem cannot be used together (v22.11:lib/eal/common/eal_common_options.c:2092-2096)",
            param="command",
        )
    if not e.no_pci and not e.pci_allowed and e.devbind is None:
        notes.append(
            "EAL scans the PCI bus (no --no-pci): NICs bound to a DPDK driver would be probed as "
            "further ports; none is counted here"
        )
    if e.proc_type == "auto":
        notes.append(
            "--proc-type=auto is taken as a primary process: EAL makes it one when no primary of this "
            "--file-prefix runs (eal_proc_type_detect, v22.11.11:lib/eal/linux/eal.c:348-370)"
        )
    notes.append("every lcore and port is taken to be on NUMA socket 0")
    return notes


def platform_for(e: EalArgs, p: Platform) -> Platform:
    """The platform the application runs on: 4 KiB pages with --no-huge (rte_mempool_get_page_size uses
    getpagesize() without hugepages, v22.11:lib/mempool/rte_mempool.c:462-480) and EAL's -n/-r."""
    page = 4096 if e.no_huge else (p.page_size or DEFAULT_PAGE_SIZE)
    return p._replace(
        page_size=page,
        channels=e.channels if e.channels is not None else p.channels,
        ranks=e.ranks if e.ranks is not None else p.ranks,
    )


RTE_SERVICE_NUM_MAX = 64  # v22.11:config/rte_config.h:68


def eal_parts(p: Platform) -> list[Allocation]:
    """What ``rte_eal_init`` itself allocates on the heap: rte_service_init's rte_calloc()s
    (v22.11:lib/eal/common/rte_service.c:94-103): RTE_SERVICE_NUM_MAX specs and, up to 23.11, RTE_MAX_LCORE
    core states.  From 24.11 the core states are an lcore variable (RTE_LCORE_VAR_ALLOC,
    v24.11.6:lib/eal/common/rte_service.c:82, 103-104), memory of the lcore variable buffers, not of the heap."""
    from mpcalc.dpdk.core.struct_sizes import since, sizes

    s = sizes(p)  # struct rte_service_spec_impl and struct core_state at the release (releases.py)
    out = [Allocation("rte_services", RTE_SERVICE_NUM_MAX * s["service_spec_impl"], "eal")]
    if not since(p, "24.11"):
        out.append(Allocation("rte_service_core_states", p.max_lcore * s["core_state"], "eal"))
    return out


#: EAL's options of a memory amount per NUMA node (25.11's names and their aliases): what the advice replaces
MEMORY_OPTIONS = ("--socket-mem", "--socket-limit", "--numa-mem", "--numa-limit")


def on_hugepages(argv: list[str]) -> list[str]:
    """The command line without the EAL options that choose 4 KiB pages or a memory amount
    (``--no-huge``, ``-m N``, :data:`MEMORY_OPTIONS`): what the advice replaces."""
    out: list[str] = []
    it = iter(range(len(argv)))
    eal_end = argv.index("--") if "--" in argv else len(argv)
    for i in it:
        tok = argv[i]
        if i < eal_end:
            if tok == "--no-huge":
                continue
            if tok in ("-m", *MEMORY_OPTIONS):
                next(it, None)
                continue
            if (tok.startswith("-m") and tok[2:].isdigit()) or tok.startswith(tuple(o + "=" for o in MEMORY_OPTIONS)):
                continue
        out.append(tok)
    return out
