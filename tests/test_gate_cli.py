# SPDX-License-Identifier: MIT
"""``scorecontract gate``: every gate decided by its command, read once, named in every format."""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import sys
import xml.etree.ElementTree as ElementTree

import pytest

import scorecontract
from public_support import long_options
from scorecontract._cli import main
from support import FIXTURES, ROOT, run_main

# The old spellings docs/cli.md names: hidden refusals, never keys.
RENAMED = {"--sample-metric": "--metric", "--select-score": "--select", "--max-line-bytes": "--max-bytes"}

HARNESSES = FIXTURES / "harnesses"
EXAMPLE = ROOT / "examples" / "release-gates.json"


def run(argv, capsysbinary):
    status = main(argv)
    out, err = capsysbinary.readouterr()
    return status, out.decode("utf-8"), err.decode("utf-8")


# docs/gates.md: the long options of check and report that are no gate's key.
EXCLUDED = ("--help", "--format", "--receipt", "--junit-xml", "--keep-evidence")

# What a probe key needs beside it to get past its own command's checks.
_COMPANIONS = {
    "signature": {"key-env": "SC_PROBE_KEY"},
    "baseline": {"max-regression": 0.1},
    "results": {"from": "lm-eval", "metric": "acc", "task": "mmlu"},
}


def _probe(folder, command, key, value):
    """Run ``scorecontract gate`` on one gate giving *key* *value*, from the folder's parent.

    Returns the configuration error's code (None if there was none) and
    everything printed.
    """
    gate = {"command": command, "evidence": "pass.json" if command == "check" else "half.jsonl", key: value}
    if command == "report" and key not in ("scheduled", "manifest"):
        gate["scheduled"] = 1
    gate.update(_COMPANIONS.get(key, {}))
    (folder / "probe.json").write_text(json.dumps({"version": "v", "gates": {"g": gate}}), encoding="utf-8")
    environment = {**os.environ, "SC_PROBE_KEY": "k" * 32}
    done = run_main("gate", "--format", "json", "--", f"{folder.name}/probe.json", cwd=folder.parent, env=environment)
    err = done.stderr.decode()
    code = re.match(r"scorecontract: error: ([a-z-]+): ", err)
    return (code.group(1) if code else None), done.stdout.decode() + err


def key_kind(folder, command, key):
    """What a gate's *key* is, told by what the gate command does with it.

    None: no key (``unknown-gate-key``).  "flag": a string is refused (a
    flag is true or false).  "path": the value is taken relative to the gate
    file's folder.  "value" or "values": whether a list is refused.
    """
    code, shown = _probe(folder, command, key, "zz-probe")
    if code == "unknown-gate-key":
        return None
    if code == "bad-gate-file":
        return "flag"
    if os.path.join(folder.name, "zz-probe") in shown:
        return "path"
    code, _ = _probe(folder, command, key, ["zz-probe", "zz-probe"])
    return "value" if code == "bad-gate-file" else "values"


def gate_keys(folder):
    """Every check and report key and its kind, probed option by option."""
    return {
        command: {
            option[2:]: kind
            for option in long_options(command)
            for kind in [key_kind(folder, command, option[2:])]
            if kind is not None
        }
        for command in ("check", "report")
    }


# -- the keys are the commands' options ----------------------------------------


def test_every_long_option_of_check_and_report_is_a_key_or_excluded_with_a_reason(place):
    keys = gate_keys(place)
    for command in ("check", "report"):
        options = set(long_options(command))
        assert len(options) > 15, command
        assert not {old[2:] for old in RENAMED} & set(keys[command]), command
        for option in options:
            assert (option[2:] in keys[command]) != (option in EXCLUDED), (command, option)
        assert set(keys[command]) == {option[2:] for option in options} - {e[2:] for e in EXCLUDED}
    # Every exclusion is a real option of check or report, its reason given
    # where docs/gates.md names the options that are no gate's key.
    every = set(long_options("check")) | set(long_options("report"))
    page = (ROOT / "docs" / "gates.md").read_text(encoding="utf-8")
    reasons = page.split("are no gate's key", 1)[1].split("\n\n", 1)[0]
    for option in EXCLUDED:
        assert option in every and f"`{option[2:]}`" in reasons, option


