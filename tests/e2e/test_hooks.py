"""Each pytest_mobile_agent_* hook, implemented in a conftest.py the way a user would."""

from __future__ import annotations

import json

from pytest_mobile_agent.virtual import virtual_devices

HOOKS_CONFTEST = '''
import json
from pathlib import Path

from pytest_mobile_agent import Done

LOG = Path(__file__).parent / "hooks.log"


def log(**entry):
    with LOG.open("a") as f:
        f.write(json.dumps(entry) + "\\n")


class Replayer:
    """An agent made by the make_agent hook: replays the golden path."""
    name = "replayer"
    model = "gpt-4o"

    def step(self, observation):
        golden = observation.task.golden
        i = len(observation.history)
        return golden[i] if i < len(golden) else Done()


def pytest_mobile_agent_make_agent(config, name):
    return Replayer() if name == "replayer" else None


def pytest_mobile_agent_reset(device, task):
    log(hook="reset", task=task.prompt, serial=device.serial)
    device.sh("settings put system font_scale 1.0")


def pytest_mobile_agent_judge(item, episode, ui, events):
    if "12" in episode.task.prompt:
        return False, "twelve is not allowed here"
    return None


def pytest_mobile_agent_episode_metrics(episode, record):
    record["extra"]["taps"] = sum(s.action.get("action") == "tap" for s in episode.steps)


def pytest_mobile_agent_episode_finished(item, episode, record):
    log(hook="finished", nodeid=item.nodeid, success=record["success"])
'''

DEVICES_CONFTEST = """
import os


def pytest_mobile_agent_devices(config, spec):
    return [os.environ["FARM_SERIAL"]] if spec == "farm" else None
"""


def test_agent_reset_judge_metrics_and_finished_hooks(run_tasks, calc_tasks, pytester):
    run = run_tasks(dict(calc_tasks, **{"conftest.py": HOOKS_CONFTEST}), "--agent=replayer")
    # make_agent: the conftest's agent ran (and its model priced the tokens).
    assert {ep["agent"] for ep in run.episodes} == {"replayer"}
    assert all(ep["cost_usd"] and ep["cost_usd"] > 0 for ep in run.episodes)
    # judge: a failing vote fails tasks whose body passed, with the judge's reason.
    run.result.assert_outcomes(passed=2, failed=2)
    run.result.stdout.fnmatch_lines(["*judge: twelve is not allowed here*"])
    # episode_metrics: the extra metric reached the results file.
    assert sorted(ep["extra"]["taps"] for ep in run.episodes) == [4, 4, 5, 5]
    log = [json.loads(line) for line in (pytester.path / "hooks.log").read_text().splitlines()]
    # reset: once per task, before its episode; episode_finished: once per episode.
    assert sorted(e["task"] for e in log if e["hook"] == "reset") == sorted(ep["prompt"] for ep in run.episodes)
    finished = {e["nodeid"]: e["success"] for e in log if e["hook"] == "finished"}
    assert finished == {ep["nodeid"]: ep["success"] for ep in run.episodes}


def test_devices_hook_provides_the_serials(run_tasks, calc_tasks, pytester, monkeypatch):
    with virtual_devices(1) as (farm,):
        monkeypatch.setenv("FARM_SERIAL", farm.serial)
        run = run_tasks(dict(calc_tasks, **{"conftest.py": DEVICES_CONFTEST}), "--agent=oracle", "--devices=farm")
        run.result.assert_outcomes(passed=4)
        assert {ep["serial"] for ep in run.episodes} == {farm.serial}
        assert farm.alive  # a provided device belongs to its provider: the plugin does not stop it
