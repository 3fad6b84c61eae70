"""mlx5's DevX ring buffers at dev start (mpcalc/dpdk/drivers/mlx5.py), every figure at every release computed
here from the cited lines' own arithmetic: mlx5_common_devx.c's umem (the ring, then MLX5_DBR_SIZE of doorbell
record, page-aligned), mlx5_devx.c's CQ/RQ/SQ sizes, mlx5_txq.c's inline settings and mlx5_trigger.c's one Tx
buffer of 25.11+.

The cited lines themselves are held to the DPDK mirror by tests/conformance/test_pci_sources.py; the constants this
file's arithmetic uses are read from the mirror's headers below (skipped without the mirror).
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

from mpcalc.dpdk.core.errors import Rejection
from mpcalc.dpdk.drivers import mlx5, pci
from mpcalc.dpdk.drivers.pcibase import RELEASES, TAGS, QueueParts, since
from mpcalc.dpdk.drivers.pmd import (
    RX_OFFLOAD_SCATTER,
    RX_OFFLOAD_TIMESTAMP,
    TX_OFFLOAD_TCP_TSO,
    TX_OFFLOAD_VLAN_INSERT,
    QueueConf,
)

PAGE = 4096
DBR = 64  # MLX5_DBR_SIZE: RTE_CACHE_LINE_SIZE
CQE = WQEBB = 64  # sizeof(struct mlx5_cqe), MLX5_WQE_SIZE (pahole: 64 at every release)
#: the umem_buf pointers the buffers are assigned to (mlx5_malloc(MLX5_MEM_RTE) names none)
RX_CQ, RX_RQ = "mlx5 rxq_ctrl->obj->cq_obj.umem_buf", "mlx5 rxq->devx_rq.wq.umem_buf"
TX_CQ, TX_SQ = "mlx5 txq_obj->cq_obj.umem_buf", "mlx5 txq_obj->sq_obj.umem_buf"


def conf(nb_rxq: int = 1, nb_txq: int = 1, **kw: int) -> QueueConf:
    return QueueConf(nb_rxq, nb_txq, 0, 0, False, **kw)


def start(rel: str, nb_rxq: int, nb_txq: int, nb: int = 256, dev: dict[str, object] | None = None, **kw: int):
    z, a = mlx5.start(rel, 0, nb_rxq, nb_txq, dev, nb_rxd=nb, nb_txd=nb, conf=conf(nb_rxq, nb_txq, **kw))
    assert z == ()
    return [(x.name, x.size, x.align) for x in a]


def pow2(v: int) -> int:
    return 1 << (v - 1).bit_length() if v > 1 else 1


@pytest.mark.parametrize("rel", RELEASES)
def test_a_default_port_s_rings(rel):
    got = start(rel, 2, 2)
    # Rx: mlx5_rxq_cqe_num's 256 - 1 CQEs (vectorised: not doubled), log2above -> 256; the RQ's 16-byte
    # mlx5_wqe_data_seg per descriptor; each + MLX5_DBR_SIZE, page-aligned
    rx = [
        (RX_CQ, CQE * 256 + DBR, PAGE),
        (RX_RQ, 16 * 256 + DBR, PAGE),
        (RX_CQ, CQE * 256 + DBR, PAGE),
        (RX_RQ, 16 * 256 + DBR, PAGE),
    ]
    # Tx: 256 / MLX5_TX_COMP_THRESH + 1 + MLX5_TX_COMP_THRESH_INLINE_DIV = 17 CQEs -> 32; no inlining with fewer
    # than MLX5_INLINE_MAX_TXQS (8) queues: one WQEBB (cseg + eseg + dseg = 48 -> 64) a descriptor
    sq, cq = WQEBB * 256, CQE * pow2(256 // 32 + 1 + 8)
    assert cq == 2048
    if since(rel, "25.11"):  # txq_mem_algn = log2above(page): one buffer, two doorbells a queue
        tx = [("mlx5 priv->consec_tx_mem.umem", 2 * (sq + cq) + 2 * 2 * DBR, PAGE)]
    else:
        tx = [(name, b + DBR, PAGE) for _ in (0, 1) for name, b in ((TX_CQ, cq), (TX_SQ, sq))]
    assert got == tx + rx


@pytest.mark.parametrize("rel", RELEASES)
def test_rx_cq_doubles_with_cqe_compression_on_a_queue_not_vectorised(rel):
    cq = next(s for n, s, _ in start(rel, 1, 1, 1024, {"rx_vec_en": False}) if n == RX_CQ)
    assert cq == CQE * pow2(2 * 1023) + DBR  # cqe_n *= 2
    for dev, kw in (
        ({"rx_vec_en": False, "rxq_cqe_comp_en": 0}, {}),
        ({"rx_vec_en": False}, {"rx_offloads": RX_OFFLOAD_TIMESTAMP}),
    ):
        cq = next(s for n, s, _ in start(rel, 1, 1, 1024, dev, **kw) if n == RX_CQ)
        assert cq == CQE * 1024 + DBR


@pytest.mark.parametrize("rel", RELEASES)
def test_rx_scatter(rel):
    # MTU 9000: 9018 bytes over 2048 (the 2176-byte data room less RTE_PKTMBUF_HEADROOM) and 2176-byte segments:
    # 5, rounded to 8 (sges_n 3); the RQ keeps 16 bytes a descriptor (1 << (elts_n - sges_n) WQEs of 16 << sges_n)
    refused = mlx5.rx_queue_setup(rel, 0, 0, 256, None, conf(mtu=9000))
    assert isinstance(refused, Rejection) and refused.errno == "ENOSPC" and "Scatter offload is not" in refused.reason
    assert isinstance(
        mlx5.rx_queue_setup(rel, 0, 0, 256, None, conf(mtu=9000, rx_offloads=RX_OFFLOAD_SCATTER)), QueueParts
    )
    assert mlx5.rx_sges(rel, 256, conf(mtu=9000, rx_offloads=RX_OFFLOAD_SCATTER)) == 3
    got = dict((n, s) for n, s, _ in start(rel, 1, 1, 256, mtu=9000, rx_offloads=RX_OFFLOAD_SCATTER))
    assert got[RX_RQ] == (16 << 3) * (256 >> 3) + DBR
    # more than one segment: not vectorised, so CQE compression doubles the CQ
    assert got[RX_CQ] == CQE * 512 + DBR
    bad = mlx5.rx_queue_setup(rel, 0, 0, 4, None, conf(mtu=9000, rx_offloads=RX_OFFLOAD_SCATTER))
    assert isinstance(bad, Rejection) and "not a multiple of SGEs per packet (8)" in bad.reason


def sq_of(rel: str, nb_txq: int, nb: int, dev: dict[str, object] | None = None, **kw: int) -> int:
    dev = {"txq_mem_algn": 0, **(dev or {})}
    return next(s for n, s, _ in start(rel, 1, nb_txq, nb, dev, **kw) if n == TX_SQ) - DBR


@pytest.mark.parametrize("rel", RELEASES)
def test_tx_inline_settings(rel):
    # 8 queues: txq_inline_max's default MLX5_SEND_DEF_INLINE_LEN = 5 * 64 + 18 - 3 * 16 = 290, aligned to WQEBBs
    # (290 - 34 -> 256 -> + 34); the SQ's WQE: cseg + eseg + RTE_ALIGN(290 + 4, 16) = 336 -> 6 WQEBBs
    assert mlx5.tx_inline(rel, 256, 8, None, 0).inlen_send == 290
    assert sq_of(rel, 8, 256) == WQEBB * pow2(256 * 6)
    assert sq_of(rel, 7, 256) == WQEBB * 256  # fewer than txqs_min_inline: no inlining
    assert sq_of(rel, 2, 256, {"txqs_min_inline": 2}) == WQEBB * pow2(256 * 6)
    # TSO: MLX5_MAX_TSO_HEADER (192) + 48 -> 256: 4 WQEBBs
    assert sq_of(rel, 1, 256, tx_offloads=TX_OFFLOAD_TCP_TSO) == WQEBB * 1024
    # the device's minimal inline (ConnectX-4 Lx: 18, MLX5_INLINE_HSIZE_L2): inlen_send 18 -> 32 + 32: one WQEBB;
    # txq_inline_min=100 -> RTE_ALIGN(100 - 18, 16) + 18 = 114 -> 32 + 128 = 160 -> 3 WQEBBs
    assert mlx5.tx_inline(rel, 256, 1, {"txq_inline_min": 18}, 0).inlen_send == 18
    assert sq_of(rel, 1, 256, {"txq_inline_min": 18}) == WQEBB * 256
    assert mlx5.tx_inline(rel, 256, 1, {"txq_inline_min": 100}, 0).inlen_send == 114
    assert sq_of(rel, 1, 256, {"txq_inline_min": 100}) == WQEBB * 1024
    # VLAN insertion the device cannot do: MLX5_ESEG_MIN_INLINE_SIZE inlined
    assert mlx5.tx_inline(rel, 256, 1, {"hw_vlan_insert": False}, TX_OFFLOAD_VLAN_INSERT).inlen_send == 18
    assert mlx5.tx_inline(rel, 256, 1, None, TX_OFFLOAD_VLAN_INSERT).inlen_send == 0
    # txq_mpw_en=0: no enhanced MPW inlining; txq_inline_mpw's default 4 * 64 + 12 = 268
    assert mlx5.tx_inline(rel, 256, 8, None, 0).inlen_empw == 268
    assert mlx5.tx_inline(rel, 256, 8, {"txq_mpw_en": 0}, 0).inlen_empw == 0


@pytest.mark.parametrize("rel", RELEASES)
def test_a_long_tx_queue_s_inline_is_cut_to_what_max_wqe_leaves(rel):
    # txq_calc_inline_max: 32768 / 8192 = 4 WQEBBs: 256 - 64 + MLX5_DSEG_MIN_INLINE_SIZE (12) = 204 up to 24.11;
    # from 25.11 + MLX5_ESEG_MIN_INLINE_SIZE (18) = 210, less 18 - 12 in txq_adjust_params: 204
    inl = mlx5.tx_inline(rel, 8192, 8, None, 0)
    assert (inl.inlen_send, inl.inlen_empw, inl.refusal) == (204, 204, None)
    # cseg + eseg + RTE_ALIGN(208, 16) = 240 -> 4 WQEBBs: 32768, max_wqe's
    assert sq_of(rel, 8, 8192) == WQEBB * 32768
    given = mlx5.tx_inline(rel, 8192, 8, {"txq_inline_max": 290}, 0)
    if since(rel, "25.11"):  # a warning only
        assert given.refusal is None and given.inlen_send == 204
    else:
        r = given.refusal
        assert r is not None and r.errno == "ENOMEM"
        assert (
            r.reason == "txq_inline_max requirements (290) are not satisfied (204) on port 0, "
            "try the smaller Tx queue size (32768)"
        )
        assert isinstance(mlx5.tx_queue_setup(rel, 0, 0, 8192, {"txq_inline_max": 290}, conf(1, 8)), Rejection)


@pytest.mark.parametrize("rel", RELEASES)
def test_tx_descriptors_above_the_completion_threshold(rel):
    # mlx5_tx_queue_pre_setup: 16 -> MLX5_TX_COMP_THRESH + 1 = 33 -> 64
    q = mlx5.tx_queue_setup(rel, 0, 0, 16)
    assert isinstance(q, QueueParts) and q.nb_desc == 64
    assert q.allocs[0].size == mlx5.SIZES[rel]["mlx5_txq_ctrl"] + 8 * 64


@pytest.mark.parametrize("rel", [r for r in RELEASES if since(r, "25.11")])
def test_txq_mem_algn(rel):
    per_queue = start(rel, 1, 2, 256, {"txq_mem_algn": 0})
    assert [n for n, _, _ in per_queue][:4] == [
        TX_CQ,
        TX_SQ,
        TX_CQ,
        TX_SQ,
    ]
    one = start(rel, 1, 2, 256, {"txq_mem_algn": 16})[0]
    assert one == ("mlx5 priv->consec_tx_mem.umem", 2 * (WQEBB * 256 + CQE * 32) + 4 * DBR, 1 << 16)
    # below the page's log2: raised to it
    assert start(rel, 1, 2, 256, {"txq_mem_algn": 5})[0][2] == PAGE


@pytest.mark.parametrize("rel", RELEASES)
def test_sys_mem_en_moves_none_of_it(rel):
    # mlx5_malloc: MLX5_MEM_RTE is rte_malloc whatever mlx5_sys_mem.enable; every modelled buffer asks for it
    a = pci.port_memory("mlx5_pci", rel, 0, 2, 2)
    b = pci.port_memory("mlx5_pci", rel, 0, 2, 2, dev={"sys_mem_en": True})
    assert a.allocs == b.allocs and len(a.allocs) > 10
    for x in a.allocs:
        if "umem" in x.name:
            assert f"{TAGS[rel]}:drivers/common/mlx5/mlx5_malloc.c:" in x.cite


GIT = Path(os.environ.get("MPCALC_DPDK_GIT", "/work/.mirror/DPDK+dpdk/repo"))


def show(tag: str, path: str) -> str:
    r = subprocess.run(["git", "-C", str(GIT), "show", f"{tag}:{path}"], capture_output=True, text=True)
    assert r.returncode == 0, (tag, path)
    return r.stdout


@pytest.mark.skipif(not (GIT / "HEAD").exists(), reason=f"no DPDK git repository at {GIT}")
@pytest.mark.parametrize("rel", RELEASES)
def test_the_constants_are_the_headers(rel):
    tag = TAGS[rel]
    prm = show(tag, "drivers/common/mlx5/mlx5_prm.h")
    defs = show(tag, "drivers/net/mlx5/mlx5_defs.h")
    for text, rx in (
        (prm, r"define MLX5_WSEG_SIZE 16u"),
        (prm, r"define MLX5_ESEG_MIN_INLINE_SIZE 18u"),
        (prm, r"define MLX5_DSEG_MIN_INLINE_SIZE 12u"),
        (prm, r"define MLX5_WQE_SIZE_MAX \(60 \* MLX5_WSEG_SIZE\)"),
        (prm, r"define MLX5_INLINE_MAX_TXQS 8u"),
        (prm, r"define MLX5_SEND_DEF_INLINE_LEN \(5U \* MLX5_WQE_SIZE \+\s+\\\s+MLX5_ESEG_MIN_INLINE_SIZE -"),
        (prm, r"define MLX5_EMPW_DEF_INLINE_LEN \(4u \* MLX5_WQE_SIZE \+\s+\\\s+MLX5_DSEG_MIN_INLINE_SIZE\)"),
        (defs, r"define MLX5_MAX_TSO_HEADER 192U"),
        (defs, r"define MLX5_TX_COMP_THRESH 32u"),
        (defs, r"define MLX5_TX_COMP_THRESH_INLINE_DIV \(1 << 3\)"),
    ):
        assert re.search(rx, text), (rel, rx)
    assert (mlx5.MLX5_WSEG_SIZE, mlx5.MLX5_ESEG_MIN_INLINE_SIZE, mlx5.MLX5_DSEG_MIN_INLINE_SIZE) == (16, 18, 12)
    assert (mlx5.MLX5_MAX_TSO_HEADER, mlx5.MLX5_TX_COMP_THRESH, mlx5.MLX5_TX_COMP_THRESH_INLINE_DIV) == (192, 32, 8)
