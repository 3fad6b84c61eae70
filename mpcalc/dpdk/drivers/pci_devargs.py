"""The devargs the PCI PMDs modelled read from their ``-a ADDR,key=value,...``, at each release.

Read from each driver's kvargs parsing at the stable tags of :data:`.pcibase.TAGS`, macros resolved in the
driver's own headers (mlx5's in drivers/common/mlx5, ``class`` in lib/eal/include/rte_devargs.h):

* ``keys``: the keys it reads: the valid-args array it passes to ``rte_kvargs_parse`` (ixgbe, i40e, ice, iavf,
  ena, bnxt), the keys it looks up in a list parsed with no valid-args array (virtio's ``rte_kvargs_count``), or
  the keys its handlers compare (mlx5: at 21.11 ``mlx5_args_check`` and the common handler; from 22.11 the
  ``params`` arrays of ``mlx5_common_config_get``, ``mlx5_shared_dev_ctx_args_config`` and
  ``mlx5_port_args_config``, which ``mlx5_kvargs_validate`` holds every key to); ``keys_at`` where;
* ``ethdev``: the keys ethdev's ``rte_eth_devargs_parse`` reads for it in its probe (``representor``), outside its
  own array (ixgbe, i40e);
* ``unknown``: what it does with a key it does not know: :data:`NONE` (it parses no devargs: e1000, igb, igc,
  vmxnet3 never call ``rte_kvargs_parse``; EAL hands them the devargs and they ignore them), :data:`REFUSE`
  (its parse fails and its probe with it: ``said`` its log line, ``said_at`` where, ``fails_at`` the probe's
  failure), :data:`DROP` (its ``rte_kvargs_parse`` fails, it reads none of its keys and probes on: ixgbe, i40e),
  :data:`WARN` (it logs the key and probes on: mlx5 at 21.11), :data:`IGNORE` (it reads its own keys and passes
  over the others: virtio);
* ``leaves``: a key and value with which its probe leaves the device to another driver (``cap=dcf``: iavf's
  probe returns 1 for net_ice_dcf; ``vdpa=1``: virtio's, for a vDPA driver; mlx5's ``class=`` without ``eth``
  or ``net``).

Each field is a table per PMD name (per release, or a key's first and last release, as :mod:`.pci_ids` keeps its
ids), each citation ``path:line`` at the release's tag; :func:`parsing` gives one driver's at one release, its
citations ``tag:path:line``. ``PROBE_FAILED`` is EAL's line for a device whose
driver's probe failed (the device is not a port). Generated data; tests/conformance/test_pci_devargs.py holds
it to the mirror. Pure: stdlib only.
"""

from __future__ import annotations

from typing import NamedTuple

from mpcalc.dpdk.drivers.pcibase import TAGS

#: what a driver does with a devargs key it does not know
NONE = "none"
REFUSE = "refuse"
DROP = "drop"
WARN = "warn"
IGNORE = "ignore"


class Leave(NamedTuple):
    """A devarg with which the driver's probe leaves the device to another driver: its value ``value``, or for a
    list of names (mlx5's ``class=eth:regex``) none of ``unless``."""

    key: str
    value: str
    unless: tuple[str, ...]
    cite: str


class Devargs(NamedTuple):
    """One driver's devargs parsing at one release (:func:`parsing`; the module's docstring says each field)."""

    keys: tuple[str, ...]
    keys_at: str
    unknown: str
    said_at: str = ""
    said: str = ""
    #: what the log line's ``%s`` prints: ``key`` (the unknown key) or ``args`` (the whole devargs string)
    fills: str = ""
    fails_at: str = ""
    ethdev: tuple[str, ...] = ()
    ethdev_at: str = ""
    leaves: tuple[Leave, ...] = ()


