# SPDX-License-Identifier: MIT
"""benchmarks/adversarial.py runs, and every shape reaches the code it targets.

The benchmark's timings are not tested (no timed tests); its smoke mode is:
at tiny sizes each pathological shape must still get the outcome it was
built for, or it measures nothing.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys

import pytest

from support import ROOT

SCRIPT = ROOT / "benchmarks" / "adversarial.py"
ENTRY_POINTS = {
    "evaluate",
    "evaluate str",
    "evaluate exact",
    "evaluate select",
    "judge",
    "judge extract",
    "loads",
    "report",
    "manifest",
    "load_policy json",
}
SHAPES_REQUIRED = [
    "escaped-quotes-then-brackets",
    "long-string",
    "many-members",
    "nesting-just-under-the-limit",
    "nesting-just-over-the-limit",
    "long-numbers-under-the-cap",
    "a-number-over-the-cap",
    "many-open-braces",
    "many-backticks",
    "a-very-long-trial-id",
    "absolute-query-in-a-filter",
    "search-with-a-pattern-from-the-document",
    "match-with-a-pattern-from-the-document",
]


def load():
    spec = importlib.util.spec_from_file_location("adversarial", SCRIPT)
    if spec is None or spec.loader is None:
        raise AssertionError(f"cannot load {SCRIPT}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_smoke_mode_runs_every_shape():
    result = subprocess.run([sys.executable, str(SCRIPT), "--smoke"], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "all shapes reach their outcome" in result.stdout
    # Rows are fixed-width: entry point, shape, sizes and times, outcome.
    rows = [line for line in result.stdout.splitlines() if line[:17].strip() in ENTRY_POINTS | {"load_policy toml"}]
    names = {line[18:58].strip() for line in rows}
    for shape in SHAPES_REQUIRED:
        assert shape in names, shape
    entries = {line[:17].strip() for line in rows}
    assert ENTRY_POINTS <= entries


def test_every_entry_point_has_shapes():
    module = load()
    shapes = module.shapes()
    assert len(shapes) >= 80
    assert ENTRY_POINTS <= {entry for _, entry, _, _, _, _ in shapes}


def test_a_shape_that_misses_its_outcome_fails_the_run(monkeypatch, capsys):
    module = load()
    real = module.shapes

    def broken():
        name, entry, runner, build, _, base = real()[0]
        return [(name, entry, runner, build, "meets-threshold", base)]

    monkeypatch.setattr(module, "shapes", broken)
    assert module.main(["--smoke"]) == 1
    assert "built for 'meets-threshold'" in capsys.readouterr().out


@pytest.mark.parametrize(
    "shape",
    [
        "escaped-quotes-then-brackets",
        "a-very-long-trial-id",
        "absolute-query-in-a-filter",
        "search-with-a-pattern-from-the-document",
    ],
)
def test_sizes_grow_four_times(shape):
    module = load()
    for name, _, _, build, _, base in module.shapes():
        if name == shape:
            small, large = build(base), build(4 * base)
            assert 3.5 < len(large) / len(small) < 4.5
            return
    raise AssertionError(f"no shape {shape}")
