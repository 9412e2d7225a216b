# SPDX-License-Identifier: MIT
"""``report --from HARNESS``, ``--select``/``--trial-id`` and shards.

The fixtures under fixtures/harnesses/samples/ are each harness's real
per-sample shape; the Inspect ``.eval`` logs are built here with
``zipfile`` from the ``.json`` ones, member for member as Inspect's
recorder writes them.
"""

from __future__ import annotations

import hashlib
import io
import json
import zipfile
from pathlib import Path

import pytest

from scorecontract import PolicyError, Source, Verdict, report
from scorecontract._cli import main
from support import FIXTURES, run_fresh

SAMPLES = FIXTURES / "harnesses" / "samples"
DATE = "2025-06-02T10-14-07.123456"
LM = SAMPLES / "lm-eval"
RESULTS = str(LM / f"results_{DATE}.json")
GSM8K = str(LM / f"samples_gsm8k_{DATE}.jsonl")
NEGOTIATION = str(LM / f"samples_negotiationtom_belief_{DATE}.jsonl")
LETTERS = str(SAMPLES / "inspect" / "letters-log.json")
UNSCORED = str(SAMPLES / "inspect" / "unscored-log.json")
UNKNOWN = str(SAMPLES / "inspect" / "unknown-letter-log.json")
HELM = str(SAMPLES / "helm" / "per_instance_stats.json")
HELM_COUNT0 = str(SAMPLES / "helm" / "per_instance_stats_count0.json")
PROMPTFOO = str(SAMPLES / "promptfoo" / "results.json")
PROMPTFOO_ERRORS = str(SAMPLES / "promptfoo" / "results-errors.json")
PROMPTFOO_DISAGREE = str(SAMPLES / "promptfoo" / "results-disagree.json")
SHARD_1 = str(SAMPLES / "generic" / "shard-1.jsonl")
SHARD_2 = str(SAMPLES / "generic" / "shard-2.jsonl")
LABELS = {"C": 1, "P": 0.5, "I": 0, "N": 0}


def test_every_fixture_is_there_and_in_its_harness_shape():
    # A data-driven test must fail when it finds no data.
    for path in (RESULTS, GSM8K, NEGOTIATION, LETTERS, UNSCORED, UNKNOWN, HELM, HELM_COUNT0, PROMPTFOO):
        assert Path(path).stat().st_size > 100, path
    first = json.loads(Path(GSM8K).read_text().split("\n")[0])
    assert {"doc_id", "filter", "metrics", "doc_hash", "resps", "filtered_resps", "exact_match"} <= set(first)
    log = json.loads(Path(LETTERS).read_text())  # json.loads takes the NaN Inspect writes
    assert log["version"] == 2 and log["results"]["total_samples"] == len(log["samples"]) == 6
    assert type(json.loads(Path(HELM).read_text())) is list
    assert set(json.loads(Path(PROMPTFOO).read_text())["results"]["stats"]) >= {"successes", "failures", "errors"}


def test_every_per_sample_fixture_is_gated_here():
    on_disk = sorted(str(path) for path in SAMPLES.rglob("*") if path.is_file())
    named = sorted(
        [RESULTS, GSM8K, NEGOTIATION, LETTERS, UNSCORED, UNKNOWN, HELM, HELM_COUNT0, PROMPTFOO]
        + [PROMPTFOO_ERRORS, PROMPTFOO_DISAGREE, SHARD_1, SHARD_2]
    )
    assert on_disk == named


# -- canonical trial ids ---------------------------------------------------------------


def trial_id_of(trial_id, document):
    """The id ``report(..., trial_id=...)`` gives the one trial *document*."""
    line = json.dumps({**document, "score": 0.9}, ensure_ascii=False).encode() + b"\n"
    result = report(line, scheduled=1, select_score="score", trial_id=trial_id)
    assert result.valid == 1 and result.invalid_observations == (), result
    [row] = result.trials()
    return row[0]


def test_trial_ids_are_the_json_text_of_their_members():
    assert trial_id_of("$.a,$.b", {"a": 3, "b": "none"}) == '[3,"none"]'
    assert trial_id_of("$.a,$.b", {"a": "1", "b": "a"}) != trial_id_of("$.a,$.b", {"a": 1, "b": "a"})
    assert trial_id_of("$.a", {"a": "é\u2028"}) == '["é\u2028"]'


