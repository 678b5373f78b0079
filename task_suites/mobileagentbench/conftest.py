"""Attaches this suite's judge inputs (judge_inputs.py) to its tasks, by task name."""

from __future__ import annotations

from typing import Any

from pytest_mobile_agent.judges.runner import task_key

from .judge_inputs import JUDGE_INPUTS


def pytest_mobile_agent_judge_inputs(item: Any, task: Any) -> dict[str, Any] | None:
    return JUDGE_INPUTS.get(task_key(task))
