"""What every PCI poll-mode driver model shares: its source, its queue parts, its limits.

A PCI PMD's model (``e1000_em``, ``igb``, ``igc``, ``ixgbe``, ``i40e``, ``ice``, ``iavf``, ``vmxnet3``,
``virtio``, ``ena``, ``bnxt``, ``mlx5``) is a module of plain functions over the release:

- ``rx_queue_setup(rel, port, queue, nb_desc, dev)`` and ``tx_queue_setup(...)``: a :class:`QueueParts`
  (the descriptors the driver really uses, its memzones and its ``rte_zmalloc`` s) or a
  :class:`~mpcalc.dpdk.core.errors.Rejection` with the driver's own text;
- ``desc_lim(rel, dev)``: the ``rx_desc_lim`` / ``tx_desc_lim`` its ``dev_infos_get`` reports;
- ``probe`` / ``configure``: the device's own memory;
- ``SOURCE``: every cited line, as a pattern and the line it is on at each release, so that a citation is
  ``tag:path:line`` and a test can hold every line to the DPDK mirror (tests/conformance/test_pci_sources.py).

Struct sizes are ``sizeof`` on x86_64, read with pahole from the driver's objects compiled from each tag (the
release's default configuration): the ``SIZES`` table of each module.

Pure: stdlib only.
"""

from __future__ import annotations

import inspect
import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib.resources import files
from typing import NamedTuple, TypeVar

from mpcalc.dpdk.core.errors import Rejection

_T = TypeVar("_T")

#: the releases modelled and the stable tag read for each (the project's ReleaseFacts.stable_tag)
TAGS: dict[str, str] = {
    "21.11": "v21.11.9",
    "22.11": "v22.11.11",
    "23.11": "v23.11.7",
    "24.11": "v24.11.6",
    "25.11": "v25.11.2",
    "26.07": "v26.07",
}
RELEASES = tuple(TAGS)
#: the Intel drivers moved under drivers/net/intel/ in 25.03 (e1000 and igc share drivers/net/intel/e1000)
INTEL_MOVED = "25.11"

RTE_CACHE_LINE_SIZE = 64
#: ``union e1000_adv_*_desc``, ``union ixgbe_adv_*_desc``, the 16-byte Tx descriptors of i40e/ice/iavf
DESC16 = 16


def since(rel: str, first: str) -> bool:
    """Whether release ``rel`` is ``first`` or later (both "YY.MM").

    >>> since("22.11", "22.11"), since("21.11", "25.11")
    (True, False)
    """
    return tuple(map(int, rel.split("."))) >= tuple(map(int, first.split(".")))


def align_ceil(v: int, a: int) -> int:
    """RTE_ALIGN / RTE_ALIGN_CEIL for a power of two.

    >>> align_ceil(4128 * 32, 4096), align_ceil(64, 64)
    (135168, 64)
    """
    return (v + a - 1) // a * a


def align32pow2(v: int) -> int:
    """rte_align32pow2: the next power of two (v itself when it is one).

    >>> align32pow2(100), align32pow2(512), align32pow2(1)
    (128, 512, 1)
    """
    return 1 if v <= 1 else 1 << (v - 1).bit_length()


def align32prevpow2(v: int) -> int:
    """rte_align32prevpow2: the largest power of two not above v.

    >>> align32prevpow2(1000), align32prevpow2(1024)
    (512, 1024)
    """
    return 1 << (v.bit_length() - 1) if v else 0


@dataclass(frozen=True)
class Source:
    """A driver's cited lines: its folder at each release, each key's file and pattern, and its line per release.

    ``lines[rel][key]`` is filled from the mirror (the pattern's first match in the file); ``None`` means the
    release does not have it."""

    dirs: Mapping[str, str]
    #: key -> (file, pattern) or (file, pattern, nth match); the file may be {release: file, "*": default}
    keys: Mapping[str, tuple[object, ...]]
    lines: Mapping[str, Mapping[str, int | None]]

    def file(self, rel: str, key: str) -> str:
        f = self.keys[key][0]
        if isinstance(f, Mapping):
            f = f.get(rel, f["*"])
        return str(f)

    def path(self, rel: str, key: str) -> str:
        file = self.file(rel, key)
        return file if file.startswith(("lib/", "drivers/")) else f"{self.dirs[rel]}/{file}"

    def nth(self, key: str) -> int:
        k = self.keys[key]
        return k[2] if len(k) > 2 and isinstance(k[2], int) else 1

    def has(self, rel: str, key: str) -> bool:
        return self.lines[rel].get(key) is not None

    def cite(self, rel: str, *keys: str) -> str:
        """``tag:path:line`` of a key (several keys of one file: ``tag:path:l1,l2``).

        A key absent at the release is a bug in the model: KeyError names it."""
        out: list[str] = []
        for key in keys:
            line = self.lines[rel][key]
            if line is None:
                raise KeyError(f"{key} has no line at {rel}")
            where = f"{TAGS[rel]}:{self.path(rel, key)}"
            if out and out[-1].rsplit(":", 1)[0] == where:
                out[-1] += f",{line}"
            else:
                out.append(f"{where}:{line}")
        return "; ".join(out)

    def pattern(self, key: str) -> re.Pattern[str]:
        return re.compile(str(self.keys[key][1]))


