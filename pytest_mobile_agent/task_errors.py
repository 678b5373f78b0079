"""Tasks that cannot run as declared, or not on this device: one clear message each, naming the
file, the task and what is wrong; the session's other tasks still run.

- A malformed declaration (a prompt placeholder with no parameter, `golden=42`, no prompt) is
  found at collection and fails only its own test, at setup, before any device work; under
  xdist the one worker that runs it reports it, so it is printed once.
- A task whose app is not installed fails with that reason and a results line (termination
  `task_error`, counted neither for nor against the agent).
- `--agent=oracle` checks each golden step's selector against the screen before acting and
  names the first one that matches nothing.
"""

from __future__ import annotations

from typing import Any

import pytest

from pytest_mobile_agent.errors import GoldenPathError

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


def check_golden_step(observation: Any, action: Any, index: int, total: int) -> None:
    """Raise GoldenPathError when the golden step's selector matches nothing on this screen."""
    if action.selector is None or observation.ui.select(action.selector) is not None:
        return
    raise GoldenPathError(
        f"golden path step {index} of {total} ({action.kind} {action.selector.describe()}) "
        f"matches nothing on the screen of task {observation.task.name!r}"
    )
