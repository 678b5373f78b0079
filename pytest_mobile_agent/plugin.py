"""pytest hooks: the wiring. Options are in options.py, the session's state in session.py,
collection in collection.py, running a task in run.py, the summary in reporting/summary.py."""

from __future__ import annotations

import gc
import warnings
from collections.abc import Generator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from pluggy import Result

from pytest_mobile_agent import collection, hookspecs, redaction, run
from pytest_mobile_agent.fixtures import (  # noqa: F401  (fixtures)
    agent,
    changes,
    device,
    events,
    mobile_device,
    mobile_model,
    mobile_near_miss,
    mobile_pool,
    mobile_repeat,
    mobile_resets,
    mobile_variation,
    ui,
)
from pytest_mobile_agent.formats import mobileagentbench, registry, task_file
from pytest_mobile_agent.formats.mobileagentbench import mab_task  # noqa: F401  (fixture)
from pytest_mobile_agent.judges import runner as judge_runner
from pytest_mobile_agent.models import options as model_options
from pytest_mobile_agent.options import add_options, options_of
from pytest_mobile_agent.parallel import plugins as parallel
from pytest_mobile_agent.parallel.control import CONTROL_INPUT
from pytest_mobile_agent.parallel.warmstart import controller as warm_start
from pytest_mobile_agent.reporting import allure as allure_report
from pytest_mobile_agent.reporting import resume, screens
from pytest_mobile_agent.reporting.bundle import BundleWriter
from pytest_mobile_agent.reporting.summary import SummaryReporter
from pytest_mobile_agent.session import mobile_session

if TYPE_CHECKING:  # xdist's types, for its optional hooks
    from xdist.remote import Producer
    from xdist.scheduler.protocol import Scheduling
    from xdist.workermanage import WorkerController


def pytest_addhooks(pluginmanager: pytest.PytestPluginManager) -> None:
    pluginmanager.add_hookspecs(hookspecs)


def pytest_addoption(parser: pytest.Parser) -> None:
    add_options(parser)
    model_options.add_options(parser)
    judge_runner.add_options(parser)


def pytest_cmdline_main(config: pytest.Config) -> None:
    """Before anything configures: only the controller may clean the Allure results (before
    allure-pytest), and the warm process forks from a controller that has configured nothing.
    After xdist's hook (tryfirst), which turns -n into the workers' specs."""
    allure_report.take_over_cleaning(config)
    if warm_start.wanted(config, options_of(config)):
        warm_start.start(config)


def pytest_configure(config: pytest.Config) -> None:
    warm_start.configured_here = True
    # The key in use is kept out of everything written, whatever echoes it (redaction.py).
    redaction.register_env([config.getoption("mobile_model_key_env") or config.getini("mobile_model_key_env")])
    collection.add_markers(config)
    config.pluginmanager.register(task_file, "mobile-agent-task-files")  # SPA-Bench and Mobile-Bench task files
    session = mobile_session(config)
    session.check()  # a bad --agent, or a judge without its model, stops the run here with the reason
    parallel.register(config)
    if session.options.resume and session.options.results:
        config.pluginmanager.register(resume.Deselection(session.options.results), "mobile-agent-resume")
    alluredir = allure_report.results_dir(config)
    if alluredir is not None:
        config.pluginmanager.register(allure_report.AllureReport(session, alluredir), "mobile-agent-allure")
    if not session.is_worker:
        session.open_control_folder()
        allure_report.clean_once(config)
        SummaryReporter.register(session)
        BundleWriter.register(config)  # --mobile-bundle: the archive, when the session ends


# -- collection ---------------------------------------------------------------------------------
def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    """Other benchmarks' task files run as they are (formats/)."""
    return registry.collect_file(file_path, parent)


