"""The package's layout: no import cycles, and no step importing from a step after it.

The tree is meant to show the pipeline (docs/architecture.md): a reader who follows the
imports of a module only ever walks back towards the start of the build. These tests
read every module's imports from its syntax tree, the ones inside functions and under
``if TYPE_CHECKING:`` included, since a late import is still a dependency: it only
hides a cycle until the function runs.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import generator

PACKAGE = Path(generator.__file__).resolve().parent

#: The steps in the order a build runs them; a module may import only from its own
#: layer and the layers before it. The first layer holds the small modules every
#: step uses (the escapers of every output format, problems, errors and a command's Result,
#: quantities, the API server's metadata syntax, mapping merges, paths) and the speed
#: machinery, which imports nothing of ours.
#: model and features are the vocabulary the input formats are written in, so they
#: come before source; schemas (KubeVirt's CRD schemas) are read by loading to check
#: spec fragments, so they come before load. libosinfo's database is read as the catalog is (osinfo, beside
#: load), while the osinfo rule's checks are vocabulary the preference format names (osinfo.checks). tools
#: and cli use the steps; nothing uses them. ``python -m generator`` (generator/__main__.py) only runs the command line.
LAYERS: list[tuple[str, ...]] = [
    ("generator", "generator.escape", "generator.problems", "generator.errors", "generator.result",
     "generator.quantity", "generator.paths", "generator.merge", "generator.objectmeta", "generator.golower",
     "generator.suggest", "generator.patterns", "generator.pipes", "generator.frozen"),
    ("generator.model", "generator.features", "generator.osinfo.checks"),
    ("generator.source",),
    ("generator.schemas",),
    ("generator.load", "generator.osinfo"),
    ("generator.expand", "generator.query"),
    ("generator.render",),
    ("generator.parse",),
    ("generator.validate",),
    ("generator.outputs",),
    ("generator.write", "generator.treewriter"),
    ("generator.report", "generator.sarif"),
    ("generator.pipeline",),
    ("generator.tools",),
    ("generator.cli", "generator.__main__", "generator.entry"),
]


def modules() -> dict[str, Path]:
    """Every module of the package by dotted name; a package by its own name."""
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


MODULES = modules()


def _known(name: str) -> str | None:
    """The module ``name`` is, or the module that defines it (``generator.model.Series`` -> model)."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def imports(module: str) -> set[str]:
    """The package's modules that ``module`` imports, anywhere in its text."""
    path = MODULES[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                origin = ".".join(base + ([node.module] if node.module else []))
            else:
                origin = node.module or ""
            names = [f"{origin}.{alias.name}" for alias in node.names]  # a submodule or a name in origin
        else:
            continue
        for name in names:
            if name == "generator" or name.startswith("generator."):
                target = _known(name)
                if target is not None and target != module:
                    found.add(target)
    return found


@pytest.fixture(scope="module")
def graph() -> dict[str, set[str]]:
    """Every module of the package, with the package's modules it imports (read when a test asks: not at collection)."""
    return {module: imports(module) for module in MODULES}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph[node]):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def covers(entry: str, module: str) -> bool:
    """Whether an entry of LAYERS names ``module``: itself, or a sub-package holding it (not the root)."""
    return module == entry or (entry != "generator" and module.startswith(entry + "."))


def layer(module: str) -> int:
    """The layer of the most specific entry of LAYERS that names ``module``."""
    return max((len(entry), number) for number, group in enumerate(LAYERS) for entry in group
               if covers(entry, module))[1]


def test_the_scan_sees_imports_of_every_kind(graph):
    assert "generator.model" in graph["generator.load.catalog"]  # from ..model import
    assert "generator.source.yamlclasses" in graph["generator.source.yamlsrc"]  # from .yamlclasses import
    assert "generator.source.formats" in graph["generator.load.catalog"]  # from ..source import formats
    assert "generator.validate" in graph["generator.pipeline"]  # inside a function
    assert "generator.load.gpu" in graph["generator.load.catalog"]  # inside a function, same package
    assert "generator.cli" in graph["generator.cli.__main__"]  # from . import main, in a package's module


def test_the_cycle_finder_finds_a_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_import_cycles(graph):
    assert cycles(graph) == []


def test_every_module_has_a_layer():
    assert [m for m in MODULES if not any(covers(entry, m) for group in LAYERS for entry in group)] == []


def test_a_backward_import_is_seen():
    assert layer("generator.load.overlays") < layer("generator.validate.rules.base")
    assert layer("generator.cli.list") > layer("generator.pipeline") > layer("generator.outputs.helm")


def test_no_module_imports_from_a_later_step(graph):
    backwards = sorted(f"{module} -> {target}" for module, targets in graph.items() for target in targets
                       if layer(target) > layer(module))
    assert backwards == []
