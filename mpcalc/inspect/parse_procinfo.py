"""The per-pool summary of ``dpdk-proc-info --show-mempool=NAME`` (app/proc-info/main.c ``show_mempool``).

Pure Python (no click, no rich).
"""

from __future__ import annotations

import re

from mpcalc.dpdk.core.flags import MempoolFlag
from mpcalc.inspect.dumps import Parsed, PoolDump, malformed

_PI_NAME = re.compile(r"^  - Name: (?P<name>.*) on socket (?P<socket>-?\d+)$")
_PI_FLAG = re.compile(
    r"^\t  -- (?P<what>No spread|No cache align|SP put|Pool created|No IOVA config|Not used for IO) "
    r"\((?P<v>[yn])\)(, SC get \((?P<v2>[yn])\))?$"
)
_PI_SIZE = re.compile(r"^  - Size (?P<size>\d+) Cache (?P<cache>\d+) element (?P<elt>\d+)$")
_PI_HDR = re.compile(r"^  - header (?P<hdr>\d+) trailer (?P<tlr>\d+)$")
_PI_PRIV = re.compile(r"^  - private data size (?P<priv>\d+)$")
_PI_INFO = re.compile(r"^  - (memezone - socket -?\d+|Count: avail \((?P<avail>\d+)\), in use \((?P<in_use>\d+)\))$")
_PI_OPS = re.compile(r"^  - ops_index (?P<idx>-?\d+) ops_name (?P<ops>.*)$")
_PI_FLAG_BITS = {
    "No spread": MempoolFlag.NO_SPREAD,
    "No cache align": MempoolFlag.NO_CACHE_ALIGN,
    "SP put": MempoolFlag.SP_PUT,
    "Pool created": MempoolFlag.POOL_CREATED,
    "No IOVA config": MempoolFlag.NO_IOVA_CONTIG,
    "Not used for IO": MempoolFlag.NON_IO,
}

#: lines of a summary being read start with one of these
BODY = ("  - ", "\t  -- ")


def header(out: Parsed, raw: str, no: int) -> PoolDump | None:
    """``  - Name: NAME on socket N``: the pool a summary begins; None if ``raw`` is not one."""
    m = _PI_NAME.match(raw)
    if not m:
        return None
    summary = out.pool(m["name"], no, "proc_info")
    summary.fields.setdefault("socket_id", int(m["socket"]))
    summary.fields.setdefault("_pi_flags", 0)
    out.saw("proc_info_summary")
    return summary


def line(out: Parsed, p: PoolDump, raw: str, no: int) -> bool:
    """One line of a summary; False if it is not one of show_mempool's."""
    if raw == "  - flags:":
        return True
    m = _PI_FLAG.match(raw)
    if m:
        if m["v"] == "y":
            p.fields["_pi_flags"] |= int(_PI_FLAG_BITS[m["what"]])
        if m["v2"] == "y":
            p.fields["_pi_flags"] |= int(MempoolFlag.SC_GET)
        return True
    for rx, keys in (
        (_PI_SIZE, (("size", "size"), ("cache", "cache_size"), ("elt", "elt_size"))),
        (_PI_HDR, (("hdr", "header_size"), ("tlr", "trailer_size"))),
        (_PI_PRIV, (("priv", "private_data_size"),)),
    ):
        m = rx.match(raw)
        if m:
            for group, key in keys:
                p.fields.setdefault(key, int(m[group]))
            return True
    m = _PI_INFO.match(raw)
    if m:
        if m["avail"] is not None:
            p.fields.setdefault("avail_count", int(m["avail"]))
            p.fields.setdefault("in_use_count", int(m["in_use"]))
        return True
    m = _PI_OPS.match(raw)
    if m:
        p.fields.setdefault("ops_index", int(m["idx"]))
        p.fields.setdefault("ops_name", m["ops"])
        return True
    if raw.startswith(("  - Size ", "  - header ", "  - ops_index ")):
        raise malformed(out.source, no, raw, "a proc-info mempool line with unexpected values")
    return False


def finish(p: PoolDump) -> None:
    """After the whole input: the summary's flag lines become the pool's flags (unless a dump gave them)."""
    if "_pi_flags" in p.fields:
        p.fields.setdefault("flags", p.fields.pop("_pi_flags"))
