"""Running a task: `TaskRun` is one attempt, start -> episode -> verdict -> record.

- start: the app launched (a task whose app is missing is a task error, recorded as such) and
  the durable state recorded, once the fixtures have reset the device and seeded the data;
- episode: episode.py's step loop, calling the body (`BodyCheck`) after every step;
- verdict: an infrastructure fault or an agent error decides first; then the judges, the body
  once more on the final state, the changes nobody asked for and the judge hooks;
- record: the results line, the trajectory folder and the hooks, whatever the verdict.

A failure in any phase is classified (`TaskRun.classify`): infrastructure when its device was
lost (errors.py's InfrastructureFault anywhere in its chain, or any error outside the verdict
while the device no longer answers); the attempt then runs again on another device while
--mobile-retries allows (`run_with_retries`), and so does the task of an xdist worker that died
(`worker_crashed`). Such an attempt is recorded, never counted against the agent.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

import pytest
from _pytest._code.code import ReprEntryNative, ReprExceptionInfo, ReprFileLocation, ReprTraceback
from _pytest.runner import runtestprotocol

from pytest_mobile_agent.actions import InvalidAction
from pytest_mobile_agent.agents import Agent, ReportsUsage
from pytest_mobile_agent.agents.builtin import MAX_REVEALS
from pytest_mobile_agent.device.ui_tree import UiTree
from pytest_mobile_agent.episode import Episode, EpisodeRunner, own_traceback
from pytest_mobile_agent.errors import (
    ERROR,
    INFRASTRUCTURE,
    INTERRUPTED,
    TASK_ERROR,
    AgentError,
    ConfigurationError,
    DeviceLost,
    InfrastructureError,
    PreconditionError,
    ShellCommandError,
    TaskBodyError,
    TaskError,
    Termination,
    fault_in,
)
from pytest_mobile_agent.events.log import EventLog
from pytest_mobile_agent.judges import runner as judge_runner
from pytest_mobile_agent.metrics import apply_model_usage, crash_record, episode_record
from pytest_mobile_agent.models import cache as model_cache
from pytest_mobile_agent.options import Mode
from pytest_mobile_agent.parallel.control import held_by_agent
from pytest_mobile_agent.redaction import redact
from pytest_mobile_agent.reporting import allure as allure_report
from pytest_mobile_agent.reporting import fingerprint, results, screens, trajectory
from pytest_mobile_agent.reporting.terminal import one_line
from pytest_mobile_agent.session import CONFIG_FLAG, RECORD_PROPERTY, RESET_KEY, mobile_session
from pytest_mobile_agent.tasks import TASK_KEY, TaskInstance

if TYPE_CHECKING:
    from xdist.scheduler.protocol import Scheduling

    from pytest_mobile_agent.changes import Changes
    from pytest_mobile_agent.device.android import AndroidDevice
    from pytest_mobile_agent.device.pool import DevicePool

# Set on a report (it travels to the xdist controller with the report's other attributes).
REPORT_FLAG = "mobile_infrastructure"


class BodyCheck:
    """The task's body as the step loop's check: called on the events so far, it says whether
    the body holds (an AssertionError, or any other error until the final check: not yet)."""

    def __init__(self, item: pytest.Function, task: TaskInstance) -> None:
        self.item = item
        self.judge_only = task.spec.judge_only
        self.argnames = item._fixtureinfo.argnames
        # Only a body that reads events can hold at one event and not at the next.
        self.reads_events = "events" in self.argnames or "mab_task" in self.argnames

    def __call__(self, events: EventLog) -> tuple[bool, str]:
        if self.judge_only:
            return False, "judged by its judges once the episode is over"
        try:
            self.run(events)
            return True, ""
        except Exception as exc:  # AssertionError = not yet; anything else too, until the final check
            return False, str(exc)

    def run(self, events: EventLog) -> None:
        """The body once, raising what it raises: the final evaluation's assertion is the test's."""
        funcargs = self.item.funcargs
        self.item.obj(**{n: events if n == "events" else funcargs[n] for n in self.argnames})


@dataclass
class Fixtures:
    """The fixtures an episode runs on (every task uses them: tasks.py), with their types."""

    device: AndroidDevice
    ui: UiTree
    events: EventLog
    agent: Agent
    pool: DevicePool
    changes: Changes | None  # when the body asks for them

    @classmethod
    def of(cls, item: pytest.Function) -> Fixtures:
        values = item.funcargs
        # A user's own `device` fixture may not ask for the pool: it is made here then.
        pool = values.get("mobile_pool") or item._request.getfixturevalue("mobile_pool")
        return cls(
            cast("AndroidDevice", values["device"]),
            cast(UiTree, values["ui"]),
            cast(EventLog, values["events"]),
            cast(Agent, values["agent"]),
            cast("DevicePool", pool),
            cast("Changes | None", values.get("changes")),
        )


class TaskRun:
    """One attempt at a task, through pytest's phases: `call` in the call phase, `classify` on
    every phase's failed report, `record_unrun` for an attempt that ended before its episode."""

    def __init__(self, item: pytest.Function) -> None:
        self.item = item
        self.session = mobile_session(item.config)
        self.task = item.stash[TASK_KEY]
        self.episode: Episode | None = None  # once the attempt has a results line
        self.screens: screens.EpisodeScreens | None = None  # the episode's, on their way to the reports

    @classmethod
    def of(cls, item: pytest.Item) -> TaskRun | None:
        """The item's current attempt (run_with_retries starts one for each); None for a test
        that is no task."""
        if TASK_KEY not in item.stash or not isinstance(item, pytest.Function):
            return None
        if RUN_KEY not in item.stash:
            item.stash[RUN_KEY] = cls(item)
        return item.stash[RUN_KEY]

    @property
    def retried(self) -> bool:
        """An earlier attempt of this item was recorded (in this process)."""
        return any(name == RECORD_PROPERTY for name, _ in self.item.user_properties)

    @property
    def pool(self) -> DevicePool | None:
        pool: DevicePool | None = getattr(self.item, "funcargs", {}).get("mobile_pool")
        return pool

    # -- the call phase ------------------------------------------------------------------------
    def call(self) -> None:
        """Start, play the episode, give the verdict (raising the test's failure); record it."""
        __tracebackhide__ = True
        fixtures = Fixtures.of(self.item)
        check = BodyCheck(self.item, self.task)
        t0 = time.perf_counter()
        changes = self.start(fixtures)
        try:
            episode = self.play(fixtures, check)
        except KeyboardInterrupt:
            # Ctrl-C reaches every worker: the attempt it cut short is named, counted neither way.
            self.record_unrun(fixtures.device.serial, INTERRUPTED, "interrupted (Ctrl-C) during the episode")
            raise
        # Reset = the fixture's force-stop/clear/grants + the launch here, before the first step.
        episode.reset_s = self.item.stash.get(RESET_KEY, 0.0) + (time.perf_counter() - t0 - episode.wall_s)
        episode.retried = self.retried
        self.episode = episode
        try:
            self.verdict(episode, fixtures, check, changes)
        finally:
            self.record(episode)

    def start(self, fixtures: Fixtures) -> Changes:
        """Launch the task's app; mark the event log and record the durable state the agent starts from."""
        __tracebackhide__ = True
        from pytest_mobile_agent.changes import Changes

        device = fixtures.device
        # The body declares (through the `changes` fixture) what it asked to change.
        changes = fixtures.changes or Changes(device)
        app = self.task.apps[0] if self.task.spec.launch else None
        try:
            if app is not None:
                device.launch(app)
                device._await_foreground(app)
        except DeviceLost as exc:
            fixtures.pool.give_up()
            raise InfrastructureError(str(exc)) from exc
        except InvalidAction:
            missing = device.missing_packages(self.task.apps)
            if not missing:
                raise
            error = f"{', '.join(missing)} is not installed on {device.serial}"
            self.record_unrun(device.serial, TASK_ERROR, error)
            raise TaskError(f"{self.item.nodeid}: task {self.task.name!r}: {error}") from None
        fixtures.events.mark()
        if self.task.spec.check_changes or fixtures.changes is not None:
            changes.start()
        return changes

    def play(self, fixtures: Fixtures, check: BodyCheck) -> Episode:
        """The episode: the agent's steps, the body checked after each."""
        options = self.session.options
        budget = self.task.budget(options.step_factor)
        if options.mode is Mode.NEAR_MISS:  # a near miss may add a step nobody asked for
            # + its "done", + the scrolls to targets below the fold of a shorter display
            budget = max(budget, len(self.task.near_miss) + 1 + MAX_REVEALS)
        judges = self.session.judges
        self.screens = self.report_screens()
        runner = EpisodeRunner(
            fixtures.device,
            fixtures.agent,
            self.task,
            check=check,
            ui=fixtures.ui,
            events=fixtures.events,
            budget=budget,
            step_timeout=options.step_timeout,
            max_invalid=options.max_invalid,
            # Screenshots of every step only when a report keeps them; agents still get theirs.
            keep_screenshots=bool(options.artifacts)
            or allure_report.results_dir(self.item.config) is not None
            or (bool(judges) and judges.needs_screenshots),
            check_reads_events=check.reads_events,
            control=self.session.agent_control,
            on_step=self.screens.step_done if self.screens is not None else None,
        )
        # The model calls the agent makes, on whichever thread, are this episode's (the record's key).
        with model_cache.episode(self.item.nodeid):
            return runner.run()

    def report_screens(self) -> screens.EpisodeScreens | None:
        """The screens' way to the reports, when the session keeps any."""
        allure = allure_report.results_dir(self.item.config) is not None
        artifacts = self.session.options.artifacts is not None
        if not (allure or artifacts):
            return None
        return screens.EpisodeScreens(allure=allure, artifacts=artifacts, keep=self.session.options.keep_screens)

    def verdict(self, episode: Episode, fixtures: Fixtures, check: BodyCheck, changes: Changes) -> None:
        """Whose the outcome is, and whether the task was done: raises the test's failure."""
        __tracebackhide__ = True
        device, events, pool = fixtures.device, fixtures.events, fixtures.pool
        if episode.termination == ERROR and _device_gone(pool):
            # The agent's own adb calls failed because the device died under them.
            episode.termination, episode.error = INFRASTRUCTURE, f"device {device.serial} lost ({episode.error})"
        if isinstance(episode.fault, ConfigurationError):
            raise episode.fault  # the session stops (classify): no task can succeed as configured
        if episode.termination == INFRASTRUCTURE:
            _give_up_if_lost(pool, episode.fault)
            raise InfrastructureError(f"{episode.error} (infrastructure, not the agent's failure)")
        task, judges = self.task, self.session.judges
        if judges:
            inputs = judge_runner.inputs_for(self.item, task)
            episode.judges = judges.judge(episode, events, inputs, judge_runner.task_key(task))
        if episode.termination == ERROR:
            episode.success = False
            episode.body_success = None if task.spec.judge_only else False  # the task failed, body or not
            episode.failure_message = episode.error
            raise AgentError(episode.error)
        if task.spec.judge_only:
            verdict = judge_runner.outcome(episode.judges, task.spec.extra.get("judge"))
            episode.success = bool(verdict.passed)
            if not verdict.passed:
                episode.failure_message = f"judges: {verdict.reason}"
                raise AssertionError(episode.failure_message)
            return
        votes = self.final_check(episode, fixtures, check, changes)
        for passed, reason in votes:
            if not passed:
                episode.success = False
                episode.failure_message = f"judge: {reason}"
                raise AssertionError(f"judge: {reason}")
        episode.success = True

    def final_check(
        self, episode: Episode, fixtures: Fixtures, check: BodyCheck, changes: Changes
    ) -> list[tuple[bool, str]]:
        """The body once more on the final state, where its assertion is the test's, then the
        changes nobody asked for; the judge hooks' votes once both held."""
        __tracebackhide__ = True
        try:
            with fixtures.device.reading():
                changes.declared.clear()
                check.run(fixtures.events)
                if changes.before is not None:  # the body held: what is left undeclared is a side effect
                    episode.side_effects = [f"{c.area} {c.kind} {c.key}" for c in changes.unexpected()]
                if self.task.spec.check_changes:
                    changes.nothing_else()
            episode.body_success = True
            votes: list[tuple[bool, str]] = self.item.config.hook.pytest_mobile_agent_judge(
                item=self.item, episode=episode, ui=fixtures.ui, events=fixtures.events
            )
            return votes
        except AssertionError as exc:
            episode.success = episode.body_success = False
            episode.failure_message = str(exc).split("\n")[0] or "the final state does not satisfy the task"
            episode.failure_detail = str(exc)
            raise
        except ConfigurationError:
            raise  # a judge hook's model that refuses the key: the session stops
        except Exception as exc:
            if not _is_infrastructure(exc, fixtures.pool):
                # A bug in the task, not the agent's failure: recorded as the task's, with its traceback.
                episode.termination = TASK_ERROR
                episode.error = f"the task's body raised {type(exc).__name__}: {exc}"
                episode.success, episode.body_success, episode.failure_message = False, None, episode.error
                episode.traceback = own_traceback(exc, __file__)
                raise TaskBodyError(f"{self.item.nodeid}: {episode.error}") from exc
            episode.termination, episode.error = INFRASTRUCTURE, f"{type(exc).__name__}: {exc}"
            _give_up_if_lost(fixtures.pool, exc)
            raise InfrastructureError(f"{episode.error} (infrastructure, not the agent's failure)") from exc

    def record(self, episode: Episode) -> None:
        """The episode's results line, trajectory folder and hooks (the Allure case among them)."""
        item, options = self.item, self.session.options
        # The device's facts are read once per device (cached): not from a device just lost.
        device = item.funcargs.get("device") if episode.termination != INFRASTRUCTURE else None
        facts = fingerprint.of_item(item, cast("AndroidDevice | None", device))
        facts_id = fingerprint.fingerprint_id(facts)
        record = episode_record(
            episode, nodeid=item.nodeid, prices=self.session.prices(), fingerprint=facts, fingerprint_id=facts_id
        )
        agent = item.funcargs.get("agent")
        if isinstance(agent, ReportsUsage):  # the built-in model agents
            apply_model_usage(record, agent.episode_usage())
        record = redact(record)  # the key, wherever an endpoint or the agent echoed it
        item.config.hook.pytest_mobile_agent_episode_metrics(episode=episode, record=record)
        if options.artifacts:  # named in the results line, where compare and bundles look for it
            record["artifacts"] = str(trajectory.folder_of(options.artifacts, item.nodeid, episode.retried))
        if options.results:
            results.append(options.results, record)
        drawn = self.screens or self.report_screens()  # an attempt with no episode has none yet
        self.screens = None
        shown = drawn.finish(episode) if drawn is not None else None
        if options.artifacts:
            trajectory.write(options.artifacts, item.nodeid, episode, record, shown)
        item.user_properties.append((RECORD_PROPERTY, record))
        _set_property(item, fingerprint.ID_PROPERTY, facts_id)  # JUnit: the last attempt's
        _set_property(item, fingerprint.PROPERTY, fingerprint.canonical(record["fingerprint"]))
        if shown is not None:
            item.stash[screens.KEY] = shown
        try:
            item.config.hook.pytest_mobile_agent_episode_finished(item=item, episode=episode, record=record)
        finally:
            if screens.KEY in item.stash:  # the drawn screens are big: gone with the episode
                del item.stash[screens.KEY]

    def record_unrun(self, serial: str, termination: Termination, error: str, reset_s: float = 0.0) -> None:
        """The results line of an attempt that ended before its episode could start."""
        agent = self.session.get_agent()
        episode = Episode.of(self.task, agent, serial, self.task.budget(self.session.options.step_factor))
        episode.termination, episode.error = termination, error
        episode.success, episode.failure_message = False, error
        episode.retried, episode.reset_s = self.retried, reset_s
        self.episode = episode
        self.record(episode)

    # -- every phase's report -------------------------------------------------------------------
    def classify(self, call: pytest.CallInfo[None], report: pytest.TestReport) -> None:
        """A failed phase: the agent's and the task's failures say why without the harness's
        frames; the infrastructure's are flagged (the retry follows the flag), give the device
        up, and are recorded when no episode ran (a reset, a precondition fixture, the launch)."""
        excinfo = call.excinfo
        if not report.failed or excinfo is None:
            return
        episode = self.episode
        if excinfo.errisinstance(ConfigurationError):
            # One message, then the session stops (under xdist the worker's stop stops the controller).
            message = str(excinfo.value)
            report.longrepr = f"ConfigurationError: {message}"
            setattr(report, CONFIG_FLAG, message)
            self.item.session.shouldstop = f"configuration error: {message}"
            return
        # The harness's frames are hidden; the agent's own (or the task body's) are what helps.
        traceback = (
            episode.traceback if episode is not None and excinfo.errisinstance((AgentError, TaskBodyError)) else None
        )
        if episode is not None and traceback:
            whose = "The agent's" if excinfo.errisinstance(AgentError) else "The task body's"
            kind = "AgentError" if excinfo.errisinstance(AgentError) else "TaskError"
            error = episode.error if excinfo.errisinstance(AgentError) else excinfo.value
            report.longrepr = _told(self.item, f"{kind}: {error}\n\n{whose} traceback:\n{traceback.rstrip()}")
        elif excinfo.errisinstance(TaskError):
            text = f"{type(excinfo.value).__name__}: {excinfo.value}"  # the reason alone: no harness frames
            report.longrepr = _told(self.item, text)
        if call.when == "call" and episode is not None:
            _name_termination(report, episode)
        if traceback:
            return
        if excinfo.errisinstance(TaskError):
            name = type(excinfo.value).__name__
            if (
                call.when == "setup"
                and episode is None
                and excinfo.errisinstance((PreconditionError, ShellCommandError))
            ):
                # A precondition fixture failed: a results line that counts neither way.
                device = getattr(self.item, "funcargs", {}).get("device")
                serial = getattr(device, "serial", "?")
                self.record_unrun(serial, TASK_ERROR, f"precondition: {name}: {excinfo.value}", call.duration)
            return
        pool = self.pool
        if not _is_infrastructure(excinfo.value, pool):
            return
        setattr(report, REPORT_FLAG, True)
        _give_up_if_lost(pool, excinfo.value)
        if excinfo.errisinstance(InfrastructureError):  # raised by the harness, whose frames are hidden
            report.longrepr = f"InfrastructureError: {excinfo.value}"
        if call.when == "teardown":  # after the verdict (or after a flagged setup): the verdict stands
            report.outcome, report.longrepr = "passed", None
            report.sections.append(("mobile-agent", f"device lost during teardown: {excinfo.value}"))
        elif episode is None:
            serial = pool.lost[-1] if pool is not None and pool.lost else "?"
            error = f"{call.when}: {one_line(str(excinfo.value))}"
            self.record_unrun(serial, INFRASTRUCTURE, error, call.duration if call.when == "setup" else 0.0)


