"""Real episodes on virtual devices through the plugin, run as pytest sessions (pytester)."""

from __future__ import annotations

import json

import pytest

MAB_TASK = """
from mobile_agent_benchmark.bench_task import Task
from mobile_agent_benchmark.server import AppEvent, AppEventType


class CalculatorAddTask(Task):
    def __init__(self, task_name="calculator_add", prompt="Calculate the result of '3 + 5'", min_steps=4,
                 package="com.simplemobiletools.calculator", max_steps=8, stop_after_finish=False, permissions=[]):
        super().__init__(task_name, prompt, min_steps, package, max_steps, stop_after_finish, permissions)
        self.text_filled = False
        self.last_event = None

    def check_finish(self, view_client, app_event: AppEvent) -> bool:
        result = view_client.findViewById("com.simplemobiletools.calculator:id/result")
        if result is not None and result.text().strip() == "8":
            self.text_filled = True
        if app_event is not None and app_event.package == self.package:
            if app_event.type == AppEventType.Click and app_event.text_list == ["="]:
                if self.last_event is not None and self.last_event.type == AppEventType.Click:
                    return self.text_filled
            self.last_event = app_event
        return False
"""

TAPPER = """
from pytest_mobile_agent import Done, Tap


class Agent:
    name = "tapper"

    def step(self, observation):
        keys = ["3", "+", "5", "="]
        i = len(observation.history)
        return Tap(text=keys[i]) if i < len(keys) else Done()
"""


def test_oracle_passes_every_task_with_se_1(run_tasks, calc_tasks):
    run = run_tasks(calc_tasks, "--agent=oracle")
    run.result.assert_outcomes(passed=4)
    assert len(run.episodes) == 4
    for ep in run.episodes:
        assert ep["success"] and ep["termination"] == "completed"
        assert ep["steps"] == ep["golden_steps"] and ep["se"] == 1.0
        assert ep["success_step"] == ep["golden_steps"]  # the body first held after the last action
    assert run.aggregate["overall"]["SR"] == 1.0
    assert run.aggregate["overall"]["SE"] == 1.0


def test_noop_fails_every_task_with_ffr_1(run_tasks, calc_tasks):
    run = run_tasks(calc_tasks, "--agent=noop")
    run.result.assert_outcomes(failed=4)
    assert all(not ep["success"] and ep["premature"] for ep in run.episodes)
    overall = run.aggregate["overall"]
    assert overall["SR"] == 0.0 and overall["FFR"] == 1.0
    # The final assertion message is the failure message.
    run.result.stdout.fnmatch_lines(["*AssertionError: assert '0' == '8'*"])


