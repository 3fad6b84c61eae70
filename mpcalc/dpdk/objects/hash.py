"""rte_hash: ``rte_hash_create`` (v22.11:lib/hash/rte_cuckoo_hash.c:132-480) and the ``hash`` object (:data:`HASH`).

In DPDK's order (rte_cuckoo_hash.c:219-459): the free-slot ring ``HT_<name>`` (memzone
``RG_HT_<name>``) of ``rte_align32pow2(num_key_slots)`` 4-byte slots; with ext_table the bucket ring
``HT_EXT_<name>`` of ``rte_align32pow2(num_buckets + 1)`` slots; then ``HASH_TAILQ_ENTRY``, struct
rte_hash (type ``HT_<name>``), the buckets, the ext buckets (ext_table), ``ext_bkt_to_free``
(ext_table with rw_concurrency_lf), the key store, ``tbl_chng_cnt``, the per-lcore caches
(multi_writer_add: RTE_MAX_LCORE ``struct lcore_cache``) and the rwlock (multi_writer_add or
rw_concurrency).  ``num_key_slots`` is entries + 1, plus (RTE_MAX_LCORE - 1) x 63 with the
per-lcore caches.

The ring names are ``snprintf``'d into RTE_RING_NAMESIZE (29) bytes: a name of 26 bytes or more is
cut silently (two hashes whose names share their first 25 bytes collide on the ring: EEXIST).
"""

from collections.abc import Mapping
from typing import Any

from mpcalc.dpdk.core.declare import ObjectDecl, Param, Resolved
from mpcalc.dpdk.core.errors import InputError, Rejection, check_u32
from mpcalc.dpdk.core.facts import version_key
from mpcalc.dpdk.core.intmath import align32pow2, ceil_a, u32
from mpcalc.dpdk.core.platform import Platform
from mpcalc.dpdk.core.records import Allocation, Result
from mpcalc.dpdk.core.standalone import Parts, finish, name_bytes, truncate
from mpcalc.dpdk.objects.objflags import HASH_FLAGS
from mpcalc.dpdk.objects.ring import ring_parts

ENTRIES_MAX = 1 << 30  # RTE_HASH_ENTRIES_MAX (v22.11:lib/hash/rte_hash.h:24)
BUCKET_ENTRIES = 8  # RTE_HASH_BUCKET_ENTRIES (v22.11:lib/hash/rte_cuckoo_hash.h:111)
HASH_NAMESIZE = 32  # RTE_HASH_NAMESIZE (v22.11:lib/hash/rte_hash.h:27)
KEY_ALIGNMENT = 16  # (v22.11:lib/hash/rte_cuckoo_hash.h:121)
LCORE_CACHE_SIZE = 64  # (v22.11:lib/hash/rte_cuckoo_hash.h:123)
#: struct rte_hash_key: the data pointer before the key (v22.11:lib/hash/rte_cuckoo_hash.h:138-145)
HASH_KEY_HEAD = 8
#: struct rte_hash_bucket before its cache alignment: sig_current[8], key_idx[8], flag[8], next
#: (v22.11:lib/hash/rte_cuckoo_hash.h:154-165)
BUCKET_BYTES = 64
#: struct lcore_cache before its cache alignment: len and objs[64] (v22.11:lib/hash/rte_cuckoo_hash.h:129-132)
LCORE_CACHE_BYTES = 4 + 4 * LCORE_CACHE_SIZE
#: struct rte_hash: 72 bytes (name .. dq), then from the next cache line key_len .. tbl_chng_cnt, 112 bytes
#: (v22.11:lib/hash/rte_cuckoo_hash.h:167-230; the same layout 21.11-26.07)
HASH_HEAD_BYTES, HASH_TAIL_BYTES = 72, 112
TRANS_MEM, MULTI_WRITER, RW_CONCURRENCY, EXT_TABLE, NO_FREE_ON_DEL, RW_CONCURRENCY_LF = 1, 2, 4, 8, 0x10, 0x20
EXTRA_FLAGS_MASK = 0x3F  # RTE_HASH_EXTRA_FLAGS_MASK (v22.11:lib/hash/rte_cuckoo_hash.c:30-35)
_SRC = "v22.11:lib/hash/rte_cuckoo_hash.c"


def sizeof_rte_hash(p: Platform) -> int:
    """sizeof(struct rte_hash).

    >>> sizeof_rte_hash(Platform()), sizeof_rte_hash(Platform(cache_line=128))
    (256, 256)
    """
    return ceil_a(ceil_a(HASH_HEAD_BYTES, p.cache_line) + HASH_TAIL_BYTES, p.cache_line)


