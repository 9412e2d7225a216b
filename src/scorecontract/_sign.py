# SPDX-License-Identifier: MIT
"""Authenticating evidence: detached HMAC-SHA256 signatures.

The strict loader proves a score is well-formed; it cannot prove the file
came from the evaluation job.  The job signs the exact evidence bytes with
a secret key; the gate, holding the same key, recomputes the HMAC over the
exact bytes it read and compares it in constant time
(``hmac.compare_digest``).  A signature proves who wrote the bytes, never
that they are valid: the gate still runs the whole contract on them.

A signature file is one strict JSON object with exactly six members, the
three of the receipt family (``kind``, ``receipt_version``,
``scorecontract_version``) and the signature itself::

    {"algorithm": "hmac-sha256", "key_id": "<16 hex>", "kind": "signature",
     "receipt_version": 2, "scorecontract_version": "0.1.0", "signature": "<64 hex>"}

``key_id`` is the first 16 hex digits of SHA-256 of the key: it lets a
receipt say "signed with another key" instead of "tampered bytes", and it
grants nothing (an attacker can write any key id; only the HMAC decides).
Like the signature itself, it says nothing useful about a key of 16 random
bytes or more, which is why shorter keys are refused.

Keys come from a file or an environment variable, never from an argument
value (argument values are visible to every user through ``ps``), and never
appear in any output, receipt or message.  Every key, whichever way it
arrives (``load_key``, an environment variable, or ``bytes`` given to
``sign`` and ``authenticate``), is normalised by the one rule of
``_normalise_key``, so the command line and Python agree on every key.
"""

from __future__ import annotations

import re

from ._constants import RECEIPT_VERSION
from ._describe import clip_text
from ._errors import InvalidEvidence, PolicyError

__all__ = [
    "ALGORITHM",
    "MIN_KEY_BYTES",
    "authenticate",
    "key_from_env",
    "key_id",
    "load_key",
    "read_signature_file",
    "sign",
]

ALGORITHM = "hmac-sha256"
# RFC 2104 section 3: a key shorter than the hash output weakens the HMAC;
# 16 bytes still refuses a password such as "secret" while accepting any
# generated key (openssl rand -hex 32 gives 64).
MIN_KEY_BYTES = 16
MAX_KEY_BYTES = 4096
# The object above is about 200 bytes; anything much bigger is not one.
MAX_SIGNATURE_BYTES = 4096
_KIND = "signature"
_MEMBERS = ["algorithm", "key_id", "kind", "receipt_version", "scorecontract_version", "signature"]
_KEY_ID = re.compile("[0-9a-f]{16}")
_HEX64 = re.compile("[0-9a-f]{64}")
# A version as a package index spells it (PEP 440's characters), bounded:
# the member is informative, and must not carry text that is not one.
_VERSION = re.compile("[0-9A-Za-z][0-9A-Za-z.+!_-]{0,63}")


def _normalise_key(data: bytes, where: str = "") -> bytes:
    """Drop one final line ending, then refuse a key that is too short.

    ``openssl rand -hex 32 > K`` writes a newline and ``export V=$(cat K)``
    drops it; one rule for both keeps a file and a variable holding the same
    key interchangeable.  A key that still ends in a newline is refused:
    then the rule gives the same key however many times it is applied, so
    ``sign(data, key=load_key(K))`` and ``sign(data, key=K's bytes)`` agree
    with the command line.  *where* names the key's source in messages
    (``" in key file 'K'"``).
    """
    if data.endswith(b"\r\n"):
        data = data[:-2]
    elif data.endswith(b"\n"):
        data = data[:-1]
    if not data:
        raise PolicyError("bad-key", f"the key{where} is empty")
    if data.endswith(b"\n"):
        raise PolicyError(
            "bad-key",
            f"the key{where} ends with more than one line ending; only one final line ending "
            "is dropped, so the key would depend on how it was read",
        )
    if len(data) < MIN_KEY_BYTES:
        # The length is safe to say; the bytes never are.
        raise PolicyError(
            "bad-key",
            f"the key{where} is {len(data)} bytes, under the minimum of {MIN_KEY_BYTES} "
            "(generate one: openssl rand -hex 32)",
        )
    return data


