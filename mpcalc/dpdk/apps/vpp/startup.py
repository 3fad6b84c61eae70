"""VPP's startup configuration, read as VPP reads it: ``vpp -c startup.conf`` or the inline form
``vpp unix { ... } dpdk { ... }``.

The file becomes one line of words (src/vpp/vnet/main.c: up to v25.10 ``strtok`` on each line, a word starting
with ``#`` ends it; from v26.02 ``#`` starts a comment anywhere); the sections are ``%s %v`` pairs
(vlib_call_all_config_functions, src/vlib/init.c), the same section twice is one section.  The sections that
decide memory are parsed key by key with each one's own vocabulary and refusal text: ``buffers``
(vlib_buffers_configure), ``dpdk`` and its ``dev`` blocks (dpdk_config, dpdk_device_config), ``memory`` (main),
``statseg`` (statseg_config), ``physmem`` (vlib_physmem_config), ``cpu`` (cpu_config) and ``plugins`` (whether
dpdk_plugin.so loads); every other section is listed as ignored.

A key VPP refuses is an :class:`~mpcalc.dpdk.core.errors.InputError` quoting VPP's own message and where VPP
says it.  Pure: stdlib only.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from mpcalc.dpdk.apps.vpp.profiles import Profile
from mpcalc.dpdk.apps.vpp.unformat import Cursor
from mpcalc.dpdk.core.errors import InputError

#: the sections this module reads
SECTIONS = ("buffers", "dpdk", "memory", "statseg", "physmem", "cpu", "plugins", "heapsize")

#: dpdk {}'s EAL pass-through keys (dpdk_priv.h): a word alone, a word and a value, -m/-r
EAL_FLAGS = ("no-shconf", "no-hpet", "no-huge", "vmware-tsc-map")
EAL_VALUES = ("huge-dir", "proc-type", "file-prefix", "vdev", "log-level", "block", "iova-mode", "base-virtaddr")
EAL_SINGLE = {"mem-alloc-request": "-m", "force-ranks": "-r"}
#: dpdk {}'s own words (dpdk_config at v24.10; a profile adds its release's)
DPDK_FLAGS = (
    "no-hugetlb",
    "telemetry",
    "enable-tcp-udp-checksum",  # then, optionally, "enable-outer-checksum-offload" (no key of its own)
    "no-tx-checksum-offload",
    "decimal-interface-names",
    "no-multi-seg",
    "enable-lro",
    "uio-bind-force",
    "no-pci",
    "no-vmbus",
)
DPDK_VALUES = ("max-simd-bitwidth", "link-state-poll-interval", "stats-poll-interval", "uio-driver", "socket-mem")


def _refuse(message: str, where: str) -> InputError:
    """VPP's own line (``<function>: <message>`` as clib_error_report prints it, when ``where`` names the
    function: ``"dpdk_config, v25.02:src/...:1340"``) and where VPP says it."""
    function, _, cite = where.partition(", ")
    line = f"{function}: {message} ({cite})" if cite else f"{message} ({where})"
    return InputError(f"VPP refuses its startup config: {line}", param="command_line")


@dataclass
class DevConf:
    """``dev default { ... }`` or ``dev <pci> { ... }`` (dpdk_device_config)."""

    addr: str  # "default" or the PCI address
    num_rx_queues: int = 0
    num_tx_queues: int = 0
    num_rx_desc: int = 0
    num_tx_desc: int = 0
    workers: tuple[int, ...] = ()
    name: str | None = None
    #: ``devargs %s``: appended to the device's ``-a`` (dpdk_config)
    devargs: str | None = None
    #: ``tso on`` / ``tso off`` (None: DPDK_DEVICE_TSO_DEFAULT, ``dev default``'s)
    tso: bool | None = None

    def to_dict(self) -> dict[str, object]:
        return {
            "addr": self.addr,
            "num_rx_queues": self.num_rx_queues,
            "num_tx_queues": self.num_tx_queues,
            "num_rx_desc": self.num_rx_desc,
            "num_tx_desc": self.num_tx_desc,
            "workers": list(self.workers),
            "name": self.name,
            "devargs": self.devargs,
            "tso": self.tso,
        }


@dataclass
class PortConf:
    """``dm->default_port_conf`` as dpdk {}'s words set it (dpdk_config): what dpdk_device_setup makes the
    port's offloads of (:mod:`.vpp_offloads`)."""

    enable_tcp_udp_checksum: bool = False
    enable_outer_checksum_offload: bool = False
    disable_tx_checksum_offload: bool = False
    disable_multi_seg: bool = False
    enable_lro: bool = False
    enable_mbuf_fast_free: bool = False

    def to_dict(self) -> dict[str, object]:
        return dict(vars(self))


