# SPDX-License-Identifier: MIT
"""What every conformance generator shares: gates, the manifest, the path scan.

Dev-only, imported by tools/conformance/<harness>/generate.py inside that
harness's own venv; it needs nothing beyond the standard library, except
``zstandard`` to look inside the Zstandard members of an Inspect ``.eval``
(the inspect-ai venv has it, as a dependency of inspect-ai).

The manifest format is documented in tests/data/conformance/README.md, and
tests/test_conformance_corpus.py enforces it: a change here must keep both.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import struct
import sys
import zlib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent.parent
CORPUS = ROOT / "tests" / "data" / "conformance"
# No machine's absolute path may be committed (HELPERS.md; the test scans too).
# Spelled out piecewise so that this file names no such path itself.
FORBIDDEN = tuple(f"/{top}/" for top in ("work", "tmp", "root", "home"))
EXIT = {"PASS": 0, "FAIL": 1, "INVALID": 3, "REVIEW": 4}


def check_versions(pins: dict[str, str]) -> None:
    """Refuse to run unless each distribution is installed at its pinned version."""
    from importlib.metadata import PackageNotFoundError, version

    wrong = []
    for name, want in pins.items():
        try:
            have = version(name)
        except PackageNotFoundError:
            have = "not installed"
        if have != want:
            wrong.append(f"{name} {have} (pinned {want})")
    if wrong:
        raise SystemExit("refusing to generate: " + "; ".join(wrong) + "; see tools/conformance/README.md")
    if sys.version_info[:2] != (3, 11):
        raise SystemExit(f"refusing to generate: Python {sys.version.split()[0]}, the corpus is written with 3.11")


def fresh_workdir(harness: str) -> Path:
    """Return the empty relative folder ``.conformance-tmp/<harness>`` (from the repo root)."""
    if Path.cwd().resolve() != ROOT:
        raise SystemExit(f"run from the repository root: python tools/conformance/{harness}/generate.py")
    work = Path(".conformance-tmp") / harness
    if work.exists():
        shutil.rmtree(work)
    work.mkdir(parents=True)
    return work


def gate(
    command: str,
    harness: str,
    options: list[str],
    source: dict[str, Any],
    threshold: str,
    verdict: str,
    code: str | None,
    why: str,
    xfail: str | None = None,
    policy: dict[str, Any] | None = None,
    api_policy: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """One gate: the same decision asked through the CLI and through the API.

    *options* are the adapter's flags (``--scorer match``); *source* the
    same options as ``Source`` keywords.  *threshold* is decimal text; with
    *policy* (``{"threshold": "20", "maximum": None, "direction": "lower"}``)
    the CLI gets ``--threshold --min --max --direction`` and the API a
    ``Policy``.  *api_policy* gives the API a ``Policy`` where the CLI has
    only ``--threshold``: ``report`` has no ``--direction`` and takes
    lm-eval's ``higher_is_better``, which the API must state.
    """
    if verdict not in EXIT:
        raise ValueError(f"verdict {verdict!r}")
    if policy is not None and command != "check":
        raise ValueError("report takes --threshold only (no --min, --max, --direction)")
    argv = [command, "--from", harness, *options]
    api: dict[str, Any] = {
        "call": "evaluate" if command == "check" else "report",
        "source": {"harness": harness, **source},
    }
    if policy is None:
        argv += ["--threshold", threshold]
        api["threshold"] = threshold
    else:
        argv += ["--threshold", policy["threshold"]]
        flags = {"minimum": "--min", "maximum": "--max", "direction": "--direction"}
        for key, value in policy.items():
            if key != "threshold":
                argv += [flags[key], "none" if value is None else value]
        api["policy"] = policy
    if api_policy is not None:
        del api["threshold"]
        api["policy"] = {"threshold": threshold, **api_policy}
    entry: dict[str, Any] = {"argv": argv, "api": api, "verdict": verdict, "code": code, "why": why}
    if xfail is not None:
        entry["xfail"] = xfail
    return entry


def zip_members(data: bytes) -> list[tuple[str, bytes]]:
    """Every local entry of a ZIP, listed in its central directory or not, decompressed.

    Walks the local file headers themselves, so the superseded
    ``header.json`` an Inspect header-only edit leaves outside the central
    directory is scanned too.  Methods 0 (stored), 8 (DEFLATE), 93 (Zstandard).
    """
    members = []
    offset = data.find(b"PK\x03\x04")
    while offset != -1:
        (_, _, flags, method, _, _, _, size, _, name_len, extra_len) = struct.unpack_from("<IHHHHHIIIHH", data, offset)
        name = data[offset + 30 : offset + 30 + name_len].decode("utf-8")
        start = offset + 30 + name_len + extra_len
        if size == 0xFFFFFFFF or flags & 0x08:
            raise SystemExit(f"{name}: ZIP64 or data-descriptor entry; extend zip_members")
        raw = data[start : start + size]
        if method == 0:
            body = raw
        elif method == 8:
            body = zlib.decompress(raw, -15)
        elif method == 93:
            import zstandard

            body = zstandard.ZstdDecompressor().decompressobj().decompress(raw)
        else:
            raise SystemExit(f"{name}: ZIP method {method}")
        members.append((name, body))
        offset = data.find(b"PK\x03\x04", start + size)
    return members


def scan(path: Path) -> list[str]:
    """Where *path* (and, for a ZIP, each member) names a machine's absolute path."""
    data = path.read_bytes()
    found = [f"{path}: {bad}" for bad in FORBIDDEN if bad.encode() in data]
    if data.startswith(b"PK\x03\x04"):
        for name, body in zip_members(data):
            found += [f"{path}!{name}: {bad}" for bad in FORBIDDEN if bad.encode() in body]
    return found


