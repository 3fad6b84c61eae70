"""Route tables, and the tbl8 groups / RIB nodes DPDK needs to hold them.

``parse_routes`` / ``read_routes`` read one prefix per line::

    # comment
    10.0.0.0/8            # no next hop: all such routes are assumed distinct
    10.1.2.0/24   7       # next hop 7 (an unsigned integer, at most 2^64-1)

Host bits are accepted and masked away, as DPDK does (``ip &= mask`` in
v22.11.11:lib/fib/dir24_8.c:433 dir24_8_modify, trie.c:542-543 trie_modify),
so ``10.1.2.3/24`` is the route ``10.1.2.0/24``.

``plan`` / ``tbl8_needed`` do not estimate: they replay ``rte_fib_add`` /
``rte_fib6_add`` route by route, in file order, on a Python port of DPDK
v22.11.11's RIB (lib/rib/rte_rib.c, rte_rib6.c) and data planes
(lib/fib/dir24_8.c, lib/fib/trie.c), and record every point where DPDK could
answer ENOSPC (the ``rsvd_tbl8s`` reservation test and every tbl8 allocation,
including the transient ones) or ENOMEM (RIB node allocation).  The table
entries are simulated exactly (next hops are replaced by small ids, which only
keeps equality, the one thing DPDK looks at).  A route without a next hop gets
a next hop of its own, different from every other one and from the default.

Pure Python, stdlib only (no click, no rich).
"""

from __future__ import annotations

import ipaddress
import os
from array import array
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from .errors import InputError

__all__ = [
    "Route", "RoutePlan", "Failure", "parse_routes", "read_routes", "plan", "tbl8_needed",
    "MAX_FILE_BYTES", "MAX_LINES",
]

MAX_FILE_BYTES = 64 << 20  #: read_routes refuses larger files
MAX_LINES = 10_000_000  #: ... and files with more lines
MAX_NEXT_HOP = (1 << 64) - 1  #: rte_fib_add takes a uint64_t next hop
_WIDTH = {4: 32, 6: 128}
_DP = {4: "dir24_8", 6: "trie"}


@dataclass(frozen=True, kw_only=True, slots=True)
class Route:
    """One line of a route file: ``network`` is the masked address as an int."""

    network: int
    depth: int
    next_hop: int | None = None
    line: int = 0  #: 1-based line number in the source, 0 if not from a file

    def prefix(self, family: int) -> str:
        cls = ipaddress.IPv4Address if family == 4 else ipaddress.IPv6Address
        return f"{cls(self.network)}/{self.depth}"


# --------------------------------------------------------------------------
# parsing


def _ipv4(text: str) -> int | None:
    """Dotted quad, four decimal octets without leading zeros (what
    ipaddress.IPv4Address and inet_pton accept), or None."""
    parts = text.split(".")
    if len(parts) != 4:
        return None
    value = 0
    for part in parts:
        if not (part.isascii() and part.isdigit()) or len(part) > 3 or (len(part) > 1 and part[0] == "0"):
            return None
        octet = int(part)
        if octet > 255:
            return None
        value = (value << 8) | octet
    return value


def _ipv6(text: str) -> int | None:
    if "%" in text or not text.isascii():  # no scope ids
        return None
    try:
        return int(ipaddress.IPv6Address(text))
    except ValueError:
        return None


