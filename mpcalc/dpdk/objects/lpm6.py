"""rte_lpm6: ``rte_lpm6_create`` (v22.11:lib/lpm/rte_lpm6.c:239-374) and the ``lpm6`` object (:data:`LPM6`).

In DPDK's order: the rules hash ``LRH_<name>`` (``rte_hash_create`` with ``max_rules * 1.2 + 64``
entries of 20-byte keys: its ring ``RG_HT_LRH_<name>``, buckets and key store, mpcalc.dpdk.objects.hash), the
tbl8 index pool (``rte_malloc`` of 4 B a group) and the tbl8 headers (12 B a group), then
``LPM6_TAILQ_ENTRY`` and ``LPM_<name>``: struct rte_lpm6 with its 2^24-entry tbl24 (64 MiB) and every tbl8
group (1 KiB each) in one ``rte_zmalloc``.  A failure frees what came before (rte_lpm6.c:365-373).

``entries`` is a double converted to the ``uint32_t`` of struct rte_hash_parameters: above 2^32 the C
conversion is undefined; x86-64 compilers truncate through a 64-bit register (the value wraps modulo
2^32, measured), arm64's ``fcvtzu`` saturates to 2^32 - 1 (measured: the hash refuses it, EINVAL).
"""

from collections.abc import Mapping
from typing import Any

from mpcalc.dpdk.core.declare import ObjectDecl, Param, Resolved
from mpcalc.dpdk.core.errors import Rejection, check_u32
from mpcalc.dpdk.core.intmath import U32_MAX, ceil_a
from mpcalc.dpdk.core.platform import Platform
from mpcalc.dpdk.core.records import Allocation, Result
from mpcalc.dpdk.core.standalone import Parts, finish, truncate
from mpcalc.dpdk.objects.hash import hash_parts
from mpcalc.dpdk.objects.lpm_routes import ROUTES_FORMAT

LPM6_NAMESIZE = 32  # RTE_LPM6_NAMESIZE (v22.11:lib/lpm/rte_lpm6.h:22)
TBL24_ENTRIES = 1 << 24  # RTE_LPM6_TBL24_NUM_ENTRIES (v22.11:lib/lpm/rte_lpm6.c:24)
TBL8_GROUP_ENTRIES = 256  # RTE_LPM6_TBL8_GROUP_NUM_ENTRIES (v22.11:lib/lpm/rte_lpm6.c:25)
TBL8_MAX_GROUPS = 1 << 21  # RTE_LPM6_TBL8_MAX_NUM_GROUPS (v22.11:lib/lpm/rte_lpm6.c:26)
RULE_HASH_EXTRA_SPACE = 64  # RULE_HASH_TABLE_EXTRA_SPACE (v22.11:lib/lpm/rte_lpm6.c:37)
RULE_KEY_SIZE = 20  # struct rte_lpm6_rule_key: ip[16], depth (v22.11:lib/lpm/rte_lpm6.c:74-77)
TBL8_HDR_SIZE = 12  # struct rte_lpm_tbl8_hdr (v22.11:lib/lpm/rte_lpm6.c:80-88)
#: struct rte_lpm6 before tbl24: name[32], max_rules, used_rules, number_tbl8s, rules_tbl
#: (v22.11:lib/lpm/rte_lpm6.c:91-99)
HEAD_BYTES = 56
#: after tbl24: tbl8_pool, tbl8_pool_pos, tbl8_hdrs (rte_lpm6.c:103-106); tbl8[] starts on a cache line
TAIL_BYTES = 24
#: x86-64 and LoongArch convert a double to uint32_t through a 64-bit register; the others saturate
WRAPPING_ARCHES = frozenset({"x86_64", "loongarch64"})
_SRC = "v22.11:lib/lpm/rte_lpm6.c"


def sizeof_rte_lpm6(p: Platform) -> int:
    """sizeof(struct rte_lpm6): the head, the cache-aligned tbl24, its tail, aligned for tbl8[].

    >>> sizeof_rte_lpm6(Platform()) - (1 << 26), sizeof_rte_lpm6(Platform(cache_line=128)) - (1 << 26)
    (128, 256)
    """
    line = p.cache_line
    return ceil_a(ceil_a(HEAD_BYTES, line) + TBL24_ENTRIES * 4 + TAIL_BYTES, line)


def rule_hash_entries(max_rules: int, p: Platform) -> int:
    """``.entries = config->max_rules * 1.2 + RULE_HASH_TABLE_EXTRA_SPACE`` (rte_lpm6.c:268-270), as each
    architecture converts the double.

    >>> rule_hash_entries(1000, Platform()), rule_hash_entries(3579139370, Platform())
    (1264, 12)
    >>> rule_hash_entries(3579139370, Platform(arch="arm64"))
    4294967295
    """
    value = int(max_rules * 1.2 + RULE_HASH_EXTRA_SPACE)  # C truncates toward zero
    if value <= U32_MAX:
        return value
    return value & U32_MAX if p.arch in WRAPPING_ARCHES else U32_MAX


