# SPDX-License-Identifier: MIT
"""benchmarks/bounds.py: its smoke run covers every bound on every family, and it can fail.

The full simulation (minutes) is not run here; its table is in
docs/reports.md.  The smoke mode runs in-process: every bound must give
a row on every family it applies to at every smoke size, the real bounds
must pass, and a deliberately invalid "bound" (the point estimate, named
finite-sample) must make the benchmark exit 1.
"""

from __future__ import annotations

import importlib.util
import random
import statistics

import pytest

from support import ROOT

SCRIPT = ROOT / "benchmarks" / "bounds.py"
# The bounds the gate offers today; a new one belongs in the benchmark's table.
EXPECTED_BOUNDS = {
    "empirical-bernstein",
    "asymptotic-t",
    "hoeffding",
    "clopper-pearson",
    "paired-empirical-bernstein",
    "paired-asymptotic-t",
    "clustered-empirical-bernstein",
    "clustered-asymptotic-t",
}


def load():
    spec = importlib.util.spec_from_file_location("bounds_benchmark", SCRIPT)
    if spec is None or spec.loader is None:
        raise AssertionError(f"cannot load {SCRIPT}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def bench():
    return load()


@pytest.fixture(scope="module")
def smoke(bench):
    setting = bench.Setting(reps=bench.SMOKE_REPS)
    return setting, bench.simulate(bench.BOUNDS, bench.FAMILIES, setting, bench.SMOKE_SIZES, bench.SMOKE_GROUPS)


def test_the_table_names_every_bound_the_gate_offers(bench):
    assert EXPECTED_BOUNDS <= set(bench.BOUNDS)
    for name, bound in bench.BOUNDS.items():
        assert bound.guarantee in ("finite-sample", "asymptotic"), name
        assert any(bench.applies(bound, family) for family in bench.FAMILIES.values()), name


def test_the_smoke_run_has_every_bound_on_every_family_it_applies_to(bench, smoke):
    setting, rows = smoke
    got = {(row.bound, row.family, row.size) for row in rows}
    expected = set()
    for name, bound in bench.BOUNDS.items():
        for family in bench.FAMILIES.values():
            if bench.applies(bound, family):
                sizes = bench.SMOKE_GROUPS if family.clustered else bench.SMOKE_SIZES
                expected |= {(name, family.name, size) for size in sizes}
    assert expected and got == expected
    # Every family of the issue is there, each with a bound.
    assert {"bernoulli", "beta-left", "beta-right", "clustered"} <= {row.family for row in rows}
    assert any(row.family.startswith("paired-") for row in rows)
    for row in rows:
        assert 0 <= row.false_pass <= 1 and 0 <= row.boundary <= 1
    assert not bench.failures(rows, setting)


def test_the_smoke_run_exits_0_and_prints_its_tables(bench, capsys):
    assert bench.main(["--smoke", "--families", "bernoulli,clustered"]) == 0
    out = capsys.readouterr().out
    assert "| bernoulli | clopper-pearson | finite-sample |" in out
    assert "| clustered | clustered-asymptotic-t | asymptotic |" in out
    assert "| clustered | clustered-empirical-bernstein | finite-sample |" in out
    assert "Width at the largest size" in out


def test_a_bound_that_breaks_its_promise_fails_the_benchmark(bench, capsys):
    # The point estimate as a "bound" PASSes about half the time at a true
    # mean equal to the threshold: named finite-sample, it must fail.
    fake = bench.Bound("finite-sample", bench.MEAN, bench.Gate(confidence=False))
    table = {**bench.BOUNDS, "point-estimate": fake}
    assert bench.main(["--smoke", "--families", "bernoulli,beta-left"], bounds=table) == 1
    err = capsys.readouterr().err
    assert "FAIL point-estimate on bernoulli" in err and "FAIL point-estimate on beta-left" in err
    # Named asymptotic, the same rates are reported, not failed.
    lenient = {**bench.BOUNDS, "point-estimate": fake._replace(guarantee="asymptotic")}
    assert bench.main(["--smoke", "--families", "bernoulli"], bounds=lenient) == 0
    assert "0.5" in capsys.readouterr().out.split("| bernoulli | point-estimate |")[1].split("\n")[0]


def test_a_finite_sample_bound_is_not_failed_where_its_assumption_is_broken(bench):
    hoeffding = bench.BOUNDS["hoeffding"]
    assert bench.checked(hoeffding, bench.FAMILIES["bernoulli"])
    assert not bench.checked(hoeffding, bench.FAMILIES["clustered"])  # independence broken
    told = hoeffding._replace(gate=hoeffding.gate._replace(clustered=True))
    assert bench.checked(told, bench.FAMILIES["clustered"])


@pytest.mark.parametrize("name", ["bernoulli", "beta-left", "beta-right", "paired-beta-left", "paired-beta-right"])
@pytest.mark.parametrize("target", [0.78, 0.8])
def test_each_family_has_the_true_mean_it_claims(bench, name, target):
    family = bench.FAMILIES[name]
    if family.paired:
        target = -0.05 - (0.8 - target)  # -max regression, and gap below it
    rng = random.Random(f"mean/{name}/{target}")
    sample = family.draw(rng, 10_000, target)
    values = (
        [c - b for c, b in zip(sample.scores, sample.baseline)] if family.paired else [float(s) for s in sample.scores]
    )
    mean, sd = statistics.fmean(values), statistics.stdev(values)
    assert abs(mean - target) < 4 * sd / len(values) ** 0.5 + 1e-4  # 4 SE, and the 3-decimal rounding
    assert all(-1 <= v <= 1 for v in values)


def test_the_skewed_families_are_skewed_both_ways(bench):
    def skewness(values):
        mean, sd = statistics.fmean(values), statistics.pstdev(values)
        return statistics.fmean([((v - mean) / sd) ** 3 for v in values])

    left = bench.FAMILIES["beta-left"].draw(random.Random(1), 20_000, 0.8).scores
    right = bench.FAMILIES["beta-right"].draw(random.Random(2), 20_000, 0.8).scores
    assert skewness(left) < -0.6 and skewness(right) > 0.6


def test_the_clustered_family_has_intra_cluster_correlation_0_2(bench):
    groups = 4000
    sample = bench.FAMILIES["clustered"].draw(random.Random(3), groups, 0.8)
    m = bench.CLUSTER_SIZE
    assert len(sample.scores) == groups * m and sorted(set(sample.clusters)) == list(range(groups))
    means = [sum(sample.scores[i * m : (i + 1) * m]) / m for i in range(groups)]
    p = statistics.fmean(sample.scores)
    # Var(cluster mean) = p(1 - p) / m * (1 + (m - 1) * ICC) for a beta-binomial.
    icc = (statistics.pvariance(means) * m / (p * (1 - p)) - 1) / (m - 1)
    assert abs(p - 0.8) < 0.01 and abs(icc - bench.ICC) < 0.05


def test_a_sample_key_ignores_order_but_keeps_what_decides(bench):
    a = bench.Sample((1, 0, 0.5), (0, 0, 1))
    b = bench.Sample((0.5, 0, 1), (1, 0, 0))
    assert a.key() == b.key()
    assert a.key() != bench.Sample((1, 0.5, 0), (0, 0, 1)).key()  # 0.5 moved to another cluster
    assert bench.Sample((1, 0), baseline=(0, 1)).key() != bench.Sample((1, 0), baseline=(1, 0)).key()
