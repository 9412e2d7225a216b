# SPDX-License-Identifier: MIT
"""Regressions from the adversarial review of the lm-eval and HELM readers: wrong PASSes.

Each case mutates a file lm-eval 0.4.13 (or HELM) wrote itself, from
``tests/data/conformance``, the way the review did, and asserts the
verdict and reason code; the unmutated file still passes, so the test
shows what the mutation changed.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scorecontract import Policy, PolicyError, Source, Verdict, evaluate, report

CORPUS = Path(__file__).parent / "data" / "conformance"
LM_EVAL = CORPUS / "lm-eval"
BASIC_DATE = "2026-12-01T22-15-49.548908"
BASIC_RESULTS = LM_EVAL / "basic" / f"results_{BASIC_DATE}.json"
BASIC_MC10 = LM_EVAL / "basic" / f"samples_mc10_{BASIC_DATE}.jsonl"
GROUP = LM_EVAL / "group" / "results_2026-12-01T22-16-21.729814.json"
OTHER_RUN = LM_EVAL / "output-file" / "run_2026-12-01T22-17-23.945348.json"
HELM_FULL = CORPUS / "helm" / "full" / "per_instance_stats.json"


def _lines(path: Path) -> list[dict[str, object]]:
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    assert lines, path
    return lines


def _written(tmp_path: Path, name: str, lines: list[dict[str, object]]) -> Path:
    path = tmp_path / name
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path


def _mc10_report(path: Path, results: Path = BASIC_RESULTS) -> object:
    return report(str(path), source=Source("lm-eval", metric="acc", results=str(results)), threshold=0.8)


# -- 15: doc_id is a document's index; the lines hash to task_hashes ---------------------------------


def _copy_id(how: str, index: int) -> object:
    """The doc_id the copy of document *index* is given."""
    return {"negative": -1 - index, "string": str(index), "beyond": 10 + index, "in range": 6 + index}[how]


def _copied(tmp_path: Path, how: str) -> Path:
    """basic's samples_mc10 with its 4 failing lines replaced by copies of the first 4 passing ones."""
    lines = _lines(BASIC_MC10)
    assert [line["acc"] for line in lines] == [1.0] * 6 + [0.0] * 4
    for index in range(4):
        lines[6 + index] = {**lines[index], "doc_id": _copy_id(how, index)}
    return _written(tmp_path, BASIC_MC10.name, lines)


@pytest.mark.parametrize(
    ("how", "codes"),
    [("negative", {"bad-trial-id": 4}), ("string", {"bad-trial-id": 4}), ("beyond", {"not-scheduled": 4})],
)
def test_a_doc_id_no_document_of_the_run_has_is_an_invalid_observation(
    tmp_path: Path, how: str, codes: dict[str, int]
) -> None:
    # Without task_hashes (lm-eval before 0.4.3), the ids alone say it.
    document = json.loads(BASIC_RESULTS.read_text())
    del document["task_hashes"]
    results = tmp_path / BASIC_RESULTS.name
    results.write_text(json.dumps(document), encoding="utf-8")
    assert _mc10_report(BASIC_MC10, results).verdict is Verdict.FAIL  # 0.6 < 0.8: the true result
    result = _mc10_report(_copied(tmp_path, how), results)
    assert (result.verdict, dict(result.invalid_by_code)) == (Verdict.INVALID, codes)


@pytest.mark.parametrize("how", ["negative", "string", "beyond", "in range"])
def test_copied_lines_do_not_hash_to_task_hashes(tmp_path: Path, how: str) -> None:
    # "in range": the ids are right; only the doc_hash of each line shows the copies.
    assert _mc10_report(BASIC_MC10).verdict is Verdict.FAIL
    result = _mc10_report(_copied(tmp_path, how))
    assert (result.verdict, result.code) == (Verdict.INVALID, "population-mismatch")
    assert "task_hashes" in result.message


def test_a_doc_id_is_an_integer_from_0_without_the_results_file_too(tmp_path: Path) -> None:
    lines = _lines(BASIC_MC10)
    lines[0] = {**lines[0], "doc_id": -1}
    lines[1] = {**lines[1], "doc_id": True}
    result = report(
        str(_written(tmp_path, BASIC_MC10.name, lines)), source=Source("lm-eval", metric="acc"), scheduled=10
    )
    assert result.verdict is Verdict.INVALID
    assert dict(result.invalid_by_code) == {"bad-trial-id": 2}


def test_the_corpus_lines_hash_to_their_task_hashes() -> None:
    # The check of task_hashes refuses nothing lm-eval wrote: every filter's lines.
    cases = [("basic", "mc10", "acc"), ("basic", "gen10", "exact_match"), ("repeats", "rep5", "exact_match,first")]
    for folder, task, metric in cases:
        (results,) = (LM_EVAL / folder).glob("results_*.json")
        (samples,) = (LM_EVAL / folder).glob(f"samples_{task}_*.jsonl")
        assert task in json.loads(results.read_text())["task_hashes"]
        result = report(str(samples), source=Source("lm-eval", metric=metric, results=str(results)), threshold=0.1)
        assert result.verdict is Verdict.PASS, (folder, task, result.code)


