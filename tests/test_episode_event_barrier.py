"""The event barrier (a second connection to the listener: an adb round trip) is paid at every
step only by task bodies that read events; the others get one at the end of the episode, so the
final judgement and the judge hooks still see every event."""

from __future__ import annotations

import pytest
from episode_fakes import run_scripted

from pytest_mobile_agent import Done, Tap
from pytest_mobile_agent.errors import COMPLETED


class ThreeTaps:
    def step(self, observation):  # noqa: ANN001, ANN201
        return Tap(10, 10) if observation.step <= 3 else Done()


@pytest.mark.parametrize("uses_events, syncs", [(True, 4), (False, 1)])  # 4: the start and three taps
def test_the_barrier_runs_per_step_only_for_bodies_that_read_events(uses_events: bool, syncs: int) -> None:
    barriers: list[int] = []
    episode = run_scripted(ThreeTaps(), golden_steps=3, sync=lambda: barriers.append(1), uses_events=uses_events)
    assert (episode.termination, len(episode.steps)) == (COMPLETED, 3)
    assert len(barriers) == syncs
