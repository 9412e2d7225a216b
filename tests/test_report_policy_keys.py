# SPDX-License-Identifier: MIT
"""Every policy key a report meets is applied, or refused; none is ignored.

A report applies ``direction`` (tests/test_report_lower.py) and the
report-only keys ``confidence`` and ``bound``; it refuses ``require`` and
``nonfinite_elsewhere: "list"``, which mean nothing per trial line.  The
gates that judge one score (``evaluate``, ``decide``, ``judge``, ``check``)
have no confidence bound, so they refuse a policy that states one.  Where
a policy and a keyword (or option) both state the confidence, the versioned
policy is not overridden: a contradiction is refused.
"""

from __future__ import annotations

import json
import sys
from decimal import Decimal

import pytest

from scorecontract import Policy, PolicyError, decide, dumps, evaluate, judge, load_policy, report
from scorecontract._cli import main
from support import FIXTURES

LINES = b'{"trial_id": "t-1", "score": 0.5}\n{"trial_id": "t-2", "score": 0.5}\n'
FLAPPING = FIXTURES / "reports" / "flapping.jsonl"


def policy_from_bytes(data: bytes, *, toml: bool = False) -> Policy:
    """``load_policy`` of a file holding *data*: the public way in."""
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / ("policy.toml" if toml else "policy.json")
        path.write_bytes(data)
        return load_policy(path)


@pytest.mark.parametrize(
    "changes",
    [{"require": ("$.score >= 0",)}, {"nonfinite_elsewhere": "list"}],
    ids=["require", "nonfinite-list"],
)
def test_report_refuses_keys_it_does_not_apply(changes):
    policy = Policy(0.2).replace(**changes)
    with pytest.raises(PolicyError) as info:
        report(LINES, scheduled=2, policy=policy)
    assert info.value.code == "bad-policy"


def test_a_lower_policy_file_is_applied_by_report(tmp_path, capsys):
    # Scores 0.5 against a ceiling of 0.2: read as higher-is-better this
    # would PASS; the direction makes it a FAIL, never exit 0.
    trials = tmp_path / "trials.jsonl"
    trials.write_bytes(LINES)
    policy = tmp_path / "policy.json"
    policy.write_text(json.dumps({"threshold": 0.2, "direction": "lower", "version": "ceiling", "exact": False}))
    status = main(["report", "--scheduled", "2", "--policy", str(policy), "--", str(trials)])
    assert status == 1
    assert capsys.readouterr().out.startswith("FAIL below-threshold: mean score 0.5 (1.0 / 2) > 0.2 (lower is better)")


def test_the_default_policy_still_reports():
    assert report(LINES, scheduled=2, policy=Policy(0.5)).verdict.value == "PASS"


# -- confidence and bound as policy keys -------------------------------------------------


def test_the_fields_their_dict_and_replace():
    policy = Policy(0.8, confidence=0.95, bound="hoeffding")
    assert (policy.confidence, policy.bound) == (0.95, "hoeffding")
    shown = policy.as_dict()
    assert shown["confidence"] == 0.95 and shown["bound"] == "hoeffding"
    # Unstated, they are absent from the dict, as the file would be.
    assert "confidence" not in Policy(0.8).as_dict() and "bound" not in Policy(0.8).as_dict()
    assert policy.replace(bound=None) == Policy(0.8, confidence=0.95)
    assert policy.replace(bound=None, confidence=None) == Policy(0.8)
    assert policy != Policy(0.8, confidence=0.95) != Policy(0.8, confidence=0.9)
    with pytest.raises(PolicyError):
        policy.replace(confidence=None)  # the bound would be left without one


