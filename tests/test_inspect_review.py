# SPDX-License-Identifier: MIT
"""Regressions of an adversarial review of the Inspect adapter and the archive reader.

Each test mutates a conformance corpus file (tests/data/conformance/inspect)
as the review did and asserts the verdict it should have had; each also
asserts that the unmutated file is not refused for the same reason, so a
test cannot pass on a file the adapter refuses anyway.
"""

import copy
import io
import json
import zipfile
from pathlib import Path

import pytest

from scorecontract import Policy, PolicyError, Source, Verdict, evaluate, report

CORPUS = Path(__file__).parent / "data" / "conformance" / "inspect"
CHECK = Source("inspect", scorer="match", metric="accuracy")
REPORT = Source("inspect", scorer="match", labels={"C": 1, "I": 0})


def corpus(name):
    return json.loads((CORPUS / name).read_text(encoding="utf-8"))


def dumps(log):
    return json.dumps(log).encode("utf-8")


def as_eval(log, rename=None):
    """A deflated .eval of a .json *log*, as Inspect lays it out; *rename* maps a member name to another."""
    header = {key: value for key, value in log.items() if key != "samples"}
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("header.json", json.dumps(header))
        for sample in log["samples"]:
            name = f"samples/{sample['id']}_epoch_{sample['epoch']}.json"
            archive.writestr((rename or {}).get(name, name), json.dumps(sample))
    return buffer.getvalue()


# -- finding 13: the population is the declared ids x epochs, not a count ----------------------


def substituted(change):
    """arithmetic.json (samples 1-3 C, 4-5 I) with sample 4 replaced by a copy of sample 1, then *change*d."""
    log = corpus("arithmetic.json")
    stand_in = copy.deepcopy(log["samples"][0])
    stand_in.update(change)
    log["samples"][3] = stand_in
    return log


SUBSTITUTES = {
    "the id as a string": {"id": "1"},
    "epoch 2 of a 1-epoch run": {"epoch": 2},
    "an id sample_ids does not list": {"id": 99},
}


@pytest.mark.parametrize("change", SUBSTITUTES.values(), ids=SUBSTITUTES.keys())
def test_a_sample_outside_the_declared_ids_and_epochs_is_not_scheduled(change):
    original = report(dumps(corpus("arithmetic.json")), source=REPORT, threshold=0.7)
    assert (original.verdict, original.code) == (Verdict.FAIL, "below-threshold")
    log = substituted(change)
    result = report(dumps(log), source=REPORT, threshold=0.7)
    assert (result.verdict, result.code) == (Verdict.INVALID, "not-scheduled"), result
    assert "$['samples'][3]" in result.message
    assert ("an id of another type" in result.message) is (change == {"id": "1"})
    # check reads a .json log's samples, and refuses them by the same rule.
    assert evaluate(dumps(log), source=CHECK, threshold=0.5).code == "not-scheduled"


@pytest.mark.parametrize("renamed", ["samples/4_epoch_2.json", "samples/99_epoch_1.json"])
def test_a_eval_member_named_for_no_scheduled_sample_is_not_scheduled(renamed):
    log = corpus("arithmetic.json")
    assert evaluate(as_eval(log), source=CHECK, threshold=0.5).verdict is Verdict.PASS
    data = as_eval(log, {"samples/4_epoch_1.json": renamed})
    assert evaluate(data, source=CHECK, threshold=0.5).code == "not-scheduled"
    assert report(data, source=REPORT, threshold=0.5).code == "not-scheduled"


# -- finding 01: a version 1 log still says what the run selected ------------------------------


def test_a_version_1_log_without_counts_is_partial_when_its_limit_selects_part_of_the_dataset():
    log = corpus("limit.json")
    log["version"] = 1
    log["results"] = {
        "scorer": {"name": "match"},
        "metrics": {"accuracy": {"name": "accuracy", "value": 1.0, "params": {}}},
    }
    result = evaluate(dumps(log), source=CHECK, threshold=0.5)
    assert (result.verdict, result.code) == (Verdict.INVALID, "partial-run"), result
    assert "eval.config.limit 3" in result.message
    allowed = Source("inspect", scorer="match", metric="accuracy", allow_partial=True)
    assert evaluate(dumps(log), source=allowed, threshold=0.5).verdict is Verdict.PASS
    # A limit that selects the whole dataset is no part of it.
    log["eval"]["config"]["limit"] = 5
    log["eval"]["dataset"]["sample_ids"] = [1, 2, 3, 4, 5]
    del log["samples"]
    assert evaluate(dumps(log), source=CHECK, threshold=0.5).verdict is Verdict.PASS


# -- finding 02: a .json log's samples contradict its header -----------------------------------


def test_a_json_headline_the_samples_contradict_is_value_mismatch():
    log = corpus("arithmetic.json")
    assert evaluate(dumps(log), source=CHECK, threshold=0.5).verdict is Verdict.PASS
    log["results"]["scores"][0]["metrics"]["accuracy"]["value"] = 0.9
    result = evaluate(dumps(log), source=CHECK, threshold=0.8)
    assert (result.verdict, result.code) == (Verdict.INVALID, "value-mismatch"), result
    assert "0.9" in result.message and "0.6" in result.message


