"""What the task files of SPA-Bench (spabench.py) and Mobile-Bench (mobilebench.py) share:

- each row or entry becomes one test item carrying the benchmark's own fields: in the item's
  `user_properties` (JUnit XML shows them), in the results record (`extra.spa_bench` /
  `extra.mobile_bench`) and in Allure (a `benchmark` label, the scalar fields as parameters);
- the tasks have no body: `judge_only`, decided by the benchmark's judge (`spa`, `checkpoints`)
  named with `--mobile-judge`; without one they fail and the message names it;
- a task whose app is not installed is skipped with the package in the reason;
- the start state is the benchmark's: the app opened as SPA-Bench opens it, or HOME;
- a malformed file fails alone, as one item with one message; a malformed row or entry fails
  alone too, and the file's other tasks still run.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from pytest_mobile_agent.actions import InvalidAction
from pytest_mobile_agent.errors import TaskError
from pytest_mobile_agent.options import options_of
from pytest_mobile_agent.tasks import TASK_KEY, TaskInstance, TaskSpec, app_marker

FIELDS_KEY = "fields"  # TaskSpec.extra: the benchmark's own fields, as the file has them


class TaskFileError(ValueError):
    """A task file (or one of its rows) that cannot be read; the message says what is wrong."""


@dataclass(frozen=True)
class FileTask:
    """One task of another benchmark's file, ready to become a test item."""

    name: str
    benchmark: str  # "SPA-Bench", "Mobile-Bench"
    record_key: str  # where its fields go in the record's `extra`
    prompt: str
    apps: tuple[str, ...]
    golden_steps: int  # 0: the benchmark gives none
    difficulty: str
    judge: str  # the benchmark's judge, named when none is configured
    fields: dict[str, Any]
    judge_inputs: dict[str, Any] = field(default_factory=dict)
    markers: tuple[str, ...] = ()
    max_steps: int | None = None  # None: the step factor x golden steps
    start: tuple[str, str] | None = None  # (package, activity) to open first; None: HOME
    apis: tuple[str, ...] = ()
    line: int = 0  # where the row or entry starts in the file, for reports


@dataclass(frozen=True)
class BadRow:
    """A row or entry that cannot run: its own item fails with the message (or, `skip`, is
    skipped with it: a task that is well formed but cannot run here)."""

    name: str
    message: str
    skip: bool = False
    line: int = 0


