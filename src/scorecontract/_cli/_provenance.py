# SPDX-License-Identifier: MIT
"""The provenance options of ``check``: --candidate, --run-id, a key, --signature.

The order of a gate's checks, and why:

1. Configuration (exit 2), before any evidence is read: the candidate and
   run id, the policy's ``require_candidate``, the key (a missing, empty,
   short or group/other-accessible key file; an unset variable).
2. Reading the evidence, once, within the byte limit.  Those exact bytes
   are both authenticated and judged.
3. Authentication, when a key is given: the signature must be present,
   strict, name the gate's key and match the bytes.  It comes before the
   content because unauthenticated bytes are not evidence of anything: a
   forged file is reported as forged, not as whatever else is wrong in it.
4. The contract (``evaluate``): strict JSON, the envelope (candidate, run
   id, members), the numeric contract, the threshold.  A valid signature
   never makes invalid evidence valid: NaN in a correctly signed file is
   INVALID ``non-standard-constant``.

Every failure from step 2 on is INVALID (exit 3) with its own code, and the
receipt's ``provenance`` section says what was required and found.
"""

from __future__ import annotations

from .._errors import InvalidEvidence, PolicyError
from ._options import needs

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse

    from .._policy import Policy

__all__ = ["Provenance", "add_key_arguments", "add_provenance_arguments", "bind", "key_option"]


def add_key_arguments(parser: argparse._ActionsContainer) -> None:
    """Register ``--key-file K`` and ``--key-env VAR`` (one or the other)."""
    keys = parser.add_mutually_exclusive_group()
    keys.add_argument(
        "--key-file",
        metavar="K",
        help="HMAC key: the bytes of file K (one final newline dropped; at least 16 bytes; mode 600 or stricter)",
    )
    keys.add_argument(
        "--key-env",
        metavar="VAR",
        help="HMAC key: the value of environment variable VAR (never the key itself on the command line)",
    )


def key_option(key_file: str | None, key_env: str | None) -> bytes | None:
    """Return the key that ``--key-file`` or ``--key-env`` names, or None.

    Read as ``scorecontract.load_key`` reads a key file.  Raises
    ``PolicyError`` (exit 2) for an unusable key.
    """
    if key_file is None and key_env is None:
        return None  # no key asked for: hmac and hashlib stay unloaded
    from .._sign import key_from_env, load_key

    if key_file is not None:
        return load_key(key_file)
    if key_env is None:  # unreachable: one of the two was given
        return None
    return key_from_env(key_env)


def add_provenance_arguments(parser: argparse.ArgumentParser) -> None:
    """Register check's provenance options on *parser*."""
    group = parser.add_argument_group(
        "provenance",
        "bind the evidence to a candidate and run, and authenticate it (see docs/provenance.md)",
    )
    group.add_argument(
        "--candidate",
        metavar="ID",
        help='require the envelope {"candidate": ID, "score": ...}; ID is compared exactly',
    )
    group.add_argument(
        "--run-id",
        metavar="ID",
        help='with --candidate, also require "run_id": ID, so an older file cannot be replayed',
    )
    add_key_arguments(group)
    group.add_argument(
        "--signature",
        metavar="FILE",
        help="with a key, the detached signature of the evidence (default: PATH.sig)",
    )


def bind(candidate: str | None, run_id: str | None, policy: Policy) -> None:
    """Refuse ``--candidate``/``--run-id`` as given beside *policy*, in the options' words.

    The library's rule (``candidate-required``, an empty id), with the
    message naming the command line's options rather than Python's
    arguments, and ``--run-id`` without ``--candidate`` refused as the
    missing option it is.
    """
    from .._provenance import check_binding

    if candidate is None and run_id is not None and not policy.require_candidate:
        raise needs("--run-id", "--candidate", "a run id pins one run of one candidate's evaluation")
    try:
        check_binding(candidate, run_id, policy)
    except PolicyError as exc:
        if exc.code == "candidate-required":
            raise PolicyError(
                exc.code,
                f"policy {policy.version!r} requires the candidate the evidence is for: give --candidate ID",
            ) from None
        raise


