"""The poll-mode driver declaration: one frozen :class:`Pmd` per driver, declared once.

A port's memory is ethdev's part (the ``rte_eth_dev_data`` memzone, the queue pointer arrays,
:mod:`.ethdev`) and its driver's part: what the driver reserves when it probes the device, when the
application configures the port, when it sets up each Rx and Tx queue and when it starts the port.  Every
driver answers those questions through the same functions of its :class:`Pmd`, the way every DPDK object
answers through its ``ObjectDecl``; ethdev (:func:`.ethdev.configure`) calls them in DPDK's order and
applies the checks ethdev itself makes (the queue counts against ``max_rx_queues``, each descriptor count
against ``rx_desc_lim``/``tx_desc_lim``, ``v22.11.11:lib/ethdev/rte_ethdev.c:1172-1185, 1970-1980,
2198-2208``).

Adding a driver
---------------
1. Write ``mpcalc/dpdk/drivers/<driver>.py`` (one module per DPDK driver directory, ``drivers/net/<x>``).
   Read the driver at every release the model knows (``facts.RELEASES``: 21.11 to 26.07) in the DPDK
   mirror (``git -C /work/.mirror/DPDK+dpdk/repo show v22.11.11:drivers/net/<x>/<file>.c``) and write, for
   each thing it allocates, the function that gives it:

   * ``probe(port, p) -> Parts``: what probing reserves (its ``dev_private`` is an
     ``Allocation(port.name, sizeof(struct ...), "dev_private")``, ``rte_eth_vdev_allocate`` /
     ``rte_eth_dev_pci_allocate``), its per-device tables, its interrupt handles (:func:`intr_instance`);
   * ``configure(port, q, p) -> Parts``: its ``dev_configure``;
   * ``rx_queue_setup(port, queue_id, nb_desc, q, p) -> Parts`` and ``tx_queue_setup(...)``: one queue's
     memzones and allocations for the descriptor count ethdev hands it (already defaulted and checked
     against the limits): descriptor rings through :func:`dma_zone` (``rte_eth_dma_zone_reserve``: the
     name ``eth_p<port>_q<queue>_<ring>``) or ``Memzone`` for a driver that names its own, software rings
     and queue structures as ``Allocation``; a ring sized for the driver's maximum whatever ``nb_desc`` is
     says so in its role;
   * ``start(port, q, p) -> Parts``: what ``dev_start`` adds.

   Each figure names in a short comment the ``tag:file:line`` it reproduces, at every release where it
   changes (:func:`since`, from ``core.struct_sizes``, tells releases apart).  A struct whose ``sizeof`` the
   figure needs is a per-release table in the module, each value with the tag and line of its definition
   and how it was read (a real run's allocation, or the compiler's ``sizeof`` on the tag's headers).
2. The driver's limits: ``max_queues`` (``dev_info.max_rx_queues``/``max_tx_queues``), ``rx_desc_lim`` and
   ``tx_desc_lim`` (:class:`DescLim`; ethdev's default, :data:`DEFAULT_DESC_LIM`, when the driver sets none),
   ``default_ring_size`` (``default_rxportconf.ring_size``/``default_txportconf``: 0 for none, then ethdev
   uses :data:`FALLBACK_RING_SIZE`), ``offload_capa``, ``max_rx_pktlen``, and ``refusal`` (what its
   ``dev_configure`` or probe refuses, in its own log text with ``file:line``); what it takes outside the DPDK
   heap (memfd regions, kernel rings, libc ``malloc``), stated in ``outside_heap``, never counted in it; what it
   allocates in the heap that the model does not size, stated in ``not_modelled`` (every report says both).
3. The names a user gives it: ``name`` (``RTE_PMD_REGISTER_VDEV``/``RTE_PMD_REGISTER_PCI``), ``aliases``
   (``RTE_PMD_REGISTER_ALIAS``), ``bus``, ``pci_ids`` from the driver's own ``rte_pci_id`` table (only for
   ``bus="pci"``: ``drivers.by_pci`` maps a ``vendor:device`` to it), ``devargs`` (the keys its
   ``RTE_PMD_REGISTER_PARAM_STRING`` and kvargs parser accept; any other is refused by name).
4. ``provenance``: ``"run"`` once a real program's capture under ``tests/conformance/`` holds every memzone
   by name and length (and the heap); ``"source"`` otherwise ("from the driver's source, not run", which
   every report carrying the driver's figures says).
5. What the driver shares and names: ``first_probe`` (a table its first port in the process makes: memif's
   socket hash), ``reserves_before_allocate`` (its probe reserves before ``rte_eth_dev_allocate``: the first
   port's ``rte_eth_dev_data`` comes after), ``own_queue_arrays``, ``member_keys`` (devargs naming other ports:
   bonding's members, ``Port.members``), ``kernel_drivers`` (the kernel module of the same NIC, how
   ``dpdk-devbind.py --status`` names it), ``bifurcated``, ``zones`` (the memzone names it reserves, regular
   expressions: how ``inspect`` and ``trace`` name them as the driver's), ``descriptors_used`` (a ring it
   rounds or clamps), ``classifies_ptypes``.  The driver of a port is ``drivers.get(port.driver)``.
6. End the module with ``PMD = Pmd(...)`` and add the module to ``MODULES`` in ``drivers/__init__.py``.
7. Tests: a unit test per figure (``tests/test_drivers_<x>.py``, against the cited arithmetic at each
   release) and, for a driver this machine can run, a recorded capture held to the model by name and length.

Nothing else changes: testpmd, l3fwd and OVS find the driver through the registry (by ``--vdev`` name, by a
PCI address bound to it by ``--nic``/``--devbind``, :mod:`.naming`), reports say its provenance and what it keeps
outside the heap (``ethdev.port_notes``), and ``inspect``/``trace`` name its memzones by its ``zones``.

Pure: stdlib only.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from mpcalc.dpdk.core.errors import InputError
from mpcalc.dpdk.core.heap import memzone_len
from mpcalc.dpdk.core.platform import Platform
from mpcalc.dpdk.core.records import Allocation, Memzone
from mpcalc.dpdk.core.standalone import Parts
from mpcalc.dpdk.core.struct_sizes import since, sizes

if TYPE_CHECKING:  # pci_devargs reads pcibase, which reads this module
    from mpcalc.dpdk.drivers.pci_devargs import Devargs

RTE_MAX_ETHPORTS = 32  # v22.11:config/rte_config.h:77
RTE_MAX_QUEUES_PER_PORT = 1024  # v22.11:config/rte_config.h:78
RTE_MEMZONE_NAMESIZE = 32  # v22.11.11:lib/eal/include/rte_memzone.h:50
RTE_MAX_RXTX_INTR_VEC_ID = 512  # v22.11:lib/eal/include/rte_eal_interrupts.h:23 (RTE_MAX_RXTX_INTR_VEC_ID)
#: the descriptors ethdev uses when asked for 0 and the driver has no preference
#: (RTE_ETH_DEV_FALLBACK_RX_RINGSIZE / _TX_, v22.11:lib/ethdev/rte_ethdev.h:1788-1791)
FALLBACK_RING_SIZE = 512

#: rte_mem_page_size(): sysconf(_SC_PAGESIZE), the system page on x86_64 Linux
RTE_MEM_PAGE_SIZE = 4096
RTE_ETHER_HDR_LEN = 14  # v26.07:lib/net/rte_ether.h
RTE_ETHER_CRC_LEN = 4
RTE_ETHER_MTU = 1500  # what rte_eth_dev_configure sets when the application gives no MTU
#: rte_eth_dev_info_get's min_mtu, RTE_ETHER_MIN_LEN - RTE_ETHER_HDR_LEN - RTE_ETHER_CRC_LEN, and max_mtu
#: UINT16_MAX, which none of the vdev drivers changes (v22.11.11:lib/ethdev/rte_ethdev.c:3352-3355)
DEV_MIN_MTU = 64 - 14 - 4
RTE_ETHER_MAX_VLAN_FRAME_LEN = 1522
RTE_ETHER_MAX_JUMBO_FRAME_LEN = 0x3F00

#: the offload bits (v22.11.11:lib/ethdev/rte_ethdev.h:1495-1561): Rx, then Tx
RX_OFFLOAD_VLAN_STRIP = 1 << 0
RX_OFFLOAD_IPV4_CKSUM = 1 << 1
RX_OFFLOAD_UDP_CKSUM = 1 << 2
RX_OFFLOAD_TCP_CKSUM = 1 << 3
RX_OFFLOAD_TCP_LRO = 1 << 4
RX_OFFLOAD_QINQ_STRIP = 1 << 5
RX_OFFLOAD_OUTER_IPV4_CKSUM = 1 << 6  # v22.11.11:lib/ethdev/rte_ethdev.h:1501
RX_OFFLOAD_MACSEC_STRIP = 1 << 7  # :1502
RX_OFFLOAD_VLAN_FILTER = 1 << 9
RX_OFFLOAD_VLAN_EXTEND = 1 << 10
RX_OFFLOAD_SCATTER = 1 << 13
RX_OFFLOAD_TIMESTAMP = 1 << 14
RX_OFFLOAD_SECURITY = 1 << 15  # :1512
RX_OFFLOAD_KEEP_CRC = 1 << 16
RX_OFFLOAD_SCTP_CKSUM = 1 << 17  # :1514
RX_OFFLOAD_OUTER_UDP_CKSUM = 1 << 18  # :1515
RX_OFFLOAD_RSS_HASH = 1 << 19  # :1516
RX_OFFLOAD_BUFFER_SPLIT = 1 << 20  # :1517
RX_OFFLOAD_CHECKSUM = RX_OFFLOAD_IPV4_CKSUM | RX_OFFLOAD_UDP_CKSUM | RX_OFFLOAD_TCP_CKSUM
RX_OFFLOAD_VLAN = RX_OFFLOAD_VLAN_STRIP | RX_OFFLOAD_VLAN_FILTER | RX_OFFLOAD_VLAN_EXTEND
TX_OFFLOAD_VLAN_INSERT = 1 << 0
TX_OFFLOAD_IPV4_CKSUM = 1 << 1
TX_OFFLOAD_UDP_CKSUM = 1 << 2
TX_OFFLOAD_TCP_CKSUM = 1 << 3
TX_OFFLOAD_SCTP_CKSUM = 1 << 4  # v22.11.11:lib/ethdev/rte_ethdev.h:1539
TX_OFFLOAD_TCP_TSO = 1 << 5
TX_OFFLOAD_UDP_TSO = 1 << 6  # :1541
TX_OFFLOAD_OUTER_IPV4_CKSUM = 1 << 7  # :1542
TX_OFFLOAD_QINQ_INSERT = 1 << 8  # :1543
TX_OFFLOAD_VXLAN_TNL_TSO = 1 << 9  # :1544
TX_OFFLOAD_GRE_TNL_TSO = 1 << 10  # :1545
TX_OFFLOAD_IPIP_TNL_TSO = 1 << 11  # :1546
TX_OFFLOAD_GENEVE_TNL_TSO = 1 << 12  # :1547
TX_OFFLOAD_MACSEC_INSERT = 1 << 13  # :1548
TX_OFFLOAD_MT_LOCKFREE = 1 << 14
TX_OFFLOAD_MULTI_SEGS = 1 << 15
TX_OFFLOAD_MBUF_FAST_FREE = 1 << 16
TX_OFFLOAD_SECURITY = 1 << 17  # :1562
TX_OFFLOAD_UDP_TNL_TSO = 1 << 18  # :1568
TX_OFFLOAD_IP_TNL_TSO = 1 << 19  # :1574
TX_OFFLOAD_OUTER_UDP_CKSUM = 1 << 20  # :1576
TX_OFFLOAD_SEND_ON_TIMESTAMP = 1 << 21  # v26.07:lib/ethdev/rte_ethdev.h:1682
#: TAP_RX_OFFLOAD / TAP_TX_OFFLOAD (v22.11.11:drivers/net/tap/rte_eth_tap.c:76-86, the same to v26.07)
TAP_RX_OFFLOAD = RX_OFFLOAD_SCATTER | RX_OFFLOAD_CHECKSUM
TAP_TX_OFFLOAD = (
    TX_OFFLOAD_MULTI_SEGS | TX_OFFLOAD_IPV4_CKSUM | TX_OFFLOAD_UDP_CKSUM | TX_OFFLOAD_TCP_CKSUM | TX_OFFLOAD_TCP_TSO
)

#: provenance values: a driver proven on a real run here, or read from its source only
RUN = "run"
#: the testpmd releases the container/virtual drivers ran on (tests/conformance/drivers/ and its v<tag>/ folders)
VDEV_RUNS = "testpmd 22.11.11, 24.11.6, 25.11.2, 26.07"
SOURCE = "source"
NOT_RUN = "from the driver's source, not run"


@dataclass
class Port:
    """One ethdev port: its id (probe order), its device name (``net_tap0``, ``0000:3b:00.0``), its
    driver's DPDK name and its devargs (``args``: the last value of each key; ``pairs``: every pair in
    order, for a key given more than once, bonding's ``slave=``)."""

    port_id: int
    name: str
    driver: str
    args: dict[str, str] = field(default_factory=dict)
    pairs: tuple[tuple[str, str], ...] = ()
    #: the ports this one is made of (a bond's members), probed before it
    members: tuple[Port, ...] = ()
    #: the process the port is in (:func:`.ethdev.eal_ports`): what a driver numbering its memory process-wide
    #: reads of the other ports (ena's ena_alloc_cnt at 21.11); None for a port alone
    process: Process | None = field(default=None, compare=False, repr=False)

    @property
    def member_ids(self) -> tuple[int, ...]:
        return tuple(m.port_id for m in self.members)

    def to_dict(self) -> dict[str, object]:
        return {"port_id": self.port_id, "name": self.name, "driver": self.driver, "args": dict(self.args)}


