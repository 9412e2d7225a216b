# SPDX-License-Identifier: MIT
"""The policy: threshold, bounds, version and comparison mode.

A policy is configuration, so a bad one raises ``PolicyError`` (exit 2)
instead of quietly falling back to a default: a threshold of NaN would
otherwise make every comparison false, which is the very bug this library
exists to stop.
"""

from __future__ import annotations

import re

from ._describe import clip_text, describe_value, format_number
from ._errors import PolicyError
from ._score import number_problem, to_decimal

TYPE_CHECKING = False  # typing is not imported at run time
if TYPE_CHECKING:
    from decimal import Decimal
    from typing import Union

    Number = Union[int, float, Decimal]

__all__ = ["DEFAULT_THRESHOLD", "DEFAULT_VERSION", "MAX_VERSION_LENGTH", "Policy", "default_policy", "policy_for"]

DEFAULT_THRESHOLD = 0.8
DEFAULT_VERSION = "default"


def _check_number(name: str, value: object, exact: bool) -> None:
    """Refuse a policy number that breaks the score's own numeric contract."""
    problem = number_problem(value, exact)
    if problem is not None:
        raise PolicyError(f"bad-{name}", f"{name} is {problem[1]}")


# Versions are printed on one-line results, in receipts and in GitHub
# annotations: a newline there could forge an extra "::error" line, and a
# lone surrogate cannot be written as UTF-8 at all.
_VERSION_FORBIDDEN = "[\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]"
MAX_VERSION_LENGTH = 200


def _check_label(name: str, value: object, code: str) -> None:
    """Refuse a label (version, review owner) that cannot print on one line.

    Labels appear in one-line results and in GitHub annotations, where a
    newline would end the line and could forge another.
    """
    if type(value) is not str or not value.strip():
        raise PolicyError(code, f"{name} must be a non-empty string, not {describe_value(value)}")
    if len(value) > MAX_VERSION_LENGTH:
        raise PolicyError(
            code, f"{name} is {len(value)} characters long, over the limit of {MAX_VERSION_LENGTH}"
        )
    found = re.search(_VERSION_FORBIDDEN, value)
    if found is not None:
        raise PolicyError(
            code,
            f"{name} {clip_text(ascii(value))} holds {ascii(found.group())}: "
            "no control characters, line separators or lone surrogates",
        )


