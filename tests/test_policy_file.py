# SPDX-License-Identifier: MIT
"""Policy files: JSON always, TOML on 3.11+, read as strictly as evidence."""

from __future__ import annotations

import json
import re
import sys
from decimal import Decimal

import pytest

from scorecontract import Policy, PolicyError, Verdict, evaluate, load_policy
from scorecontract._cli import main
from support import FIXTURES, ROOT, run_fresh, run_main

HAS_TOMLLIB = sys.version_info >= (3, 11)
needs_tomllib = pytest.mark.skipif(not HAS_TOMLLIB, reason="tomllib is Python 3.11+")

GOOD_FILES = [
    # (id, file name, contents, expected Policy)
    (
        "json-minimal",
        "policy.json",
        b'{"version": "v1", "threshold": 0.9, "exact": false}',
        Policy(0.9, version="v1"),
    ),
    (
        "json-bounds",
        "policy.json",
        b'{"version": "v2", "threshold": 7, "exact": false, "min": 0, "max": 10}',
        Policy(7, minimum=0, maximum=10, version="v2"),
    ),
    (
        "json-exact",
        "policy.json",
        b'{"version": "v3", "threshold": 0.8, "exact": true}',
        Policy(Decimal("0.8"), version="v3", exact=True),
    ),
    (
        "json-any-suffix",
        "gate.policy",
        b' {"exact": false, "threshold": 0.5, "version": "v4"}\n',
        Policy(0.5, version="v4"),
    ),
    (
        "json-unicode-version",
        "policy.json",
        b'{"version": "r\\u00e9l\\u00e9ase", "threshold": 1, "exact": false}',
        Policy(1, version="réléase"),
    ),
]

TOML_GOOD_FILES = [
    (
        "toml-minimal",
        "policy.toml",
        b'version = "v1"\nthreshold = 0.9\nexact = false\n',
        Policy(0.9, version="v1"),
    ),
    (
        "toml-exact-bounds",
        "POLICY.TOML",
        b'version = "v5"\nthreshold = 0.79999999999999999999\nexact = true\nmin = 0\nmax = 1\n',
        Policy(Decimal("0.79999999999999999999"), version="v5", exact=True),
    ),
]

# docs/policies.md: "Files over 64 KiB are refused (`policy-file-unreadable`)".
MAX_POLICY_BYTES = 64 * 1024


def write(tmp_path, name, contents):
    path = tmp_path / name
    path.write_bytes(contents)
    return str(path)


@pytest.mark.parametrize(
    "name, contents, expected",
    [g[1:] for g in GOOD_FILES] + [pytest.param(*g[1:], marks=needs_tomllib) for g in TOML_GOOD_FILES],
    ids=[g[0] for g in GOOD_FILES + TOML_GOOD_FILES],
)
def test_good_policy_file(tmp_path, name, contents, expected):
    policy = load_policy(write(tmp_path, name, contents))
    assert policy == expected
    assert type(policy.threshold) is type(expected.threshold)


def test_numbers_are_decoded_as_the_policy_decodes_evidence(tmp_path):
    text = b'{"version": "v", "threshold": 0.79999999999999999999, "exact": %s}'
    as_float = load_policy(write(tmp_path, "f.json", text % b"false"))
    as_decimal = load_policy(write(tmp_path, "d.json", text % b"true"))
    assert as_float.threshold == 0.8 and type(as_float.threshold) is float
    assert as_decimal.threshold == Decimal("0.79999999999999999999")
    assert evaluate(b'{"score": 0.79999999999999999999}', policy=as_decimal).verdict is Verdict.PASS
    assert evaluate(b'{"score": 0.7999999999999999999}', policy=as_decimal).verdict is Verdict.FAIL


