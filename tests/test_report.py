# SPDX-License-Identifier: MIT
"""Reports over many trials (docs/reports.md): the counts a person would count.

Every file here is small enough to count by hand; the expected numbers are
written out, never computed by the code under test.
"""

from __future__ import annotations

import hashlib
import io
import json

import pytest

import scorecontract
from public_support import report_cli
from scorecontract import Observation, Policy, PolicyError, Report, Verdict, report


def jsonl(*lines: str | bytes, final_newline: bool = True) -> bytes:
    """Join lines (str is UTF-8 encoded) into a JSON Lines file."""
    data = b"\n".join(line.encode("utf-8") if isinstance(line, str) else line for line in lines)
    return data + (b"\n" if final_newline and lines else b"")


def trial(trial_id: str, score: str) -> str:
    return f'{{"trial_id": {json.dumps(trial_id)}, "score": {score}}}'


def counts(result: Report) -> tuple[int, int, int, int, int, int]:
    return (
        result.scheduled,
        result.observed,
        result.valid,
        result.invalid,
        result.ignored,
        result.missing,
    )


# --- the classic bug -------------------------------------------------------


def classic_file() -> bytes:
    lines = [trial(f"t-{i:03d}", "0.9") for i in range(80)]
    lines += [trial(f"t-{i:03d}", "0.5") for i in range(80, 90)]
    lines += [trial(f"t-{i:03d}", "NaN") for i in range(90, 100)]
    return jsonl(*lines)


def test_the_classic_bug_naive_mean_reads_88_9_percent():
    # What a framework does that drops the rows it cannot score: json.loads
    # takes NaN, and the NaN rows quietly leave the denominator.
    records = [json.loads(line) for line in classic_file().splitlines()]
    kept = [r["score"] for r in records if r["score"] == r["score"]]
    assert len(kept) == 90
    assert round(100 * sum(score >= 0.8 for score in kept) / len(kept), 1) == 88.9


def test_the_classic_bug_this_report_says_10_invalid_and_invalid():
    result = report(classic_file(), scheduled=100, metric="pass-rate", min_pass_rate=0.85)
    assert counts(result) == (100, 100, 90, 10, 0, 10)
    assert result.verdict is Verdict.INVALID
    assert result.code == "missing-evidence"
    assert result.invalid_by_code == {"non-standard-constant": 10}
    # The metric is still shown, with its denominator, but does not decide.
    assert (result.pass_rate.numerator, result.pass_rate.denominator) == (80, 90)
    assert round(result.pass_rate.value, 3) == 0.889
    assert result.pass_rate.meets is True and result.deciding is False
    assert [o.trial_id for o in result.invalid_observations] == [f"t-{i:03d}" for i in range(90, 100)]
    assert [o.line for o in result.invalid_observations] == list(range(91, 101))
    assert result.missing_trials == tuple(f"t-{i:03d}" for i in range(90, 100))


def test_the_classic_bug_on_the_command_line(tmp_path, capsys):
    from scorecontract._cli import main

    path = tmp_path / "trials.jsonl"
    path.write_bytes(classic_file())
    status = main(["report", str(path), "--scheduled", "100", "--format", "json"])
    out = json.loads(capsys.readouterr().out)
    assert status == 3
    assert (out["verdict"], out["invalid"], out["missing"]) == ("INVALID", 10, 10)


# --- hand-counted mixed files ----------------------------------------------

MIXED = [
    # line: what it is                                  -> counted as
    trial("a", "0.9"),  # 1 valid PASS (a)
    trial("b", "NaN"),  # 2 invalid, id b
    trial("c", "1e400"),  # 3 invalid, id c
    trial("d", "true"),  # 4 invalid, id d
    '{"trial_id": "e", "score": 0.1, "score": 0.9}',  # 5 invalid, id e
    "this is not json",  # 6 invalid, no id
    b'{"trial_id": "f", "score": 0.9\xff}',  # 7 invalid (UTF-8), no id
    "",  # 8 invalid (blank)
    trial("b", "0.95"),  # 9 valid PASS: b's rerun
    trial("a", "0.1"),  # 10 ignored rerun of a
    trial("g", "0.5"),  # 11 valid FAIL (g)
    trial("zz", "0.9"),  # 12 not in manifest
    '{"trial_id": "h", "score": 0.85, "seed": 7}',  # 13 valid PASS, extra member
]
MANIFEST = ["a", "b", "c", "d", "e", "f", "g", "h", "i"]