#: dpdk {}'s word -> the PortConf field it sets
PORT_CONF_WORDS = {
    "enable-tcp-udp-checksum": "enable_tcp_udp_checksum",
    "no-tx-checksum-offload": "disable_tx_checksum_offload",
    "no-multi-seg": "disable_multi_seg",
    "enable-lro": "enable_lro",
    "enable-mbuf-fast-free": "enable_mbuf_fast_free",
}


@dataclass
class VppConfig:
    """What the startup configuration says about memory."""

    # buffers {}
    buffers_per_numa: int = 0  # 0: the default
    buffers_numa: dict[int, int] = field(default_factory=dict)  # numa N { buffers M }
    buffer_page_size: int | str | None = None  # None: CLIB_MEM_PAGE_SZ_UNKNOWN (hugepages, 4 KiB fallback)
    data_size: int = 2048
    # dpdk {}
    dpdk_plugin: bool = True
    dpdk_section: bool = False
    no_hugetlb: bool = False
    socket_mem: str | None = None
    telemetry: bool = False
    no_pci: bool = False
    file_prefix: str | None = None
    vdevs: list[str] = field(default_factory=list)
    eal_extra: list[str] = field(default_factory=list)
    devs: list[DevConf] = field(default_factory=list)
    default_dev: DevConf = field(default_factory=lambda: DevConf("default"))
    #: dm->default_port_conf: the offload words of dpdk {} (dpdk_config), every port's
    port_conf: PortConf = field(default_factory=lambda: PortConf())
    # memory {} (and the old heapsize)
    main_heap_size: int = 1 << 30
    main_heap_page_size: int | str = "default"
    default_hugepage_size: int | None = None
    # statseg {}
    statseg_size: int = 1 << 25  # STAT_SEGMENT_DEFAULT_SIZE, 32 MiB (src/vlib/stats/stats.h)
    statseg_page_size: int | str = "default"
    # physmem {}
    physmem_base: int | None = None
    physmem_max_size: int | None = None
    # cpu {}
    main_core: int | None = None
    workers: int = 0
    corelist_workers: tuple[int, ...] = ()
    cpu_ignored: str = ""  # what cpu_config stopped at (it breaks out of its loop, no error)
    ignored: list[str] = field(default_factory=list)
    sections: list[str] = field(default_factory=list)
    text: str = ""

    @property
    def n_threads(self) -> int:
        """vlib_mains: the main thread and the workers."""
        return 1 + (len(self.corelist_workers) if self.corelist_workers else self.workers)

    def to_dict(self) -> dict[str, object]:
        return {
            "buffers_per_numa": self.buffers_per_numa or None,
            "buffers_numa": {str(k): v for k, v in sorted(self.buffers_numa.items())},
            "buffer_page_size": self.buffer_page_size,
            "data_size": self.data_size,
            "dpdk_plugin": self.dpdk_plugin,
            "no_hugetlb": self.no_hugetlb,
            "socket_mem": self.socket_mem,
            "vdevs": list(self.vdevs),
            "devs": [d.to_dict() for d in [self.default_dev, *self.devs]],
            "port_conf": self.port_conf.to_dict(),
            "main_heap_size": self.main_heap_size,
            "main_heap_page_size": self.main_heap_page_size,
            "statseg_size": self.statseg_size,
            "statseg_page_size": self.statseg_page_size,
            "main_core": self.main_core,
            "workers": self.n_threads - 1,
            "corelist_workers": list(self.corelist_workers),
            "sections": list(self.sections),
            "ignored_sections": list(self.ignored),
        }


