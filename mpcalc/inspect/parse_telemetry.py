"""The JSON that ``dpdk-telemetry.py`` prints for ``/mempool/list``, ``/mempool/info,<name>``,
``/eal/memzone_list``, ``/eal/memzone_info,<id>``, ``/eal/heap_info,<id>`` and ``/ring/info,<name>``.

23.11 adds ``total_cache_count`` and ``common_pool_count``.  A reply is one line or
pretty-printed over several.  Up to 22.11 ``/eal/memzone_info`` puts ``Length`` and ``Hugepage_size`` in a
C ``int`` (``rte_tel_data_add_dict_int``, v22.11:lib/eal/common/eal_common_memory.c:1206, 1225; unsigned from
23.11, v23.11:...:1207, 1226): a memzone of 2 GiB or more reads negative, and is read back modulo 2^32.

Pure Python (no click, no rich).
"""

from __future__ import annotations

import json
from typing import Any

from mpcalc.dpdk.core.limits import MAX_DEPTH, MAX_LINE_BYTES, json_too_deep, too_long
from mpcalc.inspect.dumps import Parsed, malformed

_TEL_INFO_INT = (
    "pool_id",
    "flags",
    "socket_id",
    "size",
    "cache_size",
    "elt_size",
    "header_size",
    "trailer_size",
    "private_data_size",
    "ops_index",
    "populated_size",
    "mz_len",
    "mz_hugepage_sz",
    "mz_socket_id",
    "mz_flags",
)
_TEL_INFO_23 = ("total_cache_count", "common_pool_count")


def is_start(raw: str) -> bool:
    return raw.lstrip().startswith("{")


_DECODER = json.JSONDecoder()
#: lines a pretty-printed reply may span
_REPLY_LINES = 5000


def json_at(lines: list[str], start: int, source: str = "<input>") -> tuple[Any, int]:
    """A JSON document starting at line ``start`` and ending a line: (document, lines consumed) or (None, 0).
    One decode of at most :data:`~mpcalc.dpdk.core.limits.MAX_LINE_BYTES` (a reply, on one line or pretty-printed
    over several), its nesting bounded first (:data:`~mpcalc.dpdk.core.limits.MAX_DEPTH`)."""
    taken, size = [], 0
    for line in lines[start : start + _REPLY_LINES]:
        taken.append(line)
        size += len(line) + 1
        if size > MAX_LINE_BYTES:
            break
    text = "\n".join(taken)
    if json_too_deep(text):
        raise malformed(source, start + 1, lines[start], f"telemetry JSON nested deeper than {MAX_DEPTH} levels")
    try:
        doc, end = _DECODER.raw_decode(text)
    except json.JSONDecodeError:
        if size > MAX_LINE_BYTES:
            raise too_long(source, start + 1, lines[start]) from None
        return None, 0
    line_end = text.find("\n", end)
    if text[end : line_end if line_end >= 0 else len(text)].strip():
        return None, 0  # more on the line the document ends: not a reply
    return doc, text.count("\n", 0, end) + 1


def unreadable(out: Parsed, no: int, raw: str) -> None:
    """A ``{`` line that is no JSON document: an error if it names a mempool endpoint, else skipped."""
    if '"/mempool/' in raw:
        raise malformed(out.source, no, raw, "unreadable telemetry JSON")


