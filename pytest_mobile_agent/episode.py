"""The step loop: observe, ask the agent, act, check the body, until done, budget or error.

Timings are split three ways per step: the agent's thinking, the device's work (adb round
trips: the action, the screenshot, the dump) and the harness's own (parsing, checking,
recording). The check (the task body, run.py's BodyCheck) runs after every action and after
every accessibility event; the first step at which it holds is the step of success.
"""

from __future__ import annotations

import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any, TypeVar, cast

from pytest_mobile_agent.actions import Action, InvalidAction
from pytest_mobile_agent.agents import (
    Agent,
    Observation,
    RawAction,
    SelfDrivingAgent,
    SelfDrivingTask,
    StepAgent,
    StepRecord,
    TaskInfo,
    kind_of,
)
from pytest_mobile_agent.device.ui_tree import UiTree
from pytest_mobile_agent.errors import (
    COMPLETED,
    ERROR,
    INFRASTRUCTURE,
    MAX_STEPS,
    ConfigurationError,
    InfrastructureFault,
    Termination,
)
from pytest_mobile_agent.events.log import EventLog
from pytest_mobile_agent.locales import DEFAULT_LOCALE
from pytest_mobile_agent.models.pricing import estimate_image_tokens, estimate_text_tokens
from pytest_mobile_agent.tasks import TaskInstance

if TYPE_CHECKING:
    from pytest_mobile_agent.device.android import AndroidDevice

# The task's success condition on the events so far: (held, why not).
Check = Callable[[EventLog], tuple[bool, str]]
T = TypeVar("T")


class EpisodeOver(BaseException):  # noqa: N818 - BaseException so an agent's `except Exception` cannot eat it
    """Raised inside a self-driving agent when the episode has ended (budget, timeout)."""


@dataclass
class Step:
    index: int
    action: dict[str, Any]
    valid: bool = True
    error: str | None = None
    output: str = ""
    agent_s: float = 0.0
    device_s: float = 0.0
    harness_s: float = 0.0
    tokens_in: int = 0
    tokens_out: int = 0
    tokens_estimated: bool = False
    reasoning: str | None = None
    success: bool = False
    screenshot: bytes | None = field(default=None, repr=False)
    hierarchy: str | None = field(default=None, repr=False)


@dataclass
class Episode:
    task: TaskInstance
    agent: str
    model: str | None
    serial: str
    budget: int
    steps: list[Step] = field(default_factory=list)
    termination: Termination | None = None
    error: str | None = None
    success_step: int | None = None
    success: bool | None = None  # the final evaluation
    failure_message: str | None = None
    failure_detail: str | None = field(default=None, repr=False)  # the whole assertion message
    initial_screenshot: bytes | None = field(default=None, repr=False)
    initial_hierarchy: str | None = field(default=None, repr=False)
    wall_s: float = 0.0
    reset_s: float = 0.0
    retried: bool = False
    traceback: str | None = field(default=None, repr=False)  # the agent's (or task body's) frames, when it raised
    fault: BaseException | None = field(default=None, repr=False)  # what ended it: infrastructure, configuration
    body_success: bool | None = None  # the body's verdict (None: a judge-only task, or not reached)
    # The durable changes nobody declared, once the body held (None: not measured: the body
    # failed before declaring all it asked for, or the task reads no durable state).
    side_effects: list[str] | None = None
    judges: dict[str, dict[str, Any]] = field(default_factory=dict)  # name -> Verdict.to_json()

    @classmethod
    def of(cls, task: TaskInstance, agent: object, serial: str, budget: int) -> Episode:
        """A new episode of `agent`, under the name and model it gives (its class name, else)."""
        model = getattr(agent, "model", None)
        return cls(task, getattr(agent, "name", type(agent).__name__), model, serial, budget)

    @property
    def final_screenshot(self) -> bytes | None:
        return self.steps[-1].screenshot if self.steps and self.steps[-1].screenshot else self.initial_screenshot

    @property
    def final_hierarchy(self) -> str | None:
        return self.steps[-1].hierarchy if self.steps and self.steps[-1].hierarchy else self.initial_hierarchy

    @property
    def invalid_steps(self) -> int:
        return sum(not s.valid for s in self.steps)


def own_traceback(exc: BaseException, caller: str = __file__) -> str:
    """An exception of the agent's (or a task body's) as Python prints it, from its own first
    frame on (the frames of `caller`, the harness module that only called it, left out); chained
    exceptions included."""
    tb = exc.__traceback__
    while tb is not None and tb.tb_frame.f_code.co_filename == caller:
        tb = tb.tb_next
    return "".join(traceback.format_exception(type(exc), exc.with_traceback(tb), tb))


