"""The (family, order) cases of the full-table conformance tests (test_lpm_fulltable.py, test_tbl8_fulltable.py).

IPv4's million routes in address order run only with ``MPCALC_FULL_TABLES=1``: about 100 s of the suite's
20 minutes, for the order alone (the same table in random order, and IPv6's in both orders, always run).
"""

from __future__ import annotations

import os

import pytest

FULL_ORDERS = [
    (4, "random"),
    (6, "random"),
    pytest.param(
        4,
        "sorted",
        marks=pytest.mark.skipif(
            os.environ.get("MPCALC_FULL_TABLES") != "1",
            reason="the IPv4 full table in address order: set MPCALC_FULL_TABLES=1 (about 100 s)",
        ),
    ),
    (6, "sorted"),
]
