# SPDX-License-Identifier: MIT
"""dumps(): the producer side refuses what the consumer would (docs/api.md)."""

from __future__ import annotations

import json
import math
import random
from collections import OrderedDict
from decimal import Decimal
from fractions import Fraction

import pytest

from scorecontract import InvalidEvidence, Policy, PolicyError, Verdict, dumps, evaluate, loads, report
from support import fixture_bytes, manifest_cases

CASES = manifest_cases()
EXACT = Policy(exact=True)


def decoded_fixtures(exact):
    """(case, record) for every fixture the strict loader decodes."""
    found = []
    for case in CASES:
        try:
            record = loads(fixture_bytes(case["file"]), exact=exact)
        except InvalidEvidence:
            continue
        found.append((case, record))
    return found


VALID = [(c, r) for c, r in decoded_fixtures(False) if c["verdict"] != "INVALID"]
REFUSED = [(c, r) for c, r in decoded_fixtures(False) if c["verdict"] == "INVALID"]


def test_there_are_fixtures_of_each_kind():
    assert len(VALID) >= 8
    assert len(REFUSED) >= 8


@pytest.mark.parametrize("case, record", VALID, ids=[c["file"] for c, _ in VALID])
def test_every_valid_fixture_round_trips(case, record):
    text = dumps(record)
    assert type(text) is str
    decision = evaluate(text)
    original = evaluate(fixture_bytes(case["file"]))
    assert (decision.verdict.value, decision.code) == (case["verdict"], case["code"])
    assert type(decision.score) is type(original.score) and decision.score == original.score
    assert dumps(loads(text)) == text  # a fixed point


@pytest.mark.parametrize("case, record", VALID, ids=[c["file"] for c, _ in VALID])
def test_every_valid_fixture_round_trips_exactly(case, record):
    exact_record = loads(fixture_bytes(case["file"]), exact=True)
    text = dumps(exact_record, policy=EXACT)
    decision = evaluate(text, policy=EXACT)
    assert decision.verdict is evaluate(fixture_bytes(case["file"]), policy=EXACT).verdict
    assert decision.score == exact_record["score"]
    assert type(decision.score) is type(exact_record["score"])


@pytest.mark.parametrize("case, record", REFUSED, ids=[c["file"] for c, _ in REFUSED])
def test_invalid_fixtures_are_refused_with_the_consumers_code(case, record):
    with pytest.raises(InvalidEvidence) as info:
        dumps(record)
    assert info.value.code == case["code"]


REFUSED_RECORDS = [
    # (id, record, policy, code)
    ("nan", {"score": math.nan}, None, "non-finite"),
    ("inf", {"score": math.inf}, None, "non-finite"),
    ("negative-inf", {"score": -math.inf}, None, "non-finite"),
    ("true", {"score": True}, None, "wrong-type"),
    ("false", {"score": False}, None, "wrong-type"),
    ("string", {"score": "0.9"}, None, "wrong-type"),
    ("none", {"score": None}, None, "wrong-type"),
    ("fraction", {"score": Fraction(9, 10)}, None, "wrong-type"),
    ("decimal-without-exact", {"score": Decimal("0.9")}, None, "wrong-type"),
    ("decimal-nan", {"score": Decimal("NaN")}, EXACT, "non-finite"),
    ("decimal-snan", {"score": Decimal("sNaN")}, EXACT, "non-finite"),
    ("decimal-inf", {"score": Decimal("Infinity")}, EXACT, "non-finite"),
    ("above", {"score": 1.5}, None, "out-of-range"),
    ("below", {"score": -5e-324}, None, "out-of-range"),
    # Out of range too, but the consumer's decoder refuses its 5001 digits
    # first, and dumps gives the consumer's code.
    ("huge-int", {"score": 10**5000}, None, "too-many-digits"),
    ("decimal-above", {"score": Decimal("1.0000000000000001")}, EXACT, "out-of-range"),
    ("custom-bounds", {"score": 11}, Policy(5, minimum=0, maximum=10), "out-of-range"),
    ("not-a-dict", [0.9], None, "not-an-object"),
    ("bare-number", 0.9, None, "not-an-object"),
    ("ordered-dict", OrderedDict(score=0.9), None, "not-an-object"),
    ("empty", {}, None, "missing-member"),
    ("extra", {"score": 0.9, "valid": False}, None, "unexpected-member"),
    ("int-key", {1: 0.9}, None, "unexpected-member"),
    ("bytes-key", {b"score": 0.9}, None, "unexpected-member"),
    ("tuple-key", {("score",): 0.9}, None, "unexpected-member"),
    ("int-and-str-key", {"score": 0.9, "1": 0.1, 1: 0.2}, None, "duplicate-member"),
    ("true-and-str-key", {"score": 0.9, "true": 0.1, True: 0.2}, None, "duplicate-member"),
    ("none-and-str-key", {"score": 0.9, "null": 0.1, None: 0.2}, None, "duplicate-member"),
    ("float-and-str-key", {"score": 0.9, "0.5": 0.1, 0.5: 0.2}, None, "duplicate-member"),
    ("lone-surrogate-key", {"score": 0.9, "\ud800": 0.1}, None, "unexpected-member"),
]


