"""A sizing job: one object's arguments on one platform, evaluable under any flags or with a value changed.

``--fit`` grows one parameter; ``--explain`` evaluates variants (a flag, a cache layout, a page size,
a count) to rank the savings.  Everything comes from the object's declaration
(mpcalc.dpdk.core.declare.ObjectDecl): its checks, its sizing function, the keys ``--fit`` may grow.
Pure: no click, no rich.
"""

import functools
from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

from mpcalc.dpdk.core.declare import ObjectDecl, Resolved
from mpcalc.dpdk.core.errors import InputError, Rejection
from mpcalc.dpdk.core.intmath import largest
from mpcalc.dpdk.core.levers import levers
from mpcalc.dpdk.core.platform import Platform
from mpcalc.dpdk.core.records import Result


class Job(NamedTuple):
    decl: ObjectDecl
    platform: Platform
    #: the object's parameters, every key present (absent ones hold their defaults)
    args: Mapping[str, Any]
    #: ``decl.resolve(args)``
    resolved: Resolved

    @classmethod
    def of(cls, decl: ObjectDecl, platform: Platform, args: Mapping[str, Any]) -> "Job":
        return cls(decl, platform, *complete(decl, args))

    @property
    def command(self) -> str:
        return self.decl.name

    @property
    def inputs(self) -> dict[str, Any]:
        return self.resolved.inputs

    def result(self, flags: int, *, page_size: int | None = None, **changes: Any) -> Result:
        """The object under ``flags``, with parameters ``changes`` and, if given, another page size."""
        p = self.platform if page_size is None else self.platform._replace(page_size=page_size)
        resolved = self.resolved
        if changes:
            resolved = self.decl.resolve({**self.args, **changes})
        return self.decl.build(resolved.inputs, resolved.extra, flags, p)

    @property
    def fit_key(self) -> str:
        key = self.decl.fit_key(self.args)
        if key is None:
            raise ValueError(f"{self.command} has nothing --fit can grow")
        return key

    def fit(self, flags: int, budget: int) -> tuple[int | None, Result | None]:
        """The largest value of :attr:`fit_key` whose heap_bytes fit ``budget`` (exact: one more does not).

        Small values DPDK rejects (a cache larger than the pool allows) count as fitting so the search
        stays monotone; the answer is then checked to be a valid configuration.
        """
        key = self.fit_key

        def fits(n: int) -> bool:
            r = self.result(flags, **{key: n})
            return any(e.errno for e in r.errors) or r.heap_bytes <= budget  # a hazard fits only by its size

        value = largest(fits, 1, self.decl.fit[key])
        if value is None:
            return None, None
        best = self.result(flags, **{key: value})
        return (None, best) if best.errors else (value, best)

    def variants(self, flags: int) -> dict[str, Callable[[], Result]]:
        """Alternatives whose savings --explain ranks: the object's levers (:func:`mpcalc.dpdk.core.levers.levers`)."""
        out: dict[str, Callable[[], Result]] = {}
        key = self.decl.fit_key(self.args)
        count_key = key if key in ("count", "nodes") and self.args.get(key) else None
        for lever in levers(
            flags=flags if self.decl.has_flags else None,
            cache_size=self.args.get("cache_size") or 0,
            cache_layout=self.args.get("cache_layout"),
            count=self.args[count_key] if count_key else None,
            page_size=self.platform.page_size,
        ):
            kind, what = lever.key.split(":", 1)
            changes = dict(lever.changes)
            mask = changes.pop("flags", flags)
            if kind == "flag":
                label = _PATCH if what == "all" else f"add flag {what}"
            elif kind == "cache":
                label = _CACHE.get(what) or f"cache_size {changes['cache_size']}"
            elif kind == "count" and count_key is not None:
                changes = {count_key: changes["count"]}
                name = self.decl.input_name(count_key)
                label = f"{name} {changes[count_key]:,} (the ring holds a power of two minus one)"
            else:
                label = f"page size {what}"
            out[label] = functools.partial(self.result, mask, **changes)
        return out


#: --explain's words for the levers
_PATCH = "flags no_cache_align,no_spread,no_iova_contig (the RIB patch's)"
_CACHE = {"index": "index-based per-lcore cache (the mempool index-cache RFC)", "0": "no per-lcore cache"}


_DEFAULTS: dict[str, dict[str, Any]] = {}
_NEEDED: dict[str, tuple[str, ...]] = {}


def complete(decl: ObjectDecl, args: Mapping[str, Any]) -> tuple[dict[str, Any], Resolved]:
    """``args`` with every key of the object (absent ones take their defaults), the required ones checked,
    and ``decl.resolve`` of them: a :class:`Job`'s ``args`` and ``resolved``."""
    name = decl.name
    defaults, needed = _DEFAULTS.get(name), _NEEDED.get(name)
    full = {**(_defaults(decl) if defaults is None else defaults), **args}
    for key in _needed(decl) if needed is None else needed:
        if full[key] is None:
            raise InputError(f"--{key.replace('_', '-')} is required (unless --fit finds it)")
    return full, decl.resolve(full)


def _defaults(decl: ObjectDecl) -> dict[str, Any]:
    found = _DEFAULTS.get(decl.name)
    if found is None:
        found = _DEFAULTS[decl.name] = decl.defaults()
    return found


def _needed(decl: ObjectDecl) -> tuple[str, ...]:
    found = _NEEDED.get(decl.name)
    if found is None:
        found = _NEEDED[decl.name] = tuple(p.key for p in decl.params if p.needed)
    return found


def fit_rejection(job: Job, budget: int) -> Rejection:
    return Rejection(
        errno=None,
        reason=f"no valid {job.decl.input_name(job.fit_key)} fits {budget:,} heap bytes",
        function="mpcalc --fit",
        source="-",
    )
