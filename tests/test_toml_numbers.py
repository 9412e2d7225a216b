# SPDX-License-Identifier: MIT
"""TOML policy numbers meet the very checks JSON policy numbers meet.

tomllib rounds a float literal before anyone sees it: ``1e-400`` became
0.0 and released a score of 0, and ``1e99999999999999999999`` crashed the
exact decode with ``decimal.InvalidOperation``.  The literal's text now
goes through the JSON decoder's own number hook.
"""

from __future__ import annotations

import pytest

from scorecontract import Policy, PolicyError, load_policy
from support import run_main


def policy_from_bytes(data: bytes, *, toml: bool = False) -> Policy:
    """``load_policy`` of a file holding *data*: the public way in."""
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / ("policy.toml" if toml else "policy.json")
        path.write_bytes(data)
        return load_policy(path)


tomllib = pytest.importorskip("tomllib", reason="tomllib is Python 3.11+")

# Literals that are both JSON and TOML number syntax.
SHARED = [
    "0",
    "-0",
    "0.5",
    "-0.0",
    "1",
    "1e-400",
    "-1e-400",
    "1e400",
    "-1e400",
    "1e-5000",
    "1e5000",
    "1e999",
    "1e-999",
    "1e1000",
    "1e-1000",
    "1e1001",
    "1e-1001",
    "1e99999999999999999999",
    "1e-99999999999999999999",
    "4.9e-324",
    "2.4e-324",
    "2.5e-324",
    "1.7976931348623157e308",
    "1.8e308",
    "0e-400",
    "0.0000e99999",
    "1" * 640,
    "1" * 641,
    "0." + "1" * 638,
    "0." + "1" * 639,
    "99999999999999991611392",
    "1e23",
]
KEYS = ["threshold", "min", "max"]


def outcome(data: bytes, toml: bool) -> object:
    try:
        policy = policy_from_bytes(data, toml=toml)
    except PolicyError as exc:
        # The message names the format's own syntax error; the code and the
        # contract's reason inside it must agree.
        return (exc.code, exc.message.split(": ")[1] if exc.code == "bad-policy-file" else "")
    return policy


def documents(key: str, literal: str, exact: bool) -> tuple[bytes, bytes]:
    values = (
        {"threshold": "0", "min": "-1e999", "max": "1e999"}
        if exact
        else {
            "threshold": "0",
            "min": "-1e300",
            "max": "1e300",
        }
    )
    if key == "min":
        values["threshold"] = values["max"]
    values[key] = literal
    flag = "true" if exact else "false"
    json_text = (
        "{" + ", ".join(['"version": "v"', f'"exact": {flag}'] + [f'"{k}": {v}' for k, v in values.items()]) + "}"
    )
    toml_text = "\n".join(['version = "v"', f"exact = {flag}"] + [f"{k} = {v}" for k, v in values.items()])
    return json_text.encode(), (toml_text + "\n").encode()


@pytest.mark.parametrize("exact", [False, True])
@pytest.mark.parametrize("key", KEYS)
@pytest.mark.parametrize("literal", SHARED, ids=[s[:30] for s in SHARED])
def test_toml_and_json_agree(literal, key, exact):
    json_data, toml_data = documents(key, literal, exact)
    assert outcome(toml_data, toml=True) == outcome(json_data, toml=False)


def test_the_differential_sees_refusals_and_acceptances():
    seen = {type(outcome(documents("threshold", s, False)[1], toml=True)) for s in SHARED}
    assert seen == {tuple, type(policy_from_bytes(b'{"version": "v", "threshold": 0, "exact": false}'))}


BAD_NUMBERS = [
    ("threshold = 1e-400", "underflow"),
    ("threshold = 0.5\nmin = -1e-400", "underflow"),
    ("threshold = 0.5\nmax = 1e400", "non-finite"),
    ("threshold = 0.5\nmax = 1e99999999999999999999", "too-many-digits"),
    ("threshold = 1e-5000", "too-many-digits"),
    ("threshold = 0\nmax = 1" + "0" * 700, "too-many-digits"),
    ("threshold = 0.5\nmax = 1" + "1" * 700 + ".0", "too-many-digits"),
]
# An exact policy keeps 1e-400 and 1e400 as they are written: only the
# digit cap and the exponent bound apply to it.
BAD_CASES = [(line, reason, "false") for line, reason in BAD_NUMBERS] + [
    (line, reason, "true") for line, reason in BAD_NUMBERS if reason == "too-many-digits"
]


@pytest.mark.parametrize("line, reason, exact", BAD_CASES, ids=[f"{exact}-{line[:40]}" for line, _, exact in BAD_CASES])
def test_bad_toml_numbers_are_configuration_errors(line, reason, exact):
    data = f'version = "v"\nexact = {exact}\n{line}\n'.encode()
    with pytest.raises(PolicyError) as info:
        policy_from_bytes(data, toml=True)
    assert info.value.code == "bad-policy-file"
    assert f": {reason}: " in info.value.message


def test_exact_toml_keeps_a_tiny_threshold_exactly():
    policy = policy_from_bytes(b'version = "v"\nexact = true\nthreshold = 1e-400\n', toml=True)
    from decimal import Decimal

    assert policy.threshold == Decimal("1e-400") and policy.threshold != 0


# docs/policies.md, docs/gates.md: TOML numbers follow JSON's number rules,
# so TOML's own spellings are refused before tomllib converts them (its
# integers have no hook): hex, octal, binary, '_', a leading '+', inf, nan.
TOML_ONLY = [
    "0x0",
    "0o0",
    "0b0",
    "0X1",
    "1_0",
    "0.2_5",
    "5e-0_1",
    "1e-4_00",
    "+1",
    "+0.5",
    "+1e400",
    "inf",
    "+inf",
    "-inf",
    "nan",
    "+nan",
    "-nan",
    "0x" + "f" * 700,
    "0b" + "1" * 3000,
    "1" + "_0" * 700,
]


