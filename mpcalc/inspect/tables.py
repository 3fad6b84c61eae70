"""The memzones of objects other than mempools: what each one is, and what the model says of its length.

* ``RG_<name>``: an ``rte_ring`` (``/ring/info`` telemetry, 24.11+, gives its size and flags; a memzone
  dump gives only the length, from which the slots are read for 8-byte elements);
* ``RG_HT_<name>`` / ``RG_HT_EXT_<name>``: an ``rte_hash``'s free key-slot and free ext-bucket rings;
* ``RG_HT_LRH_<name>``: the rules hash of an ``rte_lpm6`` (rte_lpm6_create names it ``LRH_<name>``);
* ``STK_MP_<pool>``: the stack of a pool on the ``stack`` / ``lf_stack`` driver (a pool of its own).

rte_lpm reserves no memzone (its 64 MiB tbl24 is an rte_zmalloc): it cannot be seen in a memzone dump.
Pure Python (no click, no rich).
"""

from __future__ import annotations

from typing import Any

from mpcalc.dpdk.core.platform import Platform
from mpcalc.dpdk.objects import ring as dpdk_ring
from mpcalc.inspect.dumps import Parsed

#: the ring telemetry's producer/consumer types (v24.11:lib/ring/rte_ring.c:460-480) -> RING_F_* bits
_SYNC_FLAGS = {
    ("producer", "SP"): dpdk_ring.SP_ENQ,
    ("producer", "MP_RTS"): dpdk_ring.MP_RTS_ENQ,
    ("producer", "MP_HTS"): dpdk_ring.MP_HTS_ENQ,
    ("consumer", "SC"): dpdk_ring.SC_DEQ,
    ("consumer", "MC_RTS"): dpdk_ring.MC_RTS_DEQ,
    ("consumer", "MC_HTS"): dpdk_ring.MC_HTS_DEQ,
}


def _slots(length: int, esize: int, p: Platform) -> int | None:
    """The power-of-two slot count whose ring memzone has this length, if one has."""
    body = length - p.sizeof_ring - p.release.ring_guard_lines * p.cache_line
    if body < 0:
        return None
    for k in range(32):
        if dpdk_ring.ring_memsize(1 << k, p, esize) == length:
            return 1 << k
    return None


def _ring_row(name: str, length: int, p: Platform, parsed: Parsed) -> dict[str, Any]:
    info = parsed.rings.get(name[len("RG_") :])
    if info is not None and isinstance(info.get("size"), int) and info["size"]:
        size, flags = info["size"], ring_flags(info)
        esize = (length - p.sizeof_ring - p.release.ring_guard_lines * p.cache_line) // size
        esize -= esize % 4
        candidates = [
            e for e in range(max(0, esize - 64), esize + 65, 4) if dpdk_ring.ring_memsize(size, p, e) == length
        ]
        exact = flags & dpdk_ring.EXACT_SZ
        count = info.get("capacity", size - 1) if exact else size
        res = dpdk_ring.size(name[len("RG_") :], count, candidates[0] if candidates else 8, flags, p)
        modelled = res.memzones[0].len if res.memzones else None
        return {
            "object": "ring",
            "text": f"rte_ring {name[3:]!r}: {size:,} slots"
            + (f" of {candidates[0]} B" if candidates else "")
            + " (from /ring/info)",
            "modelled": modelled,
            "explained": modelled == length,
        }
    slots = _slots(length, 8, p)
    if slots is not None:
        return {
            "object": "ring",
            "text": f"rte_ring {name[3:]!r}: {slots:,} slots of 8 B (rte_ring_create), or the "
            "same bytes in other element sizes",
            "modelled": length,
            "explained": True,
        }
    return {
        "object": "ring",
        "text": f"rte_ring {name[3:]!r}: a ring of elements other than 8 B ({length - p.sizeof_ring:,} B of slots)",
        "modelled": None,
        "explained": None,
    }


def classify(name: str, length: int, p: Platform, parsed: Parsed) -> dict[str, Any] | None:
    """What the memzone ``name`` of ``length`` bytes belongs to, or None for a memzone of no known object."""
    if name.startswith("RG_HT_LRH_"):
        slots = _slots(length, 4, p)
        owner = name[len("RG_HT_LRH_") :]
        if slots is None:
            return {
                "object": "lpm6",
                "text": f"rules hash ring of rte_lpm6 {owner!r}",
                "modelled": None,
                "explained": False,
            }
        lo = max(1, int((slots // 2 - 64) / 1.2))  # entries + 1 key slots round up to the ring's power of two
        hi = int((slots - 1 - 64) / 1.2)
        return {
            "object": "lpm6",
            "text": f"rules hash ring of rte_lpm6 {owner!r}: {slots:,} key slots, so max_rules "
            f"about {lo:,}..{hi:,} (entries = max_rules x 1.2 + 64); its 64 MiB tbl24 is an rte_zmalloc",
            "modelled": length,
            "explained": True,
        }
    if name.startswith("RG_HT_EXT_"):
        slots = _slots(length, 4, p)
        owner = name[len("RG_HT_EXT_") :]
        text = f"free ext-bucket ring of rte_hash {owner!r} (ext_table)"
        if slots is not None:
            text += f": {slots // 2:,} buckets, so {slots * 4:,} entries rounded up to a power of two"
        return {"object": "hash", "text": text, "modelled": length if slots else None, "explained": bool(slots)}
    if name.startswith("RG_HT_"):
        slots = _slots(length, 4, p)
        owner = name[len("RG_HT_") :]
        text = f"free key-slot ring of rte_hash {owner!r}"
        if slots is not None:
            text += (
                f": {slots:,} slots, so {slots // 2:,}..{slots - 1:,} entries (fewer with multi_writer_add, "
                f"whose lcore caches take {(p.max_lcore - 1) * 63:,} more slots)"
            )
        return {"object": "hash", "text": text, "modelled": length if slots else None, "explained": bool(slots)}
    if name.startswith("STK_MP_"):
        return {
            "object": "pool",
            "text": f"stack of pool {name[len('STK_MP_') :]!r} (stack or lf_stack driver)",
            "modelled": None,
            "explained": None,
        }
    if name.startswith("RG_MP_"):
        return None  # a mempool's ring: the pools' own rows
    if name.startswith("RG_"):
        return _ring_row(name, length, p, parsed)
    return None


def annotate(others: list[dict[str, Any]], p: Platform, parsed: Parsed) -> list[str]:
    """Add ``object``, ``text``, ``modelled`` and ``explained`` to each memzone of a known object; one note each."""
    notes = []
    for z in others:
        found = classify(z["name"], z["len"], p, parsed)
        if found is None:
            continue
        z.update(found)
        verdict = (
            ""
            if found["explained"] is None
            else " (the model agrees)"
            if found["explained"]
            else f" (the model says {found['modelled']:,} B)"
            if found["modelled"] is not None
            else ""
        )
        notes.append(f"{z['name']} ({z['len']:,} B): {found['text']}{verdict}")
    return notes


def ring_flags(info: dict[str, Any]) -> int:
    """RING_F_* of a /ring/info reply: its ``flags``, else rebuilt from the producer and consumer types."""
    if isinstance(info.get("flags"), int):
        return int(info["flags"])
    flags = 0
    for side in ("producer", "consumer"):
        flags |= _SYNC_FLAGS.get((side, str(info.get(f"{side}_type", "")).upper()), 0)
    return flags
