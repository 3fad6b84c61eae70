"""The PCI drivers' offload capabilities: dev_info's ``rx_offload_capa`` and ``tx_offload_capa`` at each release.

Read from each driver's ``dev_infos_get`` at the stable tags of :data:`.pcibase.TAGS`, what it ors in resolved
through the driver's own functions and macros down to the ``RTE_ETH_RX_OFFLOAD_*`` / ``RTE_ETH_TX_OFFLOAD_*`` bits
(their values: :mod:`.pmd`'s ``RX_OFFLOAD_*`` / ``TX_OFFLOAD_*``, lib/ethdev/rte_ethdev.h). Where the capability
depends on the device, the common full-featured device's is taken (:data:`DEVICE` says which): every condition of
the driver holds (ice not in safe mode, mlx5's HCA and virtio's negotiated features all present, ena's device
answering every offload, bnxt a PF with TPA and PTP), less what :data:`NOT_ON` says that device lacks; a bit a device
property decides is :data:`ONLY_WITH` that property (the module's ``PROPS``, given on ``-a``).
Generated data (``python tests/conformance/test_pci_offloads.py``); tests/conformance/test_pci_offloads.py holds
it to the mirror. Pure: stdlib only.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from importlib.resources import files

from mpcalc.dpdk.drivers import pmd
from mpcalc.dpdk.drivers.pcibase import since

#: the device whose capabilities are taken, where the driver's depend on it
DEVICE: dict[str, str] = {
    "net_ixgbe": "an 82599 (X520) PF: no X550-family outer IPv4 checksum",
    "net_ixgbe_vf": "an 82599 VF: no VLAN extend, LRO, MACsec, X550 outer checksum or inline IPsec",
    "net_e1000_igb_vf": "an 82576/I350 VF (e1000_vfadapt): no VLAN extend",
    "net_ice": "an E810 out of safe mode (E830 from 26.07 with e830=1)",
    "mlx5_pci": "a ConnectX-6 Dx or later with every HCA capability",
    "net_virtio": "QEMU's virtio-net with every offload feature negotiated",
    "net_ena": "an ENA device answering every offload",
    "net_bnxt": "a PF whose firmware offers TPA (LRO), PTP and the tunnel offloads, of any chip",
}

#: the bits a driver's code can give that the modelled device does not, each with the condition in the source
NOT_ON: dict[str, dict[str, str]] = {
    "net_ixgbe": {
        "RX_OUTER_IPV4_CKSUM": "X550 family only (v26.07:drivers/net/intel/ixgbe/ixgbe_rxtx.c:3147-3151)",
        "TX_OUTER_IPV4_CKSUM": "X550 family only (v26.07:drivers/net/intel/ixgbe/ixgbe_rxtx.c:2673-2677)",
    },
    "net_ixgbe_vf": {
        "RX_VLAN_EXTEND": "ixgbe_is_vf(dev) == 0 only (v26.07:drivers/net/intel/ixgbe/ixgbe_rxtx.c:3130)",
        "RX_TCP_LRO": "82599/X540/X550 PF mac types only (v26.07:drivers/net/intel/ixgbe/ixgbe_rxtx.c:3134-3141)",
        "RX_MACSEC_STRIP": "82599/X540 PF mac types only (v26.07:drivers/net/intel/ixgbe/ixgbe_rxtx.c:3143-3145)",
        "TX_MACSEC_INSERT": "82599/X540 PF mac types only (v26.07:drivers/net/intel/ixgbe/ixgbe_rxtx.c:2669-2671)",
        "RX_OUTER_IPV4_CKSUM": "X550 family PF only (v26.07:drivers/net/intel/ixgbe/ixgbe_rxtx.c:3147-3151)",
        "TX_OUTER_IPV4_CKSUM": "X550 family PF only (v26.07:drivers/net/intel/ixgbe/ixgbe_rxtx.c:2673-2677)",
        "RX_SECURITY": "dev->security_ctx, made by the PF's eth_ixgbe_dev_init only "
        "(v26.07:drivers/net/intel/ixgbe/ixgbe_rxtx.c:3153, ixgbe_ethdev.c:1180)",
        "TX_SECURITY": "dev->security_ctx, PF only (v26.07:drivers/net/intel/ixgbe/ixgbe_rxtx.c:2679)",
    },
    "net_e1000_igb_vf": {
        "RX_VLAN_EXTEND": "i350/i210/i211 mac types only (v26.07:drivers/net/intel/e1000/igb_rxtx.c:1666-1670)",
    },
}

#: bits a device property decides: pmd -> bit -> (the property, the first release where it does)
ONLY_WITH: dict[str, dict[str, tuple[str, str]]] = {
    # ice_dev_info_get: SEND_ON_TIMESTAMP if hw->phy_model == ICE_PHY_E830
    # (v26.07:drivers/net/intel/ice/ice_ethdev.c:4668; v25.11.2 gives it to every device out of safe mode)
    "net_ice": {"TX_SEND_ON_TIMESTAMP": ("e830", "26.07")},
}


def capa(name: str, rel: str, dev: Mapping[str, object] | None = None) -> tuple[int, int]:
    """(rx_offload_capa, tx_offload_capa) of a PCI PMD at a release for the device ``dev`` (its properties).

    >>> rx, tx = capa("net_e1000_em", "22.11")
    >>> bool(rx & pmd.RX_OFFLOAD_SCATTER), bool(rx & pmd.RX_OFFLOAD_TCP_LRO)
    (True, False)
    """
    if name not in CAPA:
        return 0, 0
    props = ONLY_WITH.get(name, {})
    out = [0, 0]
    for i, side in enumerate(("RX", "TX")):
        for n in CAPA[name][rel][i]:
            prop = props.get(f"{side}_{n}")
            if prop and since(rel, prop[1]) and not (dev or {}).get(prop[0]):
                continue
            out[i] |= getattr(pmd, f"{side}_OFFLOAD_{n}")
    return out[0], out[1]


def _load() -> dict[str, dict[str, tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]]]:
    data = json.loads(files(__package__).joinpath("offloads.json").read_text())
    return {
        name: {rel: (tuple(c["rx"]), tuple(c["tx"]), tuple(c["source"])) for rel, c in by_rel.items()}
        for name, by_rel in data.items()
    }


#: pmd -> release -> (the Rx bit names, the Tx bit names, the tag:path:lines of the statements that set them):
#: offloads.json in the package, generated by ``python tests/conformance/test_pci_offloads.py``
CAPA = _load()
