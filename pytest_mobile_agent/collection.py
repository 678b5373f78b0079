"""Collecting tasks: the markers, each task's parameters bound (tasks.py's `instantiate`), the
near misses and the repeats as parameters, and malformed declarations.

A malformed declaration (a prompt placeholder with no parameter, `golden=42`, no prompt) is
found here and fails only its own test, at setup, before any device work; under xdist the one
worker that runs it reports it, so it is printed once. The session's other tasks still run.
"""

from __future__ import annotations

import inspect

import pytest

from pytest_mobile_agent.errors import TaskDefinitionError
from pytest_mobile_agent.formats import mobileagentbench
from pytest_mobile_agent.options import Mode, Options
from pytest_mobile_agent.session import MobileSession
from pytest_mobile_agent.tasks import (
    DIFFICULTIES,
    NEAR_MISS_ARG,
    REPEAT_ARG,
    TASK_KEY,
    app_marker,
    instantiate,
    spec_of,
    task_name,
)

MALFORMED_KEY = pytest.StashKey[str]()  # the message of a task declaration that cannot run
NO_AGENT = (
    "these tests are mobile-agent tasks: choose the agent with --agent=NAME (oracle, noop, random), "
    "--agent=path/to/agent.py or --agent=package.module:attr"
)


def add_markers(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "mobile_task: a mobile-agent benchmark task (added by @task)")
    config.addinivalue_line("markers", "online: a task that needs an online app (skipped when it is not installed)")
    config.addinivalue_line("markers", "near_miss: a task that declares a near-miss path (for --agent=near-miss)")
    config.addinivalue_line("markers", f"{mobileagentbench.FILE_MARKER}: a task from a MobileAgentBench task file")
    for level in DIFFICULTIES:
        config.addinivalue_line("markers", f"{level}: task difficulty")


def prepare_task(obj: object, session: MobileSession) -> None:
    """A function about to be collected. When it is a task that will run, its device boots now,
    while collection goes on. Parameters it uses only in its prompt or golden path need not be
    body arguments: they are declared as used fixtures, so pytest accepts the parametrization."""
    if spec_of(obj) is None or not callable(obj):
        return
    if session.options.runs_tasks:
        session.prepare_device()
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


def parametrize_near_misses(metafunc: pytest.Metafunc, options: Options) -> None:
    """Under --agent=near-miss a task runs once per near miss, its label in the test id."""
    spec = spec_of(metafunc.function)
    if spec is None or options.mode is not Mode.NEAR_MISS:
        return
    labels = list(spec.near_misses())
    if labels and NEAR_MISS_ARG in metafunc.fixturenames:
        metafunc.parametrize(NEAR_MISS_ARG, labels, ids=labels)


def parametrize_repeats(metafunc: pytest.Metafunc, options: Options) -> None:
    """Under --mobile-repeat=K a task runs K times, items of their own with ids r1..rK (each
    gets its own fixtures, so each starts from a fresh reset)."""
    if options.repeat < 2 or spec_of(metafunc.function) is None or REPEAT_ARG not in metafunc.fixturenames:
        return
    runs = range(1, options.repeat + 1)
    metafunc.parametrize(REPEAT_ARG, list(runs), ids=[f"r{k}" for k in runs])


def bind_tasks(config: pytest.Config, items: list[pytest.Item], options: Options) -> None:
    """Each task item's task with its parameters bound, and its markers (apps, difficulty, tags)."""
    seen: set[str] = set()
    for item in items:
        spec = spec_of(getattr(item, "obj", None))
        if spec is None:
            continue
        params = dict(getattr(getattr(item, "callspec", None), "params", {}))
        name = task_name(spec, getattr(item, "originalname", item.name), params)
        try:
            instance = instantiate(spec, name, params)
        except TaskDefinitionError as exc:  # this test fails alone (see the module docstring); the others run
            item.stash[MALFORMED_KEY] = f"malformed task {name!r} in {item.nodeid}: {exc}"
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
    if seen and not options.runs_tasks:
        raise pytest.UsageError(NO_AGENT)


def fail_if_malformed(item: pytest.Item) -> None:
    message = item.stash.get(MALFORMED_KEY, None)
    if message is not None:
        pytest.fail(message, pytrace=False)
