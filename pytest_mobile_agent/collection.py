"""Collecting tasks: the markers, each task's parameters bound (tasks.py's `instantiate`), the
near misses and the repeats as parameters, and malformed declarations.

A malformed declaration (a prompt placeholder with no parameter, `golden=42`, no prompt) is
found here and fails only its own test, at setup, before any device work; under xdist the one
worker that runs it reports it, so it is printed once. The session's other tasks still run.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable

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
    VARIATION_ARG,
    app_marker,
    instantiate,
    spec_of,
    task_name,
)
from pytest_mobile_agent.variations import declared_cases, draw, known_names

MALFORMED_KEY = pytest.StashKey[str]()  # the message of a task declaration that cannot run
NO_AGENT = (
    "these tests are mobile-agent tasks: choose the agent with --agent=NAME (oracle, noop, random), "
    "--agent=path/to/agent.py or --agent=package.module:attr"
)


def add_markers(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "mobile_task: a mobile-agent benchmark task (added by @task)")
    config.addinivalue_line("markers", "online: a task that needs an online app (skipped when it is not installed)")
    config.addinivalue_line("markers", "near_miss: a task that declares a near-miss path (for --agent=near-miss)")
    config.addinivalue_line("markers", "variations: a drawn variation of a task (under --mobile-variations)")
    config.addinivalue_line("markers", f"{mobileagentbench.FILE_MARKER}: a task from a MobileAgentBench task file")
    for level in DIFFICULTIES:
        config.addinivalue_line("markers", f"{level}: task difficulty")


def prepare_task(obj: object, session: MobileSession) -> Callable[[], None]:
    """A function about to be collected. When it is a task that will run, its device boots now,
    while collection goes on. Parameters it uses only in its prompt or golden path need not be
    body arguments: they are declared as used fixtures, so pytest accepts the parametrization.
    Returns what undoes the marks that hold for this session only (call it once collected)."""
    spec = spec_of(obj)
    if spec is None or not callable(obj):
        return lambda: None
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
    if not (session.options.variations and spec.variations and not names):
        return lambda: None
    # A task without parameters gets the drawn names as parameters: those only its prompt or
    # golden path reads are used fixtures too, for this session only (another may not draw).
    before = list(getattr(obj, "pytestmark", []))
    try:
        drawn = draw(
            spec,
            task_name(spec, getattr(obj, "__name__", ""), {}),
            {},
            1,
            session.options.seed,
            known_names(spec, obj, []),
        )
    except TaskDefinitionError:
        return lambda: None  # pytest_generate_tests reports it on the task's own items
    if extra := sorted(set(drawn) - signature):
        pytest.mark.usefixtures(*extra)(obj)

    def restore() -> None:
        obj.pytestmark = before  # type: ignore[attr-defined]

    return restore


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


class BadVariations:
    """What a task's items carry instead of a variation number when its variations cannot be
    drawn: the message it fails with, alone."""

    def __init__(self, message: str) -> None:
        self.message = message

    def __repr__(self) -> str:
        return "<variations that cannot be drawn>"


def parametrize_variations(metafunc: pytest.Metafunc, options: Options) -> None:
    """Under --mobile-variations=N a task with variations runs N drawn variations of each of
    its declared cases instead of the case itself (pytest_mobile_agent/variations.py), ids
    `<case id>-v1`..`-vN`. Runs before pytest applies the function's parametrize marks, which
    it takes over."""
    spec = spec_of(metafunc.function)
    if spec is None or spec.variations is None or not options.variations or VARIATION_ARG not in metafunc.fixturenames:
        return
    definition = metafunc.definition
    marks = [m for m in definition.own_markers if m.name == "parametrize"]
    count = options.variations
    try:
        names, cases = declared_cases(marks)
        known = known_names(spec, metafunc.function, names)
        argnames: list[str] = list(names)
        params = []
        for case in cases:
            name = task_name(spec, metafunc.function.__name__, case.values)
            for i in range(1, count + 1):
                drawn = draw(spec, name, case.values, i, options.seed, known)
                if not names:  # no declared parameters: the drawn names become the parameters
                    argnames = argnames or sorted(drawn)
                    if sorted(drawn) != argnames:
                        raise TaskDefinitionError(
                            f"variation {i} gives {', '.join(sorted(drawn))}, variation 1 gave {', '.join(argnames)}: "
                            "every variation must give the same parameters"
                        )
                values = {**case.values, **drawn}
                case_id = f"{case.id}-v{i}" if case.id else f"v{i}"
                params.append(pytest.param(*(values[n] for n in argnames), i, id=case_id, marks=case.marks))
    except TaskDefinitionError as exc:  # its items fail alone (bind_tasks), the declared cases as ids
        metafunc.parametrize(VARIATION_ARG, [BadVariations(str(exc))], ids=["v1"])
        return
    for mark in marks:  # the drawn cases replace the declared ones
        definition.own_markers.remove(mark)
    metafunc.parametrize([*argnames, VARIATION_ARG], params)


def bind_tasks(config: pytest.Config, items: list[pytest.Item], options: Options) -> None:
    """Each task item's task with its parameters bound, and its markers (apps, difficulty, tags)."""
    seen: set[str] = set()
    for item in items:
        spec = spec_of(getattr(item, "obj", None))
        if spec is None:
            continue
        params = dict(getattr(getattr(item, "callspec", None), "params", {}))
        name = task_name(spec, getattr(item, "originalname", item.name), params)
        bad = params.get(VARIATION_ARG)
        if isinstance(bad, BadVariations):
            item.stash[MALFORMED_KEY] = f"malformed task {name!r} in {item.nodeid}: {bad.message}"
            continue
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
        if instance.variation is not None:
            item.add_marker("variations")
    mobileagentbench.borrow_golden(items)
    if seen and not options.runs_tasks:
        raise pytest.UsageError(NO_AGENT)


def fail_if_malformed(item: pytest.Item) -> None:
    message = item.stash.get(MALFORMED_KEY, None)
    if message is not None:
        pytest.fail(message, pytrace=False)
