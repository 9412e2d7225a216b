# SPDX-License-Identifier: MIT
"""The envelope: evidence bound to the candidate and the run it judges."""

from __future__ import annotations

import json

import pytest

from scorecontract import Policy, PolicyError, Verdict, evaluate, load_policy, report
from scorecontract._cli import main
from support import FIXTURES
from test_fast_path import CORPUS, full_path


def envelope(**members):
    return json.dumps(members).encode()


# (evidence, candidate, run_id, verdict, code)
CASES = [
    ("match", envelope(candidate="m-1", score=0.9), "m-1", None, "PASS", "meets-threshold"),
    ("match-fail", envelope(candidate="m-1", score=0.5), "m-1", None, "FAIL", "below-threshold"),
    (
        "match-with-unpinned-run",
        envelope(candidate="m-1", run_id="r-9", score=0.9),
        "m-1",
        None,
        "PASS",
        "meets-threshold",
    ),
    (
        "match-with-pinned-run",
        envelope(candidate="m-1", run_id="r-9", score=0.9),
        "m-1",
        "r-9",
        "PASS",
        "meets-threshold",
    ),
    ("plain-record", b'{"score": 0.9}', "m-1", None, "INVALID", "missing-candidate"),
    ("another-candidate", envelope(candidate="m-2", score=0.9), "m-1", None, "INVALID", "candidate-mismatch"),
    ("candidate-null", envelope(candidate=None, score=0.9), "m-1", None, "INVALID", "candidate-mismatch"),
    ("candidate-number", b'{"candidate": 1, "score": 0.9}', "1", None, "INVALID", "candidate-mismatch"),
    ("candidate-array", b'{"candidate": ["m-1"], "score": 0.9}', "m-1", None, "INVALID", "candidate-mismatch"),
    ("candidate-object", b'{"candidate": {"id": "m-1"}, "score": 0.9}', "m-1", None, "INVALID", "candidate-mismatch"),
    # Exact comparison: no case folding, trimming or Unicode normalisation.
    ("case-folded", envelope(candidate="M-1", score=0.9), "m-1", None, "INVALID", "candidate-mismatch"),
    ("trailing-space", envelope(candidate="m-1 ", score=0.9), "m-1", None, "INVALID", "candidate-mismatch"),
    ("leading-space", envelope(candidate=" m-1", score=0.9), "m-1", None, "INVALID", "candidate-mismatch"),
    (
        "nfd-vs-nfc",
        envelope(candidate="caf\u0065\u0301", score=0.9),
        "caf\u00e9",
        None,
        "INVALID",
        "candidate-mismatch",
    ),
    (
        "nfc-vs-nfd",
        envelope(candidate="caf\u00e9", score=0.9),
        "caf\u0065\u0301",
        None,
        "INVALID",
        "candidate-mismatch",
    ),
    ("fullwidth", envelope(candidate="\uff4d-1", score=0.9), "m-1", None, "INVALID", "candidate-mismatch"),
    ("escaped-is-the-same-string", b'{"candidate": "\\u006d-1", "score": 0.9}', "m-1", None, "PASS", "meets-threshold"),
    ("non-ascii-match", envelope(candidate="caf\u00e9", score=0.9), "caf\u00e9", None, "PASS", "meets-threshold"),
    # The run, pinned against replay.
    ("older-run", envelope(candidate="m-1", run_id="r-8", score=0.9), "m-1", "r-9", "INVALID", "run-id-mismatch"),
    ("no-run", envelope(candidate="m-1", score=0.9), "m-1", "r-9", "INVALID", "missing-run-id"),
    ("run-number", b'{"candidate": "m-1", "run_id": 9, "score": 0.9}', "m-1", "9", "INVALID", "run-id-mismatch"),
    ("run-case", envelope(candidate="m-1", run_id="R-9", score=0.9), "m-1", "r-9", "INVALID", "run-id-mismatch"),
    # The binding is checked before the shape; the shape before the score.
    (
        "candidate-before-extra",
        envelope(candidate="m-2", score=0.9, extra=1),
        "m-1",
        None,
        "INVALID",
        "candidate-mismatch",
    ),
    ("extra-member", envelope(candidate="m-1", score=0.9, valid=False), "m-1", None, "INVALID", "unexpected-member"),
    ("no-score", envelope(candidate="m-1"), "m-1", None, "INVALID", "missing-member"),
    ("not-an-object", b'["m-1", 0.9]', "m-1", None, "INVALID", "not-an-object"),
    ("score-checked", envelope(candidate="m-1", score=True), "m-1", None, "INVALID", "wrong-type"),
    ("score-range", envelope(candidate="m-1", score=1.5), "m-1", None, "INVALID", "out-of-range"),
    # Strict JSON comes first: a matching candidate never rescues NaN.
    ("nan", b'{"candidate": "m-1", "score": NaN}', "m-1", None, "INVALID", "non-standard-constant"),
    ("overflow", b'{"candidate": "m-1", "score": 1e400}', "m-1", None, "INVALID", "non-finite"),
    (
        "duplicate-candidate",
        b'{"candidate": "m-2", "candidate": "m-1", "score": 0.9}',
        "m-1",
        None,
        "INVALID",
        "duplicate-member",
    ),
    (
        "escaped-duplicate",
        b'{"candidate": "m-1", "\\u0063andidate": "m-1", "score": 0.9}',
        "m-1",
        None,
        "INVALID",
        "duplicate-member",
    ),
    ("lone-surrogate", b'{"candidate": "\\ud800", "score": 0.9}', "m-1", None, "INVALID", "lone-surrogate"),
]