def load_key(path: str, /) -> bytes:
    """Return the key held by the file *path*, as the command line reads it.

    The file is read by the one reader (a regular file only, at most
    4 KiB) and one final line ending (``\\n`` or ``\\r\\n``) is dropped,
    so ``openssl rand -hex 32 > K`` gives the key without its newline.

    Raises ``PolicyError`` (exit 2 on the command line): ``bad-key`` for a
    missing, unreadable, non-regular, oversized, empty or short key, or one
    that still ends in a newline; ``key-too-open`` when group or others may
    read or write it (POSIX mode bits ``& 0o077``, as ssh refuses a private
    key).  The mode is read from the file that was opened, so a file swapped
    in after the check is not read.

    ``sign`` and ``authenticate`` apply the same rule to a key given as
    bytes, so ``key=load_key(path)`` and ``key=open(path, "rb").read()``
    sign alike, and alike with ``scorecontract sign --key-file path``.
    """
    import os
    import stat

    from ._read import open_regular, read_bounded

    source = f"key file {ascii(path)}"
    try:
        # The one reader: a FIFO or a device is refused without blocking.
        with open_regular(path, what="key file") as stream:
            mode = os.fstat(stream.fileno()).st_mode
            # Windows has no group and others bits to test; os.stat makes
            # them up from the read-only flag.
            if os.name == "posix" and mode & 0o077:
                raise PolicyError(
                    "key-too-open",
                    f"{source} has mode {stat.S_IMODE(mode):04o}: group or others can access "
                    f"it; make it private (chmod 600 {path})",
                )
            data = read_bounded(stream, MAX_KEY_BYTES, what=source)
    except InvalidEvidence as exc:
        # A key that cannot be read is configuration (exit 2), and the
        # messages never hold a byte of the key.
        if exc.code == "too-large":
            raise PolicyError("bad-key", f"{source} is over {MAX_KEY_BYTES} bytes; not a key file") from None
        if exc.code == "file-not-found":
            raise PolicyError("bad-key", f"no key file at {ascii(path)}") from None
        raise PolicyError("bad-key", exc.message) from None
    return _normalise_key(data, f" in {source}")


def key_from_env(name: str, /) -> bytes:
    """Return the key held by the environment variable *name*.

    The same rule as ``load_key``: one final line ending dropped.  Raises
    ``PolicyError`` (``bad-key``, exit 2) if it is unset, empty or shorter
    than 16 bytes.
    """
    import os

    source = f"environment variable {ascii(name)}"
    if not name or "=" in name or "\x00" in name:
        raise PolicyError("bad-key", f"{source} is not a usable variable name")
    value = os.environ.get(name)
    if value is None:
        raise PolicyError("bad-key", f"{source} is not set")
    # fsencode gives back the bytes the environment held (surrogateescape).
    return _normalise_key(os.fsencode(value), f" in {source}")


def _check_key(key: object) -> bytes:
    if type(key) is not bytes:
        raise PolicyError("bad-key", f"the key must be bytes, not {type(key).__name__}")
    return _normalise_key(key)


def key_id(key: bytes, /) -> str:
    """Return the key's id: the first 16 hex digits of SHA-256 of *key*."""
    import hashlib

    return hashlib.sha256(key).hexdigest()[:16]


def _hmac_hex(key: bytes, data: bytes) -> str:
    import hashlib
    import hmac

    return hmac.new(key, data, hashlib.sha256).hexdigest()


def _check_data(data: object) -> bytes:
    # Exactly bytes: the signature is over the bytes a file holds, and text
    # would first have to be encoded, in some encoding, with some newlines.
    if type(data) is not bytes:
        raise InvalidEvidence(
            "input-type", f"evidence to sign or authenticate must be bytes, not {type(data).__name__}"
        )
    return data


def sign(data: bytes, /, *, key: bytes) -> str:
    """Return the detached signature of the evidence bytes *data*.

    The result is the signature file's text: one JSON object on one line,
    keys sorted, and a newline.  ``signature`` is the HMAC-SHA256 of *data*
    under *key* in lowercase hex, ``key_id`` names the key, and ``kind``,
    ``receipt_version`` and ``scorecontract_version`` are the receipt
    family's.  Write *data* and the signature byte for byte; any change to
    either fails ``authenticate``.  Signing does not judge the evidence:
    invalid bytes sign as well as valid ones, and the gate still refuses
    them.

    *key* is ``bytes``; one final line ending is dropped, as ``load_key``
    and the command line drop it, and what remains must be at least 16
    bytes; else ``PolicyError`` (``bad-key``).  *data* that is not
    ``bytes`` raises ``InvalidEvidence`` (``input-type``).

        >>> text = sign(b'{"score": 0.9}', key=b"0123456789abcdef")
        >>> text == sign(b'{"score": 0.9}', key=b"0123456789abcdef\\n")
        True
        >>> print(text.replace(", ", ",\\n "), end="")
        {"algorithm": "hmac-sha256",
         "key_id": "9f9f5111f7b27a78",
         "kind": "signature",
         "receipt_version": 2,
         "scorecontract_version": "0.1.0",
         "signature": "d2fc0b2aa2b948d9cf4dd895b4222e5d76ae8eee8edf637fa30686f7a4158538"}
    """
    import json

    from ._version import __version__

    key = _check_key(key)
    data = _check_data(data)
    document = {
        "algorithm": ALGORITHM,
        "key_id": key_id(key),
        "kind": _KIND,
        "receipt_version": RECEIPT_VERSION,
        "scorecontract_version": __version__,
        "signature": _hmac_hex(key, data),
    }
    return json.dumps(document, sort_keys=True) + "\n"


