# SPDX-License-Identifier: MIT
"""What tests need to know about scorecontract, taken from its documentation.

A test that reaches behaviour through the public API still has to name an
exit status or a reason code.  These come from the documents a user reads,
so a test that uses them checks the documentation too; tests/test_reasons.py
pins the reason-code table to the package's own registry.
"""

from __future__ import annotations

import re
from pathlib import Path

from support import ROOT

# docs/cli.md, "Exit status": sysexits.h's EX_SOFTWARE and EX_IOERR.
EXIT_INTERNAL_ERROR = 70
EXIT_IOERR = 74

# docs/contract.md, rule 3: "A number literal over 640 characters is
# refused"; "Nesting deeper than 128 arrays or objects".  Tests on both
# sides of each limit pin the documented figure.
MAX_NUMBER_LENGTH = 640
MAX_DEPTH = 128


def reason_codes() -> list[str]:
    """Return the reason codes docs/reason-codes.md documents, in its order."""
    text = (ROOT / "docs" / "reason-codes.md").read_text(encoding="utf-8")
    section = text.split("<!-- reason-codes:", 1)[1].split("\n## ", 1)[0]
    codes = re.findall(r"^\| `([a-z0-9-]+)` \|", section, re.MULTILINE)
    if not codes:
        raise AssertionError("docs/reason-codes.md has no reason-code table")
    return codes


def commands() -> list[str]:
    """Return the sub-commands ``scorecontract --help`` lists, sorted."""
    from support import run_main

    text = run_main("--help").stdout.decode()
    section = text.split("\n  COMMAND\n", 1)[1].split("\n\n", 1)[0]
    found = sorted(re.findall(r"^    ([a-z][a-z-]*)  ", section, re.MULTILINE))
    if not found:
        raise AssertionError("scorecontract --help lists no sub-commands")
    return found


def long_options(*command: str) -> list[str]:
    """Return the ``--`` options ``scorecontract [COMMAND] --help`` lists, sorted.

    Only the option column is read ("  -h, --help", "  --threshold T"),
    not options named in the prose.
    """
    from support import run_main

    result = run_main(*command, "--help")
    if result.returncode != 0:
        raise AssertionError(f"{command} --help exited {result.returncode}")
    found = set()
    for line in result.stdout.decode().splitlines():
        match = re.match(r"^  (-[^ ].*?)(?:  |$)", line)
        if match:
            for spelling in match.group(1).split(", "):
                if spelling.startswith("--"):
                    found.add(spelling.split()[0].split("=")[0])
    if not found:
        raise AssertionError(f"{command} --help lists no options")
    return sorted(found)


def inject_defect(monkeypatch) -> None:
    """Make a defect below the command line: reading evidence raises RuntimeError.

    ``os.fstat`` of any descriptor but the standard three (which the
    command line checks at start) raises what no code path expects, so the
    call that reads the evidence fails as a bug in the library would.
    """
    import os

    fstat = os.fstat

    def broken(descriptor: int) -> os.stat_result:
        if descriptor > 2:
            raise RuntimeError("simulated defect")
        return fstat(descriptor)

    monkeypatch.setattr(os, "fstat", broken)


class ReportRun:
    """What one ``scorecontract report`` printed and wrote."""

    def __init__(self, status: int, out: str, err: str, junit: bytes | None, receipt: bytes | None) -> None:
        self.status, self.out, self.err, self.junit, self.receipt_bytes = status, out, err, junit, receipt

    @property
    def receipt(self) -> dict[str, object]:
        """The receipt, read as a user reads it: ``scorecontract.loads``."""
        from scorecontract import loads

        if self.receipt_bytes is None:
            raise AssertionError("no --receipt was asked for")
        document = loads(self.receipt_bytes)
        if type(document) is not dict:
            raise AssertionError("the receipt is not an object")
        return document


