# SPDX-License-Identifier: MIT
"""Gating one selected value: differential tests against a hand-written oracle.

The oracle is ``json.loads`` plus a walk written here, member by member, with
its own normalized-path builder: it shares no code with the library.
Documents are generated from a fixed seed, with member names that need
escaping in every form (``,``, ``/``, ``~``, ``'``, ``\\``, ``"``, spaces,
non-ASCII).
"""

from __future__ import annotations

import json
import random

import pytest

from scorecontract import Policy, PolicyError, Verdict, evaluate, judge

NAMES = ["acc,none", "a/b", "t~1", "it's", "back\\slash", 'q"uote', "sp ace", "é", "mmlu", "0", "-", ""]
SEEDS = range(60)


def _name_part(name: str) -> str:
    # RFC 9535 section 2.7, written out by hand for the oracle.
    out = []
    for char in name:
        if char == "'":
            out.append("\\'")
        elif char == "\\":
            out.append("\\\\")
        elif ord(char) < 0x20:
            out.append(
                {"\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t"}.get(char, f"\\u{ord(char):04x}")
            )
        else:
            out.append(char)
    return "['" + "".join(out) + "']"


def oracle_path(keys: list[object]) -> str:
    return "$" + "".join(f"[{key}]" if type(key) is int else _name_part(key) for key in keys)  # type: ignore[arg-type]


def oracle_walk(document: object, keys: list[object]) -> object:
    value = document
    for key in keys:
        if type(key) is int:
            if type(value) is not list or not 0 <= key < len(value):
                raise LookupError(key)
            value = value[key]
        else:
            if type(value) is not dict or key not in value:
                raise LookupError(key)
            value = value[key]
    return value


def pointer(keys: list[object]) -> str:
    return "".join("/" + str(key).replace("~", "~0").replace("/", "~1") for key in keys)


def jsonpath(keys: list[object]) -> str:
    parts = ["$"]
    for key in keys:
        if type(key) is int:
            parts.append(f"[{key}]")
        else:
            # A JSON string literal is a valid RFC 9535 double-quoted name.
            parts.append("[" + json.dumps(key) + "]")
    return "".join(parts)


def generate(rng: random.Random, depth: int = 0) -> object:
    """A random JSON value of objects, arrays and leaves."""
    roll = rng.random()
    if depth >= 4 or roll < 0.3:
        return rng.choice([rng.random(), rng.randint(0, 1), None, "N/A", True, "0.5"])
    if roll < 0.65:
        names = rng.sample(NAMES, rng.randint(1, 4))
        return {name: generate(rng, depth + 1) for name in names}
    return [generate(rng, depth + 1) for _ in range(rng.randint(1, 3))]


def leaf_paths(value: object, keys: list[object] | None = None) -> list[list[object]]:
    keys = [] if keys is None else keys
    if type(value) is dict:
        return [path for name, member in value.items() for path in leaf_paths(member, keys + [name])]
    if type(value) is list:
        return [path for index, item in enumerate(value) for path in leaf_paths(item, keys + [index])]
    return [keys]


def case(seed: int) -> tuple[dict[str, object], list[object], float, str]:
    """A document, the keys of one number in it, that number, and its text."""
    rng = random.Random(seed)
    document = {"results": generate(rng), "config": generate(rng)}
    paths = [path for path in leaf_paths(document) if path]
    keys = rng.choice(paths)
    score = round(rng.random(), 6)
    parent = oracle_walk(document, keys[:-1])
    parent[keys[-1]] = score  # type: ignore[index]
    return document, keys, score, json.dumps(document)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("form", ["pointer", "jsonpath"])
