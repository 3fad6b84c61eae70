"""A batch line's shape reader (mpcalc.service.shapes.shape_reader, the one fast path of a batch line) reads
every record exactly as Lines.read does, and leaves it what it cannot read; and it is Python, not
generated source."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mpcalc.service.batch import READ_AFTER, READERS, Answerer, LineError, Lines
from mpcalc.service.request import Request
from mpcalc.service.shapes import shape_reader


def outcome(read: Any, record: dict[str, Any]) -> Request | tuple[str, str | None]:
    try:
        return read(record)
    except LineError as exc:
        return str(exc), exc.key


POOL = {"command": "pool", "name": "p1", "count": 1000, "elt_size": 40, "flags": "no_spread", "page_size": "2M"}


def test_a_shape_has_a_reader_after_it_came_often_and_it_reads_its_records():
    lines = Lines()
    for count in range(1, READ_AFTER):
        lines.request({**POOL, "count": count})
    assert "pool" not in lines._readers
    lines.request(POOL)
    (reader,) = lines._readers["pool"]
    shuffled = dict(reversed(list({**POOL, "count": 77}.items())))  # the same keys in another order
    assert reader(shuffled) == lines.read(shuffled)
    assert reader(shuffled).args["count"] == 77


def test_what_the_reader_cannot_read_is_read_key_by_key():
    lines = Lines()
    for _ in range(READ_AFTER):
        lines.request(POOL)
    lines.request({**POOL, "flags": 1, "page_size": 0})  # 1 and 0 parsed: True and False are not them
    (reader,) = lines._readers["pool"]
    for other in (
        {**POOL, "flags": True},
        {**POOL, "page_size": False},
        {**POOL, "count": -1},  # out of range: Param.parse words it
        {**POOL, "count": True},  # a bool is not a count
        {**POOL, "count": 1000.0},  # a float is read by Param.parse
        {**POOL, "name": "never-seen"},  # not parsed yet
        {**POOL, "flags": ["no_spread"]},  # a list
        {**POOL, "page_size": None},  # absent
        {**POOL, "cache_size": 0},  # another shape
        {k: v for k, v in POOL.items() if k != "page_size"},
    ):
        assert reader(other) is None
        assert outcome(lines.request, other) == outcome(Lines().read, other)


def test_no_reader_for_a_shape_that_needs_reading_key_by_key():
    table, required = Lines()._table("pool")
    for keys in (
        ("command", "count"),  # elt_size is required
        ("command", "elt_size", "fit"),  # an analysis
        ("command", "elt_size", "bogus"),
        ("command", "elt_size", "elt_size"),
    ):
        assert shape_reader(command="pool", keys=keys, table=table, required=required) is None
    ftable, frequired = Lines()._table("fib")
    assert shape_reader(command="fib", keys=("command", "routes_file"), table=ftable, required=frequired) is None


def test_a_shape_reader_puts_platform_keys_in_the_platform():
    lines = Lines()
    record = {"command": "pool", "page_size": "4K", "count": 10, "channels": 2, "elt_size": 64}
    lines.read(record)  # "4K" parsed
    table, required = lines._table("pool")
    read = shape_reader(command="pool", keys=tuple(record), table=table, required=required)
    assert read is not None
    assert read(record) == lines.read(record)
    assert read(record).platform == {"page_size": 4096, "channels": 2}
    assert read({**record, "page_size": "8K"}) is None  # not parsed yet


def test_no_generated_source_is_run():
    """No module of mpcalc calls exec, eval or the builtin compile (a second language inside the first)."""
    import ast
    from pathlib import Path

    import mpcalc

    calls = ("exec", "eval", "compile")
    found = []
    for path in Path(mpcalc.__file__).parent.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in calls:
                found.append(f"{path.name}:{node.lineno}: {node.func.id}")
    assert found == []


COUNTS = [1, 2, 40, 1000, "1M", "4Ki"]
#: per key, values a line may have (repeating, so they are parsed, then found by the readers)
VALID: dict[str, list[Any]] = {
    **dict.fromkeys(["count", "elt_size", "cache_size", "private_size", "routes", "nodes", "ext_size"], COUNTS),
    **{key: [1, 2, 4, 6, 128] for key in ("channels", "max_lcore")},
    "name": ["p1", "p2"],
    "flags": ["none", "no_spread", "0x23", 0, 1, ["no_spread"]],
    "ops": ["ring_mp_mc", "stack"],
    "cache_layout": ["pointer", "index"],
    "page_size": ["2M", "4K", 0, "none"],
    "dpdk": ["22.11", "26.07"],
    "debug": [True, False],
    "bogus": [1],
}
#: values of every JSON type, in and out of range, that some keys refuse
ANY = [True, False, None, 0, 1, -1, 2**32, 2**64, 1.0, 2.5, "bad", "1M", ["none"], ["x", 1]]
KEYS = {
    "pool": ["count", "cache_size", "private_size", "name", "flags", "ops", "cache_layout"],
    "rib": ["routes", "nodes", "ext_size", "name", "flags"],
}
PLATFORM = ["page_size", "channels", "dpdk", "max_lcore", "debug", "bogus"]


@st.composite
def records(draw: st.DrawFn) -> list[dict[str, Any]]:
    """Runs of records of a few shapes (so they get readers): values mostly valid, any now and then;
    mostly with every key a line needs (a pool's elt_size), sometimes without."""
    out = []
    for _ in range(draw(st.integers(1, 2))):
        command = draw(st.sampled_from(sorted(KEYS)))
        keys = draw(st.lists(st.sampled_from(KEYS[command] + PLATFORM), unique=True, min_size=1, max_size=5))
        if command == "pool" and draw(st.integers(0, 9)):
            keys.insert(draw(st.integers(0, len(keys))), "elt_size")
        for _ in range(draw(st.integers(READ_AFTER + 4, READ_AFTER + 12))):
            record = {"command": command}
            for key in keys:
                pool = ANY if not draw(st.integers(0, 15)) else VALID[key]
                record[key] = draw(st.sampled_from(pool))
            out.append(record)
    return out


#: runs of records are long draws (their size is the point)
LONG_DRAWS = settings(
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large],
)


@settings(LONG_DRAWS, max_examples=150)
@given(records())
def test_shape_readers_read_as_lines_read_does(batch: list[dict[str, Any]]):
    fast, slow = Lines(), Lines()
    for record in batch:
        assert outcome(fast.request, record) == outcome(slow.read, record)


@settings(LONG_DRAWS, max_examples=30)
@given(records())
def test_answers_are_the_same_with_shape_readers(batch: list[dict[str, Any]]):
    import json

    lines = [json.dumps(r).encode() for r in batch]
    for compact in (True, False):
        text, code = Answerer(compact).chunk(1, lines)
        each = [Answerer(compact).chunk(n, [line]) for n, line in enumerate(lines, 1)]  # never a shape reader
        assert text == "".join(t for t, _ in each)
        assert code == max((c for _, c in each), default=0)


def test_a_command_keeps_the_readers_of_its_last_shapes():
    lines = Lines()
    shapes = [{**POOL, **extra} for extra in ({}, {"cache_size": 0}, {"ops": "stack"}, {"dpdk": "22.11"}, {"ranks": 1})]
    for record in shapes:
        for _ in range(READ_AFTER):
            lines.request(record)
    readers = lines._readers["pool"]
    assert len(readers) == READERS
    assert readers[0](shapes[-1]) == lines.read(shapes[-1])
    assert all(reader(shapes[0]) is None for reader in readers)  # the oldest shape's reader was dropped
    assert [reader(shapes[1]) is not None for reader in readers] == [False, False, False, True]
