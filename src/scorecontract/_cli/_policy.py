# SPDX-License-Identifier: MIT
"""The policy options every sub-command shares: --threshold, --policy, --exact.

``--policy FILE`` stands alone: beside it, ``--threshold`` or ``--exact`` is
a usage error (exit 2) rather than an override, because the file's version
would then name a policy that was not the one applied, in every result and
receipt.  Change the file (and its version) instead.
"""

from __future__ import annotations

from .._errors import InvalidEvidence, PolicyError
from .._policy import Policy, default_policy, policy_from_fields
from ._options import conflict

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from collections.abc import Sequence
    from decimal import Decimal

__all__ = ["add_policy_arguments", "bound_option", "number_option", "policy_option"]


def add_policy_arguments(parser: argparse.ArgumentParser) -> None:
    """Register ``--threshold T``, ``--policy FILE`` and ``--exact`` on *parser*.

    ``policy_option`` turns the parsed options into a ``Policy``.
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
        help="compare numbers as their decimal text, not as binary floats (0.79999999999999999999 is then below 0.8)",
    )


def policy_option(
    threshold: str | None,
    path: str | None,
    exact: bool,
    /,
    changes: Sequence[tuple[str, str, object]] = (),
) -> Policy:
    """Return the ``Policy`` that ``--threshold``, ``--policy`` and ``--exact`` name.

    *threshold* and *path* are the options' text as given, or None.
    *changes* are further policy options already read, as (option,
    ``Policy`` keyword, value): ``("--direction", "direction", "lower")``.
    Raises ``PolicyError`` (exit 2) for a bad threshold (``bad-threshold``),
    a bad policy file (its own codes), or ``--policy`` combined with
    ``--threshold``, ``--exact`` or any of *changes* (``option-conflict``).
    """
    if path is not None:
        given = ["--threshold"] if threshold is not None else []
        given += ["--exact"] if exact else []
        given += [option for option, _, _ in changes]
        if given:
            raise conflict(
                "--policy",
                given[0],
                "the file's version would name a policy that was not applied; change the file instead",
            )
        from .._policy_file import load_policy

        return load_policy(path)
    if threshold is None and not changes:
        return Policy(exact=True) if exact else default_policy()
    fields: dict[str, object] = {keyword: value for _, keyword, value in changes}
    fields["exact"] = exact
    try:
        if threshold is not None:
            fields["threshold"] = number_option("--threshold", threshold, exact)
        return policy_from_fields(fields)
    except PolicyError as exc:
        if exc.code == "bad-threshold" and threshold is not None:
            raise PolicyError(exc.code, f"--threshold {ascii(threshold)}: {exc.message}") from None
        raise


def bound_option(option: str, text: str, exact: bool) -> int | float | Decimal | None:
    """Read ``--min`` or ``--max``: a JSON number, or ``none`` for no bound.

    Raises ``PolicyError`` (``bad-bounds``) for anything else.
    """
    if text == "none":
        return None
    try:
        return number_option(option, text, exact)
    except PolicyError as exc:
        raise PolicyError("bad-bounds", exc.message + " (nor none, for no bound)") from None


def number_option(option: str, text: str, exact: bool) -> int | float | Decimal:
    """Read *option*'s *text* as one strict JSON number (a Decimal if *exact*).

    The one reader of a number given on the command line (``--threshold``,
    ``--min-pass-rate``): the evidence's own loader, so ``nan``, ``1e400``
    and ``0x1`` are refused as they would be in a score.  Raises
    ``PolicyError`` (``bad-threshold``).
    """
    from .._strict_json import parse_json

    try:
        value = parse_json(text, exact=exact)
    except InvalidEvidence as exc:
        raise PolicyError("bad-threshold", f"{option} {ascii(text)} is not a JSON number ({exc.code})") from None
    # bool is an int subclass: exact type, so true is not 1.
    if type(value) is int or type(value) is float:
        return value
    if exact:
        # Loaded already: the exact parse made the Decimal.
        from decimal import Decimal

        if type(value) is Decimal:
            return value
    # true, "0.8", null, [0.8]: valid JSON, not a number.  Policy would
    # refuse them too; saying so here names the option.
    raise PolicyError("bad-threshold", f"{option} {ascii(text)} is not a JSON number")
