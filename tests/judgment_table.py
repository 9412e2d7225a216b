# SPDX-License-Identifier: MIT
"""The truth table of docs/judgments.md, as data for the API and the CLI tests.

This module is not a test module: it holds no checks, only rows.
"""

from __future__ import annotations

from scorecontract import Outcome

PASS, FAIL, ERROR = Outcome.PASS, Outcome.FAIL, Outcome.GRADER_ERROR
SWAP = {PASS: FAIL, FAIL: PASS, ERROR: ERROR}

# (id, judgment text, threshold or None, outcome without negation, code).
# Every text here decodes with plain json.loads to the same mapping, so each
# row also runs on the mapping.
TABLE = [
    # "pass": true, score absent or usable, no threshold: PASS, even with 0.
    ("true-no-score", '{"pass": true}', None, PASS, "explicit-pass"),
    ("true-score-0", '{"pass": true, "score": 0}', None, PASS, "explicit-pass"),
    ("true-score-0.0", '{"pass": true, "score": 0.0}', None, PASS, "explicit-pass"),
    ("true-score-0.3", '{"pass": true, "score": 0.3}', None, PASS, "explicit-pass"),
    ("true-score-1", '{"pass": true, "score": 1}', None, PASS, "explicit-pass"),
    ("true-score-string-0.5", '{"pass": true, "score": "0.5"}', None, PASS, "explicit-pass"),
    # "pass": true, usable score, threshold set: score >= threshold.
    ("true-0.9-at-0.8", '{"pass": true, "score": 0.9}', "0.8", PASS, "meets-threshold"),
    ("true-0.8-at-0.8-equality", '{"pass": true, "score": 0.8}', "0.8", PASS, "meets-threshold"),
    ("true-0.7-at-0.8", '{"pass": true, "score": 0.7}', "0.8", FAIL, "below-threshold"),
    ("true-0-at-0.5", '{"pass": true, "score": 0}', "0.5", FAIL, "below-threshold"),
    ("true-0-at-0", '{"pass": true, "score": 0}', "0", PASS, "meets-threshold"),
    ("true-string-0.79-at-0.8", '{"pass": true, "score": "0.79"}', "0.8", FAIL, "below-threshold"),
    # "pass": true, no score, threshold set: the threshold has nothing to judge.
    ("true-no-score-at-0.8", '{"pass": true}', "0.8", ERROR, "no-score-for-threshold"),
    ("true-no-score-at-0", '{"pass": true, "reason": "ok"}', "0", ERROR, "no-score-for-threshold"),
    # "pass": false, score absent or usable, any threshold: FAIL.
    ("false-no-score", '{"pass": false}', None, FAIL, "explicit-fail"),
    ("false-no-score-at-0.5", '{"pass": false}', "0.5", FAIL, "explicit-fail"),
    ("false-score-1", '{"pass": false, "score": 1}', None, FAIL, "explicit-fail"),
    ("false-score-1-at-0.5", '{"pass": false, "score": 1}', "0.5", FAIL, "explicit-fail"),
    ("false-score-1-at-0", '{"pass": false, "score": 1}', "0", FAIL, "explicit-fail"),
    ("false-score-string-1", '{"pass": false, "score": "1"}', None, FAIL, "explicit-fail"),
    # No verdict, usable score, no threshold: PASS if score > 0.
    ("none-0.5", '{"score": 0.5}', None, PASS, "positive-score"),
    ("none-1e-9", '{"score": 1e-9}', None, PASS, "positive-score"),
    ("none-1", '{"score": 1}', None, PASS, "positive-score"),
    ("none-0", '{"score": 0}', None, FAIL, "zero-score"),
    ("none-0.0", '{"score": 0.0}', None, FAIL, "zero-score"),
    ("none-minus-0.0", '{"score": -0.0}', None, FAIL, "zero-score"),
    ("none-string-0.9", '{"score": "0.9"}', None, PASS, "positive-score"),
    ("none-string-0", '{"score": "0"}', None, FAIL, "zero-score"),
    ("none-string-9e-1", '{"score": "9E-1"}', None, PASS, "positive-score"),
    # No verdict, usable score, threshold set: score >= threshold.
    ("none-0.9-at-0.8", '{"score": 0.9}', "0.8", PASS, "meets-threshold"),
    ("none-0.8-at-0.8-equality", '{"score": 0.8}', "0.8", PASS, "meets-threshold"),
    ("none-0.79-at-0.8", '{"score": 0.79}', "0.8", FAIL, "below-threshold"),
    ("none-0-at-0", '{"score": 0}', "0", PASS, "meets-threshold"),
    ("none-1-at-1", '{"score": 1}', "1", PASS, "meets-threshold"),
    ("none-string-0.8-at-0.8", '{"score": "0.8"}', "0.8", PASS, "meets-threshold"),
    # No verdict and no score: grader error, whatever the threshold.
    ("reason-only", '{"reason": "The answer was considered."}', None, ERROR, "no-judgment"),
    ("reason-only-at-0.8", '{"reason": "The answer was considered."}', "0.8", ERROR, "no-judgment"),
    ("empty-object", "{}", None, ERROR, "no-judgment"),
    ("other-names", '{"passed": true, "Score": 0.9, "verdict": "pass"}', None, ERROR, "no-judgment"),
]

