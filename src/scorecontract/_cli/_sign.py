# SPDX-License-Identifier: MIT
"""``scorecontract sign``: the producer's side of authentication.

The evaluation job signs the evidence it wrote; the release gate checks the
signature with ``check --key-file K --signature FILE``.  Signing does not
judge the evidence (the gate does), and never replaces a signature file.
"""

from __future__ import annotations

from .._constants import DEFAULT_MAX_BYTES
from .._errors import PolicyError

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from typing import Any

__all__ = ["SignOptions", "register", "sign_options"]

_DESCRIPTION = """\
Write a detached HMAC-SHA256 signature of the exact bytes of PATH to
PATH.sig (or --output FILE), never replacing an existing file: one JSON
object, {"algorithm": "hmac-sha256", "key_id": "<16 hex>", "kind":
"signature", "receipt_version": 2, "scorecontract_version": "...",
"signature": "<64 hex>"}.  The key comes from --key-file or --key-env,
never from the command line.  Prints the signature file's path."""


def register(commands: Any, epilog: str) -> None:
    """Add the ``sign`` sub-command to the parser's *commands*."""
    import argparse

    from ._provenance import add_key_arguments

    command = commands.add_parser(
        "sign",
        help="sign evidence with an HMAC key (producer side)",
        description=_DESCRIPTION,
        epilog=epilog,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    command.add_argument("path", metavar="PATH", help="evidence file, or - for standard input (needs --output)")
    add_key_arguments(command)
    command.add_argument("--output", metavar="FILE", help="signature file to write (default PATH.sig)")
    command.add_argument(
        "--max-bytes",
        metavar="N",
        default=str(DEFAULT_MAX_BYTES),
        help="largest evidence signed, in bytes, or with a binary unit: 512K, 64M, 1G (default 1M, as check reads)",
    )
    command.set_defaults(run=_run_sign)


class SignOptions:
    """What one ``sign`` run was asked to do, as typed values.

    ``path`` (``-`` for standard input), ``key`` (as ``load_key`` reads
    it), ``output`` (the signature file to write) and ``max_bytes``.
    """

    __slots__ = ("path", "key", "output", "max_bytes")

    path: str
    key: bytes
    output: str
    max_bytes: int

    def __init__(self, *, path: str, key: bytes, output: str, max_bytes: int) -> None:
        self.path = path
        self.key = key
        self.output = output
        self.max_bytes = max_bytes

    def __repr__(self) -> str:
        # Never the key.
        return f"SignOptions(path={self.path!r}, output={self.output!r}, max_bytes={self.max_bytes})"


def sign_options(args: argparse.Namespace) -> SignOptions:
    """Turn ``sign``'s parsed arguments into ``SignOptions``, once.

    Refused (exit 2): no key (``bad-key``) or an unusable one, a bad
    ``--max-bytes`` (``bad-option``), standard input without ``--output``
    (``missing-option``), and a signature file that exists already
    (``output-exists``), before the evidence is read.
    """
    import os

    from ._files import exists
    from ._options import byte_count, needs
    from ._provenance import key_option

    key = key_option(args.key_file, args.key_env)
    if key is None:
        raise PolicyError("bad-key", "sign needs a key: --key-file K or --key-env VAR")
    max_bytes = byte_count("--max-bytes", args.max_bytes)
    output: str | None = args.output
    if output is None:
        if args.path == "-":
            raise needs("evidence on standard input", "--output FILE", "there is no PATH.sig")
        output = args.path + ".sig"
    if os.path.lexists(output):
        raise exists("signature file", output)
    return SignOptions(path=args.path, key=key, output=output, max_bytes=max_bytes)


def _run_sign(args: argparse.Namespace) -> int:
    return run_sign(sign_options(args))


def run_sign(options: SignOptions) -> int:
    """Sign the evidence, write the signature file, print its path."""
    from .._sign import sign
    from ._deliver import read_evidence
    from ._files import write_output
    from ._io import emit

    # The same bounded read as check, so what is signed is what the gate
    # can read.  An unreadable file is InvalidEvidence: exit 3.
    evidence = read_evidence(options.path, options.max_bytes)
    write_output("signature file", options.output, sign(evidence, key=options.key).encode("ascii"))
    emit(options.output)
    return 0
