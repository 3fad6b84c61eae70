"""The TRIE data plane (IPv6 rte_fib6), simulated entry by entry.

v22.11.11:lib/fib/trie.c: trie_modify(RTE_FIB6_ADD) with modify_dp,
install_to_dp, build_common_root, write_edge, recycle_root_path, get_nxt_net
and tbl8_recycle, on the RIB replay of ``.rib`` and the tbl8 groups of
``.groups``.  A "pointer" is (in_tbl8, entry index).

Pure Python, stdlib only (no click, no rich).
"""

from __future__ import annotations

from mpcalc.dpdk.objects.routes.groups import _fill, _Groups, _tbl24
from mpcalc.dpdk.objects.routes.rib_replay import _Rib


def _ceil8(x: int) -> int:
    return (x + 7) & ~7


class _Trie:
    def __init__(self) -> None:
        self.rib = _Rib(128)
        self.tbl24 = _tbl24()
        self.g = _Groups()
        self.rsvd = 0
        self.clobbered = False

    def _read(self, p: tuple[bool, int]) -> int:
        if p[0]:
            return self.g.data[p[1] >> 8][p[1] & 0xFF]
        return self.tbl24[p[1]]

    def _write(self, p: tuple[bool, int], val: int, n: int = 1) -> None:  # write_to_dp
        if n <= 0:
            return
        if p[0]:
            off = p[1] & 0xFF
            self.g.data[p[1] >> 8][off : off + n] = [val] * n
        else:
            _fill(self.tbl24, p[1], n, val)

    def _recycle(self, idx: int) -> int | None:
        """tbl8_recycle (trie.c:172-226): the uniform value if group idx was freed."""
        grp = self.g.data[idx]
        nh = grp[0]
        if nh & 1 or grp.count(nh) != 256:
            return None
        self.g.put(idx)
        return nh

    def _recycle_root_path(self, ip: list[int], pos: int, common_tbl8: int, prev: tuple[bool, int]) -> None:
        val = self._read(prev)  # recycle_root_path (trie.c:265-282)
        if not val & 1:
            return
        if common_tbl8 != 0:
            self._recycle_root_path(ip, pos + 1, common_tbl8 - 1, (True, ((val >> 1) << 8) + ip[pos]))
        nh = self._recycle(val >> 1)
        if nh is not None:
            self._write(prev, nh)

    def _build_common_root(self, ip: list[int], common_bytes: int) -> tuple[bool, int]:
        cur8 = False  # build_common_root (trie.c:284-314)
        prev_idx = 0
        j = 0
        for i in range(3, common_bytes + 1):
            idx = 0
            for k in range(j, i):
                idx = (idx << 8) | ip[k]
            p = (cur8, prev_idx * 256 + idx)
            val = self._read(p)
            if not val & 1:
                prev_idx = self.g.alloc(val)
                self._write(p, (prev_idx << 1) | 1)
            else:
                prev_idx = val >> 1
            j = i
            cur8 = True
        return (cur8, prev_idx * 256)

    def _write_edge(
        self, ip: list[int], pos: int, val_nh: int, ln: int, ledge: bool, ent: tuple[bool, int]
    ) -> None:  # write_edge (trie.c:316-353)
        val = val_nh << 1
        if ln != 0:
            val = self._read(ent)
            if val & 1:
                idx = val >> 1
            else:
                idx = self.g.alloc(val)
                val = (idx << 1) | 1
            base = idx << 8
            self._write_edge(ip, pos + 1, val_nh, ln - 1, ledge, (True, base + ip[pos]))
            if ledge:
                self._write((True, base + ip[pos] + 1), val_nh << 1, 255 - ip[pos])
            else:
                self._write((True, base), val_nh << 1, ip[pos])
            nh = self._recycle(idx)
            if nh is not None:
                val = nh
        self._write(ent, val)

    def _install(self, ledge: list[int], r: list[int], val: int) -> None:  # install_to_dp (trie.c:359-433)
        redge = list(r)
        for i in range(15, -1, -1):
            redge[i] = (redge[i] - 1) & 0xFF
            if redge[i] != 0xFF:
                break
        common_bytes = 0
        while common_bytes < 15 and ledge[common_bytes] == redge[common_bytes]:
            common_bytes += 1
        root = self._build_common_root(ledge, common_bytes)
        first_tbl8_byte = max(common_bytes, 3)
        i = 15
        while i > first_tbl8_byte and ledge[i] == 0:
            i -= 1
        llen = i - first_tbl8_byte + (common_bytes < 3)
        i = 15
        while i > first_tbl8_byte and redge[i] == 0xFF:
            i -= 1
        rlen = i - first_tbl8_byte + (common_bytes < 3)
        if common_bytes < 3:
            left_idx = (ledge[0] << 16) | (ledge[1] << 8) | ledge[2]
            right_idx = (redge[0] << 16) | (redge[1] << 8) | redge[2]
        else:
            left_idx, right_idx = ledge[common_bytes], redge[common_bytes]
        pos = first_tbl8_byte + (common_bytes >= 3)
        self._write_edge(ledge, pos, val, llen, True, (root[0], root[1] + left_idx))
        if right_idx > left_idx + 1:
            self._write((root[0], root[1] + left_idx + 1), val << 1, right_idx - (left_idx + 1))
        self._write_edge(redge, pos, val, rlen, False, (root[0], root[1] + right_idx))
        common_tbl8 = 0 if common_bytes < 3 else common_bytes - 2
        t24 = (ledge[0] << 16) | (ledge[1] << 8) | ledge[2]
        self._recycle_root_path(ledge, 3, common_tbl8, (False, t24))

    @staticmethod
    def _next_net(ip: list[int], depth: int) -> None:  # get_nxt_net (trie.c:435-454), uint8_t arithmetic
        i, part = 0, depth
        while part > 8:
            part -= 8
            i += 1
        prev = ip[i]
        ip[i] = (ip[i] + (1 << (8 - part))) & 0xFF  # depth 0 adds 256: no change
        if ip[i] < prev:
            while i > 0:
                i -= 1
                ip[i] = (ip[i] + 1) & 0xFF
                if ip[i] != 0:
                    break

    def _modify(self, ip: int, depth: int, val: int) -> None:  # modify_dp (trie.c:464-518)
        rib = self.rib
        ipb = list(ip.to_bytes(16, "big"))
        ledge = list(ipb)
        tmp = None
        seen = False
        while True:
            tmp = rib.get_nxt(ip, depth, tmp)
            if tmp is not None:
                seen = True
                if tmp.depth == depth:
                    continue
                redge = list(tmp.ip.to_bytes(16, "big"))
                if ledge == redge:
                    self._next_net(ledge, tmp.depth)
                    continue
                self._install(ledge, redge, val)
                self._next_net(redge, tmp.depth)
                ledge = redge
                if not any(ledge):  # wrapped around
                    break
            else:
                redge = list(ipb)
                self._next_net(redge, depth)
                if ledge == redge and any(ledge):
                    break
                if seen and not any(ledge):
                    # same wrap as dir24_8: install_to_dp(::, redge) rewrites
                    # everything from :: to the route's end (trie.c:487-490, 506-511)
                    self.clobbered = True
                self._install(ledge, redge, val)
                break

    def add(self, ip: int, depth: int, val: int) -> tuple[str, int, int]:
        """trie_modify(RTE_FIB6_ADD) (trie.c:520-593)."""
        rib = self.rib
        depth_diff = 0
        if depth > 24:
            # the reservation: the 8-bit levels between the covering route (at
            # least /24) and this one, unless a route already sits below
            # ip/floor8(depth) (trie.c:545-559)
            tmp = rib.get_nxt(ip, depth & ~7, None)
            if tmp is None:
                cover = rib.lookup(ip)
                parent_depth = max(cover.depth, 24) if cover is not None else 24
                depth_diff = ((_ceil8(depth) - _ceil8(parent_depth)) & 0xFF) >> 3
        node = rib.lookup_exact(ip, depth)
        if node is not None:
            if node.nh == val:  # trie.c:563-566
                return "duplicate", 0, 0
            self._modify(ip, depth, val)  # failure swallowed: returns 0 (trie.c:567-570)
            node.nh = val
            return "replace", 0, 0
        rsvd_need = self.rsvd + depth_diff if depth > 24 else 0  # ENOSPC if > number_tbl8s (trie.c:573-574)
        rib.peak_nodes = rib.cur_nodes
        node = rib.insert(ip, depth)
        rib_need = rib.peak_nodes
        node.nh = val
        parent = rib.lookup_parent(node)
        if parent is not None and parent.nh == val:  # trie.c:580-585
            return "same-as-parent", rsvd_need, rib_need
        self._modify(ip, depth, val)
        self.rsvd += depth_diff  # trie.c:592
        return "new", rsvd_need, rib_need
