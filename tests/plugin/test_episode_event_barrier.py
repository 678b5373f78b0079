"""The event barrier (a second connection to the listener: an adb round trip) is paid at every
step only by task bodies that read events; the others get one at the end of the episode, so the
final judgement and the judge hooks still see every event."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from pytest_mobile_agent import Done, Tap
from pytest_mobile_agent.device.ui_tree import UiTree
from pytest_mobile_agent.episode import COMPLETED, EpisodeRunner
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


class ThreeTaps:
    def step(self, observation):  # noqa: ANN001, ANN201
        return Tap(10, 10) if observation.step < 3 else Done()


@pytest.mark.parametrize("uses_events, syncs", [(True, 4), (False, 1)])  # 4: the start and three taps
def test_the_barrier_runs_per_step_only_for_bodies_that_read_events(uses_events: bool, syncs: int) -> None:
    barriers: list[int] = []
    events = EventLog(lambda: [], lambda: barriers.append(1))
    task = instantiate(TaskSpec("tap three times", ("calculator",), golden_steps=3), "three_taps", {})
    runner = EpisodeRunner(
        ScriptedDevice(),  # type: ignore[arg-type]
        ThreeTaps(),
        task,
        judge=lambda log: (False, "not yet"),
        ui=UiTree(),
        events=events,
        budget=6,
        step_timeout=None,
        max_invalid=3,
        keep_screenshots=False,
        judge_uses_events=uses_events,
    )
    episode = runner.run()
    assert (episode.termination, len(episode.steps)) == (COMPLETED, 3)
    assert len(barriers) == syncs
