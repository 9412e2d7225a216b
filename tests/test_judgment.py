# SPDX-License-Identifier: MIT
"""Grader judgments (docs/judgments.md): the truth table is the contract.

Every row runs with and without negation, through ``judge()`` on text and on
a mapping; tests/test_cli_judgment.py runs the same rows through the exit
code.
"""

from __future__ import annotations

import doctest
import json
import math
import random
import re
import sys
from decimal import Decimal
from fractions import Fraction

import pytest

import scorecontract
from judgment_table import ALL_ROWS, SWAP, TABLE
from public_support import reason_codes
from scorecontract import Judgment, Outcome, Policy, PolicyError, Verdict, judge

PASS, FAIL, ERROR = Outcome.PASS, Outcome.FAIL, Outcome.GRADER_ERROR

REASONS = set(reason_codes())  # docs/reason-codes.md


def threshold_of(text):
    return None if text is None else json.loads(text)


def test_the_table_is_large_and_covers_every_code():
    codes = {row[4] for row in ALL_ROWS}
    assert len(TABLE) > 250
    assert {
        "explicit-pass",
        "explicit-fail",
        "positive-score",
        "zero-score",
        "meets-threshold",
        "below-threshold",
        "no-score-for-threshold",
        "no-judgment",
        "unusable-score",
        "verdict-not-boolean",
    } <= codes
    assert codes <= REASONS
    assert len({row[0] for row in ALL_ROWS}) == len(ALL_ROWS)  # ids are unique


@pytest.mark.parametrize("negate", [False, True], ids=["plain", "negated"])
@pytest.mark.parametrize("row", ALL_ROWS, ids=[row[0] for row in ALL_ROWS])
def test_truth_table_on_text(row, negate):
    _, text, threshold, outcome, code = row
    expected = SWAP[outcome] if negate else outcome
    for evidence in (text, text.encode("utf-8")):
        result = judge(evidence, threshold=threshold_of(threshold), negate=negate)
        assert type(result) is Judgment
        assert result.outcome is expected
        assert result.code == code
        assert result.negated is negate
        assert result.verdict is {PASS: Verdict.PASS, FAIL: Verdict.FAIL, ERROR: Verdict.INVALID}[expected]
        assert result.threshold == threshold_of(threshold)


@pytest.mark.parametrize("negate", [False, True], ids=["plain", "negated"])
@pytest.mark.parametrize("row", TABLE, ids=[row[0] for row in TABLE])
def test_truth_table_on_a_mapping(row, negate):
    _, text, threshold, outcome, code = row
    result = judge(json.loads(text), threshold=threshold_of(threshold), negate=negate)
    assert result.outcome is (SWAP[outcome] if negate else outcome)
    assert result.code == code


# A policy always sets a threshold, so only the rows with one are replayed.
THRESHOLDED = [row for row in TABLE if row[2] is not None]


@pytest.mark.parametrize("negate", [False, True], ids=["plain", "negated"])
@pytest.mark.parametrize("row", THRESHOLDED, ids=[row[0] for row in THRESHOLDED])
def test_truth_table_with_a_policy_instead_of_a_threshold(row, negate):
    _, text, threshold, outcome, code = row
    result = judge(text, policy=Policy(json.loads(threshold)), negate=negate)
    assert result.outcome is (SWAP[outcome] if negate else outcome)
    assert result.code == code


# The four cases of the article (seeds/002), one by one.


def test_article_neither_field_is_a_grader_error():
    for threshold in (None, 0.5):
        for negate in (False, True):
            result = judge('{"reason":"The answer was considered."}', threshold=threshold, negate=negate)
            assert result.outcome is ERROR
            assert result.code == "no-judgment"
            assert result.message.startswith("no verdict and no score")
            assert result.verdict is Verdict.INVALID


def test_article_omitted_verdict_with_positive_score_passes():
    result = judge('{"score":0.4}')
    assert (result.outcome, result.code, result.grader_pass, result.score) == (PASS, "positive-score", None, 0.4)
    # With a threshold configured, the score must meet it.
    assert judge('{"score":0.4}', threshold=0.5).outcome is FAIL


