"""Which DPDK function created a dumped pool, and so which levers its caller has.

A mempool dump does not name the function that created the pool, yet the advice depends on it:

* ``rte_mempool_create`` (v22.11:lib/mempool/rte_mempool.c:952-1005) takes ``flags``: the sizing flags are
  levers;
* ``rte_pktmbuf_pool_create`` (v22.11:lib/mbuf/rte_mbuf.c:219-279; and _extbuf, 281-340) calls
  ``rte_mempool_create_empty(name, n, sizeof(struct rte_mbuf) + priv_size + data_room_size, cache_size,
  sizeof(struct rte_pktmbuf_pool_private), socket_id, 0)``: no flags; the caller has ``n``, ``cache_size`` and
  the data room (and the private area);
* ``rte_rib_create`` / ``rte_rib6_create`` (v22.11:lib/rib/rte_rib.c:395-420, rte_rib6.c:463-480) call
  ``rte_mempool_create("MP_<name>", conf->max_nodes, sizeof(struct rte_rib_node) + conf->ext_sz, 0, 0, NULL,
  NULL, NULL, NULL, socket_id, 0)``: no flags, no cache; the caller has ``max_nodes``, and through
  ``rte_fib_create`` (``rib_conf.max_nodes = conf->max_routes * 2``, v22.11:lib/fib/rte_fib.c:166-168)
  ``max_routes``; a FIB's tables are its ``number_tbl8s`` (dir24_8_create / trie_create, rte_zmalloc_socket).

With the application's command line (``mpcalc inspect DUMP -- COMMAND LINE``) the creator is the model's;
otherwise it is read from the pool's own layout (:func:`kind_of`), and the report says from what.

Pure Python (no click, no rich).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

from mpcalc.dpdk.core.flags import VALID_USER_FLAGS
from mpcalc.dpdk.core.intmath import ceil_a
from mpcalc.dpdk.core.platform import Platform
from mpcalc.inspect.dumps import PoolDump

MEMPOOL = "rte_mempool_create"
PKTMBUF = "rte_pktmbuf_pool_create"
EXTBUF = "rte_pktmbuf_pool_create_extbuf"
RIB = "rte_rib_create"
RIB6 = "rte_rib6_create"


class Kind(NamedTuple):
    """How a pool was created: the function, from what mpcalc knows it, and (RIB node pools) the RIB or FIB."""

    creator: str
    why: str
    #: the RIB's name (the pool is ``MP_<owner>``) and whether rte_fib_create made that RIB
    owner: str | None = None
    fib: bool = False

    @property
    def flags_lever(self) -> bool:
        """Whether the caller passes mempool flags (only rte_mempool_create's caller does)."""
        return self.creator == MEMPOOL

    def to_dict(self) -> dict[str, object]:
        return {
            "creator": self.creator,
            "why": self.why,
            "owner": self.owner,
            "fib": self.fib,
            "levers": list(levers(self)),
        }


def levers(k: Kind) -> tuple[str, ...]:
    """What the caller of ``k.creator`` can change."""
    if k.creator == MEMPOOL:
        return ("n", "cache_size", "flags")
    if k.creator == PKTMBUF:
        return ("n", "cache_size", "data_room_size")
    if k.creator == EXTBUF:
        return ("n", "cache_size", "ext_mem elt_size")
    return ("max_routes", "number_tbl8s") if k.fib else ("max_nodes",)


def kind_of(p: PoolDump, plat: Platform, known: Mapping[str, Kind] | None = None) -> Kind:
    """The creator of the dumped pool ``p``: the application model's when it has the pool, else its layout's."""
    if known and p.name in known:
        return known[p.name]
    r = plat.release
    flags = (p.get("flags") or 0) & VALID_USER_FLAGS
    cache, priv, elt = p.get("cache_size") or 0, p.get("private_data_size") or 0, p.get("elt_size")
    if p.name.startswith("MP_") and not flags and not cache and not priv and elt in (r.rib_node_size, r.rib6_node_size):
        fam = RIB if elt == r.rib_node_size else RIB6
        return Kind(
            fam,
            f"named MP_<rib>, elements of sizeof(struct rte_rib{'' if fam == RIB else '6'}_node) "
            f"({elt} B), no cache, no private data, no flags: what {fam} creates",
            p.name[3:],
        )
    if not flags and priv == ceil_a(r.pktmbuf_pool_private_size, plat.cache_line) and elt >= r.mbuf_size:
        return Kind(
            PKTMBUF,
            f"private data of sizeof(struct rte_pktmbuf_pool_private) rounded to a cache line "
            f"({priv} B), elements of at least sizeof(struct rte_mbuf) ({r.mbuf_size} B), no "
            f"flags: what {PKTMBUF} creates",
        )
    return Kind(MEMPOOL, "no sign of rte_pktmbuf_pool_create or rte_rib_create in its layout")


def extbuf(k: Kind) -> Kind:
    """A pktmbuf pool whose data is in pinned external memzones (testpmd --mp-alloc=xbuf): its elements hold no
    data room (sizeof(struct rte_mbuf) + sizeof(struct rte_mbuf_ext_shared_info), v22.11:lib/mbuf/rte_mbuf.c:
    324-334); the data buffers' size is the caller's ``ext_mem[].elt_size``."""
    if k.creator != PKTMBUF:
        return k
    return k._replace(creator=EXTBUF, why=k.why + "; its data in pinned external memzones MP_<pool>_xb_<i>")


def app_kinds(result_pools: list[tuple[str, int, int]], allocations: list[str], plat: Platform) -> dict[str, Kind]:
    """The creators of an application model's pools, ``(name, elt_size requested, private_data_size requested)``
    each, given the names of its allocations (``FIB_<name>``/``FIB6_<name>``: rte_fib_create's struct,
    ``RIB_<name>``/``RIB6_<name>``: rte_rib_create's)."""
    r = plat.release
    names = set(allocations)
    out: dict[str, Kind] = {}
    for name, elt, priv in result_pools:
        rib = name[3:] if name.startswith("MP_") else None
        if rib is not None and (f"RIB_{rib}" in names or f"RIB6_{rib}" in names):
            six = f"RIB6_{rib}" in names
            fib = f"FIB6_{rib}" in names if six else f"FIB_{rib}" in names
            via = f" (through rte_fib{'6' if six else ''}_create {rib!r})" if fib else ""
            out[name] = Kind(
                RIB6 if six else RIB, f"the application model: the node pool of RIB {rib!r}{via}", rib, fib
            )
        elif priv == r.pktmbuf_pool_private_size and elt >= r.mbuf_size:
            out[name] = Kind(PKTMBUF, "the application model: an mbuf pool")
        else:
            out[name] = Kind(MEMPOOL, "the application model")
    return out
