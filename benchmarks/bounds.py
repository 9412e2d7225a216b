# SPDX-License-Identifier: MIT
"""Do the confidence bounds keep their promise?  A seeded simulation.

    python benchmarks/bounds.py                # 2,000 replications a cell (minutes)
    python benchmarks/bounds.py --smoke        # few replications and cells (about a second)
    python benchmarks/bounds.py --bounds asymptotic-t,hoeffding --families beta-left --reps 500
    python benchmarks/bounds.py --jobs 2 --progress   # the same rows, in two processes

For every bound in ``BOUNDS`` and every family of scores it applies to, at
each n, it draws replicated samples with a fixed seed and asks the gate,
``scorecontract.report()``, for its verdict: the same public call, with the
same options, that ``scorecontract report --confidence`` makes.  Two rates
are measured per cell:

- **false PASS**: the share of PASS when the true mean is just below the
  threshold (threshold - gap, 0.78 by default);
- **size**: the share of PASS when the true mean is exactly the threshold.

n runs over 2, 3, 5, 20, 100 and 1000 (the paired families stop at 100:
each replication reads two files).

A bound whose guarantee is ``finite-sample`` promises both at most
alpha = 1 - confidence at every n.  The script exits 1 when such a bound,
on a family where its assumptions hold, exceeds alpha + 3 Monte Carlo
standard errors, sqrt(alpha * (1 - alpha) / reps); an ``asymptotic``
bound is reported (a ``!`` marks each rate over that limit), never
failed.  It also prints each bound's width, estimate - bound, at the
largest n, against the Student t bound's on the same samples.

The families (the true mean is the target in every one):

- ``bernoulli``: scores 0 or 1;
- ``beta-left``: (target / 0.8) * Beta(8, 2), skewed towards 0 (skewness -0.83);
- ``beta-right``: s + (1 - s) * Beta(2, 8), s = (target - 0.2) / 0.8, skewed
  towards 1 (skewness +0.83), within [s, 1];
- ``clustered``: G clusters of 4 trials, each cluster's rate p ~ Beta(4 * target,
  4 * (1 - target)) and each trial Bernoulli(p): intra-cluster correlation
  1 / (4 + 1) = 0.2, G in {5, 8, 20, 100};
- ``paired-*``: a baseline from the family at the threshold's mean (0.8), and a
  candidate that repeats the baseline's score with probability 1/2 and is
  otherwise a fresh draw, placed so that the true mean difference, candidate -
  baseline, is the target (-max_regression - gap, or -max_regression).

Beta scores are rounded to 3 decimals, as harnesses often write them (the
rounding moves the mean by far less than the Monte Carlo error).  Every
bound in a cell sees the same samples.  A memo keeps the run short without
changing a verdict: report() is called once per distinct sample (the
verdict of a report depends only on the multiset of its scores).

Adding a bound is one line in ``BOUNDS``: its guarantee, the families it
applies to, and the ``Gate`` options that ask report() for it, for example
``"betting": Bound("finite-sample", MEAN, Gate(bound="betting"))``.

Standard library only.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections.abc import Sequence
from decimal import Decimal
from pathlib import Path
from typing import Callable, NamedTuple, Union

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from scorecontract import Verdict, report  # noqa: E402

Score = Union[int, float]

# -- what is asked of the gate -------------------------------------------------------


class Setting(NamedTuple):
    """What every cell shares: the gate's options and the simulation's."""

    threshold: float = 0.8
    confidence: str = "0.95"
    gap: float = 0.02
    max_regression: float = 0.05
    reps: int = 2000
    seed: int = 21
    sigmas: float = 3.0

    @property
    def alpha(self) -> float:
        return 1.0 - float(self.confidence)

    @property
    def monte_carlo_se(self) -> float:
        return math.sqrt(self.alpha * (1.0 - self.alpha) / self.reps)

    @property
    def limit(self) -> float:
        """The highest rate a finite-sample bound may show: alpha + sigmas * SE."""
        return self.alpha + self.sigmas * self.monte_carlo_se


class Sample(NamedTuple):
    """One replication: the scores, and each trial's cluster or baseline score."""

    scores: tuple[Score, ...]
    clusters: tuple[int, ...] | None = None
    baseline: tuple[Score, ...] | None = None

    def key(self) -> tuple[object, ...]:
        """What the report's verdict and bounds depend on: the order is not."""
        if self.baseline is not None:
            return tuple(sorted(zip(self.scores, self.baseline)))
        if self.clusters is not None:
            groups: dict[int, list[Score]] = {}
            for score, cluster in zip(self.scores, self.clusters):
                groups.setdefault(cluster, []).append(score)
            return tuple(sorted(tuple(sorted(group)) for group in groups.values()))
        return tuple(sorted(self.scores))


