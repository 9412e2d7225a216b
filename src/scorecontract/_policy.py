# SPDX-License-Identifier: MIT
"""The policy: threshold, bounds, version and comparison mode.

A policy is configuration, so a bad one raises ``PolicyError`` (exit 2)
instead of quietly falling back to a default: a threshold of NaN would
otherwise make every comparison false, which is the very bug this library
exists to stop.
"""

from __future__ import annotations

import enum
import math
import re

from ._describe import clip_text, describe_value, format_number
from ._errors import PolicyError
from ._score import checked_number, to_decimal
from ._value import Value

TYPE_CHECKING = False  # typing is not imported at run time
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

    from ._score import Number

__all__ = [
    "DEFAULT_THRESHOLD",
    "DIRECTIONS",
    "NONFINITE_ELSEWHERE",
    "DEFAULT_VERSION",
    "MAX_VERSION_LENGTH",
    "UNSET",
    "Policy",
    "bounds_text",
    "check_limit",
    "default_cache",
    "default_policy",
    "policy_for",
    "policy_from_fields",
]

DEFAULT_THRESHOLD = 0.8
DEFAULT_VERSION = "default"
# "higher": score >= threshold passes (accuracy); "lower": score <=
# threshold passes (perplexity, mean absolute error).
DIRECTIONS = ("higher", "lower")
# What a non-finite number outside the selected value does (docs/selection.md).
NONFINITE_ELSEWHERE = ("refuse", "list")


class _Unset(enum.Enum):
    """The default of an option the caller left out.

    ``threshold=`` beside ``policy=`` is refused, and ``threshold=None`` is
    refused where it would otherwise read as 0.8: a marker, not a number,
    tells "left out" from any value a caller can pass.
    """

    UNSET = "UNSET"

    def __repr__(self) -> str:
        return "<default>"


if TYPE_CHECKING:
    # To a type checker the marker is whatever the parameter is typed as:
    # a signature then says threshold: int | float | Decimal, not a union
    # with a private class.
    UNSET: Any
else:
    UNSET = _Unset.UNSET


def _check_number(name: str, value: object, exact: bool) -> Number:
    """Return *value*, refusing a policy number that breaks the score's own numeric contract."""
    checked = checked_number(value, exact)
    if isinstance(checked, tuple):
        raise PolicyError(f"bad-{name}", f"{name} is {checked[1]}")
    return checked


def _bound(value: Number | None, exact: bool, side: float) -> Number:
    """The bound *value* as scores meet it; None (unbounded) is *side*.

    An infinite limit is safe here, and only here: every score is checked
    finite before it meets the bounds, so an unbounded side admits every
    finite number and never NaN or infinity.
    """
    if value is None:
        if exact:
            from decimal import Decimal

            return Decimal(side)
        return side
    return to_decimal(value) if exact else value


def _check_choice(name: str, value: object, choices: tuple[str, ...]) -> None:
    if type(value) is not str or value not in choices:
        raise PolicyError(
            "bad-policy",
            f"{name} must be {' or '.join(repr(choice) for choice in choices)}, not {describe_value(value)}",
        )


def _check_requirements(require: object) -> tuple[str, ...]:
    """Return *require*, a list or tuple of RFC 9535 logical expressions, as a tuple.

    Each is compiled now, so a malformed one is a configuration error
    (``bad-selector``) before any evidence is read.
    """
    if type(require) is not list and type(require) is not tuple:
        raise PolicyError("bad-policy", f"require must be a list of strings, not {describe_value(require)}")
    from ._jsonpath import compile_requirement

    checked: list[str] = []
    for expression in require:
        if type(expression) is not str:
            raise PolicyError("bad-policy", f"require must be a list of strings; it holds {describe_value(expression)}")
        compile_requirement(expression)
        checked.append(expression)
    return tuple(checked)


