"""pytest hooks: options, task collection and markers, the episode in the call phase,
infrastructure retries, metrics across xdist workers, the summary table and the results file."""

from __future__ import annotations

import gc
import inspect
import os
import time
from typing import Any

import pytest
from _pytest.runner import runtestprotocol

from pytest_mobile_agent import hookspecs, infrastructure, task_errors
from pytest_mobile_agent.actions import InvalidAction
from pytest_mobile_agent.episode import Episode, EpisodeRunner
from pytest_mobile_agent.errors import (
    ERROR,
    INFRASTRUCTURE,
    TASK_ERROR,
    AgentError,
    DeviceLost,
    InfrastructureError,
    TaskDefinitionError,
    TaskError,
)
from pytest_mobile_agent.fixtures import (  # noqa: F401  (fixtures)
    agent,
    changes,
    device,
    events,
    mobile_device,
    mobile_model,
    mobile_near_miss,
    mobile_pool,
    mobile_resets,
    ui,
)
from pytest_mobile_agent.formats import mobileagentbench, registry, task_file
from pytest_mobile_agent.formats.mobileagentbench import mab_task  # noqa: F401  (fixture)
from pytest_mobile_agent.judges import runner as judge_runner
from pytest_mobile_agent.metrics import apply_model_usage, episode_record, summarize
from pytest_mobile_agent.models import options as model_options
from pytest_mobile_agent.parallel import shards
from pytest_mobile_agent.parallel.warmstart import controller as warm_start
from pytest_mobile_agent.reporting import allure as allure_report
from pytest_mobile_agent.reporting import draw, plots, results, terminal, trajectory
from pytest_mobile_agent.session import (
    EPISODE_KEY,
    RECORD_PROPERTY,
    RESET_KEY,
    SESSION_KEY,
    TASK_KEY,
    MobileSession,
    Options,
    mobile_session,
)
from pytest_mobile_agent.tasks import NEAR_MISS_ARG, app_marker, instantiate, spec_of, task_name

OPTIONS = (
    # (flag, dest/ini name, type, default, help)
    (
        "--agent",
        "mobile_agent",
        str,
        None,
        "agent under test: oracle, noop, random, near-miss; t3a, m3a, appagent, mobile-bench (with --mobile-model); "
        "path/to/agent.py or pkg.module:attr",
    ),
    (
        "--devices",
        "mobile_devices",
        str,
        None,
        "devices: virtual (default: one virtual device per worker), all, SERIAL[,SERIAL...], remote:HOST:PORT "
        "or emulator:AVD*N (N headless instances booted for the session)",
    ),
    ("--mobile-step-factor", "mobile_step_factor", float, None, "step budget = factor x golden steps (default 2)"),
    (
        "--mobile-step-timeout",
        "mobile_step_timeout",
        float,
        None,
        "seconds an agent may think per step before it counts as hung (default 120; 0 = no limit)",
    ),
    (
        "--mobile-max-invalid",
        "mobile_max_invalid",
        int,
        None,
        "invalid actions in a row that end an episode with reason error (default 3)",
    ),
    (
        "--mobile-artifacts",
        "mobile_artifacts",
        str,
        None,
        "directory for per-test trajectories (PNG per step, actions)",
    ),
    (
        "--mobile-results",
        "mobile_results",
        str,
        None,
        "JSON-lines results file: one record per episode + the aggregate",
    ),
    ("--mobile-prices", "mobile_prices", str, None, "JSON price table: {model: {input: USD/Mtok, output: USD/Mtok}}"),
    ("--mobile-seed", "mobile_seed", int, None, "seed for the random agent (default 0)"),
    (
        "--mobile-retries",
        "mobile_retries",
        int,
        None,
        "runs again after an infrastructure error: a device lost, an xdist worker crashed (default 1)",
    ),
    (
        "--mobile-virtual-args",
        "mobile_virtual_args",
        str,
        None,
        "extra options for virtual devices, e.g. '--size 720x1600'",
    ),
    (
        "--mobile-cpu-pinning",
        "mobile_cpu_pinning",
        str,
        None,
        "auto (default): each xdist worker and its virtual device share a CPU of their own; off: no pinning",
    ),
    (
        "--mobile-shard",
        "mobile_shard",
        str,
        None,
        "I/N: run only the I-th of N shards of the tests, split the same way on every host, balanced by golden steps",
    ),
    (
        "--mobile-warm-start",
        "mobile_warm_start",
        str,
        None,
        "auto (default): xdist workers and their virtual devices are forked from one process that imported "
        "pytest, the plugins and the device once; off: each starts a Python of its own",
    ),
    (
        "--mobile-reset",
        "mobile_reset",
        str,
        None,
        "snapshot: load the device's base snapshot before each task (emulators and virtual devices); "
        "clear: force-stop and pm clear the task's apps (phones); default: snapshot where the device has one",
    ),
)
OPTIONS += (
    (
        "--mobile-locale",
        "mobile_locale",
        str,
        None,
        "the device's locale for every task, set at each reset as on Android (persist.sys.locale, "
        "system_locales): en-US or zh-CN; wins over @task(locale=...) (default: the task's, else en-US)",
    ),
)
INI_DEFAULTS = {"mobile_step_timeout": "120", "mobile_retries": "1"}


