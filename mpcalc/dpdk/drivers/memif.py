"""net_memif (drivers/net/memif): shared-memory packet interface, the container interface VPP and DPDK
speak over a Unix socket.

Its packet memory is not on the DPDK heap: the client side creates the shared regions with memfd_create
and mmap (memif_region_init_shm, v22.11.11:drivers/net/memif/rte_eth_memif.c:928-990) when it connects,
each ring header and descriptor ring and, without zero-copy, the buffers; ``rsize`` and ``bsize`` change
nothing on the heap (proven: the same heap to the byte with ``rsize=12,bsize=4096``).  On the heap are the
port's structures, the process-wide socket hash ``memif-sh`` (an rte_hash of 256 entries with a 108-byte
key: its ``RG_HT_memif-sh`` ring memzone, made by the first memif port), a socket per port, the
listener's interrupt handle (and the copy ``rte_intr_callback_register`` makes of it), and per queue a
``struct memif_queue`` with its interrupt handle.  Proven on real testpmd runs (pmd.VDEV_RUNS)
as a server without a peer (tests/conformance/drivers/).

Pure: stdlib only.
"""

from __future__ import annotations

from mpcalc.dpdk.core.platform import Platform
from mpcalc.dpdk.core.records import Allocation
from mpcalc.dpdk.core.standalone import Parts
from mpcalc.dpdk.drivers.pmd import RUN, TX_OFFLOAD_MULTI_SEGS, VDEV_RUNS, Pmd, Port, QueueConf, int_arg, intr_instance
from mpcalc.dpdk.objects import hash as rte_hash

ETH_MEMIF_DEFAULT_RING_SIZE = 10  # log2 (v22.11.11:drivers/net/memif/rte_eth_memif.h:17)
ETH_MEMIF_DEFAULT_PKT_BUFFER_SIZE = 2048  # :18
ETH_MEMIF_MAX_NUM_Q_PAIRS = 255  # :20
ETH_MEMIF_MAX_LOG2_RING_SIZE = 14  # :21
MEMIF_SOCKET_HASH_NAME = "memif-sh"  # v22.11.11:drivers/net/memif/memif_socket.h:15
MEMIF_SOCKET_UN_SIZE = 108  # sizeof(sockaddr_un.sun_path): the hash's key (memif_socket.c:986-987)
MEMIF_SOCKET_HASH_ENTRIES = 256  # memif_create_socket_hash (v22.11.11:drivers/net/memif/memif_socket.c:980-991)
#: sizeof on x86_64 by release (the compiler's sizeof on each tag's rte_eth_memif.h / memif_socket.h; 22.11's
#: also on the real run): struct pmd_internals (v22.11.11:drivers/net/memif/rte_eth_memif.h:90-130), struct
#: pmd_process_private (:137-141), struct memif_socket (memif_socket.h:82-89), struct memif_queue
#: (rte_eth_memif.h:57-85), struct memif_socket_dev_list_elt (memif_socket.h:70-75)
PMD_INTERNALS = {"21.11": 392, "22.11": 392, "23.11": 400, "24.11": 400, "25.11": 400, "26.07": 400}
PMD_PROCESS_PRIVATE = 2056
MEMIF_SOCKET = 144
MEMIF_QUEUE = {"21.11": 72, "22.11": 72, "23.11": 80, "24.11": 80, "25.11": 80, "26.07": 80}
MEMIF_SOCKET_DEV_LIST_ELT = 88
MEMIF_RING_T = 128  # memif_ring_t, __rte_aligned(128) (v22.11.11:drivers/net/memif/memif.h:166-177)
RTE_ETHER_MAX_LEN = 1518
MEMIF_DESC_T = 16  # memif_desc_t (memif.h:150-160; RTE_BUILD_BUG_ON'd, rte_eth_memif.c:1785)

DEVARGS = frozenset({"id", "role", "bsize", "rsize", "socket", "socket-abstract", "mac", "zero-copy", "secret"})


def server(port: Port) -> bool:
    return port.args.get("role", "client") == "server"


def first_probe(port: Port, p: Platform) -> Parts:
    """memif_socket_init's process-wide socket hash, made by the first memif port
    (memif_create_socket_hash, v22.11.11:drivers/net/memif/memif_socket.c:995-1010)."""
    parts, _ = rte_hash.hash_parts(MEMIF_SOCKET_HASH_NAME, MEMIF_SOCKET_HASH_ENTRIES, MEMIF_SOCKET_UN_SIZE, 0, p)
    return parts


