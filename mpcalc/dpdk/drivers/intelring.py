"""The queue set-up the i40e, ice and iavf drivers share (they diverge in names and limits only).

Rx: a memzone ``rx_ring`` of RTE_ALIGN((MAX + RX_MAX_BURST) * 32-byte descriptors, 4096), aligned to 128,
whatever nb_desc; the queue structure; a software ring of nb_desc + 32 entries. Tx: a memzone of
RTE_ALIGN(16 * MAX, 4096) (named ``tx_ring``, ``<driver>_tx_ring`` in 25.11, ``ci_tx_ring`` in 26.07); the queue;
a software ring of nb_desc; 26.07 adds an RS tracking array (nb_desc / tx_rs_thresh uint16_t) and refuses an
Rx ring not above 2 * rx_free_thresh. nb_desc is a multiple of 32 in [64, MAX].

Pure: stdlib only.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from mpcalc.dpdk.core.errors import Rejection
from mpcalc.dpdk.drivers.pcibase import DescLim, QueueParts, Source, align_ceil, dev_int, refuse, ring_parts, since

RX_DESC = 32  # union i40e_rx_desc / ice_rx_flex_desc / iavf_rx_desc / ci_rx_desc (the 32-byte default)
TX_DESC = 16
DMA_MEM_ALIGN = 4096
RING_BASE_ALIGN = 128
RX_MAX_BURST = 32
ALIGN_RING_DESC = 32
MIN_RING_DESC = 64
DEFAULT_THRESH = 32  # *_DEFAULT_RX_FREE_THRESH, DEFAULT_TX_RS_THRESH


class Names(NamedTuple):
    driver: str  # "i40e", "ice", "iavf"
    rx_queue: str  # the rte_zmalloc type strings ("" for NULL)
    rx_sw: str
    tx_queue: str
    tx_sw: str
    rx_fn: str
    tx_fn: str


def check(src: Source, rel: str, side: str, nb_desc: int, mx: int, fn: str) -> Rejection | None:
    if nb_desc % ALIGN_RING_DESC or not MIN_RING_DESC <= nb_desc <= mx:
        what = "receive" if side == "rx" else "transmit"
        return refuse(f"Number ({nb_desc}) of {what} descriptors is invalid", fn, src.cite(rel, f"{side}_check"))
    return None


def desc_lim(src: Source, rel: str, mx: int) -> tuple[DescLim, DescLim]:
    lim = DescLim(mx, MIN_RING_DESC, ALIGN_RING_DESC, src.cite(rel, "desc_lim"))
    return lim, lim


def rx(
    src: Source,
    sizes: dict[str, int],
    rel: str,
    port: int,
    queue: int,
    nb_desc: int,
    mx: int,
    names: Names,
    dev: dict[str, object] | None,
    structs: tuple[str, str],
    extra: Sequence[tuple[str, int, tuple[str, ...], str]] | None = None,
) -> QueueParts | Rejection:
    bad = check(src, rel, "rx", nb_desc, mx, names.rx_fn)
    if bad:
        return bad
    thresh = dev_int(dev, "rx_free_thresh", DEFAULT_THRESH)
    if src.has(rel, "rx_thresh") and nb_desc <= 2 * thresh:
        return refuse(
            f"rx ring size ({nb_desc}) must be > 2 * rx_free_thresh ({thresh})", names.rx_fn, src.cite(rel, "rx_thresh")
        )
    queue_struct, entry = structs
    allocs: list[tuple[str, int, tuple[str, ...], str]] = [
        (names.rx_queue, sizes[queue_struct], ("rx_queue",), "rx queue")
    ]
    allocs += extra or []
    allocs.append((names.rx_sw, sizes[entry] * (nb_desc + RX_MAX_BURST), ("rx_sw_ring",), "rx software ring"))
    return ring_parts(
        src,
        rel,
        port,
        queue,
        nb_desc,
        (
            "rx_ring",
            align_ceil((mx + RX_MAX_BURST) * RX_DESC, DMA_MEM_ALIGN),
            RING_BASE_ALIGN,
            ("rx_size", "rx_zone"),
            "rx descriptors (max ring + burst)",
        ),
        allocs,
    )


def tx_zone_name(rel: str, driver: str) -> str:
    if since(rel, "26.07"):
        return "ci_tx_ring"
    return f"{driver}_tx_ring" if since(rel, "25.11") else "tx_ring"


def tx(
    src: Source,
    sizes: dict[str, int],
    rel: str,
    port: int,
    queue: int,
    nb_desc: int,
    mx: int,
    names: Names,
    dev: dict[str, object] | None,
    structs: tuple[str, str],
) -> QueueParts | Rejection:
    bad = check(src, rel, "tx", nb_desc, mx, names.tx_fn)
    if bad:
        return bad
    queue_struct, entry = structs
    allocs = [
        (names.tx_queue, sizes[queue_struct], ("tx_queue",), "tx queue"),
        (names.tx_sw, sizes[entry] * nb_desc, ("tx_sw_ring",), "tx software ring"),
    ]
    if src.has(rel, "rs_last_id"):
        allocs.append(
            (
                f"{names.driver} txq->rs_last_id",
                2 * (nb_desc // dev_int(dev, "tx_rs_thresh", DEFAULT_THRESH)),
                ("rs_last_id",),
                "tx RS tracking",
            )
        )
    return ring_parts(
        src,
        rel,
        port,
        queue,
        nb_desc,
        (
            tx_zone_name(rel, names.driver),
            align_ceil(TX_DESC * mx, DMA_MEM_ALIGN),
            RING_BASE_ALIGN,
            ("tx_size", "tx_zone"),
            "tx descriptors (max ring)",
        ),
        allocs,
    )