def test_mixed_file_with_a_manifest_gives_hand_counts():
    result = report(jsonl(*MIXED), manifest=MANIFEST)
    # scheduled 9; observed 13 lines; valid a b g h = 4; invalid lines
    # 2 3 4 5 6 7 8 12 = 8; ignored line 10 = 1; missing c d e f i = 5.
    assert counts(result) == (9, 13, 4, 8, 1, 5)
    assert [(o.line, o.trial_id, o.code) for o in result.invalid_observations] == [
        (2, "b", "non-standard-constant"),
        (3, "c", "non-finite"),
        (4, "d", "wrong-type"),
        (5, "e", "duplicate-member"),
        (6, None, "syntax"),
        (7, None, "not-utf8"),
        (8, None, "empty"),
        (12, "zz", "not-scheduled"),
    ]
    assert [(o.line, o.trial_id, o.evidence_line) for o in result.ignored_observations] == [(10, "a", 1)]
    assert result.missing_trials == ("c", "d", "e", "f", "i")
    assert result.verdict is Verdict.INVALID and result.code == "missing-evidence"
    # mean over a b g h = (0.9 + 0.95 + 0.5 + 0.85) / 4 = 3.2 / 4
    assert (result.mean.numerator, result.mean.denominator, result.mean.value) == (3.2, 4, 0.8)
    assert (result.pass_rate.numerator, result.pass_rate.denominator) == (3, 4)
    statuses = {t[0]: t[1] for t in result.trials()}
    assert statuses == {
        "a": "PASS",
        "b": "PASS",
        "c": "INVALID",
        "d": "INVALID",
        "e": "INVALID",
        "f": "MISSING",
        "g": "FAIL",
        "h": "PASS",
        "i": "MISSING",
    }


def test_mixed_file_with_a_bare_count():
    # The first 9 distinct ids named anywhere: a b c d e (lines 1-5), g (11),
    # zz (12), h (13) = 8 named (f's line is not UTF-8, so f is never named),
    # and one scheduled trial the file never names.
    result = report(jsonl(*MIXED), scheduled=9)
    assert counts(result) == (9, 13, 5, 7, 1, 4)
    assert result.missing_trials == ("c", "d", "e")
    assert result.missing_not_listed == 1
    assert [t[0] for t in result.trials()][-1] is None


def test_the_counts_always_add_up():
    for result in (report(jsonl(*MIXED), manifest=MANIFEST), report(jsonl(*MIXED), scheduled=9)):
        assert result.observed == result.valid + result.invalid + result.ignored
        assert result.scheduled == result.valid + result.missing
        assert sum(result.invalid_by_code.values()) == result.invalid


# --- reruns ----------------------------------------------------------------


def test_invalid_then_valid_rerun_passes_and_the_invalid_stays_listed():
    result = report(jsonl(trial("a", "NaN"), trial("a", "0.9")), scheduled=1)
    assert result.verdict is Verdict.PASS
    assert counts(result) == (1, 2, 1, 1, 0, 0)
    assert [(o.line, o.trial_id, o.code) for o in result.invalid_observations] == [(1, "a", "non-standard-constant")]


def test_no_rerun_until_pass():
    result = report(jsonl(trial("a", "0.5"), trial("a", "0.9"), trial("a", "1")), manifest=["a"])
    assert result.verdict is Verdict.FAIL
    assert result.mean.numerator == 0.5
    assert [(o.line, o.evidence_line) for o in result.ignored_observations] == [(2, 1), (3, 1)]
    assert list(result.trials()) == [("a", "FAIL", 1, "below-threshold", "score 0.5 < threshold 0.8")]


def test_invalid_after_evidence_is_listed_and_changes_nothing():
    result = report(jsonl(trial("a", "0.9"), trial("a", "NaN")), scheduled=1)
    assert result.verdict is Verdict.PASS
    assert counts(result) == (1, 2, 1, 1, 0, 0)


# --- the declared population -----------------------------------------------


def test_without_a_population_the_report_refuses():
    with pytest.raises(PolicyError) as info:
        report(jsonl(trial("a", "0.9")))
    assert info.value.code == "no-population"


@pytest.mark.parametrize("scheduled", [0, -1, True, 1.0, "3", 2.5])
def test_bad_scheduled_is_a_configuration_error(scheduled):
    with pytest.raises(PolicyError) as info:
        report(b"", scheduled=scheduled)
    assert info.value.code == "bad-population"


@pytest.mark.parametrize(
    "manifest",
    [[], ["a", "a"], ["a", ""], ["a", 1], ["\ud800"], "no-such-file.json", {"a": 1}, ("a", None)],
    ids=["empty", "duplicate", "empty-id", "number", "surrogate", "absent-file", "dict", "none-id"],
)
def test_bad_manifest_is_a_configuration_error(manifest):
    with pytest.raises(PolicyError) as info:
        report(b"", manifest=manifest)
    assert info.value.code == "bad-population"