@pytest.mark.parametrize(
    "member, code",
    [
        ("true", "bad-trial-id"),
        ("1.0", "bad-trial-id"),
        ("null", "bad-trial-id"),
        ("[1]", "bad-trial-id"),
        ('{"a": 1}', "bad-trial-id"),
        ("NaN", "non-standard-constant"),
        ("1e400", "non-finite"),
    ],
)
def test_an_id_member_that_is_no_string_or_integer_is_an_invalid_observation(member, code):
    line = f'{{"item": {member}, "seed": "a", "score": 0.9}}\n'.encode()
    result = report(line, manifest=['[1,"a"]'], select_score="score", trial_id="item,seed")
    assert result.verdict is Verdict.INVALID
    assert [o.code for o in result.invalid_observations] == [code]
    assert result.invalid_observations[0].trial_id is None


def test_a_missing_id_member_is_missing_member():
    result = report(b'{"seed": "a", "score": 0.9}\n', manifest=['[1,"a"]'], select_score="score", trial_id="item,seed")
    assert [o.code for o in result.invalid_observations] == ["missing-member"]


def test_string_and_integer_ids_are_two_trials():
    lines = b'{"item": 1, "score": 1}\n{"item": "1", "score": 0}\n'
    result = report(lines, scheduled=2, select_score="score", trial_id="item")
    assert result.valid == 2 and result.ignored == 0
    assert [row[0] for row in result.trials()] == ["[1]", '["1"]']
    assert result.verdict is Verdict.FAIL  # mean 0.5: the 0 was not taken for a rerun of the 1


def test_split_queries_keeps_commas_inside_brackets_and_quotes():
    # One member per query: two queries give a two-member id.
    assert trial_id_of("doc_id,filter", {"doc_id": 1, "filter": "f"}) == '[1,"f"]'
    assert trial_id_of("$['acc,none'],/x", {"acc,none": 1, "x": 2}) == "[1,2]"
    assert trial_id_of("$[?@.a == 'x,y'].b,seed", {"t": {"a": "x,y", "b": 5}, "seed": 7}) == "[5,7]"


# -- the generic form ------------------------------------------------------------------


@pytest.mark.parametrize("query", ["$.result.score", "/result/score"])
def test_select_score_takes_jsonpath_and_pointers(query):
    line = b'{"id": "a", "result": {"score": 0.9}}\n'
    result = report(line, scheduled=1, select_score=query, trial_id=["$.id"])
    assert (result.verdict, result.valid) == (Verdict.PASS, 1)


@pytest.mark.parametrize(
    "line, code",
    [
        (b'{"id": "a", "result": {}}', "no-match"),
        (b'{"id": "a", "result": [{"score": 1}, {"score": 1}]}', "ambiguous-selection"),
        (b'{"id": "a", "result": {"score": "0.9"}}', "wrong-type"),
        (b'{"id": "a", "result": {"score": NaN}}', "non-standard-constant"),
        (b'{"id": "a", "result": {"score": 1e400}}', "non-finite"),
        (b'{"id": "a", "id": "b", "result": {"score": 1}}', "duplicate-member"),
        (b"[1]", "not-an-object"),
        (b"", "empty"),
    ],
)
def test_a_generic_record_that_is_not_evidence_is_invalid(line, code):
    result = report(line + b"\n{}\n", manifest=['["a"]'], select_score="$..score", trial_id="id")
    assert result.verdict is Verdict.INVALID
    assert result.invalid_observations[0].code == code


def test_nan_elsewhere_in_a_record_is_not_read():
    line = b'{"id": "a", "score": 0.9, "other": NaN}\n'
    assert report(line, scheduled=1, select_score="score", trial_id="id").verdict is Verdict.PASS
    # while a trial line, whose every member is evidence, refuses it
    assert report(b'{"trial_id": "a", "score": 0.9, "other": NaN}\n', scheduled=1).verdict is Verdict.INVALID


