# SPDX-License-Identifier: MIT
"""Write the lm-eval conformance corpus with lm-eval itself, offline.

Run from the repository root, in a venv holding exactly the pinned release
(tools/conformance/README.md):

    $VENVS/corpus-a-lm-eval/bin/python tools/conformance/lm-eval/generate.py

Each run is ``lm-eval run --model scripted --include_path . --output_path
out-<run> --log_samples ...`` over the local tasks and datasets of tasks/,
from a copy of that folder in ``.conformance-tmp/lm-eval`` (the datasets'
``data_files`` are relative), with the scripted model of scripted.py.  Its
results_<date>.json and samples_<task>_<date>.jsonl are copied, names kept
(the per-sample adapter reads the task from the name), to
tests/data/conformance/lm-eval/<run>/.
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

PINS = {"lm-eval": "0.4.13"}
RELEASE = "lm-eval 0.4.13"

# (run, lm-eval arguments after --model scripted)
RUNS = [
    ("basic", ["--tasks", "mc10", "gen10"]),
    ("limit-int", ["--tasks", "mc10", "--limit", "4"]),
    ("limit-float", ["--tasks", "mc10", "--limit", "0.5"]),
    ("samples", ["--tasks", "mc10", "--samples", '{"mc10": [0, 1, 2]}']),
    ("group", ["--tasks", "mc_group"]),
    ("group-limit", ["--tasks", "mc_group", "--limit", "3"]),
    ("repeats", ["--tasks", "rep5"]),
    ("nanmean", ["--tasks", "nan5"]),
    ("perplexity", ["--tasks", "ppl5", "ppl5_inf"]),
    ("lower-is-better", ["--tasks", "mc10_low"]),
    ("predict-only", ["--tasks", "mc10", "--predict_only"]),
]


def check(
    task: str,
    metric: str,
    threshold: str,
    verdict: str,
    code: str | None,
    why: str,
    xfail: str | None = None,
    policy: dict[str, Any] | None = None,
    allow_partial: bool = False,
) -> dict[str, Any]:
    options = ["--task", task, "--metric", metric]
    source: dict[str, Any] = {"task": task, "metric": metric}
    if allow_partial:
        options.append("--allow-partial")
        source["allow_partial"] = True
    return common.gate("check", "lm-eval", options, source, threshold, verdict, code, why, xfail, policy)


def report(
    metric: str,
    results: str,
    threshold: str,
    verdict: str,
    code: str | None,
    why: str,
    xfail: str | None = None,
    direction: str | None = None,
) -> dict[str, Any]:
    # report has no --direction: it follows higher_is_better; the API states it.
    return common.gate(
        "report",
        "lm-eval",
        ["--metric", metric, "--results", results],
        {"metric": metric, "results": results},
        threshold,
        verdict,
        code,
        why,
        xfail,
        api_policy=None if direction is None else {"direction": direction},
    )


def main() -> None:
    common.check_versions(PINS)
    work = common.fresh_workdir("lm-eval")
    shutil.copytree(HERE / "tasks", work / "tasks")
    env = dict(
        os.environ, HF_DATASETS_OFFLINE="1", HF_HUB_OFFLINE="1", HF_DATASETS_CACHE=str((work / "hf-cache").resolve())
    )
    files: dict[str, list[Path]] = {}
    for run, arguments in RUNS:
        command = [sys.executable, str(HERE / "scripted.py"), "run", "--model", "scripted", *arguments]
        command += ["--include_path", ".", "--output_path", f"out-{run}", "--log_samples"]
        subprocess.run(command, cwd=work / "tasks", env=env, check=True, stdout=subprocess.DEVNULL)
        # lm-eval writes into out-<run>/<a folder named after the model>/.
        files[run] = sorted((work / "tasks" / f"out-{run}").rglob("*.json*"))
    # --output_path naming a .json file: lm-eval writes run_<date>.json and the samples beside it.
    subprocess.run(
        [sys.executable, str(HERE / "scripted.py"), "run", "--model", "scripted", "--tasks", "mc10"]
        + ["--include_path", ".", "--output_path", "out-file/run.json", "--log_samples"],
        cwd=work / "tasks",
        env=env,
        check=True,
        stdout=subprocess.DEVNULL,
    )
    files["output-file"] = sorted((work / "tasks" / "out-file").rglob("*.json*"))

    names: dict[tuple[str, str], str] = {}
    written: dict[str, Path] = {}
    for run, paths in files.items():
        for path in paths:
            text = path.read_text(encoding="utf-8")
            if common.scrub_text(text) != text:
                raise SystemExit(f"{path} names a machine path: lm-eval wrote one; decide how to scrub it")
            # samples_<task>_<date>.jsonl: a task name may hold "_", a date does not.
            kind = path.name[len("samples_") : path.name.rindex("_")] if path.name.startswith("samples_") else "results"
            names[(run, kind)] = f"{run}/{path.name}"
            written[f"{run}/{path.name}"] = path
    entries = build_entries(names)
    # Only the files a gate reads are committed (a group's other samples files are left out).
    folder = common.clear_corpus("lm-eval")
    for entry in entries:
        (folder / entry["file"]).parent.mkdir(exist_ok=True)
        shutil.copyfile(written[entry["file"]], folder / entry["file"])
    common.write_manifest("lm-eval", RELEASE, entries)
    common.remove_workdir(work)


def build_entries(names: dict[tuple[str, str], str]) -> list[dict[str, Any]]:
    entries: list[dict[str, Any]] = []

    def add(run: str, kind: str, truth: str, gates: list[dict[str, Any]]) -> None:
        entries.append({"file": names[(run, kind)], "truth": truth, "gates": gates})

    def results(run: str) -> str:
        return names[(run, "results")]

    mc10 = "mc10: 10 multiple-choice documents, the scripted model picks the right choice on documents 0-5"
    add(
        "basic",
        "results",
        f"--tasks mc10 gen10. {mc10}: acc 0.6 (acc_norm 0.6). gen10: 10 generation documents, filters strict-match "
        '("The answer is N") and flexible-extract (the last number): answers right and phrased on 0-5, a bare '
        "right number on 6-7, wrong on 8-9: strict-match 0.6, flexible-extract 0.8",
        [
            check("mc10", "acc,none", "0.5", "PASS", "meets-threshold", "acc 0.6 over all 10 documents >= 0.5"),
            check("mc10", "acc,none", "0.7", "FAIL", "below-threshold", "acc 0.6 over all 10 documents < 0.7"),
            check("mc10", "acc_norm,none", "0.5", "PASS", "meets-threshold", "acc_norm 0.6 >= 0.5"),
            check("gen10", "exact_match,strict-match", "0.5", "PASS", "meets-threshold", "strict-match 0.6 >= 0.5"),
            check("gen10", "exact_match,strict-match", "0.7", "FAIL", "below-threshold", "strict-match 0.6 < 0.7"),
            check(
                "gen10", "exact_match,flexible-extract", "0.7", "PASS", "meets-threshold", "flexible-extract 0.8 >= 0.7"
            ),
            check(
                "gen10",
                "exact_match,none",
                "0.5",
                "INVALID",
                "no-match",
                "gen10 has no filter none: its metric is under strict-match and flexible-extract",
            ),
            check("hellaswag", "acc,none", "0.5", "INVALID", "no-match", "the file holds no task hellaswag"),
        ],
    )
    add(
        "basic",
        "mc10",
        f"samples of the basic run. {mc10}: 6 of 10 lines acc 1",
        [
            report("acc", results("basic"), "0.5", "PASS", "meets-threshold", "10 documents, 6 right: mean 0.6 >= 0.5"),
            report("acc", results("basic"), "0.7", "FAIL", "below-threshold", "10 documents, 6 right: mean 0.6 < 0.7"),
        ],
    )
    add(
        "basic",
        "gen10",
        "samples of the basic run, one line per (document, filter): strict-match right on 6 of 10, flexible-extract on 8",
        [
            report(
                "exact_match",
                results("basic"),
                "0.5",
                "PASS",
                "meets-threshold",
                "20 trials (10 documents x 2 filters), 14 right: 0.7; each filter alone (0.6, 0.8) also >= 0.5",
            ),
        ],
    )

    partial = "n-samples.mc10 says effective {e} of original 10"
    add(
        "limit-int",
        "results",
        f"--tasks mc10 --limit 4. {mc10}: documents 0-3 ran, acc 1.0 in the file; the full-set acc is 0.6",
        [
            check("mc10", "acc,none", "0.5", "INVALID", "partial-run", partial.format(e=4)),
            check(
                "mc10",
                "acc,none",
                "0.5",
                "PASS",
                "meets-threshold",
                "--allow-partial opts in to gating the 4 documents that ran: acc 1.0",
                allow_partial=True,
            ),
        ],
    )
    add(
        "limit-int",
        "mc10",
        "samples of the --limit 4 run: 4 lines, all acc 1",
        [report("acc", results("limit-int"), "0.5", "INVALID", "partial-run", partial.format(e=4))],
    )
    add(
        "limit-float",
        "results",
        f"--tasks mc10 --limit 0.5 (config.limit written 0.5). {mc10}: documents 0-4 ran, acc 1.0; full-set acc 0.6",
        [check("mc10", "acc,none", "0.5", "INVALID", "partial-run", partial.format(e=5))],
    )
    add(
        "limit-float",
        "mc10",
        "samples of the --limit 0.5 run: 5 lines, all acc 1",
        [report("acc", results("limit-float"), "0.5", "INVALID", "partial-run", partial.format(e=5))],
    )
    add(
        "samples",
        "results",
        f"--tasks mc10 --samples '{{\"mc10\": [0, 1, 2]}}' (config.limit stays null). {mc10}: 3 documents ran, "
        "acc 1.0; full-set acc 0.6",
        [check("mc10", "acc,none", "0.5", "INVALID", "partial-run", partial.format(e=3) + "; config.limit is null")],
    )
    add(
        "samples",
        "mc10",
        "samples of the --samples run: 3 lines, all acc 1",
        [report("acc", results("samples"), "0.5", "INVALID", "partial-run", partial.format(e=3))],
    )

    group = "group mc_group of mc10 (10 documents, 6 right) and mc5 (5 documents, 4 right), acc weighted by size"
    add(
        "group",
        "results",
        f"--tasks mc_group. {group}: mc_group acc (6 + 4)/15 = 0.667, mc10 0.6, mc5 0.8",
        [
            check(
                "mc_group", "acc,none", "0.6", "PASS", "meets-threshold", "group acc 0.667 >= 0.6, every subtask whole"
            ),
            check("mc_group", "acc,none", "0.7", "FAIL", "below-threshold", "group acc 0.667 < 0.7"),
            check("mc5", "acc,none", "0.7", "PASS", "meets-threshold", "subtask mc5 acc 0.8 >= 0.7"),
            check(
                "mc_group",
                "acc_norm,none",
                "0.5",
                "INVALID",
                "no-match",
                "the group aggregates acc only; it has no acc_norm",
            ),
        ],
    )
    add(
        "group",
        "mc5",
        "samples of the group run for mc5: 5 lines, 4 right",
        [report("acc", results("group"), "0.7", "PASS", "meets-threshold", "5 documents, 4 right: 0.8 >= 0.7")],
    )
    add(
        "group-limit",
        "results",
        f"--tasks mc_group --limit 3 (config.limit written 3.0). {group}: 3 documents of each ran, all right: "
        "mc_group acc 1.0 (sample_count 6); the full group's acc is 0.667",
        [
            check(
                "mc_group",
                "acc,none",
                "0.7",
                "INVALID",
                "partial-run",
                "n-samples of the subtasks group_subtasks lists: mc10 3 of 10, mc5 3 of 5",
            ),
        ],
    )

    add(
        "group-limit",
        "mc10",
        "samples of the group --limit 3 run for mc10: 3 lines, all right",
        [report("acc", results("group-limit"), "0.5", "INVALID", "partial-run", "n-samples.mc10: effective 3 of 10")],
    )

    add(
        "repeats",
        "results",
        "--tasks rep5: 5 generation documents, repeats 3; filters maj@3 (majority_vote, take_first) and first "
        "(take_first); majority right on 3 documents, first answer right on 4: maj@3 0.6, first 0.8",
        [
            check("rep5", "exact_match,maj@3", "0.5", "PASS", "meets-threshold", "maj@3 0.6 >= 0.5"),
            check("rep5", "exact_match,maj@3", "0.7", "FAIL", "below-threshold", "maj@3 0.6 < 0.7"),
            check("rep5", "exact_match,first", "0.7", "PASS", "meets-threshold", "first 0.8 >= 0.7"),
        ],
    )
    add(
        "repeats",
        "rep5",
        "samples of the repeats run, one line per (document, filter), each with its 3 responses",
        [
            report(
                "exact_match",
                results("repeats"),
                "0.5",
                "PASS",
                "meets-threshold",
                "10 trials (5 documents x 2 filters), 7 right: 0.7; each filter alone (0.6, 0.8) also >= 0.5",
            ),
        ],
    )

    add(
        "nanmean",
        "results",
        "--tasks nan5: 5 documents whose process_results score is 1, 1, NaN, NaN, NaN; aggregation nanmean: "
        "score,none 1.0 over 2 of the 5 documents, stderr NaN, n-samples 5 of 5",
        [
            check(
                "nan5",
                "score,none",
                "0.5",
                "INVALID",
                None,
                "the headline is a nanmean (configs.nan5.metric_list) over the documents whose score was not NaN, "
                "and nothing in the results file says how many those are (its stderr is NaN): the aggregate "
                "covers 2 of the 5 documents n-samples counts. No code states an uncounted aggregate yet: "
                "it should be the coverage rule's code for counts that disagree",
                "PASS meets-threshold: score 1 (the NaN stderr is listed and not judged; nanmean is not read)",
            ),
        ],
    )
    add(
        "nanmean",
        "nan5",
        "samples of the nanmean run: scores 1, 1, NaN, NaN, NaN",
        [
            report(
                "score",
                results("nanmean"),
                "0.5",
                "INVALID",
                "missing-evidence",
                "3 of 5 documents score NaN: they lack valid evidence",
            ),
        ],
    )

    lower = {"maximum": None, "direction": "lower"}
    add(
        "perplexity",
        "results",
        "--tasks ppl5 ppl5_inf: loglikelihood_rolling over 5 documents of 4 words, the scripted loglikelihood -8 "
        "each: ppl5 word_perplexity exp(40/20) = 7.389; ppl5_inf's last document scores -inf: its word_perplexity, "
        "byte_perplexity and bits_per_byte are Infinity; higher_is_better false for all",
        [
            check(
                "ppl5",
                "word_perplexity,none",
                "10",
                "PASS",
                "meets-threshold",
                "word_perplexity 7.389 <= 10, lower is better",
                policy={"threshold": "10", "minimum": "1", **lower},
            ),
            check(
                "ppl5",
                "word_perplexity,none",
                "5",
                "FAIL",
                "below-threshold",
                "word_perplexity 7.389 > 5, lower is better",
                policy={"threshold": "5", "minimum": "1", **lower},
            ),
            check(
                "ppl5_inf",
                "word_perplexity,none",
                "10",
                "INVALID",
                "non-standard-constant",
                "the headline is the JSON constant Infinity",
                policy={"threshold": "10", "minimum": "1", **lower},
            ),
            check(
                "ppl5_inf",
                "bits_per_byte,none",
                "1",
                "INVALID",
                "non-standard-constant",
                "the headline is the JSON constant Infinity",
                policy={"threshold": "1", "minimum": "0", **lower},
            ),
        ],
    )
    add(
        "perplexity",
        "ppl5_inf",
        "samples of ppl5_inf: each word_perplexity is a [loglikelihood, words] pair, the last [-Infinity, 4]",
        [
            report(
                "word_perplexity",
                results("perplexity"),
                "0.5",
                "INVALID",
                "missing-evidence",
                "a perplexity is defined over the corpus only: each line holds a [loglikelihood, words] pair, no score",
                direction="lower",
            ),
        ],
    )
    add(
        "perplexity",
        "ppl5",
        "samples of ppl5: each word_perplexity is a [loglikelihood, words] pair, [-8.0, 4]",
        [
            report(
                "word_perplexity",
                results("perplexity"),
                "0.5",
                "INVALID",
                "missing-evidence",
                "a perplexity is defined over the corpus only: each line holds a [loglikelihood, words] pair, no score",
                direction="lower",
            ),
        ],
    )

    add(
        "lower-is-better",
        "results",
        "--tasks mc10_low: 10 multiple-choice documents, 1 right: acc 0.1; the task YAML declares "
        "higher_is_better: false for acc, which the file repeats",
        [
            check(
                "mc10_low",
                "acc,none",
                "0.5",
                "INVALID",
                None,
                "acc is an accuracy, higher is better; the file's higher_is_better false may not turn 0.1 into a "
                "pass. It should be refused naming both directions (the issue's rule); no code says that yet",
                "CLI: PASS meets-threshold, score 0.1 <= threshold 0.5, lower is better (the file's direction is "
                "taken); API: PolicyError option-conflict, advising direction 'lower' for an accuracy",
            ),
        ],
    )
    add(
        "lower-is-better",
        "mc10_low",
        "samples of the mc10_low run: 1 of 10 lines acc 1",
        [
            report(
                "acc",
                results("lower-is-better"),
                "0.5",
                "INVALID",
                None,
                "as for the results file: the per-sample direction may not come from higher_is_better false on acc",
                "CLI: PASS meets-threshold, mean 0.1 <= 0.5, lower is better (the file's direction is taken); "
                "API: PolicyError option-conflict, advising direction 'lower' for an accuracy",
            ),
        ],
    )
    add(
        "predict-only",
        "results",
        "--tasks mc10 --predict_only: no metric computed; n-samples effective 0 of 10, higher_is_better {bypass: true}",
        [
            check(
                "mc10",
                "acc,none",
                "0.5",
                "INVALID",
                "empty-run",
                "no document was scored (n-samples effective 0, --predict_only): nothing to gate",
                "INVALID no-match: the absent acc,none is found before n-samples effective 0, and the message "
                "does not say the run scored nothing",
            ),
        ],
    )
    add(
        "predict-only",
        "mc10",
        "samples of the --predict_only run: 10 lines with responses, metrics [] and no acc member",
        [
            report(
                "acc",
                results("predict-only"),
                "0.5",
                "INVALID",
                "empty-run",
                "the run scored no document (n-samples effective 0); the lines hold responses and no score",
                "INVALID partial-run: 'lm-eval ran 0 of 10 documents of mc10 (--limit)', though no --limit was given",
            ),
        ],
    )
    add(
        "output-file",
        "results",
        f"--tasks mc10 --output_path out-file/run.json: the results file is named run_<date>.json. {mc10}: acc 0.6",
        [
            check("mc10", "acc,none", "0.5", "PASS", "meets-threshold", "acc 0.6 over all 10 documents >= 0.5"),
            check("mc10", "acc,none", "0.7", "FAIL", "below-threshold", "acc 0.6 < 0.7"),
        ],
    )
    add(
        "output-file",
        "mc10",
        "samples written beside run_<date>.json: 6 of 10 lines acc 1",
        [
            report(
                "acc", names[("output-file", "results")], "0.5", "PASS", "meets-threshold", "6 of 10 right: 0.6 >= 0.5"
            )
        ],
    )
    return entries


if __name__ == "__main__":
    main()
