"""Agents: the two shapes the harness drives, the `--agent` loader and the built-in agents.

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
`tokens_out` and `reasoning` on the actions they return.
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import random
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from pytest_mobile_agent.actions import Action, Done, Key, Tap
from pytest_mobile_agent.errors import GoldenPathError
from pytest_mobile_agent.locales import DEFAULT_LOCALE, localize_action
from pytest_mobile_agent.task_errors import check_golden_step

if TYPE_CHECKING:
    from pytest_mobile_agent.device.android import AndroidDevice
    from pytest_mobile_agent.device.ui_tree import UiTree


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

    def image(self) -> Any:
        """The screenshot as a PIL image."""
        import io

        from PIL import Image

        return Image.open(io.BytesIO(self.screenshot))


@runtime_checkable
class StepAgent(Protocol):
    def step(self, observation: Observation) -> Action | dict[str, Any] | str: ...


@runtime_checkable
class SelfDrivingAgent(Protocol):
    def run(self, task: SelfDrivingTask, recorder: Any) -> None: ...


@dataclass
class SelfDrivingTask:
    prompt: str
    info: TaskInfo
    device: AndroidDevice  # .serial, .adb (adbutils), .u2, .sh(), .screenshot(), .dump()

    @property
    def serial(self) -> str:
        return self.device.serial


# -- built-in agents ---------------------------------------------------------------------------
class OracleAgent:
    """Replays the task's golden path (actions by selector), then declares completion."""

    name = "oracle"
    model = None

    def step(self, observation: Observation) -> Action:
        golden = observation.task.golden
        i = len(observation.history)
        if i >= len(golden):
            return Done("golden path replayed")
        action = self.in_locale(observation, golden[i])
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
        """The golden path's English texts as the device's locale shows them (locales.py)."""
        return localize_action(action, observation.ui, observation.task.apps, observation.task.locale)


class NearMissAgent:
    """Replays the task's near-miss path (the golden path with one thing wrong), then declares
    completion: a task that passes under it cannot tell right from almost right."""

    name = "near-miss"
    model = None

    def step(self, observation: Observation) -> Action:
        path = observation.task.near_miss
        i = len(observation.history)
        if not path:
            return Done("this task declares no near miss")
        return OracleAgent.in_locale(observation, path[i]) if i < len(path) else Done("near-miss path replayed")


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


BUILTIN: dict[str, Callable[[], Any]] = {
    "oracle": OracleAgent,
    "noop": NoopAgent,
    "random": RandomAgent,
    "near-miss": NearMissAgent,
}
# The model-backed baselines (agents/baselines/), imported only when named: they need a model.
MODEL_AGENTS = ("t3a", "m3a", "appagent", "mobile-bench")


def kind_of(agent: Any) -> str:
    if callable(getattr(agent, "step", None)):
        return "step"
    if callable(getattr(agent, "run", None)):
        return "self-driving"
    raise AgentLoadError(
        f"{agent!r} is not an agent: it needs a step(observation) method (step agent) "
        "or a run(task, recorder) method (self-driving agent)"
    )


def _instantiate(obj: Any, where: str) -> Any:
    if inspect.isclass(obj):
        try:
            obj = obj()
        except TypeError as exc:
            raise AgentLoadError(f"{where}: cannot create {obj.__name__}() without arguments: {exc}") from exc
    elif inspect.isfunction(obj) and not hasattr(obj, "step"):
        params = inspect.signature(obj).parameters
        if len(params) == 1 and next(iter(params)) == "observation":
            fn = obj

            class _FunctionAgent:
                name = fn.__name__

                def step(self, observation: Observation) -> Any:
                    return fn(observation)

            return _FunctionAgent()
        try:
            obj = obj()
        except TypeError as exc:
            raise AgentLoadError(f"{where}: the factory {obj.__name__}() needs arguments: {exc}") from exc
    kind_of(obj)
    return obj


def _from_module(module: Any, where: str) -> Any:
    for attr in ("agent", "make_agent", "Agent"):
        if hasattr(module, attr):
            return _instantiate(getattr(module, attr), f"{where}:{attr}")
    candidates = [
        v
        for k, v in vars(module).items()
        if inspect.isclass(v) and v.__module__ == module.__name__ and (hasattr(v, "step") or hasattr(v, "run"))
    ]
    if len(candidates) == 1:
        return _instantiate(candidates[0], f"{where}:{candidates[0].__name__}")
    found = ", ".join(c.__name__ for c in candidates) or "none"
    raise AgentLoadError(
        f"{where} defines no agent: expected a variable `agent`, a factory `make_agent()`, a class `Agent`, "
        f"or exactly one class with a step() or run() method (found: {found})"
    )


def load_agent(spec: str, *, seed: int = 0) -> Any:
    """`--agent`: a built-in name, a path to a .py file, or `package.module:attribute`."""
    spec = spec.strip()
    if spec in BUILTIN:
        return RandomAgent(seed) if spec == "random" else BUILTIN[spec]()
    if spec in MODEL_AGENTS:
        from pytest_mobile_agent.agents.baselines import MODEL_AGENTS as made

        return made[spec]()
    if spec.endswith(".py") or "/" in spec or "\\" in spec:
        path = Path(spec).expanduser()
        if not path.is_file():
            raise AgentLoadError(f"--agent={spec}: file not found ({path.resolve()})")
        name = f"_mobile_agent_{path.stem}"
        module_spec = importlib.util.spec_from_file_location(name, path)
        if module_spec is None or module_spec.loader is None:
            raise AgentLoadError(f"--agent={spec}: cannot import {path}")
        module = importlib.util.module_from_spec(module_spec)
        sys.modules[name] = module
        try:
            module_spec.loader.exec_module(module)
        except Exception as exc:
            raise AgentLoadError(f"--agent={spec}: importing {path} raised {type(exc).__name__}: {exc}") from exc
        return _from_module(module, str(path))
    module_name, _, attr = spec.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        builtin = ", ".join((*BUILTIN, *MODEL_AGENTS))
        raise AgentLoadError(
            f"--agent={spec}: no built-in agent, file or module of that name (built-ins: {builtin}; "
            f"files end in .py; modules look like package.module:attr): {exc}"
        ) from exc
    if not attr:
        return _from_module(module, module_name)
    if not hasattr(module, attr):
        raise AgentLoadError(f"--agent={spec}: module {module_name} has no attribute {attr!r}")
    return _instantiate(getattr(module, attr), spec)
