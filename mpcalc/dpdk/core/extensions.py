"""The optional C parts of the model (setup.py builds them where there is a compiler): loaded here, the same way.

``MPCALC_PURE=1`` in the environment gives None (the Python path, on a machine that has both); so does a build of
another version of the C source than its Python expects (its ``VERSION``: rebuild with ``python setup.py
build_ext --inplace``).  Pure: stdlib only.
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType

__all__ = ["load_extension"]


def load_extension(name: str, version: int) -> ModuleType | None:
    """The extension module ``name`` (``mpcalc.dpdk.objects.routes._accel``) if it is built at ``version``, else
    None."""
    if os.environ.get("MPCALC_PURE"):
        return None
    try:
        module = importlib.import_module(name)
    except ImportError:
        return None
    return module if getattr(module, "VERSION", None) == version else None