def _parse_signature(signature: bytes | str) -> tuple[str, str]:
    """Return ``(key_id, signature_hex)`` of a signature file's contents."""
    from ._encoding import decode_evidence
    from ._strict_json import parse_json

    try:
        document = parse_json(decode_evidence(signature, MAX_SIGNATURE_BYTES))
    except InvalidEvidence as exc:
        raise InvalidEvidence(
            "bad-signature", f"the signature file is not strict JSON ({exc.code}: {exc.message})"
        ) from None
    if type(document) is not dict or sorted(document) != _MEMBERS:
        raise InvalidEvidence(
            "bad-signature",
            "the signature file must be one object with exactly "
            + ", ".join(f'"{name}"' for name in _MEMBERS[:-1])
            + f' and "{_MEMBERS[-1]}"',
        )
    kind, version, written_by = document["kind"], document["receipt_version"], document["scorecontract_version"]
    if type(kind) is not str or kind != _KIND:
        raise InvalidEvidence("bad-signature", f'the signature file\'s kind is not "{_KIND}"')
    # Exactly int: true and 2.0 are not a schema version.
    if type(version) is not int or version != RECEIPT_VERSION:
        raise InvalidEvidence("bad-signature", f"the signature file's receipt_version is not {RECEIPT_VERSION}")
    if type(written_by) is not str or not _VERSION.fullmatch(written_by):
        raise InvalidEvidence("bad-signature", "the signature file's scorecontract_version is not a version")
    algorithm, claimed, digest = document["algorithm"], document["key_id"], document["signature"]
    if type(algorithm) is not str or algorithm != ALGORITHM:
        shown = clip_text(ascii(algorithm)) if type(algorithm) is str else "not a string"
        raise InvalidEvidence("bad-signature", f"the signature's algorithm is {shown}, not {ALGORITHM!r}")
    # fullmatch on exact str: "$" would accept a final newline, and
    # uppercase hex is refused so each signature has one spelling.
    if type(claimed) is not str or not _KEY_ID.fullmatch(claimed):
        raise InvalidEvidence("bad-signature", "the signature's key_id is not 16 lowercase hex digits")
    if type(digest) is not str or not _HEX64.fullmatch(digest):
        length = len(digest) if type(digest) is str else None
        raise InvalidEvidence(
            "bad-signature",
            "the signature is not 64 lowercase hex digits"
            + (f" ({length} characters: truncated or padded?)" if length is not None and length != 64 else ""),
        )
    return claimed, digest


def authenticate(data: bytes, /, *, signature: bytes | str, key: bytes) -> str:
    """Check that *signature* authenticates the evidence bytes *data*.

    *signature* is the signature file's contents (as ``sign`` returns
    them, or as read from the file); *key* is the shared key, ``bytes``,
    normalised as ``sign`` normalises it.  Returns the key id on success.

    Raises ``InvalidEvidence`` with the code ``bad-signature`` (not strict
    JSON, wrong members, another kind or receipt version, another
    algorithm, bad or truncated hex), ``key-id-mismatch`` (signed with
    another key), or ``signature-mismatch`` (the bytes are not the bytes
    that were signed); ``PolicyError`` (``bad-key``) for an unusable key.
    The HMAC is compared with ``hmac.compare_digest``.  Authentication
    says nothing of validity: pass *data* to ``evaluate()`` afterwards.
    """
    import hmac

    key = _check_key(key)
    data = _check_data(data)
    claimed, digest = _parse_signature(signature)
    expected_id = key_id(key)
    if claimed != expected_id:
        # A diagnosis, not a defence: the HMAC below would fail too.
        raise InvalidEvidence(
            "key-id-mismatch", f"the signature names key {claimed}, but the gate's key is {expected_id}"
        )
    if not hmac.compare_digest(_hmac_hex(key, data), digest):
        raise InvalidEvidence(
            "signature-mismatch",
            f"the signature by key {expected_id} does not match these {len(data)} evidence bytes; "
            "they are not the bytes that were signed",
        )
    return expected_id


def read_signature_file(path: str, /) -> bytes:
    """Return the contents of the signature file *path*, at most 4 KiB.

    A missing file is ``missing-signature``, one that cannot be read
    ``signature-unreadable``, one over 4 KiB ``bad-signature``: all
    ``InvalidEvidence``, because the evidence then cannot be authenticated.
    """
    from ._read import read_file

    try:
        return read_file(path, MAX_SIGNATURE_BYTES, what="signature file")
    except InvalidEvidence as exc:
        codes = {"file-not-found": "missing-signature", "too-large": "bad-signature"}
        raise InvalidEvidence(codes.get(exc.code, "signature-unreadable"), exc.message) from None