def _set_property(item: pytest.Item, name: str, value: str) -> None:
    """One JUnit property of this name (a retried attempt replaces the earlier one's)."""
    item.user_properties[:] = [(k, v) for k, v in item.user_properties if k != name]
    item.user_properties.append((name, value))


def _told(item: pytest.Item, text: str) -> ReprExceptionInfo:
    """A failure in the harness's own words (no frames) that still has the crash line pytest's
    short summary shows (a plain string has none), and crosses from an xdist worker intact."""
    path, lineno, _ = item.location
    entry = ReprEntryNative([text.rstrip() + "\n"])
    return ReprExceptionInfo(
        ReprTraceback([entry], None, "native"), ReprFileLocation(path, (lineno or 0) + 1, one_line(text))
    )


def _name_termination(report: pytest.TestReport, episode: Episode) -> None:
    """pytest's short summary line ("FAILED id - message") and JUnit's failure message say how
    the episode ended before the assertion message: "max_steps after 30 steps: assert ..."."""
    crash = getattr(report.longrepr, "reprcrash", None)
    if crash is not None:
        steps = len(episode.steps)
        crash.message = f"{episode.termination} after {steps} step{'s' * (steps != 1)}: {crash.message}"


RUN_KEY = pytest.StashKey[TaskRun]()


