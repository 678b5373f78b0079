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

    def __init__(self) -> None:
        self.reveal = Reveal()

    def step(self, observation: Observation) -> Action:
        golden = observation.task.golden
        i = steps_replayed(observation)
        if i >= len(golden):
            return Done("golden path replayed")
        action = self.in_locale(observation, golden[i])
        scroll = self.reveal.scroll(observation, action)
        if scroll is not None:
            return scroll
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
# may be off screen. The replay scrolls to it first, as a person would: the scroll is a step of
# the episode (step efficiency drops below 1) but not of the path, which its reasoning marks.
REVEAL = "the next step's target is off this display's screen: scroll to it"
MAX_REVEALS = 6  # scrolls before one step: past them, the step matches nothing


def steps_replayed(observation: Observation) -> int:
    """How many steps of the path the history holds (the scrolls that revealed a target aside)."""
    return sum(1 for record in observation.history if record.action.get("reasoning") != REVEAL)


def reveal_scroll(direction: str) -> Action:
    return replace(Scroll(direction), reasoning=REVEAL)


class Reveal:
    """The scrolls that bring a step's missing target on screen: down (a target below the fold),
    and once a scroll moved nothing (that end is reached), up (one an earlier scroll passed)."""

    def __init__(self) -> None:
        self.before = ""  # the hierarchy the last reveal scroll started from

    def scroll(self, observation: Observation, action: Action) -> Action | None:
        """The next reveal scroll for `action`, or None: its target is on screen, or no scrolling
        view may hold it, or the scrolls are spent (the step is then taken as written)."""
        if action.selector is None or observation.ui.select(action.selector) is not None:
            return None
        if not any(node.scrollable for node in observation.ui.nodes()):
            return None
        trail = []
        for record in reversed(observation.history):
            if record.action.get("reasoning") != REVEAL:
                break
            trail.append(record.action)
        if len(trail) >= MAX_REVEALS:
            return None
        direction = trail[0].get("direction", "down") if trail else "down"
        if trail and observation.hierarchy == self.before:  # the last scroll moved nothing
            if direction == "up":
                return None
            direction = "up"
        self.before = observation.hierarchy
        return reveal_scroll(direction)


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

    def __init__(self) -> None:
        self.reveal = Reveal()

    def step(self, observation: Observation) -> Action:
        path = observation.task.near_miss
        i = steps_replayed(observation)
        if not path:
            return Done("this task declares no near miss")
        if i >= len(path):
            return Done("near-miss path replayed")
        action = OracleAgent.in_locale(observation, path[i])
        return self.reveal.scroll(observation, action) or action


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
