"""dpdk-testpmd (app/test-pmd at the release): its options, and everything its start-up reserves.

The order is main()'s (v22.11:app/test-pmd/testpmd.c:4560-4740): rte_eal_init (EAL's own allocations,
the vdev ports' probe), init_port (``ports``), register_eth_event_callback, rte_pdump_init, the option
parsing (launch_args_parse, app/test-pmd/parameters.c), init_config (fwd_lcores, mbuf pools, fwd streams,
GRO contexts), start_port (each port's configure, queue set-ups and start) and rte_metrics_init.

Pure: stdlib only.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from mpcalc.dpdk import drivers
from mpcalc.dpdk.apps.eal import EalArgs
from mpcalc.dpdk.apps.testpmd_options import _DEFAULTS, _FLAGS, _NOT_MODELLED, _OPTIONAL, _SINCE, _UNTIL, _WITH_VALUE
from mpcalc.dpdk.core.errors import InputError
from mpcalc.dpdk.core.flags import MempoolFlag
from mpcalc.dpdk.core.heap import memzone_len
from mpcalc.dpdk.core.intmath import ceil_a, ceil_div
from mpcalc.dpdk.core.platform import DEFAULT_PAGE_SIZE, Platform
from mpcalc.dpdk.core.records import Allocation, Mempool, Memzone
from mpcalc.dpdk.core.standalone import Parts
from mpcalc.dpdk.core.struct_sizes import check_option, since, sizes
from mpcalc.dpdk.drivers import ethdev
from mpcalc.dpdk.objects.mbuf import MbufSpec, mbuf_pool
from mpcalc.dpdk.objects.mempool import PoolSpec, create_pool

_SRC = "v22.11:app/test-pmd"
# testpmd.h at the release (v22.11:app/test-pmd/testpmd.h:49-85, 658)
RX_DESC_MAX = 2048
TX_DESC_MAX = 2048
MAX_PKT_BURST = 512
DEF_PKT_BURST = 32
DEF_MBUF_CACHE = 250
MIN_TOTAL_NUM_MBUFS = 1024
MAX_SEGS_BUFFER_SPLIT = 8
GRO_MAX_FLUSH_CYCLES = 4
RTE_PGSIZE_2M = 2 << 20  # v22.11:lib/eal/include/rte_memory.h:30


def extbuf_zone_size(p: Platform) -> int:
    """testpmd's EXTBUF_ZONE_SIZE = RTE_PGSIZE_2M - 4 * RTE_CACHE_LINE_SIZE (v22.11:app/test-pmd/testpmd.h:87).

    >>> extbuf_zone_size(Platform()), extbuf_zone_size(Platform(cache_line=128))
    (2096896, 2096640)
    """
    return RTE_PGSIZE_2M - 4 * p.cache_line


MP_ALLOC = ("native", "anon", "xmem", "xmemhuge", "xbuf")


@dataclass
class TestpmdArgs:
    total_num_mbufs: int = 0
    mbuf_sizes: list[int] = field(default_factory=lambda: [2176])  # DEFAULT_MBUF_DATA_SIZE
    mbcache: int = DEF_MBUF_CACHE
    nb_rxq: int = 1
    nb_txq: int = 1
    nb_rxd: int = 0  # RX_DESC_DEFAULT 0: the driver's default
    nb_txd: int = 0
    mp_alloc: str = "native"
    lsc_interrupt: bool = True
    device_start: bool = True
    no_iova_contig: bool = False
    numa: bool = True
    socket_num: int | None = None
    max_pkt_len: int = 0  # 0: the port's default MTU
    interactive: bool = False
    #: rx_offloads and tx_offloads as launch_args_parse leaves them: rx_mode's zero and tx_mode's
    #: RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE, then each option (v22.11.11:app/test-pmd/testpmd.c:476-480,
    #: parameters.c:594-595, 988-1017, 1337-1356, 1492-1493)
    rx_offloads: int = 0
    tx_offloads: int = ethdev.TX_OFFLOAD_MBUF_FAST_FREE
    given: dict[str, str | None] = field(default_factory=dict)

    def to_dict(self) -> dict[str, object]:
        return {
            "total_num_mbufs": self.total_num_mbufs or None,
            "mbuf_size": list(self.mbuf_sizes),
            "mbcache": self.mbcache,
            "rxq": self.nb_rxq,
            "txq": self.nb_txq,
            "rxd": self.nb_rxd or None,
            "txd": self.nb_txd or None,
            "mp_alloc": self.mp_alloc,
            "lsc_interrupt": self.lsc_interrupt,
            "device_start": self.device_start,
            "numa": self.numa,
        }


def _num(name: str, value: str | None, lo: int = 0, hi: int = 1 << 32) -> int:
    try:
        n = int(value or "", 0)
    except ValueError:
        raise InputError(f"testpmd --{name}={value!r} is not a number", param="command") from None
    if not lo <= n <= hi:
        raise InputError(f"testpmd --{name}={n}: testpmd takes {lo}..{hi}", param="command")
    return n


def atoi(text: str) -> int:
    """C's atoi: the leading decimal number, 0 without one.

    >>> atoi("12abc"), atoi(" -3"), atoi("x")
    (12, -3, 0)
    """
    m = re.match(r"\s*([+-]?\d+)", text)
    return int(m[1]) if m else 0


def is_default(name: str, value: str | None) -> bool:
    """Whether ``--name=value`` gives testpmd the value it has without the option (:data:`_DEFAULTS`)."""
    if name not in _DEFAULTS:
        return False
    default = _DEFAULTS[name]
    return atoi(value or "") == default if isinstance(default, int) else value == default


def parse(argv: list[str], p: Platform | None = None) -> TestpmdArgs:
    """launch_args_parse (v22.11:app/test-pmd/parameters.c:709-1470), for the options that change memory; with
    ``p``, the options of ``p``'s release only."""
    out = TestpmdArgs()
    i = 0
    while i < len(argv):
        tok = argv[i]
        i += 1
        if tok in ("-i", "-a"):
            out.interactive = out.interactive or tok == "-i"
            continue
        if not tok.startswith("--"):
            raise InputError(f"testpmd does not know the argument {tok!r}", param="command")
        name, eq, value = tok[2:].partition("=")
        if name in _WITH_VALUE and not eq:
            if i >= len(argv):
                raise InputError(f"testpmd --{name} needs a value", param="command")
            value, eq = argv[i], "="
            i += 1
        elif name not in _WITH_VALUE | _FLAGS | _OPTIONAL:
            raise InputError(f"testpmd does not know the option --{name} (it exits: 'Invalid option')", param="command")
        check_option("testpmd", name, p, _SINCE, _UNTIL, "Invalid option")
        out.given[name] = value if eq else None
        if name in _NOT_MODELLED and not is_default(name, value):
            raise InputError(f"testpmd --{name}: {_NOT_MODELLED[name]} are not modelled", param="command")
        _apply(out, name, value)
        if not out.nb_rxq and not out.nb_txq and p is not None and not since(p, "24.11"):
            where = "v22.11.11:app/test-pmd/parameters.c:1088-1091, after each option"
            raise InputError(f"{_NO_QUEUES} ({where})", param="command")
    if not out.nb_rxq and not out.nb_txq:
        raise InputError(_NO_QUEUES + " (v24.11.6:app/test-pmd/testpmd.c:4521-4522)", param="command")
    return out


