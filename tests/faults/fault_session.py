"""What the fault suite's sessions share: a one-task-per-fault calculator file and an agent that
plays the golden path except where its task's prompt names a fault to commit."""

from __future__ import annotations

from collections.abc import Sequence

# The task file of a fault session: one case per fault, named by it (the `fault` parameter and
# the node id), each a calculator sum the golden path solves in four taps.
FAULT_TASKS = """
import pytest
from pytest_mobile_agent import Tap, task

CALC = "com.simplemobiletools.calculator"

@pytest.mark.parametrize("fault", {faults!r}, ids={faults!r})
@task(prompt="Fault {{fault}}: calculate 3 + 5", app=CALC, golden=[Tap(text=k) for k in "3+5="])
def test_fault(ui, changes, fault):
    changes.allow(CALC, "files/history.json")
    assert ui.text_of("result") == "8"
"""

# Commits the fault its task's prompt names from the second step on; plays the golden path otherwise.
FAULTY_AGENT = '''
import os
import signal
import sys

from pytest_mobile_agent import Action, Done, Type


class Exotic(BaseException):
    """Neither an Exception nor an exit: an agent's own BaseException subclass."""


class Agent:
    name = "faulty"

    def step(self, observation):
        i = len(observation.history)
        fault = observation.prompt.split(":")[0].removeprefix("Fault ")
        if i >= 1:  # from the second step on, every step
            if fault == "nan":
                return {{"action": "tap", "x": float("nan"), "y": 100}}
            if fault == "infinity":
                return '{{"action": "swipe", "x": 10, "y": Infinity, "x2": 10, "y2": 20}}'
            if fault == "long-type":
                return Type("x" * 70_000)
            if fault == "bad-repr":
                return BadRepr()
            if fault == "sys-exit":
                sys.exit(3)
            if fault == "keyboard-interrupt":
                raise KeyboardInterrupt("raised by the agent")
            if fault == "base-exception":
                raise Exotic("an agent's own BaseException")
            if fault == "os-exit":
                os._exit(7)
            if fault == "sigkill":
                os.kill(os.getpid(), signal.SIGKILL)
        golden = observation.task.golden
        return golden[i] if i < len(golden) else Done()


class BadRepr:
    def __repr__(self):
        raise RuntimeError("no repr")


agent = Agent
'''


def fault_files(faults: Sequence[str]) -> dict[str, str]:
    """A session's files: the task file with a case per fault, and the faulty agent."""
    return {"test_faults.py": FAULT_TASKS.format(faults=list(faults)), "faulty_agent.py": FAULTY_AGENT.format()}


def by_fault(episodes: list[dict]) -> dict[str, list[dict]]:
    """The episode records of each fault (by the node id's parameter), in the order written."""
    out: dict[str, list[dict]] = {}
    for e in episodes:
        out.setdefault(e["nodeid"].rsplit("[", 1)[-1].rstrip("]"), []).append(e)
    return out
