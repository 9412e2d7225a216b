# SPDX-License-Identifier: MIT
"""Errors, and the table of stable reason codes.

Callers match on ``code``, never on message text: codes are the stable
interface, messages are for people and may be reworded.
"""

from __future__ import annotations

__all__ = ["REASONS", "InvalidEvidence", "PolicyError", "ScoreContractError"]

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    # What every error's __reduce__ returns: the class and the arguments that
    # rebuild it.  One type for the whole hierarchy, since each subclass is
    # rebuilt from its own arguments and an override may not narrow them.
    Reduced = tuple[Callable[..., object], tuple[object, ...]]

# Every reason code the library can put on a decision, with the one-line
# meaning documented in docs/reason-codes.md.  A test keeps this table, that
# page and the codes actually raised in step.
REASONS = {
    # Verdicts on valid evidence.
    "meets-threshold": "PASS: the score is at or above the threshold",
    "below-threshold": "FAIL: the score is below the threshold",
    # Grader judgments (docs/judgments.md) on a usable judgment.  Under
    # negation the code still describes the grader's answer.
    "explicit-pass": 'PASS: the grader said "pass": true and no threshold is set',
    "explicit-fail": 'FAIL: the grader said "pass": false, whatever the score',
    "positive-score": "PASS: no verdict, no threshold, and the score is above 0",
    "zero-score": "FAIL: no verdict, no threshold, and the score is 0",
    # Reading the evidence.
    "input-type": "the evidence is not str or bytes",
    "file-not-found": "the evidence file does not exist",
    "file-unreadable": "the evidence path cannot be read (a directory, no permission, ...)",
    "too-large": "the evidence is larger than the byte limit",
    # ZIP archives (an Inspect .eval log).
    "bad-archive": "a ZIP archive that is damaged, encrypted, lacks a member, names one twice or holds bytes no member accounts for",
    "archive-too-large": "a ZIP member over the byte limit, or inflating more than 100 times its size",
    # Encoding (RFC 8259 section 8.1).
    "byte-order-mark": "the evidence starts with a byte-order mark",
    "not-utf8": "the evidence is not UTF-8 (invalid bytes, or a UTF-16/32 byte-order mark)",
    "lone-surrogate": "a string holds a lone UTF-16 surrogate",
    # Syntax (RFC 8259).
    "empty": "the evidence is empty or only whitespace",
    "syntax": "the evidence is not RFC 8259 JSON",
    "trailing-data": "there is data after the JSON value",
    "underflow": "a nonzero number too small for a double, which would read as 0.0",
    "non-standard-constant": "NaN, Infinity or -Infinity, which JSON does not have",
    "too-many-digits": "a number literal has absurdly many digits (or, in exact mode, an exponent beyond +-1000)",
    "too-deep": "arrays or objects are nested too deeply",
    "duplicate-member": "an object names the same member twice",
    # Record shape.
    "not-an-object": "the record is not a JSON object",
    "missing-member": "a required member is absent",
    "unexpected-member": "the record has a member the contract does not declare",
    # The numeric contract.
    "wrong-type": "the score is not a number (bool, string, null, ...)",
    "non-finite": "the score is NaN or infinite",
    "out-of-range": "the score is outside the policy's bounds",
    # Selection (docs/selection.md): one value out of a whole document.
    "no-match": "the query selects no node; the message names the deepest prefix that did select one",
    "ambiguous-selection": "the query selects more than one node; the message gives the count and the first two paths",
    "requirement-failed": "a requirement (--require, the policy key require) does not hold on the document",
    "unanswerable-query": "a query or requirement cannot be answered on this document within the engine's limits",
    # Harness adapters (docs/harnesses.md): what a harness says about its run.
    "partial-run": "the harness covered part of its population (a limit, a selection, a cancelled run) and --allow-partial was not given",
    "grader-errors": "the harness reports errored tests, metrics or graders (promptfoo errors and graderError, DeepEval errors > 0)",
    "empty-run": "the harness scored nothing: zero tests, a count-0 stat, an empty score list",
    "direction-conflict": "the harness's file gives the metric a direction its known one contradicts (lm-eval higher_is_better false on acc)",
    "value-mismatch": "the harness's file states one value twice and the two differ (a HELM mean against its sum / count)",
    # Trial reports (docs/reports.md).
    "bad-trial-id": "a trial record's trial_id is not a non-empty string, or a selected id member is not a string or integer",
    "not-scheduled": "a trial record names a trial outside the declared population",
    "missing-evidence": "a report's scheduled trials lack valid evidence (INVALID, or REVIEW with a review owner)",
    "population-mismatch": "counts of one population disagree: a harness's own (completed, scored, rows, ...), or a report's trials against --scheduled or its baseline",
    "population-unknown": "under a bare --scheduled count, an observation names no readable trial id (give a manifest)",
    "insufficient-trials": "a confidence bound the trials cannot support: n = 1, zero variance or one cluster",
    "unknown-label": "a per-sample score is a string outside the closed --labels map (never 0.0)",
    "missing-cluster": "under --cluster-by, a trial record has no cluster member",
    "bad-cluster": "under --cluster-by, a trial record's cluster is not one string or integer",
    # Grader errors: no usable judgment (GRADER_ERROR, INVALID at the gate).
    "extraction-failed": "no JSON object found in the grader's answer, or it is cut off",
    "verdict-not-boolean": '"pass" is not a JSON boolean (nor an accepted spelling)',
    "unusable-score": "the judgment's score is present but not a finite number in range",
    "no-judgment": "the judgment has neither a verdict nor a score",
    "no-score-for-threshold": '"pass": true with a threshold set but no score to compare',
    # Provenance: the evidence names the candidate and run it judges, and is
    # authenticated by a detached HMAC-SHA256 signature.
    "missing-candidate": 'the evidence has no "candidate" member, and the gate requires one',
    "candidate-mismatch": "the evidence's candidate is not a string, or not exactly the required one",
    "missing-run-id": 'the evidence has no "run_id" member, and the gate pins one',
    "run-id-mismatch": "the evidence's run_id is not a string, or not exactly the pinned one (a replayed file)",
    "missing-signature": "the signature file does not exist",
    "signature-unreadable": "the signature file cannot be read (a directory, no permission, ...)",
    "bad-signature": "the signature file is not a strict hmac-sha256 signature object (truncated, bad hex, ...)",
    "key-id-mismatch": "the signature names another key than the gate's",
    "signature-mismatch": "the HMAC does not match the evidence bytes: they are not the bytes that were signed",
    # Last resort: a defect in this library, never a PASS.
    "internal-error": "an unexpected error inside scorecontract",
    # Configuration errors (PolicyError; the command line exits 2).
    "bad-threshold": "the threshold is not a finite number within the bounds",
    "bad-bounds": "the bounds are not finite numbers, or are inverted",
    "bad-version": "the policy version is not a non-empty string",
    "bad-policy": "the policy or an option is otherwise unusable",
    "policy-file-unreadable": "the policy file is missing, unreadable or over 64 KiB",
    "bad-policy-file": "the policy file is not strict JSON or TOML holding one object (NaN, duplicate keys, ...)",
    "unknown-policy-key": "the policy file has a key the format does not define (a typo such as treshold)",
    "missing-policy-key": "the policy file lacks a required key (version, threshold, exact)",
    "gate-file-unreadable": "the gate file is missing, unreadable or over 256 KiB",
    "bad-gate-file": "the gate file is not strict JSON or TOML, or a gate, its command, evidence or a value is malformed",
    "unknown-gate-key": "the gate file has a key the format or the gate's command does not define (a typo such as treshold)",
    "no-gates": "the gate file names no gate",
    "no-population": "a report was asked for without a declared population (--scheduled or --manifest)",
    "candidate-required": "the policy requires the candidate (require_candidate) and none was given (--candidate)",
    "bad-key": "the signing key is missing, empty, under 16 bytes, or not a regular file",
    "key-too-open": "the key file can be read or written by group or others (chmod 600)",
    "bad-population": "the declared population is unusable (not a positive count, a bad or duplicated manifest id)",
    # The command line's own refusals (exit 2): options and output files.
    "bad-option": "an option's value is unusable (--max-bytes or --max-listed not a whole number in range)",
    "missing-option": "an option needs another that was not given (--negate without --contract judgment, --signature without a key, ...)",
    "option-conflict": "two options that cannot be combined (--policy with --threshold, --exact or --review-owner, ...)",
    "output-exists": "an output file (receipt, JUnit XML, signature file, kept evidence) exists already; nothing is overwritten",
    "output-unwritable": "an output file cannot be written (no such directory, no permission, a full disk, ...)",
    "bad-selector": "a query is not JSONPath (RFC 9535) nor a JSON Pointer (RFC 6901), or a requirement is not an RFC 9535 logical expression",
}


