"""Hypothesis properties of the engine (mpcalc.api, mpcalc.dpdk.objects.mempool) and of its projections (JSON, CSV)."""

from __future__ import annotations

import csv
import io
import json

from hypothesis import given
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from mpcalc import api
from mpcalc.dpdk.core.flags import VALID_USER_FLAGS, MempoolFlag, effective_flags, flag_names
from mpcalc.dpdk.core.intmath import ceil_a
from mpcalc.dpdk.core.platform import describe, make_platform
from mpcalc.dpdk.objects.mempool import PoolSpec, calc_obj_size
from mpcalc.render import csvfmt, jsonfmt
from mpcalc.service.documents import Report
from mpcalc.service.schema import documents

# Hypothesis settings (200 examples, no deadline): the "mpcalc" profile tests/conftest.py loads

NCA = int(MempoolFlag.NO_CACHE_ALIGN)
NS = int(MempoolFlag.NO_SPREAD)

PAGE_SIZES = [0, 4096, 65536, 2 * 2**20, 2**30]
user_flags = st.sampled_from([m for m in range(0x30) if m & ~VALID_USER_FLAGS == 0])
any_flags = st.integers(min_value=0, max_value=0x7F)
# elt sizes small enough that calc_obj_size never wraps uint32
elt_sizes = st.integers(min_value=0, max_value=1 << 20)
names = st.text(alphabet="abcdefghijklmnopqrstuvwxyz_0123456789", min_size=1, max_size=32)


@st.composite
def platforms(draw, cache_lines=(64, 128)):
    return make_platform(
        channels=draw(st.integers(min_value=1, max_value=12)),
        ranks=draw(st.integers(min_value=1, max_value=16)),
        page_size=draw(st.sampled_from(PAGE_SIZES)),
        cache_line=draw(st.sampled_from(cache_lines)),
        max_lcore=draw(st.sampled_from([None, 1, 24, 128, 256, 768])),
        debug=draw(st.booleans()),
    )


@st.composite
def pool_specs(draw, flags=any_flags, max_count=2**30 + 4):
    return PoolSpec(
        name=draw(names),
        count=draw(st.integers(min_value=0, max_value=max_count)),
        elt_size=draw(elt_sizes),
        cache_size=draw(st.integers(min_value=0, max_value=520)),
        private_size=draw(st.integers(min_value=0, max_value=1 << 16)),
        flags=draw(flags),
        cache_layout=draw(st.sampled_from(["pointer", "index"])),
    )


@st.composite
def results(draw):
    """A pool, rib or rib6 result, valid or not."""
    p = draw(platforms())
    kind = draw(st.sampled_from(["pool", "rib", "rib6"]))
    if kind == "pool":
        return api.pool(draw(pool_specs()), p), p
    nodes = draw(st.one_of(st.integers(min_value=-5, max_value=2**31 - 1), st.integers(min_value=1, max_value=1 << 22)))
    ext = draw(st.integers(min_value=0, max_value=4096))
    return api.rib(draw(names), nodes, ext, draw(user_flags), 4 if kind == "rib" else 6, p), p


def all_sizes(result):
    sizes = [m.len for m in result.memzones]
    sizes += [a.size for mp in result.mempools for a in mp.allocations]
    sizes += [a.size for a in result.allocations]
    return sizes


# --- totals ------------------------------------------------------------------------------------------------------


@given(results())
def test_total_is_sum_of_memzones_and_allocations(rp):
    r, _ = rp
    assert r.total_bytes == sum(all_sizes(r))
    for mp in r.mempools:
        assert mp.total_bytes == sum(m.len for m in mp.memzones) + sum(a.size for a in mp.allocations)


