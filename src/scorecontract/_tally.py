# SPDX-License-Identifier: MIT
"""The tally of a trials file: the stream reader, its fast path, the counts.

Memory: the file is streamed in blocks, line by line (each line at most
*max_line_bytes* long), and its SHA-256 is computed on the way.  What is
kept grows with the number of *scheduled trials* (one small entry each, to
recognise reruns and to list each trial in JUnit XML), never with the
number of lines: invalid observations and ignored reruns are counted, by
reason code, and only the first *max_listed* of each are kept in detail.
Under a cluster query or a paired comparison each valid trial's score (and
cluster) is kept too: still one entry per scheduled trial.

The verdict is not decided here: ``_report`` reads the finished tally.
"""

from __future__ import annotations

from ._describe import describe_value, format_number
from ._errors import InvalidEvidence
from ._score import exact_context, to_decimal
from ._strict_json import MAX_DECIMAL_EXPONENT, underflows
from ._trials import canonical_trial_matchers, cluster_key, read_trial, read_trial_cluster
from ._verdict import Verdict

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator, Mapping
    from decimal import Decimal
    from typing import Callable, Optional

    from ._digest import Sink
    from ._policy import Policy
    from ._read import Readable
    from ._samples import Row, SampleReader
    from ._score import Number
    from ._stats import Sums

    # (line, trial_id, code, message, evidence_line): an Observation's fields.
    Listed = tuple[int, Optional[str], str, str, Optional[int]]

__all__ = ["RAISE_LIMIT", "Tally", "stream_lines", "trial_rows"]

# Read in large blocks: one read, one hash update and one split per block
# instead of per line.  A line is held whole only up to max_line_bytes.
_CHUNK = 256 * 1024

# Per-trial state is one int, line << 2 | status, or None before any
# observation: a million scheduled trials cost a million small ints, not a
# million tuples.  The score is kept only for failing trials (for JUnit),
# the reason only while a trial has nothing but invalid observations.
_PASS, _FAIL, _INVALID = 1, 2, 3