#: pmd -> each key its devargs parsing reads -> (first release, last release or "")
KEYS: dict[str, dict[str, tuple[str, str]]] = {
    "net_e1000_em": {},
    "net_e1000_igb": {},
    "net_e1000_igb_vf": {},
    "net_igc": {},
    "net_ixgbe": {
        "fiber_sdp3_no_tx_disable": ("21.11", ""),
    },
    "net_ixgbe_vf": {
        "pflink_fullchk": ("21.11", ""),
    },
    "net_i40e": {
        "enable_floating_veb": ("21.11", ""),
        "floating_veb_list": ("21.11", ""),
        "mbuf_check": ("24.11", ""),
        "queue-num-per-vf": ("21.11", ""),
        "support-multi-driver": ("21.11", ""),
        "vf_msg_cfg": ("21.11", ""),
    },
    "net_ice": {
        "ddp_load_sched_topo": ("24.11", ""),
        "ddp_pkg_file": ("24.11", ""),
        "default-mac-disable": ("23.11", ""),
        "field_name": ("22.11", ""),
        "field_offs": ("22.11", ""),
        "hw_debug_mask": ("21.11", ""),
        "link_state_on_close": ("25.11", ""),
        "mbuf_check": ("24.11", ""),
        "pipeline-mode-support": ("21.11", "22.11"),
        "pps_out": ("21.11", ""),
        "proto_xtr": ("21.11", ""),
        "rl_burst_size": ("26.07", ""),
        "rx_low_latency": ("21.11", ""),
        "safe-mode-support": ("21.11", ""),
        "source-prune": ("25.11", ""),
        "tm_sched_levels": ("24.11", ""),
    },
    "net_iavf": {
        "auto_reconfig": ("26.07", ""),
        "auto_reset": ("23.11", ""),
        "enable_ptype_lldp": ("26.07", ""),
        "mbuf_check": ("24.11", ""),
        "no-poll-on-link-down": ("23.11", ""),
        "proto_xtr": ("21.11", ""),
        "quanta_size": ("22.11", ""),
        "watchdog_period": ("23.11", ""),
    },
    "net_vmxnet3": {},
    "net_virtio": {
        "speed": ("21.11", ""),
        "vdpa": ("21.11", ""),
        "vectorized": ("21.11", ""),
    },
    "net_ena": {
        "control_path_poll_interval": ("24.11", ""),
        "enable_frag_bypass": ("25.11", ""),
        "enable_llq": ("22.11", "23.11"),
        "large_llq_hdr": ("21.11", "23.11"),
        "llq_policy": ("24.11", ""),
        "miss_txc_to": ("22.11", ""),
    },
    "net_bnxt": {
        "app-id": ("21.11", ""),
        "app-instance-id": ("25.11", ""),
        "cqe-mode": ("24.11", ""),
        "flow-xstat": ("21.11", ""),
        "ieee-1588": ("23.11", ""),
        "max-num-kflows": ("21.11", ""),
        "mpc": ("24.11", ""),
        "rep-based-pf": ("21.11", ""),
        "rep-fc-f2r": ("21.11", ""),
        "rep-fc-r2f": ("21.11", ""),
        "rep-is-pf": ("21.11", ""),
        "rep-q-f2r": ("21.11", ""),
        "rep-q-r2f": ("21.11", ""),
        "representor": ("21.11", ""),
        "scalar-mode": ("25.11", ""),
    },
    "mlx5_pci": {
        "allow_duplicate_pattern": ("21.11", ""),
        "class": ("21.11", ""),
        "cmd_fd": ("22.11", ""),
        "decap_en": ("21.11", ""),
        "delay_drop": ("21.11", ""),
        "driver": ("21.11", ""),
        "dv_esw_en": ("21.11", ""),
        "dv_flow_en": ("21.11", ""),
        "dv_xmeta_en": ("21.11", ""),
        "fdb_def_rule_en": ("22.11", ""),
        "hp_buf_log_sz": ("21.11", ""),
        "l3_vxlan_en": ("21.11", ""),
        "lacp_by_user": ("21.11", ""),
        "lro_timeout_usec": ("21.11", ""),
        "max_dump_files_num": ("21.11", ""),
        "mprq_en": ("21.11", ""),
        "mprq_log_stride_num": ("21.11", ""),
        "mprq_log_stride_size": ("21.11", ""),
        "mprq_max_memcpy_len": ("21.11", ""),
        "mr_ext_memseg_en": ("21.11", ""),
        "mr_mempool_reg_en": ("21.11", ""),
        "pd_handle": ("22.11", ""),
        "probe_opt_en": ("25.11", ""),
        "reclaim_mem_mode": ("21.11", ""),
        "repr_matching_en": ("22.11", "24.11"),
        "representor": ("21.11", ""),
        "rx_vec_en": ("21.11", ""),
        "rxq_cqe_comp_en": ("21.11", ""),
        "rxq_pkt_pad_en": ("21.11", ""),
        "rxqs_min_mprq": ("21.11", ""),
        "service_core": ("22.11", ""),
        "sq_db_nc": ("22.11", ""),
        "svc_cycle_time": ("22.11", ""),
        "sys_mem_en": ("21.11", ""),
        "tx_burst_bound": ("26.07", ""),
        "tx_db_nc": ("21.11", ""),
        "tx_pp": ("21.11", ""),
        "tx_skew": ("21.11", ""),
        "tx_typical_pkt_sz": ("26.07", ""),
        "tx_vec_en": ("21.11", ""),
        "txq_inline": ("21.11", ""),
        "txq_inline_max": ("21.11", ""),
        "txq_inline_min": ("21.11", ""),
        "txq_inline_mpw": ("21.11", ""),
        "txq_max_inline_len": ("21.11", ""),
        "txq_mem_algn": ("25.11", ""),
        "txq_mpw_en": ("21.11", ""),
        "txq_mpw_hdr_dseg_en": ("21.11", ""),
        "txqs_max_vec": ("21.11", ""),
        "txqs_min_inline": ("21.11", ""),
        "vf_nl_en": ("21.11", ""),
    },
}

