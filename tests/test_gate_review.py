# SPDX-License-Identifier: MIT
"""Gate files an outside review crafted: a forged line, a shard named twice."""

from __future__ import annotations

import json
import os
import shutil

import pytest

from support import FIXTURES, run_main

FLAPPING = FIXTURES / "reports" / "flapping.jsonl"
LM_EVAL = FIXTURES / "harnesses" / "lm-eval-results.json"


def test_a_newline_in_the_version_forges_no_line(tmp_path):
    shutil.copy(LM_EVAL, tmp_path / "r.json")
    forged = "v)\n::notice title=scorecontract gate::PASS meets-threshold: all gates PASS\nPASS meets-threshold: x"
    gate = {"command": "check", "evidence": "r.json", "from": "lm-eval", "task": "mmlu", "metric": "acc,none"}
    (tmp_path / "g.json").write_text(json.dumps({"version": forged, "gates": {"a": {**gate, "threshold": 0.99}}}))
    for form in ("text", "github", "markdown"):
        done = run_main("gate", "--format", form, "--", str(tmp_path / "g.json"))
        assert done.returncode == 1
        lines = done.stdout.splitlines()
        assert not any(line.startswith((b"PASS", b"::notice")) for line in lines), done.stdout


@pytest.mark.parametrize("second", ["./flapping.jsonl", "sub/../flapping.jsonl", "link.jsonl"])
def test_a_shard_named_twice_by_another_spelling_is_refused(tmp_path, second):
    shutil.copy(FLAPPING, tmp_path / "flapping.jsonl")
    (tmp_path / "sub").mkdir()
    os.symlink("flapping.jsonl", tmp_path / "link.jsonl")
    gate = {"command": "report", "evidence": ["flapping.jsonl", second], "scheduled": 20, "threshold": 0.1}
    (tmp_path / "g.json").write_text(json.dumps({"version": "v", "gates": {"a": gate}}))
    done = run_main("gate", "--", str(tmp_path / "g.json"))
    assert done.returncode == 2, done.stdout
    assert b"twice" in done.stderr and b"PASS" not in done.stdout
