"""mpcalc: exact DPDK mempool, RIB and FIB memory footprints, offline."""

__version__ = "0.1.0"