#: pmd -> release -> where its keys are (its valid-args arrays, or the functions that read them)
KEYS_AT: dict[str, dict[str, str]] = {
    "net_e1000_em": {
        "21.11": "drivers/net/e1000/em_ethdev.c:1830",
        "22.11": "drivers/net/e1000/em_ethdev.c:1910",
        "23.11": "drivers/net/e1000/em_ethdev.c:1925",
        "24.11": "drivers/net/e1000/em_ethdev.c:1925",
        "25.11": "drivers/net/intel/e1000/em_ethdev.c:1960",
        "26.07": "drivers/net/intel/e1000/em_ethdev.c:2029",
    },
    "net_e1000_igb": {
        "21.11": "drivers/net/e1000/igb_ethdev.c:5381",
        "22.11": "drivers/net/e1000/igb_ethdev.c:5559",
        "23.11": "drivers/net/e1000/igb_ethdev.c:5559",
        "24.11": "drivers/net/e1000/igb_ethdev.c:5628",
        "25.11": "drivers/net/intel/e1000/igb_ethdev.c:5696",
        "26.07": "drivers/net/intel/e1000/igb_ethdev.c:5696",
    },
    "net_e1000_igb_vf": {
        "21.11": "drivers/net/e1000/igb_ethdev.c:5384",
        "22.11": "drivers/net/e1000/igb_ethdev.c:5562",
        "23.11": "drivers/net/e1000/igb_ethdev.c:5562",
        "24.11": "drivers/net/e1000/igb_ethdev.c:5631",
        "25.11": "drivers/net/intel/e1000/igb_ethdev.c:5699",
        "26.07": "drivers/net/intel/e1000/igb_ethdev.c:5699",
    },
    "net_igc": {
        "21.11": "drivers/net/igc/igc_ethdev.c:2600",
        "22.11": "drivers/net/igc/igc_ethdev.c:2688",
        "23.11": "drivers/net/igc/igc_ethdev.c:3003",
        "24.11": "drivers/net/igc/igc_ethdev.c:3006",
        "25.11": "drivers/net/intel/e1000/igc_ethdev.c:3013",
        "26.07": "drivers/net/intel/e1000/igc_ethdev.c:3012",
    },
    "net_ixgbe": {
        "21.11": "drivers/net/ixgbe/ixgbe_ethdev.c:133",
        "22.11": "drivers/net/ixgbe/ixgbe_ethdev.c:133",
        "23.11": "drivers/net/ixgbe/ixgbe_ethdev.c:133",
        "24.11": "drivers/net/ixgbe/ixgbe_ethdev.c:134",
        "25.11": "drivers/net/intel/ixgbe/ixgbe_ethdev.c:134",
        "26.07": "drivers/net/intel/ixgbe/ixgbe_ethdev.c:132",
    },
    "net_ixgbe_vf": {
        "21.11": "drivers/net/ixgbe/ixgbe_ethdev.c:140",
        "22.11": "drivers/net/ixgbe/ixgbe_ethdev.c:140",
        "23.11": "drivers/net/ixgbe/ixgbe_ethdev.c:140",
        "24.11": "drivers/net/ixgbe/ixgbe_ethdev.c:141",
        "25.11": "drivers/net/intel/ixgbe/ixgbe_ethdev.c:141",
        "26.07": "drivers/net/intel/ixgbe/ixgbe_ethdev.c:139",
    },
    "net_i40e": {
        "21.11": "drivers/net/i40e/i40e_ethdev.c:408",
        "22.11": "drivers/net/i40e/i40e_ethdev.c:409",
        "23.11": "drivers/net/i40e/i40e_ethdev.c:409",
        "24.11": "drivers/net/i40e/i40e_ethdev.c:414",
        "25.11": "drivers/net/intel/i40e/i40e_ethdev.c:414",
        "26.07": "drivers/net/intel/i40e/i40e_ethdev.c:414",
    },
    "net_ice": {
        "21.11": "drivers/net/ice/ice_ethdev.c:41",
        "22.11": "drivers/net/ice/ice_ethdev.c:43",
        "23.11": "drivers/net/ice/ice_ethdev.c:43",
        "24.11": "drivers/net/ice/ice_ethdev.c:50",
        "25.11": "drivers/net/intel/ice/ice_ethdev.c:49",
        "26.07": "drivers/net/intel/ice/ice_ethdev.c:51",
    },
    "net_iavf": {
        "21.11": "drivers/net/iavf/iavf_ethdev.c:38",
        "22.11": "drivers/net/iavf/iavf_ethdev.c:43",
        "23.11": "drivers/net/iavf/iavf_ethdev.c:45",
        "24.11": "drivers/net/iavf/iavf_ethdev.c:49",
        "25.11": "drivers/net/intel/iavf/iavf_ethdev.c:50",
        "26.07": "drivers/net/intel/iavf/iavf_ethdev.c:53",
    },
    "net_vmxnet3": {
        "21.11": "drivers/net/vmxnet3/vmxnet3_ethdev.c:1715",
        "22.11": "drivers/net/vmxnet3/vmxnet3_ethdev.c:1872",
        "23.11": "drivers/net/vmxnet3/vmxnet3_ethdev.c:1978",
        "24.11": "drivers/net/vmxnet3/vmxnet3_ethdev.c:1981",
        "25.11": "drivers/net/vmxnet3/vmxnet3_ethdev.c:1983",
        "26.07": "drivers/net/vmxnet3/vmxnet3_ethdev.c:1983",
    },
    "net_virtio": {
        "21.11": "drivers/net/virtio/virtio_ethdev.c:2509; drivers/net/virtio/virtio_pci_ethdev.c:165",
        "22.11": "drivers/net/virtio/virtio_ethdev.c:2507; drivers/net/virtio/virtio_pci_ethdev.c:165",
        "23.11": "drivers/net/virtio/virtio_ethdev.c:2069; drivers/net/virtio/virtio_pci_ethdev.c:165",
        "24.11": "drivers/net/virtio/virtio_ethdev.c:2069; drivers/net/virtio/virtio_pci_ethdev.c:165",
        "25.11": "drivers/net/virtio/virtio_ethdev.c:2176; drivers/net/virtio/virtio_pci_ethdev.c:165",
        "26.07": "drivers/net/virtio/virtio_ethdev.c:2176; drivers/net/virtio/virtio_pci_ethdev.c:166",
    },
    "net_ena": {
        "21.11": "drivers/net/ena/ena_ethdev.c:3103",
        "22.11": "drivers/net/ena/ena_ethdev.c:3519",
        "23.11": "drivers/net/ena/ena_ethdev.c:3692",
        "24.11": "drivers/net/ena/ena_ethdev.c:3808",
        "25.11": "drivers/net/ena/ena_ethdev.c:3937",
        "26.07": "drivers/net/ena/ena_ethdev.c:3937",
    },
    "net_bnxt": {
        "21.11": "drivers/net/bnxt/bnxt_ethdev.c:101",
        "22.11": "drivers/net/bnxt/bnxt_ethdev.c:101",
        "23.11": "drivers/net/bnxt/bnxt_ethdev.c:102",
        "24.11": "drivers/net/bnxt/bnxt_ethdev.c:111",
        "25.11": "drivers/net/bnxt/bnxt_ethdev.c:113",
        "26.07": "drivers/net/bnxt/bnxt_ethdev.c:113",
    },
    "mlx5_pci": {
        "21.11": "drivers/net/mlx5/mlx5.c:1871; drivers/common/mlx5/mlx5_common.c:109",
        "22.11": "drivers/common/mlx5/mlx5_common.c:316; drivers/net/mlx5/mlx5.c:1340,2481",
        "23.11": "drivers/common/mlx5/mlx5_common.c:317; drivers/net/mlx5/mlx5.c:1484,2716",
        "24.11": "drivers/common/mlx5/mlx5_common.c:317; drivers/net/mlx5/mlx5.c:1495,2848",
        "25.11": "drivers/common/mlx5/mlx5_common.c:334; drivers/net/mlx5/mlx5.c:1483,2844",
        "26.07": "drivers/common/mlx5/mlx5_common.c:334; drivers/net/mlx5/mlx5.c:1499,2885",
    },
}

