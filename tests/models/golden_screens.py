"""A test-only plugin (`-p tests.models.golden_screens`) for agents that show their model only
screenshots: before each step it writes the screen's hierarchy and size to
$MOBILE_GOLDEN_DIR/screens/<hash of the task's prompt>.json, where the golden model
(tests/models/golden_model.py) finds the element the golden path targets and answers with its
position, as a model reading the screenshot would (and the step, for an agent whose prompt tells
no history). The agent under test is the built-in one,
unchanged; only its `step` is wrapped."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

import pytest

from pytest_mobile_agent.agents.loader import load_agent


def screen_file(folder: Path, goal: str) -> Path:
    return folder / "screens" / f"{hashlib.sha1(goal.encode()).hexdigest()}.json"


def watch(agent: Any, folder: Path) -> Any:
    """The agent, its `step` writing each observation's screen first."""
    inner = agent.step

    def step(obs: Any) -> Any:
        path = screen_file(folder, obs.prompt)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps({"xml": obs.hierarchy, "screen": list(obs.screen_size), "step": obs.step}))
        tmp.replace(path)
        return inner(obs)

    agent.step = step
    return agent


@pytest.hookimpl(trylast=True)
def pytest_mobile_agent_make_agent(config: pytest.Config, name: str) -> Any:
    folder = os.environ.get("MOBILE_GOLDEN_DIR")
    return watch(load_agent(name), Path(folder)) if folder else None
