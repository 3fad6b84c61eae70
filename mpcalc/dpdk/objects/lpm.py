"""rte_lpm: ``rte_lpm_create`` (v22.11:lib/lpm/rte_lpm.c:145-246) and the ``lpm`` object (:data:`LPM`).

rte_lpm reserves no memzone: four ``rte_zmalloc`` calls, in this order (rte_lpm.c:190-230):

* ``LPM_TAILQ_ENTRY``: the tailq entry;
* ``LPM_<name>``: struct __rte_lpm, which embeds struct rte_lpm and so its 2^24-entry tbl24
  (64 MiB, before the first route) and the rule metadata (rte_lpm.c:48-65; rte_lpm.h:119-124);
* the rules table (type NULL): ``max_rules`` 8-byte rules;
* tbl8 (type NULL): ``number_tbl8s`` groups of 256 4-byte entries.

Both table sizes are computed in ``uint32_t`` (rte_lpm.c:153,185-187): from 2^29 rules and from 2^22
tbl8 groups they wrap.  A wrapped size of 0 fails (``rte_zmalloc`` of 0 bytes returns NULL: ENOMEM,
and so does ``number_tbl8s`` 0); any other wrapped size is a table DPDK creates too small.  The
name is cut to RTE_LPM_NAMESIZE (32) until 26.07, which refuses a longer one (2d6c7836bd).
"""

from collections.abc import Mapping
from typing import Any

from mpcalc.dpdk.core.declare import ObjectDecl, Param, Resolved
from mpcalc.dpdk.core.errors import Rejection, check_u32
from mpcalc.dpdk.core.facts import version_key
from mpcalc.dpdk.core.intmath import U32_MAX, ceil_a, u32
from mpcalc.dpdk.core.platform import Platform
from mpcalc.dpdk.core.records import Allocation, Result
from mpcalc.dpdk.core.standalone import Parts, finish, name_bytes, truncate
from mpcalc.dpdk.objects.lpm_routes import ROUTES_FORMAT

LPM_NAMESIZE = 32  # RTE_LPM_NAMESIZE (v22.11:lib/lpm/rte_lpm.h:28)
TBL24_ENTRIES = 1 << 24  # RTE_LPM_TBL24_NUM_ENTRIES (v22.11:lib/lpm/rte_lpm.h:34)
TBL8_GROUP_ENTRIES = 256  # RTE_LPM_TBL8_GROUP_NUM_ENTRIES (v22.11:lib/lpm/rte_lpm.h:37)
MAX_TBL8_GROUPS = 1 << 24  # RTE_LPM_MAX_TBL8_NUM_GROUPS (v22.11:lib/lpm/rte_lpm.h:40)
ENTRY_SIZE = 4  # struct rte_lpm_tbl_entry (v22.11:lib/lpm/rte_lpm.c:158)
RULE_SIZE = 8  # struct rte_lpm_rule: ip, next_hop (v22.11:lib/lpm/rte_lpm.c:37-40)
#: bytes of struct __rte_lpm after its struct rte_lpm: name[32], max_rules, number_tbl8s, rule_info[32] (8 B
#: each), rules_tbl, v, rcu_mode, dq (v22.11:lib/lpm/rte_lpm.c:48-65; the same struct 21.11-26.07)
LPM_META_BYTES = 328
_SRC = "v22.11:lib/lpm/rte_lpm.c"


def sizeof_rte_lpm(p: Platform) -> int:
    """sizeof(struct rte_lpm): the cache-aligned tbl24 and the tbl8 pointer, cache aligned.

    >>> sizeof_rte_lpm(Platform()), sizeof_rte_lpm(Platform(cache_line=128)) - (1 << 26)
    (67108928, 128)
    """
    return ceil_a(TBL24_ENTRIES * ENTRY_SIZE + 8, p.cache_line)


def sizeof_i_lpm(p: Platform) -> int:
    """sizeof(struct __rte_lpm), the ``LPM_<name>`` allocation (cache aligned: it embeds struct rte_lpm).

    >>> sizeof_i_lpm(Platform()) - (1 << 26), sizeof_i_lpm(Platform(cache_line=128)) - (1 << 26)
    (448, 512)
    """
    return ceil_a(sizeof_rte_lpm(p) + LPM_META_BYTES, p.cache_line)


def name_refused(p: Platform) -> bool:
    """26.07 refuses a name of RTE_LPM_NAMESIZE bytes or more (v26.07:lib/lpm/rte_lpm.c:173-176)."""
    return version_key(p.dpdk) >= (26, 7)