@pytest.mark.parametrize("exact", [False, True])
def test_as_dict_reads_back_as_an_equal_policy(tmp_path, exact):
    policy = Policy(0.75, minimum=0, maximum=1, version="release-9", exact=exact)
    text = json.dumps(policy.as_dict()).encode()
    loaded = load_policy(write(tmp_path, "p.json", text))
    # An exact policy reads its numbers back as Decimal, the same values.
    assert loaded == (Policy(Decimal("0.75"), version="release-9", exact=True) if exact else policy)
    for score in (b"0.74", b"0.75", b"0.7500000000000000001", b"1.5"):
        record = b'{"score": ' + score + b"}"
        assert evaluate(record, policy=loaded).verdict is evaluate(record, policy=policy).verdict


BAD_FILES = [
    # (id, file name, contents, code, words the message must hold)
    (
        "nan",
        "p.json",
        b'{"version": "v", "threshold": NaN, "exact": false}',
        "bad-policy-file",
        "non-standard-constant",
    ),
    (
        "nan-exact",
        "p.json",
        b'{"version": "v", "threshold": NaN, "exact": true}',
        "bad-policy-file",
        "non-standard-constant",
    ),
    (
        "infinity",
        "p.json",
        b'{"version": "v", "threshold": Infinity, "exact": false}',
        "bad-policy-file",
        "non-standard-constant",
    ),
    ("overflow", "p.json", b'{"version": "v", "threshold": 1e400, "exact": false}', "bad-policy-file", "non-finite"),
    ("overflow-exact", "p.json", b'{"version": "v", "threshold": 1e400, "exact": true}', "bad-threshold", "outside"),
    (
        "duplicate-threshold",
        "p.json",
        b'{"version": "v", "threshold": 0.9, "threshold": 0.1, "exact": false}',
        "bad-policy-file",
        "duplicate-member",
    ),
    (
        "duplicate-escaped",
        "p.json",
        b'{"version": "v", "threshold": 0.9, "\\u0074hreshold": 0.1, "exact": false}',
        "bad-policy-file",
        "duplicate-member",
    ),
    ("syntax", "p.json", b'{"version": "v", "threshold": 0.9,}', "bad-policy-file", "syntax"),
    (
        "trailing",
        "p.json",
        b'{"version": "v", "threshold": 0.9, "exact": false} {}',
        "bad-policy-file",
        "trailing-data",
    ),
    ("empty", "p.json", b"", "bad-policy-file", "empty"),
    (
        "bom",
        "p.json",
        b'\xef\xbb\xbf{"version": "v", "threshold": 0.9, "exact": false}',
        "bad-policy-file",
        "byte-order-mark",
    ),
    (
        "utf16",
        "p.json",
        '{"version": "v", "threshold": 0.9, "exact": false}'.encode("utf-16-le"),
        "bad-policy-file",
        "UTF-16",
    ),
    (
        "utf16-bom",
        "p.json",
        '{"version": "v", "threshold": 0.9, "exact": false}'.encode("utf-16"),
        "bad-policy-file",
        "not-utf8",
    ),
    (
        "lone-surrogate",
        "p.json",
        b'{"version": "\\ud800", "threshold": 0.9, "exact": false}',
        "bad-policy-file",
        "lone-surrogate",
    ),
    ("array", "p.json", b'[{"version": "v", "threshold": 0.9, "exact": false}]', "bad-policy-file", "one object"),
    (
        "typo-treshold",
        "p.json",
        b'{"version": "v", "treshold": 0.9, "exact": false}',
        "unknown-policy-key",
        "did you mean 'threshold'",
    ),
    (
        "unknown-key",
        "p.json",
        b'{"version": "v", "threshold": 0.9, "exact": false, "colour": "red"}',
        "unknown-policy-key",
        "'colour'",
    ),
    ("missing-threshold", "p.json", b'{"version": "v", "exact": false}', "missing-policy-key", "'threshold'"),
    ("missing-version", "p.json", b'{"threshold": 0.9, "exact": false}', "missing-policy-key", "'version'"),
    ("missing-exact", "p.json", b'{"version": "v", "threshold": 0.9}', "missing-policy-key", "'exact'"),
    ("empty-object", "p.json", b"{}", "missing-policy-key", "'version', 'threshold', 'exact'"),
    ("threshold-string", "p.json", b'{"version": "v", "threshold": "0.9", "exact": false}', "bad-threshold", "string"),
    ("threshold-bool", "p.json", b'{"version": "v", "threshold": true, "exact": false}', "bad-threshold", "boolean"),
    ("threshold-null", "p.json", b'{"version": "v", "threshold": null, "exact": false}', "bad-threshold", "null"),
    ("threshold-above", "p.json", b'{"version": "v", "threshold": 1.5, "exact": false}', "bad-threshold", "outside"),
    (
        "threshold-above-exact",
        "p.json",
        b'{"version": "v", "threshold": 1.0000000000000001, "exact": true}',
        "bad-threshold",
        "outside",
    ),
    ("exact-string", "p.json", b'{"version": "v", "threshold": 0.9, "exact": "true"}', "bad-policy", "exact"),
    ("exact-int", "p.json", b'{"version": "v", "threshold": 0.9, "exact": 1}', "bad-policy", "exact"),
    ("version-empty", "p.json", b'{"version": "", "threshold": 0.9, "exact": false}', "bad-version", "non-empty"),
    ("version-number", "p.json", b'{"version": 2, "threshold": 0.9, "exact": false}', "bad-version", "non-empty"),
    (
        "version-newline",
        "p.json",
        b'{"version": "v\\n::error::x", "threshold": 0.9, "exact": false}',
        "bad-version",
        "control",
    ),
    (
        "inverted-bounds",
        "p.json",
        b'{"version": "v", "threshold": 0.5, "exact": false, "min": 1, "max": 0}',
        "bad-bounds",
        "inverted",
    ),
    (
        "bound-string",
        "p.json",
        b'{"version": "v", "threshold": 0.5, "exact": false, "max": "1"}',
        "bad-bounds",
        "string",
    ),
    (
        "too-large",
        "p.json",
        b'{"version": "v", "threshold": 0.5, "exact": false}' + b" " * MAX_POLICY_BYTES,
        "policy-file-unreadable",
        "limit",
    ),
]

