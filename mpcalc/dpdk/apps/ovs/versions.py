"""The Open vSwitch releases whose mbuf pools mpcalc reproduces, each with the lines it is read from.

A citation is ``tag:path:line`` in Open vSwitch's git repository at that tag (the newest stable tag of
each branch).  What differs between the releases, as far as OVS's pools go:

* the DPDK release each builds against: the table of v3.7.1:Documentation/faq/releases.rst:164-172
  (and each release's acinclude.m4 pkg-config check);
* ``struct dp_packet`` (lib/dp-packet.h): the fields between its ``struct rte_mbuf`` and its
  ``struct pkt_metadata md`` (:attr:`OvsRelease.md_offset`);
* OVS's ``CACHE_LINE_SIZE``: 128 on ppc64 from 3.0 (v3.0.8:lib/util.h:72), 64 elsewhere and before;
* the descriptor counts ``n_rxq_desc``/``n_txq_desc`` accept (``dpdk_process_queue_size``): a power of
  two up to ``NIC_PORT_MAX_Q_SIZE`` 4096 up to 3.5, any power of two from 3.6; from 3.2 then clamped to
  the device's ``rx_desc_lim``/``tx_desc_lim`` (none for net_null, nor for the model).

The pool arithmetic itself (``dpdk_buf_size``, ``dpdk_calculate_mbufs``, ``dpdk_mp_create``,
``dpdk_mp_get``) is the same text in every release listed here (2.17 passes ``per_port_mp`` as an
argument; 3.0 adds other_config:shared-mempool-config, which mpcalc does not model).
"""

from typing import NamedTuple

from mpcalc.dpdk.core.errors import InputError
from mpcalc.dpdk.core.facts import version_key


class OvsRelease(NamedTuple):
    version: str
    #: the stable tag read
    tag: str
    #: the DPDK branch it builds against (Documentation/faq/releases.rst)
    dpdk: str
    #: the line of that branch in v3.7.1:Documentation/faq/releases.rst
    faq_line: int
    #: offset of ``md`` in struct dp_packet: the rte_mbuf (128), then ``enum OVS_PACKED_ENUM
    #: dp_packet_source`` (1 byte) and the offsets, cutlen, packet_type and (3.2+) checksum/offload
    #: fields, rounded up to md's 8-byte alignment
    md_offset: int
    #: NIC_PORT_MAX_Q_SIZE, or None when only a power of two is required (3.6+)
    max_q: int | None
    #: OVS's CACHE_LINE_SIZE is 128 on ppc64 (lib/util.h)
    ppc_line_128: bool
    lines: dict[str, str]

    def cite(self, key: str) -> str:
        return f"{self.tag}:{self.lines[key]}"


_N = "lib/netdev-dpdk.c:"


def _lines(nd: str, pkt: str, hash_string: str, dpif: str, per_port: str, burst: str) -> dict[str, str]:
    """The citations of one tag, from their line numbers (same keys for every release)."""
    keys = (
        "ether_hdr_max_len",
        "frame_len_to_mtu",
        "mbuf_align",
        "max_pkt_len",
        "max_nb_mbuf",
        "mp_cache_sz",
        "default_rxq",
        "buf_size",
        "shared_threshold",
        "per_port_formula",
        "hash",
        "name_fmt",
        "priv_len",
        "pool_create",
        "halving",
        "reuse",
        "configure_call",
        "rxq_default",
        "n_rxq_config",
        "queue_size_check",
        "set_mtu_check",
        "vhost_vid_check",
        "new_device_qp",
        "vhost_socket",
        "sid_socket0",
    )
    out = {k: _N + n for k, n in zip(keys, nd.split(), strict=True)}
    wanted, cmask = dpif.split()
    return {
        **out,
        "dp_packet": "lib/dp-packet.h:" + pkt,
        "pkt_metadata": "lib/packets.h:103",
        "flow_tnl": "include/openvswitch/packets.h:29",
        "hash_string": "lib/hash.h:" + hash_string,
        "hash_bytes": "lib/hash.c:30",
        "wanted_txqs": "lib/dpif-netdev.c:" + wanted,
        "pmd_cmask": "lib/dpif-netdev.c:" + cmask,
        "per_port_cfg": per_port,
        "netdev_max_burst": "lib/dp-packet.h:" + burst,
    }


def _r(
    version: str,
    tag: str,
    dpdk: str,
    faq: int,
    md: int,
    max_q: int | None,
    ppc: bool,
    nd: str,
    pkt: str,
    hs: str,
    dpif: str,
    per_port: str,
    burst: str,
) -> OvsRelease:
    return OvsRelease(version, tag, dpdk, faq, md, max_q, ppc, _lines(nd, pkt, hs, dpif, per_port, burst))