_NO_QUEUES = "testpmd --rxq=0 --txq=0: testpmd exits: 'Either rx or tx queues should be non-zero'"
#: testpmd's flags that add an Rx offload (v22.11.11:app/test-pmd/parameters.c:988-1017)
_RX_OFFLOAD_FLAGS = {
    "disable-crc-strip": ethdev.RX_OFFLOAD_KEEP_CRC,
    "enable-lro": ethdev.RX_OFFLOAD_TCP_LRO,
    "enable-scatter": ethdev.RX_OFFLOAD_SCATTER,
    "enable-rx-cksum": ethdev.RX_OFFLOAD_CHECKSUM,
    "enable-rx-timestamp": ethdev.RX_OFFLOAD_TIMESTAMP,
    "enable-hw-vlan": ethdev.RX_OFFLOAD_VLAN,
    "enable-hw-vlan-filter": ethdev.RX_OFFLOAD_VLAN_FILTER,
    "enable-hw-vlan-strip": ethdev.RX_OFFLOAD_VLAN_STRIP,
    "enable-hw-vlan-extend": ethdev.RX_OFFLOAD_VLAN_EXTEND,
    "enable-hw-qinq-strip": ethdev.RX_OFFLOAD_QINQ_STRIP,
}


def _hex(name: str, value: str) -> int:
    """strtoull(optarg, &end, 16) (parameters.c:1337-1356): the leading hex digits, 0x allowed."""
    m = re.match(r"\s*(?:0[xX])?([0-9a-fA-F]*)", value)
    return int(m[1], 16) if m and m[1] else 0