def test_article_omitted_verdict_with_zero_score_fails():
    result = judge('{"score":0}')
    assert (result.outcome, result.code) == (FAIL, "zero-score")
    assert judge('{"score":0}', negate=True).outcome is PASS


def test_article_explicit_pass_with_zero_score_passes():
    result = judge('{"pass":true,"score":0}')
    assert (result.outcome, result.code, result.grader_pass, result.score) == (PASS, "explicit-pass", True, 0)


def test_explicit_fail_with_high_score_fails():
    result = judge('{"pass":false,"score":1}', threshold=0.5)
    assert (result.outcome, result.code, result.grader_pass) == (FAIL, "explicit-fail", False)


def test_non_numeric_score_is_a_grader_error_not_a_fail():
    # This nearly shipped as an ordinary FAIL, which negation turns into PASS.
    for negate in (False, True):
        for threshold in (None, 0.8):
            result = judge('{"score": "high"}', negate=negate, threshold=threshold)
            assert result.outcome is ERROR
            assert result.outcome is not FAIL
            assert result.code == "unusable-score"
            assert result.verdict is Verdict.INVALID
            assert result.verdict.exit_code == 3
            assert result.negated is negate
            assert result.score is None
    assert "negation does not apply" in judge('{"score": "high"}', negate=True).message


# The record.


def test_extra_members_are_kept_not_refused():
    text = '{"pass": true, "score": 0.5, "reason": "Correct, cites the source.", "tags": ["a"]}'
    result = judge(text)
    assert result.outcome is PASS
    assert dict(result.members) == json.loads(text)
    assert result.members["reason"] == "Correct, cites the source."
    with pytest.raises(TypeError):
        result.members["pass"] = False  # read-only
    assert result.as_dict()["members"]["reason"] == "Correct, cites the source."


def test_members_as_read_even_on_a_grader_error():
    result = judge('{"score": "high", "reason": "looks good"}')
    assert result.outcome is ERROR
    assert dict(result.members) == {"score": "high", "reason": "looks good"}
    assert judge("not json").members is None


def test_a_mapping_is_copied():
    original = {"pass": True, "reason": "ok"}
    result = judge(original)
    original["pass"] = False
    assert result.members["pass"] is True
    assert result.outcome is PASS


def test_numeric_string_score_is_converted():
    result = judge('{"score": "0.9"}', threshold=0.8)
    assert result.score == 0.9 and type(result.score) is float
    assert result.members["score"] == "0.9"
    assert type(judge('{"score": "1"}').score) is int


def test_numeric_strings_can_be_refused():
    result = judge('{"score": "0.9"}', numeric_strings=False)
    assert (result.outcome, result.code) == (ERROR, "unusable-score")
    assert "not allowed" in result.message
    assert judge('{"score": 0.9}', numeric_strings=False).outcome is PASS


@pytest.mark.parametrize(
    "value",
    [" 0.9 ", "0x1", "1_0", "NaN", "Infinity", "-Infinity", "inf", "\u0660.\u0669", "\uff10", "0.9\u00a0", "1" * 700],
    ids=[
        "spaces",
        "hex",
        "underscore",
        "NaN",
        "Infinity",
        "-Infinity",
        "inf",
        "arabic-indic",
        "fullwidth",
        "nbsp",
        "long",
    ],
)
def test_numeric_strings_float_accepts_are_refused(value):
    # float() would accept most of these; only RFC 8259 number syntax counts.
    result = judge({"score": value})
    assert (result.outcome, result.code) == (ERROR, "unusable-score")


def test_exact_policy_compares_numeric_strings_as_decimal_text():
    text = '{"score": "0.79999999999999999999"}'
    assert judge(text, threshold=0.8).outcome is PASS  # rounds to 0.8 as a float
    exact = judge(text, policy=Policy(0.8, exact=True))
    assert exact.outcome is FAIL
    assert exact.score == Decimal("0.79999999999999999999")
    assert judge('{"score": 0.79999999999999999999}', policy=Policy(0.8, exact=True)).outcome is FAIL


