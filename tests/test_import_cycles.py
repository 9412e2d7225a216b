# SPDX-License-Identifier: MIT
"""No import cycle in the package, at any level.

White-box on purpose: it reads the source, not the behaviour.  Every
relative import counts, wherever it stands: at the top of a module, inside
a function (a deferred import still runs, and a cycle through it is one
``ImportError: cannot import name`` away from a crash the day the order of
first use changes), and under ``TYPE_CHECKING`` (the type checker follows
it, and a cycle there is a layering mistake the next refactor makes real).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from support import SRC, CorpusMissing, parse_source

PACKAGE = SRC / "scorecontract"


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    found = {_module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}
    if len(found) < 10:
        raise CorpusMissing(f"found only {len(found)} modules under {PACKAGE}")
    return found


def _is_package(path: Path) -> bool:
    return path.name == "__init__.py"


def _imports(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The package modules that *name* imports, anywhere in its source."""
    package = name if _is_package(path) else name.rpartition(".")[0]
    targets: set[str] = set()
    for node in ast.walk(parse_source(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            # Absolute self-imports are refused elsewhere (test_vendoring);
            # count them here too, so none hides a cycle.
            targets.update(alias.name for alias in node.names if alias.name in modules)
            continue
        if not isinstance(node, ast.ImportFrom):
            continue
        if node.level == 0:
            base = node.module or ""
            if base not in modules:
                continue
        else:
            anchor = package.split(".")
            if node.level > 1:
                anchor = anchor[: -(node.level - 1)]
            base = ".".join(anchor + ([node.module] if node.module else []))
        for alias in node.names:
            submodule = f"{base}.{alias.name}"
            # `from . import _x` imports the submodule _x; `from . import name`
            # (a name the package defines) imports the package's __init__.
            targets.add(submodule if submodule in modules else base)
    targets.discard(name)
    return {target for target in targets if target in modules}


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    return {name: _imports(name, path, modules) for name, path in modules.items()}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []

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
                components.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return components


def test_the_walk_finds_deferred_and_type_checking_imports():
    # The walk must see what it is meant to see, or an empty graph passes.
    graph = _graph()
    assert sum(len(targets) for targets in graph.values()) > 50
    # A deferred import inside a function (scorecontract/__init__.py's
    # PEP 562 __getattr__) and a TYPE_CHECKING one both count.
    assert "scorecontract._dumps" in graph["scorecontract"]


@pytest.mark.parametrize(
    ("graph", "expected"),
    [
        ({"a": {"b"}, "b": {"a"}}, [["a", "b"]]),
        ({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}, [["a", "b", "c"]]),
        ({"a": {"b"}, "b": set()}, []),
    ],
    ids=["two", "three-and-a-tail", "none"],
)
def test_the_cycle_finder_finds_cycles(graph, expected):
    assert _cycles(graph) == expected


def test_no_import_cycle_at_any_level():
    cycles = _cycles(_graph())
    assert cycles == [], "import cycles (deferred and TYPE_CHECKING imports included): " + "; ".join(
        " <-> ".join(cycle) for cycle in cycles
    )
