# SPDX-License-Identifier: MIT
"""Write the HELM conformance corpus with HELM itself, offline.

Run from the repository root, in a venv holding exactly the pinned release
(tools/conformance/helm/README.md):

    $VENVS/corpus-b-helm/bin/python tools/conformance/helm/generate.py

Each run is ``helm-run --plugins scripted_helm --run-entries
scripted_qa:...,model=simple/model1 --suite corpus -m N`` in
``.conformance-tmp/helm`` (relative, so HELM writes relative paths), with
the scenario, run spec and judge metric of scripted_helm.py.  Its
stats.json and per_instance_stats.json are copied to
tests/data/conformance/helm/<run>/.
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

PINS = {"crfm-helm": "0.5.16", "torch": "2.14.1"}
RELEASE = "crfm-helm 0.5.16"

# (run, run entry arguments, -m, files kept)
RUNS = [
    ("full", "judge=plain", "1000", ["stats.json", "per_instance_stats.json"]),
    ("capped", "judge=plain,max_eval_instances=3", "1000", ["stats.json", "per_instance_stats.json"]),
    ("sampled", "judge=plain", "3", ["stats.json"]),
    ("judge-nan", "judge=with_nan", "1000", ["stats.json", "per_instance_stats.json"]),
    ("judge-inf", "judge=with_inf", "1000", ["stats.json", "per_instance_stats.json"]),
    ("trials", "judge=plain,trials=2", "1000", ["stats.json", "per_instance_stats.json"]),
]


def check(
    metric: str,
    threshold: str,
    verdict: str,
    code: str | None,
    why: str,
    split: str | None = None,
    xfail: str | None = None,
) -> dict[str, Any]:
    options = ["--metric", metric]
    source = {"metric": metric}
    if split is not None:
        options += ["--split", split]
        source["split"] = split
    return common.gate("check", "helm", options, source, threshold, verdict, code, why, xfail)


def report(
    metric: str,
    split: str,
    scheduled: str,
    threshold: str,
    verdict: str,
    code: str | None,
    why: str,
    xfail: str | None = None,
) -> dict[str, Any]:
    """A ``report --from helm`` gate: HELM declares no population, so it is stated."""
    options = ["--metric", metric, "--split", split, "--scheduled", scheduled]
    entry = common.gate(
        "report", "helm", options, {"metric": metric, "split": split}, threshold, verdict, code, why, xfail
    )
    # report(..., scheduled=N): the population HELM's file does not declare.
    entry["api"]["scheduled"] = scheduled
    return entry


def run_helm(work: Path, name: str, entry: str, max_eval: str) -> Path:
    env = dict(os.environ, PYTHONPATH=str(HERE), HOME=str(Path.cwd().resolve()), NO_PROXY="*")
    argv = [
        str(Path(sys.executable).parent / "helm-run"),
        "--plugins",
        "scripted_helm",
        "--run-entries",
        f"scripted_qa:{entry},model=simple/model1",
        "--suite",
        name,
        "-m",
        max_eval,
    ]
    done = subprocess.run(argv, cwd=work, env=env, capture_output=True, text=True)
    (work / f"{name}.log").write_text(done.stdout + done.stderr, encoding="utf-8")
    if done.returncode != 0:
        raise SystemExit(f"helm-run for {name} exited {done.returncode}: see {work / (name + '.log')}")
    (run,) = (work / "benchmark_output" / "runs" / name).glob("scripted_qa:*")
    return run


def eval_instances() -> list[tuple[str, str, bool]]:
    """(split, text, right) of each valid and test instance, in HELM's order."""
    import scripted_helm

    rows = []
    for split, script in (("valid", scripted_helm.VALID), ("test", scripted_helm.TEST)):
        for number, (right, said) in enumerate(script):
            rows.append((split, f"{split[0]}{number} {said}", right == said))
    return rows