#: pmd -> (first release, last release or "", what it does with a key it does not know)
UNKNOWN: dict[str, tuple[tuple[str, str, str], ...]] = {
    "net_e1000_em": (("21.11", "", NONE),),
    "net_e1000_igb": (("21.11", "", NONE),),
    "net_e1000_igb_vf": (("21.11", "", NONE),),
    "net_igc": (("21.11", "", NONE),),
    "net_ixgbe": (("21.11", "", DROP),),
    "net_ixgbe_vf": (("21.11", "", DROP),),
    "net_i40e": (("21.11", "", DROP),),
    "net_ice": (("21.11", "", REFUSE),),
    "net_iavf": (("21.11", "", REFUSE),),
    "net_vmxnet3": (("21.11", "", NONE),),
    "net_virtio": (("21.11", "", IGNORE),),
    "net_ena": (("21.11", "", REFUSE),),
    "net_bnxt": (("21.11", "", REFUSE),),
    "mlx5_pci": (
        ("21.11", "21.11", WARN),
        ("22.11", "", REFUSE),
    ),
}

#: pmd -> (first release, last release or "", its log line for a key it does not know, what its %s prints)
SAID: dict[str, tuple[tuple[str, str, str, str], ...]] = {
    "net_ice": (("21.11", "", "Invalid kvargs key", ""),),
    "net_iavf": (("21.11", "", "invalid kvargs key", ""),),
    "net_ena": (("21.11", "", "Invalid device arguments: %s", "args"),),
    "mlx5_pci": (
        ("21.11", "21.11", "%s: unknown parameter, maybe it's for another class.", "key"),
        ("22.11", "", 'Key "%s" is unknown for the provided classes.', "key"),
    ),
}

