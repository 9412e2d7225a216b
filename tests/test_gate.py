# SPDX-License-Identifier: MIT
"""Gate files in the library: the document, the keys, reading once, one verdict.

White-box: the gate file's document model (``_gate.Gate``, the kinds of key,
``read_once``, ``combined``) is checked on the library with a key table of
its own, so each document rule is pinned apart from check's and report's
options.  tests/test_gate_cli.py drives ``scorecontract gate`` itself.
"""

from __future__ import annotations

import itertools
import json
import os
import sys

import pytest

from scorecontract import InvalidEvidence, PolicyError, Verdict
from scorecontract._gate import (
    FLAG,
    PATH,
    VALUE,
    VALUES,
    Gate,
    combined,
    gate_file_from_bytes,
    load_gate_file,
    read_once,
)
from support import ROOT

KEYS = {
    "check": {"threshold": VALUE, "exact": FLAG, "require": VALUES, "policy": PATH, "max-bytes": VALUE, "min": VALUE},
    "report": {"scheduled": VALUE, "baseline": PATH, "trial-id": VALUES},
}
TOML = sys.version_info >= (3, 11)


def parse(document, path="ci/gates.json", toml=False):
    data = document if isinstance(document, bytes) else json.dumps(document).encode()
    return gate_file_from_bytes(data, KEYS, path=path, toml=toml)


def one(gate, path="ci/gates.json"):
    return parse({"version": "v-1", "gates": {"g": gate}}, path).gates[0]


def refused(document, code="bad-gate-file", path="ci/gates.json", toml=False):
    with pytest.raises(PolicyError) as info:
        parse(document, path, toml)
    assert info.value.code == code, info.value
    return info.value.message


# -- the document ----------------------------------------------------------------


def test_a_gate_file_is_its_version_and_its_gates_in_order():
    gates = parse(
        {
            "version": "release-7",
            "gates": {
                "b": {"command": "report", "evidence": ["s1.jsonl", "s2.jsonl"], "scheduled": 3},
                "a": {"command": "check", "evidence": "r.json", "threshold": 0.6, "exact": True},
            },
        }
    )
    assert gates.version == "release-7" and gates.path == "ci/gates.json" and len(gates.sha256) == 64
    assert [gate.name for gate in gates.gates] == ["b", "a"]  # as written, not sorted
    assert gates.gates[0] == Gate("b", "report", ("ci/s1.jsonl", "ci/s2.jsonl"), (("scheduled", "3"),))
    assert gates.gates[1] == Gate("a", "check", ("ci/r.json",), (("threshold", "0.6"), ("exact", True)))


@pytest.mark.parametrize(
    "document, code, shown",
    [
        ({"gates": {}}, "bad-gate-file", "version must be a non-empty string"),
        ({"version": " ", "gates": {"g": {}}}, "bad-gate-file", "version must be"),
        ({"version": 7, "gates": {"g": {}}}, "bad-gate-file", "version must be"),
        ({"version": "v"}, "bad-gate-file", "has no gates table"),
        ({"version": "v", "gates": []}, "bad-gate-file", "gates must be a table"),
        ({"version": "v", "gates": {}}, "no-gates", "names no gate"),
        ({"version": "v", "gate": {}}, "unknown-gate-key", "did you mean 'gates'?"),
        ({"version": "v", "gates": {"g": 1}}, "bad-gate-file", "gate g must be a table"),
        ({"version": "v", "gates": {"g": {"evidence": "r"}}}, "bad-gate-file", "command must be one of"),
        (
            {"version": "v", "gates": {"g": {"command": "sign", "evidence": "r"}}},
            "bad-gate-file",
            "not a string ('sign')",
        ),
        ({"version": "v", "gates": {"g": {"command": "check"}}}, "bad-gate-file", "names no evidence"),
        ({"version": "v", "gates": {"g": {"command": "check", "evidence": []}}}, "bad-gate-file", "empty list"),
        ({"version": "v", "gates": {"g": {"command": "check", "evidence": 3}}}, "bad-gate-file", "a path"),
        ({"version": "v", "gates": {"g": {"command": "check", "evidence": ""}}}, "bad-gate-file", "a path"),
        ({"version": "v", "gates": {"g": {"command": "check", "evidence": ["a", "a"]}}}, "bad-gate-file", "twice"),
    ],
)
def test_a_malformed_document_is_configuration(document, code, shown):
    assert shown in refused(document, code)


