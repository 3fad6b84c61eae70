"""The PCI driver models as :class:`~mpcalc.dpdk.drivers.pmd.Pmd` declarations.

Each PCI driver module (``e1000_em``, ``igb``, ``igc``, ``ixgbe``, ``i40e``, ``ice``, ``iavf``, ``vmxnet3``,
``virtio``, ``ena``, ``bnxt``, ``mlx5``) keeps its figures as functions of the release (:mod:`.pcibase`);
:func:`declare` turns them into the registry's hooks: ``probe``, ``configure``, ``rx_queue_setup``,
``tx_queue_setup`` and ``start`` give :class:`~mpcalc.dpdk.core.standalone.Parts` (a driver's refusal as a
:class:`~mpcalc.dpdk.core.errors.Rejection` in ``errors``), the limits come from ``desc_lim``, ``max_queues`` and
``default_ring``, the PCI ids from the drivers' own tables (:mod:`.pci_ids`).

A NIC's own properties the model needs (virtio's queue pairs and queue sizes, vmxnet3's device version, a
VF's granted queues) are not DPDK devargs: the driver reads them from the device. They are given with the
device's driver, as the keys of the module's ``PROPS`` (``--nic 0000:00:13.0=virtio,max_queue_pairs=4``; still
read on its ``-a``, as before) and their defaults are the common device's (QEMU's for virtio and vmxnet3). The
driver's real devargs are held to its own parsing at the release (:mod:`.pci_devargs`, ``Pmd.parsing``).

Pure: stdlib only.
"""

from __future__ import annotations

from types import ModuleType

from mpcalc.dpdk.core.errors import InputError, Rejection
from mpcalc.dpdk.core.heap import memzone_len
from mpcalc.dpdk.core.platform import Platform
from mpcalc.dpdk.core.records import Allocation, Memzone
from mpcalc.dpdk.core.standalone import Parts
from mpcalc.dpdk.drivers import pci_devargs
from mpcalc.dpdk.drivers.pci_ids import IDS
from mpcalc.dpdk.drivers.pci_offloads import capa
from mpcalc.dpdk.drivers.pcibase import RELEASES, Alloc, QueueParts, Zone, call
from mpcalc.dpdk.drivers.pmd import RUN, SOURCE, DescLim, Pmd, Port, QueueConf, ring_size

NEWEST = RELEASES[-1]


def release(p: Platform | None) -> str:
    """The modelled release of a platform ("YY.MM"; the newest without one)."""
    return NEWEST if p is None else ".".join(str(p.dpdk).split(".")[:2])


#: the largest number a device property takes: the 16-bit fields a device reports its queue counts, ring sizes
#: and versions in (and a bound on what the model builds from them)
PROP_MAX = (1 << 16) - 1


def props(mod: ModuleType, port: Port) -> dict[str, object]:
    """The device properties given on the port's ``--nic`` or ``-a`` (numbers as numbers, 0 to :data:`PROP_MAX`;
    yes/no as booleans); anything else is refused, quoting it."""
    out: dict[str, object] = {}
    for key in getattr(mod, "PROPS", ()):
        text = port.args.get(key)
        if text is None:
            continue
        low = text.lower()
        if low in ("1", "yes", "true", "on") and key in getattr(mod, "BOOL_PROPS", ()):
            out[key] = True
        elif low in ("0", "no", "false", "off") and key in getattr(mod, "BOOL_PROPS", ()):
            out[key] = False
        else:
            try:
                n = int(text, 0)
            except ValueError:
                n = -1
            if not 0 <= n <= PROP_MAX:
                raise InputError(
                    f"{port.name}: {key}={text!r}: a device property is a number from 0 to {PROP_MAX:,}",
                    param="nic",
                )
            out[key] = n
    return out


