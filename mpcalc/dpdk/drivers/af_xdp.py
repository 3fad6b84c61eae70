"""net_af_xdp (drivers/net/af_xdp): a port over AF_XDP sockets (XSK), the kernel-bypass container
interface on a veth or a NIC's queue.

Its rings (fill, completion, Rx, Tx) are kernel memory mapped into the process, and with
XDP_UMEM_UNALIGNED_CHUNK_FLAG (Debian's libxdp build) the UMEM is the application's own mbuf pool,
registered with the kernel: no packet memory of its own on the heap.  On the heap are the internals,
the Rx and Tx queue arrays, the process private (from 22.11) and, per Rx queue set-up, the UMEM's
descriptor (``umem``).  Proven on real testpmd runs (pmd.VDEV_RUNS) on a veth (tests/conformance/drivers/); a
build without XDP_UMEM_UNALIGNED_CHUNK_FLAG reserves an ``af_xdp_umem`` memzone per queue instead
(xdp_umem_configure, v22.11.11:drivers/net/af_xdp/rte_eth_af_xdp.c:1185-1260), not modelled.

Pure: stdlib only.
"""

from __future__ import annotations

from mpcalc.dpdk.core.errors import InputError
from mpcalc.dpdk.core.platform import Platform
from mpcalc.dpdk.core.records import Allocation
from mpcalc.dpdk.core.standalone import Parts
from mpcalc.dpdk.drivers.pmd import RUN, VDEV_RUNS, DescLim, Pmd, Port, QueueConf, int_arg, since

ETH_AF_XDP_DFLT_NUM_DESCS = 2048  # XSK_RING_CONS__DEFAULT_NUM_DESCS (v22.11.11:drivers/net/af_xdp/rte_eth_af_xdp.c:71)
#: sizeof on x86_64 by release (the compiler's sizeof on each tag's rte_eth_af_xdp.c with libxdp; 22.11's
#: also on the real run): struct pmd_internals, struct pkt_rx_queue, struct pkt_tx_queue, struct
#: pmd_process_private (from 22.11), struct xsk_umem_info
PMD_INTERNALS = {"21.11": 4168, "22.11": 4168, "23.11": 8264, "24.11": 8272, "25.11": 8272, "26.07": 8272}
PKT_RX_QUEUE = 224
PKT_TX_QUEUE = 96
PMD_PROCESS_PRIVATE = 4096
XSK_UMEM_INFO = 48
#: max_rx_pktlen with unaligned chunks: a page less the object header, the mbuf, RTE_PKTMBUF_HEADROOM and
#: XDP_PACKET_HEADROOM 256 (v22.11.11:drivers/net/af_xdp/rte_eth_af_xdp.c:813-817)
MAX_RX_PKTLEN = 4096 - 24 - 128 - 128 - 256

DEVARGS_SINCE = {
    "iface": "21.11",
    "start_queue": "21.11",
    "queue_count": "21.11",
    "shared_umem": "21.11",
    "xdp_prog": "21.11",
    "busy_budget": "21.11",
    "force_copy": "22.11",
    "use_cni": "23.11",
    "dp_path": "23.11",
    "use_pinned_map": "24.11",
    "mode": "25.11",
}  # ETH_AF_XDP_*_ARG at each tag (v22.11.11:drivers/net/af_xdp/rte_eth_af_xdp.c:167-173; v26.07:...)


def queues(port: Port) -> int:
    return int_arg(port, "queue_count", 1, 1, 65535)


def probe(port: Port, p: Platform) -> Parts:
    """init_internals (v22.11.11:drivers/net/af_xdp/rte_eth_af_xdp.c:1820-1905): the internals, the Rx
    and Tx queue arrays of queue_count, the process private; rte_eth_vdev_allocate(dev, 0)."""
    for key in port.args:
        if not since(p, DEVARGS_SINCE[key]):
            raise InputError(
                f"{port.name}: {key} is an af_xdp argument from DPDK {DEVARGS_SINCE[key]}", param="command"
            )
    n = queues(port)
    out = Parts()
    out.allocations += [
        Allocation(port.name, PMD_INTERNALS[p.release.version], "internals"),
        Allocation("af_xdp rx_queues", n * PKT_RX_QUEUE, "rx queue array"),
        Allocation("af_xdp tx_queues", n * PKT_TX_QUEUE, "tx queue array"),
    ]
    if since(p, "22.11"):
        out.allocations.append(Allocation(port.name, PMD_PROCESS_PRIVATE, "process_private"))
    return out


def rx_queue_setup(port: Port, queue_id: int, nb_desc: int, q: QueueConf, p: Platform) -> Parts:
    """eth_rx_queue_setup -> xsk_configure -> xdp_umem_configure: the UMEM descriptor over the mbuf pool
    (v22.11.11:drivers/net/af_xdp/rte_eth_af_xdp.c:1148-1150); the XSK rings of nb_desc are the kernel's."""
    out = Parts()
    if int_arg(port, "shared_umem", 0, 0, 1) == 0 or queue_id == 0:
        out.allocations.append(Allocation("umem", XSK_UMEM_INFO, f"port {port.port_id} rx queue {queue_id} umem"))
    return out


def outside_heap(port: Port, q: QueueConf, p: Platform) -> tuple[str, ...]:
    nb = q.nb_rxd or ETH_AF_XDP_DFLT_NUM_DESCS
    return (
        f"the XSK rings of each queue (fill {2 * ETH_AF_XDP_DFLT_NUM_DESCS}, completion "
        f"{ETH_AF_XDP_DFLT_NUM_DESCS}, Rx and Tx {nb} descriptors), kernel memory mapped into the process; the "
        "UMEM is the application's mbuf pool, registered with the kernel (no copy on the heap)",
    )


PMD = Pmd(
    name="net_af_xdp",
    source="drivers/net/af_xdp",
    devargs=frozenset(DEVARGS_SINCE),
    provenance=RUN,
    evidence=f"tests/conformance/drivers/ ({VDEV_RUNS} on a veth)",
    # dev_info.max_rx_queues = queue_cnt; default_rxportconf.ring_size ETH_AF_XDP_DFLT_NUM_DESCS
    # (v22.11.11:drivers/net/af_xdp/rte_eth_af_xdp.c:809-828)
    max_queues=lambda port, p: (queues(port), queues(port)),
    default_ring_size=lambda port, p: (ETH_AF_XDP_DFLT_NUM_DESCS, ETH_AF_XDP_DFLT_NUM_DESCS),
    rx_desc_lim=lambda port, p: DescLim(65535),
    probe=probe,
    rx_queue_setup=rx_queue_setup,
    # no offload capabilities (eth_dev_info sets none, v22.11.11:drivers/net/af_xdp/rte_eth_af_xdp.c:800-831)
    max_rx_pktlen=lambda port, p: MAX_RX_PKTLEN,
    outside_heap=outside_heap,
)
