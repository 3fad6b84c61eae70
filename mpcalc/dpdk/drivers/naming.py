"""How a user names a NIC: a PCI address bound to a driver, in the ecosystem's own words.

* EAL's ``-a``/``--allow ADDR[,key=value...]`` (and OVS's ``dpdk-devargs``) give the address and its devargs;
  which driver takes it is the target machine's: the user says it with a binding, ``ADDR=DRIVER``
  (``0000:3b:00.0=net_ice``, an alias or the kernel module's name: ``ice``) or ``ADDR=VENDOR:DEVICE``
  (``0000:3b:00.0=8086:159b``, mapped through the drivers' own PCI id tables), or with the text
  ``dpdk-devbind.py --status`` prints on that machine (:func:`parse_devbind`: each device's slot, device
  id and kernel module, ``drv=`` and ``unused=``, v22.11.11:usertools/dpdk-devbind.py:522-590).
* EAL probes the PCI bus before the vdev bus, and PCI devices in address order (the scan keeps them sorted,
  rte_pci_insert_device, v22.11.11:drivers/bus/pci/linux/pci.c:340-375; rte_bus_probe probes the vdev bus
  last, lib/eal/common/eal_common_bus.c:70-90): their port ids come first, in address order.

Pure: stdlib only.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import NamedTuple

from mpcalc.dpdk.core.declare import Param
from mpcalc.dpdk.core.errors import InputError
from mpcalc.dpdk.core.platform import Platform
from mpcalc.dpdk.drivers import all_pmds, by_pci, find, names
from mpcalc.dpdk.drivers.pci_devargs import DROP, NONE, PROBE_FAILED, REFUSE, WARN, Devargs
from mpcalc.dpdk.drivers.pcipmd import release
from mpcalc.dpdk.drivers.pmd import Pmd, Port, parse_devargs

_ADDR = re.compile(r"^(?:([0-9a-fA-F]{4,8}):)?([0-9a-fA-F]{2}):([0-9a-fA-F]{2})\.([0-7])$")
_ID = re.compile(r"^([0-9a-fA-F]{4}):([0-9a-fA-F]{4})$")
#: the kernel modules that hand a device to DPDK (dpdk_drivers, v22.11.11:usertools/dpdk-devbind.py:64)
DPDK_MODULES = ("igb_uio", "vfio-pci", "uio_pci_generic")


def pci_addr(text: str) -> str:
    """A PCI address as EAL reads it (``[domain:]bus:devid.function``, rte_pci_addr_parse,
    v22.11.11:drivers/bus/pci/pci_params.c, lib/pci/rte_pci.c:80-120), written in full.

    >>> pci_addr("3b:00.0"), pci_addr("0000:3B:00.1")
    ('0000:3b:00.0', '0000:3b:00.1')
    """
    m = _ADDR.match(text.strip())
    if m is None:
        raise InputError(f"{text!r} is not a PCI address (DDDD:BB:DD.F, as lspci -D prints it)", param="command")
    dom, bus, dev, fn = m.groups()
    return f"{int(dom or '0', 16):04x}:{bus.lower()}:{dev.lower()}.{fn}"


def pmd_of(driver: str) -> Pmd | None:
    """A driver by its DPDK name (without its ``net_`` or ``_pci``: ``ice``, ``mlx5``), an alias or the kernel
    module that drives the same NIC (``mlx5_core``).

    >>> pmd_of("ice").name, pmd_of("mlx5").name, pmd_of("mlx5_core").name
    ('net_ice', 'mlx5_pci', 'mlx5_pci')
    """
    pmd = find(driver) or find("net_" + driver) or find(driver + "_pci")
    if pmd is not None:
        return pmd
    for cand in all_pmds():
        if driver in cand.kernel_drivers:
            return cand
    return None


def _pci_names() -> str:
    return ", ".join(names("pci")) or "none yet"


def binding(text: str) -> tuple[str, Pmd]:
    """``ADDR=DRIVER`` or ``ADDR=VENDOR:DEVICE`` -> (address, driver); an unknown driver or id is refused by
    name, listing the known PCI drivers."""
    addr, sep, what = text.partition("=")
    if not sep or not what:
        raise InputError(
            f"--nic {text!r}: give ADDR=DRIVER (0000:3b:00.0=net_ice) or ADDR=VENDOR:DEVICE (0000:3b:00.0=8086:159b)",
            param="nic",
        )
    where = pci_addr(addr)
    m = _ID.match(what)
    if m is not None:
        vendor, device = int(m.group(1), 16), int(m.group(2), 16)
        pmd = by_pci(vendor, device)
        if pmd is None:
            raise InputError(
                f"--nic {text!r}: no modelled driver has PCI id {vendor:04x}:{device:04x} in its id table "
                f"(known PCI drivers: {_pci_names()})",
                param="nic",
            )
        return where, pmd
    pmd = pmd_of(what)
    if pmd is None or pmd.bus != "pci":
        raise InputError(
            f"--nic {text!r}: the {what} driver is not modelled for a PCI device (known PCI drivers: {_pci_names()})",
            param="nic",
        )
    return where, pmd


class Nic(NamedTuple):
    """A NIC on the target machine: its driver, and the device's own properties the model needs (the driver
    reads them from the device, not from devargs: :attr:`Pmd.props`)."""

    pmd: Pmd
    props: tuple[tuple[str, str], ...] = ()


def parse_bindings(text: str | None) -> dict[str, Nic]:
    """``--nic`` text: bindings separated by commas or spaces, each ``ADDR=DRIVER`` (or ``ADDR=VENDOR:DEVICE``)
    followed by the device's properties, ``key=value``, as on ``-a``
    (``0000:00:13.0=virtio,max_queue_pairs=4,0000:00:14.0=e1000``); a property its driver does not have is
    refused, listing those it has.

    >>> nics = parse_bindings("3b:00.0=ice,max_queues=16 3b:00.1=ice")
    >>> [(a, n.pmd.name, n.props) for a, n in nics.items()]
    [('0000:3b:00.0', 'net_ice', (('max_queues', '16'),)), ('0000:3b:00.1', 'net_ice', ())]
    """
    out: dict[str, Nic] = {}
    last: str | None = None
    for item in re.split(r"[,\s]+", text or ""):
        if not item:
            continue
        key, sep, value = item.partition("=")
        if _ADDR.match(key) is None and sep and last is not None:
            nic = out[last]
            if key not in nic.pmd.props:
                has = ", ".join(sorted(nic.pmd.props)) or "none"
                raise InputError(
                    f"--nic {text!r}: {key!r} is not a property of {nic.pmd.name} (its properties: {has})",
                    param="nic",
                )
            out[last] = nic._replace(props=(*nic.props, (key, value)))
            continue
        addr, pmd = binding(item)
        out[addr], last = Nic(pmd), addr
    return out


@dataclass(frozen=True)
class DevbindEntry:
    """One device line of ``dpdk-devbind.py --status``."""

    addr: str
    device_id: int
    name: str
    driver: str  # drv=, "" when none
    modules: tuple[str, ...]  # unused=
    numa_node: int | None

    @property
    def dpdk_bound(self) -> bool:
        return self.driver in DPDK_MODULES


_LINE = re.compile(r"^(\S+)\s+'(.*)\s([0-9a-fA-F]{4})'\s*(.*)$")


def parse_devbind(text: str) -> list[DevbindEntry]:
    """The device lines of ``dpdk-devbind.py --status`` (``SLOT 'NAME DEVICE' [numa_node=N] [if=IF]
    drv=DRV unused=MODS [*Active*]``, display_devices, v22.11.11:usertools/dpdk-devbind.py:522-544;
    numa_node= from 23.11, v26.07:usertools/dpdk-devbind.py:729-765); headings and other lines skipped."""
    out = []
    for line in text.splitlines():
        m = _LINE.match(line.strip())
        if m is None or _ADDR.match(m.group(1)) is None:
            continue
        fields = dict(f.partition("=")[::2] for f in m.group(4).split() if "=" in f)
        numa = fields.get("numa_node")
        out.append(
            DevbindEntry(
                addr=pci_addr(m.group(1)),
                device_id=int(m.group(3), 16),
                name=m.group(2),
                driver=fields.get("drv", ""),
                modules=tuple(x for x in fields.get("unused", "").split(",") if x),
                numa_node=int(numa) if numa and numa.lstrip("-").isdigit() else None,
            )
        )
    return out


def devbind_bindings(text: str) -> dict[str, Nic]:
    """The DPDK driver of each device ``dpdk-devbind.py --status`` lists: its kernel module (``drv=`` when a
    kernel driver holds it, else the first of ``unused=`` a modelled driver names), checked against that
    driver's PCI device ids; a device no modelled driver claims is left out (EAL would not probe it as a
    modelled port)."""
    out: dict[str, Nic] = {}
    for e in parse_devbind(text):
        for module in ([e.driver] if e.driver and not e.dpdk_bound else []) + list(e.modules):
            pmd = pmd_of(module)
            if pmd is not None and pmd.bus == "pci":
                if pmd.pci_ids and all(d != e.device_id for _, d in pmd.pci_ids):
                    continue
                out[e.addr] = Nic(pmd)
                break
    return out


def probed_by_devbind(text: str) -> list[str]:
    """The addresses EAL probes without ``-a``: devices bound to a DPDK module, and those a bifurcated driver
    (mlx5) takes through its kernel driver."""
    binds = devbind_bindings(text)
    return sorted(
        e.addr for e in parse_devbind(text) if e.dpdk_bound or (e.addr in binds and binds[e.addr].pmd.bifurcated)
    )


class ProbeFailed(InputError):
    """A driver's probe fails on a devarg it does not know: EAL says the device cannot be used and goes on
    without it (pci_probe counts it failed and goes on, v22.11:drivers/bus/pci/pci_common.c:420-435; rte_bus_probe
    logs a failed bus and returns 0, v22.11:lib/eal/common/eal_common_bus.c:66-92)."""


def pci_ports(
    allowed: list[str],
    bindings: dict[str, Nic],
    p: Platform | None,
    first_id: int = 0,
    option: str = "-a",
    unprobed: list[str] | None = None,
) -> list[Port]:
    """EAL's ``-a ADDR[,devargs]`` list as ports, in PCI address order (the bus scan's), each bound to its
    driver by ``bindings`` (the device's properties given there go before its devargs); an address without a
    binding is refused, saying how to give one. Each devarg the model does not use is held to what the driver
    does with it at ``p``'s release (:func:`driver_devargs`). A device whose probe fails on a devarg
    (:class:`ProbeFailed`) is no port: with ``unprobed`` given, its line goes there and the next device takes
    its port id, as in EAL; else it is raised."""
    specs: dict[str, tuple[tuple[str, str], ...]] = {}
    for spec in allowed:
        addr, pairs = parse_devargs(spec)
        specs[pci_addr(addr)] = pairs
    ports: list[Port] = []
    for addr in sorted(specs):
        nic = bindings.get(addr)
        if nic is None:
            raise InputError(
                f"{option} {addr}: its driver is the target machine's: give --nic {addr}=DRIVER or "
                f"{addr}=VENDOR:DEVICE, or --devbind FILE (what dpdk-devbind.py --status prints); known PCI drivers: "
                f"{_pci_names()}",
                param="nic",
            )
        pmd = nic.pmd
        pairs = specs[addr]
        try:
            driver_devargs(pmd, addr, pairs, p, option)
        except ProbeFailed as exc:
            if unprobed is None:
                raise
            unprobed.append(str(exc))
            continue
        pairs = (*nic.props, *pairs)
        ports.append(Port(first_id + len(ports), addr, pmd.name, dict(pairs), pairs))
    return ports


def driver_devargs(
    pmd: Pmd, addr: str, pairs: tuple[tuple[str, str], ...], p: Platform | None, option: str = "-a"
) -> list[str]:
    """What the driver does, at ``p``'s release, with the devargs of its ``-a`` that the model does not use (not
    its ``devargs``), from its own parsing (:mod:`.pci_devargs`): a key it reads is noted, its memory not modelled;
    a key it does not know is refused in its own words when its probe fails on it, and noted as ignored when it
    parses no devargs, passes over the key or (ixgbe, i40e: its rte_kvargs_parse fails) over all its keys; a
    devarg with which its probe leaves the device to another driver is refused. Returns the notes, one per key."""
    d = pmd.parsing(p) if pmd.parsing is not None else None

    def model_reads(k: str) -> bool:
        # a device property, or a devarg the model reads that the driver has at the release
        return k in pmd.props or (k in pmd.devargs and (d is None or k in d.keys or k in d.ethdev))

    given = [(k, v) for k, v in pairs if not model_reads(k)]
    if not given:
        return []
    if d is None:
        k = given[0][0]
        raise InputError(f"{option} {addr}: {pmd.name} argument {k!r} is not modelled", param="command")
    rel = release(p)
    strangers = [k for k, _ in given if k not in d.keys]
    notes: list[str] = []
    for k, v in dict.fromkeys(given):
        pair = f"{k}={v}" if v else k
        shown = f"devarg {pair}"
        for leave in d.leaves:
            if leave.key == k and (v == leave.value if leave.value else not set(v.split(":")) & set(leave.unless)):
                raise InputError(
                    f"{option} {addr}: {pair}: {pmd.name}'s probe leaves the device to another driver "
                    f"({leave.cite}), which is not modelled",
                    param="command",
                )
        if k in d.keys or k in d.ethdev:
            if d.unknown == DROP and k in d.keys and strangers:
                notes.append(
                    f"{shown}: ignored by {pmd.name}: with {strangers[0]} in its devargs its rte_kvargs_parse fails"
                )
            else:
                notes.append(f"{shown}: read by {pmd.name}, its memory not modelled")
        elif d.unknown == REFUSE:
            raise ProbeFailed(_refusal(option, addr, pmd.name, rel, k, d, given), param="command")
        elif d.unknown == NONE:
            notes.append(f"{shown}: ignored by {pmd.name} (it parses no devargs)")
        elif d.unknown == DROP:
            notes.append(f"{shown}: ignored by {pmd.name}, and its other devargs: its rte_kvargs_parse fails")
        elif d.unknown == WARN:
            notes.append(f"{shown}: ignored by {pmd.name}, which logs '{_said(d, k, given)}'")
        else:
            notes.append(f"{shown}: ignored by {pmd.name} (it reads only {', '.join(d.keys)})")
    return notes


def _said(d: Devargs, key: str, given: list[tuple[str, str]]) -> str:
    """The driver's log line, its %s the unknown key or the devargs string."""
    if d.fills == "args":
        return d.said.replace("%s", ",".join(f"{k}={v}" if v else k for k, v in given), 1)
    return d.said.replace("%s", key, 1)


