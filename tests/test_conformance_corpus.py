# SPDX-License-Identifier: MIT
"""Replay the conformance corpus: files the harness releases wrote themselves.

Each tests/data/conformance/<harness>/manifest.json lists the files a
generator under tools/conformance/ made a harness release write offline,
each with its ground truth and the gates it must get.  Every gate is asked
twice, through the command line (in-process, ``support.run_main``) and through the API, and must
give the verdict the evidence supports, its exit status and its reason code.
A gate today's code gets wrong carries ``xfail`` (what it does instead): it
is a strict xfail, so it turns red once fixed, and the marker must go.  The
format is defined in tests/data/conformance/README.md.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

import pytest

from scorecontract import Policy, PolicyError, Source, evaluate, report
from support import ROOT, CorpusMissing, run_main

CORPUS = ROOT / "tests" / "data" / "conformance"
EXIT = {"PASS": 0, "FAIL": 1, "INVALID": 3, "REVIEW": 4}
MANIFEST_KEYS = {"harness", "release", "python", "generator", "entries"}
ENTRY_KEYS = {"file", "truth", "sha256", "gates"}
GATE_KEYS = {"argv", "api", "verdict", "code", "why"}
GATE_OPTIONAL = {"xfail"}
API_KEYS = {"call", "source", "threshold", "policy", "scheduled"}
POLICY_KEYS = {"threshold", "minimum", "maximum", "direction"}
# Every machine path a harness output could carry (HELPERS.md).
# Spelled out piecewise so that this file names no such path itself.
FORBIDDEN = tuple(f"/{top}/".encode() for top in ("work", "tmp", "root", "home"))
NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?")
FIRST_LINE = re.compile(rb"^(PASS|FAIL|INVALID|REVIEW) ([a-z0-9-]+):")


class ManifestError(Exception):
    """A manifest that does not follow tests/data/conformance/README.md."""


def _exactly(what: str, mapping: object, required: set[str], optional: set[str] = frozenset()) -> dict[str, Any]:
    if not isinstance(mapping, dict):
        raise ManifestError(f"{what} is not an object")
    missing = required - set(mapping)
    unknown = set(mapping) - required - optional
    if missing or unknown:
        raise ManifestError(f"{what}: missing {sorted(missing)}, unknown {sorted(unknown)}")
    return mapping


def load_manifests() -> list[tuple[Path, dict[str, Any]]]:
    """Every manifest, checked against the format; raise CorpusMissing on no data."""
    paths = sorted(CORPUS.glob("*/manifest.json"))
    if not paths:
        raise CorpusMissing(f"no {CORPUS.relative_to(ROOT)}/*/manifest.json")
    manifests = []
    for path in paths:
        manifest = _exactly(str(path), json.loads(path.read_text(encoding="utf-8")), MANIFEST_KEYS)
        if manifest["harness"] != path.parent.name:
            raise ManifestError(f"{path}: harness {manifest['harness']!r} in the folder {path.parent.name!r}")
        if not manifest["entries"]:
            raise CorpusMissing(f"{path} lists no entries")
        for entry in manifest["entries"]:
            _exactly(f"{path}: entry", entry, ENTRY_KEYS)
            if not entry["gates"]:
                raise CorpusMissing(f"{path}: {entry['file']} has no gates")
            for gate in entry["gates"]:
                _exactly(f"{path}: {entry['file']}: gate", gate, GATE_KEYS, GATE_OPTIONAL)
                if gate["verdict"] not in EXIT:
                    raise ManifestError(f"{path}: {entry['file']}: verdict {gate['verdict']!r}")
        manifests.append((path, manifest))
    return manifests


MANIFESTS = load_manifests()


def _gates() -> list[Any]:
    params = []
    for path, manifest in MANIFESTS:
        for entry in manifest["entries"]:
            for index, gate in enumerate(entry["gates"]):
                marks = ()
                if "xfail" in gate:
                    marks = (pytest.mark.xfail(strict=True, reason=gate["xfail"]),)
                ident = f"{manifest['harness']}/{entry['file']}/{index}-{gate['argv'][0]}"
                params.append(pytest.param(path.parent, entry["file"], gate, id=ident, marks=marks))
    return params


GATES = _gates()


def _number(text: object, what: str) -> int | float:
    # Numbers are decimal text, read as the command line reads --threshold
    # without --exact: a JSON number, so both replays compare the same double
    # (a Decimal threshold needs an exact policy, which neither gate states).
    if type(text) is not str or not NUMBER.fullmatch(text):
        raise ManifestError(f"{what} must be the text of a JSON number, not {text!r}")
    value: int | float = json.loads(text)
    return value


def api_arguments(api: object) -> tuple[str, dict[str, Any]]:
    """The call and keyword arguments an ``api`` object names; unknown keys are an error."""
    api = _exactly("api", api, {"call", "source"}, API_KEYS - {"call", "source"})
    if api["call"] not in ("evaluate", "report"):
        raise ManifestError(f"api call {api['call']!r}")
    if ("threshold" in api) == ("policy" in api):
        raise ManifestError("api needs exactly one of threshold and policy")
    options = dict(_exactly("api source", api["source"], {"harness"}, set(api["source"]) - {"harness"}))
    harness = options.pop("harness")
    if "labels" in options:
        options["labels"] = {letter: _number(score, f"label {letter}") for letter, score in options["labels"].items()}
    kwargs: dict[str, Any] = {"source": Source(harness, **options)}
    if "scheduled" in api:
        # report(scheduled=N), as --scheduled N: a whole number, given as text.
        if api["call"] != "report":
            raise ManifestError("api scheduled is for report calls only")
        scheduled = _number(api["scheduled"], "scheduled")
        if type(scheduled) is not int:
            raise ManifestError(f"api scheduled must be a whole number, not {api['scheduled']!r}")
        kwargs["scheduled"] = scheduled
    if "threshold" in api:
        kwargs["threshold"] = _number(api["threshold"], "threshold")
    else:
        policy = _exactly("api policy", api["policy"], {"threshold"}, POLICY_KEYS - {"threshold"})
        stated: dict[str, Any] = {}
        for key in ("minimum", "maximum"):
            if key in policy:
                stated[key] = None if policy[key] is None else _number(policy[key], key)
        if "direction" in policy:
            stated["direction"] = policy["direction"]
        kwargs["policy"] = Policy(_number(policy["threshold"], "threshold"), **stated)
    return api["call"], kwargs


@pytest.mark.parametrize(("folder", "name", "gate"), GATES)
def test_gate_through_the_cli(folder: Path, name: str, gate: dict[str, Any]) -> None:
    # Paths in argv (lm-eval's --results) are relative to the manifest.
    done = run_main(*gate["argv"], "--", name, cwd=folder)
    status, out, err = done.returncode, done.stdout, done.stderr
    assert b"Traceback" not in err
    found = FIRST_LINE.match(out)
    shown = (out.splitlines() or [b""])[0] + b" | " + err[-300:]
    assert found is not None, f"exit {status}: {shown!r}"
    assert (status, found.group(1).decode()) == (EXIT[gate["verdict"]], gate["verdict"]), shown
    if gate["code"] is not None:
        assert found.group(2).decode() == gate["code"], shown


@pytest.mark.parametrize(("folder", "name", "gate"), GATES)
def test_gate_through_the_api(folder: Path, name: str, gate: dict[str, Any], monkeypatch: Any) -> None:
    monkeypatch.chdir(folder)
    call, kwargs = api_arguments(gate["api"])
    try:
        if call == "evaluate":
            result: Any = evaluate((folder / name).read_bytes(), **kwargs)
        else:
            result = report(name, **kwargs)
    except PolicyError as exc:
        pytest.fail(f"PolicyError {exc.code}: {exc}")
    assert result.verdict.value == gate["verdict"], f"{result.verdict.value} {result.code}: {result.message}"
    if gate["code"] is not None:
        assert result.code == gate["code"], f"{result.verdict.value} {result.code}: {result.message}"


def test_unknown_api_keys_are_an_error() -> None:
    good = {"call": "evaluate", "source": {"harness": "inspect", "scorer": "s", "metric": "m"}, "threshold": "0.5"}
    assert api_arguments(good)[0] == "evaluate"
    for bad in (
        {**good, "max_bytes": 10},
        {**good, "policy": {"threshold": "0.5"}},
        {key: value for key, value in good.items() if key != "threshold"},
        {**good, "threshold": 0.5},
        {**good, "call": "check"},
        {key: value for key, value in good.items() if key != "threshold"}
        | {"policy": {"threshold": "0.5", "min": "0"}},
    ):
        with pytest.raises(ManifestError):
            api_arguments(bad)


@pytest.mark.parametrize(("path", "manifest"), MANIFESTS, ids=[m["harness"] for _, m in MANIFESTS])
def test_files_are_those_the_manifest_hashed(path: Path, manifest: dict[str, Any]) -> None:
    for entry in manifest["entries"]:
        data = (path.parent / entry["file"]).read_bytes()
        assert hashlib.sha256(data).hexdigest() == entry["sha256"], entry["file"]
    assert (ROOT / manifest["generator"]).is_file()


def test_every_file_is_in_a_manifest() -> None:
    listed = {(path.parent / entry["file"]).resolve() for path, manifest in MANIFESTS for entry in manifest["entries"]}
    unlisted = [
        path.relative_to(CORPUS).as_posix()
        for path in sorted(CORPUS.rglob("*"))
        if path.is_file() and path.name not in ("manifest.json", "README.md") and path.resolve() not in listed
    ]
    assert unlisted == []
    assert (CORPUS / "README.md").is_file()


def _members(data: bytes) -> list[tuple[str, int, bytes]]:
    """Every local entry of a ZIP, listed in its central directory or not: (name, method, raw bytes)."""
    import struct

    members = []
    offset = data.find(b"PK\x03\x04")
    while offset != -1:
        _, _, _, method, _, _, _, size, _, name_len, extra_len = struct.unpack_from("<IHHHHHIIIHH", data, offset)
        start = offset + 30 + name_len + extra_len
        members.append((data[offset + 30 : offset + 30 + name_len].decode("utf-8"), method, data[start : start + size]))
        offset = data.find(b"PK\x03\x04", start + size)
    return members


def _zstd() -> Any:
    try:
        import zstandard  # dev-only (the dev venv has it); never a dependency
    except ImportError:
        return None
    return lambda raw: zstandard.ZstdDecompressor().decompressobj().decompress(raw)


def test_no_machine_path_in_any_file_or_member() -> None:
    import zlib

    inflate = _zstd()
    files = [path for path in sorted(CORPUS.rglob("*")) if path.is_file()]
    zstd_members = 0
    assert files
    for path in files:
        data = path.read_bytes()
        assert [bad for bad in FORBIDDEN if bad in data] == [], path
        if not data.startswith(b"PK\x03\x04"):
            continue
        for name, method, raw in _members(data):
            if method == 93 and inflate is None:
                zstd_members += 1
                continue
            body = {0: lambda r: r, 8: lambda r: zlib.decompress(r, -15), 93: inflate}[method](raw)
            assert [bad for bad in FORBIDDEN if bad in body] == [], f"{path}!{name}"
    if zstd_members:
        pytest.skip(f"{zstd_members} Zstandard members not scanned: no zstandard here (the generator scanned them)")
