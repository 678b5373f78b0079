"""An episode on a scripted device (no adb): for tests of the step loop itself."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from pytest_mobile_agent.device.ui_tree import UiTree
from pytest_mobile_agent.episode import Episode, EpisodeRunner
from pytest_mobile_agent.events.log import EventLog
from pytest_mobile_agent.tasks import TaskSpec, instantiate

HIERARCHY = '<?xml version="1.0" ?><hierarchy rotation="0"><node bounds="[0,0][1080,2340]" /></hierarchy>'


class ScriptedDevice:
    """Enough of AndroidDevice for an episode: every observation sees the same screen."""

    serial = "scripted"

    def window_size(self) -> tuple[int, int]:
        return 1080, 2340

    def screenshot(self) -> bytes:
        return b""

    def dump(self) -> str:
        return HIERARCHY

    def execute(self, action: object, ui: UiTree) -> str:
        return ""

    @contextmanager
    def reading(self) -> Iterator[None]:
        yield


def run_scripted(agent: Any, *, golden_steps: int, sync: Any = lambda: None, uses_events: bool = True) -> Episode:
    task = instantiate(TaskSpec("scripted", ("calculator",), golden_steps=golden_steps), "scripted", {})
    runner = EpisodeRunner(
        ScriptedDevice(),  # type: ignore[arg-type]
        agent,
        task,
        check=lambda log: (False, "not yet"),
        ui=UiTree(),
        events=EventLog(lambda: [], sync),
        budget=golden_steps * 3,
        step_timeout=None,
        max_invalid=3,
        keep_screenshots=False,
        check_reads_events=uses_events,
    )
    return runner.run()