@pytest.mark.parametrize("literal", TOML_ONLY, ids=[s[:20] for s in TOML_ONLY])
@pytest.mark.parametrize("exact", ["false", "true"])
@pytest.mark.parametrize("key", ["threshold", "max"])
def test_toml_only_number_spellings_are_refused(literal, exact, key):
    lines = f"{key} = {literal}" if key == "threshold" else f"threshold = 0\nmax = {literal}"
    with pytest.raises(PolicyError) as info:
        policy_from_bytes(f'version = "v"\nexact = {exact}\n{lines}\n'.encode(), toml=True)
    assert info.value.code == "bad-policy-file"
    assert "TOML-only syntax" in info.value.message and ascii(literal[:40]) in info.value.message
    assert f"line {3 if key == 'threshold' else 4}:" in info.value.message


@pytest.mark.parametrize(
    "text",
    [
        'version = "0x0 +1 1_0 inf"\nexact = false\nthreshold = 0.5\n',
        "version = 'a = 0x0'\nexact = false\nthreshold = 0.5 # max = 0x0, [0o1]\n",
        'version = """\n= 0x0 \\""" = +1\n"""\nexact = false\nthreshold = 0.5\n',
        "version = '''\n= 0x0, inf\n'''\nexact = false\nthreshold = 0.5\n",
        'version = "v"\nexact = false\nthreshold = -0.5\nmin = -1\n',
    ],
)
def test_toml_only_spellings_inside_strings_and_comments_are_text(text):
    try:
        policy = policy_from_bytes(text.encode(), toml=True)
    except PolicyError as exc:
        # A multi-line version passes the literal check and tomllib, and is
        # then refused for its newline by Policy itself.
        assert exc.code == "bad-version" and "\\n" in exc.message
    else:
        assert policy.threshold in (0.5, -0.5)


def test_a_gate_file_refuses_toml_only_numbers_too(tmp_path):
    gates = tmp_path / "gates.toml"
    gates.write_bytes(b'version = "v"\n\n[gates.a]\ncommand = "check"\nevidence = "f.json"\nthreshold = 0x0\n')
    (tmp_path / "f.json").write_bytes(b'{"score": 0.1}')
    result = run_main("gate", "--", str(gates))
    assert result.returncode == 2, result.stdout
    assert b"bad-gate-file" in result.stderr and b"line 6: the number '0x0' is TOML-only syntax" in result.stderr


def test_many_dotted_keys_with_integers_are_walked_without_recursion():
    # The integer walk is iterative; every integer below gets its check.
    lines = b"".join(b"a." * 60 + b"k%d = %d\n" % (i, i) for i in range(300))
    data = b'version = "v"\nexact = false\nthreshold = 0.5\n' + lines
    with pytest.raises(PolicyError) as info:
        policy_from_bytes(data, toml=True)
    assert info.value.code == "unknown-policy-key"
    huge = data + b"a." * 60 + b"big = 1" + b"0" * 700 + b"\n"
    with pytest.raises(PolicyError) as info:
        policy_from_bytes(huge, toml=True)
    assert info.value.code == "bad-policy-file" and "too-many-digits" in info.value.message


@pytest.mark.parametrize(
    "line",
    ["threshold = 1e-400", "threshold = 0.5\nmax = 1e99999999999999999999", "threshold = 1e-5000"],
)
def test_the_command_line_exits_2(tmp_path, line):
    path = tmp_path / "policy.toml"
    path.write_bytes(f'version = "v"\nexact = false\n{line}\n'.encode())
    evidence = tmp_path / "e.json"
    evidence.write_bytes(b'{"score": 0}')
    result = run_main("check", "--policy", str(path), "--", str(evidence))
    assert result.returncode == 2, result.stderr
    assert b"bad-policy-file" in result.stdout + result.stderr


def test_a_long_dotted_key_is_refused_before_tomllib_parses_it():
    # tomllib is quadratic in the parts of one dotted key; 64 KiB of "a."
    # would take about a minute.
    data = b'version = "v"\nexact = false\nthreshold = 0.5\n' + b"a." * 30000 + b"z = 1\n"
    with pytest.raises(PolicyError) as info:
        policy_from_bytes(data, toml=True)
    assert info.value.code == "bad-policy-file"
    assert "line 4" in info.value.message and "dots" in info.value.message


def test_dots_in_comments_and_ordinary_values_are_fine():
    # docs/policies.md: "A TOML line with more than 64 dots is" refused.
    MAX_TOML_DOTS = 64
    data = (
        "# "
        + "." * 200
        + "\n"
        + "   #"
        + "." * 200
        + "\n"
        + 'version = "'
        + "1." * (MAX_TOML_DOTS // 2)
        + '"\nexact = false\nthreshold = 0.5\n'
    ).encode()
    assert policy_from_bytes(data, toml=True).threshold == 0.5
    over = b'version = "v"\nexact = false\nthreshold = 0.5\n' + b"a." * (MAX_TOML_DOTS + 1) + b"z = 1\n"
    with pytest.raises(PolicyError) as info:
        policy_from_bytes(over, toml=True)
    assert info.value.code == "bad-policy-file" and "dots" in info.value.message
    at = b'version = "v"\nexact = false\nthreshold = 0.5\n' + b"a." * MAX_TOML_DOTS + b"z = 1\n"
    with pytest.raises(PolicyError) as info:
        policy_from_bytes(at, toml=True)
    assert info.value.code == "unknown-policy-key"  # parsed, then refused as a key