class Outcome(NamedTuple):
    """What the gate made of a sample: PASS or not, the estimate and the bound."""

    passed: bool
    estimate: float | None
    bound: float | None


def trial_lines(scores: Sequence[Score], clusters: Sequence[int] | None = None) -> bytes:
    """The JSON Lines a harness would write for *scores*, one trial a line."""
    if clusters is None:
        return "".join(f'{{"trial_id": "t{i}", "score": {s!r}}}\n' for i, s in enumerate(scores)).encode()
    return "".join(
        f'{{"trial_id": "t{i}", "score": {s!r}, "cluster": {c}}}\n' for i, (s, c) in enumerate(zip(scores, clusters))
    ).encode()


class Gate(NamedTuple):
    """How a bound is asked of ``report()``.

    *metric* names the interval that decides: ``"mean"``, ``"pass-rate"``
    (the pass-rate gate at ``min_pass_rate=threshold``) or ``"regression"``
    (the paired gate, with the sample's baseline).  *bound*, when given, is
    report()'s ``bound`` keyword, stated so that a change of default does
    not change what a row measures.  *clustered* passes
    ``cluster_by="cluster"``.  ``confidence=False`` asks for no bound at all:
    the point estimate decides (a deliberately invalid "bound", for tests).
    """

    metric: str = "mean"
    bound: str | None = None
    clustered: bool = False
    confidence: bool = True

    def __call__(self, sample: Sample, setting: Setting) -> Outcome:
        options: dict[str, object] = {"scheduled": len(sample.scores), "threshold": setting.threshold}
        if self.confidence:
            options["confidence"] = Decimal(setting.confidence)
        if self.bound is not None:
            options["bound"] = self.bound
        if self.clustered:
            options["cluster_by"] = "cluster"
        if self.metric == "pass-rate":
            options.update(metric="pass-rate", min_pass_rate=setting.threshold)
        elif self.metric == "regression":
            if sample.baseline is None:
                raise ValueError("the paired gate needs a baseline")
            options.update(baseline=trial_lines(sample.baseline), max_regression=setting.max_regression)
        result = report(trial_lines(sample.scores, sample.clusters if self.clustered else None), **options)
        passed = result.verdict is Verdict.PASS
        if self.metric == "regression":
            regression = result.regression
            if regression is None:
                return Outcome(passed, None, None)
            interval, estimate = regression.interval, regression.mean_difference
        else:
            metric = result.mean if self.metric == "mean" else result.pass_rate
            interval = metric.interval
            estimate = None if metric.value is None else float(metric.value)
        if not self.confidence:
            return Outcome(passed, estimate, estimate)
        return Outcome(passed, estimate, None if interval is None else interval.bound)


class Bound(NamedTuple):
    """One row of ``BOUNDS``: its *guarantee*, the family kinds it *applies* to, its *gate*.

    *guarantee* is ``"finite-sample"`` (held at every n: checked) or
    ``"asymptotic"`` (reported).  A finite-sample bound is checked only on
    families where its assumptions hold: independent trials, or any
    family when the gate is told the clusters.
    """

    guarantee: str
    applies: tuple[str, ...]
    gate: Gate