@dataclass
class Process:
    """One DPDK process's ports: in EAL's probe order (``ports``), and in the order the application started them
    with each one's queue configuration (``started``, port id -> :class:`QueueConf`, recorded by
    :func:`.ethdev.configure` as it starts a port)."""

    ports: tuple[Port, ...]
    started: dict[int, QueueConf] = field(default_factory=dict)

    def has(self, port: Port) -> bool:
        return any(pt is port for pt in self.ports)

    def of_driver(self, port: Port) -> tuple[Port, ...]:
        """The ports of ``port``'s driver EAL probed, in probe order (``port`` alone when it is not one of them)."""
        return tuple(pt for pt in self.ports if pt.driver == port.driver) if self.has(port) else (port,)

    def probed_before(self, port: Port) -> tuple[Port, ...]:
        """The ports of ``port``'s driver EAL probed before it."""
        mine = self.of_driver(port)
        return mine[: next(k for k, pt in enumerate(mine) if pt is port)]

    def started_before(self, port: Port) -> tuple[tuple[Port, QueueConf], ...]:
        """The ports of ``port``'s driver the application started before it, with their queue configurations."""
        by_id = {pt.port_id: pt for pt in self.ports}
        out: list[tuple[Port, QueueConf]] = []
        for pid, q in self.started.items():
            if pid == port.port_id:
                break
            if pid in by_id and by_id[pid].driver == port.driver:
                out.append((by_id[pid], q))
        return tuple(out)


