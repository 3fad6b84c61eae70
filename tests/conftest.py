"""Fixtures shared by the unit tests: run the command line in-process, and the Hypothesis profile.

``run(*argv)`` is ``mpcalc.cli.main(list(argv))`` with stdout and stderr captured (pytest's ``capsys``); it returns
a :class:`Result` ``(code, out, err)``. ``run_json(*argv)`` adds ``--json``, checks the document against
the schema ``mpcalc schema`` prints (``schema_validator``) and returns ``(code, doc)``.

Nothing here starts DPDK: the conformance suite's fixtures are in tests/conformance/conftest.py.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, NamedTuple

import pytest
from hypothesis import HealthCheck, settings

# No deadline: a per-example wall-clock limit is a timing assertion, and fails on a loaded machine. Loaded here,
# before any test module is imported, so every @given gets the same settings whatever the collection order.
settings.register_profile("mpcalc", max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("mpcalc")


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
