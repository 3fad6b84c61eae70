"""Flag vocabularies of the objects whose flags are not mempool flags: rte_ring's ``RING_F_*`` and
rte_hash's ``RTE_HASH_EXTRA_FLAGS_*``, as :class:`mpcalc.dpdk.core.flags.FlagSet` (the mempool's is
:data:`mpcalc.dpdk.core.flags.MEMPOOL_FLAGS`).

>>> hex(RING_FLAGS.parse("sp_enq, RING_F_SC_DEQ")), RING_FLAGS.parse("0x14"), RING_FLAGS.names(0x85)
('0x3', 20, ['sp_enq', 'exact_sz', '0x80'])
>>> HASH_FLAGS.parse("RTE_HASH_EXTRA_FLAGS_EXT_TABLE|multi_writer_add"), len(HASH_FLAGS.combinations())
(10, 12)
"""

from __future__ import annotations

from mpcalc.dpdk.core.flags import FlagSet

#: RING_F_* (v22.11:lib/ring/rte_ring_core.h:153-170), identical 21.11-26.07
RING_FLAGS = FlagSet(
    name="ring",
    bits={
        "sp_enq": 0x1,
        "sc_deq": 0x2,
        "exact_sz": 0x4,
        "mp_rts_enq": 0x8,
        "mc_rts_deq": 0x10,
        "mp_hts_enq": 0x20,
        "mc_hts_deq": 0x40,
    },
    prefixes=("RTE_RING_F_", "RING_F_"),
    sizing=("exact_sz",),
)

#: RTE_HASH_EXTRA_FLAGS_* (v22.11:lib/hash/rte_hash.h:34-56), identical 21.11-26.07
HASH_FLAGS = FlagSet(
    name="hash",
    bits={
        "trans_mem_support": 0x1,
        "multi_writer_add": 0x2,
        "rw_concurrency": 0x4,
        "ext_table": 0x8,
        "no_free_on_del": 0x10,
        "rw_concurrency_lf": 0x20,
    },
    prefixes=("RTE_HASH_EXTRA_FLAGS_",),
    sizing=("multi_writer_add", "rw_concurrency", "ext_table", "rw_concurrency_lf"),
    # rw_concurrency with rw_concurrency_lf: EINVAL (v22.11:lib/hash/rte_cuckoo_hash.c:182-188)
    exclusive=((0x4, 0x20),),
)