def _refusal(option: str, addr: str, name: str, rel: str, key: str, d: Devargs, given: list[tuple[str, str]]) -> str:
    """A driver's refusal of a devarg it does not know: its own log line and where its probe fails, then EAL's."""
    said = f"it logs '{_said(d, key, given)}' ({d.said_at})" if d.said else f"its devargs parse fails ({d.said_at})"
    eal, eal_at = PROBE_FAILED[rel]
    return (
        f"{option} {addr}: {name} at {rel} does not know devarg {key!r} (not among the keys it reads, {d.keys_at}): "
        f"{said} and its probe fails ({d.fails_at}); EAL: '{eal.replace('%s', addr)}' ({eal_at}): "
        "the device is not a port"
    )


def _params() -> tuple[Param, Param]:
    nic = Param(
        "nic",
        "list",
        "A NIC of the command line's -a (or OVS's dpdk-devargs) and its driver on the target machine: "
        "ADDR=DRIVER (0000:3b:00.0=net_ice, or the kernel module: ice) or ADDR=VENDOR:DEVICE "
        "(0000:3b:00.0=8086:159b, mapped through the drivers' PCI id tables), then the device's own properties "
        "the driver reads from it (,max_queue_pairs=4 for a virtio-net device). Repeat for each NIC.",
        metavar="ADDR=DRIVER[,PROP=VALUE...]",
    )
    devbind = Param(
        "devbind",
        "path",
        "A file with what 'dpdk-devbind.py --status' prints on the target machine: each device's driver read "
        "from its kernel module; without -a, the devices bound to vfio-pci/uio are the ports EAL probes.",
        metavar="FILE",
    )
    return nic, devbind


NIC, DEVBIND = _params()


def bindings_of(nics: list[str] | tuple[str, ...] | None, devbind_text: str | None) -> dict[str, Nic]:
    """The bindings of ``--nic`` (each item) over those read from ``--devbind``'s text."""
    out = devbind_bindings(devbind_text) if devbind_text else {}
    for item in nics or ():
        out.update(parse_bindings(item))
    return out


def read_devbind(path: str | None) -> str | None:
    """``--devbind FILE``'s text (the model's one read of a user file for naming)."""
    if path is None:
        return None
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            return fh.read()
    except OSError as exc:
        raise InputError(f"--devbind {path!r}: {exc.strerror}", param="devbind") from None