def _data(folder: str, module: str) -> dict[str, dict[str, int | None]]:
    data: dict[str, dict[str, int | None]] = json.loads(
        files(__package__).joinpath(f"{folder}/{module}.json").read_text()
    )
    return data


def load_lines(module: str) -> dict[str, dict[str, int | None]]:
    """A driver module's ``LINES``: each cited key's line at each release (``lines/<module>.json``, the pattern's
    match at the release's tag in the DPDK mirror, held to it by tests/conformance/test_pci_sources.py)."""
    lines: dict[str, dict[str, int | None]] = json.loads(
        files(__package__).joinpath(f"lines/{module}.json").read_text()
    )
    return lines


def load_sizes(module: str) -> dict[str, dict[str, int]]:
    """A driver module's ``SIZES``: the ``sizeof`` of each struct it reads at each release, x86_64
    (``sizes/<module>.json``: pahole on the driver's objects compiled from the release's tag)."""
    sizes: dict[str, dict[str, int]] = json.loads(files(__package__).joinpath(f"sizes/{module}.json").read_text())
    return sizes


def intel_dirs(old: str, new: str) -> dict[str, str]:
    """An Intel driver's folder at each release: ``drivers/net/<old>`` until 24.11, ``drivers/net/intel/<new>``
    from 25.11 (the move of 25.03)."""
    return {rel: (f"drivers/net/intel/{new}" if since(rel, INTEL_MOVED) else f"drivers/net/{old}") for rel in TAGS}


def same_dir(d: str) -> dict[str, str]:
    return {rel: d for rel in TAGS}


class Zone(NamedTuple):
    """One memzone: ``rte_eth_dma_zone_reserve(dev, ring, queue, size, align, socket)`` names it
    ``eth_p<port>_q<queue>_<ring>`` (v22.11.11:lib/ethdev/ethdev_driver.c:500); others name their own."""

    name: str
    size: int
    align: int
    cite: str
    role: str = ""

    def to_dict(self) -> dict[str, object]:
        return {"name": self.name, "size": self.size, "align": self.align, "source": self.cite, "role": self.role}


class Alloc(NamedTuple):
    """One ``rte_zmalloc(_socket)`` / ``rte_malloc``: its type string (for a NULL one, the driver and the
    pointer it is assigned to: ``ice rxq->sw_ring``), bytes and alignment."""

    name: str
    size: int
    align: int
    cite: str
    role: str = ""

    def to_dict(self) -> dict[str, object]:
        return {"name": self.name, "size": self.size, "align": self.align, "source": self.cite, "role": self.role}


class DescLim(NamedTuple):
    """``struct rte_eth_desc_lim``: what rte_eth_rx/tx_queue_setup holds nb_desc to."""

    nb_max: int
    nb_min: int
    nb_align: int
    cite: str

    def to_dict(self) -> dict[str, object]:
        return {"nb_max": self.nb_max, "nb_min": self.nb_min, "nb_align": self.nb_align, "source": self.cite}


#: a driver that sets no limit leaves ethdev's defaults: nb_max UINT16_MAX, nb_min 0, nb_align 1
#: (rte_eth_dev_info_get, v22.11.11:lib/ethdev/rte_ethdev.c:3325-3329)
NO_LIMIT = DescLim(65535, 0, 1, "v22.11.11:lib/ethdev/rte_ethdev.c:3325-3329")


@dataclass(frozen=True)
class QueueParts:
    """What one queue set-up reserves: the descriptors the driver uses, its memzones, its allocations.

    ``outside`` names memory the driver takes outside the DPDK heap (kernel, verbs, device memory) and
    ``not_modelled`` what it allocates later that this model does not size, each a sentence."""

    nb_desc: int
    zones: tuple[Zone, ...] = ()
    allocs: tuple[Alloc, ...] = ()
    outside: tuple[str, ...] = ()
    not_modelled: tuple[str, ...] = ()
    notes: tuple[str, ...] = field(default=())

    def to_dict(self) -> dict[str, object]:
        return {
            "nb_desc": self.nb_desc,
            "memzones": [z.to_dict() for z in self.zones],
            "allocations": [a.to_dict() for a in self.allocs],
            "outside_heap": list(self.outside),
            "not_modelled": list(self.not_modelled),
            "notes": list(self.notes),
        }