# Family kinds: "scores" (independent scores in [0, 1]), "binary" (0 or 1
# only), "clusters" (dependent within a cluster), "pairs" (candidate and
# baseline on the same trials).
MEAN = ("scores", "clusters")  # the plain mean bounds also run on clustered trials, ignoring the clusters
BOUNDS: dict[str, Bound] = {
    # The mean's default for bounded scores (exact Clopper-Pearson when every score is 0 or 1).
    "empirical-bernstein": Bound("finite-sample", MEAN, Gate(bound="empirical-bernstein")),
    "asymptotic-t": Bound("asymptotic", MEAN, Gate(bound="asymptotic-t")),
    "hoeffding": Bound("finite-sample", MEAN, Gate(bound="hoeffding")),
    "clopper-pearson": Bound("finite-sample", ("binary",), Gate(metric="pass-rate")),
    "paired-empirical-bernstein": Bound(
        "finite-sample", ("pairs",), Gate(metric="regression", bound="empirical-bernstein")
    ),
    "paired-asymptotic-t": Bound("asymptotic", ("pairs",), Gate(metric="regression", bound="asymptotic-t")),
    "clustered-empirical-bernstein": Bound(
        "finite-sample", ("clusters",), Gate(bound="empirical-bernstein", clustered=True)
    ),
    "clustered-asymptotic-t": Bound("asymptotic", ("clusters",), Gate(bound="asymptotic-t", clustered=True)),
}

# -- the families ------------------------------------------------------------------------

Draw = Callable[[random.Random, int, float], Sample]

CLUSTER_SIZE = 4
ICC = 0.2


class Family(NamedTuple):
    """Scores of one shape: *draw(rng, size, target)* gives a sample whose true mean is *target*.

    *size* is n, or for a clustered family the number of clusters G.
    *reference* is the bound whose width the others are compared with.
    """

    name: str
    kinds: tuple[str, ...]
    draw: Draw
    clustered: bool = False
    paired: bool = False

    @property
    def independent(self) -> bool:
        return not self.clustered

    @property
    def reference(self) -> str:
        return "paired-asymptotic-t" if self.paired else "clustered-asymptotic-t" if self.clustered else "asymptotic-t"


def bernoulli(rng: random.Random, target: float) -> Score:
    return 1 if rng.random() < target else 0


def beta_left(rng: random.Random, target: float) -> Score:
    # Beta(8, 2) has mean 0.8; scaled by target / 0.8 (<= 1 near 0.8).
    return round(target / 0.8 * rng.betavariate(8, 2), 3)


def beta_right(rng: random.Random, target: float) -> Score:
    # Beta(2, 8) has mean 0.2; s + (1 - s) * 0.2 = target.
    shift = (target - 0.2) / 0.8
    return round(shift + (1 - shift) * rng.betavariate(2, 8), 3)


def independent(one: Callable[[random.Random, float], Score]) -> Draw:
    def draw(rng: random.Random, n: int, target: float) -> Sample:
        return Sample(tuple(one(rng, target) for _ in range(n)))

    return draw


def clustered(rng: random.Random, groups: int, target: float) -> Sample:
    # Beta-binomial: a + b = 1 / ICC - 1 makes the intra-cluster correlation ICC.
    spread = 1 / ICC - 1
    scores: list[Score] = []
    labels: list[int] = []
    for cluster in range(groups):
        rate = rng.betavariate(spread * target, spread * (1 - target))
        scores.extend(1 if rng.random() < rate else 0 for _ in range(CLUSTER_SIZE))
        labels.extend([cluster] * CLUSTER_SIZE)
    return Sample(tuple(scores), tuple(labels))


BASELINE_MEAN = 0.8
REPEAT = 0.5  # the share of trials on which the candidate repeats the baseline's score


def paired(one: Callable[[random.Random, float], Score]) -> Draw:
    def draw(rng: random.Random, n: int, target: float) -> Sample:
        # E[c - b] = (1 - REPEAT) * (fresh - BASELINE_MEAN) = target.
        fresh = BASELINE_MEAN + target / (1 - REPEAT)
        baseline = tuple(one(rng, BASELINE_MEAN) for _ in range(n))
        candidate = tuple(b if rng.random() < REPEAT else one(rng, fresh) for b in baseline)
        return Sample(candidate, baseline=baseline)

    return draw


