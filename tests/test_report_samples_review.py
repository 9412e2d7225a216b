# SPDX-License-Identifier: MIT
"""Regressions found reviewing ``report --from HARNESS``: limits, digests, wrong PASSes.

A receipt states the size and SHA-256 of an input only when every byte of
it was hashed: an input over a limit, unreadable, or never reached is
``null`` (``not read in full`` in text), as ``check`` records oversize
evidence.  A refusal over the byte limit names the option that raises it.
"""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import pytest

from scorecontract import Source, Verdict, report
from support import FIXTURES, run_fresh, run_main

SAMPLES = FIXTURES / "harnesses" / "samples"
DATE = "2025-06-02T10-14-07.123456"
RESULTS = str(SAMPLES / "lm-eval" / f"results_{DATE}.json")
GSM8K = str(SAMPLES / "lm-eval" / f"samples_gsm8k_{DATE}.jsonl")
LETTERS = str(SAMPLES / "inspect" / "letters-log.json")
PROMPTFOO = str(SAMPLES / "promptfoo" / "results.json")
SHARD_1 = str(SAMPLES / "generic" / "shard-1.jsonl")
LABELS = {"C": 1, "P": 0.5, "I": 0, "N": 0}
INSPECT = Source("inspect", scorer="match", labels=LABELS)
EMPTY_SHA256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"


def _big_log(tmp_path: Path) -> str:
    log = json.loads(Path(LETTERS).read_text())
    log["eval"]["padding"] = "x" * (2 * 1024 * 1024)
    path = tmp_path / "BIG.json"
    path.write_text(json.dumps(log))
    return str(path)


def _eval(log: dict[str, object], samples: list[dict[str, object]], extra: dict[str, bytes] | None = None) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("header.json", json.dumps(log))
        for sample in samples:
            archive.writestr(f"samples/{sample['id']}_epoch_{sample['epoch']}.json", json.dumps(sample))
        for name, data in (extra or {}).items():
            archive.writestr(name, data)
    return buffer.getvalue()


def _split(path: str) -> tuple[dict[str, object], list[dict[str, object]]]:
    log = json.loads(Path(path).read_text())
    samples = log.pop("samples")
    return log, samples


# -- a. the limit names its option --------------------------------------------------------------


def test_a_document_over_the_limit_names_the_option_that_raises_it(tmp_path):
    big = _big_log(tmp_path)
    result = report(big, source=INSPECT)
    assert (result.verdict, result.code) == (Verdict.INVALID, "too-large")
    assert "--max-bytes 64M is 64 MiB" in result.message and "max_line_bytes" in result.message
    assert report(big, source=INSPECT, max_line_bytes=8 * 1024 * 1024).verdict is Verdict.PASS


def test_an_eval_member_and_the_results_file_over_the_limit_name_the_option(tmp_path):
    log, samples = _split(LETTERS)
    import base64
    import random

    # Base64 of random bytes deflates to 3/4: the member is over a limit
    # the whole archive is within, and no bomb.
    samples[0]["padding"] = base64.b64encode(random.Random(13).randbytes(30000)).decode()
    archive = _eval(log, samples)
    member = report(archive, source=INSPECT, max_line_bytes=len(archive))
    assert member.code == "archive-too-large" and "--max-bytes" in member.message
    source = Source("lm-eval", metric="exact_match", results=RESULTS)
    results = report(GSM8K, source=source, max_line_bytes=200)
    assert results.code == "too-large" and "--max-bytes" in results.message
    line = report(b'{"trial_id": "a", "score": 1, "pad": "' + b"z" * 300 + b'"}\n', scheduled=1, max_line_bytes=100)
    assert "--max-bytes" in line.invalid_observations[0].message


@pytest.mark.parametrize("optimize", [0, 1])
def test_cli_a_big_inspect_log_hints_and_states_no_digest(tmp_path, optimize):
    big = _big_log(tmp_path)
    receipt = tmp_path / "receipt.json"
    args = ["report", "--from", "inspect", "--scorer", "match", "--labels", "C=1,P=0.5,I=0,N=0"]
    # Fresh interpreter, with and without -O: one for both calls.
    result, raised = run_fresh(
        [([*args, "--receipt", str(receipt), "--", big], b""), ([*args, "--max-bytes", "8M", "--", big], b"")],
        optimize=optimize,
    )
    out = result.stdout.decode()
    assert result.returncode == 3
    assert "raise the limit with max_line_bytes (report --max-bytes" in out
    assert f"trials: {big} (not read in full)" in out and EMPTY_SHA256 not in out and "0 bytes" not in out
    written = json.loads(receipt.read_text())
    assert written["input"] == {"sha256": None, "bytes": None}
    assert raised.returncode == 0


