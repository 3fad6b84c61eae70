"""One profile per FD.io VPP release that changes what mpcalc models: the facts, each cited ``tag:path:line``.

The arithmetic (buffer sizes, pages, pools) is the same at every release checked (v24.10 .. v26.06: the diffs of
src/vlib/buffer.c, physmem.c, src/vppinfra/pmalloc.c and src/plugins/dpdk/buffer.c between them are licence
headers, a ``show buffers detail`` and a ``page size unknown`` check); what changes:

- the DPDK each release bundles (build/external/packages/dpdk.mk: 24.07 at v24.10, 24.11.1 at v25.02/v25.06,
  25.07 at v25.10, 25.11 at v26.02, 26.03 at v26.06);
- the keys of ``dpdk {}`` (``trace-dir``/``trace`` from v26.02, ``enable-mbuf-fast-free``/``trace-bufsz`` at
  v26.06) and of ``cpu {}`` (``relative`` from v25.06);
- ``memory {}`` refuses an unknown key ("unknown 'memory' config input") up to v25.10; from v26.02 it skips it;
- the Tx descriptors are clamped to the driver's ``tx_desc_lim.nb_max`` from v25.02;
- from v26.02 pmalloc falls back to the system page when the machine has no default hugepage size.

Pure: stdlib only.
"""

from __future__ import annotations

from dataclasses import dataclass

#: the releases checked, oldest first
TAGS = ("v24.10", "v25.02", "v25.06", "v25.10", "v26.02", "v26.06")

#: each tag's commit in FDio/vpp
COMMITS = {
    "v24.10": "cfa0953251cbab435307baf3dcd249fd95afaf1f",
    "v25.02": "af12ed005d50809e130b93a4d9c934a961081dcf",
    "v25.06": "1573e751c5478d3914d26cdde153390967932d6b",
    "v25.10": "cbba0451bb0af02a3ab8e163f6f99062782258e6",
    "v26.02": "9258530f3804a152578ce11cc7c8a1e9eab88ed0",
    "v26.06": "c3200b88dc46bd380f00a49ca3392a102cc1980b",
}

#: the DPDK each tag builds (dpdk_version in build/external/packages/dpdk.mk, :22 at v24.10, :24 after)
BUNDLED_DPDK = {
    "v24.10": "24.07",
    "v25.02": "24.11.1",
    "v25.06": "24.11.1",
    "v25.10": "25.07",
    "v26.02": "25.11",
    "v26.06": "26.03",
}

