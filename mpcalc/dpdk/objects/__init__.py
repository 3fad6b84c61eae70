"""The DPDK objects mpcalc sizes, one module (or folder) each, ending with its declaration
(:class:`mpcalc.dpdk.core.declare.ObjectDecl`): :mod:`.mempool` (``rte_mempool``), :mod:`.ring`,
:mod:`.rib`, :mod:`.fib` (its route planner in :mod:`.routes`), :mod:`.lpm`, :mod:`.lpm6`, :mod:`.hash`,
:mod:`.mbuf`.  They use :mod:`mpcalc.dpdk.core` only and each other.

Pure: stdlib only.
"""