# -- b. no digest of bytes not hashed -------------------------------------------------------------


def _inputs(result):
    return [(item.name, item.sha256, item.size) for item in result.inputs]


def test_no_input_form_states_a_digest_it_did_not_take(tmp_path):
    big = _big_log(tmp_path)
    missing = str(tmp_path / "missing.json")
    # A document over the limit, alone and as the first or the second shard.
    for trials in (big, [big, LETTERS], [LETTERS, big], missing, [LETTERS, missing]):
        result = report(trials, source=INSPECT)
        assert result.verdict is Verdict.INVALID
        assert (result.sha256, result.size) == (None, None), trials
        names = trials if isinstance(trials, list) else [trials]
        assert [name for name, _, _ in _inputs(result)] == names
        # Read in full: the good log before the failing input; not reached: any after it.
        failing = next(index for index, name in enumerate(names) if name != LETTERS)
        for index, (name, sha256, size) in enumerate(_inputs(result)):
            assert (sha256 is None) == (index >= failing), (trials, name)
            assert sha256 != EMPTY_SHA256 and (size is None) == (sha256 is None)
    # lm-eval's results file over the limit: the samples file was not read.
    result = report(GSM8K, source=Source("lm-eval", metric="exact_match", results=RESULTS), max_line_bytes=200)
    assert (result.code, result.sha256, _inputs(result)) == ("too-large", None, [(GSM8K, None, None)])
    # A JSON Lines shard that cannot be read: the shard before it keeps its digest.
    result = report([SHARD_1, missing], scheduled=5, select_score="score", trial_id="item")
    assert result.sha256 is None and _inputs(result)[0][1] is not None and _inputs(result)[1][1:] == (None, None)
    # Trial lines that are not bytes at all.
    assert report(12, scheduled=1).sha256 is None
    # The baseline over the limit.
    paired = report(LETTERS, source=INSPECT, baseline=big, max_regression=0)
    base = paired.regression.baseline
    assert (base.code, base.sha256, base.size) == ("too-large", None, None)
    assert paired.regression.as_dict()["baseline"]["input"] == {"sha256": None, "bytes": None}


def test_a_document_read_in_full_keeps_its_digest_when_refused_later():
    # The bytes were all hashed; the refusal comes after (the rows disagree).
    data = json.loads(Path(PROMPTFOO).read_text())
    data["results"]["stats"]["successes"] += 1
    raw = json.dumps(data).encode()
    result = report(raw, source=Source("promptfoo"))
    assert result.code == "population-mismatch"
    import hashlib

    assert (result.sha256, result.size) == (hashlib.sha256(raw).hexdigest(), len(raw))


def test_every_output_says_not_read_in_full(tmp_path):
    big = _big_log(tmp_path)
    for form in ("text", "markdown", "github", "json"):
        result = run_main("report", "--from", "inspect", "--scorer", "match", "--format", form, "--", big)
        out = result.stdout.decode()
        assert result.returncode == 3 and EMPTY_SHA256 not in out, form
        if form in ("text", "markdown"):  # github annotations state no digest at all
            assert "not read in full" in out, form
    junit = tmp_path / "junit.xml"
    run_main("report", "--from", "inspect", "--scorer", "match", "--junit-xml", str(junit), "--", big)
    text = junit.read_text()
    assert 'name="sha256" value="not read in full"' in text and EMPTY_SHA256 not in text


# -- wrong PASSes -----------------------------------------------------------------------------------


def _inspect(log: dict[str, object], samples: list[dict[str, object]]):
    return report(json.dumps({**log, "samples": samples}).encode(), source=INSPECT)


def test_inspect_an_errored_sample_is_no_evidence_whatever_score_it_kept():
    log, samples = _split(LETTERS)
    assert _inspect(log, samples).verdict is Verdict.PASS
    samples[0]["error"] = {"message": "RuntimeError: boom", "traceback": ""}
    result = _inspect(log, samples)
    assert (result.verdict, result.code, dict(result.invalid_by_code)) == (
        Verdict.INVALID,
        "missing-evidence",
        {"grader-errors": 1},
    )
    assert "boom" in result.invalid_observations[0].message
    samples[0]["error"] = None  # null is no error
    assert _inspect(log, samples).verdict is Verdict.PASS


