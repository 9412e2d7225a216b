# SPDX-License-Identifier: MIT
"""One vocabulary: the same concept has one name in check, report and gate files.

``--metric`` is the harness's metric in both commands (lm-eval's
``metric,filter``), ``--statistic`` what a report decides on, ``--select``
the one selection query, ``--max-bytes`` the one size limit.  The old
spellings are refused with a usage error naming the new one, never kept as
an alias.  check writes the markdown summary and JUnit XML that report
writes, and ``--from HARNESS --help`` works for both commands.
"""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree

import pytest

import scorecontract
from public_support import choices, long_options
from scorecontract._cli import main
from support import FIXTURES, ROOT

# The old spellings and their new names, as docs/cli.md's "One vocabulary" lists them.
RENAMED = {"--sample-metric": "--metric", "--select-score": "--select", "--max-line-bytes": "--max-bytes"}

PASS = str(FIXTURES / "pass-0.9.json")
LM = FIXTURES / "harnesses" / "samples" / "lm-eval"


def run(argv, capsys):
    status = main(argv)
    out, err = capsys.readouterr()
    return status, out, err


# -- the old spellings ---------------------------------------------------------------

# (command, old option, its value, the rest of a line that would otherwise run)
OLD = [
    ("check", "--sample-metric", "accuracy", ["--from", "inspect", PASS]),
    ("check", "--select-score", "$.score", [PASS]),
    ("check", "--max-line-bytes", "1M", [PASS]),
    ("report", "--sample-metric", "acc", ["--from", "lm-eval", "--scheduled", "3", PASS]),
    ("report", "--select-score", "$.score", ["--trial-id", "id", "--scheduled", "3", PASS]),
    ("report", "--max-line-bytes", "1M", ["--scheduled", "3", PASS]),
]


def test_the_table_of_old_spellings_is_covered_here():
    assert {option for _, option, _, _ in OLD} == set(RENAMED)
    documented = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    for old, new in RENAMED.items():
        assert f"--{old[2:]}` | `{new}` |" in documented, old
    assert {command for command, _, _, _ in OLD} == {"check", "report"}


@pytest.mark.parametrize("form", ["separate", "equals", "alone"])
@pytest.mark.parametrize(("command", "old", "value", "rest"), OLD, ids=[f"{row[0]} {row[1]}" for row in OLD])
def test_an_old_spelling_is_a_usage_error_naming_the_new_one(capsys, tmp_path, command, old, value, rest, form):
    receipt = tmp_path / "r.json"
    given = {"separate": [old, value], "equals": [f"{old}={value}"], "alone": [old]}[form]
    status, out, err = run([command, *given, "--receipt", str(receipt), *rest], capsys)
    assert (status, out) == (2, "")
    assert err.startswith("usage: ")
    assert f"error: {old} was renamed {RENAMED[old]}" in err
    assert not receipt.exists()


@pytest.mark.parametrize("command", ["check", "report"])
def test_an_old_spelling_is_hidden_and_never_suggested(capsys, command):
    status, out, err = run([command, "--help"], capsys)
    assert status == 0
    for old in RENAMED:
        assert old not in out
    for new in RENAMED.values():
        assert new + " " in out
    # A typo of an old name is pointed at the new name's neighbours, never at the old name.
    status, out, err = run([command, "--sample-metri", "acc", PASS], capsys)
    assert status == 2 and "did you mean --sample-metric" not in err


@pytest.mark.parametrize("old", sorted(RENAMED))
@pytest.mark.parametrize("command", ["check", "report"])
def test_no_prefix_of_an_old_spelling_reaches_an_option(capsys, command, old):
    # Prefix matching is off (allow_abbrev=False): neither the old name's
    # prefixes nor the old name itself can resolve to a real option.
    for end in range(len(old) - 3, len(old)):
        status, out, err = run([command, old[:end], "1", PASS], capsys)
        assert status == 2 and err.startswith("usage: "), (old[:end], err)
        assert f"{old} was renamed" not in err


def test_report_metric_mean_is_the_old_statistic_and_says_so(capsys):
    status, out, err = run(["report", "--scheduled", "1", "--metric", "pass-rate", PASS], capsys)
    assert (status, out) == (2, "")
    assert err == (
        "scorecontract: error: missing-option: --metric needs --from HARNESS: --metric names the harness's "
        "metric; what the report decides on is --statistic pass-rate\n"
    )


def test_one_name_for_one_concept_in_both_commands():
    check, report = set(long_options("check")), set(long_options("report"))
    for option in ("--metric", "--select", "--max-bytes", "--format", "--junit-xml", "--receipt", "--from"):
        assert option in check and option in report, option
    assert "--statistic" in report and "--statistic" not in check
    assert choices("check", "--format") == choices("report", "--format") == choices("gate", "--format")