def lpm_parts(name: str, max_rules: int, number_tbl8s: int, p: Platform) -> Parts:
    """``rte_lpm_create(name, socket, {max_rules, number_tbl8s})``: its four allocations, or its refusal."""
    parts = Parts()
    fn = "rte_lpm_create"
    if max_rules == 0 or number_tbl8s > MAX_TBL8_GROUPS:
        why = (
            "max_rules is 0"
            if max_rules == 0
            else (f"number_tbl8s {number_tbl8s:,} exceeds RTE_LPM_MAX_TBL8_NUM_GROUPS {MAX_TBL8_GROUPS:,}")
        )
        parts.errors.append(Rejection("EINVAL", why, fn, f"{_SRC}:160-165"))
        return parts
    if name_refused(p) and name_bytes(name) >= LPM_NAMESIZE:
        parts.errors.append(
            Rejection(
                "ENAMETOOLONG",
                f"name {name!r} is {name_bytes(name)} bytes; the limit is {LPM_NAMESIZE - 1}",
                fn,
                "v26.07:lib/lpm/rte_lpm.c:173-176",
            )
        )
        return parts
    rules_size = u32(RULE_SIZE * max_rules)  # uint32_t rules_size (rte_lpm.c:153,185)
    tbl8s_size = u32(ENTRY_SIZE * TBL8_GROUP_ENTRIES * number_tbl8s)  # uint32_t tbl8s_size (rte_lpm.c:186-187)
    for size, what, line in ((rules_size, "rules table", "207-217"), (tbl8s_size, "tbl8 table", "219-230")):
        if size == 0:
            cause = (
                "number_tbl8s is 0" if what == "tbl8 table" and number_tbl8s == 0 else "its uint32_t size wraps to 0"
            )
            parts.errors.append(
                Rejection(
                    "ENOMEM",
                    f"the {what} needs 0 bytes ({cause}): rte_zmalloc_socket of 0 bytes returns NULL",
                    fn,
                    f"{_SRC}:{line}",
                )
            )
            return parts
    if rules_size != RULE_SIZE * max_rules:
        parts.errors.append(
            Rejection(
                None,
                f"{max_rules:,} rules need {RULE_SIZE * max_rules:,} bytes but the "
                f"uint32_t size wraps to {rules_size:,}: the rules table holds "
                f"{rules_size // RULE_SIZE:,} "
                "rules and rte_lpm_add writes past it",
                fn,
                f"{_SRC}:153,185,207-208",
            )
        )
    if tbl8s_size != ENTRY_SIZE * TBL8_GROUP_ENTRIES * number_tbl8s:
        parts.errors.append(
            Rejection(
                None,
                f"{number_tbl8s:,} tbl8 groups need {1024 * number_tbl8s:,} bytes but the "
                f"uint32_t size wraps to {tbl8s_size:,}: {tbl8s_size // 1024:,} groups exist and "
                "tbl8_alloc hands out groups past them",
                fn,
                f"{_SRC}:153,186-187,219-220",
            )
        )
    r = p.release
    parts.allocations += [
        Allocation("LPM_TAILQ_ENTRY", r.tailq_entry_size, "tailq entry"),
        Allocation(
            truncate("LPM_" + name, LPM_NAMESIZE), sizeof_i_lpm(p), "struct __rte_lpm: tbl24 (64 MiB) + rules metadata"
        ),
        Allocation("rules_tbl", rules_size, f"{rules_size // RULE_SIZE:,} rules of {RULE_SIZE} B (type NULL)"),
        Allocation("tbl8", tbl8s_size, f"{tbl8s_size // 1024:,} tbl8 groups of 1 KiB (type NULL)"),
    ]
    return parts


def size(name: str, max_rules: int, number_tbl8s: int, p: Platform, plan: Any = None) -> Result:
    """``rte_lpm_create`` with ``max_rules`` and ``number_tbl8s``; with a route plan
    (mpcalc.dpdk.objects.lpm_routes), also the first route whose rte_lpm_add would fail."""
    check_u32((max_rules, "max_rules"), (number_tbl8s, "number_tbl8s"))
    parts = lpm_parts(name, max_rules, number_tbl8s, p)
    details: dict[str, object] = {
        "tbl24_bytes": TBL24_ENTRIES * ENTRY_SIZE,
        "max_rules": max_rules,
        "number_tbl8s": number_tbl8s,
        "struct_rte_lpm": sizeof_rte_lpm(p),
    }
    extra: list[Rejection] = []
    if plan is not None:
        from mpcalc.dpdk.objects.lpm_routes import route_report

        planned, extra = route_report(plan, max_rules, number_tbl8s, parts.failed)
        details = {"answer": planned.pop("answer"), **details, **planned}
    return finish("lpm", 0, p, parts, details, extra)


def _resolve(a: Mapping[str, Any]) -> Resolved:
    from mpcalc.dpdk.objects.lpm_routes import resolve_routes

    return resolve_routes(a, 4)


def _build(a: Mapping[str, Any], extra: Mapping[str, Any], flags: int, p: Platform) -> Result:
    return size(a["name"], a["max_rules"], a["tbl8"], p, extra.get("plan"))


LPM = ObjectDecl(
    name="lpm",
    summary="An rte_lpm_create() IPv4 LPM table: its 64 MiB tbl24, the rules and the tbl8 groups (rte_zmalloc, "
    "no memzone).",
    params=(
        Param("max_rules", "count", "max_rules [default with --routes-file: what the file needs]."),
        Param(
            "tbl8",
            "count",
            "number_tbl8s: tbl8 groups of 256 entries [default: what --routes-file needs, else "
            "256 as examples/l3fwd (IPV4_L3FWD_LPM_NUMBER_TBL8S)].",
        ),
        Param(
            "routes_file",
            "path",
            "A route table: replay rte_lpm_add to count the rules and tbl8 groups; '-' "
            "reads stdin (see --routes-format).",
            fronts=frozenset({"cli", "batch"}),
        ),
        ROUTES_FORMAT,
        Param("name", "text", "LPM name (allocation LPM_<name>).", default="lpm", show_default=True),
    ),
    build=_build,
    resolve=_resolve,
    # the largest max_rules whose uint32_t rules size does not wrap
    fit={"max_rules": U32_MAX // RULE_SIZE},
    zone_prefix="LPM_",
    own_zones=True,
)
