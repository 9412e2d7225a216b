# SPDX-License-Identifier: MIT
"""action.yml runs as a runner runs it: its step, its inputs, its outputs.

The test reads action.yml with a parser for the small YAML subset the file
uses (block mappings, one block sequence of mappings, plain and quoted
scalars, comments), checks that every input reaches the step as an
``INPUT_*`` variable and every output reads the step's, then runs the step's
``run`` line with ``bash --noprofile --norc -eo pipefail``, as a runner runs
``shell: bash``, with ``${{ ... }}`` expressions substituted, the inputs in
the environment and ``GITHUB_OUTPUT`` and ``GITHUB_STEP_SUMMARY`` files.
"""

from __future__ import annotations

import json
import os
import re
import stat
import subprocess
import sys

import pytest

import scorecontract
from support import FIXTURES, ROOT

ACTION = ROOT / "action.yml"


# -- a parser for the YAML subset action.yml uses ------------------------------


def _scalar(text, where):
    text = text.strip()
    if text[:1] == '"':
        if not text.endswith('"') or len(text) < 2:
            raise ValueError(f"{where}: unterminated double-quoted scalar")
        return json.loads(text)  # the file's double-quoted scalars use JSON's escapes only
    if text[:1] == "'":
        if not text.endswith("'") or len(text) < 2:
            raise ValueError(f"{where}: unterminated single-quoted scalar")
        return text[1:-1].replace("''", "'")
    if text[:1] in "[{|>&*!%@`":
        raise ValueError(f"{where}: {text[:1]!r} is outside the subset")
    return text


def _lines(text):
    for number, raw in enumerate(text.splitlines(), 1):
        if "\t" in raw:
            raise ValueError(f"line {number}: a tab")
        stripped = raw.strip()
        if not stripped or stripped.startswith("#"):
            continue
        line = re.sub(r"\s+#\s.*$", "", raw.rstrip()) if not stripped.startswith(("'", '"')) else raw.rstrip()
        yield number, len(line) - len(line.lstrip(" ")), line.strip()


def parse_yaml(text):
    """Mappings, sequences of mappings and scalars, by indentation; anything else raises."""
    lines = list(_lines(text))
    value, end = _block(lines, 0, 0)
    if end != len(lines):
        raise ValueError(f"line {lines[end][0]}: unexpected indentation")
    return value


def _block(lines, start, indent):
    if lines[start][2].startswith("- "):
        return _sequence(lines, start, indent)
    return _mapping(lines, start, indent)


def _mapping(lines, start, indent, first=None):
    result = {}
    index = start
    while index < len(lines):
        number, column, content = lines[index]
        if first is not None:
            column, content, first = indent, first, None
        elif column < indent:
            break
        elif column > indent:
            raise ValueError(f"line {number}: unexpected indentation")
        key, colon, rest = content.partition(":")
        if not colon or not key or key != key.strip() or (rest and not rest.startswith(" ")):
            raise ValueError(f"line {number}: not a 'key: value' line")
        if key in result:
            raise ValueError(f"line {number}: duplicate key {key!r}")
        index += 1
        if rest.strip() == "|":
            # A literal block: the lines indented further, as they are.
            block = []
            while index < len(lines) and lines[index][1] > indent:
                block.append(lines[index])
                index += 1
            if not block:
                raise ValueError(f"line {number}: an empty literal block")
            margin = min(column for _, column, _ in block)
            result[key] = "".join(" " * (column - margin) + content + "\n" for _, column, content in block)
        elif rest.strip():
            result[key] = _scalar(rest, f"line {number}")
        elif index < len(lines) and lines[index][1] > indent:
            result[key], index = _block(lines, index, lines[index][1])
        elif index < len(lines) and lines[index][1] == indent and lines[index][2].startswith("- "):
            result[key], index = _sequence(lines, index, indent)
        else:
            result[key] = ""
    return result, index


def _sequence(lines, start, indent):
    items = []
    index = start
    while index < len(lines) and lines[index][1] == indent and lines[index][2].startswith("- "):
        number, _, content = lines[index]
        # "- key: value" opens a mapping whose keys sit two columns in.
        item, index = _mapping(lines, index, indent + 2, first=content[2:])
        items.append(item)
    return items, index


def test_the_parser_reads_the_subset_and_refuses_the_rest():
    parsed = parse_yaml(
        "a: 1\nb:\n  c: 'x'\n  d: \"y\\n\"\ne:\n  - f: g  # note\n    h: i\n  - f: |\n      k\n        l\n"
    )
    assert parsed == {"a": "1", "b": {"c": "x", "d": "y\n"}, "e": [{"f": "g", "h": "i"}, {"f": "k\n  l\n"}]}
    for bad in ("a: [1]", "a: >\n  x", "a: |\nb: 1", "a: 1\na: 2", "a:1", "a: 1\n   b: 2"):
        with pytest.raises(ValueError):
            parse_yaml(bad)


# -- the action's definition ---------------------------------------------------


