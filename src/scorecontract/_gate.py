# SPDX-License-Identifier: MIT
"""Gate files: the gates of one release, read once, decided as one (docs/gates.md).

A gate file is JSON (any Python) or TOML (Python 3.11+, a name ending in
``.toml``), read by the policy files' own reader, so its numbers meet the
same numeric contract.  It holds one object::

    {"version": "release-7",
     "gates": {"mmlu": {"command": "check", "evidence": "results.json",
                        "from": "lm-eval", "task": "mmlu",
                        "metric": "acc,none", "threshold": 0.6}}}

``version`` names the gate set, as a policy's version names a policy, and
``gates`` maps each gate's name to its command (``check`` or
``report``), its evidence (a path, or a list of paths, relative to the
gate file's folder) and that command's options, spelled as their long
names without the dashes.  Which keys exist is not written here: the
caller passes each command's keys, read from the command's own option
definitions, so a gate key and a command-line option cannot drift apart.

Everything wrong with the file is configuration (``PolicyError``): the
command line exits 2 before any evidence is read.  ``read_once`` reads
each evidence file once, whatever number of gates name it, so every gate
that names a file decides on the same bytes; ``combined`` makes one
verdict of the gates' verdicts.
"""

from __future__ import annotations

import os

from ._errors import InvalidEvidence, PolicyError
from ._value import Value
from ._verdict import Verdict

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping, Sequence

__all__ = [
    "FLAG",
    "GATE_COMMANDS",
    "MAX_GATE_FILE_BYTES",
    "PATH",
    "VALUE",
    "VALUES",
    "Gate",
    "GateFile",
    "combined",
    "gate_file_from_bytes",
    "load_gate_file",
    "read_once",
]

# The commands a gate may run.
GATE_COMMANDS = ("check", "report")

# A gate file is a page of configuration; anything bigger is not one.
MAX_GATE_FILE_BYTES = 256 * 1024

# What a key takes, as the caller reads it off the command's option:
# FLAG true (or false: not given), VALUE one string or number, VALUES one
# or a list of them (a repeatable option), PATH one path, relative to the
# gate file's folder like the evidence.
FLAG, VALUE, VALUES, PATH = "flag", "value", "values", "path"

# The keys of the document and of every gate, beside the command's own.
_DOCUMENT_KEYS = ("version", "gates")
_GATE_KEYS = ("command", "evidence")

# A gate's name appears in annotations, tables, JUnit test names and
# output names: letters, digits, and . _ - inside, at most 64 characters.
_NAME_CHARACTERS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")
_LONGEST_NAME = 64

# The order of severity: the combined verdict is the gates' worst.
_SEVERITY = (Verdict.INVALID, Verdict.FAIL, Verdict.REVIEW, Verdict.PASS)

_CODE = "bad-gate-file"


class Gate(Value):
    """One gate of a gate file, as typed values.

    - ``name``: its key in ``gates``;
    - ``command``: ``"check"`` or ``"report"``;
    - ``evidence``: the paths of its evidence, joined to the gate file's
      folder (``ci/gates.toml`` naming ``results.json`` gives
      ``ci/results.json``), in the order written;
    - ``options``: ``(key, value)`` pairs in the order written, each value
      as the command line would take it: ``True`` for a flag, a string, or
      a tuple of strings for a repeatable option; a number is its exact
      decimal text, a path is joined to the folder.
    """

    __slots__ = ("name", "command", "evidence", "options")
    _shown = ("name", "command", "evidence", "options")

    name: str
    command: str
    evidence: tuple[str, ...]
    options: tuple[tuple[str, object], ...]

    def __init__(
        self, name: str, command: str, evidence: tuple[str, ...], options: tuple[tuple[str, object], ...]
    ) -> None:
        self._fill(name=name, command=command, evidence=evidence, options=options)

    def get(self, key: str, default: object = None) -> object:
        """Return the option *key*, or *default* when the gate does not state it."""
        for name, value in self.options:
            if name == key:
                return value
        return default


