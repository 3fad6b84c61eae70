"""Whole applications in a dump: which memzones belong to which pool, and a dump explained by ``mpcalc app``.

* A pool whose name extends another's (testpmd's ``mb_pool_0`` and ``mb_pool_0_1``, mbuf_poolname_build,
  v22.11:app/test-pmd/testpmd.h:935-945): ``MP_mb_pool_0_1`` is the second pool's header, not a second
  objects chunk of the first; :func:`is_chunk_of` tells them apart by the other pool's own memzones.
* testpmd's ``--mp-alloc=xbuf`` pinned data zones ``MP_<pool>_xb_<n>`` (setup_extbuf,
  v22.11:app/test-pmd/testpmd.c:1085-1141) belong to their pool: :func:`pinned_zones`.
* :func:`explain` holds a whole application's memzone dump (``rte_memzone_dump`` or telemetry's
  ``/eal/memzone_info``) against ``mpcalc app`` of the same command line, memzone by memzone.

Pure Python (no click, no rich).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from ..dpdk.platform import Platform


def is_chunk_of(zone: str, pool: str, zones: Iterable[str]) -> bool:
    """Whether ``zone`` is an objects chunk ``MP_<pool>_<n>`` of ``pool``, and not the header (or a chunk) of a
    pool whose name extends ``pool``'s (a header ``MP_<other>`` has its ring ``RG_MP_<other>`` or stack
    ``STK_MP_<other>``).

    >>> names = ["MP_mb_pool_0", "RG_MP_mb_pool_0", "MP_mb_pool_0_0", "MP_mb_pool_0_1", "RG_MP_mb_pool_0_1"]
    >>> [n for n in names if is_chunk_of(n, "mb_pool_0", names)]
    ['MP_mb_pool_0_0']
    """
    m = re.fullmatch(re.escape(f"MP_{pool}_") + r"(\d+)", zone)
    if not m:
        return False
    known = set(zones)
    other = zone[3:]
    # not the header of pool <other>; a chunk MP_<pool>_<k>_<n> of a longer pool never matches (two suffixes)
    return f"RG_MP_{other}" not in known and f"STK_MP_{other}" not in known


def pinned_zones(pool: str, zones: Iterable[str]) -> list[str]:
    """testpmd's xbuf data zones of ``pool``: ``MP_<pool>_xb_<n>``."""
    return [n for n in zones if re.fullmatch(re.escape(f"MP_{pool}_xb_") + r"\d+", n)]


def explain(dumped: Mapping[str, int], argv: list[str], platform: Platform) -> dict[str, object]:
    """Every dumped memzone against ``mpcalc app`` of the command line ``argv``: the rows (name, dumped
    length, modelled length), what the model has that the dump lacks, and whether all match."""
    from ..dpdk import apps

    result = apps.size(argv, platform)
    model = {z.name: z.len for z in result.memzones}
    rows = [{"name": n, "dumped": ln, "model": model.get(n), "match": model.get(n) == ln} for n, ln in dumped.items()]
    missing = [n for n in model if n not in dumped]
    return {"rows": rows, "not_dumped": missing, "explained": all(r["match"] for r in rows) and not missing,
            "heap_bytes": result.heap_bytes}
