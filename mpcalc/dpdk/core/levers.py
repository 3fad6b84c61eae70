"""The savings levers: what the creator of a DPDK object can change to make it smaller, declared once.

``--explain`` (:meth:`mpcalc.service.job.Job.variants`) and ``mpcalc inspect``'s advice
(:func:`mpcalc.inspect.savings.advise`) both take their changes from :func:`levers`, evaluate each
with the model and rank them by what they save; each words them its own way.

>>> [lever.key for lever in levers(flags=0, cache_size=512, cache_layout="pointer", count=8192, page_size=2 << 20)]
['flag:no_cache_align', 'flag:no_spread', 'flag:no_iova_contig', 'flag:all', 'cache:index', 'cache:half', 'cache:0', \
'count:pow2', 'page:4K', 'page:1G']
"""

from __future__ import annotations

from typing import Any, NamedTuple

from mpcalc.dpdk.core.flags import SIZING_FLAGS, MempoolFlag, effective_flags
from mpcalc.dpdk.core.intmath import align32pow2
from mpcalc.dpdk.core.units import page_label

#: the page sizes a lever moves to: the system's 4K pages (EAL ``--no-huge``) and the 2M and 1G
#: hugepages of x86_64 and of arm64 with 4K pages.  Without a page (``--page-size none``, pg_shift 0)
#: is what ``RTE_MEMPOOL_F_NO_IOVA_CONTIG`` gives (``rte_mempool_get_page_size``,
#: v22.11:lib/mempool/rte_mempool.c:467-472): the flag lever, not a page size.
PAGE_SIZES = (4 << 10, 2 << 20, 1 << 30)

#: the sizing flags (:data:`mpcalc.dpdk.core.flags.SIZING_FLAGS`) as one mask: the RIB patch's three flags
ALL_SIZING_FLAGS = sum(int(f) for f in SIZING_FLAGS)


class Lever(NamedTuple):
    """One change: its key (``flag:no_spread``, ``flag:all``, ``cache:index``, ``cache:half``,
    ``cache:0``, ``count:pow2``, ``page:4K``) and the arguments it changes (``flags``: the whole mask;
    ``cache_size``, ``cache_layout``, ``count``, ``page_size``)."""

    key: str
    changes: dict[str, Any]


def under_pow2(count: int, max_loss: int = 64) -> int | None:
    """A count just under the ring's power of two, when that halves the ring and loses at most
    ``count // max_loss`` objects (at least one).

    >>> under_pow2(8192), under_pow2(8191), under_pow2(5000), under_pow2(8600, 16)
    (8191, None, None, 8191)
    """
    slots = align32pow2(count + 1)
    smaller = slots // 2 - 1
    if smaller >= 1 and count > smaller and count - smaller <= max(1, count // max_loss):
        return smaller
    return None


def levers(
    *,
    flags: int | None = None,
    flag_levers: bool = True,
    cache_size: int = 0,
    cache_layout: str | None = None,
    count: int | None = None,
    max_loss: int = 64,
    page_size: int | None = None,
) -> list[Lever]:
    """The levers of an object: the sizing flags its ``flags`` lack (None: it has no mempool flags;
    ``flag_levers`` False: they are not its creator's to set), each and all of them; with a per-lcore
    cache, the index-based cache (when its ``cache_layout`` is known to be ``pointer``), half the
    cache and none; a ``count`` just under the ring's power of two (:func:`under_pow2` with
    ``max_loss``); and the other :data:`PAGE_SIZES` than ``page_size`` (None: the page size is not
    the creator's to choose), unless the flags make the objects ignore pages (``NO_IOVA_CONTIG``)."""
    out: list[Lever] = []
    pages = page_size is not None
    if flags is not None:
        eff = effective_flags(flags)
        missing = [f for f in SIZING_FLAGS if not eff & f]
        if flag_levers:
            out += [Lever(f"flag:{str(f.name).lower()}", {"flags": flags | f}) for f in missing]
            if len(missing) > 1:
                out.append(Lever("flag:all", {"flags": flags | ALL_SIZING_FLAGS}))
        pages = pages and not eff & MempoolFlag.NO_IOVA_CONTIG
    if cache_size:
        if cache_layout == "pointer":
            out.append(Lever("cache:index", {"cache_layout": "index"}))
        out.append(Lever("cache:half", {"cache_size": cache_size // 2}))
        out.append(Lever("cache:0", {"cache_size": 0}))
    if count:
        smaller = under_pow2(count, max_loss)
        if smaller is not None:
            out.append(Lever("count:pow2", {"count": smaller}))
    if pages:
        out += [Lever(f"page:{page_label(size)}", {"page_size": size}) for size in PAGE_SIZES if size != page_size]
    return out