@pytest.mark.parametrize("as_text", [False, True], ids=["bytes", "str"])
@pytest.mark.parametrize(
    "raw, candidate, run_id, verdict, code", [case[1:] for case in CASES], ids=[case[0] for case in CASES]
)
def test_envelope(raw, candidate, run_id, verdict, code, as_text):
    evidence = raw.decode("utf-8") if as_text else raw
    decision = evaluate(evidence, candidate=candidate, run_id=run_id)
    assert (decision.verdict.value, decision.code) == (verdict, code), decision.message
    if verdict == "INVALID":
        assert decision.score is None


@pytest.mark.parametrize(
    "raw", [envelope(candidate="m-1", score=0.9), envelope(candidate="m-1", run_id="r", score=0.9)]
)
def test_an_envelope_without_a_candidate_is_still_an_unexpected_member(raw):
    decision = evaluate(raw)
    assert (decision.verdict, decision.code) == (Verdict.INVALID, "unexpected-member")


def test_the_messages_name_both_ids_escaped():
    decision = evaluate(envelope(candidate="m-2\n::error::x", score=0.9), candidate="m-1")
    assert "m-1" in decision.message and "\n" not in decision.message
    decision = evaluate(envelope(candidate="x" * 100_000, score=0.9), candidate="m-1")
    assert len(decision.message) < 200


def test_a_canonical_record_with_a_candidate_never_takes_the_fast_path():
    # The fast path knows only {"score": n}; bound to a candidate, the plain
    # record is missing-candidate however canonical it is.
    for raw in CORPUS:
        decision = evaluate(raw, candidate="m-1")
        assert decision.verdict is Verdict.INVALID, raw
        assert decision.code != "meets-threshold"


def test_without_a_candidate_the_fast_and_full_paths_still_agree():
    # The binding check sits beside the fast path; the differential test
    # in test_fast_path.py covers the plain record, this the new branch.
    policy = Policy(0.8)
    for raw in CORPUS[:500]:
        fast, full = evaluate(raw, policy=policy), full_path(raw, policy)
        assert (fast.verdict, fast.code, fast.score) == (full.verdict, full.code, full.score)


@pytest.mark.parametrize(
    "kwargs, code",
    [
        ({"candidate": ""}, "bad-policy"),
        ({"candidate": b"m-1"}, "bad-policy"),
        ({"candidate": 1}, "bad-policy"),
        ({"candidate": type("S", (str,), {})("m-1")}, "bad-policy"),
        ({"run_id": "r-1"}, "bad-policy"),
        ({"candidate": "m-1", "run_id": ""}, "bad-policy"),
        ({"candidate": "m-1", "run_id": 7}, "bad-policy"),
    ],
    ids=["empty", "bytes", "int", "str-subclass", "run-without-candidate", "empty-run", "int-run"],
)
def test_unusable_ids_are_configuration_errors(kwargs, code):
    with pytest.raises(PolicyError) as info:
        evaluate(b'{"candidate": "m-1", "score": 0.9}', **kwargs)
    assert info.value.code == code


# -- a policy that requires the candidate ------------------------------------


def test_a_policy_can_require_the_candidate():
    policy = Policy(require_candidate=True, version="bound")
    with pytest.raises(PolicyError) as info:
        evaluate(b'{"score": 0.9}', policy=policy)
    assert info.value.code == "candidate-required"
    assert evaluate(envelope(candidate="m", score=0.9), policy=policy, candidate="m").verdict is Verdict.PASS
    with pytest.raises(PolicyError) as info:
        report(b'{"trial_id": "a", "score": 0.9}\n', scheduled=1, policy=policy)
    assert info.value.code == "candidate-required"