@pytest.fixture(scope="module")
def action():
    return parse_yaml(ACTION.read_text(encoding="utf-8"))


def _step(action):
    steps = action["runs"]["steps"]
    assert action["runs"]["using"] == "composite" and len(steps) == 1
    return steps[0]


def _env_name(name):
    return "INPUT_" + name.upper().replace("-", "_")


def test_every_input_reaches_the_step_and_every_output_reads_it(action):
    step = _step(action)
    assert step["id"] == "gate" and step["shell"] == "bash"
    env = step["env"]
    assert env["PYTHONPATH"] == "${{ github.action_path }}/src"  # this checkout, nothing installed
    for name in action["inputs"]:
        assert env[_env_name(name)] == f"${{{{ inputs.{name} }}}}", name
    assert sorted(key for key in env if key.startswith("INPUT_")) == sorted(map(_env_name, action["inputs"]))
    assert set(action["outputs"]) == {"verdict", "receipt", "status"}
    for name, output in action["outputs"].items():
        assert output["value"] == f"${{{{ steps.gate.outputs.{name} }}}}"
        assert output["description"]


def test_the_step_runs_the_script_beside_it_on_the_runners_python(action):
    run = _step(action)["run"]
    assert run == 'python3 "$GITHUB_ACTION_PATH/action/run.py"'
    assert (ROOT / "action" / "run.py").is_file()
    # No input is interpolated into the shell text: only the env carries them.
    assert "inputs." not in run and "pip" not in ACTION.read_text(encoding="utf-8")


# -- running the step ----------------------------------------------------------


def _expand(text, context):
    def value(match):
        expression = match.group(1).strip()
        if expression not in context:
            raise AssertionError(f"unknown expression {expression!r}")
        return context[expression]

    return re.sub(r"\$\{\{(.*?)\}\}", value, text)