def bounds_text(policy: Policy) -> str:
    """The policy's bounds for a message: ``[0, 1]``, ``[0, no maximum]``."""
    low = "no minimum" if policy.minimum is None else format_number(policy.minimum)
    high = "no maximum" if policy.maximum is None else format_number(policy.maximum)
    return f"[{low}, {high}]"


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
        raise PolicyError(code, f"{name} is {len(value)} characters long, over the limit of {MAX_VERSION_LENGTH}")
    found = re.search(_VERSION_FORBIDDEN, value)
    if found is not None:
        raise PolicyError(
            code,
            f"{name} {clip_text(ascii(value))} holds {ascii(found.group())}: "
            "no control characters, line separators or lone surrogates",
        )


class Policy(Value):
    """The rules a score is judged by.

    ``Policy(threshold=0.8, *, minimum=0, maximum=1, version="default",
    exact=False, review_owner=None, require_candidate=False,
    direction="higher", nonfinite_elsewhere=None, require=(),
    confidence=None, bound=None)``

    *threshold* is the lowest passing score: ``score >= threshold`` is PASS.
    With *direction* ``"lower"`` (perplexity, mean absolute error) it is the
    highest passing score instead: ``score <= threshold`` is PASS.
    *minimum* and *maximum* are the closed bounds of a valid score.  Each is
    an ``int`` or ``float`` (a ``decimal.Decimal`` too when *exact*), finite,
    with ``minimum <= threshold <= maximum``; either may be None, unbounded
    on that side (a score must still be finite).  ``bool`` is refused:
    ``True`` is not a threshold.

    *nonfinite_elsewhere* and *require* apply to selected values
    (docs/selection.md): ``"refuse"`` makes a NaN or infinity anywhere in
    the document INVALID, ``"list"`` lets one outside the selected value
    stand and lists it; None (left out) is ``"refuse"`` too, except under a
    harness adapter (docs/harnesses.md), which lists them unless the policy
    states ``"refuse"`` itself.  ``nonfinite_stated`` records whether it
    was stated.  *require* is a list of RFC 9535 logical expressions on the
    whole document, each of which must hold.

    *confidence* (a number strictly between 0.5 and 1, e.g. 0.95) and
    *bound* (``"empirical-bernstein"`` or ``"hoeffding"``, which need finite
    bounds, or ``"asymptotic-t"``; None is the finite-sample
    ``"empirical-bernstein"`` for bounded scores, else ``"asymptotic-t"``) are for ``report()``: its metrics then decide on a
    one-sided confidence bound (docs/reports.md).  A bound needs a
    confidence.  ``evaluate()``, ``decide()`` and ``judge()`` judge one
    score, which has no confidence bound: they refuse such a policy
    (``bad-policy``) rather than ignore what it states.

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
    instead of INVALID.  REVIEW never releases (docs/reports.md).

    *require_candidate*, true or false (default), makes the candidate a
    required part of every gate that applies the policy: ``evaluate()`` and
    ``report()`` without ``candidate=`` (``check`` and ``report`` without
    ``--candidate``) raise ``PolicyError`` (code ``candidate-required``)
    instead of judging evidence that is not bound to a candidate.

    A bad value raises ``PolicyError`` with the code ``bad-threshold``,
    ``bad-bounds``, ``bad-version`` or ``bad-policy``.  Policies are
    immutable, and equal when every field is equal and of the same type;
    ``replace()`` returns a changed copy, validated as the constructor
    validates.  Besides the fields, ``limits`` is ``(minimum, maximum,
    threshold)`` as scores are compared with them: the numbers as given,
    or under an exact policy their ``decimal.Decimal`` values.

        >>> Policy(0.9, version="release-2").as_dict()
        {'version': 'release-2', 'threshold': 0.9, 'min': 0, 'max': 1, 'exact': False}
        >>> Policy(float("nan"))
        Traceback (most recent call last):
          ...
        scorecontract._errors.PolicyError: bad-threshold: threshold is nan, not a finite number
    """

    # Public slots, not properties: the score pipeline reads exact, limits
    # and require_candidate on every evaluate(), and a slot read costs a
    # fifth of a property's.  Value makes them read-only.
    __slots__ = (
        "threshold",
        "minimum",
        "maximum",
        "version",
        "exact",
        "review_owner",
        "require_candidate",
        "direction",
        "nonfinite_elsewhere",
        "nonfinite_stated",
        "require",
        "confidence",
        "bound",
        "limits",
        "full_path",
    )
    _shown = (
        "threshold",
        "minimum",
        "maximum",
        "version",
        "exact",
        "review_owner",
        "require_candidate",
        "direction",
        "nonfinite_elsewhere",
        "require",
        "confidence",
        "bound",
    )

    threshold: Number
    """The lowest passing score, as given."""
    minimum: Number | None
    """The lowest valid score, as given; None for no minimum."""
    maximum: Number | None
    """The highest valid score, as given; None for no maximum."""
    version: str
    """The policy's version string."""
    exact: bool
    """Whether numbers are compared as decimal text."""
    review_owner: str | None
    """Who reviews a report that lacks evidence, or None."""
    require_candidate: bool
    """Whether every gate applying the policy must be given the candidate."""
    direction: str
    """``"higher"`` (``score >= threshold`` passes) or ``"lower"`` (``<=``)."""
    nonfinite_elsewhere: str
    """``"refuse"`` or ``"list"``: a non-finite number outside the selection."""
    nonfinite_stated: bool
    """Whether *nonfinite_elsewhere* was stated (else it is the default ``"refuse"``)."""
    require: tuple[str, ...]
    """The requirements, RFC 9535 logical expressions on the document."""
    confidence: Number | None
    """The confidence a report's metrics decide at, or None (point estimates)."""
    bound: str | None
    """A report's bound on the mean, a name in ``_bounds.REGISTRY`` (``"empirical-bernstein"``,
    ``"hoeffding"``, ``"asymptotic-t"``), or None (unstated: finite-sample for bounded scores)."""
    limits: tuple[Number, Number, Number]
    """``(minimum, maximum, threshold)`` as scores are compared with them
    (an unbounded side as an infinity)."""
    full_path: bool
    """Whether ``evaluate()`` must skip its fast path (exact, lower, requirements)."""

    def __init__(
        self,
        threshold: Number = DEFAULT_THRESHOLD,
        *,
        minimum: Number | None = 0,
        maximum: Number | None = 1,
        version: str = DEFAULT_VERSION,
        exact: bool = False,
        review_owner: str | None = None,
        require_candidate: bool = False,
        direction: str = "higher",
        nonfinite_elsewhere: str | None = None,
        require: tuple[str, ...] | list[str] = (),
        confidence: Number | None = None,
        bound: str | None = None,
    ) -> None:
        self._check_and_fill(
            threshold,
            minimum=minimum,
            maximum=maximum,
            version=version,
            exact=exact,
            review_owner=review_owner,
            require_candidate=require_candidate,
            direction=direction,
            nonfinite_elsewhere=nonfinite_elsewhere,
            require=require,
            confidence=confidence,
            bound=bound,
        )

    def _check_and_fill(
        self,
        threshold: object = DEFAULT_THRESHOLD,
        *,
        minimum: object = 0,
        maximum: object = 1,
        version: object = DEFAULT_VERSION,
        exact: object = False,
        review_owner: object = None,
        require_candidate: object = False,
        direction: object = "higher",
        nonfinite_elsewhere: object = None,
        require: object = (),
        confidence: object = None,
        bound: object = None,
    ) -> None:
        # The constructor's own checks, on values of any type: the typed
        # signature is __init__'s, and values read from a file or a command
        # line (policy_from_fields) come here as what they are.
        if type(exact) is not bool:
            raise PolicyError("bad-policy", f"exact must be true or false, not {describe_value(exact)}")
        if type(require_candidate) is not bool:
            raise PolicyError(
                "bad-policy", f"require_candidate must be true or false, not {describe_value(require_candidate)}"
            )
        _check_label("version", version, "bad-version")
        if review_owner is not None:
            _check_label("review_owner", review_owner, "bad-policy")
        _check_choice("direction", direction, DIRECTIONS)
        # Left out is "refuse", but remembered as left out: an adapter may
        # list what an unstated policy would refuse, never what a stated
        # "refuse" refuses (a stricter setting is not silently relaxed).
        nonfinite_stated = nonfinite_elsewhere is not None
        if nonfinite_stated:
            _check_choice("nonfinite_elsewhere", nonfinite_elsewhere, NONFINITE_ELSEWHERE)
        requirements = _check_requirements(require) if require != () else ()
        low = None if minimum is None else _check_number("bounds", minimum, exact)
        high = None if maximum is None else _check_number("bounds", maximum, exact)
        checked = _check_number("threshold", threshold, exact)
        limits: tuple[Number, Number, Number] = (
            _bound(low, exact, -math.inf),
            _bound(high, exact, math.inf),
            to_decimal(checked) if exact else checked,
        )
        lowest, highest, limit = limits
        if not lowest <= highest:
            raise PolicyError(
                "bad-bounds", f"bounds are inverted: min {format_number(minimum)} > max {format_number(maximum)}"
            )
        if not lowest <= limit <= highest:
            raise PolicyError(
                "bad-threshold",
                f"threshold {format_number(threshold)} is outside the bounds "
                f"[{'no minimum' if minimum is None else format_number(minimum)}, "
                f"{'no maximum' if maximum is None else format_number(maximum)}]",
            )
        if confidence is not None or bound is not None:
            from ._bound_rules import check_bound

            # The rules report(confidence=, bound=) applies, in one place.
            from ._bounds import default_bound

            check_bound(confidence, default_bound(low, high) if bound is None else bound, low, high)
            if confidence is None:
                # Even the default: a stated bound without a confidence decides nothing.
                raise PolicyError("bad-policy", f"bound {bound!r} needs a confidence")
        self._fill(
            threshold=threshold,
            minimum=minimum,
            maximum=maximum,
            version=version,
            exact=exact,
            review_owner=review_owner,
            require_candidate=require_candidate,
            direction=direction,
            nonfinite_elsewhere=nonfinite_elsewhere if nonfinite_stated else "refuse",
            nonfinite_stated=nonfinite_stated,
            require=requirements,
            confidence=confidence,
            bound=bound,
            limits=limits,
            # One flag for evaluate()'s fast path, read as cheaply as exact
            # was: the path knows only float comparison, ">=", and no
            # requirements.
            full_path=exact or direction != "higher" or bool(requirements),
        )

    def replace(
        self,
        *,
        threshold: Number = UNSET,
        minimum: Number | None = UNSET,
        maximum: Number | None = UNSET,
        version: str = UNSET,
        exact: bool = UNSET,
        review_owner: str | None = UNSET,
        require_candidate: bool = UNSET,
        direction: str = UNSET,
        nonfinite_elsewhere: str | None = UNSET,
        require: tuple[str, ...] | list[str] = UNSET,
        confidence: Number | None = UNSET,
        bound: str | None = UNSET,
    ) -> Policy:
        """Return a copy of the policy with the given fields changed.

        Every field not named keeps its value; the copy is validated as the
        constructor validates, so a change that leaves the threshold
        outside the bounds raises ``PolicyError``.

            >>> Policy(0.9, version="v1").replace(version="v2").as_dict()
            {'version': 'v2', 'threshold': 0.9, 'min': 0, 'max': 1, 'exact': False}
        """
        return Policy(
            self.threshold if threshold is UNSET else threshold,
            minimum=self.minimum if minimum is UNSET else minimum,
            maximum=self.maximum if maximum is UNSET else maximum,
            version=self.version if version is UNSET else version,
            exact=self.exact if exact is UNSET else exact,
            review_owner=self.review_owner if review_owner is UNSET else review_owner,
            require_candidate=self.require_candidate if require_candidate is UNSET else require_candidate,
            direction=self.direction if direction is UNSET else direction,
            nonfinite_elsewhere=(
                (self.nonfinite_elsewhere if self.nonfinite_stated else None)
                if nonfinite_elsewhere is UNSET
                else nonfinite_elsewhere
            ),
            require=self.require if require is UNSET else require,
            confidence=self.confidence if confidence is UNSET else confidence,
            bound=self.bound if bound is UNSET else bound,
        )

    def as_dict(self) -> dict[str, object]:
        """Return the policy as the JSON object a policy file holds.

        The keys are those of a policy file (``version``, ``threshold``,
        ``min``, ``max`` (None when unbounded), ``exact``, ``review_owner``
        when one is named, ``require_candidate`` when it is true,
        ``direction`` when it is ``"lower"``, ``nonfinite_elsewhere`` when
        it was stated, ``require`` when there are requirements, and
        ``confidence`` and ``bound`` when stated), so decision records and
        receipts name the version, and ``load_policy`` reads the dict back
        as an equal policy.  Numbers are returned as given: an exact policy
        may hold ``decimal.Decimal`` values, which ``json.dumps`` cannot
        write.
        """
        result: dict[str, object] = {
            "version": self.version,
            "threshold": self.threshold,
            "min": self.minimum,
            "max": self.maximum,
            "exact": self.exact,
        }
        if self.review_owner is not None:
            result["review_owner"] = self.review_owner
        if self.require_candidate:
            result["require_candidate"] = True
        if self.direction != "higher":
            result["direction"] = self.direction
        if self.nonfinite_stated:
            result["nonfinite_elsewhere"] = self.nonfinite_elsewhere
        if self.require:
            result["require"] = list(self.require)
        if self.confidence is not None:
            result["confidence"] = self.confidence
        if self.bound is not None:
            result["bound"] = self.bound
        return result


