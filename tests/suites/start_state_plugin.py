"""A test-only pytest plugin: each task's declared start state, read back before its agent starts.

Loaded with `-p start_state_plugin` by test_start_states.py. The seed helpers declare what they
made (`task_suites.shared.seeds.DECLARED`: provider rows by their fields, files by path); once a
task's fixtures have run, the durable state is read through the harness's own capture (not the
seeds' read-back) and each declaration is looked up in it. `PMA_START_STATES=PATH` names the
JSON-lines file to append to: one line a task, its node id, what it declared and what is missing.
"""

from __future__ import annotations

import json
import os
from typing import Any

import pytest

from pytest_mobile_agent.device.durable_state import capture
from task_suites.shared.seeds import DECLARED


def present(areas: dict[str, Any], area: str, want: Any) -> bool:
    if area == "files":
        path = str(want).removeprefix("/sdcard/").removeprefix("/storage/emulated/0/")  # one folder, two names
        return path in (areas.get("files") or {})
    rows = (areas.get(area) or {}).values()
    return any(all(row.get(k) == v for k, v in want.items()) for row in rows)


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    DECLARED.clear()


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_call(item: pytest.Item) -> None:
    areas = capture(item.funcargs["device"]).areas  # type: ignore[attr-defined]
    declared = list(DECLARED)
    line = {
        "nodeid": item.nodeid,
        "declared": declared,
        "missing": [[area, want] for area, want in declared if not present(areas, area, want)],
    }
    with open(os.environ["PMA_START_STATES"], "a") as f:
        f.write(json.dumps(line, sort_keys=True) + "\n")