#: pmd -> release -> where it logs that line, or where its parse fails
SAID_AT: dict[str, dict[str, str]] = {
    "net_ixgbe": {
        "21.11": "drivers/net/ixgbe/ixgbe_ethdev.c:1054",
        "22.11": "drivers/net/ixgbe/ixgbe_ethdev.c:1054",
        "23.11": "drivers/net/ixgbe/ixgbe_ethdev.c:1056",
        "24.11": "drivers/net/ixgbe/ixgbe_ethdev.c:1065",
        "25.11": "drivers/net/intel/ixgbe/ixgbe_ethdev.c:1069",
        "26.07": "drivers/net/intel/ixgbe/ixgbe_ethdev.c:1067",
    },
    "net_ixgbe_vf": {
        "21.11": "drivers/net/ixgbe/ixgbe_ethdev.c:1576",
        "22.11": "drivers/net/ixgbe/ixgbe_ethdev.c:1572",
        "23.11": "drivers/net/ixgbe/ixgbe_ethdev.c:1572",
        "24.11": "drivers/net/ixgbe/ixgbe_ethdev.c:1581",
        "25.11": "drivers/net/intel/ixgbe/ixgbe_ethdev.c:1585",
        "26.07": "drivers/net/intel/ixgbe/ixgbe_ethdev.c:1584",
    },
    "net_i40e": {
        "21.11": "drivers/net/i40e/i40e_ethdev.c:897,938,1289,1385,4733",
        "22.11": "drivers/net/i40e/i40e_ethdev.c:898,939,1290,1386,4743",
        "23.11": "drivers/net/i40e/i40e_ethdev.c:901,942,1293,1389,4729",
        "24.11": "drivers/net/i40e/i40e_ethdev.c:918,959,1310,1457,1494,4876",
        "25.11": "drivers/net/intel/i40e/i40e_ethdev.c:918,959,1310,1457,1494,4877",
        "26.07": "drivers/net/intel/i40e/i40e_ethdev.c:918,959,1310,1457,1494,4871",
    },
    "net_ice": {
        "21.11": "drivers/net/ice/ice_ethdev.c:1960",
        "22.11": "drivers/net/ice/ice_ethdev.c:2050",
        "23.11": "drivers/net/ice/ice_ethdev.c:2072",
        "24.11": "drivers/net/ice/ice_ethdev.c:2294",
        "25.11": "drivers/net/intel/ice/ice_ethdev.c:2395",
        "26.07": "drivers/net/intel/ice/ice_ethdev.c:2433",
    },
    "net_iavf": {
        "21.11": "drivers/net/iavf/iavf_ethdev.c:2173",
        "22.11": "drivers/net/iavf/iavf_ethdev.c:2246",
        "23.11": "drivers/net/iavf/iavf_ethdev.c:2316",
        "24.11": "drivers/net/iavf/iavf_ethdev.c:2403",
        "25.11": "drivers/net/intel/iavf/iavf_ethdev.c:2409",
        "26.07": "drivers/net/intel/iavf/iavf_ethdev.c:2478",
    },
    "net_virtio": {
        "21.11": "drivers/net/virtio/virtio_ethdev.c:2517; drivers/net/virtio/virtio_pci_ethdev.c:173",
        "22.11": "drivers/net/virtio/virtio_ethdev.c:2515; drivers/net/virtio/virtio_pci_ethdev.c:173",
        "23.11": "drivers/net/virtio/virtio_ethdev.c:2077; drivers/net/virtio/virtio_pci_ethdev.c:173",
        "24.11": "drivers/net/virtio/virtio_ethdev.c:2077; drivers/net/virtio/virtio_pci_ethdev.c:173",
        "25.11": "drivers/net/virtio/virtio_ethdev.c:2184; drivers/net/virtio/virtio_pci_ethdev.c:173",
        "26.07": "drivers/net/virtio/virtio_ethdev.c:2184; drivers/net/virtio/virtio_pci_ethdev.c:174",
    },
    "net_ena": {
        "21.11": "drivers/net/ena/ena_ethdev.c:3115",
        "22.11": "drivers/net/ena/ena_ethdev.c:3533",
        "23.11": "drivers/net/ena/ena_ethdev.c:3706",
        "24.11": "drivers/net/ena/ena_ethdev.c:3822",
        "25.11": "drivers/net/ena/ena_ethdev.c:3952",
        "26.07": "drivers/net/ena/ena_ethdev.c:3952",
    },
    "net_bnxt": {
        "21.11": "drivers/net/bnxt/bnxt_ethdev.c:5740",
        "22.11": "drivers/net/bnxt/bnxt_ethdev.c:5752",
        "23.11": "drivers/net/bnxt/bnxt_ethdev.c:5838",
        "24.11": "drivers/net/bnxt/bnxt_ethdev.c:6404",
        "25.11": "drivers/net/bnxt/bnxt_ethdev.c:6491",
        "26.07": "drivers/net/bnxt/bnxt_ethdev.c:6378",
    },
    "mlx5_pci": {
        "21.11": "drivers/net/mlx5/mlx5.c:2002",
        "22.11": "drivers/common/mlx5/mlx5_common.c:233",
        "23.11": "drivers/common/mlx5/mlx5_common.c:234",
        "24.11": "drivers/common/mlx5/mlx5_common.c:234",
        "25.11": "drivers/common/mlx5/mlx5_common.c:249",
        "26.07": "drivers/common/mlx5/mlx5_common.c:249",
    },
}

