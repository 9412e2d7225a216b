# SPDX-License-Identifier: MIT
"""Write the DeepEval conformance corpus with DeepEval itself, offline.

Run from the repository root, in a venv holding exactly the pinned release
(tools/conformance/deepeval/README.md):

    $VENVS/corpus-b-deepeval/bin/python tools/conformance/deepeval/generate.py

Each run is ``python scripted.py RUN`` in ``.conformance-tmp/deepeval/<run>``
(relative, so DeepEval writes ``.deepeval/`` and ``results/`` there) with
``DEEPEVAL_RESULTS_FOLDER=results``, telemetry off and no login.  The files
DeepEval writes are copied, names kept, to tests/data/conformance/deepeval/<run>/.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import common  # noqa: E402

PINS = {"deepeval": "4.3.1"}
RELEASE = "deepeval 4.3.1"
LATEST = ".deepeval/.latest_test_run.json"
FULL = ".deepeval/.latest_run_full.json"
TEMP = ".deepeval/.temp_test_run_data.json"
RESULTS = "results/test_run_*.json"

# run: (files kept, the exit status scripted.py must have)
RUNS = {
    "pass-fail": ([LATEST, FULL, RESULTS], 0),
    "metric-error": ([LATEST], 0),
    "aborted": ([TEMP], 1),
    "same-name": ([LATEST], 0),
    "nan-inf": ([LATEST], 0),
    "skip-missing": ([LATEST], 0),
    "skip-all-metrics": ([LATEST], 0),
    "no-threshold": ([LATEST], 0),
}


def check(
    metric: str, threshold: str, verdict: str, code: str | None, why: str, xfail: str | None = None
) -> dict[str, Any]:
    return common.gate(
        "check", "deepeval", ["--metric", metric], {"metric": metric}, threshold, verdict, code, why, xfail
    )


def run(work: Path, name: str, status: int) -> Path:
    folder = work / name
    folder.mkdir()
    env = {key: value for key, value in os.environ.items() if not key.startswith(("CONFIDENT", "DEEPEVAL", "OPENAI"))}
    # HOME in the run folder: DeepEval keeps its login and settings under it.
    env.update(DEEPEVAL_RESULTS_FOLDER="results", DEEPEVAL_TELEMETRY_OPT_OUT="YES", HOME=str(folder.resolve()))
    done = subprocess.run(
        [sys.executable, str(HERE / "scripted.py"), name], cwd=folder, env=env, capture_output=True, text=True
    )
    (work / f"{name}.log").write_text(done.stdout + done.stderr, encoding="utf-8")
    if done.returncode != status:
        raise SystemExit(f"scripted.py {name} exited {done.returncode}, not {status}: see {work / (name + '.log')}")
    return folder


def truths() -> dict[str, tuple[str, list[dict[str, Any]]]]:
    """Each run's truth and the gates of each of its files."""
    accuracy = "Scripted Accuracy"
    fluency = "Scripted Fluency"
    return {
        "pass-fail": (
            "evaluate() of 10 test cases, two scripted metrics: Scripted Accuracy (threshold 0.5) scores 1.0, 1.0, "
            "0.9, 0.9, 0.8, 0.7, 0.6, 0.4, 0.2, 0.0 (7 pass, mean 0.65); Scripted Fluency (threshold 0.7) 0.9 x 5 and "
            "0.5 x 5 (5 pass, mean 0.7)",
            [
                check(
                    accuracy, "0.65", "PASS", "meets-threshold", "the mean of the 10 Accuracy scores is 6.5/10 = 0.65"
                ),
                check(accuracy, "0.66", "FAIL", "below-threshold", "0.65 < 0.66"),
                check(fluency, "0.7", "PASS", "meets-threshold", "the mean of the 10 Fluency scores is 7/10 = 0.7"),
                check("Answer Relevancy", "0.5", "INVALID", "no-match", "the run has no metric of that name"),
            ],
        ),
        "metric-error": (
            "4 test cases, ErrorConfig(ignore_errors=True): Scripted Accuracy raises on case_1 (a judge timeout): "
            "DeepEval keeps case_1 with an error and no score, and writes 3 scores with errors 1; Scripted Fluency "
            "scores 0.9, 0.9, 0.9, 0.5 (mean 0.8), no error",
            [
                check(
                    accuracy, "0.5", "INVALID", "grader-errors", "Accuracy errored on 1 of 4 test cases: no mean of 4"
                ),
                check(fluency, "0.8", "PASS", "meets-threshold", "Fluency scored every test case: mean 3.2/4 = 0.8"),
            ],
        ),
        "aborted": (
            "4 test cases, errors not ignored: Scripted Accuracy raises on case_2 and evaluate() raises; DeepEval leaves "
            ".temp_test_run_data.json with metricsScores [] and 3 test cases, the crashed case_2 holding the metric's "
            "stale score 0.9 from case_1 with success true (the metric object kept its last state)",
            [
                check(
                    accuracy,
                    "0.5",
                    "INVALID",
                    "empty-run",
                    "an aborted run: no aggregate (metricsScores is empty), and case_2's score was never measured",
                ),
            ],
        ),
        "same-name": (
            "4 test cases, two different metrics both named Scripted Accuracy (scores 1.0, 0.9, 0.2, 0.7 and 0.0, "
            "0.1, 0.2, 0.3): DeepEval merges them into one metricsScores entry with 8 scores for 4 test cases",
            [
                check(
                    accuracy,
                    "0.4",
                    "INVALID",
                    "population-mismatch",
                    "8 scores of two metrics for 4 test cases: no one metric's mean; name the metrics apart",
                ),
            ],
        ),
        "nan-inf": (
            "4 test cases: Scripted Accuracy scores 1.0, NaN, Infinity, 0.7 (written bare: NaN and Infinity); "
            "Scripted Fluency 0.9, 0.9, 0.9, 0.5 (mean 0.8)",
            [
                check(
                    accuracy,
                    "0.5",
                    "INVALID",
                    "non-standard-constant",
                    "two of the selected scores are NaN and Infinity",
                ),
                check(
                    fluency,
                    "0.8",
                    "PASS",
                    "meets-threshold",
                    "Fluency is complete and finite (mean 0.8); the NaN and Infinity of Accuracy are elsewhere, listed",
                ),
            ],
        ),
        "skip-missing": (
            "4 test cases, ErrorConfig(skip_on_missing_params=True); case_1 has no expected_output, which Scripted "
            "Accuracy needs: DeepEval skips Accuracy on case_1 (it keeps case_1 for Fluency) and writes 3 Accuracy "
            "scores, 1.0, 0.2, 0.7, for the run's 4 test cases; Fluency 0.9, 0.9, 0.9, 0.5 on all 4",
            [
                check(
                    accuracy,
                    "0.6",
                    "INVALID",
                    "population-mismatch",
                    "Accuracy measured 3 of the run's 4 test cases (case_1 holds no Accuracy): its mean 0.633 is "
                    "over part of the run",
                ),
                check(fluency, "0.8", "PASS", "meets-threshold", "Fluency measured all 4: mean 0.8"),
            ],
        ),
        "skip-all-metrics": (
            "4 test cases, skip_on_missing_params=True, one metric (Scripted Accuracy, needs expected_output): case_1 "
            "is skipped by every metric and vanishes from the file, which holds 3 test cases and 3 scores, 1.0, 0.2, "
            "0.7 (mean 0.633); nothing in the file records the 4th case",
            [
                check(
                    accuracy,
                    "0.6",
                    "PASS",
                    "meets-threshold",
                    "the file's 3 test cases, 3 scores and counts agree, and it records no 4th case: it supports "
                    "0.633 over what it holds; the skipped case cannot be seen in it",
                ),
                check(accuracy, "0.7", "FAIL", "below-threshold", "0.633 < 0.7"),
            ],
        ),
        "no-threshold": (
            "4 test cases: Scripted Accuracy with threshold None scores 1.0, 0.9, 0.2, 0.7 (mean 0.7), and DeepEval "
            "counts every case a fail of it (passes 0, fails 4); Scripted Fluency (threshold 0.7) 0.9, 0.9, 0.9, 0.5",
            [
                check(
                    accuracy,
                    "0.7",
                    "PASS",
                    "meets-threshold",
                    "the gate is on the mean of the scores, 2.8/4 = 0.7, which the file holds for every case; "
                    "DeepEval's own pass flags (none, for want of a threshold) are not the headline",
                ),
                check(fluency, "0.8", "PASS", "meets-threshold", "Fluency: mean 0.8"),
            ],
        ),
    }


def main() -> None:
    common.check_versions(PINS)
    work = common.fresh_workdir("deepeval")
    folders = {name: run(work, name, status) for name, (_, status) in RUNS.items()}
    corpus = common.clear_corpus("deepeval")
    entries = []
    for name, (truth, gates) in truths().items():
        for pattern in RUNS[name][0]:
            (source,) = sorted(folders[name].glob(pattern))
            relative = source.relative_to(folders[name]).as_posix()
            target = corpus / name / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, target)
            kind = {
                LATEST: "its .latest_test_run.json (write_cache=True)",
                FULL: "its .latest_run_full.json",
                TEMP: "its .temp_test_run_data.json",
            }.get(pattern, "its test_run_<ts>.json (results folder)")
            entries.append(
                {"file": f"{name}/{relative}", "truth": f"{truth}; {kind}", "gates": json.loads(json.dumps(gates))}
            )
    common.write_manifest("deepeval", RELEASE, entries)
    common.remove_workdir(work)


if __name__ == "__main__":
    main()