def config_text(argv: list[str], profile: Profile, base_dir: str | None = None) -> str:
    """The configuration as one line: ``-c FILE`` read (a missing file is VPP's own message), else the
    words after the program."""
    args = argv[1:]
    if args and (args[0] in ("-c", "--config") or (args[0].startswith("-c") and len(args) == 1)):
        path = args[1] if args[0] in ("-c", "--config") and len(args) > 1 else args[0][2:]
        if not path:
            raise InputError("vpp -c needs the startup.conf path", param="command_line")
        if base_dir and not os.path.isabs(path):
            path = os.path.join(base_dir, path)
        try:
            with open(path, encoding="utf-8", errors="replace") as f:
                raw = f.read()
        except OSError as exc:
            # "open configuration file '%s' failed" (v25.02:src/vpp/vnet/main.c:175)
            raise InputError(
                f"open configuration file '{path}' failed ({exc.strerror})", param="command_line"
            ) from None
        return file_words(raw, profile)
    if args and args[0].startswith("-"):
        raise InputError(
            f"vpp: unrecognized option '{args[0]}' (give -c STARTUP.CONF or the inline form)", param="command_line"
        )
    return " ".join(args)


def file_words(raw: str, profile: Profile) -> str:
    """The file as VPP reads it: comments dropped, white space one space."""
    words: list[str] = []
    if profile.since("v26.02"):
        for line in raw.replace("\r", "\n").split("\n"):
            words += line.split("#", 1)[0].split()
        return " ".join(words)
    for line in raw.split("\n"):
        for w in line.replace("\t", " ").split(" "):
            if not w:
                continue
            if w.startswith("#"):
                break
            words.append(w)
    return " ".join(words)


def parse(argv: list[str], profile: Profile, base_dir: str | None = None) -> VppConfig:
    """The configuration of ``vpp ...`` at ``profile``'s release."""
    text = config_text(argv, profile, base_dir)
    cfg = VppConfig(text=text)
    bodies: dict[str, list[str]] = {}
    order: list[str] = []
    c = Cursor(text)
    while not c.at_end:
        name = c.string()
        body = c.string()
        if name is None or body is None:
            raise _refuse(
                f"unknown input `{name or ''} '", "vlib_call_all_config_functions, " + profile.cite("config_unknown")
            )
        if name not in bodies:
            order.append(name)
        bodies.setdefault(name, []).append(body)
    cfg.sections = order
    cfg.ignored = [s for s in order if s not in SECTIONS]
    if "plugins" in bodies:
        _plugins(cfg, " ".join(bodies["plugins"]), profile)
    if "heapsize" in bodies:
        _heapsize(cfg, bodies["heapsize"][-1])
    if "memory" in bodies:
        for b in bodies["memory"]:
            _memory(cfg, b, profile)
    if "buffers" in bodies:
        _buffers(cfg, " ".join(bodies["buffers"]), profile)
    if "statseg" in bodies:
        _statseg(cfg, " ".join(bodies["statseg"]), profile)
    if "physmem" in bodies:
        _physmem(cfg, " ".join(bodies["physmem"]), profile)
    if "cpu" in bodies:
        _cpu(cfg, " ".join(bodies["cpu"]), profile)
    if "dpdk" in bodies:
        cfg.dpdk_section = True
        if cfg.dpdk_plugin:
            _dpdk(cfg, " ".join(bodies["dpdk"]), profile)
        else:
            cfg.ignored.append("dpdk")  # dpdk_config is the plugin's: without it the section is unknown
    return cfg


def _heapsize(cfg: VppConfig, value: str) -> None:
    """The old top-level ``heapsize <n>[mMgG]`` (main, src/vpp/vnet/main.c: digits, then m or g)."""
    digits = ""
    for ch in value:
        if not ch.isdigit():
            break
        digits += ch
    if not digits or int(digits) == 0:
        return  # "warning: heapsize parse error '%s', use default"
    size = int(digits)
    unit = value[len(digits) : len(digits) + 1].lower()
    cfg.main_heap_size = size << 30 if unit == "g" else size << 20 if unit == "m" else size