@pytest.mark.parametrize("status", ["error", "started", None, 1, ["success"]])
def test_inspect_a_run_that_did_not_succeed_is_refused(status):
    log, samples = _split(LETTERS)
    log["status"] = status
    result = _inspect(log, samples)
    assert (result.verdict, result.code) == (Verdict.INVALID, "requirement-failed")
    del log["status"]
    assert _inspect(log, samples).code == "requirement-failed"
    log, samples = _split(LETTERS)
    eval_result = report(_eval({**log, "status": status}, samples), source=INSPECT)
    assert eval_result.code == "requirement-failed"


def test_inspect_a_cancelled_run_is_partial_as_check_says():
    # A cancelled log still carries metrics over what ran: a partial run,
    # gated only with --allow-partial, as check --from inspect says too.
    log, samples = _split(LETTERS)
    log["status"] = "cancelled"
    result = _inspect(log, samples)
    assert (result.verdict, result.code) == (Verdict.INVALID, "partial-run")
    assert "the log's status is 'cancelled'" in result.message and "--allow-partial" in result.message
    allowed = report(
        json.dumps({**log, "samples": samples}).encode(),
        source=Source("inspect", scorer="match", labels=LABELS, allow_partial=True),
    )
    assert allowed.verdict is Verdict.PASS


@pytest.mark.parametrize("invalidated", [True, "true", 1, None, [], {}])
def test_inspect_invalidated_must_be_false_or_absent(invalidated):
    # The rule check --from inspect applies: true is requirement-failed,
    # anything but a bool wrong-type.
    log, samples = _split(LETTERS)
    log["invalidated"] = invalidated
    assert _inspect(log, samples).code == ("requirement-failed" if invalidated is True else "wrong-type")
    log["invalidated"] = False
    assert _inspect(log, samples).verdict is Verdict.PASS


def test_inspect_more_samples_than_declared_is_a_population_mismatch():
    log, samples = _split(LETTERS)
    # A better-scoring copy of a failing sample, placed first: with the
    # bare count a rerun would hide the real one.
    worst = min(samples, key=lambda sample: LABELS[sample["scores"]["match"]["value"]])
    forged = json.loads(json.dumps(worst))
    forged["scores"]["match"]["value"] = "C"
    result = _inspect(log, [forged, *samples])
    assert (result.verdict, result.code) == (Verdict.INVALID, "population-mismatch")
    assert (
        "holds more samples than its run had: samples in the log 7 at $['samples'], but results.total_samples 6"
        in result.message
    )
    # .eval: a seventh member under another name.
    archive = _eval(log, samples, {"samples/forged/1_epoch_1.json": json.dumps(forged).encode()})
    assert report(archive, source=INSPECT).code == "population-mismatch"
    # Fewer samples than declared is missing evidence, as before.
    assert _inspect(log, samples[1:]).code == "missing-evidence"


@pytest.mark.parametrize("reason", ["2", 2.0, True, None, 3, -1])
def test_promptfoo_a_failure_reason_that_is_not_0_1_or_2_is_wrong_type(reason):
    data = json.loads(Path(PROMPTFOO).read_text())
    data["results"]["results"][0]["failureReason"] = reason
    result = report(
        json.dumps(data).encode(),
        source=Source("promptfoo", metric="pass"),
        metric="pass-rate",
        min_pass_rate=0.75,
    )
    assert result.verdict is Verdict.INVALID
    if reason is None or type(reason) is int:
        # An int outside 0-2, or none: one invalid row.
        assert result.invalid_by_code == {"wrong-type": 1}
    else:
        # Not an int at all: the file's own tally cannot be read, as in
        # check --from promptfoo (an error row written 2.0 must not pass as
        # a failure): the whole file is INVALID wrong-type.
        assert result.code == "wrong-type" and "failureReason" in result.message


@pytest.mark.parametrize("count", [True, 1.0, "1", None, -1])
def test_helm_a_count_that_is_not_an_integer_is_wrong_type(count):
    instances = json.loads((SAMPLES / "helm" / "per_instance_stats.json").read_text())
    for stat in instances[0]["stats"]:
        if stat["name"]["name"] == "exact_match":
            stat["count"] = count
    source = Source("helm", metric="exact_match", split="test")
    result = report(json.dumps(instances).encode(), source=source, scheduled=5, threshold=0.7)
    assert result.verdict is Verdict.INVALID and result.invalid_by_code == {"wrong-type": 1}
    for stat in instances[0]["stats"]:
        stat.pop("count")
    assert report(json.dumps(instances).encode(), source=source, scheduled=5).invalid_by_code == {"missing-member": 1}


