"""examples/ holds real output: every file must still be what its command prints."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
_spec = importlib.util.spec_from_file_location("regen", EXAMPLES / "regen.py")
regen = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(regen)


@pytest.mark.parametrize("path,args", regen.examples(), ids=lambda v: v.name if isinstance(v, Path) else None)
def test_example_is_current(path, args, monkeypatch):
    monkeypatch.chdir(EXAMPLES.parent)  # commands name files relative to the repository
    assert path.exists(), f"{path.name} is missing: run .venv/bin/python examples/regen.py"
    assert path.read_text() == regen.render(args), f"{path.name} is stale: run .venv/bin/python examples/regen.py"
