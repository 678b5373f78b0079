"""The statistics --mobile-repeat adds to the summary, against values worked out by hand, and the
task name a crashed repeat is recorded under."""

from __future__ import annotations

import pytest

from pytest_mobile_agent.metrics import crash_record, summarize
from pytest_mobile_agent.reporting import terminal
from pytest_mobile_agent.tasks import without_repeat


def _record(nodeid: str, repeat: int, success: bool, infrastructure: bool = False) -> dict:
    return {
        "type": "episode",
        "nodeid": f"{nodeid}-r{repeat}]",
        "repeat": repeat,
        "app": "calculator",
        "difficulty": "easy",
        "agent": "user",
        "model": None,
        "success": success,
        "infrastructure": infrastructure,
        "termination": "infrastructure" if infrastructure else "completed",
        "steps": 3,
        "se": 1.0 if success else None,
        "premature": not success,
        "overdue": False,
        "tokens_in": 0,
        "tokens_out": 0,
        "cost_usd": None,
        "time_per_step_s": 0.1,
    }


A, B, C = "t.py::test_calc[a", "t.py::test_calc[b", "t.py::test_calc[c"
# A passes its 3 runs; B its 1st and 3rd; C its 1st, fails its 3rd, and its 2nd is lost to the
# infrastructure (not counted: C has 2 counted runs).
RECORDS = [
    _record(A, 1, True),
    _record(B, 1, True),
    _record(C, 1, True),
    _record(A, 2, True),
    _record(B, 2, False),
    _record(C, 2, False, infrastructure=True),
    _record(A, 3, True),
    _record(B, 3, True),
    _record(C, 3, False),
]


def test_the_interval_spread_pass_at_k_and_flaky_tasks_equal_the_hand_computed_ones() -> None:
    summary = summarize(RECORDS)
    overall, repeats = summary["overall"], summary["repeats"]
    # 6 passes of 8 counted episodes. Wilson, z = 1.96: centre (0.75 + z²/16) / (1 + z²/8) = 0.66889,
    # half-width z * sqrt(0.75 * 0.25 / 8 + z²/256) / (1 + z²/8) = 0.25963.
    assert (overall["episodes"], overall["SR"]) == (8, 0.75)
    assert overall["SR_interval"] == pytest.approx([0.40926, 0.92852], abs=1e-4)
    # SR per repeat: r1 3/3, r2 1/2 (C's run lost), r3 2/3; their sample standard deviation:
    # mean 0.72222, squares 0.07716 + 0.04938 + 0.00309 = 0.12963, / 2, sqrt = 0.25459.
    assert repeats["SR_by_repeat"] == pytest.approx({"1": 1.0, "2": 0.5, "3": 2 / 3})
    assert repeats["SR_spread"] == pytest.approx(0.25459, abs=1e-5)
    # Per task (n, c): A (3, 3), B (3, 2), C (2, 1).
    assert repeats["tasks"] == {
        "t.py::test_calc[a]": {"runs": 3, "passes": 3},
        "t.py::test_calc[b]": {"runs": 3, "passes": 2},
        "t.py::test_calc[c]": {"runs": 2, "passes": 1},
    }
    assert repeats["flaky"] == ["t.py::test_calc[b]", "t.py::test_calc[c]"]
    at = repeats["pass_at_k"]
    # pass@1 = pass^1 = mean(c/n) = (1 + 2/3 + 1/2) / 3.
    assert at["1"]["pass@k"] == pytest.approx(13 / 18) and at["1"]["pass^k"] == pytest.approx(13 / 18)
    # k=2: pass@2 = 1 - C(n-c, 2)/C(n, 2): A 1, B 1 - 0/3 = 1, C 1 - 0/1 = 1;
    # pass^2 = C(c, 2)/C(n, 2): A 3/3, B 1/3, C 0/1.
    assert at["2"]["pass@k"] == pytest.approx(1.0) and at["2"]["pass^k"] == pytest.approx(4 / 9)
    # k=3: C has 2 counted runs, so it is left out; A and B: pass@3 1 and 1, pass^3 1 and 0.
    assert (at["3"]["tasks"], at["3"]["left_out"]) == (2, 1)
    assert at["3"]["pass@k"] == pytest.approx(1.0) and at["3"]["pass^k"] == pytest.approx(0.5)
    assert (at["1"]["left_out"], at["2"]["left_out"]) == (0, 0)


def test_the_terminal_prints_mean_and_spread_pass_at_k_and_names_the_flaky_tasks() -> None:
    lines = terminal.repeat_lines(summarize(RECORDS)["repeats"])
    assert lines[0] == "repeats: 3 runs of each task; SR % 72.2 ± 25.5 between repeats (r1 100.0, r2 50.0, r3 66.7)"
    assert lines[1] == "pass@k: k=1 0.722  k=2 1.000  k=3 1.000"
    assert lines[2] == "pass^k: k=1 0.722  k=2 0.444  k=3 0.500"
    assert "k=3: 1" in lines[3]
    assert "flaky 2" in lines[4]
    assert lines[5:] == [
        "flaky: t.py::test_calc[b] passed 2 of 3 runs",
        "flaky: t.py::test_calc[c] passed 1 of 2 runs",
    ]


def test_without_repeats_the_interval_is_given_and_nothing_else() -> None:
    plain = [dict(r, repeat=None, nodeid=r["nodeid"].replace("-r1]", "]")) for r in RECORDS[:3]]
    summary = summarize(plain)
    assert summary["repeats"] is None and terminal.repeat_lines(summary["repeats"]) == []
    # 3 of 3: Wilson's interval is not empty at n successes: [n / (n + z²), 1].
    assert summary["overall"]["SR_interval"] == pytest.approx([3 / (3 + 1.959963984540054**2), 1.0])


def test_a_repeat_id_is_removed_from_a_node_id_and_a_crash_record_names_the_task() -> None:
    assert without_repeat("t.py::test_calc[3 + 5-8-r2]") == "t.py::test_calc[3 + 5-8]"
    assert without_repeat("t.py::test_open[r10]") == "t.py::test_open"
    assert without_repeat("t.py::test_calc[3 + 5]") == "t.py::test_calc[3 + 5]"
    assert crash_record("t.py::test_calc[expr-r2]", "worker died")["task"] == "expr"
    assert crash_record("t.py::test_open[r3]", "worker died")["task"] == "test_open"