def run_with_retries(item: pytest.Item, nextitem: pytest.Item | None) -> bool | None:
    """pytest's protocol for a task, attempt after attempt while the last one failed on the
    infrastructure and --mobile-retries allows; every attempt is reported. None for a test
    that is no task (pytest's own protocol runs it)."""
    if TASK_KEY not in item.stash or not isinstance(item, pytest.Function):
        return None
    retries = mobile_session(item.config).options.retries
    item.ihook.pytest_runtest_logstart(nodeid=item.nodeid, location=item.location)
    for attempt in range(retries + 1):
        item.stash[RUN_KEY] = TaskRun(item)
        reports = runtestprotocol(item, nextitem=nextitem, log=False)
        if attempt == retries or not any(_flagged(r) for r in reports):
            break
        for report in reports:  # the lost attempt, reported now: the worker may die before the end
            if report.failed:
                report.outcome = "rerun"  # type: ignore[assignment]  # pytest's Literal knows no reruns
            item.ihook.pytest_runtest_logreport(report=report)
        item._initrequest()  # fresh fixtures for the retry
    for report in reports:
        item.ihook.pytest_runtest_logreport(report=report)
    item.ihook.pytest_runtest_logfinish(nodeid=item.nodeid, location=item.location)
    return True


def worker_crashed(config: pytest.Config, crashitem: str, report: pytest.TestReport, scheduler: Scheduling) -> None:
    """On the xdist controller: the worker running `crashitem` died. When its agent's code held
    control then, the crash is the agent's (recorded as its error, not run again); otherwise
    record the attempt as infrastructure and queue the task again while --mobile-retries allows."""
    session = mobile_session(config)
    if not session.options.runs_tasks:
        return
    workerid = str(getattr(getattr(getattr(report, "node", None), "gateway", None), "id", ""))
    finished = session.last_records.get((crashitem, workerid))
    if finished is not None and not finished["infrastructure"]:
        # It died after reporting the task's verdict: that record stands, once; nothing to run again.
        # Reported as a quiet teardown: the test's outcome was counted with its own reports.
        report.outcome, report.when, report.longrepr = "passed", "teardown", None
        report.sections.append(("mobile-agent", f"worker {workerid} died after the task's verdict was reported"))
        return
    if held_by_agent(session.control_folder, workerid):
        error = f"the agent's code ended its worker {workerid} (a crash, os._exit, memory exhausted): {report.longrepr}"
        facts = fingerprint.of_nodeid(config, crashitem)
        record = crash_record(
            crashitem, error, agent=True, fingerprint=facts, fingerprint_id=fingerprint.fingerprint_id(facts)
        )
        session.records.append(record)
        if session.options.results:
            results.append(session.options.results, record)
        report.longrepr = f"AgentError: {error}"
        return
    facts = fingerprint.of_nodeid(config, crashitem)
    record = crash_record(
        crashitem, str(report.longrepr), fingerprint=facts, fingerprint_id=fingerprint.fingerprint_id(facts)
    )
    session.records.append(record)
    if session.options.results:
        results.append(session.options.results, record)
    setattr(report, REPORT_FLAG, True)
    session.crashes[crashitem] = session.crashes.get(crashitem, 0) + 1
    if session.crashes[crashitem] <= session.options.retries:
        try:
            scheduler.mark_test_pending(crashitem)
        except NotImplementedError:  # --dist each/loadscope/loadfile cannot queue one test again
            return
        report.outcome = "rerun"  # type: ignore[assignment]  # pytest's Literal knows no reruns