def _apply(out: TestpmdArgs, name: str, value: str) -> None:
    if name in _RX_OFFLOAD_FLAGS:
        out.rx_offloads |= _RX_OFFLOAD_FLAGS[name]
    elif name == "rx-offloads":
        out.rx_offloads = _hex(name, value)
    elif name == "tx-offloads":
        out.tx_offloads = _hex(name, value)
    elif name == "interactive":
        out.interactive = True
    elif name == "total-num-mbufs":
        n = _num(name, value)
        if n <= MIN_TOTAL_NUM_MBUFS:  # parameters.c:941-948
            raise InputError(
                f"testpmd --total-num-mbufs={n}: it must be > {MIN_TOTAL_NUM_MBUFS} (testpmd exits)", param="command"
            )
        out.total_num_mbufs = n
    elif name == "mbuf-size":
        sizes = [_num(name, v, 0, 0xFFFF) for v in value.split(",")]
        if not 1 <= len(sizes) <= MAX_SEGS_BUFFER_SPLIT:  # parameters.c:923-940
            raise InputError(f"testpmd --mbuf-size: 1..{MAX_SEGS_BUFFER_SPLIT} sizes", param="command")
        out.mbuf_sizes = sizes
    elif name == "mbcache":
        out.mbcache = _num(name, value, 0, 512)  # RTE_MEMPOOL_CACHE_MAX_SIZE, parameters.c:1161-1170
    elif name in ("rxq", "txq"):
        setattr(out, "nb_" + name, _num(name, value, 0, ethdev.RTE_MAX_QUEUES_PER_PORT))
    elif name in ("rxd", "txd"):
        setattr(out, "nb_" + name, _num(name, value, 1, 0xFFFF))
    elif name == "mp-alloc":
        if value not in MP_ALLOC:
            raise InputError(f"testpmd --mp-alloc={value!r}: one of {', '.join(MP_ALLOC)}", param="command")
        out.mp_alloc = value
    elif name == "mp-anon":
        out.mp_alloc = "anon"
    elif name == "no-lsc-interrupt":
        out.lsc_interrupt = False
    elif name == "tx-first":
        out.lsc_interrupt = False  # testpmd.c:4625-4629: lsc_interrupt is turned off with --tx-first
    elif name == "disable-device-start":
        out.device_start = False
    elif name == "no-iova-contig":
        out.no_iova_contig = True
    elif name == "no-numa":
        out.numa = False
    elif name == "numa":
        out.numa = True
    elif name == "max-pkt-len":
        out.max_pkt_len = _num(name, value, 64)  # >= RTE_ETHER_MIN_LEN, else testpmd exits (parameters.c)
    elif name == "txonly-flows":
        _num(name, value, 1, 64)  # txonly's flow count, 1..64 else testpmd exits (v26.07:...parameters.c:1573-1578)
    elif name == "socket-num":
        out.socket_num = _num(name, value, 0, 0)  # one socket here