@pytest.mark.parametrize(
    "fields, code",
    [
        ({"confidence": 0.5}, "bad-policy"),
        ({"confidence": 1}, "bad-policy"),
        ({"confidence": float("nan")}, "bad-policy"),
        ({"confidence": True}, "bad-policy"),
        ({"confidence": "0.95"}, "bad-policy"),
        ({"confidence": 0.95, "bound": "wald"}, "bad-policy"),
        ({"confidence": 0.95, "bound": 1}, "bad-policy"),
        ({"bound": "clt"}, "bad-policy"),
        ({"confidence": 0.95, "bound": "clt"}, "bad-policy"),
        ({"bound": "empirical-bernstein"}, "bad-policy"),
        ({"bound": "hoeffding"}, "bad-policy"),
        ({"confidence": 0.95, "bound": "empirical-bernstein", "maximum": None}, "bad-bounds"),
        ({"confidence": 0.95, "bound": "hoeffding", "maximum": None}, "bad-bounds"),
    ],
    ids=str,
)
def test_the_rules_of_the_report_keywords(fields, code):
    with pytest.raises(PolicyError) as info:
        Policy(0.8, **fields)
    assert info.value.code == code
    keywords = {key: value for key, value in fields.items() if key != "maximum"}
    policy = Policy(0.8, maximum=fields.get("maximum", 1))
    # report() says the same of the same values given as keywords (but
    # bound="empirical-bernstein" alone, the keyword's default for bounded
    # scores, which decides nothing).
    if keywords == {"bound": "empirical-bernstein"}:
        assert report(LINES, scheduled=2, policy=policy, **keywords).confidence is None
        return
    with pytest.raises(PolicyError) as again:
        report(LINES, scheduled=2, policy=policy, **keywords)
    assert again.value.code == code


def test_policy_files_hold_them_in_json_and_toml(tmp_path):
    document = {"version": "v", "threshold": 0.8, "exact": False, "confidence": 0.95, "bound": "hoeffding"}
    path = tmp_path / "p.json"
    path.write_text(json.dumps(document))
    policy = load_policy(path)
    assert policy == Policy(0.8, version="v", confidence=0.95, bound="hoeffding")
    assert load_policy_dict(policy.as_dict()) == policy
    exact = policy_from_bytes(b'{"version": "v", "threshold": 0.8, "exact": true, "confidence": 0.95}')
    assert exact.confidence == Decimal("0.95")
    with pytest.raises(PolicyError) as info:
        policy_from_bytes(b'{"version": "v", "threshold": 0.8, "exact": false, "confidance": 0.95}')
    assert info.value.code == "unknown-policy-key" and "did you mean 'confidence'" in info.value.message
    path.write_bytes(b'{"version": "v", "threshold": 0.8, "exact": false, "confidence": 1.5}')
    with pytest.raises(PolicyError) as info:
        load_policy(path)
    assert info.value.code == "bad-policy"
    assert info.value.message.startswith(f"policy file {ascii(str(path))}: confidence"), info.value.message
    if sys.version_info >= (3, 11):
        toml = b'version = "v"\nthreshold = 0.8\nexact = false\nconfidence = 0.95\nbound = "hoeffding"\n'
        assert policy_from_bytes(toml, toml=True) == policy


def load_policy_dict(document):
    return policy_from_bytes(json.dumps(document).encode("ascii"))


def test_a_policys_confidence_decides_a_report_as_the_keyword_does():
    by_keyword = report(FLAPPING, scheduled=20, threshold=0.8, confidence=0.95)
    by_policy = report(FLAPPING, scheduled=20, policy=Policy(0.8, confidence=0.95))
    assert by_keyword.verdict.value == by_policy.verdict.value == "FAIL"
    assert by_keyword.message == by_policy.message and by_policy.confidence == 0.95
    assert by_keyword.mean.interval == by_policy.mean.interval
    hoeffding = report(FLAPPING, scheduled=20, policy=Policy(0.5, confidence=0.95, bound="hoeffding"))
    assert hoeffding.bound == "hoeffding" and hoeffding.mean.interval.method == "hoeffding"
    # A keyword may repeat the policy's value, in any numeric type.
    repeated = report(FLAPPING, scheduled=20, policy=Policy(0.8, confidence=0.95), confidence=Decimal("0.95"))
    assert repeated.message == by_policy.message
    assert (
        report(FLAPPING, scheduled=20, policy=Policy(0.8, confidence=0.95), bound="empirical-bernstein").verdict.value
        == "FAIL"
    )


