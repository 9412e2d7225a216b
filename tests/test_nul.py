# SPDX-License-Identifier: MIT
"""A NUL character is one fault with one code, whether it comes as bytes or str.

A NUL byte is valid UTF-8, so the bytes decode; it is the JSON that is
wrong (RFC 8259 allows no raw control character in a string, and NUL is no
token).  UTF-16 and UTF-32 without a byte-order mark look exactly like this:
ASCII with NUL bytes between.
"""

from __future__ import annotations

import pytest

from scorecontract import InvalidEvidence, evaluate, judge, loads, report

RECORD = '{"score": 0.9, "note": "ab"}'
# A NUL at every position of a record: between tokens, inside a name,
# inside a string value, inside the number, after the value.
WITH_NUL = [RECORD[:i] + "\x00" + RECORD[i:] for i in range(len(RECORD) + 1)]
WITHOUT_BOM = [RECORD.encode(codec).decode("utf-8") for codec in ("utf-16-le", "utf-16-be", "utf-32-le", "utf-32-be")]


@pytest.mark.parametrize("text", WITH_NUL + WITHOUT_BOM)
def test_bytes_and_str_give_the_same_decision(text):
    as_str = evaluate(text)
    as_bytes = evaluate(text.encode("utf-8"))
    assert as_str.code != "not-utf8"
    assert as_str.code in ("syntax", "trailing-data")
    assert (as_bytes.verdict, as_bytes.code, as_bytes.message, as_bytes.pos) == (
        as_str.verdict,
        as_str.code,
        as_str.message,
        as_str.pos,
    )


@pytest.mark.parametrize("text", WITH_NUL + WITHOUT_BOM)
def test_loads_gives_the_same_code_for_bytes_and_str(text):
    with pytest.raises(InvalidEvidence) as from_str:
        loads(text)
    with pytest.raises(InvalidEvidence) as from_bytes:
        loads(text.encode("utf-8"))
    assert from_bytes.value.code == from_str.value.code


@pytest.mark.parametrize("text", WITHOUT_BOM)
def test_the_message_names_utf16_and_utf32(text):
    message = evaluate(text.encode("utf-8")).message
    assert "NUL" in message and "UTF-16" in message


def test_judge_and_report_lines_agree_too():
    text = '{"pass": true}\x00'
    assert judge(text).code == judge(text.encode("utf-8")).code == "trailing-data"
    line = b'{"trial_id": "t-1", "score": 0.9}\x00\n'
    result = report(line, scheduled=1)
    assert result.invalid_by_code == {"trailing-data": 1}


def test_a_byte_order_mark_is_still_not_utf8():
    # UTF-16 with its BOM is recognisably another encoding: 0xFF and 0xFE
    # are never UTF-8.
    assert evaluate(RECORD.encode("utf-16")).code == "not-utf8"
    assert evaluate(RECORD.encode("utf-32")).code == "not-utf8"