def machine_paths() -> list[str]:
    """The absolute prefixes this machine writes into outputs, longest first."""
    prefixes = {str(ROOT), str(Path.cwd().resolve()), sys.prefix, sys.base_prefix, os.path.expanduser("~")}
    for name in ("TMPDIR",):
        if os.environ.get(name):
            prefixes.add(os.environ[name])
    return sorted((p.rstrip("/") for p in prefixes if p and p != "/"), key=len, reverse=True)


def scrub_text(text: str) -> str:
    """Replace this machine's absolute paths in *text* by placeholders.

    The venv's prefix becomes ``<venv>``, the repository ``<repo>``; any
    other absolute path under one of the FORBIDDEN folders becomes ``<tmp>/...``.
    """
    for prefix in machine_paths():
        holder = "<venv>" if prefix in (sys.prefix, sys.base_prefix) else "<repo>"
        text = text.replace(prefix + "/", holder + "/").replace(prefix, holder)
    return re.sub(r"/(?:work|tmp|root|home)/", "<tmp>/", text)


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def write_manifest(harness: str, release: str, entries: list[dict[str, Any]]) -> None:
    """Write tests/data/conformance/<harness>/manifest.json, hashing each file."""
    folder = CORPUS / harness
    problems = []
    for entry in entries:
        path = folder / entry["file"]
        entry["sha256"] = sha256(path)
        problems += scan(path)
    listed = {entry["file"] for entry in entries}
    for path in sorted(folder.rglob("*")):
        if path.is_file() and path.name != "manifest.json" and path.relative_to(folder).as_posix() not in listed:
            problems.append(f"{path}: written but not in the manifest")
    if problems:
        raise SystemExit("refusing to write the manifest:\n  " + "\n  ".join(problems))
    ordered = [
        {key: entry[key] for key in ("file", "truth", "sha256", "gates")}
        for entry in sorted(entries, key=lambda e: e["file"])
    ]
    manifest = {
        "harness": harness,
        "release": release,
        "python": sys.version.split()[0],
        "generator": f"tools/conformance/{harness}/generate.py",
        "entries": ordered,
    }
    (folder / "manifest.json").write_text(json.dumps(manifest, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    total = sum((folder / e["file"]).stat().st_size for e in entries)
    print(f"{harness}: {len(entries)} files, {sum(len(e['gates']) for e in entries)} gates, {total} bytes")


def remove_workdir(work: Path) -> None:
    """Remove ``.conformance-tmp/<harness>``, and ``.conformance-tmp`` once empty."""
    shutil.rmtree(work)
    if not any(work.parent.iterdir()):
        work.parent.rmdir()


def clear_corpus(harness: str) -> Path:
    """Empty tests/data/conformance/<harness> and return it."""
    folder = CORPUS / harness
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    return folder
