# SPDX-License-Identifier: MIT
"""Write the openai/evals conformance corpus with ``oaieval`` itself, offline.

Run from the repository root, in a venv holding exactly the pinned release
(tools/conformance/README.md):

    $VENVS/corpus-a-openai-evals/bin/python tools/conformance/openai-evals/generate.py

Each run is ``oaieval <completion fns> <eval> --registry_path registry
--record_path out/<name>.jsonl`` from a copy of registry/ and scripted_fns.py
in ``.conformance-tmp/openai-evals``.  ``oaieval`` needs an OPENAI_API_KEY to
start (a placeholder) and asks the API for its model list once: the base URL
is a closed port on the loopback, so it fails at once and offline.  One
thread (EVALS_THREADS=1) keeps the event order stable.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import common  # noqa: E402

PINS = {"evals": "3.0.1.post1"}
RELEASE = "evals 3.0.1.post1"
# sys.argv[0] is written into the spec line ("command"): keep it a bare name.
OAIEVAL = "import sys; sys.argv[0] = 'oaieval'; from evals.cli.oaieval import main; main()"

# (record log, oaieval arguments, whether oaieval must succeed)
RUNS = [
    ("arith", ["scripted", "arith"], True),
    ("max-samples", ["scripted", "arith", "--max_samples", "4"], True),
    ("max-samples-0", ["scripted", "arith", "--max_samples", "0"], True),
    ("crashed", ["scripted-crash", "arith"], False),
    ("fuzzy", ["scripted", "arith-fuzzy"], True),
    ("graded", ["scripted,scripted-grader", "arith-graded"], True),
    ("graded-invalid", ["scripted,scripted-grader-invalid", "arith-graded"], True),
    ("scored-nan", ["scripted", "scored-nan"], True),
    ("scored-inf", ["scripted", "scored-inf"], True),
]


def check(
    metric: str | None, threshold: str, verdict: str, code: str | None, why: str, xfail: str | None = None
) -> dict[str, Any]:
    options = [] if metric is None else ["--metric", metric]
    source = {} if metric is None else {"metric": metric}
    return common.gate("check", "openai-evals", options, source, threshold, verdict, code, why, xfail)


def main() -> None:
    common.check_versions(PINS)
    work = common.fresh_workdir("openai-evals")
    shutil.copytree(HERE / "registry", work / "registry")
    shutil.copyfile(HERE / "scripted_fns.py", work / "scripted_fns.py")
    env = dict(
        os.environ,
        OPENAI_API_KEY="placeholder-not-a-key",
        OPENAI_BASE_URL="http://127.0.0.1:9/v1",
        EVALS_THREADS="1",
        EVALS_SHOW_EVAL_PROGRESS="",
        PYTHONPATH=".",
    )
    folder = common.clear_corpus("openai-evals")
    for name, arguments, succeeds in RUNS:
        command = [
            sys.executable,
            "-c",
            OAIEVAL,
            *arguments,
            "--registry_path",
            "registry",
            "--record_path",
            f"out/{name}.jsonl",
        ]
        done = subprocess.run(command, cwd=work, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        if (done.returncode == 0) != succeeds:
            raise SystemExit(f"oaieval {name} exited {done.returncode}:\n{done.stderr.decode()[-2000:]}")
        text = (work / "out" / f"{name}.jsonl").read_text(encoding="utf-8")
        if common.scrub_text(text) != text:
            raise SystemExit(f"{name}.jsonl names a machine path: evals wrote one; decide how to scrub it")
        shutil.copyfile(work / "out" / f"{name}.jsonl", folder / f"{name}.jsonl")
    common.write_manifest("openai-evals", RELEASE, entries())
    common.remove_workdir(work)


def entries() -> list[dict[str, Any]]:
    arith = "Match over 10 samples q1..q10, the scripted completion function right on q1-q6"
    return [
        {
            "file": "arith.jsonl",
            "truth": f"{arith}: final_report accuracy 0.6 on line 2, then 10 match events",
            "gates": [
                check(
                    None,
                    "0.5",
                    "PASS",
                    "meets-threshold",
                    "accuracy 0.6 over all 10 samples >= 0.5 (default --metric accuracy)",
                ),
                check("accuracy", "0.7", "FAIL", "below-threshold", "accuracy 0.6 < 0.7"),
                check("f1_score", "0.5", "INVALID", "no-match", "Match reports accuracy and boostrap_std only"),
            ],
        },
        {
            "file": "max-samples.jsonl",
            "truth": f"{arith}, --max_samples 4 (in the spec line): the 4 samples evals' seeded shuffle put first, "
            "1 right: accuracy 0.25; the full-set accuracy is 0.6",
            "gates": [
                check(
                    None,
                    "0.2",
                    "INVALID",
                    "partial-run",
                    "the spec line's run_config.max_samples is 4: 4 of the eval's 10 samples ran",
                    "PASS meets-threshold: score 0.25 (run_config.max_samples is not read)",
                ),
                check(
                    None,
                    "0.5",
                    "INVALID",
                    "partial-run",
                    "4 of 10 samples ran: a partial run is not evidence of a FAIL either",
                    "FAIL below-threshold: score 0.25 (run_config.max_samples is not read)",
                ),
            ],
        },
        {
            "file": "max-samples-0.jsonl",
            "truth": "Match with --max_samples 0: no sample ran; final_report accuracy NaN, boostrap_std NaN, no event",
            "gates": [
                check(
                    None,
                    "0.5",
                    "INVALID",
                    None,
                    "accuracy is NaN (evals' get_accuracy over no event) and no sample ran: non-standard-constant "
                    "(today's code), empty-run or partial-run (max_samples 0) are each right; the verdict is pinned",
                ),
            ],
        },
        {
            "file": "crashed.jsonl",
            "truth": f"{arith}, the completion function raises on q9: oaieval exits 1 and leaves the spec line and "
            "the events recorded so far, with no final_report",
            "gates": [
                check(None, "0.5", "INVALID", "no-match", "no line holds final_report: the run did not finish"),
            ],
        },
        {
            "file": "fuzzy.jsonl",
            "truth": "FuzzyMatch over the same 10 samples; q1-q6 right, q7-q8 answer 'about N or so': "
            "accuracy 0.8, f1_score (6 + 2 * 0.4)/10 = 0.68",
            "gates": [
                check("accuracy", "0.8", "PASS", "meets-threshold", "accuracy 0.8 >= 0.8"),
                check("f1_score", "0.6", "PASS", "meets-threshold", "f1_score 0.68 >= 0.6"),
                check("f1_score", "0.7", "FAIL", "below-threshold", "f1_score 0.68 < 0.7"),
            ],
        },
        {
            "file": "graded.jsonl",
            "truth": "ModelBasedClassify (choice_strings CPI, scores C 1, P 0.5, I 0) over 5 samples, the scripted "
            "grader replies C, C, P, P, I: final_report counts/C 2, counts/P 2, counts/I 1, score 0.6",
            "gates": [
                check("score", "0.6", "PASS", "meets-threshold", "score (2 + 2 * 0.5)/5 = 0.6 >= 0.6"),
                check("score", "0.7", "FAIL", "below-threshold", "score 0.6 < 0.7"),
                check(
                    None,
                    "0.5",
                    "INVALID",
                    "no-match",
                    "a model-graded classify reports score and counts/*, no accuracy",
                ),
            ],
        },
        {
            "file": "graded-invalid.jsonl",
            "truth": "as graded.jsonl, but the grader's fifth reply is 'no idea': evals records the choice __invalid__, "
            "scores it as the lowest choice score (0) and writes counts/__invalid__ 1, score 0.6",
            "gates": [
                check(
                    "score",
                    "0.5",
                    "INVALID",
                    "grader-errors",
                    "counts/__invalid__ 1: one grader reply was not a grade, and evals counted it as 0 in the score",
                    "PASS meets-threshold: score 0.6 (counts/__invalid__ is not read)",
                ),
            ],
        },
        {
            "file": "scored-nan.jsonl",
            "truth": "a scripted eval recording per-sample scores 1, 1, 0, NaN, 1 (a metrics event each) and their "
            "plain mean: final_report score NaN",
            "gates": [
                check("score", "0.5", "INVALID", "non-standard-constant", "the headline is the JSON constant NaN"),
            ],
        },
        {
            "file": "scored-inf.jsonl",
            "truth": "a scripted eval recording per-sample scores 1, 1, 0, Infinity, 1 and their plain mean: "
            "final_report score Infinity",
            "gates": [
                check("score", "0.5", "INVALID", "non-standard-constant", "the headline is the JSON constant Infinity"),
            ],
        },
    ]


if __name__ == "__main__":
    main()
