"""A sizing job: one command's parameters, evaluable under any flags or with one value changed.

``--fit`` varies one parameter; ``--explain`` evaluates variants (a flag, a cache layout, a page
size, a count) to rank the savings.  Pure: no click, no rich.
"""

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, NamedTuple

from . import engine
from .dpdk.errors import Rejection
from .dpdk.flags import SIZING_FLAGS, flag_names
from .dpdk.intmath import INT_MAX, largest
from .dpdk.records import Result
from .dpdk.platform import Platform
from .dpdk.units import page_label

RING_LIMIT = (1 << 30) - 1  # the largest n a ring-backed pool takes (rte_ring_get_memsize_elem)
PAGE_SIZES = (4096, 2 << 20, 1 << 30, 0)


def _pool(p: Platform, flags: int, a: dict[str, Any]) -> Result:
    return engine.pool(engine.PoolSpec(name=a["name"], count=a["count"], elt_size=a["elt_size"],
                                       cache_size=a["cache_size"], private_size=a["private_size"], flags=flags,
                                       cache_layout=a["cache_layout"]), p)


def _mbuf(p: Platform, flags: int, a: dict[str, Any]) -> Result:
    return engine.mbuf(engine.MbufSpec(name=a["name"], count=a["count"], cache_size=a["cache_size"],
                                       priv_size=a["priv_size"], data_room=a["data_room"], mtu=a["mtu"],
                                       cache_layout=a["cache_layout"]), p, a.get("lcores"))


def _rib(p: Platform, flags: int, a: dict[str, Any]) -> Result:
    nodes = a["max_nodes"] if a.get("routes") is None else engine.rib_max_nodes(a["routes"])
    return engine.rib(a["name"], nodes, a["ext_size"], flags, a["family"], p)


def _fib(p: Platform, flags: int, a: dict[str, Any]) -> Result:
    spec = engine.FibSpec(family=a["family"], name=a["name"], max_routes=a["routes"], type=a["type"],
                          nh_size=a["nh_size"], num_tbl8=a["tbl8"], ext_size=a["ext_size"])
    return engine.fib(spec, flags, p, a.get("plan"), a.get("table", ()))


BUILDERS = {"pool": _pool, "mbuf": _mbuf, "rib": _rib, "rib6": _rib, "fib": _fib, "fib6": _fib}
#: the parameter --fit varies, and its largest valid value
FIT = {"pool": ("count", RING_LIMIT), "mbuf": ("count", RING_LIMIT), "rib": ("max_nodes", RING_LIMIT),
       "rib6": ("max_nodes", RING_LIMIT), "fib": ("routes", RING_LIMIT // 2), "fib6": ("routes", RING_LIMIT // 2)}


class Job(NamedTuple):
    command: str
    platform: Platform
    args: Mapping[str, Any] = MappingProxyType({})

    def result(self, flags: int, *, page_size: int | None = None, **changes: Any) -> Result:
        p = self.platform if page_size is None else self.platform._replace(page_size=page_size)
        args = {**self.args, **changes}
        if "max_nodes" in changes:
            args["routes"] = None
        return BUILDERS[self.command](p, flags, args)

    @property
    def fit_key(self) -> str:
        key = FIT[self.command][0]
        return "routes" if key == "max_nodes" and self.args.get("routes") is not None else key

    def fit(self, flags: int, budget: int) -> tuple[int | None, Result | None]:
        """The largest value of :attr:`fit_key` whose heap_bytes fit ``budget`` (exact: one more does not).

        Small values DPDK rejects (a cache larger than the pool allows) count as fitting so the search
        stays monotone; the answer is then checked to be a valid configuration.
        """
        key = self.fit_key
        hi = FIT[self.command][1] if key != "routes" or self.command.startswith("fib") else RING_LIMIT // 2

        def fits(n: int) -> bool:
            r = self.result(flags, **{key: n})
            return bool(r.errors) or r.heap_bytes <= budget

        value = largest(fits, 1, hi)
        if value is None:
            return None, None
        best = self.result(flags, **{key: value})
        return (None, best) if best.errors else (value, best)

    def variants(self, flags: int) -> dict[str, Any]:
        """Alternatives whose savings --explain ranks."""
        out: dict[str, Any] = {}
        for flag in SIZING_FLAGS:
            if not flags & flag:
                out[f"add flag {flag_names(flag)[0]}"] = lambda f=flags | flag: self.result(f)
        patch = flags | sum(int(f) for f in SIZING_FLAGS)
        if patch != flags:
            out["flags no_cache_align,no_spread,no_iova_contig (the RIB patch's)"] = lambda: self.result(patch)
        if self.args.get("cache_size"):
            if self.args.get("cache_layout") == "pointer":
                out["index-based per-lcore cache (seed 003)"] = lambda: self.result(flags, cache_layout="index")
            half = self.args["cache_size"] // 2
            out[f"cache_size {half}"] = lambda: self.result(flags, cache_size=half)
            out["no per-lcore cache"] = lambda: self.result(flags, cache_size=0)
        key = self.fit_key
        if key in ("count", "max_nodes") and self.args.get(key):
            from .explain import under_pow2

            under = under_pow2(self.args[key])
            if under is not None:
                out[f"{key} {under:,} (the ring holds a power of two minus one)"] = lambda: self.result(
                    flags, **{key: under})
        for size in PAGE_SIZES:
            if size != self.platform.page_size:
                out[f"page size {page_label(size)}"] = lambda s=size: self.result(flags, page_size=s)
        return out


def fit_rejection(job: Job, budget: int) -> Rejection:
    return Rejection(errno=None, reason=f"no valid {job.fit_key} fits {budget:,} heap bytes",
                     function="mpcalc --fit", source="-")


__all__ = ["INT_MAX", "Job", "fit_rejection"]