def test_a_json_headline_over_epochs_is_the_mean_of_each_samples_mean():
    # epochs-mean.json: 5 samples x 3 epochs under the mean reducer; its
    # accuracy, recomputed, agrees, and edited by 0.01 it does not.
    log = corpus("epochs-mean.json")
    assert evaluate(dumps(log), source=CHECK, threshold=0.1).verdict is Verdict.PASS
    log["results"]["scores"][0]["metrics"]["accuracy"]["value"] += 0.01
    assert evaluate(dumps(log), source=CHECK, threshold=0.1).code == "value-mismatch"


def test_a_json_sample_carrying_an_error_is_grader_errors_in_check_as_in_report():
    log = corpus("arithmetic.json")
    log["samples"][0]["error"] = {"message": "RuntimeError: judge timed out", "traceback": ""}
    result = evaluate(dumps(log), source=CHECK, threshold=0.5)
    assert (result.verdict, result.code) == (Verdict.INVALID, "grader-errors"), result
    assert "$['samples'][0]" in result.message and "judge timed out" in result.message


# -- finding 10: bytes after the end of central directory record --------------------------------


def test_bytes_after_the_end_of_central_directory_are_bad_archive():
    data = (CORPUS / "arithmetic.eval").read_bytes()
    assert evaluate(data, source=CHECK, threshold=0.5).verdict is Verdict.PASS
    # A complete local entry header.json of an errored log, listed in no
    # central directory: a reader of local entries in order takes it last.
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("header.json", json.dumps({"version": 2, "status": "error"}))
        entry = buffer.getvalue()[: archive.start_dir]
    for tail in (b"junk after the record\n", entry):
        result = evaluate(data + tail, source=CHECK, threshold=0.5)
        assert (result.verdict, result.code) == (Verdict.INVALID, "bad-archive"), result
        assert f"{len(tail)} bytes follow" in result.message


def test_an_archive_comment_is_bad_archive():
    data = (CORPUS / "arithmetic.eval").read_bytes()
    comment = b'{"status": "error"}'
    # The end record's last two bytes are the comment's length (APPNOTE.TXT 4.3.16).
    commented = data[:-2] + len(comment).to_bytes(2, "little") + comment
    result = evaluate(commented, source=CHECK, threshold=0.5)
    assert (result.verdict, result.code) == (Verdict.INVALID, "bad-archive"), result
    assert "comment" in result.message


# -- finding 20: a reducer the run's config did not ask for ------------------------------------


def test_a_score_reduced_with_a_reducer_the_config_does_not_name_is_value_mismatch():
    log = corpus("epochs-mean.json")
    assert log["eval"]["config"]["epochs_reducer"] == ["mean"]
    assert evaluate(dumps(log), source=CHECK, threshold=0.1).verdict is Verdict.PASS
    log["results"]["scores"][0]["reducer"] = "max"
    result = evaluate(dumps(log), source=CHECK, threshold=0.1)
    assert (result.verdict, result.code) == (Verdict.INVALID, "value-mismatch"), result
    assert "'max'" in result.message and "epochs_reducer" in result.message


# -- finding 14: a headline naming a spread ----------------------------------------------------


@pytest.mark.parametrize("metric", ["stderr", "std", "var"])
def test_a_headline_naming_a_spread_is_not_gated_without_metric(metric):
    log = corpus("arithmetic.json")
    log["results"]["headline"] = {"scorer": "match", "score": "match", "metric": metric}
    if metric not in log["results"]["scores"][0]["metrics"]:
        log["results"]["scores"][0]["metrics"][metric] = {"name": metric, "value": 0.245, "params": {}}
    with pytest.raises(PolicyError) as caught:
        evaluate(dumps(log), source="inspect", threshold=0.2)
    assert caught.value.code == "missing-option" and "--metric" in caught.value.message
    # The caller who names it gets it.
    named = Source("inspect", scorer="match", metric=metric)
    assert evaluate(dumps(log), source=named, threshold=0.2).verdict is Verdict.PASS
    log["results"]["headline"]["metric"] = "accuracy"
    assert evaluate(dumps(log), source="inspect", threshold=0.5).verdict is Verdict.PASS


def test_a_eval_whose_sample_members_were_written_again_is_refused_by_check_and_report():
    # tests/data/review/inspect-superseded-samples.eval: the corpus's
    # arithmetic.eval (inspect-ai 0.3.285) with its failing samples 4 and 5
    # appended again as passing ones and a new central directory, the way
    # Inspect appends a new header.json when it edits a log in place; the
    # failing originals stay in the file, outside the directory (a second
    # review, finding 13).  Inspect never rewrites a sample.
    raw = (Path(__file__).parent / "data" / "review" / "inspect-superseded-samples.eval").read_bytes()
    decision = evaluate(raw, source=CHECK, policy=Policy(0.8))
    assert (decision.verdict, decision.code) == (Verdict.INVALID, "bad-archive")
    assert "samples/4_epoch_1.json" in decision.message
    result = report(raw, source=REPORT, threshold=0.8)
    assert (result.verdict, result.code) == (Verdict.INVALID, "bad-archive")
    # The untouched log is gated as before.
    whole = evaluate((CORPUS / "arithmetic.eval").read_bytes(), source=CHECK, policy=Policy(0.5))
    assert whole.verdict is Verdict.PASS