def pytest_addhooks(pluginmanager: pytest.PytestPluginManager) -> None:
    pluginmanager.add_hookspecs(hookspecs)


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("mobile-agent", "pytest-mobile-agent: benchmark mobile GUI agents")
    for flag, dest, typ, default, help_ in OPTIONS:
        group.addoption(flag, dest=dest, type=typ, default=default, help=help_)
        parser.addini(dest, help=help_, default=INI_DEFAULTS.get(dest))
    model_options.add_options(parser)
    judge_runner.add_options(parser)


def pytest_cmdline_main(config: pytest.Config) -> None:
    """Before anything configures: only the controller may clean the Allure results (before
    allure-pytest), and the warm process forks from a controller that has configured nothing.
    After xdist's hook (tryfirst), which turns -n into the workers' specs."""
    allure_report.take_over_cleaning(config)
    options = Options.from_config(config)
    if options.agent and warm_start.wanted(config, options.warm_start):
        warm_start.start(config)


def pytest_configure(config: pytest.Config) -> None:
    warm_start.configured_here = True
    config.addinivalue_line("markers", "mobile_task: a mobile-agent benchmark task (added by @task)")
    config.addinivalue_line("markers", "online: a task that needs an online app (skipped when it is not installed)")
    config.addinivalue_line("markers", "near_miss: a task that declares a near-miss path (for --agent=near-miss)")
    config.addinivalue_line("markers", f"{mobileagentbench.FILE_MARKER}: a task from a MobileAgentBench task file")
    for level in ("easy", "medium", "hard"):
        config.addinivalue_line("markers", f"{level}: task difficulty")
    config.pluginmanager.register(task_file, "mobile-agent-task-files")  # SPA-Bench and Mobile-Bench task files
    session = MobileSession(config, Options.from_config(config))
    config.stash[SESSION_KEY] = session
    config.stash[judge_runner.PANEL_KEY] = panel = judge_runner.JudgePanel(config)
    if panel and session.options.agent:
        panel.judges  # noqa: B018  (a judge without its model stops the run here, with the reason)
    if session.is_worker:  # an xdist worker, so xdist is there to import
        from pytest_mobile_agent.parallel.scheduler import HeaviestFirst, steals_work

        if steals_work(config, session.options.agent):
            config.pluginmanager.register(HeaviestFirst(config.workerinput), "mobile-agent-heaviest-first")
    elif getattr(config.option, "numprocesses", None):  # the xdist controller (the option is xdist's)
        from pytest_mobile_agent.parallel.scheduler import StaggeredWorkers, steals_work

        if steals_work(config, session.options.agent) and not config.option.collectonly:
            config.pluginmanager.register(StaggeredWorkers(), StaggeredWorkers.NAME)
    if session.options.shard:
        config.pluginmanager.register(shards.ShardSelection(shards.Shard.parse(session.options.shard)))
    if session.options.agent:
        session.get_agent()  # a bad --agent stops the run here, with the reason
    alluredir = allure_report.results_dir(config)
    if alluredir is not None:
        config.pluginmanager.register(allure_report.AllureReport(session, alluredir), "mobile-agent-allure")
    if not session.is_worker:
        allure_report.clean_once(config)
        config.pluginmanager.register(SummaryReporter(session), "mobile-agent-summary")
        if session.options.results:
            session.options.results.parent.mkdir(parents=True, exist_ok=True)
            session.options.results.write_text("")  # this session's episodes only


