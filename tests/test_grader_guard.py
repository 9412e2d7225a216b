# SPDX-License-Identifier: MIT
"""integrations/promptfoo/grader_guard.py: promptfoo's grader held to the judgment contract.

The guard is a promptfoo Python provider; promptfoo calls its ``call_api``
with the grading prompt and the provider's config.  Here it is called the
same way, around a scripted grader written to a temporary file, so the test
needs neither Node nor promptfoo (the corpus entry promptfoo/guarded/ is
what promptfoo 0.123.1 itself recorded through it).
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest

from support import ROOT

GUARD = ROOT / "integrations" / "promptfoo" / "grader_guard.py"

# The grader answers with the reply named after "REPLY:" in the prompt.
GRADER = """
import json
REPLIES = json.loads({replies!r})

def call_api(prompt, options, context):
    key = prompt.split("REPLY:", 1)[1].split()[0]
    reply = REPLIES[key]
    if isinstance(reply, dict) and "__error__" in reply:
        return {{"error": reply["__error__"]}}
    return {{"output": reply, "tokenUsage": {{"total": 7}}, "seen_config": options.get("config")}}

def other(prompt, options, context):
    return {{"output": json.dumps({{"pass": True, "reason": "other function"}})}}
"""

REPLIES = {
    "pass": '{"pass": true, "score": 1, "reason": "correct"}',
    "fail": '{"pass": false, "score": 0.9, "reason": "wrong"}',
    "none": '{"reason": "The answer was considered."}',
    "zero": '{"score": 0}',
    "yes": '{"pass": "yes"}',
    "nan": '{"pass": true, "score": NaN}',
    "prose": 'Verdict:\n```json\n{"pass": true, "score": 0.75}\n```',
    "object": {"pass": False, "reason": "an object output"},
    "low": '{"pass": true, "score": 0.3}',
    "empty": "",
    "broken": {"__error__": "grader unavailable"},
}


def load_guard() -> Any:
    spec = importlib.util.spec_from_file_location("grader_guard_under_test", GUARD)
    if spec is None or spec.loader is None:
        raise RuntimeError(f"cannot load {GUARD}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def guard(tmp_path: Path, monkeypatch: Any) -> Any:
    (tmp_path / "grader.py").write_text(GRADER.format(replies=json.dumps(REPLIES)), encoding="utf-8")
    monkeypatch.chdir(tmp_path)  # a relative grader path is promptfoo's working directory's
    return load_guard()


def grade(guard: Any, key: str, **config: object) -> dict[str, Any]:
    settings: dict[str, object] = {"grader": "file://grader.py", **config}
    response: dict[str, Any] = guard.call_api(f"<Output>x</Output> REPLY:{key}", {"config": settings}, {})
    return response


def verdict(response: dict[str, Any]) -> dict[str, Any]:
    output: dict[str, Any] = json.loads(response["output"])
    return output


def test_a_verdict_passes_through_as_the_contract_reads_it(guard: Any) -> None:
    passed = grade(guard, "pass")
    assert verdict(passed) == {"pass": True, "score": 1.0, "reason": "correct (scorecontract: explicit-pass)"}
    assert passed["tokenUsage"] == {"total": 7}  # promptfoo still counts the grader's tokens
    assert "seen_config" not in passed
    assert verdict(grade(guard, "fail")) == {
        "pass": False,
        "score": 0.9,
        "reason": "wrong (scorecontract: explicit-fail)",
    }
    assert verdict(grade(guard, "object"))["pass"] is False


def test_replies_promptfoo_would_pass_are_failed_or_refused(guard: Any) -> None:
    # promptfoo 0.123.1: `parsed.pass ?? true` passes both "none" and "zero",
    # and its /^(true|yes|pass|y)$/i passes "yes".
    assert verdict(grade(guard, "zero")) == {
        "pass": False,
        "score": 0.0,
        "reason": "no reason given (scorecontract: zero-score)",
    }
    for key, code in (("none", "no-judgment"), ("yes", "verdict-not-boolean"), ("nan", "non-standard-constant")):
        with pytest.raises(guard.GraderError, match=f"no judgment: {code}:"):
            grade(guard, key)


def test_a_failed_or_empty_grader_is_an_error_not_a_verdict(guard: Any) -> None:
    with pytest.raises(guard.GraderError, match="the grader failed: grader unavailable"):
        grade(guard, "broken")
    with pytest.raises(guard.GraderError, match="not a judgment"):
        grade(guard, "empty")


def test_extraction_threshold_and_function_are_config(guard: Any) -> None:
    assert verdict(grade(guard, "prose")) == {
        "pass": True,
        "score": 0.75,
        "reason": "no reason given (scorecontract: explicit-pass)",
    }
    with pytest.raises(guard.GraderError, match="extraction-failed|syntax"):
        grade(guard, "prose", extract=False)
    assert verdict(grade(guard, "low"))["pass"] is True
    assert verdict(grade(guard, "low", threshold=0.5)) == {
        "pass": False,
        "score": 0.3,
        "reason": "no reason given (scorecontract: below-threshold)",
    }
    assert (
        verdict(grade(guard, "pass", grader="file://grader.py:other"))["reason"]
        == "other function (scorecontract: explicit-pass)"
    )
    assert verdict(grade(guard, "pass", grader_function="other"))["reason"].startswith("other function")


def test_grader_config_reaches_the_grader_only(guard: Any, tmp_path: Path) -> None:
    (tmp_path / "echo_config.py").write_text(
        "import json\n"
        "def call_api(prompt, options, context):\n"
        "    return {'output': json.dumps({'pass': True, 'reason': json.dumps(options['config'])})}\n",
        encoding="utf-8",
    )
    response = grade(guard, "pass", grader="echo_config.py", grader_config={"model": "m1"}, threshold=None)
    assert verdict(response)["reason"] == '{"model": "m1"} (scorecontract: explicit-pass)'


@pytest.mark.parametrize(
    ("config", "message"),
    [
        ({"grader": ""}, "needs config.grader"),
        ({"grader": "file://missing.py"}, "is not a Python file"),
        ({"grader": "file://grader.py:absent"}, "has no function 'absent'"),
        ({"grader": "file://grader.py", "threshold": "0.5"}, "threshold must be a number"),
        ({"grader": "file://grader.py", "threshold": True}, "threshold must be a number"),
        ({"grader": "file://grader.py", "extract": "yes"}, "extract must be true or false"),
    ],
)
def test_a_bad_config_is_an_error(guard: Any, config: dict[str, object], message: str) -> None:
    with pytest.raises(guard.GraderError, match=message):
        guard.call_api("REPLY:pass", {"config": config}, {})