def test_require_candidate_is_part_of_the_policy():
    bound = Policy(require_candidate=True)
    assert bound.require_candidate is True and Policy().require_candidate is False
    assert bound != Policy()
    assert bound == Policy(require_candidate=True) and hash(bound) == hash(Policy(require_candidate=True))
    assert bound.as_dict()["require_candidate"] is True
    assert "require_candidate" not in Policy().as_dict()  # receipts of unbound policies unchanged
    assert "require_candidate=True" in repr(bound)
    with pytest.raises(PolicyError) as info:
        Policy(require_candidate=1)  # type: ignore[arg-type]
    assert info.value.code == "bad-policy"


def test_policy_file_key(tmp_path):
    path = tmp_path / "p.json"
    path.write_bytes(b'{"version": "v1", "threshold": 0.8, "exact": false, "require_candidate": true}')
    assert load_policy(path) == Policy(0.8, version="v1", require_candidate=True)
    path.write_bytes(b'{"version": "v1", "threshold": 0.8, "exact": false, "require_candidate": "yes"}')
    with pytest.raises(PolicyError) as info:
        load_policy(path)
    assert info.value.code == "bad-policy"


def test_cli_a_policy_requiring_the_candidate_exits_2_without_it(tmp_path, capsys):
    policy = tmp_path / "p.json"
    policy.write_bytes(b'{"version": "v1", "threshold": 0.8, "exact": false, "require_candidate": true}')
    evidence = tmp_path / "e.json"
    evidence.write_bytes(b'{"candidate": "m-1", "score": 0.9}')
    receipt = tmp_path / "r.json"
    assert main(["check", "--policy", str(policy), "--receipt", str(receipt), str(evidence)]) == 2
    assert "candidate-required" in capsys.readouterr().err
    assert not receipt.exists()
    assert main(["check", "--policy", str(policy), "--candidate", "m-1", str(evidence)]) == 0
    trials = tmp_path / "t.jsonl"
    trials.write_bytes(b'{"trial_id": "a", "candidate": "m-1", "score": 0.9}\n')
    assert main(["report", "--policy", str(policy), "--scheduled", "1", str(trials)]) == 2
    assert main(["report", "--policy", str(policy), "--scheduled", "1", "--candidate", "m-1", str(trials)]) == 0


# -- check on the command line -------------------------------------------------


@pytest.mark.parametrize(
    "raw, args, status, code, required",
    [
        (b'{"candidate": "m-1", "score": 0.9}', ["--candidate", "m-1"], 0, "meets-threshold", ["m-1", None]),
        (b'{"candidate": "m-1", "score": 0.9}', ["--candidate", "M-1"], 3, "candidate-mismatch", ["M-1", None]),
        (b'{"candidate": "m-1", "score": 0.9}', [], 3, "unexpected-member", [None, None]),
        (b'{"score": 0.9}', ["--candidate", "m-1"], 3, "missing-candidate", ["m-1", None]),
        (b'{"score": 0.9}', [], 0, "meets-threshold", [None, None]),
        (
            b'{"candidate": "m-1", "run_id": "r-1", "score": 0.9}',
            ["--candidate", "m-1", "--run-id", "r-2"],
            3,
            "run-id-mismatch",
            ["m-1", "r-2"],
        ),
        (
            b'{"candidate": "m-1", "run_id": "r-1", "score": 0.9}',
            ["--candidate=m-1", "--run-id=r-1"],
            0,
            "meets-threshold",
            ["m-1", "r-1"],
        ),
        (b'{"candidate": "-x", "score": 0.9}', ["--candidate=-x"], 0, "meets-threshold", ["-x", None]),
    ],
)
def test_cli_check(tmp_path, capsys, raw, args, status, code, required):
    evidence = tmp_path / "e.json"
    evidence.write_bytes(raw)
    assert main(["check", "--format", "json", *args, str(evidence)]) == status
    receipt = json.loads(capsys.readouterr().out)
    assert receipt["code"] == code
    provenance = receipt["provenance"]
    assert [provenance["candidate"]["required"], provenance["run_id"]["required"]] == required
    assert provenance["authenticated"] is False and provenance["key_id"] is None


@pytest.mark.parametrize(
    "args, code",
    [
        (["--run-id", "r-1"], "missing-option"),
        (["--candidate", ""], "bad-policy"),
        (["--candidate", "m", "--run-id", ""], "bad-policy"),
    ],
    ids=["run-without-candidate", "empty-candidate", "empty-run"],
)
def test_cli_unusable_ids_exit_2(tmp_path, capsys, args, code):
    evidence = tmp_path / "e.json"
    evidence.write_bytes(b'{"candidate": "m", "run_id": "r-1", "score": 0.9}')
    assert main(["check", *args, str(evidence)]) == 2
    assert capsys.readouterr().err.startswith(f"scorecontract: error: {code}: ")