@pytest.mark.parametrize(
    "text",
    [b'["a", "a"]', b'{"a": 1}', b"[]", b'["a", NaN]', b'["a"', b'["\\u0061", "a"]', b'\xef\xbb\xbf["a"]'],
    ids=["duplicate", "object", "empty", "nan", "truncated", "escaped-duplicate", "bom"],
)
def test_bad_manifest_file_is_a_configuration_error(tmp_path, text):
    path = tmp_path / "manifest.json"
    path.write_bytes(text)
    with pytest.raises(PolicyError) as info:
        report(b"", manifest=str(path))
    assert info.value.code == "bad-population"


def test_manifest_file_and_list_agree(tmp_path):
    path = tmp_path / "manifest.json"
    path.write_text('["a", "b"]', encoding="utf-8")
    data = jsonl(trial("a", "0.9"), trial("b", "0.8"))
    from_file = report(data, manifest=path)
    from_list = report(data, manifest=["a", "b"])
    assert from_file.as_dict() == from_list.as_dict()
    assert from_file.population_sha256 is not None


def test_scheduled_must_agree_with_the_manifest():
    assert report(b"", scheduled=2, manifest=["a", "b"]).scheduled == 2
    with pytest.raises(PolicyError) as info:
        report(b"", scheduled=3, manifest=["a", "b"])
    assert info.value.code == "bad-population"


def test_a_trial_outside_the_manifest_is_invalid_but_does_not_hide_anything():
    result = report(jsonl(trial("a", "0.9"), trial("x", "0.1")), manifest=["a"])
    assert [(o.line, o.trial_id, o.code) for o in result.invalid_observations] == [(2, "x", "not-scheduled")]
    # Every scheduled trial has evidence, so the metric decides; the stray
    # line stays listed and counted.
    assert result.verdict is Verdict.PASS
    assert counts(result) == (1, 2, 1, 1, 0, 0)


def test_more_distinct_ids_than_scheduled_is_invalid():
    data = jsonl(trial("a", "0.9"), trial("b", "0.9"), trial("c", "0.9"))
    result = report(data, scheduled=2)
    assert result.verdict is Verdict.INVALID
    assert result.code == "population-mismatch"
    assert [(o.line, o.trial_id, o.code) for o in result.invalid_observations] == [(3, "c", "not-scheduled")]
    assert counts(result) == (2, 3, 2, 1, 0, 0)


def test_an_invalid_line_names_a_trial_so_it_cannot_be_swapped_out():
    # Under a bare count, "b" failed to produce evidence; a fresh trial "c"
    # must not take its place in the population.
    data = jsonl(trial("a", "0.9"), trial("b", "NaN"), trial("c", "0.9"))
    result = report(data, scheduled=2)
    assert result.verdict is Verdict.INVALID
    assert result.code == "population-mismatch"
    assert result.missing_trials == ("b",)


def test_population_mismatch_is_not_softened_by_a_review_owner():
    data = jsonl(trial("a", "0.9"), trial("b", "0.9"))
    result = report(data, scheduled=1, policy=Policy(review_owner="alice"))
    assert result.verdict is Verdict.INVALID


# --- the gate --------------------------------------------------------------


@pytest.mark.parametrize("data", [b"", b"\n"], ids=["empty", "newline-only"])
def test_an_empty_file_is_invalid_never_pass_never_zero(data):
    result = report(data, scheduled=3)
    assert result.verdict is Verdict.INVALID
    # A blank line names no trial: under a bare count it could have been
    # any scheduled trial's attempt.
    assert result.code == ("missing-evidence" if data == b"" else "population-unknown")
    assert result.valid == 0 and result.missing == 3
    assert result.mean.value is None and result.pass_rate.value is None
    assert result.mean.meets is None
    assert result.as_dict()["metric"]["value"] is None


def test_review_owner_turns_missing_evidence_into_review():
    data = jsonl(trial("a", "0.9"))
    result = report(data, scheduled=2, policy=Policy(review_owner="alice"))
    assert result.verdict is Verdict.REVIEW
    assert result.verdict.releases is False
    assert "alice" in result.message
    assert result.as_dict()["review_owner"] == "alice"
    complete = report(data, scheduled=1, policy=Policy(review_owner="alice"))
    assert complete.verdict is Verdict.PASS