def _flagged(report: pytest.TestReport) -> bool:
    """A failed report whose failure was the infrastructure's (the attempt runs again)."""
    return report.failed and bool(getattr(report, REPORT_FLAG, False))


def _device_gone(pool: DevicePool | None) -> bool:
    """True when this process's leased device no longer answers (one adb round trip)."""
    device = pool.device if pool is not None else None
    return device is not None and not device.alive()


def _give_up_if_lost(pool: DevicePool | None, exc: BaseException | None = None) -> None:
    """Give up the leased device when the fault was the device's (the retry takes another one);
    keep a device that still answers when the fault lay elsewhere (a model endpoint that stayed
    down), rather than booting a new one for nothing."""
    if pool is None or pool.device is None:
        return
    fault = fault_in(exc)
    if fault is not None and not isinstance(fault, DeviceLost) and not _device_gone(pool):
        return
    pool.give_up()


def _is_infrastructure(exc: BaseException, pool: DevicePool | None) -> bool:
    """An error outside the verdict is infrastructure when it is (or comes from) an
    InfrastructureFault, or when the device is gone: a precondition fixture that drives adb
    itself sees a raw `AdbError: device offline`, not a DeviceLost."""
    if fault_in(exc) is not None:
        return True
    if isinstance(exc, AssertionError | pytest.skip.Exception | pytest.fail.Exception | KeyboardInterrupt):
        return False
    return _device_gone(pool)