def test_the_selected_value_is_the_oracles(seed, form):
    document, keys, score, text = case(seed)
    query = pointer(keys) if form == "pointer" else jsonpath(keys)
    found = oracle_walk(json.loads(text), keys)
    decision = evaluate(text, select=query, threshold=0.5)
    assert decision.score == found == score
    assert decision.verdict is (Verdict.PASS if score >= 0.5 else Verdict.FAIL)
    assert decision.selection is not None
    assert decision.selection.query == query
    assert decision.selection.path == oracle_path(keys)
    assert decision.as_dict()["selection"]["path"] == oracle_path(keys)


@pytest.mark.parametrize("seed", SEEDS)
def test_every_non_number_leaf_is_wrong_type_with_its_path(seed):
    rng = random.Random(1000 + seed)
    document = {"results": generate(rng)}
    text = json.dumps(document)
    checked = 0
    for keys in leaf_paths(document):
        value = oracle_walk(document, keys)
        if type(value) in (int, float):
            continue
        decision = evaluate(text, select=pointer(keys))
        assert decision.verdict is Verdict.INVALID
        assert decision.code == "wrong-type"
        assert oracle_path(keys) in decision.message
        checked += 1
    # Not every document has a non-number leaf; across seeds most do.
    if seed == 0 and checked == 0:
        raise AssertionError("the generator made no non-number leaves")


def _plant(text: str, score_text: str, literal: str) -> str:
    # Replace the selected number's text by a literal.  Scores are rounded
    # to 6 places, so their text is unique enough to be found once.
    if text.count(score_text) != 1:
        pytest.skip("the score's text is not unique in this document")
    return text.replace(score_text, literal)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("literal", ["NaN", "Infinity", "-Infinity", "1e400"])
@pytest.mark.parametrize("mode", ["refuse", "list"])
def test_non_finite_in_the_selection_is_invalid(seed, literal, mode):
    document, keys, score, text = case(seed)
    planted = _plant(text, json.dumps(score), literal)
    decision = evaluate(planted, select=pointer(keys), policy=Policy(0.5, nonfinite_elsewhere=mode))
    assert decision.verdict is Verdict.INVALID
    assert decision.code in ("non-standard-constant", "non-finite")


@pytest.mark.parametrize("seed", SEEDS)
def test_non_finite_elsewhere_is_refused_by_default(seed):
    document, keys, score, text = case(seed)
    document["unscored"] = [1, 2]
    text = json.dumps(document).replace("[1, 2]", "[1, NaN]")
    decision = evaluate(text, select=pointer(keys), threshold=0.5)
    assert decision.verdict is Verdict.INVALID
    assert decision.code == "non-standard-constant"


@pytest.mark.parametrize(
    ("literal", "code"),
    [
        ("null", "wrong-type"),
        ('"N/A"', "wrong-type"),
        ('"0.51"', "wrong-type"),
        ("true", "wrong-type"),
        ("[0.9]", "wrong-type"),
        ('{"v": 0.9}', "wrong-type"),
        ("1.5", "out-of-range"),
        ("-0.1", "out-of-range"),
    ],
)
def test_a_selected_value_meets_the_numeric_contract(literal, code):
    text = '{"results": {"mmlu": {"acc,none": ' + literal + "}}}"
    decision = evaluate(text, select='$.results.mmlu["acc,none"]')
    assert (decision.verdict, decision.code) == (Verdict.INVALID, code)
    assert "$['results']['mmlu']['acc,none']" in decision.message
    assert decision.score is None


def test_no_match_names_the_deepest_prefix():
    text = '{"results": {"mmlu": {"acc,none": 0.9}}}'
    decision = evaluate(text, select="/results/gsm8k/exact_match,strict-match")
    assert decision.code == "no-match"
    assert "'/results'" in decision.message and "gsm8k" in decision.message
    decision = evaluate(text, select="$.results.mmlu.acc")
    assert decision.code == "no-match" and "'$.results.mmlu'" in decision.message
    assert decision.selection is not None and decision.selection.path is None