class Tally:
    """The streaming state: counts, the exact sum, and per-trial evidence."""

    def __init__(
        self,
        scheduled: int,
        ids: list[str] | None,
        policy: Policy,
        max_listed: int | None,
        candidate: str | None = None,
        cluster_by: str | None = None,
        keep_scores: bool = False,
        reader: SampleReader | None = None,
    ) -> None:
        self.candidate = candidate
        # A harness's (or the generic queries') reader of each line, or None
        # for trial lines; its lines take the full path.
        self.reader = reader
        # Observations numbered so far, over every input: each observation's
        # number is its place in the whole population's evidence.
        self.lines = 0
        # With a cluster query (or for a paired comparison) every valid
        # trial's score, and its cluster, is kept: the clustered SE and the
        # per-trial differences need them.  Such lines take the full path.
        self.cluster_by = cluster_by
        self.scores: dict[str, Number] | None = {} if keep_scores or cluster_by is not None else None
        self.cluster_of: dict[str, object] = {}
        self.scheduled = scheduled
        self.fixed = ids is not None
        self.trials: dict[str, int | None] = dict.fromkeys(ids) if ids is not None else {}
        self.failed_scores: dict[str, object] = {}
        self.first_invalid: dict[str, tuple[str, str]] = {}
        self.policy = policy
        self.max_listed = max_listed
        self.observed = self.valid = self.invalid = self.ignored = self.passed = 0
        self.overflow = False
        # Under a bare count: observations whose trial cannot be made out,
        # and the line of the first.
        self.unattributed = 0
        self.first_unattributed = 0
        # How many valid trials scored each value: the exact sum is taken
        # once at the end.  Ints and fractions are counted apart: the float
        # 1e23 equals the int 99999999999999991611392, so one shared entry
        # would sum one as the other, yet the float counts as the "1e23" its
        # producer wrote.  Within one type, equal values have one decimal
        # value (floats: the same repr, but for 0.0 and -0.0; Decimals and
        # ints compare exactly), so sharing an entry leaves the sum unchanged.
        self.int_counts: dict[Number, int] = {}
        self.fraction_counts: dict[Number, int] = {}
        self.size = 0
        self.by_code: dict[str, int] = {}
        # What becomes Report.invalid_observations and ignored_observations.
        self.invalid_list: list[Listed] = []
        self.ignored_list: list[Listed] = []

    def _room(self, listed: list[Listed]) -> bool:
        return self.max_listed is None or len(listed) < self.max_listed

    def add(self, line: int, raw: bytes, max_line_bytes: int) -> None:
        if self.reader is not None:
            self.take(line, self.reader.line(raw, max_line_bytes))
            return
        self.observed += 1
        if self.cluster_by is not None:
            trial_id, verdict, code, message, score, key = read_trial_cluster(
                raw, self.policy, max_line_bytes, self.candidate, self.cluster_by
            )
            if verdict is not Verdict.INVALID and trial_id is not None and trial_id not in self.cluster_of:
                # Only the evidence's cluster counts; _add ignores a rerun.
                state = self.trials.get(trial_id)
                if state is None or state & 3 == _INVALID:
                    self.cluster_of[trial_id] = key
        else:
            trial_id, verdict, code, message, score = read_trial(raw, self.policy, max_line_bytes, self.candidate)
        self._add(line, trial_id, verdict, code, message, score)

    def take(self, line: int, row: Row | None) -> None:
        """Count one observation of a sample reader, ``(trial_id, verdict, code, message, score, record)``.

        None is no observation of this population (``SampleReader.line``).
        """
        if row is None:
            return
        self.observed += 1
        trial_id, verdict, code, message, score, record = row
        if self.cluster_by is not None and verdict is not Verdict.INVALID and trial_id is not None:
            key, problem = cluster_key(record, self.cluster_by)
            if problem is not None:
                verdict, (code, message), score = Verdict.INVALID, problem, None
            elif trial_id not in self.cluster_of:
                state = self.trials.get(trial_id)
                if state is None or state & 3 == _INVALID:
                    self.cluster_of[trial_id] = key
        self._add(line, trial_id, verdict, code, message, score)

    def add_invalid(self, line: int, code: str, message: str) -> None:
        self.observed += 1
        self._add(line, None, Verdict.INVALID, code, message, None)

    def _add(
        self, line: int, trial_id: str | None, verdict: Verdict, code: str, message: str, score: Number | None
    ) -> None:
        if trial_id is None:
            if not self.fixed:
                # It may be a scheduled trial's only attempt, and under a bare
                # count a fresh trial would then take that trial's place.
                if not self.unattributed:
                    self.first_unattributed = line
                self.unattributed += 1
            if verdict is not Verdict.INVALID:
                # Valid evidence always names its trial; were it not so, a
                # defect must not count as evidence.
                code, message = "internal-error", "valid evidence without a trial id; please report it"
            self._count_invalid(line, None, code, message)
            return
        trials = self.trials
        known = trial_id in trials
        if not known:
            if not self.fixed and len(trials) < self.scheduled:
                # Under a bare count, the first N distinct ids named anywhere
                # (invalid lines included, so a failed trial cannot be
                # swapped for a fresh one) are the population.
                trials[trial_id] = None
                known = True
            else:
                if not self.fixed:
                    self.overflow = True
                if verdict is not Verdict.INVALID:
                    verdict, code = Verdict.INVALID, "not-scheduled"
                    message = (
                        f"trial {trial_id!r} is not in the manifest"
                        if self.fixed
                        else f"trial {trial_id!r} is beyond the {self.scheduled} scheduled trials"
                    )
        if verdict is Verdict.INVALID or score is None:
            if verdict is not Verdict.INVALID:
                # Valid evidence always holds its score; were it not so, a
                # defect must not count as evidence.
                code, message = "internal-error", "valid evidence without a score; please report it"
            self._count_invalid(line, trial_id, code, message)
            if known and trials[trial_id] is None:
                trials[trial_id] = line << 2 | _INVALID
                self.first_invalid[trial_id] = (code, message)
            return
        state = trials[trial_id]
        if state is not None and state & 3 != _INVALID:
            # No rerun-until-pass: the first valid observation is the evidence.
            self.ignored += 1
            if self._room(self.ignored_list):
                self.ignored_list.append(
                    (
                        line,
                        trial_id,
                        code,
                        f"rerun ignored: the trial's evidence is line {state >> 2}",
                        state >> 2,
                    )
                )
            return
        if state is not None:
            del self.first_invalid[trial_id]
        self.valid += 1
        if verdict is Verdict.PASS:
            self.passed += 1
            trials[trial_id] = line << 2 | _PASS
        else:
            trials[trial_id] = line << 2 | _FAIL
            self.failed_scores[trial_id] = score
        counts = self.int_counts if type(score) is int else self.fraction_counts
        counts[score] = counts.get(score, 0) + 1
        if self.scores is not None:
            self.scores[trial_id] = score

    def _count_invalid(self, line: int, trial_id: str | None, code: str, message: str) -> None:
        self.invalid += 1
        self.by_code[code] = self.by_code.get(code, 0) + 1
        if self._room(self.invalid_list):
            self.invalid_list.append((line, trial_id, code, message, None))

    def counted(self) -> Iterator[tuple[Number, int]]:
        """Yield ``(score, how many valid trials scored it)``."""
        yield from self.int_counts.items()
        yield from self.fraction_counts.items()

    def total(self) -> Decimal | int:
        """The exact sum of the valid scores."""
        total: Decimal | int = 0
        if self.int_counts or self.fraction_counts:
            context = exact_context()
            # Summed as the decimal text each producer wrote (the repr of a
            # float), exactly: binary float sums drift, and a mean of 0.7
            # and 0.9 must meet a threshold of 0.8.
            for score, count in self.counted():
                total = context.add(total, context.multiply(to_decimal(score), count))
        return total

    def sums(self) -> Sums:
        """The exact ``Sums`` (count, total, squares) of the valid scores."""
        from ._stats import Sums

        # Ints and fractions apart, as they are counted (see __init__).
        whole, fractional = Sums.of_counts(self.int_counts), Sums.of_counts(self.fraction_counts)
        context = exact_context()
        return Sums(
            whole.count + fractional.count,
            context.add(whole.total, fractional.total),
            context.add(whole.squares, fractional.squares),
        )

    def cluster_list(self, trial_ids: Iterable[str] | None = None) -> list[tuple[int, Decimal | int]] | None:
        """``(count, exact total)`` per cluster of the valid trials, or None unclustered.

        *trial_ids* restricts it to those trials (a paired comparison's
        pairs).
        """
        if self.cluster_by is None or self.scores is None:
            return None
        return cluster_sums(self.cluster_of, self.scores, self.scores if trial_ids is None else trial_ids)

    def missing_trials(self) -> list[str]:
        """Ids of scheduled trials without valid evidence, the first *max_listed*."""
        listed: list[str] = []
        limit = self.max_listed
        for trial_id, state in self.trials.items():
            if limit is not None and len(listed) >= limit:
                break
            if state is None or state & 3 == _INVALID:
                listed.append(trial_id)
        return listed


