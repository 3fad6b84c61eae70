"""A reader of the CTF traces DPDK writes (``rte_trace_save``), to their own metadata.

DPDK's trace is CTF 1.8 (v22.11:lib/eal/common/eal_common_trace_ctf.c, the same layout 21.11 to 26.07):
``metadata`` (TSDL text: integer and floating-point aliases, the trace's byte order, a packet header of
``uint32_t magic; uint8_t uuid[16]``, a packet context of ``uint32_t cpu_id; string_bounded_t name[32]``,
an event header of a 48-bit timestamp and a 16-bit id aligned to 64 bits, and one ``event`` block a
tracepoint with its fields) and one stream file a thread, ``channel0_<n>``, holding one packet: its
header and context, then the events.  Each event starts on an 8-byte boundary
(``__rte_trace_mem_get``, v22.11:lib/eal/include/rte_trace_point.h:321-322) and its fields follow
packed, as ``__rte_trace_point_emit`` copies them (:363-367).

Only what DPDK's metadata uses is read: the metadata is parsed, not assumed, so a tracepoint added in a
later release is read by its own declaration.  Pure: stdlib only.
"""

from __future__ import annotations

import os
import re
import struct
from collections.abc import Iterator
from typing import Any, NamedTuple

from mpcalc.dpdk.apps.trace.events import Event, Stream
from mpcalc.dpdk.core.errors import InputError
from mpcalc.dpdk.core.extensions import load_extension
from mpcalc.dpdk.core.tuples import positional

__all__ = [
    "CTF_MAGIC",
    "LCORE_ID_ANY",
    "PACKET_SIZE",
    "Metadata",
    "event_size",
    "is_ctf_dir",
    "read_metadata",
    "read_stream",
    "stream_files",
    "stream_header",
]

#: the packet header's magic number (CTF 1.8)
CTF_MAGIC = 0xC1FC1FC1

_COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
_ALIAS = re.compile(r"typealias\s+(integer|floating_point)\s*\{([^}]*)\}\s*:=\s*(\w+)\s*;")
_EVENT = re.compile(
    r"event\s*\{\s*id\s*=\s*(\d+)\s*;\s*name\s*=\s*\"([^\"]*)\"\s*;\s*fields\s*:=\s*struct\s*\{(.*?)\}\s*;\s*\}\s*;",
    re.S,
)
_FIELD = re.compile(r"(\w+)\s+(\w+)\s*(?:\[\s*(\d+)\s*\])?\s*;")
_ATTR = re.compile(r"(\w+)\s*=\s*([^;]+);")


class _Type(NamedTuple):
    """A scalar type of the metadata: its struct code, its size in bytes, whether it is text."""

    code: str
    size: int
    text: bool


class _Field(NamedTuple):
    name: str
    type: _Type
    length: int  # 0: a scalar; N: an array of N (a string_bounded_t[N] is text)


class Metadata(NamedTuple):
    """What the metadata says: the byte order, the environment (``dpdk_version``), the clock's frequency,
    and each event id's name and fields."""

    byte_order: str  # "<" or ">"
    env: dict[str, str]
    clock_freq: int
    events: dict[int, tuple[str, tuple[_Field, ...]]]


_INT_CODES = {(8, False): "B", (16, False): "H", (32, False): "I", (64, False): "Q"}
_INT_CODES.update({(8, True): "b", (16, True): "h", (32, True): "i", (64, True): "q"})


