"""Suite-wide: the set's start state seeded before each single-app task, the cross-app tasks'
subtask split handed to the judges, and the apps' bookkeeping left out of "nothing else
changed" (as in the MobileAgentBench suite)."""

from __future__ import annotations

from typing import Any

import pytest

from pytest_mobile_agent.judges.runner import task_key
from task_suites.shared.reading import ignore_bookkeeping
from task_suites.spabench.cross_app import SUBTASKS


def pytest_mobile_agent_judge_inputs(item: Any, task: Any) -> dict[str, Any] | None:
    subtasks = SUBTASKS.get(task_key(task))
    return {"subtasks": subtasks} if subtasks else None


@pytest.fixture(autouse=True)
def spa_setup(request: pytest.FixtureRequest, device: Any) -> None:
    """Seeds the start state of the task (a set's or a cross-app task's `setup(device)`)."""
    setup = getattr(request.function, "spa_setup", None)
    if setup:
        setup(device)


@pytest.fixture(autouse=True)
def app_bookkeeping(changes: Any) -> None:
    ignore_bookkeeping(changes)