TOML_BAD_FILES = [
    ("toml-syntax", "p.toml", b'version = "v"\nthreshold = \n', "bad-policy-file", "not TOML"),
    (
        "toml-duplicate",
        "p.toml",
        b'version = "v"\nthreshold = 0.9\nthreshold = 0.1\nexact = false\n',
        "bad-policy-file",
        "not TOML",
    ),
    ("toml-nan", "p.toml", b'version = "v"\nthreshold = nan\nexact = false\n', "bad-policy-file", "TOML-only syntax"),
    (
        "toml-nan-exact",
        "p.toml",
        b'version = "v"\nthreshold = nan\nexact = true\n',
        "bad-policy-file",
        "TOML-only syntax",
    ),
    ("toml-inf", "p.toml", b'version = "v"\nthreshold = inf\nexact = false\n', "bad-policy-file", "TOML-only syntax"),
    (
        "toml-typo",
        "p.toml",
        b'version = "v"\ntreshold = 0.9\nexact = false\n',
        "unknown-policy-key",
        "did you mean 'threshold'",
    ),
    (
        "toml-table",
        "p.toml",
        b'[policy]\nversion = "v"\nthreshold = 0.9\nexact = false\n',
        "unknown-policy-key",
        "'policy'",
    ),
    (
        "toml-date",
        "p.toml",
        b'version = "v"\nthreshold = 1979-05-27\nexact = false\n',
        "bad-threshold",
        "datetime.date",
    ),
    (
        "toml-deep",
        "p.toml",
        b'version = "v"\nthreshold = ' + b"[" * 20000 + b"]" * 20000 + b"\nexact = false\n",
        "bad-policy-file",
        "TOML",
    ),
    (
        "toml-huge-int",
        "p.toml",
        b'version = "v"\nthreshold = ' + b"1" * 5000 + b"\nexact = false\n",
        "bad-policy-file",
        "TOML",
    ),
    (
        "toml-bom",
        "p.toml",
        b'\xef\xbb\xbfversion = "v"\nthreshold = 0.9\nexact = false\n',
        "bad-policy-file",
        "byte-order-mark",
    ),
    (
        "toml-inverted",
        "p.toml",
        b'version = "v"\nthreshold = 0.5\nexact = false\nmin = 1\nmax = 0\n',
        "bad-bounds",
        "inverted",
    ),
    ("toml-empty-version", "p.toml", b'version = ""\nthreshold = 0.5\nexact = false\n', "bad-version", "non-empty"),
    ("toml-exact-string", "p.toml", b'version = "v"\nthreshold = 0.5\nexact = "yes"\n', "bad-policy", "exact"),
]

