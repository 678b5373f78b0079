"""Suite-wide: the judge inputs (judge_inputs.py) attached to the tasks by task name, and the app
bookkeeping no task's goal is about, which the final "nothing else changed" check leaves out (the
tab an app reopens on, the note it shows, a one-time hint). Everything else a task changes, its
body declares through the `changes` fixture."""

from __future__ import annotations

from typing import Any

import pytest

from pytest_mobile_agent.judges.runner import task_key
from task_suites.mobileagentbench.judge_inputs import JUDGE_INPUTS
from task_suites.mobileagentbench.reading import PREFS

# Prefs the Simple Mobile Tools apps write as the user moves around, whatever the goal.
BOOKKEEPING_PREFS = (
    "last_used_view_pager_page",  # the tab the app reopens on
    "current_note_id",  # the note Notes reopens on
    "was_*_shown",  # one-time hints and warnings, shown once
    "last_created_note_type",  # the kind of note the + dialog offers first
    "last_event_reminder_minutes",  # the reminder a new event starts with
)


def pytest_mobile_agent_judge_inputs(item: Any, task: Any) -> dict[str, Any] | None:
    return JUDGE_INPUTS.get(task_key(task))


@pytest.fixture(autouse=True)
def app_bookkeeping(changes):
    for key in BOOKKEEPING_PREFS:
        changes.ignore("com.simplemobiletools.*", f"{PREFS}:{key}")
