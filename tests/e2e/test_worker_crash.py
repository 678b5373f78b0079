"""An xdist worker that dies with its task while the harness drives the device: the controller
records the attempt as infrastructure and queues the task again while --mobile-retries allows.
(One that dies while its agent's code runs is the agent's crash: tests/faults/.)"""

from __future__ import annotations

from calc_tasks import calc_tasks

CRASHER = '''
import os
import signal
from pathlib import Path

import pytest
from pytest_mobile_agent import Done

KILL = []  # set by the agent: the harness's next action kills the worker


@pytest.fixture(autouse=True)
def _kill_in_the_harness(device):
    """The worker dies inside the harness's own work (executing an action), not the agent's."""
    execute = device.execute

    def killing(action, ui):
        if KILL:
            os.kill(os.getpid(), signal.SIGKILL)
        return execute(action, ui)

    device.execute = killing
    yield
    del device.execute


class Agent:
    """Has its worker killed at step 2 of the first episode of 3 + 5 (once across workers)."""
    name = "crasher"

    def step(self, observation):
        i = len(observation.history)
        if i == 1 and "3 + 5" in observation.prompt:
            try:
                os.close(os.open(Path(os.environ["MOBILE_FAULT_DIR"]) / "crashed", os.O_CREAT | os.O_EXCL))
            except FileExistsError:
                pass
            else:
                KILL.append(True)
        golden = observation.task.golden
        return golden[i] if i < len(golden) else Done()


def pytest_mobile_agent_make_agent(config, name):
    return Agent() if name == "crasher" else None
'''


def _run(run_tasks, pytester, monkeypatch, *args):
    monkeypatch.setenv("MOBILE_FAULT_DIR", str(pytester.path))
    files = {"test_calc.py": calc_tasks(), "conftest.py": CRASHER}
    return run_tasks(files, "-n", "2", "--agent=crasher", *args)


def test_crashed_worker_task_is_recorded_and_run_again(run_tasks, pytester, monkeypatch):
    run = _run(run_tasks, pytester, monkeypatch)
    assert run.result.ret == 0, run.result.stdout.str()
    run.result.assert_outcomes(passed=4)
    crashed = [e for e in run.episodes if e["infrastructure"]]
    assert len(crashed) == 1 and "3 + 5" in crashed[0]["nodeid"] and "crashed" in crashed[0]["error"]
    assert crashed[0]["termination"] == "infrastructure" and not crashed[0]["success"]
    again = [e for e in run.episodes if e["nodeid"] == crashed[0]["nodeid"] and not e["infrastructure"]]
    assert len(again) == 1 and again[0]["success"]
    assert run.overall["episodes"] == 4 and run.overall["infrastructure_errors"] == 1 and run.overall["SR"] == 1.0
    (line,) = run.lines("infrastructure: ")
    assert crashed[0]["nodeid"] in line and "ran again" in line


def test_crashed_worker_task_without_retries_fails_as_infrastructure(run_tasks, pytester, monkeypatch):
    run = _run(run_tasks, pytester, monkeypatch, "--mobile-retries=0")
    run.result.assert_outcomes(passed=3, failed=1)
    (crashed,) = [e for e in run.episodes if e["infrastructure"]]
    assert run.overall["episodes"] == 3 and run.overall["infrastructure_errors"] == 1
    assert "not run again" in run.lines("infrastructure: ")[0]
