"""The poll-mode drivers, each declared once (:class:`.pmd.Pmd`), and their registry.

:func:`get` finds a driver by its DPDK name or an alias (``net_null``, ``eth_null``), :func:`by_pci` by a
``vendor:device`` of its PCI id table; :func:`names` lists them.  A driver module ends with ``PMD = Pmd(...)``
and is one line of :data:`MODULES` (see :mod:`.pmd` for how to add one).

Pure: stdlib only.
"""

from __future__ import annotations

import importlib
import re

from mpcalc.dpdk.core.errors import InputError
from mpcalc.dpdk.drivers.pmd import Pmd

#: the driver modules, in the order they are listed to a user
MODULES: tuple[str, ...] = (
    "null",
    "net_ring",
    "tap",
    "virtio_user",
    "vhost",
    "memif",
    "af_packet",
    "af_xdp",
    "pcap",
    "bonding",
    # the PCI NICs' drivers (pcipmd.declare over each module's per-release figures)
    "e1000_em",
    "igb",
    "igb_vf",
    "igc",
    "ixgbe",
    "ixgbe_vf",
    "i40e",
    "ice",
    "iavf",
    "vmxnet3",
    "virtio_pci",
    "ena",
    "bnxt",
    "mlx5",
)

_BY_NAME: dict[str, Pmd] = {}
_BY_ALIAS: dict[str, Pmd] = {}
_BY_PCI: dict[tuple[int, int], Pmd] = {}


def register(pmd: Pmd) -> Pmd:
    """Add a driver (its name, aliases and PCI ids); a name or id given twice is a programming error."""
    if _BY_NAME or pmd.name not in _LOADING:
        _load()
    for key in (pmd.name, *pmd.aliases):
        if key in _BY_NAME or key in _BY_ALIAS:
            raise ValueError(f"driver name {key!r} registered twice")
    _BY_NAME[pmd.name] = pmd
    for alias in pmd.aliases:
        _BY_ALIAS[alias] = pmd
    for pid in pmd.pci_ids:
        if pid in _BY_PCI:
            raise ValueError(f"PCI id {pid[0]:04x}:{pid[1]:04x} claimed by {_BY_PCI[pid].name} and {pmd.name}")
        _BY_PCI[pid] = pmd
    return pmd


_LOADING: set[str] = set()


def _load() -> None:
    if _BY_NAME or _LOADING:
        return
    pmds = [importlib.import_module(f".{mod}", __name__).PMD for mod in MODULES]
    _LOADING.update(pmd.name for pmd in pmds)
    try:
        for pmd in pmds:
            register(pmd)
    finally:
        _LOADING.clear()


def find(name: str) -> Pmd | None:
    """The driver named ``name`` (its DPDK name or an alias), or None."""
    _load()
    return _BY_NAME.get(name) or _BY_ALIAS.get(name)


def get(name: str) -> Pmd:
    """The driver named ``name``; an unknown one is refused by name, listing the known."""
    pmd = find(name)
    if pmd is None:
        raise InputError(f"the {name} driver is not modelled (known: {', '.join(names())})", param="command")
    return pmd


def by_pci(vendor: int, device: int) -> Pmd | None:
    """The driver whose PCI id table has ``vendor:device``, or None."""
    _load()
    return _BY_PCI.get((vendor, device))


def names(bus: str | None = None) -> list[str]:
    """The drivers' DPDK names (of one bus, when given), in :data:`MODULES` order."""
    _load()
    return [n for n, pmd in _BY_NAME.items() if bus is None or pmd.bus == bus]


def all_pmds() -> list[Pmd]:
    _load()
    return list(_BY_NAME.values())


#: ethdev's own memzones: the port data of every port, and the descriptor rings a driver reserves through
#: rte_eth_dma_zone_reserve (eth_dev_dma_mzone_name, v22.11.11:lib/ethdev/ethdev_driver.c:497-501)
_ETHDEV_ZONES = (
    (re.compile(r"rte_eth_dev_data"), "ethdev"),
    (re.compile(r"eth_p\d+_q\d+_.+"), "ethdev queue ring (rte_eth_dma_zone_reserve)"),
)


def zone_owner(name: str) -> str | None:
    """Who reserved a memzone, by its name alone: ethdev (its port data, a driver's DMA ring through
    rte_eth_dma_zone_reserve) or a driver by one of its :attr:`Pmd.zones` (``driver net_virtio_user``);
    None for a name no driver claims.

    >>> zone_owner("eth_p0_q3_rx_ring"), zone_owner("port0_vq1_hdr"), zone_owner("MP_mb_pool_0")
    ('ethdev queue ring (rte_eth_dma_zone_reserve)', 'driver net_virtio_user', None)
    """
    for pattern, owner in _ETHDEV_ZONES:
        if pattern.fullmatch(name):
            return owner
    for pmd in all_pmds():
        if any(re.fullmatch(z, name) for z in pmd.zones):
            return f"driver {pmd.name}"
    return None


def unregister(pmd: Pmd) -> None:
    """Remove a driver registered by :func:`register` (a test's throwaway driver)."""
    _load()
    for key in (pmd.name, *pmd.aliases):
        _BY_NAME.pop(key, None)
        _BY_ALIAS.pop(key, None)
    for pid in pmd.pci_ids:
        if _BY_PCI.get(pid) is pmd:
            del _BY_PCI[pid]