@pytest.mark.parametrize(
    "scores, threshold, verdict",
    [
        (["0.9", "0.8"], 0.8, Verdict.PASS),
        (["0.9", "0.6"], 0.8, Verdict.FAIL),
        # (0.1 + 0.7) / 2 is 0.39999999999999997 in binary floats; as the
        # decimal text the producer wrote, it is 0.4.
        (["0.1", "0.7"], 0.4, Verdict.PASS),
        (["0", "1"], 0.5, Verdict.PASS),
        (["0", "1"], 0.50000001, Verdict.FAIL),
    ],
)
def test_mean_is_compared_exactly(scores, threshold, verdict):
    assert (0.1 + 0.7) / 2 < 0.4  # the premise of the third case
    data = jsonl(*(trial(f"t{i}", s) for i, s in enumerate(scores)))
    result = report(data, scheduled=len(scores), threshold=threshold)
    assert result.verdict is verdict
    assert result.deciding is True


@pytest.mark.parametrize(
    "min_pass_rate, verdict",
    [(0.9, Verdict.PASS), (0.95, Verdict.FAIL), (1, Verdict.FAIL), (0, Verdict.PASS)],
)
def test_pass_rate_is_compared_exactly(min_pass_rate, verdict):
    # 9 of 10 pass; Fraction(0.9) is a hair above 9/10, the decimal 0.9 is not.
    data = jsonl(*(trial(f"t{i}", "0.9" if i < 9 else "0.1") for i in range(10)))
    result = report(data, scheduled=10, metric="pass-rate", min_pass_rate=min_pass_rate)
    assert result.verdict is verdict
    assert (result.pass_rate.numerator, result.pass_rate.denominator) == (9, 10)
    assert result.as_dict()["metric"]["name"] == "pass-rate"


# Nine of ten trials at 0.9, one at 0.1: the mean is 0.82, the pass rate 0.9.
NINE_OF_TEN = jsonl(*(trial(f"t{i}", "0.9" if i < 9 else "0.1") for i in range(10)))


@pytest.mark.parametrize(
    "options, verdict, deciding",
    [
        ({}, Verdict.PASS, ("mean",)),
        ({"min_pass_rate": 0.95}, Verdict.FAIL, ("mean", "pass-rate")),
        ({"min_pass_rate": 0.9}, Verdict.PASS, ("mean", "pass-rate")),
        ({"min_pass_rate": 0.5, "threshold": 0.85}, Verdict.FAIL, ("mean", "pass-rate")),
        ({"metric": "mean", "min_pass_rate": 1}, Verdict.FAIL, ("mean", "pass-rate")),
        ({"metric": "pass-rate"}, Verdict.FAIL, ("pass-rate",)),
        ({"metric": "pass-rate", "min_pass_rate": 0.9}, Verdict.PASS, ("pass-rate",)),
        ({"metric": "pass-rate", "min_pass_rate": None}, Verdict.FAIL, ("pass-rate",)),
    ],
    ids=[
        "mean-alone",
        "stated-rate-fails",
        "both-met",
        "stated-mean-fails",
        "rate-1-beside-mean",
        "rate-default-1",
        "rate-alone",
        "rate-none-is-1",
    ],
)
def test_every_stated_minimum_decides(options, verdict, deciding):
    # A minimum pass rate stated beside the mean used to be ignored: the
    # second case PASSed on the mean alone.
    result = report(NINE_OF_TEN, scheduled=10, **options)
    assert result.verdict is verdict
    assert result.deciding_metrics == deciding and result.deciding is True
    shown = result.as_dict()
    assert shown["deciding_metrics"] == list(deciding)
    assert shown["metrics"]["mean"]["decides"] is ("mean" in deciding)
    assert shown["metrics"]["pass_rate"]["decides"] is ("pass-rate" in deciding)
    for name in deciding:
        assert ("mean score" if name == "mean" else "pass rate") in result.message


def test_the_message_says_which_minimum_failed():
    result = report(NINE_OF_TEN, scheduled=10, min_pass_rate=0.95)
    assert result.code == "below-threshold"
    assert result.message == "mean score 0.82 (8.2 / 10) >= 0.8; pass rate 0.9 (9 / 10) < 0.95"


def test_stated_metrics_do_not_decide_without_the_evidence():
    result = report(NINE_OF_TEN, scheduled=11, min_pass_rate=0.5)
    assert result.verdict is Verdict.INVALID and result.deciding is False
    assert result.deciding_metrics == ("mean", "pass-rate")
    assert result.as_dict()["metrics"]["mean"]["decides"] is False


def test_exact_policy_reads_decimal_text():
    data = jsonl(trial("a", "0.79999999999999999999"), trial("b", "0.80000000000000000001"))
    result = report(data, scheduled=2, policy=Policy(exact=True))
    assert [t[1] for t in result.trials()] == ["FAIL", "PASS"]
    assert result.verdict is Verdict.PASS  # mean is exactly 0.8
    as_float = report(data, scheduled=2)
    assert [t[1] for t in as_float.trials()] == ["PASS", "PASS"]