def sampled(count: int) -> list[tuple[str, str, bool]]:
    """The instances HELM keeps under a cap of *count* (runner.downsample_eval_instances)."""
    import numpy as np

    rows = eval_instances()
    np.random.seed(0)
    return [rows[i] for i in sorted(np.random.choice(len(rows), count, replace=False))]


def exact_match(stats: list[dict[str, Any]], split: str) -> float:
    (found,) = [s for s in stats if s["name"] == {"name": "exact_match", "split": split}]
    return float(found["mean"])


def load(path: Path) -> Any:
    # HELM writes Infinity and NaN bare (json.dumps allows them); Python reads them.
    return json.loads(path.read_text(encoding="utf-8"))


def verify(folder: Path) -> None:
    """Stop unless HELM wrote what the truths below say (a new release may not)."""
    full = load(folder / "full" / "stats.json")
    capped = sampled(3)
    facts = {
        "full test": (exact_match(full, "test"), 0.6),
        "full valid": (exact_match(full, "valid"), 0.5),
        "capped test": (
            exact_match(load(folder / "capped" / "stats.json"), "test"),
            sum(r for s, _, r in capped if s == "test") / sum(1 for s, _, _ in capped if s == "test"),
        ),
        "sampled test": (exact_match(load(folder / "sampled" / "stats.json"), "test"), 0.5),
        "capped instances": (len(load(folder / "capped" / "per_instance_stats.json")), 2 * len(capped)),
        "trials entries": (len(load(folder / "trials" / "per_instance_stats.json")), 2 * 2 * 7),
        "nan deleted": (
            [
                s
                for s in load(folder / "judge-nan" / "stats.json")
                if s["name"] == {"name": "judge_score", "split": "test"}
            ],
            [],
        ),
    }
    wrong = {what: pair for what, pair in facts.items() if pair[0] != pair[1]}
    if wrong:
        raise SystemExit(f"HELM wrote other numbers than the truths say: {wrong}")
    if [s for s, _, _ in capped] != ["valid", "test", "test"]:
        raise SystemExit(f"the cap of 3 keeps {capped}; rewrite the capped truths")


