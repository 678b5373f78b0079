"""The built-in agents that need no model: oracle, near-miss, noop and random.

They check the suites: `--agent=oracle` must pass every task, `--agent=noop` and
`--agent=near-miss` must fail every one, and `--agent=random` gives a floor to compare with.
"""

from __future__ import annotations

import random
from dataclasses import replace

from pytest_mobile_agent.actions import Action, Done, Key, Scroll, Tap
from pytest_mobile_agent.agents import Observation, TaskInfo
from pytest_mobile_agent.device.ui_tree import localize_action
from pytest_mobile_agent.errors import GoldenPathError


class OracleAgent:
    """Replays the task's golden path (actions by selector), then declares completion."""

    name = "oracle"
    model = None

    def step(self, observation: Observation) -> Action:
        golden = observation.task.golden
        i = steps_replayed(observation)
        if i >= len(golden):
            return Done("golden path replayed")
        action = self.in_locale(observation, golden[i])
        if needs_reveal(observation, action):
            return REVEAL_SCROLL
        try:
            check_golden_step(observation, action, i + 1, len(golden))  # names a step that cannot work
        except GoldenPathError as exc:
            if not observation.task.golden_borrowed:
                raise
            # The path was written for another setup (an original task file's): the replay ends
            # here and the task's own check decides.
            return Done(f"borrowed golden path ends: {exc}")
        return action

    @staticmethod
    def in_locale(observation: Observation, action: Action) -> Action:
        """The golden path's English texts as the device's locale shows them (device/ui_tree.py)."""
        return localize_action(action, observation.ui, observation.task.apps, observation.task.locale)


# A path is written on the default display; on a shorter one, or with larger text, a step's target
# may be below the fold. The replay scrolls to it first, as a person would: the scroll is a step of
# the episode (step efficiency drops below 1) but not of the path, which its reasoning marks.
REVEAL = "the next step's target is below the fold of this display: scroll to it"
REVEAL_SCROLL = replace(Scroll("down"), reasoning=REVEAL)
MAX_REVEALS = 4  # scrolls before one step: past them, the step matches nothing


def steps_replayed(observation: Observation) -> int:
    """How many steps of the path the history holds (the scrolls that revealed a target aside)."""
    return sum(1 for record in observation.history if record.action.get("reasoning") != REVEAL)


def needs_reveal(observation: Observation, action: Action) -> bool:
    """Whether `action` names a target this screen lacks while a scrolling view may hold it below."""
    if action.selector is None or observation.ui.select(action.selector) is not None:
        return False
    recent = 0
    for record in reversed(observation.history):
        if record.action.get("reasoning") != REVEAL:
            break
        recent += 1
    return recent < MAX_REVEALS and any(node.scrollable for node in observation.ui.nodes())


def check_golden_step(observation: Observation, action: Action, index: int, total: int) -> None:
    """Raise GoldenPathError when the golden step's selector matches nothing on this screen."""
    if action.selector is None or observation.ui.select(action.selector) is not None:
        return
    raise GoldenPathError(
        f"golden path step {index} of {total} ({action.kind} {action.selector.describe()}) "
        f"matches nothing on the screen of task {observation.task.name!r}"
    )


class NearMissAgent:
    """Replays the task's near-miss path (the golden path with one thing wrong), then declares
    completion: a task that passes under it cannot tell right from almost right."""

    name = "near-miss"
    model = None

    def step(self, observation: Observation) -> Action:
        path = observation.task.near_miss
        i = steps_replayed(observation)
        if not path:
            return Done("this task declares no near miss")
        if i >= len(path):
            return Done("near-miss path replayed")
        action = OracleAgent.in_locale(observation, path[i])
        return REVEAL_SCROLL if needs_reveal(observation, action) else action


class NoopAgent:
    """Declares the task done at once: every task must fail under it."""

    name = "noop"
    model = None

    def step(self, observation: Observation) -> Action:
        return Done("noop")


class RandomAgent:
    """Seeded random taps on clickable elements, a few swipes and BACKs; never declares done."""

    name = "random"
    model = None

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.rng = random.Random(seed)

    def reset(self, task: TaskInfo) -> None:
        self.rng = random.Random(f"{self.seed}:{task.name}")

    def step(self, observation: Observation) -> Action:
        roll = self.rng.random()
        clickable = [n for n in observation.ui.nodes() if n.clickable and n.bounds[2] > n.bounds[0]]
        if roll < 0.8 and clickable:
            x, y = self.rng.choice(clickable).center
            return Tap(x, y)
        if roll < 0.9:
            w, h = observation.screen_size
            return Action("swipe", x=w // 2, y=h * 2 // 3, x2=w // 2, y2=h // 3, duration_ms=300)
        return Key("back")
