# SPDX-License-Identifier: MIT
"""The public surface: names, version, call shapes, and errors that travel.

The checks are generic over ``__all__``, so a name added to the package is
covered without editing this file.
"""

from __future__ import annotations

import ast
import enum
import inspect
import multiprocessing
import pickle
import re

import pytest

import scorecontract
from scorecontract import InvalidEvidence, Policy, PolicyError, ScoreContractError, loads
from support import ROOT, SRC

PACKAGE = SRC / "scorecontract"
PUBLIC = [getattr(scorecontract, name) for name in scorecontract.__all__ if name != "__version__"]


# -- names -------------------------------------------------------------------


def test_dir_shows_exactly_all():
    # typing_extensions' test: what dir() shows as public is what __all__
    # promises; a stray helper (TYPE_CHECKING, annotations, a module alias)
    # in __init__ would become API by accident.
    public = {name for name in dir(scorecontract) if not name.startswith("_")}
    assert public == set(scorecontract.__all__) - {"__version__"}
    assert "__version__" in scorecontract.__all__
    assert len(scorecontract.__all__) == len(set(scorecontract.__all__))
    assert {"decide", "evaluate", "loads", "Verdict", "InvalidEvidence"} <= public


def test_public_names_come_from_the_package():
    for obj in PUBLIC:
        assert obj.__module__.startswith("scorecontract."), obj


# -- version -----------------------------------------------------------------


def pyproject_version():
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    project = text.split("\n[project]\n", 1)[1].split("\n[", 1)[0]
    if re.search(r"^dynamic\s*=", project, re.MULTILINE):
        raise AssertionError("[project] declares dynamic fields; the version must be static")
    versions = re.findall(r'^version\s*=\s*"([^"]+)"\s*$', project, re.MULTILINE)
    if len(versions) != 1:
        raise AssertionError(f"expected one static version in [project], found {versions}")
    return versions[0]


def test_version_is_a_literal_equal_to_pyprojects():
    # Never generated from git or read from metadata at import: a vendored
    # copy has neither.  It lives in _version.py, so that receipts and
    # signatures read it without importing the package (an import cycle).
    tree = ast.parse((PACKAGE / "_version.py").read_text(encoding="utf-8"))
    assigned = [
        node.value
        for node in tree.body
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "__version__" for t in node.targets)
    ]
    assert len(assigned) == 1
    assert isinstance(assigned[0], ast.Constant) and isinstance(assigned[0].value, str)
    assert assigned[0].value == scorecontract.__version__ == pyproject_version()
    assert re.fullmatch(r"\d+\.\d+\.\d+", scorecontract.__version__)


# -- call shapes, as in json.loads(s, *, cls=None, ...) -----------------------

# Public classes whose constructors are records built by the library, not
# calls a user makes with options: errors (their positional fields are what
# pickling replays, as for json.JSONDecodeError), Decision, Report and the
# Metric and Observation a report holds.
RECORDS = {"Decision", "Metric", "Observation", "Report"}


def public_callables():
    found = []
    for name in scorecontract.__all__:
        obj = getattr(scorecontract, name)
        if inspect.isfunction(obj):
            found.append((name, obj, "function"))
        elif inspect.isclass(obj):
            if issubclass(obj, BaseException) or name in RECORDS:
                continue
            if issubclass(obj, enum.Enum):
                continue
            found.append((name, obj, "class"))
    if not any(kind == "function" for _, _, kind in found):
        raise AssertionError("no public function found in __all__")
    return found


def test_record_exemptions_are_current():
    assert RECORDS <= set(scorecontract.__all__)


CALLABLES = public_callables()
# Functions with two primary arguments, both positional-only.
TWO_PRIMARY = {"query"}


@pytest.mark.parametrize("name, obj, kind", CALLABLES, ids=[name for name, _, _ in CALLABLES])
def test_primary_argument_positional_and_options_keyword_only(name, obj, kind):
    parameters = list(inspect.signature(obj).parameters.values())
    assert parameters, f"{name} takes no argument"
    first, options = parameters[0], parameters[1:]
    if kind == "function":
        assert first.kind is inspect.Parameter.POSITIONAL_ONLY, name
    else:
        # Policy(threshold=0.9) and Policy(0.9) both read well; the rest of
        # a constructor's parameters are options.
        assert first.kind in (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD), name
    if name in TWO_PRIMARY:
        # query(document, path, /): both are the call's subject, positional only.
        second, options = options[0], options[1:]
        assert second.kind is inspect.Parameter.POSITIONAL_ONLY, name
    # Source("lm-eval", task=..., metric=...) takes its options as **options.
    keyword = (inspect.Parameter.KEYWORD_ONLY, inspect.Parameter.VAR_KEYWORD)
    assert [p.name for p in options if p.kind not in keyword] == [], name