#: pmd -> release -> where its probe fails on its parse's failure
FAILS_AT: dict[str, dict[str, str]] = {
    "net_ice": {
        "21.11": "drivers/net/ice/ice_ethdev.c:2197",
        "22.11": "drivers/net/ice/ice_ethdev.c:2297",
        "23.11": "drivers/net/ice/ice_ethdev.c:2319",
        "24.11": "drivers/net/ice/ice_ethdev.c:2558",
        "25.11": "drivers/net/intel/ice/ice_ethdev.c:2665",
        "26.07": "drivers/net/intel/ice/ice_ethdev.c:2708",
    },
    "net_iavf": {
        "21.11": "drivers/net/iavf/iavf_ethdev.c:2285",
        "22.11": "drivers/net/iavf/iavf_ethdev.c:2371",
        "23.11": "drivers/net/iavf/iavf_ethdev.c:2463",
        "24.11": "drivers/net/iavf/iavf_ethdev.c:2555",
        "25.11": "drivers/net/intel/iavf/iavf_ethdev.c:2561",
        "26.07": "drivers/net/intel/iavf/iavf_ethdev.c:2643",
    },
    "net_ena": {
        "21.11": "drivers/net/ena/ena_ethdev.c:1870",
        "22.11": "drivers/net/ena/ena_ethdev.c:2178",
        "23.11": "drivers/net/ena/ena_ethdev.c:2259",
        "24.11": "drivers/net/ena/ena_ethdev.c:2360",
        "25.11": "drivers/net/ena/ena_ethdev.c:2463",
        "26.07": "drivers/net/ena/ena_ethdev.c:2463",
    },
    "net_bnxt": {
        "21.11": "drivers/net/bnxt/bnxt_ethdev.c:5883",
        "22.11": "drivers/net/bnxt/bnxt_ethdev.c:5895",
        "23.11": "drivers/net/bnxt/bnxt_ethdev.c:5995",
        "24.11": "drivers/net/bnxt/bnxt_ethdev.c:6578",
        "25.11": "drivers/net/bnxt/bnxt_ethdev.c:6687",
        "26.07": "drivers/net/bnxt/bnxt_ethdev.c:6574",
    },
    "mlx5_pci": {
        "22.11": "drivers/common/mlx5/mlx5_common.c:1035",
        "23.11": "drivers/common/mlx5/mlx5_common.c:1036",
        "24.11": "drivers/common/mlx5/mlx5_common.c:1036",
        "25.11": "drivers/common/mlx5/mlx5_common.c:1071",
        "26.07": "drivers/common/mlx5/mlx5_common.c:1071",
    },
}

