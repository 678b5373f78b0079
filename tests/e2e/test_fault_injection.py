"""Fault injection on real processes: a `-n 2` session of small tasks in which an agent, seeded,
kills its virtual device (at a step, or from a timer at a random point of the episode: an
action, a dump, a screenshot, the event barrier, the judge) or has its xdist worker killed
(SIGKILL) while the harness executes its action, many times. No episode may be lost, no kill
may count against the agent, and the run completes.
"""

from __future__ import annotations

import json
from collections import Counter

SEED = 15
# With this seed the plan kills 34 to 39 times: a timer's kill that lands after an episode's
# last observation lets that task pass without the retry its plan may also kill.
# 27 one-digit sums: four golden taps each (a, +, b, =), one task case each.
SUMS = [(a, b) for a in range(1, 10) for b in range(1, 4)]

TASKS = """
import pytest
from pytest_mobile_agent import Tap, task

CALC = "com.simplemobiletools.calculator"

@pytest.mark.parametrize("a, b", {sums})
@task(prompt="Calculate {{a}} + {{b}}", app=CALC, golden=lambda a, b: [Tap(text=k) for k in f"{{a}}+{{b}}="])
def test_sum(ui, events, changes, a, b):
    changes.allow(CALC, "files/history.json")  # the calculator keeps its history
    assert ui.text_of("result") == str(a + b)
    assert events.clicked(text="=")
"""

INJECTOR = '''
import json
import os
import random
import signal
import threading
from pathlib import Path

import pytest
from pytest_mobile_agent import Done

DIR = Path(os.environ["MOBILE_FAULT_DIR"])
SEED = int(os.environ["MOBILE_FAULT_SEED"])
KILL_CHANCE = (0.9, 0.5)  # first attempt, second attempt; later attempts run clean
POOL = []
KILL_WORKER = []  # set by the agent: the harness's next action kills the worker


@pytest.fixture(autouse=True)
def _pool(mobile_pool, device):
    POOL[:] = [mobile_pool]
    execute = device.execute

    def killing(action, ui):  # the worker dies in the harness's work: infrastructure, not the agent
        if KILL_WORKER:
            os.kill(os.getpid(), signal.SIGKILL)
        return execute(action, ui)

    device.execute = killing
    yield
    del device.execute


def _attempt(key):
    """This task's attempt number, counted across workers (a crashed worker's rerun too)."""
    for n in range(100):
        try:
            os.close(os.open(DIR / f"attempt-{{key}}-{{n}}", os.O_CREAT | os.O_EXCL))
            return n
        except FileExistsError:
            continue
    raise RuntimeError("too many attempts")


def _log(kind, step):
    line = json.dumps({{"kind": kind, "step": step, "nodeid": os.environ["PYTEST_CURRENT_TEST"].rsplit(" ", 1)[0]}})
    with open(DIR / "kills.jsonl", "a") as f:
        f.write(line + "\\n")


class Agent:
    """Plays the golden path; a seeded plan per (task, attempt) says where a kill comes."""
    name = "saboteur"

    def reset(self, info):
        key = "".join(c for c in info.prompt if c.isalnum())
        attempt = _attempt(key)
        rng = random.Random(f"{{SEED}}:{{key}}:{{attempt}}")
        self.plan = None
        if attempt < len(KILL_CHANCE) and rng.random() < KILL_CHANCE[attempt]:
            kind = rng.choices(["device", "device-timer", "worker"], weights=[5, 3, 2])[0]
            self.plan = (kind, rng.randrange(len(info.golden)), rng.uniform(0.0, 0.2))
        self.timer = None

    def step(self, observation):
        i = len(observation.history)
        if self.plan is not None and i == self.plan[1]:
            kind, _, delay = self.plan
            _log(kind, i)
            if kind == "worker":
                KILL_WORKER.append(True)
            elif kind == "device":
                POOL[0]._virtual.kill()
            else:  # at a random point of what follows: the action, the dump, the barrier, the judge
                self.timer = threading.Timer(delay, POOL[0]._virtual.kill)
                self.timer.start()
        golden = observation.task.golden
        if i < len(golden):
            return golden[i]
        if self.timer is not None:
            self.timer.join()  # the kill falls inside this episode, never in the next one
        return Done()


def pytest_mobile_agent_make_agent(config, name):
    return Agent() if name == "saboteur" else None
'''


def test_no_episode_lost_under_30_kills_of_devices_and_workers(run_tasks, pytester, monkeypatch):
    monkeypatch.setenv("MOBILE_FAULT_DIR", str(pytester.path))
    monkeypatch.setenv("MOBILE_FAULT_SEED", str(SEED))
    files = {"test_sums.py": TASKS.format(sums=SUMS), "conftest.py": INJECTOR.format()}
    run = run_tasks(
        files, "-n", "2", "--agent=saboteur", "--mobile-retries=3", "--max-worker-restart=100", "-p", "no:randomly"
    )
    out = run.result.stdout.str()
    kills = [json.loads(x) for x in (pytester.path / "kills.jsonl").read_text().splitlines()]
    kinds = Counter(k["kind"] for k in kills)
    print(f"{len(kills)} kills: {dict(kinds)}")
    assert len(kills) >= 30 and set(kinds) == {"device", "device-timer", "worker"}

    # The run completes: every task passes in the end.
    assert run.result.ret == 0, out
    assert run.result.parseoutcomes()["passed"] == len(SUMS)
    # No episode lost: a kill at a step loses that attempt of its own task; a timer's kill may fall
    # after the episode's last observation, and then the next task's reset on that worker finds
    # the device dead (or nothing does, after a worker's last task: at most one per live worker).
    lost = Counter(e["nodeid"] for e in run.episodes if e["infrastructure"])
    at_step = Counter(k["nodeid"] for k in kills if k["kind"] != "device-timer")
    assert all(lost[nodeid] >= n for nodeid, n in at_step.items()), (lost, at_step)
    assert len(kills) - 2 <= lost.total() <= len(kills), (lost, kills)
    assert all(e["termination"] == "infrastructure" and not e["success"] for e in run.episodes if e["infrastructure"])
    counted = Counter(e["nodeid"] for e in run.episodes if not e["infrastructure"])
    assert len(counted) == len(SUMS) and set(counted.values()) == {1}
    # No loss counted against the agent.
    assert run.overall["episodes"] == len(SUMS) and run.overall["SR"] == 1.0 and run.overall["error_share"] == 0.0
    assert run.overall["infrastructure_errors"] == lost.total() == len(run.lines("infrastructure: "))
