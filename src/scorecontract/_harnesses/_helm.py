# SPDX-License-Identifier: MIT
"""Stanford CRFM HELM: ``stats.json`` and ``per_instance_stats.json`` of one run.

``stats.json`` is a top-level array of stats, each named by ``name.name``,
``name.split`` and, for a perturbed copy of the data, ``name.perturbation``;
its position varies from run to run, so a stat is found by name.  HELM
deletes a stat whose value is NaN and writes no ``mean`` for a stat of
``count`` 0.  ``per_instance_stats.json`` is an array of instances, each
with the stats of that instance.
"""

from __future__ import annotations

from .._describe import format_number, json_kind
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
    Headline,
    Option,
    Samples,
    Selected,
    at,
    count,
    decode,
    exact,
    finite,
    literal,
    load,
    names_of,
    no_such,
    one,
    shown,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from fractions import Fraction

    from .._policy import Policy
    from .._sample_reader import Codes, Placed, Row
    from ._base import Options, Trace

__all__ = ["FOLLOWS", "HEADLINE", "NAME", "SAMPLES", "TITLE"]

NAME = "helm"
TITLE = "Stanford CRFM HELM"
FOLLOWS = "crfm-helm 0.5.16 benchmark_output/runs/<suite>/<run>/stats.json and per_instance_stats.json, as its runner stands at commit 63754d0"


def _gate(raw: bytes | str, options: Options, policy: Policy, max_bytes: int, trace: Trace) -> Selected:
    metric, split = options.text("metric"), options.text("split")
    stat = f"$[?@.name.name == {literal(metric)} && @.name.split == {literal(split)} && !@.name.perturbation]"
    query = f"{stat}['mean']"
    trace.query = query
    document, records = load(decode(raw, max_bytes), policy)
    if type(document) is not list:
        raise InvalidEvidence(
            "wrong-type", f"this is not HELM's stats.json, a JSON array of stats: it is {shown(document)}"
        )
    plain = [entry for entry in document if at(entry, "name", "perturbation") is ABSENT]
    named = [entry for entry in plain if at(entry, "name", "name") == metric]
    if not named:
        raise no_such("stat", metric, "--metric", "HELM's stats.json", [at(e, "name", "name") for e in plain])
    if split not in [at(entry, "name", "split") for entry in named]:
        splits = [at(entry, "name", "split") for entry in named]
        raise no_such("split", split, "--split", f"HELM's stat {ascii(metric)} in stats.json", splits)
    where, entry = one(document, stat)
    number = count(at(entry, "count"), f"the count of HELM stat {ascii(metric)} (split {ascii(split)})")
    if number == 0:
        raise InvalidEvidence(
            "empty-run",
            f"HELM stat {ascii(metric)} (split {ascii(split)}) at {where} has count 0: no instance was scored",
        )
    if at(entry, "mean") is ABSENT:
        raise InvalidEvidence(
            "missing-member", f"HELM stat {ascii(metric)} (split {ascii(split)}) at {where} has no mean"
        )
    agree(entry, where, f"HELM stat {ascii(metric)} (split {ascii(split)})", policy)
    return Selected(document, records, query, policy)


