"""rte_fib / rte_fib6: the RIB node pool and the data-plane tables.

rte_fib_create (v22.11:lib/fib/rte_fib.c:148-239), dir24_8_create
(v22.11.11:lib/fib/dir24_8.c:496-565), rte_fib6_create (v22.11:lib/fib/rte_fib6.c:149-240),
trie_create (v22.11.11:lib/fib/trie.c:621-681).
"""

from typing import NamedTuple

from .errors import Rejection
from .intmath import ceil_a, u32
from .records import Allocation, Mempool
from .platform import Platform
from .rib import rib_max_nodes, rib_parts

#: next-hop sizes in bytes -> DPDK's enum value (rte_fib.h RTE_FIB_DIR24_8_*B; rte_fib6.h RTE_FIB6_TRIE_*B)
NH_ENUM = {1: 0, 2: 1, 4: 2, 8: 3}
TYPES = {4: ("dummy", "dir24_8"), 6: ("dummy", "trie")}
TBL24_ENTRIES = 1 << 24  # DIR24_8_TBL24_NUM_ENT / TRIE_TBL24_NUM_ENT
TBL8_GROUP_ENTRIES = 256  # DIR24_8_TBL8_GRP_NUM_ENT / TRIE_TBL8_GRP_NUM_ENT
BITMAP_SLAB_BITS = 64  # BITMAP_SLAB_BIT_SIZE (v22.11:lib/fib/dir24_8.h:22-23)


class FibSpec(NamedTuple):
    """The arguments of ``rte_fib_create`` / ``rte_fib6_create``."""

    family: int
    name: str
    max_routes: int
    type: str = ""
    nh_size: int = 4
    num_tbl8: int = 1 << 15  # what examples/l3fwd/l3fwd_fib.c asks for
    ext_size: int = 0
    default_nh: int = 0

    @property
    def kind(self) -> str:
        return "fib" if self.family == 4 else "fib6"

    @property
    def dp_type(self) -> str:
        return self.type or TYPES[self.family][1]


def max_nh(nh_size: int) -> int:
    """``get_max_nh``: the largest next hop (and tbl8 count) a next-hop size encodes.

    >>> [max_nh(b) for b in (1, 2, 4, 8)]
    [127, 32767, 2147483647, 9223372036854775807]
    """
    return (1 << (8 * nh_size - 1)) - 1


def provided_tbl8(spec: FibSpec) -> int:
    """tbl8 groups DPDK really provides: DIR24_8 rounds up to a multiple of 64 in uint32
    (v22.11:lib/fib/dir24_8.c:518-519); the trie uses the count as given."""
    if spec.dp_type == "dir24_8":
        return u32(ceil_a(spec.num_tbl8, BITMAP_SLAB_BITS))
    return spec.num_tbl8


def _reject(errno: str, reason: str, function: str, source: str) -> Rejection:
    return Rejection(errno=errno, reason=reason, function=function, source=source)


def dataplane(spec: FibSpec, p: Platform) -> tuple[list[Allocation], list[Rejection]]:
    """The rte_malloc allocations of init_dataplane, or DPDK's rejection."""
    r = p.release
    if spec.dp_type == "dummy":
        return [], []
    fn = "dir24_8_create" if spec.family == 4 else "trie_create"
    src = "v22.11:lib/fib/dir24_8.c:504-514" if spec.family == 4 else "v22.11:lib/fib/trie.c:613-623"
    valid = (1, 2, 4, 8) if spec.family == 4 else (2, 4, 8)
    if spec.nh_size not in valid:
        return [], [_reject("EINVAL", f"next-hop size {spec.nh_size} B is not one of {valid}", fn, src)]
    limit = max_nh(spec.nh_size)
    if spec.num_tbl8 == 0:
        return [], [_reject("EINVAL", "num_tbl8 is 0", fn, src)]
    if spec.num_tbl8 > limit:
        return [], [_reject("EINVAL", f"num_tbl8 {spec.num_tbl8} exceeds {limit}, the largest a "
                            f"{spec.nh_size}-byte next hop encodes", fn, src)]
    if spec.default_nh > limit:
        return [], [_reject("EINVAL", f"default next hop {spec.default_nh} exceeds {limit}", fn, src)]
    groups = provided_tbl8(spec)
    head = ceil_a(r.dir24_8_tbl_head if spec.family == 4 else r.trie_tbl_head, p.cache_line)
    allocs = [
        Allocation(name=f"DP_{spec.name}", size=head + TBL24_ENTRIES * spec.nh_size + r.tbl24_extra_bytes,
                   role="dir24_8_tbl + tbl24" if spec.family == 4 else "rte_trie_tbl + tbl24"),
        Allocation(name=f"TBL8_{spec.name}", size=TBL8_GROUP_ENTRIES * spec.nh_size * (groups + 1),
                   role=f"tbl8: {groups} groups + 1"),
    ]
    if spec.family == 4:
        bitmap = ceil_a(groups, 64) >> 3
        if bitmap == 0:
            # num_tbl8 above 0xFFFFFFC0 wraps to 0 groups; rte_zmalloc(0) fails (v22.11:lib/fib/dir24_8.c:547-555)
            return [], [_reject("ENOMEM", f"num_tbl8 {spec.num_tbl8} rounds up to 0 in uint32: the bitmap "
                                "allocation has size 0 and fails", fn, "v22.11:lib/fib/dir24_8.c:518-555")]
        allocs.append(Allocation(name=f"TBL8_idxes_{spec.name}", size=bitmap, role="tbl8 index bitmap"))
    else:
        allocs.append(Allocation(name=f"TBL8_idxes_{spec.name}", size=4 * groups, role="tbl8 index pool"))
    return allocs, []


def fib_parts(spec: FibSpec, flags: int, p: Platform) -> tuple[list[Mempool], list[Allocation], list[Rejection]]:
    """Everything rte_fib_create / rte_fib6_create reserve, in DPDK's order; a later
    rejection frees what came before (v22.11:lib/fib/rte_fib.c:225-238)."""
    r = p.release
    fn = f"rte_{spec.kind}_create"
    src = f"v22.11:lib/fib/rte_{spec.kind}.c:159-163"
    if spec.max_routes < 0:
        return [], [], [_reject("EINVAL", f"max_routes {spec.max_routes} is negative", fn, src)]
    if spec.dp_type not in TYPES[spec.family]:
        return [], [], [_reject("EINVAL", f"type {spec.dp_type!r} is not one of {TYPES[spec.family]}", fn, src)]
    # rib_conf.max_nodes = conf->max_routes * 2, in a C int (v22.11:lib/fib/rte_fib.c:165-166)
    mempools, rib_allocs, errors = rib_parts(spec.name, rib_max_nodes(spec.max_routes), u32(spec.ext_size),
                                             flags, spec.family, p)
    if errors or any(mp.errors for mp in mempools):
        return mempools, rib_allocs, errors
    dp, errors = dataplane(spec, p)
    if errors:
        return [], [], errors
    prefix = "FIB_" if spec.family == 4 else "FIB6_"
    allocs = rib_allocs + [
        Allocation(name=f"{prefix}TAILQ_ENTRY", size=r.tailq_entry_size, role="tailq entry"),
        Allocation(name=prefix + spec.name, size=r.fib_struct_size if spec.family == 4 else r.fib6_struct_size,
                   role=f"struct rte_{spec.kind}"),
    ] + dp
    return mempools, allocs, []