def lpm6_parts(name: str, max_rules: int, number_tbl8s: int, p: Platform) -> tuple[Parts, dict[str, object]]:
    """``rte_lpm6_create(name, socket, {max_rules, number_tbl8s})``: everything it reserves, or its refusal."""
    parts = Parts()
    fn = "rte_lpm6_create"
    if max_rules == 0 or number_tbl8s > TBL8_MAX_GROUPS:
        why = (
            "max_rules is 0"
            if max_rules == 0
            else (f"number_tbl8s {number_tbl8s:,} exceeds RTE_LPM6_TBL8_MAX_NUM_GROUPS {TBL8_MAX_GROUPS:,}")
        )
        parts.errors.append(Rejection("EINVAL", why, fn, f"{_SRC}:258-264"))
        return parts, {}
    entries = rule_hash_entries(max_rules, p)
    details: dict[str, object] = {"rule_hash_entries": entries}
    rules, hash_details = hash_parts(truncate("LRH_" + name, LPM6_NAMESIZE), entries, RULE_KEY_SIZE, 0, p)
    details.update({f"rule_hash_{k}": v for k, v in hash_details.items()})
    if rules.failed:
        err = rules.errors[0]
        parts.errors.append(
            err._replace(
                reason=f"the rules hash of {entries:,} entries (max_rules {max_rules:,} x 1.2 + 64): {err.reason}",
                function=fn,
                source=f"{_SRC}:266-285 ({err.function}, {err.source})",
            )
        )
        return parts, details
    if max_rules * 1.2 + RULE_HASH_EXTRA_SPACE > U32_MAX:
        parts.errors.append(
            Rejection(
                None,
                f"max_rules {max_rules:,} x 1.2 + 64 does not fit the uint32_t entries: "
                f"converted on {p.arch} to {entries:,}, a rules hash smaller than max_rules",
                fn,
                f"{_SRC}:268-270",
            )
        )
    if number_tbl8s == 0:
        parts.errors.append(
            Rejection(
                "ENOMEM",
                "number_tbl8s is 0: the tbl8 index pool needs 0 bytes and rte_malloc "
                "returns NULL (the rules hash is freed again)",
                fn,
                f"{_SRC}:287-296",
            )
        )
        return parts.freed(), details
    parts.extend(rules)
    r = p.release
    parts.allocations += [
        Allocation("tbl8_pool", 4 * number_tbl8s, f"{number_tbl8s:,} tbl8 indexes (type NULL)"),
        Allocation("tbl8_hdrs", TBL8_HDR_SIZE * number_tbl8s, f"{number_tbl8s:,} tbl8 headers (type NULL)"),
        Allocation("LPM6_TAILQ_ENTRY", r.tailq_entry_size, "tailq entry"),
        Allocation(
            truncate("LPM_" + name, LPM6_NAMESIZE),
            sizeof_rte_lpm6(p) + 4 * TBL8_GROUP_ENTRIES * number_tbl8s,
            f"struct rte_lpm6 (tbl24 64 MiB) + {number_tbl8s:,} tbl8 groups of 1 KiB",
        ),
    ]
    return parts, details


def size(name: str, max_rules: int, number_tbl8s: int, p: Platform, plan: Any = None) -> Result:
    """``rte_lpm6_create``; with a route plan (mpcalc.dpdk.objects.lpm_routes), the first route rte_lpm6_add refuses."""
    check_u32((max_rules, "max_rules"), (number_tbl8s, "number_tbl8s"))
    parts, details = lpm6_parts(name, max_rules, number_tbl8s, p)
    details = {
        "tbl24_bytes": TBL24_ENTRIES * 4,
        "max_rules": max_rules,
        "number_tbl8s": number_tbl8s,
        "struct_rte_lpm6": sizeof_rte_lpm6(p),
        **details,
    }
    extra: list[Rejection] = []
    if plan is not None:
        from mpcalc.dpdk.objects.lpm_routes import route_report

        planned, extra = route_report(plan, max_rules, number_tbl8s, parts.failed)
        details = {"answer": planned.pop("answer"), **details, **planned}
    return finish("lpm6", 0, p, parts, details, extra)


def _resolve(a: Mapping[str, Any]) -> Resolved:
    from mpcalc.dpdk.objects.lpm_routes import resolve_routes

    return resolve_routes(a, 6)


def _build(a: Mapping[str, Any], extra: Mapping[str, Any], flags: int, p: Platform) -> Result:
    return size(a["name"], a["max_rules"], a["tbl8"], p, extra.get("plan"))


LPM6 = ObjectDecl(
    name="lpm6",
    summary="An rte_lpm6_create() IPv6 LPM table: its rules hash (rte_hash, ring RG_HT_LRH_<name>), the tbl8 pool "
    "and headers, and LPM_<name> with the 64 MiB tbl24 and every tbl8 group.",
    params=(
        Param(
            "max_rules",
            "count",
            "max_rules [default with --routes-file: what the file needs, else 1024 as examples/l3fwd].",
        ),
        Param(
            "tbl8",
            "count",
            "number_tbl8s: tbl8 groups of 256 entries [default: what --routes-file needs, else "
            "65536 as examples/l3fwd (IPV6_L3FWD_LPM_NUMBER_TBL8S)].",
        ),
        Param(
            "routes_file",
            "path",
            "A route table: replay rte_lpm6_add to count the rules and tbl8 groups; '-' "
            "reads stdin (see --routes-format).",
            fronts=frozenset({"cli", "batch"}),
        ),
        ROUTES_FORMAT,
        Param(
            "name",
            "text",
            "LPM name (allocation LPM_<name>, rules hash LRH_<name>).",
            default="lpm6",
            show_default=True,
        ),
    ),
    build=_build,
    resolve=_resolve,
    # the largest max_rules whose rules hash (x 1.2 + 64 entries, one more key slot) DPDK can create
    fit={"max_rules": 894_784_799},
    zone_prefix="RG_HT_LRH_",
    own_zones=True,
)
