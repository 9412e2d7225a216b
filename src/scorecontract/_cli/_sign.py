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

__all__ = ["register"]

_DESCRIPTION = """\
Write a detached HMAC-SHA256 signature of the exact bytes of PATH to
PATH.sig (or --output FILE), never replacing an existing file:
{"algorithm": "hmac-sha256", "key_id": "<16 hex>", "signature": "<64 hex>"}.
The key comes from --key-file or --key-env, never from the command line.
Prints the signature file's path."""


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
        type=int,
        default=DEFAULT_MAX_BYTES,
        help="largest evidence signed, in bytes (default 1 MiB, as check reads)",
    )
    command.set_defaults(run=_run_sign)


def _run_sign(args: argparse.Namespace) -> int:
    from ._io import emit
    from ._provenance import key_from_args
    from .._read import read_bounded, read_evidence_file, standard_input
    from .._write import write_new_file
    from .._sign import sign

    key = key_from_args(args)
    if key is None:
        raise PolicyError("bad-key", "sign needs a key: --key-file K or --key-env VAR")
    if args.max_bytes < 1:
        raise PolicyError("bad-policy", "--max-bytes must be a positive number of bytes")
    output: str | None = args.output
    if output is None:
        if args.path == "-":
            raise PolicyError("bad-policy", "evidence on standard input needs --output FILE")
        output = args.path + ".sig"
    # The same bounded read as check, so what is signed is what the gate
    # can read.  An unreadable file is InvalidEvidence: exit 3.
    if args.path == "-":
        evidence = read_bounded(standard_input(), args.max_bytes)
    else:
        evidence = read_evidence_file(args.path, args.max_bytes)
    try:
        write_new_file(output, sign(evidence, key=key).encode("ascii"))
    except FileExistsError:
        raise PolicyError("bad-policy", f"signature file {ascii(output)} already exists; not overwritten") from None
    except OSError as exc:
        raise PolicyError("bad-policy", f"cannot write signature file {ascii(output)}: {exc.strerror or exc}") from None
    emit(output)
    return 0