def test_select_score_and_trial_id_go_together():
    with pytest.raises(PolicyError) as caught:
        report(b"", scheduled=1, select_score="score")
    assert caught.value.code == "bad-policy"
    with pytest.raises(PolicyError) as caught:
        report(b"", scheduled=1, select_score="$[", trial_id="id")
    assert caught.value.code == "bad-selector"


# -- shards ---------------------------------------------------------------------------------


def test_shards_are_one_population_and_a_trial_in_two_is_a_rerun():
    result = report([SHARD_1, SHARD_2], scheduled=5, threshold=0.5, select_score="$.result.score", trial_id="item,seed")
    assert (result.verdict, result.valid, result.ignored, result.observed) == (Verdict.PASS, 5, 1, 6)
    (rerun,) = result.ignored_observations
    assert (rerun.file, rerun.line, rerun.evidence_file, rerun.evidence_line) == (SHARD_2, 2, SHARD_1, 2)
    assert rerun.location() == f"{SHARD_2} line 2"
    assert SHARD_1 in rerun.message
    # The first file's evidence counts: 0.5 from shard 1, not the 1.0 of shard 2.
    assert result.mean.numerator == 3.5
    swapped = report(
        [SHARD_2, SHARD_1], scheduled=5, threshold=0.5, select_score="$.result.score", trial_id="item,seed"
    )
    assert swapped.mean.numerator == 4.0


def test_the_receipt_records_each_shard():
    import hashlib

    result = report([SHARD_1, SHARD_2], scheduled=5, select_score="$.result.score", trial_id="item,seed")
    files = result.as_dict()["input"]["files"]
    for item, path in zip(files, (SHARD_1, SHARD_2)):
        data = Path(path).read_bytes()
        assert item == {"name": path, "sha256": hashlib.sha256(data).hexdigest(), "bytes": len(data)}
    both = Path(SHARD_1).read_bytes() + Path(SHARD_2).read_bytes()
    assert result.sha256 == hashlib.sha256(both).hexdigest() and result.size == len(both)
    assert result.as_dict()["source"] == {"select_score": "$.result.score", "trial_id": ["item", "seed"]}


def test_plain_trial_shards_keep_the_fast_path_counts_and_name_each_file():
    first = b'{"trial_id": "a", "score": 0.9}\n{"trial_id": "b", "score": NaN}\n'
    second = b'{"trial_id": "b", "score": 0.8}\n{"trial_id": "a", "score": 0.1}\n'
    result = report([first, second], scheduled=2)
    assert (result.verdict, result.valid, result.invalid, result.ignored) == (Verdict.PASS, 2, 1, 1)
    assert result.invalid_observations[0].location() == "input 1 line 2"
    assert result.ignored_observations[0].evidence_location() == "input 1 line 1"
    assert [row[2] for row in result.trials()] == [1, 1]  # each the line within its own file
    single = report(first + second, scheduled=2)
    assert single.invalid_observations[0].as_dict() == {
        "line": 2,
        "trial_id": "b",
        "code": "non-standard-constant",
        "message": single.invalid_observations[0].message,
    }
    assert "files" not in single.as_dict()["input"]


def test_a_failing_shard_names_itself(tmp_path):
    result = report([SHARD_1, str(tmp_path / "missing.jsonl")], scheduled=5, select_score="score", trial_id="item")
    assert result.verdict is Verdict.INVALID and result.code == "file-not-found"
    assert "missing.jsonl" in result.message
    with pytest.raises(PolicyError):
        report([], scheduled=1)


# -- lm-eval ---------------------------------------------------------------------------------


def test_lm_eval_population_is_n_samples_times_the_filters():
    result = report(GSM8K, source=Source("lm-eval", metric="exact_match", results=RESULTS), threshold=0.5)
    assert (result.verdict, result.scheduled, result.valid) == (Verdict.PASS, 6, 6)
    assert [row[0] for row in result.trials()][:2] == ['[0,"strict-match"]', '[1,"strict-match"]']
    assert result.as_dict()["source"] == {
        "harness": "lm-eval",
        "metric": "exact_match",
        "task": "gsm8k",
        "allow_partial": False,
        "results_sha256": hashlib.sha256(Path(RESULTS).read_bytes()).hexdigest(),
    }


