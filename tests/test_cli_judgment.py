# SPDX-License-Identifier: MIT
"""``scorecontract check --contract judgment``: the truth table by exit code."""

from __future__ import annotations

import functools

import pytest

from judgment_table import ALL_ROWS, SWAP
from scorecontract._cli import main
from support import run_fresh

EXIT = {"PASS": 0, "FAIL": 1, "GRADER_ERROR": 3}


def check(tmp_path, text, *options):
    path = tmp_path / "judgment.json"
    path.write_bytes(text.encode("utf-8") if isinstance(text, str) else text)
    return main(["check", "--contract", "judgment", *options, str(path)])


@pytest.mark.parametrize("negate", [False, True], ids=["plain", "negated"])
@pytest.mark.parametrize("row", ALL_ROWS, ids=[row[0] for row in ALL_ROWS])
def test_truth_table_exit_code(row, negate, tmp_path, capsys):
    _, text, threshold, outcome, code = row
    expected = (SWAP[outcome] if negate else outcome).value
    options = (["--threshold", threshold] if threshold is not None else []) + (["--negate"] if negate else [])
    status = check(tmp_path, text, *options)
    out, err = capsys.readouterr()
    assert status == EXIT[expected]
    assert out.startswith(f"{expected} {code}: ")
    assert out.count("\n") == 1
    assert err == ""


def test_the_issue_example(tmp_path, capsys):
    assert check(tmp_path, '{"reason": "The answer was considered."}') == 3
    out, _ = capsys.readouterr()
    assert out.startswith("GRADER_ERROR no-judgment: no verdict and no score")


def test_no_threshold_option_means_no_threshold(tmp_path, capsys):
    # The score contract's 0.8 default does not apply to judgments.
    assert check(tmp_path, '{"pass": true, "score": 0}') == 0
    assert check(tmp_path, '{"score": 0.5}') == 0
    assert check(tmp_path, '{"score": 0.5}', "--threshold", "0.8") == 1
    assert check(tmp_path, '{"pass": true}', "--threshold", "0.8") == 3


def test_high_is_a_grader_error_negated_or_not(tmp_path, capsys):
    assert check(tmp_path, '{"score": "high"}') == 3
    assert check(tmp_path, '{"score": "high"}', "--negate") == 3
    out, _ = capsys.readouterr()
    assert out.splitlines()[-1].startswith("GRADER_ERROR unusable-score: ")


def test_extract_option(tmp_path, capsys):
    answer = 'The answer is right.\n```json\n{"pass": true, "reason": "cites it"}\n```\n'
    assert check(tmp_path, answer) == 3
    assert check(tmp_path, answer, "--extract") == 0
    assert check(tmp_path, answer, "--extract", "--negate") == 1
    assert check(tmp_path, "No JSON at all.", "--extract") == 3
    out, _ = capsys.readouterr()
    assert out.splitlines()[-1].startswith("GRADER_ERROR extraction-failed: ")


def test_location_is_printed(tmp_path, capsys):
    assert check(tmp_path, 'Line one.\n{"pass": yes}', "--extract") == 3
    out, _ = capsys.readouterr()
    assert out.rstrip().endswith("(line 2 column 10) (policy default)")


def test_missing_file_is_a_grader_error(tmp_path, capsys):
    assert main(["check", "--contract", "judgment", "--negate", str(tmp_path / "absent.json")]) == 3
    out, _ = capsys.readouterr()
    assert out.startswith("GRADER_ERROR file-not-found: ")


def test_oversize_is_a_grader_error(tmp_path, capsys):
    assert check(tmp_path, '{"pass": true, "reason": "long enough"}', "--max-bytes", "10") == 3
    out, _ = capsys.readouterr()
    assert out.startswith("GRADER_ERROR too-large: ")


@pytest.mark.parametrize(
    "options",
    [
        ["--negate"],
        ["--extract"],
        ["--contract", "score", "--negate"],
        ["--contract", "verdict"],
        ["--contract", "judgment", "--threshold", "nan"],
        ["--contract", "judgment", "--threshold", "1.5"],
        ["--contract", "judgment", "--threshold", "true"],
        ["--contract", "judgment", "--max-bytes", "0"],
    ],
    ids=lambda options: " ".join(options),
)
def test_usage_and_configuration_errors_exit_2(options, tmp_path, capsys):
    path = tmp_path / "judgment.json"
    path.write_text('{"pass": true}', encoding="utf-8")
    assert main(["check", *options, str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert "Traceback" not in err


def test_score_contract_is_still_the_default(tmp_path, capsys):
    path = tmp_path / "judgment.json"
    path.write_text('{"pass": true}', encoding="utf-8")
    assert main(["check", str(path)]) == 3  # not a score record
    assert main(["check", "--contract", "score", str(path)]) == 3
    assert main(["check", "--contract", "judgment", str(path)]) == 0


def test_help_names_the_options(capsys):
    assert main(["check", "--help"]) == 0
    out, _ = capsys.readouterr()
    for option in ("--contract {score,judgment}", "--negate", "--extract"):
        assert option in out


STDIN_CASES = [
    (b'{"reason": "considered"}', [], 3),
    (b'{"score": "high"}', ["--negate"], 3),
    (b'{"pass": true, "score": 0}', [], 0),
    (b'{"pass": true, "score": 0}', ["--negate"], 1),
    (b'{"pass": false, "score": 1}', ["--threshold", "0.5"], 1),
    (b'Sure.\n```json\n{"score": 0.9}\n```', ["--extract", "--threshold", "0.8"], 0),
]


@functools.cache
def fresh_stdin_results(optimize):
    """Every STDIN_CASES row through the command line in one fresh interpreter.

    Fresh, with and without -O: no assert may carry a judgment.  One
    interpreter per level for all rows, built once per run.
    """
    calls = [(["check", "--contract", "judgment", *options, "-"], text) for text, options, _ in STDIN_CASES]
    return run_fresh(calls, optimize=optimize)


@pytest.mark.parametrize("optimize", [0, 1], ids=["plain", "O"])
@pytest.mark.parametrize("index", range(len(STDIN_CASES)))
def test_judgment_from_stdin_in_a_fresh_interpreter(index, optimize):
    _, _, status = STDIN_CASES[index]
    result = fresh_stdin_results(optimize)[index]
    assert result.returncode == status
    assert result.stdout.count(b"\n") == 1
    assert b"Traceback" not in result.stderr
