# SPDX-License-Identifier: MIT
"""Every member of every per-sample fixture, deleted or replaced, in turn.

Each case deletes one member (or array element) of a fixture, or replaces
it with null, NaN, ``"x"``, true, ``[]`` or ``{}``, and gates the result
with the fixture's own recipe.  Never may it raise or report an
``internal-error``; never may it PASS unless the recipe's unmutated run
passes and the member is one the adapter does not read (``_read``), or the
mutation leaves a valid trial id (a string id ``"x"``) or an object key the
adapter reads only by its name.  A fixture whose recipe does not PASS must
stay short of PASS under every mutation.

A member the adapter reads gets every replacement on every run; any other
member is deleted and replaced one way, chosen by a fixed seed, and in all
seven with ``--exhaustive`` (marker ``exhaustive``; ``.ci/run`` runs it).
"""

from __future__ import annotations

import copy
import io
import json
import math
import zipfile
from pathlib import Path

import pytest

from scorecontract import PolicyError, Source, Verdict, report
from support import FIXTURES, sample

SAMPLES = FIXTURES / "harnesses" / "samples"
DATE = "2025-06-02T10-14-07.123456"
LABELS = {"C": 1, "P": 0.5, "I": 0, "N": 0}
_DELETE = object()
REPLACEMENTS = (_DELETE, None, math.nan, "x", True, [], {})
ANY = "*"

Path_ = tuple[object, ...]


