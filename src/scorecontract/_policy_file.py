# SPDX-License-Identifier: MIT
"""Policy files: a ``Policy`` from JSON (always) or TOML (Python 3.11+).

A policy file is configuration for a release gate, so it is read at least as
strictly as the evidence it judges: JSON goes through the evidence's own
strict loader (duplicate keys, ``NaN``, ``1e400``, a byte-order mark and
non-UTF-8 bytes are refused), unknown keys are refused so that a typo such
as ``treshold`` cannot silently leave the default in force, and the values
are validated by ``Policy`` itself.  Every problem raises ``PolicyError``;
the command line exits 2 for it.
"""

from __future__ import annotations

from ._encoding import decode_evidence
from ._errors import InvalidEvidence, PolicyError
from ._policy import Policy, policy_from_fields

TYPE_CHECKING = False
if TYPE_CHECKING:
    from os import PathLike

__all__ = ["MAX_POLICY_BYTES", "POLICY_KEYS", "decode_document", "load_policy", "policy_from_bytes"]

# A policy is a handful of keys; anything bigger is not a policy file.
MAX_POLICY_BYTES = 64 * 1024
# A TOML policy line holds at most this many dots (see _check_toml_lines).
MAX_TOML_DOTS = 64


# file key -> (Policy keyword, required).  Policy() validates every value
# itself, so the API and the file share one set of rules and one set of
# messages.  Adding a Policy field to the file format is one line here.
POLICY_KEYS: dict[str, tuple[str, bool]] = {
    "version": ("version", True),
    "threshold": ("threshold", True),
    "exact": ("exact", True),
    "min": ("minimum", False),
    "max": ("maximum", False),
    "review_owner": ("review_owner", False),
    "require_candidate": ("require_candidate", False),
    "direction": ("direction", False),
    "nonfinite_elsewhere": ("nonfinite_elsewhere", False),
    "require": ("require", False),
    "confidence": ("confidence", False),
    "bound": ("bound", False),
}


def load_policy(path: str | PathLike[str], /) -> Policy:
    """Read the policy file *path* (a ``str`` or ``pathlib.Path``) and return
    the ``Policy`` it describes.

    A file whose name ends in ``.toml`` is TOML (Python 3.11+, through
    ``tomllib``); any other file is JSON.  Either way it holds one object
    (in TOML, the top-level table) with the keys ``version`` (a non-empty
    string), ``threshold`` (a number), ``exact`` (true or false) and, when
    the bounds are not ``[0, 1]``, ``min`` and ``max`` (a number, or null
    for no bound on that side)::

        {"version": "release-2024-06", "threshold": 0.8, "exact": false}

    Optional keys: ``review_owner``, ``require_candidate``, ``direction``
    (``"higher"`` or ``"lower"``), ``nonfinite_elsewhere`` (``"refuse"`` or
    ``"list"``), ``require`` (a list of RFC 9535 logical expressions), and
    for reports ``confidence`` (a number strictly between 0.5 and 1) and
    ``bound`` (``"empirical-bernstein"``, ``"hoeffding"`` or ``"asymptotic-t"``; it needs ``confidence``).

    Numbers are decoded the way the policy will decode evidence: as binary
    floats, or as their exact decimal text (``decimal.Decimal``) when
    ``exact`` is true.  A TOML number meets the checks of a JSON number
    (``1e-400`` is not read as 0.0, ``1e400`` not as infinity, and the
    digit cap and exact exponent bound apply); TOML's ``inf`` and ``nan``
    are refused as not finite.

    Raises ``PolicyError`` if the file cannot be read, is over 64 KiB, is
    not strict JSON or TOML (a duplicated key or ``NaN`` included, or a
    TOML line with more than 64 dots: policy keys are not dotted), has an
    unknown key or lacks a required one, or holds a value ``Policy``
    refuses.
    """
    import os

    from ._read import read_file

    name: object
    try:
        name = os.fspath(path)
    except TypeError:
        name = path
    if type(name) is not str:
        raise PolicyError("bad-policy", f"a policy file's path must be a str or os.PathLike, not {type(name).__name__}")
    source = ascii(name)
    try:
        data = read_file(name, MAX_POLICY_BYTES, what="policy file")
    except InvalidEvidence as exc:
        # A policy that cannot be read is configuration (exit 2), not evidence.
        raise PolicyError("policy-file-unreadable", exc.message) from None
    return policy_from_bytes(data, toml=name.lower().endswith(".toml"), source=source)