@dataclass
class QueueConf:
    """How an application configures a port's queues."""

    nb_rxq: int
    nb_txq: int
    nb_rxd: int  # 0: the driver's default
    nb_txd: int
    lsc_interrupt: bool
    #: the data room of the rx queues' mbuf pool, and the port's MTU (net_tap's rx queue at 26.07)
    rx_data_room: int = 2176
    mtu: int = 1500
    #: the application sets up its Tx queues before its Rx queues (VPP's dpdk_device_setup)
    tx_first: bool = False
    #: dev_conf.rxmode.offloads and txmode.offloads: what a driver's queues read of them (bnxt's aggregation ring
    #: and TPA area, ena's extended Rx completions, ice's Tx time-stamp ring)
    rx_offloads: int = 0
    tx_offloads: int = 0


@dataclass(frozen=True)
class DescLim:
    """``struct rte_eth_desc_lim``: what ``rte_eth_rx_queue_setup``/``tx_queue_setup`` accept."""

    nb_max: int
    nb_min: int = 0
    nb_align: int = 1

    def refusal(self, nb_desc: int, what: str) -> str | None:
        """ethdev's own log line for a descriptor count outside the limits, or None
        (v22.11.11:lib/ethdev/rte_ethdev.c:1970-1980 for Rx, 2198-2208 for Tx; the same text to v26.07)."""
        if nb_desc > self.nb_max or nb_desc < self.nb_min or nb_desc % self.nb_align:
            return (
                f"Invalid value for nb_{what}_desc(={nb_desc}), should be: <= {self.nb_max}, >= {self.nb_min}, "
                f"and a product of {self.nb_align}"
            )
        return None