#: what marks a memzone on testpmd's external heap 'extmem' (--mp-alloc=xmem, xmemhuge): not on a socket's heap
EXTMEM_ROLE_SUFFIX = " (extmem heap)"
#: calc_mem_size's "assume 128MB will be enough for everyone" (v22.11.11:app/test-pmd/testpmd.c:808-813)
EXTMEM_HDR_MEM = 128 << 20
#: create_extmem's page sizes, tried in turn for xmemhuge: RTE_PGSIZE_2M, then RTE_PGSIZE_1G on x86_64
#: (v22.11.11:app/test-pmd/testpmd.c:880-881)
EXTMEM_PAGE_SIZES = (RTE_PGSIZE_2M, 1 << 30)


def extmem_size(seg: int, n: int, pgsz: int, p: Platform) -> int:
    """The anonymous mapping of setup_extmem for ``n`` mbufs of data room ``seg`` on pages of ``pgsz``:
    calc_mem_size (v22.11.11:app/test-pmd/testpmd.c:801-836), an object size of
    rte_mempool_calc_obj_size(mbuf_seg_size, 0) (the data room alone, as testpmd passes it, :1206), whole
    pages of objects, plus 128 MiB, rounded up to the page.

    >>> extmem_size(2176, 2048, 2 << 20, Platform()) // (2 << 20)  # measured: 67 pages (134 MB) more
    67
    """
    from mpcalc.dpdk.core.intmath import ceil_a
    from mpcalc.dpdk.objects.mempool.layout import calc_obj_size

    obj = calc_obj_size(seg, 0, p).total_size
    per_page = pgsz // obj
    pages = ceil_div(n, per_page)
    return ceil_a(EXTMEM_HDR_MEM + pages * pgsz, pgsz)


#: the role of memory outside the hugepage heap: --mp-alloc=anon's objects (an mmap of the process)
ANON_ROLE = "objects: anonymous mmap, not hugepage memory (rte_mempool_populate_anon)"
#: rte_mem_page_size(): sysconf(_SC_PAGESIZE), 4 KiB on Linux x86_64 (v22.11:lib/eal/unix/eal_unix_memory.c:136-144)
ANON_PAGE_SHIFT = 12


def anon_size(total_elt_sz: int, n: int) -> int:
    """The mmap of rte_mempool_populate_anon: get_anon_size = rte_mempool_ops_calc_mem_size(mp, mp->size,
    log2(rte_mem_page_size())) (v22.11:lib/mempool/rte_mempool.c:626-640, 663-715), the ring driver's
    rte_mempool_op_calc_mem_size_default on 4 KiB pages; not a memzone, so not rounded to a cache line.

    >>> anon_size(2368, 5000)  # testpmd --total-num-mbufs=5000 --mp-alloc=anon, measured: 20,480,639 B
    20480639
    """
    from mpcalc.dpdk.objects.mempool import calc_mem_size

    return calc_mem_size(total_elt_sz, n, ANON_PAGE_SHIFT)


def pool_name(socket: int, idx: int) -> str:
    """mbuf_poolname_build (v22.11:app/test-pmd/testpmd.h:935-945): mb_pool_<socket>, then mb_pool_<s>_<idx>."""
    return f"mb_pool_{socket}" if idx == 0 else f"mb_pool_{socket}_{idx}"


def mbufs_per_pool(t: TestpmdArgs, nb_lcores: int) -> int:
    """init_config (v22.11:app/test-pmd/testpmd.c:1730-1737): --total-num-mbufs, else
    (RX_DESC_MAX + lcores x cache + TX_DESC_MAX + MAX_PKT_BURST) x RTE_MAX_ETHPORTS."""
    if t.total_num_mbufs:
        return t.total_num_mbufs
    return (RX_DESC_MAX + nb_lcores * t.mbcache + TX_DESC_MAX + MAX_PKT_BURST) * ethdev.RTE_MAX_ETHPORTS