def test_ambiguous_selection_gives_the_count_and_first_two_paths():
    text = '{"scores": [{"name": "a", "v": 0.9}, {"name": "a", "v": 0.1}, {"name": "a", "v": 0.5}]}'
    decision = evaluate(text, select="$.scores[?@.name == 'a'].v")
    assert decision.code == "ambiguous-selection"
    assert "3 nodes" in decision.message
    assert "$['scores'][0]['v']" in decision.message and "$['scores'][1]['v']" in decision.message


def test_a_filter_picks_the_named_element_wherever_it_is():
    text = (
        '{"results": {"scores": [{"name": "other", "metrics": {"accuracy": {"value": 0.1}}},'
        ' {"name": "choice", "metrics": {"accuracy": {"value": 0.84}}}]}}'
    )
    decision = evaluate(text, select="$.results.scores[?@.name == 'choice'].metrics.accuracy.value")
    assert decision.verdict is Verdict.PASS and decision.score == 0.84
    assert decision.selection.path == "$['results']['scores'][1]['metrics']['accuracy']['value']"


@pytest.mark.parametrize("query", ["results", "$.a[", "$..", "/a~2", "$.a ", 5, None.__class__])
def test_a_malformed_query_is_configuration(query):
    with pytest.raises(PolicyError) as caught:
        evaluate('{"a": 1}', select=query)
    assert caught.value.code == "bad-selector"


# -- requirements --------------------------------------------------------------

INSPECT = (
    '{"status": "success", "invalidated": false, "results": {"total_samples": 3, "completed_samples": 3,'
    ' "scores": [{"name": "choice", "metrics": {"accuracy": {"value": 0.9}}}]}}'
)
HEADLINE = "$.results.scores[?@.name == 'choice'].metrics.accuracy.value"


@pytest.mark.parametrize(
    ("requirement", "holds"),
    [
        ("$.status == 'success'", True),
        ("$.status == 'error'", False),
        ("$.results.completed_samples == $.results.total_samples", True),
        ("$.invalidated != true", True),
        ("$.invalidated == true", False),
        ("!$.invalidated", False),  # an existence test: the member exists
        ("length($.results.scores) > 0", True),
        ("$.results.missing", False),
    ],
)
def test_requirements_must_hold(requirement, holds):
    decision = evaluate(INSPECT, select=HEADLINE, policy=Policy(0.5, require=[requirement]))
    if holds:
        assert decision.verdict is Verdict.PASS
    else:
        assert (decision.verdict, decision.code) == (Verdict.INVALID, "requirement-failed")
        assert requirement in decision.message


def test_every_requirement_is_checked():
    policy = Policy(0.5, require=["$.status == 'success'", "$.results.total_samples == 4"])
    decision = evaluate(INSPECT, select=HEADLINE, policy=policy)
    assert decision.code == "requirement-failed" and "total_samples == 4" in decision.message


def test_requirements_without_a_selection_apply_to_the_whole_record():
    policy = Policy(0.5, require=["$.score > 0.6"])
    assert evaluate('{"score": 0.7}', policy=policy).verdict is Verdict.PASS
    decision = evaluate('{"score": 0.55}', policy=policy)
    assert decision.code == "requirement-failed"
    assert evaluate(b'{"score": 0.55}', policy=policy).code == "requirement-failed"


def test_a_requirement_reading_nan_is_never_false():
    text = INSPECT.replace('"completed_samples": 3', '"completed_samples": NaN')
    for mode in ("refuse", "list"):
        policy = Policy(0.5, require=["!($.results.completed_samples < 3)"], nonfinite_elsewhere=mode)
        decision = evaluate(text, select=HEADLINE, policy=policy)
        assert decision.verdict is Verdict.INVALID
        assert decision.code in ("non-finite", "non-standard-constant")


def test_a_filter_comparing_nan_is_invalid():
    text = '{"scores": [{"w": NaN, "v": 0.1}, {"w": 1, "v": 0.9}]}'
    for mode in ("refuse", "list"):
        decision = evaluate(text, select="$.scores[?@.w > 0].v", policy=Policy(0.5, nonfinite_elsewhere=mode))
        assert decision.verdict is Verdict.INVALID
        assert decision.code in ("non-finite", "non-standard-constant")


