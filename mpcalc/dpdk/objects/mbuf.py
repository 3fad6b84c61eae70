"""rte_pktmbuf_pool_create (v22.11:lib/mbuf/rte_mbuf.c:219-277), and the ``mbuf``
object (the per-lcore cache facts are mpcalc.dpdk.objects.mempool.cache) (:data:`MBUF`)."""

from collections.abc import Mapping
from typing import Any, NamedTuple

from mpcalc.dpdk.core import heap
from mpcalc.dpdk.core.declare import CACHE_LAYOUT, CACHE_SIZE, ObjectDecl, Param, Resolved, at_most_one, name_param
from mpcalc.dpdk.core.errors import InputError, Rejection, check_u32
from mpcalc.dpdk.core.platform import Platform
from mpcalc.dpdk.core.records import Mempool, Result
from mpcalc.dpdk.objects.mempool import RING_LIMIT, PoolSpec, create_pool
from mpcalc.dpdk.objects.mempool.cache import cache_report
from mpcalc.dpdk.objects.mempool.ops import OPS

ETHER_HDR_LEN = 14  # RTE_ETHER_HDR_LEN
ETHER_CRC_LEN = 4  # RTE_ETHER_CRC_LEN
U16_MAX = 0xFFFF


class MbufSpec(NamedTuple):
    name: str
    count: int  # type: ignore[assignment]  # shadows tuple.count, as namedtuples allow
    cache_size: int = 0
    priv_size: int = 0
    data_room: int | None = None
    mtu: int | None = None
    cache_layout: str = "pointer"
    #: rte_pktmbuf_pool_create_by_ops's ops_name; "": rte_mbuf_best_mempool_ops(), ring_mp_mc unless configured
    #: (v22.11:lib/mbuf/rte_mbuf.c:246-247, lib/mbuf/rte_mbuf_pool_ops.c:91-103)
    ops: str = ""


def data_room(spec: MbufSpec, p: Platform) -> tuple[int, str]:
    """The data room size and how it was chosen."""
    r = p.release
    if spec.mtu is not None:
        room = r.pktmbuf_headroom + spec.mtu + ETHER_HDR_LEN + ETHER_CRC_LEN
        how = (
            f"RTE_PKTMBUF_HEADROOM {r.pktmbuf_headroom} + MTU {spec.mtu} + Ethernet header {ETHER_HDR_LEN} "
            f"+ CRC {ETHER_CRC_LEN} = {room} (the frame of eth_dev_get_overhead_len's fallback in "
            "examples/l3fwd/main.c); one convention among several: l3fwd and testpmd of 22.11 create their pools "
            "with RTE_MBUF_DEFAULT_BUF_SIZE whatever the MTU (testpmd's --mbuf-size sets it), so size a whole "
            "application with mpcalc app -- <its command line>"
        )
    elif spec.data_room is not None:
        room, how = spec.data_room, "given"
    else:
        room = r.mbuf_default_dataroom + r.pktmbuf_headroom
        how = (
            f"RTE_MBUF_DEFAULT_BUF_SIZE = RTE_MBUF_DEFAULT_DATAROOM {r.mbuf_default_dataroom} + "
            f"RTE_PKTMBUF_HEADROOM {r.pktmbuf_headroom}"
        )
    if not 0 <= room <= U16_MAX:
        raise InputError(f"data room {room} does not fit the uint16_t data_room_size ({how})", param="--data-room")
    return room, how


def mbuf_pool(spec: MbufSpec, p: Platform) -> tuple[Mempool | None, list[Rejection], dict[str, object]]:
    r = p.release
    if not 0 <= spec.priv_size <= U16_MAX:
        raise InputError(f"priv_size {spec.priv_size} does not fit uint16_t", param="--priv-size")
    room, how = data_room(spec, p)
    details: dict[str, object] = {
        "data_room": room,
        "data_room_from": how,
        "priv_size": spec.priv_size,
        "mbuf_size": r.mbuf_size,
    }
    if spec.priv_size % r.mbuf_priv_align:
        return (
            None,
            [
                Rejection(
                    errno="EINVAL",
                    reason=f"priv_size {spec.priv_size} is not a multiple of RTE_MBUF_PRIV_ALIGN {r.mbuf_priv_align}",
                    function="rte_pktmbuf_pool_create_by_ops",
                    source="v22.11:lib/mbuf/rte_mbuf.c:229-234",
                )
            ],
            details,
        )
    mp = create_pool(
        PoolSpec(
            name=spec.name,
            count=spec.count,
            elt_size=r.mbuf_size + spec.priv_size + room,
            cache_size=spec.cache_size,
            private_size=r.pktmbuf_pool_private_size,
            flags=0,
            cache_layout=spec.cache_layout,
            ops=spec.ops,
        ),
        p,
    )
    return mp, [], details


def size(spec: MbufSpec, p: Platform, lcores: int | None = None) -> Result:
    """``rte_pktmbuf_pool_create`` with the default mempool ops."""
    check_u32((spec.count, "count"), (spec.cache_size, "cache_size"))
    mp, errors, details = mbuf_pool(spec, p)
    if mp is not None and mp.header is not None and spec.cache_size:
        details["cache"] = cache_report(mp, p, spec.cache_layout, lcores)
    return heap.assemble("mbuf", 0, p, [mp] if mp else [], (), errors, details)


_INPUTS = ("name", "count", "cache_size", "priv_size", "data_room", "mtu", "lcores", "cache_layout", "ops")


def _resolve(a: Mapping[str, Any]) -> Resolved:
    at_most_one(a, "data_room", "mtu")
    return Resolved({k: a[k] for k in _INPUTS}, {})


def _build(a: Mapping[str, Any], extra: Mapping[str, Any], flags: int, p: Platform) -> Result:
    return size(
        MbufSpec(
            name=a["name"],
            count=a["count"],
            cache_size=a["cache_size"],
            priv_size=a["priv_size"],
            data_room=a["data_room"],
            mtu=a["mtu"],
            cache_layout=a["cache_layout"],
            ops=a["ops"] or "",
        ),
        p,
        a["lcores"],
    )


MBUF = ObjectDecl(
    name="mbuf",
    summary="An rte_pktmbuf_pool_create() pool of packet buffers.",
    params=(
        Param("count", "count", "Number of mbufs; required unless --fit.", short="-n", needed=True),
        Param(
            "priv_size",
            "size",
            "Application private area per mbuf (multiple of 8).",
            default=0,
            hi=U16_MAX,
            show_default=True,
        ),
        Param("data_room", "size", "Data room incl. headroom [default: RTE_MBUF_DEFAULT_BUF_SIZE, 2176].", hi=U16_MAX),
        Param(
            "mtu",
            "size",
            "Derive the data room from an MTU: headroom + MTU + Ethernet header + CRC (one "
            "convention; an application's own pools: mpcalc app).",
            lo=1,
            hi=U16_MAX,
        ),
        Param("lcores", "count", "Lcores using the pool: how many mbufs can sit idle in their caches.", lo=1, hi=65535),
        name_param("mbuf_pool", "MP_<name>"),
        CACHE_SIZE,
        CACHE_LAYOUT,
        Param(
            "ops",
            "choice",
            "Mempool driver (rte_pktmbuf_pool_create_by_ops) [default: rte_mbuf_best_mempool_ops(), ring_mp_mc].",
            choices=OPS,
        ),
    ),
    build=_build,
    resolve=_resolve,
    fit={"count": RING_LIMIT},
    per=("count", "mbuf"),
)