@pytest.mark.parametrize(
    "kwargs, code",
    [
        ({"metric": "median"}, "bad-policy"),
        ({"min_pass_rate": float("nan")}, "bad-threshold"),
        ({"min_pass_rate": 1.5}, "bad-threshold"),
        ({"min_pass_rate": True}, "bad-threshold"),
        ({"max_line_bytes": 0}, "bad-policy"),
        ({"max_listed": -1}, "bad-policy"),
        ({"threshold": float("inf")}, "bad-threshold"),
    ],
)
def test_bad_options_are_configuration_errors(kwargs, code):
    with pytest.raises(PolicyError) as info:
        report(b"", scheduled=1, **kwargs)
    assert info.value.code == code


# --- lines -----------------------------------------------------------------


def test_final_newline_crlf_and_no_final_newline_agree():
    lines = [trial("a", "0.9"), trial("b", "0.8")]
    plain = report(jsonl(*lines), scheduled=2)
    bare = report(jsonl(*lines, final_newline=False), scheduled=2)
    crlf = report(b"\r\n".join(line.encode() for line in lines) + b"\r\n", scheduled=2)
    for result in (plain, bare, crlf):
        assert counts(result) == (2, 2, 2, 0, 0, 0)
        assert result.verdict is Verdict.PASS


def test_blank_lines_inside_the_file_are_invalid_observations():
    data = jsonl(trial("a", "0.9"), "", "  ", trial("b", "0.9"), "")
    result = report(data, scheduled=2)
    assert [(o.line, o.code) for o in result.invalid_observations] == [(2, "empty"), (3, "empty"), (5, "empty")]
    # Under a bare count a line without a trial id might have been a
    # scheduled trial's only attempt; with a manifest the population is known.
    assert (result.verdict, result.code) == (Verdict.INVALID, "population-unknown")
    assert report(data, manifest=["a", "b"]).verdict is Verdict.PASS


def test_one_bad_line_does_not_touch_its_neighbours():
    data = jsonl(trial("a", "0.9"), b"\xff\xfe\x00garbage\xc3", trial("b", "0.9"))
    result = report(data, scheduled=2)
    assert counts(result) == (2, 3, 2, 1, 0, 0)
    assert result.invalid_observations[0].code == "not-utf8"


def test_an_overlong_line_is_invalid_and_skipped_without_desync():
    long_line = '{"trial_id": "b", "score": 0.9, "pad": "' + "x" * 5000 + '"}'
    data = jsonl(trial("a", "0.9"), long_line, trial("c", "0.9"))
    result = report(data, scheduled=3, max_line_bytes=200)
    assert [(o.line, o.code) for o in result.invalid_observations] == [(2, "too-large")]
    assert str(len(long_line)) in result.invalid_observations[0].message
    assert counts(result) == (3, 3, 2, 1, 0, 1)  # b's id is never read: its line is too long
    assert result.size == len(data)
    assert result.sha256 == hashlib.sha256(data).hexdigest()


def test_line_limit_is_on_the_content():
    line = trial("a", "0.9")
    exact = report(jsonl(line), scheduled=1, max_line_bytes=len(line))
    over = report(jsonl(line), scheduled=1, max_line_bytes=len(line) - 1)
    assert exact.verdict is Verdict.PASS
    assert over.invalid_observations[0].code == "too-large"


@pytest.mark.parametrize("make", [bytes, io.BytesIO, "path"], ids=["bytes", "stream", "path"])
def test_sha256_covers_every_byte_for_each_kind_of_source(tmp_path, make):
    data = jsonl(*MIXED) + b"tail without newline"
    if make == "path":
        path = tmp_path / "t.jsonl"
        path.write_bytes(data)
        source = str(path)
    else:
        source = make(data)
    result = report(source, manifest=MANIFEST)
    assert result.sha256 == hashlib.sha256(data).hexdigest()
    assert result.size == len(data)
    assert result.observed == 14


def test_missing_and_unreadable_files_are_invalid_reports(tmp_path):
    absent = report(str(tmp_path / "absent.jsonl"), scheduled=2)
    assert (absent.verdict, absent.code, absent.missing) == (Verdict.INVALID, "file-not-found", 2)
    folder = report(tmp_path, scheduled=2)
    assert (folder.verdict, folder.code) == (Verdict.INVALID, "file-unreadable")


def test_wrong_kinds_of_source_are_invalid():
    assert report(12, scheduled=1).code == "input-type"  # type: ignore[arg-type]
    assert report(io.StringIO(trial("a", "0.9")), scheduled=1).code == "input-type"


