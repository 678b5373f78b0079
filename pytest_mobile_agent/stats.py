"""The statistics every result carries: a success rate's confidence interval, pass@k and pass^k
over repeats, and the paired comparison of two runs (the exact McNemar test, the difference in
success rate with its interval). Formulas are on the docs' "Statistics" page.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

Z95 = 1.959963984540054  # the standard normal's 97.5% quantile: a two-sided 95% interval


@dataclass(frozen=True)
class Interval:
    estimate: float
    low: float
    high: float

    def percent(self) -> str:
        """'58.8% [52.1, 65.2]'"""
        return f"{100 * self.estimate:.1f}% [{100 * self.low:.1f}, {100 * self.high:.1f}]"


def wilson(successes: int, n: int, z: float = Z95) -> Interval:
    """The Wilson score interval of a proportion: unlike the normal one it stays inside [0, 1]
    and is not empty at 0 or n successes, which small suites hit often."""
    if n <= 0:
        raise ValueError("a proportion of no trials")
    if not 0 <= successes <= n:
        raise ValueError(f"{successes} successes of {n} trials")
    p = successes / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return Interval(p, max(0.0, centre - half), min(1.0, centre + half))


def pass_at_k(n: int, c: int, k: int) -> float:
    """The chance that at least one of k runs drawn from n (c of them passed) passes:
    1 - C(n-c, k) / C(n, k), the unbiased estimator of Chen et al. (2021)."""
    _check_k(n, c, k)
    return 1.0 - math.comb(n - c, k) / math.comb(n, k)


def pass_hat_k(n: int, c: int, k: int) -> float:
    """pass^k: the chance that all of k runs drawn from n pass, C(c, k) / C(n, k) (tau-bench):
    how reliably the agent does the task, where pass@k says whether it can."""
    _check_k(n, c, k)
    return math.comb(c, k) / math.comb(n, k)


def _check_k(n: int, c: int, k: int) -> None:
    if not 0 <= c <= n:
        raise ValueError(f"{c} passes of {n} runs")
    if not 1 <= k <= n:
        raise ValueError(f"k={k} needs 1 <= k <= n={n}")


def mcnemar_exact(b: int, c: int) -> float:
    """The exact (binomial) McNemar test's two-sided p-value on the discordant pairs: b tasks
    only A passed, c only B passed; under "no difference" each is A's with probability 1/2."""
    if b < 0 or c < 0:
        raise ValueError("negative counts")
    n = b + c
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, i) for i in range(min(b, c) + 1)) / 2**n
    return min(1.0, 2 * tail)


def paired_difference(a: Sequence[float], b: Sequence[float], z: float = Z95) -> Interval:
    """The mean of A's minus B's per-task success (0/1, or a task's pass rate over repeats) with
    its normal interval: d = mean(a_i - b_i), se = sqrt((mean(d_i^2) - d^2) / n). On 0/1 outcomes
    this is the paired (Wald) interval of the difference between two success rates."""
    if len(a) != len(b):
        raise ValueError(f"{len(a)} tasks against {len(b)}")
    n = len(a)
    if n == 0:
        raise ValueError("no tasks to compare")
    diffs = [x - y for x, y in zip(a, b, strict=True)]
    d = sum(diffs) / n
    var = max(0.0, sum(x * x for x in diffs) / n - d * d)
    half = z * math.sqrt(var / n)
    return Interval(d, max(-1.0, d - half), min(1.0, d + half))


def spread(rates: Sequence[float]) -> float:
    """The sample standard deviation of the success rates of repeated runs ("58.8 +- 1.4");
    0 for one run."""
    if len(rates) < 2:
        return 0.0
    m = sum(rates) / len(rates)
    return math.sqrt(sum((r - m) ** 2 for r in rates) / (len(rates) - 1))
