# SPDX-License-Identifier: MIT
"""A HELM plugin: a local scenario whose answers are known, and a scripted judge.

Loaded by ``helm-run --plugins scripted_helm`` (generate.py puts this
folder on PYTHONPATH).  HELM's ``simple/model1`` answers with the last word
of its prompt (``SimpleClient.invoke_model`` cycles the prompt's words
reversed), so each instance's input ends with the word the model will say,
and its reference is the right answer: the exact-match rate is fixed here,
in ``VALID`` and ``TEST``, before HELM runs.

``ScriptedJudgeMetric`` adds a per-instance stat ``judge_score`` whose value
is scripted per instance, NaN or Infinity included, as an LLM-judge metric
would write one.  Its run entry argument ``judge`` picks the script (not ``nan``: HELM reads that
run entry value as a float).
"""

from __future__ import annotations

from helm.benchmark.adaptation.adapter_spec import ADAPT_GENERATION, AdapterSpec
from helm.benchmark.adaptation.request_state import RequestState
from helm.benchmark.metrics.common_metric_specs import get_exact_match_metric_specs
from helm.benchmark.metrics.metric import Metric, MetricSpec
from helm.benchmark.metrics.metric_name import MetricName
from helm.benchmark.metrics.metric_service import MetricService
from helm.benchmark.metrics.statistic import Stat
from helm.benchmark.run_spec import RunSpec, run_spec_function
from helm.benchmark.scenarios.scenario import (
    CORRECT_TAG,
    TEST_SPLIT,
    TRAIN_SPLIT,
    VALID_SPLIT,
    Input,
    Instance,
    Output,
    Reference,
    Scenario,
    ScenarioSpec,
)

# (reference, the word the model says): test 3 of 5 right, valid 1 of 2.
TEST = [("paris", "paris")] * 3 + [("rome", "oslo")] * 2
VALID = [("bern", "bern"), ("kyiv", "riga")]
# The judge's per-instance score on the test split, by script; valid is 1.0.
JUDGE = {
    "plain": [0.9, 0.8, 0.6, 0.4, 0.3],
    "with_nan": [0.9, float("nan"), 0.6, 0.4, 0.3],
    "with_inf": [0.9, float("inf"), 0.6, 0.4, 0.3],
}


class ScriptedQAScenario(Scenario):
    """Questions whose last word is the scripted answer: ``q<n> <word>``."""

    name = "scripted_qa"
    description = "Scripted QA for the scorecontract conformance corpus"
    tags = ["scripted"]

    def get_instances(self, output_path: str) -> list[Instance]:
        instances = [
            Instance(
                Input(text="x0 lisbon"),
                references=[Reference(Output(text="lisbon"), tags=[CORRECT_TAG])],
                split=TRAIN_SPLIT,
            )
        ]
        for split, rows in ((VALID_SPLIT, VALID), (TEST_SPLIT, TEST)):
            for number, (right, said) in enumerate(rows):
                text = f"{split[0]}{number} {said}"
                instances.append(
                    Instance(
                        Input(text=text), references=[Reference(Output(text=right), tags=[CORRECT_TAG])], split=split
                    )
                )
        return instances


class ScriptedJudgeMetric(Metric):
    """A judge metric: ``judge_score`` per instance, as scripted in ``JUDGE``."""

    def __init__(self, judge: str = "plain") -> None:
        self.scores = JUDGE[judge]

    def evaluate_generation(
        self,
        adapter_spec: AdapterSpec,
        request_state: RequestState,
        metric_service: MetricService,
        eval_cache_path: str,
    ) -> list[Stat]:
        text = request_state.instance.input.text
        value = 1.0 if text.startswith("v") else self.scores[int(text.split()[0][1:])]
        stat = Stat(MetricName("judge_score"))
        # NaN and inf go through as a judge would return them: HELM's runner
        # (remove_stats_nans) deletes a stat whose sum is NaN, and keeps inf.
        stat.add(value)
        return [stat]


@run_spec_function("scripted_qa")
def get_scripted_qa_spec(judge: str = "plain", trials: str = "1") -> RunSpec:
    """The scripted scenario with exact match, the scripted judge and HELM's generic metrics.

    A ``max_eval_instances=N`` in the run entry is HELM's own run expander:
    it sets the adapter spec's cap, as ``-m`` does where none is set.
    """
    adapter_spec = AdapterSpec(
        method=ADAPT_GENERATION,
        instructions="",
        input_prefix="",
        input_suffix="\n",
        output_prefix="",
        output_suffix="",
        max_train_instances=1 if int(trials) > 1 else 0,
        num_outputs=1,
        num_train_trials=int(trials),
        model="simple/model1",
        model_deployment="simple/model1",
        temperature=0,
        stop_sequences=[],
    )
    metric_specs = get_exact_match_metric_specs() + [
        MetricSpec(class_name="scripted_helm.ScriptedJudgeMetric", args={"judge": judge})
    ]
    return RunSpec(
        name=f"scripted_qa:judge={judge},trials={trials}",
        scenario_spec=ScenarioSpec(class_name="scripted_helm.ScriptedQAScenario"),
        adapter_spec=adapter_spec,
        metric_specs=metric_specs,
        groups=["scripted_qa"],
    )