@given(results())
def test_heap_is_malloc_elements(rp):
    r, p = rp
    cl = p.cache_line
    # struct malloc_elem is 80 B padded to the cache line: 128 on x86-64 CL 64, 128 with CL 128 too (§2.6)
    assert r.heap_bytes == sum(128 + ceil_a(max(s, 1), cl) for s in all_sizes(r))
    if p.page_size:
        assert r.hugepages == -(-r.heap_bytes // p.page_size)
    else:
        assert r.hugepages is None


@given(results())
def test_memzone_lengths_are_whole_cache_lines(rp):
    r, p = rp
    for m in r.memzones:
        assert m.len >= p.cache_line
        assert m.len % p.cache_line == 0


# --- monotonicity ------------------------------------------------------------------------------------------------


@st.composite
def valid_pool_specs(draw):
    count = draw(st.integers(min_value=1, max_value=2**30 - 1))
    return PoolSpec(
        name=draw(st.text(alphabet="abcxyz_09", min_size=1, max_size=25)),
        count=count,
        elt_size=draw(elt_sizes),
        cache_size=draw(st.integers(min_value=0, max_value=min(512, count * 2 // 3))),
        private_size=draw(st.integers(min_value=0, max_value=1 << 16)),
        flags=draw(user_flags),
    )


@given(platforms(), valid_pool_specs(), st.integers(min_value=1, max_value=1 << 20))
def test_more_objects_never_take_less(p, spec, extra):
    small = api.pool(spec, p)
    assert small.ok, small.errors
    big_count = min(spec.count + extra, 2**30 - 1)
    big = api.pool(spec._replace(count=big_count), p)
    assert big.ok, big.errors
    assert big.total_bytes >= small.total_bytes
    assert big.heap_bytes >= small.heap_bytes


@given(
    platforms(),
    st.integers(min_value=1, max_value=2**30 - 2),
    st.integers(min_value=1, max_value=1 << 20),
    st.integers(min_value=0, max_value=256),
    user_flags,
    st.sampled_from([4, 6]),
)
def test_more_rib_nodes_never_take_less(p, nodes, extra, ext, flags, family):
    small = api.rib("rib", nodes, ext, flags, family, p)
    big = api.rib("rib", min(nodes + extra, 2**30 - 1), ext, flags, family, p)
    assert small.ok and big.ok
    assert big.total_bytes >= small.total_bytes
    assert big.heap_bytes >= small.heap_bytes


# --- flags -------------------------------------------------------------------------------------------------------


@given(platforms(), elt_sizes, user_flags)
def test_no_cache_align_never_makes_an_object_larger(p, elt, flags):
    base = flags & ~NCA
    with_nca = calc_obj_size(elt, effective_flags(base | NCA), p).total_size
    assert with_nca <= calc_obj_size(elt, effective_flags(base), p).total_size
    assert with_nca <= calc_obj_size(elt, effective_flags(0), p).total_size
    # also for a direct rte_mempool_calc_obj_size call, which does not add NO_SPREAD
    assert calc_obj_size(elt, NCA, p).total_size <= calc_obj_size(elt, 0, p).total_size


@given(platforms(), elt_sizes, user_flags)
def test_object_layout_adds_up(p, elt, flags):
    o = calc_obj_size(elt, effective_flags(flags), p)
    assert o.header_size + o.elt_size + o.trailer_size == o.total_size
    assert o.elt_size == ceil_a(elt, 8)
    assert o.total_size >= elt
    if not effective_flags(flags) & NCA:
        assert o.total_size % p.mempool_align == 0
        assert o.header_size % p.mempool_align == 0


@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_effective_flags_idempotent(mask):
    eff = effective_flags(mask)
    assert effective_flags(eff) == eff
    assert eff & mask == mask
    assert eff & MempoolFlag.NON_IO
    if mask & NCA:
        assert eff & NS


@given(st.integers(min_value=0, max_value=0x7F))
def test_flag_names_cover_the_mask(mask):
    names = flag_names(mask)
    assert len(names) == bin(mask).count("1")
    assert sum(int(MempoolFlag[n.upper()]) for n in names) == mask


# --- projections: dataclasses == JSON == CSV ---------------------------------------------------------------------


def report_of(r, p):
    return Report(command=r.kind, platform=describe(p), inputs={}, results=(r,))


def _detail_cells(value, key=""):
    """A result's details as the CSV's detail rows: dotted keys, true/false, numbers as they are."""
    if isinstance(value, dict):
        return [cell for k, v in value.items() for cell in _detail_cells(v, f"{key}.{k}" if key else k)]
    return [(key, str(value).lower() if isinstance(value, bool) else value)]


def dataclass_rows(r):
    label = "|".join(flag_names(r.flags)) or "none"
    rows = []
    for mp in r.mempools:
        if mp.objsz is not None:
            o = mp.objsz
            rows += [
                (label, mp.name, "object", f, v)
                for f, v in (
                    ("header_size", o.header_size),
                    ("elt_size", o.elt_size),
                    ("trailer_size", o.trailer_size),
                    ("total_size", o.total_size),
                )
            ]
        rows += [(label, mp.name, "memzone", m.name, m.len) for m in mp.memzones]
        rows += [(label, mp.name, "allocation", a.name, a.size) for a in mp.allocations]
    rows += [(label, "", "allocation", a.name, a.size) for a in r.allocations]
    rows += [
        (label, "", "total", "total_bytes", r.total_bytes),
        (label, "", "total", "heap_bytes", r.heap_bytes),
        (label, "", "total", "hugepages", "" if r.hugepages is None else r.hugepages),
    ]
    rows += [(label, "", "detail", k, v) for k, v in _detail_cells(r.details)]
    rows += [(label, "", "error", e.errno or "hazard", e.reason) for e in r.errors]
    return rows


@given(results())
def test_json_csv_and_dataclasses_agree(rp):
    r, p = rp
    report = report_of(r, p)

    buf = io.StringIO()
    jsonfmt.render(report, buf)
    doc = json.loads(buf.getvalue())
    assert doc == report.to_dict()
    (jr,) = doc["results"]
    assert jr["total_bytes"] == r.total_bytes
    assert jr["heap_bytes"] == r.heap_bytes
    assert jr["hugepages"] == r.hugepages
    assert [e["errno"] for e in jr["errors"]] == [e.errno for e in r.errors]
    assert [a["size"] for a in jr["allocations"]] == [a.size for a in r.allocations]
    for jmp, mp in zip(jr["mempools"], r.mempools, strict=True):
        assert [(m["name"], m["len"]) for m in jmp["memzones"]] == [(m.name, m.len) for m in mp.memzones]
        assert [a["size"] for a in jmp["allocations"]] == [a.size for a in mp.allocations]
        assert jmp["total_bytes"] == mp.total_bytes
        assert jmp["total_size"] == (mp.objsz.total_size if mp.objsz else None)
        assert jmp["ring_size"] == mp.ring_size

    rows = list(csvfmt.rows(report))
    assert rows == dataclass_rows(r)

    # and the CSV text parses back to the same values
    buf = io.StringIO()
    csvfmt.render(report, buf, fmt="csv")
    parsed = list(csv.reader(io.StringIO(buf.getvalue())))
    assert tuple(parsed[0]) == csvfmt.COLUMNS
    assert [tuple(x) for x in parsed[1:]] == [tuple(str(v) for v in row) for row in rows]


_DEFS = documents()["$defs"]
#: a report's platform and results, by the schema mpcalc schema prints (its input section is the command's
#: declared parameters: these reports have none, tests/test_schema.py checks the real ones)
VALIDATOR = Draft202012Validator(
    {
        "$defs": _DEFS,
        "type": "object",
        "properties": {
            "platform": {"$ref": "#/$defs/platform"},
            "results": {"type": "array", "minItems": 1, "items": {"$ref": "#/$defs/result"}},
        },
    }
)


@given(results())
def test_every_report_validates_against_the_schema(rp):
    r, p = rp
    doc = json.loads(json.dumps(report_of(r, p).to_dict()))
    errors = list(VALIDATOR.iter_errors(doc))
    assert not errors, [e.message for e in errors]


@given(
    st.integers(min_value=0, max_value=0xF),
    st.integers(min_value=1, max_value=1 << 20),
    st.integers(min_value=1, max_value=16),
    st.sampled_from(["x86_64", "arm64", "ppc64le"]),
    st.booleans(),
    st.integers(min_value=0, max_value=4096),
)
def test_object_sizes_below_the_no_wrap_bound_never_wrap(flags, channels, ranks, arch, debug, below):
    """PoolCalc skips the unbounded recomputation below NO_WRAP_BELOW: no platform can wrap there."""
    from mpcalc.dpdk.core.platform import make_platform
    from mpcalc.dpdk.objects.mempool.layout import NO_WRAP_BELOW, calc_obj_size, unwrapped_obj_size

    p = make_platform(arch=arch, channels=channels, ranks=ranks, debug=debug)
    elt = NO_WRAP_BELOW - 1 - below
    assert unwrapped_obj_size(elt, flags, p) == calc_obj_size(elt, flags, p).total_size <= 0xFFFFFFFF