def test_a_failed_tasks_summary_line_names_how_it_ended(run_tasks, calc_tasks, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")  # pytest cuts the line at the terminal's width
    # Under xdist the worker's report crosses to the controller: the line must survive that too.
    noop = run_tasks(calc_tasks, "--agent=noop", "-n", "2", "-k", "3+5")
    case = "test_calc.py::test_arithmetic[3 + 5-3+5=-8]"
    assert f"FAILED {case} - completed after 0 steps: AssertionError: assert '0' == '8'" in noop.result.outlines
    # Tap(text='+') forever: never done, the budget (2 x 4 golden steps) runs out.
    plus = "from pytest_mobile_agent import Tap\n\ndef agent(observation):\n    return Tap(text='+')\n"
    files = {**calc_tasks, "plus.py": plus}
    tapper = run_tasks(files, "--agent=plus.py", "-k", "3+5")
    (episode,) = tapper.episodes
    assert (episode["termination"], episode["steps"]) == ("max_steps", 8)
    line = f"FAILED {case} - max_steps after 8 steps: AssertionError: "
    assert any(printed.startswith(line) for printed in tapper.result.outlines), tapper.result.stdout.str()


def test_results_file_agrees_with_the_terminal_table(run_tasks, calc_tasks):
    run = run_tasks(calc_tasks, "--agent=random", "--mobile-seed=3")
    overall = run.aggregate["overall"]
    row = run.table_row("all")
    assert row["N"] == str(overall["episodes"]) == "4"
    assert row["SR"] == f"{overall['SR']:.2f}"
    assert row["tokens"] == f"{overall['tokens']:.0f} est."  # random reports no usage
    assert row["MSR%"] == f"{overall['max_steps_share']:.0%}"
    by_app = run.table_row("app calculator")
    assert by_app["SR"] == f"{run.aggregate['by_app']['calculator']['SR']:.2f}"
    # Random never says done: every episode ran into its budget of 2 x golden steps.
    assert all(ep["termination"] == "max_steps" and ep["steps"] == 2 * ep["golden_steps"] for ep in run.episodes)


# The oracle, except that each worker's first step waits until the other worker has started a
# task too: xdist may otherwise hand one fast worker all four tasks before the other comes up.
BOTH_WORKERS_AGENT = """
import os, time
from pathlib import Path

from pytest_mobile_agent.agents.builtin import OracleAgent

STARTED = Path(__file__).parent / "started"


class Agent(OracleAgent):
    def step(self, observation):
        STARTED.mkdir(exist_ok=True)
        (STARTED / os.environ["PYTEST_XDIST_WORKER"]).touch()
        deadline = time.monotonic() + 60  # under the step timeout (120 s): a clear error instead
        while len(list(STARTED.iterdir())) < 2:
            if time.monotonic() > deadline:
                raise RuntimeError(f"only {os.listdir(STARTED)} started a task")
            time.sleep(0.05)
        return super().step(observation)
"""


def test_an_agent_without_usage_has_its_tokens_marked_estimated(run_tasks, calc_tasks, pytester):
    run = run_tasks(calc_tasks, "--agent=oracle", "-k", "3+5", "--alluredir=allure")
    (episode,) = run.episodes
    assert episode["tokens_estimated"] and episode["tokens_in"] > 0  # MobileAgentBench's rule
    assert run.overall["tokens_estimated"] is True
    assert run.table_row()["tokens"] == f"{run.overall['tokens']:.0f} est."
    (result,) = [json.loads(p.read_text()) for p in (pytester.path / "allure").glob("*-result.json")]
    shown = {p["name"]: p["value"] for p in result["parameters"]}
    note = "est. (the agent reports no usage: MobileAgentBench's estimate)"
    assert shown["tokens in"] == f"{episode['tokens_in']} {note}"
    assert shown["tokens out"] == f"{episode['tokens_out']} {note}"


def test_xdist_two_workers_use_two_distinct_devices(run_tasks, calc_tasks):
    run = run_tasks({**calc_tasks, "both_workers.py": BOTH_WORKERS_AGENT}, "--agent=both_workers.py", "-n", "2")
    run.result.assert_outcomes(passed=4)
    assert len({ep["serial"] for ep in run.episodes}) == 2
    assert run.aggregate["overall"]["episodes"] == 4  # aggregated across both workers


def test_markers_select_subsets(run_tasks, calc_tasks):
    run = run_tasks(calc_tasks, "--agent=oracle", "-m", "calculator and medium", "-k", "12")
    run.result.assert_outcomes(passed=2, deselected=2)


def test_mobileagentbench_task_file_runs_unchanged(run_tasks):
    files = {"calculator_add.py": MAB_TASK, "tapper.py": TAPPER}
    passed = run_tasks(files, "--agent=tapper.py", "calculator_add.py")
    passed.result.assert_outcomes(passed=1)
    assert passed.episodes[0]["task"] == "calculator_add" and passed.episodes[0]["budget"] == 8
    failed = run_tasks(files, "--agent=noop", "calculator_add.py")
    failed.result.assert_outcomes(failed=1)
    failed.result.stdout.fnmatch_lines(["*CalculatorAddTask.check_finish never returned True*"])


@pytest.mark.parametrize(
    "agent_file, message",
    [
        ("missing.py", "*--agent=missing.py: file not found*"),
        ("empty_agent.py", "*defines no agent: expected a variable `agent`*"),
    ],
)
def test_bad_agent_stops_the_run_with_a_clear_message(run_tasks, calc_tasks, pytester, agent_file, message):
    (pytester.path / "empty_agent.py").write_text("x = 1\n")
    run = run_tasks(calc_tasks, f"--agent={agent_file}")
    assert run.result.ret == pytest.ExitCode.USAGE_ERROR
    run.result.stderr.fnmatch_lines([message])


def test_tasks_without_an_agent_say_how_to_choose_one(run_tasks, calc_tasks):
    run = run_tasks(calc_tasks)
    assert run.result.ret == pytest.ExitCode.USAGE_ERROR
    run.result.stderr.fnmatch_lines(["*choose the agent with --agent=NAME*"])


RAISER = """
class Agent:
    def step(self, observation):
        if observation.step == 2:
            raise ValueError("model output unparsable")
        return {"action": "tap", "text": "3"}
"""
HANGER = """
import time

class Agent:
    def step(self, observation):
        time.sleep(30)
"""
INVALID = """
class Agent:
    def step(self, observation):
        return {"action": "fly", "to": "moon"}
"""


@pytest.mark.parametrize(
    "source, extra, error",
    [
        (RAISER, (), "agent raised ValueError at step 2: model output unparsable"),
        (HANGER, ("--mobile-step-timeout=0.5",), "agent hang: step 1 took longer than 0.5 s"),
        (INVALID, (), "3 invalid actions in a row"),
    ],
    ids=["raises", "hangs", "invalid-actions"],
)
def test_agent_failures_fail_the_task_as_the_agents(run_tasks, calc_tasks, tmp_path, monkeypatch, source, extra, error):
    monkeypatch.setenv("COLUMNS", "200")  # the short summary line, uncut
    files = dict(calc_tasks, **{"bad_agent.py": source})
    art = tmp_path / "art"
    run = run_tasks(files, "--agent=bad_agent.py", "-k", "3+5", f"--mobile-artifacts={art}", *extra)
    run.result.assert_outcomes(failed=1, deselected=3)
    (ep,) = run.episodes
    assert ep["termination"] == "error" and error in ep["error"]
    assert not ep["success"] and not ep["infrastructure"]
    run.result.stdout.fnmatch_lines([f"*AgentError: {error}*"])
    steps = ep["steps"]
    summary = f"FAILED test_calc.py::test_arithmetic[[]3 + 5-3+5=-8[]] - error after {steps} step*AgentError: {error}*"
    run.result.stdout.fnmatch_lines([summary])
    # The trajectory is kept.
    folder = next(p for p in art.iterdir() if p.is_dir())
    assert (folder / "step-000.png").exists() and (folder / "episode.json").exists()


KILLER_CONFTEST = '''
import pytest
from pytest_mobile_agent import Tap, Done

POOL = []
KILLED = []


@pytest.fixture(autouse=True)
def _remember_pool(mobile_pool):
    POOL[:] = [mobile_pool]


class Killer:
    """Pulls the (virtual) phone's cable at step 2 of its first episode, then plays it straight."""
    name = "killer"

    def step(self, observation):
        i = len(observation.history)
        if i == 1 and not KILLED:
            KILLED.append(True)
            POOL[0]._virtual.kill()
        golden = observation.task.golden
        return golden[i] if i < len(golden) else Done()


def pytest_mobile_agent_make_agent(config, name):
    return Killer() if name == "killer" else None
'''


def test_device_killed_mid_episode_is_retried_on_another_device(run_tasks, calc_tasks):
    files = dict(calc_tasks, **{"conftest.py": KILLER_CONFTEST})
    run = run_tasks(files, "--agent=killer", "-k", "3+5")
    run.result.assert_outcomes(passed=1, deselected=3)
    first, second = run.episodes
    assert first["termination"] == "infrastructure" and first["infrastructure"]
    assert second["success"] and second["retried"] and second["serial"] != first["serial"]
    overall = run.aggregate["overall"]
    assert overall["episodes"] == 1 and overall["infrastructure_errors"] == 1 and overall["SR"] == 1.0


API_AGENT = '''
from pytest_mobile_agent import Api, Done


class Agent:
    """Mobile-Bench style: adb commands as actions beside UI actions."""

    def step(self, observation):
        i = len(observation.history)
        if i == 0:
            return Api("getprop ro.build.version.sdk")
        if i == 1:
            assert observation.last_output.strip() == "33"
            return Api("input tap 500 500")  # UI actions in disguise are not API actions
        if i == 2:
            assert "api command not allowed" in observation.last_error
        golden = observation.task.golden
        return golden[i - 2] if i - 2 < len(golden) else Done()
'''


def test_api_actions_run_through_an_allowlist(run_tasks, calc_tasks, tmp_path):
    art = tmp_path / "art"
    files = dict(calc_tasks, **{"api_agent.py": API_AGENT})
    run = run_tasks(files, "--agent=api_agent.py", "-k", "3+5", "--mobile-step-factor=3", f"--mobile-artifacts={art}")
    run.result.assert_outcomes(passed=1, deselected=3)
    (ep,) = run.episodes
    assert ep["steps"] == 6 and ep["invalid_steps"] == 1
    folder = next(p for p in art.iterdir() if p.is_dir())
    steps = [json.loads(line) for line in (folder / "actions.jsonl").read_text().splitlines()]
    assert steps[0]["action"] == {"action": "api", "command": "getprop ro.build.version.sdk"} and steps[0]["valid"]
    assert not steps[1]["valid"] and "api command not allowed" in steps[1]["error"]
