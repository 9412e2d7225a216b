# SPDX-License-Identifier: MIT
"""The harness registry: one module per harness, each a ``Harness``, no cycle.

White-box on purpose: the layout is the point.  Every name in
``_source.REGISTRY`` loads a module of ``_harnesses`` that has each member
of the ``Harness`` protocol with the right kind; the option vocabulary is
exactly what the adapters take; the docs' adapter table is the registry's;
and the relative imports of the package, deferred and type-checking ones
included, with the registry's lazy imports as edges, form no cycle
through the harness layer.
"""

from __future__ import annotations

import ast
import inspect as pyinspect

import pytest

from scorecontract._harnesses import load
from scorecontract._harnesses._base import Harness, Headline, Option, Samples
from scorecontract._source import OPTIONS, REGISTRY
from support import ROOT, SRC, parse_source

PACKAGE = SRC / "scorecontract"


@pytest.mark.parametrize("name", list(REGISTRY))
def test_every_registered_harness_matches_the_protocol(name):
    module = load(name)
    members = set(Harness.__annotations__)
    assert members == {"NAME", "TITLE", "FOLLOWS", "HEADLINE", "SAMPLES"}
    for member in members:
        assert hasattr(module, member), (name, member)
        assert member in module.__all__, (name, member)
    assert module.NAME == name
    assert type(module.TITLE) is str and module.TITLE
    assert type(module.FOLLOWS) is str and module.FOLLOWS
    assert type(module.HEADLINE) in (Headline, type(None))
    assert type(module.SAMPLES) in (Samples, type(None))
    assert module.HEADLINE is not None or module.SAMPLES is not None
    if module.HEADLINE is not None:
        gate = pyinspect.signature(module.HEADLINE.gate)
        assert list(gate.parameters) == ["raw", "options", "policy", "max_bytes", "trace"]
        for text in (module.HEADLINE.file, module.HEADLINE.selects, module.HEADLINE.requires):
            assert type(text) is str and text
        assert module.HEADLINE.lists and module.HEADLINE.nonfinite
    if module.SAMPLES is not None:
        assert list(pyinspect.signature(module.SAMPLES.reader).parameters) == ["options", "policy", "names"]


@pytest.mark.parametrize("name", list(REGISTRY))
def test_every_option_is_in_the_vocabulary(name):
    module = load(name)
    for adapter in (module.HEADLINE, module.SAMPLES):
        if adapter is None:
            continue
        names = [option.name for option in adapter.options]
        assert len(names) == len(set(names)), name
        for option in adapter.options:
            assert type(option) is Option
            assert option.name in OPTIONS, (name, option.name)
            assert option.help and option.kind in ("text", "switch", "path", "labels")


def test_the_vocabulary_is_what_the_adapters_take():
    # Each command has a flag exactly for the options some adapter of that
    # command takes: none is dead, none is missing.
    taken = {"check": set(), "report": set()}
    for name in REGISTRY:
        module = load(name)
        if module.HEADLINE is not None:
            taken["check"].update(option.name for option in module.HEADLINE.options)
        if module.SAMPLES is not None:
            taken["report"].update(option.name for option in module.SAMPLES.options)
    for command in ("check", "report"):
        assert {key for key, entry in OPTIONS.items() if command in entry[2]} == taken[command], command


