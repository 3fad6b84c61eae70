"""The DIR24_8 data plane (IPv4 rte_fib), simulated entry by entry.

v22.11.11:lib/fib/dir24_8.c: dir24_8_modify(RTE_FIB_ADD) with modify_fib,
install_to_fib, tbl8_alloc and tbl8_recycle, on the RIB replay of ``.rib``
and the tbl8 groups of ``.groups``.

Pure Python, stdlib only (no click, no rich).
"""

from __future__ import annotations

from mpcalc.dpdk.objects.routes.groups import _fill, _Groups, _tbl24
from mpcalc.dpdk.objects.routes.rib_replay import _Rib

_M32 = 0xFFFFFFFF


def _roundup24(x: int) -> int:  # ROUNDUP(x, 24) = RTE_ALIGN_CEIL(x, 256) in uint32_t
    return (x + 255) & 0xFFFFFF00 & _M32


class _Dir24_8:
    def __init__(self) -> None:
        self.rib = _Rib(32)
        self.tbl24 = _tbl24()
        self.g = _Groups()
        self.rsvd = 0  # dp->rsvd_tbl8s
        self.clobbered = False

    def _recycle(self, ip: int, idx: int) -> None:  # tbl8_recycle (dir24_8.c:192-258)
        grp = self.g.data[idx]
        nh = grp[0]
        if grp.count(nh) != 256:
            return
        self.tbl24[ip >> 8] = nh & ~1
        self.g.put(idx)

    def _ext_group(self, ip: int, check_two: bool) -> int:
        """The tbl8 of ip's /24, allocating one if the tbl24 entry is not extended.
        ``check_two``: install_to_fib's left edge of a range that crosses a /24
        boundary also demands a second free group, which it gives back at once
        (dir24_8.c:278-291)."""
        tmp = self.tbl24[ip >> 8]
        if tmp & 1:
            return tmp >> 1
        idx = self.g.alloc(tmp | 1)  # tbl8_alloc: entries = tbl24 value | EXT (dir24_8.c:172-190)
        if check_two:
            self.g.put(self.g.alloc(0))  # tbl8_get_idx + tbl8_free_idx
        self.tbl24[ip >> 8] = (idx << 1) | 1
        return idx

    def _install(self, ledge: int, redge: int, val: int) -> None:  # install_to_fib (dir24_8.c:260-359)
        up = _roundup24(ledge)
        n24 = 1 << 24 if ledge == 0 and redge == 0 else (((redge & 0xFFFFFF00) - up) & _M32) >> 8
        ext = (val << 1) | 1
        if (ledge >> 8) != (redge >> 8) or n24 == 1 << 24:
            left = (up - ledge) & _M32
            if left:
                idx = self._ext_group(ledge, True)
                lo = ledge & 0xFF
                self.g.data[idx][lo : lo + left] = [ext] * left
                self._recycle(ledge, idx)
            _fill(self.tbl24, up >> 8, n24, val << 1)
            if redge & 0xFF:
                idx = self._ext_group(redge, False)
                self.g.data[idx][0 : redge & 0xFF] = [ext] * (redge & 0xFF)
                self._recycle(redge, idx)
        elif redge != ledge:
            idx = self._ext_group(ledge, False)
            lo = ledge & 0xFF
            self.g.data[idx][lo : lo + redge - ledge] = [ext] * (redge - ledge)
            self._recycle(ledge, idx)

    def _modify(self, ip: int, depth: int, val: int) -> None:  # modify_fib (dir24_8.c:361-409)
        rib = self.rib
        ledge = ip
        tmp = None
        seen = False
        while True:
            tmp = rib.get_nxt(ip, depth, tmp)
            if tmp is not None:
                seen = True
                if tmp.depth == depth:
                    continue
                redge = tmp.ip & rib.masks[tmp.depth]
                if ledge == redge:
                    ledge = (redge + (1 << (32 - tmp.depth))) & _M32
                    continue
                self._install(ledge, redge, val)
                ledge = (redge + (1 << (32 - tmp.depth))) & _M32
                if ledge == 0:  # wrapped around the end of the address space
                    break
            else:
                redge = (ip + (1 << (32 - depth))) & _M32
                if ledge == redge and ledge != 0:
                    break
                if seen and ledge == 0:
                    # the more specific routes reached the end of the address space
                    # and ledge wrapped to 0 on the "ledge == redge" path, which has
                    # no wrap check: install_to_fib(0, 0) rewrites the WHOLE tbl24
                    # with this next hop and leaks every tbl8 (dir24_8.c:380-383, 398-402)
                    self.clobbered = True
                self._install(ledge, redge, val)
                break

    def add(self, ip: int, depth: int, val: int) -> tuple[str, int, int]:
        """dir24_8_modify(RTE_FIB_ADD) (dir24_8.c:411-472).

        Returns (kind, reservation need, rib node need); the tbl8 need is in
        self.g.peak (the caller resets it)."""
        rib = self.rib
        node = rib.lookup_exact(ip, depth)
        if node is not None:
            if node.nh == val:  # same route again: nothing happens (dir24_8.c:439-441)
                return "duplicate", 0, 0
            # a new next hop for an existing route: rewrite the table; DPDK
            # returns 0 even when this runs out of tbl8s (dir24_8.c:442-445)
            self._modify(ip, depth, val)
            node.nh = val
            return "replace", 0, 0
        rsvd_need = 0
        tmp = None
        if depth > 24:
            # ENOSPC unless a route deeper than /24 already sits in this /24,
            # or fewer /24s are reserved than there are tbl8s (dir24_8.c:447-454)
            tmp = rib.get_nxt(ip, 24, None)
            if tmp is None:
                rsvd_need = self.rsvd + 1
        rib.peak_nodes = rib.cur_nodes
        node = rib.insert(ip, depth)
        rib_need = rib.peak_nodes
        node.nh = val
        parent = rib.lookup_parent(node)
        if parent is not None and parent.nh == val:  # nothing to write, nothing reserved (dir24_8.c:459-464)
            return "same-as-parent", rsvd_need, rib_need
        self._modify(ip, depth, val)
        if depth > 24 and tmp is None:
            self.rsvd += 1  # dir24_8.c:470-471
        return "new", rsvd_need, rib_need