# -- check: markdown and JUnit XML ---------------------------------------------------


@pytest.mark.parametrize(
    ("threshold", "status", "verdict", "element"),
    [("0.8", 0, "PASS", None), ("0.95", 1, "FAIL", "failure")],
    ids=["pass", "fail"],
)
def test_check_writes_markdown_and_junit_xml(capsys, tmp_path, threshold, status, verdict, element):
    junit = tmp_path / "j.xml"
    got, out, err = run(
        ["check", "--threshold", threshold, "--format", "markdown", "--junit-xml", str(junit), PASS], capsys
    )
    assert (got, err) == (status, "")
    lines = out.splitlines()
    assert lines[0] == f"### scorecontract check: {verdict}"
    assert lines[2].startswith(f"**{verdict}** `") and lines[2].endswith(r"\(policy default\)")
    assert "sha256 `" in lines[4]
    suite = ElementTree.fromstring(junit.read_bytes())
    assert suite.get("tests") == "1" and suite.get("failures") == ("1" if verdict == "FAIL" else "0")
    (case,) = suite.iter("testcase")
    assert case.get("name") == PASS
    found = [child.tag for child in case if child.tag in ("failure", "error")]
    assert found == ([] if element is None else [element])
    properties = {p.get("name"): p.get("value") for p in suite.iter("property")}
    assert properties["verdict"] == verdict and len(properties["sha256"]) == 64


def test_check_junit_xml_of_missing_evidence_is_an_error_testcase(capsys, tmp_path):
    junit = tmp_path / "j.xml"
    status, out, err = run(["check", "--junit-xml", str(junit), str(tmp_path / "missing.json")], capsys)
    assert status == 3 and out.startswith("INVALID file-not-found")
    suite = ElementTree.fromstring(junit.read_bytes())
    (case,) = suite.iter("testcase")
    (error,) = case.iter("error")
    assert error.get("type") == "file-not-found"
    assert {p.get("name"): p.get("value") for p in suite.iter("property")}["sha256"] == "not read in full"


def test_check_markdown_escapes_a_hostile_path(capsys, tmp_path):
    path = tmp_path / "a|b*c.json"
    path.write_bytes(b'{"score": 0.9}')
    status, out, err = run(["check", "--format", "markdown", "--", str(path)], capsys)
    assert status == 0
    assert r"a\|b\*c\.json" in out and "a|b*c" not in out


def test_check_junit_xml_is_refused_when_taken_before_anything_is_printed(capsys, tmp_path):
    junit = tmp_path / "j.xml"
    junit.write_bytes(b"mine")
    status, out, err = run(["check", "--junit-xml", str(junit), PASS], capsys)
    assert (status, out) == (2, "")
    assert "output-exists" in err and junit.read_bytes() == b"mine"


def test_check_junit_xml_matches_the_receipt(capsys, tmp_path):
    junit, receipt = tmp_path / "j.xml", tmp_path / "r.json"
    status, _, _ = run(["check", "--junit-xml", str(junit), "--receipt", str(receipt), PASS], capsys)
    assert status == 0
    written = scorecontract.loads(receipt.read_bytes())
    properties = {p.get("name"): p.get("value") for p in ElementTree.fromstring(junit.read_bytes()).iter("property")}
    assert properties["sha256"] == written["evidence"]["sha256"]
    assert (properties["verdict"], properties["code"]) == (written["verdict"], written["code"])


# -- --from HARNESS --help -----------------------------------------------------------


def test_report_from_harness_help_beside_anything_else_is_refused(capsys):
    status, out, err = run(["report", "--from", "lm-eval", "--metric", "acc", "--help"], capsys)
    assert (status, out) == (2, "")
    assert "is obeyed only on its own" in err


# -- lm-eval's filter, on the command line -------------------------------------------


@pytest.mark.parametrize(
    ("metric", "status", "mean"),
    [("exact_match,strict-match", 1, "0.666667 (2.0 / 3)"), ("exact_match,flexible-extract", 0, "1 (3.0 / 3)")],
    ids=["strict-match", "flexible-extract"],
)
def test_report_from_lm_eval_gates_the_filter_its_metric_names(capsys, metric, status, mean):
    results = str(next(LM.glob("results_*.json")))
    samples = str(next(LM.glob("samples_gsm8k_*.jsonl")))
    argv = ["report", "--from", "lm-eval", "--metric", metric, "--results", results, "--threshold", "0.7"]
    got, out, err = run([*argv, samples], capsys)
    assert (got, err) == (status, "")
    assert f"mean score {mean}" in out
    assert "scheduled 3" in out
    # The same key check takes for the headline of the same results file.
    checked, out, _ = run(
        ["check", "--from", "lm-eval", "--task", "gsm8k", "--metric", metric, "--threshold", "0.7", results], capsys
    )
    assert checked == status
