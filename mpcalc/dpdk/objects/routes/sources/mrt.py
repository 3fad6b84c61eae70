"""MRT routing information export (RFC 6396): the RIB dumps RouteViews and RIPE RIS publish.

A record is ``timestamp(4) type(2) subtype(2) length(4)`` and ``length`` bytes.  Read here:

* TABLE_DUMP_V2 (type 13, RFC 6396 section 4.3): RIB_IPV4_UNICAST (2), RIB_IPV6_UNICAST (4), their
  ADD-PATH forms (8, 10; RFC 8050: a path identifier after each entry's originated time) and RIB_GENERIC
  (6, 12) for unicast (SAFI 1).  A record is one prefix, ``sequence(4) length(1) prefix entry_count(2)``,
  then one entry per peer, ``peer_index(2) originated(4) [path_id(4)] attr_length(2) attributes``.
* TABLE_DUMP (type 12, section 4.2), one prefix and one peer a record: ``view(2) sequence(2) prefix(4|16)
  length(1) status(1) originated(4) peer_ip(4|16) peer_as(2) attr_length(2) attributes``.

Everything else (PEER_INDEX_TABLE, multicast RIBs, BGP4MP update streams, ...) is skipped.  A prefix's
route is its first entry (the first peer's); later records of the same prefix are dropped.  Its next hop is
the NEXT_HOP attribute (type 3) or MP_REACH_NLRI's (type 14: in TABLE_DUMP_V2 only its next hop length and
next hop, section 4.3.4; the full attribute elsewhere); an IPv6 next hop is its global address.  The
"line" of a route is the number of its record.

Pure Python, stdlib only (no click, no rich).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import IO

from mpcalc.dpdk.core.errors import InputError
from mpcalc.dpdk.core.limits import MAX_MRT_RECORD_BYTES
from mpcalc.dpdk.objects.routes.route_table import Gather, TableBuilder

TABLE_DUMP, TABLE_DUMP_V2 = 12, 13
#: TABLE_DUMP_V2 subtypes read: subtype -> (address family, ADD-PATH)
_V2 = {2: (4, False), 4: (6, False), 8: (4, True), 10: (6, True)}
_GENERIC = {6: False, 12: True}
_TYPES = {11, 12, 13, 16, 17, 32, 33, 48, 49}  # the MRT types RFC 6396 defines
_READ = 8 << 20


def looks_like(head: bytes) -> bool:
    """Does this start like an MRT file (a record header of a known type and a sane length)?"""
    if len(head) < 12:
        return False
    kind = int.from_bytes(head[4:6], "big")
    length = int.from_bytes(head[8:12], "big")
    return kind in _TYPES and length < 1 << 24 and any(b < 9 or 13 < b < 32 for b in head[:12])


def _next_hop(attrs: memoryview, family: int) -> bytes | None:
    """The next hop in BGP path attributes (RFC 4271 section 4.3; MP_REACH_NLRI of RFC 4760)."""
    pos, end = 0, len(attrs)
    found = None
    while pos + 3 <= end:
        flags, code = attrs[pos], attrs[pos + 1]
        if flags & 0x10:
            length = int.from_bytes(attrs[pos + 2 : pos + 4], "big")
            pos += 4
        else:
            length = attrs[pos + 2]
            pos += 3
        value = attrs[pos : pos + length]
        pos += length
        if code == 3 and length == 4 and found is None:
            found = bytes(value)
        elif code == 14 and length:
            if value[0] == length - 1:  # TABLE_DUMP_V2's abbreviated form: next hop length, next hop
                hop = value[1 : 1 + min(value[0], 16)]
            elif length >= 5:  # the whole attribute: AFI(2) SAFI(1) length(1) next hop ...
                hop = value[4 : 4 + min(value[3], 16)]
            else:
                continue
            return bytes(hop)
    return found


def read(stream: IO[bytes], family: int, builder: TableBuilder, progress: Callable[[int], None] | None) -> None:
    """Append the routes of family ``family`` of an MRT stream to ``builder``."""
    width = 32 if family == 4 else 128
    full = (1 << width) - 1
    masks = [full ^ ((1 << (width - d)) - 1) for d in range(width + 1)]
    alen = 4 if family == 4 else 16
    routes = Gather(builder, dedup=True)  # a dump lists a prefix once per peer: its first entry
    buf = b""
    pos = 0
    record = 0
    done = 0
    name = builder.source

    def bad(why: str) -> InputError:
        return InputError(f"{name}: MRT record {record}: {why}", param=name)

    while True:
        if len(buf) - pos >= 12 and int.from_bytes(buf[pos + 8 : pos + 12], "big") > MAX_MRT_RECORD_BYTES:
            record += 1
            size = int.from_bytes(buf[pos + 8 : pos + 12], "big")
            raise bad(f"of {size:,} bytes, over the bound of {MAX_MRT_RECORD_BYTES:,}")
        if len(buf) - pos < 12 or len(buf) - pos < 12 + int.from_bytes(buf[pos + 8 : pos + 12], "big"):
            block = stream.read(_READ)
            if not block:
                if len(buf) > pos:
                    record += 1
                    raise bad(f"truncated ({len(buf) - pos} bytes of it)")
                break
            done += len(block)
            if progress is not None:
                progress(done)
            buf = buf[pos:] + block
            pos = 0
            continue
        record += 1
        kind = int.from_bytes(buf[pos + 4 : pos + 6], "big")
        sub = int.from_bytes(buf[pos + 6 : pos + 8], "big")
        length = int.from_bytes(buf[pos + 8 : pos + 12], "big")
        msg = memoryview(buf)[pos + 12 : pos + 12 + length]
        pos += 12 + length
        try:
            if kind == TABLE_DUMP_V2 and (sub in _V2 or sub in _GENERIC):
                if sub in _V2:
                    fam, addpath = _V2[sub]
                    at = 4
                else:
                    afi, safi = int.from_bytes(msg[4:6], "big"), msg[6]
                    fam, addpath, at = {1: 4, 2: 6}.get(afi, 0), _GENERIC[sub], 7
                    if safi != 1:
                        continue
                if fam != family:
                    continue
                depth = msg[at]
                nbytes = (depth + 7) >> 3
                if depth > width:
                    raise bad(f"prefix length {depth} above {width}")
                net = int.from_bytes(msg[at + 1 : at + 1 + nbytes], "big") << (width - 8 * nbytes)
                at += 1 + nbytes
                if not int.from_bytes(msg[at : at + 2], "big"):
                    continue  # no entry
                at += 2 + 6 + (4 if addpath else 0)  # the first entry: peer index, originated[, path id]
                alen_attrs = int.from_bytes(msg[at : at + 2], "big")
                hop = _next_hop(msg[at + 2 : at + 2 + alen_attrs], family)
            elif kind == TABLE_DUMP and sub == (1 if family == 4 else 2):
                net = int.from_bytes(msg[4 : 4 + alen], "big")
                depth = msg[4 + alen]
                if depth > width:
                    raise bad(f"prefix length {depth} above {width}")
                at = 4 + alen + 1 + 1 + 4 + alen + 2
                alen_attrs = int.from_bytes(msg[at : at + 2], "big")
                hop = _next_hop(msg[at + 2 : at + 2 + alen_attrs], family)
            else:
                continue
        except IndexError:
            raise bad("shorter than its fields") from None
        routes.add(net & masks[depth], depth, hop, record)
    routes.flush()
