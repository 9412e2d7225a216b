# SPDX-License-Identifier: MIT
"""``scorecontract report``: exit codes, options, files written."""

from __future__ import annotations

import hashlib
import json
import xml.etree.ElementTree as ET

import pytest

import scorecontract
from scorecontract._cli import main
from support import run_fresh, run_main

PASSING = b'{"trial_id": "a", "score": 0.9}\n{"trial_id": "b", "score": 0.8}\n'
FAILING = b'{"trial_id": "a", "score": 0.9}\n{"trial_id": "b", "score": 0.1}\n'
HALF = b'{"trial_id": "a", "score": 0.9}\n{"trial_id": "b", "score": NaN}\n'
# The mean (0.85) passes; only one trial of two does.
MEAN_ONLY = b'{"trial_id": "a", "score": 1}\n{"trial_id": "b", "score": 0.7}\n'


@pytest.fixture
def trials(tmp_path):
    def write(data: bytes, name: str = "trials.jsonl") -> str:
        path = tmp_path / name
        path.write_bytes(data)
        return str(path)

    return write


@pytest.mark.parametrize(
    "data, extra, status",
    [
        (PASSING, [], 0),
        (FAILING, [], 1),
        (FAILING, ["--statistic", "pass-rate", "--min-pass-rate", "0.5"], 0),
        (FAILING, ["--statistic", "pass-rate"], 1),
        (PASSING, ["--threshold", "0.95"], 1),
        (HALF, [], 3),
        (HALF, ["--review-owner", "alice"], 4),
        (b"", [], 3),
        (MEAN_ONLY, [], 0),
        (MEAN_ONLY, ["--min-pass-rate", "0.9"], 1),
        (MEAN_ONLY, ["--min-pass-rate", "0.5"], 0),
        (MEAN_ONLY, ["--min-pass-rate", "0.5", "--threshold", "0.9"], 1),
    ],
    ids=[
        "pass",
        "fail",
        "pass-rate-pass",
        "pass-rate-fail",
        "threshold",
        "invalid",
        "review",
        "empty",
        "mean-alone",
        "stated-rate-fails",
        "both-met",
        "stated-mean-fails",
    ],
)
@pytest.mark.parametrize("form", ["text", "json", "markdown", "github"])
def test_exit_status(trials, capsys, data, extra, status, form):
    code = main(["report", trials(data), "--scheduled", "2", "--format", form, *extra])
    out, err = capsys.readouterr()
    assert code == status
    assert out.strip() and err == ""


@pytest.mark.parametrize(
    "args",
    [
        [],
        ["--scheduled", "0"],
        ["--scheduled", "-2"],
        ["--scheduled", " 2"],
        ["--scheduled", "+2"],
        ["--scheduled", "1_0"],
        ["--scheduled", "two"],
        ["--scheduled", "2", "--threshold", "nan"],
        ["--scheduled", "2", "--threshold", "1.5"],
        ["--scheduled", "2", "--min-pass-rate", "Infinity"],
        ["--scheduled", "2", "--min-pass-rate", "true"],
        ["--scheduled", "2", "--review-owner", ""],
        ["--scheduled", "2", "--max-listed", "-1"],
        ["--scheduled", "2", "--max-bytes", "0"],
        ["--scheduled", "2", "--statistic", "median"],
        ["--manifest", "/nonexistent/manifest.json"],
    ],
    ids=lambda a: " ".join(a) or "no-population",
)
def test_configuration_errors_exit_2_with_one_line(trials, capsys, args):
    code = main(["report", trials(PASSING), *args])
    out, err = capsys.readouterr()
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 or err.startswith("usage:")
    assert "Traceback" not in err


def test_no_population_says_why(trials, capsys):
    assert main(["report", trials(PASSING)]) == 2
    assert capsys.readouterr().err.startswith("scorecontract: error: no-population: ")


