"""The PCI poll-mode drivers modelled: by name, by PCI id, and a port's memory composed in ethdev's order.

``PMDS`` maps each PMD name (as ``EAL: Probe PCI driver: <name>`` prints it) to its module; ``pmd_for_id``
finds the driver of a vendor:device at a release from the drivers' own PCI id tables (:mod:`.pci_ids`);
``port_memory`` composes what a port on that driver reserves, the way testpmd drives ethdev:
probe, ``rte_eth_dev_configure``, every Tx queue then every Rx queue (``rte_eth_tx/rx_queue_setup``, nb_desc 0
meaning the driver's default ring or ethdev's 512, held to its desc limits), then ``rte_eth_dev_start``.

Pure: stdlib only.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import ModuleType

from mpcalc.dpdk.core.errors import InputError, Rejection
from mpcalc.dpdk.drivers import (
    bnxt,
    e1000_em,
    ena,
    i40e,
    iavf,
    ice,
    igb,
    igb_vf,
    igc,
    ixgbe,
    ixgbe_vf,
    mlx5,
    virtio_pci,
    vmxnet3,
)
from mpcalc.dpdk.drivers.pci_ids import IDS
from mpcalc.dpdk.drivers.pcibase import RELEASES, Alloc, QueueParts, Zone, call, since
from mpcalc.dpdk.drivers.pmd import ring_size

#: PMD name -> module (the VF modules take their PF's figures)
PMDS: dict[str, ModuleType] = {
    "net_e1000_em": e1000_em,
    "net_e1000_igb": igb,
    "net_e1000_igb_vf": igb_vf,
    "net_igc": igc,
    "net_ixgbe": ixgbe,
    "net_ixgbe_vf": ixgbe_vf,
    "net_i40e": i40e,
    "net_ice": ice,
    "net_iavf": iavf,
    "net_vmxnet3": vmxnet3,
    "net_virtio": virtio_pci,
    "net_ena": ena,
    "net_bnxt": bnxt,
    "mlx5_pci": mlx5,
}
#: the short names a user may bind with (``ADDR=ixgbe``)
ALIASES = {
    "e1000": "net_e1000_em",
    "em": "net_e1000_em",
    "e1000e": "net_e1000_em",
    "igb": "net_e1000_igb",
    "igb_vf": "net_e1000_igb_vf",
    "igc": "net_igc",
    "ixgbe": "net_ixgbe",
    "ixgbe_vf": "net_ixgbe_vf",
    "ixgbevf": "net_ixgbe_vf",
    "i40e": "net_i40e",
    "ice": "net_ice",
    "iavf": "net_iavf",
    "vmxnet3": "net_vmxnet3",
    "virtio": "net_virtio",
    "ena": "net_ena",
    "bnxt": "net_bnxt",
    "mlx5": "mlx5_pci",
    "net_mlx5": "mlx5_pci",
}


def release_of(dpdk: str) -> str:
    """The modelled release of a version string ("22.11", "22.11.11" -> "22.11")."""
    rel = ".".join(dpdk.split(".")[:2])
    if rel not in RELEASES:
        raise InputError(f"DPDK {dpdk!r}: the PCI drivers are modelled at {', '.join(RELEASES)}", param="dpdk")
    return rel


def pmd_named(name: str) -> str:
    """A PMD name from the user's word for it (``ixgbe``, ``net_ixgbe``), else InputError quoting it."""
    key = name.strip().lower()
    if key in PMDS:
        return key
    if key in ALIASES:
        return ALIASES[key]
    raise InputError(f"driver {name!r} is not a modelled PCI driver (known: {', '.join(sorted(PMDS))})", param="driver")


def pmd_for_id(vendor: int, device: int, rel: str) -> str | None:
    """The PMD whose PCI id table at ``rel`` has vendor:device (None when no modelled driver claims it)."""
    for pmd, ids in IDS.items():
        span = ids.get((vendor, device))
        if span and since(rel, span[0]) and (not span[1] or since(span[1], rel)):
            return pmd
    return None


def parse_id(text: str) -> tuple[int, int]:
    """``8086:1572`` (or ``0x8086:0x1572``) -> (0x8086, 0x1572); InputError quoting a bad one."""
    try:
        v, d = text.split(":")
        return int(v, 16), int(d, 16)
    except ValueError:
        raise InputError(f"PCI id {text!r} is not VENDOR:DEVICE in hexadecimal (8086:1572)", param="driver") from None