def eth_zone(port: int, queue: int, ring: str) -> str:
    """The name rte_eth_dma_zone_reserve gives: ``eth_p<port>_q<queue>_<ring>``
    (eth_dma_zone_reserve's snprintf "eth_p%d_q%d_%s", v22.11.11:lib/ethdev/ethdev_driver.c:500).

    >>> eth_zone(0, 3, "rx_ring")
    'eth_p0_q3_rx_ring'
    """
    return f"eth_p{port}_q{queue}_{ring}"


def refuse(reason: str, function: str, cite: str, errno: str = "EINVAL") -> Rejection:
    return Rejection(errno, reason, function, cite)


def desc_check(nb_desc: int, lim: DescLim) -> bool:
    """The driver's own nb_desc test: within [nb_min, nb_max] and a multiple of nb_align."""
    return lim.nb_min <= nb_desc <= lim.nb_max and nb_desc % lim.nb_align == 0


def ring_parts(
    src: Source,
    rel: str,
    port: int,
    queue: int,
    nb_desc: int,
    zone: tuple[str, int, int, tuple[str, ...], str],
    allocs: Sequence[tuple[str, int, tuple[str, ...], str]],
    notes: tuple[str, ...] = (),
) -> QueueParts:
    """The common shape of a descriptor-ring driver's queue: one ``rte_eth_dma_zone_reserve`` (ring name,
    bytes, alignment, cited keys, role) and ``rte_zmalloc`` s of cache-line alignment (type string, bytes,
    cited keys, role)."""
    ring, size, align, keys, role = zone
    return QueueParts(
        nb_desc,
        zones=(Zone(eth_zone(port, queue, ring), size, align, src.cite(rel, *keys), role),),
        allocs=tuple(Alloc(n, b, RTE_CACHE_LINE_SIZE, src.cite(rel, *k), r) for n, b, k, r in allocs),
        notes=notes,
    )


def dev_int(dev: Mapping[str, object] | None, key: str, default: int) -> int:
    """An integer property of the device (``dev[key]``), else the default."""
    v = (dev or {}).get(key, default)
    return int(v) if isinstance(v, (int, str)) else default


def ring_zone(
    side: str, size: int, align: int, limit: str, keys: tuple[str, ...] | None = None, ring: str | None = None
) -> tuple[str, int, int, tuple[str, ...], str]:
    """A :func:`ring_parts` zone: the ``<side>_ring`` descriptors (``ring`` for a driver that names its own) of
    ``size`` bytes, sized for the driver's ``limit`` whatever nb_desc is, cited by ``<side>_size`` and
    ``<side>_zone`` unless ``keys`` are given."""
    role = f"{side} descriptors ({limit})"
    return ring or f"{side}_ring", size, align, keys or (f"{side}_size", f"{side}_zone"), role


def sw_queue(side: str, queue_size: int, sw_ring_size: int) -> list[tuple[str, int, tuple[str, ...], str]]:
    """The :func:`ring_parts` allocations of an Intel-style queue set-up: its queue structure (``ethdev RX queue``
    / ``ethdev TX queue``, key ``<side>_queue``) and its software ring (``rxq->sw_ring`` / ``txq->sw_ring``, key
    ``<side>_sw_ring``) of ``sw_ring_size`` bytes."""
    return [
        (f"ethdev {side.upper()} queue", queue_size, (f"{side}_queue",), f"{side} queue"),
        (f"{side}q->sw_ring", sw_ring_size, (f"{side}_sw_ring",), f"{side} software ring"),
    ]


def desc_multiple(
    src: Source, rel: str, side: str, nb_desc: int, align: int, lo: int, hi: int, function: str
) -> Rejection | None:
    """The queue set-up's nb_desc test of e1000/igb/ixgbe: a multiple of ``align`` in [lo, hi], else -EINVAL
    without a message (cited by ``<side>_check``)."""
    if nb_desc % align or not lo <= nb_desc <= hi:
        return refuse(
            f"nb_desc {nb_desc} is not a multiple of {align} in [{lo}, {hi}] (-EINVAL without a message)",
            function,
            src.cite(rel, f"{side}_check"),
        )
    return None


