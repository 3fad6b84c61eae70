"""The registry of DPDK objects mpcalc sizes: name -> its declaration (mpcalc.dpdk.declare.ObjectDecl).

A declaration's module is imported when the object is first named, so ``mpcalc pool`` loads
neither the FIB nor the route planner.  Adding an object: write its module (spec, sizing function,
citations, declaration) and add one line here.
"""

import functools
import importlib

from .declare import ObjectDecl

#: object name -> (module under mpcalc.dpdk, attribute holding its ObjectDecl), in the order a plan lists them
OBJECTS: dict[str, tuple[str, str]] = {
    "pool": ("mempool", "POOL"),
    "mbuf": ("mbuf", "MBUF"),
    "rib": ("rib", "RIB"),
    "fib": ("fib", "FIB"),
    "rib6": ("rib", "RIB6"),
    "fib6": ("fib", "FIB6"),
    "ring": ("ring", "RING"),
    "lpm": ("lpm", "LPM"),
    "hash": ("hash", "HASH"),
    "lpm6": ("lpm6", "LPM6"),
    "app": ("apps", "APP"),
    "ovs": ("ovs", "OVS"),
    "trace": ("trace", "TRACE"),
}
NAMES = tuple(OBJECTS)


@functools.cache
def get(name: str) -> ObjectDecl:
    """The declaration of object ``name`` (a KeyError for an unknown name)."""
    module, attr = OBJECTS[name]
    decl: ObjectDecl = getattr(importlib.import_module(f"{__package__}.{module}"), attr)
    return decl