# -- direction, bounds, duplicates ------------------------------------------------


def test_lower_direction_on_a_selected_value():
    text = '{"results": {"wikitext": {"word_perplexity,none": 11.2}}}'
    policy = Policy(12, minimum=1, maximum=None, direction="lower")
    decision = evaluate(text, select="/results/wikitext/word_perplexity,none", policy=policy)
    assert decision.verdict is Verdict.PASS and "lower is better" in decision.message


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ('{"a": {"s": 0.9}, "b": 1, "b": 2}', "duplicate-member"),
        ('{"a": {"s": 0.9}} x', "trailing-data"),
        ('{"a": {"s": 0.9}, "b": [}', "syntax"),
        ("[" * 200 + "]" * 200, "too-deep"),
    ],
)
def test_document_faults_refuse_the_whole_document_wherever_they_are(text, code):
    decision = evaluate(text, select="/a/s", policy=Policy(0.5, nonfinite_elsewhere="list"))
    assert (decision.verdict, decision.code) == (Verdict.INVALID, code)


def test_too_large_says_how_to_raise_the_limit():
    decision = evaluate('{"a": 0.9}', select="/a", max_bytes=4)
    assert decision.code == "too-large" and "max_bytes=" in decision.message


def test_selection_is_kept_on_invalid_decisions_and_compares_by_value():
    first = evaluate('{"a": "N/A"}', select="/a")
    second = evaluate('{"a": "N/A"}', select="/a")
    assert first == second and hash(first) == hash(second)
    assert first != evaluate('{"a": "N/A"}', select="$.a")
    import pickle

    assert pickle.loads(pickle.dumps(first)) == first


# -- judgments -----------------------------------------------------------------------


def test_a_judgment_with_select_is_the_selected_object():
    text = '{"runs": [{"name": "x", "judgment": {"pass": false, "score": 0.9}}]}'
    judgment = judge(text, select="$.runs[?@.name == 'x'].judgment")
    assert judgment.code == "explicit-fail"
    assert judgment.selection is not None and judgment.selection.path == "$['runs'][0]['judgment']"
    assert judgment.as_dict()["selection"]["query"] == "$.runs[?@.name == 'x'].judgment"
    assert judge(text, select="/runs/0/name").code == "not-an-object"
    assert judge(text, select="/runs/1").code == "no-match"


def test_a_judgment_without_select_has_no_selection():
    assert judge('{"pass": true}').selection is None
    assert judge('{"pass": true}').as_dict()["selection"] is None


# -- the command line ------------------------------------------------------------

LM_EVAL = b'{"results": {"mmlu": {"alias": "mmlu", "acc,none": 0.61, "acc_stderr,none": "N/A"}}, "n-samples": {}}'


def _check(tmp_path, capsys, *args, evidence=LM_EVAL):
    from scorecontract._cli import main

    path = tmp_path / "results.json"
    path.write_bytes(evidence)
    status = main(["check", *args, "--", str(path)])
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize(
    "args",
    [
        ["--select", "results.mmlu"],
        ["--select", "$.results.mmlu[acc,none]"],
        ["--select", "/a~"],
        ["--select", "$.a", "--require", "$.a =="],
        ["--require", "status == 'success'"],
        ["--select", "$[?match(@.a, '[')]"],
    ],
)
def test_bad_queries_exit_2_with_one_line(tmp_path, capsys, args):
    status, out, err = _check(tmp_path, capsys, *args)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("scorecontract: error: bad-selector: ")
    assert "Traceback" not in err