ALL_BAD = BAD_FILES + TOML_BAD_FILES
BAD_PARAMS = [pytest.param(*b[1:], id=b[0]) for b in BAD_FILES] + [
    pytest.param(*b[1:], id=b[0], marks=needs_tomllib) for b in TOML_BAD_FILES
]


@pytest.mark.parametrize("name, contents, code, words", BAD_PARAMS)
def test_bad_policy_file_raises(tmp_path, name, contents, code, words):
    path = write(tmp_path, name, contents)
    with pytest.raises(PolicyError) as info:
        load_policy(path)
    assert info.value.code == code
    assert words in info.value.message
    assert path.rsplit("/", 1)[1] in info.value.message  # names the file
    assert "\n" not in str(info.value)


@pytest.mark.parametrize("name, contents, code, words", BAD_PARAMS)
def test_bad_policy_file_exits_2_with_one_line(tmp_path, capsys, name, contents, code, words):
    path = write(tmp_path, name, contents)
    status = main(["check", "--policy", path, str(FIXTURES / "pass-0.9.json")])
    out, err = capsys.readouterr()
    assert status == 2
    assert out == ""
    assert err.startswith(f"scorecontract: error: {code}: ")
    assert err.count("\n") == 1


def test_bad_file_tables_cover_the_issue():
    ids = {b[0] for b in ALL_BAD}
    for required in (
        "nan",
        "duplicate-threshold",
        "typo-treshold",
        "threshold-string",
        "inverted-bounds",
        "version-empty",
        "toml-syntax",
    ):
        assert required in ids


@pytest.mark.skipif(HAS_TOMLLIB, reason="only Python 3.9 and 3.10 lack tomllib")
def test_toml_without_tomllib_is_a_configuration_error(tmp_path):
    path = write(tmp_path, "p.toml", b'version = "v"\nthreshold = 0.9\nexact = false\n')
    with pytest.raises(PolicyError) as info:
        load_policy(path)
    assert info.value.code == "bad-policy-file"
    assert "3.11" in info.value.message


@pytest.mark.parametrize("kind", ["missing", "directory"])
def test_unreadable_policy_file(tmp_path, kind):
    path = tmp_path / "absent.json" if kind == "missing" else tmp_path
    with pytest.raises(PolicyError) as info:
        load_policy(str(path))
    assert info.value.code == "policy-file-unreadable"


def test_policy_file_at_the_size_limit_is_read(tmp_path):
    body = b'{"version": "v", "threshold": 0.9, "exact": false}'
    policy = load_policy(write(tmp_path, "p.json", body + b" " * (MAX_POLICY_BYTES - len(body))))
    assert policy == Policy(0.9, version="v")


# file key -> (a valid value, the Policy keyword it sets): the file format
# is Policy's keywords, two of them under shorter names.
FILE_KEYS = {
    "version": ("v2", "version"),
    "threshold": (0.25, "threshold"),
    "exact": (True, "exact"),
    "min": (-1, "minimum"),
    "max": (2, "maximum"),
    "review_owner": ("ml-oncall", "review_owner"),
    "require_candidate": (True, "require_candidate"),
    "direction": ("lower", "direction"),
    "nonfinite_elsewhere": ("list", "nonfinite_elsewhere"),
    "require": (["$.status == 'success'"], "require"),
    "confidence": (0.95, "confidence"),
    "bound": ("hoeffding", "bound"),
}