def agree(stat: object, where: str, what: str, policy: Policy) -> None:
    """Refuse a stat whose mean contradicts its own sum / count, or lies outside its min and max.

    HELM's Stat keeps sum and count and computes mean = sum / count (and
    min, max beside it): a mean edited alone, or written by another tool,
    says what the stat's own numbers do not.  Rounding to six decimals is
    not a contradiction (HELM writes the float sum / count: 2/3 is
    0.6666666666666666); anything further is.  Nor may the rounding
    decide: where the mean and the exact sum / count fall on either side
    of *policy*'s threshold (a mean of 0.7 over a sum / count of
    0.6999999), the stat does not say which verdict it supports, and is
    refused whatever the tolerance.
    """
    from fractions import Fraction

    mean, total, number = at(stat, "mean"), at(stat, "sum"), at(stat, "count")
    if not finite(mean) or type(number) is not int or number <= 0:
        return  # the numeric contract refuses a bad mean
    if not finite(total):
        # HELM's Stat always writes its sum beside the mean; a mean without
        # one cannot be checked, and an edited mean would pass unseen.
        raise InvalidEvidence(
            "value-mismatch",
            f"{what} at {where} has mean {format_number(mean)} but no finite sum to check it against "
            f"(sum is {'absent' if total is ABSENT else json_kind(total)})",
        )
    expected = exact(total) / number
    if abs(exact(mean) - expected) > Fraction(1, 10**6) * max(Fraction(1), abs(expected)):
        raise InvalidEvidence(
            "value-mismatch",
            f"{what} at {where} has mean {format_number(mean)}, but its sum / count is {format_number(total)} / "
            f"{number} = {format_number(float(expected))}",
        )
    if _meets(exact(mean), policy) != _meets(expected, policy):
        raise InvalidEvidence(
            "value-mismatch",
            f"{what} at {where} has mean {format_number(mean)}, but its sum / count is {format_number(total)} / "
            f"{number}, exactly {format_number(float(expected))}: the two fall on either side of the threshold "
            f"{format_number(policy.threshold)}, so the rounding would decide the verdict",
        )
    low, high = at(stat, "min"), at(stat, "max")
    if finite(low) and finite(high) and not exact(low) <= exact(mean) <= exact(high):
        raise InvalidEvidence(
            "value-mismatch",
            f"{what} at {where} has mean {format_number(mean)} outside its own min {format_number(low)} and max "
            f"{format_number(high)}",
        )


def _meets(value: Fraction, policy: Policy) -> bool:
    """Whether *value* passes *policy*'s threshold, compared exactly in its direction."""
    threshold = exact(policy.threshold)
    return value <= threshold if policy.direction == "lower" else value >= threshold


HEADLINE = Headline(
    options=(
        Option("metric", "the stat's name.name, e.g. exact_match", needed=True),
        Option("split", "the stat's name.split", default="test"),
    ),
    file="`stats.json` of one run",
    selects="the mean of the one stat of stats.json (a top-level array) whose name.name is M and "
    "name.split is SPLIT, without a perturbation",
    requires="exactly one such stat (else no-match, listing the stats and splits, or ambiguous-selection); count >= 1 "
    "(else INVALID empty-run); a mean (HELM drops a NaN stat, and a count-0 stat has none) that is its sum / count "
    "to within rounding, on the same side of the threshold as the exact sum / count, and within min and max (else "
    "INVALID value-mismatch)",
    lists="infinities outside the selected stat",
    gate=_gate,
    nonfinite="HELM drops a NaN stat but keeps an infinite one",
)


