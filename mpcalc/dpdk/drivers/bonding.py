"""net_bonding (drivers/net/bonding): a port bonding member ports (link aggregation, active-backup, ...).

The bond is its own port: its internals, MAC table and VLAN filter bitmap at probe, a ``struct
bond_rx_queue``/``bond_tx_queue`` per queue.  Its members (given by ``slave=`` up to 22.11, ``member=``
from 23.11, each a port probed before it) are configured by the application as ordinary ports and then
again by the bond with the bond's queues (the same sizes: nothing more).  Mode 4 (802.3ad) adds, at
start, per member a pool ``<slave|member>_port<id>_pool`` of 1 + the bond's Tx descriptors (cache 32, a
data room of a slow protocol frame + RTE_PKTMBUF_HEADROOM) and two rings ``<slave|member>_<id>_rx`` /
``_tx`` for LACP frames (bond_mode_8023ad_activate_slave, v22.11.11:drivers/net/bonding/
rte_eth_bond_8023ad.c:1040-1135).  Proven on real testpmd runs (pmd.VDEV_RUNS) over net_null and
net_ring members (tests/conformance/drivers/); with the other release's key (22.11 ``member=``, later
``slave=``) that bond fails to probe.

Pure: stdlib only.
"""

from __future__ import annotations

from mpcalc.dpdk.core.errors import InputError
from mpcalc.dpdk.core.platform import Platform
from mpcalc.dpdk.core.records import Allocation
from mpcalc.dpdk.core.standalone import Parts
from mpcalc.dpdk.drivers import get
from mpcalc.dpdk.drivers.pmd import FALLBACK_RING_SIZE, RUN, VDEV_RUNS, Pmd, Port, QueueConf, int_arg, since, sizes
from mpcalc.dpdk.objects.mbuf import MbufSpec, mbuf_pool
from mpcalc.dpdk.objects.ring import ring_parts

#: sizeof on x86_64 by release (the compiler's sizeof on each tag's eth_bond_private.h; 22.11's also on the
#: real run): struct bond_dev_private (v22.11.11:drivers/net/bonding/eth_bond_private.h:128-190), struct
#: bond_rx_queue (:50-60), struct bond_tx_queue (:63-72), struct slow_protocol_frame 134
#: (rte_eth_bond_8023ad.h:120-125)
BOND_DEV_PRIVATE = {"21.11": 12656, "22.11": 12680, "23.11": 12680, "24.11": 12680, "25.11": 12680, "26.07": 12680}
BOND_RX_QUEUE = {"21.11": 96, "22.11": 112, "23.11": 112, "24.11": 112, "25.11": 112, "26.07": 112}
BOND_TX_QUEUE = 80
SLOW_PROTOCOL_FRAME = 134
BOND_MAX_MAC_ADDRS = 16  # v22.11.11:drivers/net/bonding/eth_bond_private.h:30
#: rte_bitmap_get_memory_footprint(RTE_ETHER_MAX_VLAN_ID + 1): the VLAN filter bitmap (rte_eth_bond_pmd.c:3494-3497)
VLAN_BITMAP = 576
BOND_MODE_8023AX_SLAVE_RX_PKTS = 3  # v22.11.11:drivers/net/bonding/eth_bond_8023ad_private.h:19
BOND_MODE_8023AX_SLAVE_TX_PKTS = 1  # :21
#: slave= became member= at 23.11 (the kvarg, the pools' and rings' names)
MEMBER_SINCE = "23.11"
KEYS = (
    "primary",
    "mode",
    "agg_mode",
    "xmit_policy",
    "socket_id",
    "mac",
    "lsc_poll_period_ms",
    "up_delay",
    "down_delay",
)


def member_key(p: Platform) -> str:
    return "member" if since(p, MEMBER_SINCE) else "slave"


def members(port: Port, p: Platform) -> list[str]:
    return [v for k, v in port.pairs if k == member_key(p)]


def refusal(port: Port, q: QueueConf | None, p: Platform) -> str | None:
    """The other release's member key: bond_probe's kvargs parse refuses it and the bond is not created
    (rte_kvargs_parse against pmd_bond_init_valid_arguments, v22.11.11:drivers/net/bonding/
    rte_eth_bond_pmd.c:3862-3870)."""
    wrong = "slave" if since(p, MEMBER_SINCE) else "member"
    if any(k == wrong for k, _ in port.pairs):
        return (
            f"{wrong}= is not a net_bonding argument at DPDK {p.release.version} (it takes {member_key(p)}=): "
            "the bond fails to probe and the application starts without it"
        )
    return None