FAMILIES: dict[str, Family] = {
    "bernoulli": Family("bernoulli", ("scores", "binary"), independent(bernoulli)),
    "beta-left": Family("beta-left", ("scores",), independent(beta_left)),
    "beta-right": Family("beta-right", ("scores",), independent(beta_right)),
    "clustered": Family("clustered", ("clusters",), clustered, clustered=True),
    "paired-bernoulli": Family("paired-bernoulli", ("pairs",), paired(bernoulli), paired=True),
    "paired-beta-left": Family("paired-beta-left", ("pairs",), paired(beta_left), paired=True),
    "paired-beta-right": Family("paired-beta-right", ("pairs",), paired(beta_right), paired=True),
}
SIZES = (2, 3, 5, 20, 100, 1000)
# A paired report at n = 1000 reads two files (about 70 ms a replication):
# the paired families stop at 100.
PAIRED_SIZES = (2, 3, 5, 20, 100)
GROUPS = (5, 8, 20, 100)
SMOKE_SIZES = (3, 20)
SMOKE_GROUPS = (5,)
SMOKE_REPS = 40

# -- the simulation ------------------------------------------------------------------------


class Row(NamedTuple):
    """One bound on one family at one size: its rates and its mean width."""

    bound: str
    family: str
    size: int
    false_pass: float
    boundary: float  # the size of the test: PASS at a true mean equal to the threshold
    width: float | None  # mean of estimate - bound at the boundary, where both are defined
    checked: bool  # a finite-sample bound where its assumptions hold

    def exceeds(self, setting: Setting) -> bool:
        return max(self.false_pass, self.boundary) > setting.limit


def applies(bound: Bound, family: Family) -> bool:
    return bool(set(bound.applies) & set(family.kinds))


def checked(bound: Bound, family: Family) -> bool:
    return bound.guarantee == "finite-sample" and (family.independent or bound.gate.clustered)


def boundary_of(family: Family, setting: Setting) -> float:
    """The true mean at which a PASS is still wrong: the threshold, or -max_regression."""
    return -setting.max_regression if family.paired else setting.threshold


def run_cell(
    family: Family, size: int, bounds: dict[str, Bound], setting: Setting
) -> dict[str, tuple[float, float, float | None]]:
    """Each bound's (false PASS, size, mean width) on *family* at *size*."""
    rates: dict[str, list[float]] = {name: [] for name in bounds}
    widths: dict[str, list[float]] = {name: [] for name in bounds}
    for label, shift in (("below", -setting.gap), ("boundary", 0.0)):
        rng = random.Random(f"{setting.seed}/{family.name}/{size}/{label}")
        target = boundary_of(family, setting) + shift
        seen: dict[tuple[str, tuple[object, ...]], Outcome] = {}
        passes = dict.fromkeys(bounds, 0)
        for _ in range(setting.reps):
            sample = family.draw(rng, size, target)
            key = sample.key()
            for name, bound in bounds.items():
                outcome = seen.get((name, key))
                if outcome is None:
                    outcome = seen[name, key] = bound.gate(sample, setting)
                passes[name] += outcome.passed
                if label == "boundary" and outcome.bound is not None and outcome.estimate is not None:
                    widths[name].append(outcome.estimate - outcome.bound)
        for name in bounds:
            rates[name].append(passes[name] / setting.reps)
    return {
        name: (rates[name][0], rates[name][1], sum(widths[name]) / len(widths[name]) if widths[name] else None)
        for name in bounds
    }


# What a forked worker runs: (bounds, families, setting), set before the fork.
_TASK: tuple[dict[str, Bound], dict[str, Family], Setting] | None = None


def _run_task(cell: tuple[str, int, tuple[str, ...]]) -> dict[str, tuple[float, float, float | None]]:
    if _TASK is None:
        raise RuntimeError("no task: simulate() sets it before forking")
    bounds, families, setting = _TASK
    family, size, names = cell
    return run_cell(families[family], size, {name: bounds[name] for name in names}, setting)


