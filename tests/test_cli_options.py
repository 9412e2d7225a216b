# SPDX-License-Identifier: MIT
"""Every option the user states decides the run, or the run is refused.

Two tables.  ``REFUSED``: combinations no run can honour, each exiting 2
before anything is read, with its own reason code (or argparse's refusal
of an option the command does not have).  ``TAKES_EFFECT``: options whose
effect depends on another option or on the input, each shown to change
what the run does.  An option silently dropped in some combination would
be a row in neither table, so a new option or combination belongs in one.
"""

from __future__ import annotations

import io
import os
import re
import sys

import pytest

from public_support import commands, long_options, value_options
from scorecontract import sign
from scorecontract._cli import main
from support import FIXTURES

KEY = b"0123456789abcdef0123456789abcdef"
PASS = str(FIXTURES / "pass-0.9.json")
FLAPPING = str(FIXTURES / "reports" / "flapping.jsonl")
CLUSTERED = str(FIXTURES / "reports" / "clustered.jsonl")
CANDIDATE = str(FIXTURES / "reports" / "candidate.jsonl")
BASELINE = str(FIXTURES / "reports" / "baseline.jsonl")
HARNESSES = FIXTURES / "harnesses"
INSPECT = str(HARNESSES / "inspect-log.json")
PROMPTFOO = str(HARNESSES / "promptfoo-results.json")
PROMPTFOO_ERRORS = str(HARNESSES / "promptfoo-errors.json")
HELM = str(HARNESSES / "helm-stats.json")
SIMPLE = str(HARNESSES / "simple-evals-mmlu.json")
PERPLEXITY = str(HARNESSES / "lm-eval-perplexity.json")
NAN_SAMPLES = str(HARNESSES / "inspect-log-nan-samples.json")
TRIALS = b'{"trial_id": "a", "score": 0.9}\n{"trial_id": "b", "score": NaN}\n{"trial_id": "c", "score": 0.7}\n'