class SneakyKey(str):
    """A str subclass that is a different dict key but serialises as "score"."""

    def __hash__(self):
        return 1

    def __eq__(self, other):
        return other is self

    def __str__(self):
        return "not-score"


class FloatSubclass(float):
    def __repr__(self):
        return "0.9"


REFUSED_RECORDS += [
    ("str-subclass-duplicate", {"score": 0.9, SneakyKey("score"): 0.1}, None, "duplicate-member"),
    ("str-subclass-key", {SneakyKey("score"): 0.9}, None, "unexpected-member"),
    ("float-subclass", {"score": FloatSubclass(0.9)}, None, "wrong-type"),
]


@pytest.mark.parametrize("record, policy, code", [r[1:] for r in REFUSED_RECORDS], ids=[r[0] for r in REFUSED_RECORDS])
def test_refused_records(record, policy, code):
    with pytest.raises(InvalidEvidence) as info:
        dumps(record, policy=policy)
    assert info.value.code == code
    assert isinstance(info.value, ValueError)


def test_the_sneaky_key_really_would_serialise_as_a_duplicate():
    # Guard for the test above: without the check, json.dumps writes two
    # "score" members, and the consumer calls it duplicate-member.
    text = json.dumps({"score": 0.9, SneakyKey("score"): 0.1})
    assert text.count('"score"') == 2
    assert evaluate(text).code == "duplicate-member"
    assert json.dumps({"1": 0.1, 1: 0.2}) == '{"1": 0.1, "1": 0.2}'


@pytest.mark.parametrize(
    "score, text",
    [
        (Decimal("0.79999999999999999999"), '{"score": 0.79999999999999999999}'),
        (Decimal("1E-400"), '{"score": 1E-400}'),
        (Decimal("0.80"), '{"score": 0.80}'),
        (Decimal("-0"), '{"score": -0}'),
        (Decimal("0E-7"), '{"score": 0E-7}'),
        (Decimal("1"), '{"score": 1}'),
        (0.8, '{"score": 0.8}'),
        (1, '{"score": 1}'),
    ],
)
def test_decimals_are_written_as_their_exact_text(score, text):
    assert dumps({"score": score}, policy=EXACT) == text
    # A float stands for the decimal text of its repr, in both directions.
    expected = Decimal(repr(score)) if type(score) is float else score
    assert evaluate(text, policy=EXACT).score == expected


def test_random_decimals_round_trip_exactly():
    rng = random.Random(4)
    count = 0
    for _ in range(2000):
        digits = "".join(rng.choice("0123456789") for _ in range(rng.randint(1, 60)))
        exponent = rng.randint(-500, 5)
        score = Decimal(f"{rng.choice(['', '-'])}{digits}E{exponent}")
        try:
            text = dumps({"score": score}, policy=EXACT)
        except InvalidEvidence as exc:
            assert exc.code == "out-of-range"
            assert not 0 <= score <= 1
            continue
        count += 1
        back = loads(text, exact=True)["score"]
        assert back == score and str(back) == str(score)
        assert evaluate(text, policy=EXACT).verdict in (Verdict.PASS, Verdict.FAIL)
    assert count > 500


