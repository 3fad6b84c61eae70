"""FD.io VPP from its startup configuration: ``mpcalc app -- vpp -c startup.conf`` (or ``vpp unix { ... } dpdk
{ ... }``).

VPP's memory is not where a DPDK user looks:

- the packet buffers are VPP's own: one physmem map per NUMA node on hugepages (:mod:`.buffers`), outside
  DPDK's heap; DPDK sees them through two header-only mempools per buffer pool, ``vpp pool N`` (cache 512) and
  ``vpp pool N (no cache)``, with VPP's own ops: no ring, no objects memzone (src/plugins/dpdk/buffer.c);
- DPDK runs ``--in-memory`` (unless ``no-hugetlb``) with the EAL arguments VPP builds; ``socket-mem`` is parsed
  and ignored ("socket-mem argument is deprecated"); VPP makes sure at least 16 MB of hugepages are free per
  socket of its threads before ``rte_eal_init`` (src/plugins/dpdk/device/init.c);
- the main heap (``memory { main-heap-size }``, 1 GiB) and the stats segment (``statseg { size }``, 32 MiB)
  are on 4 KiB pages unless their page size says otherwise.

The result is DPDK's part as for any application (EAL, the ports through :mod:`mpcalc.dpdk.drivers.ethdev`, the
two pools' headers sized by mpcalc's mempool header maths), and ``details.vpp``: per NUMA node the buffer map,
the hugepages to reserve per page size, the memory outside hugepages and the buffers the interfaces, queues
and threads take against the buffers there are.

Each fact is cited ``tag:path:line`` at the profile's release (:mod:`.profiles`).  Pure: stdlib only.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from mpcalc.dpdk import drivers
from mpcalc.dpdk.apps.eal import EalArgs, eal_parts, parse_eal, platform_for
from mpcalc.dpdk.apps.names import real_names
from mpcalc.dpdk.apps.vpp import buffers as B
from mpcalc.dpdk.apps.vpp.profiles import DEFAULT, PROFILES, TAGS, Profile, profile
from mpcalc.dpdk.apps.vpp.startup import DevConf, VppConfig, parse
from mpcalc.dpdk.apps.vpp.vpp_offloads import port_offloads, tso_enabled
from mpcalc.dpdk.core.errors import InputError
from mpcalc.dpdk.core.heap import heap_cost, hugepages, memzone_len
from mpcalc.dpdk.core.platform import DEFAULT_PAGE_SIZE, Platform
from mpcalc.dpdk.core.records import Allocation, Mempool, Memzone, Result
from mpcalc.dpdk.core.standalone import Parts, finish
from mpcalc.dpdk.core.struct_sizes import sizes
from mpcalc.dpdk.drivers import ethdev
from mpcalc.dpdk.drivers.naming import bindings_of
from mpcalc.dpdk.objects.mempool.checks import create_empty_checks
from mpcalc.dpdk.objects.mempool.layout import calc_obj_size, header_layout, header_size

__all__ = ["DEFAULT", "PROFILES", "TAGS", "Profile", "VppConfig", "parse", "profile", "size"]

#: sizeof (struct rte_pktmbuf_pool_private): the pools' private data (uint16 x2, uint32 flags)
PKTMBUF_POOL_PRIVATE = 8
#: VPP's two pools per buffer pool: the name, its cache size and its ops (src/plugins/dpdk/buffer.c)
POOL_KINDS = (("vpp pool {}", 512, "vpp"), ("vpp pool {} (no cache)", 0, "vpp-no-cache"))
#: the ``Rx``/``Tx`` descriptors of a port whose driver VPP knows no default for (DPDK_NB_RX_DESC_DEFAULT)
DESC_DEFAULT = 1024
#: sizeof (struct rte_mempool_objhdr) and (struct rte_mbuf) on x86_64 (every release measured)
OBJHDR = 24
MBUF = 128
PRE_RESERVE = 16 << 20
#: VPP's table of drivers (dpdk_drivers, src/plugins/dpdk/device/driver.c): the drivers whose Rx/Tx descriptors
#: it sets, used when the config gives none (dpdk_lib_init, profile facts virtio_256, rx/tx_desc_driver)
VPP_DRIVER_DESC = {"net_virtio": (256, 256)}
#: the driver VPP blocks unless a dev line names it (dpdk_bind_devices_to_uio, fact vmxnet3_blocked)
VMXNET3 = "net_vmxnet3"


@dataclass(frozen=True)
class PortPlan:
    """One DPDK port as VPP sets it up: queues and descriptors (dpdk_lib_init, dpdk_device_setup)."""

    name: str
    driver: str
    rx_queues: int
    tx_queues: int
    rx_desc: int
    tx_desc: int
    numa: int = 0
    #: why DPDK refused its set-up: VPP marks the interface in error and it holds no buffers
    error: str | None = None

    def to_dict(self) -> dict[str, object]:
        return {
            "name": self.name,
            "driver": self.driver,
            "numa": self.numa,
            "rx_queues": self.rx_queues,
            "tx_queues": self.tx_queues,
            "rx_desc": self.rx_desc,
            "tx_desc": self.tx_desc,
            "rx_buffers": self.rx_queues * self.rx_desc,
            "tx_buffers": self.tx_queues * self.tx_desc,
            "error": self.error,
        }


def eal_argv(cfg: VppConfig, blocked: tuple[str, ...] = ()) -> list[str]:
    """The EAL arguments dpdk_config builds, in its order: what the section adds as it is read, then
    ``--in-memory`` (unless no-hugetlb), ``--no-telemetry`` (unless telemetry), ``--file-prefix vpp`` (unless
    given) and an ``-a ADDR[,devargs]`` per ``dev <pci>`` (a device's devargs, else ``dev default``'s), or,
    without one, a ``-b`` per device VPP blocks (``blocked``: vmxnet3)."""
    out = ["vnet"]
    if cfg.no_hugetlb:
        out.append("--no-huge")
    if cfg.no_pci:
        out.append("--no-pci")
    out += cfg.eal_extra
    for v in cfg.vdevs:
        out += ["--vdev", v]
    if not cfg.no_hugetlb:
        out.append("--in-memory")
    if not cfg.telemetry:
        out.append("--no-telemetry")
    out += ["--file-prefix", cfg.file_prefix or "vpp"]
    for d in cfg.devs:
        devargs = d.devargs or cfg.default_dev.devargs
        out += ["-a", f"{d.addr},{devargs}" if devargs else d.addr]
    if not cfg.devs:
        for addr in blocked:
            out += ["-b", addr]
    return out


def blocked_devices(cfg: VppConfig, e: EalArgs, p: Platform) -> tuple[str, ...]:
    """dpdk_bind_devices_to_uio: without ``dev <pci>`` lines VPP takes every NIC it supports but puts a vmxnet3
    on its blacklist (EAL's ``-b``) unless a ``dev`` line names it; of the ports ``--devbind`` shows bound to
    DPDK, the vmxnet3 ones."""
    if cfg.devs or cfg.no_pci:
        return ()
    return tuple(pt.name for pt in ethdev.eal_ports(e, p) if pt.driver == VMXNET3)


def _devconf(cfg: VppConfig, port: ethdev.Port) -> DevConf:
    """dpdk_find_startup_config: the ``dev <pci>`` section of a PCI port, every item it leaves 0 taken from
    ``dev default`` (foreach_dpdk_device_config_item in dpdk_config); a vdev's is ``dev default``."""
    own = next((d for d in cfg.devs if d.addr == port.name), None)
    if own is None:
        return cfg.default_dev
    dflt = cfg.default_dev
    return replace(
        own,
        num_rx_queues=own.num_rx_queues or dflt.num_rx_queues,
        num_tx_queues=own.num_tx_queues or dflt.num_tx_queues,
        num_rx_desc=own.num_rx_desc or dflt.num_rx_desc,
        num_tx_desc=own.num_tx_desc or dflt.num_tx_desc,
        tso=own.tso if own.tso is not None else dflt.tso,  # "copy tso config from default device"
    )


def numa_nodes(cfg: VppConfig) -> list[int]:
    """The nodes VPP makes buffers on: every node with CPUs and memory; the model knows node 0 and the nodes
    ``buffers { numa N { ... } }`` names (a node given 0 buffers has none: vlib_buffer_main_init)."""
    return sorted({0, *cfg.buffers_numa})


def default_hugepage(cfg: VppConfig, p: Platform) -> int:
    """The default hugepage size: ``memory { default-hugepage-size }``, else the platform's page when it is a
    hugepage (--page-size), else 2 MiB."""
    if cfg.default_hugepage_size:
        return cfg.default_hugepage_size
    return p.page_size if p.page_size and p.page_size > 4096 else DEFAULT_PAGE_SIZE


def _page(value: int | str | None, huge: int) -> int:
    if value in (None, "default-hugepage"):
        return huge
    if value == "default":
        return 4096
    return int(value)


def buffer_maps(cfg: VppConfig, pr: Profile, huge: int, notes: list[str]) -> list[B.BufferMap]:
    """vlib_buffer_main_init: a map and a pool per node, maps one after another in pmalloc's space."""
    ext = B.ext_hdr_size(OBJHDR, MBUF) if cfg.dpdk_plugin else 0
    page = _page(cfg.buffer_page_size, huge)
    if page not in (huge, 4096):
        raise InputError(
            f"VPP refuses its startup config: buffers {{ page-size }} {page:,} B is neither the default hugepage "
            f"({huge:,} B) nor the system page: pmalloc says 'unsupported page size ({page >> 10}KB)' and VPP "
            f"'failed to allocate buffer pool(s)' ({pr.cite('pmalloc_unsupported')})",
            param="command_line",
        )
    size = B.alloc_size(ext, cfg.data_size)
    if size > page:
        raise InputError(
            f"VPP refuses its startup config: buffer size ({size}) is greater than page size ({page}) "
            f"(vlib_buffer_main_init_numa_alloc, {pr.cite('buffer_gt_page')})",
            param="command_line",
        )
    base = cfg.physmem_base if cfg.physmem_base is not None else B.PHYSMEM_BASE
    limit = cfg.physmem_max_size or B.PMALLOC_RESERVED
    limit = -(-limit // huge) * huge
    maps: list[B.BufferMap] = []
    at = base
    for node in numa_nodes(cfg):
        want = cfg.buffers_numa.get(node)
        if want == 0:
            continue  # buffers 0: no pool on this node (src/vlib/buffer.c)
        if want is None:
            want = cfg.buffers_per_numa or B.DEFAULT_BUFFERS_PER_NUMA
        m = B.buffer_map(node, want, cfg.data_size, ext, page, huge, at, len(maps))
        if at + m.bytes - base > limit:
            raise InputError(
                f"VPP cannot map its buffers: {at + m.bytes - base:,} B of buffer maps, beyond physmem's "
                f"{limit:,} B (physmem {{ max-size }}, 16 GiB by default: {pr.cite('pmalloc_reserved')}; "
                f"clib_pmalloc_create_shared_arena, {pr.cite('pmalloc_max_pages')})",
                param="command_line",
            )
        maps.append(m)
        at += m.bytes
    if not maps:
        raise InputError("VPP refuses its startup config: failed to allocate buffer pool(s)", param="command_line")
    if cfg.buffer_page_size is None:
        notes.append(
            f"buffers on {huge >> 20} MiB hugepages; if VPP cannot map them it falls back to 4 KiB pages with "
            f"{B.DEFAULT_BUFFERS_PER_NUMA_UNPRIV:,} buffers unless buffers-per-numa is given "
            f"({pr.cite('fallback_4k')})"
        )
    return maps


def vpp_pools(maps: list[B.BufferMap], p: Platform, pr: Profile) -> tuple[list[Mempool], list[str]]:
    """dpdk_buffer_pool_init: ``rte_mempool_create_empty`` twice per buffer pool, ``n`` its buffers, the
    element ``sizeof (rte_mbuf) + sizeof (vlib_buffer_t) + data_size``; VPP's ops allocate nothing (no ring,
    no objects: they are VPP's buffers)."""
    pools: list[Mempool] = []
    errors: list[str] = []
    r = p.release
    tailq = Allocation(name="MEMPOOL_TAILQ_ENTRY", size=r.tailq_entry_size, role="tailq entry")
    for m in maps:
        elt = MBUF + B.VLIB_BUFFER_SIZE + m.data_size
        for fmt, cache, ops in POOL_KINDS:
            name = fmt.format(m.pool_index)
            objsz = calc_obj_size(elt, 0, p)
            errs = create_empty_checks(r, name, len(name), m.buffers, elt, cache, 0, objsz.total_size)
            if errs:
                which = "normal" if cache else "non-cache"
                errors.append(
                    f"dpdk_buffer_pool_init: failed to create {which} mempool for numa node {m.pool_index} "
                    f"({pr.cite('mp_fail')}; {errs[0].function}: {errs[0].reason})"
                )
                return pools, errors
            h = header_layout(cache, PKTMBUF_POOL_PRIVATE, p)
            zone = Memzone(f"MP_{name}", memzone_len(header_size(h, p), p), "header")
            pools.append(
                Mempool(
                    name=name,
                    count=m.buffers,
                    elt_size=elt,
                    cache_size=cache,
                    private_data_size=PKTMBUF_POOL_PRIVATE,
                    flags=0,
                    effective_flags=0,
                    mp_flags=None,
                    ops_name=ops,
                    objsz=objsz,
                    header=h,
                    ring_size=None,
                    objs_per_page=None,
                    memzones=(zone,),
                    allocations=(tailq,),
                    heap_bytes=heap_cost(zone.len, p) + heap_cost(tailq.size, p),
                )
            )
    return pools, errors


def port_plans(
    cfg: VppConfig, ports: list[ethdev.Port], pr: Profile, huge: int, l3cache: bool, p: Platform, notes: list[str]
) -> list[PortPlan]:
    """dpdk_lib_init: queues and descriptors of each port, in port order (the PCI ports, then the vdevs), from
    its startup config (:func:`_devconf`), VPP's table of its driver (``n_rx_desc``/``n_tx_desc``: 256 for
    net_virtio) and the driver's limits: Rx queues only above one and within ``max_rx_queues``, Tx queues
    the config's or one per thread, clamped to ``max_tx_queues``; from v25.02 the Tx descriptors clamped to
    ``tx_desc_lim.nb_max`` with VPP's warning."""
    rxd_default = DESC_DEFAULT if (huge != DEFAULT_PAGE_SIZE or l3cache) else 512
    plans: list[PortPlan] = []
    for port in ports:
        pmd = drivers.get(port.driver)
        dc = _devconf(cfg, port)
        max_rx, max_tx = pmd.max_queues(port, p)
        rxq = dc.num_rx_queues if dc.num_rx_queues > 1 and max_rx >= dc.num_rx_queues else 1
        txq = min(max_tx, dc.num_tx_queues or cfg.n_threads)
        drv_rx, drv_tx = VPP_DRIVER_DESC.get(port.driver, (0, 0))
        rxd = dc.num_rx_desc or drv_rx or rxd_default
        txd = dc.num_tx_desc or drv_tx or rxd_default
        nb_max = pmd.tx_desc_lim(port, p).nb_max
        if pr.tx_desc_clamped and txd > nb_max:
            notes.append(
                f"[{port.port_id}] Configured number of TX descriptors ({txd}) is bigger than maximum supported "
                f"({nb_max}): VPP uses {nb_max} ({pr.cite('tx_desc_warn')})"
            )
            txd = nb_max
        plans.append(PortPlan(port.name, port.driver, rxq, txq, rxd, txd))
    return plans


def size(
    argv: list[str],
    p: Platform,
    cpus: tuple[int, ...] | None = None,
    release: str | None = None,
    base_dir: str | None = None,
    l3cache: bool = True,
    nics: list[str] | tuple[str, ...] | None = None,
    devbind: str | None = None,
) -> Result:
    """Everything VPP maps at start-up for ``argv`` (``vpp -c FILE`` or the inline form) at ``release``; the
    drivers of its ``dev <pci>`` devices (or, without one, of the NICs bound to DPDK) from ``nics``
    (``ADDR=DRIVER``) and ``devbind`` (what ``dpdk-devbind.py --status`` prints), as for any application."""
    pr = profile(release)
    cfg = parse(argv, pr, base_dir)
    notes: list[str] = []
    if cpus is not None:
        wanted = [cfg.main_core or 0, *cfg.corelist_workers]
        missing = [c for c in wanted if c not in cpus]
        if missing:
            raise InputError(
                f"cpu {{}} names CPU {', '.join(map(str, missing))}, which the machine lacks (--cpus): VPP cannot "
                "pin its threads there",
                param="cpus",
            )
    huge = default_hugepage(cfg, p)
    maps = buffer_maps(cfg, pr, huge, notes)
    parts = Parts()
    e = None
    plans: list[PortPlan] = []
    pool_errors: list[str] = []
    where = p
    eal_args: list[str] = []
    if cfg.dpdk_plugin:
        # VPP passes no lcores: EAL takes the main thread's affinity, the main core (vpp main sets it)
        e = _eal([*eal_argv(cfg), "-l", str(cfg.main_core or 0)], p, nics, devbind)
        blocked = blocked_devices(cfg, e, p)
        if blocked:
            e.pci_blocked += blocked  # the -b eal_argv(cfg, blocked) adds: no dev line, so no -a beside them
            notes.append(
                f"{', '.join(blocked)}: vmxnet3, which VPP blocks unless a dev line names it (-b, "
                f"{pr.cite('vmxnet3_blocked')})"
            )
        if not cfg.devs and not cfg.no_pci and devbind:
            notes.append(
                "no dev <pci> lines: VPP also binds every NIC it supports that Linux is not using to its uio-driver; "
                "the ports counted are those --devbind shows bound to DPDK"
            )
        eal_args = eal_argv(cfg, blocked)
        where = platform_for(e, p._replace(page_size=huge))
        sizes(where)  # the struct sizes are known for the releases measured: refuse the others
        parts.allocations += eal_parts(where)
        ports = ethdev.probed_ports(e, where, "VPP", notes, need_one=False)
        parts.extend(ethdev.probe_ports(ports, where))
        pools, pool_errors = vpp_pools(maps, where, pr)
        parts.mempools += pools
        if pool_errors:
            raise InputError(f"VPP stops: {pool_errors[0]}", param="command_line")
        plans = port_plans(cfg, ports, pr, huge, l3cache, where, notes)
        for i, (port, plan) in enumerate(zip(ports, plans, strict=True)):
            rx_capa, tx_capa = ethdev.offload_capa(port, where)
            tso = tso_enabled(pr, port.port_id, cfg.port_conf, _devconf(cfg, port).tso, tx_capa, notes)
            rxo, txo, cite = port_offloads(pr, cfg.port_conf, tso, rx_capa, tx_capa)
            if rxo or txo:
                notes.append(f"{port.name}: VPP asks for Rx offloads {rxo:#x} and Tx offloads {txo:#x} ({cite})")
            q = ethdev.QueueConf(
                plan.rx_queues,
                plan.tx_queues,
                plan.rx_desc,
                plan.tx_desc,
                lsc_interrupt=False,
                rx_data_room=B.VLIB_BUFFER_PRE_DATA_SIZE + cfg.data_size,
                tx_first=True,  # dpdk_device_setup: the Tx queues, then the Rx queues (pr.cite("tx_setup_first"))
                rx_offloads=rxo,
                tx_offloads=txo,
            )
            why = ethdev.configure_refusal(port, q, where, rxo, txo)
            if why is not None:
                notes.append(f"{why}: VPP marks the interface in error (dpdk_device_setup)")
                plans[i] = replace(plan, error=why)
                continue
            failed = ethdev.descriptor_refusals(port, q, where)
            for text in failed.values():
                notes.append(f"{port.name}: {text}: VPP marks the interface in error (dpdk_device_setup)")
                plans[i] = replace(plans[i], error=text)
            qparts, qpools = ethdev.configure(port, q, where, frozenset(failed))
            parts.extend(qparts)
            parts.mempools += qpools
            notes += ethdev.port_notes([port], q, where)
        parts.allocations = real_names(parts.allocations)
    result = finish("app", 0, where, parts)
    heap = result.heap_bytes
    vpp = _details(cfg, pr, maps, plans, heap, huge, where, notes, l3cache, eal_args)
    details: dict[str, object] = {
        "program": "vpp",
        "application": "vpp",
        "command_line": list(argv),
        "eal": e.to_dict() if e is not None else None,
        "vpp": vpp,
        "page_size": where.page_size,
        "memzone_count": len([z for mp in parts.mempools for z in mp.memzones] + parts.zones),
        "allocation_count": len(parts.allocations) + sum(len(mp.allocations) for mp in parts.mempools),
        "sockets": [{"socket": 0, "heap_bytes": heap}],
        "notes": notes,
    }
    return result._replace(details=details, heap_bytes=heap, hugepages=hugepages(heap, where))


def _eal(argv: list[str], p: Platform, nics: list[str] | tuple[str, ...] | None, devbind: str | None) -> EalArgs:
    """EAL's reading of the arguments VPP builds, the target machine's NICs bound to their drivers."""
    e, _ = parse_eal(argv, p.release.version)
    e.pci_bindings, e.devbind = bindings_of(nics, devbind), devbind
    return e


def _details(
    cfg: VppConfig,
    pr: Profile,
    maps: list[B.BufferMap],
    plans: list[PortPlan],
    heap: int,
    huge: int,
    p: Platform,
    notes: list[str],
    l3cache: bool,
    eal_args: list[str],
) -> dict[str, object]:
    threads = cfg.n_threads
    pre_pages = -(-PRE_RESERVE // huge)
    dpdk_huge = cfg.dpdk_plugin and not cfg.no_hugetlb
    dpdk_pages = -(-heap // huge) if dpdk_huge else 0
    main_page = _page(cfg.main_heap_page_size, huge)
    stat_page = _page(cfg.statseg_page_size, huge)
    nodes = []
    for node in numa_nodes(cfg):
        m = next((x for x in maps if x.numa == node), None)
        per_size: dict[int, int] = {}
        maps_pages: dict[int, int] = {}
        outside = []

        def add(page: int, n: int, into: dict[int, int]) -> None:
            if page > 4096 and n:
                into[page] = into.get(page, 0) + n

        if m is not None:
            if m.page_size > 4096:
                add(m.page_size, m.pages, maps_pages)
            else:
                outside.append({"what": f"buffers ({m.name})", "bytes": m.bytes, "page_size": m.page_size})
        if node == 0:
            for what, sz, pg in (
                ("main heap", cfg.main_heap_size, main_page),
                ("stats segment", cfg.statseg_size, stat_page),
            ):
                if pg > 4096:
                    add(pg, -(-sz // pg), maps_pages)
                else:
                    outside.append({"what": what, "bytes": sz, "page_size": pg})
            if cfg.dpdk_plugin and not dpdk_huge:
                outside.append({"what": "DPDK heap (--no-huge)", "bytes": heap, "page_size": 4096})
        per_size = dict(maps_pages)
        dpdk_here = dpdk_pages if node == 0 else 0
        reserve_dpdk = max(dpdk_here, pre_pages if (node == 0 and dpdk_huge) else 0)
        maps_with_dpdk = dict(maps_pages)
        add(huge, dpdk_here, maps_with_dpdk)
        add(huge, reserve_dpdk, per_size)
        supply = m.buffers if m is not None else (maps[0].buffers if maps else 0)
        mine = [x for x in plans if x.numa == node and x.error is None]
        rx = sum(x.rx_queues * x.rx_desc for x in mine)
        tx = sum(x.tx_queues * x.tx_desc for x in mine)
        caches = threads * B.PER_THREAD_CACHE if node == 0 else 0
        demand = rx + tx + caches
        entry: dict[str, object] = {
            "numa": node,
            "buffers": m.to_dict() if m is not None else None,
            "hugepages_mapped": {str(k): v for k, v in sorted(maps_with_dpdk.items())},
            "nr_hugepages": {str(k): v for k, v in sorted(per_size.items())},
            "dpdk_heap_pages": dpdk_here,
            "pre_reserve_pages": pre_pages if (node == 0 and dpdk_huge) else 0,
            "outside_hugepages": outside,
            "demand": {
                "rx_descriptors": rx,
                "tx_descriptors": tx,
                "thread_caches": caches,
                "total": demand,
                "supply": supply,
                "margin": supply - demand,
            },
        }
        if demand > supply:
            msg = (
                f"numa {node}: the interfaces, queues and threads can hold {demand:,} buffers but the pool has "
                f"{supply:,}: VPP runs short (Rx rings left unfilled, drops; raise buffers-per-numa)"
            )
            entry["warning"] = msg
            notes.append(msg)
        nodes.append(entry)
    if cfg.socket_mem is not None:
        notes.append(
            f"dpdk {{ socket-mem {cfg.socket_mem} }} is parsed and ignored: 'socket-mem argument is deprecated' "
            f"({pr.cite('socket_mem_deprecated')})"
        )
    if cfg.cpu_ignored:
        notes.append(f"cpu {{}}: cpu_config stops reading at '{cfg.cpu_ignored}' (no error: {pr.cite('cpu_break')})")
    if not l3cache and huge == DEFAULT_PAGE_SIZE:
        notes.append(f"no L3 cache: the ports' default descriptors are 512 ({pr.cite('l3cache_512')})")
    if cfg.ignored:
        notes.append("sections not read (no memory of theirs is modelled): " + ", ".join(cfg.ignored))
    notes.append(
        "the buffers are counted on NUMA node 0 and the nodes buffers { numa N } names; VPP makes one map per "
        "node with CPUs and memory"
    )
    return {
        "release": pr.to_dict(),
        "config": cfg.to_dict(),
        "default_hugepage_size": huge,
        "dpdk_plugin": cfg.dpdk_plugin,
        "eal_args": eal_args[1:],
        "threads": threads,
        "ports": [x.to_dict() for x in plans],
        "numa": nodes,
        "citations": {
            "alloc_size": pr.cite("alloc_size_fn", "alloc_size"),
            "n_pages": pr.cite("n_pages"),
            "buffer_count": pr.cite("natural_align", "waste_one", "pool_loop", "skip_span"),
            "ext_hdr_size": pr.cite("ext_hdr_dpdk"),
            "physmem_base": pr.cite("physmem_base"),
            "pmalloc_pages": pr.cite("pmalloc_pages", "pmalloc_va"),
            "mempools": pr.cite("mp_cached", "mp_create_cached", "mp_nocache", "mp_ops"),
            "in_memory": pr.cite("in_memory"),
            "pre_reserve": pr.cite("prereserve"),
            "main_heap": pr.cite("main_heap_default"),
            "statseg": pr.cite("statseg_default"),
            "rx_desc": pr.cite("rx_desc_default", "l3cache_512"),
            "tx_queues": pr.cite("tx_queues_default", "tx_queues_min"),
            "thread_cache": pr.cite("per_thread_cache"),
        },
    }
