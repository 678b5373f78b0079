"""A test-only pytest plugin: what each collected task runs, printed once collection is done.

Loaded with `-p drawn_plugin` by test_suite_variations.py: one line a task item, `DRAWN ` and a JSON
object with its node id, task name, variation and parameters (reprs where JSON has no form), so
two collections can be compared value for value.
"""

from __future__ import annotations

import json

import pytest

from pytest_mobile_agent.metrics import plain_params
from pytest_mobile_agent.tasks import TASK_KEY


def pytest_collection_finish(session: pytest.Session) -> None:
    for item in session.items:
        task = item.stash.get(TASK_KEY, None)
        if task is not None:
            line = {"nodeid": item.nodeid, "task": task.name, "variation": task.variation}
            print("DRAWN", json.dumps({**line, "params": plain_params(task.params)}, ensure_ascii=True))