@pytest.mark.parametrize("name", ["", "a b", "-a", ".a", "a/b", "a\nb", "é", "x" * 65, "a:b"])
def test_a_gate_name_is_plain(name):
    assert "is not 1 to 64 letters" in refused({"version": "v", "gates": {name: {"command": "check", "evidence": "r"}}})


@pytest.mark.parametrize("name", ["a", "A-1", "_x", "mmlu.5shot", "x" * 64])
def test_plain_gate_names_are_taken(name):
    assert parse({"version": "v", "gates": {name: {"command": "check", "evidence": "r"}}}).gates[0].name == name


def test_json_is_read_strictly():
    assert "duplicate" in refused(b'{"version": "v", "version": "w", "gates": {}}').lower()
    assert "must hold one object" in refused(b"[]")
    refused(b'{"version": "v", "gates": {"g": {"command": "check", "evidence": "r", "threshold": NaN}}}')


# -- keys and values -------------------------------------------------------------


def test_unknown_keys_get_a_did_you_mean_or_their_command():
    gate = {"command": "check", "evidence": "r.json"}
    assert "unknown key 'treshold'; did you mean 'threshold'?" in refused(
        {"version": "v", "gates": {"g": {**gate, "treshold": 0.5}}}, "unknown-gate-key"
    )
    assert "did you mean 'max-bytes'?" in refused(
        {"version": "v", "gates": {"g": {**gate, "max_bytes": 5}}}, "unknown-gate-key"
    )
    assert "'scheduled' is an option of report, not of check" in refused(
        {"version": "v", "gates": {"g": {**gate, "scheduled": 5}}}, "unknown-gate-key"
    )
    message = refused({"version": "v", "gates": {"g": {**gate, "zzzz": 5}}}, "unknown-gate-key")
    assert "a check gate takes command, evidence, exact, max-bytes, min, policy, require, threshold" in message


@pytest.mark.parametrize(
    ("old", "new", "command"),
    [
        ("max-line-bytes", "max-bytes", "check"),
        ("sample-metric", "metric", "report"),
        ("select-score", "select", "report"),
    ],
)
def test_an_old_key_is_refused_naming_its_new_one(old, new, command):
    keys = {"check": {**KEYS["check"], "metric": VALUE}, "report": {**KEYS["report"], "metric": VALUE, "select": VALUE}}
    renamed = {"max-line-bytes": "max-bytes", "sample-metric": "metric", "select-score": "select"}
    gate = {"command": command, "evidence": "r.json", old: "x"}
    data = json.dumps({"version": "v", "gates": {"g": gate}}).encode()
    with pytest.raises(PolicyError) as info:
        gate_file_from_bytes(data, keys, path="g.json", renamed=renamed)
    assert info.value.code == "unknown-gate-key"
    assert info.value.message == f"gate file 'g.json': gate g: unknown key {old!r}; it was renamed {new!r}"
    # Never an alias: the new key is read, and the old one only ever refused.
    gate = {"command": command, "evidence": "r.json", new: "x"}
    data = json.dumps({"version": "v", "gates": {"g": gate}}).encode()
    assert gate_file_from_bytes(data, keys, path="g.json", renamed=renamed).gates[0].get(new) == "x"


def test_an_old_key_whose_new_one_the_command_lacks_is_an_ordinary_unknown_key():
    # The new name is suggested only where it is a key of that gate's command.
    gate = {"command": "report", "evidence": "r.json", "max-line-bytes": "1M"}
    data = json.dumps({"version": "v", "gates": {"g": gate}}).encode()
    with pytest.raises(PolicyError) as info:
        gate_file_from_bytes(data, KEYS, path="g.json", renamed={"max-line-bytes": "max-bytes"})
    assert "renamed" not in info.value.message and "'max-bytes' is an option of check" not in info.value.message


@pytest.mark.parametrize(
    "key, value, taken",
    [
        ("threshold", 0.80, "0.8"),  # JSON has no 0.80 once dumped; below keeps the text
        ("threshold", "0.80", "0.80"),
        ("threshold", 1, "1"),
        ("min", -1, "-1"),
        ("max-bytes", "64M", "64M"),
        ("exact", True, True),
        ("require", "$.a", ("$.a",)),
        ("require", ["$.a", "$.b == 1"], ("$.a", "$.b == 1")),
        ("policy", "policy.json", "ci/policy.json"),
        ("policy", "../p.json", "ci/../p.json"),
    ],
)
def test_values_become_what_the_command_line_takes(key, value, taken):
    assert one({"command": "check", "evidence": "r", key: value}).get(key) == taken