class Policy:
    """The rules a score is judged by.

    ``Policy(threshold=0.8, *, minimum=0, maximum=1, version="default",
    exact=False, review_owner=None, require_candidate=False)``

    *threshold* is the lowest passing score: ``score >= threshold`` is PASS.
    *minimum* and *maximum* are the closed bounds of a valid score.  Each is
    an ``int`` or ``float`` (a ``decimal.Decimal`` too when *exact*), finite,
    with ``minimum <= threshold <= maximum``.  ``bool`` is refused: ``True``
    is not a threshold.

    *version* names the policy in every decision record and receipt: a
    non-empty string of at most 200 characters, without control characters
    or line breaks (it is printed on one-line results).

    *exact* compares numbers as their decimal text instead of as binary
    floats: evidence is decoded to ``decimal.Decimal``, so
    ``0.79999999999999999999`` is below 0.8, whereas as a float it rounds
    to 0.8 and passes.  A float given here or to ``decide()`` counts as the
    decimal text of its ``repr``.

    *review_owner*, a non-empty string or None, names the person who
    answers for a report that lacks evidence: such a report is REVIEW
    instead of INVALID.  REVIEW never releases (SPEC section 6).

    *require_candidate*, true or false (default), makes the candidate a
    required part of every gate that applies the policy: ``evaluate()`` and
    ``report()`` without ``candidate=`` (``check`` and ``report`` without
    ``--candidate``) raise ``PolicyError`` (code ``candidate-required``)
    instead of judging evidence that is not bound to a candidate.

    A bad value raises ``PolicyError`` with the code ``bad-threshold``,
    ``bad-bounds``, ``bad-version`` or ``bad-policy``.  Policies are
    immutable and compare equal when all fields are equal.

        >>> Policy(0.9, version="release-2").as_dict()
        {'version': 'release-2', 'threshold': 0.9, 'min': 0, 'max': 1, 'exact': False}
        >>> Policy(float("nan"))
        Traceback (most recent call last):
          ...
        scorecontract._errors.PolicyError: bad-threshold: threshold is nan, not a finite number
    """

    __slots__ = (
        "_threshold", "_minimum", "_maximum", "_version", "_exact", "_bounds", "_review_owner",
        "_require_candidate",
    )

    if TYPE_CHECKING:
        _threshold: Number
        _minimum: Number
        _maximum: Number
        _version: str
        _exact: bool
        _bounds: tuple[Number, Number, Number]
        _review_owner: str | None
        _require_candidate: bool

    def __init__(
        self,
        threshold: Number = DEFAULT_THRESHOLD,
        *,
        minimum: Number = 0,
        maximum: Number = 1,
        version: str = DEFAULT_VERSION,
        exact: bool = False,
        review_owner: str | None = None,
        require_candidate: bool = False,
    ) -> None:
        if type(exact) is not bool:
            raise PolicyError("bad-policy", f"exact must be true or false, not {describe_value(exact)}")
        if type(require_candidate) is not bool:
            raise PolicyError(
                "bad-policy", f"require_candidate must be true or false, not {describe_value(require_candidate)}"
            )
        _check_label("version", version, "bad-version")
        if review_owner is not None:
            _check_label("review_owner", review_owner, "bad-policy")
        _check_number("bounds", minimum, exact)
        _check_number("bounds", maximum, exact)
        _check_number("threshold", threshold, exact)
        bounds: tuple[Number, Number, Number]
        if exact:
            bounds = (to_decimal(minimum), to_decimal(maximum), to_decimal(threshold))
        else:
            bounds = (minimum, maximum, threshold)
        low, high, limit = bounds
        if not low <= high:
            raise PolicyError(
                "bad-bounds", f"bounds are inverted: min {format_number(minimum)} > max {format_number(maximum)}"
            )
        if not low <= limit <= high:
            raise PolicyError(
                "bad-threshold",
                f"threshold {format_number(threshold)} is outside the bounds "
                f"[{format_number(minimum)}, {format_number(maximum)}]",
            )
        self._threshold = threshold
        self._minimum = minimum
        self._maximum = maximum
        self._version = version
        self._exact = exact
        self._bounds = bounds
        self._review_owner = review_owner
        self._require_candidate = require_candidate

    @property
    def threshold(self) -> Number:
        """The lowest passing score, as given."""
        return self._threshold

    @property
    def minimum(self) -> Number:
        """The lowest valid score, as given."""
        return self._minimum

    @property
    def maximum(self) -> Number:
        """The highest valid score, as given."""
        return self._maximum

    @property
    def version(self) -> str:
        """The policy's version string."""
        return self._version

    @property
    def exact(self) -> bool:
        """Whether numbers are compared as decimal text."""
        return self._exact

    @property
    def review_owner(self) -> str | None:
        """Who reviews a report that lacks evidence, or None."""
        return self._review_owner

    @property
    def require_candidate(self) -> bool:
        """Whether every gate applying the policy must be given the candidate."""
        return self._require_candidate

    def as_dict(self) -> dict[str, object]:
        """Return the policy as the JSON object a policy file holds.

        The keys are those of a policy file (``version``, ``threshold``,
        ``min``, ``max``, ``exact``, ``review_owner`` when one is named,
        and ``require_candidate`` when it is true), so decision records and receipts name the version, and
        ``load_policy`` reads the dict back as an equal policy.  Numbers are
        returned as given: an exact policy may hold ``decimal.Decimal``
        values, which ``json.dumps`` cannot write.
        """
        result: dict[str, object] = {
            "version": self._version,
            "threshold": self._threshold,
            "min": self._minimum,
            "max": self._maximum,
            "exact": self._exact,
        }
        if self._review_owner is not None:
            result["review_owner"] = self._review_owner
        if self._require_candidate:
            result["require_candidate"] = True
        return result

    def _key(self) -> tuple[object, ...]:
        return (
            type(self._threshold), self._bounds, self._version, self._exact, self._review_owner,
            self._require_candidate,
        )

    def __eq__(self, other: object) -> bool:
        if type(other) is not Policy:
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return (
            f"Policy(threshold={self._threshold!r}, minimum={self._minimum!r}, "
            f"maximum={self._maximum!r}, version={self._version!r}, exact={self._exact!r}, "
            f"review_owner={self._review_owner!r}, require_candidate={self._require_candidate!r})"
        )


_default: list[Policy] = []


def default_policy() -> Policy:
    """Return the default policy (threshold 0.8, bounds [0, 1])."""
    # Built on first use rather than at import: nothing happens at import.
    if not _default:
        _default.append(Policy())
    return _default[0]


def policy_for(threshold: object, policy: Policy | None) -> Policy:
    """Resolve the ``threshold=`` / ``policy=`` pair of the public API."""
    if policy is not None:
        if type(policy) is not Policy:
            raise PolicyError("bad-policy", f"policy must be a Policy, not {type(policy).__name__}")
        if threshold is not None:
            raise PolicyError(
                "bad-policy", "give threshold= or policy=, not both"
            )
        return policy
    if threshold is None or (type(threshold) is float and threshold == DEFAULT_THRESHOLD):
        return _default[0] if _default else default_policy()
    return Policy(threshold)  # type: ignore[arg-type]  # validated inside