def parts(zones: tuple[Zone, ...] | list[Zone], allocs: tuple[Alloc, ...] | list[Alloc], p: Platform) -> Parts:
    out = Parts()
    out.zones += [Memzone(z.name, memzone_len(z.size, p), z.role or z.name) for z in zones]
    out.allocations += [Allocation(a.name, a.size, a.role or a.name) for a in allocs]
    return out


def _queue(got: QueueParts | Rejection, p: Platform) -> Parts:
    if isinstance(got, Rejection):
        out = Parts()
        out.errors.append(got)
        return out
    return parts(got.zones, got.allocs, p)


def declare(
    mod: ModuleType,
    *,
    name: str,
    source: str,
    kernel_drivers: tuple[str, ...] = (),
    bifurcated: bool = False,
    devargs: tuple[str, ...] = (),
    evidence: str = "",
    ids_of: str | None = None,
    zones: tuple[str, ...] = (),
) -> Pmd:
    """A PCI driver module's :class:`Pmd`."""

    def dev(port: Port) -> dict[str, object]:
        # the device's properties, and its PCI address (a PCI port is named by it) for the drivers that name
        # their memzones by it (bnxt_alloc_rings: "bnxt_" PCI_PRI_FMT "-%04x_%s")
        return {**props(mod, port), "pci_addr": port.name}

    # one process (Port.process): the devices of the driver's ports EAL probed (before ``port``, or all of them),
    # and those the application started before ``port`` with their queue counts, for a driver that numbers its
    # memory process-wide (ena's ena_alloc_cnt at 21.11); a port alone has only itself
    def probed(port: Port, before: bool) -> tuple[dict[str, object], ...]:
        if port.process is None:
            return () if before else (dev(port),)
        ports = port.process.probed_before(port) if before else port.process.of_driver(port)
        return tuple(dev(pt) for pt in ports)

    def started(port: Port) -> tuple[tuple[dict[str, object], int, int], ...]:
        ports = port.process.started_before(port) if port.process else ()
        return tuple((dev(pt), pq.nb_rxq, pq.nb_txq) for pt, pq in ports)

    def probe(port: Port, p: Platform) -> Parts:
        if not hasattr(mod, "probe"):
            return Parts()
        got = call(mod.probe, release(p), port.port_id, dev(port), probed_before=probed(port, True))
        if isinstance(got, Rejection):
            out = Parts()
            out.errors.append(got)
            return out
        # dev_private is named by the device (rte_eth_dev_pci_allocate: rte_zmalloc_socket(name, ...),
        # v22.11.11:lib/ethdev/ethdev_pci.h:97)
        allocs = [a._replace(name=port.name) if a.role == "dev_private" else a for a in got[1]]
        return parts(got[0], allocs, p)

    def configure(port: Port, q: QueueConf, p: Platform) -> Parts:
        if not hasattr(mod, "configure"):
            return Parts()
        z, a = call(mod.configure, release(p), port.port_id, q.nb_rxq, q.nb_txq, dev(port), rss=q.nb_rxq > 1)
        return parts(z, a, p)

    # a module's queue set-up and start read what they need of the port's configuration (``conf``: its MTU, the
    # Rx pool's data room, the offloads), pcibase.call handing each only the keywords it declares
    def rx_queue_setup(port: Port, queue_id: int, nb_desc: int, q: QueueConf, p: Platform) -> Parts:
        return _queue(call(mod.rx_queue_setup, release(p), port.port_id, queue_id, nb_desc, dev(port), conf=q), p)

    def tx_queue_setup(port: Port, queue_id: int, nb_desc: int, q: QueueConf, p: Platform) -> Parts:
        return _queue(call(mod.tx_queue_setup, release(p), port.port_id, queue_id, nb_desc, dev(port), conf=q), p)

    def rings(q: QueueConf, rel: str) -> tuple[int, int]:
        # the descriptor counts ethdev hands the queue set-ups
        d_rx, d_tx = mod.default_ring(rel)
        return ring_size(q.nb_rxd, d_rx), ring_size(q.nb_txd, d_tx)

    def first_probe(port: Port, p: Platform) -> Parts:
        if not hasattr(mod, "first_probe"):
            return Parts()
        z, a = mod.first_probe(release(p))
        return parts(z, a, p)

    def start(port: Port, q: QueueConf, p: Platform) -> Parts:
        if not hasattr(mod, "start"):
            return Parts()
        rel = release(p)
        nb_rxd, nb_txd = rings(q, rel)
        z, a = call(
            mod.start,
            rel,
            port.port_id,
            q.nb_rxq,
            q.nb_txq,
            dev(port),
            nb_rxd=nb_rxd,
            nb_txd=nb_txd,
            conf=q,
            probed=probed(port, False),
            started_before=started(port),
        )
        return parts(z, a, p)

    def used(port: Port, nb_desc: int, what: str, p: Platform) -> int:
        fn = mod.rx_queue_setup if what == "rx" else mod.tx_queue_setup
        got = fn(release(p), port.port_id, 0, nb_desc, dev(port))
        return got.nb_desc if isinstance(got, QueueParts) else nb_desc

    def lim(i: int) -> object:
        def f(port: Port, p: Platform) -> DescLim:
            d = mod.desc_lim(release(p), dev(port))[i]
            return DescLim(d.nb_max, d.nb_min, d.nb_align)

        return f

    def stated(port: Port, q: QueueConf, p: Platform, what: str) -> tuple[str, ...]:
        # the sentences of the port's Rx and Tx queues (QueueParts.outside / .not_modelled), each once
        rel = release(p)
        out: list[str] = []
        for fn, nb in zip((mod.rx_queue_setup, mod.tx_queue_setup), rings(q, rel), strict=True):
            got = call(fn, rel, port.port_id, 0, nb, dev(port), conf=q)
            if isinstance(got, QueueParts):
                out += [s for s in getattr(got, what) if s not in out]
        return tuple(out)

    def outside(port: Port, q: QueueConf, p: Platform) -> tuple[str, ...]:
        return stated(port, q, p, "outside")

    def not_modelled(port: Port, q: QueueConf, p: Platform) -> tuple[str, ...]:
        # the module's own list at the release (what probe, configure and start leave uncounted), else its queues'
        if hasattr(mod, "not_modelled"):
            return tuple(call(mod.not_modelled, release(p), dev(port), conf=q))
        return stated(port, q, p, "not_modelled")

    ids = tuple(sorted(IDS.get(ids_of or name, {})))
    return Pmd(
        name=name,
        source=source,
        bus="pci",
        pci_ids=ids,
        kernel_drivers=kernel_drivers,
        bifurcated=bifurcated,
        zones=zones,
        devargs=frozenset(devargs) | frozenset(getattr(mod, "PROPS", ())),
        # the device's own properties: PROPS less the driver's own devargs the model reads (virtio's vectorized)
        props=frozenset(getattr(mod, "PROPS", ())) - frozenset(pci_devargs.KEYS.get(name, {})),
        parsing=lambda p: pci_devargs.parsing(name, release(p)),
        provenance=RUN if mod.PROVENANCE == "run" else SOURCE,
        evidence=evidence
        or ("tests/conformance/drivers/qemu/" if mod.PROVENANCE == "run" else f"{source} at 21.11..26.07"),
        max_queues=lambda port, p: mod.max_queues(release(p), dev(port)),
        rx_desc_lim=lim(0),  # type: ignore[arg-type]
        tx_desc_lim=lim(1),  # type: ignore[arg-type]
        default_ring_size=lambda port, p: mod.default_ring(release(p)),
        first_probe=first_probe,
        probe=probe,
        configure=configure,
        rx_queue_setup=rx_queue_setup,
        tx_queue_setup=tx_queue_setup,
        start=start,
        descriptors_used=used,
        offload_capa=lambda port, p: capa(name, release(p), dev(port)),  # dev_infos_get's (pci_offloads)
        outside_heap=outside,
        not_modelled=not_modelled,
    )
