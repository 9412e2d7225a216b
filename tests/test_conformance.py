# SPDX-License-Identifier: MIT
"""A public JSON parser conformance corpus through ``scorecontract check``.

JSONTestSuite's well-formed (``y_``), malformed (``n_``) and
implementation-defined (``i_``) files: none is a score record, so every one
must exit 3 (INVALID) with one line of reason and no traceback.  See
tests/data/jsontestsuite/README.md for where the files come from.
"""

from __future__ import annotations

import hashlib
import json
import math

import pytest

from scorecontract import InvalidEvidence, loads
from scorecontract._cli import main
from support import ROOT, run_main

CORPUS = ROOT / "tests" / "data" / "jsontestsuite"
FILES = sorted((CORPUS / "test_parsing").glob("*.json"))
# RFC 8259 section 4: names SHOULD be unique, so these are well-formed JSON;
# the score contract refuses duplicate names (docs/contract.md, rule 4).
WELL_FORMED_BUT_DUPLICATE = {"y_object_duplicated_key.json", "y_object_duplicated_key_and_value.json"}
EXIT = {"PASS": 0, "FAIL": 1, "INVALID": 3}


def test_the_independent_verdict_sees_records():
    # Guards the oracle above: it must recognise a record when there is one.
    assert independent_verdict(b'{"score": 0.9}') == "PASS"
    assert independent_verdict(b' {"score": 0} ') == "FAIL"
    assert independent_verdict(b'{"score": 0.1, "score": 0.9}') == "INVALID"
    assert independent_verdict(b'[["score", 0.9]]') == "INVALID"
    assert independent_verdict(b'{"score": NaN}') == "INVALID"


def test_the_corpus_is_all_there_and_unaltered():
    pinned = {}
    for line in (CORPUS / "SHA256SUMS").read_text(encoding="ascii").splitlines():
        digest, name = line.split("  ", 1)
        pinned[name] = digest
    assert len(pinned) == 293
    assert {path.name for path in FILES} == set(pinned)
    for path in FILES:
        assert hashlib.sha256(path.read_bytes()).hexdigest() == pinned[path.name], path.name
    kinds = {path.name[:2] for path in FILES}
    assert kinds == {"y_", "n_", "i_"}


def independent_verdict(raw: bytes) -> str:
    """The verdict a well-formed file should get, worked out without scorecontract.

    Only for y_ files, which are valid JSON: a file that happened to be
    {"score": <finite number in [0, 1]>} must get its real verdict.
    """
    try:
        # Objects as lists of (name, value) tuples, so duplicates stay visible.
        value = json.loads(raw.decode("utf-8"), parse_constant=lambda name: math.nan, object_pairs_hook=list)
    except ValueError:
        return "INVALID"
    if type(value) is not list or len(value) != 1 or type(value[0]) is not tuple or value[0][0] != "score":
        return "INVALID"
    score = value[0][1]
    if type(score) not in (int, float) or not math.isfinite(score) or not 0 <= score <= 1:
        return "INVALID"
    return "PASS" if score >= 0.8 else "FAIL"


@pytest.mark.parametrize("path", FILES, ids=[path.name for path in FILES])
def test_every_file_gets_one_line_and_the_right_exit(path, capsys):
    expected = independent_verdict(path.read_bytes()) if path.name.startswith("y_") else "INVALID"
    status = main(["check", str(path)])
    out, err = capsys.readouterr()
    assert status == EXIT[expected]
    assert out.startswith(expected + " ") and out.count("\n") == 1
    assert err == ""


@pytest.mark.parametrize("path", FILES, ids=[path.name for path in FILES])
def test_the_strict_loader_agrees_with_the_corpus(path):
    raw = path.read_bytes()
    if path.name.startswith("n_") or path.name in WELL_FORMED_BUT_DUPLICATE:
        with pytest.raises(InvalidEvidence):
            loads(raw)
    elif path.name.startswith("y_"):
        loads(raw)  # well-formed JSON gets past the loader; the record shape refuses it
    else:
        try:  # implementation-defined: either way, but never another exception
            loads(raw)
        except InvalidEvidence:
            pass


SAMPLE = [
    "y_structure_lonely_true.json",
    "y_object_duplicated_key.json",
    "y_string_accepted_surrogate_pair.json",
    "n_structure_100000_opening_arrays.json",
    "n_structure_open_array_object.json",
    "n_number_NaN.json",
    "n_string_unescaped_tab.json",
    "i_number_huge_exp.json",
    "i_string_1st_surrogate_but_2nd_missing.json",
    "i_structure_500_nested_arrays.json",
    "i_structure_UTF-8_BOM_empty_object.json",
]


@pytest.mark.parametrize("name", SAMPLE)
def test_a_sample_through_the_command_line_from_file_and_stdin(name):
    # In-process: a real stdin pipe in a fresh interpreter is
    # test_check_output.py's test_stdin_and_file_agree_in_a_fresh_interpreter.
    path = CORPUS / "test_parsing" / name
    from_file = run_main("check", str(path))
    from_stdin = run_main("check", "-", stdin=path.read_bytes())
    for result in (from_file, from_stdin):
        assert result.returncode == 3
        assert result.stdout.startswith(b"INVALID ") and result.stdout.count(b"\n") == 1
        assert result.stderr == b""
    assert from_file.stdout == from_stdin.stdout