@pytest.mark.parametrize(
    ("metric", "verdict", "mean"),
    [
        ("exact_match,strict-match", Verdict.FAIL, 2 / 3),
        ("exact_match,flexible-extract", Verdict.PASS, 1.0),
    ],
    ids=["strict-match", "flexible-extract"],
)
def test_lm_eval_the_filter_picks_the_lines_of_a_two_filter_file(metric, verdict, mean):
    # The fixture holds 3 documents under each of 2 filters: the filter
    # named is the population, 3 trials; the other's 3 lines are counted.
    result = report(GSM8K, source=Source("lm-eval", metric=metric, results=RESULTS), threshold=0.7)
    assert (result.verdict, result.scheduled, result.observed, result.valid) == (verdict, 3, 3, 3)
    assert result.mean.value == pytest.approx(mean)
    picked = metric.split(",")[1]
    assert {row[0].split(",")[1] for row in result.trials()} == {f'"{picked}"]'}
    assert result.as_dict()["source"]["filter"] == picked
    assert result.as_dict()["source"]["other_filter_lines"] == 3
    # Without the results file, the declared count is the filter's documents.
    alone = report(GSM8K, source=Source("lm-eval", metric=metric), scheduled=3, threshold=0.7)
    assert (alone.verdict, alone.valid) == (verdict, 3)


def test_lm_eval_a_filter_the_results_file_does_not_report_is_invalid():
    result = report(GSM8K, source=Source("lm-eval", metric="exact_match,none", results=RESULTS))
    assert (result.verdict, result.code) == (Verdict.INVALID, "missing-member")
    assert "exact_match,strict-match" in result.message


def test_lm_eval_a_missing_line_is_missing_evidence():
    lines = Path(GSM8K).read_bytes().split(b"\n")
    result = report(
        b"\n".join(lines[:5]) + b"\n", source=Source("lm-eval", metric="exact_match", results=RESULTS, task="gsm8k")
    )
    assert (result.verdict, result.code, result.missing) == (Verdict.INVALID, "missing-evidence", 1)


def test_lm_eval_a_list_valued_metric_is_wrong_type_with_the_corpus_level_hint():
    source = Source("lm-eval", metric="f1", results=RESULTS, allow_partial=True)
    result = report(NEGOTIATION, source=source)
    assert result.invalid_by_code == {"wrong-type": 4}
    assert "only at corpus level" in result.invalid_observations[0].message
    assert result.missing == 4 and result.mean.value is None  # never a 0.0


def test_lm_eval_a_limit_run_is_partial_unless_allowed():
    result = report(NEGOTIATION, source=Source("lm-eval", metric="acc", results=RESULTS))
    assert (result.verdict, result.code) == (Verdict.INVALID, "partial-run")
    assert "lm-eval covered 4 of 13812 documents of negotiationtom_belief (n-samples effective 4" in result.message
    allowed = report(
        NEGOTIATION, source=Source("lm-eval", metric="acc", results=RESULTS, allow_partial=True), threshold=0.7
    )
    assert (allowed.verdict, allowed.scheduled) == (Verdict.PASS, 4)


def test_lm_eval_without_results_needs_a_declared_population():
    with pytest.raises(PolicyError) as caught:
        report(GSM8K, source=Source("lm-eval", metric="exact_match"))
    assert caught.value.code == "no-population"
    assert (
        report(GSM8K, source=Source("lm-eval", metric="exact_match"), scheduled=6, threshold=0.5).verdict
        is Verdict.PASS
    )


@pytest.mark.parametrize(
    "options",
    [
        {"metric": "acc,"},
        {"metric": ",none"},
        {"metric": "acc,none,x"},
        {},
        {"metric": "acc", "scorer": "match"},
        {"metric": "acc", "allow_partial": True},
        {"metric": "acc", "results": RESULTS, "allow_partial": "yes"},
    ],
)
def test_lm_eval_options_are_refused_as_configuration(options):
    with pytest.raises(PolicyError) as caught:
        report(GSM8K, source=Source("lm-eval", **options), scheduled=6)
    assert caught.value.code == "bad-option"