@pytest.hookimpl(tryfirst=True)
def pytest_pycollect_makemodule(module_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    """A task file named on the command line, which pytest would import as a test module (its
    relative imports would fail there), is collected as a task file only."""
    if mobileagentbench.is_task_file(module_path):
        return mobileagentbench.MobileAgentBenchFile.from_parent(parent, path=module_path)
    return None


@pytest.hookimpl(hookwrapper=True)
def pytest_pycollect_makeitem(collector: pytest.Collector, name: str, obj: object) -> Generator[None, None, None]:
    restore = collection.prepare_task(obj, mobile_session(collector.config))
    yield
    restore()


@pytest.hookimpl(hookwrapper=True, tryfirst=True)
def pytest_generate_tests(metafunc: pytest.Metafunc) -> Generator[None, None, None]:
    """Variations take over the task's parametrize marks before pytest applies them; near misses
    come before the task's own parameters, repeats after every other (the id ends in `-r{k}`)."""
    options = options_of(metafunc.config)
    collection.parametrize_variations(metafunc, options)
    collection.parametrize_near_misses(metafunc, options)
    yield
    collection.parametrize_repeats(metafunc, options)


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    collection.bind_tasks(config, items, options_of(config))


def pytest_report_header(config: pytest.Config) -> list[str]:
    """The device configuration the run sets at every reset, where it asks for one."""
    asked = options_of(config).configuration()
    return [f"mobile configuration: {asked}"] if asked else []


def pytest_sessionstart(session: pytest.Session) -> None:
    """--devices=emulator:AVD*N: the instances boot before any worker starts."""
    mobile_session(session.config).check_adb_on_path()
    mobile_session(session.config).boot_emulators()


# -- xdist (optional hooks: the plugin also runs without xdist) -----------------------------------
@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node: WorkerController) -> None:
    """The xdist controller hands the emulators it booted to each worker, and the folder where
    it says whether its agent holds control."""
    session = mobile_session(node.config)
    if session.emulators:
        node.workerinput["mobile_emulators"] = session.emulators
    if session.control_folder:
        node.workerinput[CONTROL_INPUT] = session.control_folder


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """`-n auto` = the number of devices; xdist asks in pytest_cmdline_main, before pytest_configure."""
    return mobile_session(config).device_count()


@pytest.hookimpl(optionalhook=True, tryfirst=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Producer) -> Scheduling | None:
    """Episodes differ in length a hundredfold (one agent clears a task in two steps, another
    wanders to its budget), so xdist's default `load` split leaves a worker idle while another
    still has a queue. Unless `--dist` was chosen, the longest tasks go first and workers steal
    queued tasks (parallel/scheduler.py)."""
    return parallel.make_scheduler(config, log)


@pytest.hookimpl(optionalhook=True)
def pytest_handlecrashitem(crashitem: str, report: pytest.TestReport, sched: Scheduling) -> None:
    """An xdist worker died while running `crashitem`: record the attempt as infrastructure
    (the controller writes its results line) and run it again while --mobile-retries allows."""
    run.worker_crashed(sched.config, crashitem, report, sched)


def pytest_report_teststatus(report: pytest.TestReport) -> tuple[str, str, str] | None:
    # An attempt lost to the infrastructure and run again (run.py): an outcome pytest's type lacks.
    if report.outcome == "rerun":  # type: ignore[comparison-overlap]
        return "rerun", "R", "RERUN"
    return None


@pytest.hookimpl(tryfirst=True)
def pytest_runtestloop(session: pytest.Session) -> None:
    """Everything alive now (modules, plugins, collected items) lives to the end of the session:
    freeze it out of the garbage collector's sight. pytest runs five full collections at the end
    of every session (to surface unraisable exceptions), and in each process they would
    otherwise walk this whole heap again."""
    gc.freeze()


# -- the task -------------------------------------------------------------------------------------
@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    collection.fail_if_malformed(item)  # before any fixture touches a device


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> bool | None:
    """Run a task; after an infrastructure error, once more on another device."""
    return run.run_with_retries(item, nextitem)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, Result[pytest.TestReport], None]:
    """A task's failure in any phase is the agent's, the task's or the infrastructure's (run.py)."""
    report = (yield).get_result()
    task_run = run.TaskRun.of(item)
    if task_run is not None:
        task_run.classify(call, report)
    if redaction.has_secret(str(report.longrepr)):  # an endpoint or an agent echoed the key
        report.longrepr = redaction.redact(str(report.longrepr))
    report.sections = redaction.redact(report.sections)


@pytest.hookimpl(trylast=True)
def pytest_unconfigure(config: pytest.Config) -> None:
    """allure-pytest writes its results itself: they are scrubbed of the key once every process
    has written (on the controller, or pytest alone)."""
    alluredir = allure_report.results_dir(config)
    if alluredir is not None and not hasattr(config, "workerinput"):
        redaction.scrub_files(alluredir)


@pytest.hookimpl(tryfirst=True)
def pytest_pyfunc_call(pyfuncitem: pytest.Function) -> bool | None:
    """The call phase of a task: its episode and verdict (run.py), in place of calling the body."""
    __tracebackhide__ = True
    task_run = run.TaskRun.of(pyfuncitem)
    if task_run is None:
        return None
    task_run.call()
    return True


@pytest.hookimpl(tryfirst=True)
def pytest_sessionfinish(session: pytest.Session) -> None:
    """Every report file this process has still to write is on disk before the session ends."""
    for error in screens.flush():
        warnings.warn(pytest.PytestWarning(f"pytest-mobile-agent could not write a report file: {error}"), stacklevel=1)
