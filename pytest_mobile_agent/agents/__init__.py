"""Agents: the two shapes the harness drives and what it hands them.

A *step agent* has `step(observation) -> action`: the harness executes each action, so steps,
coordinates and timings are exact. A *self-driving agent* has `run(task, recorder)`: it drives
the device itself (through adb, as AppAgent or Mobile-Agent do) and calls
`recorder.before_action()` / `recorder.after_action(action)` around each action:

    class MyAgent:
        def run(self, task, recorder):
            while not recorder.finished:
                recorder.before_action()
                x, y = my_model.decide(task.prompt, task.device.screenshot())
                task.device.sh(f"input tap {x} {y}")
                recorder.after_action({"action": "tap", "x": x, "y": y})
            # or recorder.done() when the model says the task is complete

Agents may set `name` and `model` (for reports and the price table) and put `tokens_in`,
`tokens_out` and `reasoning` on the actions they return. The `--agent` loader is in
`agents/loader.py`, the built-in agents in `agents/builtin.py` and `agents/baselines/`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, Protocol, runtime_checkable

from pytest_mobile_agent.actions import Action
from pytest_mobile_agent.locales import DEFAULT_LOCALE

if TYPE_CHECKING:
    from PIL.Image import Image

    from pytest_mobile_agent.device.android import AndroidDevice
    from pytest_mobile_agent.device.ui_tree import UiTree
    from pytest_mobile_agent.models import ChatClient

# What an agent may return for an action: the harness parses it (`Action.parse`).
RawAction = Action | dict[str, Any] | str


class AgentLoadError(Exception):
    """`--agent` names something that is not an agent; the message says what was missing."""


@dataclass
class TaskInfo:
    """What an agent may know about the task. `golden` is for the oracle only."""

    name: str
    prompt: str
    apps: tuple[str, ...]
    golden_steps: int
    max_steps: int
    golden: tuple[Action, ...] = ()
    near_miss: tuple[Action, ...] = ()  # for the near-miss agent only
    golden_borrowed: bool = False  # taken from a suite task whose setup differs (formats/mobileagentbench.py)
    apis: tuple[str, ...] = ()  # API calls the task offers (adb commands with what they do), e.g. Mobile-Bench's
    locale: str = DEFAULT_LOCALE  # the device's locale: golden paths name English texts, replayed in it


@dataclass
class StepRecord:
    index: int
    action: dict[str, Any]
    valid: bool
    error: str | None = None
    output: str = ""


@dataclass
class Observation:
    prompt: str
    step: int  # the step this observation asks for: 1 for the first action, as in messages
    hierarchy: str  # uiautomator dump XML
    ui: UiTree
    task: TaskInfo
    history: list[StepRecord] = field(default_factory=list)
    screen_size: tuple[int, int] = (0, 0)
    last_output: str = ""  # what the previous `api` action printed
    last_error: str | None = None  # why the previous action was invalid
    png: bytes | None = field(default=None, repr=False)
    capture: Callable[[], bytes] | None = field(default=None, repr=False)

    @property
    def screenshot(self) -> bytes:
        """The screen as PNG. Taken with the step when reports keep screenshots, else on first use
        here, so an agent that never looks costs no capture."""
        if self.png is None and self.capture is not None:
            self.png = self.capture()
        return self.png or b""

    def image(self) -> Image:
        """The screenshot as a PIL image."""
        import io

        from PIL import Image

        return Image.open(io.BytesIO(self.screenshot))


@dataclass
class SelfDrivingTask:
    prompt: str
    info: TaskInfo
    device: AndroidDevice  # .serial, .adb (adbutils), .u2, .sh(), .screenshot(), .dump()

    @property
    def serial(self) -> str:
        return self.device.serial


class Recorder(Protocol):
    """What a self-driving agent reports its steps to (the harness's is `episode.EpisodeRecorder`)."""

    finished: bool  # the episode is over (budget, done): stop acting

    @property
    def steps_left(self) -> int: ...
    def before_action(self) -> None: ...
    def after_action(
        self,
        action: RawAction,
        *,
        reasoning: str | None = None,
        tokens_in: int | None = None,
        tokens_out: int | None = None,
    ) -> None: ...
    def done(self, reasoning: str | None = None) -> None: ...


@runtime_checkable
class StepAgent(Protocol):
    def step(self, observation: Observation) -> RawAction: ...


@runtime_checkable
class SelfDrivingAgent(Protocol):
    def run(self, task: SelfDrivingTask, recorder: Recorder) -> None: ...


Agent = StepAgent | SelfDrivingAgent


@runtime_checkable
class NeedsModel(Protocol):
    """An agent that asks for this run's chat client (--mobile-model*), as the built-in model agents do."""

    needs_model: bool
    client: ChatClient | None
    # An agent may also name the API its client speaks, `model_api` (models/apis/: "chat" when absent).


@runtime_checkable
class ReportsUsage(Protocol):
    """An agent that accounts for its own model calls (the built-in model agents): the record's
    token and cost figures come from `episode_usage()` rather than from the steps."""

    def episode_usage(self) -> dict[str, Any]: ...


def kind_of(agent: object) -> Literal["step", "self-driving"]:
    """Which shape `agent` has; AgentLoadError when it has neither."""
    if callable(getattr(agent, "step", None)):
        return "step"
    if callable(getattr(agent, "run", None)):
        return "self-driving"
    raise AgentLoadError(
        f"{agent!r} is not an agent: it needs a step(observation) method (step agent) "
        "or a run(task, recorder) method (self-driving agent)"
    )