#: rte_eth_dev_info_get's limits before the driver's dev_infos_get (v22.11.11:lib/ethdev/rte_ethdev.c:3325-3330)
DEFAULT_DESC_LIM = DescLim(nb_max=65535, nb_min=0, nb_align=1)


def rx_segments(mtu: int, data_room: int, headroom: int) -> int:
    """The mbufs of an Rx pool a packet of the MTU (+ Ethernet header and CRC) fills: the first less the headroom,
    the others whole (net_tap's max_rx_segs, mlx5's rxseg_n before its power of two).

    >>> rx_segments(1500, 2176, 128), rx_segments(9000, 2176, 128)
    (1, 5)
    """
    max_rx_pktlen = mtu + RTE_ETHER_HDR_LEN + RTE_ETHER_CRC_LEN
    first = max(data_room - headroom, 0)
    return 1 + (max_rx_pktlen - first + data_room - 1) // data_room if max_rx_pktlen > first else 1


def ring_size(asked: int, default: int) -> int:
    """The descriptors a queue set-up is handed: the application's, else the driver's default_rxportconf /
    default_txportconf ring_size, else RTE_ETH_DEV_FALLBACK_RX_RINGSIZE / _TX_ (512,
    v22.11.11:lib/ethdev/rte_ethdev.c:1962-1968, 2190-2196).

    >>> ring_size(0, 1024), ring_size(0, 0), ring_size(256, 1024)
    (1024, 512, 256)
    """
    return asked or default or FALLBACK_RING_SIZE