def test_the_shape_check_can_fail():
    def positional_options(raw, threshold=0.8):
        return raw

    parameters = list(inspect.signature(positional_options).parameters.values())
    assert parameters[0].kind is not inspect.Parameter.POSITIONAL_ONLY
    assert parameters[1].kind is not inspect.Parameter.KEYWORD_ONLY


def test_the_main_functions_return_precise_types():
    # Annotations are strings (from __future__ import annotations); mypy
    # checks what they mean, in CI (tests/typecheck_public_api.py).
    assert inspect.signature(scorecontract.decide).return_annotation == "Verdict"
    assert inspect.signature(scorecontract.evaluate).return_annotation == "Decision"
    for attribute in ("verdict", "code", "message", "score", "policy", "pos", "lineno", "colno"):
        annotation = getattr(scorecontract.Decision, attribute).fget.__annotations__["return"]
        assert "object" not in annotation and "Any" not in annotation, (attribute, annotation)


# -- errors ------------------------------------------------------------------


def test_one_hierarchy_under_value_error():
    assert issubclass(ScoreContractError, ValueError)
    assert issubclass(InvalidEvidence, ScoreContractError)
    assert issubclass(PolicyError, ScoreContractError)
    assert not issubclass(InvalidEvidence, PolicyError) and not issubclass(PolicyError, InvalidEvidence)


def test_every_exception_the_package_defines_is_in_the_hierarchy():
    found = []
    for path in sorted(PACKAGE.glob("*.py")):
        module = __import__(
            f"scorecontract.{path.stem}" if path.stem != "__init__" else "scorecontract", fromlist=["_"]
        )
        for value in vars(module).values():
            if inspect.isclass(value) and issubclass(value, BaseException) and value.__module__ == module.__name__:
                found.append(value)
    assert ScoreContractError in found and InvalidEvidence in found
    assert [e.__name__ for e in found if not issubclass(e, ScoreContractError)] == []


class HarnessError(InvalidEvidence):
    """A caller's own subclass: pickling must keep its type."""


def located_error():
    with pytest.raises(InvalidEvidence) as info:
        loads(b'{\n  "score": @}')
    return info.value


def fields(error):
    return (
        type(error),
        error.code,
        error.message,
        getattr(error, "pos", "-"),
        getattr(error, "lineno", "-"),
        getattr(error, "colno", "-"),
        str(error),
        error.args,
    )


ERRORS = {
    "located": located_error,
    "unlocated": lambda: InvalidEvidence("too-large", "the evidence is larger than 10 bytes"),
    "policy": lambda: PolicyError("bad-threshold", "threshold is nan, not a finite number"),
    "base": lambda: ScoreContractError("bad-policy", "no"),
    "subclass": lambda: HarnessError("syntax", "no", 3, 1, 4),
}


@pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))
@pytest.mark.parametrize("make", ERRORS.values(), ids=ERRORS.keys())
def test_errors_pickle_with_every_field(make, protocol):
    error = make()
    copy = pickle.loads(pickle.dumps(error, protocol=protocol))
    assert copy is not error
    assert fields(copy) == fields(error)


def test_the_located_error_has_a_location():
    error = located_error()
    assert (error.code, error.pos, error.lineno, error.colno) == ("syntax", 13, 2, 12)


def test_errors_survive_a_real_process_boundary():
    # As a harness would see them: raised in a worker process, pickled back
    # by multiprocessing and re-raised here.  spawn, so the worker is a
    # fresh interpreter that imports scorecontract itself.
    expected = located_error()
    context = multiprocessing.get_context("spawn")
    with context.Pool(1) as pool:
        with pytest.raises(InvalidEvidence) as evidence:
            pool.apply(loads, (b'{\n  "score": @}',))
        with pytest.raises(PolicyError) as policy:
            pool.apply(Policy, (float("nan"),))
        decision = pool.apply(scorecontract.evaluate, (b'{"score": 1e400}',))
    assert fields(evidence.value) == fields(expected)
    assert (policy.value.code, type(policy.value)) == ("bad-threshold", PolicyError)
    assert (decision.verdict, decision.code) == (scorecontract.Verdict.INVALID, "non-finite")
