"""The ``rte_eth_dev_data`` memzone: ethdev's shared port data, reserved when the first port is allocated.

``eth_dev_shared_data_prepare`` reserves ``sizeof(struct eth_dev_shared)`` as memzone
``rte_eth_dev_data`` (v22.11:lib/ethdev/ethdev_private.c:329-331; v21.11:lib/ethdev/rte_ethdev.c:413;
v23.11:lib/ethdev/ethdev_private.c:336): a header (``next_owner_id`` and a spinlock up to 22.11,
v22.11:lib/ethdev/ethdev_private.h:15-19; three uint64_t from 23.11, v23.11:lib/ethdev/ethdev_private.h:16-21)
then ``struct rte_eth_dev_data data[RTE_MAX_ETHPORTS]``, each cache aligned
(v22.11:lib/ethdev/ethdev_driver.h:98-190).  RTE_MAX_ETHPORTS is meson's ``max_ethports``, 32 by default
(v22.11:meson_options.txt:37, config/meson.build:311).

``struct rte_eth_dev_data`` ends with its ``pthread_mutex_t flow_ops_mutex`` at offset 6,096 in 22.11 on
LP64 (the sum of its members: the 64-byte name, the queue pointers, the 2,272-byte ``struct rte_eth_conf``,
128 MAC pool selectors, 2 x RTE_MAX_QUEUES_PER_PORT 1,024 queue states, ...); 21.11's ``rte_eth_conf``
also holds the 808-byte ``struct rte_eth_fdir_conf`` (v21.11:lib/ethdev/rte_ethdev.h:1459-1468,1540);
from 23.11 ``struct rte_eth_rss_conf`` gains ``enum rte_eth_hash_function algorithm``
(v23.11:lib/ethdev/rte_ethdev.h:504), 8 bytes with its padding.  glibc's pthread_mutex_t is 48 bytes on
aarch64 and 40 on the other 64-bit targets.  Measured: 196,672 bytes (64 + 32 x 6,144) in Debian's 22.11
on x86_64 (tests/conformance/test_ovs_real.py).
"""

from mpcalc.dpdk.core.facts import version_key
from mpcalc.dpdk.core.heap import memzone_len
from mpcalc.dpdk.core.intmath import ceil_a
from mpcalc.dpdk.core.platform import Platform
from mpcalc.dpdk.core.records import Memzone

RTE_MAX_ETHPORTS = 32
MZ_RTE_ETH_DEV_DATA = "rte_eth_dev_data"
#: offset of flow_ops_mutex in struct rte_eth_dev_data, 22.11 on LP64
_MUTEX_OFFSET_2211 = 6096


def dev_data_size(p: Platform) -> int:
    """``sizeof(struct rte_eth_dev_data)`` on the platform."""
    offset = _MUTEX_OFFSET_2211
    if version_key(p.dpdk) < (22, 11):
        offset += 808  # struct rte_eth_fdir_conf fdir_conf in struct rte_eth_conf
    elif version_key(p.dpdk) >= (23, 11):
        offset += 8  # enum rte_eth_hash_function algorithm in struct rte_eth_rss_conf
    mutex = 48 if p.arch == "arm64" else 40
    return ceil_a(offset + mutex, p.cache_line)


def shared_data_zone(p: Platform) -> Memzone:
    """The ``rte_eth_dev_data`` memzone."""
    header = 12 if version_key(p.dpdk) < (23, 11) else 24
    size = ceil_a(header, p.cache_line) + RTE_MAX_ETHPORTS * dev_data_size(p)
    return Memzone(MZ_RTE_ETH_DEV_DATA, memzone_len(size, p), "ethdev shared data")