Hook = Callable[..., Parts]


__all__ = ["since", "sizes"]  # the release's measured struct sizes, and the release test, for driver modules


def nothing(*_args: object) -> Parts:
    """A stage at which the driver allocates nothing."""
    return Parts()


def _no_refusal(*_args: object) -> str | None:
    return None


def _no_offloads(*_args: object) -> tuple[int, int]:
    return 0, 0


def _unlimited_pktlen(*_args: object) -> int:
    return (1 << 32) - 1


def _nothing_stated(*_args: object) -> tuple[str, ...]:
    return ()


def _fallback_rings(*_args: object) -> tuple[int, int]:
    return 0, 0


@dataclass(frozen=True)
class Pmd:
    """One poll-mode driver, declared once (see the module's docstring for how to add one).

    Every function takes the :class:`Port` and the :class:`~mpcalc.dpdk.core.platform.Platform` (the release
    and architecture) last; ``q`` is the application's :class:`QueueConf`.
    """

    #: the DPDK name (RTE_PMD_REGISTER_VDEV / RTE_PMD_REGISTER_PCI), ``net_ixgbe``
    name: str
    #: where it is in DPDK's tree, ``drivers/net/ixgbe``
    source: str
    #: ``"vdev"`` or ``"pci"``
    bus: str = "vdev"
    #: RTE_PMD_REGISTER_ALIAS (``eth_null``)
    aliases: tuple[str, ...] = ()
    #: (vendor, device) from the driver's own ``rte_pci_id`` table
    pci_ids: tuple[tuple[int, int], ...] = ()
    #: the Linux kernel modules of the same NIC (``ice``, ``mlx5_core``): how ``dpdk-devbind.py --status``
    #: names it (``drv=``/``unused=``), and a user's ``--nic ADDR=ice``
    kernel_drivers: tuple[str, ...] = ()
    #: probed by DPDK while the kernel driver holds the device (mlx5): devbind lists it under kernel drivers
    bifurcated: bool = False
    #: the memzones the driver reserves under names of its own (regular expressions, whole names): how a dump or a
    #: trace names them as the driver's (:func:`mpcalc.dpdk.drivers.zone_owner`)
    zones: tuple[str, ...] = ()
    #: the devargs keys whose values name other ports this one is made of (bonding's slave=/member=)
    member_keys: tuple[str, ...] = ()
    #: the devargs keys the driver accepts (its kvargs; a PCI driver's include its ``props``, still read on ``-a``)
    devargs: frozenset[str] = frozenset()
    #: the device's own properties the model needs, which the driver reads from the device (a PCI module's
    #: ``PROPS``: virtio's queue pairs, vmxnet3's version): given on ``--nic ADDR=DRIVER,key=value``
    props: frozenset[str] = frozenset()
    #: its own devargs parsing at a platform's release (a PCI driver's, :mod:`.pci_devargs`): the keys it reads
    #: beyond the model's ``devargs`` and what it does with others; None: those are refused as not modelled
    parsing: Callable[[Platform | None], Devargs] | None = None
    #: :data:`RUN` (a real run here holds every memzone) or :data:`SOURCE` (from the driver's source, not run)
    provenance: str = SOURCE
    #: what the provenance rests on: the captures (tests/conformance/...) or the source files read
    evidence: str = ""
    #: (max_rx_queues, max_tx_queues) of dev_info; ``p`` may be None (then the newest release's)
    max_queues: Callable[[Port, Platform | None], tuple[int, int]] = lambda port, p: (
        RTE_MAX_QUEUES_PER_PORT,
        RTE_MAX_QUEUES_PER_PORT,
    )
    rx_desc_lim: Callable[[Port, Platform], DescLim] = lambda port, p: DEFAULT_DESC_LIM
    tx_desc_lim: Callable[[Port, Platform], DescLim] = lambda port, p: DEFAULT_DESC_LIM
    #: (default_rxportconf.ring_size, default_txportconf.ring_size): 0 for none (ethdev's fallback, 512)
    default_ring_size: Callable[[Port, Platform], tuple[int, int]] = _fallback_rings
    #: first_probe(port, p): what the driver's first port in the process adds before its probe (a table the
    #: driver's ports share: memif's socket hash)
    first_probe: Hook = nothing
    #: probe(port, p): the device's allocation at probe (dev_private, tables, interrupt handles)
    probe: Hook = nothing
    #: configure(port, q, p): dev_configure's own
    configure: Hook = nothing
    #: rx_queue_setup(port, queue_id, nb_desc, q, p) / tx_queue_setup(...): one queue's
    rx_queue_setup: Hook = nothing
    tx_queue_setup: Hook = nothing
    #: start(port, q, p): dev_start's
    start: Hook = nothing
    #: descriptors_used(port, nb_desc, "rx"|"tx", p): how many of a queue's descriptors the driver really uses
    #: for the count ethdev hands its queue set-up (a ring rounded or clamped; virtio: min(nb_desc, its size))
    descriptors_used: Callable[[Port, int, str, Platform], int] = lambda port, nb_desc, what, p: nb_desc
    #: (rx_offload_capa, tx_offload_capa) of dev_info
    offload_capa: Callable[[Port, Platform], tuple[int, int]] = _no_offloads
    #: dev_info.max_rx_pktlen
    max_rx_pktlen: Callable[[Port, Platform], int] = _unlimited_pktlen
    #: refusal(port, q, p): what the driver's probe or dev_configure refuses, in its own words, or None
    refusal: Callable[[Port, QueueConf, Platform], str | None] = _no_refusal
    #: outside_heap(port, q, p): what it allocates outside the DPDK heap, each stated in a sentence
    outside_heap: Callable[[Port, QueueConf, Platform], tuple[str, ...]] = _nothing_stated
    #: not_modelled(port, q, p): what it allocates in the DPDK heap that the model does not count, each a sentence
    not_modelled: Callable[[Port, QueueConf, Platform], tuple[str, ...]] = _nothing_stated
    #: the driver sets dev->data->rx_queues/tx_queues itself at probe (net_ring): ethdev allocates no arrays
    own_queue_arrays: bool = False
    #: its probe reserves memory before rte_eth_dev_allocate (net_ring's rings), so the first port's
    #: ``rte_eth_dev_data`` memzone comes after what it reserved
    reserves_before_allocate: bool = False
    #: its dev_supported_ptypes_get classifies L3 packet types (l3fwd without --parse-ptype needs it)
    classifies_ptypes: bool = False

    @property
    def provenance_text(self) -> str:
        return "proven on a real run" if self.provenance == RUN else NOT_RUN

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {"name": self.name, "bus": self.bus, "source": self.source}
        out["provenance"] = self.provenance
        if self.aliases:
            out["aliases"] = list(self.aliases)
        if self.pci_ids:
            out["pci_ids"] = [f"{v:04x}:{d:04x}" for v, d in self.pci_ids]
        return out