def test_a_defect_while_reading_a_line_fails_closed(monkeypatch):
    import math

    def broken(value):
        raise ZeroDivisionError

    policy = Policy()  # made before the defect: only the line's score meets it
    with monkeypatch.context() as patched:
        # A defect in deciding the line's score: math.isfinite raising.
        patched.setattr(math, "isfinite", broken)
        # An extra member keeps the line off the canonical fast path.
        result = report(jsonl('{"trial_id": "a", "score": 0.9, "seed": 1}'), scheduled=1, policy=policy)
    assert result.verdict is Verdict.INVALID
    assert result.invalid_by_code == {"internal-error": 1}


# --- trial records ---------------------------------------------------------


@pytest.mark.parametrize(
    "line, trial_id, code",
    [
        ('{"trial_id": "a", "score": 0.9, "model": "m", "seed": 3}', "a", "meets-threshold"),
        ('{"trial_id": "a", "score": 0.5}', "a", "below-threshold"),
        ('{"score": 0.9}', None, "missing-member"),
        ('{"trial_id": "a"}', "a", "missing-member"),
        ('{"trial_id": "", "score": 0.9}', None, "bad-trial-id"),
        ('{"trial_id": 7, "score": 0.9}', None, "bad-trial-id"),
        ('{"trial_id": null, "score": 0.9}', None, "bad-trial-id"),
        ('["trial_id", "a"]', None, "not-an-object"),
        ('[["trial_id", "a"]]', None, "not-an-object"),
        ('{"trial_id": "a", "trial_id": "b", "score": 0.9}', None, "duplicate-member"),
        ('{"trial_id": "a", "\\u0073core": 0.1, "score": 0.9}', "a", "duplicate-member"),
        ('{"trial_id": "a", "score": "0.9"}', "a", "wrong-type"),
        ('{"trial_id": "a", "score": 1.5}', "a", "out-of-range"),
        ('{"trial_id": "a", "score": -Infinity}', "a", "non-standard-constant"),
        ('{"trial_id": "a", "score": 0.9} {}', "a", "trailing-data"),
        ('{"trial_id": "\\ud800", "score": 0.9}', "\ud800", "lone-surrogate"),
        ('{"trial_id": "a", "score": 0.9, "x": [' + "[" * 200 + "]" * 200 + "]}", "a", "too-deep"),
        ('{"trial_id": "a", "score": 1' + "0" * 700 + "}", "a", "too-many-digits"),
    ],
)
def test_trial_record_table(line, trial_id, code):
    result = report(line.encode("utf-8") + b"\n", scheduled=1)
    if code in ("meets-threshold", "below-threshold"):
        assert (result.observed, result.valid) == (1, 1)
        assert list(result.trials())[0][:4] == (trial_id, "PASS" if code == "meets-threshold" else "FAIL", 1, code)
        return
    assert (result.observed, result.invalid) == (1, 1)
    observation = result.invalid_observations[0]
    assert (observation.line, observation.trial_id, observation.code) == (1, trial_id, code)
    assert observation.message


@pytest.mark.parametrize(
    "line",
    [
        b"",
        b"\xff",
        b"garbage",
        b'"a"',
        b'{"trial_id": 5}',
        b'{"trial_id": 5.5}',
        b'{"trial_id": NaN}',
        b'{"trial_id": ""}',
        b'{"trial_id": ["a"]}',
        b'[["trial_id", "a"]]',
        b'{"trial_id": "a", "trial_id": "b", "score": NaN}',
    ],
)
def test_an_invalid_line_names_no_trial_it_cannot_read(line):
    result = report(line + b"\n", manifest=["a"])
    assert result.invalid_observations[0].trial_id is None
    assert result.missing_trials == ("a",)


def test_an_invalid_line_names_the_trial_it_can_read():
    result = report(b'{"trial_id": "a", "score": NaN}\n', manifest=["a"])
    assert result.invalid_observations[0].trial_id == "a"
    assert list(result.trials())[0][:4] == ("a", "INVALID", 1, "non-standard-constant")


# --- outputs ---------------------------------------------------------------

NASTY = [
    "t\r\n::error::forged",
    "t,1:2%3",
    "t|pipe`tick*",
    "t\x07bell\x1b[31m",
    "t\u202ereversed",
    "<b>|&amp;</b>",
]


def nasty_file() -> bytes:
    lines = [trial(tid, "0.9") for tid in NASTY[:3]]
    lines += [trial(NASTY[3], "0.1"), trial(NASTY[4], "NaN")]
    lines.append('{"trial_id": "t\\ud800", "score": 0.9}')  # invalid: lone surrogate
    lines.append(trial(NASTY[5], "1e400"))
    return jsonl(*lines)


def nasty_report() -> Report:
    return report(nasty_file(), scheduled=8)


