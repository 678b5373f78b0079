"""Running task sessions in a sub-process while faults are injected into their real processes."""

from __future__ import annotations

import pytest
from session_runs import Run
from session_runs import run_session as run_in_subprocess


@pytest.fixture
def run_session(pytester: pytest.Pytester):
    """Write files, run pytest on them in a sub-process, read its results file."""

    def run(files: dict[str, str], *args: str, timeout: float = 600) -> Run:
        return run_in_subprocess(pytester, files, *args, timeout=timeout)

    return run
