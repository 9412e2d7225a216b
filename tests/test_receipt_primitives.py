# SPDX-License-Identifier: MIT
"""Shared output primitives: workflow-command escaping and receipt files."""

from __future__ import annotations

from decimal import Decimal

import pytest

from scorecontract._cli._github import escape_data, escape_property, workflow_command
from scorecontract._cli._receipt import receipt_bytes
from scorecontract._digest import sha256_hex
from scorecontract._write import write_new_file


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