class AgentRaised(Exception):  # noqa: N818 - it carries the agent's exception, it is none itself
    """What the agent's own code raised, whatever it was (SystemExit, KeyboardInterrupt and other
    BaseExceptions included): the agent runs on a thread of its own, and signals are delivered to
    the main thread only, so a real Ctrl-C is raised there, never here."""

    def __init__(self, error: BaseException) -> None:
        super().__init__(f"{type(error).__name__}: {error}")
        self.error = error


def call_with_timeout(fn: Callable[[], T], timeout: float | None, control: Callable[[bool], None] | None = None) -> T:
    """Run `fn()` (the agent's code) on a daemon thread; raise TimeoutError if it does not return
    in time, AgentRaised for what it raised (an infrastructure fault, a misconfigured run or the
    episode's end as they are). `control(True)` says the agent holds control (a worker that dies now is its
    crash), `control(False)` that the harness has it back."""
    value: list[T] = []
    error: list[BaseException] = []

    def target() -> None:
        try:
            value.append(fn())
        except BaseException as exc:  # noqa: BLE001 - handed back to the caller
            error.append(exc)

    thread = threading.Thread(target=target, daemon=True, name="agent-step")
    if control is not None:
        control(True)
    try:
        thread.start()
        thread.join(timeout)
    finally:
        if control is not None:
            control(False)
    if thread.is_alive():
        raise TimeoutError
    if error:
        if isinstance(error[0], InfrastructureFault | ConfigurationError | EpisodeOver):
            raise error[0]
        raise AgentRaised(error[0])
    return value[0]


def shown(raw: object, width: int = 200) -> str:
    """What an agent returned, for the record: its repr cut to `width`, whatever its type does."""
    try:
        text = repr(raw)
    except Exception as exc:  # an agent's object whose __repr__ raises
        text = f"<{type(raw).__name__} whose repr raised {type(exc).__name__}>"
    return text[:width]


def parse_action(raw: object) -> Action:
    """The agent's answer as a validated Action; anything unreadable is an InvalidAction with the
    reason (an agent's Mapping or object may raise anything when read)."""
    try:
        return Action.parse(raw)
    except InvalidAction:
        raise
    except Exception as exc:
        raise InvalidAction(f"the action could not be read: {type(exc).__name__}: {exc}") from exc