def _walk(value: object, path: Path_ = ()):
    """Every path in *value*, the root included, parents before children."""
    yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _walk(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _walk(item, (*path, index))


def _mutate(document: object, path: Path_, replacement: object) -> object:
    """*document* with the member at *path* deleted or replaced.

    Only the containers on the way to the member are copied; the rest is
    shared with *document*, which no recipe changes (each serializes what
    it is given).  A deep copy per mutation was most of this module's time.
    """
    if not path:
        return {} if replacement is _DELETE else copy.deepcopy(replacement)
    clone = copy.copy(document)
    parent = clone
    for key in path[:-1]:
        child = copy.copy(parent[key])  # type: ignore[index]
        parent[key] = child  # type: ignore[index]
        parent = child
    if replacement is _DELETE:
        del parent[path[-1]]  # type: ignore[attr-defined]
    else:
        parent[path[-1]] = copy.deepcopy(replacement)  # type: ignore[index]
    return clone


def _holds(document: object, path: Path_, replacement: object) -> bool:
    """Whether the member at *path* already is *replacement*, as JSON text."""
    if replacement is _DELETE:
        return not path and _dumps(document) == "{}"
    member = document
    for key in path:
        member = member[key]  # type: ignore[index]
    return _dumps(member) == _dumps(replacement)


def _matches(path: Path_, pattern: Path_) -> bool:
    """*path* is *pattern*, or a container on the way to it (ANY: any key or index)."""
    if len(path) > len(pattern):
        return False
    return all(want == ANY or want == got for got, want in zip(path, pattern))


def _dumps(value: object) -> str:
    return json.dumps(value)  # NaN is written as NaN, as the harnesses write it


# -- the recipes ----------------------------------------------------------------------------------


def _inspect_json(document: object, _: object) -> object:
    return report(_dumps(document).encode(), source=Source("inspect", scorer="match", labels=LABELS))


def _inspect_eval(document: object, _: object) -> object:
    """The same log as an .eval archive: header.json and one member per sample."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        if isinstance(document, dict) and isinstance(document.get("samples"), list):
            header = {key: value for key, value in document.items() if key != "samples"}
            for index, sample in enumerate(document["samples"]):
                archive.writestr(f"samples/{index}_epoch_1.json", _dumps(sample))
        else:
            header = document
        archive.writestr("header.json", _dumps(header))
    return report(buffer.getvalue(), source=Source("inspect", scorer="match", labels=LABELS))


def _helm(document: object, _: object) -> object:
    source = Source("helm", metric="exact_match", split="test")
    return report(_dumps(document).encode(), source=source, scheduled=5, threshold=0.7)


def _promptfoo(document: object, _: object) -> object:
    source = Source("promptfoo", metric="pass")
    return report(_dumps(document).encode(), source=source, metric="pass-rate", min_pass_rate=0.75)


def _lines(lines: object) -> bytes:
    if not isinstance(lines, list):
        return _dumps(lines).encode() + b"\n"
    return "".join(_dumps(line) + "\n" for line in lines).encode()


_WRITTEN: dict[Path, str] = {}


def _lm_eval(samples: object, results: object, tmp: Path) -> object:
    path = tmp / "results.json"
    text = _dumps(results)
    if _WRITTEN.get(path) != text:  # the samples' mutations share one results file
        path.write_text(text)
        _WRITTEN[path] = text
    source = Source("lm-eval", metric="exact_match", results=str(path), task="gsm8k")
    return report(_lines(samples), source=source, threshold=0.5)


def _generic(shards: object, _: object) -> object:
    if shards == []:
        with pytest.raises(PolicyError):  # no input at all is configuration
            report([], select_score="$.result.score", trial_id="item,seed", scheduled=5)
        return None
    inputs = [_lines(shard) for shard in shards] if isinstance(shards, list) else _lines(shards)
    return report(inputs, select_score="$.result.score", trial_id="item,seed", scheduled=5, threshold=0.5)


def _json(name: str) -> object:
    return json.loads((SAMPLES / name).read_text())


def _jsonl(name: str) -> list[object]:
    return [json.loads(line) for line in (SAMPLES / name).read_text().splitlines()]


INSPECT_READ = [
    ("status",),
    ("invalidated",),
    ("results", "total_samples"),
    ("samples", ANY, "id"),
    ("samples", ANY, "epoch"),
    ("samples", ANY, "error"),
    ("samples", ANY, "scores", "match", "value"),
]
PROMPTFOO_READ = [
    ("results", "stats", "successes"),
    ("results", "stats", "failures"),
    ("results", "stats", "errors"),
    ("results", "results", ANY, "testIdx"),
    ("results", "results", ANY, "promptIdx"),
    ("results", "results", ANY, "repeatIndex"),
    ("results", "results", ANY, "success"),
    ("results", "results", ANY, "failureReason"),
]
LM_EVAL_LINE_READ = [(ANY, "doc_id"), (ANY, "filter"), (ANY, "exact_match")]
LM_EVAL_RESULTS_READ = [
    ("n-samples", "gsm8k", "effective"),
    ("n-samples", "gsm8k", "original"),
    ("results", "gsm8k", "exact_match,strict-match"),
    ("results", "gsm8k", "exact_match,flexible-extract"),
]


def _generic_read(shards: list[list[dict[str, object]]]) -> list[Path_]:
    """Each record's id and score, but for a trial given twice.

    A trial in two shards has two observations: one made invalid leaves the
    other as its evidence, and the report's rule (the first valid
    observation counts; invalid ones are counted and listed) may PASS.
    """
    ids = [(record["item"], record["seed"]) for shard in shards for record in shard]
    read: list[Path_] = []
    for number, shard in enumerate(shards):
        for index, record in enumerate(shard):
            if ids.count((record["item"], record["seed"])) == 1:
                read += [(number, index, "item"), (number, index, "seed"), (number, index, "result", "score")]
    return read


IDS = {
    "id",
    "epoch",
    "testIdx",
    "promptIdx",
    "repeatIndex",
    "doc_id",
    "item",
    "seed",
    "instance_id",
    "train_trial_index",
}


def _helm_read(document: object) -> list[Path_]:
    """The selected stat of each instance, and the members that pick it."""
    read: list[Path_] = []
    for index, instance in enumerate(document):  # type: ignore[arg-type]
        read += [(index, "instance_id"), (index, "train_trial_index"), (index, "perturbation")]
        # Another stat renamed exact_match would be read too; no replacement
        # here is the string "exact_match", so only the selected stat is.
        for number, stat in enumerate(instance["stats"]):
            if stat["name"]["name"] == "exact_match":
                read += [(index, "stats", number, key) for key in ("count", "mean")]
                read += [(index, "stats", number, "name", key) for key in ("name", "split", "perturbation")]
    return read


def _cases():
    """(name, recipe, document, other, read paths or None for a fixture that does not PASS)."""
    inspect = _json("inspect/letters-log.json")
    results = _json(f"lm-eval/results_{DATE}.json")
    gsm8k = _jsonl(f"lm-eval/samples_gsm8k_{DATE}.jsonl")
    helm = _json("helm/per_instance_stats.json")
    yield "inspect .json", _inspect_json, inspect, None, INSPECT_READ
    yield "inspect .eval", _inspect_eval, inspect, None, INSPECT_READ
    yield "inspect unscored", _inspect_json, _json("inspect/unscored-log.json"), None, None
    yield "inspect unknown letter", _inspect_json, _json("inspect/unknown-letter-log.json"), None, None
    yield "helm", _helm, helm, None, _helm_read(helm)
    yield "helm count 0", _helm, _json("helm/per_instance_stats_count0.json"), None, None
    yield "promptfoo", _promptfoo, _json("promptfoo/results.json"), None, PROMPTFOO_READ
    yield "promptfoo errors", _promptfoo, _json("promptfoo/results-errors.json"), None, None
    yield "promptfoo disagree", _promptfoo, _json("promptfoo/results-disagree.json"), None, None
    yield "lm-eval samples", "lm-eval samples", gsm8k, results, LM_EVAL_LINE_READ
    yield "lm-eval results", "lm-eval results", results, gsm8k, LM_EVAL_RESULTS_READ
    shards = [_jsonl("generic/shard-1.jsonl"), _jsonl("generic/shard-2.jsonl")]
    read = _generic_read(shards)
    assert len(read) == 3 * (sum(map(len, shards)) - 2)  # one trial is in both shards
    yield "generic shards", _generic, shards, None, read


def _may_pass(path: Path_, replacement: object, read: list[Path_]) -> bool:
    if path and path[-1] == "failureReason" and replacement is _DELETE:
        return True  # absent is promptfoo's 0, what the fixture's passing rows say
    if not any(_matches(path, pattern) for pattern in read):
        return True  # a member the adapter does not read
    if path and path[-1] in IDS and replacement == "x":
        return True  # still a valid, distinct trial id
    # lm-eval's results name the filters by key; the values are not read.
    return len(path) == 3 and path[:2] == ("results", "gsm8k") and replacement is not _DELETE


def test_the_mutation_cases_are_there():
    cases = list(_cases())
    assert len(cases) == 12
    assert sum(1 for case in cases for _ in _walk(case[2])) > 1500


def _replacements(name: str, path: Path_, read: list[Path_] | None) -> list[object]:
    """What *path* is replaced with: every replacement, or a seeded sample.

    A member the adapter reads, or a container on the way to one, gets all
    seven; any other is deleted and gets one of the other six, chosen per
    member by a fixed seed (all of them under --exhaustive).
    """
    if read is not None and any(_matches(path, pattern) for pattern in read):
        return list(REPLACEMENTS)
    return [_DELETE, *sample(REPLACEMENTS[1:], 1, f"{name} {path!r}")]


@pytest.mark.exhaustive
@pytest.mark.parametrize("name", [case[0] for case in _cases()])
def test_no_mutation_crashes_or_passes_where_the_evidence_does_not_support_it(name, tmp_path):
    [(_, recipe, document, other, read)] = [case for case in _cases() if case[0] == name]

    def gate(mutated: object) -> object:
        if recipe == "lm-eval samples":
            return _lm_eval(mutated, other, tmp_path)
        if recipe == "lm-eval results":
            return _lm_eval(other, mutated, tmp_path)
        return recipe(mutated, other)

    unmutated = gate(document)
    assert (unmutated.verdict is Verdict.PASS) == (read is not None), (name, unmutated.code, unmutated.message)
    cases = wrong = 0
    problems: list[str] = []
    original = _dumps(document)
    for path in list(_walk(document)):
        if recipe == "lm-eval results" and not path:
            continue  # the results file as a whole is covered by its members
        for replacement in _replacements(name, path, read):
            if _holds(document, path, replacement):
                continue  # the member already held it: no mutation
            mutated = _mutate(document, path, replacement)
            result = gate(mutated)  # raising fails the test: never an uncaught exception
            cases += 1
            if result is None:
                continue
            shown = f"{name} {path!r} <- {'(deleted)' if replacement is _DELETE else repr(replacement)}"
            if result.code == "internal-error" or any(
                item.code == "internal-error" for item in result.invalid_observations
            ):
                problems.append(f"{shown}: internal-error {result.message}")
            if result.verdict is Verdict.PASS and (read is None or not _may_pass(path, replacement, read)):
                wrong += 1
                problems.append(f"{shown}: PASS {result.message}")
    assert cases > 100, cases
    assert _dumps(document) == original  # no recipe changed the shared parts
    assert not problems, "\n".join(problems[:40])
    assert wrong == 0