def test_policy_bounds_apply_to_the_score():
    policy = Policy(5, minimum=0, maximum=10)
    assert judge('{"score": 7}', policy=policy).outcome is PASS
    assert judge('{"score": "11"}', policy=policy).code == "unusable-score"
    assert judge('{"pass": true}', policy=policy).code == "no-score-for-threshold"


@pytest.mark.parametrize(
    "value",
    [
        True,
        None,
        Fraction(9, 10),
        Decimal("0.9"),
        float("nan"),
        float("inf"),
        10**400,
        type("F", (float,), {})(0.9),
        b"0.9",
    ],
    ids=["bool", "None", "Fraction", "Decimal", "nan", "inf", "huge-int", "float-subclass", "bytes"],
)
def test_python_values_in_a_mapping_are_not_coerced(value):
    for verdict in ({}, {"pass": True}, {"pass": False}):
        result = judge({**verdict, "score": value})
        assert (result.outcome, result.code) == (ERROR, "unusable-score")


def test_verdict_spellings_are_off_by_default_and_exact_when_listed():
    spellings = {"yes": True, "no": False}
    assert judge('{"pass": "yes"}').code == "verdict-not-boolean"
    assert judge('{"pass": "yes"}', verdict_spellings=spellings).outcome is PASS
    assert judge('{"pass": "no", "score": 1}', verdict_spellings=spellings).outcome is FAIL
    assert judge('{"pass": "Yes"}', verdict_spellings=spellings).code == "verdict-not-boolean"
    assert judge('{"pass": " yes"}', verdict_spellings=spellings).code == "verdict-not-boolean"
    assert judge('{"pass": 1}', verdict_spellings=spellings).code == "verdict-not-boolean"
    assert judge('{"pass": true}', verdict_spellings=spellings).outcome is PASS
    assert judge('{"pass": "yes"}', verdict_spellings=spellings, negate=True).outcome is FAIL
    assert "accepted spelling" in judge('{"pass": "yes!"}', verdict_spellings=spellings).message


@pytest.mark.parametrize(
    "options",
    [
        {"threshold": float("nan")},
        {"threshold": True},
        {"threshold": "0.8"},
        {"threshold": 1.5},
        {"threshold": 0.8, "policy": Policy()},
        {"policy": {"threshold": 0.8}},
        {"negate": "false"},
        {"negate": 1},
        {"extract": "yes"},
        {"numeric_strings": None},
        {"verdict_spellings": "yes"},
        {"verdict_spellings": {"yes": 1}},
        {"verdict_spellings": {1: True}},
        {"verdict_spellings": {"": True}},
        {"max_bytes": 0},
        {"max_bytes": True},
    ],
    ids=lambda options: repr(options),
)
def test_bad_options_raise_policy_error(options):
    with pytest.raises(PolicyError):
        judge('{"pass": true}', **options)


def test_threshold_equal_to_the_score_default_is_still_a_threshold():
    # 0.8 is the score contract's default; for a judgment it is still "set".
    assert judge('{"pass": true}', threshold=0.8).code == "no-score-for-threshold"
    assert judge('{"pass": true}').code == "explicit-pass"


@pytest.mark.parametrize(
    "value",
    [None, 0.9, 1, ["pass"], object(), {"score"}],
    ids=["None", "float", "int", "list", "object", "set"],
)
def test_other_input_types_are_grader_errors(value):
    result = judge(value)
    assert (result.outcome, result.code) == (ERROR, "input-type")


def test_a_mapping_that_cannot_be_read_is_a_grader_error():
    from collections.abc import Mapping

    class Broken(Mapping):
        def __getitem__(self, key):
            raise KeyError(key)

        def __iter__(self):
            raise RuntimeError("broken")

        def __len__(self):
            return 1

    result = judge(Broken(), negate=True)
    assert (result.outcome, result.code) == (ERROR, "input-type")


