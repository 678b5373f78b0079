"""Tasks that cannot run as declared, or not on this device: one clear message each, naming the
file, the task and what is wrong; the session's other tasks still run.

- A malformed declaration (a prompt placeholder with no parameter, `golden=42`, no prompt) is
  found at collection and fails only its own test, at setup, before any device work; under
  xdist the one worker that runs it reports it, so it is printed once.
- A task whose app is not installed fails with that reason and a results line (termination
  `task_error`, counted neither for nor against the agent).
"""

from __future__ import annotations

from typing import Any

import pytest

MALFORMED_KEY = pytest.StashKey[str]()


def malformed(item: pytest.Item, name: str, problem: Exception) -> str:
    """The message for a task declaration that cannot run."""
    return f"malformed task {name!r} in {item.nodeid}: {problem}"


def fail_if_malformed(item: pytest.Item) -> None:
    message = item.stash.get(MALFORMED_KEY, None)
    if message is not None:
        pytest.fail(message, pytrace=False)


def missing_apps(device: Any, packages: tuple[str, ...]) -> list[str]:
    """The task's packages the device does not have (asked only after a launch failed)."""
    installed = set(device.sh("pm list packages").split())
    return [p for p in packages if f"package:{p}" not in installed]
