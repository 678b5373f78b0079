"""The names an episode is recorded under, readable test ids, and observation.step counting
from 1 as the harness's own messages do."""

from __future__ import annotations

from episode_fakes import run_scripted

from pytest_mobile_agent import Done, Tap, task
from pytest_mobile_agent.tasks import task_name


def test_task_name_prefers_the_declared_name_then_a_name_parameter_then_the_function():
    @task(prompt="p", app="a.b", golden_steps=1, name="declared")
    def named(ui): ...

    @task(prompt="p", app="a.b", golden_steps=1)
    def plain(ui): ...

    assert task_name(named.__mobile_task__, "test_named", {"name": "calc_add"}) == "declared"
    assert task_name(plain.__mobile_task__, "test_arithmetic", {"name": "calc_add", "x": 1}) == "calc_add"
    assert task_name(plain.__mobile_task__, "test_arithmetic", {"x": 1}) == "test_arithmetic"


NAMED = """
import pytest
from pytest_mobile_agent import Tap, task

CASES = [("calculator_add", "3+5=", "8"), ("calculator_minus", "9-1=", "8")]


@pytest.mark.parametrize("name, keys, expected", CASES, ids=[c[0] for c in CASES])
@task(prompt="Press {keys}", app="com.simplemobiletools.calculator", golden=lambda keys: [Tap(text=k) for k in keys])
def test_arithmetic(ui, changes, expected):
    changes.allow("com.simplemobiletools.calculator", "files/history.json")  # the calculator keeps its history
    assert ui.text_of("result") == expected
"""


def test_a_name_parameter_names_the_task_and_the_id(run_tasks):
    run = run_tasks({"test_named.py": NAMED}, "-p", "no:xdist", "--agent=oracle")
    run.result.assert_outcomes(passed=2)
    assert [(e["nodeid"], e["task"]) for e in run.episodes] == [
        ("test_named.py::test_arithmetic[calculator_add]", "calculator_add"),
        ("test_named.py::test_arithmetic[calculator_minus]", "calculator_minus"),
    ]


class StepCounter:
    def __init__(self) -> None:
        self.seen: list[int] = []

    def step(self, observation):  # noqa: ANN001, ANN201
        self.seen.append(observation.step)
        return Tap(10, 10) if len(self.seen) <= 2 else Done()


def test_observation_step_counts_from_1_like_the_recorded_steps():
    agent = StepCounter()
    episode = run_scripted(agent, golden_steps=2)
    assert agent.seen == [1, 2, 3]  # two taps, then the step that says done
    assert [s.index for s in episode.steps] == [1, 2]