@pytest.fixture
def place(tmp_path, monkeypatch):
    """A working directory holding every file the tables name."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "key").write_bytes(KEY + b"\n")
    os.chmod(tmp_path / "key", 0o600)
    (tmp_path / "policy.json").write_text('{"version": "rel-7", "threshold": 0.85, "exact": false}')
    (tmp_path / "bound.json").write_text(
        '{"version": "bound-1", "threshold": 0.8, "exact": false, "require_candidate": true}'
    )
    (tmp_path / "confident.json").write_text('{"version": "c-1", "threshold": 0.8, "exact": false, "confidence": 0.95}')
    (tmp_path / "envelope.json").write_bytes(b'{"candidate": "m-1", "run_id": "r-1", "score": 0.9}')
    (tmp_path / "envelope.json.sig").write_text(sign(b'{"candidate": "m-1", "run_id": "r-1", "score": 0.9}', key=KEY))
    (tmp_path / "judgment.json").write_bytes(b'{"pass": true, "score": 0.9}')
    (tmp_path / "answer.txt").write_bytes(b'The grader says:\n```json\n{"pass": true}\n```\n')
    (tmp_path / "trials.jsonl").write_bytes(TRIALS)
    (tmp_path / "taken.json").write_bytes(b"someone else's\n")
    (tmp_path / "pass.json.sig").write_bytes(b"taken\n")
    (tmp_path / "pass.json").write_bytes(b'{"score": 0.9}')
    (tmp_path / "lm.json").write_bytes(
        b'{"results": {"mmlu": {"acc,none": 0.61, "acc_stderr,none": "N/A"}}, "status": "done", "big": "'
        + b"x" * 920
        + b'"}'
    )
    (tmp_path / "lm-nan.json").write_bytes(b'{"results": {"mmlu": {"acc,none": 0.61, "acc_stderr,none": NaN}}}')
    (tmp_path / "ppl.json").write_bytes(b'{"results": {"wikitext": {"word_perplexity,none": 12.5}}}')
    (tmp_path / "judgments.json").write_bytes(b'{"runs": [{"judgment": {"pass": false}}]}')
    gate = '{"version": "g-1", "gates": {"g": {"command": "check", "evidence": "%s"%s}}}'
    (tmp_path / "gates.json").write_text(gate % ("pass.json", ""))
    (tmp_path / "gates-envelope.json").write_text(gate % ("envelope.json", ""))
    (tmp_path / "gates-report.json").write_text(
        '{"version": "g-1", "gates": {"r": {"command": "report", "evidence": "trials.jsonl", "scheduled": 3}}}'
    )
    (tmp_path / "gates-lm.json").write_text(
        gate % ("lm.json", ', "from": "lm-eval", "task": "mmlu", "metric": "acc,none"')
    )
    monkeypatch.setattr(sys, "stdin", _Stdin(b'{"score": 0.9}'))
    return tmp_path


class _Stdin:
    def __init__(self, data: bytes) -> None:
        self.buffer = io.BytesIO(data)


def run(argv, capsys):
    status = main(argv)
    out, err = capsys.readouterr()
    return status, out, err


def _lm_eval_from(*extra):
    return ["check", "--from", "lm-eval", "--task", "mmlu", "--metric", "acc,none", *extra, "lm.json"]


# (id, argv, code): code None means argparse refuses (an option the command
# does not have, or two mutually exclusive ones).
REFUSED = [
    # check: judgment options outside the judgment contract.
    ("check --negate without --contract judgment", ["check", "--negate", PASS], "missing-option"),
    ("check --extract without --contract judgment", ["check", "--extract", PASS], "missing-option"),
    (
        "check --contract judgment --exact without a threshold",
        ["check", "--contract", "judgment", "--exact", "judgment.json"],
        "missing-option",
    ),
    # check: --policy stands alone.
    ("check --policy --threshold", ["check", "--policy", "policy.json", "--threshold", "0.5", PASS], "option-conflict"),
    ("check --policy --exact", ["check", "--policy", "policy.json", "--exact", PASS], "option-conflict"),
    (
        "check judgment --policy --threshold",
        ["check", "--contract", "judgment", "--policy", "policy.json", "--threshold", "0.5", "judgment.json"],
        "option-conflict",
    ),
    # check: provenance.
    ("check --run-id without --candidate", ["check", "--run-id", "r-1", "envelope.json"], "missing-option"),
    (
        "check --signature without a key",
        ["check", "--signature", "envelope.json.sig", "envelope.json"],
        "missing-option",
    ),
    ("check - with a key but no --signature", ["check", "--key-file", "key", "-"], "missing-option"),
    ("check --key-file --key-env", ["check", "--key-file", "key", "--key-env", "K", PASS], None),
    ("check policy requiring --candidate", ["check", "--policy", "bound.json", PASS], "candidate-required"),
    (
        "check judgment policy requiring --candidate",
        ["check", "--contract", "judgment", "--policy", "bound.json", "judgment.json"],
        "candidate-required",
    ),
    # check: selection and the policy options beyond --threshold.
    ("check --select malformed", ["check", "--select", "$.a[", "lm.json"], "bad-selector"),
    ("check --select not a query", ["check", "--select", "results", "lm.json"], "bad-selector"),
    ("check --require malformed", ["check", "--require", "$.a ==", "lm.json"], "bad-selector"),
    ("check --policy --require", ["check", "--policy", "policy.json", "--require", "$.a", PASS], "option-conflict"),
    (
        "check --policy --direction",
        ["check", "--policy", "policy.json", "--direction", "lower", PASS],
        "option-conflict",
    ),
    ("check --policy --min", ["check", "--policy", "policy.json", "--min", "0", PASS], "option-conflict"),
    ("check --policy --max", ["check", "--policy", "policy.json", "--max", "none", PASS], "option-conflict"),
    (
        "check --policy --nonfinite-elsewhere",
        ["check", "--policy", "policy.json", "--nonfinite-elsewhere", "refuse", PASS],
        "option-conflict",
    ),
    ("check --direction sideways", ["check", "--direction", "sideways", PASS], None),
    ("check --max nan", ["check", "--max", "nan", PASS], "bad-bounds"),
    ("check --min null", ["check", "--min", "null", PASS], "bad-bounds"),
    ("check --max below the threshold", ["check", "--max", "0.5", PASS], "bad-threshold"),
    (
        "check judgment --require without a threshold",
        ["check", "--contract", "judgment", "--require", "$.pass", "judgment.json"],
        "missing-option",
    ),
    (
        "check judgment --select --extract",
        ["check", "--contract", "judgment", "--select", "$", "--extract", "answer.txt"],
        "option-conflict",
    ),
    ("check --max-bytes 64MB", ["check", "--max-bytes", "64MB", PASS], "bad-option"),
    ("check --max-bytes 1.5M", ["check", "--max-bytes", "1.5M", PASS], "bad-option"),
    ("check --max-bytes 0K", ["check", "--max-bytes", "0K", PASS], "bad-option"),
    # check: counts.
    ("check --max-bytes 0", ["check", "--max-bytes", "0", PASS], "bad-option"),
    ("check --max-bytes +5", ["check", "--max-bytes", "+5", PASS], "bad-option"),
    ("check --max-bytes ' 5'", ["check", "--max-bytes", " 5", PASS], "bad-option"),
    ("check --max-bytes 1_000", ["check", "--max-bytes", "1_000", PASS], "bad-option"),
    # check: report's and sign's options are not check's.
    ("check --review-owner", ["check", "--review-owner", "alice", PASS], None),
    ("check --scheduled", ["check", "--scheduled", "1", PASS], None),
    ("check --min-pass-rate", ["check", "--min-pass-rate", "0.5", PASS], None),
    # check: harness adapters (docs/harnesses.md).
    ("check --metric without --from", ["check", "--metric", "mean", PASS], "missing-option"),
    ("check --task without --from", ["check", "--task", "mmlu", "lm.json"], "missing-option"),
    ("check --allow-partial without --from", ["check", "--allow-partial", "lm.json"], "missing-option"),
    ("check --from unknown", ["check", "--from", "lm_eval", "lm.json"], None),
    (
        "check --from lm-eval without --task",
        ["check", "--from", "lm-eval", "--metric", "acc,none", "lm.json"],
        "missing-option",
    ),
    (
        "check --from inspect without --metric",
        ["check", "--from", "inspect", "--scorer", "s", "lm.json"],
        "missing-option",
    ),
    ("check --from helm without --metric", ["check", "--from", "helm", "lm.json"], "missing-option"),
    ("check --from deepeval without --metric", ["check", "--from", "deepeval", "lm.json"], "missing-option"),
    ("check --from lm-eval --scorer", _lm_eval_from("--scorer", "s"), "bad-option"),
    ("check --from lm-eval --provider", _lm_eval_from("--provider", "p"), "bad-option"),
    ("check --from lm-eval --split", _lm_eval_from("--split", "test"), "bad-option"),
    ("check --from lm-eval --allow-errors", _lm_eval_from("--allow-errors"), "bad-option"),
    (
        "check --from inspect --task",
        ["check", "--from", "inspect", "--scorer", "s", "--metric", "m", "--task", "t", "lm.json"],
        "bad-option",
    ),
    (
        "check --from deepeval --allow-partial",
        ["check", "--from", "deepeval", "--metric", "m", "--allow-partial", "lm.json"],
        "bad-option",
    ),
    (
        "check --from lm-eval --reducer",
        ["check", "--from", "lm-eval", "--task", "t", "--metric", "m", "--reducer", "mean", "lm.json"],
        "bad-option",
    ),
    (
        "check --from inspect --scorer without --metric",
        ["check", "--from", "inspect", "--scorer", "s", "--reducer", "mean", "lm.json"],
        "missing-option",
    ),
    ("check --from promptfoo --metric", ["check", "--from", "promptfoo", "--metric", "score", "lm.json"], "bad-option"),
    (
        "check --from helm --provider",
        ["check", "--from", "helm", "--metric", "m", "--provider", "p", "lm.json"],
        "bad-option",
    ),
    (
        "check --from deepeval --allow-errors",
        ["check", "--from", "deepeval", "--metric", "m", "--allow-errors", "lm.json"],
        "bad-option",
    ),
    ("check --from openai-evals --task", ["check", "--from", "openai-evals", "--task", "t", "lm.json"], "bad-option"),
    (
        "check --from simple-evals --scorer",
        ["check", "--from", "simple-evals", "--scorer", "s", "lm.json"],
        "bad-option",
    ),
    ("check --from --select", _lm_eval_from("--select", "/results"), "option-conflict"),
    ("check --from --candidate", _lm_eval_from("--candidate", "m-1"), "option-conflict"),
    ("check --from --contract judgment", _lm_eval_from("--contract", "judgment"), "option-conflict"),
    ("check --max-listed", ["check", "--max-listed", "5", PASS], None),
    ("check --output", ["check", "--output", "x.sig", PASS], None),
    ("check --junit-xml taken", ["check", "--junit-xml", "pass.json", PASS], "output-exists"),
    (
        "check --junit-xml and --receipt the same",
        ["check", "--junit-xml", "j", "--receipt", "j", PASS],
        "option-conflict",
    ),
    # Old spellings: refused by argparse, naming the new one (tests/test_cli_vocabulary.py).
    ("check --sample-metric", ["check", "--from", "inspect", "--sample-metric", "accuracy", PASS], None),
    ("check --select-score", ["check", "--select-score", "$.score", PASS], None),
    ("check --max-line-bytes", ["check", "--max-line-bytes", "1M", PASS], None),
    ("check --statistic", ["check", "--statistic", "mean", PASS], None),
    # report: --policy stands alone, review owner included.
    (
        "report --policy --review-owner",
        ["report", "--scheduled", "3", "--policy", "policy.json", "--review-owner", "alice", "trials.jsonl"],
        "option-conflict",
    ),
    (
        "report --policy --threshold",
        ["report", "--scheduled", "3", "--policy", "policy.json", "--threshold", "0.5", "trials.jsonl"],
        "option-conflict",
    ),
    (
        "report --policy --exact",
        ["report", "--scheduled", "3", "--policy", "policy.json", "--exact", "trials.jsonl"],
        "option-conflict",
    ),
    (
        "report policy requiring --candidate",
        ["report", "--scheduled", "3", "--policy", "bound.json", "trials.jsonl"],
        "candidate-required",
    ),
    # report: outputs.
    (
        "report --junit-xml and --receipt naming one file",
        ["report", "--scheduled", "3", "--junit-xml", "out.xml", "--receipt", "./out.xml", "trials.jsonl"],
        "option-conflict",
    ),
    (
        "report --receipt taken",
        ["report", "--scheduled", "3", "--receipt", "taken.json", "trials.jsonl"],
        "output-exists",
    ),
    (
        "report --junit-xml taken",
        ["report", "--scheduled", "3", "--junit-xml", "taken.json", "trials.jsonl"],
        "output-exists",
    ),
    (
        "report --junit-xml naming the trials file",
        ["report", "--scheduled", "3", "--junit-xml", "trials.jsonl", "trials.jsonl"],
        "output-exists",
    ),
    # report: counts and numbers.
    ("report without a population", ["report", "trials.jsonl"], "no-population"),
    ("report --scheduled 0", ["report", "--scheduled", "0", "trials.jsonl"], "bad-population"),
    ("report --max-listed -1", ["report", "--scheduled", "3", "--max-listed", "-1", "trials.jsonl"], "bad-option"),
    (
        "report --max-bytes 0",
        ["report", "--scheduled", "3", "--max-bytes", "0", "trials.jsonl"],
        "bad-option",
    ),
    (
        "report --min-pass-rate nan",
        ["report", "--scheduled", "3", "--min-pass-rate", "nan", "trials.jsonl"],
        "bad-threshold",
    ),
    (
        "report --min-pass-rate true",
        ["report", "--scheduled", "3", "--min-pass-rate", "true", "trials.jsonl"],
        "bad-threshold",
    ),
    # report: check's provenance and judgment options are not report's.
    ("report --run-id", ["report", "--scheduled", "3", "--candidate", "m", "--run-id", "r-1", "trials.jsonl"], None),
    ("report --key-file", ["report", "--scheduled", "3", "--key-file", "key", "trials.jsonl"], None),
    ("report --signature", ["report", "--scheduled", "3", "--signature", "x.sig", "trials.jsonl"], None),
    ("report --contract", ["report", "--scheduled", "3", "--contract", "judgment", "trials.jsonl"], None),
    ("report --negate", ["report", "--scheduled", "3", "--negate", "trials.jsonl"], None),
    ("report --keep-evidence", ["report", "--scheduled", "3", "--keep-evidence", "kept", "trials.jsonl"], None),
    ("report --max-line-bytes", ["report", "--scheduled", "3", "--max-line-bytes", "10", "trials.jsonl"], None),
    ("report --sample-metric", ["report", "--from", "helm", "--sample-metric", "exact_match", "trials.jsonl"], None),
    ("report --select-score", ["report", "--scheduled", "3", "--select-score", "score", "trials.jsonl"], None),
    (
        "report --metric mean without --from (the old --statistic)",
        ["report", "--scheduled", "3", "--metric", "mean", "trials.jsonl"],
        "missing-option",
    ),
    ("report --statistic median", ["report", "--scheduled", "3", "--statistic", "median", "trials.jsonl"], None),
    # sign.
    ("sign without a key", ["sign", "pass.json"], "bad-key"),
    ("sign - without --output", ["sign", "--key-file", "key", "-"], "missing-option"),
    ("sign over an existing signature", ["sign", "--key-file", "key", "pass.json"], "output-exists"),
    (
        "sign --max-bytes 0",
        ["sign", "--key-file", "key", "--max-bytes", "0", "--output", "new.sig", "pass.json"],
        "bad-option",
    ),
    ("sign --signature", ["sign", "--key-file", "key", "--signature", "x.sig", "pass.json"], None),
    ("sign --candidate", ["sign", "--key-file", "key", "--candidate", "m", "pass.json"], None),
    ("sign --format", ["sign", "--key-file", "key", "--format", "json", "pass.json"], None),
    ("sign --receipt", ["sign", "--key-file", "key", "--receipt", "r.json", "pass.json"], None),
    # report: confidence bounds and the paired gate.
    (
        "report --bound without --confidence",
        ["report", "--scheduled", "3", "--bound", "hoeffding", "trials.jsonl"],
        "missing-option",
    ),
    (
        "report --cluster-by without --confidence",
        ["report", "--scheduled", "3", "--cluster-by", "question_id", "trials.jsonl"],
        "missing-option",
    ),
    (
        "report --max-regression without --baseline",
        ["report", "--scheduled", "3", "--max-regression", "0.05", "trials.jsonl"],
        "missing-option",
    ),
    (
        "report --baseline without --max-regression",
        ["report", "--scheduled", "3", "--baseline", "trials.jsonl", "trials.jsonl"],
        "missing-option",
    ),
    (
        "report --baseline --statistic pass-rate",
        [
            "report",
            "--scheduled",
            "3",
            "--statistic",
            "pass-rate",
            "--baseline",
            "trials.jsonl",
            "--max-regression",
            "0",
            "trials.jsonl",
        ],
        "option-conflict",
    ),
    (
        "report --cluster-by --bound hoeffding",
        [
            "report",
            "--scheduled",
            "3",
            "--confidence",
            "0.9",
            "--bound",
            "hoeffding",
            "--cluster-by",
            "q",
            "trials.jsonl",
        ],
        "option-conflict",
    ),
    (
        "report --cluster-by --statistic pass-rate",
        [
            "report",
            "--scheduled",
            "3",
            "--confidence",
            "0.9",
            "--statistic",
            "pass-rate",
            "--cluster-by",
            "q",
            "trials.jsonl",
        ],
        "option-conflict",
    ),
    (
        "report --cluster-by --min-pass-rate",
        [
            "report",
            "--scheduled",
            "3",
            "--confidence",
            "0.9",
            "--min-pass-rate",
            "0.5",
            "--cluster-by",
            "q",
            "trials.jsonl",
        ],
        "option-conflict",
    ),
    (
        "report --baseline --bound hoeffding",
        [
            "report",
            "--scheduled",
            "3",
            "--confidence",
            "0.9",
            "--bound",
            "hoeffding",
            "--baseline",
            "trials.jsonl",
            "--max-regression",
            "0",
            "trials.jsonl",
        ],
        "option-conflict",
    ),
    (
        "report --baseline - with trials -",
        ["report", "--scheduled", "3", "--baseline", "-", "--max-regression", "0", "-"],
        "option-conflict",
    ),
    ("report --confidence 0.5", ["report", "--scheduled", "3", "--confidence", "0.5", "trials.jsonl"], "bad-policy"),
    ("report --confidence 1", ["report", "--scheduled", "3", "--confidence", "1", "trials.jsonl"], "bad-policy"),
    ("report --confidence nan", ["report", "--scheduled", "3", "--confidence", "nan", "trials.jsonl"], "bad-threshold"),
    (
        "report --bound other",
        ["report", "--scheduled", "3", "--confidence", "0.9", "--bound", "wald", "trials.jsonl"],
        None,
    ),
    (
        "report --max-regression -0.1",
        ["report", "--scheduled", "3", "--baseline", "trials.jsonl", "--max-regression", "-0.1", "trials.jsonl"],
        "bad-threshold",
    ),
    (
        "report --cluster-by a bad query",
        ["report", "--scheduled", "3", "--confidence", "0.9", "--cluster-by", "$[", "trials.jsonl"],
        "bad-selector",
    ),
    # report: per-sample records of a harness, and the generic queries.
    (
        "report --scorer without --from",
        ["report", "--scheduled", "3", "--scorer", "match", "trials.jsonl"],
        "missing-option",
    ),
    ("report --from other", ["report", "--scheduled", "3", "--from", "deepeval", "trials.jsonl"], None),
    (
        "report --from inspect --metric",
        ["report", "--from", "inspect", "--scorer", "match", "--metric", "acc", "trials.jsonl"],
        "bad-option",
    ),
    ("report --from inspect without --scorer", ["report", "--from", "inspect", "trials.jsonl"], "bad-option"),
    (
        "report --from inspect --task",
        ["report", "--from", "inspect", "--scorer", "m", "--task", "t", "trials.jsonl"],
        "bad-option",
    ),
    (
        "report --from inspect --labels without a score",
        ["report", "--from", "inspect", "--scorer", "match", "--labels", "C", "trials.jsonl"],
        "bad-option",
    ),
    (
        "report --from inspect --labels nan",
        ["report", "--from", "inspect", "--scorer", "match", "--labels", "C=nan", "trials.jsonl"],
        "bad-threshold",
    ),
    (
        "report --from inspect --labels twice",
        ["report", "--from", "inspect", "--scorer", "match", "--labels", "C=1,C=0", "trials.jsonl"],
        "bad-option",
    ),
    (
        "report --from lm-eval without --metric",
        ["report", "--scheduled", "3", "--from", "lm-eval", "trials.jsonl"],
        "bad-option",
    ),
    (
        "report --from lm-eval --metric acc,none,x",
        ["report", "--scheduled", "3", "--from", "lm-eval", "--metric", "acc,none,x", "trials.jsonl"],
        "bad-option",
    ),
    (
        "report --from lm-eval --results without a task",
        ["report", "--from", "lm-eval", "--metric", "acc", "--results", "lm.json", "trials.jsonl"],
        "bad-option",
    ),
    (
        "report --from lm-eval --allow-partial without --results",
        [
            "report",
            "--scheduled",
            "3",
            "--from",
            "lm-eval",
            "--metric",
            "acc",
            "--allow-partial",
            "trials.jsonl",
        ],
        "bad-option",
    ),
    (
        "report --from helm without a population",
        ["report", "--from", "helm", "--metric", "exact_match", "trials.jsonl"],
        "no-population",
    ),
    (
        "report --from helm --split empty",
        [
            "report",
            "--scheduled",
            "3",
            "--from",
            "helm",
            "--metric",
            "exact_match",
            "--split",
            "",
            "trials.jsonl",
        ],
        "bad-option",
    ),
    (
        "report --from promptfoo --metric acc",
        ["report", "--from", "promptfoo", "--metric", "acc", "trials.jsonl"],
        "bad-option",
    ),
    (
        "report --from with --select",
        ["report", "--from", "promptfoo", "--select", "score", "--trial-id", "id", "trials.jsonl"],
        "option-conflict",
    ),
    (
        "report --select without --trial-id",
        ["report", "--scheduled", "3", "--select", "score", "trials.jsonl"],
        "missing-option",
    ),
    (
        "report --trial-id without --select",
        ["report", "--scheduled", "3", "--trial-id", "id", "trials.jsonl"],
        "missing-option",
    ),
    (
        "report --select a bad query",
        ["report", "--scheduled", "3", "--select", "$[", "--trial-id", "id", "trials.jsonl"],
        "bad-selector",
    ),
    (
        "report --select --candidate",
        [
            "report",
            "--scheduled",
            "3",
            "--select",
            "score",
            "--trial-id",
            "id",
            "--candidate",
            "m",
            "trials.jsonl",
        ],
        "bad-policy",
    ),
    ("report - with other files", ["report", "--scheduled", "3", "-", "trials.jsonl"], "option-conflict"),
    # A policy file stating a confidence decides it; one score has none.
    (
        "report --policy with confidence --confidence",
        ["report", "--scheduled", "3", "--policy", "confident.json", "--confidence", "0.9", "trials.jsonl"],
        "option-conflict",
    ),
    (
        "report --policy with confidence --bound",
        ["report", "--scheduled", "3", "--policy", "confident.json", "--bound", "hoeffding", "trials.jsonl"],
        "option-conflict",
    ),
    ("check --policy with confidence", ["check", "--policy", "confident.json", PASS], "bad-policy"),
    # gate: its own options; every gate's options are its command's (tests/test_gate_cli.py).
    ("gate --max-evidence-bytes 1.5M", ["gate", "--max-evidence-bytes", "1.5M", "gates.json"], "bad-option"),
    ("gate --junit-xml taken", ["gate", "--junit-xml", "taken.json", "gates.json"], "output-exists"),
    ("gate --markdown taken", ["gate", "--markdown", "taken.json", "gates.json"], "output-exists"),
    (
        "gate --receipt --markdown one file",
        ["gate", "--receipt", "m", "--markdown", "m", "gates.json"],
        "option-conflict",
    ),
    ("gate --candidate empty", ["gate", "--candidate", "", "gates.json"], "bad-policy"),
    ("gate --candidate beside a --from gate", ["gate", "--candidate", "m-1", "gates-lm.json"], "option-conflict"),
    ("gate --scheduled", ["gate", "--scheduled", "1", "gates.json"], None),
    # demo takes nothing.
    ("demo --format", ["demo", "--format", "json"], None),
    ("demo with an argument", ["demo", "extra"], None),
]


@pytest.mark.parametrize("argv, code", [row[1:] for row in REFUSED], ids=[row[0] for row in REFUSED])
def test_refused_before_anything_is_read_or_written(place, capsys, argv, code):
    before = sorted(os.listdir(place))
    status, out, err = run(argv, capsys)
    assert status == 2
    assert out == ""
    if code is None:
        # argparse's refusal, through the same writer.
        assert "scorecontract" in err and "error: " in err
    else:
        assert err.startswith(f"scorecontract: error: {code}: ")
        assert err.count("\n") == 1
    # Nothing written: no receipt, no JUnit XML, no signature, no kept copy.
    assert sorted(os.listdir(place)) == before


def _report_lines(format, *extra):
    return ["report", "--scheduled", "4", "--format", format, *extra, "trials.jsonl"]


# (id, argv without the option, argv with it, (status without, status with),
# a text the run with the option prints and the one without does not).
TAKES_EFFECT = [
    (
        "check --candidate binds the envelope",
        ["check", "envelope.json"],
        ["check", "--candidate", "m-1", "envelope.json"],
        (3, 0),
        "PASS",
    ),
    (
        "check --run-id pins the run",
        ["check", "--candidate", "m-1", "envelope.json"],
        ["check", "--candidate", "m-1", "--run-id", "r-2", "envelope.json"],
        (0, 3),
        "run-id-mismatch",
    ),
    (
        "check --key-file authenticates",
        ["check", "--format", "json", "--candidate", "m-1", "envelope.json"],
        ["check", "--format", "json", "--candidate", "m-1", "--key-file", "key", "envelope.json"],
        (0, 0),
        '"authenticated": true',
    ),
    (
        "check judgment --candidate binds the judgment",
        ["check", "--contract", "judgment", "judgment.json"],
        ["check", "--contract", "judgment", "--candidate", "m-1", "judgment.json"],
        (0, 3),
        "missing-candidate",
    ),
    (
        "check judgment --negate",
        ["check", "--contract", "judgment", "judgment.json"],
        ["check", "--contract", "judgment", "--negate", "judgment.json"],
        (0, 1),
        "negated",
    ),
    (
        "check judgment --extract",
        ["check", "--contract", "judgment", "answer.txt"],
        ["check", "--contract", "judgment", "--extract", "answer.txt"],
        (3, 0),
        "PASS explicit-pass",
    ),
    (
        "check judgment --threshold",
        ["check", "--contract", "judgment", "judgment.json"],
        ["check", "--contract", "judgment", "--threshold", "0.95", "judgment.json"],
        (0, 1),
        "FAIL",
    ),
    ("check --max-bytes", ["check", PASS], ["check", "--max-bytes", "10", PASS], (0, 3), "too-large"),
    (
        "check --max-bytes with a unit",
        ["check", "--max-bytes", "1000", "--select", "/results/mmlu/acc,none", "--threshold", "0.5", "lm.json"],
        ["check", "--max-bytes", "1K", "--select", "/results/mmlu/acc,none", "--threshold", "0.5", "lm.json"],
        (3, 0),
        "PASS",
    ),
    (
        "check --select gates one value",
        ["check", "lm.json"],
        ["check", "--select", "$.results.mmlu['acc,none']", "--threshold", "0.5", "lm.json"],
        (3, 0),
        "$['results']['mmlu']['acc,none']",
    ),
    (
        "check --nonfinite-elsewhere list",
        ["check", "--select", "/results/mmlu/acc,none", "--threshold", "0.5", "lm-nan.json"],
        [
            "check",
            "--select",
            "/results/mmlu/acc,none",
            "--threshold",
            "0.5",
            "--nonfinite-elsewhere",
            "list",
            "lm-nan.json",
        ],
        (3, 0),
        "listed and not judged",
    ),
    (
        # An adapter lists what an unstated policy would refuse; a stated
        # "refuse" is honoured, never relaxed.
        "check --from --nonfinite-elsewhere refuse",
        ["check", "--from", "inspect", "--scorer", "choice", "--metric", "accuracy", "--threshold", "0.7", NAN_SAMPLES],
        [
            "check",
            "--from",
            "inspect",
            "--scorer",
            "choice",
            "--metric",
            "accuracy",
            "--threshold",
            "0.7",
            "--nonfinite-elsewhere",
            "refuse",
            NAN_SAMPLES,
        ],
        (0, 3),
        "INVALID non-standard-constant",
    ),
    (
        "check --require",
        ["check", "--select", "/results/mmlu/acc,none", "--threshold", "0.5", "lm.json"],
        [
            "check",
            "--select",
            "/results/mmlu/acc,none",
            "--threshold",
            "0.5",
            "--require",
            "$.status == 'success'",
            "lm.json",
        ],
        (0, 3),
        "requirement-failed",
    ),
    (
        "check --direction lower",
        [
            "check",
            "--select",
            "/results/wikitext/word_perplexity,none",
            "--threshold",
            "15",
            "--max",
            "none",
            "ppl.json",
        ],
        [
            "check",
            "--select",
            "/results/wikitext/word_perplexity,none",
            "--threshold",
            "15",
            "--max",
            "none",
            "--direction",
            "lower",
            "ppl.json",
        ],
        (1, 0),
        "lower is better",
    ),
    (
        "check --min",
        ["check", "--threshold", "0", "--max", "none", "--select", "/x", "neg.json"],
        ["check", "--threshold", "0", "--min", "-5", "--max", "none", "--select", "/x", "neg.json"],
        (3, 1),
        "FAIL below-threshold",
    ),
    (
        "check judgment --select",
        ["check", "--contract", "judgment", "judgments.json"],
        ["check", "--contract", "judgment", "--select", "$.runs[0].judgment", "judgments.json"],
        (3, 1),
        "FAIL explicit-fail",
    ),
    (
        "check --exact",
        ["check", "--threshold", "0.9", "near.json"],
        ["check", "--threshold", "0.9", "--exact", "near.json"],
        (0, 1),
        "FAIL below-threshold",
    ),
    (
        "check --keep-evidence with nothing read says so",
        ["check", "absent.json"],
        ["check", "--keep-evidence", "kept", "absent.json"],
        (3, 3),
        "nothing kept",
    ),
    (
        "check --from gates a harness's headline",
        ["check", "--task", "mmlu", "lm.json"],
        [
            "check",
            "--from",
            "lm-eval",
            "--task",
            "mmlu",
            "--metric",
            "acc,none",
            "--allow-partial",
            "--threshold",
            "0.5",
            "lm.json",
        ],
        (2, 0),
        "PASS meets-threshold",
    ),
    (
        "check --from lm-eval --task and --metric select",
        [
            "check",
            "--from",
            "lm-eval",
            "--task",
            "mmlu",
            "--metric",
            "acc,none",
            "--allow-partial",
            "--threshold",
            "0.5",
            "lm.json",
        ],
        ["check", "--from", "lm-eval", "--task", "mmlu", "--metric", "acc_stderr,none", "--allow-partial", "lm.json"],
        (0, 3),
        "'N/A'",
    ),
    (
        "check --from lm-eval --allow-partial",
        ["check", "--from", "lm-eval", "--task", "t", "--metric", "acc,none", "limited.json"],
        ["check", "--from", "lm-eval", "--task", "t", "--metric", "acc,none", "--allow-partial", "limited.json"],
        (3, 0),
        "PASS",
    ),
    (
        "check --from inspect --scorer",
        ["check", "--from", "inspect", "--scorer", "choice", "--metric", "accuracy", INSPECT],
        ["check", "--from", "inspect", "--scorer", "model_graded_qa", "--metric", "accuracy", INSPECT],
        (0, 1),
        "below-threshold",
    ),
    (
        "check --from promptfoo --provider",
        ["check", "--from", "promptfoo", "--threshold", "0.75", PROMPTFOO],
        ["check", "--from", "promptfoo", "--threshold", "0.75", "--provider", "anthropic:claude-3-5-haiku", PROMPTFOO],
        (0, 1),
        "7/10",
    ),
    (
        "check --from promptfoo --allow-errors",
        ["check", "--from", "promptfoo", "--threshold", "0.7", PROMPTFOO_ERRORS],
        ["check", "--from", "promptfoo", "--threshold", "0.7", "--allow-errors", PROMPTFOO_ERRORS],
        (3, 0),
        "PASS",
    ),
    (
        "check --from helm --split",
        ["check", "--from", "helm", "--metric", "exact_match", "--threshold", "0.63", HELM],
        ["check", "--from", "helm", "--metric", "exact_match", "--split", "valid", "--threshold", "0.63", HELM],
        (1, 0),
        "$[3]['mean']",
    ),
    (
        "check --from --require composes",
        ["check", "--from", "simple-evals", SIMPLE],
        ["check", "--from", "simple-evals", "--require", "$['score:n_samples'] > 20000", SIMPLE],
        (0, 3),
        "requirement-failed",
    ),
    (
        "check --from lm-eval --direction against higher_is_better",
        [
            "check",
            "--from",
            "lm-eval",
            "--task",
            "wikitext",
            "--metric",
            "word_perplexity,none",
            "--threshold",
            "20",
            "--max",
            "none",
            PERPLEXITY,
        ],
        [
            "check",
            "--from",
            "lm-eval",
            "--task",
            "wikitext",
            "--metric",
            "word_perplexity,none",
            "--threshold",
            "20",
            "--max",
            "none",
            "--direction",
            "higher",
            PERPLEXITY,
        ],
        (0, 2),
        "option-conflict",
    ),
    (
        "report --candidate on every line",
        ["report", "--scheduled", "1", "--max-listed", "5", "one.jsonl"],
        ["report", "--scheduled", "1", "--candidate", "m-2", "one.jsonl"],
        (0, 3),
        "candidate-mismatch",
    ),
    (
        "report --review-owner",
        _report_lines("text"),
        _report_lines("text", "--review-owner", "alice"),
        (3, 4),
        "REVIEW",
    ),
    (
        "report --statistic pass-rate",
        ["report", "--scheduled", "1", "one.jsonl"],
        ["report", "--scheduled", "1", "--statistic", "pass-rate", "--threshold", "0.95", "one.jsonl"],
        (0, 1),
        "FAIL below-threshold: pass rate",
    ),
    (
        "report --confidence decides on the bound",
        ["report", "--scheduled", "20", FLAPPING],
        ["report", "--scheduled", "20", "--confidence", "0.95", FLAPPING],
        (0, 1),
        "95% lower bound (empirical-bernstein) 0.444837 (n=20) < threshold 0.8; would need about 12306 trials",
    ),
    (
        "report --bound asymptotic-t",
        ["report", "--scheduled", "20", "--confidence", "0.95", "--threshold", "0.6", FLAPPING],
        [
            "report",
            "--scheduled",
            "20",
            "--confidence",
            "0.95",
            "--threshold",
            "0.6",
            "--bound",
            "asymptotic-t",
            FLAPPING,
        ],
        (1, 0),
        "95% lower bound (asymptotic-t) 0.658476 (n=20, SE 0.0876) >= threshold 0.6",
    ),
    (
        "report --bound hoeffding",
        ["report", "--scheduled", "20", "--confidence", "0.95", FLAPPING],
        ["report", "--scheduled", "20", "--confidence", "0.95", "--bound", "hoeffding", FLAPPING],
        (1, 1),
        "95% lower bound (hoeffding) 0.536333 (n=20)",
    ),
    (
        "report --cluster-by",
        [
            "report",
            "--scheduled",
            "24",
            "--threshold",
            "0.7",
            "--confidence",
            "0.95",
            "--bound",
            "asymptotic-t",
            CLUSTERED,
        ],
        [
            "report",
            "--scheduled",
            "24",
            "--threshold",
            "0.7",
            "--confidence",
            "0.95",
            "--bound",
            "asymptotic-t",
            "--cluster-by",
            "question_id",
            CLUSTERED,
        ],
        (0, 1),
        "8 clusters",
    ),
    (
        "report --baseline --max-regression",
        ["report", "--scheduled", "30", CANDIDATE],
        ["report", "--scheduled", "30", "--baseline", BASELINE, "--max-regression", "0.05", CANDIDATE],
        (1, 0),
        "mean difference -0.00333333 (candidate - baseline, 30 pairs) >= -0.05",
    ),
    (
        "report --max-listed with text",
        _report_lines("text"),
        _report_lines("text", "--max-listed", "0"),
        (3, 3),
        "more, not listed\n",
    ),
    (
        "report --max-listed with json",
        _report_lines("json"),
        _report_lines("json", "--max-listed", "0"),
        (3, 3),
        '"invalid_not_listed": 1',
    ),
    (
        "report --max-listed with markdown",
        _report_lines("markdown"),
        _report_lines("markdown", "--max-listed", "0"),
        (3, 3),
        "more, not listed.",
    ),
    (
        "report --max-listed with github",
        _report_lines("github"),
        _report_lines("github", "--max-listed", "0"),
        (3, 3),
        "more invalid observations, not listed",
    ),
    (
        "gate --candidate binds every gate",
        ["gate", "gates-envelope.json"],
        ["gate", "--candidate", "m-1", "gates-envelope.json"],
        (3, 0),
        "PASS",
    ),
    (
        "gate --max-evidence-bytes",
        ["gate", "gates-report.json"],
        ["gate", "--max-evidence-bytes", "4", "gates-report.json"],
        (3, 3),
        "too-large",
    ),
]


@pytest.mark.parametrize(
    "without, with_option, statuses, shown", [row[1:] for row in TAKES_EFFECT], ids=[row[0] for row in TAKES_EFFECT]
)
def test_option_takes_effect(place, capsys, without, with_option, statuses, shown):
    (place / "near.json").write_bytes(b'{"score": 0.89999999999999999999}')
    (place / "one.jsonl").write_bytes(b'{"trial_id": "a", "candidate": "m-1", "score": 0.9}\n')
    (place / "neg.json").write_bytes(b'{"x": -1}')
    (place / "limited.json").write_bytes(
        b'{"results": {"t": {"acc,none": 0.9}}, "n-samples": {"t": {"original": 100, "effective": 10}}}'
    )
    plain = run(without, capsys)
    stated = run(with_option, capsys)
    assert (plain[0], stated[0]) == statuses
    assert shown in stated[1] + stated[2]
    assert shown not in plain[1] + plain[2]


def test_min_pass_rate_is_passed_through_with_either_statistic(place, capsys):
    # The library decides what a stated minimum means with the mean metric;
    # the command line must hand it over, never drop it, and must not
    # invent one when none was stated: its receipt is the library's report
    # on the same call.
    from scorecontract import loads, report

    shown = ("verdict", "code", "message", "deciding_metrics", "metric", "metrics")
    seen = []
    for statistic in ("mean", "pass-rate"):
        for stated in ({"min_pass_rate": 0.5}, {}):
            receipt = place / f"receipt-{statistic}-{len(stated)}.json"
            option = ["--min-pass-rate", "0.5"] if stated else []
            argv = ["report", "--scheduled", "3", "--statistic", statistic, *option, "--receipt", str(receipt)]
            run([*argv, "trials.jsonl"], capsys)
            written = loads(receipt.read_bytes())
            expected = report("trials.jsonl", scheduled=3, metric=statistic, **stated).as_dict()
            assert {key: written[key] for key in shown} == {key: expected[key] for key in shown}, (statistic, stated)
            seen.append(tuple(str(written[key]) for key in shown))
    assert len(set(seen)) == 4  # the four calls are told apart


def test_the_tables_cover_every_option():
    # A new option must be added to a table: every option string of every
    # command appears in some row for that command.
    named: dict[str, set[str]] = {}
    for argv in [row[1] for row in REFUSED] + [row[1] + row[2] for row in TAKES_EFFECT]:
        named.setdefault(argv[0], set()).update(argv)
    # Options with one meaning in every combination, covered by their own tests.
    elsewhere = {"-h", "--help", "--format", "--receipt", "--threshold", "--key-env", "--manifest"}
    # gate's other outputs write files, covered in tests/test_gate_cli.py.
    elsewhere |= {"--keep-evidence", "--junit-xml", "--markdown"}
    missing = []
    assert set(commands()) == {"check", "report", "gate", "sign", "demo"}
    for name in commands():
        # The options each --help lists (its only short option is -h).
        for option in long_options(name):
            if option not in elsewhere and option not in named.get(name, set()):
                missing.append(f"{name} {option}")
    assert missing == []


# -- an option given twice, an option that does not exist ---------------------


@pytest.mark.parametrize("command", ["check", "report"])
def test_every_single_valued_option_given_twice_is_a_usage_error_that_names_it(command, place, capsys):
    # The options are those check's (or report's) --help shows taking one value.
    tried = 0
    for option, choices in value_options(command):
        path = "trials.jsonl" if command == "report" else PASS
        if choices is None:
            # A metavar that hides its choices: argparse names them when refused.
            status, _, err = run([command, option, "1", "--", path], capsys)
            listed = re.search(r"invalid choice: '1' \(choose from (.*)\)", err)
            choices = re.findall(r"'([^']*)'", listed.group(1)) if listed else None
        value = choices[0] if choices else "1"
        other = choices[-1] if choices else "2"
        status, out, err = run([command, option, value, f"{option}={other}", "--", path], capsys)
        assert status == 2 and out == "", option
        assert f"argument {option}" in err and "given twice" in err and "give it once" in err, err
        tried += 1
    assert tried >= 10


def test_a_repeated_threshold_never_gates_at_the_last_value(capsys):
    # Once: check --threshold 0.99 --threshold 0.4 PASSed at 0.4.
    status, out, err = run(["check", "--threshold", "0.99", "--threshold", "0.4", "--", PASS], capsys)
    assert (status, out) == (2, "")
    assert "argument --threshold: given twice ('0.99', then '0.4')" in err


def test_repeatable_options_stay_repeatable(place, capsys):
    argv = ["check", "--select", "/results/mmlu/acc,none", "--require", "$.status == 'done'"]
    status, out, _ = run([*argv, "--require", "$.results", "--threshold", "0.6", "--", "lm.json"], capsys)
    assert status == 0 and out.startswith("PASS ")


@pytest.mark.parametrize(
    "argv, wrong, meant",
    [
        (["check", "--output-format", "github", PASS], "--output-format", "--format"),
        (["check", "--thresold", "0.5", PASS], "--thresold", "--threshold"),
        (["check", "--max_bytes=64M", PASS], "--max_bytes", "--max-bytes"),
        (["report", "--schedueld", "3", FLAPPING], "--schedueld", "--scheduled"),
        (["report", "--junit", "x.xml", "--scheduled", "20", FLAPPING], "--junit", "--junit-xml"),
    ],
)
def test_an_unknown_option_gets_a_did_you_mean(argv, wrong, meant, capsys):
    status, out, err = run(argv, capsys)
    assert (status, out) == (2, "")
    command = argv[0]
    assert f"scorecontract {command}: {wrong} is not an option of scorecontract {command}; did you mean {meant}?" in err
    # argparse's own refusal still comes first, and the -- hint last.
    assert err.startswith("usage: ") and err.splitlines()[-1].startswith("scorecontract: hint: ")


def test_no_did_you_mean_without_a_close_option_nor_towards_help(capsys):
    status, _, err = run(["check", "--zzzzzz", PASS], capsys)
    assert status == 2 and "did you mean" not in err
    status, _, err = run(["check", "--hel", PASS], capsys)
    assert status == 2 and "did you mean" not in err


_BUILT_PROBE = """
import sys
from scorecontract._cli import main
main(sys.argv[2:])
names = sys.argv[1].split(",")
print(",".join(name for name in names if "scorecontract._cli._" + name in sys.modules), file=sys.stderr)
"""


def commands_built(*argv):
    """The commands whose options a fresh ``scorecontract ARGV`` set up.

    Each command's options are defined in its own module of the command
    line, imported only to build them: what a start-up would pay for.
    """
    import subprocess

    from support import SRC

    every = commands()
    done = subprocess.run(
        [sys.executable, "-c", _BUILT_PROBE, ",".join(every), *argv],
        capture_output=True,
        env={**os.environ, "PYTHONPATH": str(SRC)},
        timeout=120,
    )
    return sorted(filter(None, done.stderr.decode().splitlines()[-1].split(",")))


def test_a_plain_check_builds_only_checks_parser():
    assert commands_built("check", PASS) == ["check"]
    assert commands_built("report") == ["report"]
    assert {"check", "report", "sign", "demo"} <= set(commands_built("chekc"))
