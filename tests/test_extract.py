# SPDX-License-Identifier: MIT
"""Extraction: the JSON text inside a grader's prose, by one fixed rule."""

from __future__ import annotations

import pytest

from scorecontract import InvalidEvidence, Outcome, extract_json, judge

# (id, grader answer, the JSON text extract_json returns)
FOUND = [
    ("bare-object", '{"pass": true}', '{"pass": true}'),
    ("prose-before", 'The answer cites the source.\n{"pass": true}', '{"pass": true}'),
    ("prose-after", '{"pass": false} The answer is wrong.', '{"pass": false}'),
    ("prose-around", 'Verdict: {"score": 0.9} (high confidence)', '{"score": 0.9}'),
    ("empty-object", "Nothing: {} here", "{}"),
    ("empty-object-spaced", "Nothing: { \n } here", "{ \n }"),
    ("fenced", 'Reasoning.\n```json\n{"pass": true}\n```\nDone.', '{"pass": true}\n'),
    ("fenced-upper", '```JSON\n{"pass": true}\n```', '{"pass": true}\n'),
    ("fenced-four-ticks", '````json\n{"pass": true}\n```\n````', '{"pass": true}\n```\n'),
    ("fenced-indented", '  ```json  \n{"pass": true}\n  ```', '{"pass": true}\n'),
    ("fenced-crlf", 'ok\r\n```json\r\n{"pass": true}\r\n```\r\n', '{"pass": true}\r\n'),
    ("fenced-multiline", '```json\n{\n  "pass": true,\n  "score": 1\n}\n```', '{\n  "pass": true,\n  "score": 1\n}\n'),
    # A json fence wins over an object before it: the fence marks the answer.
    ("fence-over-earlier-object", 'Format: {"pass": true}\n```json\n{"pass": false}\n```', '{"pass": false}\n'),
    # An unlabelled fence is prose: the first object is found inside it.
    ("unlabelled-fence", '```\n{"pass": true}\n```', '{"pass": true}'),
    ("inline-fence", 'Answer: ```json {"pass": true}```', '{"pass": true}'),
    ("closing-brace-in-string", '{"reason": "a } here", "pass": true} tail }', '{"reason": "a } here", "pass": true}'),
    ("opening-brace-in-string", '{"reason": "a { here", "pass": true} tail', '{"reason": "a { here", "pass": true}'),
    (
        "escaped-quote-in-string",
        r'{"reason": "say \"}\" now", "pass": true} x',
        r'{"reason": "say \"}\" now", "pass": true}',
    ),
    ("escaped-backslash-at-end", r'{"reason": "ends \\", "pass": true} }', r'{"reason": "ends \\", "pass": true}'),
    ("two-objects-first-wins", '{"pass": false} then {"pass": true}', '{"pass": false}'),
    ("prose-braces-skipped", 'Rubric {criteria} and {{x}} then {"pass": true}', '{"pass": true}'),
    ("brace-then-spaces", 'x {   \n"pass": true} y', '{   \n"pass": true}'),
    (
        "nested",
        'Result: {"pass": true, "detail": {"a": {"b": [1, {"c": "}"}]}}} end',
        '{"pass": true, "detail": {"a": {"b": [1, {"c": "}"}]}}}',
    ),
]

# (id, grader answer) with nothing to extract.
NOT_FOUND = [
    ("empty", ""),
    ("prose-only", "The answer is correct."),
    ("prose-braces-only", "Use {placeholders} and {{templates}}."),
    ("unterminated-object", 'Here: {"pass": true'),
    ("unterminated-string", 'Here: {"pass": "tru'),
    ("unterminated-nested", '{"pass": true, "detail": {"a": 1}'),
    ("unclosed-fence", '```json\n{"pass": true}\n'),
    ("fence-line-only", "```json"),
    ("fence-closed-by-fewer-ticks", '````json\n{"pass": true}\n```\n'),
    ("array-only", "[true, 0.9]"),
]


@pytest.mark.parametrize("answer, expected", [row[1:] for row in FOUND], ids=[row[0] for row in FOUND])
def test_extracts(answer, expected):
    assert extract_json(answer) == expected
    assert extract_json(answer.encode("utf-8")) == expected


@pytest.mark.parametrize("answer", [row[1] for row in NOT_FOUND], ids=[row[0] for row in NOT_FOUND])
def test_extraction_failure(answer):
    with pytest.raises(InvalidEvidence) as caught:
        extract_json(answer)
    assert caught.value.code == "extraction-failed"
    for negate in (False, True):
        result = judge(answer, extract=True, negate=negate)
        assert (result.outcome, result.code) == (Outcome.GRADER_ERROR, "extraction-failed")


def test_extraction_is_opt_in():
    answer = 'Looks right.\n{"pass": true}'
    assert judge(answer).code == "syntax"
    assert judge(answer, extract=True).outcome is Outcome.PASS


@pytest.mark.parametrize(
    "answer, code",
    [
        ('Verdict: {"pass": false, "score": NaN} and later {"pass": true}', "non-standard-constant"),
        ('{"score": Infinity}', "non-standard-constant"),
        ('ok {"score": 1e400}', "non-finite"),
        ('ok {"score": 0.1, "score": 0.9}', "duplicate-member"),
        ('ok {"pass": false, "\\u0070ass": true}', "duplicate-member"),
        ('```json\n{"pass": true}\nextra prose\n```', "trailing-data"),
        ('```json\n// a comment\n{"pass": true}\n```', "syntax"),
        ("```json\n```", "empty"),
        ('```json\n[{"pass": true}]\n```', "not-an-object"),
        ('ok {"pass": true,} {"pass": true}', "syntax"),
        ('ok {"score": "high"}', "unusable-score"),
        ('ok {"reason": "fine"}', "no-judgment"),
    ],
)
def test_extracted_text_is_still_decoded_strictly(answer, code):
    # A broken first answer is a grader error; a later one is never used.
    for negate in (False, True):
        result = judge(answer, extract=True, negate=negate)
        assert (result.outcome, result.code) == (Outcome.GRADER_ERROR, code)


def test_locations_point_into_the_whole_answer():
    result = judge('Line one.\nLine two: {"pass": yes}', extract=True)
    assert result.code == "syntax"
    assert (result.lineno, result.colno) == (2, 20)
    assert result.pos == len('Line one.\nLine two: {"pass": ')
    failed = judge('Line one.\n```json\n{"pass": true}\n', extract=True)
    assert (failed.code, failed.lineno, failed.colno) == ("extraction-failed", 2, 1)


def test_encoding_is_checked_before_extraction():
    with pytest.raises(InvalidEvidence) as caught:
        extract_json(b'ok {"pass": true} \xff')
    assert caught.value.code == "not-utf8"
    assert judge('ok {"pass": true}'.encode("utf-16"), extract=True).code == "not-utf8"


def test_large_hostile_answers_are_handled():
    # Many unterminated strings and unmatched braces: the scan is linear,
    # so these finish; the result is what the rule says.
    quotes = '{"' + '\\"' * 200_000
    assert judge(quotes, extract=True).code == "extraction-failed"
    braces = "{" * 100_000 + '{"pass": true}'
    assert judge(braces, extract=True).code == "explicit-pass"  # prose braces are skipped
    unclosed = '{"a": {' * 100_000
    assert judge(unclosed, extract=True).code == "extraction-failed"
    deep = '{"a":' * 200 + "1" + "}" * 200
    assert judge(deep, extract=True).code == "too-deep"
