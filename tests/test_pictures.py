"""The pictures (issue: plans, reports and sweeps drawn so the story is visible): what they plot comes from the
report, each breakdown adds up, and every picture renders as SVG and PNG."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from conftest import doc_links
from hypothesis import given, settings
from hypothesis import strategies as st

from mpcalc.render import bars, figures

ROOT = Path(__file__).resolve().parents[1]
PLAN = str(ROOT / "examples/plans/l3fwd-router.toml")


def _doc(run, *argv):
    rc, out, _ = run(*argv, "--json")
    assert rc in (0, 1), out
    return json.loads(out)


@settings(max_examples=60, deadline=None)
@given(
    count=st.integers(1, 5_000_000),
    elt=st.integers(1, 70_000),
    cache=st.sampled_from([0, 64, 512]),
    page=st.sampled_from(["4K", "2M", "none"]),
)
def test_a_pool_breakdown_adds_up_to_its_heap(count, elt, cache, page):
    from mpcalc.service.request import evaluate, request_of

    report = evaluate(
        request_of(
            "pool",
            {
                "count": count,
                "elt_size": elt,
                "cache_size": cache,
                "page_size": {"4K": 4096, "2M": 2 << 20, "none": 0}[page],
                "flags": [0, 3],
            },
        )
    ).report
    for result in report.to_dict()["results"]:
        parts = figures.breakdown(result)
        assert sum(parts.values()) == result["heap_bytes"]
        assert all(k in figures.KINDS for k in parts)


@pytest.mark.parametrize(
    "argv",
    [
        ("rib", "--routes", "1M"),
        ("fib", "--routes", "1M"),
        ("fib6", "--routes", "10K"),
        ("mbuf", "-n", "8191", "--cache-size", "256"),
    ],
)
def test_every_object_breakdown_adds_up(run, argv):
    for result in _doc(run, *argv)["results"]:
        assert sum(figures.breakdown(result).values()) == result["heap_bytes"]


def test_a_fib_tables_are_tables(run):
    result = _doc(run, "fib", "--routes", "1M")["results"][0]
    parts = figures.breakdown(result)
    tables = sum(a["size"] for a in result["allocations"] if a["name"].startswith(("DP_", "TBL8")))
    assert parts["tables"] == tables


def test_plan_figure_is_the_plan(run):
    doc = _doc(run, "plan", PLAN)
    (sock,) = figures.plan_figure(doc)
    (socket_doc,) = doc["sockets"]
    assert sock.by_item.total == sock.by_kind.total == socket_doc["heap_bytes"] + socket_doc["eal_heap"]
    assert [s.label for s in sock.by_item.segments][:-1] == [f"{i['kind']} {i['name']}" for i in doc["items"]]
    assert sock.advised == socket_doc["pages"] * doc["platform"]["page_size"]
    assert sock.advised >= sock.by_item.total


def test_report_figure_and_layouts_are_the_report(run):
    doc = _doc(run, "pool", "-n", "8191", "--elt-size", "40", "--flags", "all")
    got = figures.report_figure(doc)
    assert [b.total for b in got] == [r["heap_bytes"] for r in doc["results"]]
    for lay, r in zip(figures.layouts(doc), doc["results"], strict=True):
        mp = r["mempools"][0]
        assert (lay.header, lay.element, lay.trailer) == (mp["header_size"], mp["elt_size"], mp["trailer_size"])
        assert lay.header + lay.element + lay.trailer == mp["total_size"]


def test_identical_curves_are_drawn_once():
    curves = {"a": [(1, 2.0), (2, 3.0)], "b": [(1, 2.0), (2, 4.0)], "c": [(1, 2.0), (2, 3.0)]}
    merged = figures.merge_identical(curves)
    assert [c.labels for c in merged] == [("a", "c"), ("b",)]
    assert figures.steps([1, 2, 3, 4], [1, 1, 2, 2]) == [3]


@pytest.mark.parametrize("width", [1, 5, 10, 80])
def test_terminal_bar_cells_fill_the_width_and_keep_small_parts(width):
    bar = figures.Bar("x", (figures.Segment("a", 10**9), figures.Segment("b", 1), figures.Segment("c", 5 * 10**8)))
    got = bars.cells(bar, width)
    assert sum(got) == width
    if width >= 3:
        assert all(got)


import matplotlib  # noqa: E402, F401 - the extra mpcalc[plot]: the test extra installs it, and these tests need it


def _recorded_barh(monkeypatch):
    from matplotlib.axes import Axes

    widths: list[float] = []
    real = Axes.barh

    def spy(self, y, width, *a, **kw):
        widths.append(width)
        return real(self, y, width, *a, **kw)

    monkeypatch.setattr(Axes, "barh", spy)
    return widths


@pytest.mark.parametrize("suffix", [".svg", ".png"])
def test_plan_plot_draws_the_plan(run, tmp_path, monkeypatch, suffix):
    widths = _recorded_barh(monkeypatch)
    path = tmp_path / f"plan{suffix}"
    rc, _, _ = run("plan", PLAN, "--plot", str(path))
    assert rc == 0
    doc = _doc(run, "plan", PLAN)
    (sock,) = figures.plan_figure(doc)
    expected = [s.bytes / (1 << 20) for s in (*sock.by_item.segments, *sock.by_kind.segments)]
    assert widths[: len(expected)] == pytest.approx(expected)
    _is_picture(path)


@pytest.mark.parametrize("suffix", [".svg", ".png", ".pdf"])
def test_report_plot_renders(run, tmp_path, monkeypatch, suffix):
    widths = _recorded_barh(monkeypatch)
    path = tmp_path / f"pool{suffix}"
    rc, _, _ = run("pool", "-n", "8191", "--elt-size", "40", "--flags", "all", "--plot", str(path))
    assert rc == 0
    doc = _doc(run, "pool", "-n", "8191", "--elt-size", "40", "--flags", "all")
    heap = [s.bytes / (1 << 20) for b in figures.report_figure(doc) for s in b.segments]
    assert widths[: len(heap)] == pytest.approx(heap)
    _is_picture(path)


def test_sweep_plot_default_is_bytes_per_object(run, tmp_path, monkeypatch):
    from matplotlib.axes import Axes

    lines: list[tuple[list, list, str]] = []
    real = Axes.plot

    def spy(self, xs, ys, *a, **kw):
        lines.append((list(xs), list(ys), kw.get("label")))
        return real(self, xs, ys, *a, **kw)

    monkeypatch.setattr(Axes, "plot", spy)
    path = tmp_path / "sweep.svg"
    rc, out, _ = run(
        "sweep", "pool", "--elt-size", "40", "--vary", "count=1000..1100", "--steps", "5", "--plot", str(path)
    )
    assert rc == 0
    rows = [r.split(",") for r in out.splitlines()[1:]]
    by_label: dict[str, list[float]] = {}
    for count, label, _ok, _obj, total, *_ in rows:
        by_label.setdefault(label, []).append(int(total) / int(count))
    drawn = {label: ys for _, ys, label in lines}
    for label, ys in drawn.items():
        for name in label.split("\n= "):  # merged curves name every flag combination they stand for
            assert by_label[name] == pytest.approx(ys)
    assert sum(len(label.split("\n= ")) for label in drawn) == 8
    _is_picture(path)


def test_plot_without_matplotlib_names_the_extra(run, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    rc, out, err = run("plan", PLAN, "--plot", str(tmp_path / "x.svg"))
    assert rc == 2 and out == "" and "mpcalc[plot]" in err


def _is_picture(path: Path) -> None:
    data = path.read_bytes()
    if path.suffix == ".png":
        assert data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) > 10_000
    elif path.suffix == ".pdf":
        assert data.startswith(b"%PDF")
    else:
        assert b"<svg" in data[:2000] and len(data) > 10_000


def test_the_readme_shows_the_pictures_regen_draws():
    sys.path.insert(0, str(ROOT / "examples"))
    try:
        import regen
    finally:
        sys.path.remove(str(ROOT / "examples"))
    for name, args in regen.PICTURES:
        path = ROOT / "examples" / "images" / name
        _is_picture(path)
        assert "--plot" not in args  # regen adds it
    linked = {file for _, _, file, _ in doc_links()}  # README.md and docs/ (docs/sweep.md)
    shown = {n for n, _ in regen.PICTURES if ROOT / "examples" / "images" / n in linked}
    assert {"sweep-pool.svg", "plan-l3fwd-router.svg"} <= shown


def test_an_application_on_4k_pages_is_drawn_by_kind(run):
    rc, out, _ = run(
        "app",
        "--json",
        "--",
        "dpdk-testpmd",
        "-l",
        "0-1",
        "--no-huge",
        "-m",
        "1024",
        "--vdev",
        "net_null0",
        "--",
        "--total-num-mbufs=8192",
    )
    assert rc == 0
    assert figures.advised_figure(json.loads(out)) == []  # its advice sized the hugepage run, another heap


@pytest.mark.parametrize(
    "argv",
    [
        ("ovs", "--port", "p0", "--port", "p1,mtu_request=9000"),
        ("app", "--", "dpdk-testpmd", "-l", "0-1", "--vdev", "net_null0", "--", "--total-num-mbufs=8192"),
    ],
)
def test_a_whole_application_is_drawn_per_socket_with_its_advice(run, tmp_path, argv):
    rc, out, _ = run(*argv[:1], "--json", *argv[1:])
    assert rc == 0
    doc = json.loads(out)
    (sock,) = figures.advised_figure(doc)
    (result,) = doc["results"]
    advice = result["details"]["advice"]
    assert sock.by_item.total == sock.by_kind.total == result["heap_bytes"] + advice["sockets"][0]["eal_heap"]
    assert sock.advised == advice["sockets"][0]["pages"] * advice["page_size"] >= sock.by_item.total
    path = tmp_path / "app.svg"
    rc, _, _ = run(*argv[:1], "--plot", str(path), *argv[1:])
    assert rc == 0
    _is_picture(path)


def test_a_plot_file_without_an_extension_is_matplotlibs_default_format(run, tmp_path):
    """A name with no extension (even one that looks like an option, as ``--plot --arch`` gives) is drawn in
    matplotlib's default format, PNG, not in the temporary file's random suffix."""
    path = tmp_path / "--arch"
    rc, _, _ = run("pool", "-n", "1023", "--elt-size", "40", "--plot", str(path))
    assert rc == 0
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