def test_every_key_maps_to_a_policy_keyword(tmp_path):
    import inspect

    keywords = set(inspect.signature(Policy).parameters)
    assert {keyword for _, keyword in FILE_KEYS.values()} <= keywords
    base = {"version": "v", "threshold": 0.5, "exact": False}
    for key, (value, keyword) in FILE_KEYS.items():
        extra = {"confidence": 0.95} if key == "bound" else {}  # a bound needs one
        body = json.dumps({**base, **extra, key: value}).encode()
        policy = load_policy(write(tmp_path, f"{key}.json", body))
        assert getattr(policy, keyword) == (tuple(value) if type(value) is list else value), key
    # No other key is read: one more is refused, so the table above is all.
    for other in ("minimum", "maximum", "thresholds", "bounds", "owner"):
        with pytest.raises(PolicyError) as info:
            load_policy(write(tmp_path, f"{other}.json", json.dumps({**base, other: 1}).encode()))
        assert info.value.code == "unknown-policy-key", other


def test_direction_null_bounds_and_requirements_round_trip(tmp_path):
    body = (
        b'{"version": "ppl", "threshold": 12.5, "exact": false, "min": 1, "max": null, '
        b'"direction": "lower", "nonfinite_elsewhere": "list", "require": ["$.status == \'success\'"]}'
    )
    policy = load_policy(write(tmp_path, "p.json", body))
    assert policy.direction == "lower"
    assert policy.maximum is None and policy.minimum == 1
    assert policy.nonfinite_elsewhere == "list"
    assert policy.require == ("$.status == 'success'",)
    assert load_policy(write(tmp_path, "q.json", json.dumps(policy.as_dict()).encode())) == policy


@pytest.mark.parametrize(
    ("member", "code"),
    [
        ('"direction": "down"', "bad-policy"),
        ('"direction": true', "bad-policy"),
        ('"nonfinite_elsewhere": "ignore"', "bad-policy"),
        ('"require": "$.a == 1"', "bad-policy"),
        ('"require": [1]', "bad-policy"),
        ('"require": ["$.a =="]', "bad-selector"),
        ('"min": "0"', "bad-bounds"),
    ],
)
def test_bad_new_policy_keys_are_refused(tmp_path, member, code):
    body = '{"version": "v", "threshold": 0.5, "exact": false, ' + member + "}"
    with pytest.raises(PolicyError) as caught:
        load_policy(write(tmp_path, "p.json", body.encode()))
    assert caught.value.code == code


# The command line.


def check(*args):
    return run_main("check", *args)


def test_cli_policy_file_decides(tmp_path, capsys):
    path = write(tmp_path, "p.json", b'{"version": "v9", "threshold": 0.95, "exact": false}')
    assert main(["check", "--policy", path, str(FIXTURES / "pass-0.9.json")]) == 1
    assert capsys.readouterr().out.startswith("FAIL below-threshold: ")
    assert main(["check", "--policy", path, str(FIXTURES / "one.json")]) == 0


@needs_tomllib
def test_cli_toml_policy_file_decides(tmp_path, capsys):
    path = write(tmp_path, "p.toml", b'version = "v9"\nthreshold = 0.95\nexact = false\n')
    assert main(["check", "--policy", path, str(FIXTURES / "pass-0.9.json")]) == 1
    assert main(["check", "--policy", path, str(FIXTURES / "one.json")]) == 0


@pytest.mark.parametrize("extra", [["--threshold", "0.5"], ["--exact"]], ids=["threshold", "exact"])
def test_cli_policy_beside_threshold_or_exact_exits_2(tmp_path, capsys, extra):
    path = write(tmp_path, "p.json", b'{"version": "v", "threshold": 0.95, "exact": true}')
    status = main(["check", "--policy", path, *extra, str(FIXTURES / "pass-0.9.json")])
    out, err = capsys.readouterr()
    assert status == 2 and out == ""
    assert err.startswith("scorecontract: error: option-conflict: --policy cannot be combined with ")
    assert err.count("\n") == 1


