"""The `Task` base class MobileAgentBench task files subclass."""

from __future__ import annotations

import re
import subprocess
from typing import Any

# `dumpsys activity top` names each resumed activity: "  ACTIVITY pkg/.Cls 1a2b3c pid=1234".
_TOP_ACTIVITY = re.compile(r"^\s*ACTIVITY (\S+?)/(\S+) \w+ pid=\d+", re.MULTILINE)


class Task:
    def __init__(
        self,
        task_name: str,
        prompt: str,
        min_steps: int,
        package: str,
        max_steps: int = 20,
        stop_after_finish: bool = False,
        permissions: list[str] | None = None,
    ) -> None:
        self.task_name = task_name
        self.prompt = prompt
        self.min_steps = min_steps
        self.package = package
        self.max_steps = max_steps
        self.stop_after_finish = stop_after_finish
        self.permissions = list(permissions or [])
        self.current_step = 0
        self.action_logs: list[Any] = []
        self.finished = False

    def get_top_activity_name(self, timeout: int = 60) -> str | None:
        """`package/activity` of the activity on top, asked of the device ANDROID_SERIAL names."""
        out = subprocess.run(
            ["adb", "shell", "dumpsys", "-t", str(timeout), "activity", "top"], capture_output=True, text=True
        ).stdout
        found = _TOP_ACTIVITY.findall(out)
        return "/".join(found[-1]) if found else None

    def setup(self, view_client: Any) -> None:
        return None

    def teardown(self, view_client: Any) -> None:
        return None

    def check_finish(self, view_client: Any, app_event: Any) -> bool:
        raise NotImplementedError