# A score member that is present but unusable: grader error, whatever the
# verdict and the threshold.
UNUSABLE_SCORES = [
    '"high"',
    '""',
    "true",
    "false",
    "null",
    "1.5",
    "-0.1",
    "2",
    "[0.9]",
    '{"value": 0.9}',
    '"NaN"',
    '"nan"',
    '"Infinity"',
    '"-Infinity"',
    '"inf"',
    '" 0.9 "',
    '"0.9 "',
    '"+0.9"',
    '"0x1"',
    '"1_0"',
    '".9"',
    '"9."',
    '"0.9e"',
    '"00.9"',
    '"1e400"',
    '"1.5"',
    '"-0.1"',
    '"\\u0660.\\u0669"',
    '"\\uff10.\\uff19"',
    '"0,9"',
    '"90%"',
    '"0.9\\n"',
    '"10"',
]
for score in UNUSABLE_SCORES:
    for verdict in ("", '"pass": true, ', '"pass": false, '):
        for threshold in (None, "0.5"):
            TABLE.append(
                (
                    f"unusable-{verdict[8:-2] or 'absent'}-{score}-at-{threshold}",
                    "{" + verdict + '"score": ' + score + "}",
                    threshold,
                    ERROR,
                    "unusable-score",
                )
            )

# Anything but a JSON boolean in "pass" is not a verdict.
for value in ('"true"', '"false"', '"yes"', '"pass"', "1", "0", "null", "[]", "{}", '""'):
    for rest in ("", ', "score": 0.9'):
        for threshold in (None, "0.5"):
            TABLE.append(
                (
                    f"verdict-{value}{rest and '-with-score'}-at-{threshold}",
                    '{"pass": ' + value + rest + "}",
                    threshold,
                    ERROR,
                    "verdict-not-boolean",
                )
            )

# Rows only text can express: the strict loader's refusals are grader errors.
TEXT_ONLY = [
    ("nan-score", '{"score": NaN}', None, ERROR, "non-standard-constant"),
    ("nan-score-with-false", '{"pass": false, "score": NaN}', None, ERROR, "non-standard-constant"),
    ("infinity-score", '{"pass": true, "score": Infinity}', None, ERROR, "non-standard-constant"),
    ("overflow-score", '{"pass": true, "score": 1e400}', None, ERROR, "non-finite"),
    ("duplicate-score", '{"score": 0.1, "score": 0.9}', None, ERROR, "duplicate-member"),
    ("duplicate-pass", '{"pass": true, "pass": false}', None, ERROR, "duplicate-member"),
    ("duplicate-escaped", '{"pass": false, "\\u0070ass": true}', None, ERROR, "duplicate-member"),
    ("nan-in-reason-object", '{"pass": true, "detail": {"x": NaN}}', None, ERROR, "non-standard-constant"),
    ("array", '[{"pass": true}]', None, ERROR, "not-an-object"),
    ("bare-true", "true", None, ERROR, "not-an-object"),
    ("bare-string", '"pass"', None, ERROR, "not-an-object"),
    ("empty", "", None, ERROR, "empty"),
    ("prose", "The answer is correct.", None, ERROR, "syntax"),
    ("trailing", '{"pass": true} and more', None, ERROR, "trailing-data"),
]

ALL_ROWS = TABLE + TEXT_ONLY