class ScoreContractError(ValueError):
    """Base class of every error scorecontract raises on purpose.

    It subclasses ``ValueError`` so ``except ValueError`` keeps working for
    callers who treat any bad input alike.  ``code`` is one of the stable
    reason codes listed in docs/reason-codes.md; ``message`` is for people.
    """

    def __init__(self, code: str, message: str) -> None:
        ValueError.__init__(self, code, message)
        self.code = code
        self.message = message

    def __str__(self) -> str:
        return f"{self.code}: {self.message}"

    def __reduce__(self) -> Reduced:
        # Structured exceptions lose their fields when pickled through
        # BaseException.__reduce__; harnesses send errors across processes.
        return (type(self), (self.code, self.message))


class PolicyError(ScoreContractError):
    """A policy (threshold, bounds, version, ...) that cannot be used.

    This is a configuration error, not bad evidence: the command line exits
    with status 2 for it.
    """


class InvalidEvidence(ScoreContractError):
    """Evidence that breaks the contract: the verdict is INVALID.

    Attributes, as in ``json.JSONDecodeError``:

    - ``code``: the stable reason code, for example ``"non-finite"``;
    - ``message``: the unformatted explanation;
    - ``pos``: the index in the document where the problem starts, or
      ``None`` where no single place is to blame.  It counts characters of
      the decoded text, except for encoding errors (``not-utf8``,
      ``byte-order-mark``), where it counts bytes;
    - ``lineno``, ``colno``: the 1-based line and column of ``pos``.
    """

    def __init__(
        self,
        code: str,
        message: str,
        pos: int | None = None,
        lineno: int | None = None,
        colno: int | None = None,
    ) -> None:
        ScoreContractError.__init__(self, code, message)
        self.pos = pos
        self.lineno = lineno
        self.colno = colno

    def __str__(self) -> str:
        if self.pos is None:
            return f"{self.code}: {self.message}"
        return f"{self.code}: {self.message}: line {self.lineno} column {self.colno} (char {self.pos})"

    def __reduce__(self) -> Reduced:
        return (
            type(self),
            (self.code, self.message, self.pos, self.lineno, self.colno),
        )


def invalid_at(code: str, message: str, doc: str | bytes, pos: int) -> InvalidEvidence:
    """Build an InvalidEvidence located at *pos* in *doc*, as json does."""
    if isinstance(doc, bytes):
        lineno = doc.count(b"\n", 0, pos) + 1
        colno = pos - doc.rfind(b"\n", 0, pos)
    else:
        lineno = doc.count("\n", 0, pos) + 1
        colno = pos - doc.rfind("\n", 0, pos)
    return InvalidEvidence(code, message, pos, lineno, colno)