def test_random_floats_round_trip():
    rng = random.Random(8)
    for _ in range(2000):
        score = rng.random()
        assert loads(dumps({"score": score}))["score"] == score


def test_number_literals_the_consumer_would_refuse_are_refused():
    wide = Policy(1, minimum=0, maximum=10**2000)
    assert evaluate(dumps({"score": 10**639}, policy=wide), policy=wide).verdict is Verdict.PASS
    for score in (10**640, 10**700, 10**1999):
        with pytest.raises(InvalidEvidence) as info:
            dumps({"score": score}, policy=wide)
        assert info.value.code == "too-many-digits"
        assert evaluate('{"score": %d}' % score, policy=wide).code == "too-many-digits"
    long_decimal = Decimal("0." + "1" * 700)
    with pytest.raises(InvalidEvidence) as info:
        dumps({"score": long_decimal}, policy=EXACT)
    assert info.value.code == "too-many-digits"


def test_output_is_strict_json_with_no_nan_anywhere():
    for score in (0, 1, 0.5, 5e-324, 1.0, -0.0):
        text = dumps({"score": score})
        assert json.loads(text, parse_constant=lambda c: pytest.fail(c)) == {"score": score}
        assert text.isascii()


def test_bad_policy_raises_policy_error():
    with pytest.raises(PolicyError):
        dumps({"score": 0.9}, policy={"threshold": 0.8})


def test_record_is_positional_only_and_policy_keyword_only():
    with pytest.raises(TypeError):
        dumps(record={"score": 0.9})
    with pytest.raises(TypeError):
        dumps({"score": 0.9}, EXACT)


def test_a_non_dict_record_is_named_in_the_message():
    # json.dumps would accept a Mapping subclass; its items may not be what
    # was checked, so only an exact dict is a record.
    with pytest.raises(InvalidEvidence) as info:
        dumps(OrderedDict(score=0.9))
    assert "collections.OrderedDict" in info.value.message


# --- trial lines and envelopes ----------------------------------------------

TRIALS = [
    ("plain", {"trial_id": "t-1", "score": 0.9}, '{"trial_id": "t-1", "score": 0.9}'),
    ("score-first", {"score": 1, "trial_id": "t-1"}, '{"score": 1, "trial_id": "t-1"}'),
    (
        "extra-members",
        {"trial_id": "t-1", "score": 0.5, "seed": 7, "model": "m", "ok": True, "notes": None},
        '{"trial_id": "t-1", "score": 0.5, "seed": 7, "model": "m", "ok": true, "notes": null}',
    ),
    (
        "nested",
        {"trial_id": "t-1", "score": 0, "tags": ["a", {"b": [1.5, -2]}]},
        '{"trial_id": "t-1", "score": 0, "tags": ["a", {"b": [1.5, -2]}]}',
    ),
    ("unicode-id", {"trial_id": "t\u00e9\n\u2028", "score": 0.8}, '{"trial_id": "t\\u00e9\\n\\u2028", "score": 0.8}'),
    (
        "candidate-extra",
        {"trial_id": "t-1", "score": 0.9, "candidate": "m-1"},
        '{"trial_id": "t-1", "score": 0.9, "candidate": "m-1"}',
    ),
]


@pytest.mark.parametrize("record, text", [t[1:] for t in TRIALS], ids=[t[0] for t in TRIALS])
def test_a_trial_line_is_written_and_read_back_by_report(record, text):
    line = dumps(record, shape="trial")
    assert line == text and "\n" not in line and line.isascii()
    result = report((line + "\n").encode("ascii"), scheduled=1)
    assert (result.valid, result.invalid) == (1, 0)
    expected = Verdict.PASS if record["score"] >= 0.8 else Verdict.FAIL
    assert result.verdict is expected
    assert next(result.trials())[0] == record["trial_id"]