def simulate(
    bounds: dict[str, Bound],
    families: dict[str, Family],
    setting: Setting,
    sizes: Sequence[int] = SIZES,
    groups: Sequence[int] = GROUPS,
    paired_sizes: Sequence[int] | None = None,
    jobs: int = 1,
    progress: bool = False,
) -> list[Row]:
    """Every row: each bound on each family it applies to, at each size.

    *jobs* > 1 runs the cells in that many forked processes; each cell
    seeds its own generator, so the rows are the same either way.
    """
    global _TASK
    cells: list[tuple[str, int, tuple[str, ...]]] = []
    for family in families.values():
        names = tuple(name for name, bound in bounds.items() if applies(bound, family))
        if not names:
            continue
        here = groups if family.clustered else (paired_sizes or sizes) if family.paired else sizes
        cells += [(family.name, size, names) for size in here]
    _TASK = (bounds, families, setting)
    try:
        if jobs > 1:
            import multiprocessing

            with multiprocessing.get_context("fork").Pool(jobs) as pool:
                results = []
                for cell, result in zip(cells, pool.imap(_run_task, cells)):
                    results.append(result)
                    if progress:
                        print(f"  {cell[0]} at {cell[1]} done", file=sys.stderr, flush=True)
        else:
            results = []
            for cell in cells:
                results.append(_run_task(cell))
                if progress:
                    print(f"  {cell[0]} at {cell[1]} done", file=sys.stderr, flush=True)
    finally:
        _TASK = None
    rows: list[Row] = []
    for (family, size, _), result in zip(cells, results):
        for name, (false_pass, boundary, width) in result.items():
            rows.append(Row(name, family, size, false_pass, boundary, width, checked(bounds[name], families[family])))
    return rows


# -- the tables --------------------------------------------------------------------------


def cell_text(row: Row, setting: Setting) -> str:
    def rate(value: float) -> str:
        return f"{value:.3f}" + ("!" if value > setting.limit else "")

    return f"{rate(row.false_pass)} / {rate(row.boundary)}"


def tables(rows: list[Row], bounds: dict[str, Bound], families: dict[str, Family], setting: Setting) -> str:
    """The markdown tables: rates per bound, family and size; widths at the largest size."""
    out: list[str] = []
    alpha = setting.alpha
    out.append(
        f"threshold {setting.threshold}, confidence {setting.confidence} (alpha {alpha:.3g}), "
        f"gap {setting.gap}, max regression {setting.max_regression}; {setting.reps} replications a cell "
        f"at each true mean, seed {setting.seed}."
    )
    out.append(
        f"Monte Carlo SE of a rate at alpha: {setting.monte_carlo_se:.4f}; limit alpha + "
        f"{setting.sigmas:g} SE = {setting.limit:.4f}. Each cell is false PASS (true mean "
        f"threshold - {setting.gap}) / size (true mean = threshold); `!` marks a rate over the limit."
    )
    groups = (
        ("independent scores, by n", [f for f in families.values() if not f.clustered and not f.paired], "n"),
        (
            f"clustered ({CLUSTER_SIZE} trials a cluster, ICC {ICC}), by clusters G",
            [f for f in families.values() if f.clustered],
            "G",
        ),
        ("paired, candidate - baseline against -max regression, by n", [f for f in families.values() if f.paired], "n"),
    )
    for title, members, axis in groups:
        present = [r for r in rows if r.family in {f.name for f in members}]
        if not present:
            continue
        sizes = sorted({r.size for r in present})
        out.append("")
        out.append(f"{title}:")
        out.append("")
        out.append("| family | bound | guarantee | " + " | ".join(f"{axis}={s}" for s in sizes) + " |")
        out.append("| --- | --- | --- |" + " --- |" * len(sizes))
        for family in members:
            for name in bounds:
                cells = {r.size: r for r in present if r.family == family.name and r.bound == name}
                if not cells:
                    continue
                some = next(iter(cells.values()))
                guarantee = bounds[name].guarantee + (
                    "" if some.checked or bounds[name].guarantee != "finite-sample" else " (assumption broken)"
                )
                texts = [cell_text(cells[s], setting) if s in cells else "" for s in sizes]
                out.append(f"| {family.name} | {name} | {guarantee} | " + " | ".join(texts) + " |")
    out.append("")
    out.append("Width at the largest size (mean of estimate - bound at the boundary), against the family's t bound:")
    out.append("")
    out.append("| family | size | bound | width | t width | ratio |")
    out.append("| --- | --- | --- | --- | --- | --- |")
    for family in families.values():
        present = [r for r in rows if r.family == family.name]
        if not present:
            continue
        largest = max(r.size for r in present)
        at = {r.bound: r for r in present if r.size == largest}
        reference = at.get(family.reference)
        for name in bounds:
            row = at.get(name)
            if row is None or row.width is None:
                continue
            size = f"G={largest}" if family.clustered else f"n={largest}"
            if reference is None or reference.width is None or reference.width <= 0:
                out.append(f"| {family.name} | {size} | {name} | {row.width:.4f} | | |")
                continue
            ratio = row.width / reference.width
            out.append(
                f"| {family.name} | {size} | {name} | {row.width:.4f} | {reference.width:.4f} "
                f"({family.reference}) | {ratio:.2f} |"
            )
    return "\n".join(out)