def dma_zone(port: Port, ring_name: str, queue_id: int, size: int, p: Platform, role: str) -> Memzone:
    """``rte_eth_dma_zone_reserve(dev, ring_name, queue_id, size, align, socket)``: the memzone
    ``eth_p<port>_q<queue>_<ring>`` of ``size`` bytes (its ``len`` rounded to the cache line, memzone_len),
    refused when the name is RTE_MEMZONE_NAMESIZE or longer ('ring name too long'); an existing zone of that
    name is reused, which a model of one start never meets (v22.11.11:lib/ethdev/ethdev_driver.c:497-501,
    528-562; v21.11.9:lib/ethdev/rte_ethdev.c:4938-4980; v26.07:lib/ethdev/ethdev_driver.c:703-770).

    >>> from mpcalc.dpdk.core.platform import Platform
    >>> dma_zone(Port(0, "0000:3b:00.0", "net_ice"), "rx_ring", 3, 32768 + 100, Platform(), "rx ring")
    Memzone(name='eth_p0_q3_rx_ring', len=32896, role='rx ring', leaked=False)
    """
    name = f"eth_p{port.port_id}_q{queue_id}_{ring_name}"
    if len(name) >= RTE_MEMZONE_NAMESIZE:
        raise InputError(
            f"{port.name}: memzone name {name!r} is {len(name)} characters, RTE_MEMZONE_NAMESIZE is "
            f"{RTE_MEMZONE_NAMESIZE}: rte_eth_dma_zone_reserve fails ('ring name too long', "
            "lib/ethdev/ethdev_driver.c:537-541)",
            param="command",
        )
    return Memzone(name, memzone_len(size, p), role)


