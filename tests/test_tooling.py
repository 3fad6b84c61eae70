"""The tree stays lint-, format- and type-clean: ruff (lint and format) and mypy, as pyproject.toml configures
them (strict on the model, mpcalc.dpdk), run here so that the README's test command runs them too."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
#: every Python file of the repository (tests/conformance/.build is excluded in pyproject.toml)
PATHS = ["mpcalc", "tests", "bench", "examples", "scripts", "setup.py"]


def _tool(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, timeout=900)


@pytest.mark.parametrize(
    "args",
    [("ruff", "check", *PATHS), ("ruff", "format", "--check", *PATHS), ("mypy",)],
    ids=["ruff-check", "ruff-format", "mypy"],
)
def test_the_tree_is_clean(args):
    res = _tool(*args)
    assert res.returncode == 0, (res.stdout + res.stderr)[-4000:]