def failures(rows: list[Row], setting: Setting) -> list[Row]:
    """The rows where a finite-sample bound broke its promise."""
    return [row for row in rows if row.checked and row.exceeds(setting)]


# -- the command line -----------------------------------------------------------------------


def parse(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--smoke", action="store_true", help="few replications and cells (the test suite's run)")
    parser.add_argument("--reps", type=int, help=f"replications a cell at each true mean (default {Setting().reps})")
    parser.add_argument("--seed", type=int, default=Setting().seed)
    parser.add_argument("--threshold", type=float, default=Setting().threshold)
    parser.add_argument("--confidence", default=Setting().confidence)
    parser.add_argument("--gap", type=float, default=Setting().gap, help="how far below the threshold is false")
    parser.add_argument("--sigmas", type=float, default=Setting().sigmas, help="Monte Carlo SEs allowed over alpha")
    parser.add_argument("--bounds", help="comma-separated names from BOUNDS (default: all)")
    parser.add_argument("--families", help="comma-separated names from FAMILIES (default: all)")
    parser.add_argument("--jobs", type=int, default=1, help="processes to run the cells in (the rows do not change)")
    parser.add_argument("--progress", action="store_true", help="name each cell on stderr as it finishes")
    return parser.parse_args(argv)


def pick(table: dict[str, object], names: str | None, what: str) -> list[str]:
    if names is None:
        return list(table)
    chosen = [name.strip() for name in names.split(",") if name.strip()]
    unknown = [name for name in chosen if name not in table]
    if unknown:
        raise SystemExit(f"unknown {what}: {', '.join(unknown)} (known: {', '.join(table)})")
    return chosen


def main(argv: Sequence[str] | None = None, *, bounds: dict[str, Bound] | None = None) -> int:
    """Run the simulation and print its tables; 1 if a finite-sample bound broke its promise."""
    args = parse(argv)
    table = BOUNDS if bounds is None else bounds
    chosen_bounds = {name: table[name] for name in pick(dict(table), args.bounds, "bounds")}
    chosen_families = {name: FAMILIES[name] for name in pick(dict(FAMILIES), args.families, "families")}
    reps = args.reps if args.reps is not None else SMOKE_REPS if args.smoke else Setting().reps
    setting = Setting(
        threshold=args.threshold,
        confidence=args.confidence,
        gap=args.gap,
        reps=reps,
        seed=args.seed,
        sigmas=args.sigmas,
    )
    started = time.perf_counter()
    rows = simulate(
        chosen_bounds,
        chosen_families,
        setting,
        SMOKE_SIZES if args.smoke else SIZES,
        SMOKE_GROUPS if args.smoke else GROUPS,
        SMOKE_SIZES if args.smoke else PAIRED_SIZES,
        jobs=args.jobs,
        progress=args.progress,
    )
    print(tables(rows, chosen_bounds, chosen_families, setting))
    broken = failures(rows, setting)
    print(f"\n{len(rows)} rows in {time.perf_counter() - started:.1f} s", file=sys.stderr)
    for row in broken:
        print(
            f"FAIL {row.bound} on {row.family} at size {row.size}: false PASS {row.false_pass:.3f}, "
            f"size {row.boundary:.3f} > {setting.limit:.4f}",
            file=sys.stderr,
        )
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