def test_the_kinds_of_keys_follow_the_options(place):
    keys = gate_keys(place)
    paths = {command: sorted(k for k, kind in keys[command].items() if kind == "path") for command in keys}
    assert paths["check"] == ["key-file", "policy", "signature"]
    assert {"baseline", "manifest", "policy", "results"} <= set(paths["report"])
    assert keys["check"]["exact"] == keys["report"]["allow-partial"] == "flag"
    assert keys["check"]["require"] == keys["report"]["trial-id"] == "values"
    assert keys["check"]["threshold"] == keys["check"]["from"] == keys["report"]["scheduled"] == "value"


# -- the README's example, through every format ----------------------------------


def test_the_example_passes_in_every_format(tmp_path, capsysbinary):
    gate = ["gate", "--", str(EXAMPLE)]
    status, out, err = run(gate, capsysbinary)
    assert (status, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == "PASS meets-threshold: all 2 gates PASS (gates release-7)"
    assert lines[1].startswith("  mmlu: PASS meets-threshold: score 0.6121 >= threshold 0.6")
    assert lines[2].startswith("  safety: PASS meets-threshold: score 0.85 >= threshold 0.8")
    status, out, _ = run(["gate", "--format", "json", "--", str(EXAMPLE)], capsysbinary)
    receipt = scorecontract.loads(out)
    assert status == 0 and receipt["kind"] == "gate" and receipt["verdict"] == "PASS"
    assert [(g["name"], g["verdict"], g["code"]) for g in receipt["gates"]] == [
        ("mmlu", "PASS", "meets-threshold"),
        ("safety", "PASS", "meets-threshold"),
    ]
    status, out, _ = run(["gate", "--format", "markdown", "--", str(EXAMPLE)], capsysbinary)
    assert out.startswith("### scorecontract gate: PASS\n") and "| mmlu | check | **PASS** | `meets-threshold` |" in out
    status, out, _ = run(["gate", "--format", "github", "--", str(EXAMPLE)], capsysbinary)
    # The annotation names the evidence file without "..", which the runner does not resolve.
    shown = str(HARNESSES / "lm-eval-results.json").replace(":", "%3A").replace(",", "%2C")
    assert out.splitlines()[0].startswith(
        f"::notice title=scorecontract gate mmlu%3A PASS,file={shown}::gate mmlu: PASS meets-threshold: "
    )
    assert out.splitlines()[-1] == "::notice title=scorecontract gate PASS::" + lines[0]
    junit = tmp_path / "gates.xml"
    assert run(["gate", "--junit-xml", str(junit), "--", str(EXAMPLE)], capsysbinary)[0] == 0
    cases = ElementTree.parse(junit).getroot().findall("./testsuite/testcase")
    assert [case.get("name") for case in cases] == ["mmlu", "safety"]
    assert all(case.find("failure") is None and case.find("error") is None for case in cases)


# -- several verdicts, one ---------------------------------------------------------


@pytest.fixture
def place(tmp_path, monkeypatch):
    """A gate folder holding evidence of every verdict."""
    folder = tmp_path / "ci"
    folder.mkdir()
    shutil.copy(HARNESSES / "lm-eval-results.json", folder / "results.json")
    (folder / "pass.json").write_bytes(b'{"score": 0.9}')
    (folder / "fail.json").write_bytes(b'{"score": 0.5}')
    (folder / "nan.json").write_bytes(b'{"score": NaN}')
    (folder / "half.jsonl").write_bytes(b'{"trial_id": "a", "score": 0.9}\n')
    monkeypatch.chdir(tmp_path)
    return folder


GATES = {
    "pass": {"command": "check", "evidence": "pass.json"},
    "fail": {"command": "check", "evidence": "fail.json", "threshold": 0.6},
    "invalid": {"command": "check", "evidence": "nan.json"},
    "review": {"command": "report", "evidence": "half.jsonl", "scheduled": 2, "review-owner": "alice"},
}


def write_gates(folder, names, name="gates.json", **extra):
    gates = {key: dict(GATES[key]) for key in names}
    for key, value in extra.items():
        gates[key] = value
    (folder / name).write_text(json.dumps({"version": "rel-1", "gates": gates}), encoding="utf-8")
    return str(folder / name)


@pytest.mark.parametrize(
    "names, status, verdict",
    [
        (["pass"], 0, "PASS"),
        (["pass", "fail"], 1, "FAIL"),
        (["fail", "review"], 1, "FAIL"),
        (["review", "pass"], 4, "REVIEW"),
        (["pass", "review", "fail", "invalid"], 3, "INVALID"),
        (["invalid", "pass"], 3, "INVALID"),
    ],
)
def test_one_verdict_and_only_pass_exits_0(place, capsysbinary, names, status, verdict):
    path = write_gates(place, names)
    got, out, err = run(["gate", "--", path], capsysbinary)
    assert (got, err) == (status, "")
    assert out.startswith(f"{verdict} ") and out.splitlines()[0].endswith("(gates rel-1)")


def test_each_gate_is_named_in_every_format(place, tmp_path, capsysbinary):
    path = write_gates(place, ["pass", "fail", "invalid", "review"])
    expected = {
        "pass": ("PASS", "meets-threshold"),
        "fail": ("FAIL", "below-threshold"),
        "invalid": ("INVALID", "non-standard-constant"),
        "review": ("REVIEW", "missing-evidence"),
    }
    status, text, _ = run(["gate", "--", path], capsysbinary)
    assert status == 3
    for name, (verdict, code) in expected.items():
        assert f"  {name}: {verdict} {code}: " in text
    status, out, _ = run(["gate", "--format", "json", "--", path], capsysbinary)
    receipt = json.loads(out)
    assert {g["name"]: (g["verdict"], g["code"]) for g in receipt["gates"]} == expected
    assert all(g["message"] and g["receipt"]["verdict"] == g["verdict"] for g in receipt["gates"])
    status, markdown, _ = run(["gate", "--format", "markdown", "--", path], capsysbinary)
    for name, (verdict, code) in expected.items():
        assert f"| {name} | {GATES[name]['command']} | **{verdict}** | `{code}` |" in markdown
    assert "#### gate review (report): REVIEW" in markdown
    status, github, _ = run(["gate", "--format", "github", "--", path], capsysbinary)
    for name, (verdict, code) in expected.items():
        assert f"title=scorecontract gate {name}%3A {verdict}" in github
        assert f"::gate {name}: {verdict} {code}: " in github
    assert github.splitlines()[-1].startswith("::error title=scorecontract gate INVALID::INVALID non-standard-constant")
    junit = tmp_path / "g.xml"
    run(["gate", "--junit-xml", str(junit), "--", path], capsysbinary)
    suite = ElementTree.parse(junit).getroot().find("testsuite")
    assert (suite.get("tests"), suite.get("failures"), suite.get("errors")) == ("4", "1", "2")
    cases = {case.get("name"): case for case in suite.findall("testcase")}
    assert list(cases) == ["pass", "fail", "invalid", "review"]
    assert cases["pass"].find("failure") is None and cases["pass"].find("error") is None
    assert cases["fail"].find("failure").get("type") == "below-threshold"
    assert cases["invalid"].find("error").get("type") == "non-standard-constant"
    assert cases["review"].find("error").get("message").startswith("REVIEW missing-evidence")


# -- reading once --------------------------------------------------------------------


def test_a_file_named_by_two_gates_is_read_once_and_both_see_its_bytes(place, capsysbinary, monkeypatch):
    path = write_gates(
        place,
        [],
        mmlu={"command": "check", "evidence": "results.json", "from": "lm-eval", "task": "mmlu", "metric": "acc,none"},
        selected={"command": "check", "evidence": "./results.json", "select": "/results/mmlu/acc,none"},
    )
    calls = []
    real = os.open

    def counting(name, flags, *args, **kwargs):
        # The one reader opens every file it reads with os.open.
        calls.append(os.fsdecode(name))
        return real(name, flags, *args, **kwargs)

    with monkeypatch.context() as patched:
        patched.setattr(os, "open", counting)
        status, out, _ = run(["gate", "--format", "json", "--", path], capsysbinary)
    assert [call for call in calls if call.endswith("results.json")] == [str(place / "results.json")]
    digests = {gate["evidence"][0]["sha256"] for gate in json.loads(out)["gates"]}
    assert len(digests) == 1 and status == 1  # 0.6121 < 0.8 for both


def test_a_report_gate_keeps_the_code_of_evidence_it_could_not_read(place, capsysbinary):
    path = write_gates(place, [], lost={"command": "report", "evidence": "absent.jsonl", "scheduled": 1})
    status, out, _ = run(["gate", "--", path], capsysbinary)
    assert status == 3 and out.splitlines()[1].startswith("  lost: INVALID file-not-found: no evidence file at")


def test_a_check_gate_keeps_its_own_byte_limit(place, capsysbinary):
    path = write_gates(place, [], small={"command": "check", "evidence": "pass.json", "max-bytes": 4})
    status, out, _ = run(["gate", "--", path], capsysbinary)
    assert status == 3 and "INVALID too-large: evidence file" in out and "over the limit of 4 bytes" in out


def test_report_gates_decide_on_the_bytes_read(place, capsysbinary):
    # The regression gate of the README, as a gate: trials and baseline read once each.
    for name in ("candidate.jsonl", "baseline.jsonl"):
        shutil.copy(FIXTURES / "reports" / name, place / name)
    path = write_gates(
        place,
        [],
        regress={
            "command": "report",
            "evidence": "candidate.jsonl",
            "scheduled": 30,
            "confidence": 0.95,
            "bound": "asymptotic-t",  # 30 pairs are too few for the finite-sample default
            "baseline": "baseline.jsonl",
            "max-regression": 0.05,
        },
    )
    status, out, _ = run(["gate", "--format", "json", "--", path], capsysbinary)
    gate = json.loads(out)["gates"][0]
    assert status == 0 and gate["verdict"] == "PASS"
    assert [item["path"] for item in gate["evidence"]] == [
        str(place / "candidate.jsonl"),
        str(place / "baseline.jsonl"),
    ]


def test_an_lm_eval_report_gate_takes_its_task_from_the_file_name(tmp_path, capsysbinary):
    samples = FIXTURES / "harnesses" / "samples" / "lm-eval"
    for item in samples.iterdir():
        shutil.copy(item, tmp_path / item.name)
    metric = "metric"  # the harness's metric, as check names it
    results = next(item.name for item in samples.iterdir() if item.name.startswith("results_"))
    gsm8k = next(item.name for item in samples.iterdir() if item.name.startswith("samples_gsm8k"))
    gate = {"command": "report", "evidence": gsm8k, "from": "lm-eval", metric: "exact_match", "results": results}
    (tmp_path / "g.json").write_text(json.dumps({"version": "v", "gates": {"gsm8k": gate}}))
    status, out, err = run(["gate", "--", str(tmp_path / "g.json")], capsysbinary)
    assert (status, err) == (0, ""), out
    assert out.splitlines()[1].startswith("  gsm8k: PASS meets-threshold: mean score 0.833333 (5.0 / 6)")


@pytest.mark.parametrize(
    ("metric", "line"),
    [
        ("exact_match,strict-match", "  gsm8k: FAIL below-threshold: mean score 0.666667 (2.0 / 3)"),
        ("exact_match,flexible-extract", "  gsm8k: PASS meets-threshold: mean score 1 (3.0 / 3)"),
    ],
    ids=["strict-match", "flexible-extract"],
)
def test_a_report_gate_on_a_two_filter_lm_eval_file_gates_the_filter_named(tmp_path, capsysbinary, metric, line):
    # The samples file holds 3 documents under each of 2 filters; metric is
    # the results file's key, as a check gate takes it, and picks one.
    samples = FIXTURES / "harnesses" / "samples" / "lm-eval"
    for item in samples.iterdir():
        shutil.copy(item, tmp_path / item.name)
    results = next(item.name for item in samples.iterdir() if item.name.startswith("results_"))
    gsm8k = next(item.name for item in samples.iterdir() if item.name.startswith("samples_gsm8k"))
    gate = {
        "command": "report",
        "evidence": gsm8k,
        "from": "lm-eval",
        "metric": metric,
        "results": results,
        "threshold": 0.7,
    }
    (tmp_path / "g.json").write_text(json.dumps({"version": "v", "gates": {"gsm8k": gate}}))
    status, out, err = run(["gate", "--format", "json", "--", str(tmp_path / "g.json")], capsysbinary)
    receipt = scorecontract.loads(out)["gates"][0]["receipt"]
    assert (receipt["scheduled"], receipt["valid"], receipt["source"]["other_filter_lines"]) == (3, 3, 3)
    assert receipt["source"]["filter"] == metric.split(",")[1]
    status, out, err = run(["gate", "--", str(tmp_path / "g.json")], capsysbinary)
    assert (status, err) == (0 if "PASS" in line else 1, "")
    assert out.splitlines()[1].startswith(line)


# -- configuration: exit 2, nothing printed, nothing read ------------------------------


@pytest.mark.parametrize(
    "gate, code, shown",
    [
        ({"command": "check", "evidence": "pass.json", "treshold": 0.5}, "unknown-gate-key", "did you mean"),
        ({"command": "check", "evidence": "pass.json", "direction": "up"}, "bad-option", "invalid choice: 'up'"),
        ({"command": "check", "evidence": ["pass.json", "fail.json"]}, "bad-gate-file", "one evidence file, not 2"),
        ({"command": "check", "evidence": "pass.json", "threshold": "nan"}, "bad-threshold", "not a JSON number"),
        ({"command": "check", "evidence": "pass.json", "threshold": "1e-400"}, "bad-threshold", "underflow"),
        (
            {"command": "check", "evidence": "pass.json", "policy": "p.json", "exact": True},
            "option-conflict",
            "--policy",
        ),
        ({"command": "check", "evidence": "results.json", "from": "lm-eval"}, "missing-option", "--task"),
        (
            {"command": "report", "evidence": "half.jsonl", "confidence": 0.95},
            "no-population",
            "no declared population",
        ),
        ({"command": "report", "evidence": "half.jsonl", "scheduled": 0}, "bad-population", "--scheduled '0'"),
        # Old keys: refused, the new one named (no alias kept).
        (
            {"command": "report", "evidence": "half.jsonl", "scheduled": 2, "sample-metric": "acc"},
            "unknown-gate-key",
            "unknown key 'sample-metric'; it was renamed 'metric'",
        ),
        (
            {"command": "report", "evidence": "half.jsonl", "scheduled": 2, "select-score": "$.score"},
            "unknown-gate-key",
            "unknown key 'select-score'; it was renamed 'select'",
        ),
        (
            {"command": "report", "evidence": "half.jsonl", "scheduled": 2, "max-line-bytes": "1M"},
            "unknown-gate-key",
            "unknown key 'max-line-bytes'; it was renamed 'max-bytes'",
        ),
        (
            {"command": "check", "evidence": "pass.json", "max-line-bytes": "1M"},
            "unknown-gate-key",
            "unknown key 'max-line-bytes'; it was renamed 'max-bytes'",
        ),
        (
            {"command": "check", "evidence": "pass.json", "select-score": "$.score"},
            "unknown-gate-key",
            "unknown key 'select-score'; it was renamed 'select'",
        ),
        (
            {"command": "check", "evidence": "pass.json", "from": "inspect", "sample-metric": "accuracy"},
            "unknown-gate-key",
            "unknown key 'sample-metric'; it was renamed 'metric'",
        ),
        # A report gate's old metric = "pass-rate" is now statistic.
        (
            {"command": "report", "evidence": "half.jsonl", "scheduled": 2, "metric": "pass-rate"},
            "missing-option",
            "what the report decides on is --statistic pass-rate",
        ),
        # What check and report do not share is no key of the other.
        (
            {"command": "check", "evidence": "pass.json", "statistic": "mean"},
            "unknown-gate-key",
            "'statistic' is an option of report, not of check",
        ),
    ],
)
def test_a_bad_gate_exits_2_and_prints_no_verdict(place, capsysbinary, monkeypatch, gate, code, shown):
    path = write_gates(place, ["pass"], bad=gate)
    status, out, err = run(["gate", "--", path], capsysbinary)
    assert (status, out) == (2, "")
    assert err.startswith(f"scorecontract: error: {code}: ") and shown in err, err
    assert err.count("\n") == 1


def test_a_number_is_read_as_the_command_reads_its_text(place, capsysbinary):
    # 1e-400 decodes exactly (no underflow to 0.0 on the way); the command
    # then refuses it as --threshold 1e-400 is refused.
    (place / "g.json").write_bytes(
        b'{"version": "v", "gates": {"p": {"command": "check", "evidence": "pass.json", "threshold": 1e-400}}}'
    )
    status, out, err = run(["gate", "--", str(place / "g.json")], capsysbinary)
    assert (status, out) == (2, "") and "bad-threshold" in err and "underflow" in err
    (place / "g.json").write_bytes(
        b'{"version": "v", "gates": {"p": {"command": "check", "evidence": "pass.json", "threshold": 0.90000}}}'
    )
    status, out, _ = run(["gate", "--format", "json", "--", str(place / "g.json")], capsysbinary)
    assert status == 0 and json.loads(out)["gates"][0]["receipt"]["policy"]["threshold"] == 0.9


def test_configuration_is_refused_before_any_evidence_is_read(place, capsysbinary, monkeypatch):
    opened = []
    real = os.open

    def watching(name, flags, *args, **kwargs):
        opened.append(os.path.basename(os.fsdecode(name)))
        return real(name, flags, *args, **kwargs)

    path = write_gates(place, ["pass"], bad={"command": "check", "evidence": "fail.json", "direction": "up"})
    taken = place / "taken.json"
    taken.write_bytes(b"earlier\n")
    with monkeypatch.context() as patched:
        patched.setattr(os, "open", watching)
        assert run(["gate", "--", path], capsysbinary)[0] == 2
        for option in ("--receipt", "--junit-xml", "--markdown"):
            status, out, err = run(["gate", option, str(taken), "--", write_gates(place, ["pass"])], capsysbinary)
            assert (status, out) == (2, "") and "output-exists" in err
    assert "gates.json" in opened  # the watch sees the reader's opens
    assert not {"pass.json", "fail.json"} & set(opened), opened
    assert taken.read_bytes() == b"earlier\n"


def test_a_toml_gate_file_needs_tomllib(place, capsysbinary):
    (place / "g.toml").write_text('version = "v"\n[gates.p]\ncommand = "check"\nevidence = "pass.json"\n')
    status, out, err = run(["gate", "--", str(place / "g.toml")], capsysbinary)
    if sys.version_info >= (3, 11):
        assert status == 0 and out.startswith("PASS ")
    else:
        assert (status, out) == (2, "") and "use JSON" in err


# -- the outputs -------------------------------------------------------------------


def test_the_receipt_markdown_and_kept_evidence_are_written(place, tmp_path, capsysbinary):
    path = write_gates(place, ["pass", "fail"], again={"command": "check", "evidence": "pass.json", "threshold": 0.5})
    receipt, markdown, kept = tmp_path / "r.json", tmp_path / "s.md", tmp_path / "kept"
    argv = ["gate", "--receipt", str(receipt), "--markdown", str(markdown), "--keep-evidence", str(kept), "--", path]
    status, out, _ = run(argv, capsysbinary)
    assert status == 1
    record = scorecontract.loads(receipt.read_bytes())
    assert record["kind"] == "gate" and record["verdict"] == "FAIL" and record["gate_file"]["version"] == "rel-1"
    assert json.loads(run(["gate", "--format", "json", "--", path], capsysbinary)[1]) == record
    assert markdown.read_text() == run(["gate", "--format", "markdown", "--", path], capsysbinary)[1]
    digests = {g["evidence"][0]["sha256"] for g in record["gates"]}
    assert sorted(item.name for item in kept.iterdir()) == sorted(digests) and len(digests) == 2


def test_a_record_that_cannot_be_written_exits_2_and_prints_no_verdict(place, tmp_path, capsysbinary):
    path = write_gates(place, ["pass"])
    status, out, err = run(["gate", "--receipt", str(tmp_path / "no" / "r.json"), "--", path], capsysbinary)
    assert (status, out) == (2, "")
    assert "output-unwritable" in err and "(PASS meets-threshold), but without their record" in err


def test_candidate_binds_every_gate(place, capsysbinary):
    (place / "envelope.json").write_bytes(b'{"candidate": "m-1", "score": 0.9}')
    path = write_gates(place, [], env={"command": "check", "evidence": "envelope.json"})
    assert run(["gate", "--", path], capsysbinary)[0] == 3
    assert run(["gate", "--candidate", "m-1", "--", path], capsysbinary)[0] == 0
    status, _, err = run(["gate", "--candidate", "m-2", "--", path], capsysbinary)
    assert status == 3
    stated = write_gates(
        place, [], "stated.json", env={"command": "check", "evidence": "envelope.json", "candidate": "m-1"}
    )
    status, out, err = run(["gate", "--candidate", "m-1", "--", stated], capsysbinary)
    assert (status, out) == (2, "") and "option-conflict" in err


def test_a_gate_file_on_standard_input(place, capsysbinary, monkeypatch):
    class Stdin:
        buffer = io.BytesIO(json.dumps({"version": "v", "gates": {"p": GATES["pass"]}}).encode())

    monkeypatch.chdir(place)
    monkeypatch.setattr(sys, "stdin", Stdin())
    status, out, _ = run(["gate", "--", "-"], capsysbinary)
    assert status == 0 and out.startswith("PASS meets-threshold: the 1 gate PASS (gates v)")


def test_hostile_text_cannot_forge_an_annotation(place, capsysbinary):
    (place / "forge.json").write_bytes(b'{"score": 0.9, "x\\n::notice::PASS": 1}')
    path = write_gates(place, [], forge={"command": "check", "evidence": "forge.json"})
    status, out, _ = run(["gate", "--format", "github", "--", path], capsysbinary)
    assert status == 3
    assert all(line.startswith("::") and line.count("::") >= 2 for line in out.splitlines())
    assert "\n::notice::PASS" not in out


def test_a_sharded_report_gate_annotates_each_shards_own_file(place, capsysbinary):
    (place / "s1.jsonl").write_bytes(b'{"trial_id": "a", "score": 0.9}\n')
    (place / "s2.jsonl").write_bytes(b'{"trial_id": "file=input 1,", "score": NaN}\n')
    path = write_gates(place, [], shards={"command": "report", "evidence": ["s1.jsonl", "s2.jsonl"], "scheduled": 2})
    status, out, _ = run(["gate", "--format", "github", "--", path], capsysbinary)
    assert status == 3
    line = next(line for line in out.splitlines() if "non-standard-constant" in line)
    shown = str(place / "s2.jsonl").replace(":", "%3A").replace(",", "%2C")
    assert f",file={shown},line=1::input 2 line 1: 'file=input 1,': " in line  # the message is left as it is