class GateFile(Value):
    """A gate file: ``path`` as given, its ``version``, the ``sha256`` of its bytes, its ``gates``."""

    __slots__ = ("path", "version", "sha256", "gates")
    _shown = ("path", "version", "gates")

    path: str
    version: str
    sha256: str
    gates: tuple[Gate, ...]

    def __init__(self, path: str, version: str, sha256: str, gates: tuple[Gate, ...]) -> None:
        self._fill(path=path, version=version, sha256=sha256, gates=gates)


def load_gate_file(
    path: str, keys: Mapping[str, Mapping[str, str]], /, *, renamed: Mapping[str, str] | None = None
) -> GateFile:
    """Read the gate file *path* and return its ``GateFile``.

    *keys* maps each command (``check``, ``report``) to its keys and what
    each takes (``FLAG``, ``VALUE``, ``VALUES``, ``PATH``); *renamed* maps
    an old key to its new name (``sample-metric`` to ``metric``), refused
    with that name.  A name ending
    in ``.toml`` is TOML (Python 3.11+); any other is JSON.  Raises
    ``PolicyError``: ``gate-file-unreadable`` (missing, not a regular file,
    over 256 KiB), and as ``gate_file_from_bytes`` says.
    """
    from ._read import read_file

    try:
        data = read_file(path, MAX_GATE_FILE_BYTES, what="gate file")
    except InvalidEvidence as exc:
        # A gate file that cannot be read is configuration (exit 2), not evidence.
        raise PolicyError("gate-file-unreadable", exc.message) from None
    return gate_file_from_bytes(data, keys, path=path, toml=path.lower().endswith(".toml"), renamed=renamed)


def gate_file_from_bytes(
    data: bytes,
    keys: Mapping[str, Mapping[str, str]],
    /,
    *,
    path: str,
    toml: bool = False,
    renamed: Mapping[str, str] | None = None,
) -> GateFile:
    """Return the ``GateFile`` the bytes *data* hold; *path* names them (``-``: standard input).

    Relative paths in it are joined to *path*'s folder (the current
    directory for ``-``).  Raises ``PolicyError``: ``bad-gate-file`` for
    bytes that are not strict JSON or TOML holding one object, a missing or
    malformed ``version``, ``gates`` or gate; ``no-gates`` for an empty
    ``gates``; ``unknown-gate-key`` (with a did-you-mean) for a key the
    format or the gate's command does not define, naming the new key of
    an old one (``unknown key 'sample-metric'; it was renamed 'metric'``).
    """
    import hashlib

    from ._policy_file import decode_document

    source = ascii(path)
    where = f"gate file {source}"
    pyproject = PolicyError(
        _CODE,
        f"{where}: scorecontract does not read pyproject.toml ([tool.scorecontract]); "
        "put the gates in a file of their own and name it (docs/gates.md)",
    )
    if os.path.basename(path) == "pyproject.toml":
        raise pyproject  # before TOML is even parsed, so the reason is the same on 3.9
    # Exact: a number keeps its decimal text, which the command then reads
    # as it reads an option's text (a float unless the policy is exact).
    document = decode_document(
        data, toml=toml, exact=True, source=source, what="gate file", code=_CODE, max_bytes=MAX_GATE_FILE_BYTES
    )
    if "tool" in document:
        raise pyproject
    _refuse_unknown(document, _DOCUMENT_KEYS, where, "the document")
    version = document.get("version")
    if type(version) is not str or not version.strip():
        raise PolicyError(
            _CODE, f"{where}: version must be a non-empty string naming the gate set, not {_shown(version)}"
        )
    gates = document.get("gates")
    if gates is None:
        raise PolicyError(_CODE, f"{where} has no gates table")
    if type(gates) is not dict:
        raise PolicyError(_CODE, f"{where}: gates must be a table of named gates, not {_shown(gates)}")
    if not gates:
        raise PolicyError("no-gates", f"{where} names no gate: a gate file that gates nothing would release anything")
    folder = "" if path == "-" else os.path.dirname(path)
    parsed = tuple(_gate(name, body, keys, folder, where, renamed or {}) for name, body in gates.items())
    return GateFile(path, version, hashlib.sha256(data).hexdigest(), parsed)


