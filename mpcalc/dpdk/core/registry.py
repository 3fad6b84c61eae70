"""The registry of DPDK objects mpcalc sizes: name -> its declaration (mpcalc.dpdk.core.declare.ObjectDecl).

A declaration's module is imported when the object is first named, so ``mpcalc pool`` loads
neither the FIB nor the route planner.  Adding an object: write its module (spec, sizing function,
citations, declaration) and add one line here; everything else (its command, plan item, batch lines,
sweeps, ``--fit``, its JSON and its schema) is made from the declaration.  :func:`register` adds a
declaration made elsewhere (a test's throwaway object) and :func:`unregister` takes it away again.
"""

import functools
import importlib

from mpcalc.dpdk.core.declare import ObjectDecl

#: object name -> (its module, the attribute holding its ObjectDecl), in the order a plan lists them;
#: or the declaration itself, for one :func:`register` added
OBJECTS: dict[str, tuple[str, str] | ObjectDecl] = {
    "pool": ("mpcalc.dpdk.objects.mempool", "POOL"),
    "mbuf": ("mpcalc.dpdk.objects.mbuf", "MBUF"),
    "rib": ("mpcalc.dpdk.objects.rib", "RIB"),
    "fib": ("mpcalc.dpdk.objects.fib", "FIB"),
    "rib6": ("mpcalc.dpdk.objects.rib", "RIB6"),
    "fib6": ("mpcalc.dpdk.objects.fib", "FIB6"),
    "ring": ("mpcalc.dpdk.objects.ring", "RING"),
    "lpm": ("mpcalc.dpdk.objects.lpm", "LPM"),
    "hash": ("mpcalc.dpdk.objects.hash", "HASH"),
    "lpm6": ("mpcalc.dpdk.objects.lpm6", "LPM6"),
    "app": ("mpcalc.dpdk.apps", "APP"),
    "ovs": ("mpcalc.dpdk.apps.ovs", "OVS"),
    "trace": ("mpcalc.dpdk.apps.trace", "TRACE"),
}
NAMES = tuple(OBJECTS)


@functools.lru_cache(maxsize=256)  # every cache bounded (tests/test_hostile.py)
def get(name: str) -> ObjectDecl:
    """The declaration of object ``name`` (a KeyError for an unknown name)."""
    entry = OBJECTS[name]
    if isinstance(entry, ObjectDecl):
        return entry
    module, attr = entry
    decl: ObjectDecl = getattr(importlib.import_module(module), attr)
    return decl


def register(decl: ObjectDecl) -> None:
    """Add object ``decl.name`` (last in :data:`NAMES`), declared outside this registry."""
    global NAMES
    if decl.name in OBJECTS:
        raise ValueError(f"object {decl.name!r} is already registered")
    OBJECTS[decl.name] = decl
    NAMES = tuple(OBJECTS)
    get.cache_clear()


def unregister(name: str) -> None:
    """Take away an object :func:`register` added."""
    global NAMES
    if not isinstance(OBJECTS.get(name), ObjectDecl):
        raise ValueError(f"object {name!r} was not registered by register()")
    del OBJECTS[name]
    NAMES = tuple(OBJECTS)
    get.cache_clear()
