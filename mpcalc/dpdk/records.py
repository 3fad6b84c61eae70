"""The records the engine returns.  JSON is a projection of them (``to_dict``)."""

import functools
from collections.abc import Mapping
from types import MappingProxyType
from typing import NamedTuple

from .errors import Rejection
from .flags import VALID_USER_FLAGS, effective_flags
from .flags import flag_names as _flag_names


#: the shared, read-only default of Result.details
_NO_DETAILS: Mapping[str, object] = MappingProxyType({})


@functools.lru_cache(maxsize=1024)
def _names(mask: int) -> tuple[str, ...]:
    return tuple(_flag_names(mask))


def flag_names(mask: int) -> list[str]:
    """:func:`mpcalc.dpdk.flags.flag_names`, memoized (to_dict asks for the same few masks over and over)."""
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
    count: int
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
            **(self.objsz.to_dict() if self.objsz else {
                "header_size": None, "elt_size": None, "trailer_size": None, "total_size": None}),
            "header": self.header.to_dict() if self.header else None,
            "ring_size": self.ring_size,
            "objs_per_page": self.objs_per_page,
            "memzones": [m.to_dict() for m in self.memzones],
            "allocations": [a.to_dict() for a in self.allocations],
            "total_bytes": self.total_bytes,
            "errors": [e.to_dict() for e in self.errors],
        }


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

    @property
    def effective_flags(self) -> int:
        return self.mempools[0].effective_flags if self.mempools else effective_flags(self.flags)

    @property
    def memzones(self) -> tuple[Memzone, ...]:
        return tuple(m for mp in self.mempools for m in mp.memzones)

    @property
    def ok(self) -> bool:
        return not self.errors

    def to_dict(self) -> dict[str, object]:
        return {
            "kind": self.kind,
            "flags": flag_names(self.flags),
            "effective_flags": flag_names(self.effective_flags & VALID_USER_FLAGS),
            "mempools": [m.to_dict() for m in self.mempools],
            "allocations": [a.to_dict() for a in self.allocations],
            "details": dict(self.details),
            "total_bytes": self.total_bytes,
            "heap_bytes": self.heap_bytes,
            "hugepages": self.hugepages,
            "errors": [e.to_dict() for e in self.errors],
        }


SCHEMA_VERSION = "1.0"


class Report(NamedTuple):
    """What one command computed: the platform, the inputs and one result per flag combination."""

    command: str
    platform: dict[str, object]
    inputs: dict[str, object]
    results: tuple[Result, ...]
    notes: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return all(r.ok for r in self.results)

    def to_dict(self) -> dict[str, object]:
        from .. import __version__

        return {
            "schema_version": SCHEMA_VERSION,
            "mpcalc_version": __version__,
            "command": self.command,
            "platform": dict(self.platform),
            "input": dict(self.inputs),
            "results": [r.to_dict() for r in self.results],
            "notes": list(self.notes),
        }


class DiffRow(NamedTuple):
    """One memzone, allocation or total on both sides."""

    result: str
    section: str
    name: str
    left: int | None
    right: int | None

    @property
    def delta(self) -> int:
        return (self.right or 0) - (self.left or 0)

    def to_dict(self) -> dict[str, object]:
        return {"result": self.result, "section": self.section, "name": self.name, "left": self.left,
                "right": self.right, "delta": self.delta}


class DiffReport(NamedTuple):
    """The same configuration under two platforms or releases (``mpcalc diff``)."""

    left: Report
    right: Report
    rows: tuple[DiffRow, ...]

    @property
    def ok(self) -> bool:
        return self.left.ok and self.right.ok

    def to_dict(self) -> dict[str, object]:
        from .. import __version__

        return {
            "schema_version": SCHEMA_VERSION,
            "mpcalc_version": __version__,
            "command": "diff",
            "left": self.left.to_dict(),
            "right": self.right.to_dict(),
            "rows": [r.to_dict() for r in self.rows],
        }


def _items(result: dict) -> list[tuple[str, str, int]]:
    items = []
    for mp in result["mempools"]:
        items += [("memzone", m["name"], m["len"]) for m in mp["memzones"]]
        items += [("allocation", a["name"], a["size"]) for a in mp["allocations"]]
    items += [("allocation", a["name"], a["size"]) for a in result["allocations"]]
    items += [("total", k, result[k]) for k in ("total_bytes", "heap_bytes") if result[k] is not None]
    return items


def diff_reports(left: Report, right: Report) -> DiffReport:
    """Pair the results (by flag combination) and their items (by section and name)."""
    rows: list[DiffRow] = []
    lres, rres = left.to_dict()["results"], right.to_dict()["results"]
    for lr, rr in zip(lres, rres):  # type: ignore[call-overload]
        label = "|".join(lr["flags"]) or "none"
        lmap = {(s, n): v for s, n, v in _items(lr)}
        rmap = {(s, n): v for s, n, v in _items(rr)}
        keys = list(dict.fromkeys([(s, n) for s, n, _ in _items(lr)] + [(s, n) for s, n, _ in _items(rr)]))
        keys.sort(key=lambda k: k[0] == "total")
        rows += [DiffRow(result=label, section=s, name=n, left=lmap.get((s, n)), right=rmap.get((s, n)))
                 for s, n in keys]
    return DiffReport(left=left, right=right, rows=tuple(rows))