def _type(kind: str, body: str) -> _Type | None:
    attrs = {k: v.strip() for k, v in _ATTR.findall(body)}
    if kind == "floating_point":
        mant = int(attrs.get("mant_dig", "0"))
        return _Type("f", 4, False) if mant == 24 else _Type("d", 8, False) if mant == 53 else None
    size = int(attrs.get("size", "0"))
    signed = attrs.get("signed", "false") == "true"
    code = _INT_CODES.get((size, signed))
    if code is None:
        return None  # the 48-bit clock alias: the event header, read apart
    return _Type(code, size // 8, "encoding" in attrs)


def read_metadata(text: str, where: str = "metadata") -> Metadata:
    """The metadata's byte order, environment, clock and events (:class:`Metadata`).

    >>> m = read_metadata('typealias integer {size = 32; base = x;} := uint32_t; trace { byte_order = le; }; '
    ...                   'event { id = 7; name = "lib.x"; fields := struct { uint32_t _len; }; };')
    >>> m.byte_order, m.events[7][0], [f.name for f in m.events[7][1]]
    ('<', 'lib.x', ['len'])
    """
    if not text.lstrip().startswith("/* CTF 1.8") and "trace {" not in text and "trace{" not in text:
        raise InputError(f"{where} is not CTF metadata (it does not begin with '/* CTF 1.8 */')", param="trace")
    body = _COMMENT.sub(" ", text)
    types: dict[str, _Type] = {}
    for kind, attrs, alias in _ALIAS.findall(body):
        t = _type(kind, attrs)
        if t is not None:
            types[alias] = t
    order = re.search(r"byte_order\s*=\s*(\w+)\s*;", body)
    byte_order = ">" if order and order.group(1) in ("be", "network") else "<"
    env: dict[str, str] = {}
    block = re.search(r"env\s*\{(.*?)\}\s*;", body, re.S)
    if block:
        env = {k: v.strip().strip('"') for k, v in _ATTR.findall(block.group(1))}
    freq = re.search(r"clock\s*\{[^}]*freq\s*=\s*(\d+)", body, re.S)
    events: dict[int, tuple[str, tuple[_Field, ...]]] = {}
    for ident, name, fields in _EVENT.findall(body):
        out = []
        for tname, fname, length in _FIELD.findall(fields):
            t = types.get(tname)
            if t is None:
                raise InputError(f"{where}: event {name!r} has a field of a type mpcalc does not read: {tname!r}")
            out.append(_Field(fname[1:] if fname.startswith("_") else fname, t, int(length or 0)))
        events[int(ident)] = (name, tuple(out))
    if not events:
        raise InputError(f"{where} declares no events: not a DPDK trace's metadata", param="trace")
    return Metadata(byte_order, env, int(freq.group(1)) if freq else 0, events)


#: the packet header and context every DPDK stream file opens with: magic, uuid[16], cpu_id, name[32]
_PACKET = struct.Struct("<I16sI32s")
PACKET_SIZE = _PACKET.size


def event_size(meta: Metadata, ident: int) -> int:
    """The bytes of an event's fields (its 8-byte header apart)."""
    return sum(f.type.size * (f.length or 1) if not f.type.text else max(f.length, 1) for f in meta.events[ident][1])


class _Decoder(NamedTuple):
    name: str
    unpack: Any  # struct.Struct.unpack_from
    size: int
    names: tuple[str, ...]
    #: per field: (its first value's index in the unpacked tuple, how many values, is it text)
    slots: tuple[tuple[int, int, bool], ...]
    #: every field one value (no array but text): the fields are dict(zip(names, values)), then the texts decoded
    plain: bool
    texts: tuple[str, ...]
    fields: tuple[_Field, ...]


def _decoders(meta: Metadata) -> dict[int, _Decoder]:
    out = {}
    for ident, (name, fields) in meta.events.items():
        fmt, slots, at = meta.byte_order, [], 0
        for f in fields:
            if f.type.text:
                fmt += f"{max(f.length, 1)}s"
                slots.append((at, 1, True))
                at += 1
            elif f.length:
                fmt += f"{f.length}{f.type.code}"
                slots.append((at, f.length, False))
                at += f.length
            else:
                fmt += f.type.code
                slots.append((at, 1, False))
                at += 1
        s = struct.Struct(fmt)
        plain = all(n == 1 for _, n, _ in slots)
        texts = tuple(f.name for f in fields if f.type.text)
        out[ident] = _Decoder(
            name, s.unpack_from, s.size, tuple(f.name for f in fields), tuple(slots), plain, texts, fields
        )
    return out


def _text(raw: bytes) -> str:
    return raw.split(b"\0", 1)[0].decode("utf-8", "replace")


_event = positional(Event)

#: what an event's fields are read as when the caller does not want them (read_stream's ``wanted``)
_UNREAD: dict[str, Any] = {}
#: the bytes read from a stream file at a time: memory does not grow with the trace
CHUNK = 1 << 20  # (an event is at most 8 + 65,535 bytes: __RTE_TRACE_FIELD_SIZE_MASK)


def read_stream(path: str, meta: Metadata, index: int, wanted: frozenset[str] | None = None) -> Iterator[Event]:
    """The events of one stream file, in the order the thread wrote them, read a chunk at a time.  An event whose
    name is not in ``wanted`` (None: every name) comes with no fields, undecoded: the same events, in the same
    order (tests/test_trace.py holds the two readings equal)."""
    with open(path, "rb") as f:
        head = f.read(_PACKET.size)
        if len(head) < _PACKET.size:
            raise InputError(
                f"{path}: {len(head)} bytes, shorter than a stream's {_PACKET.size}-byte header: truncated"
            )
        magic, _uuid, cpu_id, thread = _PACKET.unpack_from(head, 0)
        if meta.byte_order == ">":
            magic, cpu_id = struct.unpack(">II", head[:4] + head[20:24])
        if magic != CTF_MAGIC:
            raise InputError(f"{path}: magic {magic:#x}, not CTF's {CTF_MAGIC:#x}: not a DPDK trace stream")
        stream = Stream(index, cpu_id, _text(thread))
        decoders = _decoders(meta)
        # per event id: what reading it takes, in one tuple (one look-up an event); an event's length with its
        # padding to the next 8-byte boundary is fixed (every event starts on one, and its header is 8 bytes)
        table = {
            i: (d.name, d.unpack, d.size, (8 + d.size + 7) & ~7, wanted is None or d.name in wanted, d)
            for i, d in decoders.items()
        }
        room = 16 + max((d.size for d in decoders.values()), default=0)  # the largest event, and its padding
        header = struct.Struct(meta.byte_order + "Q").unpack_from
        data, at, offset = f.read(CHUNK), 0, _PACKET.size  # offset: the file position of data[0]
        limit = len(data) - room
        scan = ACCEL.scan if ACCEL is not None else None
        specs = _specs(decoders, wanted) if scan is not None else {}
        big = meta.byte_order == ">"
        while True:
            if scan is not None and at <= limit:  # the events with room after them, in C
                events, at, stop = scan(data, at, limit, specs, big, Event, stream, _UNREAD)
                yield from events
                if stop:
                    raise InputError(
                        f"{path}: byte {offset + at}: event id {stop - 1} is not in the metadata: corrupt or truncated"
                    )
                continue
            if at > limit:  # less than the largest event left: read on
                while len(data) - at < room:
                    more = f.read(CHUNK)
                    if not more:
                        break
                    data, at = data[at:] + more, 0
                    offset = f.tell() - len(data)
                limit = len(data) - room
                if at + 8 > len(data):
                    return
            (word,) = header(data, at)
            entry = table.get(word >> 48)
            if entry is None:
                raise InputError(
                    f"{path}: byte {offset + at}: event id {word >> 48} is not in the metadata: corrupt or truncated"
                )
            name, unpack, size, step, decode, d = entry
            if at > limit and at + 8 + size > len(data):
                raise InputError(f"{path}: byte {offset + at}: {name} ends past the file's end: truncated")
            if decode:
                values = unpack(data, at + 8)
                if d.plain:  # scalars and strings only, one value each: the usual event
                    fields: dict[str, Any] = dict(zip(d.names, values))  # noqa: B905 - one value a name
                    for key in d.texts:
                        fields[key] = fields[key].partition(b"\0")[0].decode("utf-8", "replace")
                else:
                    fields = {}
                    for key, (i, n, text) in zip(d.names, d.slots, strict=True):
                        fields[key] = _text(values[i]) if text else values[i] if n == 1 else values[i : i + n]
                yield _event((name, fields, stream, word & 0xFFFF_FFFF_FFFF))
            else:
                yield _event((name, _UNREAD, stream, word & 0xFFFF_FFFF_FFFF))
            at += step


#: the lcore id of a thread that is not an EAL lcore (LCORE_ID_ANY, v22.11:lib/eal/include/rte_lcore.h:24)
LCORE_ID_ANY = 0xFFFF_FFFF


#: the C reader of mpcalc/dpdk/apps/trace/_ctf.c this Python expects (its VERSION): another source's build is unused
ACCEL_VERSION = 2


#: the C module (setup.py builds it where there is a compiler), or None: the same events, read in Python
ACCEL = load_extension(f"{__package__}._ctf", ACCEL_VERSION)

#: a field's kind for the C reader: unsigned 1-4, signed 5-8 (of 1, 2, 4, 8 bytes), text 9, float 10, double 11
_KINDS = {"B": 1, "H": 2, "I": 3, "Q": 4, "b": 5, "h": 6, "i": 7, "q": 8, "f": 10, "d": 11}


def _specs(decoders: dict[int, _Decoder], wanted: frozenset[str] | None) -> dict[int, tuple[str, int, Any]]:
    """The C reader's table: each event id's name, its bytes to the next event, and its fields to read (None:
    not wanted), each (name, kind, length)."""
    out: dict[int, tuple[str, int, Any]] = {}
    for ident, d in decoders.items():
        fields = None
        if wanted is None or d.name in wanted:
            fields = tuple(
                (f.name, 9, max(f.length, 1)) if f.type.text else (f.name, _KINDS[f.type.code], f.length)
                for f in d.fields
            )
        out[ident] = (d.name, (8 + d.size + 7) & ~7, fields)
    return out


def stream_header(path: str) -> tuple[Stream, int]:
    """A stream file's thread (its packet context) and how many bytes of events it holds, without its events."""
    with open(path, "rb") as f:
        head = f.read(_PACKET.size)
    if len(head) < _PACKET.size:
        raise InputError(f"{path}: {len(head)} bytes, shorter than a stream's {_PACKET.size}-byte header: truncated")
    _magic, _uuid, cpu_id, thread = _PACKET.unpack_from(head, 0)
    return Stream(0, cpu_id, _text(thread)), os.path.getsize(path) - _PACKET.size


def stream_files(folder: str) -> list[str]:
    """The stream files of a trace folder (every file but ``metadata``), in their channel order."""

    def order(name: str) -> tuple[int, str]:
        tail = name.rsplit("_", 1)[-1]
        return (int(tail), name) if tail.isdigit() else (1 << 30, name)

    return [
        os.path.join(folder, n)
        for n in sorted(os.listdir(folder), key=order)
        if n != "metadata" and not n.startswith(".") and os.path.isfile(os.path.join(folder, n))
    ]


def is_ctf_dir(folder: str) -> bool:
    return os.path.isfile(os.path.join(folder, "metadata"))