def cluster_sums(
    cluster_of: Mapping[str, object], values: Mapping[str, Number], trial_ids: Iterable[str]
) -> list[tuple[int, Decimal | int]]:
    """``(count, exact total of values)`` per cluster of *trial_ids*."""
    context = exact_context()
    sums: dict[object, list[Decimal | int]] = {}
    for trial_id in trial_ids:
        key = cluster_of[trial_id]
        entry = sums.get(key)
        if entry is None:
            entry = sums[key] = [0, 0]
        entry[0] += 1
        entry[1] = context.add(entry[1], to_decimal(values[trial_id]))
    return [(int(count), total) for count, total in sums.values()]


def trial_rows(
    trials: dict[str, int | None],
    failed_scores: dict[str, object],
    first_invalid: dict[str, tuple[str, str]],
    scheduled: int,
    threshold: Number,
    lower: bool = False,
) -> Iterator[tuple[str | None, str, int | None, str, str]]:
    """Yield ``(trial_id, status, line, code, message)`` per scheduled trial.

    ``Report.trials()`` is this over the finished tally's per-trial state;
    *lower* words it for a policy whose direction is ``"lower"``.
    """
    shown = format_number(threshold)
    passes, fails = ("<=", ">") if lower else (">=", "<")
    for trial_id, state in trials.items():
        if state is None:
            yield (trial_id, "MISSING", None, "missing-evidence", "no observation of this trial")
            continue
        line, status = state >> 2, state & 3
        if status == _INVALID:
            code, message = first_invalid[trial_id]
            yield (trial_id, "INVALID", line, code, message)
        elif status == _PASS:
            yield (trial_id, "PASS", line, "meets-threshold", f"score {passes} threshold {shown}")
        else:
            score = format_number(failed_scores[trial_id])
            yield (trial_id, "FAIL", line, "below-threshold", f"score {score} {fails} threshold {shown}")
    for _ in range(scheduled - len(trials)):
        yield (None, "MISSING", None, "missing-evidence", "the file never names this trial")