# -- 24: the samples and the results file of one run -------------------------------------------------


def test_samples_of_one_run_under_the_results_file_of_another_are_invalid() -> None:
    assert (
        json.loads(OTHER_RUN.read_text())["task_hashes"]["mc10"]
        == json.loads(BASIC_RESULTS.read_text())["task_hashes"]["mc10"]
    )  # the same documents and prompts: only the date id tells the runs apart
    assert _mc10_report(BASIC_MC10).verdict is Verdict.FAIL
    result = _mc10_report(BASIC_MC10, OTHER_RUN)
    assert (result.verdict, result.code) == (Verdict.INVALID, "population-mismatch")
    assert "2026-12-01T22-17-23.945348" in result.message


# -- 11: a group is a group whatever n-samples says ---------------------------------------------------


def _group() -> dict[str, object]:
    document: dict[str, object] = json.loads(GROUP.read_text())
    return document


def test_a_group_with_its_own_n_samples_still_stands_on_its_subtasks() -> None:
    source = Source("lm-eval", task="mc_group", metric="acc,none")
    document = _group()
    assert evaluate(json.dumps(document), source=source, policy=Policy(0.6)).verdict is Verdict.PASS
    samples = document["n-samples"]
    assert isinstance(samples, dict)
    samples["mc_group"] = {"original": 15, "effective": 15}
    samples["mc10"] = {"original": 10, "effective": 3}
    decision = evaluate(json.dumps(document), source=source, policy=Policy(0.6))
    assert (decision.verdict, decision.code) == (Verdict.INVALID, "population-mismatch")
    assert "mc10, a subtask of mc_group" in decision.message


def test_report_refuses_a_group_given_n_samples_as_its_task(tmp_path: Path) -> None:
    document = _group()
    document["n-samples"]["mc_group"] = {"original": 15, "effective": 15}  # type: ignore[index]
    results = tmp_path / GROUP.name
    results.write_text(json.dumps(document), encoding="utf-8")
    with pytest.raises(PolicyError, match="is a group"):
        report(b"", source=Source("lm-eval", metric="acc", task="mc_group", results=str(results)))


# -- 22: a group's value stated twice, and against its subtasks ----------------------------------------


@pytest.mark.parametrize(
    ("where", "words"),
    [(("results",), "twice"), (("results", "groups"), "not the mean of its tasks")],
)
def test_a_group_value_unlike_its_copy_or_its_tasks_is_value_mismatch(where: tuple[str, ...], words: str) -> None:
    source = Source("lm-eval", task="mc_group", metric="acc,none")
    document = _group()
    for member in where:
        document[member]["mc_group"]["acc,none"] = 0.9  # type: ignore[index]
    decision = evaluate(json.dumps(document), source=source, policy=Policy(0.8))
    assert (decision.verdict, decision.code) == (Verdict.INVALID, "value-mismatch")
    assert words in decision.message


@pytest.mark.parametrize("weighted", [True, False])
def test_a_group_value_of_either_weighting_lm_eval_takes_is_followed(weighted: bool) -> None:
    # 0.6 over 10 and 0.8 over 5: 2/3 weighted by size (the default), 0.7 not.
    document = _group()
    value = 0.6666666666666666 if weighted else 0.7
    for member in ("results", "groups"):
        document[member]["mc_group"]["acc,none"] = value  # type: ignore[index]
    decision = evaluate(
        json.dumps(document), source=Source("lm-eval", task="mc_group", metric="acc,none"), policy=Policy(0.6)
    )
    assert decision.verdict is Verdict.PASS


# -- 19 (HELM): every instance under the same train trials -------------------------------------------


def test_helm_instances_under_unlike_train_trials_are_invalid() -> None:
    instances = json.loads(HELM_FULL.read_text())
    source = Source("helm", metric="exact_match", split="test")
    assert report(json.dumps(instances).encode(), source=source, scheduled=5, threshold=0.8).verdict is Verdict.FAIL
    # The failing test instances moved to another split, two passing ones
    # copied under a train trial no other instance has: 5 passing trials.
    for instance in instances:
        for stat in instance["stats"]:
            if instance["instance_id"] in ("id6", "id7") and stat["name"].get("split") == "test":
                stat["name"]["split"] = "valid"
    copies = [
        {**instance, "train_trial_index": 1} for instance in instances if instance["instance_id"] in ("id3", "id4")
    ]
    assert len(copies) >= 2
    result = report(json.dumps(instances + copies).encode(), source=source, scheduled=5, threshold=0.8)
    assert (result.verdict, result.code) == (Verdict.INVALID, "population-mismatch")
    assert "train_trial_index" in result.message