#: line numbers of _lines' keys in lib/netdev-dpdk.c, in that order, per tag (read with ``git show``)
RELEASES: dict[str, OvsRelease] = {
    r.version: r
    for r in (
        _r(
            "2.17",
            "v2.17.9",
            "21.11",
            164,
            152,
            4096,
            False,
            "91 96 98 99 106 108 122 568 654 667 687 713 732 749 778 799 876 1258 1854 1867 2936 5000 3927 1289 1942",
            "114",
            "340",
            "6443 6318",
            "lib/dpdk.c:402",
            "752",
        ),
        _r(
            "3.0",
            "v3.0.8",
            "21.11",
            165,
            152,
            4096,
            True,
            "92 97 99 100 107 109 123 578 702 715 735 761 780 797 826 851 928 1310 1906 1919 2987 5056 3991 1341 1994",
            "114",
            "340",
            "6450 6325",
            "lib/dpdk.c:402",
            "756",
        ),
        _r(
            "3.1",
            "v3.1.7",
            "22.11",
            166,
            152,
            4096,
            True,
            "100 105 107 108 115 117 131 586 710 723 743 769 788 805 834 "
            "859 935 1368 1966 1979 2962 5369 4226 1401 2054",
            "114",
            "340",
            "6505 6380",
            _N + "5718",
            "754",
        ),
        _r(
            "3.2",
            "v3.2.6",
            "22.11",
            167,
            152,
            4096,
            True,
            "100 105 107 108 115 117 131 611 735 748 768 794 813 830 859 "
            "884 960 1464 2063 2097 3167 5931 4510 1501 2221",
            "118",
            "403",
            "6529 6404",
            _N + "6316",
            "765",
        ),
        _r(
            "3.3",
            "v3.3.9",
            "23.11",
            168,
            160,
            4096,
            True,
            "101 106 108 109 116 118 132 618 742 755 775 801 820 837 866 "
            "891 967 1532 2182 2216 3416 6219 4788 1569 2340",
            "147",
            "402",
            "6742 6617",
            _N + "6604",
            "876",
        ),
        _r(
            "3.4",
            "v3.4.6",
            "23.11",
            169,
            160,
            4096,
            True,
            "101 106 108 109 116 118 132 618 742 755 775 801 820 837 866 "
            "891 967 1532 2182 2216 3431 6234 4803 1569 2339",
            "147",
            "402",
            "6750 6625",
            _N + "6619",
            "876",
        ),
        _r(
            "3.5",
            "v3.5.4",
            "24.11",
            170,
            160,
            4096,
            True,
            "102 107 109 110 117 119 133 630 754 767 787 813 832 849 878 "
            "903 979 1568 2213 2247 3473 6297 4857 1605 2370",
            "151",
            "402",
            "6751 6626",
            _N + "6694",
            "888",
        ),
        _r(
            "3.6",
            "v3.6.3",
            "24.11",
            171,
            160,
            None,
            True,
            "102 107 109 110 117 119 133 628 752 765 785 811 830 847 876 "
            "901 977 1566 2211 2244 3518 6342 4902 1603 2366",
            "120",
            "402",
            "6751 6626",
            _N + "6743",
            "848",
        ),
        _r(
            "3.7",
            "v3.7.1",
            "25.11",
            172,
            160,
            None,
            True,
            "103 108 110 111 118 120 134 629 753 766 786 812 831 848 877 "
            "902 978 1547 2192 2225 3476 6300 4860 1584 2347",
            "121",
            "402",
            "6058 5933",
            _N + "6701",
            "861",
        ),
    )
}
VERSIONS = tuple(RELEASES)
#: other_config:shared-mempool-config (3.0+): lines of dpdk_get_user_adjusted_mtu and parse_user_mempools_list
USER_MEMPOOLS = {
    "3.0": (585, 5400),
    "3.1": (593, 5725),
    "3.2": (618, 6323),
    "3.3": (625, 6611),
    "3.4": (625, 6626),
    "3.5": (637, 6701),
    "3.6": (635, 6750),
    "3.7": (636, 6708),
}
#: the OVS release mpcalc assumes for a DPDK release: the LTS (2.17, 3.3), Debian 12's (3.1), else the newest
DEFAULT_FOR_DPDK = {"21.11": "2.17", "22.11": "3.1", "23.11": "3.3", "24.11": "3.5", "25.11": "3.7"}
#: current long-term support releases (v3.7.1:Documentation/internals/release-process.rst:78-114)
LTS = ("3.3",)


def ovs_release(version: str | None, dpdk: str) -> OvsRelease:
    """The OVS release asked for, or the one built on ``dpdk``; InputError when they do not build together."""
    if version is None:
        if dpdk not in DEFAULT_FOR_DPDK:
            raise InputError(
                f"no Open vSwitch release builds against DPDK {dpdk} (known: "
                f"{', '.join(f'{v} on {r.dpdk}' for v, r in RELEASES.items())})",
                param="--ovs",
            )
        version = DEFAULT_FOR_DPDK[dpdk]
    r = RELEASES.get(version)
    if r is None:
        raise InputError(f"Open vSwitch {version!r} is not modelled (known: {', '.join(VERSIONS)})", param="--ovs")
    if version_key(r.dpdk) != version_key(dpdk):
        raise InputError(
            f"Open vSwitch {r.version} builds against DPDK {r.dpdk}, not {dpdk} "
            f"(v3.7.1:Documentation/faq/releases.rst:{r.faq_line}): give --dpdk {r.dpdk}",
            param="--ovs",
        )
    return r