def policy_from_fields(fields: Mapping[str, object], /) -> Policy:
    """Return the ``Policy`` of *fields*, ``Policy`` keywords and their values.

    For values read from a policy file or a command line, whose types are
    not known: each is checked exactly as ``Policy()`` checks it, with the
    same codes and messages.  A key that is not a ``Policy`` keyword raises
    ``TypeError``, as an unknown keyword does.
    """
    policy = Policy.__new__(Policy)
    policy._check_and_fill(**fields)
    return policy


# The default policy, built on first use rather than at import (nothing
# happens at import).  A list, so evaluate() can take it with one index
# instead of a call on its hot path.
default_cache: list[Policy] = []


def default_policy() -> Policy:
    """Return the default policy (threshold 0.8, bounds [0, 1])."""
    if not default_cache:
        default_cache.append(Policy())
    return default_cache[0]


def policy_for(threshold: Number | None, policy: Policy | None, *, bounded: bool = False) -> Policy:
    """Resolve the ``threshold=`` / ``policy=`` pair of the public API.

    *threshold* left out (``UNSET``) is the default policy's 0.8;
    ``None`` is refused, since in ``evaluate``, ``decide`` and ``report``
    it would otherwise read as "no threshold" to some callers and as 0.8
    to others.  (``judge`` alone gives ``None`` a meaning, and resolves it
    before calling this.)

    A policy stating a confidence is refused unless *bounded* (the caller,
    ``report()``, decides on confidence bounds): one score has none, and a
    gate must not ignore what its policy states.
    """
    if policy is not None:
        if type(policy) is not Policy:
            raise PolicyError("bad-policy", f"policy must be a Policy, not {type(policy).__name__}")
        if threshold is not UNSET:
            raise PolicyError("bad-policy", "give threshold= or policy=, not both")
        if policy.confidence is not None and not bounded:
            raise PolicyError(
                "bad-policy",
                f"the policy states confidence {format_number(policy.confidence)}, which only a report "
                "applies: one score has no confidence bound (use report, or a policy without it)",
            )
        return policy
    if threshold is UNSET or (type(threshold) is float and threshold == DEFAULT_THRESHOLD):
        return default_cache[0] if default_cache else default_policy()
    if threshold is None:
        raise PolicyError(
            "bad-threshold",
            "threshold is None, not a number; leave threshold= out for the default 0.8",
        )
    return Policy(threshold)


def check_limit(name: str, value: object) -> int:
    """Return *value*, a byte limit or count option, if it is a positive int.

    Raises ``PolicyError`` (``bad-policy``) otherwise: ``True`` is not a
    limit, and neither is ``0``, which would refuse every input.
    """
    if type(value) is int and value >= 1:
        return value
    raise PolicyError("bad-policy", f"{name} must be a positive int, not {describe_value(value)}")
