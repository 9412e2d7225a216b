# SPDX-License-Identifier: MIT
"""process_results for the nan5 task: the document's scripted score, NaN included."""


def process_nan(doc: dict, results: list) -> dict:
    return {"score": float(doc["scripted_score"])}
