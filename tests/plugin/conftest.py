"""Fixtures for running pytest sessions of tasks in a sub-process (pytester)."""

from __future__ import annotations

import pytest
from calc_tasks import calc_tasks
from session_runs import Run, run_session

CALC_TASKS = calc_tasks()


@pytest.fixture
def run_tasks(pytester: pytest.Pytester):
    """Write files into a fresh directory and run pytest on them in a sub-process."""

    def run(files: dict[str, str], *args: str) -> Run:
        return run_session(pytester, files, *args)

    return run


@pytest.fixture
def calc_tasks() -> dict[str, str]:
    return {"test_calc.py": CALC_TASKS}