@pytest.mark.parametrize("optimize", [0, 1], ids=["plain", "O"])
def test_acceptance_nan_and_duplicate_policy_files_in_a_fresh_interpreter(tmp_path, optimize):
    nan = write(tmp_path, "nan.json", b'{"version": "v", "threshold": NaN, "exact": false}')
    duplicate = write(tmp_path, "dup.json", b'{"version": "v", "threshold": 0.9, "threshold": 0.1, "exact": false}')
    # Fresh interpreter: the policy file's refusals with and without -O.
    calls = [(["check", "--policy", path, str(FIXTURES / "pass-0.9.json")], b"") for path in (nan, duplicate)]
    for result in run_fresh(calls, optimize=optimize):
        assert result.returncode == 2
        assert result.stdout == b""
        assert result.stderr.count(b"\n") == 1
        assert result.stderr.startswith(b"scorecontract: error: bad-policy-file: ")
        assert b"Traceback" not in result.stderr


def readme_policy_examples():
    text = (ROOT / "docs" / "policies.md").read_text(encoding="utf-8")
    section = re.split(r"\n##+ ", text.split("\n## Policy files\n", 1)[1], maxsplit=1)[0]
    examples = re.findall(r"```(json|toml)\n(.*?)```", section, re.DOTALL)
    if len(examples) < 2:
        raise AssertionError("the Policy files section of docs/policies.md lost its examples")
    return examples


@pytest.mark.parametrize("kind, text", readme_policy_examples(), ids=lambda v: v if v in ("json", "toml") else "")
def test_readme_policy_examples_load(tmp_path, kind, text):
    if kind == "toml" and not HAS_TOMLLIB:
        pytest.skip("tomllib is Python 3.11+")
    policy = load_policy(write(tmp_path, f"example.{kind}", text.encode()))
    assert policy.version == "release-2024-06"
    assert policy.threshold == Decimal("0.8") if policy.exact else policy.threshold == 0.8


def test_path_may_be_a_pathlib_path(tmp_path):
    path = tmp_path / "p.json"
    path.write_bytes(b'{"version": "v", "threshold": 0.9, "exact": false}')
    assert load_policy(path) == Policy(0.9, version="v")


@pytest.mark.parametrize("path", [None, 3, b"p.json"], ids=["none", "int", "bytes"])
def test_path_of_another_type_is_a_configuration_error(path):
    with pytest.raises(PolicyError) as info:
        load_policy(path)
    assert info.value.code == "bad-policy"


def test_path_with_a_nul_is_unreadable_not_a_crash(tmp_path):
    with pytest.raises(PolicyError) as info:
        load_policy(str(tmp_path / "p\x00.json"))
    assert info.value.code == "policy-file-unreadable"


def test_review_owner_in_a_policy_file(tmp_path):
    path = tmp_path / "policy.json"
    path.write_text('{"version": "r1", "threshold": 0.8, "exact": false, "review_owner": "alice"}')
    policy = load_policy(path)
    assert policy.review_owner == "alice"
    assert load_policy_from_dict(tmp_path, policy.as_dict()) == policy


def load_policy_from_dict(folder, data):
    import json

    path = folder / "round-trip.json"
    path.write_text(json.dumps(data))
    return load_policy(path)


@pytest.mark.parametrize("owner", ['""', '" "', '"a\\nb"', "1", "true"])
def test_bad_review_owner_in_a_policy_file(tmp_path, owner):
    path = tmp_path / "policy.json"
    path.write_text('{"version": "r1", "threshold": 0.8, "exact": false, "review_owner": %s}' % owner)
    with pytest.raises(PolicyError) as info:
        load_policy(path)
    assert info.value.code == "bad-policy"
