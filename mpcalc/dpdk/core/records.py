"""The records the engine returns.  JSON is a projection of them (``to_dict``)."""

import functools
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, NamedTuple, TypeVar

from mpcalc.dpdk.core.errors import Rejection
from mpcalc.dpdk.core.flags import MEMPOOL_FLAGS, VALID_USER_FLAGS, effective_flags, flags_label
from mpcalc.dpdk.core.flags import flag_names as _flag_names
from mpcalc.dpdk.core.tuples import positional

_T = TypeVar("_T", bound=tuple[Any, ...])


#: the shared, read-only default of Result.details
_NO_DETAILS: Mapping[str, object] = MappingProxyType({})


@functools.lru_cache(maxsize=1024)
def _names(mask: int) -> tuple[str, ...]:
    return tuple(_flag_names(mask))


def flag_names(mask: int) -> list[str]:
    """:func:`mpcalc.dpdk.core.flags.flag_names`, memoized (to_dict asks for the same few masks over and over)."""
    return list(_names(mask))


class ObjSize(NamedTuple):
    """``struct rte_mempool_objsz``: one object as the pool lays it out."""

    header_size: int
    elt_size: int
    trailer_size: int
    total_size: int

    def to_dict(self) -> dict[str, int]:
        return {
            "header_size": self.header_size,
            "elt_size": self.elt_size,
            "trailer_size": self.trailer_size,
            "total_size": self.total_size,
        }


class Memzone(NamedTuple):
    """A memzone as ``rte_memzone_dump`` shows it: its name and ``len``."""

    name: str
    len: int
    role: str
    leaked: bool = False

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {"name": self.name, "len": self.len, "role": self.role}
        if self.leaked:
            out["leaked"] = True
        return out


class Allocation(NamedTuple):
    """An ``rte_malloc`` allocation that is not a memzone: its type string and requested bytes."""

    name: str
    size: int
    role: str

    def to_dict(self) -> dict[str, object]:
        return {"name": self.name, "size": self.size, "role": self.role}


class HeaderLayout(NamedTuple):
    """What the header memzone ``MP_<name>`` holds."""

    mempool_struct: int
    cache_struct: int
    caches: int
    private_data: int

    def to_dict(self) -> dict[str, int]:
        return {
            "mempool_struct": self.mempool_struct,
            "cache_struct": self.cache_struct,
            "caches": self.caches,
            "private_data": self.private_data,
        }


class Mempool(NamedTuple):
    """One ``rte_mempool`` as ``rte_mempool_create`` builds it."""

    name: str
    count: int  # type: ignore[assignment]  # DPDK's name (n); shadows tuple.count, as namedtuples allow
    elt_size: int
    cache_size: int
    private_data_size: int
    flags: int
    effective_flags: int
    mp_flags: int | None
    ops_name: str
    objsz: ObjSize | None
    header: HeaderLayout | None
    ring_size: int | None
    objs_per_page: int | None
    memzones: tuple[Memzone, ...]
    allocations: tuple[Allocation, ...]
    errors: tuple[Rejection, ...] = ()
    #: the heap its memzones and allocations take (each one malloc element: mpcalc.dpdk.core.heap.element_cost)
    heap_bytes: int = 0

    @property
    def total_bytes(self) -> int:
        return sum(m.len for m in self.memzones) + sum(a.size for a in self.allocations)

    def to_dict(self) -> dict[str, object]:
        return {
            "name": self.name,
            "count": self.count,
            "elt_size_requested": self.elt_size,
            "cache_size": self.cache_size,
            "private_data_size": self.private_data_size,
            "flags": flag_names(self.flags),
            "effective_flags": flag_names(self.effective_flags & VALID_USER_FLAGS),
            "mp_flags": self.mp_flags,
            "ops_name": self.ops_name,
            **(
                self.objsz.to_dict()
                if self.objsz
                else {"header_size": None, "elt_size": None, "trailer_size": None, "total_size": None}
            ),
            "header": self.header.to_dict() if self.header else None,
            "ring_size": self.ring_size,
            "objs_per_page": self.objs_per_page,
            "memzones": [m.to_dict() for m in self.memzones],
            "allocations": [a.to_dict() for a in self.allocations],
            "total_bytes": self.total_bytes,
            "errors": [e.to_dict() for e in self.errors],
        }


