"""Hooks a `conftest.py` or a plugin implements to extend pytest-mobile-agent.

`*_make_*` and `*_devices` hooks are firstresult (the first non-None answer wins and replaces
the default); the others are broadcast (every implementation runs).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from pytest_mobile_agent.agents import Agent
    from pytest_mobile_agent.device.android import AndroidDevice
    from pytest_mobile_agent.device.ui_tree import UiTree
    from pytest_mobile_agent.episode import Episode
    from pytest_mobile_agent.events.log import EventLog
    from pytest_mobile_agent.tasks import TaskInstance


@pytest.hookspec(firstresult=True)
def pytest_mobile_agent_make_agent(config: pytest.Config, name: str) -> Agent | None:
    """Make the agent that `--agent=NAME` names, or return None to leave it to the default loader.

    conftest.py::

        def pytest_mobile_agent_make_agent(config, name):
            if name == "mine":
                return MyAgent(temperature=0)
    """


@pytest.hookspec(firstresult=True)
def pytest_mobile_agent_devices(config: pytest.Config, spec: str) -> list[str] | None:
    """Provide the device serials for `--devices=SPEC` (a device farm, an emulator launcher ...),
    or return None to leave it to the built-in sources (virtual, all, serials, remote:HOST:PORT).
    The serials must be online at the adb server; leases work as for a serial list.

    conftest.py::

        def pytest_mobile_agent_devices(config, spec):
            if spec == "farm":
                return my_farm.reserve(count=4)  # -> ["emulator-5554", ...]
    """


@pytest.hookspec
def pytest_mobile_agent_reset(device: AndroidDevice, task: TaskInstance) -> None:
    """Extra reset steps after the built-in reset (`--mobile-reset`: the snapshot restore, or
    force-stop and pm clear; then the grants) and before the task's preconditions.

    conftest.py::

        def pytest_mobile_agent_reset(device, task):
            device.sh("settings put system screen_off_timeout 600000")
    """


@pytest.hookspec
def pytest_mobile_agent_judge(
    item: pytest.Item, episode: Episode, ui: UiTree, events: EventLog
) -> tuple[bool, str] | None:
    """An extra judge, run after the task body passed on the final state. Return
    (passed, reason) to vote, or None to abstain; one failing vote fails the task with its reason.

    conftest.py::

        def pytest_mobile_agent_judge(item, episode, ui, events):
            if ui.exists(text="Error"):
                return False, "an error dialog is on screen"
            return None
    """


@pytest.hookspec
def pytest_mobile_agent_judge_inputs(item: pytest.Item, task: TaskInstance) -> dict[str, Any] | None:
    """What judges need for a task that does not declare it in `@task`: a dict with any of
    key_components, checkpoints, substates. Every answer is merged; the task's own win. A suite
    keeps its judge inputs in a module and attaches them here (task_suites/mobileagentbench/conftest.py).

    conftest.py::

        def pytest_mobile_agent_judge_inputs(item, task):
            return {"key_components": ["8"]} if task.name == "calculator_add" else None
    """


@pytest.hookspec
def pytest_mobile_agent_episode_metrics(episode: Episode, record: dict[str, Any]) -> None:
    """Add per-episode metrics: write into `record["extra"]` (it reaches the results file).

    conftest.py::

        def pytest_mobile_agent_episode_metrics(episode, record):
            record["extra"]["taps"] = sum(s.action.get("action") == "tap" for s in episode.steps)
    """


@pytest.hookspec
def pytest_mobile_agent_episode_finished(item: pytest.Item, episode: Episode, record: dict[str, Any]) -> None:
    """Called when an episode is over and judged (reports, uploads, live dashboards)."""