def policy_from_bytes(data: bytes, /, *, toml: bool = False, source: str = "<policy>") -> Policy:
    """Return the ``Policy`` held by the policy file contents *data*.

    *toml* selects TOML instead of JSON; *source* names the file in
    messages.  Raises ``PolicyError`` as ``load_policy`` does.
    """
    # Decode exactly first (Decimal never overflows), to learn the mode;
    # then, unless the policy is exact, decode again the way its evidence
    # will be decoded, so the threshold is the float the scores meet.
    document = _decode(data, toml=toml, exact=True, source=source)
    if document.get("exact") is not True:
        document = _decode(data, toml=toml, exact=False, source=source)
    return _policy_from_document(document, source)


def _decode(data: bytes, *, toml: bool, exact: bool, source: str) -> dict[str, object]:
    return decode_document(data, toml=toml, exact=exact, source=source)


def decode_document(
    data: bytes,
    /,
    *,
    toml: bool,
    exact: bool,
    source: str,
    what: str = "policy file",
    code: str = "bad-policy-file",
    max_bytes: int = MAX_POLICY_BYTES,
) -> dict[str, object]:
    """Return the one object a configuration file's bytes *data* hold.

    The one reader of configuration, shared by policy files and gate files:
    JSON through the evidence's own strict loader, or TOML (*toml*, Python
    3.11+) whose numbers meet the same numeric contract (``_toml_number``).
    Numbers are floats, or ``decimal.Decimal`` holding their exact text
    when *exact*.  *source* and *what* (``"gate file"``) name the file in
    messages; every problem raises ``PolicyError`` with *code*.
    """
    try:
        text = decode_evidence(data, max_bytes)
        if toml:
            document = _toml_loads(text, exact, source, what, code)
        else:
            from ._strict_json import parse_json

            document = parse_json(text, exact=exact)
    except InvalidEvidence as exc:
        raise PolicyError(code, f"{what} {source}: {exc}") from None
    if type(document) is not dict:
        raise PolicyError(code, f"{what} {source} must hold one object")
    return document  # keys are str in JSON and TOML


def _toml_loads(text: str, exact: bool, source: str, what: str, code: str) -> object:
    try:
        import tomllib
    except ImportError:  # Python 3.9 and 3.10; no third-party fallback
        raise PolicyError(
            code,
            f"{what} {source} is TOML, which needs Python 3.11 or newer (tomllib); use JSON",
        ) from None

    _check_toml_lines(text, source, what, code)
    _check_toml_literals(text, source, what, code)

    def parse_float(literal: str) -> object:
        # tomllib hands over the literal's own text, before any rounding.
        return _toml_number(literal, exact)

    try:
        document = tomllib.loads(text, parse_float=parse_float)
    except tomllib.TOMLDecodeError as exc:
        reason = " ".join(str(exc).split())  # one line, whatever tomllib says
        raise PolicyError(code, f"{what} {source} is not TOML: {reason}") from None
    except InvalidEvidence:
        raise  # a number the JSON decoder would refuse too
    except (ValueError, RecursionError) as exc:
        # int()'s digit limit and deep nesting escape tomllib undressed.
        raise PolicyError(code, f"{what} {source} is not usable TOML ({type(exc).__name__})") from None
    _check_toml_integers(document)
    return document


def _check_toml_lines(text: str, source: str, what: str, code: str) -> None:
    """Refuse a line with more than ``MAX_TOML_DOTS`` dots.

    tomllib takes time quadratic in the parts of one dotted key (it builds
    the key's prefixes again for every part): 12 KiB of ``a.`` took 2
    seconds, and 64 KiB would take a minute.  A key never spans lines (TOML
    v1.0.0, "Keys" and "Inline Table"), so a bound on the dots of each line
    bounds the parts of every key.  A line that starts with ``#`` holds no
    key (a comment, or text inside a multi-line string) and is not counted.
    """
    for number, line in enumerate(text.split("\n"), 1):
        if line.count(".") > MAX_TOML_DOTS and not line.lstrip(" \t").startswith("#"):
            raise PolicyError(
                code,
                f"{what} {source}: line {number} has more than {MAX_TOML_DOTS} dots; its keys are not dotted",
            )


