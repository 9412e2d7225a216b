# SPDX-License-Identifier: MIT
"""The policy options every sub-command shares: --threshold, --policy, --exact.

``--policy FILE`` stands alone: beside it, ``--threshold`` or ``--exact`` is
a usage error (exit 2) rather than an override, because the file's version
would then name a policy that was not the one applied, in every result and
receipt.  Change the file (and its version) instead.
"""

from __future__ import annotations

from .._errors import InvalidEvidence, PolicyError
from .._policy import Policy, default_policy

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse

__all__ = ["add_policy_arguments", "policy_from_args"]


def add_policy_arguments(parser: argparse.ArgumentParser) -> None:
    """Register ``--threshold T``, ``--policy FILE`` and ``--exact`` on *parser*.

    ``policy_from_args`` turns the parsed options into a ``Policy``.
    """
    group = parser.add_argument_group("policy")
    group.add_argument(
        "--threshold",
        metavar="T",
        help="lowest passing score, a JSON number within the bounds (default 0.8)",
    )
    group.add_argument(
        "--policy",
        metavar="FILE",
        help="read the policy from FILE: JSON, or TOML if FILE ends in .toml "
        "(Python 3.11+); not combined with --threshold or --exact",
    )
    group.add_argument(
        "--exact",
        action="store_true",
        help="compare numbers as their decimal text, not as binary floats "
        "(0.79999999999999999999 is then below 0.8)",
    )


def policy_from_args(args: argparse.Namespace) -> Policy:
    """Return the ``Policy`` that ``--threshold``, ``--policy`` and ``--exact`` name.

    Raises ``PolicyError`` (exit 2) for a bad threshold, a bad policy file,
    or ``--policy`` combined with ``--threshold`` or ``--exact``.
    """
    threshold: str | None = args.threshold
    path: str | None = args.policy
    exact: bool = args.exact
    if path is not None:
        if threshold is not None or exact:
            given = "--threshold" if threshold is not None else "--exact"
            raise PolicyError(
                "bad-policy",
                f"--policy cannot be combined with {given}: the file's version would name "
                "a policy that was not applied; change the file instead",
            )
        from .._policy_file import load_policy

        return load_policy(path)
    if threshold is None:
        return Policy(exact=True) if exact else default_policy()
    value = _parse_threshold(threshold, exact)
    try:
        return Policy(value, exact=exact)  # type: ignore[arg-type]  # Policy validates
    except PolicyError as exc:
        raise PolicyError(exc.code, f"--threshold {ascii(threshold)}: {exc.message}") from None


def _parse_threshold(text: str, exact: bool) -> object:
    """Read ``--threshold`` as one strict JSON number (a Decimal if *exact*)."""
    from .._strict_json import parse_json

    try:
        value = parse_json(text, exact=exact)
    except InvalidEvidence as exc:
        raise PolicyError(
            "bad-threshold", f"--threshold {ascii(text)} is not a JSON number ({exc.code})"
        ) from None
    kind = type(value)
    if kind is not int and kind is not float and kind.__name__ != "Decimal":
        # true, "0.8", null, [0.8]: valid JSON, not a number.  Policy would
        # refuse them too; saying so here names the option.
        raise PolicyError(
            "bad-threshold", f"--threshold {ascii(text)} is not a JSON number"
        )
    return value
