# SPDX-License-Identifier: MIT
"""A scripted lm-eval model, and the entry point that registers it.

Dev-only, run by generate.py inside a venv holding lm-eval 0.4.13:

    python tools/conformance/lm-eval/scripted.py run --model scripted --tasks ...

takes the arguments of ``lm-eval``.  The model reads its answers from the
document itself (the ``scripted_*`` fields of the datasets under tasks/), so
every run's ground truth is written beside the data it is scored on and does
not depend on request order:

- multiple choice: loglikelihood -1 for the choice ``scripted_choice``, -5 for
  every other choice;
- generation: the answers ``scripted_answers``, one per repeat, in turn;
- rolling loglikelihood: ``scripted_ll`` ("-inf" for minus infinity).
"""

from __future__ import annotations

import sys
from collections import Counter
from typing import Any

from lm_eval.api.model import LM
from lm_eval.api.registry import register_model


@register_model("scripted")
class ScriptedLM(LM):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__()
        self.calls: Counter[tuple[str, int]] = Counter()

    @classmethod
    def create_from_arg_string(cls, arg_string: str, additional_config: Any = None) -> ScriptedLM:
        return cls()

    def loglikelihood(self, requests: Any, disable_tqdm: bool = False) -> list[tuple[float, bool]]:
        out = []
        for request in requests:
            chosen = request.idx == request.doc["scripted_choice"]
            out.append((-1.0 if chosen else -5.0, chosen))
        return out

    def generate_until(self, requests: Any, disable_tqdm: bool = False) -> list[str]:
        out = []
        for request in requests:
            key = (request.task_name, request.doc_id)
            answers = request.doc["scripted_answers"]
            out.append(answers[self.calls[key] % len(answers)])
            self.calls[key] += 1
        return out

    def loglikelihood_rolling(self, requests: Any, disable_tqdm: bool = False) -> list[float]:
        return [float(request.doc["scripted_ll"]) for request in requests]


if __name__ == "__main__":
    from lm_eval.__main__ import cli_evaluate

    sys.argv[0] = "lm-eval"
    cli_evaluate()