#: pmd -> release -> (the keys ethdev's rte_eth_devargs_parse reads in its probe, where)
ETHDEV: dict[str, dict[str, tuple[tuple[str, ...], str]]] = {
    "net_ixgbe": {
        "21.11": (("representor",), "drivers/net/ixgbe/ixgbe_ethdev.c:1776; lib/ethdev/rte_ethdev.c:6095"),
        "22.11": (("representor",), "drivers/net/ixgbe/ixgbe_ethdev.c:1772; lib/ethdev/ethdev_driver.c:476"),
        "23.11": (("representor",), "drivers/net/ixgbe/ixgbe_ethdev.c:1773; lib/ethdev/ethdev_driver.c:498"),
        "24.11": (("representor",), "drivers/net/ixgbe/ixgbe_ethdev.c:1782; lib/ethdev/ethdev_driver.c:638"),
        "25.11": (("representor",), "drivers/net/intel/ixgbe/ixgbe_ethdev.c:1786; lib/ethdev/ethdev_driver.c:667"),
        "26.07": (("representor",), "drivers/net/intel/ixgbe/ixgbe_ethdev.c:1785; lib/ethdev/ethdev_driver.c:667"),
    },
    "net_i40e": {
        "21.11": (("representor",), "drivers/net/i40e/i40e_ethdev.c:644; lib/ethdev/rte_ethdev.c:6095"),
        "22.11": (("representor",), "drivers/net/i40e/i40e_ethdev.c:645; lib/ethdev/ethdev_driver.c:476"),
        "23.11": (("representor",), "drivers/net/i40e/i40e_ethdev.c:648; lib/ethdev/ethdev_driver.c:498"),
        "24.11": (("representor",), "drivers/net/i40e/i40e_ethdev.c:665; lib/ethdev/ethdev_driver.c:638"),
        "25.11": (("representor",), "drivers/net/intel/i40e/i40e_ethdev.c:665; lib/ethdev/ethdev_driver.c:667"),
        "26.07": (("representor",), "drivers/net/intel/i40e/i40e_ethdev.c:665; lib/ethdev/ethdev_driver.c:667"),
    },
}

