"""A sizing job: one object's arguments on one platform, evaluable under any flags or with a value changed.

``--fit`` grows one parameter; ``--explain`` evaluates variants (a flag, a cache layout, a page size,
a count) to rank the savings.  Everything comes from the object's declaration
(mpcalc.dpdk.declare.ObjectDecl): its checks, its sizing function, the keys ``--fit`` may grow.
Pure: no click, no rich.
"""

import functools
from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

from ..dpdk.declare import ObjectDecl, Resolved
from ..dpdk.errors import InputError, Rejection
from ..dpdk.flags import SIZING_FLAGS, flag_names
from ..dpdk.intmath import largest
from ..dpdk.platform import Platform
from ..dpdk.records import Result
from ..dpdk.units import page_label

PAGE_SIZES = (4096, 2 << 20, 1 << 30, 0)


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
        """Alternatives whose savings --explain ranks."""
        out: dict[str, Callable[[], Result]] = {}
        if self.decl.has_flags:
            for flag in SIZING_FLAGS:
                if not flags & flag:
                    out[f"add flag {flag_names(flag)[0]}"] = functools.partial(self.result, flags | flag)
            patch = flags | sum(int(f) for f in SIZING_FLAGS)
            if patch != flags:
                out["flags no_cache_align,no_spread,no_iova_contig (the RIB patch's)"] = lambda: self.result(patch)
        if self.args.get("cache_size"):
            if self.args.get("cache_layout") == "pointer":
                out["index-based per-lcore cache (the mempool index-cache RFC)"] = lambda: self.result(
                    flags, cache_layout="index"
                )
            half = self.args["cache_size"] // 2
            out[f"cache_size {half}"] = lambda: self.result(flags, cache_size=half)
            out["no per-lcore cache"] = lambda: self.result(flags, cache_size=0)
        key = self.decl.fit_key(self.args)
        if key in ("count", "nodes") and self.args.get(key):
            from .explain import under_pow2

            under = under_pow2(self.args[key])
            if under is not None:
                label = f"{self.decl.input_name(key)} {under:,} (the ring holds a power of two minus one)"
                out[label] = lambda: self.result(flags, **{key: under})
        for size in PAGE_SIZES:
            if size != self.platform.page_size:
                out[f"page size {page_label(size)}"] = functools.partial(self.result, flags, page_size=size)
        return out


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