def parse_routes(lines: Iterable[str], family: int, *, source: str = "<stdin>") -> list[Route]:
    """Parse route lines; a bad line raises InputError naming ``source:line``."""
    if family not in _WIDTH:
        raise InputError(f"address family must be 4 or 6, not {family!r}", param="family")
    width = _WIDTH[family]
    parse_addr = _ipv4 if family == 4 else _ipv6
    fam_name = f"IPv{family}"
    routes: list[Route] = []
    append = routes.append
    full = (1 << width) - 1
    masks = [full ^ ((1 << (width - d)) - 1) for d in range(width + 1)]
    for lineno, raw in enumerate(lines, 1):
        text = raw
        if "#" in text:
            text = text[: text.index("#")]
        fields = text.split()
        if not fields:
            continue

        def bad(why: str) -> InputError:
            return InputError(f"{source}:{lineno}: {raw.strip()!r} {why}", param=source)

        if len(fields) > 2:
            raise bad("has more than a prefix and a next hop")
        pfx = fields[0]
        addr_text, slash, depth_text = pfx.partition("/")
        if not slash:
            raise bad(f"is not an {fam_name} prefix (no /depth)")
        if not (depth_text.isascii() and depth_text.isdigit()) or len(depth_text) > 3:
            raise bad(f"is not an {fam_name} prefix (bad depth {depth_text!r})")
        depth = int(depth_text)
        if depth > width:
            raise bad(f"is not an {fam_name} prefix (depth {depth} > {width})")
        addr = parse_addr(addr_text)
        if addr is None:
            raise bad(f"is not an {fam_name} prefix")
        nh = None
        if len(fields) == 2:
            nh_text = fields[1]
            if not (nh_text.isascii() and nh_text.isdigit()):
                raise bad(f"has a next hop {nh_text!r} that is not an unsigned integer")
            nh = int(nh_text)
            if nh > MAX_NEXT_HOP:
                raise bad(f"has a next hop {nh} above 2^64-1")
        append(Route(network=addr & masks[depth], depth=depth, next_hop=nh, line=lineno))
    return routes


def read_routes(path: str | os.PathLike[str], family: int) -> list[Route]:
    """Read a route file (UTF-8 text, at most 64 MiB and 10M lines)."""
    name = os.fspath(path)
    try:
        with open(name, "rb") as fh:
            data = fh.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise InputError(f"{name}: cannot read: {exc.strerror or exc}", param=name) from exc
    if len(data) > MAX_FILE_BYTES:
        raise InputError(f"{name}: larger than {MAX_FILE_BYTES >> 20} MiB; split the table", param=name)
    if b"\0" in data:
        raise InputError(f"{name}: binary file (contains NUL bytes), not a route list", param=name)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"{name}: not UTF-8 text (byte {exc.start}): not a route list", param=name) from exc
    lines = text.splitlines()
    if len(lines) > MAX_LINES:
        raise InputError(f"{name}: more than {MAX_LINES:,} lines; split the table", param=name)
    return parse_routes(lines, family, source=name)


# --------------------------------------------------------------------------
# rte_rib / rte_rib6 (v22.11.11:lib/rib/rte_rib.c, rte_rib6.c): the same
# algorithm at 32 and 128 bits.  Node allocations are counted: the node
# mempool has exactly max_nodes objects and no cache (rte_rib.c:410-412).


class _Node:
    __slots__ = ("left", "right", "parent", "ip", "depth", "valid", "nh")

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

    def _link(self, side, node: _Node) -> None:
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


# --------------------------------------------------------------------------
# tbl8 accounting shared by both data planes


class _Groups:
    """The tbl8 groups: contents (256 entries each) and the in-use count.

    Which index DPDK hands out (lowest free bit for dir24_8, a LIFO pool for
    the trie) does not change any count, so indexes are just kept distinct.
    """

    def __init__(self) -> None:
        self.data: dict[int, list[int]] = {}
        self.free: list[int] = []
        self.next = 0
        self.in_use = 0
        self.peak = 0  # the most groups ever in use at once: this add's requirement

    def alloc(self, fill: int) -> int:
        idx = self.free.pop() if self.free else self._fresh()
        self.in_use += 1
        if self.in_use > self.peak:
            self.peak = self.in_use
        self.data[idx] = [fill] * 256
        return idx

    def _fresh(self) -> int:
        self.next += 1
        return self.next - 1

    def put(self, idx: int) -> None:
        del self.data[idx]
        self.free.append(idx)
        self.in_use -= 1


def _tbl24() -> array:
    # both data planes start with every tbl24 entry = def_nh << 1 (dir24_8.c:537,
    # trie.c:656); the default next hop is id 0, so the entry value is 0.
    return array("I", [0]) * (1 << 24)


def _fill(tbl: array, start: int, n: int, val: int) -> None:
    if n > 0:
        tbl[start:start + n] = array("I", [val]) * n


