"""net_e1000_igb_vf: the SR-IOV VFs of the 82576 and I350.

The same queue set-up as the PF (eth_igb_rx_queue_setup / eth_igb_tx_queue_setup are igbvf_eth_dev_ops' too):
see :mod:`.igb`; the VF has 2 queues (82576 VF) or 1 (I350 VF), ``-a ADDR,max_queues=N``. From the driver's
source, not run.

Pure: stdlib only.
"""

from __future__ import annotations

import sys

from mpcalc.dpdk.drivers.igb import (  # noqa: F401  (the PF's figures are the VF's)
    KEYS,
    LINES,
    PROVENANCE,
    SIZES,
    SOURCE,
    STRUCTS,
    default_ring,
    desc_lim,
    probe,
    rx_queue_setup,
    tx_queue_setup,
)
from mpcalc.dpdk.drivers.pcibase import dev_int
from mpcalc.dpdk.drivers.pcipmd import declare

NAME = "net_e1000_igb_vf"
PROPS = ("max_queues",)


def max_queues(rel: str, dev: dict[str, object] | None = None) -> tuple[int, int]:
    n = dev_int(dev, "max_queues", 2)
    return n, n


PMD = declare(sys.modules[__name__], name=NAME, source="drivers/net/intel/e1000", kernel_drivers=("igbvf",))