def _gate(
    name: str, body: object, keys: Mapping[str, Mapping[str, str]], folder: str, where: str, renamed: Mapping[str, str]
) -> Gate:
    if not (0 < len(name) <= _LONGEST_NAME and set(name) <= _NAME_CHARACTERS and name[0] not in ".-"):
        raise PolicyError(
            _CODE,
            f"{where}: the gate name {ascii(name)} is not 1 to {_LONGEST_NAME} letters, digits, '.', '_' or '-' "
            "(starting with a letter, digit or '_')",
        )
    here = f"{where}: gate {name}"
    if type(body) is not dict:
        raise PolicyError(_CODE, f"{here} must be a table, not {_shown(body)}")
    command = body.get("command")
    if command not in GATE_COMMANDS:
        raise PolicyError(
            _CODE, f"{here}: command must be one of {', '.join(map(repr, GATE_COMMANDS))}, not {_shown(command)}"
        )
    known = keys[command]
    _refuse_unknown(body, (*_GATE_KEYS, *known), here, f"a {command} gate", keys, command, renamed)
    evidence = _evidence(body.get("evidence"), folder, here)
    options: list[tuple[str, object]] = []
    for key, value in body.items():
        if key in _GATE_KEYS:
            continue
        taken = _option(key, value, known[key], folder, here)
        if taken is not None:
            options.append((key, taken))
    return Gate(name, command, evidence, tuple(options))


def _refuse_unknown(
    table: dict[str, object],
    allowed: Sequence[str],
    where: str,
    what: str,
    keys: Mapping[str, Mapping[str, str]] | None = None,
    command: str | None = None,
    renamed: Mapping[str, str] | None = None,
) -> None:
    import difflib

    for key in table:
        if key in allowed:
            continue
        text = f"{where}: unknown key {ascii(key)}"
        others = [other for other in (keys or {}) if other != command and key in (keys or {})[other]]
        close = difflib.get_close_matches(key, allowed, n=1)
        new = (renamed or {}).get(key)
        if new is not None and new in allowed:
            # Never an alias: the old key is refused, and the new one named.
            text += f"; it was renamed {new!r}"
        elif others:
            text += f"; {key!r} is an option of {others[0]}, not of {command}"
        elif close:
            text += f"; did you mean {close[0]!r}?"
        else:
            text += f"; {what} takes {', '.join(sorted(allowed))}"
        raise PolicyError("unknown-gate-key", text)


def _evidence(value: object, folder: str, where: str) -> tuple[str, ...]:
    if value is None:
        raise PolicyError(_CODE, f"{where} names no evidence: give evidence, a path or a list of paths")
    items = value if type(value) is list else [value]
    if not items:
        raise PolicyError(_CODE, f"{where}: evidence is an empty list; name the files the gate decides on")
    paths: list[str] = []
    seen: set[str] = set()
    for item in items:
        path = _path(item, folder, f"{where}: evidence")
        # The file, not its spelling: ./x, a/../x and a link to x name x
        # again, and a shard read twice would count its trials twice.
        key = os.path.realpath(path)
        if key in seen:
            raise PolicyError(_CODE, f"{where}: evidence names the file {ascii(item)} twice")
        seen.add(key)
        paths.append(path)
    return tuple(paths)


def _path(value: object, folder: str, where: str) -> str:
    if type(value) is not str or not value:
        raise PolicyError(_CODE, f"{where} must be a non-empty string (a path), not {_shown(value)}")
    if os.path.isabs(value):
        # Relative only: the file then means the same files on every
        # machine and runner, and a receipt names them alike.
        raise PolicyError(
            _CODE,
            f"{where} {ascii(value)} is an absolute path; paths in a gate file are relative to its folder",
        )
    joined = os.path.join(folder, value)
    if joined == "-":
        # The commands read standard input for -; a gate reads files.
        raise PolicyError(_CODE, f"{where} '-' would be standard input; a gate names files (./- for a file named -)")
    return joined


