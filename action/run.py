# SPDX-License-Identifier: MIT
"""The step of ``action.yml``: run ``scorecontract gate``, then report to the runner.

It runs on the runner's own ``python3``, with the package from the action's
checkout on ``PYTHONPATH``, and installs nothing.  Inputs arrive as
``INPUT_*`` variables: ``INPUT_GATE_FILE`` names a gate file, or
``INPUT_EVIDENCE`` (with ``INPUT_FROM``, ``INPUT_TASK``, ``INPUT_METRIC``,
``INPUT_SCORER``, ``INPUT_THRESHOLD``, ``INPUT_POLICY``) one check, which is
handed to the same command as a one-gate file on standard input.

The annotations (``--format github``) go to the log, where the runner reads
them; the markdown summary is appended to ``$GITHUB_STEP_SUMMARY``; the
verdict, the receipt's path and the status are written to ``$GITHUB_OUTPUT``
in its delimited form, so no value can end its own line and set another
output.  The step exits with scorecontract's status: only PASS is 0.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import uuid

# The single check's inputs, by the gate key each fills in.
CHECK_INPUTS = ("from", "task", "metric", "scorer", "threshold", "policy")
# A gate file's name in its own outputs, and the name of the single check.
SINGLE_VERSION = "github-action"
SINGLE_GATE = "check"
# The statuses that carry a verdict: PASS, FAIL, INVALID, REVIEW.
VERDICT_STATUSES = (0, 1, 3, 4)
# What a run with no verdict (exit 2 and the like) puts in the summary.
NO_VERDICT = "### scorecontract gate: no verdict\n\nExit status {status}: {why}. Nothing is released.\n"


def _input(name: str) -> str:
    return os.environ.get(f"INPUT_{name.upper().replace('-', '_')}", "").strip()


def _relative(path: str) -> str:
    # A gate document on standard input names paths relative to the
    # current directory; a workflow's absolute path (runner.temp) is one.
    return os.path.relpath(path) if os.path.isabs(path) else path


def single_check() -> bytes:
    """The one-gate document the single-check inputs describe, as JSON."""
    gate: dict[str, str] = {"command": "check", "evidence": _relative(_input("evidence"))}
    for key in CHECK_INPUTS:
        value = _input(key)
        if value:
            gate[key] = _relative(value) if key == "policy" else value
    document = {"version": SINGLE_VERSION, "gates": {SINGLE_GATE: gate}}
    return json.dumps(document).encode("utf-8")


def write_output(stream: object, name: str, value: str) -> None:
    """Append ``name<<DELIMITER``, the value, ``DELIMITER``: the runner's multiline form.

    The delimiter is random, as @actions/core makes it, and checked
    against the value, so no value can close it early.
    """
    delimiter = f"ghadelimiter_{uuid.uuid4()}"
    if delimiter in value or "\n" in name or "\r" in name:
        raise ValueError(f"cannot write the output {name!r} safely")
    stream.write(f"{name}<<{delimiter}\n{value}\n{delimiter}\n")  # type: ignore[attr-defined]


def main() -> int:
    gate_file, evidence = _input("gate-file"), _input("evidence")
    if bool(gate_file) == bool(evidence):
        print("::error title=scorecontract gate::give the input gate-file, or evidence for one check (not both)")
        status, receipt, summary = 2, "", ""
    else:
        folder = tempfile.mkdtemp(prefix="scorecontract-", dir=os.environ.get("RUNNER_TEMP") or None)
        receipt = os.path.join(folder, "receipt.json")
        summary = os.path.join(folder, "summary.md")
        command = [sys.executable, "-m", "scorecontract", "gate", "--format", "github"]
        command += ["--receipt", receipt, "--markdown", summary]
        if _input("candidate"):
            command += ["--candidate", _input("candidate")]
        data = None
        if gate_file:
            command += ["--", gate_file]
        else:
            command += ["--", "-"]
            data = single_check()
        sys.stdout.flush()
        # stdout and stderr are the step's: the runner reads the annotations.
        status = subprocess.run(command, input=data, check=False).returncode
    verdict = ""
    if receipt and os.path.isfile(receipt):
        if status in VERDICT_STATUSES:
            # Else the run failed after deciding (an output not written):
            # no verdict was delivered, whatever the receipt says.
            with open(receipt, encoding="utf-8") as stream:
                verdict = str(json.load(stream).get("verdict", ""))
    else:
        receipt = ""
    summary_path = os.environ.get("GITHUB_STEP_SUMMARY")
    if summary_path:
        if summary and os.path.isfile(summary):
            with open(summary, encoding="utf-8") as stream:
                text = stream.read()
        else:
            why = "a configuration error, see the log" if status == 2 else "no summary was written"
            text = NO_VERDICT.format(status=status, why=why)
        with open(summary_path, "a", encoding="utf-8") as stream:
            stream.write(text + "\n")
    output_path = os.environ.get("GITHUB_OUTPUT")
    if output_path:
        with open(output_path, "a", encoding="utf-8") as stream:
            write_output(stream, "verdict", verdict)
            write_output(stream, "receipt", receipt)
            write_output(stream, "status", str(status))
    return status


if __name__ == "__main__":
    raise SystemExit(main())