def reply(out: Parsed, doc: Any, no: int, raw: str) -> bool:
    """One telemetry reply; False if it is not one mpcalc reads."""
    if not isinstance(doc, dict):
        return False
    used = False
    if "/mempool/list" in doc:
        names = doc["/mempool/list"]
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            raise malformed(out.source, no, raw, "/mempool/list is not a list of names")
        out.listed += [n for n in names if n not in out.listed]
        out.saw("telemetry")
        used = True
    if "/eal/memzone_info" in doc or "/ring/info" in doc:
        return _table_reply(out, doc, no, raw)
    if "/eal/memzone_list" in doc:
        ids = doc["/eal/memzone_list"]
        if not isinstance(ids, list) or not all(isinstance(i, int) for i in ids):
            raise malformed(out.source, no, raw, "/eal/memzone_list is not a list of ids")
        out.zone_ids = sorted(set(out.zone_ids or []) | set(ids))
        out.saw("telemetry")
        return True
    if "/eal/heap_info" in doc:
        heap = doc["/eal/heap_info"]
        if not isinstance(heap, dict) or not isinstance(heap.get("Alloc_size"), int):
            raise malformed(out.source, no, raw, "/eal/heap_info has no integer Alloc_size")
        # 22.11 names the id "Head id" (printed Head_id; v22.11:lib/eal/common/eal_common_memory.c:1142),
        # 23.11 "Heap_id" (v23.11:...:1142)
        hid = heap.get("Heap_id", heap.get("Head_id"))
        hid = hid if isinstance(hid, int) else 0
        out.markers["telemetry_heap_id" if "Heap_id" in heap else "telemetry_head_id"] = (
            ("23.11", None) if "Heap_id" in heap else (None, "22.11")
        )
        out.heaps[int(hid)] = {**heap, "line": no}
        out.saw("telemetry")
        return True
    if "/mempool/info" in doc:
        info = doc["/mempool/info"]
        if not isinstance(info, dict):
            raise malformed(out.source, no, raw, "/mempool/info is not an object")
        out.saw("telemetry")
        used = True
        if not info:
            out.notes.append(f"line {no}: /mempool/info answered {{}}: no pool of that name")
            return True
        name = info.get("name")
        if not isinstance(name, str):
            raise malformed(out.source, no, raw, "/mempool/info has no string 'name'")
        for key in _TEL_INFO_INT:
            if key in info and (not isinstance(info[key], int) or isinstance(info[key], bool)):
                raise malformed(out.source, no, raw, f"/mempool/info {key} is not an integer")
        missing = [
            k
            for k in ("size", "elt_size", "header_size", "trailer_size", "cache_size", "flags", "private_data_size")
            if k not in info
        ]
        if missing:
            raise malformed(out.source, no, raw, f"/mempool/info lacks {', '.join(missing)}")
        p = out.pool(name, no, "telemetry")
        for key in _TEL_INFO_INT + _TEL_INFO_23:
            if key in info:
                p.fields.setdefault(f"tel_{key[3:]}" if key.startswith("mz_") else key, info[key])
        if isinstance(info.get("mz_name"), str):
            p.fields.setdefault("tel_mz_name", info["mz_name"])
        if any(k in info for k in _TEL_INFO_23):
            p.markers["telemetry_cache_counts"] = ("23.11", None)
        else:
            p.markers["telemetry_no_cache_counts"] = (None, "22.11")
    return used


def _table_reply(out: Parsed, doc: dict[str, Any], no: int, raw: str) -> bool:
    """``/eal/memzone_info,<id>`` (a memzone: Name, Length; v22.11:lib/eal/common/eal_common_memory.c:1182-1243)
    and ``/ring/info,<name>`` (24.11+: size, flags, mz_name, mz_len; v24.11:lib/ring/rte_ring.c:497-531)."""
    from mpcalc.inspect.dumps import ZoneDump

    out.saw("telemetry")
    mz = doc.get("/eal/memzone_info")
    if mz is not None:
        if not isinstance(mz, dict) or not isinstance(mz.get("Name"), str) or not isinstance(mz.get("Length"), int):
            raise malformed(out.source, no, raw, "/eal/memzone_info has no string Name and integer Length")
        length, page = mz["Length"], mz.get("Hugepage_size")
        if length < 0:  # 22.11's int: 2 GiB and more wrap
            out.notes.append(
                f"line {no}: memzone {mz['Name']}: Length {length} is the C int of a memzone of 2 GiB "
                f"or more (22.11 telemetry): read as {length % (1 << 32):,} B (modulo 2^32)"
            )
            length %= 1 << 32
            out.markers["telemetry_int_length"] = (None, "22.11")
        out.zones.setdefault(
            mz["Name"],
            ZoneDump(
                name=mz["Name"],
                len=length,
                line=no,
                socket_id=int(mz.get("Socket", -1)),
                flags=int(mz.get("Flags", 0)),
                pagesz=page if isinstance(page, int) and page > 0 else None,
                source="telemetry",
            ),
        )
    ring = doc.get("/ring/info")
    if ring is not None:
        if not isinstance(ring, dict) or not isinstance(ring.get("name"), str):
            raise malformed(out.source, no, raw, "/ring/info has no string name")
        out.rings[ring["name"]] = ring
        if isinstance(ring.get("mz_name"), str) and isinstance(ring.get("mz_len"), int):
            out.zones.setdefault(
                ring["mz_name"],
                ZoneDump(
                    name=ring["mz_name"],
                    len=ring["mz_len"],
                    line=no,
                    socket_id=int(ring.get("mz_socket_id", -1)),
                    flags=0,
                    source="telemetry",
                ),
            )
        out.markers["telemetry_ring_info"] = ("24.11", None)
    return True