def key_entry_size(key_len: int) -> int:
    """``RTE_ALIGN(sizeof(struct rte_hash_key) + key_len, KEY_ALIGNMENT)`` stored in a uint32_t: it wraps for
    key lengths within 23 bytes of 2^32 (rte_cuckoo_hash.c:328-330).

    >>> key_entry_size(16), key_entry_size(2**32 - 20), key_entry_size(2**32 - 1)
    (32, 0, 16)
    """
    return u32(ceil_a(HASH_KEY_HEAD + key_len, KEY_ALIGNMENT))


def name_refused(p: Platform) -> bool:
    """26.07 refuses a name of RTE_HASH_NAMESIZE bytes or more (v26.07:lib/hash/rte_cuckoo_hash.c:476-481)."""
    return version_key(p.dpdk) >= (26, 7)


def _checks(name: str, entries: int, key_len: int, flags: int, p: Platform) -> Rejection | None:
    fn = "rte_hash_create"
    if entries > ENTRIES_MAX or entries < BUCKET_ENTRIES:
        return Rejection(
            "EINVAL", f"entries {entries:,} is outside [{BUCKET_ENTRIES}, {ENTRIES_MAX:,}]", fn, f"{_SRC}:166-173"
        )
    if key_len == 0:
        return Rejection("EINVAL", "key_len is 0", fn, f"{_SRC}:166-173")
    if flags & ~EXTRA_FLAGS_MASK:
        return Rejection(
            "EINVAL",
            f"extra_flag {flags:#x} has bits outside RTE_HASH_EXTRA_FLAGS_MASK {EXTRA_FLAGS_MASK:#x}",
            fn,
            f"{_SRC}:175-179",
        )
    if name_refused(p) and name_bytes(name) >= HASH_NAMESIZE:
        return Rejection(
            "ENAMETOOLONG",
            f"name {name!r} is {name_bytes(name)} bytes; the limit is {HASH_NAMESIZE - 1}",
            fn,
            "v26.07:lib/hash/rte_cuckoo_hash.c:476-481",
        )
    if flags & RW_CONCURRENCY and flags & RW_CONCURRENCY_LF:
        return Rejection("EINVAL", "rw_concurrency and rw_concurrency_lf together", fn, f"{_SRC}:181-188")
    return None


def num_key_slots(entries: int, flags: int, p: Platform) -> int:
    """Key slots: entries + 1 (slot 0 is the dummy), plus what the other lcores' caches can hold with
    multi_writer_add (rte_cuckoo_hash.c:219-229)."""
    extra = (p.max_lcore - 1) * (LCORE_CACHE_SIZE - 1) if flags & MULTI_WRITER else 0
    return u32(entries + extra + 1)


