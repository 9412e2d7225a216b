# SPDX-License-Identifier: MIT
"""Write the Inspect conformance corpus with inspect-ai itself, offline.

Run from the repository root, in a venv holding exactly the pinned release
(tools/conformance/README.md):

    $VENVS/corpus-a-inspect/bin/python tools/conformance/inspect/generate.py

Every log is written by Inspect (``eval`` / ``eval_async``, ``edit_eval_log``,
``edit_score``, ``write_eval_log``, ``inspect log convert``) into the relative
folder ``.conformance-tmp/inspect``, then copied to tests/data/conformance/inspect
under a stable name; a log that names a machine path (a traceback) is scrubbed
and rewritten through Inspect's own ``write_eval_log``.  The ground truth of
each run is built into the scripted models of tasks.py.
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

PINS = {"inspect-ai": "0.3.285"}
RELEASE = "inspect-ai 0.3.285"
BAD_ARCHIVE = (
    "INVALID bad-archive: today's reader cannot open the Zstandard members (ZIP method 93) Inspect writes; "
    "stdlib zipfile reads them only from Python 3.14"
)
LETTERS = {"C": "1", "I": "0"}
GRADES = {"C": "1", "P": "0.5", "I": "0"}


def check(
    scorer: str, metric: str, threshold: str, verdict: str, code: str | None, why: str, xfail: str | None = None
) -> dict[str, Any]:
    return common.gate(
        "check",
        "inspect",
        ["--scorer", scorer, "--metric", metric],
        {"scorer": scorer, "metric": metric},
        threshold,
        verdict,
        code,
        why,
        xfail,
    )


def report(
    scorer: str,
    labels: dict[str, str] | None,
    threshold: str,
    verdict: str,
    code: str | None,
    why: str,
    xfail: str | None = None,
) -> dict[str, Any]:
    options = ["--scorer", scorer]
    source: dict[str, Any] = {"scorer": scorer}
    if labels is not None:
        options += ["--labels", ",".join(f"{k}={v}" for k, v in labels.items())]
        source["labels"] = labels
    return common.gate("report", "inspect", options, source, threshold, verdict, code, why, xfail)


def as_eval(gates: list[dict[str, Any]], broken: str = BAD_ARCHIVE) -> list[dict[str, Any]]:
    """The same gates for the .eval twin: the same truth; today every Zstandard .eval is bad-archive."""
    out = []
    for one in gates:
        if one["code"] is None:
            # bad-archive would meet a verdict-only INVALID gate for the wrong reason.
            raise ValueError(f"a gate of a .eval twin must pin its code: {one['why']}")
        one = dict(one)
        if not (one["verdict"] == "INVALID" and one["code"] == "bad-archive"):
            one["xfail"] = broken
        out.append(one)
    return out


def main() -> None:
    common.check_versions(PINS)
    work = common.fresh_workdir("inspect")
    os.chdir(work)
    os.environ["INSPECT_DISPLAY"] = "none"
    # Import tasks.py by a relative path: Inspect writes the task's file into
    # eval.task_file, and an absolute one would name this machine.
    sys.path.insert(0, os.path.relpath(HERE))
    # Only now: importing inspect_ai reads the environment.
    import tasks
    from inspect_ai import eval as inspect_eval

    out = Path("out")
    out.mkdir()
    entries: list[dict[str, Any]] = []

    def run(name: str, task: Any, model: Any, formats: tuple[str, ...] = ("eval", "json"), **options: Any) -> None:
        for fmt in formats:
            (log,) = inspect_eval(task, model=model, log_dir="logs", display="none", log_format=fmt, **options)
            shutil.copyfile(log.location, out / f"{name}.{fmt}")

    def add(file: str, truth: str, gates: list[dict[str, Any]]) -> None:
        entries.append({"file": file, "truth": truth, "gates": gates})

    def add_both(
        name: str, truth: str, gates: list[dict[str, Any]], formats: tuple[str, ...] = ("json", "eval")
    ) -> None:
        # The .json twin is left out where another .json covers the same reading, to keep the corpus small.
        if "json" in formats:
            add(f"{name}.json", truth + "; written with --log-format json", gates)
        add(f"{name}.eval", truth + "; written as .eval (Zstandard members, the default)", as_eval(gates))

    three = {1, 2, 3}

    # -- pass and fail at a known rate -------------------------------------------------
    run("arithmetic", tasks.arithmetic(), tasks.answering(three))
    add_both(
        "arithmetic",
        "5-sample dataset, match scorer, the scripted model right on samples 1-3: accuracy 0.6 (3/5)",
        [
            check("match", "accuracy", "0.5", "PASS", "meets-threshold", "accuracy 0.6 over all 5 samples >= 0.5"),
            check("match", "accuracy", "0.7", "FAIL", "below-threshold", "accuracy 0.6 over all 5 samples < 0.7"),
            report("match", LETTERS, "0.5", "PASS", "meets-threshold", "3 of 5 samples C: mean 0.6 >= 0.5"),
            report("match", LETTERS, "0.7", "FAIL", "below-threshold", "3 of 5 samples C: mean 0.6 < 0.7"),
            report(
                "match",
                None,
                "0.5",
                "INVALID",
                "missing-evidence",
                "match writes the letters C/I; without --labels no sample has a numeric score",
            ),
            check(
                "includes",
                "accuracy",
                "0.5",
                "INVALID",
                "no-match",
                "the log has no scorer named includes",
            ),
        ],
    )

    # -- every kind of partial run ------------------------------------------------------
    partial = "only the coverage facts (eval.config.limit/sample_id, eval.dataset.samples 5) show the run is partial; "
    run("limit", tasks.arithmetic(), tasks.answering(three), limit=3)
    add_both(
        "limit",
        "5-sample dataset, --limit 3 (eval(limit=3)): 3/3 correct, accuracy 1.0 in the log; the full-set accuracy is 0.6",
        [
            check(
                "match",
                "accuracy",
                "0.5",
                "INVALID",
                "partial-run",
                partial + "total_samples == completed_samples == 3 count only what ran",
                "PASS meets-threshold: score 1 (total_samples == completed_samples == 3, the limit is not read)",
            ),
            report(
                "match",
                LETTERS,
                "0.5",
                "INVALID",
                "partial-run",
                partial + "the population read from results.total_samples is 3",
                "PASS meets-threshold: mean 1 over 3 (the population is total_samples 3, not the dataset's 5)",
            ),
        ],
    )
    run("sample-id", tasks.arithmetic(), tasks.answering(three), sample_id=[1, 2])
    add_both(
        "sample-id",
        "5-sample dataset, --sample-id 1,2: 2/2 correct, accuracy 1.0 in the log; the full-set accuracy is 0.6",
        [
            check(
                "match",
                "accuracy",
                "0.5",
                "INVALID",
                "partial-run",
                partial + "eval.config.sample_id is [1, 2]",
                "PASS meets-threshold: score 1 (eval.config.sample_id is not read)",
            ),
            report(
                "match",
                LETTERS,
                "0.5",
                "INVALID",
                "partial-run",
                partial + "eval.config.sample_id is [1, 2]",
                "PASS meets-threshold: mean 1 over 2 (eval.config.sample_id is not read)",
            ),
        ],
    )
    run("limit-range", tasks.arithmetic(), tasks.answering(three), formats=("json",), limit=(1, 3))
    add(
        "limit-range.json",
        "5-sample dataset, --limit 1-3 (eval(limit=(1, 3))): the samples after the 1st up to the 3rd, all correct, accuracy 1.0; the full-set accuracy is 0.6",
        [
            check(
                "match",
                "accuracy",
                "0.5",
                "INVALID",
                "partial-run",
                partial + "eval.config.limit is the range [1, 3]",
                "PASS meets-threshold: score 1 (eval.config.limit is not read)",
            ),
        ],
    )

    # -- sample, scorer and run errors --------------------------------------------------
    run("solver-error", tasks.arithmetic_solver_error(), tasks.answering(three), fail_on_error=False)
    add_both(
        "solver-error",
        "5-sample dataset, the solver raises on sample 4, fail_on_error=False: status success, 4 of 5 completed, "
        "accuracy 3/4 = 0.75 in the log; 3/5 of the population",
        [
            check(
                "match",
                "accuracy",
                "0.5",
                "INVALID",
                "requirement-failed",
                "completed_samples 4 < total_samples 5: the errored sample is not in the accuracy",
            ),
            report(
                "match",
                LETTERS,
                "0.5",
                "INVALID",
                "missing-evidence",
                "sample 4 has an error and no score: 1 of 5 scheduled trials lacks valid evidence",
            ),
        ],
    )
    run("scorer-error", tasks.arithmetic_scorer_error(), tasks.answering(three), formats=("eval",), fail_on_error=False)
    add_both(
        "scorer-error",
        "5-sample dataset, the scorer raises on sample 5, fail_on_error=False: status success, 4 of 5 completed, "
        "accuracy 3/4 = 0.75 in the log; 3/5 of the population",
        [
            check(
                "match_or_raise",
                "accuracy",
                "0.5",
                "INVALID",
                "requirement-failed",
                "completed_samples 4 < total_samples 5: the sample whose scorer raised is not in the accuracy",
            ),
            report(
                "match_or_raise",
                LETTERS,
                "0.5",
                "INVALID",
                "missing-evidence",
                "sample 5 has an error and no score: 1 of 5 scheduled trials lacks valid evidence",
            ),
        ],
        formats=("eval",),
    )
    run("error", tasks.arithmetic_solver_error(), tasks.answering(three))
    add_both(
        "error",
        "5-sample dataset, the solver raises on sample 4, fail_on_error default: status error, no results",
        [
            check("match", "accuracy", "0.5", "INVALID", "requirement-failed", "status is error, not success"),
            report("match", LETTERS, "0.5", "INVALID", "requirement-failed", "status is error, not success"),
        ],
    )

    # -- NaN and Infinity ---------------------------------------------------------------
    run("unscored", tasks.arithmetic_unscored(), tasks.answering(three))
    add_both(
        "unscored",
        "5-sample dataset, a scorer that returns NaN (Inspect's unscored sentinel) on samples 4 and 5: "
        "scored_samples 3, unscored_samples 2, accuracy 3/3 = 1.0 over the scored ones; 3/5 of the population",
        [
            check(
                "unscored_on",
                "accuracy",
                "0.5",
                "INVALID",
                "requirement-failed",
                "unscored_samples 2: the accuracy 1.0 covers 3 of 5 samples",
            ),
            report(
                "unscored_on",
                None,
                "0.5",
                "INVALID",
                "missing-evidence",
                "samples 4 and 5 score NaN: 2 of 5 trials lack valid evidence",
            ),
        ],
    )
    run("all-unscored", tasks.arithmetic_all_unscored(), tasks.answering(three))
    add_both(
        "all-unscored",
        "5-sample dataset, a scorer that returns NaN on every sample: scored_samples 0, unscored_samples 5, "
        "the headline accuracy NaN",
        [
            check(
                "unscored_on",
                "accuracy",
                "0.5",
                "INVALID",
                "requirement-failed",
                "no sample was scored: unscored_samples 5 of 5, and the accuracy is the JSON constant NaN",
            ),
            report(
                "unscored_on",
                None,
                "0.5",
                "INVALID",
                "missing-evidence",
                "every sample scores NaN: 5 of 5 trials lack valid evidence",
            ),
        ],
    )
    run("infinite", tasks.arithmetic_infinite(), tasks.answering(three))
    add_both(
        "infinite",
        "5-sample dataset, a scorer with the mean metric that returns +inf on sample 5: the headline mean is Infinity",
        [
            check(
                "infinite_on",
                "mean",
                "0.5",
                "INVALID",
                "non-standard-constant",
                "the headline is the JSON constant Infinity",
            ),
            report(
                "infinite_on",
                None,
                "0.5",
                "INVALID",
                "missing-evidence",
                "sample 5 scores Infinity: 1 of 5 trials lacks valid evidence",
            ),
        ],
    )

    # -- epochs and reducers ------------------------------------------------------------
    once = tasks.answering_once_in_three({1, 2}, {3})
    run("epochs-mean", tasks.arithmetic_epochs(["mean"]), once, max_samples=1)
    epochs_truth = (
        "5-sample dataset, --epochs 3; samples 1-2 right in every epoch, 3 right in one of three, 4-5 never "
        "(total_samples 15)"
    )
    add_both(
        "epochs-mean",
        epochs_truth + ": reducer mean, accuracy (2 + 1/3)/5 = 0.4667",
        [
            check("match", "accuracy", "0.4", "PASS", "meets-threshold", "reduced accuracy 0.4667 >= 0.4"),
            check("match", "accuracy", "0.5", "FAIL", "below-threshold", "reduced accuracy 0.4667 < 0.5"),
            report(
                "match", LETTERS, "0.4", "PASS", "meets-threshold", "15 trials (id, epoch), 7 C: mean 0.4667 >= 0.4"
            ),
        ],
    )
    once = tasks.answering_once_in_three({1, 2}, {3})
    run("epochs-mean-max", tasks.arithmetic_epochs(["mean", "max"]), once, max_samples=1)
    add_both(
        "epochs-mean-max",
        epochs_truth + ": reducers mean and max give two EvalScores both named match: mean 0.4667, max 0.6",
        [
            check(
                "match",
                "accuracy",
                "0.5",
                "INVALID",
                "ambiguous-selection",
                "two EvalScores are named match (reducer mean 0.4667 FAIL, reducer max 0.6 PASS); the gate names "
                "no reducer, and the file's own results.headline (reducer mean) may not choose for it",
            ),
        ],
    )

    # -- several scorers, dict-valued scorers, letter grades ---------------------------
    run("two-scorers", tasks.arithmetic_two_scorers(), tasks.answering(three, {4}), formats=("eval",))
    add_both(
        "two-scorers",
        "5-sample dataset, scorers match and includes; samples 1-3 right, 4 answers the target followed by 0: "
        "match 0.6, includes 0.8",
        [
            check("match", "accuracy", "0.7", "FAIL", "below-threshold", "match accuracy 0.6 < 0.7"),
            check("includes", "accuracy", "0.7", "PASS", "meets-threshold", "includes accuracy 0.8 >= 0.7"),
            check("includes", "accuracy", "0.9", "FAIL", "below-threshold", "includes accuracy 0.8 < 0.9"),
            report("includes", LETTERS, "0.7", "PASS", "meets-threshold", "4 of 5 samples C for includes: 0.8"),
        ],
        formats=("eval",),
    )
    run("dict-scorer", tasks.arithmetic_dict_scorer(), tasks.answering(three))
    add_both(
        "dict-scorer",
        "5-sample dataset, one dict-valued scorer {exact: C/I, short: 1/0}: score names exact (accuracy 0.6) "
        "and short (accuracy 1.0)",
        [
            check("exact", "accuracy", "0.5", "PASS", "meets-threshold", "the EvalScore exact has accuracy 0.6"),
            check("exact", "accuracy", "0.7", "FAIL", "below-threshold", "the EvalScore exact has accuracy 0.6"),
            check("short", "accuracy", "0.9", "PASS", "meets-threshold", "the EvalScore short has accuracy 1.0"),
            report(
                "exact",
                LETTERS,
                "0.5",
                "PASS",
                "meets-threshold",
                "each sample's score exact_and_short.value.exact: 3 of 5 C, mean 0.6",
                "INVALID missing-evidence: reads scores.exact.value, which no sample has (the value is the dict "
                "scores.exact_and_short.value)",
            ),
        ],
    )
    grades = {1: "C", 2: "C", 3: "P", 4: "P", 5: "I"}
    run("graded", tasks.arithmetic_graded(tasks.grading(grades)), tasks.answering(three))
    add_both(
        "graded",
        "5-sample dataset, model_graded_qa(partial_credit=True) with a scripted grader: 2 C, 2 P, 1 I; "
        "accuracy (2 + 2*0.5)/5 = 0.6",
        [
            check("model_graded_qa", "accuracy", "0.6", "PASS", "meets-threshold", "accuracy 0.6 >= 0.6"),
            check("model_graded_qa", "accuracy", "0.65", "FAIL", "below-threshold", "accuracy 0.6 < 0.65"),
            report("model_graded_qa", GRADES, "0.6", "PASS", "meets-threshold", "C=1, P=0.5, I=0: 3/5 = 0.6"),
            report(
                "model_graded_qa",
                LETTERS,
                "0.5",
                "INVALID",
                "missing-evidence",
                "two samples are graded P, outside the closed map C=1,I=0 (unknown-label)",
            ),
        ],
    )

    # -- cancelled ----------------------------------------------------------------------
    for fmt in ("json", "eval"):
        shutil.copyfile(cancelled_run(tasks, fmt), out / f"cancelled.{fmt}")
    add_both(
        "cancelled",
        "5-sample dataset run one sample at a time, cancelled from outside while sample 5 runs: status cancelled, "
        "4 of 5 completed, the log still carries accuracy 3/4 = 0.75",
        [
            check("match", "accuracy", "0.5", "INVALID", "requirement-failed", "status is cancelled, not success"),
            report("match", LETTERS, "0.5", "INVALID", "requirement-failed", "status is cancelled, not success"),
        ],
    )

    # -- edited and converted logs ------------------------------------------------------
    edit_logs(out)
    main_gates = [
        check("match", "accuracy", "0.5", "PASS", "meets-threshold", "accuracy 0.6 >= 0.5: the edit changed only tags"),
        report("match", LETTERS, "0.5", "PASS", "meets-threshold", "3 of 5 samples C: mean 0.6"),
    ]
    add(
        "edited-tags.eval",
        "arithmetic.eval (accuracy 0.6) after edit_eval_log(TagsEdit) and write_eval_log(header_only=True): "
        "Inspect appends a new header.json and leaves the superseded one's bytes outside the central directory",
        as_eval(main_gates),
    )
    edited = [
        check("match", "accuracy", "0.75", "PASS", "meets-threshold", "Inspect's own score edit: accuracy 0.8 >= 0.75"),
        check("match", "accuracy", "0.85", "FAIL", "below-threshold", "Inspect's own score edit: accuracy 0.8 < 0.85"),
        report("match", LETTERS, "0.75", "PASS", "meets-threshold", "4 of 5 samples C after the edit: mean 0.8"),
    ]
    add(
        "edited-score.json",
        "arithmetic.json after edit_score(sample 4 -> C, recompute_metrics) and write_eval_log: accuracy 0.8, "
        "the edit recorded in the score's history",
        edited,
    )
    add(
        "edited-score.eval",
        "arithmetic.eval, the same score edit, rewritten whole by write_eval_log: accuracy 0.8",
        as_eval(edited),
    )
    add(
        "header-only.json",
        "read_eval_log(arithmetic.eval, header_only=True) written as .json: the header (accuracy 0.6) without samples",
        [
            check("match", "accuracy", "0.5", "PASS", "meets-threshold", "the header is complete: accuracy 0.6 over 5"),
            report(
                "match",
                LETTERS,
                "0.5",
                "INVALID",
                "missing-member",
                "the log declares 5 samples and holds no samples array: nothing to gate per sample",
            ),
        ],
    )
    convert(out)
    converted = [
        check("match", "accuracy", "0.5", "PASS", "meets-threshold", "the converted log is the same run: accuracy 0.6"),
        check("match", "accuracy", "0.7", "FAIL", "below-threshold", "the converted log is the same run: accuracy 0.6"),
        report("match", LETTERS, "0.5", "PASS", "meets-threshold", "3 of 5 samples C: mean 0.6"),
    ]
    add("converted-from-eval.json", "inspect log convert --to json of arithmetic.eval: accuracy 0.6 (3/5)", converted)
    add(
        "converted-from-json.eval",
        "inspect log convert --to eval of arithmetic.json: accuracy 0.6 (3/5)",
        as_eval(converted),
    )

    scrubbed = scrub(out, [entry["file"] for entry in entries if entry["file"] != "edited-tags.eval"])
    if common.scan(out / "edited-tags.eval"):
        # Rewriting it would drop the superseded header.json it exists to hold.
        raise SystemExit("edited-tags.eval names a machine path")
    for entry in entries:
        if entry["file"] in scrubbed:
            entry["truth"] += "; machine paths in its tracebacks scrubbed and the log rewritten by write_eval_log"
    os.chdir(common.ROOT)
    folder = common.clear_corpus("inspect")
    for entry in entries:
        shutil.copyfile(work / "out" / entry["file"], folder / entry["file"])
    common.write_manifest("inspect", RELEASE, entries)
    common.remove_workdir(work)


def cancelled_run(tasks: Any, fmt: str) -> str:
    """Run the arithmetic task and cancel it from outside while sample 5 runs.

    An outer anyio cancel scope is what Ctrl+C amounts to: Inspect's task
    runner catches the cancellation and writes a log with status
    "cancelled" and the metrics of the samples that completed.
    """
    import anyio
    from inspect_ai import Task, eval_async
    from inspect_ai.scorer import match
    from inspect_ai.solver import solver

    scope: list[Any] = []

    @solver
    def cancel_on(n: int) -> Any:
        async def solve(state: Any, generate: Any) -> Any:
            if int(state.sample_id) == n:
                scope[0].cancel()
                await anyio.sleep(30)
            return await generate(state)

        return solve

    locations: list[str] = []

    async def go() -> None:
        with anyio.CancelScope() as outer:
            scope.append(outer)
            task = Task(dataset=tasks.dataset(), solver=cancel_on(5), scorer=match(), name="arithmetic_cancelled")
            await eval_async(
                task, model=tasks.answering({1, 2, 3}), log_dir=f"cancelled-{fmt}", log_format=fmt, max_samples=1
            )

    anyio.run(go)
    from inspect_ai.log import list_eval_logs

    (info,) = list_eval_logs(f"cancelled-{fmt}")
    locations.append(info.name)
    return info.name.removeprefix("file://")


def edit_logs(out: Path) -> None:
    from inspect_ai.log import ProvenanceData, TagsEdit, edit_eval_log, edit_score, read_eval_log, write_eval_log
    from inspect_ai.scorer import ScoreEdit

    provenance = ProvenanceData(author="scorecontract conformance corpus", reason="scripted edit")
    shutil.copyfile(out / "arithmetic.eval", out / "edited-tags.eval")
    log = read_eval_log(str(out / "edited-tags.eval"), header_only=True)
    log = edit_eval_log(log, [TagsEdit(tags_add=["reviewed"])], provenance)
    write_eval_log(log, str(out / "edited-tags.eval"), header_only=True)
    headers = [name for name, _ in common.zip_members((out / "edited-tags.eval").read_bytes()) if name == "header.json"]
    if len(headers) != 2:
        raise SystemExit(f"edited-tags.eval holds {len(headers)} header.json entries, not the original and the edit")

    for fmt in ("json", "eval"):
        log = read_eval_log(str(out / f"arithmetic.{fmt}"))
        edit_score(log, 4, "match", ScoreEdit(value="C", explanation="scripted: regraded", provenance=provenance))
        write_eval_log(log, str(out / f"edited-score.{fmt}"))

    header = read_eval_log(str(out / "arithmetic.eval"), header_only=True)
    write_eval_log(header, str(out / "header-only.json"))


def convert(out: Path) -> None:
    inspect = str(Path(sys.executable).parent / "inspect")
    for source, to, name in (
        ("arithmetic.eval", "json", "converted-from-eval.json"),
        ("arithmetic.json", "eval", "converted-from-json.eval"),
    ):
        folder = Path(f"converted-{to}")
        subprocess.run(
            [inspect, "log", "convert", "--to", to, "--output-dir", str(folder), str(out / source)], check=True
        )
        (made,) = folder.iterdir()
        shutil.move(str(made), out / name)


def scrub(out: Path, files: list[str]) -> set[str]:
    """Rewrite, through Inspect's own writer, every log that names a machine path."""
    from inspect_ai.log import EvalLog, read_eval_log, write_eval_log

    done = set()
    for name in files:
        path = out / name
        if not common.scan(path):
            continue
        log = read_eval_log(str(path))
        clean = EvalLog.model_validate_json(common.scrub_text(log.model_dump_json()))
        write_eval_log(clean, str(path))
        left = common.scan(path)
        if left:
            raise SystemExit("scrubbing left machine paths:\n  " + "\n  ".join(left))
        done.add(name)
    return done


if __name__ == "__main__":
    main()