def test_lm_eval_a_line_under_a_filter_the_results_file_does_not_report_is_not_scheduled():
    lines = Path(GSM8K).read_text().splitlines()
    source = Source("lm-eval", metric="exact_match", results=RESULTS, task="gsm8k")
    assert report(Path(GSM8K).read_bytes(), source=source, threshold=0.5).verdict is Verdict.PASS
    # The flexible-extract lines replaced by lines of a filter the results
    # file never reports: as many distinct trials, none of them scheduled.
    forged = [
        json.dumps({**json.loads(line), "filter": "bogus"}) if '"flexible-extract"' in line else line for line in lines
    ]
    assert sum('"bogus"' in line for line in forged) == 3
    result = report(("\n".join(forged) + "\n").encode(), source=source, threshold=0.5)
    assert (result.verdict, result.code, dict(result.invalid_by_code)) == (
        Verdict.INVALID,
        "missing-evidence",
        {"not-scheduled": 3},
    )
    assert "'bogus' is not one the results file reports 'exact_match' under" in result.invalid_observations[0].message


# -- outputs ------------------------------------------------------------------------------------------


def test_the_receipt_records_the_lm_eval_results_file_by_its_digest():
    import hashlib

    source = Source("lm-eval", metric="exact_match", results=RESULTS)
    result = report(GSM8K, source=source, threshold=0.5)
    shown = result.as_dict()["source"]
    assert shown["results_sha256"] == hashlib.sha256(Path(RESULTS).read_bytes()).hexdigest()
    assert RESULTS not in json.dumps(result.as_dict())  # a receipt holds no path
    too_big = report(GSM8K, source=source, threshold=0.5, max_line_bytes=200)
    assert too_big.as_dict()["source"]["results_sha256"] is None
    assert (
        "results_sha256"
        not in report(GSM8K, source=Source("lm-eval", metric="exact_match"), scheduled=6).as_dict()["source"]
    )


def test_junit_names_the_file_of_each_place(tmp_path):
    hostile = tmp_path / "log\x1b[31m\n::error::x.json"
    hostile.write_bytes((SAMPLES / "inspect" / "unscored-log.json").read_bytes())
    junit = tmp_path / "junit.xml"
    result = run_main("report", "--from", "inspect", "--scorer", "match", "--junit-xml", str(junit), "--", str(hostile))
    assert result.returncode == 3
    text = junit.read_text()
    assert "trials: " in text and "log\\x1b[31m\\n::error::x.json" in text and "\x1b" not in text
    assert "$[&apos;samples&apos;][1]" in text or "$['samples'][1]" in text
    out = result.stdout.decode()
    assert "\x1b" not in out and "log\\x1b[31m\\n::error::x.json" in out


def test_a_results_file_that_is_not_json_says_which_file():
    result = report(GSM8K, source=Source("lm-eval", metric="exact_match", results=GSM8K, task="gsm8k"))
    assert (result.verdict, result.code) == (Verdict.INVALID, "trailing-data")
    assert result.message.startswith("the lm-eval results file: ")


def test_the_same_file_twice_is_a_configuration_error(tmp_path):
    from scorecontract import PolicyError

    with pytest.raises(PolicyError, match="twice"):
        report([LETTERS, LETTERS], source=INSPECT)
    link = tmp_path / "link.json"
    link.symlink_to(LETTERS)
    with pytest.raises(PolicyError, match="twice"):
        report([LETTERS, str(link)], source=INSPECT)
    with pytest.raises(PolicyError, match="twice"):
        report(LETTERS, source=INSPECT, baseline=[LETTERS, LETTERS], max_regression=0)
    # The same bytes twice are two inputs: nothing names them alike.
    data = Path(LETTERS).read_bytes()
    assert report([data, data], source=INSPECT).ignored == 6
    assert run_main("report", "--from", "inspect", "--scorer", "match", "--", LETTERS, LETTERS).returncode == 2


