"""The final "nothing else changed" check and labelled near misses, in real sessions (pytester)."""

from __future__ import annotations

TASKS = """
from pytest_mobile_agent import task, Tap

CALC = "com.simplemobiletools.calculator"
ADD = [Tap(text=k) for k in "3+5="]


@task(prompt="Calculate 3 + 5", app=CALC, golden=ADD,
      near_miss={"wrong key": [Tap(text=k) for k in "3+6="], "vibration off too": [
          Tap(desc="Settings"), Tap(text="Vibrate on button press"), Tap(desc="Back"), *ADD]})
def test_declared(ui, changes):
    changes.allow(CALC, "files/history.json")
    assert ui.text_of("result") == "8"


@task(prompt="Calculate 3 + 5", app=CALC, golden=ADD)
def test_undeclared(ui):
    assert ui.text_of("result") == "8"


@task(prompt="Calculate 3 + 5", app=CALC, golden=ADD, check_changes=False)
def test_unchecked(ui):
    assert ui.text_of("result") == "8"
"""


def test_an_undeclared_change_fails_with_the_diff_and_a_declared_one_passes(run_tasks):
    run = run_tasks({"test_calc_changes.py": TASKS}, "--agent=oracle", "-p", "no:randomly")
    run.result.assert_outcomes(passed=2, failed=1)
    failed = {e["task"]: e for e in run.episodes if not e["success"]}
    assert list(failed) == ["test_undeclared"]
    message = failed["test_undeclared"]["failure_message"]
    assert message == "changes nobody asked for: com.simplemobiletools.calculator added files/history.json"
    run.result.stdout.fnmatch_lines(["*com.simplemobiletools.calculator:", "*+ files/history.json: *"])


def test_each_near_miss_runs_as_its_own_item_named_by_its_label(run_tasks):
    run = run_tasks({"test_calc_changes.py": TASKS}, "--agent=near-miss", "-p", "no:randomly", "-m", "near_miss")
    run.result.assert_outcomes(failed=2)
    by_id = {e["nodeid"].split("::")[1]: e for e in run.episodes}
    assert set(by_id) == {"test_declared[wrong key]", "test_declared[vibration off too]"}
    assert by_id["test_declared[wrong key]"]["steps"] == 4
    assert by_id["test_declared[vibration off too]"]["steps"] == 7  # its own path, past the golden budget
    assert all(e["invalid_steps"] == 0 and e["termination"] == "completed" for e in by_id.values())
    assert "vibrate_on_button_press" in by_id["test_declared[vibration off too]"]["failure_message"]


def test_side_effects_are_recorded_per_episode_and_rated_per_run(run_tasks):
    """The undeclared changes of an episode whose body held are its side effects: the record
    lists them, the aggregate gives the rate among measured episodes, the table prints it."""
    run = run_tasks({"test_calc_changes.py": TASKS}, "--agent=oracle", "-p", "no:randomly")
    by_task = {e["task"]: e for e in run.episodes}
    assert by_task["test_declared"]["side_effects"] == []
    assert by_task["test_undeclared"]["side_effects"] == ["com.simplemobiletools.calculator added files/history.json"]
    assert by_task["test_unchecked"]["side_effects"] is None  # reads no durable state: not measured
    assert run.overall["side_effect_rate"] == 0.5  # one of the two measured
    assert run.table_row()["side%"] == "50%"


def test_a_near_miss_that_changes_more_has_side_effects(run_tasks):
    run = run_tasks({"test_calc_changes.py": TASKS}, "--agent=near-miss", "-p", "no:randomly", "-k", "vibration")
    (episode,) = run.episodes
    assert any("vibrate_on_button_press" in s for s in episode["side_effects"]), episode["side_effects"]
    assert run.overall["side_effect_rate"] == 1.0