def probe(port: Port, p: Platform) -> Parts:
    """rte_pmd_memif_probe and memif_create (v22.11.11:drivers/net/memif/rte_eth_memif.c:1796-1797,
    1545-1600): the random MAC (rte_zmalloc("")), the internals (rte_eth_vdev_allocate), the process private
    regions table; memif_socket_init (memif_socket.c:995-1060): the socket (one per port: distinct socket
    paths assumed), for a server its listener's interrupt handle and the copy rte_intr_callback_register
    keeps (memif_socket.c:940-965), and the device's entry in the socket's list ("pmd-queue").  A client's
    control channel exists only while connected."""
    rel = p.release.version
    out = Parts()
    out.allocations += [
        Allocation("memif ether_addr", 6, 'mac address (rte_zmalloc(""))'),
        Allocation(port.name, PMD_INTERNALS[rel], "dev_private (struct pmd_internals)"),
        Allocation(port.name, PMD_PROCESS_PRIVATE, "process_private (regions table)"),
        Allocation("memif-socket", MEMIF_SOCKET, "memif socket"),
    ]
    if server(port):
        out.allocations += intr_instance(p, "memif listener interrupt") + intr_instance(p, "interrupt callback copy")
    out.allocations.append(Allocation("pmd-queue", MEMIF_SOCKET_DEV_LIST_ELT, "socket device list entry"))
    return out


def queue(kind: str) -> object:
    def setup(port: Port, queue_id: int, nb_desc: int, q: QueueConf, p: Platform) -> Parts:
        """memif_rx_queue_setup / memif_tx_queue_setup: a struct memif_queue and its interrupt handle; the
        ring is 1 << rsize descriptors in the shared region, nb_desc unused
        (v22.11.11:drivers/net/memif/rte_eth_memif.c:1330-1400)."""
        out = Parts()
        out.allocations.append(
            Allocation(f"{kind}-queue", MEMIF_QUEUE[p.release.version], f"port {port.port_id} queue")
        )
        out.allocations += intr_instance(p, f"port {port.port_id} {kind} queue interrupt")
        return out

    return setup


def region_bytes(port: Port, q: QueueConf) -> int:
    """The shared region a connected client maps (memfd, outside the DPDK heap): a ring header and 1 << rsize
    descriptors per ring and, without zero-copy, as many buffers of bsize (memif_region_init_shm,
    v22.11.11:drivers/net/memif/rte_eth_memif.c:946-957).

    >>> region_bytes(Port(0, "net_memif0", "net_memif"), QueueConf(1, 1, 0, 0, False))
    4227328
    """
    log2 = int_arg(port, "rsize", ETH_MEMIF_DEFAULT_RING_SIZE, 1, ETH_MEMIF_MAX_LOG2_RING_SIZE)
    bsize = int_arg(port, "bsize", ETH_MEMIF_DEFAULT_PKT_BUFFER_SIZE, 1, 65535)
    rings = q.nb_rxq + q.nb_txq
    size = rings * (MEMIF_RING_T + MEMIF_DESC_T * (1 << log2))
    if port.args.get("zero-copy", "no") not in ("yes", "1"):
        size += bsize * (1 << log2) * rings
    return size


def outside_heap(port: Port, q: QueueConf, p: Platform) -> tuple[str, ...]:
    return (
        f"the shared memory region (memfd_create + mmap, not the DPDK heap): {region_bytes(port, q):,} B for "
        f"{q.nb_rxq + q.nb_txq} rings of 1 << rsize descriptors and their buffers, created by the client when "
        "it connects",
    )


PMD = Pmd(
    name="net_memif",
    source="drivers/net/memif",
    devargs=DEVARGS,
    provenance=RUN,
    evidence=f"tests/conformance/drivers/ ({VDEV_RUNS}, a server without its peer)",
    # ETH_MEMIF_MAX_NUM_Q_PAIRS (v22.11.11:drivers/net/memif/rte_eth_memif.c:196-197)
    max_queues=lambda port, p: (ETH_MEMIF_MAX_NUM_Q_PAIRS, ETH_MEMIF_MAX_NUM_Q_PAIRS),
    zones=(r"RG_HT_memif-sh",),
    first_probe=first_probe,
    probe=probe,
    rx_queue_setup=queue("rx"),  # type: ignore[arg-type]
    tx_queue_setup=queue("tx"),  # type: ignore[arg-type]
    # no Rx offload, Tx MULTI_SEGS; max_rx_pktlen RTE_ETHER_MAX_LEN 1518 (v22.11.11:drivers/net/memif/
    # rte_eth_memif.c:192-202; v26.07:...:195-205)
    offload_capa=lambda port, p: (0, TX_OFFLOAD_MULTI_SEGS),
    max_rx_pktlen=lambda port, p: RTE_ETHER_MAX_LEN,
    outside_heap=outside_heap,
)