def _memory(cfg: VppConfig, body: str, profile: Profile) -> None:
    c = Cursor(body)
    while not c.at_end:
        if c.prefix("main-heap-size"):
            v = c.memory_size()
            if v is None:
                raise _memory_error(c, profile)
            cfg.main_heap_size = v
        elif c.prefix("main-heap-page-size"):
            pg = c.page_size()
            if pg is None:
                raise _memory_error(c, profile)
            cfg.main_heap_page_size = pg
        elif c.prefix("default-hugepage-size"):
            pg = c.page_size()
            if pg is None or isinstance(pg, str):
                raise _memory_error(c, profile)
            cfg.default_hugepage_size = pg
        else:
            if profile.memory_refuses_unknown:
                raise _memory_error(c, profile)
            c.string()  # v26.02+: else if (unformat (&sub_input, "%v", &v)) skipped


def _memory_error(c: Cursor, profile: Profile) -> InputError:
    if not profile.memory_refuses_unknown:
        return _refuse(f"memory {{}}: cannot read '{c.error_text()}'", profile.cite("main_heap_page"))
    # fformat (stderr, "unknown 'memory' config input '%U'\n", ...); exit (1)
    return _refuse(f"unknown 'memory' config input '{c.error_text()}'", profile.cite("memory_unknown"))


def _buffers(cfg: VppConfig, body: str, profile: Profile) -> None:
    c = Cursor(body)
    where = "vlib_buffers_configure, " + profile.cite("parse_error_buffers")
    while not c.at_end:
        if c.prefix("buffers-per-numa"):
            v = c.uint()
            if v is None:
                raise _refuse(f"parse error `buffers-per-numa{_rest(c)}'", where)
            cfg.buffers_per_numa = v
        elif c.prefix("page-size"):
            pg = c.page_size()
            if pg is None:
                raise _refuse(f"parse error `page-size{_rest(c)}'", where)
            cfg.buffer_page_size = pg
        elif c.literal("default") and c.prefix("data-size"):
            v = c.uint()
            if v is None:
                raise _refuse(f"parse error `default data-size{_rest(c)}'", where)
            cfg.data_size = v
        elif c.prefix("numa"):
            node = c.uint()
            sub = c.sub_input() if node is not None else None
            if node is None or sub is None:
                raise _refuse(f"parse error `numa{_rest(c)}'", where)
            if node >= 32:
                raise _refuse("invalid numa node", "vlib_buffers_numa_configure, " + profile.cite("numa_buffers_key"))
            s = Cursor(sub)
            buffers = None
            while not s.at_end:
                if s.prefix("buffers"):
                    buffers = s.uint()
                    if buffers is None:
                        raise _refuse(f"parse error `buffers{_rest(s)}'", where)
                else:
                    raise _refuse(f"parse error `{s.error_text()}'", where)
            if buffers is not None:
                cfg.buffers_numa[node] = buffers
        else:
            raise _refuse(f"parse error `{c.error_text()}'", where)


def _rest(c: Cursor) -> str:
    t = c.error_text()
    return f" {t}" if t else ""


def _statseg(cfg: VppConfig, body: str, profile: Profile) -> None:
    c = Cursor(body)
    while not c.at_end:
        if c.prefix("socket-name"):
            c.string()
        elif c.literal("default"):
            pass
        elif c.prefix("size"):
            v = c.memory_size()
            if v is None:
                raise _refuse(f"unknown input `size{_rest(c)}'", "statseg_config, " + profile.cite("statseg_unknown"))
            cfg.statseg_size = v
        elif c.prefix("page-size"):
            pg = c.page_size()
            if pg is None:
                raise _refuse(
                    f"unknown input `page-size{_rest(c)}'", "statseg_config, " + profile.cite("statseg_unknown")
                )
            cfg.statseg_page_size = pg
        elif c.literal("per-node-counters", "on") or c.literal("per-node-counters", "off"):
            pass
        elif c.prefix("update-interval"):
            c.string()
        else:
            raise _refuse(f"unknown input `{c.error_text()}'", "statseg_config, " + profile.cite("statseg_unknown"))


