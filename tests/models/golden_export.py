"""A test-only plugin (`-p tests.models.golden_export`): after collection, each process writes
every task's prompt and golden path to $MOBILE_GOLDEN_DIR/<worker>.json, where the golden model
(tests/models/golden_model.py) reads them. The agents under test never see this file."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from pytest_mobile_agent.tasks import TASK_KEY


@pytest.hookimpl(trylast=True)  # after the mobile plugin has bound each task's parameters
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    folder = os.environ.get("MOBILE_GOLDEN_DIR")
    if not folder:
        return
    paths: dict[str, list] = {}
    for item in items:
        task = item.stash.get(TASK_KEY, None)
        if task is not None:
            paths[task.prompt] = [a.to_json() for a in task.golden]
    worker = getattr(config, "workerinput", {}).get("workerid", "main")
    tmp = Path(folder) / f".{worker}.tmp"
    tmp.write_text(json.dumps(paths))
    tmp.replace(Path(folder) / f"{worker}.json")