def test_a_member_over_the_archives_own_budget_gets_no_hint():
    # A bomb is refused by the archive's budget (100 times its size) or a
    # member's ratio, which no option raises.
    log, samples = _split(LETTERS)
    # room for the extra member
    log["results"]["total_samples"] = log["results"]["completed_samples"] = 7
    log["results"]["scores"][0].pop("scored_samples", None)
    log["results"]["scores"][0].pop("unscored_samples", None)
    archive = _eval(log, samples, {"samples/pad.json": b'{"pad": "' + b" " * 900_000 + b'"}'})
    result = report(archive, source=INSPECT, max_line_bytes=64 * 1024 * 1024)
    assert result.code == "archive-too-large" and str(64 * 1024 * 1024) not in result.message
    assert "--max-bytes" not in result.message, result.message


# -- the results file's direction ---------------------------------------------------------------


def _mae_run(tmp_path: Path, higher_is_better: object = False) -> tuple[str, str]:
    """A results file whose higher_is_better marks mae, and three sample lines of mae 0.9."""
    results = {
        "results": {"maetask": {"mae,none": 0.9}},
        "higher_is_better": {"maetask": {"mae": higher_is_better}},
        "n-samples": {"maetask": {"original": 3, "effective": 3}},
    }
    results_path = tmp_path / f"results_{DATE}.json"
    results_path.write_text(json.dumps(results))
    samples_path = tmp_path / f"samples_maetask_{DATE}.jsonl"
    lines = [{"doc_id": i, "filter": "none", "metrics": ["mae"], "mae": 0.9} for i in range(3)]
    samples_path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return str(results_path), str(samples_path)


def test_lm_eval_samples_follow_the_results_files_higher_is_better(tmp_path):
    from scorecontract import Policy, PolicyError

    results, samples = _mae_run(tmp_path)
    source = Source("lm-eval", metric="mae", results=results)
    # The policy says higher is better, the file lower: refused, as the headline is.
    with pytest.raises(PolicyError) as caught:
        report(samples, source=source)
    assert caught.value.code == "option-conflict" and "higher_is_better false" in caught.value.message
    lower = report(samples, source=source, policy=Policy(0.8, direction="lower"))
    assert (lower.verdict, lower.mean.direction) == (Verdict.FAIL, "lower")
    assert report(samples, source=source, policy=Policy(0.95, direction="lower")).verdict is Verdict.PASS
    # Without a results file nothing states a direction: the policy's stands.
    bare = report(samples, source=Source("lm-eval", metric="mae"), scheduled=3)
    assert (bare.verdict, bare.mean.direction) == (Verdict.PASS, "higher")
    # A file that marks it higher-is-better agrees with the default policy.
    results, samples = _mae_run(tmp_path, higher_is_better=True)
    assert report(samples, source=Source("lm-eval", metric="mae", results=results)).verdict is Verdict.PASS


@pytest.mark.parametrize("optimize", [0, 1])
def test_report_from_lm_eval_adopts_the_results_files_direction(tmp_path, optimize):
    results, samples = _mae_run(tmp_path)
    argv = ["report", "--from", "lm-eval", "--metric", "mae", "--results", results]
    policy = tmp_path / "policy.json"
    policy.write_text(json.dumps({"version": "p-1", "threshold": 0.8, "exact": False}))
    broken = tmp_path / "broken-results.json"
    broken.write_text("{")
    # Fresh interpreter, with and without -O: one for the four calls.
    failed, passed, refused, unreadable = run_fresh(
        [
            ([*argv, samples], b""),
            ([*argv, "--threshold", "0.95", samples], b""),
            ([*argv, "--policy", str(policy), samples], b""),
            ([*argv[:-1], str(broken), samples], b""),
        ],
        optimize=optimize,
    )
    # As check --from lm-eval --metric mae,none: mean 0.9 of a lower-is-better metric is above 0.8.
    assert failed.returncode == 1, failed.stdout + failed.stderr
    assert b"<= 0.8" in failed.stdout
    assert passed.returncode == 0
    checked = run_main("check", "--from", "lm-eval", "--task", "maetask", "--metric", "mae,none", results)
    assert checked.returncode == 1
    # A policy file states a direction: one that disagrees with the file is refused.
    assert refused.returncode == 2 and b"option-conflict" in refused.stderr
    # Without --results the metric's known direction stands: mae is better low.
    assert run_main("report", "--from", "lm-eval", "--metric", "mae", "--scheduled", "3", samples).returncode == 1
    # An unreadable results file is INVALID, not a crash while guessing the direction.
    assert unreadable.returncode == 3