def _physmem(cfg: VppConfig, body: str, profile: Profile) -> None:
    c = Cursor(body)
    where = "vlib_physmem_config, " + profile.cite("physmem_keys")
    while not c.at_end:
        if c.prefix("base-addr"):
            v = c.string() or ""
            if not v.startswith("0x"):
                raise _refuse(f"parse error `base-addr {v}'", where)
            cfg.physmem_base = int(v, 16)
        elif c.prefix("max-size"):
            m = c.memory_size()
            if m is None:
                raise _refuse(f"parse error `max-size{_rest(c)}'", where)
            cfg.physmem_max_size = m
        else:
            raise _refuse(f"parse error `{c.error_text()}'", where)


def _cpu(cfg: VppConfig, body: str, profile: Profile) -> None:
    """cpu_config: an unknown key ends its loop without an error (``else break``)."""
    c = Cursor(body)
    while not c.at_end:
        if c.literal("use-pthreads"):
            pass
        elif c.prefix("thread-prefix") or c.prefix("scheduler-policy"):
            c.string()
        elif c.prefix("main-core"):
            cfg.main_core = c.uint()
        elif c.prefix("skip-cores") or c.prefix("scheduler-priority"):
            c.uint()
        elif profile.cpu_relative and c.literal("relative"):
            pass
        elif c.prefix("numa-heap-size"):
            c.memory_size()
        elif c.prefix("corelist-workers"):
            cores = c.bitmap_list()
            if cores is None:
                raise _refuse(f"no such thread type '{c.error_text()}'", "cpu_config, " + profile.cite("cpu_corelist"))
            cfg.corelist_workers = cores
        elif c.prefix("coremask-workers"):
            mask = c.string() or "0"
            bits = int(mask, 16)
            cfg.corelist_workers = tuple(i for i in range(bits.bit_length()) if bits >> i & 1)
        elif c.prefix("workers"):
            n = c.uint()
            if n is None:
                cfg.cpu_ignored = "workers" + _rest(c)
                return
            cfg.workers = n
        else:
            cfg.cpu_ignored = c.error_text()
            return
    if cfg.corelist_workers and cfg.main_core is None:
        raise _refuse(
            "main-core must be specified when using corelist-* or coremask-* attribute",
            "cpu_config, " + profile.cite("cpu_break"),
        )


def _plugins(cfg: VppConfig, body: str, profile: Profile) -> None:
    """Whether dpdk_plugin.so loads: ``plugin dpdk_plugin.so { enable|disable }`` or ``plugin default``."""
    c = Cursor(body)
    default_on = True
    dpdk: bool | None = None
    while not c.at_end:
        if c.prefix("plugin"):
            name = c.string() or ""
            sub = c.sub_input() or ""
            on = None
            s = Cursor(sub)
            while not s.at_end:
                if s.literal("enable"):
                    on = True
                elif s.literal("disable"):
                    on = False
                elif s.literal("skip-version-check"):
                    pass
                else:
                    raise _refuse(f"unknown input '{s.error_text()}'", "config_one_plugin, src/vlib/unix/plugin.c")
            if name == "default" and on is not None:
                default_on = on
            elif name == "dpdk_plugin.so" and on is not None:
                dpdk = on
        else:
            c.string()
    cfg.dpdk_plugin = dpdk if dpdk is not None else default_on