def _decl(kind: str) -> Any:
    """The declaration of object ``kind`` (mpcalc.dpdk.core.declare.ObjectDecl): what its results' JSON says."""
    from mpcalc.dpdk.core.registry import get  # the registry imports the objects, which import these records

    return get(kind)


@functools.lru_cache(maxsize=1024)
def kind_flag_names(kind: str, flags: int) -> tuple[str, ...]:
    """The names of ``flags`` in the vocabulary of object ``kind`` (its ObjectDecl.flag_set: a ring's RING_F_*,
    a hash's extra flags, else mempool flags): a result's JSON ``flags`` (memoized: a batch asks for the same
    few over and over)."""
    vocabulary = _decl(kind).flag_set
    return tuple(flag_names(flags) if vocabulary is MEMPOOL_FLAGS else vocabulary.names(flags))


@functools.lru_cache(maxsize=1024)
def kind_flags_label(kind: str, flags: int) -> str:
    """:func:`mpcalc.dpdk.core.flags.flags_label` of :func:`kind_flag_names` (memoized: a batch asks for the same
    few over and over).

    >>> kind_flags_label("pool", 3), kind_flags_label("ring", 3), kind_flags_label("hash", 0)
    ('no_spread|no_cache_align', 'sp_enq|sc_deq', 'none')
    """
    return flags_label(kind_flag_names(kind, flags))


class Footprint(NamedTuple):
    """What an object reserves, as numbers only: what a compact batch answer and a sweep row show.

    An object's footprint function (``ObjectDecl.footprint``) and its records (``ObjectDecl.build``)
    come from the same composition; :attr:`Result.footprint` is the same numbers read off the records.
    """

    object_size: int | None
    total_bytes: int
    heap_bytes: int
    hugepages: int | None
    errors: tuple[Rejection, ...]


#: ``Footprint(*values)``, as :func:`positional` makes it
new_footprint = positional(Footprint)


class Result(NamedTuple):
    """Everything one configuration reserves, under one flag combination."""

    kind: str
    flags: int
    mempools: tuple[Mempool, ...]
    allocations: tuple[Allocation, ...]
    total_bytes: int
    heap_bytes: int
    hugepages: int | None
    errors: tuple[Rejection, ...]
    details: Mapping[str, object] = _NO_DETAILS
    #: memzones outside any mempool (a ring's RG_<name>, a hash's rings: kinds whose ObjectDecl.own_zones)
    zones: tuple[Memzone, ...] = ()

    @property
    def effective_flags(self) -> int:
        return self.mempools[0].effective_flags if self.mempools else effective_flags(self.flags)

    @property
    def memzones(self) -> tuple[Memzone, ...]:
        return tuple(m for mp in self.mempools for m in mp.memzones) + self.zones

    @property
    def ok(self) -> bool:
        return not self.errors

    @property
    def footprint(self) -> Footprint:
        objsz = self.mempools[0].objsz if self.mempools else None
        return Footprint(
            objsz.total_size if objsz else None, self.total_bytes, self.heap_bytes, self.hugepages, self.errors
        )

    @property
    def flags_label(self) -> str:
        return kind_flags_label(self.kind, self.flags)

    def to_dict(self) -> dict[str, object]:
        decl = _decl(self.kind)
        mempool_flags = decl.flag_set is MEMPOOL_FLAGS  # else a ring's RING_F_*, a hash's extra flags
        return {
            "kind": self.kind,
            "flags": list(kind_flag_names(self.kind, self.flags)),
            "effective_flags": flag_names(self.effective_flags & VALID_USER_FLAGS) if mempool_flags else [],
            "mempools": [m.to_dict() for m in self.mempools],
            **({"memzones": [z.to_dict() for z in self.zones]} if decl.own_zones else {}),
            "allocations": [a.to_dict() for a in self.allocations],
            "details": dict(self.details),
            "total_bytes": self.total_bytes,
            "heap_bytes": self.heap_bytes,
            "hugepages": self.hugepages,
            "errors": [e.to_dict() for e in self.errors],
        }


#: the version of the JSON documents built from these records (mpcalc schema)
SCHEMA_VERSION = "1.0"
