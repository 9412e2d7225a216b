# SPDX-License-Identifier: MIT
"""A scripted llm-rubric grader: the reply is picked by the word after ``GRADE:``.

promptfoo renders the rubric prompt with the output under test, so the
test's ``grade`` variable, echoed into the output, reaches the grader.
``raise`` raises (a grader that crashes), ``error`` returns a provider
error (a grader API that fails); every other key is a raw reply as an LLM
judge might write it.
"""

import re

REPLIES = {
    "pass": '{"reason": "The answer is correct.", "pass": true, "score": 1}',
    "fail": '{"reason": "The answer is wrong.", "pass": false, "score": 0}',
    "none": '{"reason": "The answer was considered."}',
    "zero": '{"reason": "Scored.", "score": 0}',
    "yes": '{"reason": "Looks right.", "pass": "yes"}',
}


def call_api(prompt, options, context):
    # The prompt is promptfoo's JSON list of chat messages: read the word only.
    key = re.search(r"GRADE:([a-z]+)", str(prompt)).group(1)
    if key == "raise":
        raise RuntimeError("scripted grader crashed")
    if key == "error":
        return {"error": "scripted grader error: the judge API failed"}
    return {"output": REPLIES[key], "tokenUsage": {"total": 5, "prompt": 4, "completion": 1}}