def test_a_mapping_that_yields_a_name_twice_is_a_grader_error():
    from collections.abc import Mapping

    class Twice(Mapping):
        def __getitem__(self, key):
            return 0.9

        def __iter__(self):
            return iter(["score", "score"])

        def __len__(self):
            return 2

    assert judge(Twice()).code == "duplicate-member"


def test_encoding_rules_apply_to_text():
    assert judge('{"pass": true}'.encode("utf-16")).code == "not-utf8"
    assert judge(b'\xef\xbb\xbf{"pass": true}').code == "byte-order-mark"
    assert judge('{"pass": true}', max_bytes=5).code == "too-large"


def test_outcome_and_judgment_have_no_truth_value():
    for outcome in Outcome:
        with pytest.raises(TypeError):
            bool(outcome)
    with pytest.raises(TypeError):
        bool(judge('{"pass": true}'))


def test_outcome_maps_to_the_release_verdict():
    assert {o: o.verdict for o in Outcome} == {PASS: Verdict.PASS, FAIL: Verdict.FAIL, ERROR: Verdict.INVALID}
    assert {o: o.exit_code for o in Outcome} == {PASS: 0, FAIL: 1, ERROR: 3}
    # A grader error is its own state until it is mapped.
    assert ERROR is not Verdict.INVALID and ERROR != Verdict.INVALID
    assert [o for o in Outcome if o.verdict.releases] == [PASS]


def test_as_dict_is_json_ready():
    result = judge('{"pass": true, "score": "0.5", "reason": "ok"}', negate=True)
    data = json.loads(json.dumps(result.as_dict(), allow_nan=False))
    assert data["outcome"] == "FAIL" and data["verdict"] == "FAIL"
    assert data["code"] == "explicit-pass" and data["negated"] is True
    assert data["pass"] is True and data["score"] == 0.5 and data["threshold"] is None
    located = judge('{"pass": true,}').as_dict()
    assert located["location"]["line"] == 1 and located["code"] == "syntax"
    assert repr(result).startswith("Judgment(outcome=Outcome.FAIL, code='explicit-pass'")


def test_a_defect_is_an_internal_grader_error_even_negated():
    class Defective(str):
        # A member name whose comparison raises: judging the members meets
        # an exception no check anticipates, as a defect would raise one.
        __hash__ = str.__hash__

        def __eq__(self, other):
            raise RuntimeError("defect")

    for negate in (False, True):
        result = judge({Defective("pass"): True}, negate=negate)
        assert (result.outcome, result.code, result.negated) == (ERROR, "internal-error", negate)


def test_public_names():
    public = sorted(name for name in dir(scorecontract) if not name.startswith("_")) + ["__version__"]
    assert sorted(scorecontract.__all__) == sorted(public)
    assert scorecontract.__all__ == sorted(scorecontract.__all__)
    for name in ("Judgment", "Outcome", "judge", "extract_json"):
        assert name in scorecontract.__all__


# Seeded fuzz: judge never raises, and agrees with an independent reading of
# the table.

_NUMBER = re.compile(r"-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?\Z")


def oracle(members, threshold):
    """The table of docs/judgments.md, written again independently, for plain mappings."""
    if "pass" in members and type(members["pass"]) is not bool:
        return ERROR
    score = None
    if "score" in members:
        score = members["score"]
        if type(score) is str and _NUMBER.match(score) and score.isascii() and len(score) <= 640:
            score = json.loads(score)
        if type(score) not in (int, float) or (type(score) is float and not math.isfinite(score)):
            return ERROR
        if not 0 <= score <= 1:
            return ERROR
    verdict = members.get("pass")
    if verdict is False:
        return FAIL
    if verdict is True and threshold is None:
        return PASS
    if score is None:
        return ERROR
    if threshold is None:
        return PASS if score > 0 else FAIL
    return PASS if score >= threshold else FAIL


