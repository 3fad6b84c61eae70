"""An object's footprint function and its records come from one composition: the numbers agree."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from mpcalc.dpdk.core import registry
from mpcalc.dpdk.core.platform import platform_from
from mpcalc.service.job import Job

PLATFORMS = st.fixed_dictionaries(
    {},
    optional={
        "page_size": st.sampled_from([4096, 2 << 20, 1 << 30, 0]),
        "arch": st.sampled_from(["x86_64", "arm64"]),
        "channels": st.integers(1, 8),
        "max_lcore": st.integers(1, 1024),
        "dpdk": st.sampled_from(["21.11", "22.11", "26.07"]),
    },
)
FLAGS = st.integers(0, 0x7F) | st.sampled_from([0, 1, 2, 3, 0x20, 0x23, 0x80000000])
NAMES = st.sampled_from(["mp", "", "x" * 25, "x" * 26, "x" * 29, "x" * 61, "é" * 20])
COUNTS = st.integers(0, 1 << 32) | st.sampled_from([0, 1, (1 << 30) - 1, 1 << 30, (1 << 31) - 1])


@settings(max_examples=400, deadline=None)
@given(
    plat=PLATFORMS,
    name=NAMES,
    count=COUNTS,
    elt=st.integers(0, 1 << 32) | st.sampled_from([0xFFFFFFB8, 40]),
    cache=st.integers(0, 1024),
    priv=st.integers(0, 1 << 20),
    flags=FLAGS,
    layout=st.sampled_from(["pointer", "index"]),
)
def test_pool_footprint_is_its_records_numbers(plat, name, count, elt, cache, priv, flags, layout):
    _agree(
        "pool",
        plat,
        dict(name=name, count=count, elt_size=elt, cache_size=cache, private_size=priv, cache_layout=layout),
        flags,
    )


@settings(max_examples=400, deadline=None)
@given(
    plat=PLATFORMS,
    name=NAMES,
    nodes=st.integers(1, (1 << 31) - 1),
    routes=st.integers(1, (1 << 31) - 1),
    by_routes=st.booleans(),
    ext=st.integers(0, 1 << 33),
    flags=FLAGS,
    family=st.sampled_from(["rib", "rib6"]),
)
def test_rib_footprint_is_its_records_numbers(plat, name, nodes, routes, by_routes, ext, flags, family):
    args = dict(name=name, ext_size=ext, **({"routes": routes} if by_routes else {"nodes": nodes}))
    _agree(family, plat, args, flags)


def _agree(name: str, plat: dict, args: dict, flags: int) -> None:
    decl = registry.get(name)
    assert decl.footprint is not None
    p = platform_from(plat)
    try:
        job = Job.of(decl, p, args)
        result = job.result(flags)
    except ValueError as exc:  # InputError: the footprint function refuses the same value
        try:
            job = Job.of(decl, p, args)
            decl.footprint(job.inputs, job.resolved.extra, flags, p)
        except ValueError as again:
            assert str(again) == str(exc)
            return
        raise AssertionError(f"footprint accepted what build refused: {exc}") from None
    assert decl.footprint(job.inputs, job.resolved.extra, flags, p) == result.footprint
