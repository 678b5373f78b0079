"""The statistics against values computed by hand (the arithmetic is in each test's comment)."""

import math

import pytest

from pytest_mobile_agent import stats


def test_wilson_interval_by_hand() -> None:
    # 7 of 10, z=1.96: centre (0.7 + 0.19208) / 1.38416 = 0.64451,
    # half 1.96 * sqrt(0.021 + 0.00096) / 1.38416 = 0.20984 -> [0.3968, 0.8922]
    got = stats.wilson(7, 10)
    assert got.estimate == 0.7
    assert got.low == pytest.approx(0.3968, abs=5e-4)
    assert got.high == pytest.approx(0.8922, abs=5e-4)


def test_wilson_at_the_edges_is_not_empty() -> None:
    # 0 of 5: [0, z^2/(n+z^2)] = [0, 3.8415/8.8415] = [0, 0.4345]
    none = stats.wilson(0, 5)
    assert (none.low, none.high) == (0.0, pytest.approx(0.4345, abs=5e-4))
    assert stats.wilson(5, 5).low == pytest.approx(1 - 0.4345, abs=5e-4)
    assert stats.wilson(5, 5).high == 1.0


@pytest.mark.parametrize(("successes", "n"), [(1, 0), (-1, 3), (4, 3)])
def test_wilson_refuses_impossible_counts(successes: int, n: int) -> None:
    with pytest.raises(ValueError):
        stats.wilson(successes, n)


def test_pass_at_k_and_pass_hat_k_by_hand() -> None:
    # n=5 runs, c=2 passed. pass@1 = 2/5; pass@3 = 1 - C(3,3)/C(5,3) = 1 - 1/10 = 0.9;
    # pass^1 = 2/5; pass^2 = C(2,2)/C(5,2) = 1/10; pass^3 = 0 (only two passed).
    assert stats.pass_at_k(5, 2, 1) == pytest.approx(0.4)
    assert stats.pass_at_k(5, 2, 3) == pytest.approx(0.9)
    assert stats.pass_at_k(5, 2, 4) == 1.0
    assert stats.pass_hat_k(5, 2, 1) == pytest.approx(0.4)
    assert stats.pass_hat_k(5, 2, 2) == pytest.approx(0.1)
    assert stats.pass_hat_k(5, 2, 3) == 0.0
    with pytest.raises(ValueError, match="k=6"):
        stats.pass_at_k(5, 2, 6)


def test_mcnemar_exact_by_hand() -> None:
    # b=1, c=6: 2 * (C(7,0) + C(7,1)) / 2^7 = 2 * 8 / 128 = 0.125
    assert stats.mcnemar_exact(1, 6) == pytest.approx(0.125)
    assert stats.mcnemar_exact(6, 1) == pytest.approx(0.125)
    # b=0, c=5: 2 / 32 = 0.0625; equal counts: 1
    assert stats.mcnemar_exact(0, 5) == pytest.approx(0.0625)
    assert stats.mcnemar_exact(3, 3) == 1.0
    assert stats.mcnemar_exact(0, 0) == 1.0


def test_paired_difference_by_hand() -> None:
    # A passes 4 tasks of 5, B 2; per task d = [1, 1, 0, 0, 0]: d = 0.4,
    # var = 2/5 - 0.16 = 0.24, se = sqrt(0.24/5) = 0.21909, half = 0.42941
    got = stats.paired_difference([1, 1, 1, 1, 0], [0, 0, 1, 1, 0])
    assert got.estimate == pytest.approx(0.4)
    assert got.low == pytest.approx(0.4 - 0.42941, abs=1e-4)
    assert got.high == pytest.approx(0.4 + 0.42941, abs=1e-4)
    with pytest.raises(ValueError, match="5 tasks against 4"):
        stats.paired_difference([1] * 5, [1] * 4)


def test_spread_is_the_sample_standard_deviation() -> None:
    # rates 0.5, 0.6, 0.7: mean 0.6, squares 0.01 + 0 + 0.01, / 2 -> sqrt(0.01) = 0.1
    assert stats.spread([0.5, 0.6, 0.7]) == pytest.approx(0.1)
    assert stats.spread([0.5]) == 0.0
    assert math.isclose(stats.wilson(7, 10).estimate, 0.7)
    assert stats.wilson(7, 10).percent() == "70.0% [39.7, 89.2]"
