"""The RIB replay: a Python port of rte_rib / rte_rib6.

v22.11.11:lib/rib/rte_rib.c, rte_rib6.c: the same algorithm at 32 and 128
bits (``_Rib(32)`` for rte_fib, ``_Rib(128)`` for rte_fib6), reproducing
rte_rib_lookup, rte_rib_lookup_parent, __rib_lookup_exact, rte_rib_get_nxt
(RTE_RIB_GET_NXT_COVER), rte_rib_insert and rte_rib_remove.  Node allocations
are counted: the node mempool has exactly max_nodes objects and no cache
(rte_rib.c:410-412).  (mpcalc.dpdk.objects.rib, by contrast, sizes a RIB's memory.)

Pure Python, stdlib only (no click, no rich).
"""

from __future__ import annotations


class _Node:
    __slots__ = ("depth", "ip", "left", "nh", "parent", "right", "valid")

    def __init__(self, ip: int, depth: int, valid: bool) -> None:
        self.left: _Node | None = None
        self.right: _Node | None = None
        self.parent: _Node | None = None
        self.ip = ip
        self.depth = depth
        self.valid = valid
        self.nh = 0


class _Rib:
    def __init__(self, width: int) -> None:
        self.w = width
        full = (1 << width) - 1
        self.masks = [full ^ ((1 << (width - d)) - 1) for d in range(width + 1)]
        self.tree: _Node | None = None
        self.cur_nodes = 0
        self.peak_nodes = 0

    def _covered(self, ip1: int, ip2: int, depth: int) -> bool:  # is_covered
        return ((ip1 ^ ip2) & self.masks[depth]) == 0

    def _next(self, node: _Node, ip: int) -> _Node | None:  # get_nxt_node
        if node.depth == self.w:
            return None
        return node.right if (ip >> (self.w - 1 - node.depth)) & 1 else node.left

    def _alloc(self) -> None:  # node_alloc (rte_rib.c:79-90)
        self.cur_nodes += 1
        if self.cur_nodes > self.peak_nodes:
            self.peak_nodes = self.cur_nodes

    def lookup(self, ip: int) -> _Node | None:  # rte_rib_lookup (rte_rib.c:99-116)
        cur, prev = self.tree, None
        while cur is not None and self._covered(ip, cur.ip, cur.depth):
            if cur.valid:
                prev = cur
            cur = self._next(cur, ip)
        return prev

    @staticmethod
    def lookup_parent(node: _Node) -> _Node | None:  # rte_rib_lookup_parent (rte_rib.c:118-129)
        tmp = node.parent
        while tmp is not None and not tmp.valid:
            tmp = tmp.parent
        return tmp

    def lookup_exact(self, ip: int, depth: int) -> _Node | None:  # __rib_lookup_exact (rte_rib.c:131-147)
        cur = self.tree
        while cur is not None:
            if cur.ip == ip and cur.depth == depth and cur.valid:
                return cur
            if cur.depth > depth or not self._covered(ip, cur.ip, cur.depth):
                break
            cur = self._next(cur, ip)
        return None

    def get_nxt(self, ip: int, depth: int, last: _Node | None) -> _Node | None:
        """rte_rib_get_nxt(..., RTE_RIB_GET_NXT_COVER) (rte_rib.c:166-204): the next
        valid node below ip/depth, skipping the subtree of ``last``."""
        ip &= self.masks[depth]
        if last is None:
            tmp = self.tree
            while tmp is not None and tmp.depth < depth:
                tmp = self._next(tmp, ip)
        else:
            tmp = last
            while tmp.parent is not None and (tmp.parent.right is tmp or tmp.parent.right is None):
                tmp = tmp.parent
                if tmp.valid and self._covered(tmp.ip, ip, depth) and tmp.depth > depth:
                    return tmp
            tmp = tmp.parent.right if tmp.parent is not None else None
        while tmp is not None:
            if tmp.valid and self._covered(tmp.ip, ip, depth) and tmp.depth > depth:
                return tmp
            tmp = tmp.left if tmp.left is not None else tmp.right
        return None

    def insert(self, ip: int, depth: int) -> _Node:
        """rte_rib_insert (rte_rib.c:238-342); the caller checked lookup_exact."""
        w = self.w
        self._alloc()  # new_node, allocated before the walk
        new = _Node(ip, depth, True)
        prev = None
        cur = self.tree
        side = None  # where cur hangs: (node, "left"/"right") or None for the root
        while True:
            if cur is None:
                new.parent = prev
                self._link(side, new)
                return new
            if cur.ip == ip and cur.depth == depth:  # an intermediate node: validate it
                self.cur_nodes -= 1  # node_free(new_node)
                cur.valid = True
                return cur
            d = cur.depth
            if d >= depth or not self._covered(ip, cur.ip, d):
                break
            prev = cur
            if (ip >> (w - 1 - d)) & 1:
                side, cur = (cur, "right"), cur.right
            else:
                side, cur = (cur, "left"), cur.left
        x = ip ^ cur.ip
        d = w if x == 0 else w - x.bit_length()
        common_depth = min(d, depth, cur.depth)
        common_prefix = ip & self.masks[common_depth]
        if common_prefix == ip and common_depth == depth:  # insert as a parent
            if (cur.ip >> (w - 1 - depth)) & 1:
                new.right = cur
            else:
                new.left = cur
            new.parent = cur.parent
            cur.parent = new
            self._link(side, new)
        else:  # an intermediate node branches: a second allocation
            self._alloc()
            common = _Node(common_prefix, common_depth, False)
            common.parent = cur.parent
            new.parent = common
            cur.parent = common
            if (new.ip >> (w - 1 - common_depth)) & 1 == 0:
                common.left, common.right = new, cur
            else:
                common.left, common.right = cur, new
            self._link(side, common)
        return new

    def _link(self, side: tuple[_Node, str] | None, node: _Node) -> None:
        if side is None:
            self.tree = node
        else:
            setattr(side[0], side[1], node)

    def remove(self, ip: int, depth: int) -> None:  # rte_rib_remove (rte_rib.c:206-236)
        cur = self.lookup_exact(ip, depth)
        if cur is None:
            return
        cur.valid = False
        while not cur.valid:
            if cur.left is not None and cur.right is not None:
                return
            child = cur.right if cur.left is None else cur.left
            if child is not None:
                child.parent = cur.parent
            if cur.parent is None:
                self.tree = child
                self.cur_nodes -= 1
                return
            if cur.parent.left is cur:
                cur.parent.left = child
            else:
                cur.parent.right = child
            prev, cur = cur, cur.parent
            self.cur_nodes -= 1
            del prev
