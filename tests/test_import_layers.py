"""The import structure: no cycle between top-level packages, each imports only the layers below it, and inside
``training/`` a room imports only the rooms below it (cli > trainer > callbacks > core).

Every import counts, also those inside functions: a deferred import is still a dependency.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

import pytest

from tests.conftest import REPO_ROOT

# Lowest first: a package may import itself and the packages before it.
LAYERS = ["metrics", "dataset_builders", "base_models", "model_cards", "publishing", "training", "benchmarks"]
TOP = {"spaces": ["metrics", "dataset_builders"]}  # imports nothing else of ours (what it vendors)
TRAINING_ROOMS = ["core", "callbacks", "trainer", "cli"]  # lowest first
PACKAGES = [*LAYERS, *TOP]


def module_name(path: Path) -> str:
    parts = list(path.relative_to(REPO_ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path) -> list[tuple[str, int]]:
    """(absolute module name, line) of every import in a file, relative imports resolved."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = module_name(path) if path.name == "__init__.py" else module_name(path).rpartition(".")[0]
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(alias.name, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                name = ".".join(base + ([node.module] if node.module else []))
            else:
                name = node.module or ""
            found.append((name, node.lineno))
    return found


def project_imports() -> list[tuple[str, str, str]]:
    """(importing file, imported module, where) for every import of one of our packages by one of our packages."""
    edges = []
    for package in PACKAGES:
        for path in sorted((REPO_ROOT / package).rglob("*.py")):
            for module, line in imports_of(path):
                if module.split(".")[0] in PACKAGES:
                    edges.append((str(path.relative_to(REPO_ROOT)), module, f"{path.relative_to(REPO_ROOT)}:{line}"))
    return edges


@pytest.fixture(scope="module")
def edges():
    return project_imports()


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """A cycle of ``graph`` as a list of nodes (first == last), or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return path[path.index(nxt) :] + [nxt]
            if nxt not in state and (cycle := visit(nxt)):
                return cycle
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (cycle := visit(node)):
            return cycle
    return None


def test_find_cycle_finds_one():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": set()}) is None


def test_no_import_cycle_between_top_level_packages(edges):
    graph: dict[str, set[str]] = defaultdict(set)
    where: dict[tuple[str, str], str] = {}
    for source, module, at in edges:
        a, b = source.split("/")[0], module.split(".")[0]
        if a != b:
            graph[a].add(b)
            where.setdefault((a, b), at)
    cycle = find_cycle(graph)
    assert cycle is None, (
        "import cycle " + " -> ".join(cycle) + ": " + ", ".join(where[(a, b)] for a, b in zip(cycle, cycle[1:]))
    )


def test_each_package_imports_only_the_layers_below_it(edges):
    allowed = {package: set(LAYERS[: i + 1]) for i, package in enumerate(LAYERS)}
    allowed.update({package: {package, *below} for package, below in TOP.items()})
    wrong = [
        f"{at} imports {module}"
        for source, module, at in edges
        if module.split(".")[0] not in allowed[source.split("/")[0]]
    ]
    assert not wrong, "imports against the layers " + " < ".join(LAYERS) + ":\n" + "\n".join(wrong)


def test_training_rooms_import_only_the_rooms_below_them(edges):
    def room(parts: list[str]) -> int | None:
        return TRAINING_ROOMS.index(parts[1]) if len(parts) > 1 and parts[1] in TRAINING_ROOMS else None

    wrong = []
    for source, module, at in edges:
        source_parts, module_parts = Path(source).with_suffix("").parts, module.split(".")
        if source_parts[0] != "training" or module_parts[0] != "training":
            continue
        here, there = room(list(source_parts)), room(module_parts)
        if here is not None and there is not None and there > here:
            wrong.append(f"{at} imports {module}")
    assert not wrong, (
        "imports from a lower room to a higher one (" + " < ".join(TRAINING_ROOMS) + "):\n" + "\n".join(wrong)
    )


def test_training_has_no_module_outside_its_rooms():
    loose = [p.name for p in (REPO_ROOT / "training").glob("*.py") if p.name != "__init__.py"]
    assert not loose, f"training/{loose[0]} belongs in one of the rooms {', '.join(TRAINING_ROOMS)}"