#: fact -> (file, its line at each of TAGS): read from the FDio/vpp mirror at each tag (None: not at that tag)
FACTS: dict[str, tuple[str, tuple[int | None, ...]]] = {
    "alloc_size": ("src/vlib/buffer.c", (479, 479, 479, 479, 447, 447)),
    "alloc_size_fn": ("src/vlib/buffer.c", (472, 472, 472, 472, 440, 440)),
    "n_pages": ("src/vlib/buffer.c", (692, 692, 692, 692, 687, 687)),
    "buffer_gt_page": ("src/vlib/buffer.c", (680, 680, 680, 680, 675, 675)),
    "pool_loop": ("src/vlib/buffer.c", (568, 568, 568, 568, 536, 536)),
    "natural_align": ("src/vlib/buffer.c", (558, 558, 558, 558, 526, 526)),
    "skip_span": ("src/vlib/buffer.c", (574, 574, 574, 574, 542, 542)),
    "waste_one": ("src/vlib/buffer.c", (565, 565, 565, 565, 533, 533)),
    "default_bpn": ("src/vlib/buffer.c", (52, 52, 52, 52, 20, 20)),
    "default_bpn_unpriv": ("src/vlib/buffer.c", (53, 53, 53, 53, 21, 21)),
    "fallback_4k": ("src/vlib/buffer.c", (720, 720, 720, 720, 715, 715)),
    "buffers_keys": ("src/vlib/buffer.c", (958, 958, 958, 958, 954, 954)),
    "numa_buffers_key": ("src/vlib/buffer.c", (932, 932, 932, 932, 928, 928)),
    "numa_zero_skip": ("src/vlib/buffer.c", (862, 862, 862, 862, 858, 858)),
    "parse_error_buffers": ("src/vlib/buffer.c", (935, 935, 935, 935, 931, 931)),
    "show_buffers_size": ("src/vlib/buffer.c", (607, 607, 607, 607, 576, 576)),
    "max_pools": ("src/vlib/buffer.c", (498, 498, 498, 498, 466, 466)),
    "default_data_size": ("src/vlib/buffer.h", (52, 52, 52, 52, 20, 20)),
    "per_thread_cache": ("src/vlib/buffer.h", (457, 457, 457, 457, 425, 425)),
    "ext_hdr_round": ("src/vlib/buffer.h", (543, 543, 543, 543, 511, 511)),
    "pre_data": ("src/vlib/CMakeLists.txt", (31, 31, 31, 31, 31, 31)),
    "buffer_align": ("src/vlib/CMakeLists.txt", (28, 28, 28, 28, 28, 28)),
    "physmem_base": ("src/vlib/physmem.c", (34, 34, 34, 34, 24, 24)),
    "physmem_keys": ("src/vlib/physmem.c", (178, 178, 178, 178, 168, 168)),
    "pmalloc_reserved": ("src/vppinfra/pmalloc.c", (37, 37, 37, 37, 27, 27)),
    "pmalloc_pages": ("src/vppinfra/pmalloc.c", (439, 439, 439, 439, 432, 432)),
    "pmalloc_va": ("src/vppinfra/pmalloc.c", (330, 330, 330, 330, 323, 323)),
    "pmalloc_prealloc": ("src/vppinfra/pmalloc.c", (292, 292, 292, 292, 285, 285)),
    "pmalloc_unsupported": ("src/vppinfra/pmalloc.c", (434, 434, 434, 434, 427, 427)),
    "pmalloc_max_pages": ("src/vppinfra/pmalloc.c", (441, 441, 441, 441, 434, 434)),
    "sysfs_prealloc": ("src/vppinfra/linux/sysfs.c", (228, 228, 228, 228, 218, 218)),
    "ext_hdr_dpdk": ("src/plugins/dpdk/buffer.c", (469, 469, 469, 469, 459, 437)),
    "mp_cached": ("src/plugins/dpdk/buffer.c", (58, 58, 58, 58, 48, 48)),
    "mp_create_cached": ("src/plugins/dpdk/buffer.c", (60, 60, 60, 60, 50, 50)),
    "mp_nocache": ("src/plugins/dpdk/buffer.c", (72, 72, 72, 72, 62, 62)),
    "mp_elt_size": ("src/plugins/dpdk/buffer.c", (49, 49, 49, 49, 39, 39)),
    "mp_fail": ("src/plugins/dpdk/buffer.c", (66, 66, 66, 66, 56, 56)),
    "mp_ops": ("src/plugins/dpdk/buffer.c", (91, 91, 91, 91, 81, 81)),
    "memhdr": ("src/plugins/dpdk/buffer.c", (168, 168, 168, 168, 158, 151)),
    "data_room": ("src/plugins/dpdk/buffer.c", (96, 96, 96, 96, 86, 86)),
    "in_memory": ("src/plugins/dpdk/device/init.c", (1340, 1349, 1351, 1351, 1359, 1402)),
    "prereserve": ("src/plugins/dpdk/device/init.c", (1355, 1364, 1366, 1366, 1374, 1417)),
    "socket_mem_key": ("src/plugins/dpdk/device/init.c", (1250, 1259, 1261, 1261, 1254, 1289)),
    "socket_mem_deprecated": ("src/plugins/dpdk/device/init.c", (1442, 1451, 1462, 1462, 1470, 1513)),
    "no_hugetlb": ("src/plugins/dpdk/device/init.c", (1153, 1162, 1164, 1164, 1157, 1190)),
    "no_telemetry": ("src/plugins/dpdk/device/init.c", (1367, 1376, 1378, 1378, 1386, 1429)),
    "file_prefix_vpp": ("src/plugins/dpdk/device/init.c", (1375, 1384, 1386, 1386, 1394, 1437)),
    "dpdk_unknown": ("src/plugins/dpdk/device/init.c", (1331, 1340, 1342, 1342, 1350, 1393)),
    "dev_unknown": ("src/plugins/dpdk/device/init.c", (1034, 1043, 1045, 1045, 1036, 1069)),
    "rx_desc_default": ("src/plugins/dpdk/device/init.c", (324, 324, 324, 324, 315, 311)),
    "tx_queues_default": ("src/plugins/dpdk/device/init.c", (327, 327, 327, 327, 318, 314)),
    "l3cache_512": ("src/plugins/dpdk/device/init.c", (334, 334, 334, 334, 325, 321)),
    "rx_queues_gt1": ("src/plugins/dpdk/device/init.c", (456, 456, 458, 458, 449, 487)),
    "tx_queues_min": ("src/plugins/dpdk/device/init.c", (454, 454, 456, 456, 447, 485)),
    "rx_desc_devconf": ("src/plugins/dpdk/device/init.c", (497, 497, 499, 499, 490, 523)),
    "tx_desc_clamp": ("src/plugins/dpdk/device/init.c", (None, 511, 513, 513, 504, 537)),
    "workers_rxq": ("src/plugins/dpdk/device/init.c", (1044, 1053, 1055, 1055, 1046, 1079)),
    "desc_default": ("src/plugins/dpdk/device/dpdk_priv.h", (16, 16, 16, 16, 6, 6)),
    "virtio_256": ("src/plugins/dpdk/device/driver.c", (124, 125, 126, 126, 126, 129)),
    "driver_find": ("src/plugins/dpdk/device/init.c", (382, 382, 382, 382, 373, 370)),
    "rx_desc_driver": ("src/plugins/dpdk/device/init.c", (498, 498, 500, 500, 491, 524)),
    "tx_desc_driver": ("src/plugins/dpdk/device/init.c", (503, 503, 505, 505, 496, 529)),
    "tx_desc_warn": ("src/plugins/dpdk/device/init.c", (None, 508, 510, 510, 501, 534)),
    "devargs_key": ("src/plugins/dpdk/device/init.c", (1024, 1033, 1035, 1035, 1026, 1059)),
    "devconf_copy": ("src/plugins/dpdk/device/init.c", (1387, 1396, 1407, 1407, 1415, 1458)),
    "allow_arg": ("src/plugins/dpdk/device/init.c", (1415, 1424, 1435, 1435, 1443, 1486)),
    "vmxnet3_blocked": ("src/plugins/dpdk/device/init.c", (706, 714, 716, 716, 707, 740)),
    "tx_setup_first": ("src/plugins/dpdk/device/common.c", (208, 210, 210, 212, 202, 255)),
    "offload_wishlist": ("src/plugins/dpdk/device/common.c", (88, 90, 90, 91, 81, 154)),
    "tx_cksum_default": ("src/plugins/dpdk/device/common.c", (100, 102, 102, 103, 93, 166)),
    "fast_free": ("src/plugins/dpdk/device/common.c", (None, None, None, None, None, 189)),
    "offload_mask": ("src/plugins/dpdk/device/common.c", (126, 128, 128, 130, 120, 193)),
    "tso_on": ("src/plugins/dpdk/device/init.c", (576, 584, 586, 586, 577, 610)),
    "tso_key": ("src/plugins/dpdk/device/init.c", (1016, 1025, 1027, 1027, 1018, 1051)),
    "tso_copy": ("src/plugins/dpdk/device/init.c", (1395, 1404, 1415, 1415, 1423, 1466)),
    "tcp_udp_cksum_key": ("src/plugins/dpdk/device/init.c", (1161, 1170, 1172, 1172, 1165, 1198)),
    "disable_rx_scatter": ("src/plugins/dpdk/device/init.c", (387, 387, 387, 387, 378, 375)),
    "statseg_default": ("src/vlib/stats/stats.h", (13, 13, 13, 13, 13, 13)),
    "statseg_unknown": ("src/vlib/stats/init.c", (162, 162, 163, 163, 163, 163)),
    "statseg_size_key": ("src/vlib/stats/init.c", (149, 149, 150, 150, 150, 150)),
    "statseg_page": ("src/vlib/stats/init.c", (66, 66, 67, 67, 67, 67)),
    "main_heap_default": ("src/vpp/vnet/main.c", (118, 118, 118, 118, 103, 103)),
    "memory_unknown": ("src/vpp/vnet/main.c", (313, 313, 316, 316, None, None)),
    "memory_skip": ("src/vpp/vnet/main.c", (None, None, None, None, 292, 292)),
    "main_heap_page": ("src/vpp/vnet/main.c", (303, 303, 306, 306, 288, 288)),
    "cpu_workers": ("src/vlib/threads.c", (1202, 1214, 1182, 1182, 1151, 1193)),
    "cpu_corelist": ("src/vlib/threads.c", (1173, 1185, 1153, 1153, 1122, 1164)),
    "cpu_break": ("src/vlib/threads.c", (1219, 1231, 1199, 1199, 1168, 1210)),
    "config_unknown": ("src/vlib/init.c", (449, 449, 449, 449, 417, 417)),
}