class EpisodeRunner:
    def __init__(
        self,
        device: AndroidDevice,
        agent: Agent,
        task: TaskInstance,
        *,
        check: Check,
        ui: UiTree,
        events: EventLog,
        budget: int,
        step_timeout: float | None,
        max_invalid: int,
        keep_screenshots: bool = True,
        check_reads_events: bool = True,
        control: Callable[[bool], None] | None = None,
        on_step: Callable[[Episode, Step], None] | None = None,
    ) -> None:
        self.device = device
        self.agent = agent
        self.task = task
        self.check = check
        self.ui = ui
        self.events = events
        self.step_timeout = step_timeout
        self.max_invalid = max_invalid
        self.keep_screenshots = keep_screenshots
        self.check_reads_events = check_reads_events
        self.control = control  # told when the agent holds control and when the harness has it back
        self.on_step = on_step  # the reports' screens: drawn in the background as the steps come
        self.episode = Episode.of(task, agent, device.serial, budget)
        self.info = TaskInfo(
            task.name,
            task.prompt,
            task.apps,
            task.golden_steps,
            budget,
            task.golden,
            task.near_miss,
            golden_borrowed=task.golden_borrowed,
            apis=task.apis,
            locale=getattr(device, "locale", DEFAULT_LOCALE),
        )
        self._checked_events = 0
        self._screen = (0, 0)

    # -- shared ------------------------------------------------------------------------------
    def _observe(self) -> tuple[bytes | None, str, float]:
        """The screen after an action: the hierarchy always, the screenshot when reports keep it."""
        t = time.perf_counter()
        png = self.device.screenshot() if self.keep_screenshots else None
        xml = self.device.dump()
        return png, xml, time.perf_counter() - t

    def _evaluate(self, step_index: int) -> bool:
        """Check after each new event (with the log cut there), then on the whole log."""
        if self.check_reads_events:
            self.events.sync()  # the events of this step's action have all arrived
        total = len(self.events)
        held = False
        with self.device.reading():
            # Only a body that reads events can hold at one event and not at the next.
            first = self._checked_events + 1 if self.check_reads_events else total + 1
            for count in range(first, total + 1):
                if self.check(self.events.view_until(count))[0]:
                    held = True
                    break
            held = held or self.check(self.events)[0]
        self._checked_events = total
        if held and self.episode.success_step is None:
            self.episode.success_step = step_index
        return held

    def _record(self, step: Step, png: bytes | None, xml: str | None) -> None:
        step.hierarchy = xml
        step.screenshot = png if self.keep_screenshots else None
        self.episode.steps.append(step)
        if self.on_step is not None:
            self.on_step(self.episode, step)

    def _estimate_tokens(self, step: Step, action: Action | None) -> None:
        if action is not None and action.tokens_in is not None and _whole(action.tokens_in, action.tokens_out):
            step.tokens_in, step.tokens_out = action.tokens_in, action.tokens_out or 0
            return
        history = " ".join(str(s.action) for s in self.episode.steps)
        step.tokens_in = estimate_text_tokens(self.task.prompt + history) + estimate_image_tokens(*self._screen)
        step.tokens_out = estimate_text_tokens(str(step.action) + (step.reasoning or ""))
        step.tokens_estimated = True

    def run(self) -> Episode:
        start = time.perf_counter()
        try:
            self._screen = self.device.window_size()
            png, xml, _ = self._observe()
            self.ui.update(xml)
            self.episode.initial_screenshot, self.episode.initial_hierarchy = png, xml
            self._evaluate(0)
            if kind_of(self.agent) == "step":
                self._run_step_agent(cast(StepAgent, self.agent), png, xml)
            else:
                self._run_self_driving(cast(SelfDrivingAgent, self.agent))
            if not self.check_reads_events:
                # Checks that read no events skip the per-step barrier (an adb round trip);
                # one at the end completes the log for the final judgement and judge hooks.
                self.events.sync()
        except (InfrastructureFault, ConfigurationError) as exc:
            # Neither is the agent's; a misconfigured run (fault: a ConfigurationError) then stops.
            self.episode.termination = INFRASTRUCTURE
            self.episode.error = str(exc)
            self.episode.fault = exc
        finally:
            self.episode.wall_s = time.perf_counter() - start
        return self.episode

    # -- step agents -------------------------------------------------------------------------
    def _agent_failed(self, exc: BaseException, where: str) -> None:
        """The agent's own code raised: its error, with its traceback."""
        self.episode.termination = ERROR
        self.episode.error = f"agent raised {type(exc).__name__} {where}: {exc}"
        self.episode.traceback = own_traceback(exc)

    def _run_step_agent(self, agent: StepAgent, png: bytes | None, xml: str) -> None:
        ep = self.episode
        if hasattr(agent, "reset"):
            try:
                call_with_timeout(partial(agent.reset, self.info), self.step_timeout, self.control)
            except TimeoutError:
                ep.termination = ERROR
                ep.error = f"agent hang: reset() took longer than {self.step_timeout:g} s (--mobile-step-timeout)"
                return
            except AgentRaised as raised:
                self._agent_failed(raised.error, "in reset()")
                return
        history: list[StepRecord] = []
        last_output, last_error, invalid_run = "", None, 0
        for index in range(1, ep.budget + 1):
            obs = Observation(
                self.task.prompt,
                index,
                xml,
                self.ui.exact(),
                self.info,
                list(history),
                self._screen,
                last_output,
                last_error,
                png,
                self.device.screenshot,
            )
            t0 = time.perf_counter()
            try:
                # A lost device or an unreachable model endpoint (InfrastructureFault) passes:
                # it is not the agent's failure.
                raw = call_with_timeout(partial(agent.step, obs), self.step_timeout, self.control)
            except TimeoutError:
                ep.termination, ep.error = (
                    ERROR,
                    (f"agent hang: step {index} took longer than {self.step_timeout:g} s (--mobile-step-timeout)"),
                )
                return
            except AgentRaised as raised:
                self._agent_failed(raised.error, f"at step {index}")
                return
            agent_s = time.perf_counter() - t0
            step = Step(index, {"raw": shown(raw)}, agent_s=agent_s)
            action: Action | None = None
            device_s = 0.0
            try:
                action = parse_action(raw)
                step.action, step.reasoning = action.to_json(), action.reasoning
                if action.kind == "done":
                    ep.termination = COMPLETED
                    return
                t1 = time.perf_counter()
                last_output = self.device.execute(action, self.ui)
                device_s = time.perf_counter() - t1
                step.output, last_error, invalid_run = last_output, None, 0
            except InvalidAction as exc:
                step.valid, step.error = False, str(exc)
                last_error, last_output = str(exc), ""
                invalid_run += 1
            t2 = time.perf_counter()
            png, xml, observe_s = self._observe()
            self.ui.update(xml)
            step.success = self._evaluate(index)
            step.device_s = device_s + observe_s
            # An unreadable model answer is still an Action carrying the model's tokens and reasoning.
            told = action or (raw if isinstance(raw, Action) else None)
            step.reasoning = step.reasoning or (told.reasoning if told and isinstance(told.reasoning, str) else None)
            self._estimate_tokens(step, told)
            self._record(step, png, xml)
            step.harness_s = time.perf_counter() - t2 - observe_s
            history.append(StepRecord(index, step.action, step.valid, step.error, step.output))
            if invalid_run >= self.max_invalid:
                ep.termination = ERROR
                ep.error = f"{invalid_run} invalid actions in a row (--mobile-max-invalid); last: {step.error}"
                return
        ep.termination = MAX_STEPS

    # -- self-driving agents -----------------------------------------------------------------
    def _run_self_driving(self, agent: SelfDrivingAgent) -> None:
        recorder = EpisodeRecorder(self)
        task = SelfDrivingTask(self.task.prompt, self.info, self.device)
        total = None if self.step_timeout is None else self.step_timeout * (self.episode.budget + 1)
        try:
            call_with_timeout(lambda: agent.run(task, recorder), total, self.control)
        except TimeoutError:
            recorder.finished = True
            self.episode.termination = ERROR
            self.episode.error = f"agent hang: run() did not return within {total:g} s"
            return
        except EpisodeOver:
            pass
        except AgentRaised as raised:
            recorder.finished = True
            self._agent_failed(raised.error, f"at step {len(self.episode.steps) + 1}")
            return
        if self.episode.termination is None:
            self.episode.termination = COMPLETED if recorder.said_done else MAX_STEPS