def probe(port: Port, p: Platform) -> Parts:
    """bond_alloc (v22.11.11:drivers/net/bonding/rte_eth_bond_pmd.c:3400-3510): the internals
    (rte_eth_vdev_allocate), the MAC address table and the VLAN filter bitmap."""
    why = refusal(port, None, p)
    if why is not None:
        raise InputError(f"{port.name}: {why}", param="command")
    if not members(port, p):
        raise InputError(f"{port.name}: a bond needs its members ({member_key(p)}=PORT_NAME)", param="command")
    out = Parts()
    out.allocations += [
        Allocation(port.name, BOND_DEV_PRIVATE[p.release.version], "dev_private (struct bond_dev_private)"),
        Allocation(port.name, BOND_MAX_MAC_ADDRS * 6, "mac_addrs"),
        Allocation(port.name, VLAN_BITMAP, "vlan filter bitmap"),
    ]
    return out


def configure(port: Port, q: QueueConf, p: Platform) -> Parts:
    """bond_ethdev_configure adds each member (__eth_bond_slave_add_lock_free), which registers the bond's
    link-state callback on it: an rte_eth_dev_callback each (rte_eth_dev_callback_register(slave,
    RTE_ETH_EVENT_INTR_LSC, ...), v22.11.11:drivers/net/bonding/rte_eth_bond_api.c:590-591)."""
    out = Parts()
    size = sizes(p)["eth_dev_callback"]
    out.allocations += [
        Allocation("INTR_USER_CALLBACK", size, f"port {mid} link-state callback of the bond") for mid in port.member_ids
    ]
    return out


def rx_queue_setup(port: Port, queue_id: int, nb_desc: int, q: QueueConf, p: Platform) -> Parts:
    """bond_ethdev_rx_queue_setup: a struct bond_rx_queue (rte_eth_bond_pmd.c:2390-2410)."""
    out = Parts()
    out.allocations.append(Allocation("bond_rx_queue", BOND_RX_QUEUE[p.release.version], f"port {port.port_id} queue"))
    return out


def tx_queue_setup(port: Port, queue_id: int, nb_desc: int, q: QueueConf, p: Platform) -> Parts:
    """bond_ethdev_tx_queue_setup: a struct bond_tx_queue (rte_eth_bond_pmd.c:2415-2435)."""
    out = Parts()
    out.allocations.append(Allocation("bond_tx_queue", BOND_TX_QUEUE, f"port {port.port_id} queue"))
    return out


def start(port: Port, q: QueueConf, p: Platform) -> Parts:
    """bond_ethdev_start -> (mode 4) bond_mode_8023ad_activate_slave for each member, by its port id: the
    pool of BOND_MODE_8023AX_SLAVE_TX_PKTS + the bond's Tx descriptors and the LACP rings
    (v22.11.11:drivers/net/bonding/rte_eth_bond_8023ad.c:1085-1130; v23.11.7: the same, named member_)."""
    out = Parts()
    if int_arg(port, "mode", 0, 0, 6) != 4:
        return out
    word = member_key(p)
    nb_txd = q.nb_txd or FALLBACK_RING_SIZE
    total_tx_desc = BOND_MODE_8023AX_SLAVE_TX_PKTS + q.nb_txq * nb_txd
    for mid in port.member_ids:
        mp, errs, _ = mbuf_pool(
            MbufSpec(
                name=f"{word}_port{mid}_pool",
                count=total_tx_desc,
                cache_size=32,
                data_room=SLOW_PROTOCOL_FRAME + p.release.pktmbuf_headroom,
            ),
            p,
        )
        if mp is not None:
            out.mempools.append(mp)
        out.errors += errs
        rx, _ = ring_parts(f"{word}_{mid}_rx", 4, p, role=f"port {mid} LACP rx")  # rte_align32pow2(3)
        tx, _ = ring_parts(f"{word}_{mid}_tx", 2, p, role=f"port {mid} LACP tx")  # rte_align32pow2(1 + 1)
        out.extend(rx)
        out.extend(tx)
    return out


def max_queues(port: Port, p: Platform | None) -> tuple[int, int]:
    """bond_ethdev_info: the members' smallest max_rx_queues/max_tx_queues (rte_eth_bond_pmd.c:2330-2375)."""
    rx = min((get(m.driver).max_queues(m, p)[0] for m in port.members), default=1024)
    tx = min((get(m.driver).max_queues(m, p)[1] for m in port.members), default=1024)
    return rx, tx


PMD = Pmd(
    name="net_bonding",
    source="drivers/net/bonding",
    aliases=("eth_bond",),  # RTE_PMD_REGISTER_ALIAS(net_bonding, eth_bond) (rte_eth_bond_pmd.c:4023)
    devargs=frozenset({"slave", "member", *KEYS}),
    provenance=RUN,
    evidence=f"tests/conformance/drivers/ ({VDEV_RUNS}: modes 1, 4 on net_null, net_ring)",
    max_queues=max_queues,
    zones=(r"(RG_MP_|MP_)(slave|member)_port\d+_pool(_\d+)?", r"RG_(slave|member)_\d+_(rx|tx)"),
    probe=probe,
    configure=configure,
    rx_queue_setup=rx_queue_setup,
    tx_queue_setup=tx_queue_setup,
    start=start,
    refusal=refusal,
    member_keys=("slave", "member"),
)
