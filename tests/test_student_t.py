# SPDX-License-Identifier: MIT
"""Student t quantiles against a vendored 25-digit table.

White-box on purpose: ``_student_t`` is the one input of the asymptotic
bounds that is not exact arithmetic, so its error is pinned here directly.
The table, tests/data/student-t-quantiles.json, was made once with mpmath
and checked against scipy (tools/bounds/make_t_reference.py); neither is
needed to run this test.
"""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

import pytest

from scorecontract._student_t import quantile, upper_tail
from support import CorpusMissing

TABLE = Path(__file__).parent / "data" / "student-t-quantiles.json"


def rows():
    document = json.loads(TABLE.read_text(encoding="utf-8"))
    found = document["quantiles"]
    if len(found) < 100:
        raise CorpusMissing(f"{TABLE} lists {len(found)} quantiles")
    return found


ROWS = rows()


@pytest.mark.parametrize("row", ROWS, ids=[f"df={row['df']}-alpha={row['alpha']}" for row in ROWS])
def test_the_quantile_is_never_below_the_exact_one_and_within_2e_9(row):
    exact = Decimal(row["t"])
    computed = Decimal(quantile(float(row["alpha"]), row["df"]))
    # Against PASS: a larger t is a lower lower bound.
    assert computed >= exact
    assert computed - exact <= Decimal("2e-9") * exact


def test_the_table_spans_tiny_and_huge_degrees_of_freedom():
    dfs = {row["df"] for row in ROWS}
    alphas = {row["alpha"] for row in ROWS}
    assert {1, 2, 19, 4999, 10**7} <= dfs and {"0.05", "1e-12", "0.4999"} <= alphas


def test_two_trials_use_t_with_one_degree_of_freedom():
    # t(1) at 95% is tan(0.45 pi) = 6.3137515146750...
    assert 6.31375151467 < quantile(0.05, 1) < 6.31375153


@pytest.mark.parametrize("t, df", [(0.0, 3), (1.0, 1), (2.5, 40), (30.0, 2)])
def test_the_tail_is_a_probability_that_falls_with_t(t, df):
    tail = upper_tail(t, df)
    assert 0.0 < tail <= 0.5
    assert upper_tail(t + 0.5, df) < tail


@pytest.mark.parametrize("alpha, df", [(0.5, 3), (0.0, 3), (-0.1, 3), (0.05, 0), (0.05, 2.0), (0.05, True)])
def test_bad_arguments_raise_value_error(alpha, df):
    with pytest.raises(ValueError):
        quantile(alpha, df)