def _whole(*values: object) -> bool:
    """Token counts a self-driving agent reported: whole numbers, or None for the second."""
    return all(v is None or (isinstance(v, int) and not isinstance(v, bool) and v >= 0) for v in values)


class EpisodeRecorder:
    """Handed to self-driving agents (an `agents.Recorder`): call before_action() and
    after_action(action) per step."""

    def __init__(self, runner: EpisodeRunner) -> None:
        self._runner = runner
        self._t0: float | None = None
        self._last = time.perf_counter()
        self.finished = False
        self.said_done = False

    @property
    def steps_left(self) -> int:
        return self._runner.episode.budget - len(self._runner.episode.steps)

    def before_action(self) -> None:
        if self.finished:
            raise EpisodeOver("the episode has ended")
        self._t0 = time.perf_counter()

    def after_action(
        self,
        action: RawAction,
        *,
        reasoning: str | None = None,
        tokens_in: int | None = None,
        tokens_out: int | None = None,
    ) -> None:
        if self.finished:
            raise EpisodeOver("the episode has ended")
        r = self._runner
        now = time.perf_counter()
        index = len(r.episode.steps) + 1
        # The agent's own time (thinking and acting) is everything since the last step.
        step = Step(index, {}, agent_s=now - (self._t0 or self._last))
        try:
            parsed = parse_action(action)
            step.action = parsed.to_json()
            step.reasoning = (reasoning if isinstance(reasoning, str) else None) or parsed.reasoning
        except InvalidAction as exc:
            parsed = None
            step.action, step.valid, step.error = {"raw": shown(action)}, False, str(exc)
        if tokens_in is not None and not _whole(tokens_in, tokens_out):
            step.valid = False
            told = f"{shown(tokens_in, 40)}/{shown(tokens_out, 40)}"
            step.error = f"tokens_in and tokens_out must be whole numbers, not {told}"
            tokens_in = tokens_out = None
        if tokens_in is not None:
            step.tokens_in, step.tokens_out = tokens_in, tokens_out or 0
        else:
            r._estimate_tokens(step, parsed)
        t2 = time.perf_counter()
        png, xml, observe_s = r._observe()
        r.ui.update(xml)
        step.success = r._evaluate(index)
        step.device_s = observe_s
        r._record(step, png, xml)
        step.harness_s = time.perf_counter() - t2 - observe_s
        self._last = time.perf_counter()
        self._t0 = None
        if len(r.episode.steps) >= r.episode.budget:
            self.finished = True
            r.episode.termination = MAX_STEPS

    def done(self, reasoning: str | None = None) -> None:
        """The agent believes the task is complete."""
        if not self.finished:
            self.finished = True
            self.said_done = True
            self._runner.episode.termination = COMPLETED
