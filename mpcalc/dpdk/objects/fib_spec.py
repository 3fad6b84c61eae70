"""The arguments of ``rte_fib_create`` / ``rte_fib6_create`` and the limits they imply, shared by the FIB's sizing
(mpcalc.dpdk.objects.fib) and its route file (mpcalc.dpdk.objects.fib_routes).
"""

from typing import NamedTuple

from mpcalc.dpdk.core.intmath import ceil_a, u32

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
    num_tbl8: int = 1 << 15  # DEFAULT_TBL8: what examples/l3fwd/l3fwd_fib.c asks for
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


#: bounded work: the planner replays a route in about two microseconds (mpcalc.dpdk.objects.routes.fast4, fast6)
MAX_PLANNED_ROUTES = 1 << 25