def dev_private(src: Source, rel: str, size: int) -> Alloc:
    """rte_eth_dev_pci_generic_probe(pci_dev, sizeof(struct <adapter>), ...): the device's dev_private, an
    rte_zmalloc_socket named by the PCI address (rte_eth_dev_pci_allocate, v22.11.11:lib/ethdev/ethdev_pci.h:97),
    cited by the driver's ``dev_private`` key."""
    return Alloc("ethdev private structure", size, RTE_CACHE_LINE_SIZE, src.cite(rel, "dev_private"), "dev_private")


@dataclass(frozen=True)
class SimpleRing:
    """The queue set-up of e1000 and igb: nb_desc a multiple of ``desc_align`` in [lo, hi] (:func:`desc_multiple`),
    the ``<side>_ring`` memzone of ``ring_bytes`` sized for ``limit``, the queue structure ``<struct>_queue`` and
    the software ring of a ``<struct>_entry`` per descriptor (``struct`` a format of the side, SIZES' names)."""

    src: Source
    sizes: Mapping[str, Mapping[str, int]]
    function: str  # "eth_em_{}_queue_setup"
    struct: str  # "em_{}"
    desc_align: int
    lo: int
    hi: int
    ring_bytes: int
    ring_align: int
    limit: str

    def setup(self, rel: str, side: str, port: int, queue: int, nb_desc: int) -> QueueParts | Rejection:
        fn = self.function.format(side)
        bad = desc_multiple(self.src, rel, side, nb_desc, self.desc_align, self.lo, self.hi, fn)
        if bad:
            return bad
        s, st = self.sizes[rel], self.struct.format(side)
        zone = ring_zone(side, self.ring_bytes, self.ring_align, self.limit)
        return ring_parts(
            self.src, rel, port, queue, nb_desc, zone, sw_queue(side, s[f"{st}_queue"], s[f"{st}_entry"] * nb_desc)
        )

    def rx(
        self, rel: str, port: int, queue: int, nb_desc: int, dev: Mapping[str, object] | None = None
    ) -> QueueParts | Rejection:
        """The Rx queue set-up (the module's ``rx_queue_setup``)."""
        return self.setup(rel, "rx", port, queue, nb_desc)

    def tx(
        self, rel: str, port: int, queue: int, nb_desc: int, dev: Mapping[str, object] | None = None
    ) -> QueueParts | Rejection:
        """The Tx queue set-up (the module's ``tx_queue_setup``)."""
        return self.setup(rel, "tx", port, queue, nb_desc)


def call(fn: Callable[..., _T], *args: object, **optional: object) -> _T:
    """``fn(*args, **optional)`` with only the keyword arguments ``fn`` declares: a driver module's function
    takes what it reads of the port (``conf``, the descriptor counts ``nb_rxd``/``nb_txd``, ``rss``) and no more.

    >>> def f(rel, port, conf=None):
    ...     return rel, port, conf
    >>> call(f, "22.11", 0, conf="c", nb_rxd=512)
    ('22.11', 0, 'c')
    """
    params = inspect.signature(fn).parameters
    return fn(*args, **{k: v for k, v in optional.items() if k in params})


def bitmap_footprint(n_bits: int) -> int:
    """rte_bitmap_get_memory_footprint: the context and array1 in whole cache lines, then array2, a bit a slot
    (__rte_bitmap_get_memory_footprint, v22.11.11:lib/eal/include/rte_bitmap.h:98-127; the same at 26.07):
    64-bit slabs, 512 bits a cache line, sizeof(struct rte_bitmap) 40 (pahole) in 5 slabs.

    >>> bitmap_footprint(4096), bitmap_footprint(0)
    (576, 0)
    """
    if n_bits == 0:
        return 0
    cl_bits = RTE_CACHE_LINE_SIZE * 8  # RTE_BITMAP_CL_BIT_SIZE
    cl_slabs = cl_bits // 64  # RTE_BITMAP_CL_SLAB_SIZE
    lines2 = (n_bits + cl_bits - 1) // cl_bits
    slabs1 = align32pow2((lines2 + 63) // 64)
    slabs_ctx = (RTE_BITMAP_SIZEOF + 7) // 8
    lines_ctx1 = (slabs_ctx + slabs1 + cl_slabs - 1) // cl_slabs
    return (lines_ctx1 + lines2) * RTE_CACHE_LINE_SIZE


#: sizeof(struct rte_bitmap): two pointers and six uint32_t (v22.11.11:lib/eal/include/rte_bitmap.h:62-77; pahole 40
#: on bnxt's objects at every release)
RTE_BITMAP_SIZEOF = 40