def hash_parts(name: str, entries: int, key_len: int, flags: int, p: Platform) -> tuple[Parts, dict[str, object]]:
    """``rte_hash_create(&{name, entries, key_len, extra_flag})``: everything it reserves, or its refusal.

    ``flags`` is the ``uint8_t extra_flag`` (v22.11:lib/hash/rte_hash.h:89)."""
    parts = Parts()
    err = _checks(name, entries, key_len, flags, p)
    if err is not None:
        parts.errors.append(err)
        return parts, {}
    r = p.release
    slots = num_key_slots(entries, flags, p)
    num_buckets = align32pow2(entries) // BUCKET_ENTRIES
    ring_name = truncate("HT_" + name, r.ring_namesize)
    ring, _ = ring_parts(ring_name, align32pow2(slots), p, esize=4, role="free key slots ring")
    parts.extend(ring)
    if ring.failed:
        parts.errors[-1] = parts.errors[-1]._replace(
            reason=f"the free-slot ring of {slots:,} key slots: {parts.errors[-1].reason}",
            function="rte_hash_create",
            source=f"{_SRC}:231-238 ({parts.errors[-1].function}, {parts.errors[-1].source})",
        )
        return parts.freed(), {}
    if flags & EXT_TABLE:
        ext, _ = ring_parts(
            truncate("HT_EXT_" + name, r.ring_namesize),
            align32pow2(num_buckets + 1),
            p,
            esize=4,
            role="free ext buckets ring",
        )
        parts.extend(ext)
        if ext.failed:
            return parts.freed(), {}
    bucket = ceil_a(BUCKET_BYTES, p.cache_line)
    kes = key_entry_size(key_len)
    allocs = [
        Allocation("HASH_TAILQ_ENTRY", r.tailq_entry_size, "tailq entry"),
        Allocation(truncate("HT_" + name, HASH_NAMESIZE), sizeof_rte_hash(p), "struct rte_hash"),
        Allocation("buckets", num_buckets * bucket, f"{num_buckets:,} buckets of {bucket} B (type NULL)"),
    ]
    if flags & EXT_TABLE:
        allocs.append(Allocation("buckets_ext", num_buckets * bucket, f"{num_buckets:,} ext buckets (type NULL)"))
        if flags & RW_CONCURRENCY_LF:
            allocs.append(Allocation("ext_bkt_to_free", 4 * slots, f"{slots:,} uint32_t (type NULL)"))
    if kes == 0:
        parts.errors.append(
            Rejection(
                "EUNSET",
                f"key_len {key_len:,}: the key entry size wraps to 0 in uint32_t, the "
                "key store needs 0 bytes and rte_zmalloc_socket returns NULL; rte_hash_create "
                "returns NULL without setting rte_errno (it holds what an earlier call left: "
                "ENOENT from the heap's searches on the probe)",
                "rte_hash_create",
                f"{_SRC}:328-339",
            )
        )
        return parts.freed(), {}
    allocs += [
        Allocation("key_store", kes * slots, f"{slots:,} key slots of {kes} B (type NULL)"),
        Allocation("tbl_chng_cnt", 4, "uint32_t (type NULL)"),
    ]
    if kes < HASH_KEY_HEAD + key_len:
        parts.errors.append(
            Rejection(
                None,
                f"key_len {key_len:,}: the key entry size wraps to {kes} bytes in uint32_t;"
                " "
                "keys are written past their slots",
                "rte_hash_create",
                f"{_SRC}:328-331",
            )
        )
    if flags & MULTI_WRITER:
        cache = ceil_a(LCORE_CACHE_BYTES, p.cache_line)
        allocs.append(
            Allocation(
                "local_free_slots",
                cache * p.max_lcore,
                f"RTE_MAX_LCORE {p.max_lcore} x struct lcore_cache {cache} B (type NULL)",
            )
        )
    if flags & (MULTI_WRITER | RW_CONCURRENCY):
        allocs.append(Allocation("readwrite_lock", 4, "rte_rwlock_t (type NULL)"))
    parts.allocations += allocs
    details: dict[str, object] = {
        "num_key_slots": slots,
        "num_buckets": num_buckets,
        "key_entry_size": kes,
        "ring_slots": align32pow2(slots),
    }
    return parts, details


def size(name: str, entries: int, key_len: int, flags: int, p: Platform) -> Result:
    """``rte_hash_create`` with ``entries``, ``key_len`` and ``extra_flag``."""
    check_u32((entries, "entries"), (key_len, "key_len"))
    if not 0 <= flags <= 0xFF:
        raise InputError(f"extra flags {flags:#x} do not fit the uint8_t extra_flag", param="--extra-flags")
    parts, details = hash_parts(name, entries, key_len, flags, p)
    return finish(
        "hash",
        flags,
        p,
        parts,
        {"entries": entries, "key_len": key_len, "extra_flags": HASH_FLAGS.names(flags), **details},
    )


def _resolve(a: Mapping[str, Any]) -> Resolved:
    return Resolved({"name": a["name"], "entries": a["entries"], "key_len": a["key_len"]}, {})


def _build(a: Mapping[str, Any], extra: Mapping[str, Any], flags: int, p: Platform) -> Result:
    return size(a["name"], a["entries"], a["key_len"], flags, p)


HASH = ObjectDecl(
    name="hash",
    summary="An rte_hash_create() cuckoo hash: its free-slot rings (memzones), buckets, key store and per-lcore "
    "caches.",
    params=(
        Param("entries", "count", "Hash entries (8 to 2^30); required unless --fit.", needed=True),
        Param("key_len", "size", "Key length in bytes.", required=True),
        Param("name", "text", "Hash name (ring HT_<name>, memzone RG_HT_<name>).", default="hash", show_default=True),
        Param(
            "flags",
            "flags",
            "Extra flags: trans_mem_support, multi_writer_add, rw_concurrency, ext_table, "
            "no_free_on_del, rw_concurrency_lf, RTE_HASH_EXTRA_FLAGS_* names, a mask (0x0a), none, or all (every "
            "combination of the flags that change the memory).",
            default=[0],
            show_default="none",
            vocabulary=HASH_FLAGS,
            short="--extra-flags",
        ),
    ),
    build=_build,
    resolve=_resolve,
    fit={"entries": ENTRIES_MAX - 1},
    zone_prefix="RG_HT_",
    own_zones=True,
)
