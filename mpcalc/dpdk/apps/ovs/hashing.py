"""OVS's ``hash_string``: the hash in the names of the mbuf pools OVS creates.

``hash_string(s, basis)`` is ``hash_bytes(s, strlen(s), basis)`` (v3.1.7:lib/hash.h:340): 32-bit words
read little-endian (``get_unaligned_u32``), a last partial word zero-padded (v3.1.7:lib/hash.c:30-51),
then ``hash_finish(hash, n)``.  Which ``hash_add``/``hash_finish`` OVS compiles depends on its build
(v3.1.7:lib/hash.h:101-120,168-188 and lib/hash-aarch64.h:31-47):

* ``mhash`` (MurmurHash3 steps, v3.1.7:lib/hash.h:63-91): every build without SSE 4.2 on x86_64 and
  without the CRC32 extension on arm64, such as Debian's and Ubuntu's generic packages;
* ``crc32c``: x86_64 built with ``-msse4.2`` (``_mm_crc32_u32``/``_mm_crc32_u64``) or arm64 built with
  ``+crc`` (``__crc32cw``/``__crc32cd``): CRC-32C steps and ``crc * 0x805204f3``, folded.
"""

from __future__ import annotations

import functools

_M32 = 0xFFFFFFFF
#: hash variants OVS builds (see the module docstring)
HASHES = ("mhash", "crc32c")


def _rot(x: int, k: int) -> int:
    return ((x << k) | (x >> (32 - k))) & _M32


def _mhash_add(h: int, data: int) -> int:
    """mhash_add (v3.1.7:lib/hash.h:63-81)."""
    if data:
        data = (data * 0xCC9E2D51) & _M32
        data = _rot(data, 15)
        data = (data * 0x1B873593) & _M32
        h ^= data
    h = _rot(h, 13)
    return (h * 5 + 0xE6546B64) & _M32


def _mhash_finish(h: int) -> int:
    """mhash_finish (v3.1.7:lib/hash.h:83-91)."""
    h ^= h >> 16
    h = (h * 0x85EBCA6B) & _M32
    h ^= h >> 13
    h = (h * 0xC2B2AE35) & _M32
    return h ^ (h >> 16)


@functools.lru_cache(maxsize=1)
def _crc_table() -> tuple[int, ...]:
    table = []
    for i in range(256):
        c = i
        for _ in range(8):
            c = (c >> 1) ^ (0x82F63B78 if c & 1 else 0)
        table.append(c)
    return tuple(table)


def _crc32c(crc: int, data: bytes) -> int:
    """The SSE 4.2 ``crc32`` instruction: CRC-32C of ``data`` from ``crc``, no pre/post inversion."""
    table = _crc_table()
    for byte in data:
        crc = table[(crc ^ byte) & 0xFF] ^ (crc >> 8)
    return crc


def hash_string(s: str, basis: int = 0, variant: str = "mhash") -> int:
    """``hash_string(s, basis)`` of OVS.

    >>> f"{hash_string('p0'):08x}", f"{hash_string('dpdk0'):08x}"
    ('6ffa666e', 'c5a50bce')
    """
    raw = s.encode()
    h = basis & _M32
    words = [int.from_bytes(raw[i : i + 4].ljust(4, b"\0"), "little") for i in range(0, len(raw), 4)]
    if variant == "mhash":
        for w in words:
            h = _mhash_add(h, w)
        return _mhash_finish(h ^ len(raw))
    if variant != "crc32c":
        raise ValueError(f"unknown hash variant {variant!r}")
    for w in words:
        h = _crc32c(h, w.to_bytes(4, "little"))
    low = (_crc32c(h, len(raw).to_bytes(8, "little")) * 0x805204F3) & _M32
    return low ^ (low >> 16)