# -- collection ---------------------------------------------------------------------------------
def pytest_collect_file(file_path: Any, parent: pytest.Collector) -> pytest.Collector | None:
    """Other benchmarks' task files run as they are (formats/)."""
    return registry.collect_file(file_path, parent)


@pytest.hookimpl(tryfirst=True)
def pytest_pycollect_makemodule(module_path: Any, parent: pytest.Collector) -> pytest.Collector | None:
    """A task file named on the command line, which pytest would import as a test module (its
    relative imports would fail there), is collected as a task file only."""
    if mobileagentbench.is_task_file(module_path):
        return mobileagentbench.MobileAgentBenchFile.from_parent(parent, path=module_path)
    return None


@pytest.hookimpl(hookwrapper=True)
def pytest_pycollect_makeitem(collector: pytest.Collector, name: str, obj: Any):  # noqa: ANN201
    """Parameters a task uses only in its prompt or golden path need not be body arguments:
    declare them as used fixtures so pytest accepts the parametrization."""
    if spec_of(obj) is not None:
        if mobile_session(collector.config).options.agent:
            mobile_session(collector.config).prepare_device()  # tasks will run: boot the device now
        signature = set(inspect.signature(obj).parameters)
        names = {
            n.strip()
            for mark in getattr(obj, "pytestmark", [])
            if mark.name == "parametrize"
            for n in (mark.args[0].split(",") if isinstance(mark.args[0], str) else mark.args[0])
        }
        extra = sorted(names - signature)
        if extra:
            pytest.mark.usefixtures(*extra)(obj)
    yield


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Under --agent=near-miss a task runs once per near miss, its label in the test id."""
    spec = spec_of(metafunc.function)
    if spec is None or mobile_session(metafunc.config).options.agent != "near-miss":
        return
    labels = list(spec.near_misses())
    if labels and NEAR_MISS_ARG in metafunc.fixturenames:
        metafunc.parametrize(NEAR_MISS_ARG, labels, ids=labels)


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    seen: set[str] = set()
    for item in items:
        spec = spec_of(getattr(item, "obj", None))
        if spec is None:
            continue
        params = dict(getattr(getattr(item, "callspec", None), "params", {}))
        name = task_name(spec, getattr(item, "originalname", item.name), params)
        try:
            instance = instantiate(spec, name, params)
        except TaskDefinitionError as exc:  # this test fails alone (task_errors.py); the others run
            item.stash[task_errors.MALFORMED_KEY] = task_errors.malformed(item, name, exc)
            continue
        item.stash[TASK_KEY] = instance
        for marker in sorted({*(app_marker(a) for a in spec.apps), instance.difficulty, *spec.tags}):
            if marker not in seen:
                config.addinivalue_line("markers", f"{marker}: mobile task group")
                seen.add(marker)
            item.add_marker(marker)
        if spec.online:
            item.add_marker("online")
        if instance.near_miss:
            item.add_marker("near_miss")
    mobileagentbench.borrow_golden(items)
    if seen and not mobile_session(config).options.agent:
        raise pytest.UsageError(
            "these tests are mobile-agent tasks: choose the agent with --agent=NAME (oracle, noop, random), "
            "--agent=path/to/agent.py or --agent=package.module:attr"
        )


def pytest_sessionstart(session: pytest.Session) -> None:
    """--devices=emulator:AVD*N: the instances boot before any worker starts."""
    mobile = mobile_session(session.config)
    if mobile.options.agent and not mobile.is_worker and not session.config.option.collectonly:
        mobile.boot_emulators()


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node: Any) -> None:
    """The xdist controller hands the emulators it booted to each worker."""
    serials = mobile_session(node.config).emulators
    if serials:
        node.workerinput["mobile_emulators"] = serials


@pytest.hookimpl(optionalhook=True)  # xdist's hooks: the plugin also runs without xdist
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """`-n auto` = the number of devices (for virtual devices: xdist's own choice, the CPUs)."""
    # xdist asks in pytest_cmdline_main, before pytest_configure has made the session.
    session = config.stash.get(SESSION_KEY, None) or MobileSession(config, Options.from_config(config))
    if session.options.devices in (None, "virtual"):
        return None
    if session.options.devices.startswith("emulator:"):
        from pytest_mobile_agent.device.emulators import parse

        return parse(session.options.devices)[1]
    return len(session.make_pool().source.online())


@pytest.hookimpl(optionalhook=True, tryfirst=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """Episodes differ in length a hundredfold (one agent clears a task in two steps, another
    wanders to its budget), so xdist's default `load` split leaves a worker idle while another
    still has a queue. Unless `--dist` was chosen, the longest tasks go first and workers steal
    queued tasks (parallel/scheduler.py)."""
    from pytest_mobile_agent.parallel.scheduler import LongestFirstScheduling, StaggeredWorkers, steals_work

    if not steals_work(config, mobile_session(config).options.agent):
        return None
    staggered = config.pluginmanager.get_plugin(StaggeredWorkers.NAME)
    return LongestFirstScheduling(config, log, staggered.weights if staggered is not None else None)


@pytest.hookimpl(optionalhook=True)
def pytest_handlecrashitem(crashitem: str, report: pytest.TestReport, sched: Any) -> None:
    """An xdist worker died while running `crashitem`: record the attempt as infrastructure
    (the controller writes its results line) and run it again while --mobile-retries allows."""
    session = mobile_session(sched.config)
    if not session.options.agent:
        return
    record = infrastructure.crash_record(crashitem, str(report.longrepr))
    session.records.append(record)
    if session.options.results:
        results.append(session.options.results, record)
    setattr(report, infrastructure.REPORT_FLAG, True)
    session.crashes[crashitem] = session.crashes.get(crashitem, 0) + 1
    if session.crashes[crashitem] <= session.options.retries:
        try:
            sched.mark_test_pending(crashitem)
        except NotImplementedError:  # --dist each/loadscope/loadfile cannot queue one test again
            return
        report.outcome = "rerun"  # type: ignore[assignment]


def pytest_report_teststatus(report: pytest.TestReport) -> tuple[str, str, str] | None:
    if report.outcome == "rerun":  # a crashed worker's task, queued again
        return "rerun", "R", "RERUN"
    return None


@pytest.hookimpl(tryfirst=True)
def pytest_runtestloop(session: pytest.Session) -> None:
    """Everything alive now (modules, plugins, collected items) lives to the end of the session:
    freeze it out of the garbage collector's sight. pytest runs five full collections at the end
    of every session (to surface unraisable exceptions), and in each process they would
    otherwise walk this whole heap again."""
    gc.freeze()


# -- the episode ----------------------------------------------------------------------------------
@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    task_errors.fail_if_malformed(item)  # before any fixture touches a device


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> bool | None:
    """Run a task; after an infrastructure error, once more on another device."""
    if TASK_KEY not in item.stash:
        return None
    retries = mobile_session(item.config).options.retries
    item.ihook.pytest_runtest_logstart(nodeid=item.nodeid, location=item.location)
    for attempt in range(retries + 1):
        if EPISODE_KEY in item.stash:
            del item.stash[EPISODE_KEY]  # set again by this attempt's episode, once it ran
        reports = runtestprotocol(item, nextitem=nextitem, log=False)
        if attempt == retries or not any(infrastructure.flagged(r) for r in reports):
            break
        for report in reports:  # the lost attempt, reported now: the worker may die before the end
            if report.failed:
                report.outcome = "rerun"  # type: ignore[assignment]
            item.ihook.pytest_runtest_logreport(report=report)
        item._initrequest()  # type: ignore[attr-defined]  # fresh fixtures for the retry
    for report in reports:
        item.ihook.pytest_runtest_logreport(report=report)
    item.ihook.pytest_runtest_logfinish(nodeid=item.nodeid, location=item.location)
    return True


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo) -> Any:
    """A task's failure in any phase is infrastructure when its device was lost (see
    infrastructure.py): flag the report (the retry follows it), give the device up, and record
    the attempt when no episode ran (a reset, a precondition fixture, the launch)."""
    report = (yield).get_result()
    task = item.stash.get(TASK_KEY, None)
    if task is None or not report.failed or call.excinfo is None:
        return
    episode = item.stash.get(EPISODE_KEY, None)
    if call.excinfo.errisinstance(AgentError) and episode is not None and episode.traceback:
        # The harness's frames are hidden; the agent's own are what its author needs.
        report.longrepr = f"AgentError: {episode.error}\n\nThe agent's traceback:\n{episode.traceback.rstrip()}"
        return
    if call.excinfo.errisinstance(TaskError):
        report.longrepr = f"TaskError: {call.excinfo.value}"  # the reason alone: no harness frames
        return
    pool = getattr(item, "funcargs", {}).get("mobile_pool")
    if not infrastructure.is_infrastructure(call.excinfo.value, pool):
        return
    setattr(report, infrastructure.REPORT_FLAG, True)
    infrastructure.give_up_if_lost(pool, call.excinfo.value)
    if call.excinfo.errisinstance(InfrastructureError):  # raised by the harness, whose frames are hidden
        report.longrepr = f"InfrastructureError: {call.excinfo.value}"
    if call.when == "teardown":  # after the verdict (or after a flagged setup): the verdict stands
        report.outcome, report.longrepr = "passed", None
        report.sections.append(("mobile-agent", f"device lost during teardown: {call.excinfo.value}"))
    elif EPISODE_KEY not in item.stash:
        serial = pool.lost[-1] if pool is not None and pool.lost else "?"
        error = f"{call.when}: {infrastructure.one_line(str(call.excinfo.value))}"
        episode = _record_unrun(item, serial, INFRASTRUCTURE, error)  # type: ignore[arg-type]
        episode.reset_s = call.duration if call.when == "setup" else 0.0


def _record_unrun(item: pytest.Function, serial: str, termination: str, error: str) -> Episode:
    """The results line of an attempt that ended before its episode could start."""
    session = mobile_session(item.config)
    the_agent, task = session.get_agent(), item.stash[TASK_KEY]
    name, model = getattr(the_agent, "name", type(the_agent).__name__), getattr(the_agent, "model", None)
    episode = Episode(task, name, model, serial, task.budget(session.options.step_factor))
    episode.termination, episode.error = termination, error
    episode.success, episode.failure_message = False, error
    episode.retried = any(key == RECORD_PROPERTY for key, _ in item.user_properties)
    item.stash[EPISODE_KEY] = episode
    _finish(item, session, episode)
    return episode


@pytest.hookimpl(tryfirst=True)
def pytest_pyfunc_call(pyfuncitem: pytest.Function) -> bool | None:
    __tracebackhide__ = True
    task = pyfuncitem.stash.get(TASK_KEY, None)
    if task is None:
        return None
    session = mobile_session(pyfuncitem.config)
    opts = session.options
    funcargs = pyfuncitem.funcargs
    dev, tree, log, the_agent = funcargs["device"], funcargs["ui"], funcargs["events"], funcargs["agent"]
    pool = funcargs.get("mobile_pool") or pyfuncitem._request.getfixturevalue("mobile_pool")
    argnames = pyfuncitem._fixtureinfo.argnames

    def call_body(view: Any) -> None:
        pyfuncitem.obj(**{n: view if n == "events" else funcargs[n] for n in argnames})

    judges = pyfuncitem.config.stash[judge_runner.PANEL_KEY]

    # The durable state when the agent starts; the body declares what it asked to change.
    from pytest_mobile_agent.changes import Changes

    durable = funcargs.get("changes") or Changes(dev)

    def judge(view: Any) -> tuple[bool, str]:
        if task.spec.judge_only:
            return False, "judged by its judges once the episode is over"
        try:
            call_body(view)
            return True, ""
        except Exception as exc:  # AssertionError = not yet; anything else too, until the final check
            return False, str(exc)

    t0 = time.perf_counter()
    try:
        if task.spec.launch:
            dev.launch(task.apps[0])
            dev._await_foreground(task.apps[0])
    except DeviceLost as exc:
        pool.give_up()
        raise InfrastructureError(str(exc)) from exc
    except InvalidAction:
        missing = task_errors.missing_apps(dev, task.apps)
        if not missing:
            raise
        error = f"{', '.join(missing)} is not installed on {dev.serial}"
        _record_unrun(pyfuncitem, dev.serial, TASK_ERROR, error)
        raise TaskError(f"{pyfuncitem.nodeid}: task {task.name!r}: {error}") from None
    log.mark()
    if task.spec.check_changes or "changes" in funcargs:
        durable.start()
    budget = task.budget(opts.step_factor)
    if getattr(the_agent, "name", None) == "near-miss":  # a near miss may add a step nobody asked for
        budget = max(budget, len(task.near_miss) + 1)  # + its "done"
    runner = EpisodeRunner(
        dev,
        the_agent,
        task,
        judge=judge,
        ui=tree,
        events=log,
        budget=budget,
        step_timeout=opts.step_timeout,
        max_invalid=opts.max_invalid,
        # Screenshots of every step only when a report keeps them; agents still get theirs.
        keep_screenshots=bool(opts.artifacts)
        or allure_report.results_dir(pyfuncitem.config) is not None
        or (bool(judges) and judges.needs_screenshots),
        judge_uses_events="events" in argnames or "mab_task" in argnames,
    )
    episode = runner.run()
    # Reset = the fixture's force-stop/clear/grants + the launch here, before the first step.
    episode.reset_s = pyfuncitem.stash.get(RESET_KEY, 0.0) + (time.perf_counter() - t0 - episode.wall_s)
    episode.retried = any(name == RECORD_PROPERTY for name, _ in pyfuncitem.user_properties)
    pyfuncitem.stash[EPISODE_KEY] = episode
    try:
        if episode.termination == ERROR and infrastructure.device_gone(pool):
            # The agent's own adb calls failed because the device died under them.
            episode.termination, episode.error = INFRASTRUCTURE, f"device {dev.serial} lost ({episode.error})"
        if episode.termination == INFRASTRUCTURE:
            infrastructure.give_up_if_lost(pool, episode.fault)
            raise InfrastructureError(f"{episode.error} (infrastructure, not the agent's failure)")
        if judges:
            inputs = judge_runner.inputs_for(pyfuncitem, task)
            episode.judges = judges.judge(episode, log, inputs, judge_runner.task_key(task))
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
            return True
        try:
            with dev.reading():
                durable.declared.clear()
                call_body(log)
                if task.spec.check_changes:
                    durable.nothing_else()
            episode.body_success = True
            votes = pyfuncitem.config.hook.pytest_mobile_agent_judge(
                item=pyfuncitem, episode=episode, ui=tree, events=log
            )
        except AssertionError as exc:
            episode.success = episode.body_success = False
            episode.failure_message = str(exc).split("\n")[0] or "the final state does not satisfy the task"
            episode.failure_detail = str(exc)
            raise
        except Exception as exc:
            if not infrastructure.is_infrastructure(exc, pool):
                raise
            episode.termination, episode.error = INFRASTRUCTURE, f"{type(exc).__name__}: {exc}"
            infrastructure.give_up_if_lost(pool, exc)
            raise InfrastructureError(f"{episode.error} (infrastructure, not the agent's failure)") from exc
        for passed, reason in votes:
            if not passed:
                episode.success = False
                episode.failure_message = f"judge: {reason}"
                raise AssertionError(f"judge: {reason}")
        episode.success = True
    finally:
        _finish(pyfuncitem, session, episode)
    return True


def _finish(item: pytest.Function, session: MobileSession, episode: Any) -> None:
    record = episode_record(episode, nodeid=item.nodeid, prices=session.prices())
    usage = getattr(item.funcargs.get("agent"), "episode_usage", None)  # the built-in model agents
    if callable(usage):
        apply_model_usage(record, usage())
    item.config.hook.pytest_mobile_agent_episode_metrics(episode=episode, record=record)
    if session.options.results:
        results.append(session.options.results, record)
    if session.options.artifacts:
        drawn = allure_report.results_dir(item.config) is not None  # frames drawn for Allure anyway
        folder = trajectory.write(session.options.artifacts, item.nodeid, episode, record, contact_sheet=drawn)
        record["artifacts"] = str(folder)
    item.user_properties.append((RECORD_PROPERTY, record))
    try:
        item.config.hook.pytest_mobile_agent_episode_finished(item=item, episode=episode, record=record)
    finally:
        draw.forget(episode)  # annotated frames shared by the trajectory folder and Allure


# -- reporting (the controller sees every worker's reports) ----------------------------------------
class SummaryReporter:
    """Collects episode records from call reports (xdist ships user_properties to the
    controller), prints the table and appends the aggregate to the results file."""

    def __init__(self, session: MobileSession) -> None:
        self.session = session
        self._taken: dict[tuple[str, str | None], int] = {}  # records taken per (node id, worker)

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        """A teardown report carries the records of its item's attempts so far in that process
        (those lost in setup too); an attempt lost to the infrastructure is reported at once."""
        if report.when != "teardown":
            return
        records = [v for k, v in report.user_properties if k == RECORD_PROPERTY]
        gateway = getattr(getattr(report, "node", None), "gateway", None)
        key = (report.nodeid, getattr(gateway, "id", None))
        self.session.records.extend(records[self._taken.get(key, 0) :])
        self._taken[key] = len(records)

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        records = self.session.records
        if not records:
            return
        terminalreporter.write_sep("=", f"mobile agent summary ({len(records)} episodes)")
        for line in terminal.table(summarize(records)):
            terminalreporter.write_line(line)
        for line in infrastructure.summary_lines(records):
            terminalreporter.write_line(line, yellow=True)
        judge_runner.summary(records, terminalreporter)
        if self.session.options.results:
            terminalreporter.write_line(f"results: {os.fspath(self.session.options.results)}")

    def pytest_sessionfinish(self) -> None:
        if self.session.options.results and self.session.records:
            results.append(self.session.options.results, summarize(self.session.records))
        if self.session.options.artifacts and self.session.records:
            plots.success_plot(self.session.records, self.session.options.artifacts / plots.PLOT_NAME)
