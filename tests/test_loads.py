# SPDX-License-Identifier: MIT
"""loads(): the strict loader, rule by rule (docs/contract.md, rules 1-4)."""

from __future__ import annotations

import json
import pickle
import sys
from decimal import Decimal

import pytest

from public_support import MAX_DEPTH, MAX_NUMBER_LENGTH
from scorecontract import InvalidEvidence, PolicyError, ScoreContractError, loads

REFUSED = [
    # (id, raw, code)
    ("nan", '{"score": NaN}', "non-standard-constant"),
    ("infinity", "[Infinity]", "non-standard-constant"),
    ("negative-infinity", "-Infinity", "non-standard-constant"),
    ("nan-deep", '{"a": [{"b": NaN}]}', "non-standard-constant"),
    ("overflow", "1e400", "non-finite"),
    ("negative-overflow", "-1e400", "non-finite"),
    ("overflow-in-array", "[0.5, 1E+400]", "non-finite"),
    ("overflow-long-mantissa", "1" + "0" * 309 + ".0", "non-finite"),
    ("underflow", "1e-400", "underflow"),
    ("underflow-negative", "-1e-400", "underflow"),
    ("underflow-long", "0." + "0" * 400 + "1", "underflow"),
    ("underflow-in-object", '{"threshold": 2e-324}', "underflow"),
    ("duplicate", '{"a": 1, "a": 1}', "duplicate-member"),
    ("duplicate-escaped", '{"score": 1, "\\u0073core": 1}', "duplicate-member"),
    ("duplicate-escaped-both", '{"\\u0061": 1, "\\u0061": 2}', "duplicate-member"),
    ("duplicate-nested", '[{"x": {"y": 1, "y": 2}}]', "duplicate-member"),
    ("lone-high-surrogate-value", '"\\ud800"', "lone-surrogate"),
    ("lone-low-surrogate-value", '"\\udc00"', "lone-surrogate"),
    ("reversed-pair", '"\\udc00\\ud800"', "lone-surrogate"),
    ("lone-surrogate-name", '{"\\udbff": 1}', "lone-surrogate"),
    ("lone-surrogate-nested", '[[["ok", "\\ud812x"]]]', "lone-surrogate"),
    ("trailing", "1 2", "trailing-data"),
    ("trailing-object", "{} {}", "trailing-data"),
    ("empty", "", "empty"),
    ("whitespace", " \t\r\n", "empty"),
    ("python-whitespace-not-json", "\u00a01", "syntax"),
    ("vertical-tab", "\x0b1", "syntax"),
    ("single-quotes", "{'a': 1}", "syntax"),
    ("trailing-comma", "[1,]", "syntax"),
    ("leading-plus", "+1", "syntax"),
    ("leading-zero", "01", "trailing-data"),  # "0" then "1"
    ("bare-dot", ".5", "syntax"),
    ("hex", "0x1", "trailing-data"),
    ("lowercase-nan", "nan", "syntax"),
    ("control-char-in-string", '"a\x01b"', "syntax"),
    ("unterminated", '{"a": 1', "syntax"),
    ("comment", "1 // comment", "trailing-data"),
    ("long-int", "1" * (MAX_NUMBER_LENGTH + 1), "too-many-digits"),
    ("long-float", "0." + "1" * MAX_NUMBER_LENGTH, "too-many-digits"),
    ("deep-arrays", "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1), "too-deep"),
    ("deep-objects", '{"a":' * (MAX_DEPTH + 1) + "1" + "}" * (MAX_DEPTH + 1), "too-deep"),
    ("deep-unclosed", "[" * 100_000, "too-deep"),
    ("bom-str", "\ufeff{}", "byte-order-mark"),
    ("raw-surrogate-str", '"\ud800"', "lone-surrogate"),
    ("bom-bytes", b"\xef\xbb\xbf{}", "byte-order-mark"),
    ("utf16-bytes", "{}".encode("utf-16"), "not-utf8"),
    # Without a BOM, UTF-16 and UTF-32 are ASCII with NUL bytes between:
    # valid UTF-8, but a raw NUL is not JSON.  The same code as the str.
    ("utf16le-bytes", '{"a": 1}'.encode("utf-16-le"), "syntax"),
    ("utf32-bytes", '{"a": 1}'.encode("utf-32"), "not-utf8"),
    ("latin1-bytes", '"caf\u00e9"'.encode("latin-1"), "not-utf8"),
    ("overlong-utf8", b'"\xc0\xaf"', "not-utf8"),
    ("encoded-surrogate-utf8", b'"\xed\xa0\x80"', "not-utf8"),
    ("truncated-utf8", b'"\xe2\x82"', "not-utf8"),
    ("nul-byte", b'{"a": 1}\x00', "trailing-data"),
]


@pytest.mark.parametrize("raw, code", [r[1:] for r in REFUSED], ids=[r[0] for r in REFUSED])
def test_refused(raw, code):
    with pytest.raises(InvalidEvidence) as info:
        loads(raw)
    assert info.value.code == code
    assert isinstance(info.value, ValueError)
    assert isinstance(info.value, ScoreContractError)


ACCEPTED = [
    ("object", '{"score": 0.9}', {"score": 0.9}),
    ("escaped-name", '{"\\u0073core": 0.9}', {"score": 0.9}),
    ("surrogate-pair", '"\\ud83d\\ude00"', "\U0001f600"),
    ("astral-raw", '"\U0001f600"', "\U0001f600"),
    ("nested-at-limit", "[" * MAX_DEPTH + "]" * MAX_DEPTH, json.loads("[" * MAX_DEPTH + "]" * MAX_DEPTH)),
    ("brackets-in-strings", json.dumps(["[" * 500]), ["[" * 500]),
    ("int-at-limit", "1" * MAX_NUMBER_LENGTH, int("1" * MAX_NUMBER_LENGTH)),
    ("negative-zero", "-0", 0),
    ("subnormal-float", "5e-324", 5e-324),
    ("zero-with-exponent", "0e-400", 0.0),
    ("negative-zero-float", "-0.000e5", -0.0),
    ("whitespace", " \t\r\n[1]\r\n", [1]),
    ("bytes", b'{"a": [true, false, null]}', {"a": [True, False, None]}),
    ("bytearray", bytearray(b"[1]"), [1]),
    ("non-ascii-bytes", '"caf\u00e9"'.encode("utf-8"), "caf\u00e9"),
]


@pytest.mark.parametrize("raw, expected", [a[1:] for a in ACCEPTED], ids=[a[0] for a in ACCEPTED])
def test_accepted(raw, expected):
    value = loads(raw)
    assert value == expected
    assert type(value) is type(expected)


def test_huge_int_is_read_as_int():
    assert loads("1" + "0" * 400) == 10**400


def test_exact_mode_reads_decimal_text():
    assert loads('{"s": 0.79999999999999999999}', exact=True) == {"s": Decimal("0.79999999999999999999")}
    assert loads("1e-400", exact=True) == Decimal("1e-400")
    assert loads("1e400", exact=True) == Decimal("1e400")
    assert type(loads("1", exact=True)) is int


def test_byte_limit():
    assert loads(b" " * 9 + b"1", max_bytes=10) == 1
    with pytest.raises(InvalidEvidence) as info:
        loads(b" " * 10 + b"1", max_bytes=10)
    assert info.value.code == "too-large"
    with pytest.raises(InvalidEvidence) as info:
        loads(" " * 10 + "1", max_bytes=10)
    assert info.value.code == "too-large"


def test_byte_limit_counts_utf8_bytes_of_str():
    text = '"' + "\u00e9" * 5 + '"'  # 7 characters, 12 bytes
    assert loads(text, max_bytes=12) == "\u00e9" * 5
    with pytest.raises(InvalidEvidence):
        loads(text, max_bytes=11)


@pytest.mark.parametrize("max_bytes", [0, -1, True, 1.5, "10"])
def test_bad_byte_limit_is_a_configuration_error(max_bytes):
    with pytest.raises(PolicyError):
        loads("1", max_bytes=max_bytes)


@pytest.mark.parametrize("raw", [None, 1, 0.9, ["{}"], object()])
def test_non_text_input(raw):
    with pytest.raises(InvalidEvidence) as info:
        loads(raw)
    assert info.value.code == "input-type"


def test_error_location_like_json():
    with pytest.raises(InvalidEvidence) as info:
        loads('{\n  "score":\n  @}')
    error = info.value
    assert (error.code, error.lineno, error.colno) == ("syntax", 3, 3)
    assert error.pos == 15
    assert "line 3 column 3 (char 15)" in str(error)


def test_encoding_error_location_counts_bytes():
    with pytest.raises(InvalidEvidence) as info:
        loads(b'{\n "a": "\xff"}')
    assert (info.value.pos, info.value.lineno, info.value.colno) == (9, 2, 8)


def test_errors_pickle():
    with pytest.raises(InvalidEvidence) as info:
        loads("[1,@]")
    copy = pickle.loads(pickle.dumps(info.value))
    assert type(copy) is InvalidEvidence
    assert (copy.code, copy.message, copy.pos, copy.lineno, copy.colno) == (
        "syntax",
        info.value.message,
        3,
        1,
        4,
    )
    assert str(copy) == str(info.value)
    policy_error = PolicyError("bad-threshold", "no")
    copy = pickle.loads(pickle.dumps(policy_error))
    assert (type(copy), copy.code, copy.message) == (PolicyError, "bad-threshold", "no")


def test_deep_nesting_under_a_low_recursion_limit():
    # The depth check runs before the decoder, so no RecursionError can
    # escape even when the interpreter's own limit is lower than ours.
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(150, old // 8))
    try:
        with pytest.raises(InvalidEvidence) as info:
            loads("[" * 5000 + "]" * 5000)
    finally:
        sys.setrecursionlimit(old)
    assert info.value.code == "too-deep"


def test_lowered_int_digit_limit_is_respected():
    if not hasattr(sys, "set_int_max_str_digits"):
        pytest.skip("Python < 3.11 (and < 3.10.7) has no int digit limit")
    old = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(640)
    try:
        assert loads("9" * 640) == int("9" * 640)
    finally:
        sys.set_int_max_str_digits(old)


def test_default_json_really_has_these_holes():
    # The reason this module exists: the standard decoder lets them through.
    assert json.loads('{"score": NaN}')["score"] != json.loads('{"score": NaN}')["score"]
    assert json.loads("1e400") == float("inf")
    assert json.loads('{"score": 0.1, "score": 0.9}') == {"score": 0.9}
    assert json.loads('"\\ud800"') == "\ud800"
    assert json.loads('{"score": 0.9}'.encode("utf-16")) == {"score": 0.9}