def test_cli_found_ids_in_the_receipt(tmp_path, capsys):
    evidence = tmp_path / "e.json"
    evidence.write_bytes(b'{"candidate": "m-2", "run_id": "r-7", "score": 1e400}')
    assert main(["check", "--format", "json", "--candidate", "m-1", str(evidence)]) == 3
    provenance = json.loads(capsys.readouterr().out)["provenance"]
    # 1e400 is INVALID, but the members beside it are still read and shown.
    assert provenance["candidate"] == {"required": "m-1", "found": "m-2"}
    assert provenance["run_id"] == {"required": None, "found": "r-7"}
    evidence.write_bytes(b'{"candidate": 5, "score": NaN}')
    assert main(["check", "--format", "json", "--candidate", "m-1", str(evidence)]) == 3
    provenance = json.loads(capsys.readouterr().out)["provenance"]
    assert provenance["candidate"] == {"required": "m-1", "found": None}


# -- reports -------------------------------------------------------------------


def trials(*lines):
    return b"".join(line + b"\n" for line in lines)


def test_report_requires_the_candidate_on_every_line():
    data = trials(
        b'{"trial_id": "a", "candidate": "m-1", "score": 0.9}',
        b'{"trial_id": "b", "candidate": "m-2", "score": 0.9}',
        b'{"trial_id": "c", "score": 0.9}',
        b'{"trial_id": "d", "candidate": "M-1", "score": 0.9}',
        b'{"trial_id": "e", "candidate": null, "score": 0.9}',
        b'{"trial_id": "f", "candidate": "m-1", "score": 0.5}',
    )
    result = report(data, manifest=["a", "b", "c", "d", "e", "f"], candidate="m-1", max_listed=None)
    assert result.verdict is Verdict.INVALID and result.code == "missing-evidence"
    assert (result.valid, result.invalid, result.missing) == (2, 4, 4)
    assert result.invalid_by_code == {"candidate-mismatch": 3, "missing-candidate": 1}
    listed = [(o.line, o.trial_id, o.code) for o in result.invalid_observations]
    assert listed == [
        (2, "b", "candidate-mismatch"),
        (3, "c", "missing-candidate"),
        (4, "d", "candidate-mismatch"),
        (5, "e", "candidate-mismatch"),
    ]
    assert result.candidate == "m-1" and result.as_dict()["candidate"] == "m-1"
    # Without a candidate the member is an ordinary extra member.
    plain = report(data, manifest=["a", "b", "c", "d", "e", "f"])
    assert (plain.valid, plain.invalid) == (6, 0)
    assert plain.as_dict()["candidate"] is None


def test_report_another_candidates_rerun_cannot_stand_in():
    data = trials(
        b'{"trial_id": "a", "candidate": "m-1", "score": NaN}',
        b'{"trial_id": "a", "candidate": "m-2", "score": 0.99}',
    )
    result = report(data, scheduled=1, candidate="m-1")
    assert (result.verdict, result.valid, result.invalid) == (Verdict.INVALID, 0, 2)


def test_report_canonical_lines_without_a_candidate_are_invalid():
    # Whatever fast path reads canonical trial lines, a required candidate
    # must send them through the candidate check.
    lines = [b'{"trial_id": "t%d", "score": 0.9}' % n for n in range(50)]
    result = report(trials(*lines), scheduled=50, candidate="m-1")
    assert (result.valid, result.invalid) == (0, 50)
    assert result.invalid_by_code == {"missing-candidate": 50}


def test_report_all_matching_passes_and_cli(tmp_path, capsys):
    path = tmp_path / "t.jsonl"
    path.write_bytes(
        trials(
            b'{"trial_id": "a", "candidate": "m-1", "run_id": "r", "score": 0.9}',
            b'{"trial_id": "b", "candidate": "m-1", "score": 0.8}',
        )
    )
    assert report(path, scheduled=2, candidate="m-1").verdict is Verdict.PASS
    assert main(["report", "--scheduled", "2", "--candidate", "m-1", "--format", "json", str(path)]) == 0
    assert json.loads(capsys.readouterr().out)["candidate"] == "m-1"
    assert main(["report", "--scheduled", "2", "--candidate", "m-2", str(path)]) == 3
    assert "candidate-mismatch" in capsys.readouterr().out
    with pytest.raises(PolicyError):
        report(path, scheduled=2, candidate="")


def test_fixture_corpus_is_refused_when_bound():
    # Every fixture is a plain record or worse; none names a candidate.
    paths = sorted(FIXTURES.glob("*.json"))
    paths = [p for p in paths if p.name != "manifest.json"]
    assert len(paths) > 20
    for path in paths:
        assert evaluate(path.read_bytes(), candidate="m-1").verdict is Verdict.INVALID, path