def test_nasty_ids_have_the_expected_counts():
    assert counts(nasty_report()) == (8, 7, 4, 3, 0, 4)


def assert_safe(text: str) -> None:
    text.encode("utf-8")  # no lone surrogate gets out
    for char in text:
        if char != "\n":
            assert char.isprintable(), repr(char)


@pytest.mark.parametrize("form", ["text", "json", "markdown", "github"])
def test_every_format_escapes_nasty_ids(form, tmp_path):
    text = report_cli(tmp_path, nasty_file(), "--scheduled", "8", form=form, name="dir/trials,1:.jsonl").out
    assert_safe(text)
    assert "\u202e" not in text and "\x1b" not in text and "\x07" not in text


def printed_lines(run):
    assert run.out.endswith("\n"), run.out
    return run.out[:-1].split("\n")


def test_github_lines_cannot_be_forged(tmp_path):
    lines = printed_lines(report_cli(tmp_path, nasty_file(), "--scheduled", "8", form="github", name="a,b:c.jsonl"))
    # one per invalid observation, one per missing trial listed, the
    # unnamed missing trial, and the verdict
    assert len(lines) == 3 + 3 + 1 + 1
    for line in lines:
        assert line.startswith(("::error ", "::notice "))
        assert "::" in line[2:]
    assert lines[0].startswith(
        "::error title=invalid trial evidence (non-standard-constant),file=a%2Cb%3Ac.jsonl,line=5::"
    )
    assert lines[-1].startswith("::error title=scorecontract report::INVALID missing-evidence")
    assert not any(line.count("::error") > 1 for line in lines)


def test_github_notice_on_pass(tmp_path):
    lines = printed_lines(report_cli(tmp_path, jsonl(trial("a", "0.9")), "--scheduled", "1", form="github", name="-"))
    assert lines == [
        "::notice title=scorecontract report::PASS meets-threshold: mean score 0.9 (0.9 / 1) >= 0.8"
        " (policy default) -- scheduled 1, observed 1, valid 1, invalid 0, ignored 0, missing 0; mean score 0.9 = 0.9 / 1"
    ]


def test_markdown_tables_keep_their_columns(tmp_path):
    text = report_cli(tmp_path, nasty_file(), "--scheduled", "8", form="markdown", name="-").out
    import re

    rows = [line for line in text.split("\n") if line.startswith("| ") and line[2].isdigit()]
    invalid_rows = [row for row in rows if "`" in row]
    assert len(invalid_rows) == 3
    for row in invalid_rows:
        assert len(re.findall(r"(?<!\\)\|", row)) == 5  # four cells


def test_text_output_shows_counts_metrics_and_lists(tmp_path):
    lines = printed_lines(report_cli(tmp_path, jsonl(*MIXED), manifest=MANIFEST))
    assert lines[0] == "INVALID missing-evidence: 5 of 9 scheduled trials lack valid evidence (policy default)"
    assert "scheduled 9: valid 4, missing 5" in lines
    assert "observed 13: valid 4, invalid 8, ignored reruns 1" in lines
    assert any(line.startswith("mean score 0.8 = 3.2 / 4 valid trials") for line in lines)
    assert any(line.startswith("pass rate 0.75 = 3 / 4 valid trials") for line in lines)
    assert "  line 12: 'zz': not-scheduled: trial 'zz' is not in the manifest" in lines


def test_json_output_has_top_level_integer_counts(tmp_path):
    out = json.loads(report_cli(tmp_path, jsonl(*MIXED), manifest=MANIFEST, form="json").out)
    for name, value in [
        ("scheduled", 9),
        ("observed", 13),
        ("valid", 4),
        ("invalid", 8),
        ("missing", 5),
        ("ignored", 1),
    ]:
        assert type(out[name]) is int and out[name] == value
    assert out["verdict"] == "INVALID"
    assert out["metric"]["denominator"] == 4 and type(out["metric"]["denominator"]) is int
    assert out["metric"]["decides"] is False
    assert out["invalid_by_code"]["not-scheduled"] == 1


def test_json_output_escapes_lone_surrogates(tmp_path):
    text = report_cli(tmp_path, nasty_file(), "--scheduled", "8", form="json", name="-").out
    text.encode("ascii")
    # The receipt, as check prints its own: a lone surrogate is shown as
    # its escape, so the line loads with the strict loader too.
    out = json.loads(text)
    assert "t\\ud800" in [o["trial_id"] for o in out["invalid_observations"]]
    assert scorecontract.loads(text.encode("ascii")) == out