def test_trial_lines_written_one_by_one_make_a_file_report_reads():
    lines = [dumps({"trial_id": f"t-{i}", "score": i / 10, "seed": i}, shape="trial") for i in range(11)]
    result = report(("\n".join(lines) + "\n").encode("ascii"), scheduled=11, metric="pass-rate", min_pass_rate=0.27)
    assert (result.valid, result.invalid) == (11, 0)
    assert result.pass_rate.numerator == 3 and result.verdict is Verdict.PASS


ENVELOPES = [
    ("candidate", {"candidate": "m-1", "score": 0.9}, '{"candidate": "m-1", "score": 0.9}'),
    (
        "with-run",
        {"candidate": "m-1", "run_id": "r-7", "score": 0.9},
        '{"candidate": "m-1", "run_id": "r-7", "score": 0.9}',
    ),
    (
        "score-first",
        {"score": 0.5, "run_id": "r-7", "candidate": "m-1"},
        '{"score": 0.5, "run_id": "r-7", "candidate": "m-1"}',
    ),
]


@pytest.mark.parametrize("record, text", [e[1:] for e in ENVELOPES], ids=[e[0] for e in ENVELOPES])
def test_an_envelope_is_written_and_read_back_by_a_bound_gate(record, text):
    assert dumps(record, shape="envelope") == text
    decision = evaluate(text, candidate=record["candidate"], run_id=record.get("run_id"))
    assert decision.verdict is (Verdict.PASS if record["score"] >= 0.8 else Verdict.FAIL)
    # An envelope is not a score record, and a score record is not an envelope.
    assert evaluate(text).code == "unexpected-member"
    with pytest.raises(InvalidEvidence) as info:
        dumps(record)
    assert info.value.code == "unexpected-member"


def test_exact_decimals_in_a_trial_and_an_envelope():
    score = Decimal("0.79999999999999999999")
    line = dumps({"trial_id": "t", "score": score}, policy=EXACT, shape="trial")
    assert line == '{"trial_id": "t", "score": 0.79999999999999999999}'
    assert report(line.encode() + b"\n", scheduled=1, policy=EXACT).verdict is Verdict.FAIL
    text = dumps({"candidate": "m", "score": score}, policy=EXACT, shape="envelope")
    assert evaluate(text, policy=EXACT, candidate="m").verdict is Verdict.FAIL


class Opaque:
    pass


cyclic: list[object] = []
cyclic.append(cyclic)

REFUSED_SHAPES = [
    ("trial-no-id", {"score": 0.9}, "trial", "missing-member"),
    ("trial-empty-id", {"trial_id": "", "score": 0.9}, "trial", "bad-trial-id"),
    ("trial-int-id", {"trial_id": 7, "score": 0.9}, "trial", "bad-trial-id"),
    ("trial-no-score", {"trial_id": "t"}, "trial", "missing-member"),
    ("trial-nan-score", {"trial_id": "t", "score": float("nan")}, "trial", "non-finite"),
    ("trial-bool-score", {"trial_id": "t", "score": True}, "trial", "wrong-type"),
    ("trial-out-of-range", {"trial_id": "t", "score": 2}, "trial", "out-of-range"),
    ("trial-nan-extra", {"trial_id": "t", "score": 0.9, "x": [float("inf")]}, "trial", "non-finite"),
    ("trial-decimal-extra", {"trial_id": "t", "score": 0.9, "x": Decimal("1")}, "trial", "wrong-type"),
    ("trial-object-extra", {"trial_id": "t", "score": 0.9, "x": Opaque()}, "trial", "wrong-type"),
    ("trial-tuple-extra", {"trial_id": "t", "score": 0.9, "x": (1, 2)}, "trial", "wrong-type"),
    ("trial-nested-int-key", {"trial_id": "t", "score": 0.9, "x": {1: 2}}, "trial", "unexpected-member"),
    ("trial-nested-duplicate", {"trial_id": "t", "score": 0.9, "x": {"1": 1, 1: 2}}, "trial", "duplicate-member"),
    ("trial-huge-int-extra", {"trial_id": "t", "score": 0.9, "x": 10**700}, "trial", "too-many-digits"),
    ("trial-cycle", {"trial_id": "t", "score": 0.9, "x": cyclic}, "trial", "too-deep"),
    ("trial-surrogate-id", {"trial_id": "t\ud800", "score": 0.9}, "trial", "lone-surrogate"),
    ("trial-surrogate-extra", {"trial_id": "t", "score": 0.9, "x": "\udfff"}, "trial", "lone-surrogate"),
    ("trial-list", [{"trial_id": "t", "score": 0.9}], "trial", "not-an-object"),
    ("envelope-no-candidate", {"score": 0.9}, "envelope", "missing-candidate"),
    ("envelope-empty-candidate", {"candidate": "", "score": 0.9}, "envelope", "candidate-mismatch"),
    ("envelope-null-candidate", {"candidate": None, "score": 0.9}, "envelope", "candidate-mismatch"),
    ("envelope-int-run", {"candidate": "m", "run_id": 3, "score": 0.9}, "envelope", "run-id-mismatch"),
    ("envelope-null-run", {"candidate": "m", "run_id": None, "score": 0.9}, "envelope", "run-id-mismatch"),
    ("envelope-no-score", {"candidate": "m"}, "envelope", "missing-member"),
    ("envelope-extra", {"candidate": "m", "score": 0.9, "seed": 1}, "envelope", "unexpected-member"),
    ("envelope-nan", {"candidate": "m", "score": float("nan")}, "envelope", "non-finite"),
    ("envelope-surrogate", {"candidate": "m\udc00", "score": 0.9}, "envelope", "lone-surrogate"),
]