def test_a_number_keeps_its_exact_text():
    data = b'{"version": "v", "gates": {"g": {"command": "check", "evidence": "r", "threshold": 0.80, "min": 1e-7}}}'
    gate = parse(data).gates[0]
    assert gate.get("threshold") == "0.80" and gate.get("min") == "1E-7"


def test_a_false_flag_is_not_given():
    assert one({"command": "check", "evidence": "r", "exact": False}).options == ()


@pytest.mark.parametrize(
    "key, value, shown",
    [
        ("exact", "yes", "is a flag"),
        ("exact", 1, "is a flag"),
        ("threshold", True, "takes a string or a number, not a boolean"),
        ("threshold", None, "not null"),
        ("threshold", [0.5], "takes one value, not a list"),
        ("threshold", {"v": 1}, "takes a string or a number"),
        ("require", [], "an empty list"),
        ("require", [1, True], "takes a string or a number, not a boolean"),
        ("policy", "/etc/policy.json", "is an absolute path"),
        ("policy", 5, "a path"),
    ],
)
def test_values_that_no_option_takes_are_refused(key, value, shown):
    assert shown in refused({"version": "v", "gates": {"g": {"command": "check", "evidence": "r", key: value}}})


def test_paths_are_relative_to_the_gate_files_folder():
    assert one({"command": "check", "evidence": "r.json"}, "gates.json").evidence == ("r.json",)
    assert one({"command": "check", "evidence": "r.json"}, "a/b/gates.json").evidence == (
        os.path.join("a/b", "r.json"),
    )
    assert one({"command": "check", "evidence": "r.json"}, "-").evidence == ("r.json",)
    assert "absolute path" in refused({"version": "v", "gates": {"g": {"command": "check", "evidence": "/r.json"}}})
    # - would be standard input to the command; a gate names files.
    assert "standard input" in refused(
        {"version": "v", "gates": {"g": {"command": "check", "evidence": "-"}}}, path="-"
    )
    assert one({"command": "check", "evidence": "./-"}, "-").evidence == ("./-",)


# -- TOML and pyproject.toml -----------------------------------------------------

TOML_FILE = b"""\
version = "release-7"

[gates.mmlu]
command = "check"
evidence = "r.json"
threshold = 0.60
require = ["$.a"]
exact = true
"""


@pytest.mark.skipif(not TOML, reason="tomllib is Python 3.11+")
def test_toml_reads_as_json_does():
    gate = parse(TOML_FILE, "g.toml", toml=True).gates[0]
    assert gate == Gate("mmlu", "check", ("r.json",), (("threshold", "0.60"), ("require", ("$.a",)), ("exact", True)))


@pytest.mark.skipif(not TOML, reason="tomllib is Python 3.11+")
@pytest.mark.parametrize("value", ["inf", "-inf", "nan", "+nan"])
def test_toml_numbers_meet_the_numeric_contract(value):
    data = TOML_FILE.replace(b"0.60", value.encode())
    # TOML's own spellings are refused as syntax, before any value exists.
    assert "TOML-only syntax" in refused(data, toml=True)


@pytest.mark.skipif(not TOML, reason="tomllib is Python 3.11+")
def test_toml_numbers_keep_their_text_for_the_command_to_read():
    # 1e-400 is then refused by the command as underflow, as --threshold 1e-400 is.
    for literal, text in (("1e-400", "1E-400"), ("-0.5", "-0.5"), ("1000", "1000")):
        gate = parse(TOML_FILE.replace(b"0.60", literal.encode()), toml=True).gates[0]
        assert gate.get("threshold") == text, literal
    # docs/gates.md: TOML numbers follow JSON's number rules.
    for literal in ("1_000", "+0.5", "0x10", "0o7", "0b1"):
        assert f"the number {literal!r} is TOML-only syntax" in refused(
            TOML_FILE.replace(b"0.60", literal.encode()), toml=True
        )


@pytest.mark.skipif(TOML, reason="only Python 3.9 and 3.10 lack tomllib")
def test_toml_without_tomllib_says_to_use_json():
    assert "needs Python 3.11 or newer (tomllib); use JSON" in refused(TOML_FILE, toml=True)


def test_pyproject_toml_is_not_read(tmp_path):
    (tmp_path / "pyproject.toml").write_bytes(b'[tool.scorecontract]\nversion = "v"\n')
    with pytest.raises(PolicyError) as info:
        load_gate_file(str(tmp_path / "pyproject.toml"), KEYS)
    assert info.value.code == "bad-gate-file" and "does not read pyproject.toml" in info.value.message
    assert "does not read pyproject.toml" in refused({"version": "v", "tool": {}})


