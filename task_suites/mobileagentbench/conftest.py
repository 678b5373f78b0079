"""Suite-wide: the judge inputs (judge_inputs.py) attached to the tasks by task name (not to drawn
variations, whose values they do not name), and the app bookkeeping no task's goal is about,
which the final "nothing else changed" check leaves out (the tab an app reopens on, the note it
shows, a one-time hint). Everything else a task changes, its body declares through the `changes`
fixture."""

from __future__ import annotations

from typing import Any

import pytest

from pytest_mobile_agent.judges.runner import task_key
from task_suites.mobileagentbench.judge_inputs import JUDGE_INPUTS
from task_suites.shared.reading import ignore_bookkeeping


def pytest_mobile_agent_judge_inputs(item: Any, task: Any) -> dict[str, Any] | None:
    # Written from the declared tasks' values: a drawn variation (--mobile-variations) has none.
    return None if task.variation is not None else JUDGE_INPUTS.get(task_key(task))


@pytest.fixture(autouse=True)
def app_bookkeeping(changes: Any) -> None:
    ignore_bookkeeping(changes)