def _no_match(raw: bytes) -> None:
    """A matcher that matches nothing: the fast path switched off."""
    return None


def stream_lines(stream: Readable, tally: Tally, max_line_bytes: int, digest: Sink) -> None:
    """Feed every line of *stream* to *tally*, counting bytes in ``tally.size``.

    Every byte read goes into *digest*.  A line longer than *max_line_bytes*
    is an invalid observation, skipped in blocks without holding it whole.

    A canonical line, ``{"trial_id": "<printable ASCII>", "score": <number>}``
    (``canonical_trial_matchers``), whose score is valid is counted here
    without the full strict pipeline: the grammar admits nothing the full
    path would refuse, and its number converts exactly as the strict
    decoder converts it.  Everything else -- and every score outside the
    bounds, where the full path has a message to give -- goes through
    ``read_trial``.  This loop is the hot path of a report: no function
    calls per line beyond the regex, the conversion and dict access.
    """
    read = stream.read
    update = digest.update
    policy = tally.policy
    id_first, score_first = canonical_trial_matchers()
    if tally.candidate is not None or tally.scores is not None or tally.reader is not None:
        # A canonical line names no candidate, so when one is required every
        # line takes the full path, where the binding is checked; so does a
        # tally that keeps each trial's score (and cluster), and one whose
        # lines a harness's reader reads.
        id_first = score_first = _no_match
    low, high, limit = policy.limits
    # A lower-is-better policy (mean absolute error) passes score <= limit.
    higher = policy.direction == "higher"
    if policy.exact:
        from decimal import Decimal

        # Fails the range check below, so the full path decides.  Not
        # high + 1: that is arithmetic in the thread's decimal context,
        # where prec = 1 rounds it back to high.
        beyond = Decimal("Infinity")
        context = exact_context()

        def to_fraction(token: bytes) -> Number:
            value = Decimal(token.decode("ascii"), context)
            # The strict decoder refuses an exponent past MAX_DECIMAL_EXPONENT
            # (too-many-digits); such a line must reach it, not be counted.
            return value if abs(value.adjusted()) <= MAX_DECIMAL_EXPONENT else beyond

        convert: Callable[[bytes], Number] = to_fraction
    else:
        convert = float
    trials = tally.trials
    get = trials.get
    failed_scores = tally.failed_scores
    first_invalid = tally.first_invalid
    int_counts, fraction_counts = tally.int_counts, tally.fraction_counts
    int_count_of, fraction_count_of = int_counts.get, fraction_counts.get
    ignored_list = tally.ignored_list
    max_listed = tally.max_listed
    room = max_listed is None or len(ignored_list) < max_listed
    fixed, scheduled = tally.fixed, tally.scheduled
    slow = tally.add
    valid = passed = ignored = 0
    # Numbered on from the inputs before this one: shards are one population.
    line = tally.lines
    PASS, FAIL, INVALID = _PASS, _FAIL, _INVALID
    hand_over = False
    # The unfinished last line, as pieces joined once it ends: joining at
    # every read instead copies a long line once per read, quadratic time
    # for a line of many reads (a big max_line_bytes, or a pipe's 64 KiB).
    carry: list[bytes] = []
    carried = 0
    overlong = -1  # bytes so far of a line over max_line_bytes, or -1
    try:
        while True:
            chunk = read(_CHUNK)
            if chunk:
                if type(chunk) is not bytes:
                    raise InvalidEvidence(
                        "input-type", f"the trial stream must give bytes, not {describe_value(chunk)}"
                    )
                update(chunk)
                tally.size += len(chunk)
                if overlong >= 0:
                    end = chunk.find(b"\n")
                    if end == -1:
                        overlong += len(chunk)
                        continue
                    line += 1
                    tally.add_invalid(line, "too-large", _too_large(overlong + end, max_line_bytes))
                    overlong = -1
                    chunk = chunk[end + 1 :]
                lines = chunk.split(b"\n")
                last = lines.pop()
                if not lines:  # no line ends in this chunk
                    carry.append(last)
                    carried += len(last)
                    if carried > max_line_bytes:
                        overlong, carry, carried = carried, [], 0
                    continue
                if carry:
                    carry.append(lines[0])
                    lines[0] = b"".join(carry)
                carry, carried = [last], len(last)
                if carried > max_line_bytes:
                    overlong, carry, carried = carried, [], 0
            elif overlong >= 0:
                line += 1
                tally.add_invalid(line, "too-large", _too_large(overlong, max_line_bytes))
                return
            elif carried:
                lines, carry, carried = [b"".join(carry)], [], 0  # the last line, without "\n"
            else:
                return
            for raw in lines:
                line += 1
                if len(raw) > max_line_bytes:
                    tally.add_invalid(line, "too-large", _too_large(len(raw), max_line_bytes))
                    continue
                match = id_first(raw)
                if match is not None:
                    trial_id, number, fraction = match.groups()
                else:
                    match = score_first(raw)
                    if match is None:
                        slow(line, raw, max_line_bytes)
                        continue
                    number, fraction, trial_id = match.groups()
                # The strict decoder's hooks: float (or Decimal) for a number
                # with a fraction or exponent, int otherwise.
                score = convert(number) if fraction else int(number)
                if not low <= score <= high or (not score and fraction and underflows(number)):
                    # Out of range, 1e400 (inf) or 1e-400 (0.0 from a nonzero
                    # literal): the full path says why.
                    slow(line, raw, max_line_bytes)
                    continue
                trial_id = trial_id.decode("ascii")
                state = get(trial_id, -1)
                if state is None:
                    pass  # a manifest's trial, first observed
                elif state == -1:
                    if fixed or len(trials) >= scheduled:
                        hand_over = True  # not in the population
                    else:
                        hand_over = False  # a new trial under a bare count
                elif state & 3 != INVALID:
                    if not room:
                        ignored += 1  # a rerun: no rerun-until-pass
                        continue
                    hand_over = True  # a rerun that is listed
                else:
                    del first_invalid[trial_id]  # an invalid attempt, now rerun validly
                if hand_over:
                    # What read_trial would give, but for the message, which
                    # _add writes for both cases.
                    hand_over = False
                    tally.observed += 1
                    if score >= limit if higher else score <= limit:
                        tally._add(line, trial_id, Verdict.PASS, "meets-threshold", "", score)
                    else:
                        tally._add(line, trial_id, Verdict.FAIL, "below-threshold", "", score)
                    room = max_listed is None or len(ignored_list) < max_listed
                    continue
                valid += 1
                if score >= limit if higher else score <= limit:
                    passed += 1
                    trials[trial_id] = line << 2 | PASS
                else:
                    trials[trial_id] = line << 2 | FAIL
                    failed_scores[trial_id] = score
                if fraction:
                    fraction_counts[score] = fraction_count_of(score, 0) + 1
                else:
                    int_counts[score] = int_count_of(score, 0) + 1
    finally:
        tally.lines = line
        tally.observed += valid + ignored
        tally.valid += valid
        tally.passed += passed
        tally.ignored += ignored


# How to raise report()'s one byte limit, said wherever it refuses: the
# keyword and the CLI option by name (--max-bytes, as check names its own).
RAISE_LIMIT = (
    "raise the limit with max_line_bytes (report --max-bytes, which takes binary units: --max-bytes 64M is 64 MiB)"
)


def _too_large(length: int, max_line_bytes: int) -> str:
    return f"line is {length} bytes, over the limit of {max_line_bytes}; {RAISE_LIMIT}"