class _Reader(SampleReader):
    """HELM ``per_instance_stats.json``: an array of instances, each with its stats."""

    framing = "document"

    def __init__(self, policy: Policy, options: Options) -> None:
        super().__init__(policy)
        metric = options.get("metric")
        if type(metric) is not str or not metric:
            raise PolicyError("bad-option", "report --from helm needs the stat's name (--metric), e.g. exact_match")
        split = options.get("split")
        if split is not None and (type(split) is not str or not split):
            raise PolicyError("bad-option", f"split must be a non-empty string, not {shown(split)}")
        self.metric, self.split = metric, split
        self.other_splits: dict[str, int] = {}

    def description(self) -> dict[str, object]:
        described: dict[str, object] = {"harness": "helm", "metric": self.metric, "split": self.split}
        if self.other_splits:
            # Trials of another split than the one gated: not this
            # population, and said, never silently dropped.
            described["other_splits"] = dict(sorted(self.other_splits.items()))
        return described

    def document(self, data: bytes, name: str, max_bytes: int) -> tuple[list[Placed], int | None]:
        instances, codes = load_with_codes(data, max_bytes, self.policy.exact)
        if type(instances) is not list:
            raise InvalidEvidence(
                "not-an-object", f"HELM's per_instance_stats.json is an array of instances, not {json_kind(instances)}"
            )
        # HELM writes each (instance, train trial, perturbation) once per
        # metric class, each time with that class's stats: one trial is the
        # union of its entries.
        rows: list[Placed] = []
        trials: dict[str, tuple[str, list[tuple[str, object]], object]] = {}
        for index, instance in enumerate(instances):
            base = f"$[{index}]"
            trial_id, problem = self._trial(instance, base, codes)
            if problem is not None or trial_id is None:  # _trial gives one or the other
                rows.append((base, problem or invalid_row(None, "internal-error", "please report it")))
                continue
            stats = at(instance, "stats")
            if trial_id not in trials:
                trials[trial_id] = (base, [], instance)
            for number, stat in enumerate(stats if type(stats) is list else []):
                trials[trial_id][1].append((path_under(base, "stats", number), stat))
        _even(trials)
        # One entry per metric class is HELM's own doing; one stat twice in
        # the union is not: HELM runs each (instance, train trial,
        # perturbation) once in a run, and a rerun is another run's file
        # (given as another input, the report's rule for reruns reads it).
        seen: dict[str, str] = {}
        for trial_id, (_, stats, _) in trials.items():
            for where, stat in stats:
                if at(stat, "name", "name") == self.metric and at(stat, "name", "perturbation") is ABSENT:
                    split = at(stat, "name", "split")
                    said = ascii(split) if type(split) is str else shown(split)
                    once(seen, f"{self.metric!r} (split {said}) of {trial_id}", where, "HELM's per-instance stats")
        splits = [
            at(stat, "name", "split")
            for _, stats, _ in trials.values()
            for _, stat in stats
            if at(stat, "name", "name") == self.metric and at(stat, "name", "perturbation") is ABSENT
        ]
        if trials and not splits:
            named = [
                at(stat, "name", "name")
                for _, stats, _ in trials.values()
                for _, stat in stats
                if at(stat, "name", "perturbation") is ABSENT
            ]
            where = "HELM's per_instance_stats.json"
            raise no_such("unperturbed stat", self.metric, "--metric", where, named, "unperturbed stats")
        if self.split is not None and splits and self.split not in splits:
            where = f"HELM's stat {ascii(self.metric)} in per_instance_stats.json"
            raise no_such("split", self.split, "--split", where, splits)
        if self.split is None and len({ascii(split) for split in splits}) > 1:
            raise InvalidEvidence(
                "ambiguous-selection",
                f"HELM's per_instance_stats.json holds the stat {self.metric!r} of the splits {names_of(splits)} "
                "(--split): gate one split",
            )
        for trial_id, (base, stats, instance) in trials.items():
            if self.split is not None:
                own: set[str] = set()
                for _, stat in stats:
                    split = at(stat, "name", "split")
                    if type(split) is str:
                        own.add(split)
                if own and self.split not in own:
                    for split in sorted(own):
                        self.other_splits[split] = self.other_splits.get(split, 0) + 1
                    continue
            rows.append((base, self.stat(trial_id, stats, instance, codes)))
        return rows, None

    def _trial(self, instance: object, base: str, codes: Codes) -> tuple[str | None, Row | None]:
        if type(instance) is not dict:
            described = json_kind(instance)
            return None, invalid_row(None, "not-an-object", f"a HELM instance must be a JSON object, not {described}")
        parts = [
            (path_under(base, "instance_id"), instance.get("instance_id", ABSENT)),
            (path_under(base, "train_trial_index"), instance.get("train_trial_index", ABSENT)),
        ]
        if "perturbation" in instance:
            # A perturbed copy of the instance is a trial of its own.
            parts.append((path_under(base, "perturbation", "name"), at(instance, "perturbation", "name")))
        trial_id, problem = canonical_trial_id(parts, codes)
        if problem is not None:
            return None, invalid_row(None, *problem)
        if type(instance.get("stats")) is not list:
            return None, invalid_row(trial_id, "missing-member", "the HELM instance has no stats array")
        return trial_id, None

    def stat(self, trial_id: str, stats: list[tuple[str, object]], instance: object, codes: Codes) -> Row:
        wanted = f"{self.metric!r}" + (f" (split {self.split!r})" if self.split is not None else "")
        found = [
            (where, stat)
            for where, stat in stats
            if at(stat, "name", "name") == self.metric
            and type(at(stat, "name", "name")) is str
            and (self.split is None or at(stat, "name", "split") == self.split)
            and at(stat, "name", "perturbation") is ABSENT
        ]
        if not found:
            stats_named = names_of([at(stat, "name", "name") for _, stat in stats])
            return invalid_row(
                trial_id,
                "missing-member",
                f"the HELM instance has no unperturbed stat {wanted} (--metric, --split); its stats: {stats_named}",
            )
        if len(found) > 1:
            return invalid_row(
                trial_id,
                "ambiguous-selection",
                f"the HELM instance has {len(found)} unperturbed stats {wanted}"
                + ("; give the split" if self.split is None else ""),
            )
        where, stat = found[0]
        number = at(stat, "count")
        if number is ABSENT:
            return invalid_row(trial_id, "missing-member", f"the HELM stat at {clip(where)} has no count")
        if type(number) is not int or number < 0:
            return invalid_row(
                trial_id,
                "wrong-type",
                f"the count of the HELM stat at {clip(where)} must be an integer >= 0, not {shown(number)}",
            )
        if number == 0:
            return invalid_row(
                trial_id, "empty-run", f"the HELM stat at {clip(where)} has count 0: nothing was measured"
            )
        mean = at(stat, "mean")
        if mean is ABSENT:
            return invalid_row(trial_id, "missing-member", f"the HELM stat at {clip(where)} has no mean")
        try:
            agree(stat, where, "the HELM stat", self.policy)
        except InvalidEvidence as exc:
            return invalid_row(trial_id, exc.code, exc.message)
        return self.judge(trial_id, path_under(where, "mean"), mean, codes, instance)


