"""Task bugs are task errors, not the agent's: a body that raises anything but AssertionError on
the final state is recorded as the task's error with its traceback (counted neither way); an
`@task` with an unknown argument or a nonsense value fails alone, at collection, naming it."""

from __future__ import annotations

import pytest

HEADER = """
import pytest
from pytest_mobile_agent import Tap, task

CALC = "com.simplemobiletools.calculator"
GOLDEN = [Tap(text=k) for k in "3+5="]


@task(prompt="Calculate 3 + 5", app=CALC, golden=GOLDEN)
def test_valid(ui, changes):
    changes.allow(CALC, "files/history.json")
    assert ui.text_of("result") == "8"
"""

BUGGY_BODIES = """

@pytest.mark.parametrize("bug", ["key-error", "zero-division"])
@task(prompt="Calculate 3 + 5 ({bug})", app=CALC, golden=GOLDEN)
def test_buggy(ui, changes, bug):
    changes.allow(CALC, "files/history.json")
    if bug == "key-error":
        assert {"result": ui.text_of("result")}["resutl"] == "8"
    assert int(ui.text_of("result")) / 0 == 8
"""


def test_a_body_that_raises_is_a_task_error_with_its_traceback(run_tasks):
    run = run_tasks({"test_bugs.py": HEADER + BUGGY_BODIES}, "-p", "no:xdist", "--agent=oracle")
    out = run.result.stdout.str()
    run.result.assert_outcomes(passed=1, failed=2)
    buggy = {e["nodeid"].rsplit("[", 1)[-1].rstrip("]"): e for e in run.episodes if "buggy" in e["nodeid"]}
    for bug, raised, line in (
        ("key-error", "KeyError: 'resutl'", '["resutl"]'),
        ("zero-division", "ZeroDivisionError: division by zero", "/ 0"),
    ):
        e = buggy[bug]
        assert e["termination"] == "task_error" and not e["success"] and not e["premature"], e
        assert e["error"] == f"the task's body raised {raised}", e
        assert "test_bugs.py" in e["traceback"] and line in e["traceback"], e["traceback"]
        assert "pytest_mobile_agent" not in e["traceback"], e["traceback"]  # the body's frames only
        assert f"TaskError: test_bugs.py::test_buggy[{bug}]: the task's body raised" in out
        assert "The task body's traceback:" in out
    # Counted neither for nor against the agent.
    assert run.overall["episodes"] == 1 and run.overall["task_errors"] == 2 and run.overall["SR"] == 1.0
    assert run.overall["FFR"] is None


BAD_ARGUMENTS = {
    "max_step=3": "unknown @task argument: max_step (did you mean max_steps?)",
    "chek_changes=False": "unknown @task argument: chek_changes (did you mean check_changes?)",
    "max_steps=-3": "max_steps must be a whole number of steps from 1, not -3",
    "golden_steps=0": "golden_steps must be a whole number of steps from 1, not 0",
    "launch='no'": "launch must be True or False, not 'no'",
}


@pytest.mark.parametrize("argument", sorted(BAD_ARGUMENTS))
def test_unknown_or_invalid_task_arguments_fail_the_task_alone(run_tasks, argument):
    bad = f"\n\n@task(prompt='Add', app=CALC, golden=GOLDEN, {argument})\ndef test_bad(ui):\n    assert True\n"
    run = run_tasks({"test_bad.py": HEADER + bad}, "-p", "no:xdist", "--agent=oracle")
    out = run.result.stdout.str()
    outcomes = run.result.parseoutcomes()
    assert outcomes["passed"] == 1 and outcomes["errors"] == 1, out
    assert f"malformed task 'test_bad' in test_bad.py::test_bad: {BAD_ARGUMENTS[argument]}" in out
    assert [e["nodeid"] for e in run.episodes] == ["test_bad.py::test_valid"]  # nothing ran for the bad one
