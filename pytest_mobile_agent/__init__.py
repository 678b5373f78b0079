"""pytest-mobile-agent: benchmark LLM agents for Android phones as pytest test cases.

The names below are imported on first use: a virtual device process imports this package too
and needs none of them (nor pytest, which `task` brings in).

PYTEST_DONT_REWRITE: nothing here to rewrite, and a warm-started worker (parallel/warmstart/) finds this
package imported before pytest's assertion rewriting, which would warn in every worker.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # what type checkers see; at run time each is imported on first use (below)
    from pytest_mobile_agent.actions import (
        Action,
        Api,
        Done,
        DoubleTap,
        Key,
        Launch,
        LongPress,
        Scroll,
        Swipe,
        Tap,
        Type,
        Wait,
    )
    from pytest_mobile_agent.agents import Observation, SelfDrivingTask, StepRecord, TaskInfo
    from pytest_mobile_agent.device.ui_tree import Node, UiTree
    from pytest_mobile_agent.tasks import task

__version__ = "0.1.0"
__all__ = [
    "Action",
    "Api",
    "Done",
    "DoubleTap",
    "Key",
    "Launch",
    "LongPress",
    "Node",
    "Observation",
    "Scroll",
    "SelfDrivingTask",
    "StepRecord",
    "Swipe",
    "Tap",
    "TaskInfo",
    "Type",
    "UiTree",
    "Wait",
    "task",
]
_EXPORTS = {  # name -> the module it lives in
    **{
        name: "actions"
        for name in (
            "Action",
            "Api",
            "Done",
            "DoubleTap",
            "Key",
            "Launch",
            "LongPress",
            "Scroll",
            "Swipe",
            "Tap",
            "Type",
            "Wait",
        )
    },
    "task": "tasks",
    **{name: "agents" for name in ("Observation", "SelfDrivingTask", "StepRecord", "TaskInfo")},
    **{name: "device.ui_tree" for name in ("Node", "UiTree")},
}


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        return getattr(importlib.import_module(f".{_EXPORTS[name]}", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