def _option(key: str, value: object, kind: str, folder: str, where: str) -> object:
    """The value of option *key* as the command line takes it, or None for a flag that is false."""
    here = f"{where}: {key}"
    if kind == FLAG:
        if type(value) is not bool:
            raise PolicyError(_CODE, f"{here} is a flag: true or false, not {_shown(value)}")
        return True if value else None
    if kind == PATH:
        return _path(value, folder, here)
    if kind == VALUES:
        items = value if type(value) is list else [value]
        if not items:
            raise PolicyError(_CODE, f"{here} is an empty list; leave the key out instead")
        return tuple(_text(item, here) for item in items)
    if type(value) is list:
        raise PolicyError(_CODE, f"{here} takes one value, not a list")
    return _text(value, here)


def _text(value: object, where: str) -> str:
    """A string, or a number as its exact decimal text; nothing else is an option's value."""
    if type(value) is str:
        return value
    if type(value) is int:
        return str(value)
    # The exact decoder gave every other number as a Decimal, so decimal
    # is imported already.
    from decimal import Decimal

    if isinstance(value, Decimal):
        if not value.is_finite():
            raise PolicyError(_CODE, f"{where} is {value}, not a finite number")
        return str(value)
    raise PolicyError(_CODE, f"{where} takes a string or a number, not {_shown(value)}")


def _shown(value: object) -> str:
    from ._describe import describe_value

    return describe_value(value)


def read_once(wanted: Iterable[tuple[str, int]], /) -> dict[str, bytes | InvalidEvidence]:
    """Read each file of *wanted*, ``(path, byte limit)`` pairs, exactly once.

    Returns, for every path given, its bytes or the ``InvalidEvidence``
    that reading it raised (``file-not-found``, ``too-large``, ...).  Two
    spellings of one file (``a.json``, ``./a.json``) are one read, within
    the largest limit asked for it: every gate that names a file decides on
    the same bytes, even if it changes meanwhile.
    """
    from ._read import read_file

    limits: dict[str, int] = {}
    spelled: dict[str, str] = {}
    for path, limit in wanted:
        try:
            key = os.path.realpath(path)
        except (ValueError, UnicodeError):
            key = path  # no file has such a name: read_file says so
        spelled[path] = key
        limits[key] = max(limit, limits.get(key, 0))
    read: dict[str, bytes | InvalidEvidence] = {}
    first = {key: path for path, key in reversed(list(spelled.items()))}
    for key, limit in limits.items():
        try:
            read[key] = read_file(first[key], limit, what="evidence file")
        except InvalidEvidence as exc:
            read[key] = exc
    return {path: read[key] for path, key in spelled.items()}


def combined(outcomes: Sequence[tuple[str, Verdict, str]], /) -> tuple[Verdict, str, str]:
    """One verdict for the gates' ``(name, verdict, code)`` *outcomes*: ``(verdict, code, message)``.

    INVALID if any gate is INVALID; else FAIL if any FAILs; else REVIEW if
    any is REVIEW; else PASS.  The code is that of the first gate with the
    combined verdict; the message names it and counts every verdict.  No
    gate at all raises ``ValueError``: nothing gated is never a PASS.
    """
    if not outcomes:
        raise ValueError("no gate was decided: nothing to combine")
    verdicts = [verdict for _, verdict, _ in outcomes]
    # A verdict outside the table (a new one) counts as the worst.
    worst = next((verdict for verdict in _SEVERITY if verdict in verdicts), Verdict.INVALID)
    if any(verdict not in _SEVERITY for verdict in verdicts):
        worst = Verdict.INVALID
    name, _, code = next(
        (outcome for outcome in outcomes if outcome[1] is worst), (outcomes[0][0], worst, "internal-error")
    )
    total = len(outcomes)
    gates = "gate" if total == 1 else "gates"
    if worst is Verdict.PASS:
        return worst, code, f"{'the' if total == 1 else 'all'} {total} {gates} PASS"
    counts = ", ".join(
        f"{verdicts.count(verdict)} {verdict.value}" for verdict in reversed(_SEVERITY) if verdict in verdicts
    )
    return worst, code, f"gate {name} is {worst.value}; of {total} {gates}: {counts}"