# --------------------------------------------------------------------------
# DIR24_8 (v22.11.11:lib/fib/dir24_8.c)

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
                self.g.data[idx][lo:lo + left] = [ext] * left
                self._recycle(ledge, idx)
            _fill(self.tbl24, up >> 8, n24, val << 1)
            if redge & 0xFF:
                idx = self._ext_group(redge, False)
                self.g.data[idx][0:redge & 0xFF] = [ext] * (redge & 0xFF)
                self._recycle(redge, idx)
        elif redge != ledge:
            idx = self._ext_group(ledge, False)
            lo = ledge & 0xFF
            self.g.data[idx][lo:lo + redge - ledge] = [ext] * (redge - ledge)
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


# --------------------------------------------------------------------------
# TRIE (v22.11.11:lib/fib/trie.c).  A "pointer" is (in_tbl8, entry index).


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
            self.g.data[p[1] >> 8][off:off + n] = [val] * n
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

    def _write_edge(self, ip: list[int], pos: int, val_nh: int, ln: int, ledge: bool,
                    ent: tuple[bool, int]) -> None:  # write_edge (trie.c:316-353)
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


# --------------------------------------------------------------------------
# the plan


@dataclass(frozen=True, kw_only=True)
class Failure:
    """What DPDK does first when a FIB is too small for the table."""

    index: int  #: 0-based position of the route in the list
    errno: str  #: "ENOSPC" or "ENOMEM"
    reason: str
    silent: bool = False  #: rte_fib_add still returns 0 (a replaced next hop); DPDK's table is then wrong


@dataclass(frozen=True, kw_only=True)
class RoutePlan:
    """What adding ``routes`` in order with rte_fib_add / rte_fib6_add takes."""

    family: int
    dp_type: str
    routes: int  #: route lines
    distinct_routes: int  #: distinct prefix/depth pairs
    duplicates: int  #: lines repeating an existing route with the same next hop (no-ops)
    replacements: int  #: lines giving an existing route a new next hop
    same_as_parent: int  #: new routes whose next hop equals the covering route's: the table is untouched
    tbl8_needed: int  #: the fewest tbl8 groups with which no add fails (``provided`` count for DIR24_8)
    tbl8_reserved: int  #: rsvd_tbl8s at the end
    tbl8_peak: int  #: the most groups in use at once, counting transient allocations
    tbl8_in_use: int  #: groups in use at the end
    rib_nodes_needed: int  #: the most RIB nodes in use at once (routes + branching nodes + transient)
    rib_nodes: int  #: RIB nodes in use at the end
    min_max_routes: int  #: the smallest max_routes whose 2*max_routes nodes suffice
    num_tbl8: int  #: a num_tbl8 to ask for (tbl8_needed, at least 1)
    tbl8_need: tuple[int, ...] = field(repr=False)  #: per route: tbl8s its add needs (allocations)
    rsvd_need: tuple[int, ...] = field(repr=False)  #: per route: tbl8s its reservation test needs
    rib_need: tuple[int, ...] = field(repr=False)  #: per route: RIB nodes its insert needs
    kinds: tuple[str, ...] = field(repr=False)  #: per route: new / same-as-parent / duplicate / replace
    clobbers: tuple[int, ...] = ()  #: routes whose add hit DPDK's wrap-around bug: the table is wrong after them

    def first_failure(self, tbl8s: int | None = None, rib_nodes: int | None = None) -> Failure | None:
        """The first add that fails with ``tbl8s`` groups (DPDK's real count:
        rounded up to 64 for DIR24_8) and ``rib_nodes`` RIB nodes (2 * max_routes);
        None if all succeed.  Valid up to and including that route; after a
        silent failure DPDK's table no longer matches the RIB."""
        big = 1 << 64
        t = big if tbl8s is None else tbl8s
        n = big if rib_nodes is None else rib_nodes
        for i, kind in enumerate(self.kinds):
            if self.rsvd_need[i] > t:
                return Failure(index=i, errno="ENOSPC", reason=f"reservation: {self.rsvd_need[i]} tbl8s "
                               f"reserved > {t}")
            if self.rib_need[i] > n:
                return Failure(index=i, errno="ENOMEM", reason=f"RIB needs {self.rib_need[i]} nodes > {n}")
            if self.tbl8_need[i] > t:
                return Failure(index=i, errno="ENOSPC", silent=kind == "replace",
                               reason=f"tbl8 allocation: {self.tbl8_need[i]} in use > {t}")
        return None

    def to_dict(self) -> dict[str, object]:
        return {k: getattr(self, k) for k in (
            "family", "dp_type", "routes", "distinct_routes", "duplicates", "replacements", "same_as_parent",
            "tbl8_needed", "tbl8_reserved", "tbl8_peak", "tbl8_in_use", "rib_nodes_needed", "rib_nodes",
            "min_max_routes", "num_tbl8", "clobbers")}


