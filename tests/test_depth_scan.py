# SPDX-License-Identifier: MIT
"""The depth pre-scan: right answers, right places, and one pass.

The pre-scan once matched strings with a pattern that rescanned to the end
of the text from every escaped quote of an unterminated string:
``'\\\\"' * n + '[]' * 129`` took quadratic time.  Speed is measured in
benchmarks/adversarial.py; this module checks that the rewritten scan
agrees with a plain character-by-character lexer: loads() refuses a text
as ``too-deep`` exactly where the lexer first goes over the limit, and at
no other text.
"""

from __future__ import annotations

import random

import pytest

from public_support import MAX_DEPTH
from scorecontract import InvalidEvidence, evaluate, loads

BROKEN = -1


def too_deep_at(text: str) -> int | None:
    """The reference: where a JSON lexer first goes over MAX_DEPTH, or None.

    BROKEN when the text is not JSON in a way the scan need not see: a
    backslash outside a string, or a string never closed.  The decoder
    refuses such text wherever the scan stops.
    """
    depth = 0
    in_string = escaped = False
    for index, char in enumerate(text):
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char == "\\":
            # Not JSON: the decoder stops here, so nothing after it counts.
            return BROKEN
        elif char in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return index
        elif char in "]}":
            depth -= 1
    return BROKEN if in_string else None


def scan_says(text: str) -> int | None:
    """Where loads() refuses *text* as too deep, or None if it does not."""
    try:
        loads(text)
    except InvalidEvidence as exc:
        if exc.code == "too-deep":
            return exc.pos
    return None


SHAPES = [
    '\\"' * 1000 + "[]" * 129,
    '"' + '\\"' * 1000 + "[" * 129,
    '"' + '\\"' * 1000 + '"' + "[" * 129,
    '"\\\\"' + "[" * 129,
    '"\\\\\\"' + "[" * 129,
    '["' + "[" * 200 + '"]',
    "[" * MAX_DEPTH + "]" * MAX_DEPTH,
    "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1),
    '{"a":' * (MAX_DEPTH + 1) + "0" + "}" * (MAX_DEPTH + 1),
    '["\\\n' + "[" * 200,
]


def agrees(text: str) -> bool:
    # In broken text the scan may still count brackets (the decoder refuses
    # it either way); everywhere else the two agree exactly, position
    # included.
    expected = too_deep_at(text)
    return expected == BROKEN or scan_says(text) == expected


@pytest.mark.parametrize("text", SHAPES, ids=[f"shape-{i}" for i in range(len(SHAPES))])
def test_shapes_agree_with_the_lexer(text):
    assert agrees(text)


def test_random_texts_agree_with_the_lexer():
    rng = random.Random(15)
    atoms = ["[", "[", "{", "]", "}", '"', "\\", '\\"', "\\\\", "a", "[" * 60, "[" * 130]
    deep = 0
    for _ in range(3000):
        text = "".join(rng.choice(atoms) for _ in range(rng.randrange(1, 80)))
        assert agrees(text), text
        expected = too_deep_at(text)
        deep += expected is not None and expected != BROKEN
    assert deep > 100  # the generator does reach the limit


def test_just_under_and_over_the_limit():
    under = "[" * MAX_DEPTH + "0" + "]" * MAX_DEPTH
    over = "[" * (MAX_DEPTH + 1) + "0" + "]" * (MAX_DEPTH + 1)
    assert loads(under) is not None
    with pytest.raises(InvalidEvidence) as info:
        loads(over)
    assert (info.value.code, info.value.pos) == ("too-deep", MAX_DEPTH)


def test_escaped_quotes_in_a_string_do_not_hide_brackets():
    # The brackets after the string are real nesting.
    text = '["' + '\\"' * 500 + '", ' + "[" * MAX_DEPTH + "]" * MAX_DEPTH + "]"
    decision = evaluate(text)
    assert decision.code == "too-deep"
    assert decision.pos == text.index("[" * MAX_DEPTH) + MAX_DEPTH - 1


def test_brackets_inside_a_string_with_escapes_do_not_count():
    text = '{"score": 0.9, "x": "' + '\\"[' * 300 + '"}'
    assert evaluate(text).code == "unexpected-member"  # decoded, not too-deep


def test_the_quadratic_shape_is_refused_as_before():
    text = '\\"' * 20000 + "[]" * 129
    decision = evaluate(text)
    assert decision.code == "syntax" and decision.pos == 0