def _check_toml_literals(text: str, source: str, what: str, code: str) -> None:
    """Refuse a TOML number literal that is not JSON number syntax.

    docs/policies.md and docs/gates.md: TOML numbers follow JSON's number
    rules.  TOML v1.0.0 ("Integer", "Float") adds ``0x``/``0o``/``0b``
    integers, ``_`` between digits, a leading ``+``, ``inf`` and ``nan``;
    tomllib converts integers itself with no hook, so the literal text is
    read here: strings and comments are skipped, and each bare token that
    follows ``=``, ``[`` or ``,`` and starts like a number is checked.  A
    table header or inline-table key spelled as such a number (``[1_0]``)
    is refused too: fail closed, and no policy or gate key is spelled so.
    """
    index, length, line = 0, len(text), 1
    previous = "\n"  # the last significant character outside strings
    while index < length:
        char = text[index]
        if char == "#":
            end = text.find("\n", index)
            index = length if end < 0 else end
            continue
        if char in "\"'":
            quote = text[index : index + 3] if text.startswith(char * 3, index) else char
            end = index + len(quote)
            while end < length and not text.startswith(quote, end):
                # A basic string's backslash escapes the next character
                # (TOML v1.0.0, "String"); a literal string has no escapes.
                end += 2 if char == '"' and text[end] == "\\" else 1
            line += text.count("\n", index, end)
            index, previous = end + len(quote), char
            continue
        if char.isalnum() or char in "+-_.:":
            end = index
            while end < length and (text[end].isalnum() or text[end] in "+-_.:"):
                end += 1
            token = text[index:end]
            if previous in "=[," and _is_toml_only_number(token):
                raise PolicyError(
                    code,
                    f"{what} {source}: line {line}: the number {ascii(token[:40])} is TOML-only syntax; "
                    "write it as a JSON number (no 0x, 0o, 0b, '_', leading '+', inf or nan)",
                )
            index, previous = end, "a"
            continue
        if char == "\n":
            line += 1
        if not char.isspace():
            previous = char
        index += 1


def _is_toml_only_number(token: str) -> bool:
    """Whether *token* is a TOML number spelling JSON lacks (see ``_check_toml_literals``)."""
    bare = token[1:] if token[:1] in "+-" else token
    if bare in ("inf", "nan"):
        return True
    if not bare[:1].isdigit():
        return False
    return token[:1] == "+" or "_" in token or bare[:2].lower() in ("0x", "0o", "0b")


def _toml_number(literal: str, exact: bool) -> object:
    """Convert a TOML float literal with the JSON decoder's own number hook.

    TOML adds ``inf`` and ``nan`` (signed or not), a leading ``+`` and
    ``_`` between digits to JSON's number syntax (TOML v1.0.0, "Float");
    without those, the literal is an RFC 8259 number.  So ``1e-400`` is
    refused as underflow, not read as 0.0, ``1e400`` as overflow, and
    ``1e-5000`` meets the same exponent bound as in JSON.  ``inf`` and
    ``nan`` become the values they name, which ``Policy`` refuses.
    """
    from ._strict_json import convert_number

    token = literal.replace("_", "")
    if token.startswith("+"):
        token = token[1:]
    if token.lstrip("-") in ("inf", "nan"):
        # Valid TOML, so not a syntax error: Policy's numeric contract
        # refuses the value as not finite, with the key's own code.
        if exact:
            from decimal import Decimal

            return Decimal(token)
        return float(token)
    return convert_number(token, exact=exact)


def _check_toml_integers(document: object) -> None:
    """Give every TOML integer the JSON decoder's check on its decimal text.

    tomllib converts integers itself (``0x``, ``0o``, ``0b`` and ``_``
    included) and has no hook for them, so the digit cap is applied to the
    decimal literal JSON would need for the same value.  Iterative: dotted
    keys nest tables without tomllib recursing, so depth is not bounded.
    """
    from ._strict_json import check_integer

    pending = [document]
    while pending:
        value = pending.pop()
        if type(value) is dict:
            pending.extend(value.values())
        elif type(value) is list:
            pending.extend(value)
        elif type(value) is int:
            check_integer(value)


def _policy_from_document(document: dict[str, object], source: str) -> Policy:
    unknown = sorted(key for key in document if key not in POLICY_KEYS)
    if unknown:
        raise PolicyError("unknown-policy-key", f"policy file {source}: {_describe_unknown(unknown[0])}")
    missing = [key for key, (_, required) in POLICY_KEYS.items() if required and key not in document]
    if missing:
        raise PolicyError(
            "missing-policy-key",
            f"policy file {source} lacks {', '.join(repr(key) for key in missing)}",
        )
    arguments = {POLICY_KEYS[key][0]: value for key, value in document.items()}
    try:
        return policy_from_fields(arguments)
    except PolicyError as exc:
        raise PolicyError(exc.code, f"policy file {source}: {exc.message}") from None


def _describe_unknown(key: str) -> str:
    import difflib

    text = f"unknown key {ascii(key)}"
    close = difflib.get_close_matches(key, POLICY_KEYS, n=1)
    if close:
        return f"{text}; did you mean {close[0]!r}?"
    return f"{text}; the keys are {', '.join(sorted(POLICY_KEYS))}"
