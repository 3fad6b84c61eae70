"""Builds the optional C part of the route planner, mpcalc/dpdk/routes/_accel.c; pyproject.toml declares the rest.

The extension is optional: where it cannot be built (no compiler, no Python headers) pip installs the pure-Python
package, which gives the same answers, more slowly (mpcalc/dpdk/routes/accel.py chooses at import).
"""

from setuptools import Extension, setup

setup(ext_modules=[Extension("mpcalc.dpdk.routes._accel", ["mpcalc/dpdk/routes/_accel.c"], optional=True)])
