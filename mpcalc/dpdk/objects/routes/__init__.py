"""Route tables, and the tbl8 groups / RIB nodes DPDK needs to hold them.

``plan`` / ``tbl8_needed`` do not estimate: they replay ``rte_fib_add`` / ``rte_fib6_add`` route by route, in
the list's order, and record every point where DPDK v22.11.11 could answer ENOSPC (the ``rsvd_tbl8s``
reservation test and every tbl8 allocation, including the transient ones) or ENOMEM (RIB node
allocation).  Next hops are replaced by small ids, which only keeps equality, the one thing DPDK looks at;
a route without a next hop gets one of its own, different from every other one and from the default.

The modules, one job each:

- ``parse``: ``Route``, ``parse_routes``, ``read_routes`` (the plain route file, line by line);
- ``table``: ``RouteTable`` (a route list as columns), ``TableBuilder``, the plain file read in bulk;
- ``sources``: ``read_table``, the route sources (plain, ip route, FRR json, BIRD, bgpdump -m, MRT);
- ``fast4`` (with ``deep24``) / ``fast6`` (with ``trie6``): the replays of the state that decides DPDK's
  answers (DIR24_8, the trie), and ``accel``: the same in C (``_accel.c``, optional; setup.py builds it);
- ``reference``: the line-by-line replay they are tested against, on ``rib`` (lib/rib/rte_rib.c,
  rte_rib6.c), ``groups``, ``dir24_8`` (lib/fib/dir24_8.c) and ``trie`` (lib/fib/trie.c);
- ``trace``: what a replay records; ``planner``: ``Failure``, ``RoutePlan``, ``plan``, ``tbl8_needed``.

Every name is re-exported here, the private ones too, so ``from mpcalc.dpdk import routes`` reaches all of
them as before.

Pure Python, stdlib only (no click, no rich).
"""

from __future__ import annotations

# the public names (__all__), and the private ones as ``X as X`` re-exports,
# all importable from here as they were when this package was one module
# (tests reach some private ones, such as _ipv4).  read_routes reads its limits
# from .parse: to change MAX_FILE_BYTES / MAX_LINES, set them on routes.parse.
from mpcalc.dpdk.objects.routes.dir24_8 import _M32 as _M32
from mpcalc.dpdk.objects.routes.dir24_8 import _Dir24_8 as _Dir24_8
from mpcalc.dpdk.objects.routes.dir24_8 import _roundup24 as _roundup24
from mpcalc.dpdk.objects.routes.groups import _fill as _fill
from mpcalc.dpdk.objects.routes.groups import _Groups as _Groups
from mpcalc.dpdk.objects.routes.groups import _tbl24 as _tbl24
from mpcalc.dpdk.objects.routes.parse import _WIDTH as _WIDTH
from mpcalc.dpdk.objects.routes.parse import MAX_FILE_BYTES, MAX_LINES, Route, parse_routes, read_routes
from mpcalc.dpdk.objects.routes.parse import MAX_NEXT_HOP as MAX_NEXT_HOP
from mpcalc.dpdk.objects.routes.parse import _ipv4 as _ipv4
from mpcalc.dpdk.objects.routes.parse import _ipv6 as _ipv6
from mpcalc.dpdk.objects.routes.planner import _DP as _DP
from mpcalc.dpdk.objects.routes.planner import Failure, RoutePlan, plan, tbl8_needed
from mpcalc.dpdk.objects.routes.planner import _check as _check
from mpcalc.dpdk.objects.routes.rib_replay import _Node as _Node
from mpcalc.dpdk.objects.routes.rib_replay import _Rib as _Rib
from mpcalc.dpdk.objects.routes.route_table import RouteTable, TableBuilder
from mpcalc.dpdk.objects.routes.route_table import next_hop_ids as next_hop_ids
from mpcalc.dpdk.objects.routes.trie import _ceil8 as _ceil8
from mpcalc.dpdk.objects.routes.trie import _Trie as _Trie

__all__ = [
    "MAX_FILE_BYTES",
    "MAX_LINES",
    "Failure",
    "Route",
    "RoutePlan",
    "RouteTable",
    "TableBuilder",
    "parse_routes",
    "plan",
    "read_routes",
    "tbl8_needed",
]