def gates() -> list[dict[str, Any]]:
    """Each file's truth and gates (the numbers are checked by verify)."""
    plain = "test 3 of 5 right (exact_match 0.6), valid 1 of 2 (0.5); judge_score over test 0.9, 0.8, 0.6, 0.4, 0.3 (mean 0.6), valid 1.0"
    dup = (
        "each (instance, train trial) is written twice, once per metric class with per-instance stats "
        "(BasicGenerationMetric and ScriptedJudgeMetric), and each instance holds only its own split"
    )
    return [
        {
            "file": "full/stats.json",
            "truth": f"helm-run scripted_qa on simple/model1, -m 1000 (no cap reached): {plain}",
            "gates": [
                check(
                    "exact_match", "0.6", "PASS", "meets-threshold", "test exact_match is 0.6 over all 5 test instances"
                ),
                check("exact_match", "0.7", "FAIL", "below-threshold", "test exact_match is 0.6 < 0.7"),
                check(
                    "exact_match", "0.5", "PASS", "meets-threshold", "valid exact_match is 0.5 over both", split="valid"
                ),
                check("exact_match", "0.6", "FAIL", "below-threshold", "valid exact_match is 0.5 < 0.6", split="valid"),
                check(
                    "judge_score",
                    "0.6",
                    "PASS",
                    "meets-threshold",
                    "test judge_score is 3.0/5 = 0.6 (HELM's sum 0.6 of count 1 trial)",
                ),
                check(
                    "prefix_exact_match",
                    "0.5",
                    "PASS",
                    "meets-threshold",
                    "prefix_exact_match equals exact_match here: 0.6",
                ),
            ],
        },
        {
            "file": "full/per_instance_stats.json",
            "truth": f"the per-instance stats of the same run: {plain}; {dup}",
            "gates": [
                report(
                    "exact_match",
                    "test",
                    "5",
                    "0.6",
                    "PASS",
                    "meets-threshold",
                    "the 5 test instances score 1, 1, 1, 0, 0: mean 0.6; the valid instances have no test stat and are "
                    "not in the test population; the judge entry of each instance holds no exact_match",
                ),
                report(
                    "exact_match",
                    "test",
                    "5",
                    "0.7",
                    "FAIL",
                    "below-threshold",
                    "mean 0.6 < 0.7 over all 5 test instances",
                ),
                report("exact_match", "valid", "2", "0.5", "PASS", "meets-threshold", "valid scores 1, 0: mean 0.5"),
                report(
                    "judge_score",
                    "test",
                    "5",
                    "0.6",
                    "PASS",
                    "meets-threshold",
                    "judge scores 0.9, 0.8, 0.6, 0.4, 0.3: mean 0.6",
                ),
                report(
                    "exact_match",
                    "test",
                    "7",
                    "0.5",
                    "INVALID",
                    "missing-evidence",
                    "7 declared, but the test split has 5 instances: 2 scheduled trials have no evidence",
                ),
            ],
        },
        {
            "file": "capped/stats.json",
            "truth": (
                "the run entry sets max_eval_instances=3 (HELM's run expander; -m 1000 is then ignored): HELM samples 3 "
                "of the 7 eval instances, valid and test together (np.random.seed(0)): valid v1 (wrong), test t0 (right) "
                "and t4 (wrong); test exact_match 0.5 over 2 of 5, valid 0.0 over 1 of 2. The full-set test rate is 0.6. "
                "Neither stats.json nor per_instance_stats.json records the scenario's size (run_spec.json says "
                "max_eval_instances 3, a cap, not a population)"
            ),
            "gates": [
                check(
                    "exact_match",
                    "0.5",
                    "PASS",
                    "meets-threshold",
                    "stats.json states 0.5 over the instances it counts (num_instances test 2) and records no population "
                    "beyond them: HELM evaluates a sample by design, so the file supports 0.5; only a declared population "
                    "(report --scheduled 5) can show that 3 test instances are missing",
                ),
                check("exact_match", "0.6", "FAIL", "below-threshold", "0.5 < 0.6 on the sample"),
            ],
        },
        {
            "file": "capped/per_instance_stats.json",
            "truth": f"the per-instance stats of the capped run: instances id2 (valid), id3 and id7 (test); {dup}",
            "gates": [
                report(
                    "exact_match",
                    "test",
                    "5",
                    "0.5",
                    "INVALID",
                    "missing-evidence",
                    "the test split has 5 instances and 2 ran: 3 scheduled trials lack evidence",
                ),
                report(
                    "exact_match",
                    "test",
                    "2",
                    "0.5",
                    "PASS",
                    "meets-threshold",
                    "declaring the 2 sampled test instances: scores 1, 0, mean 0.5",
                ),
            ],
        },
        {
            "file": "sampled/stats.json",
            "truth": (
                "the run spec sets no cap and helm-run -m 3 does: the same sample as capped (valid v1, test t0 and t4): "
                "test exact_match 0.5 over 2 of 5"
            ),
            "gates": [
                check(
                    "exact_match",
                    "0.5",
                    "PASS",
                    "meets-threshold",
                    "as for capped/stats.json: the file records no population beyond the 2 test instances it counts",
                ),
                check(
                    "exact_match",
                    "0.5",
                    "FAIL",
                    "below-threshold",
                    "valid: 0.0 over the 1 sampled instance",
                    split="valid",
                ),
            ],
        },
        {
            "file": "judge-nan/stats.json",
            "truth": (
                "the judge scores NaN on test instance t1 (id4): HELM deletes the test judge_score stat whose sum is NaN "
                "(and its robustness/fairness copies); exact_match is 0.6 as in full"
            ),
            "gates": [
                check(
                    "judge_score",
                    "0.5",
                    "INVALID",
                    "no-match",
                    "HELM deleted the NaN stat: there is no test judge_score to gate, never a pass",
                ),
                check(
                    "judge_score",
                    "0.9",
                    "PASS",
                    "meets-threshold",
                    "the valid judge_score (1.0, no NaN) is intact",
                    split="valid",
                ),
                check("exact_match", "0.6", "PASS", "meets-threshold", "exact_match is complete and finite: 0.6"),
            ],
        },
        {
            "file": "judge-nan/per_instance_stats.json",
            "truth": "per-instance stats of the NaN run: id4's judge_score stat is deleted, the other 4 test instances keep theirs",
            "gates": [
                report(
                    "judge_score",
                    "test",
                    "5",
                    "0.5",
                    "INVALID",
                    "missing-evidence",
                    "instance id4 has no judge_score (HELM deleted the NaN): 1 of 5 scheduled trials lacks evidence",
                ),
                report(
                    "exact_match", "test", "5", "0.6", "PASS", "meets-threshold", "exact_match is complete: mean 0.6"
                ),
            ],
        },
        {
            "file": "judge-inf/stats.json",
            "truth": (
                "the judge scores Infinity on test instance t1 (id4): HELM keeps the stat, with sum, mean, min and max "
                "Infinity and variance and stddev NaN, written bare; exact_match is 0.6"
            ),
            "gates": [
                check("judge_score", "0.5", "INVALID", "non-standard-constant", "the selected mean is Infinity"),
                check(
                    "exact_match",
                    "0.6",
                    "PASS",
                    "meets-threshold",
                    "exact_match is finite and complete; the Infinity and NaN of judge_score are elsewhere, listed",
                ),
            ],
        },
        {
            "file": "judge-inf/per_instance_stats.json",
            "truth": "per-instance stats of the Infinity run: id4's judge_score mean is Infinity",
            "gates": [
                report(
                    "judge_score",
                    "test",
                    "5",
                    "0.5",
                    "INVALID",
                    "missing-evidence",
                    "id4's judge_score is Infinity, an invalid observation: 1 of 5 scheduled trials lacks evidence",
                ),
                report(
                    "exact_match", "test", "5", "0.6", "PASS", "meets-threshold", "exact_match is complete: mean 0.6"
                ),
            ],
        },
        {
            "file": "trials/stats.json",
            "truth": (
                "num_train_trials 2 with 1 in-context example: every eval instance runs twice (train_trial_index 0 and 1) "
                "and answers the same both times: test exact_match 0.6 in each trial, HELM's stat has count 2, mean 0.6"
            ),
            "gates": [
                check("exact_match", "0.6", "PASS", "meets-threshold", "the mean over 2 trials of 0.6 each"),
                check("exact_match", "0.61", "FAIL", "below-threshold", "0.6 < 0.61"),
            ],
        },
        {
            "file": "trials/per_instance_stats.json",
            "truth": f"per-instance stats of the 2-trial run: 7 instances x 2 trials, {dup}",
            "gates": [
                report(
                    "exact_match",
                    "test",
                    "10",
                    "0.6",
                    "PASS",
                    "meets-threshold",
                    "10 trials ([instance_id, train_trial_index] for 5 test instances x 2): 6 of 10 right, mean 0.6",
                ),
                report(
                    "exact_match",
                    "test",
                    "5",
                    "0.6",
                    "INVALID",
                    "population-mismatch",
                    "the file names 10 distinct test trials, more than the 5 declared",
                ),
            ],
        },
    ]


def main() -> None:
    common.check_versions(PINS)
    sys.path.insert(0, str(HERE))
    work = common.fresh_workdir("helm")
    runs = {}
    for name, entry, max_eval, keep in RUNS:
        runs[name] = (run_helm(work, name, entry, max_eval), keep)
    folder = common.clear_corpus("helm")
    for name, (run, keep) in runs.items():
        (folder / name).mkdir()
        for file in keep:
            shutil.copyfile(run / file, folder / name / file)
    verify(folder)
    entries = gates()
    common.write_manifest("helm", RELEASE, entries)
    common.remove_workdir(work)


if __name__ == "__main__":
    main()