@pytest.mark.parametrize(
    "evidence",
    [
        b'{"results": {"mmlu": {"acc,none": 0.61}}, "x": NaN}',
        b'{"results": 1, "results": 2}',
        b"{",
        b'{"results": {"mmlu": {"acc,none": "0.61"}}}',
        b'{"results": {}}',
        b"\xff",
    ],
)
def test_bad_documents_exit_3_with_one_line(tmp_path, capsys, evidence):
    status, out, err = _check(tmp_path, capsys, "--select", '$.results.mmlu["acc,none"]', evidence=evidence)
    assert status == 3 and err == ""
    assert out.count("\n") == 1 and out.startswith("INVALID ")
    assert "Traceback" not in out


def test_the_receipt_and_json_record_the_query_and_its_path(tmp_path, capsys):
    query = '$.results.mmlu["acc,none"]'
    status, out, _ = _check(
        tmp_path,
        capsys,
        "--select",
        query,
        "--threshold",
        "0.5",
        "--format",
        "json",
        "--receipt",
        str(tmp_path / "receipt.json"),
    )
    assert status == 0
    shown = json.loads(out)
    kept = json.loads((tmp_path / "receipt.json").read_text())
    for receipt in (shown, kept):
        assert receipt["selection"] == {
            "query": query,
            "path": "$['results']['mmlu']['acc,none']",
            "nonfinite_elsewhere": {"count": 0, "paths": []},
        }
        assert receipt["score"] == 0.61 and receipt["kind"] == "check"


def test_the_text_line_names_the_path_and_a_lower_direction(tmp_path, capsys):
    status, out, _ = _check(
        tmp_path, capsys, "--select", "/results/mmlu/acc,none", "--threshold", "0.7", "--direction", "lower"
    )
    assert status == 0
    assert out.startswith("PASS meets-threshold: score 0.61 <= threshold 0.7 (lower is better)")
    assert "$['results']['mmlu']['acc,none']" in out
    status, out, _ = _check(
        tmp_path,
        capsys,
        "--select",
        "/results/mmlu/acc,none",
        "--threshold",
        "0.7",
        "--direction",
        "lower",
        "--format",
        "json",
    )
    assert json.loads(out)["policy"]["direction"] == "lower"


def test_too_large_on_the_command_line_names_max_bytes(tmp_path, capsys):
    status, out, _ = _check(tmp_path, capsys, "--select", "/results", "--max-bytes", "10")
    assert status == 3 and "too-large" in out and "--max-bytes 64M" in out


def test_every_check_line_names_a_lower_direction(tmp_path, capsys):
    for extra in ([], ["--format", "github"]):
        status, out, _ = _check(
            tmp_path, capsys, "--select", "/results/mmlu/alias", "--threshold", "0.7", "--direction", "lower", *extra
        )
        assert status == 3 and "wrong-type" in out and "(direction lower)" in out
    status, out, _ = _check(tmp_path, capsys, "--select", "/results/mmlu/alias")
    assert status == 3 and "direction" not in out


def test_a_candidate_binds_the_documents_own_members():
    text = '{"candidate": "m-1", "run_id": "r-1", "results": {"acc": 0.9}}'
    assert evaluate(text, select="/results/acc", candidate="m-1").verdict is Verdict.PASS
    assert evaluate(text, select="/results/acc", candidate="m-2").code == "candidate-mismatch"
    assert evaluate(text, select="/results/acc", candidate="m-1", run_id="r-0").code == "run-id-mismatch"
    assert evaluate('{"results": {"acc": 0.9}}', select="/results/acc", candidate="m-1").code == "missing-candidate"
    assert evaluate("[0.9]", select="/0", candidate="m-1").code == "not-an-object"


