"""The offloads VPP asks of a DPDK port: dpdk_device_setup's wish list, masked by the device's capabilities.

src/plugins/dpdk/device/common.c (dpdk_device_setup), at every tag read (:mod:`.profiles`):

* Rx: the IPv4 checksum always; the UDP and TCP ones with ``enable-tcp-udp-checksum``; scatter unless
  ``no-multi-seg``; TCP LRO with ``enable-lro``;
* Tx: unless ``no-tx-checksum-offload``, the IPv4, TCP and UDP checksums (from v25.10 the outer IPv4 and UDP
  ones too; before, only with ``enable-tcp-udp-checksum enable-outer-checksum-offload``); multi-segment
  unless ``no-multi-seg``; on a port whose ``dev`` section says ``tso on`` (and only with
  ``enable-tcp-udp-checksum`` and a device offering TCP TSO: dpdk_lib_init), the TCP checksum, TCP TSO and
  VXLAN tunnel TSO (from v25.10 IP-in-IP tunnel TSO too); at v26.06 the fast mbuf free with ``no-multi-seg``
  and ``enable-mbuf-fast-free``;
* then both ``&=`` the device's ``rx_offload_capa``/``tx_offload_capa``: VPP never asks what the device lacks.
  (The driver table's ``disable_rx_scatter`` would drop scatter: no driver in it sets it, at any tag.)

What a driver's queues read of them: bnxt's aggregation ring and TPA area (scatter, LRO).
"""

from mpcalc.dpdk.apps.vpp.profiles import Profile
from mpcalc.dpdk.apps.vpp.startup import PortConf
from mpcalc.dpdk.drivers.pmd import (
    RX_OFFLOAD_IPV4_CKSUM,
    RX_OFFLOAD_SCATTER,
    RX_OFFLOAD_TCP_CKSUM,
    RX_OFFLOAD_TCP_LRO,
    RX_OFFLOAD_UDP_CKSUM,
    TX_OFFLOAD_IPIP_TNL_TSO,
    TX_OFFLOAD_IPV4_CKSUM,
    TX_OFFLOAD_MBUF_FAST_FREE,
    TX_OFFLOAD_MULTI_SEGS,
    TX_OFFLOAD_OUTER_IPV4_CKSUM,
    TX_OFFLOAD_OUTER_UDP_CKSUM,
    TX_OFFLOAD_TCP_CKSUM,
    TX_OFFLOAD_TCP_TSO,
    TX_OFFLOAD_UDP_CKSUM,
    TX_OFFLOAD_VXLAN_TNL_TSO,
)

__all__ = ["port_offloads", "tso_enabled"]

_OUTER = TX_OFFLOAD_OUTER_IPV4_CKSUM | TX_OFFLOAD_OUTER_UDP_CKSUM
#: the release that puts the outer checksums in the default Tx wish list and IP-in-IP TSO in TSO's
_OUTER_DEFAULT_SINCE = "v25.10"


def tso_enabled(pr: Profile, port_id: int, conf: PortConf, tso: bool | None, tx_capa: int, notes: list[str]) -> bool:
    """``xd->conf.enable_tso`` (dpdk_lib_init): ``tso on`` in the port's ``dev`` section (or ``dev default``'s),
    with ``enable-tcp-udp-checksum`` and a device offering TCP TSO; else VPP's warning, TSO off."""
    if not tso:
        return False
    where = pr.cite("tso_on")
    if not conf.enable_tcp_udp_checksum:
        notes.append(f"[{port_id}] TCP/UDP checksum offload must be enabled: VPP leaves TSO off ({where})")
        return False
    if not tx_capa & TX_OFFLOAD_TCP_TSO:
        notes.append(f"[{port_id}] TSO not supported by device: VPP leaves TSO off ({where})")
        return False
    return True


def port_offloads(pr: Profile, conf: PortConf, tso: bool, rx_capa: int, tx_capa: int) -> tuple[int, int, str]:
    """(rx offloads, tx offloads, citation) of dpdk_device_setup for a port whose device offers
    ``rx_capa``/``tx_capa``; ``tso``: :func:`tso_enabled`.

    >>> from mpcalc.dpdk.apps.vpp.profiles import PROFILES
    >>> rx, tx, _ = port_offloads(PROFILES["24.10"], PortConf(), False, 0x2000 | 0xE, 0x800E)
    >>> hex(rx), hex(tx)
    ('0x2002', '0x800e')
    >>> rx, tx, _ = port_offloads(PROFILES["24.10"], PortConf(disable_multi_seg=True), False, 0x2000 | 0xE, 0x800E)
    >>> hex(rx), hex(tx)
    ('0x2', '0xe')
    """
    outer_default = pr.since(_OUTER_DEFAULT_SINCE)
    rxo = RX_OFFLOAD_IPV4_CKSUM
    txo = 0
    if conf.enable_tcp_udp_checksum:
        rxo |= RX_OFFLOAD_UDP_CKSUM | RX_OFFLOAD_TCP_CKSUM
    if not conf.disable_tx_checksum_offload:
        if conf.enable_outer_checksum_offload or outer_default:
            txo |= _OUTER
        txo |= TX_OFFLOAD_IPV4_CKSUM | TX_OFFLOAD_TCP_CKSUM | TX_OFFLOAD_UDP_CKSUM
    if not conf.disable_multi_seg:
        txo |= TX_OFFLOAD_MULTI_SEGS
        rxo |= RX_OFFLOAD_SCATTER
    if conf.enable_lro:
        rxo |= RX_OFFLOAD_TCP_LRO
    if tso:
        txo |= TX_OFFLOAD_TCP_CKSUM | TX_OFFLOAD_TCP_TSO | TX_OFFLOAD_VXLAN_TNL_TSO
        if outer_default:
            txo |= TX_OFFLOAD_IPIP_TNL_TSO
    fast_free = pr.line("fast_free") is not None
    if fast_free and conf.disable_multi_seg and conf.enable_mbuf_fast_free:
        txo |= TX_OFFLOAD_MBUF_FAST_FREE
    facts = ["offload_wishlist", "tx_cksum_default", *(["fast_free"] if fast_free else []), "offload_mask"]
    return rxo & rx_capa, txo & tx_capa, f"dpdk_device_setup, {pr.cite(*facts)}"
