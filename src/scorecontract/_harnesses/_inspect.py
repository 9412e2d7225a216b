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
``unscored_samples``; the trial ids it scheduled, ``eval.dataset.sample_ids``
times the epochs, which every sample (and every ``.eval`` member's name)
must be one of.  A ``.json`` log's samples are reconciled with its header
in ``check`` too; a ``.eval``'s members are decoded only by ``report``.
"""

from __future__ import annotations

from .._describe import json_kind
from .._errors import InvalidEvidence, PolicyError
from .._sample_reader import (
    SampleReader,
    canonical_trial_id,
    clip,
    invalid_row,
    load_with_codes,
    once,
    path_under,
)
from ._base import (
    ABSENT,
    Count,
    Headline,
    Option,
    Samples,
    Selected,
    at,
    count,
    decode,
    finite,
    literal,
    load,
    names_of,
    no_such,
    one,
    path,
    reconcile,
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
FOLLOWS = "inspect-ai 0.3.285 logs (results.headline, logged_samples, early_stopping) and log versions 1 and 2, .json and .eval, as the writer stands at commit 499e615"

# The local file header signature of a ZIP (APPNOTE.TXT section 4.3.7): an
# Inspect .eval log.  A .json log starts with "{" (after whitespace).
_ZIP_MAGIC = b"PK\x03\x04"


def _text(raw: bytes | str, max_bytes: int, origin: list[tuple[str, object]]) -> tuple[str, list[str] | None]:
    """The log's text, and the names of a ``.eval``'s sample members (None for a ``.json`` log).

    The text is the whole ``.json`` log, or a ``.eval``'s member
    header.json.  A ``.eval`` that Inspect edited in place (edit_eval_log,
    write_eval_log(header_only=True)) still holds the header it replaced,
    outside the central directory: *origin* names it (``superseded``).
    """
    if type(raw) is bytes and raw[:4] == _ZIP_MAGIC:
        from .._archive import Archive

        if len(raw) > max_bytes:
            # The archive itself is evidence, bounded as every evidence is.
            raise InvalidEvidence("too-large", f"evidence is {len(raw)} bytes, over the limit of {max_bytes}")
        origin.append(("member", "header.json"))
        # header.json is the log without its samples: their NaN scores and
        # their size stay in their own members, unread.
        with Archive(raw, what="the Inspect .eval log") as archive:
            member = archive.read("header.json", max_bytes)
            refuse_superseded_samples(archive.superseded)
            if archive.superseded:
                origin.append(("superseded", list(archive.superseded)))
            members = sample_members(archive.names)
        return decode(member, max_bytes), members
    return decode(raw, max_bytes), None


def refuse_superseded_samples(superseded: Sequence[str]) -> None:
    """Refuse a ``.eval`` holding a sample member it replaced (``bad-archive``).

    Inspect edits a log in place by appending a new header.json
    (edit_eval_log, write_eval_log(header_only=True)); it never rewrites a
    sample.  A sample written twice is a sample replaced: which of the two
    is the evidence is not the file's to choose, and the one left unlisted
    may be the failing one.
    """
    replaced = sorted({name for name in superseded if name.startswith("samples/")})
    if replaced:
        raise InvalidEvidence(
            "bad-archive",
            f"the Inspect .eval log holds {len(replaced)} sample member(s) written twice, the earlier outside the "
            f"central directory ({clip(', '.join(replaced), 80)}): Inspect rewrites only header.json in place, so a "
            "sample was replaced",
        )


def sample_members(names: Sequence[str]) -> list[str]:
    """The sample members of a ``.eval`` listing: ``samples/<id>_epoch_<n>.json``, each named once."""
    return [name for name in names if name.startswith("samples/") and name.endswith(".json")]


def distinct_samples(samples: list[object], codes: Codes | None) -> None:
    """Refuse a ``.json`` log's samples array holding one sample of one epoch twice (``once``).

    The key is the trial id ``report --from inspect`` gives the sample,
    ``[id, epoch]``; a sample without a readable one is the report's to
    judge.  A ``.eval`` names each sample's member for its id and epoch,
    and the archive reader refuses a name listed twice.
    """
    seen: dict[str, str] = {}
    for index, sample in enumerate(samples):
        base = f"$['samples'][{index}]"
        key, _ = canonical_trial_id(
            [(path_under(base, "id"), at(sample, "id")), (path_under(base, "epoch"), at(sample, "epoch"))], codes
        )
        if key is not None:
            once(seen, key, base, "the Inspect log's samples")


def _schedule(log: object) -> tuple[set[str] | None, int]:
    """The trial ids the log declares, ``[id, epoch]`` as ``canonical_trial_id`` writes them, and its epochs.

    The ids are eval.dataset.sample_ids (the samples the run selected:
    Inspect writes them after --limit and --sample-id) times the epochs
    1..eval.config.epochs; None when the log lists no ids, and then only
    the epochs are known.
    """
    epochs = _epochs(log)
    ids = at(log, "eval", "dataset", "sample_ids")
    if ids is ABSENT or ids is None:
        return None, epochs
    if type(ids) is not list:
        raise InvalidEvidence(
            "wrong-type", f"the Inspect log's eval.dataset.sample_ids is {json_kind(ids)}, not a list"
        )
    keys: set[str] = set()
    for index, value in enumerate(ids):
        where = path("eval", "dataset", "sample_ids", index)
        for epoch in range(1, epochs + 1):
            key, problem = canonical_trial_id([(where, value), ("epoch", epoch)])
            if problem is not None:
                raise InvalidEvidence(problem[0], f"the Inspect log's sample ids: {problem[1]}")
            if key is not None:
                keys.add(key)
    return keys, epochs


def scheduled_samples(log: object, keyed: Sequence[tuple[str, str]]) -> None:
    """Refuse a sample whose trial id the log did not schedule (INVALID ``not-scheduled``).

    *keyed* is (trial id, place) of each sample with a readable id.  The
    population is a set of ids, not a count: a copy of sample 1 under the
    id "1" (a string where the log lists the integer), under epoch 2 of a
    run of one epoch, or under an id eval.dataset.sample_ids does not list
    is as many records as the run had, and none of them is one it ran.
    """
    import json

    declared, epochs = _schedule(log)
    for key, place in keyed:
        if declared is not None and key in declared:
            continue
        parts = json.loads(key)
        epoch = parts[-1] if type(parts) is list and parts else None
        if type(epoch) is not int or not 1 <= epoch <= epochs:
            raise InvalidEvidence(
                "not-scheduled",
                f"the Inspect log's sample at {clip(place, 80)} is of epoch {clip(ascii(epoch), 40)}, but the run had "
                f"{epochs} (eval.config.epochs): it is no sample the run ran",
            )
        if declared is not None:
            sample_id = parts[0]
            # The same id of the other type: Inspect keeps an id's type (str
            # or int) from the dataset, so "1" is not the sample 1.
            other = str(sample_id) if type(sample_id) is int else sample_id
            if type(sample_id) is str and sample_id.isdigit() and sample_id.isascii():
                other = int(sample_id)
            retyped = json.dumps([other, epoch], ensure_ascii=False, separators=(",", ":")) in declared
            why = f" (it lists {json.dumps(other)}: an id of another type)" if retyped else ""
            raise InvalidEvidence(
                "not-scheduled",
                f"the Inspect log's sample at {clip(place, 80)} has the id {clip(json.dumps(sample_id), 40)}, which "
                f"eval.dataset.sample_ids does not list{why}: it is no sample the run ran",
            )


def scheduled_members(log: object, members: Sequence[str]) -> None:
    """Refuse a ``.eval`` sample member whose name is no sample the log scheduled (``not-scheduled``).

    Inspect names each member for its sample, ``samples/<id>_epoch_<n>.json``
    (inspect_ai/log/_recorders/eval.py, sample_filename), so the name alone
    shows an epoch the run did not have or an id eval.dataset.sample_ids
    does not list, without decoding the member.  The name cannot tell the
    id "1" from 1: ``report --from inspect`` reads the member for that.
    """
    declared, epochs = _schedule(log)
    names = None
    if declared is not None:
        import json

        names = set()
        for key in declared:
            sample_id, epoch = json.loads(key)
            names.add(f"samples/{sample_id}_epoch_{epoch}.json")
    for member in members:
        stem, _, epoch = member[: -len(".json")].rpartition("_epoch_")
        number = int(epoch) if epoch.isdigit() and epoch.isascii() else 0
        if not stem or not 1 <= number <= epochs:
            raise InvalidEvidence(
                "not-scheduled",
                f"the Inspect log's member {clip(ascii(member), 80)} is not named for a sample of epoch 1 to {epochs} "
                "(Inspect writes samples/<id>_epoch_<n>.json, and eval.config.epochs is "
                f"{epochs}): it is no sample the run ran",
            )
        if names is not None and member not in names:
            raise InvalidEvidence(
                "not-scheduled",
                f"the Inspect log's member {clip(ascii(member), 80)} is named for an id eval.dataset.sample_ids does "
                "not list: it is no sample the run ran",
            )


def _keys(samples: list[object], codes: Codes | None) -> list[tuple[str, str]]:
    """(trial id, place) of each sample of a ``.json`` log with a readable ``[id, epoch]``."""
    keyed: list[tuple[str, str]] = []
    for index, sample in enumerate(samples):
        base = f"$['samples'][{index}]"
        key, _ = canonical_trial_id(
            [(path_under(base, "id"), at(sample, "id")), (path_under(base, "epoch"), at(sample, "epoch"))], codes
        )
        if key is not None:
            keyed.append((key, base))
    return keyed


def _distinct(document: object, members: list[str] | None) -> None:
    """The samples' ids checked once their count is reconciled: a ``.json`` log's samples, a ``.eval``'s names."""
    samples = at(document, "samples") if members is None else None
    if type(samples) is list:
        distinct_samples(samples, None)
        scheduled_samples(document, _keys(samples, None))
    if members is not None:
        scheduled_members(document, members)


def _rows(document: object, members: list[str] | None) -> list[Count]:
    """The count of the log's per-sample records, as ``report --from inspect`` reads them.

    A ``.json`` log's samples array (each sample of each epoch once), or a
    ``.eval``'s sample members; none for a log written without samples.
    """
    if members is not None:
        return [Count(len(members), "samples in the log", "samples/*.json", "rows")]
    samples = at(document, "samples")
    if type(samples) is not list:
        return []
    return [Count(len(samples), "samples in the log", "$['samples']", "rows")]


def _facts(log: object) -> tuple[int, list[str]]:
    """The log's version, once its status, error and invalidated say its results are evidence.

    Returns the version and the reasons the run is partial: a log whose
    status is ``cancelled`` still carries metrics over what ran.  A log
    that errored or is still going (``started``) is INVALID, as is one
    that says success and holds an error (Inspect leaves out what is None,
    exclude_none: such a log contradicts itself), and one Inspect marks
    invalidated.  ``check --from inspect`` and ``report --from inspect``
    ask the same.
    """
    if type(log) is not dict:
        raise InvalidEvidence("not-an-object", f"an Inspect log is a JSON object, not {shown(log)}")
    version = at(log, "version")
    if version is ABSENT:
        raise InvalidEvidence(
            "missing-member",
            "this is not an Inspect log: it has no version (Inspect writes version 1 or 2 in every .json log "
            "and in the header.json of a .eval log)",
        )
    if type(version) is not int or version not in (1, 2):
        raise InvalidEvidence(
            "requirement-failed", f"Inspect log version {shown(version)}: this adapter reads log versions 1 and 2"
        )
    status = at(log, "status")
    reasons: list[str] = []
    if status == "cancelled" and type(status) is str:
        reasons.append("the log's status is 'cancelled'")
    elif status != "success" or type(status) is not str:
        # A run that errored, or is still going, logged only some samples,
        # under results it may never have finished.
        raise InvalidEvidence(
            "requirement-failed", f"the Inspect log's status is {shown(status)}, not 'success' (requirement $.status)"
        )
    if at(log, "error") is not ABSENT:
        raise InvalidEvidence(
            "requirement-failed", f"the Inspect log's status is {ascii(status)} but it holds an error: which is true?"
        )
    # Inspect writes invalidated as a bool, or leaves it out: anything else
    # (the string "true", null, 1) is not "not invalidated", and a test that
    # only asks "!= true" would let it pass.
    invalidated = at(log, "invalidated")
    if invalidated is True:
        raise InvalidEvidence("requirement-failed", "Inspect marks this log invalidated (invalidated is true)")
    if invalidated is not ABSENT and invalidated is not False:
        raise InvalidEvidence("wrong-type", f"the Inspect log's invalidated is {shown(invalidated)}, not true or false")
    if at(log, "results") is ABSENT:
        raise InvalidEvidence("missing-member", "the Inspect log has no results: no scorer ran")
    stops = at(log, "results", "early_stopping", "early_stops")
    if type(stops) is list and stops:
        reasons.append(f"early_stopping stopped {len(stops)} samples")
    return version, reasons


def _epochs(log: object) -> int:
    """How many times the run repeats each sample: eval.config.epochs, 1 when unset."""
    epochs = at(log, "eval", "config", "epochs")
    if epochs is ABSENT or epochs is None:
        return 1
    if type(epochs) is not int or epochs < 1:
        raise InvalidEvidence("wrong-type", f"the Inspect log's eval.config.epochs is {shown(epochs)}, not a count")
    number: int = epochs
    return number


def selection_counts(log: object) -> list[Count]:
    """The counts an Inspect log states of its dataset and of the selection the run made of it.

    eval.dataset.samples (the whole dataset) and eval.dataset.sample_ids
    (the ids the run selected), times the epochs; eval.config.limit and
    sample_id (a selection).  Inspect writes them in logs of every version,
    beside results that may state no count of their own (a version 1 log).
    """
    epochs = _epochs(log)
    times = f" x {epochs} epochs" if epochs != 1 else ""
    counts: list[Count] = []
    samples = at(log, "eval", "dataset", "samples")
    if samples is not ABSENT and samples is not None:
        # Stated, it must be a count: 1000.0, "1000" or -1 skipped here let a
        # run of 4 of 1000 samples pass as whole (an outside review).
        declared = count(samples, "the Inspect log's eval.dataset.samples")
        where = path("eval", "dataset", "samples")
        counts.append(Count(declared * epochs, f"eval.dataset.samples{times}", where, "declared"))
    ids = at(log, "eval", "dataset", "sample_ids")
    if ids is not ABSENT and ids is not None:
        if type(ids) is not list:
            raise InvalidEvidence(
                "wrong-type", f"the Inspect log's eval.dataset.sample_ids is {json_kind(ids)}, not a list"
            )
        where = path("eval", "dataset", "sample_ids")
        counts.append(Count(len(ids) * epochs, f"eval.dataset.sample_ids{times}", where, "scheduled"))
    limit = at(log, "eval", "config", "limit")
    if limit is not ABSENT and limit is not None:
        # inspect_ai slice_dataset: a count of the first samples, or a
        # [start, end) range of them.
        ceiling = samples if type(samples) is int else None
        if type(limit) is int and limit >= 0:
            selected = limit if ceiling is None else min(limit, ceiling)
        elif type(limit) is list and len(limit) == 2 and all(type(end) is int and end >= 0 for end in limit):
            start, stop = limit
            selected = max(0, (stop if ceiling is None else min(stop, ceiling)) - start)
        else:
            raise InvalidEvidence("wrong-type", f"the Inspect log's eval.config.limit is {shown(limit)}, not a limit")
        counts.append(
            Count(selected * epochs, f"eval.config.limit{times}", path("eval", "config", "limit"), "selected")
        )
    chosen = at(log, "eval", "config", "sample_id")
    if chosen is not ABSENT and chosen is not None:
        number = len(chosen) if type(chosen) is list else 1
        where = path("eval", "config", "sample_id")
        counts.append(Count(number * epochs, f"eval.config.sample_id{times}", where, "selected"))
    return counts


def log_counts(log: object, entries: list[tuple[str, object]]) -> list[Count]:
    """Every count an Inspect log states of the samples its headline stands on.

    Inspect counts samples times epochs: total_samples is the samples the
    run scheduled, after any --limit or --sample-id (Inspect's
    resolve_dataset repeats the dataset once per epoch before it counts),
    completed_samples those that completed, and eval.dataset.samples the
    whole dataset; eval.config.limit and sample_id record a selection, and
    eval.dataset.sample_ids its ids.  Each scorer of *entries*, (path,
    EvalScore), counts the samples it scored after the epochs were reduced
    to one score per sample.  ``check --from inspect`` and ``report
    --from inspect`` reconcile the same counts.
    """
    epochs = _epochs(log)
    counts = [
        Count(
            count(at(log, "results", "total_samples"), "the Inspect log's total_samples"),
            "results.total_samples",
            path("results", "total_samples"),
            "scheduled",
        ),
        Count(
            count(at(log, "results", "completed_samples"), "the Inspect log's completed_samples"),
            "results.completed_samples",
            path("results", "completed_samples"),
            "covered",
        ),
    ]
    logged = at(log, "results", "logged_samples")
    if logged is not ABSENT:
        where = path("results", "logged_samples")
        counts.append(Count(count(logged, "the Inspect log's logged_samples"), "logged_samples", where, "scheduled"))
    counts += selection_counts(log)
    for where, entry in entries:
        name = ascii(at(entry, "name"))
        scored = at(entry, "scored_samples")
        unscored = at(entry, "unscored_samples")
        # A reducer makes one score of each sample's epochs.  inspect-ai
        # 0.3.285 writes the default reducer as null and still counts
        # scored_samples per sample; older logs count each epoch: the counts
        # are per sample when the scored and unscored ones, times the
        # epochs, are what completed.
        parts = [
            count(value, f"{key} of scorer {name}")
            for key, value in (("scored_samples", scored), ("unscored_samples", unscored))
            if value is not ABSENT
        ]
        named = at(entry, "reducer") not in (ABSENT, None)
        per_sample = named or bool(parts and sum(parts) * epochs == counts[1].value and epochs != 1)
        reduced = epochs if per_sample else 1
        per = f" x {reduced} epochs" if reduced != 1 else ""
        if scored is not ABSENT:
            number = count(scored, f"scored_samples of scorer {name}") * reduced
            counts.append(Count(number, f"scored_samples of {name}{per}", f"{where}['scored_samples']", "covered"))
        if unscored is not ABSENT:
            left = count(unscored, f"unscored_samples of scorer {name}") * reduced
            counts.append(
                Count(
                    counts[1].value - left,
                    f"completed_samples less the unscored_samples of {name}{per}",
                    f"{where}['unscored_samples']",
                    "covered",
                )
            )
    return counts


# Inspect's built-in metrics of spread (inspect_ai/scorer/_metrics): never a
# headline to gate unless the caller names one.
_DISPERSIONS = frozenset({"stderr", "std", "var", "bootstrap_stderr"})


def _reducers(log: object, where: str, entry: object) -> None:
    """Refuse a score whose reducer is not one of eval.config.epochs_reducer (INVALID ``value-mismatch``).

    Inspect applies the reducers the config names and writes one score per
    reducer; a score claiming another one says two things about one run.
    """
    reducer = at(entry, "reducer")
    stated = at(log, "eval", "config", "epochs_reducer")
    if type(reducer) is not str or type(stated) is not list or not stated:
        return
    if not all(type(name) is str for name in stated) or reducer in stated:
        return
    raise InvalidEvidence(
        "value-mismatch",
        f"the score at {where} is reduced with {ascii(reducer)}, but eval.config.epochs_reducer names "
        f"{names_of(stated)}: the log says two things about its run",
    )


def _scores(document: object, scorer: str | None, metric: str | None, reducer: str | None) -> tuple[str, str]:
    """The path of the one EvalScore gated, and the metric: by name, reducer and results.headline.

    Several EvalScores share a name when a task has several epoch reducers
    (mean, max, ...): the caller's reducer picks one, else the selection is
    ambiguous.  Without a scorer and a metric the headline Inspect resolved
    (results.headline, reducer included) is gated.
    """
    scores = at(document, "results", "scores")
    if type(scores) is not list:
        raise InvalidEvidence("missing-member", "the Inspect log's results have no scores array")
    if not scores:
        raise InvalidEvidence(
            "empty-run",
            f"the Inspect log's status is {ascii(at(document, 'status'))} but results.scores is empty: no scorer "
            "produced a metric",
        )
    headline = at(document, "results", "headline")
    if scorer is None:
        if type(headline) is not dict or type(at(headline, "metric")) is not str:
            raise PolicyError(
                "missing-option",
                "check --from inspect needs --scorer S and --metric M: this log names no headline "
                "(results.headline, which Inspect writes from 0.3.285)",
            )
        named = at(headline, "score")
        chosen, wanted = (named if type(named) is str else at(headline, "scorer")), at(headline, "metric")
        if type(chosen) is not str or type(wanted) is not str:
            raise InvalidEvidence("wrong-type", f"the Inspect log's results.headline is {shown(headline)}")
        if wanted in _DISPERSIONS:
            # The headline is the file's choice; a spread is no score to
            # release on (review finding 14): the caller names the metric.
            raise PolicyError(
                "missing-option",
                f"this log's results.headline names the metric {ascii(wanted)}, a spread of the scores, not a score: "
                "give --scorer S and --metric M",
            )
        scorer, metric = chosen, wanted
        stated = at(headline, "reducer")
        if reducer is None and type(stated) is str:
            reducer = stated
    if type(scorer) is not str or type(metric) is not str:
        raise InvalidEvidence("wrong-type", f"the Inspect log's results.headline is {shown(headline)}")
    names = [at(entry, "name") for entry in scores]
    found = [index for index, entry in enumerate(scores) if at(entry, "name") == scorer]
    if not found:
        raise no_such("scorer", scorer, "--scorer", "the Inspect log", names)
    if reducer is not None:
        reduced = [index for index in found if at(scores[index], "reducer") == reducer]
        if not reduced:
            reducers = [at(scores[index], "reducer") for index in found]
            raise no_such("reducer", reducer, "--reducer", f"Inspect's scorer {ascii(scorer)}", reducers)
        found = reduced
    # The file's own results.headline may not choose the reducer for a
    # caller who named the score: only a caller who named nothing (and so
    # asked for the headline) gets the headline's reducer, above.
    if len(found) > 1:
        reducers = [at(scores[index], "reducer") for index in found]
        raise InvalidEvidence(
            "ambiguous-selection",
            f"the Inspect log has {len(found)} scores named {ascii(scorer)}, one per epoch reducer (--reducer): "
            f"{names_of(reducers)}",
        )
    entry = scores[found[0]]
    metrics = at(entry, "metrics")
    if type(metrics) is dict and metric not in metrics:
        raise no_such("metric", metric, "--metric", f"Inspect's scorer {ascii(scorer)}", list(metrics))
    return path("results", "scores", found[0]), metric


def _gate(raw: bytes | str, options: Options, policy: Policy, max_bytes: int, trace: Trace) -> Selected:
    scorer, metric = options.get("scorer"), options.get("metric")
    reducer = options.get("reducer")
    trace.query = path("results", "scores")
    text, members = _text(raw, max_bytes, trace.origin)
    document, records = load(text, policy)
    version, reasons = _facts(document)
    allow = options.switch("allow_partial")
    if version == 1:
        if type(scorer) is not str or type(metric) is not str:
            raise PolicyError(
                "missing-option", "check --from inspect needs --scorer S and --metric M for a log of version 1"
            )
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
            counts = [*log_counts(document, []), *_rows(document, members)]
            _, notes = reconcile(counts, harness="Inspect", unit="samples", allow_partial=allow, reasons=reasons)
            _distinct(document, members)
            if notes:
                trace.origin.append(("partial", notes[0]))
        else:
            # Without the results' counts the log still says what the run
            # selected (eval.config.limit, sample_id, eval.dataset): a
            # relabelled version cannot hide a --limit run of part of a
            # dataset whose size it states (review finding 01).  The
            # headline stands on no more than the least of them.  A limit
            # with no dataset size (Inspect's own version 1 test log: limit
            # 20 of a dataset it does not count) decides nothing.
            stated = selection_counts(document)
            if any(stated_count.role == "declared" for stated_count in stated):
                least = min(stated, key=lambda stated_count: stated_count.value)
                basis = Count(least.value, f"(no count in the results: {least.what})", least.where, "covered")
                counts = [*stated, basis, *_rows(document, members)]
                _, notes = reconcile(counts, harness="Inspect", unit="samples", allow_partial=allow, reasons=reasons)
                _distinct(document, members)
                if notes:
                    trace.origin.append(("partial", notes[0]))
            elif reasons and not allow:
                raise InvalidEvidence("partial-run", f"{reasons[0]}; pass --allow-partial to gate a partial run")
        return Selected(document, records, query, policy)
    where, metric = _scores(
        document,
        scorer if type(scorer) is str else None,
        metric if type(metric) is str else None,
        reducer if type(reducer) is str else None,
    )
    query = f"{where}['metrics'][{literal(metric)}]['value']"
    trace.query = query
    entry = one(document, where)[1]
    _reducers(document, where, entry)
    counts = [*log_counts(document, [(where, entry)]), *_rows(document, members)]
    _, notes = reconcile(counts, harness="Inspect", unit="samples", allow_partial=allow, reasons=reasons)
    _distinct(document, members)
    if members is None:
        _against_samples(document, where, entry, metric)
    if notes:
        trace.origin.append(("partial", notes[0]))
    return Selected(document, records, query, policy)


# Inspect's value_to_float (inspect_ai/scorer/_metric.py): the letter grades
# its accuracy and mean metrics read as numbers.
_GRADES = {"C": 1.0, "I": 0.0, "P": 0.5, "N": 0.0}


def _against_samples(document: object, where: str, entry: object, metric: str) -> None:
    """Refuse a ``.json`` log whose samples contradict the headline it states.

    A sample carrying an error is INVALID ``grader-errors``, as ``report
    --from inspect`` reads it.  The headline of a score whose metric is
    ``accuracy`` or ``mean`` under the mean reducer (the default) is the
    mean over the samples of each sample's mean over its epochs: when
    every sample holds the score as a number or a letter grade, a value
    more than 1e-9 away is INVALID ``value-mismatch`` (an edited headline).
    Other metrics and reducers are not recomputed.
    """
    import json

    samples = at(document, "samples")
    if type(samples) is not list:
        return
    for index, sample in enumerate(samples):
        error = at(sample, "error")
        if error is not ABSENT and error is not None:
            why = at(error, "message")
            said = f": {clip(why, 80)}" if type(why) is str else ""
            raise InvalidEvidence(
                "grader-errors", f"the Inspect log records an error for the sample at $['samples'][{index}]{said}"
            )
    reducer = at(entry, "reducer")
    stated = at(entry, "metrics", metric, "value")
    if metric not in ("accuracy", "mean") or reducer not in (ABSENT, None, "mean"):
        return
    if (type(stated) is not int and type(stated) is not float) or not finite(stated):
        return
    name, function = at(entry, "name"), at(entry, "scorer")
    if type(name) is not str:
        return
    keys: tuple[str, ...] = (name, "value")
    if type(function) is str and function != name:
        keys = (function, "value", name)
    per_id: dict[str, list[float]] = {}
    for sample in samples:
        value = at(sample, "scores", *keys)
        if type(value) is str and value in _GRADES:
            number = _GRADES[value]
        elif (type(value) is int or type(value) is float) and finite(value):
            number = float(value)
        else:
            return
        sample_id = at(sample, "id")
        if type(sample_id) is not str and type(sample_id) is not int:
            return  # the id is the report's to judge
        per_id.setdefault(json.dumps(sample_id), []).append(number)
    if not per_id:
        return
    means = [sum(values) / len(values) for values in per_id.values()]
    recomputed = sum(means) / len(means)
    if abs(recomputed - stated) > 1e-9:
        raise InvalidEvidence(
            "value-mismatch",
            f"the Inspect log states {metric} {stated!r} at {where}['metrics'][{literal(metric)}]['value'], but its "
            f"{len(samples)} samples make it {recomputed!r}: the headline was edited, or the samples were",
        )


HEADLINE = Headline(
    options=(
        Option("scorer", "the score whose metric is gated (results.scores[].name); default: results.headline's"),
        Option("metric", "the metric of that score: accuracy, mean, ...; default: results.headline's"),
        Option("reducer", "the epoch reducer, when several scores share the name (mean, max, pass_at_2)"),
        Option("allow_partial", "gate a run that covered part of its dataset (--limit, --sample-id, a cancel)"),
    ),
    together=(("scorer", "metric"),),
    file="an Inspect log, `.json` or `.eval`",
    selects="log version 2: results.scores[name == S].metrics[M].value; version 1: results.metrics[M].value; "
    "in a .json log, or in the member header.json of a .eval ZIP log",
    requires='status "success" (or "cancelled", a partial run) and no error member; invalidated absent or false; '
    "results.scores non-empty (else INVALID empty-run); eval.dataset.samples x epochs, the limit or sample_id, "
    "total_samples, completed_samples and the score's scored_samples agree, and the samples the log holds (a .json "
    "log's array, each id and epoch once, or a .eval's members) are no more than it scheduled (else INVALID "
    "population-mismatch; a selection of the dataset or a cancel is partial-run unless --allow-partial); each "
    "sample's [id, epoch] (a .eval member's name) one of eval.dataset.sample_ids x epochs 1..eval.config.epochs "
    "(else INVALID not-scheduled); a .json log's samples without an error (else grader-errors) and agreeing with an "
    "accuracy or mean headline (else value-mismatch); the score's reducer one of eval.config.epochs_reducer; "
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
        self.allow_partial = options.switch("allow_partial")
        # Where a sample holds the score: scores[S].value, or for a
        # dict-valued scorer F, whose scores are named for its keys,
        # scores[F].value[S] (the header's EvalScore says which).
        self.keys: tuple[str, ...] = (scorer, "value")
        labels = options.get("labels")
        super().__init__(policy, None if labels is None else _labels(labels, policy))

    def description(self) -> dict[str, object]:
        labels = None if self.labels is None else dict(self.labels)
        return {"harness": "inspect", "scorer": self.scorer, "labels": labels, "allow_partial": self.allow_partial}

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
        where = path_under(base, "scores", *self.keys)
        value = at(sample, "scores", *self.keys)
        if value is ABSENT and type(at(sample, "scores", *self.keys[:-1])) is not dict:
            scores = at(sample, "scores")
            listed = names_of(list(scores)) if type(scores) is dict else "none"
            return invalid_row(
                trial_id,
                "missing-member",
                f"the sample has no score by {self.scorer!r} (--scorer); its scores: {listed}",
            )
        return self.judge(trial_id, where, value, codes, sample)

    def _entries(self, log: object) -> list[tuple[str, object]]:
        """The header's EvalScores of the scorer, (path, entry); they say where a sample holds its score."""
        _facts(log)
        scores = at(log, "results", "scores")
        entries = [
            (path("results", "scores", index), entry)
            for index, entry in enumerate(scores if type(scores) is list else [])
            if at(entry, "name") == self.scorer
        ]
        if not entries and type(scores) is list and scores:
            # Inspect writes an EvalScore for every score its samples hold.
            raise no_such("scorer", self.scorer, "--scorer", "the Inspect log", [at(e, "name") for e in scores])
        for _, entry in entries:
            function = at(entry, "scorer")
            if type(function) is str and function != self.scorer:
                self.keys = (function, "value", self.scorer)
        return entries

    def _population(self, log: object, entries: list[tuple[str, object]], rows: int, where: str) -> int:
        """The population the header declares, by the rule check --from inspect applies to it."""
        _, reasons = _facts(log)
        counts = log_counts(log, entries)
        counts.append(Count(rows, "samples in the log", where, "rows"))
        number, _ = reconcile(
            counts, harness="Inspect", unit="samples", allow_partial=self.allow_partial, reasons=reasons
        )
        return number

    def document(self, data: bytes, name: str, max_bytes: int) -> tuple[list[Placed], int | None]:
        if data[:4] == _ZIP_MAGIC:
            return self._eval(data, name, max_bytes)
        log, codes = load_with_codes(data, max_bytes, self.policy.exact)
        entries = self._entries(log)
        samples = at(log, "samples")
        if type(samples) is not list:
            raise InvalidEvidence(
                "missing-member",
                "the Inspect log has no samples array (a log written without samples, --no-log-samples, "
                "has nothing to gate per sample)",
            )
        rows: list[Placed] = []
        for index, sample in enumerate(samples):
            base = f"$['samples'][{index}]"
            rows.append((base, self.sample(sample, base, codes)))
        population = self._population(log, entries, len(samples), "$['samples']")
        distinct_samples(samples, codes)
        scheduled_samples(log, _keys(samples, codes))
        return rows, population

    def _eval(self, data: bytes, name: str, max_bytes: int) -> tuple[list[Placed], int | None]:
        from .._archive import MAX_RATIO, Archive

        rows: list[Placed] = []
        # Each member within the byte limit, and all of them together within
        # the ratio of the whole archive: overlapping entries cannot make a
        # small file inflate without end.
        with Archive(data, what=f"the Inspect log {name}", total_limit=MAX_RATIO * max(len(data), 1)) as archive:
            refuse_superseded_samples(archive.superseded)
            header, _ = load_with_codes(archive.read("header.json", max_bytes), max_bytes, self.policy.exact)
            entries = self._entries(header)
            members = sample_members(archive.names)
            # Every member is read, within the archive's bounds, before the
            # counts are reconciled: a bomb is refused as one.
            for member in members:
                try:
                    sample, codes = load_with_codes(archive.read(member, max_bytes), max_bytes, self.policy.exact)
                except InvalidEvidence as exc:
                    if exc.code in ("bad-archive", "archive-too-large"):
                        raise
                    rows.append((member, invalid_row(None, exc.code, exc.message)))
                    continue
                rows.append((member, self.sample(sample, "$", codes)))
        population = self._population(header, entries, len(members), "samples/*.json")
        scheduled_members(header, members)
        # The members' own names are distinct (the archive reader refuses
        # one listed twice), but a member may hold another's sample.
        seen: dict[str, str] = {}
        keyed: list[tuple[str, str]] = []
        for member, row in rows:
            if row[0] is not None:
                once(seen, row[0], member, "the Inspect log's samples")
                keyed.append((row[0], member))
        scheduled_samples(header, keyed)
        return rows, population


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
        Option("allow_partial", "gate a run that covered part of its dataset (--limit, --sample-id, a cancel)"),
    ),
    reader=_reader,
)
