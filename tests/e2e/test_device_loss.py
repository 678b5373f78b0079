"""A device lost at each place it can surface is infrastructure: the task runs again on another
device, the terminal says so in one line, and the results file holds both attempts."""

from __future__ import annotations

import re

import pytest
from calc_tasks import calc_tasks

# Kills the session's virtual device once, at the place MOBILE_FAULT names, the first time
# that place is reached (a marker file makes "once" hold across xdist workers too).
INJECTOR = '''
import os
from pathlib import Path

import pytest
from pytest_mobile_agent import Done
from pytest_mobile_agent.device.android import AndroidDevice

FAULT = os.environ["MOBILE_FAULT"]
POOL = []


def once(place):
    if place != FAULT:
        return False
    try:
        os.close(os.open(Path(os.environ["MOBILE_FAULT_DIR"]) / place, os.O_CREAT | os.O_EXCL))
        return True
    except FileExistsError:
        return False


def kill():
    POOL[0]._virtual.kill()


@pytest.fixture(autouse=True)
def _pool(mobile_pool):
    POOL[:] = [mobile_pool]


@pytest.fixture(autouse=True)
def precondition(_pool, device):
    if once("fixture-raw-adb"):
        kill()
        device.adb.shell("echo seeding")  # adbutils itself: a raw AdbError, not a DeviceLost
    yield
    if once("teardown"):
        kill()
        device.sh("echo cleaning up")


def pytest_mobile_agent_reset(device, task):
    if once("reset"):
        kill()
        device.sh("settings put system screen_off_timeout 600000")


_dump = AndroidDevice.dump


def dump(self):
    xml = _dump(self)
    if len(self.__dict__.setdefault("_dumps", [])) == 1 and once("event-barrier"):
        kill()  # after the step's dump: the next adb call is the event stream's barrier
    self._dumps.append(1)
    return xml


AndroidDevice.dump = dump


class Agent:
    """Plays the golden path; at step 2 the device dies under it where MOBILE_FAULT says."""
    name = "injected"

    def step(self, observation):
        i = len(observation.history)
        if i == 1 and once("agent-adb"):
            kill()
            POOL[0].device.adb.shell("dumpsys window")  # the agent's own adb call
        if i == 1 and once("screenshot"):
            kill()
            observation.png = None
            observation.screenshot
        if i == 1 and once("action"):
            kill()
        golden = observation.task.golden
        return golden[i] if i < len(golden) else Done()


def pytest_mobile_agent_make_agent(config, name):
    return Agent() if name == "injected" else None
'''

PLACES = ["reset", "fixture-raw-adb", "action", "screenshot", "event-barrier", "agent-adb"]


@pytest.mark.parametrize("place", PLACES)
def test_device_lost_is_retried_and_recorded(run_tasks, pytester, monkeypatch, place):
    monkeypatch.setenv("MOBILE_FAULT", place)
    monkeypatch.setenv("MOBILE_FAULT_DIR", str(pytester.path))
    files = {"test_calc.py": calc_tasks(), "conftest.py": INJECTOR}
    run = run_tasks(files, "-p", "no:xdist", "--agent=injected", "-k", "3+5")
    run.result.assert_outcomes(passed=1, deselected=3)
    lost, rerun = run.episodes
    assert lost["termination"] == "infrastructure" and lost["infrastructure"] and not lost["success"]
    assert rerun["success"] and rerun["retried"] and rerun["serial"] != lost["serial"]
    assert run.overall["episodes"] == 1 and run.overall["infrastructure_errors"] == 1 and run.overall["SR"] == 1.0
    (line,) = run.lines("infrastructure: ")
    assert lost["nodeid"] in line and lost["serial"] in line and "ran again; not counted" in line
    out = run.result.stdout.str()
    assert "Traceback" not in out and "INTERNALERROR" not in out and "FAILED" not in out


def test_device_lost_after_the_verdict_keeps_the_verdict(run_tasks, pytester, monkeypatch):
    monkeypatch.setenv("MOBILE_FAULT", "teardown")
    monkeypatch.setenv("MOBILE_FAULT_DIR", str(pytester.path))
    files = {"test_calc.py": calc_tasks(), "conftest.py": INJECTOR}
    run = run_tasks(files, "-p", "no:xdist", "--agent=injected", "-k", "3+5 or 12-4")
    run.result.assert_outcomes(passed=2, deselected=2)
    assert [e["success"] for e in run.episodes] == [True, True]  # no episode lost, none run twice
    assert run.episodes[0]["serial"] != run.episodes[1]["serial"]  # the dead device was given up


def test_retries_spent_fail_as_infrastructure_not_as_the_agent(run_tasks, pytester, monkeypatch):
    monkeypatch.setenv("MOBILE_FAULT", "action")
    monkeypatch.setenv("MOBILE_FAULT_DIR", str(pytester.path))
    files = {"test_calc.py": calc_tasks(), "conftest.py": INJECTOR}
    run = run_tasks(files, "-p", "no:xdist", "--agent=injected", "--mobile-retries=0", "-k", "3+5")
    run.result.assert_outcomes(failed=1, deselected=3)
    (lost,) = run.episodes
    assert lost["infrastructure"]
    assert run.overall["episodes"] == 0 and run.overall["infrastructure_errors"] == 1
    (line,) = run.lines("infrastructure: ")
    assert "not run again (--mobile-retries spent)" in line
    # adb answers "device offline" once its server has seen the device go, "closed" while a request
    # was under way: both are the real adb server's words for the same loss.
    lost_line = r"InfrastructureError: device \S+ lost during `input tap [^`]+`: (device offline|closed)"
    assert re.search(lost_line, run.result.stdout.str()), run.result.stdout.str()[-2000:]
    assert "All traceback entries are hidden" not in run.result.stdout.str()
