"""Fixtures shared by the unit tests: run the command line in-process, and the Hypothesis profile.

``run(*argv)`` is ``mpcalc.cli.main(list(argv))`` with stdout and stderr captured (pytest's ``capsys``); it returns
a :class:`Result` ``(code, out, err)``. ``run_json(*argv)`` adds ``--json``, checks the document against
the schema ``mpcalc schema`` prints (``schema_validator``) and returns ``(code, doc)``.

``doc_pages()`` is what a user reads: README.md and every page of docs/ (``doc_section``, ``doc_blocks`` and
``doc_links`` read them; the ``docs`` fixture yields the pages). Every test of the documentation's text reads it
through these, whichever page the text is on.

Nothing here starts DPDK: the conformance suite's fixtures are in tests/conformance/conftest.py.
"""

from __future__ import annotations

import json
import posixpath
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

import pytest
from hypothesis import HealthCheck, settings

# No deadline: a per-example wall-clock limit is a timing assertion, and fails on a loaded machine. Loaded here,
# before any test module is imported, so every @given gets the same settings whatever the collection order.
settings.register_profile("mpcalc", max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("mpcalc")


ROOT = Path(__file__).resolve().parent.parent
#: a Markdown link or image: ](target)
LINK = re.compile(r"\]\(([^)\s]+)\)")


def doc_pages() -> list[Path]:
    """README.md, then every page of docs/ by name: the documentation, whose examples and figures the suite checks."""
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def _masked(text: str) -> str:
    """``text`` with its fenced blocks blanked (same length): a ``# comment`` in a block is no heading."""
    return re.sub(r"^```.*?^```", lambda m: re.sub(r"[^\n]", " ", m.group()), text, flags=re.M | re.S)


def doc_section(title: str) -> str:
    """The section headed ``title`` (at any level) on the one page that has it, down to the next heading of its
    level or above."""
    found = []
    for page in doc_pages():
        text = page.read_text()
        prose = _masked(text)
        head = re.search(rf"^(#+) {re.escape(title)}\n", prose, re.M)
        if head:
            nxt = re.compile(rf"^#{{1,{len(head.group(1))}}} ", re.M).search(prose, head.end())
            found.append(text[head.start() : nxt.start() if nxt else None])
    assert len(found) == 1, f"{len(found)} pages have a section {title!r}"
    return found[0]


def doc_blocks(lang: str) -> list[tuple[Path, str]]:
    """Every fenced block of ``lang`` (console, pycon, toml, ...) of the documentation, with its page."""
    return [
        (page, block)
        for page in doc_pages()
        for block in re.findall(rf"^```{lang}\n(.*?)^```", page.read_text(), re.M | re.S)
    ]


def doc_links() -> list[tuple[Path, str, Path | None, str]]:
    """Every relative link of the documentation: (page, the link as written, the file it names or None where it
    names no file of the repository, its #anchor or "")."""
    out = []
    for page in doc_pages():
        for target in LINK.findall(_masked(page.read_text())):
            if re.match(r"[a-z]+:", target):
                continue  # https:, mailto:
            path, _, anchor = target.partition("#")
            if not path:
                out.append((page, target, page, anchor))
                continue
            file = Path(posixpath.normpath(page.parent / path))
            inside = not path.startswith("/") and file.is_relative_to(ROOT) and file.exists()
            out.append((page, target, file if inside else None, anchor))
    return out


@pytest.fixture(scope="session")
def docs() -> list[Path]:
    """README.md and the pages of docs/ (``doc_pages()``)."""
    return doc_pages()


class Result(NamedTuple):
    """What one in-process ``mpcalc`` run returned and printed."""

    code: int
    out: str
    err: str


class JsonResult(NamedTuple):
    """The exit code and the schema-valid ``--json`` document of one run."""

    code: int
    doc: dict[str, Any]


@pytest.fixture
def run(capsys: pytest.CaptureFixture[str]) -> Callable[..., Result]:
    """Run ``mpcalc.cli.main(list(argv))``; return its exit code, stdout and stderr."""
    from mpcalc.cli import main  # here, not at import: the conformance suite does not need the CLI

    def _run(*argv: str) -> Result:
        capsys.readouterr()  # start from nothing, whatever the test printed before
        code = main(list(argv))
        out, err = capsys.readouterr()
        return Result(code, out, err)

    return _run


@pytest.fixture(scope="session")
def schema_validator() -> Any:
    """A Draft 2020-12 validator for the schema ``mpcalc schema`` prints (mpcalc.service.schema.documents)."""
    from jsonschema import Draft202012Validator

    from mpcalc.service.schema import documents

    return Draft202012Validator(documents())


@pytest.fixture
def run_json(run: Callable[..., Result], schema_validator: Any) -> Callable[..., JsonResult]:
    """Run with ``--json``; check the document against the schema; return (exit code, document)."""

    def _run(*argv: str) -> JsonResult:
        code, out, _ = run(*argv, "--json")
        doc = json.loads(out)
        errors = sorted(schema_validator.iter_errors(doc), key=str)
        assert not errors, "\n".join(e.message for e in errors)
        return JsonResult(code, doc)

    return _run


@pytest.fixture
def fake_nic() -> Any:
    """A throwaway PCI driver registered for the test alone (the PCI drivers are their own modules)."""
    from mpcalc.dpdk import drivers
    from mpcalc.dpdk.drivers.pmd import Pmd

    pmd = Pmd(
        name="net_testnic",
        source="test",
        bus="pci",
        pci_ids=((0x1234, 0xABCD),),  # an id no real driver claims (net_ice has the E810s)
        kernel_drivers=("testnic",),
        devargs=frozenset({"rxq"}),
    )
    drivers.register(pmd)
    yield pmd
    drivers.unregister(pmd)