def test_lm_eval_the_task_comes_from_the_file_name_or_the_option():
    data = Path(GSM8K).read_bytes()
    with pytest.raises(PolicyError):
        report(data, source=Source("lm-eval", metric="exact_match", results=RESULTS))
    named = report(data, source=Source("lm-eval", metric="exact_match", results=RESULTS, task="gsm8k"), threshold=0.5)
    assert named.verdict is Verdict.PASS
    wrong = report(data, source=Source("lm-eval", metric="exact_match", results=RESULTS, task="mmlu"))
    # As check --from lm-eval says it: the option, and the tasks there are.
    assert (wrong.verdict, wrong.code) == (Verdict.INVALID, "no-match")
    assert "has no task 'mmlu' (--task); its tasks and groups: " in wrong.message


def test_lm_eval_a_stringified_float32_is_wrong_type():
    line = b'{"doc_id": 0, "filter": "none", "acc": "0.5123"}\n'
    result = report(line, source=Source("lm-eval", metric="acc"), scheduled=1)
    assert result.invalid_observations[0].code == "wrong-type"
    assert "numpy float32" in result.invalid_observations[0].message


# -- Inspect ----------------------------------------------------------------------------------


def _eval_log(json_log: str, **changes: object) -> bytes:
    """The .eval ZIP of a .json log: header.json, and one member per sample."""
    log = json.loads(Path(json_log).read_text())
    samples = log.pop("samples")
    log.update(changes)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("_journal/start.json", json.dumps({"version": 2, "eval": log["eval"]}))
        for sample in samples:
            archive.writestr(f"samples/{sample['id']}_epoch_{sample['epoch']}.json", json.dumps(sample))
        archive.writestr("summaries.json", "[]")
        archive.writestr("header.json", json.dumps(log))
    return buffer.getvalue()


def test_inspect_letters_need_an_explicit_closed_map():
    mapped = report(LETTERS, source=Source("inspect", scorer="match", labels=LABELS))
    assert (mapped.verdict, mapped.scheduled, mapped.valid) == (
        Verdict.PASS,
        6,
        6,
    )  # 3 samples x 2 epochs: total_samples counts epochs
    assert mapped.mean.numerator == 5.5
    bare = report(LETTERS, source=Source("inspect", scorer="match"))
    assert bare.invalid_by_code == {"wrong-type": 6}
    assert "--labels C=1,P=0.5,I=0,N=0" in bare.invalid_observations[0].message
    assert bare.invalid_observations[0].where == "$['samples'][0]"
    assert bare.invalid_observations[0].line == 1


def test_inspect_an_unknown_letter_is_invalid_never_zero():
    result = report(UNKNOWN, source=Source("inspect", scorer="match", labels={"C": 1, "I": 0}))
    assert result.invalid_by_code == {"unknown-label": 1}
    assert (result.verdict, result.valid, result.mean.numerator) == (Verdict.INVALID, 2, 2)


def test_inspect_nan_is_the_unscored_sentinel_an_invalid_observation():
    result = report(UNSCORED, source=Source("inspect", scorer="match"))
    assert result.invalid_by_code == {"non-standard-constant": 1}
    assert (result.verdict, result.code, result.missing_trials) == (Verdict.INVALID, "missing-evidence", ("[2,1]",))


def test_inspect_eval_logs_read_their_sample_members():
    data = _eval_log(LETTERS)
    result = report(data, source=Source("inspect", scorer="match", labels=LABELS))
    assert (result.verdict, result.valid, result.mean.numerator) == (Verdict.PASS, 6, 5.5)
    nan = report(_eval_log(UNSCORED), source=Source("inspect", scorer="match"))
    assert [o.where for o in nan.invalid_observations] == ["samples/2_epoch_1.json"]


def test_inspect_eval_archive_refusals(tmp_path):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        header = {"version": 2, "status": "success", "results": {"total_samples": 1, "completed_samples": 1}}
        archive.writestr("header.json", json.dumps(header))
        archive.writestr("samples/1_epoch_1.json", b'{"id": 1, "epoch": 1, "pad": "' + b" " * 8_000_000 + b'"}')
    bomb = report(buffer.getvalue(), source=Source("inspect", scorer="match"), max_line_bytes=64 * 1024 * 1024)
    assert (bomb.verdict, bomb.code) == (Verdict.INVALID, "archive-too-large")
    buffer = io.BytesIO()
    with pytest.warns(UserWarning), zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("header.json", "{}")
        archive.writestr("header.json", "{}")
    assert report(buffer.getvalue(), source=Source("inspect", scorer="match")).code == "bad-archive"
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("samples/1_epoch_1.json", "{}")
    assert report(buffer.getvalue(), source=Source("inspect", scorer="match")).code == "bad-archive"


