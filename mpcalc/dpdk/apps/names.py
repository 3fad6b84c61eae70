"""The type strings DPDK really passes to rte_malloc, for the allocations of an application's tables and ports.

mpcalc's object modules name some allocations by what they hold (``DP_<fib>``, ``rules_tbl``, ...); in a
whole application the names are shown as the real heap allocations carry them, so that a real allocation
log (an LD_PRELOAD of rte_malloc, tests/conformance/apps/allocspy.c) reads the same.  The same at every
supported tag (v21.11.9, v22.11.11, v23.11.7, v24.11.6, v25.11.2, v26.07; the lines cited are v22.11's):

* rte_fib_create / rte_fib6_create build the data plane's name as ``snprintf(dp_name, sizeof(void *), "%p",
  fib)``: the first 7 characters of the rte_fib's address (v22.11:lib/fib/rte_fib.c:95-97,
  rte_fib6.c:95-97); dir24_8_create and trie_create format ``"DP_%s"`` into mem_name but allocate the table
  under ``name``, that 7-character string (v22.11:lib/fib/dir24_8.c:527-528, trie.c:647-648); their tbl8
  arrays are ``"TBL8_%p"`` and ``"TBL8_idxes_%p"`` of the table's own address (dir24_8.c:539-554,
  trie.c:658-672).  An address is the process's: the name says which pointer it prints.
* rte_fib6_create's tailq entry is ``"FIB_TAILQ_ENTRY"``, as IPv4's (v22.11:lib/fib/rte_fib6.c:194).
* rte_lpm_create's rules and tbl8 arrays, rte_lpm6_create's tbl8 pool and headers, rte_hash_create's
  buckets, key store and the rest, and rte_intr_instance_alloc's handle, efds and elist are allocated with
  a NULL type: ``(null)`` as a log prints it (v22.11:lib/lpm/rte_lpm.c:207-222, rte_lpm6.c:288-302,
  lib/hash/rte_cuckoo_hash.c:291-450, lib/eal/common/eal_common_interrupts.c:46-78).

The model's own name is kept in the role.  Pure: stdlib only.
"""

from __future__ import annotations

from mpcalc.dpdk.core.records import Allocation

#: how a log prints a NULL type string (glibc's printf of "%s" with NULL)
NULL = "(null)"
#: model names whose real type string is NULL
_NULL_TYPED = frozenset(
    {
        "rules_tbl",
        "tbl8",
        "tbl8_pool",
        "tbl8_hdrs",
        "buckets",
        "buckets_ext",
        "ext_bkt_to_free",
        "key_store",
        "tbl_chng_cnt",
        "local_free_slots",
        "readwrite_lock",
        "intr_handle",
        "intr_handle efds",
        "intr_handle elist",
    }
)


def real_name(a: Allocation) -> Allocation:
    """``a`` under the type string DPDK passes to rte_malloc; the model's name moves into the role."""
    name = a.name
    if name in _NULL_TYPED:
        return a._replace(name=NULL, role=f"{name}: {a.role}")
    if name == "FIB6_TAILQ_ENTRY":
        return a._replace(name="FIB_TAILQ_ENTRY")
    for prefix, real in (
        ("DP_", "%p of rte_fib {}, 7 chars"),
        ("TBL8_idxes_", "TBL8_idxes_%p of {}'s table"),
        ("TBL8_", "TBL8_%p of {}'s table"),
    ):
        if name.startswith(prefix) and a.role.startswith(("dir24_8", "rte_trie", "tbl8")):
            fib = name[len(prefix) :]
            return a._replace(name=real.format(fib), role=f"{name}: {a.role}")
    return a


def real_names(allocations: list[Allocation]) -> list[Allocation]:
    """Every allocation of ``allocations`` under its real type string (:func:`real_name`)."""
    return [real_name(a) for a in allocations]
