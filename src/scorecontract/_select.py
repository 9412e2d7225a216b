# SPDX-License-Identifier: MIT
"""The selection stage: one value out of a whole JSON document (docs/selection.md).

Between the strict parse and the numeric contract, when a query is given:

1. the policy's requirements must hold on the whole document
   (``requirement-failed``);
2. the query must select exactly one node (``no-match``,
   ``ambiguous-selection``);
3. a non-finite number at or inside that node is INVALID; one elsewhere is
   refused or listed, as the policy's ``nonfinite_elsewhere`` says;
4. the caller then applies the numeric contract to the node's value, with
   ``value_problem`` naming the node's normalized path.

A filter or requirement that reads NaN or an infinity raises
``NonFiniteRead`` (code ``non-finite``) inside the query engine: such a
comparison has no answer, and is never just false.
"""

from __future__ import annotations

from ._decide import score_problem
from ._errors import InvalidEvidence, PolicyError
from ._value import Value

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from ._jsonpath import Query
    from ._policy import Policy
    from ._source import Source

    # (normalized path, reason code) of one non-finite number in the text.
    Record = tuple[str, str]

__all__ = [
    "MAX_LISTED_PATHS",
    "Selection",
    "check_requirements",
    "inside",
    "select_one",
    "selection_message",
    "split_records",
    "value_problem",
]

# A Decision names at most this many non-finite paths; the count is exact.
MAX_LISTED_PATHS = 100


class Selection(Value):
    """Where a selected value came from, kept on the decision.

    - ``query``: the query as given;
    - ``path``: the RFC 9535 normalized path it resolved to, or None when
      it did not resolve to exactly one node;
    - ``nonfinite_count``: how many non-finite numbers stood elsewhere in
      the document and were listed (``nonfinite_elsewhere = "list"``);
    - ``nonfinite_paths``: the normalized paths of the first
      ``MAX_LISTED_PATHS`` of them, in document order;
    - ``source``: the ``Source`` whose adapter chose the query
      (``evaluate(source=...)``, docs/harnesses.md), or None;
    - ``origin``: what that adapter adds about where the value came from,
      as sorted ``(name, value)`` pairs of JSON scalars and lists: the
      archive member or line read, the exact fraction computed, what it
      listed.
    """

    __slots__ = ("query", "path", "nonfinite_count", "nonfinite_paths", "source", "origin")
    _shown = ("query", "path", "nonfinite_count")

    query: str
    path: str | None
    nonfinite_count: int
    nonfinite_paths: tuple[str, ...]
    source: Source | None
    origin: tuple[tuple[str, object], ...]

    def __init__(
        self,
        query: str,
        path: str | None = None,
        nonfinite_paths: Sequence[str] = (),
        nonfinite_count: int = 0,
        source: Source | None = None,
        origin: Sequence[tuple[str, object]] = (),
    ) -> None:
        self._fill(
            query=query,
            path=path,
            nonfinite_count=nonfinite_count,
            nonfinite_paths=tuple(nonfinite_paths[:MAX_LISTED_PATHS]),
            source=source,
            origin=tuple(sorted((name, tuple(item) if type(item) is list else item) for name, item in origin)),
        )

    def as_dict(self) -> dict[str, object]:
        """Return the selection as JSON-ready dict: ``query``, ``path``,
        ``nonfinite_elsewhere`` (``{"count", "paths"}``), and, when a
        harness adapter chose the query, ``source``: ``{"harness",
        "options"}`` and the adapter's ``origin`` members."""
        result: dict[str, object] = {
            "query": self.query,
            "path": self.path,
            "nonfinite_elsewhere": {"count": self.nonfinite_count, "paths": list(self.nonfinite_paths)},
        }
        if self.source is not None:
            source: dict[str, object] = {"harness": self.source.harness, "options": dict(self.source.as_dict())}
            for name, item in self.origin:
                source[name] = list(item) if type(item) is tuple else item
            result["source"] = source
        return result


def _clip(text: str, limit: int = 160) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _unanswerable(exc: PolicyError) -> InvalidEvidence:
    # The query engine's own limits (more than MAX_NODES nodes, a pattern
    # read from the document too costly to run) are met on this document:
    # no answer, so no decision, and never an exception out of evaluate().
    return InvalidEvidence("unanswerable-query", f"the query cannot be answered on this document: {exc.message}")