def _dpdk(cfg: VppConfig, body: str, profile: Profile) -> None:
    c = Cursor(body)
    where = "dpdk_config, " + profile.cite("dpdk_unknown")
    flags = DPDK_FLAGS + tuple(k for k in profile.dpdk_keys_added if k in ("enable-mbuf-fast-free",))
    values = DPDK_VALUES + tuple(k for k in profile.dpdk_keys_added if k != "enable-mbuf-fast-free")
    while not c.at_end:
        if c.literal("dev", "default"):
            sub = c.sub_input()
            if sub is None:
                raise _refuse(f"unknown input `{c.error_text()}'", where)
            _dev(cfg.default_dev, sub, profile)
            continue
        save = c.i
        if c.prefix("dev"):
            addr = c.pci_addr()
            if addr is not None:
                if any(d.addr == addr for d in cfg.devs):
                    raise _refuse(
                        f"duplicate configuration for PCI address {addr}",
                        "dpdk_device_config, src/plugins/dpdk/device/init.c",
                    )
                dev = DevConf(addr)
                sub = c.sub_input()
                if sub is not None:
                    _dev(dev, sub, profile)
                cfg.devs.append(dev)
                continue
            c.i = save
        matched = False
        for k in flags:
            if c.literal(k):
                matched = True
                if k == "no-hugetlb":
                    cfg.no_hugetlb = True
                elif k == "telemetry":
                    cfg.telemetry = True
                elif k == "no-pci":
                    cfg.no_pci = True
                elif k in PORT_CONF_WORDS:
                    setattr(cfg.port_conf, PORT_CONF_WORDS[k], True)
                    if k == "enable-tcp-udp-checksum" and c.literal("enable-outer-checksum-offload"):
                        cfg.port_conf.enable_outer_checksum_offload = True
                break
        if matched:
            continue
        for k in values:
            v = _key_value(c, k)
            if v is not None:
                if k == "socket-mem":
                    cfg.socket_mem = v
                matched = True
                break
        if matched:
            continue
        for k in EAL_FLAGS:
            if c.literal(k):
                cfg.eal_extra.append(f"--{k}")
                matched = True
                break
        if matched:
            continue
        for k in EAL_VALUES:
            v = _key_value(c, k)
            if v is not None:
                if k == "vdev":
                    cfg.vdevs.append(v)
                elif k == "file-prefix":
                    cfg.file_prefix = v
                else:
                    cfg.eal_extra += [f"--{k}", v]
                matched = True
                break
        if matched:
            continue
        for k, opt in EAL_SINGLE.items():
            v = _key_value(c, k)
            if v is not None:
                cfg.eal_extra += [opt, v]
                matched = True
                break
        if matched:
            continue
        if c.prefix("blacklist"):
            addr = c.pci_addr()
            if addr is not None:
                cfg.eal_extra += ["-b", addr]  # blacklist %x:%x:%x.%x: "-b" and the address (dpdk_config)
            else:
                c.string()  # a vendor:device or VMBUS blacklist: applied by VPP's own binding, not modelled
            continue
        if c.literal("default"):
            continue
        raise _refuse(f"unknown input `{c.error_text()}'", where)


def _key_value(c: Cursor, key: str) -> str | None:
    """``<key> %s``: the word after the key, or None (the cursor where it was)."""
    save = c.i
    if c.literal(key):
        v = c.string()
        if v is not None:
            return v
    c.i = save
    return None


def _dev(dev: DevConf, body: str, profile: Profile) -> None:
    c = Cursor(body)
    where = "dpdk_device_config, " + profile.cite("dev_unknown")
    while not c.at_end:
        for key, attr in (
            ("num-rx-queues", "num_rx_queues"),
            ("num-tx-queues", "num_tx_queues"),
            ("num-rx-desc", "num_rx_desc"),
            ("num-tx-desc", "num_tx_desc"),
            ("max-lro-pkt-size", None),
        ):
            save = c.i
            if c.prefix(key):
                v = c.uint()
                if v is None:
                    c.i = save
                    continue
                if attr:
                    setattr(dev, attr, v)
                break
        else:
            if c.prefix("name"):
                dev.name = c.string()
            elif c.prefix("devargs"):
                dev.devargs = c.string()
            elif c.prefix("tag"):
                c.string()
            elif c.prefix("workers"):
                w = c.bitmap_list()
                if w is None:
                    raise _refuse(f"unknown input `{c.error_text()}'", where)
                dev.workers = w
            elif c.prefix("rss-queues"):
                c.bitmap_list()
            elif c.prefix("rss"):
                if c.sub_input() is None:
                    raise _refuse(f"unknown input `{c.error_text()}'", where)
            elif c.literal("tso", "on"):
                dev.tso = True
            elif c.literal("tso", "off"):
                dev.tso = False
            elif c.literal("no-rx-interrupts"):
                pass
            else:
                raise _refuse(f"unknown input `{c.error_text()}'", where)
            continue
    if dev.workers and dev.num_rx_queues == 0:
        dev.num_rx_queues = len(dev.workers)
    elif dev.workers and len(dev.workers) != dev.num_rx_queues:
        raise _refuse(
            f"{dev.addr}: number of worker threads must be equal to number of rx queues",
            "dpdk_device_config, " + profile.cite("workers_rxq"),
        )
