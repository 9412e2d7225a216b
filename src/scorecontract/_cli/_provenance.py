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

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse

    from .._policy import Policy

__all__ = ["Provenance", "add_key_arguments", "add_provenance_arguments", "key_from_args"]


def add_key_arguments(parser: argparse._ActionsContainer) -> None:
    """Register ``--key-file K`` and ``--key-env VAR`` (one or the other)."""
    keys = parser.add_mutually_exclusive_group()
    keys.add_argument(
        "--key-file",
        metavar="K",
        help="HMAC key: the bytes of file K (one final newline dropped; at least 16 bytes; "
        "mode 600 or stricter)",
    )
    keys.add_argument(
        "--key-env",
        metavar="VAR",
        help="HMAC key: the value of environment variable VAR (never the key itself on the command line)",
    )


def key_from_args(args: argparse.Namespace) -> bytes | None:
    """Return the key that ``--key-file`` or ``--key-env`` names, or None.

    Raises ``PolicyError`` (exit 2) for an unusable key.
    """
    if args.key_file is None and args.key_env is None:
        return None  # no key asked for: hmac and hashlib stay unloaded
    from .._sign import key_from_env, key_from_file

    if args.key_file is not None:
        return key_from_file(args.key_file)
    return key_from_env(args.key_env)


def add_provenance_arguments(parser: argparse.ArgumentParser) -> None:
    """Register check's provenance options on *parser*."""
    group = parser.add_argument_group(
        "provenance",
        "bind the evidence to a candidate and run, and authenticate it (see README, Provenance)",
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


class Provenance:
    """What one ``check`` run requires of its evidence's provenance.

    The key is held only here, for ``authenticate``; ``repr`` and the
    receipt show its id, never the key.
    """

    __slots__ = ("candidate", "run_id", "signature", "key_id", "authenticated", "_key")

    def __init__(self, args: argparse.Namespace, policy: Policy) -> None:
        from .._provenance import check_binding

        check_binding(args.candidate, args.run_id, policy)
        self.candidate: str | None = args.candidate
        self.run_id: str | None = args.run_id
        signature: str | None = args.signature
        self._key = key_from_args(args)
        if self._key is None:
            if signature is not None:
                raise PolicyError("bad-policy", "--signature needs the key to check it with: --key-file or --key-env")
            self.key_id: str | None = None
        else:
            if signature is None:
                if args.path == "-":
                    raise PolicyError("bad-policy", "evidence on standard input needs --signature FILE")
                signature = args.path + ".sig"
            from .._sign import key_id

            self.key_id = key_id(self._key)
        self.signature = signature
        self.authenticated = False

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