def test_inspect_population_rules():
    log = json.loads(Path(UNKNOWN).read_text())
    plain = json.dumps(log).encode()
    assert (
        report(plain, source=Source("inspect", scorer="match", labels=LABELS | {"E": 0}), scheduled=3).verdict
        is Verdict.FAIL
    )
    mismatch = report(plain, source=Source("inspect", scorer="match", labels=LABELS), scheduled=4)
    assert (mismatch.verdict, mismatch.code) == (Verdict.INVALID, "population-mismatch")
    log["invalidated"] = True
    assert report(json.dumps(log).encode(), source=Source("inspect", scorer="match")).code == "requirement-failed"
    del log["invalidated"]
    # total_samples counts each epoch already: epochs never multiply it.
    log["eval"]["config"]["epochs"] = 2
    assert report(plain, source=Source("inspect", scorer="match", labels=LABELS | {"E": 0})).scheduled == 3
    # 3 completed of 6 scheduled: a partial run, by the rule check --from
    # inspect applies; --allow-partial gates the 3.
    log["results"]["total_samples"] = 6
    partial = report(json.dumps(log).encode(), source=Source("inspect", scorer="match", labels=LABELS | {"E": 0}))
    assert partial.code == "partial-run" and "Inspect covered 3 of 6 samples" in partial.message
    allowed = Source("inspect", scorer="match", labels=LABELS | {"E": 0}, allow_partial=True)
    assert report(json.dumps(log).encode(), source=allowed).scheduled == 3
    del log["results"]
    assert report(json.dumps(log).encode(), source=Source("inspect", scorer="match")).code == "missing-member"
    del log["samples"]
    assert report(json.dumps(log).encode(), source=Source("inspect", scorer="match")).code == "missing-member"


def test_inspect_labels_are_checked_as_configuration():
    for labels in ({"C": "1"}, {"C": float("nan")}, {"": 1}, {"C": 2}, {}):
        with pytest.raises(PolicyError) as caught:
            report(LETTERS, source=Source("inspect", scorer="match", labels=labels))
        assert caught.value.code == "bad-option"


# -- HELM ----------------------------------------------------------------------------------------


def test_helm_gates_each_instance_on_the_selected_stat():
    result = report(HELM, source=Source("helm", metric="exact_match", split="test"), scheduled=5, threshold=0.7)
    assert (result.verdict, result.valid, result.mean.numerator) == (Verdict.PASS, 5, 4.0)
    assert list(result.trials())[0][0] == '["id4128",0]'


def test_helm_a_count_zero_stat_is_invalid():
    result = report(HELM_COUNT0, source=Source("helm", metric="exact_match"), scheduled=3)
    assert result.invalid_by_code == {"empty-run": 1}
    assert result.verdict is Verdict.INVALID


def test_helm_selection_traps():
    instances = json.loads(Path(HELM).read_text())[:2]
    extra = json.loads(json.dumps(instances[0]["stats"][1]))
    extra["name"]["split"] = "valid"
    instances[0]["stats"].append(extra)
    del instances[1]["stats"][1]["mean"]
    perturbed = json.loads(json.dumps(instances[0]))
    perturbed["perturbation"] = {"name": "typos", "robustness": True, "fairness": False, "computed_on": "perturbed"}
    for stat in perturbed["stats"]:
        stat["name"]["perturbation"] = perturbed["perturbation"]
    data = json.dumps(instances + [perturbed]).encode()
    # Two splits of the stat in one file, and no --split: which population?
    result = report(data, source=Source("helm", metric="exact_match"), scheduled=3)
    assert result.code == "ambiguous-selection" and "the splits 'test', 'valid' (--split)" in result.message
    with_split = report(data, source=Source("helm", metric="exact_match", split="test"), scheduled=3)
    codes = [(o.trial_id, o.code) for o in with_split.invalid_observations]
    assert codes == [('["id4129",0]', "missing-member"), ('["id4128",0,"typos"]', "missing-member")]
    assert with_split.valid == 1
    assert report(b'{"a": 1}', source=Source("helm", metric="exact_match"), scheduled=1).code == "not-an-object"


