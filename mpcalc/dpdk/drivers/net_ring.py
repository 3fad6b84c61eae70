"""net_ring (drivers/net/ring): a port over rte_rings, sixteen of them made at probe.

Proven on real testpmd runs (tests/conformance/test_apps_real.py).  Pure: stdlib only.
"""

from __future__ import annotations

from mpcalc.dpdk.core.platform import Platform
from mpcalc.dpdk.core.records import Allocation
from mpcalc.dpdk.core.standalone import Parts
from mpcalc.dpdk.drivers.pmd import RUN, RX_OFFLOAD_SCATTER, TX_OFFLOAD_MULTI_SEGS, Pmd, Port, sizes
from mpcalc.dpdk.objects.ring import ring_parts

RTE_PMD_RING_MAX_RX_RINGS = 16  # v22.11:drivers/net/ring/rte_eth_ring.h:15-16 (and _TX_)
RING_SIZE = 1024  # eth_dev_ring_create's rte_ring_create(..., 1024, ...) (v22.11:drivers/net/ring/rte_eth_ring.c:530)


def probe(port: Port, p: Platform) -> Parts:
    """eth_dev_ring_create: 16 rings of 1024 named ETH_RXTX<i>_<name> (v22.11:drivers/net/ring/
    rte_eth_ring.c:517-549), then do_eth_dev_ring_create: two queue arrays and the internals (:369-388)."""
    s = sizes(p)
    out = Parts()
    for i in range(RTE_PMD_RING_MAX_RX_RINGS):
        ring, _ = ring_parts(f"ETH_RXTX{i}_{port.name}", RING_SIZE, p, role=f"port {port.port_id} ring")
        out.extend(ring)
    out.allocations += [
        Allocation(port.name, RTE_PMD_RING_MAX_RX_RINGS * 8, "rx queue array"),
        Allocation(port.name, RTE_PMD_RING_MAX_RX_RINGS * 8, "tx queue array"),
        Allocation(port.name, s["ring_internals"], "dev_private"),
    ]
    return out


PMD = Pmd(
    name="net_ring",
    source="drivers/net/ring",
    aliases=("eth_ring",),  # RTE_PMD_REGISTER_ALIAS(net_ring, eth_ring) (v22.11.11:drivers/net/ring/rte_eth_ring.c:816)
    devargs=frozenset(),
    provenance=RUN,
    evidence="tests/conformance/test_apps_real.py",
    # dev_info.max_rx_queues: RTE_PMD_RING_MAX_RX_RINGS (v22.11:drivers/net/ring/rte_eth_ring.c:178-179)
    max_queues=lambda port, p: (RTE_PMD_RING_MAX_RX_RINGS, RTE_PMD_RING_MAX_RX_RINGS),
    probe=probe,
    # Rx SCATTER and Tx MULTI_SEGS (v22.11.11:drivers/net/ring/rte_eth_ring.c:183-184)
    offload_capa=lambda port, p: (RX_OFFLOAD_SCATTER, TX_OFFLOAD_MULTI_SEGS),
    zones=(r"RG_ETH_RXTX\d+_.+",),
    own_queue_arrays=True,
    reserves_before_allocate=True,
)
