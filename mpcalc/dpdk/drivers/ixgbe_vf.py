"""net_ixgbe_vf: the SR-IOV VFs of the 82599/X540/X550/E610 (what a container's ixgbe VF is).

The same queue set-up as the PF (ixgbe_dev_rx_queue_setup / ixgbe_dev_tx_queue_setup are the VF's too, in
ixgbevf_eth_dev_ops): see :mod:`.ixgbe`; the VF's queue count is hw->mac.max_rx_queues of the VF MAC
(IXGBE_VF_MAX_RX_QUEUES 8), ``-a ADDR,max_queues=N`` for another. From the driver's source, not run.

Pure: stdlib only.
"""

from __future__ import annotations

import sys

from mpcalc.dpdk.drivers.ixgbe import (  # noqa: F401  (the PF's figures are the VF's)
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

NAME = "net_ixgbe_vf"
PROPS = ("max_queues",)
IXGBE_VF_MAX_QUEUES = 8


def max_queues(rel: str, dev: dict[str, object] | None = None) -> tuple[int, int]:
    n = dev_int(dev, "max_queues", IXGBE_VF_MAX_QUEUES)
    return n, n


PMD = declare(sys.modules[__name__], name=NAME, source="drivers/net/intel/ixgbe", kernel_drivers=("ixgbevf",))