@dataclass
class PortMemory:
    """What a port on a PCI driver reserves, in ethdev's order, and the first refusal."""

    pmd: str
    zones: list[Zone] = field(default_factory=list)
    allocs: list[Alloc] = field(default_factory=list)
    queues: list[tuple[str, int, QueueParts]] = field(default_factory=list)
    errors: list[Rejection] = field(default_factory=list)
    outside: list[str] = field(default_factory=list)
    not_modelled: list[str] = field(default_factory=list)


def _ethdev_desc(side: str, nb: int, lim: tuple[int, int, int]) -> Rejection | None:
    """rte_eth_rx/tx_queue_setup's own check (v22.11.11:lib/ethdev/rte_ethdev.c:1975, 2203)."""
    mx, mn, al = lim
    if nb > mx or nb < mn or nb % al:
        line = 1975 if side == "rx" else 2203
        return Rejection(
            "EINVAL",
            f"Invalid value for nb_{side}_desc(={nb}), should be: <= {mx}, >= {mn}, and a product of {al}",
            f"rte_eth_{side}_queue_setup",
            f"v22.11.11:lib/ethdev/rte_ethdev.c:{line}",
        )
    return None


def port_memory(
    pmd: str,
    rel: str,
    port: int,
    nb_rxq: int,
    nb_txq: int,
    nb_rxd: int = 0,
    nb_txd: int = 0,
    dev: dict[str, object] | None = None,
) -> PortMemory:
    """A port's driver memory as testpmd sets it up (RSS when nb_rxq > 1)."""
    mod = PMDS[pmd]
    out = PortMemory(pmd)
    if hasattr(mod, "first_probe"):  # the driver's first port of the process (vmxnet3's mbuf dynamic field)
        z0, a0 = mod.first_probe(rel)
        out.zones += z0
        out.allocs += a0
    if hasattr(mod, "probe"):
        got = mod.probe(rel, port, dev)
        if isinstance(got, Rejection):
            out.errors.append(got)
            return out
        out.zones += got[0]
        out.allocs += got[1]
    mx_rx, mx_tx = mod.max_queues(rel, dev)
    if nb_rxq > mx_rx or nb_txq > mx_tx:
        side, n, m = ("Rx", nb_rxq, mx_rx) if nb_rxq > mx_rx else ("Tx", nb_txq, mx_tx)
        out.errors.append(
            Rejection(
                "EINVAL",
                f"Number of {side} queues requested ({n}) is greater than max supported({m})",
                "rte_eth_dev_configure",
                "v22.11.11:lib/ethdev/rte_ethdev.c:1153,1161",
            )
        )
        return out
    if hasattr(mod, "configure"):
        if mod is vmxnet3:
            z, a = vmxnet3.configure(rel, port, nb_rxq, nb_txq, dev, rss=nb_rxq > 1)
        else:
            z, a = mod.configure(rel, port, nb_rxq, nb_txq, dev)
        out.zones += z
        out.allocs += a
    rx_lim, tx_lim = mod.desc_lim(rel, dev)
    d_rx, d_tx = mod.default_ring(rel)
    rxd, txd = ring_size(nb_rxd, d_rx), ring_size(nb_txd, d_tx)
    for side, n, nb, lim, fn in (
        ("tx", nb_txq, txd, tx_lim, mod.tx_queue_setup),
        ("rx", nb_rxq, rxd, rx_lim, mod.rx_queue_setup),
    ):
        bad = _ethdev_desc(side, nb, (lim.nb_max, lim.nb_min, lim.nb_align))
        if bad:
            out.errors.append(bad)
            break  # testpmd's start_port stops at the first queue that fails ("Fail to configure port 0 tx queues")
        for q in range(n):
            got = fn(rel, port, q, nb, dev)
            if isinstance(got, Rejection):
                out.errors.append(got)
                break
            out.queues.append((side, q, got))
            out.zones += got.zones
            out.allocs += got.allocs
            for s in got.outside:
                if s not in out.outside:
                    out.outside.append(s)
            for s in got.not_modelled:
                if s not in out.not_modelled:
                    out.not_modelled.append(s)
        if out.errors:
            break
    if hasattr(mod, "start") and not out.errors:
        z, a = call(mod.start, rel, port, nb_rxq, nb_txq, dev, nb_rxd=rxd, nb_txd=txd)
        out.zones += z
        out.allocs += a
    return out