#: pmd -> release -> the devargs with which its probe leaves the device to another driver
LEAVES: dict[str, dict[str, tuple[Leave, ...]]] = {
    "net_iavf": {
        "21.11": (Leave("cap", "dcf", (), "drivers/net/iavf/iavf_ethdev.c:2824"),),
        "22.11": (Leave("cap", "dcf", (), "drivers/net/iavf/iavf_ethdev.c:2919"),),
        "23.11": (Leave("cap", "dcf", (), "drivers/net/iavf/iavf_ethdev.c:3123"),),
        "24.11": (Leave("cap", "dcf", (), "drivers/net/iavf/iavf_ethdev.c:3215"),),
        "25.11": (Leave("cap", "dcf", (), "drivers/net/intel/iavf/iavf_ethdev.c:3261"),),
        "26.07": (Leave("cap", "dcf", (), "drivers/net/intel/iavf/iavf_ethdev.c:3623"),),
    },
    "net_virtio": {
        "21.11": (Leave("vdpa", "1", (), "drivers/net/virtio/virtio_pci_ethdev.c:206"),),
        "22.11": (Leave("vdpa", "1", (), "drivers/net/virtio/virtio_pci_ethdev.c:206"),),
        "23.11": (Leave("vdpa", "1", (), "drivers/net/virtio/virtio_pci_ethdev.c:206"),),
        "24.11": (Leave("vdpa", "1", (), "drivers/net/virtio/virtio_pci_ethdev.c:206"),),
        "25.11": (Leave("vdpa", "1", (), "drivers/net/virtio/virtio_pci_ethdev.c:206"),),
        "26.07": (Leave("vdpa", "1", (), "drivers/net/virtio/virtio_pci_ethdev.c:207"),),
    },
    "mlx5_pci": {
        "21.11": (Leave("class", "", ("eth", "net"), "drivers/common/mlx5/mlx5_common.c:61"),),
        "22.11": (Leave("class", "", ("eth", "net"), "drivers/common/mlx5/mlx5_common.c:92"),),
        "23.11": (Leave("class", "", ("eth", "net"), "drivers/common/mlx5/mlx5_common.c:93"),),
        "24.11": (Leave("class", "", ("eth", "net"), "drivers/common/mlx5/mlx5_common.c:93"),),
        "25.11": (Leave("class", "", ("eth", "net"), "drivers/common/mlx5/mlx5_common.c:107"),),
        "26.07": (Leave("class", "", ("eth", "net"), "drivers/common/mlx5/mlx5_common.c:107"),),
    },
}

#: release -> (EAL's log line for a device its driver's probe refused, tag:path:line)
PROBE_FAILED: dict[str, tuple[str, str]] = {
    "21.11": ("Requested device %s cannot be used", "v21.11.9:drivers/bus/pci/pci_common.c:384"),
    "22.11": ("Requested device %s cannot be used", "v22.11.11:drivers/bus/pci/pci_common.c:416"),
    "23.11": ("Requested device %s cannot be used", "v23.11.7:drivers/bus/pci/pci_common.c:416"),
    "24.11": ("Requested device %s cannot be used", "v24.11.6:drivers/bus/pci/pci_common.c:411"),
    "25.11": ("Requested device %s cannot be used", "v25.11.2:drivers/bus/pci/pci_common.c:413"),
    "26.07": ("Failed to probe device %s", "v26.07:lib/eal/common/eal_common_bus.c:119"),
}


def _cite(rel: str, where: str) -> str:
    """``path:line; path2:line`` at a release -> ``tag:path:line; tag:path2:line`` (:data:`.pcibase.TAGS`)."""
    return "; ".join(f"{TAGS[rel]}:{part}" for part in where.split("; ")) if where else ""


def _at(spans: tuple[tuple[str, ...], ...], rel: str) -> tuple[str, ...]:
    """The value of the run of releases that holds ``rel`` (first, last or "", value...), or ()."""
    return next((s[2:] for s in spans if s[0] <= rel and (not s[1] or rel <= s[1])), ())


def parsing(pmd: str, rel: str) -> Devargs:
    """One driver's devargs parsing at one release ("YY.MM"), from the tables above, each citation
    ``tag:path:line``."""
    said, fills = _at(SAID.get(pmd, ()), rel) or ("", "")
    ethdev, ethdev_at = ETHDEV.get(pmd, {}).get(rel, ((), ""))
    return Devargs(
        keys=tuple(k for k, (first, last) in KEYS[pmd].items() if first <= rel and (not last or rel <= last)),
        keys_at=_cite(rel, KEYS_AT[pmd][rel]),
        unknown=_at(UNKNOWN[pmd], rel)[0],
        said_at=_cite(rel, SAID_AT.get(pmd, {}).get(rel, "")),
        said=said,
        fills=fills,
        fails_at=_cite(rel, FAILS_AT.get(pmd, {}).get(rel, "")),
        ethdev=ethdev,
        ethdev_at=_cite(rel, ethdev_at),
        leaves=tuple(leave._replace(cite=_cite(rel, leave.cite)) for leave in LEAVES.get(pmd, {}).get(rel, ())),
    )