class MalformedItem(pytest.Item):
    """A file, row or entry that cannot be read: fails with its one message (or, for a row
    that is well formed but cannot run here, is skipped with it)."""

    def __init__(self, *, message: str, skip: bool = False, line: int = 0, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.message, self.skip, self.line = message, skip, line

    def runtest(self) -> None:
        if self.skip:  # reported at the item's line in its file, like a skip marker's
            raise pytest.skip.Exception(self.message, _use_item_location=True)
        pytest.fail(self.message, pytrace=False)

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, max(0, self.line - 1), f"{self.path.name}::{self.name}"


class BenchmarkFile(pytest.File):
    """A benchmark's task file: `read()` gives its tasks (or raises TaskFileError for the file)."""

    def read(self) -> list[FileTask | BadRow]:
        raise NotImplementedError

    def collect(self) -> Iterator[pytest.Item]:
        try:
            tasks = self.read()
        except TaskFileError as exc:
            yield MalformedItem.from_parent(self, name="malformed", message=f"{self.path}: {exc}")
            return
        seen: set[str] = set()
        for task in tasks:
            name = task.name
            if name in seen:
                task, name = BadRow(f"{name}-again", f"task {name!r} appears twice in the file"), f"{name}-again"
            seen.add(name)
            if isinstance(task, BadRow):
                message = task.message if task.skip else f"{self.path}: {task.message}"
                yield MalformedItem.from_parent(self, name=task.name, message=message, skip=task.skip, line=task.line)
            else:
                for repeat in repeats(self.config):
                    yield make_item(self, task, repeat)


class FileTaskItem(pytest.Function):
    """A task file's row or entry; reports point at the file and its line."""

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, self.stash[LINE_KEY], f"{self.path.name}::{self.name}"


LINE_KEY = pytest.StashKey[int]()


def _file_task(benchmark_start: Any, device: Any, ui: Any, events: Any, agent: Any) -> None:
    """A task file's task: no body, its benchmark's judge decides (judge_only)."""


def repeats(config: pytest.Config) -> list[int | None]:
    """Which runs of each task file's task to collect: [None] alone, else 1..K under
    --mobile-repeat=K (named like a parametrized test's: `name[r1]`...)."""
    k = options_of(config).repeat
    return [None] if k < 2 else list(range(1, k + 1))


def make_item(parent: pytest.Collector, task: FileTask, repeat: int | None = None) -> pytest.Function:
    spec = TaskSpec(
        prompt=task.prompt,
        apps=task.apps,
        golden_steps=task.golden_steps,
        difficulty=task.difficulty,
        launch=False,
        max_steps=task.max_steps,
        name=task.name,
        judge_only=True,
        check_changes=False,
        skip_missing=f"{task.benchmark} task {task.name}",
        extra={
            "judge": task.judge,
            "benchmark": task.benchmark,
            "record_key": task.record_key,
            "start": task.start,
            FIELDS_KEY: task.fields,
        },
    )
    name = task.name if repeat is None else f"{task.name}[r{repeat}]"
    item = FileTaskItem.from_parent(parent, name=name, callobj=_file_task, originalname=task.name)
    item.stash[LINE_KEY] = max(0, task.line - 1)  # reportinfo's lines count from 0
    item.stash[TASK_KEY] = TaskInstance(
        task.name,
        spec,
        task.prompt,
        (),
        task.golden_steps,
        task.difficulty,
        {},
        judge_inputs=dict(task.judge_inputs),
        apis=task.apis,
        repeat=repeat,
    )
    item.user_properties.append((task.record_key, task.fields))
    known = {line.split(":")[0] for line in item.config.getini("markers")}
    for marker in (*task.markers, *(app_marker(a) for a in task.apps), task.difficulty):
        if marker not in known:
            item.config.addinivalue_line("markers", f"{marker}: mobile task group")
            known.add(marker)
        item.add_marker(marker)
    return item


def start_app(device: Any, package: str, activity: str) -> None:
    """SPA-Bench's setup_app_activity: `am start -n package/activity`, else the launcher
    activity through monkey; then wait until the app has the focus (no fixed sleep)."""
    from pytest_mobile_agent.device.android import shell_quote

    started = False
    if activity:
        rc, out = device.sh_status(f"am start -n {shell_quote(f'{package}/{activity}')}")
        started = rc == 0 and "Error" not in out
    if not started:
        try:
            device.launch(package)
        except InvalidAction as exc:
            raise TaskError(f"cannot start {package}/{activity or '(launcher activity)'}: {exc}") from None
    device._await_foreground(package)


@pytest.fixture
def benchmark_start(request: pytest.FixtureRequest, device: Any) -> None:
    """The start state of a task file's task: its app opened the benchmark's way, or HOME."""
    task = request.node.stash[TASK_KEY]
    start = task.spec.extra.get("start")
    if start:
        start_app(device, *start)
    else:
        device.sh("input keyevent HOME")


def pytest_mobile_agent_episode_metrics(episode: Any, record: dict[str, Any]) -> None:
    extra = episode.task.spec.extra
    if FIELDS_KEY in extra:
        record["extra"][extra["record_key"]] = extra[FIELDS_KEY]


def pytest_mobile_agent_episode_finished(item: pytest.Item, episode: Any, record: dict[str, Any]) -> None:
    """Allure: the benchmark as a label, its scalar fields as parameters (lists as JSON)."""
    import json

    from pytest_mobile_agent.reporting.allure import _param, results_dir

    extra = episode.task.spec.extra
    if FIELDS_KEY not in extra or results_dir(item.config) is None:
        return
    import allure

    allure.dynamic.label("benchmark", extra["benchmark"])
    for key, value in extra[FIELDS_KEY].items():
        shown = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
        _param(key, shown[:500])
