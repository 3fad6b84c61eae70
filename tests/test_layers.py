"""The layers of ARCHITECTURE.md are the import graph: every import of every module (those inside functions
and under TYPE_CHECKING too) points down the diagram, and no two modules import each other in a circle."""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

import mpcalc

ROOT = Path(mpcalc.__file__).parent
ARCHITECTURE = ROOT.parent / "ARCHITECTURE.md"

#: ARCHITECTURE.md's diagram, top to bottom: a module belongs to the longest prefix that names it
LAYERS: tuple[tuple[str, ...], ...] = (
    ("mpcalc.__main__", "mpcalc.cli", "mpcalc.commands", "mpcalc.params", "mpcalc.global_platform", "mpcalc.userio"),
    ("mpcalc.api",),
    ("mpcalc.render",),
    ("mpcalc.service",),
    ("mpcalc.inspect",),
    ("mpcalc.stream",),
    ("mpcalc.dpdk.apps",),
    ("mpcalc.dpdk.drivers",),
    ("mpcalc.dpdk.objects",),
    ("mpcalc.dpdk.core", "mpcalc.dpdk", "mpcalc"),
)


def _name(path: Path) -> str:
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@cache
def _graph() -> dict[str, frozenset[str]]:
    """Module -> the mpcalc modules it imports (``from pkg import mod`` counts as importing ``pkg.mod``)."""
    modules = {_name(p): p for p in ROOT.rglob("*.py")}
    graph = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        targets: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                targets |= {a.name for a in node.names}
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*up, *([node.module] if node.module else [])])
                targets.add(base)
                targets |= {f"{base}.{a.name}" for a in node.names}
        graph[name] = frozenset(t for t in targets if t in modules and t != name)
    return graph


def _layer(module: str) -> int:
    best = max(
        (len(prefix), i)
        for i, prefixes in enumerate(LAYERS)
        for prefix in prefixes
        if module == prefix or module.startswith(prefix + ".")
    )
    return best[1]


def test_every_import_points_down():
    up = [f"{m} -> {t}" for m, targets in sorted(_graph().items()) for t in sorted(targets) if _layer(t) < _layer(m)]
    assert up == []


def test_no_module_is_outside_the_diagram():
    # every module of the tree is under one of the diagram's folders (a new top-level module needs a place)
    assert all(_layer(m) < len(LAYERS) for m in _graph())
    top_level = {m for m in _graph() if m.count(".") == 1}
    named = {p for prefixes in LAYERS for p in prefixes}
    packages = {m.rsplit(".", 1)[0] for m in _graph() if m.count(".") >= 2}
    assert top_level <= named | packages


def test_no_import_circles():
    graph = _graph()
    # a module and its own package's __init__ are one unit (a package re-exports its modules)
    cycles = []
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(m: str) -> None:
        state[m] = 1
        stack.append(m)
        for t in sorted(graph[m]):
            if m.startswith(t + ".") or t.startswith(m + "."):
                continue  # a package and the modules it holds
            if state.get(t) == 1:
                cycles.append(" -> ".join([*stack[stack.index(t) :], t]))
            elif t not in state:
                visit(t)
        stack.pop()
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m)
    assert cycles == []


def test_the_diagram_names_every_folder():
    """ARCHITECTURE.md's diagram lists each folder of the tree and this test's layers follow its order."""
    text = ARCHITECTURE.read_text()
    diagram = text[text.index("```") : text.index("```", text.index("```") + 3)]
    folders = sorted(
        str(p.relative_to(ROOT.parent)) for p in ROOT.rglob("__init__.py") if p.parent.parent in (ROOT, ROOT / "dpdk")
    )
    for folder in folders:
        short = folder.removesuffix("/__init__.py")
        assert re.search(rf"(^|[\s/]){re.escape(short.split('/')[-1])}/", diagram), short


def test_one_name_one_module():
    """No two modules of the tree share a name, and no module is named as a package is (a newcomer reading
    ``drivers`` or ``trace`` finds one thing)."""
    modules = [p.stem for p in ROOT.rglob("*.py") if p.name != "__init__.py"]
    packages = [p.parent.name for p in ROOT.rglob("__init__.py") if p.parent != ROOT]
    names = modules + packages
    assert sorted({n for n in names if names.count(n) > 1}) == []
