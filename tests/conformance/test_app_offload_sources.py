"""The lines OVS's and VPP's offload models cite (:mod:`mpcalc.dpdk.apps.ovs.ovs_offloads`,
:mod:`mpcalc.dpdk.apps.vpp.vpp_offloads`), held to each project's source at every tag modelled.

It reads the Open vSwitch and VPP git repositories (``MPCALC_OVS_GIT``, else /work/.mirror/openvswitch+ovs/repo;
``MPCALC_VPP_GIT``, else /work/.mirror/FDio+vpp/repo) and skips without them.
"""

from __future__ import annotations

import os
import subprocess
from functools import cache
from pathlib import Path

import pytest

from mpcalc.dpdk.apps.ovs.ovs_offloads import LINES
from mpcalc.dpdk.apps.ovs.versions import RELEASES
from mpcalc.dpdk.apps.vpp import profiles

OVS = Path(os.environ.get("MPCALC_OVS_GIT", "/work/.mirror/openvswitch+ovs/repo"))
VPP = Path(os.environ.get("MPCALC_VPP_GIT", "/work/.mirror/FDio+vpp/repo"))


@cache
def _show(git: Path, tag: str, path: str) -> list[str]:
    out = subprocess.run(["git", "-C", str(git), "show", f"{tag}:{path}"], capture_output=True, text=True, check=True)
    return out.stdout.splitlines()


def _line(git: Path, tag: str, path: str, n: int) -> str:
    return _show(git, tag, path)[n - 1]


@pytest.mark.skipif(not (OVS / "HEAD").exists(), reason=f"no Open vSwitch git repository at {OVS}")
@pytest.mark.parametrize("version", list(LINES))
def test_ovs_offload_lines(version):
    r = RELEASES[version]
    lines = LINES[version]
    nd = "lib/netdev-dpdk.c"
    first, last = (int(x) for x in lines.port_config.split("-"))
    assert "dev->mtu > RTE_ETHER_MTU" in _line(OVS, r.tag, nd, first)
    assert "txmode.offloads |=" in _line(OVS, r.tag, nd, last)
    first, last = (int(x) for x in lines.init.split("-"))
    assert 'strstr(info.driver_name, "vf")' in _line(OVS, r.tag, nd, first)
    assert "n_rxq = MIN(info.max_rx_queues" in _line(OVS, r.tag, nd, last + 2)
    block = "\n".join(_show(OVS, r.tag, nd)[first - 1 : last])
    for name, n in (("net_tap", lines.tap), ("net_txgbe", lines.txgbe)):
        if n is None:
            assert f'"{name}"' not in block
        else:
            assert f'!strcmp(info.driver_name, "{name}")' in _line(OVS, r.tag, nd, n)
    # the Tx rules of port_offloads, by release: what dpdk_eth_dev_init reads of the capabilities
    tso_flags = "DPDK_TX_TSO_OFFLOAD_FLAGS" in block or "tx_tso_offload_capa" in block
    assert tso_flags == (version in ("2.17", "3.0", "3.1"))
    assert ("RTE_ETH_TX_OFFLOAD_OUTER_UDP_CKSUM" in block) == (version not in ("2.17", "3.0", "3.1", "3.2"))
    assert ("RTE_ETH_TX_OFFLOAD_GRE_TNL_TSO" in block) == (version in ("3.5", "3.6", "3.7"))


_VPP_FACTS = {
    "offload_wishlist": "create rx and tx offload wishlist",
    "tx_cksum_default": "if (xd->conf.disable_tx_checksum_offload == 0)",
    "fast_free": "txo |= RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE;",
    "offload_mask": "txo &= dev_info.tx_offload_capa;",
    "tso_on": "if (devconf->tso == DPDK_DEVICE_TSO_ON)",
    "tso_key": 'unformat (input, "tso on")',
    "tso_copy": "copy tso config from default device",
    "tcp_udp_cksum_key": 'unformat (input, "enable-tcp-udp-checksum")',
    "disable_rx_scatter": "xd->conf.disable_rx_scatter = dr->disable_rx_scatter;",
}


@pytest.mark.skipif(not (VPP / "HEAD").exists(), reason=f"no VPP git repository at {VPP}")
@pytest.mark.parametrize("tag", profiles.TAGS)
def test_vpp_offload_facts(tag):
    pr = profiles.profile(tag)
    for fact, text in _VPP_FACTS.items():
        path = profiles.FACTS[fact][0]
        n = pr.line(fact)
        if n is None:
            assert not any(text in line for line in _show(VPP, tag, path)), (tag, fact)
        else:
            assert text in _line(VPP, tag, path, n), (tag, fact)
    common = "\n".join(_show(VPP, tag, "src/plugins/dpdk/device/common.c"))
    # the outer checksums in the default Tx list and IP-in-IP TSO: from v25.10 (offloads._OUTER_DEFAULT_SINCE)
    assert ("RTE_ETH_TX_OFFLOAD_IPIP_TNL_TSO" in common) == pr.since("v25.10")
    # no driver in VPP's table sets disable_rx_scatter
    assert ".disable_rx_scatter" not in "\n".join(_show(VPP, tag, "src/plugins/dpdk/device/driver.c"))