def intr_instance(p: Platform, role: str = "interrupt") -> list[Allocation]:
    """rte_intr_instance_alloc(RTE_INTR_INSTANCE_F_SHARED): the handle, its efds and elist in rte memory
    (v22.11:lib/eal/common/eal_common_interrupts.c:46-78); a PRIVATE instance is libc memory, not here."""
    s = sizes(p)
    return [
        Allocation("intr_handle", s["intr_handle"], role),
        Allocation("intr_handle efds", RTE_MAX_RXTX_INTR_VEC_ID * 4, role),
        Allocation("intr_handle elist", RTE_MAX_RXTX_INTR_VEC_ID * s["epoll_event"], role),
    ]


def parse_devargs(spec: str) -> tuple[str, tuple[tuple[str, str], ...]]:
    """``NAME,key=value,...`` -> (NAME, every (key, value) in order): rte_kvargs keeps every pair, a key
    given twice twice (bonding's ``slave=a,slave=b``; v22.11.11:lib/kvargs/rte_kvargs.c:20-70).

    >>> parse_devargs("net_bonding0,mode=4,slave=net_null0,slave=net_null1")
    ('net_bonding0', (('mode', '4'), ('slave', 'net_null0'), ('slave', 'net_null1')))
    """
    name, *kv = spec.split(",")
    return name, tuple((k, v) for k, _, v in (a.partition("=") for a in kv if a))


def int_arg(port: Port, key: str, default: int, low: int = 0, high: int = 1 << 31) -> int:
    """A devarg that is a number (the drivers' strtoul/get_integer_arg), or the driver's default."""
    text = port.args.get(key)
    if text is None:
        return default
    try:
        value = int(text, 0)
    except ValueError:
        raise InputError(f"{port.name}: {key}={text!r} is not a number", param="command") from None
    if not low <= value <= high:
        raise InputError(f"{port.name}: {key}={text!r} is outside [{low}, {high}]", param="command")
    return value