#: the keys of dpdk {} besides those of every release (dpdk_config, src/plugins/dpdk/device/init.c)
_DPDK_KEYS_ADDED = {
    "v26.02": ("trace-dir", "trace"),
    "v26.06": ("enable-mbuf-fast-free", "trace-bufsz"),
}


@dataclass(frozen=True)
class Profile:
    """What one VPP release does, as mpcalc models it."""

    tag: str

    @property
    def version(self) -> str:
        """``25.02`` for ``v25.02``."""
        return self.tag[1:]

    @property
    def commit(self) -> str:
        return COMMITS[self.tag]

    @property
    def bundled_dpdk(self) -> str:
        return BUNDLED_DPDK[self.tag]

    def _index(self) -> int:
        return TAGS.index(self.tag)

    def line(self, fact: str) -> int | None:
        return FACTS[fact][1][self._index()]

    def cite(self, *facts: str) -> str:
        """``v25.02:src/vlib/buffer.c:479`` (several facts of one file: ``...:472, 479``)."""
        path = FACTS[facts[0]][0]
        nums = [self.line(f) for f in facts]
        return f"{self.tag}:{path}:" + ", ".join(str(n) for n in nums if n is not None)

    def since(self, tag: str) -> bool:
        return self._index() >= TAGS.index(tag)

    @property
    def dpdk_keys_added(self) -> tuple[str, ...]:
        """The keys of ``dpdk {}`` this release has beyond v24.10's."""
        return tuple(k for t, keys in _DPDK_KEYS_ADDED.items() if self.since(t) for k in keys)

    @property
    def memory_refuses_unknown(self) -> bool:
        """``memory {}``: an unknown key exits with "unknown 'memory' config input" up to v25.10; from v26.02
        the loop skips it (``%v``, src/vpp/vnet/main.c)."""
        return not self.since("v26.02")

    @property
    def cpu_relative(self) -> bool:
        """``cpu { relative }`` exists from v25.06 (src/vlib/threads.c)."""
        return self.since("v25.06")

    @property
    def tx_desc_clamped(self) -> bool:
        """From v25.02 the Tx descriptors are clamped to ``tx_desc_lim.nb_max`` (src/plugins/dpdk/device/init.c)."""
        return self.line("tx_desc_clamp") is not None

    def to_dict(self) -> dict[str, object]:
        return {"tag": self.tag, "commit": self.commit, "bundled_dpdk": self.bundled_dpdk}


PROFILES = {t[1:]: Profile(t) for t in TAGS}
#: the profile used when none is named: the newest
DEFAULT = TAGS[-1][1:]


def profile(version: str | None) -> Profile:
    """The profile of ``25.02`` (or ``v25.02``); the newest for None.  An unknown release is refused by the
    caller's Param (its choices are :data:`PROFILES`)."""
    key = (version or DEFAULT).lstrip("v")
    return PROFILES[key]