def report_cli(
    directory: Path,
    data: bytes,
    *options: str,
    form: str = "text",
    name: str = "trials.jsonl",
    manifest: list[str] | None = None,
    policy: dict[str, object] | None = None,
    baseline: bytes | None = None,
    junit: bool = False,
    receipt: bool = False,
) -> ReportRun:
    """Run ``scorecontract report`` in *directory* on *data*, saved as *name*.

    *manifest*, *policy* (a policy file's document) and *baseline* are
    written beside it and given as ``--manifest``, ``--policy`` and
    ``--baseline``; *junit* and *receipt* ask for ``--junit-xml`` and
    ``--receipt``.  The trials file is named by its relative *name*, as a
    user in that directory would type it, so the output shows *name*; a
    *name* of ``-`` gives *data* on standard input instead (no file named).
    """
    import json

    from support import run_main

    directory = Path(directory)
    if name != "-":
        (directory / name).parent.mkdir(parents=True, exist_ok=True)
        (directory / name).write_bytes(data)
    argv = ["report", *options, "--format", form]
    if manifest is not None:
        (directory / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
        argv += ["--manifest", "manifest.json"]
    if policy is not None:
        (directory / "policy.json").write_text(json.dumps(policy), encoding="utf-8")
        argv += ["--policy", "policy.json"]
    if baseline is not None:
        (directory / "baseline.jsonl").write_bytes(baseline)
        argv += ["--baseline", "baseline.jsonl"]
    outputs = {"junit": directory / "junit.xml", "receipt": directory / "receipt.json"}
    for path in outputs.values():
        if path.exists():
            path.unlink()
    if junit:
        argv += ["--junit-xml", "junit.xml"]
    if receipt:
        argv += ["--receipt", "receipt.json"]
    if name == "-":
        result = run_main(*argv, "-", stdin=data, cwd=directory)
    else:
        result = run_main(*argv, "--", name, cwd=directory)
    return ReportRun(
        result.returncode,
        result.stdout.decode("utf-8"),
        result.stderr.decode("utf-8"),
        outputs["junit"].read_bytes() if junit and outputs["junit"].exists() else None,
        outputs["receipt"].read_bytes() if receipt and outputs["receipt"].exists() else None,
    )


def value_options(command: str) -> list[tuple[str, list[str] | None]]:
    """Return *command*'s options that take one value, as its --help shows them.

    Each is ``(option, choices)``: the choices a ``{a,b}`` metavar lists,
    else None.  A flag (no metavar), a list (``QUERY[,QUERY...]``) and an
    option whose help says "(repeatable)" are left out.
    """
    from support import run_main

    lines = run_main(command, "--help").stdout.decode().splitlines()
    found = []
    for number, line in enumerate(lines):
        match = re.match(r"^  (--[a-z][a-z-]*)(?: (\S+))?(?:  +(.*))?$", line)
        if match is None:
            continue
        option, metavar, first = match.groups()
        described = [first or ""]
        for more in lines[number + 1 :]:
            if not re.match(r"^ {20,}\S", more):
                break
            described.append(more.strip())
        if metavar is None or "..." in metavar or "(repeatable)" in " ".join(described):
            continue
        choices = metavar[1:-1].split(",") if metavar.startswith("{") else None
        found.append((option, choices))
    if not found:
        raise AssertionError(f"{command} --help shows no option that takes a value")
    return found


def harnesses() -> list[str]:
    """Return the harnesses ``--from`` takes, in the order the command line lists them."""
    return choices("check", "--from")


def choices(command: str, option: str) -> list[str]:
    """Return the values *option* of *command* takes, as its usage error lists them."""
    from support import run_main

    result = run_main(command, option, "?", "x.json")
    match = re.search(r"invalid choice: '\?' \(choose from (.*)\)", result.stderr.decode())
    found = re.findall(r"'([a-z-]+)'", match.group(1)) if match else []
    if result.returncode != 2 or not found:
        raise AssertionError(f"{command} {option} ? lists no choices: {result.stderr!r}")
    return found
