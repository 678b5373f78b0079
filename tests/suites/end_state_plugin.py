"""A test-only pytest plugin: records each task's end state, optionally running tasks in reverse.

Loaded with `-p end_state_plugin` by test_reset_order.py. `PMA_END_STATES=PATH` names the JSON-lines
file to append to (one line a task: node id, the durable state and the final hierarchy);
`PMA_REVERSE_ORDER=1` runs the collected tasks last to first.
"""

from __future__ import annotations

import json
import os
from typing import Any

import pytest

from pytest_mobile_agent.device.durable_state import capture


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    if os.environ.get("PMA_REVERSE_ORDER") == "1":
        items.reverse()


def pytest_mobile_agent_episode_finished(item: pytest.Item, episode: Any, record: dict[str, Any]) -> None:
    device = item.funcargs["device"]  # type: ignore[attr-defined]
    state = {
        "nodeid": item.nodeid,
        "durable": capture(device).areas,
        "hierarchy": device.dump(),
        "success": episode.success,
    }
    with open(os.environ["PMA_END_STATES"], "a") as f:
        f.write(json.dumps(state, sort_keys=True, default=str) + "\n")
