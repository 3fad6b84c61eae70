"""The sizing engine imports neither click nor rich, and machine-readable output never loads rich.

Each check runs in a fresh interpreter, since this test process has long imported both.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

ENGINE_MODULES = [
    "mpcalc",
    "mpcalc.dpdk.core.errors",
    "mpcalc.dpdk.core.intmath",
    "mpcalc.dpdk.core.units",
    "mpcalc.dpdk.core.flags",
    "mpcalc.dpdk.core.facts",
    "mpcalc.dpdk.core.platform",
    "mpcalc.dpdk.core.records",
    "mpcalc.dpdk.core.heap",
    "mpcalc.dpdk.objects.mempool",
    "mpcalc.api",
    # newer engine modules, checked when present
    "mpcalc.dpdk.objects.rib",
    "mpcalc.dpdk.objects.fib",
    "mpcalc.dpdk.objects.mbuf",
]


def python(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=60)


def test_engine_imports_neither_click_nor_rich():
    proc = python(f"""
        import importlib, importlib.util, sys
        loaded = []
        for name in {ENGINE_MODULES!r}:
            if importlib.util.find_spec(name) is not None:
                importlib.import_module(name)
                loaded.append(name)
        assert "mpcalc.api" in loaded and "mpcalc.dpdk.objects.mempool" in loaded, loaded
        bad = sorted(m for m in sys.modules if m.split(".")[0] in ("click", "rich"))
        assert not bad, bad
        assert "mpcalc.cli" not in sys.modules
        print(len(loaded))
    """)
    assert proc.returncode == 0, proc.stderr
    assert int(proc.stdout) >= 11


def test_engine_computes_without_click_or_rich():
    proc = python("""
        import sys
        from mpcalc import api
        from mpcalc.dpdk.objects.mempool import PoolSpec
        from mpcalc.dpdk.core.platform import make_platform
        p = make_platform(page_size=4096)
        r = api.rib("rib", api.rib_max_nodes(2**20), 0, 0, 4, p)
        assert r.memzones[2].len == 409044672
        api.pool(PoolSpec(name="p", count=8191, elt_size=2304, cache_size=250, private_size=8), p)
        r.to_dict()
        assert "click" not in sys.modules and "rich" not in sys.modules
    """)
    assert proc.returncode == 0, proc.stderr


def test_engine_import_does_not_need_click_or_rich_installed():
    # Block both packages outright: the engine must import and compute without them.
    proc = python("""
        import sys
        class Block:
            def find_spec(self, name, path=None, target=None):
                if name.split(".")[0] in ("click", "rich"):
                    raise ImportError(f"blocked: {name}")
                return None
        sys.meta_path.insert(0, Block())
        from mpcalc import api
        from mpcalc.dpdk.objects.mempool import PoolSpec, calc_obj_size
        from mpcalc.dpdk.core.platform import Platform
        assert calc_obj_size(40, 0, Platform()).total_size == 192
        from mpcalc.render import csvfmt, jsonfmt
    """)
    assert proc.returncode == 0, proc.stderr


@pytest.mark.parametrize(
    "argv",
    [
        ["rib", "--routes", "1M", "--json"],
        ["rib", "--routes", "1M", "--format", "csv"],
        ["pool", "-n", "8191", "--elt-size", "2304", "--format", "tsv", "--flags", "all"],
        ["pool", "-n", "0", "--elt-size", "64", "--json"],
    ],
)
def test_machine_output_never_imports_rich(argv):
    proc = python(f"""
        import atexit, json, sys

        def report():  # runs at interpreter exit, after everything main() did
            loaded = sorted(m for m in sys.modules if m == "rich" or m.startswith("rich."))
            print(json.dumps({{"rc": rc, "rich": loaded}}), file=sys.stderr)

        from mpcalc.cli import main
        atexit.register(report)
        rc = main({argv!r})
        sys.exit(rc)
    """)
    report = json.loads(proc.stderr.strip().splitlines()[-1])
    assert report["rc"] == proc.returncode
    assert report["rich"] == []
    assert proc.stdout


def test_table_output_does_import_rich():
    # the check above can see rich when it is loaded
    proc = python("""
        import sys
        from mpcalc.cli import main
        rc = main(["rib", "--routes", "1000"])
        assert "rich" in sys.modules
        sys.exit(rc)
    """)
    assert proc.returncode == 0, proc.stderr


def test_the_model_writes_nothing_to_a_terminal():
    """mpcalc.dpdk and mpcalc.api neither import the front ends' terminal progress (mpcalc.stream) nor write
    to stdout or stderr: how far a long piece of work got goes to the front end's reporter
    (mpcalc.dpdk.core.progress), passed down."""
    import ast
    from pathlib import Path

    import mpcalc

    root = Path(mpcalc.__file__).parent
    bad = []
    for path in [*sorted((root / "dpdk").rglob("*.py")), root / "api.py"]:
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[-1] == "stream" and node.level:
                bad.append(f"{path.relative_to(root)}:{node.lineno} imports stream")
            elif (
                isinstance(node, ast.Attribute)
                and node.attr in ("stderr", "stdout")
                and isinstance(node.value, ast.Name)
                and node.value.id == "sys"
            ):
                bad.append(f"{path.relative_to(root)}:{node.lineno} uses sys.{node.attr}")
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "print":
                bad.append(f"{path.relative_to(root)}:{node.lineno} prints")
    assert not bad, bad
