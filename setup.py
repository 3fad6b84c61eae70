"""Builds the optional C parts: the route planner's (mpcalc/dpdk/objects/routes/_accel.c) and the trace reader's
(mpcalc/dpdk/apps/trace/_ctf.c); pyproject.toml declares the rest.

The extensions are optional: where they cannot be built (no compiler, no Python headers) pip installs the
pure-Python package, which gives the same answers, more slowly (mpcalc/dpdk/objects/routes/accel.py and
mpcalc/dpdk/apps/trace/ctf.py choose at import).
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension("mpcalc.dpdk.objects.routes._accel", ["mpcalc/dpdk/objects/routes/_accel.c"], optional=True),
        Extension("mpcalc.dpdk.apps.trace._ctf", ["mpcalc/dpdk/apps/trace/_ctf.c"], optional=True),
    ]
)