def test_junit_xml_has_one_testcase_per_scheduled_trial(tmp_path):
    import xml.etree.ElementTree as ET

    root = ET.fromstring(report_cli(tmp_path, jsonl(*MIXED), manifest=MANIFEST, junit=True).junit)
    suite = root.find("testsuite")
    cases = suite.findall("testcase")
    assert [c.get("name") for c in cases] == MANIFEST
    kinds = {c.get("name"): [child.tag for child in c] for c in cases}
    assert kinds == {
        "a": [],
        "b": [],
        "h": [],
        "g": ["failure"],
        "c": ["error"],
        "d": ["error"],
        "e": ["error"],
        "f": ["error"],
        "i": ["error"],
    }
    assert (suite.get("tests"), suite.get("failures"), suite.get("errors")) == ("9", "1", "5")
    assert cases[2].find("error").get("type") == "non-finite"
    assert cases[5].find("error").get("type") == "missing-evidence"
    properties = {p.get("name"): p.get("value") for p in suite.iter("property")}
    assert properties["verdict"] == "INVALID" and properties["invalid"] == "8"


def test_junit_xml_survives_nasty_ids(tmp_path):
    import xml.etree.ElementTree as ET

    root = ET.fromstring(report_cli(tmp_path, nasty_file(), "--scheduled", "8", junit=True).junit)
    names = [c.get("name") for c in root.iter("testcase")]
    assert len(names) == 8
    assert names[:3] == [repr(NASTY[0]), "t,1:2%3", "t|pipe`tick*"]
    assert names[-1] == "(1 scheduled trial never named in the file)"
    for name in names:
        assert_safe(name)


def test_lists_are_capped_but_counts_are_not():
    data = jsonl(*(f"garbage {i}" for i in range(10)), trial("a", "0.9"))
    capped = report(data, scheduled=5, max_listed=3)
    assert capped.invalid == 10
    assert [o.line for o in capped.invalid_observations] == [1, 2, 3]
    assert capped.invalid_not_listed == 7
    assert capped.missing == 4 and capped.missing_not_listed == 4
    everything = report(data, scheduled=5, max_listed=None)
    assert len(everything.invalid_observations) == 10 and everything.invalid_not_listed == 0


def test_report_has_no_truth_value_and_is_immutable():
    result = report(jsonl(trial("a", "0.9")), scheduled=1)
    with pytest.raises(TypeError):
        bool(result)
    with pytest.raises(AttributeError):
        result.verdict = Verdict.PASS  # type: ignore[misc]
    assert "Report(verdict=Verdict.PASS" in repr(result)
    assert result.invalid_observations == ()
    assert Observation(1, None, "empty", "m") == Observation(1, None, "empty", "m")


def test_public_names():
    public = sorted(name for name in dir(scorecontract) if not name.startswith("_") or name == "__version__")
    assert public == sorted(scorecontract.__all__)
    assert scorecontract.__all__ == sorted(scorecontract.__all__)
    assert "report" in scorecontract.__all__ and "Report" in scorecontract.__all__


def test_the_readme_example_is_what_the_report_prints(tmp_path):
    import re

    from support import ROOT

    page = (ROOT / "docs" / "reports.md").read_text(encoding="utf-8")
    section = page.split("\n## The rules\n", 1)[0]
    blocks = re.findall(r"^```[a-z]*\n(.*?)^```$", section, re.MULTILINE | re.DOTALL)
    trials_block = next(b for b in blocks if b.startswith('{"trial_id"'))
    output_block = next(b for b in blocks if b.startswith("$ scorecontract report"))
    data = trials_block.encode("utf-8")
    expected = output_block.split("\n", 1)[1].rstrip("\n")
    result = report(data, scheduled=4)
    assert result.verdict is Verdict.INVALID
    assert report_cli(tmp_path, data, "--scheduled", "4").out == expected + "\n"


def test_every_list_has_its_own_cap():
    data = jsonl(trial("a", "0.9"), *(trial("a", "0.1") for _ in range(4)))
    result = report(data, manifest=["a", "b", "c", "d", "e"], max_listed=2)
    assert [o.line for o in result.ignored_observations] == [2, 3]
    assert result.ignored == 4 and result.ignored_not_listed == 2
    assert result.missing_trials == ("b", "c") and result.missing_not_listed == 2


def test_an_overlong_last_line_without_newline():
    data = jsonl(trial("a", "0.9")) + b'{"trial_id": "b", "score": 0.9, "pad": "' + b"x" * 3000
    result = report(data, scheduled=1, max_line_bytes=100)
    assert [(o.line, o.code) for o in result.invalid_observations] == [(2, "too-large")]
    assert "3040 bytes" in result.invalid_observations[0].message
    assert result.size == len(data) and result.sha256 == hashlib.sha256(data).hexdigest()