def check_requirements(document: object, policy: Policy) -> None:
    """Raise ``InvalidEvidence`` unless every requirement of *policy* holds.

    ``requirement-failed`` names the first that does not; one that reads a
    non-finite number raises ``non-finite`` (``NonFiniteRead``) instead.
    """
    if not policy.require:
        return
    from ._jsonpath import compile_requirement

    for text in policy.require:
        try:
            holds = compile_requirement(text).holds(document)
        except PolicyError as exc:
            raise _unanswerable(exc) from None
        if not holds:
            raise InvalidEvidence("requirement-failed", f"requirement {_clip(ascii(text))} does not hold")


def select_one(document: object, query: Query) -> tuple[str, object]:
    """Return (normalized path, value) of the one node *query* selects.

    Raises ``InvalidEvidence``: ``no-match`` naming the deepest prefix that
    did select something, ``ambiguous-selection`` with the count and the
    first two paths, ``non-finite`` when a filter read NaN or an infinity.
    """
    try:
        nodes = query.select(document)
    except PolicyError as exc:
        raise _unanswerable(exc) from None
    except TypeError as exc:
        # A caller's mapping holding what the decoder never makes (a tuple,
        # a NumPy scalar): nothing under it can be selected for sure.
        raise InvalidEvidence("input-type", f"the document is not decoded JSON: {exc}") from None
    if len(nodes) == 1:
        return nodes[0]
    shown = _clip(ascii(query.text))
    if not nodes:
        miss = query.miss(document)
        why = "" if miss is None else f": {miss.message}"
        raise InvalidEvidence("no-match", f"query {shown} selects nothing{why}")
    first, second = nodes[0][0], nodes[1][0]
    raise InvalidEvidence(
        "ambiguous-selection",
        f"query {shown} selects {len(nodes)} nodes, not exactly one: {_clip(first)}, {_clip(second)}"
        + (", ..." if len(nodes) > 2 else ""),
    )


def inside(path: str, node: str) -> bool:
    """Return whether normalized *path* is *node* or a descendant of it.

    Normalized paths are canonical (RFC 9535 section 2.7): every child of
    ``$['a']`` is ``$['a']`` followed by ``[``, and nothing else is.
    """
    return path == node or (path.startswith(node) and path[len(node) : len(node) + 1] == "[")


def split_records(records: Sequence[Record], node: str, policy: Policy) -> list[str]:
    """Apply the non-finite rule to the loader's *records* for the selected *node*.

    A record at or inside *node* raises ``InvalidEvidence`` with its own
    code (the value is the score, or part of it).  Elsewhere, under
    ``nonfinite_elsewhere = "refuse"`` the first raises, naming the count;
    under ``"list"`` the paths are returned, in document order.
    """
    outside: list[str] = []
    first_code = ""
    for path, code in records:
        if inside(path, node):
            raise InvalidEvidence(code, f"the selected value holds a non-finite number at {_clip(path)} ({code})")
        if not outside:
            first_code = code
        outside.append(path)
    if outside and policy.nonfinite_elsewhere != "list":
        others = len(outside) - 1
        more = f" and {others} more" if others else ""
        raise InvalidEvidence(
            first_code,
            f"the document holds a non-finite number at {_clip(outside[0])}{more} "
            f"({len(outside)} in all) outside the selected value; "
            'the policy key nonfinite_elsewhere = "list" lets them stand',
        )
    return outside


def value_problem(path: str, value: object, policy: Policy) -> tuple[str, str] | None:
    """Return ``(code, message)`` if the selected *value* breaks the contract.

    The same numeric contract as a score (``score_problem``: exact type,
    finite, bounds), with the node's normalized *path* in the message:
    ``the value at $['results']['mmlu']['acc,none'] is a string ('N/A'),
    not a number``.
    """
    problem = score_problem(value, policy)
    if problem is None:
        return None
    code, message = problem
    where = f"the value at {_clip(path)}"
    if message.startswith("score is "):
        return (code, f"{where} is {message[len('score is ') :]}")
    return (code, f"{where}: {message}")


def selection_message(message: str, selection: Selection) -> str:
    """Add where the value was found, and what was listed, to a PASS or FAIL message."""
    text = f"{message} (the value at {_clip(selection.path or '')})"
    count = selection.nonfinite_count
    if count:
        text += (
            f"; {count} non-finite number{'s' if count != 1 else ''} elsewhere in the document, "
            f"listed and not judged (the first at {_clip(selection.nonfinite_paths[0])})"
        )
    return text
