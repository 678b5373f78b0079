"""A test-only plugin (`-p tests.models.golden_export`): after collection, each process writes
every task's prompt and golden path to $MOBILE_GOLDEN_DIR/<worker>.json, where the golden model
(tests/models/golden_model.py) reads them. The agents under test never see this file.

With $MOBILE_GOLDEN_SHARE=K/N it keeps only share K of N of each task file (the tasks whose
place in their file is K modulo N), so that N agents together cover every task of every app
once, each with some of every app's tasks; the kept node ids (but the online tasks, which
skip) go to selected.txt."""

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
    share = os.environ.get("MOBILE_GOLDEN_SHARE")
    if share:
        k, n = map(int, share.split("/"))
        place: dict[str, int] = {}
        kept, dropped = [], []
        for item in items:
            i = place[item.path.name] = place.get(item.path.name, -1) + 1
            (kept if i % n == k else dropped).append(item)
        items[:] = kept
        config.hook.pytest_deselected(items=dropped)
        selected = Path(folder) / "selected.txt"  # not *.json: the golden model reads those
        tmp = selected.with_suffix(f".{os.getpid()}.tmp")
        offline = (item.nodeid for item in kept if item.get_closest_marker("online") is None)
        tmp.write_text("\n".join(sorted(offline)))
        tmp.replace(selected)
    paths: dict[str, list] = {}
    for item in items:
        task = item.stash.get(TASK_KEY, None)
        if task is not None:
            paths[task.prompt] = [a.to_json() for a in task.golden]
    worker = getattr(config, "workerinput", {}).get("workerid", "main")
    tmp = Path(folder) / f".{worker}.tmp"
    tmp.write_text(json.dumps(paths))
    tmp.replace(Path(folder) / f"{worker}.json")