def _pool(
    t: TestpmdArgs,
    name: str,
    n: int,
    seg: int,
    p: Platform,
    parts: Parts,
    pools: list[Mempool],
    notes: list[str],
    extmem: list[dict[str, object]],
) -> None:
    """mbuf_pool_create (v22.11:app/test-pmd/testpmd.c:1148-1262) in each --mp-alloc mode."""
    s = sizes(p)
    r = p.release
    if t.mp_alloc in ("native", "xmem", "xmemhuge"):
        where = p
        if t.mp_alloc != "native":
            # setup_extmem: an external heap "extmem" of anonymous 4 KiB (xmem) or 2 MiB (xmemhuge) pages
            # (testpmd.c:877-1010); the pool's memzones are on that heap, not on a socket's hugepages
            where = p._replace(page_size=4096 if t.mp_alloc == "xmem" else DEFAULT_PAGE_SIZE)
        mp, errs, _ = mbuf_pool(MbufSpec(name=name, count=n, cache_size=t.mbcache, data_room=seg), where)
        parts.errors += errs
        if mp is not None:
            if t.mp_alloc != "native":
                from mpcalc.dpdk.core.heap import heap_cost

                mp = mp._replace(
                    memzones=tuple(z._replace(role=z.role + EXTMEM_ROLE_SUFFIX) for z in mp.memzones),
                    heap_bytes=sum(heap_cost(a.size, p) for a in mp.allocations),
                )
                if t.mp_alloc == "xmemhuge":
                    # setup_extmem(nb_mbuf, mbuf_seg_size, huge) once per pool: an mmap(MAP_ANONYMOUS |
                    # MAP_HUGETLB | MAP_HUGE_2MB) from the kernel's pool of 2 MiB hugepages, 1 GiB if that fails
                    # (v22.11.11:app/test-pmd/testpmd.c:851-870, 877-960, 1203-1209), not hugetlbfs nor EAL's heap
                    size = extmem_size(seg, n, EXTMEM_PAGE_SIZES[0], p)
                    pages = size // EXTMEM_PAGE_SIZES[0]
                    extmem.append({"pool": name, "bytes": size, "page_size": EXTMEM_PAGE_SIZES[0], "pages": pages})
                    notes.append(
                        f"--mp-alloc=xmemhuge: pool {name}'s memzones are on the external heap 'extmem', which "
                        f"testpmd maps itself with MAP_HUGETLB: {size:,} B, {pages:,} pages of 2 MiB from the "
                        "kernel's hugepage pool (calc_mem_size's 128 MiB included), besides the EAL's pages; the "
                        "advice's nr_hugepages counts them (with too few testpmd exits: 'Could not create "
                        "external memory')"
                    )
                else:
                    notes.append(
                        f"--mp-alloc={t.mp_alloc}: pool {name}'s memzones are on the external heap 'extmem' "
                        "(socket 256 and up), memory testpmd mmaps itself from ordinary 4 KiB pages: they take no "
                        "hugepage"
                    )
            pools.append(mp)
        return
    if t.mp_alloc == "anon":
        # rte_mempool_create_empty(name, n, sizeof(struct rte_mbuf) + seg, cache,
        # sizeof(struct rte_pktmbuf_pool_private), socket, mempool_flags) + rte_mempool_populate_anon:
        # the objects are in anonymous mmap()ed memory, no objects memzone (testpmd.c:1183-1200);
        # --no-iova-contig sets mempool_flags = RTE_MEMPOOL_F_NO_IOVA_CONTIG
        # (v22.11.11:app/test-pmd/parameters.c:1444-1445)
        mp = create_pool(
            PoolSpec(
                name=name,
                count=n,
                elt_size=r.mbuf_size + seg,
                cache_size=t.mbcache,
                private_size=r.pktmbuf_pool_private_size,
                flags=int(MempoolFlag.NO_IOVA_CONTIG) if t.no_iova_contig else 0,
            ),
            p,
        )
        objs = [z for z in mp.memzones if z.role == "objects"]
        from mpcalc.dpdk.core.heap import heap_cost

        mp = mp._replace(
            memzones=tuple(z for z in mp.memzones if z.role != "objects"),
            heap_bytes=mp.heap_bytes - sum(heap_cost(z.len, p) for z in objs),
        )
        if mp.objsz is not None:
            size = anon_size(mp.objsz.total_size, n)
            mp = mp._replace(allocations=(*mp.allocations, Allocation(f"{name} objects", size, ANON_ROLE)))
            notes.append(
                f"--mp-alloc=anon: pool {name}'s {n:,} objects are in one anonymous mmap of {size:,} B "
                "(rte_mempool_populate_anon): ordinary 4 KiB pages, outside every memzone and the hugepage "
                "heap; it is listed, and counted in total_bytes, but not in heap_bytes nor the hugepages"
            )
        pools.append(mp)
        return
    # xbuf: setup_extbuf reserves the pinned data buffers MP_<pool>_xb_<i> (testpmd.c:1085-1141), then
    # rte_pktmbuf_pool_create_extbuf: elements of sizeof(struct rte_mbuf) + rte_mbuf_ext_shared_info
    # (v22.11:lib/mbuf/rte_mbuf.c:324-334)
    elt = ceil_a(seg, p.cache_line)
    zone_size = extbuf_zone_size(p)
    per_zone = zone_size // elt
    for i in range(ceil_div(n, per_zone)):
        parts.zones.append(Memzone(f"MP_{name}_xb_{i}", memzone_len(zone_size, p), f"{name} pinned data"))
    mp = create_pool(
        PoolSpec(
            name=name,
            count=n,
            elt_size=r.mbuf_size + s["rte_mbuf_ext_shared_info"],
            cache_size=t.mbcache,
            private_size=r.pktmbuf_pool_private_size,
        ),
        p,
    )
    pools.append(mp)


