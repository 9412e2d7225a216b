# SPDX-License-Identifier: MIT
"""benchmarks/selection.py runs on a small log (its timings are not tested)."""

from __future__ import annotations

import importlib.util
import json
import math
import re
import subprocess
import sys
import types

from support import ROOT

SCRIPT = ROOT / "benchmarks" / "selection.py"


def load():
    spec = importlib.util.spec_from_file_location("selection_benchmark", SCRIPT)
    if spec is None or spec.loader is None:
        raise AssertionError(f"cannot load {SCRIPT}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_log_is_inspect_like_and_the_same_each_time():
    bench = load()
    data = bench.harness_log(60_000)
    assert data == bench.harness_log(60_000)
    assert 50_000 < len(data) < 70_000
    log = json.loads(data)
    assert log["status"] == "success" and log["results"]["scores"][0]["metrics"]["accuracy"]["value"] == bench.HEADLINE
    values = [sample["scores"]["choice"]["value"] for sample in log["samples"]]
    assert any(type(v) is float and math.isnan(v) for v in values)  # unscored samples, as Inspect writes them
    assert b"NaN" in data and b'\\"' in data and b"\\n" in data
    assert max(bench.harness_log(20_000, wide=True).decode("utf-8")) > "\u00ff"


def test_the_strict_load_selects_the_headline():
    bench = load()
    document = bench.strict_select(bench.harness_log(20_000))
    assert document["results"]["total_samples"] == len(document["samples"])


def test_it_runs_and_prints_both_ratios():
    result = subprocess.run(
        [sys.executable, str(SCRIPT), "--size", "30000", "--rounds", "1", "--print-only"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    assert re.search(r"^document: [\d,]+ bytes, [1-9]\d* NaN scores", result.stdout, re.MULTILINE)
    for name in ("json.loads(bytes)", "strict load + selection"):
        assert re.search(rf"^{re.escape(name)} +[\d.]+ +[\d.]+x +[\d.]+ +[\d.]+x$", result.stdout, re.MULTILINE)


def test_it_fails_over_the_limit(capsys):
    bench = load()
    bench.LIMIT = 0.0  # every ratio is over it
    # Its gc.collect() before each measure walks the whole suite's heap
    # here (seconds late in a run); the limit's logic does not need it.
    bench.gc = types.SimpleNamespace(collect=lambda: 0)
    assert bench.main(["--size", "20000", "--rounds", "1"]) == 1
    assert "over the target" in capsys.readouterr().err
