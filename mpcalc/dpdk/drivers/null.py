"""net_null (drivers/net/null): a port that drops what it sends and receives nothing (or a dummy).

Proven on real testpmd and l3fwd runs (tests/conformance/test_apps_real.py, test_apps_releases.py).
Pure: stdlib only.
"""

from __future__ import annotations

from mpcalc.dpdk.core.platform import Platform
from mpcalc.dpdk.core.records import Allocation
from mpcalc.dpdk.core.standalone import Parts
from mpcalc.dpdk.drivers.pmd import (
    RTE_MAX_QUEUES_PER_PORT,
    RUN,
    TX_OFFLOAD_MT_LOCKFREE,
    TX_OFFLOAD_MULTI_SEGS,
    Pmd,
    Port,
    QueueConf,
    since,
    sizes,
)

DEFAULT_PACKET_SIZE = 64  # default_packet_size (v22.11:drivers/net/null/rte_eth_null.c:21)


def probe(port: Port, p: Platform) -> Parts:
    """rte_eth_vdev_allocate(dev, sizeof(*internals)) (v22.11:drivers/net/null/rte_eth_null.c:548;
    lib/ethdev/ethdev_vdev.h:43-45)."""
    out = Parts()
    out.allocations.append(Allocation(port.name, sizes(p)["null_internals"], "dev_private"))
    return out


def _dummy(port: Port, queue_id: int, nb_desc: int, q: QueueConf, p: Platform) -> Parts:
    """eth_rx_queue_setup / eth_tx_queue_setup: a dummy packet of packet_size each
    (v22.11:drivers/net/null/rte_eth_null.c:248-249, 281-282)."""
    out = Parts()
    size = int(port.args.get("size", str(DEFAULT_PACKET_SIZE)))
    out.allocations.append(Allocation("null dummy_packet", size, f"port {port.port_id} queue"))
    return out


def offload_capa(port: Port, p: Platform) -> tuple[int, int]:
    """None up to 24.11, Tx MULTI_SEGS | MT_LOCKFREE from 25.11 (v22.11.11:drivers/net/null/rte_eth_null.c:
    298-314, v25.11.2:...:308-312)."""
    return 0, (TX_OFFLOAD_MULTI_SEGS | TX_OFFLOAD_MT_LOCKFREE) if since(p, "25.11") else 0


PMD = Pmd(
    name="net_null",
    source="drivers/net/null",
    aliases=("eth_null",),  # RTE_PMD_REGISTER_ALIAS(net_null, eth_null) (v22.11.11:drivers/net/null/rte_eth_null.c:766)
    devargs=frozenset({"size", "copy", "no-rx"}),
    provenance=RUN,
    evidence="tests/conformance/test_apps_real.py, test_apps_releases.py (every release)",
    max_queues=lambda port, p: (RTE_MAX_QUEUES_PER_PORT, RTE_MAX_QUEUES_PER_PORT),
    probe=probe,
    rx_queue_setup=_dummy,
    tx_queue_setup=_dummy,
    offload_capa=offload_capa,
)