def test_the_docs_toml_example_is_the_json_example():
    # docs/gates.md shows examples/release-gates.json in TOML: the same document.
    if not TOML:
        pytest.skip("tomllib is Python 3.11+")
    import tomllib

    text = (ROOT / "docs" / "gates.md").read_text(encoding="utf-8")
    block = text.split("```toml\n", 1)[1].split("```", 1)[0]
    shown = json.loads((ROOT / "examples" / "release-gates.json").read_text(encoding="utf-8"))
    assert tomllib.loads(block) == shown


def test_an_unreadable_gate_file_is_configuration(tmp_path):
    for path, shown in ((tmp_path / "absent.json", "no gate file"), (tmp_path, "is a directory")):
        with pytest.raises(PolicyError) as info:
            load_gate_file(str(path), KEYS)
        assert info.value.code == "gate-file-unreadable" and shown in info.value.message
    big = tmp_path / "big.json"
    big.write_bytes(b" " * (256 * 1024 + 1))
    with pytest.raises(PolicyError, match="over the limit") as info:
        load_gate_file(str(big), KEYS)
    assert info.value.code == "gate-file-unreadable"


# -- reading once ----------------------------------------------------------------


def test_every_file_is_read_once_whatever_its_spelling(tmp_path, monkeypatch):
    import scorecontract._read as reader

    (tmp_path / "a.json").write_bytes(b'{"score": 0.9}')
    calls = []
    real = reader.read_file

    def counting(path, limit, **kwargs):
        calls.append((path, limit))
        return real(path, limit, **kwargs)

    monkeypatch.setattr(reader, "read_file", counting)
    a, dotted, missing = str(tmp_path / "a.json"), str(tmp_path / "." / "a.json"), str(tmp_path / "no.json")
    read = read_once([(a, 10), (dotted, 100), (missing, 5), (a, 50)])
    assert calls == [(a, 100), (missing, 5)]  # once each, within the largest limit
    assert read[a] is read[dotted] and read[a] == b'{"score": 0.9}'
    assert isinstance(read[missing], InvalidEvidence) and read[missing].code == "file-not-found"


def test_a_file_over_the_limit_is_too_large_for_everyone(tmp_path):
    (tmp_path / "a.json").write_bytes(b'{"score": 0.9}')
    read = read_once([(str(tmp_path / "a.json"), 4)])
    assert read[str(tmp_path / "a.json")].code == "too-large"


def test_an_unusable_name_is_a_refusal_not_a_crash():
    read = read_once([("a\x00b", 10), ("\udcff\ud800", 10)])
    assert all(isinstance(result, InvalidEvidence) for result in read.values())


# -- one verdict -----------------------------------------------------------------


def _oracle(verdicts):
    for worst in (Verdict.INVALID, Verdict.FAIL, Verdict.REVIEW):
        if worst in verdicts:
            return worst
    return Verdict.PASS


@pytest.mark.parametrize("size", [1, 2, 3])
def test_the_verdict_is_the_worst_gates(size):
    tried = 0
    for verdicts in itertools.product(list(Verdict), repeat=size):
        outcomes = [(f"g{i}", verdict, f"code-{i}") for i, verdict in enumerate(verdicts)]
        verdict, code, message = combined(outcomes)
        assert verdict is _oracle(verdicts)
        first = next(i for i, each in enumerate(verdicts) if each is verdict)
        assert code == f"code-{first}"
        if verdict is not Verdict.PASS:
            assert message.startswith(f"gate g{first} is {verdict.value}; of {size} gate")
        tried += 1
    assert tried == 4**size


def test_the_message_counts_every_verdict():
    outcomes = [("a", Verdict.PASS, "meets-threshold"), ("b", Verdict.FAIL, "below-threshold")]
    outcomes.append(("c", Verdict.FAIL, "below-threshold"))
    assert combined(outcomes) == (Verdict.FAIL, "below-threshold", "gate b is FAIL; of 3 gates: 1 PASS, 2 FAIL")
    assert combined([("a", Verdict.PASS, "meets-threshold")]) == (
        Verdict.PASS,
        "meets-threshold",
        "the 1 gate PASS",
    )


def test_nothing_gated_is_never_a_pass():
    with pytest.raises(ValueError):
        combined([])


def test_an_unknown_verdict_counts_as_invalid():
    verdict, _, _ = combined([("a", Verdict.PASS, "x"), ("b", "PASS", "y")])  # type: ignore[list-item]
    assert verdict is Verdict.INVALID
