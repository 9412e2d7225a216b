# SPDX-License-Identifier: MIT
"""Shared output primitives: the escaper, workflow-command escaping and receipt files.

White-box: these are the one escaper (``_cli._escape``), the GitHub
workflow-command encoder and the receipt writer that every command shares;
their tables (every code point, the actions toolkit's rules, byte-exact
receipts) are pinned here on the functions themselves, since through a
command only the characters a file name or message can carry reach them.
tests/test_escape_fuzz.py drives every command with hostile text.
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from scorecontract._cli._escape import escape
from scorecontract._cli._github import escape_data, escape_property, workflow_command
from scorecontract._cli._receipt import receipt_bytes
from scorecontract._digest import sha256_hex
from scorecontract._write import write_new_file
from test_escape_fuzz import raw_unsafe, unsafe


@pytest.mark.parametrize(
    "text, data, prop",
    [
        ("plain", "plain", "plain"),
        ("50%", "50%25", "50%25"),
        ("a\nb", "a%0Ab", "a%0Ab"),
        ("a\r\nb", "a%0D%0Ab", "a%0D%0Ab"),
        ("x::error::y", "x::error::y", "x%3A%3Aerror%3A%3Ay"),
        ("a,b", "a,b", "a%2Cb"),
        ("%0A", "%250A", "%250A"),
    ],
)
def test_escaping_follows_the_actions_toolkit(text, data, prop):
    assert escape_data(text) == data
    assert escape_property(text) == prop


def test_a_newline_in_evidence_cannot_forge_a_second_command():
    line = workflow_command("error", "bad\n::notice::released", title="t-1,\n::x")
    assert "\n" not in line and "\r" not in line
    assert line == "::error title=t-1%2C%0A%3A%3Ax::bad%0A::notice::released"


def test_lone_surrogates_are_escaped_not_fatal():
    line = workflow_command("error", "id \ud800")
    line.encode("utf-8")
    assert "\\ud800" in line


def test_receipt_bytes_are_deterministic_and_ascii():
    receipt = {"b": 1, "a": "caf\u00e9 \ud800", "threshold": Decimal("0.8")}
    first = receipt_bytes(receipt)
    assert first == receipt_bytes(dict(reversed(list(receipt.items()))))
    first.decode("ascii")
    assert b'"threshold": "0.8"' in first
    assert first.endswith(b"}\n")
    with pytest.raises(ValueError):
        receipt_bytes({"score": float("nan")})


def test_sha256_hex():
    assert sha256_hex(b"") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"


def test_write_new_file_never_overwrites(tmp_path):
    target = tmp_path / "receipt.json"
    write_new_file(str(target), b"first\n")
    with pytest.raises(FileExistsError):
        write_new_file(str(target), b"second\n")
    assert target.read_bytes() == b"first\n"
    assert [p.name for p in tmp_path.iterdir()] == ["receipt.json"]  # no temp left


# -- the escaper itself ---------------------------------------------------------


def test_every_unsafe_character_is_escaped_and_nothing_else():
    for code in range(0x110000):
        character = chr(code)
        shown = escape(character)
        if unsafe(character):
            expected = f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"
            assert shown == expected, hex(code)
        else:
            assert shown == character, hex(code)


def test_escaping_is_idempotent_and_keeps_backslashes():
    text = "a\\x1b\x1b\u202e\udcff\\n"
    once = escape(text)
    assert once == "a\\x1b\\x1b\\u202e\\udcff\\n"
    assert escape(once) == once


def test_github_escapes_esc_and_soh_beside_the_toolkit_rules():
    assert escape_data("a%b\r\nc\x1bd\x01") == "a%25b%0D%0Ac\\x1bd\\x01"
    assert escape_property("x:y,z\x1b\u202e") == "x%3Ay%2Cz\\x1b\\u202e"
    line = workflow_command("error", "m\x1b\x01\n::notice::x", file="f\x1b\n,:%", title="t\u2028")
    assert line == "::error file=f\\x1b%0A%2C%3A%25,title=t\\u2028::m\\x1b\\x01%0A::notice::x"
    assert raw_unsafe(line + "\n") == []
