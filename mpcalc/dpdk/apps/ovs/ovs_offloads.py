"""The offloads ovs-vswitchd asks of a DPDK port: ``dev_conf.rxmode.offloads`` and ``txmode.offloads``.

dpdk_eth_dev_init reads the device's capabilities into ``dev->hw_ol_features``; dpdk_eth_dev_port_config
turns them into the port's offloads (lib/netdev-dpdk.c, lines per tag in :data:`LINES`). OVS only ever asks
what the device offers, so its configure is never refused for an offload. What a driver's queues read of
them: bnxt's aggregation ring (the scatter offload), nothing else OVS asks.

* Rx, every release: the IPv4/UDP/TCP checksums when the device has all three; scatter when the MTU is
  above RTE_ETHER_MTU and the device offers it; keep-CRC when the driver's name has no ``vf`` in it (a VF
  strips the CRC) and the device offers it.
* Tx up to 3.1: with other_config:userspace-tso-enable, and only when the device has TSO and the TCP, UDP
  and IPv4 checksums, those four (DPDK_TX_TSO_OFFLOAD_FLAGS), and SCTP's checksum when offered.
* Tx from 3.2: each checksum the device offers (IPv4, TCP, UDP, SCTP; from 3.3 the outer IPv4 and UDP
  ones), and with userspace-tso-enable TCP TSO (from 3.3 VXLAN and Geneve tunnel TSO, from 3.5 GRE's);
  3.2 to 3.6 take the TCP and UDP checksums away from net_tap, 3.3 to 3.6 the outer UDP checksum from
  net_txgbe (in 3.7.1 neither is left).
"""

from typing import NamedTuple

from mpcalc.dpdk.apps.ovs.versions import OvsRelease
from mpcalc.dpdk.core.facts import version_key
from mpcalc.dpdk.drivers.pmd import (
    RX_OFFLOAD_CHECKSUM,
    RX_OFFLOAD_KEEP_CRC,
    RX_OFFLOAD_SCATTER,
    TX_OFFLOAD_GENEVE_TNL_TSO,
    TX_OFFLOAD_GRE_TNL_TSO,
    TX_OFFLOAD_IPV4_CKSUM,
    TX_OFFLOAD_OUTER_IPV4_CKSUM,
    TX_OFFLOAD_OUTER_UDP_CKSUM,
    TX_OFFLOAD_SCTP_CKSUM,
    TX_OFFLOAD_TCP_CKSUM,
    TX_OFFLOAD_TCP_TSO,
    TX_OFFLOAD_UDP_CKSUM,
    TX_OFFLOAD_VXLAN_TNL_TSO,
)

__all__ = ["LINES", "port_offloads"]

#: RTE_ETHER_MTU: above it OVS asks for scatter (dpdk_eth_dev_port_config)
_ETHER_MTU = 1500
#: DPDK_TX_TSO_OFFLOAD_FLAGS (up to 3.1)
_TSO_FLAGS = TX_OFFLOAD_TCP_TSO | TX_OFFLOAD_TCP_CKSUM | TX_OFFLOAD_UDP_CKSUM | TX_OFFLOAD_IPV4_CKSUM


class _Lines(NamedTuple):
    """lib/netdev-dpdk.c at the release's tag: dpdk_eth_dev_port_config's offload block, dpdk_eth_dev_init's,
    and its net_tap and net_txgbe exceptions (None: not in that release)."""

    port_config: str
    init: str
    tap: int | None
    txgbe: int | None


#: read with ``git show <tag>:lib/netdev-dpdk.c`` at each OvsRelease.tag
LINES: dict[str, _Lines] = {
    "2.17": _Lines("969-989", "1103-1142", None, None),
    "3.0": _Lines("1021-1041", "1155-1194", None, None),
    "3.1": _Lines("1028-1048", "1213-1252", None, None),
    "3.2": _Lines("1084-1118", "1281-1346", 1304, None),
    "3.3": _Lines("1099-1149", "1312-1415", 1335, 1345),
    "3.4": _Lines("1099-1149", "1312-1415", 1335, 1345),
    "3.5": _Lines("1117-1171", "1341-1449", 1364, 1374),
    "3.6": _Lines("1115-1169", "1339-1447", 1362, 1372),
    "3.7": _Lines("1116-1170", "1340-1428", None, None),
}


def port_offloads(r: OvsRelease, driver: str, rx_capa: int, tx_capa: int, mtu: int, tso: bool) -> tuple[int, int, str]:
    """(rx offloads, tx offloads, citation) OVS configures on a port of ``driver`` whose dev_info offers
    ``rx_capa``/``tx_capa``, at MTU ``mtu``, with userspace TSO on or off.

    >>> from mpcalc.dpdk.apps.ovs.versions import RELEASES
    >>> rx, tx, _ = port_offloads(RELEASES["3.1"], "net_bnxt", 0x2000 | 0xE, 0xFF, 9000, False)
    >>> hex(rx), hex(tx)
    ('0x200e', '0x0')
    >>> rx, tx, _ = port_offloads(RELEASES["3.3"], "net_tap", 0, 0xE, 1500, False)
    >>> hex(rx), hex(tx)
    ('0x0', '0x2')
    """
    lines = LINES[r.version]
    v = version_key(r.version)
    rx = RX_OFFLOAD_CHECKSUM if rx_capa & RX_OFFLOAD_CHECKSUM == RX_OFFLOAD_CHECKSUM else 0
    if mtu > _ETHER_MTU and rx_capa & RX_OFFLOAD_SCATTER:
        rx |= RX_OFFLOAD_SCATTER
    if "vf" not in driver and rx_capa & RX_OFFLOAD_KEEP_CRC:
        rx |= RX_OFFLOAD_KEEP_CRC
    if v < version_key("3.2"):
        tx = 0
        if tso and tx_capa & _TSO_FLAGS == _TSO_FLAGS:
            tx = _TSO_FLAGS | (tx_capa & TX_OFFLOAD_SCTP_CKSUM)
    else:
        if lines.tap is not None and driver == "net_tap":
            tx_capa &= ~(TX_OFFLOAD_UDP_CKSUM | TX_OFFLOAD_TCP_CKSUM)
        if lines.txgbe is not None and driver == "net_txgbe":
            tx_capa &= ~TX_OFFLOAD_OUTER_UDP_CKSUM
        wanted = TX_OFFLOAD_IPV4_CKSUM | TX_OFFLOAD_TCP_CKSUM | TX_OFFLOAD_UDP_CKSUM | TX_OFFLOAD_SCTP_CKSUM
        if tso:
            wanted |= TX_OFFLOAD_TCP_TSO
        if v >= version_key("3.3"):
            wanted |= TX_OFFLOAD_OUTER_IPV4_CKSUM | TX_OFFLOAD_OUTER_UDP_CKSUM
            if tso:
                wanted |= TX_OFFLOAD_VXLAN_TNL_TSO | TX_OFFLOAD_GENEVE_TNL_TSO
        if tso and v >= version_key("3.5"):
            wanted |= TX_OFFLOAD_GRE_TNL_TSO
        tx = wanted & tx_capa
    where = f"{r.tag}:lib/netdev-dpdk.c:{lines.init}, {lines.port_config}"
    return rx, tx, f"dpdk_eth_dev_init and dpdk_eth_dev_port_config, {where}"