def run_action(tmp_path, action, inputs, temp_name="runner-temp"):
    """Run the action's step as a runner does; return (status, stdout, outputs, summary)."""
    step = _step(action)
    work = tmp_path / "workspace"
    work.mkdir()
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    python3 = bin_dir / "python3"
    flags = ("-" + "O" * sys.flags.optimize) if sys.flags.optimize else ""
    python3.write_text(f'#!/bin/sh\nexec "{sys.executable}" {flags} "$@"\n', encoding="utf-8")
    python3.chmod(python3.stat().st_mode | stat.S_IXUSR)
    runner_temp = tmp_path / temp_name
    runner_temp.mkdir()
    output, summary = tmp_path / "output.txt", tmp_path / "summary.md"
    context = {"github.action_path": str(ROOT)}
    for name, spec in action["inputs"].items():
        context[f"inputs.{name}"] = inputs.get(name, spec.get("default", ""))
    env = {
        "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
        "HOME": str(tmp_path),
        "GITHUB_ACTION_PATH": str(ROOT),
        "GITHUB_OUTPUT": str(output),
        "GITHUB_STEP_SUMMARY": str(summary),
        "RUNNER_TEMP": str(runner_temp),
    }
    env.update({name: _expand(value, context) for name, value in step["env"].items()})
    script = tmp_path / "step.sh"
    script.write_text(_expand(step["run"], context) + "\n", encoding="utf-8")
    result = subprocess.run(
        ["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)],
        capture_output=True,
        cwd=work,
        env=env,
        timeout=120,
    )
    return result.returncode, result.stdout.decode(), read_outputs(output), summary.read_text(encoding="utf-8")


def read_outputs(path):
    """Parse a GITHUB_OUTPUT file as the runner does: name=value or name<<DELIMITER."""
    outputs = {}
    lines = path.read_text(encoding="utf-8").split("\n")
    index = 0
    while index < len(lines) and lines[index]:
        line = lines[index]
        if "<<" in line:
            name, delimiter = line.split("<<", 1)
            end = lines.index(delimiter, index + 1)
            outputs[name] = "\n".join(lines[index + 1 : end])
            index = end + 1
        else:
            name, _, value = line.partition("=")
            outputs[name] = value
            index += 1
    return outputs


def test_a_gate_file_that_passes(tmp_path, action):
    gate_file = os.path.relpath(ROOT / "examples" / "release-gates.json", tmp_path / "workspace")
    status, out, outputs, summary = run_action(tmp_path, action, {"gate-file": gate_file})
    assert status == 0, out
    assert outputs["verdict"] == "PASS" and outputs["status"] == "0"
    receipt = scorecontract.loads(open(outputs["receipt"], "rb").read())
    assert receipt["kind"] == "gate" and [gate["name"] for gate in receipt["gates"]] == ["mmlu", "safety"]
    assert summary.startswith("### scorecontract gate: PASS\n") and "| mmlu | check | **PASS** |" in summary
    assert out.splitlines()[-1].startswith("::notice title=scorecontract gate PASS::PASS meets-threshold: all 2 gates")
    assert "::notice title=scorecontract gate mmlu%3A PASS,file=" in out


def test_a_single_check_that_fails(tmp_path, action):
    evidence = str(FIXTURES / "harnesses" / "lm-eval-results.json")  # absolute, as runner.temp paths are
    inputs = {"evidence": evidence, "from": "lm-eval", "task": "mmlu", "metric": "acc,none", "threshold": "0.7"}
    status, out, outputs, summary = run_action(tmp_path, action, inputs)
    assert status == 1 and (outputs["verdict"], outputs["status"]) == ("FAIL", "1")
    assert "**FAIL** `below-threshold`" in summary and "score 0\\.6121 \\< threshold 0\\.7" in summary
    assert out.splitlines()[-1].startswith("::error title=scorecontract gate FAIL::FAIL below-threshold:")
    receipt = json.loads(open(outputs["receipt"], encoding="utf-8").read())
    assert receipt["gates"][0]["receipt"]["score"] == 0.6121


def test_invalid_evidence_is_invalid_and_still_leaves_a_receipt(tmp_path, action):
    status, out, outputs, summary = run_action(tmp_path, action, {"evidence": str(FIXTURES / "nan.json")})
    assert status == 3 and (outputs["verdict"], outputs["status"]) == ("INVALID", "3")
    assert "**INVALID** `non-standard-constant`" in summary
    assert "::error title=scorecontract gate check%3A INVALID" in out
    assert json.loads(open(outputs["receipt"], encoding="utf-8").read())["verdict"] == "INVALID"


@pytest.mark.parametrize(
    "inputs",
    [{}, {"gate-file": "g.json", "evidence": "e.json"}, {"evidence": "e.json", "threshold": "nan"}],
    ids=["neither", "both", "bad-threshold"],
)
def test_a_configuration_error_has_no_verdict(tmp_path, action, inputs):
    status, out, outputs, summary = run_action(tmp_path, action, inputs)
    assert status == 2
    assert outputs == {"verdict": "", "receipt": "", "status": "2"}
    assert "no verdict" in summary and "Nothing is released" in summary
    assert "::notice" not in out


def test_outputs_survive_a_newline_in_their_value(tmp_path, action):
    # The receipt's path holds whatever RUNNER_TEMP holds; a newline in it
    # must not end the output and forge another ("verdict=PASS").
    status, _, outputs, _ = run_action(
        tmp_path, action, {"evidence": str(FIXTURES / "fail-0.7.json")}, temp_name="temp\nverdict=PASS"
    )
    assert status == 1 and outputs["verdict"] == "FAIL"
    assert "\nverdict=PASS" in outputs["receipt"] and os.path.isfile(outputs["receipt"])


# -- the workflow example --------------------------------------------------------

WORKFLOW = ROOT / "examples" / "github-workflow.yml"


@pytest.fixture(scope="module")
def workflow():
    return parse_yaml(WORKFLOW.read_text(encoding="utf-8"))


def _gate_step(workflow):
    steps = workflow["jobs"]["gate"]["steps"]
    return next(step for step in steps if step.get("id") == "gate")


def test_the_workflow_gates_with_the_action_and_installs_nothing(workflow, action):
    step = _gate_step(workflow)
    # A vendored copy of this repository; the comment names the tag form.
    assert step["uses"] == "./vendor/scorecontract"
    assert re.search(r"^#\s+uses: <owner>/scorecontract@v\d+\.\d+\.\d+$", WORKFLOW.read_text(), re.MULTILINE)
    assert set(step["with"]) <= set(action["inputs"])
    text = WORKFLOW.read_text(encoding="utf-8")
    assert "pip install" not in text and "setup-python" not in text


def test_the_workflow_releases_only_after_the_gate_and_always_keeps_the_record(workflow):
    assert workflow["jobs"]["release"]["needs"] == "gate"
    steps = workflow["jobs"]["gate"]["steps"]
    upload = next(step for step in steps if step.get("uses", "").startswith("actions/upload-artifact"))
    assert upload["if"] == "always()"
    assert "${{ steps.gate.outputs.receipt }}" in upload["with"]["path"]
    assert "continue-on-error" not in WORKFLOW.read_text(encoding="utf-8")  # would let a failed gate through


@pytest.mark.parametrize(
    "fixture, status, verdict",
    [("lm-eval-results.json", 0, "PASS"), ("lm-eval-limit.json", 3, "INVALID")],
)
def test_the_workflow_gate_step_runs(tmp_path, workflow, action, fixture, status, verdict):
    inputs = dict(_gate_step(workflow)["with"])
    inputs["evidence"] = str(FIXTURES / "harnesses" / fixture)  # what the harness step wrote
    if fixture == "lm-eval-limit.json":
        inputs["task"] = "negotiationtom_belief"
    got, out, outputs, summary = run_action(tmp_path, action, inputs)
    assert (got, outputs["verdict"]) == (status, verdict), out
    assert summary.startswith(f"### scorecontract gate: {verdict}")