@pytest.mark.parametrize(
    "policy, keywords",
    [
        (Policy(0.8, confidence=0.95), {"confidence": 0.9}),
        (Policy(0.8, confidence=0.95), {"bound": "hoeffding"}),
        (Policy(0.5, confidence=0.95, bound="hoeffding"), {"bound": "asymptotic-t"}),
        (Policy(0.5, confidence=0.95, bound="hoeffding"), {"confidence": 0.99, "bound": "hoeffding"}),
    ],
    ids=["confidence", "bound over the default", "asymptotic-t over hoeffding", "confidence beside the same bound"],
)
def test_a_keyword_contradicting_the_policy_is_refused(policy, keywords):
    with pytest.raises(PolicyError) as info:
        report(FLAPPING, scheduled=20, policy=policy, **keywords)
    assert info.value.code == "option-conflict"
    assert "contradicts the policy's" in info.value.message


def test_a_policy_without_confidence_takes_the_keyword():
    result = report(FLAPPING, scheduled=20, policy=Policy(0.8, version="v"), confidence=0.95, bound="asymptotic-t")
    assert result.confidence == 0.95 and result.verdict.value == "FAIL"


CONFIDENT = Policy(0.8, confidence=0.95)


@pytest.mark.parametrize(
    "gate",
    [
        lambda: evaluate(b'{"score": 0.9}', policy=CONFIDENT),
        lambda: evaluate(b'{"score": 0.9}', policy=CONFIDENT.replace(bound="hoeffding")),
        lambda: decide(0.9, policy=CONFIDENT),
        lambda: judge(b'{"pass": true, "score": 0.9}', policy=CONFIDENT),
        lambda: evaluate(b'{"result": {"score": 0.9}}', policy=CONFIDENT, select="$.result.score"),
    ],
    ids=["evaluate", "evaluate hoeffding", "decide", "judge", "evaluate select"],
)
def test_one_score_gates_refuse_a_policy_stating_a_confidence(gate):
    with pytest.raises(PolicyError) as info:
        gate()
    assert info.value.code == "bad-policy" and "confidence 0.95" in info.value.message


def test_dumps_judges_nothing_and_takes_the_policy():
    assert dumps({"score": 0.9}, policy=CONFIDENT) == '{"score": 0.9}'


# -- the command line --------------------------------------------------------------------


@pytest.fixture
def files(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "confident.json").write_text('{"version": "c-1", "threshold": 0.8, "exact": false, "confidence": 0.95}')
    (tmp_path / "plain.json").write_text('{"version": "p-1", "threshold": 0.8, "exact": false}')
    (tmp_path / "score.json").write_bytes(b'{"score": 0.9}')
    (tmp_path / "judgment.json").write_bytes(b'{"pass": true, "score": 0.9}')
    return tmp_path


@pytest.mark.parametrize(
    "argv, code",
    [
        (["check", "--policy", "confident.json", "score.json"], "bad-policy"),
        (["check", "--contract", "judgment", "--policy", "confident.json", "judgment.json"], "bad-policy"),
        (
            ["report", "--scheduled", "20", "--policy", "confident.json", "--confidence", "0.95", str(FLAPPING)],
            "option-conflict",
        ),
        (
            ["report", "--scheduled", "20", "--policy", "confident.json", "--bound", "asymptotic-t", str(FLAPPING)],
            "option-conflict",
        ),
        (["report", "--scheduled", "20", "--bound", "asymptotic-t", str(FLAPPING)], "missing-option"),
    ],
    ids=["check", "check judgment", "report --confidence", "report --bound", "report --bound alone"],
)
def test_the_command_line_refuses_with_exit_2(files, capsys, argv, code):
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.startswith(f"scorecontract: error: {code}: ")


def test_the_policy_files_confidence_decides_and_is_in_the_receipt(files, capsys):
    assert main(["report", "--scheduled", "20", "--policy", "confident.json", "--format", "json", str(FLAPPING)]) == 1
    shown = json.loads(capsys.readouterr().out)
    assert shown["confidence"] == 0.95 and shown["bound"] == "empirical-bernstein"
    assert shown["policy"]["confidence"] == 0.95 and "bound" not in shown["policy"]
    assert "95% lower bound (empirical-bernstein) 0.444837" in shown["message"]
    # A policy file without a confidence still takes --confidence.
    plain = ["report", "--scheduled", "20", "--policy", "plain.json", "--confidence", "0.95", str(FLAPPING)]
    assert main(plain) == 1
    assert "95% lower bound (empirical-bernstein) 0.444837" in capsys.readouterr().out