def _even(trials: dict[str, tuple[str, list[tuple[str, object]], object]]) -> None:
    """Refuse a file whose instances were not each run under the same train trials.

    HELM adapts every instance (each perturbed copy too) once per train
    trial, for train_trial_index 0 to num_train_trials - 1
    (adapter_spec.num_train_trials): an instance with a trial the others
    lack is a copy standing in for missing trials, which a bare
    ``--scheduled`` count cannot tell.
    """
    import json

    indices: dict[str, set[str]] = {}
    for _, _, instance in trials.values():
        key = json.dumps([at(instance, "instance_id"), at(instance, "perturbation", "name")], default=repr)
        indices.setdefault(key, set()).add(json.dumps(at(instance, "train_trial_index"), default=repr))
    shapes = {frozenset(found) for found in indices.values()}
    if len(shapes) > 1:
        listed = "; ".join(
            f"{sum(1 for found in indices.values() if found == shape)} with {', '.join(sorted(shape))}"
            for shape in sorted(shapes, key=sorted)
        )
        raise InvalidEvidence(
            "population-mismatch",
            f"HELM's per_instance_stats.json holds its instances under unlike sets of train_trial_index ({listed}): "
            "HELM runs every instance under each train trial, so some entries stand in for others",
        )


def _reader(options: Options, policy: Policy, names: Sequence[str | None]) -> SampleReader:
    return _Reader(policy, options)


SAMPLES = Samples(
    options=(
        Option("metric", "the stat's name.name, e.g. exact_match"),
        Option("split", "the stat's split (test, valid)"),
    ),
    reader=_reader,
)