class Provenance:
    """What one ``check`` run requires of its evidence's provenance.

    Built from typed values, before any evidence is read: *candidate* and
    *run_id* as given, *key* as ``key_option`` read it (or None), and
    *signature*, the signature file's path (None without a key).  The key
    is held only here, for ``authenticate``; ``repr`` and the receipt show
    its id, never the key.
    """

    __slots__ = ("candidate", "run_id", "signature", "key_id", "authenticated", "_key")

    candidate: str | None
    run_id: str | None
    signature: str | None
    key_id: str | None
    authenticated: bool

    def __init__(self, *, candidate: str | None, run_id: str | None, key: bytes | None, signature: str | None) -> None:
        if (key is None) != (signature is None):
            raise ValueError("a key and a signature file go together")
        self.candidate = candidate
        self.run_id = run_id
        self._key = key
        self.signature = signature
        if key is None:
            self.key_id = None
        else:
            from .._sign import key_id

            self.key_id = key_id(key)
        self.authenticated = False

    @classmethod
    def from_options(
        cls,
        *,
        path: str,
        policy: Policy,
        candidate: str | None,
        run_id: str | None,
        key_file: str | None,
        key_env: str | None,
        signature: str | None,
    ) -> Provenance:
        """Check the provenance options of ``check PATH`` and return them.

        Raises ``PolicyError`` (exit 2): the binding (``bind``), the key
        (``key_option``), ``--signature`` without a key, and evidence on
        standard input with a key but no ``--signature`` (``missing-option``).
        """
        bind(candidate, run_id, policy)
        key = key_option(key_file, key_env)
        if key is None:
            if signature is not None:
                raise needs("--signature", "the key to check it with: --key-file or --key-env")
        elif signature is None:
            if path == "-":
                raise needs("evidence on standard input", "--signature FILE", "there is no PATH.sig")
            signature = path + ".sig"
        return cls(candidate=candidate, run_id=run_id, key=key, signature=signature)

    def __repr__(self) -> str:
        return f"Provenance(candidate={self.candidate!r}, run_id={self.run_id!r}, key_id={self.key_id!r})"

    def authenticate(self, evidence: bytes) -> InvalidEvidence | None:
        """Authenticate the exact *evidence* bytes; return why not, or None.

        Without a key there is nothing to check and None is returned.
        """
        if self._key is None or self.signature is None:
            return None
        from .._sign import authenticate, read_signature_file

        try:
            authenticate(evidence, signature=read_signature_file(self.signature), key=self._key)
        except InvalidEvidence as exc:
            return exc
        self.authenticated = True
        return None

    def receipt_section(self, evidence: bytes | None) -> dict[str, object]:
        """Return the receipt's ``provenance`` object.

        ``found`` is the member as the evidence holds it, when the evidence
        is strict JSON holding an object and the member is a string; else
        null.  No key, only its id.
        """
        found = _found_members(evidence)
        return {
            "authenticated": self.authenticated,
            "algorithm": None if self.key_id is None else "hmac-sha256",
            "key_id": self.key_id,
            "signature": self.signature,
            "candidate": {"required": self.candidate, "found": found.get("candidate")},
            "run_id": {"required": self.run_id, "found": found.get("run_id")},
        }


def _found_members(evidence: bytes | None) -> dict[str, str]:
    if evidence is None:
        return {}
    from .._evaluate import loads

    try:
        # exact: Decimal never overflows, so a huge score does not hide
        # the candidate beside it.
        value = loads(evidence, exact=True, max_bytes=max(len(evidence), 1))
    except Exception:  # any reason the evidence is not strict JSON
        return {}
    result: dict[str, str] = {}
    if type(value) is dict:
        for name in ("candidate", "run_id"):
            found = value.get(name)
            if type(found) is str:
                result[name] = found
    return result
