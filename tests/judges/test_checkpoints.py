"""Mobile-Bench's CheckPoint arithmetic: the paper's worked example and the edge cases."""

from __future__ import annotations

import pytest

from pytest_mobile_agent.judges import make
from pytest_mobile_agent.judges.base import Trajectory, TrajectoryStep
from pytest_mobile_agent.judges.checkpoints import PAPER, RELEASED, score, score_entry

CTRIP = "ctrip.android.view"
# App. B.4: the app opened by API, "air ticket", "Beijing", "Shanghai" selected, the date input failed.
HISTORY = [
    f"API call: adb shell am start -n {CTRIP}/.IntentHandlerActivity. [Call result]: API execution successful",
    f"tap(text=air ticket) element(package={CTRIP}, text=air ticket)",
    f"tap(text=Beijing) element(package={CTRIP}, text=Beijing)",
    f"tap(text=Shanghai) element(package={CTRIP}, text=Shanghai)",
]
FAILED_DATE = TrajectoryStep(5, {"action": "type", "text": "2024-05-20"}, valid=False, error="no focused field")
CHECKPOINTS = {
    "package": CTRIP,
    "key_phrases": ["air ticket", "Beijing", "Shanghai", "2024-05-20"],
    "api": [f"adb shell am start -n {CTRIP}/.IntentHandlerActivity"],
}


def test_the_papers_worked_example_scores_l1_1_of_1_and_l2_5_of_6():
    l1, l2 = score(CHECKPOINTS, HISTORY)
    assert (l1.passed, l1.total) == (1, 1)
    assert (l2.passed, l2.total) == (5, 6)
    assert l2.missed == ("2024-05-20",)


def _trajectory(entries: list[str], failed: list[TrajectoryStep] = ()) -> Trajectory:
    steps = [TrajectoryStep(i, {"action": "api", "command": e}, valid=True) for i, e in enumerate(entries, 1)]
    return Trajectory("t", "p", (CTRIP,), [*steps, *failed], [None], [None], inputs={"checkpoints": CHECKPOINTS})


def test_the_judge_only_counts_successful_actions_and_fails_below_every_checkpoint():
    # The date was typed, but the action failed: it must not count (App. B.4).
    steps = [TrajectoryStep(1, {"action": "api", "command": f"am start -n {CTRIP}/.IntentHandlerActivity"}, True)]
    steps += [
        TrajectoryStep(i, {"action": "tap", "selector": {"text": t}}, True, element={"package": CTRIP, "text": t})
        for i, t in enumerate(["air ticket", "Beijing", "Shanghai"], 2)
    ]
    steps.append(FAILED_DATE)
    traj = Trajectory("t", "p", (CTRIP,), steps, [None] * 6, [None] * 6, inputs={"checkpoints": CHECKPOINTS})
    verdict = make("checkpoints").judge(traj)
    assert verdict.passed is False
    assert verdict.details["l1_counts"] == [1, 1] and verdict.details["l2_counts"] == [4, 6]
    assert "2024-05-20" in verdict.reason  # the API entry lacks "adb shell": what the history holds counts


def test_disjunctive_passes_on_any_alternative_in_both_spellings():
    history = ["tap(text=flight)"]
    assert score_entry("air ticket|flight", history) == score_entry(["|", "air ticket", "flight"], history)
    assert score_entry(["|", "air ticket", "flight"], history).passed == 1
    assert score_entry(["|", "hotel", "train"], history).passed == 0


def test_conjunctive_paper_needs_each_in_some_action_released_needs_each_in_every_action():
    history = ["tap(text=Beijing)", "tap(text=Shanghai)"]
    group = ["&", "Beijing", "Shanghai"]
    assert score_entry(group, history, PAPER).passed == 1
    assert score_entry(group, history, RELEASED).passed == 0
    assert score_entry(group, ["tap(Beijing to Shanghai)"], RELEASED).passed == 1
    assert score_entry(["&", "Beijing", "Paris"], history, PAPER).passed == 0


def test_sequential_counts_each_passed_element_without_order():
    history = ["tap(text=c)", "tap(text=a)"]
    s = score_entry(["a", "b", "c"], history)
    assert (s.passed, s.total, s.missed) == (2, 3, ("b",))


def test_groups_nest_in_a_sequential_list_and_count_one_each():
    s = score_entry(["a|x", ["&", "b", "c"], "d"], ["x", "b", "c"])
    assert (s.passed, s.total) == (2, 3)


def test_several_packages_count_each_for_level_1():
    l1, l2 = score({"package": ["com.a", "com.b"], "api": []}, ["foreground=com.a"])
    assert (l1.passed, l1.total) == (1, 2) and (l2.passed, l2.total) == (1, 2)


def test_matching_ignores_case_and_empty_history_scores_zero():
    assert score_entry("BEIJING", ["tap(text=beijing)"]).passed == 1
    l1, l2 = score(CHECKPOINTS, [])
    assert l1.passed == l2.passed == 0 and l2.total == 6


def test_bad_declarations_get_specific_errors():
    with pytest.raises(ValueError, match="unknown CheckPoint kind.*'keyphrase'"):
        score({"keyphrase": ["a"]}, [])
    with pytest.raises(ValueError, match="semantics"):
        score({"package": "a"}, [], semantics="strict")


def test_a_task_without_checkpoints_abstains():
    traj = Trajectory("t", "p", (CTRIP,), [], [None], [None])
    assert make("checkpoints").judge(traj).passed is None


def test_the_released_semantics_is_chosen_by_name():
    from pytest_mobile_agent.judges import JudgeConfigError

    assert make("checkpoints:released").semantics == RELEASED
    with pytest.raises(JudgeConfigError, match="'paper' or 'released', not 'strict'"):
        make("checkpoints:strict")
