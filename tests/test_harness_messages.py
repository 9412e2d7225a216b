# SPDX-License-Identifier: MIT
"""Refusals that get a user unstuck (issue 20, part 5), on files the harnesses wrote.

A name the file does not have is refused with the option that changes it
and what the file does have; a file of one harness given to another's
``--from`` is INVALID with a message for people: no traceback, and no
name of scorecontract's own insides (``builtins.object``, a module, a
class).
"""

from __future__ import annotations

import pathlib

import pytest

from public_support import harnesses
from scorecontract._cli import main

CORPUS = pathlib.Path(__file__).parent / "data" / "conformance"
LM_EVAL = "lm-eval/basic/results_2026-12-01T22-15-49.548908.json"
LM_EVAL_RESULTS = str(CORPUS / LM_EVAL)
LM_EVAL_SAMPLES = "lm-eval/basic/samples_mc10_2026-12-01T22-15-49.548908.jsonl"
DEEPEVAL = "deepeval/pass-fail/.deepeval/.latest_test_run.json"


def run(argv, capsys):
    status = main(argv)
    captured = capsys.readouterr()
    return status, captured.out, captured.err


# -- a name the file does not have --------------------------------------------------------------

NOT_THERE = [
    (
        ["check", "--from", "lm-eval", "--task", "hellaswag", "--metric", "acc,none"],
        LM_EVAL,
        "(--task)",
        "'mc10', 'gen10'",
    ),
    (["check", "--from", "lm-eval", "--task", "mc10", "--metric", "f1,none"], LM_EVAL, "(--metric)", "'acc,none'"),
    (
        ["report", "--from", "lm-eval", "--metric", "acc", "--task", "hellaswag", "--results", LM_EVAL_RESULTS],
        LM_EVAL_SAMPLES,
        "(--task)",
        "'mc10', 'gen10'",
    ),
    (
        ["report", "--from", "lm-eval", "--metric", "f1", "--results", LM_EVAL_RESULTS],
        LM_EVAL_SAMPLES,
        "(--metric)",
        "'acc', 'acc_norm'",
    ),
    (
        ["check", "--from", "inspect", "--scorer", "includes", "--metric", "accuracy"],
        "inspect/arithmetic.eval",
        "(--scorer)",
        "'match'",
    ),
    (
        ["check", "--from", "inspect", "--scorer", "match", "--metric", "f1"],
        "inspect/arithmetic.json",
        "(--metric)",
        "'accuracy', 'stderr'",
    ),
    (
        ["check", "--from", "inspect", "--scorer", "match", "--metric", "accuracy", "--reducer", "median"],
        "inspect/epochs-mean-max.eval",
        "(--reducer)",
        "'mean', 'max'",
    ),
    (
        ["report", "--from", "inspect", "--scorer", "includes", "--labels", "C=1,I=0"],
        "inspect/arithmetic.eval",
        "(--scorer)",
        "'match'",
    ),
    (
        ["check", "--from", "deepeval", "--metric", "Answer Relevancy"],
        DEEPEVAL,
        "(--metric)",
        "'Scripted Accuracy', 'Scripted Fluency'",
    ),
    (
        ["report", "--from", "deepeval", "--metric", "Answer Relevancy"],
        DEEPEVAL,
        "(--metric)",
        "'Scripted Accuracy', 'Scripted Fluency'",
    ),
    (["check", "--from", "helm", "--metric", "f1"], "helm/full/stats.json", "(--metric)", "'exact_match'"),
    (
        ["check", "--from", "helm", "--metric", "exact_match", "--split", "train"],
        "helm/full/stats.json",
        "(--split)",
        "'valid', 'test'",
    ),
    (
        ["report", "--from", "helm", "--metric", "f1", "--scheduled", "5"],
        "helm/full/per_instance_stats.json",
        "(--metric)",
        "'exact_match'",
    ),
    (
        ["report", "--from", "helm", "--metric", "exact_match", "--split", "train", "--scheduled", "5"],
        "helm/full/per_instance_stats.json",
        "(--split)",
        "'valid', 'test'",
    ),
    (["check", "--from", "openai-evals", "--metric", "f1"], "openai-evals/arith.jsonl", "(--metric)", "'accuracy'"),
]


@pytest.mark.parametrize(
    "argv, file, option, listed", NOT_THERE, ids=[f"{argv[0]}-{argv[2]}-{option}" for argv, _, option, _ in NOT_THERE]
)
def test_a_name_the_file_does_not_have_names_the_option_and_lists_what_there_is(argv, file, option, listed, capsys):
    status, out, err = run([*argv, "--threshold", "0.5", "--", str(CORPUS / file)], capsys)
    first = out.splitlines()[0]
    assert status == 3 and first.startswith("INVALID no-match: "), out + err
    assert option in first and listed in first, first


# -- a file of one harness given to another's --from --------------------------------------------

CHECK = {
    "lm-eval": ["--task", "mc10", "--metric", "acc,none"],
    "inspect": ["--scorer", "match", "--metric", "accuracy"],
    "promptfoo": [],
    "helm": ["--metric", "exact_match"],
    "deepeval": ["--metric", "Scripted Accuracy"],
    "openai-evals": [],
    "simple-evals": [],
}
REPORT = {
    "lm-eval": ["--metric", "acc", "--scheduled", "5"],
    "inspect": ["--scorer", "match", "--labels", "C=1,I=0"],
    "promptfoo": [],
    "helm": ["--metric", "exact_match", "--split", "test", "--scheduled", "5"],
    "deepeval": ["--metric", "Scripted Accuracy"],
    "openai-evals": [],
}
INTERNAL = ("Traceback", "builtins.", "_harnesses", "scorecontract._", "<class", "object at 0x")
FOLDERS = sorted(path.name for path in CORPUS.iterdir() if path.is_dir())


def test_every_harness_is_fed_to_every_other():
    # A harness added to the registry without options here would go untested.
    registry = harnesses()

    assert set(CHECK) == set(registry) and set(FOLDERS) <= set(registry) and len(FOLDERS) >= 6
    assert set(REPORT) == {name for name in registry if name != "simple-evals"}


@pytest.mark.parametrize("command", ["check", "report"])
@pytest.mark.parametrize("folder", FOLDERS)
def test_a_file_of_one_harness_is_invalid_evidence_for_every_other(folder, command, capsys):
    table = CHECK if command == "check" else REPORT
    files = sorted(path for path in (CORPUS / folder).rglob("*") if path.is_file() and path.name != "manifest.json")
    assert files, folder
    wrong = []
    for harness, options in table.items():
        if harness == folder:
            continue
        for path in files:
            argv = [command, "--from", harness, *options, "--threshold", "0.5", "--", str(path)]
            status, out, err = run(argv, capsys)
            said = out + err
            if status != 3 or not out.startswith("INVALID ") or any(name in said for name in INTERNAL):
                wrong.append(f"{harness} {path.relative_to(CORPUS)}: exit {status}: {said.strip()[:300]}")
    assert not wrong, "\n".join(wrong)