def test_manifest_option(trials, capsys):
    manifest = trials(b'["a", "b", "c"]', "manifest.json")
    assert main(["report", trials(PASSING), "--manifest", manifest]) == 3
    assert "missing trials: 1" in capsys.readouterr().out
    duplicated = trials(b'["a", "b", "a"]', "dup.json")
    assert main(["report", trials(PASSING), "--manifest", duplicated]) == 2
    assert "listed twice" in capsys.readouterr().err


def test_missing_trials_file_is_invalid(tmp_path, capsys):
    assert main(["report", str(tmp_path / "absent.jsonl"), "--scheduled", "1"]) == 3
    assert capsys.readouterr().out.startswith("INVALID file-not-found: ")


def test_junit_xml_file(trials, tmp_path, capsys):
    target = tmp_path / "junit.xml"
    assert main(["report", trials(HALF), "--scheduled", "3", "--junit-xml", str(target)]) == 3
    root = ET.parse(target).getroot()
    cases = list(root.iter("testcase"))
    assert len(cases) == 3
    assert [[child.tag for child in case] for case in cases] == [[], ["error"], ["error"]]


def test_receipt_is_deterministic_and_never_overwritten(trials, tmp_path, capsys):
    source = trials(HALF)
    first, second = tmp_path / "r1.json", tmp_path / "r2.json"
    assert main(["report", source, "--scheduled", "2", "--receipt", str(first)]) == 3
    assert main(["report", source, "--scheduled", "2", "--receipt", str(second)]) == 3
    assert first.read_bytes() == second.read_bytes()
    receipt = json.loads(first.read_bytes())
    assert receipt["input"] == {"sha256": hashlib.sha256(HALF).hexdigest(), "bytes": len(HALF)}
    assert receipt["verdict"] == "INVALID" and receipt["invalid"] == 1
    assert (receipt["kind"], receipt["receipt_version"]) == ("report", 2)
    assert receipt["scorecontract_version"] == scorecontract.__version__
    assert "receipt" not in receipt and "policy" in receipt
    before = first.read_bytes()
    capsys.readouterr()
    assert main(["report", trials(PASSING), "--scheduled", "2", "--receipt", str(first)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("scorecontract: error: output-exists: --receipt ")
    assert first.read_bytes() == before


def test_stdin(capsys):
    result = run_main("report", "-", "--scheduled", "2", "--format", "json", stdin=HALF)
    assert result.returncode == 3
    out = json.loads(result.stdout)
    assert out["input"]["sha256"] == hashlib.sha256(HALF).hexdigest()


@pytest.mark.parametrize("optimize", [0, 1, 2], ids=["plain", "O", "OO"])
def test_fresh_interpreter_under_each_optimize_level(trials, optimize):
    # Fresh interpreter: -O removes asserts, -OO docstrings; report must
    # decide the same without them.  One interpreter for the three calls.
    source = trials(HALF)
    passing = trials(PASSING, "pass.jsonl")
    half, one, result = run_fresh(
        [
            (["report", source, "--scheduled", "2"], b""),
            (["report", source, "--scheduled", "1"], b""),
            (["report", passing, "--scheduled", "2"], b""),
        ],
        optimize=optimize,
    )
    assert half.returncode == 3
    assert one.returncode == 3
    assert result.returncode == 0
    assert result.stdout.startswith(b"PASS meets-threshold: ")


def test_help_lists_the_options(capsys):
    assert main(["report", "--help"]) == 0
    out = capsys.readouterr().out
    for option in (
        "--scheduled",
        "--manifest",
        "--threshold",
        "--metric",
        "--statistic",
        "--select",
        "--max-bytes",
        "--review-owner",
        "--format",
        "--junit-xml",
        "--receipt",
        "4   REVIEW",
    ):
        assert option in out


def test_a_receipt_that_appears_while_reading_is_not_overwritten(trials, tmp_path, capsys, monkeypatch):
    import os

    target = tmp_path / "receipt.json"
    target.write_bytes(b"someone else's\n")
    # The early check misses it (as if the file appeared meanwhile); the
    # write itself must still refuse.
    monkeypatch.setattr(os.path, "lexists", lambda path: False)
    assert main(["report", trials(PASSING), "--scheduled", "2", "--receipt", str(target)]) == 2
    assert "output-exists: --receipt" in capsys.readouterr().err
    assert target.read_bytes() == b"someone else's\n"


def test_an_unwritable_junit_path_is_a_configuration_error(trials, tmp_path, capsys):
    source = trials(PASSING)
    # A parent that is a regular file: no one can create a file under it.
    assert main(["report", source, "--scheduled", "2", "--junit-xml", source + "/junit.xml"]) == 2
    assert "cannot write --junit-xml" in capsys.readouterr().err
    assert main(["report", source, "--scheduled", "2", "--junit-xml", str(tmp_path)]) == 2
    assert "already exists" in capsys.readouterr().err


def test_report_takes_a_policy_file(trials, tmp_path, capsys):
    policy = tmp_path / "policy.json"
    policy.write_text('{"version": "rel-7", "threshold": 0.9, "exact": false, "review_owner": "alice"}')
    assert main(["report", trials(PASSING), "--scheduled", "2", "--policy", str(policy)]) == 1
    assert main(["report", trials(HALF), "--scheduled", "2", "--policy", str(policy)]) == 4
    assert main(["report", trials(PASSING), "--scheduled", "2", "--policy", str(policy), "--format", "json"]) == 1
    out = capsys.readouterr().out
    assert json.loads(out.splitlines()[-1])["policy"]["version"] == "rel-7"


@pytest.mark.parametrize("extra", [["--threshold", "0.5"], ["--exact"], ["--review-owner", "bob"]])
def test_policy_file_stands_alone(trials, tmp_path, extra, capsys):
    policy = tmp_path / "policy.json"
    policy.write_text('{"version": "rel-7", "threshold": 0.85, "exact": false}')
    status = main(["report", trials(PASSING), "--scheduled", "2", "--policy", str(policy), *extra])
    assert status == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_report_exact_mode(trials):
    data = b'{"trial_id": "a", "score": 0.79999999999999999999}\n'
    assert main(["report", trials(data), "--scheduled", "1"]) == 0
    assert main(["report", trials(data), "--scheduled", "1", "--exact"]) == 1


@pytest.mark.parametrize("form", ["text", "json", "markdown", "github"])
def test_a_stated_min_pass_rate_decides_beside_the_mean_in_every_output(trials, capsys, form):
    # --min-pass-rate without --statistic pass-rate used to be ignored: PASS.
    code = main(["report", trials(MEAN_ONLY), "--scheduled", "2", "--min-pass-rate", "0.9", "--format", form])
    out, _ = capsys.readouterr()
    assert code == 1
    assert "pass rate 0.5 (1 / 2) < 0.9" in out.replace("\\", "")
    if form == "text":
        assert [line.endswith("decides)") for line in out.splitlines() if line.startswith(("mean", "pass"))] == [
            True,
            True,
        ]
    elif form == "json":
        shown = json.loads(out)
        assert shown["deciding_metrics"] == ["mean", "pass-rate"]
        assert shown["metrics"]["mean"]["decides"] is shown["metrics"]["pass_rate"]["decides"] is True
    elif form == "markdown":
        rows = [line for line in out.splitlines() if line.startswith(("| mean", "| pass"))]
        assert len(rows) == 2 and all(row.endswith("| yes |") for row in rows)
    else:
        assert "mean score 0.85 = 1.7 / 2; pass rate 0.5 = 1 / 2" in out


def test_without_a_stated_rate_the_mean_alone_decides(trials, capsys):
    code = main(["report", trials(MEAN_ONLY), "--scheduled", "2"])
    out, _ = capsys.readouterr()
    assert code == 0
    assert "(trials scoring >= 0.8; minimum 1; shown only)" in out
