# SPDX-License-Identifier: MIT
"""A promptfoo grader provider that holds each grader reply to the judgment contract.

promptfoo 0.123.1 reads an ``llm-rubric`` grader's reply with ``let pass =
parsed.pass ?? true`` (``runJsonGradingPrompt``, dist/src/graders-*.js), so a
reply with neither a verdict nor a score, ``{"reason": "..."}``, is recorded
as ``pass: true, score: 1``; ``{"score": 0}`` passes too, and ``"pass":
"yes"`` is read as true by a regular expression.  The results file cannot
show any of it.  This provider wraps the real grader, a Python provider, and
runs each raw reply through ``scorecontract.judge`` (docs/judgments.md):

- a PASS or FAIL is handed to promptfoo as ``{"pass": <verdict>, "score":
  <the grader's score, if usable>, "reason": ...}``, so promptfoo records the
  contract's verdict and not its own reading;
- a GRADER_ERROR (no judgment, a verdict that is not a boolean, an unusable
  score, a reply that is not strict JSON) and a grader that returned an error
  raise ``GraderError``.  promptfoo turns an exception in a grading provider
  into an ERROR row (``failureReason`` 2, counted in ``stats.errors``), which
  ``scorecontract check --from promptfoo`` refuses as ``grader-errors`` and
  ``promptfoo eval --retry-errors`` runs again.

Use it as the grading provider, with the real grader in its config::

    defaultTest:
      options:
        provider:
          id: file://path/to/grader_guard.py
          config:
            grader: my_grader.py               # a promptfoo Python provider: no file:// here
            # grader_function: call_api        # the default
            # grader_config: {...}             # passed to it as options["config"]
            # threshold: 0.5                   # judge(threshold=...); none by default
            # extract: false                   # JSON only; by default it is found in prose or a ```json block

Write the grader's path without ``file://``: promptfoo resolves a
``file://`` value anywhere in a provider's config itself (it would load the
file and call its ``get_config``).  A relative path is taken from the
working directory of ``promptfoo eval``; ``path.py:function`` names another
function than ``call_api``.  Standard library only, besides scorecontract
itself, which must be importable by the Python promptfoo runs
(``PROMPTFOO_PYTHON``).
"""

from __future__ import annotations

import asyncio
import importlib.util
import inspect
import json
import os
from typing import Any, Callable

__all__ = ["GraderError", "call_api"]

_LOADED: dict[tuple[str, str], Callable[..., Any]] = {}


class GraderError(RuntimeError):
    """The grader gave no usable judgment: promptfoo records the row as an error."""


def _grader(config: dict[str, Any]) -> Callable[..., Any]:
    """The wrapped grader's function, loaded once per path and name."""
    spec = config.get("grader")
    if type(spec) is not str or not spec:
        raise GraderError(
            "grader_guard needs config.grader: the path of the grader's Python provider, path.py[:function]"
        )
    path = spec[len("file://") :] if spec.startswith("file://") else spec
    named = ""
    if ":" in path and path.rsplit(":", 1)[0].endswith(".py"):
        path, named = path.rsplit(":", 1)
    name = config.get("grader_function", named or "call_api")
    if type(name) is not str or not name:
        raise GraderError("grader_guard's config.grader_function must be a function name")
    key = (os.path.abspath(path), name)
    if key not in _LOADED:
        if not path.endswith(".py") or not os.path.isfile(path):
            raise GraderError(f"grader_guard: the grader {path!r} is not a Python file (from {os.getcwd()!r})")
        module_spec = importlib.util.spec_from_file_location(f"_grader_guard_wrapped_{len(_LOADED)}", path)
        if module_spec is None or module_spec.loader is None:
            raise GraderError(f"grader_guard: cannot load {path!r}")
        module = importlib.util.module_from_spec(module_spec)
        module_spec.loader.exec_module(module)
        function = getattr(module, name, None)
        if not callable(function):
            raise GraderError(f"grader_guard: {path!r} has no function {name!r}")
        _LOADED[key] = function
    return _LOADED[key]


def _reply(result: object) -> str | dict[str, Any]:
    """The grader's raw reply: its ``output``, text or an object, as promptfoo reads it."""
    if type(result) is not dict:
        raise GraderError(f"the grader returned {type(result).__name__}, not a promptfoo response object")
    if result.get("error"):
        raise GraderError(f"the grader failed: {result['error']}")
    output = result.get("output")
    if (type(output) is str and output) or type(output) is dict:
        return output
    # promptfoo reads an empty or missing output as "No output", and an array
    # or number as a malformed reply: neither is a judgment.
    raise GraderError(f"the grader's output is {json.dumps(output)[:80]}, not a judgment (text or an object)")


def call_api(prompt: str, options: dict[str, Any], context: dict[str, Any]) -> dict[str, Any]:
    """Grade through the wrapped grader, and keep only a contract judgment.

    Returns a promptfoo provider response whose ``output`` is the JSON text
    of the contract's verdict; raises ``GraderError`` for a grader error.
    """
    from scorecontract import Outcome, judge

    config = (options or {}).get("config") or {}
    if type(config) is not dict:
        raise GraderError("grader_guard's config must be an object")
    grader = _grader(config)
    grader_options = dict(options or {}, config=config.get("grader_config") or {})
    result = grader(prompt, grader_options, context)
    if inspect.isawaitable(result):
        result = asyncio.run(_awaited(result))
    reply = _reply(result)
    threshold = config.get("threshold")
    if threshold is not None and (type(threshold) not in (int, float)):
        raise GraderError(f"grader_guard's config.threshold must be a number, not {threshold!r}")
    # promptfoo itself finds the JSON inside a prose reply (extractJsonObjects),
    # so extraction is on unless config.extract is false.
    extract = config.get("extract", True)
    if type(extract) is not bool:
        raise GraderError(f"grader_guard's config.extract must be true or false, not {extract!r}")
    judgment = judge(reply, threshold=threshold, extract=extract and type(reply) is str)
    if judgment.outcome is Outcome.GRADER_ERROR:
        raise GraderError(f"the grader's reply is no judgment: {judgment.code}: {judgment.message}")
    said = judgment.members.get("reason")
    verdict: dict[str, Any] = {"pass": judgment.outcome is Outcome.PASS}
    if judgment.score is not None:
        verdict["score"] = float(judgment.score)
    verdict["reason"] = f"{said if type(said) is str else 'no reason given'} (scorecontract: {judgment.code})"
    response = {key: value for key, value in result.items() if key in ("tokenUsage", "cost", "cached", "metadata")}
    response["output"] = json.dumps(verdict)
    return response


async def _awaited(result: Any) -> Any:
    return await result
