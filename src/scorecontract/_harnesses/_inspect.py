# SPDX-License-Identifier: MIT
"""UK AISI Inspect AI: logs of version 1 and 2, ``.json`` or ``.eval`` (a ZIP).

The headline is the metric of one scorer in ``results.scores`` (version 2)
or ``results.metrics`` (version 1).  A ``.eval`` log is a ZIP archive of
``header.json`` (the log without its samples) and one
``samples/<id>_epoch_<n>.json`` per sample, read through the one archive
reader (``_archive``).  What the log says about the run: its ``status``,
``error`` and ``invalidated``; ``results.total_samples`` (every sample of
every epoch: Inspect's resolve_dataset repeats the dataset once per epoch
before it counts) and ``completed_samples``; each scorer's
``unscored_samples``.
"""

from __future__ import annotations

from .._describe import json_kind
from .._errors import InvalidEvidence, PolicyError
from .._sample_reader import (
    SampleReader,
    at_most,
    canonical_trial_id,
    clip,
    declared_count,
    invalid_row,
    load_with_codes,
    path_under,
)
from ._base import (
    ABSENT,
    Headline,
    Option,
    Samples,
    Selected,
    at,
    count,
    decode,
    literal,
    load,
    names_of,
    no_such,
    one,
    path,
    require,
    shown,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from .._policy import Policy
    from .._sample_reader import Codes, Placed, Row
    from .._score import Number
    from ._base import Options, Trace

__all__ = ["FOLLOWS", "HEADLINE", "NAME", "SAMPLES", "TITLE"]

NAME = "inspect"
TITLE = "UK AISI Inspect AI"
FOLLOWS = "Inspect AI logs version 1 (2024) and 2, .json and .eval, as the writer stands at commit 499e615"

# The local file header signature of a ZIP (APPNOTE.TXT section 4.3.7): an
# Inspect .eval log.  A .json log starts with "{" (after whitespace).
_ZIP_MAGIC = b"PK\x03\x04"


def _text(raw: bytes | str, max_bytes: int, origin: list[tuple[str, object]]) -> str:
    """The log's text: the whole ``.json`` log, or a ``.eval``'s member header.json."""
    if type(raw) is bytes and raw[:4] == _ZIP_MAGIC:
        from .._archive import Archive

        if len(raw) > max_bytes:
            # The archive itself is evidence, bounded as every evidence is.
            raise InvalidEvidence("too-large", f"evidence is {len(raw)} bytes, over the limit of {max_bytes}")
        origin.append(("member", "header.json"))
        # header.json is the log without its samples: their NaN scores and
        # their size stay in their own members, unread.
        member = Archive(raw, what="the Inspect .eval log").read("header.json", max_bytes)
        return decode(member, max_bytes)
    return decode(raw, max_bytes)


def _completed(document: object) -> int:
    """Return the log's total_samples, once every sample completed.

    A run stopped part way (a sample limit, a failure on error) can still
    say success and hold metrics over the samples that did complete; a
    run of no sample has metrics over nothing.
    """
    completed = count(at(document, "results", "completed_samples"), "the Inspect log's completed_samples")
    total = count(at(document, "results", "total_samples"), "the Inspect log's total_samples")
    if completed != total:
        raise InvalidEvidence(
            "requirement-failed",
            f"Inspect completed {completed} of {total} samples (completed_samples != total_samples)",
        )
    if total == 0:
        raise InvalidEvidence(
            "empty-run", "the Inspect log's total_samples is 0: no sample ran, there is nothing to gate"
        )
    return total


def _gate(raw: bytes | str, options: Options, policy: Policy, max_bytes: int, trace: Trace) -> Selected:
    scorer, metric = options.text("scorer"), options.text("metric")
    trace.query = path("results", "scores")
    text = _text(raw, max_bytes, trace.origin)
    document, records = load(text, policy)
    if type(document) is not dict:
        raise InvalidEvidence("not-an-object", f"an Inspect log is a JSON object, not {shown(document)}")
    version = at(document, "version")
    if version is ABSENT:
        raise InvalidEvidence(
            "missing-member",
            "this is not an Inspect log: it has no version (Inspect writes version 1 or 2 in every .json log "
            "and in the header.json of a .eval log)",
        )
    if type(version) is not int or version not in (1, 2):
        raise InvalidEvidence(
            "requirement-failed",
            f"Inspect log version {shown(version)}: this adapter reads log versions 1 and 2",
        )
    status = at(document, "status")
    require(
        document,
        "$.status == 'success'",
        "requirement-failed",
        f"the Inspect log's status is {'absent' if status is ABSENT else shown(status)}, not 'success'",
    )
    if at(document, "error") is not ABSENT:
        # Inspect leaves out what is None (exclude_none): a log that says
        # success and still holds an error contradicts itself.
        raise InvalidEvidence(
            "requirement-failed", "the Inspect log's status is 'success' but it holds an error: which is true?"
        )
    # Inspect writes invalidated as a bool, or leaves it out: anything else
    # (the string "true", null, 1) is not "not invalidated", and a test that
    # only asks "!= true" would let it pass.
    invalidated = at(document, "invalidated")
    if invalidated is True:
        raise InvalidEvidence("requirement-failed", "Inspect marks this log invalidated (invalidated is true)")
    if invalidated is not ABSENT and invalidated is not False:
        raise InvalidEvidence("wrong-type", f"the Inspect log's invalidated is {shown(invalidated)}, not true or false")
    if at(document, "results") is ABSENT:
        raise InvalidEvidence("missing-member", "the Inspect log has no results: no scorer ran")
    if version == 1:
        query = path("results", "metrics", metric, "value")
        trace.query = query
        metrics = at(document, "results", "metrics")
        if type(metrics) is dict and metric not in metrics:
            raise no_such("metric", metric, "--metric", "the Inspect log (version 1)", list(metrics))
        require(
            document,
            f"$.results.scorer.name == {literal(scorer)}",
            "requirement-failed",
            f"the Inspect log (version 1) was scored by {shown(at(document, 'results', 'scorer', 'name'))}, "
            f"not {ascii(scorer)}",
        )
        # A version 1 log may write neither count (the one in Inspect's own
        # tests does not): it is gated on its status alone.  Where either is
        # written, both are required as in version 2.
        results = at(document, "results")
        if type(results) is dict and ("completed_samples" in results or "total_samples" in results):
            _completed(document)
        return Selected(document, records, query, policy)
    scores = at(document, "results", "scores")
    if type(scores) is not list:
        raise InvalidEvidence("missing-member", "the Inspect log's results have no scores array")
    if not scores:
        raise InvalidEvidence(
            "empty-run",
            "the Inspect log's status is 'success' but results.scores is empty: no scorer produced a metric",
        )
    names = [at(entry, "name") for entry in scores]
    if scorer not in [name for name in names if type(name) is str]:
        raise no_such("scorer", scorer, "--scorer", "the Inspect log", names)
    element = f"$['results']['scores'][?@.name == {literal(scorer)}]"
    query = f"{element}['metrics'][{literal(metric)}]['value']"
    trace.query = query
    where, entry = one(document, element)
    metrics = at(entry, "metrics")
    if type(metrics) is dict and metric not in metrics:
        raise no_such("metric", metric, "--metric", f"Inspect's scorer {ascii(scorer)}", list(metrics))
    total = _completed(document)
    unscored = at(entry, "unscored_samples")
    if unscored is not ABSENT and count(unscored, f"unscored_samples of scorer {ascii(scorer)}") != 0:
        raise InvalidEvidence(
            "requirement-failed",
            f"Inspect's scorer {ascii(scorer)} left {unscored} of {total} samples unscored (unscored_samples at {where})",
        )
    return Selected(document, records, query, policy)


HEADLINE = Headline(
    options=(
        Option("scorer", "the scorer whose metric is gated (results.scores[].name)", needed=True),
        Option("metric", "the metric of that scorer: accuracy, mean, ...", needed=True),
    ),
    file="an Inspect log, `.json` or `.eval`",
    selects="log version 2: results.scores[name == S].metrics[M].value; version 1: results.metrics[M].value; "
    "in a .json log, or in the member header.json of a .eval ZIP log",
    requires='status == "success" and no error member; invalidated absent or false; results.scores non-empty (else '
    "INVALID empty-run); completed_samples == total_samples; the scorer's unscored_samples == 0 where present; "
    "version 1: results.scorer.name == S",
    lists="NaN and infinities outside the headline (NaN marks an unscored sample)",
    gate=_gate,
    nonfinite="Inspect writes NaN for a metric over no scored sample",
)


# -- the per-sample records ---------------------------------------------------------------------


class _Reader(SampleReader):
    """Inspect ``.json`` logs (``samples`` array) and ``.eval`` logs (``samples/*.json``)."""

    framing = "document"
    declares_population = True

    def __init__(self, policy: Policy, options: Options) -> None:
        scorer = options.get("scorer")
        if type(scorer) is not str or not scorer:
            raise PolicyError("bad-option", "report --from inspect needs the scorer (--scorer), e.g. match")
        self.scorer = scorer
        labels = options.get("labels")
        super().__init__(policy, None if labels is None else _labels(labels, policy))

    def description(self) -> dict[str, object]:
        labels = None if self.labels is None else dict(self.labels)
        return {"harness": "inspect", "scorer": self.scorer, "labels": labels}

    def type_hint(self, value: object) -> str:
        if type(value) is str and self.labels is None:
            return "; Inspect letter grades (C, P, I, N) need an explicit map: --labels C=1,P=0.5,I=0,N=0"
        return ""

    def sample(self, sample: object, base: str, codes: Codes) -> Row:
        if type(sample) is not dict:
            return invalid_row(
                None, "not-an-object", f"an Inspect sample must be a JSON object, not {json_kind(sample)}"
            )
        trial_id, problem = canonical_trial_id(
            [
                (path_under(base, "id"), sample.get("id", ABSENT)),
                (path_under(base, "epoch"), sample.get("epoch", ABSENT)),
            ],
            codes,
        )
        if problem is not None:
            return invalid_row(None, *problem)
        error = at(sample, "error")
        if error is not ABSENT and error is not None:
            # Inspect records an EvalError on a sample that raised; whatever
            # score it kept is not evidence (fail_on_error=False logs it).
            why = at(error, "message")
            said = f": {clip(why, 80)}" if type(why) is str else ""
            return invalid_row(trial_id, "grader-errors", f"Inspect recorded an error for this sample{said}")
        where = path_under(base, "scores", self.scorer, "value")
        value = at(sample, "scores", self.scorer, "value")
        if value is ABSENT and type(at(sample, "scores", self.scorer)) is not dict:
            scores = at(sample, "scores")
            listed = names_of(list(scores)) if type(scores) is dict else "none"
            return invalid_row(
                trial_id,
                "missing-member",
                f"the sample has no score by {self.scorer!r} (--scorer); its scores: {listed}",
            )
        return self.judge(trial_id, where, value, codes, sample)

    def document(self, data: bytes, name: str, max_bytes: int) -> tuple[list[Placed], int | None]:
        if data[:4] == _ZIP_MAGIC:
            return self._eval(data, name, max_bytes)
        log, codes = load_with_codes(data, max_bytes, self.policy.exact)
        population = _population(log)
        samples = at(log, "samples")
        if type(samples) is not list:
            raise InvalidEvidence(
                "missing-member",
                "the Inspect log has no samples array (a log written without samples, --no-log-samples, "
                "has nothing to gate per sample)",
            )
        at_most(len(samples), population, "samples in its samples array")
        rows: list[Placed] = []
        for index, sample in enumerate(samples):
            base = f"$['samples'][{index}]"
            rows.append((base, self.sample(sample, base, codes)))
        return rows, population

    def _eval(self, data: bytes, name: str, max_bytes: int) -> tuple[list[Placed], int | None]:
        from .._archive import MAX_RATIO, Archive

        rows: list[Placed] = []
        # Each member within the byte limit, and all of them together within
        # the ratio of the whole archive: overlapping entries cannot make a
        # small file inflate without end.
        with Archive(data, what=f"the Inspect log {name}", total_limit=MAX_RATIO * max(len(data), 1)) as archive:
            header, _ = load_with_codes(archive.read("header.json", max_bytes), max_bytes, self.policy.exact)
            population = _population(header)
            members = [member for member in archive.names if member.startswith("samples/") and member.endswith(".json")]
            at_most(len(members), population, "samples/*.json members")
            for member in members:
                try:
                    sample, codes = load_with_codes(archive.read(member, max_bytes), max_bytes, self.policy.exact)
                except InvalidEvidence as exc:
                    if exc.code in ("bad-archive", "archive-too-large"):
                        raise
                    rows.append((member, invalid_row(None, exc.code, exc.message)))
                    continue
                rows.append((member, self.sample(sample, "$", codes)))
        return rows, population


def _population(log: object) -> int:
    if type(log) is not dict:
        raise InvalidEvidence("not-an-object", f"an Inspect log must be a JSON object, not {json_kind(log)}")
    status = log.get("status", ABSENT)
    if status != "success" or type(status) is not str:
        # A run that errored, was cancelled or is still going ("started")
        # logged only some samples, under results it may never have finished.
        described = "absent" if status is ABSENT else shown(status)
        raise InvalidEvidence("requirement-failed", f"the Inspect log's status is {described}, not 'success'")
    invalidated = log.get("invalidated", False)
    if invalidated is not False:
        described = "true" if invalidated is True else shown(invalidated)
        raise InvalidEvidence(
            "requirement-failed",
            f"the Inspect log's invalidated is {described}, not false: its samples are not evidence",
        )
    total = declared_count(at(log, "results", "total_samples"), "results.total_samples", "Inspect log")
    if not total:
        raise InvalidEvidence("missing-evidence", "the Inspect log declares no samples: there is nothing to gate")
    return total


def _labels(labels: object, policy: Policy) -> dict[str, Number]:
    """The closed map from letter grades to scores; configuration errors raise ``PolicyError``."""
    from .._decide import score_problem

    # A Source keeps a mapping as sorted (letter, score) pairs.
    pairs: list[object]
    if isinstance(labels, dict):
        pairs = list(labels.items())
    elif isinstance(labels, tuple):
        pairs = list(labels)
    else:
        raise PolicyError("bad-option", f"labels must map letters to scores, not {shown(labels)}")
    result: dict[str, Number] = {}
    for pair in pairs:
        if not isinstance(pair, tuple) or len(pair) != 2:
            raise PolicyError("bad-option", f"labels must map letters to scores, not {shown(labels)}")
        label, score = pair
        if type(label) is not str or not label:
            raise PolicyError("bad-option", f"a label must be a non-empty string, not {shown(label)}")
        problem = score_problem(score, policy)
        if problem is not None:
            raise PolicyError("bad-option", f"the label {label!r} maps to a score that is unusable: {problem[1]}")
        result[label] = score  # score_problem admitted it
    if not result:
        raise PolicyError("bad-option", "labels maps no letter")
    return result


def _reader(options: Options, policy: Policy, names: Sequence[str | None]) -> SampleReader:
    return _Reader(policy, options)


SAMPLES = Samples(
    options=(
        Option("scorer", "the scorer whose value is the score"),
        Option("labels", "the closed map of letter grades to scores, e.g. C=1,P=0.5,I=0,N=0"),
    ),
    reader=_reader,
)