@pytest.mark.parametrize("record, shape, code", [r[1:] for r in REFUSED_SHAPES], ids=[r[0] for r in REFUSED_SHAPES])
def test_refused_trials_and_envelopes(record, shape, code):
    with pytest.raises(InvalidEvidence) as info:
        dumps(record, shape=shape)
    assert info.value.code == code


def test_the_depth_limit_is_the_consumers():
    # The record is one level; 127 more are still read by the consumer.
    deep: object = 1
    for _ in range(127):
        deep = [deep]
    line = dumps({"trial_id": "t", "score": 0.9, "x": deep}, shape="trial")
    assert report(line.encode() + b"\n", scheduled=1).valid == 1
    with pytest.raises(InvalidEvidence) as info:
        dumps({"trial_id": "t", "score": 0.9, "x": [deep]}, shape="trial")
    assert info.value.code == "too-deep"
    assert report(json.dumps({"trial_id": "t", "score": 0.9, "x": [deep]}).encode(), scheduled=1).invalid == 1


@pytest.mark.parametrize("shape", ["line", "", None, "Score", 1])
def test_an_unknown_shape_is_a_configuration_error(shape):
    with pytest.raises(PolicyError) as info:
        dumps({"score": 0.9}, shape=shape)
    assert info.value.code == "bad-policy"


def test_random_trial_records_dumps_accepts_are_valid_trials():
    rng = random.Random(16)
    values = [
        None,
        True,
        0,
        1,
        -1,
        0.5,
        1.5,
        float("nan"),
        "x",
        "\ud800",
        [],
        {},
        [1, [2]],
        {"a": 1},
        Decimal("0.5"),
        10**700,
        {1: 1},
    ]
    accepted = refused = 0
    for _ in range(3000):
        record: dict[object, object] = {}
        for name in rng.sample(["trial_id", "score", "seed", "note", "candidate"], rng.randint(0, 5)):
            if name == "trial_id":
                record[name] = rng.choice(["t", "", "t\ud800", 7, None, "t-\u00e9"])
            elif name == "score":
                record[name] = rng.choice([0.9, 0.1, 1, 2, -0.0, True, "0.9", float("inf"), None])
            else:
                record[name] = rng.choice(values)
        try:
            line = dumps(record, shape="trial")
        except InvalidEvidence:
            refused += 1
            continue
        accepted += 1
        result = report(line.encode("ascii"), scheduled=1)
        assert (result.valid, result.invalid) == (1, 0), line
    assert accepted > 40 and refused > 1000