VALUES = [
    True,
    False,
    None,
    0,
    1,
    2,
    -1,
    0.0,
    -0.0,
    0.5,
    0.8,
    0.79,
    1.0,
    1.5,
    1e-300,
    float("nan"),
    float("inf"),
    10**400,
    "0.9",
    "0",
    "1",
    "high",
    "",
    " 0.9",
    "NaN",
    "Infinity",
    "1e400",
    "0.8",
    "yes",
    "true",
    "\u0660",
    "1_0",
    [],
    {},
    [0.9],
    {"score": 0.9},
    Decimal("0.9"),
]
NAMES = ["pass", "score", "reason", "Pass", "passed", "verdict"]
ATOMS = [
    "{",
    "}",
    '"',
    "\\",
    ":",
    ",",
    " ",
    "\n",
    "```",
    "```json\n",
    "json",
    '"pass"',
    '"score"',
    "true",
    "false",
    "null",
    "NaN",
    "0",
    "0.9",
    "1e400",
    '"0.9"',
    '"high"',
    "prose ",
    "\ud800",
    "\u0660",
    "\\u0070",
    "[",
    "]",
]


def fuzz_cases(seed, count):
    rng = random.Random(seed)
    cases = []
    for _ in range(count):
        kind = rng.random()
        if kind < 0.4:
            members = {rng.choice(NAMES): rng.choice(VALUES) for _ in range(rng.randint(0, 3))}
            cases.append(members)
        elif kind < 0.7:
            members = {rng.choice(NAMES): rng.choice(VALUES[:30]) for _ in range(rng.randint(0, 3))}
            try:
                text = json.dumps(members)
            except ValueError:
                continue
            position = rng.randint(0, len(text))
            text = text[:position] + rng.choice(ATOMS) + text[position:] if rng.random() < 0.5 else text
            cases.append(text if rng.random() < 0.5 else text.encode("utf-8", "surrogatepass"))
        else:
            cases.append("".join(rng.choice(ATOMS) for _ in range(rng.randint(0, 15))))
    return cases


CASES = fuzz_cases(seed=5, count=3000)


def test_fuzz_corpus_is_varied():
    assert len(CASES) > 2500
    assert sum(type(c) is dict for c in CASES) > 800
    assert sum(type(c) is bytes for c in CASES) > 300


@pytest.mark.parametrize("extract", [False, True], ids=["strict", "extract"])
def test_fuzz_judge_never_raises_and_negation_only_swaps(extract):
    counts = {PASS: 0, FAIL: 0, ERROR: 0}
    for case in CASES:
        for threshold in (None, 0.5):
            plain = judge(case, threshold=threshold, extract=extract)
            negated = judge(case, threshold=threshold, extract=extract, negate=True)
            assert type(plain) is Judgment and type(negated) is Judgment
            assert plain.code in REASONS and plain.code != "internal-error", (case, plain)
            assert negated.outcome is SWAP[plain.outcome], case
            assert negated.code == plain.code
            counts[plain.outcome] += 1
    assert min(counts.values()) > 100, counts


def test_fuzz_mappings_agree_with_the_oracle():
    checked = 0
    for case in CASES:
        if type(case) is not dict:
            continue
        for threshold in (None, 0.5):
            assert judge(case, threshold=threshold).outcome is oracle(case, threshold), (case, threshold)
            checked += 1
    assert checked > 1600


@pytest.mark.skipif(sys.flags.optimize >= 2, reason="-OO strips docstrings")
@pytest.mark.parametrize("function", [scorecontract.judge, scorecontract.extract_json], ids=lambda f: f.__name__)
def test_docstring_examples(function):
    finder = doctest.DocTestFinder(recurse=False)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    tests = finder.find(function, globs={function.__name__: function})
    for test in tests:
        runner.run(test)
    results = runner.summarize(verbose=False)
    assert results.attempted >= 2
    assert results.failed == 0


@pytest.mark.parametrize("function", [judge, scorecontract.extract_json, Judgment], ids=lambda f: f.__name__)
def test_primary_argument_positional_only_the_rest_keyword_only(function):
    import inspect

    parameters = list(inspect.signature(function).parameters.values())
    assert parameters[0].kind is inspect.Parameter.POSITIONAL_ONLY
    assert {p.kind for p in parameters[1:]} == {inspect.Parameter.KEYWORD_ONLY}