# -- non-finite numbers elsewhere, listed ------------------------------------------


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("literal", ["NaN", "Infinity", "-Infinity", "1e400"])
def test_non_finite_elsewhere_is_listed_or_refused_per_the_policy(seed, literal):
    document, keys, score, text = case(seed)
    rng = random.Random(2000 + seed)
    # Plant the literal at a few leaves that are not the selected one (nor
    # inside it: a leaf has nothing inside).
    others = [path for path in leaf_paths(document) if path and path != keys]
    planted = rng.sample(others, min(len(others), rng.randint(1, 3)))
    marker = "__planted_{}__"
    for number, path in enumerate(planted):
        oracle_walk(document, path[:-1])[path[-1]] = marker.format(number)  # type: ignore[index]
    text = json.dumps(document)
    for number in range(len(planted)):
        text = text.replace(json.dumps(marker.format(number)), literal)
    expected = sorted(oracle_path(path) for path in planted)
    listed = evaluate(text, select=pointer(keys), policy=Policy(0.5, nonfinite_elsewhere="list"))
    assert listed.verdict is (Verdict.PASS if score >= 0.5 else Verdict.FAIL)
    assert listed.score == score
    assert listed.selection.nonfinite_count == len(planted)
    assert sorted(listed.selection.nonfinite_paths) == expected
    assert listed.as_dict()["selection"]["nonfinite_elsewhere"]["count"] == len(planted)
    assert "listed and not judged" in listed.message
    refused = evaluate(text, select=pointer(keys), threshold=0.5)
    assert refused.verdict is Verdict.INVALID
    assert refused.code == ("non-finite" if literal == "1e400" else "non-standard-constant")
    assert f"({len(planted)} in all)" in refused.message
    assert any(path in refused.message for path in expected)


@pytest.mark.parametrize("literal", ["NaN", "Infinity"])
def test_non_finite_inside_a_selected_object_is_invalid_even_when_listed(literal):
    text = '{"runs": [{"judgment": {"pass": true, "detail": [1, ' + literal + ']}}], "other": NaN}'
    judgment = judge(text, select="/runs/0/judgment", policy=Policy(0.5, nonfinite_elsewhere="list"))
    assert judgment.verdict is Verdict.INVALID
    assert judgment.code == "non-standard-constant"
    assert "$['runs'][0]['judgment']['detail'][1]" in judgment.message


def test_listed_paths_are_capped_but_the_count_is_exact():
    text = '{"v": 0.9, "s": [' + ", ".join(["NaN"] * 250) + "]}"
    decision = evaluate(text, select="/v", policy=Policy(0.5, nonfinite_elsewhere="list"))
    assert decision.verdict is Verdict.PASS
    assert decision.selection.nonfinite_count == 250
    assert len(decision.selection.nonfinite_paths) == 100
    assert decision.selection.nonfinite_paths[0] == "$['s'][0]"


def test_a_requirement_on_a_listed_nan_is_still_invalid():
    text = '{"v": 0.9, "done": NaN}'
    policy = Policy(0.5, nonfinite_elsewhere="list", require=["$.done == 1"])
    decision = evaluate(text, select="/v", policy=policy)
    assert (decision.verdict, decision.code) == (Verdict.INVALID, "non-finite")
    assert "$['done']" in decision.message


def test_listed_on_the_command_line(tmp_path, capsys):
    evidence = b'{"results": {"t": {"mae,none": 0.41, "mae_stderr,none": NaN}}}'
    status, out, _ = _check(
        tmp_path,
        capsys,
        "--select",
        "/results/t/mae,none",
        "--direction",
        "lower",
        "--threshold",
        "0.5",
        "--nonfinite-elsewhere",
        "list",
        "--format",
        "json",
        evidence=evidence,
    )
    assert status == 0
    assert json.loads(out)["selection"]["nonfinite_elsewhere"] == {
        "count": 1,
        "paths": ["$['results']['t']['mae_stderr,none']"],
    }
    status, out, _ = _check(
        tmp_path,
        capsys,
        "--select",
        "/results/t/mae,none",
        "--direction",
        "lower",
        "--threshold",
        "0.5",
        evidence=evidence,
    )
    assert status == 3 and "non-standard-constant" in out and "mae_stderr" in out