def test_a_harness_module_is_imported_only_when_used():
    import subprocess
    import sys

    probe = (
        "import sys; import scorecontract; from scorecontract import Source; Source('lm-eval', task='t');"
        "print(sorted(m for m in sys.modules if '_harnesses' in m or m == 'zipfile'))"
    )
    result = subprocess.run(
        [sys.executable, "-S", "-c", probe], capture_output=True, env={"PYTHONPATH": str(SRC)}, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.decode().strip() == "[]"


def test_a_plain_check_imports_no_adapter_and_no_zipfile():
    import subprocess
    import sys

    from support import FIXTURES

    probe = (
        "import contextlib, io, sys; from scorecontract._cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()): status = main(['check', sys.argv[1]])\n"
        "print(status, sorted(m for m in sys.modules if m.split('.')[-1] in"
        " ('_harnesses', '_headline', '_samples', '_sample_reader', '_archive') or m in ('zipfile', 'importlib')))"
    )
    result = subprocess.run(
        [sys.executable, "-S", "-c", probe, str(FIXTURES / "pass-0.9.json")],
        capture_output=True,
        env={"PYTHONPATH": str(SRC)},
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.decode().split(" ", 1) == ["0", "[]\n"]


def test_an_unknown_harness_is_refused_by_the_loader():
    from scorecontract import PolicyError

    with pytest.raises(PolicyError) as caught:
        load("lm_eval")
    assert caught.value.code == "bad-option" and "known: lm-eval, inspect" in caught.value.message


# -- the docs' table is the registry's -------------------------------------------------------------


def _docs_table():
    text = (ROOT / "docs" / "harnesses.md").read_text(encoding="utf-8")
    rows = [line for line in text.split("\n") if line.startswith("| `") and "` | " in line]
    table = {}
    for row in rows:
        cells = [cell.strip() for cell in row.strip("|").split(" | ")]
        if len(cells) == 3 and cells[0].strip("`") in REGISTRY:
            table[cells[0].strip("`")] = (cells[1], cells[2])
    if not table:
        raise AssertionError("docs/harnesses.md has no adapter table")
    return table


def _usage(option):
    usage = f"`{option.usage}`"
    if option.default is not None and option.kind != "switch":
        usage += f" (default `{option.default}`)"
    return usage


def test_the_docs_adapter_table_is_the_registry():
    table = _docs_table()
    assert list(table) == [name for name in REGISTRY if load(name).HEADLINE is not None]
    for name, (options, file) in table.items():
        adapter = load(name).HEADLINE
        expected = " ".join(_usage(option) for option in adapter.options) or "none"
        assert options == expected, name
        assert file == adapter.file, name


def test_adding_a_harness_is_documented():
    text = (ROOT / "docs" / "harnesses.md").read_text(encoding="utf-8")
    assert "\n## Adding a harness\n" in text
    section = text.split("\n## Adding a harness\n", 1)[1].split("\n## ", 1)[0]
    for needed in ("src/scorecontract/_harnesses/", "REGISTRY", "HEADLINE", "SAMPLES", "tests/", "fixtures/"):
        assert needed in section, needed


# -- no import cycle through the harness layer ------------------------------------------------------


def _module_of(path):
    parts = path.relative_to(SRC).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _edges():
    """Module -> the modules of the package it imports, at any level, and the registry's lazy imports."""
    edges = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        name = _module_of(path)
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        targets = set()
        for node in ast.walk(parse_source(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ImportFrom) or not node.level:
                continue
            base = package.split(".")
            base = base[: len(base) - (node.level - 1)]
            if node.module:
                base = base + node.module.split(".")
                targets.add(".".join(base))
            else:
                for alias in node.names:
                    targets.add(".".join(base + [alias.name]))
        edges[name] = targets
    # The registry's lazy imports: _harnesses.load reaches every harness module.
    edges["scorecontract._harnesses"] |= {f"scorecontract._harnesses.{module}" for module in REGISTRY.values()}
    known = set(edges)
    return {name: {target for target in targets if target in known} for name, targets in edges.items()}


def _cycles(edges):
    """The strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on, found = {}, {}, [], set(), []

    def visit(node):
        index[node] = low[node] = len(index)
        stack.append(node)
        on.add(node)
        for target in edges[node]:
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = set()
            while True:
                member = stack.pop()
                on.discard(member)
                component.add(member)
                if member == node:
                    break
            if len(component) > 1 or node in edges[node]:
                found.append(component)

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


HARNESS_LAYER = {
    "scorecontract._source",
    "scorecontract._headline",
    "scorecontract._samples",
    "scorecontract._sample_reader",
    "scorecontract._evaluate",
    "scorecontract._report",
    "scorecontract._tally",
}


def test_no_import_cycle_runs_through_the_harness_layer():
    edges = _edges()
    assert "scorecontract._harnesses._lm_eval" in edges["scorecontract._harnesses"]
    layer = HARNESS_LAYER | {name for name in edges if name.startswith("scorecontract._harnesses")}
    assert layer <= set(edges)
    cycles = [sorted(component) for component in _cycles(edges) if component & layer]
    assert cycles == []


def test_the_cycle_finder_finds_one():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == [{"a", "b", "c"}]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_no_private_name_crosses_a_module_of_the_harness_layer():
    mine = HARNESS_LAYER - {"scorecontract._report", "scorecontract._tally"}
    layer = [path for path in PACKAGE.rglob("*.py") if _module_of(path) in mine or "_harnesses" in str(path)]
    assert len(layer) >= 10
    crossing = []
    for path in layer:
        for node in ast.walk(parse_source(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level:
                crossing += [
                    f"{path.name}: {alias.name}"
                    for alias in node.names
                    if alias.name.startswith("_") and alias.name != "__version__" and node.module is not None
                ]
    assert crossing == []


@pytest.mark.parametrize("name", list(REGISTRY))
def test_report_from_harness_help_shows_that_harness_registered_options(name):
    # report --from X --help is built from the registry: each option the
    # harness's per-sample reader takes is on its page.
    from support import run_main

    result = run_main("report", "--from", name, "--help")
    out = result.stdout.decode()
    assert (result.returncode, result.stderr) == (0, b"")
    assert "exit status" in out
    samples = load(name).SAMPLES
    if samples is None:
        assert f"check --from {name}" in out and "no per-sample records" in out
        return
    assert out.startswith(f"usage: scorecontract report --from {name}")
    assert samples.options
    for option in samples.options:
        assert option.flag in out, option.flag
    # And check's own page for the same harness is the headline's.
    checked = run_main("check", "--from", name, "--help")
    assert checked.returncode == 0 and checked.stdout.decode().startswith(f"usage: scorecontract check --from {name}")