#: the first release whose rte_eth_rx_metadata_negotiate registers the tunnel-id restore dynflag
#: (v23.11.7:lib/ethdev/rte_ethdev.c:6704-6706; absent at v22.11.11:lib/ethdev/rte_ethdev.c)
RESTORE_DYNFLAG_SINCE = "23.11"


def _check_queues(t: TestpmdArgs, ports: list[ethdev.Port], p: Platform) -> None:
    """--rxq/--txq against the smallest max_rx_queues/max_tx_queues of the ports (check_nb_rxq, check_nb_txq:
    v22.11.11:app/test-pmd/testpmd.c:1284-1327, 1340-1380; testpmd exits, parameters.c:1046-1063)."""
    for which, n, index in (("rxq", t.nb_rxq, 0), ("txq", t.nb_txq, 1)):
        if which not in t.given:
            continue
        limits = [(drivers.get(pt.driver).max_queues(pt, p)[index], pt.port_id) for pt in ports]
        allowed, pid = min(limits, default=(ethdev.RTE_MAX_QUEUES_PER_PORT, 0), key=lambda x: x[0])
        if n > allowed:
            raise InputError(
                f"Fail: input {which} ({n}) can't be greater than max_{which[:2]}_queues ({allowed}) of port {pid}: "
                f"testpmd exits ('{which} {n} invalid - must be >= 0 && <= {allowed}', app/test-pmd/parameters.c)",
                param="command",
            )


def rx_metadata_negotiate(p: Platform, s: dict[str, int]) -> Parts:
    """init_config -> init_config_port_offloads -> eth_rx_metadata_negotiate_mp asks every port for
    RTE_ETH_RX_METADATA_TUNNEL_ID (v23.11.7:app/test-pmd/testpmd.c:562-576, 1623-1629, 1739); from 23.11
    rte_eth_rx_metadata_negotiate then calls rte_flow_restore_info_dynflag_register, once per process, before
    asking the driver (v23.11.7:lib/ethdev/rte_ethdev.c:6704-6706, lib/ethdev/rte_flow.c:1481-1493):
    rte_mbuf_dynflag_register reserves the ``rte_mbuf_dyn`` memzone of struct mbuf_dyn_shm (init_shared_mem,
    v23.11.7:lib/mbuf/rte_mbuf_dyn.c:105-125) and rte_zmallocs a tailq entry and the flag's element
    (rte_mbuf_dyn.c:464-470).  Whatever the driver: the flag is registered before its callback is looked up."""
    from mpcalc.dpdk.core.facts import version_key

    out = Parts()
    if version_key(p.release.version) < version_key(RESTORE_DYNFLAG_SINCE):
        return out
    out.zones.append(Memzone("rte_mbuf_dyn", memzone_len(s["mbuf_dyn_shm"], p), "mbuf dynamic fields and flags"))
    out.allocations += [
        Allocation("MBUF_DYNFLAG_TAILQ_ENTRY", p.release.tailq_entry_size, "tailq entry"),
        Allocation("mbuf_dynflag", s["mbuf_dynflag_elt"], "mbuf dynamic flag (rte_flow_restore_info_dynflag)"),
    ]
    return out