# -- promptfoo -----------------------------------------------------------------------------------


def test_promptfoo_pass_flags_and_scores():
    passed = report(PROMPTFOO, source=Source("promptfoo", metric="pass"), metric="pass-rate", min_pass_rate=0.75)
    assert (passed.verdict, passed.scheduled, passed.pass_rate.numerator) == (Verdict.PASS, 4, 3)
    scored = report(PROMPTFOO, source=Source("promptfoo"), threshold=0.8)
    assert (scored.verdict, scored.mean.numerator) == (Verdict.FAIL, 3)


def test_promptfoo_errors_and_null_scores_are_invalid_never_zero():
    result = report(PROMPTFOO_ERRORS, source=Source("promptfoo"))
    assert result.invalid_by_code == {"grader-errors": 1, "wrong-type": 1}
    assert "timed out" in [o for o in result.invalid_observations if o.code == "grader-errors"][0].message
    assert (result.verdict, result.missing) == (Verdict.INVALID, 2)


def test_promptfoo_rows_that_disagree_with_stats_make_the_report_invalid():
    result = report(PROMPTFOO_DISAGREE, source=Source("promptfoo"))
    assert (result.verdict, result.code) == (Verdict.INVALID, "population-mismatch")
    assert "$['results']['stats']" in result.message


def test_promptfoo_pass_needs_a_boolean():
    output = json.loads(Path(PROMPTFOO).read_text())
    output["results"]["results"][0]["success"] = 1
    output["results"]["stats"]["successes"] = 2
    output["results"]["stats"]["failures"] = 2
    output["results"]["prompts"][0]["metrics"].update(testPassCount=2, testFailCount=2)
    result = report(json.dumps(output).encode(), source=Source("promptfoo", metric="pass"))
    assert result.invalid_by_code == {"wrong-type": 1}


def test_promptfoo_repeat_index_is_part_of_the_id():
    output = json.loads(Path(PROMPTFOO).read_text())
    for index, row in enumerate(output["results"]["results"]):
        row["testIdx"], row["repeatIndex"] = 0, index
    result = report(
        json.dumps(output).encode(), source=Source("promptfoo", metric="pass"), metric="pass-rate", min_pass_rate=0.5
    )
    assert [row[0] for row in result.trials()] == ["[0,0,0]", "[0,0,1]", "[0,0,2]", "[0,0,3]"]


# -- the rest of report still holds ---------------------------------------------------------------


def test_harnesses_without_a_per_sample_reader_are_refused():
    with pytest.raises(PolicyError) as caught:
        report(b"", source=Source("simple-evals"), scheduled=1)
    assert caught.value.code == "bad-option"
    assert "per-sample reports read lm-eval, inspect, promptfoo, helm, deepeval, openai-evals" in caught.value.message
    with pytest.raises(PolicyError):
        report(b"", source=Source("inspect", scorer="match"), select_score="s", trial_id="i")
    with pytest.raises(PolicyError) as caught:
        report(LETTERS, source=Source("inspect", scorer="match"), candidate="m-1")
    assert caught.value.code == "bad-policy"


def test_clusters_and_baselines_work_over_harness_records():
    source = Source("inspect", scorer="match", labels=LABELS)
    clustered = report(LETTERS, source=source, confidence=0.9, cluster_by="$.id", threshold=0.1)
    assert clustered.mean.interval is not None and clustered.cluster_by == "$.id"
    paired = report(LETTERS, source=source, baseline=_eval_log(LETTERS), max_regression=0)
    assert paired.regression is not None and paired.regression.pairs == 6 and paired.verdict is Verdict.PASS


def test_the_document_byte_limit_applies():
    result = report(LETTERS, source=Source("inspect", scorer="match"), max_line_bytes=1024)
    assert (result.verdict, result.code) == (Verdict.INVALID, "too-large")


# -- the command line ------------------------------------------------------------------------------


