# SPDX-License-Identifier: MIT
"""A promptfoo Python provider that answers from a script: ``file://scripted_provider.py``.

The prompt names the answer after ``SAY:`` (``SAY:paris``); ``SAY:ERROR``
returns a provider error, as an API that fails would.  The config's
``wrong`` lists answers this provider gets wrong on purpose, so two
providers can answer one prompt at different, known rates.
"""


def call_api(prompt, options, context):
    said = prompt.split("SAY:", 1)[1].split()[0]
    if said == "ERROR":
        return {"error": "scripted provider error: the upstream API failed"}
    if said in ((options or {}).get("config") or {}).get("wrong", []):
        said = "unsure"
    return {"output": f"The answer is {said}.", "tokenUsage": {"total": 3, "prompt": 2, "completion": 1}}