def build(e: EalArgs, argv: list[str], p: Platform) -> tuple[Parts, list[Mempool], dict[str, object], list[str]]:
    """Everything testpmd reserves up to its prompt (or its forwarding), in its order."""
    t = parse(argv, p)
    s = sizes(p)  # the struct sizes measured at the release (refuses the others)
    if "enable-rss" in t.given and "disable-rss" in t.given:  # v25.11.2:app/test-pmd/parameters.c:1255-1267
        raise InputError(
            "testpmd --enable-rss with --disable-rss: it exits ('Invalid option combination')", param="command"
        )
    notes: list[str] = []
    nb_lcores = len(e.workers)
    if nb_lcores == 0:
        raise InputError(
            "testpmd needs a forwarding lcore besides the main one (it exits: 'Empty set of "
            "forwarding logical cores', v22.11:app/test-pmd/testpmd.c:4611-4613)",
            param="command",
        )
    ports = ethdev.probed_ports(e, p, "testpmd", notes)
    if not ports:
        raise InputError(
            "testpmd needs a port: give --vdev (net_null0, net_virtio_user0,path=..., ...) or -a with --nic",
            param="command",
        )
    _check_queues(t, ports, p)
    parts = Parts()
    pools: list[Mempool] = []
    parts.extend(ethdev.probe_ports(ports, p))  # rte_eal_init -> rte_bus_probe
    # init_port: RTE_MAX_ETHPORTS struct rte_port (testpmd.c:4470-4480)
    parts.allocations.append(Allocation("testpmd: ports", ethdev.RTE_MAX_ETHPORTS * s["rte_port"], "testpmd"))
    parts.allocations += ethdev.callbacks(p)  # register_eth_event_callback (testpmd.c:4018-4037)
    parts.zones.append(Memzone("rte_pdump_stats", memzone_len(s["pdump_stats"], p), "pdump"))  # rte_pdump_init
    # init_config: fwd_lcores (testpmd.c:1680-1697)
    parts.allocations.append(Allocation("testpmd: fwd_lcores", 8 * nb_lcores, "testpmd"))
    parts.allocations += [Allocation("testpmd: struct fwd_lcore", s["fwd_lcore"], "testpmd")] * nb_lcores
    meta = rx_metadata_negotiate(p, s)  # init_config_port_offloads, before the pools
    if any(z.name == "rte_mbuf_dyn" for z in parts.zones):  # a driver's probe reserved it first (net_pcap)
        meta.zones = [z for z in meta.zones if z.name != "rte_mbuf_dyn"]
    parts.extend(meta)
    n = mbufs_per_pool(t, nb_lcores)
    extmem: list[dict[str, object]] = []  # --mp-alloc=xmemhuge's own hugepage mappings, one per pool
    for idx, seg in enumerate(t.mbuf_sizes):  # one socket: the NUMA and UMA loops agree (testpmd.c:1739-1757)
        _pool(t, pool_name(0, idx), n, seg, p, parts, pools, notes, extmem)
    # fwd_config_setup -> init_fwd_streams: nb_ports x max(rxq, txq) streams (testpmd.c:1827-1900)
    streams = len(ports) * max(t.nb_rxq, t.nb_txq)
    parts.allocations.append(Allocation("testpmd: fwd_streams", 8 * streams, "testpmd"))
    parts.allocations += [Allocation("testpmd: struct fwd_stream", s["fwd_stream"], "testpmd")] * streams
    # a GRO context per lcore: RTE_GRO_TCP_IPV4, GRO_MAX_FLUSH_CYCLES flows x MAX_PKT_BURST items
    # (testpmd.c:1787-1801; gro_tcp4_tbl_create, v22.11:lib/gro/gro_tcp4.c:19-68)
    entries = GRO_MAX_FLUSH_CYCLES * MAX_PKT_BURST
    for _ in range(nb_lcores):
        parts.allocations += [
            Allocation("rte_gro_ctx_create", s["gro_ctx"], "gro"),
            Allocation("gro_tcp4_tbl_create", s["gro_tcp4_tbl"], "gro"),
            Allocation("gro_tcp4_tbl_create", entries * s["gro_tcp4_item"], "gro"),
            Allocation("gro_tcp4_tbl_create", entries * s["gro_tcp4_flow"], "gro"),
        ]
    unconfigured: list[int] = []
    if t.device_start:  # start_port(RTE_PORT_ALL) (testpmd.c:2690-2990)
        q = ethdev.QueueConf(
            t.nb_rxq,
            t.nb_txq,
            t.nb_rxd,
            t.nb_txd,
            t.lsc_interrupt,
            rx_data_room=t.mbuf_sizes[0],
            mtu=ethdev.mtu_of(t.max_pkt_len),
            # start_port: "setup tx queues", then "setup rx queues" (v22.11.11:app/test-pmd/testpmd.c:3092, 3132)
            tx_first=True,
        )
        for port in ports:
            tx_capa = ethdev.offload_capa(port, p)[1]
            # init_config_port_offloads drops MBUF_FAST_FREE when the port lacks it
            # (v22.11.11:app/test-pmd/testpmd.c:1618-1620)
            tx = t.tx_offloads & ~(ethdev.TX_OFFLOAD_MBUF_FAST_FREE & ~tx_capa)
            # the port's dev_conf.rxmode/txmode.offloads, which its queue set-ups read
            q = replace(q, rx_offloads=t.rx_offloads, tx_offloads=tx)
            why = ethdev.configure_refusal(port, q, p, t.rx_offloads, tx)
            if why is not None:
                # start_port returns at the first port whose eth_dev_configure_mp fails: it and the ports after
                # it are neither configured nor started; testpmd exits unless interactive
                # (v22.11.11:app/test-pmd/testpmd.c:3042-3056, 4687-4693)
                if not t.interactive:
                    raise InputError(
                        f"{why}: testpmd prints 'Fail to configure port {port.port_id}' and exits ('Start ports "
                        "failed', v22.11.11:app/test-pmd/testpmd.c:3042-3056, 4687-4691)",
                        param="command",
                    )
                unconfigured = left = [pt.port_id for pt in ports if pt.port_id >= port.port_id]
                notes.append(
                    f"{why}: testpmd prints 'Fail to configure port {port.port_id}' and 'Start ports failed' and "
                    f"gives its prompt with port(s) {', '.join(map(str, left))} neither configured nor started "
                    "(start_port returns at the first failure, v22.11.11:app/test-pmd/testpmd.c:3042-3056, "
                    "4687-4693): their queues take no memory"
                )
                break
            more, driver_pools = ethdev.configure(port, q, p)
            parts.extend(more)
            pools += driver_pools
    if t.device_start:
        notes += ethdev.port_notes(ports, q, p)  # a driver from its source only, memory outside the heap
    parts.zones.append(Memzone("RTE_METRICS", memzone_len(s["metrics"], p), "metrics"))  # rte_metrics_init
    if not t.numa:
        notes.append("--no-numa: every pool on socket 0 (as with one socket)")
    details: dict[str, object] = {
        "testpmd": t.to_dict(),
        "ports": [pt.to_dict() for pt in ports],
        "mbufs_per_pool": n,
        "forwarding_lcores": nb_lcores,
        "fwd_streams": streams,
        "unconfigured_ports": unconfigured,
        "extmem_hugepages": extmem,
    }
    return parts, pools, details, notes