CLI_CASES = [
    (
        ["--from", "lm-eval", "--metric", "exact_match", "--results", RESULTS, "--threshold", "0.5", GSM8K],
        0,
        "meets-threshold",
    ),
    (["--from", "lm-eval", "--metric", "acc", "--results", RESULTS, NEGOTIATION], 3, "partial-run"),
    (["--from", "inspect", "--scorer", "match", "--labels", "C=1,P=0.5,I=0,N=0", LETTERS], 0, "meets-threshold"),
    (["--from", "inspect", "--scorer", "match", UNSCORED], 3, "missing-evidence"),
    (["--from", "inspect", "--scorer", "match", UNSCORED, "--review-owner", "ml-oncall"], 4, "missing-evidence"),
    (
        ["--from", "helm", "--metric", "exact_match", "--scheduled", "5", "--threshold", "0.9", HELM],
        1,
        "below-threshold",
    ),
    (
        [
            "--from",
            "promptfoo",
            "--metric",
            "pass",
            "--statistic",
            "pass-rate",
            "--min-pass-rate",
            "0.75",
            PROMPTFOO,
        ],
        0,
        "meets-threshold",
    ),
    (["--from", "promptfoo", PROMPTFOO_DISAGREE], 3, "population-mismatch"),
    (
        [
            "--select",
            "$.result.score",
            "--trial-id",
            "item,seed",
            "--scheduled",
            "5",
            "--threshold",
            "0.5",
            SHARD_1,
            SHARD_2,
        ],
        0,
        "meets-threshold",
    ),
    (
        [
            "--select",
            "$.result.score",
            "--trial-id",
            "item",
            "--trial-id",
            "seed",
            "--scheduled",
            "4",
            SHARD_1,
            SHARD_2,
        ],
        3,
        "population-mismatch",
    ),
]


@pytest.fixture(scope="module")
def fresh_cli_runs(tmp_path_factory):
    """Every CLI_CASES row at one optimize level, run in one fresh interpreter.

    Fresh interpreters, with and without -O (no assert may carry a
    verdict), one per level for all rows: the rows' results by index,
    with the receipt each row wrote.
    """
    runs = {}

    def run(optimize):
        if optimize not in runs:
            folder = tmp_path_factory.mktemp(f"cli-O{optimize}")
            calls, receipts = [], []
            for index, (argv, _, _) in enumerate(CLI_CASES):
                receipt = folder / f"receipt-{index}.json"
                junit = folder / f"junit-{index}.xml"
                calls.append((["report", "--receipt", str(receipt), "--junit-xml", str(junit), *argv], b""))
                receipts.append(receipt)
            runs[optimize] = list(zip(run_fresh(calls, optimize=optimize), receipts))
        return runs[optimize]

    return run


@pytest.mark.parametrize("optimize", [0, 1])
@pytest.mark.parametrize("index", range(len(CLI_CASES)))
def test_cli_exit_codes_and_receipts(fresh_cli_runs, optimize, index):
    argv, status, code = CLI_CASES[index]
    result, receipt = fresh_cli_runs(optimize)[index]
    assert result.returncode == status, result.stderr
    written = json.loads(receipt.read_text())
    assert (written["kind"], written["code"]) == ("report", code)
    assert written["source"] is not None


def test_cli_text_names_places_and_files(capsys):
    status = main(["report", "--from", "inspect", "--scorer", "match", "--format", "github", UNSCORED])
    out = capsys.readouterr().out
    assert status == 3
    assert "$['samples'][1]: '[2,1]': non-standard-constant" in out
    assert f"file={UNSCORED}" in out and ",line=" not in out.split("\n")[0]
    status = main(
        ["report", "--select", "$.result.score", "--trial-id", "item,seed", "--scheduled", "5", SHARD_1, SHARD_2]
    )
    out = capsys.readouterr().out
    assert f"{SHARD_2} line 2: '[2,\"a\"]': evidence is {SHARD_1} line 2" in out
    assert f"  {SHARD_1}: 249 bytes, sha256 " in out


def test_cli_junit_shows_the_place_of_each_trial(tmp_path, capsys):
    junit = tmp_path / "junit.xml"
    main(["report", "--from", "inspect", "--scorer", "match", "--junit-xml", str(junit), UNSCORED])
    capsys.readouterr()
    text = junit.read_text()
    assert "$[&apos;samples&apos;][1]" in text or "$['samples'][1]" in text