def _check(family: int, dp_type: str) -> None:
    if family not in _DP:
        raise InputError(f"address family must be 4 or 6, not {family!r}", param="family")
    if dp_type != _DP[family]:
        raise InputError(f"data plane {dp_type!r} does not use tbl8s for IPv{family}: "
                         f"use {_DP[family]!r}", param="type")


def plan(routes: Sequence[Route], family: int, dp_type: str | None = None, *, default_nh: int = 0) -> RoutePlan:
    """Replay ``routes`` into DIR24_8 (IPv4) or TRIE (IPv6) and account for everything."""
    dp_type = dp_type or _DP.get(family, "")
    _check(family, dp_type)
    width = _WIDTH[family]
    dp = _Dir24_8() if family == 4 else _Trie()
    ids: dict[int, int] = {default_nh: 0}  # next hop -> id; DPDK only compares them
    fresh = 0
    tbl8_need: list[int] = []
    rsvd_need: list[int] = []
    rib_need: list[int] = []
    kinds: list[str] = []
    distinct: set[tuple[int, int]] = set()
    clobbers: list[int] = []
    g = dp.g
    for r in routes:
        if not 0 <= r.depth <= width or not 0 <= r.network < 1 << width:
            raise InputError(f"route {r} is not an IPv{family} prefix", param="routes")
        if r.next_hop is None:
            fresh += 1
            val = -fresh
        else:
            val = r.next_hop
        vid = ids.setdefault(val, len(ids))
        ip = r.network & dp.rib.masks[r.depth]
        distinct.add((ip, r.depth))
        g.peak = g.in_use
        kind, rsvd, rib = dp.add(ip, r.depth, vid)
        if dp.clobbered:
            clobbers.append(len(kinds))
            dp.clobbered = False
        tbl8_need.append(g.peak)
        rsvd_need.append(rsvd)
        rib_need.append(rib)
        kinds.append(kind)
    needed = max(max(tbl8_need, default=0), max(rsvd_need, default=0))
    nodes_needed = max(rib_need, default=0)
    return RoutePlan(
        family=family, dp_type=dp_type, routes=len(routes), distinct_routes=len(distinct),
        duplicates=kinds.count("duplicate"), replacements=kinds.count("replace"),
        same_as_parent=kinds.count("same-as-parent"),
        tbl8_needed=needed, tbl8_reserved=dp.rsvd, tbl8_peak=max(tbl8_need, default=0), tbl8_in_use=g.in_use,
        rib_nodes_needed=nodes_needed, rib_nodes=dp.rib.cur_nodes, min_max_routes=max(1, -(-nodes_needed // 2)),
        num_tbl8=max(1, needed),
        tbl8_need=tuple(tbl8_need), rsvd_need=tuple(rsvd_need), rib_need=tuple(rib_need), kinds=tuple(kinds),
        clobbers=tuple(clobbers),
    )


def tbl8_needed(routes: Sequence[Route], family: int, dp_type: str | None = None, *, default_nh: int = 0) -> int:
    """The fewest tbl8 groups with which every rte_fib_add / rte_fib6_add of
    ``routes`` (in order) succeeds and leaves a correct table."""
    return plan(routes, family, dp_type, default_nh=default_nh).tbl8_needed
