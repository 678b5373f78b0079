"""Run MobileAgentBench task files unchanged.

A file that defines a subclass of MobileAgentBench's `Task` (`check_finish(view_client,
app_event)`, `setup`, `teardown`, prompt, min/max steps, package, permissions) is collected as
one test per class. As in MobileAgentBench's orchestrator: the app is cleared, granted and
started, `setup(view_client)` runs, then after every step `check_finish` sees a fresh
AndroidViewClient dump (with `app_event=None`) and every click / window event; once it has
returned True the task stays finished. `view_client` is AndroidViewClient on the leased
device, and `adb` commands in the task reach that device (ANDROID_SERIAL is set).

Task files import `Task` and the event types relatively (`from ..bench_task import Task`), so
each is loaded as `mobile_agent_benchmark.tasks.<file name>`, its folder added to that
package's path (siblings like `task_utils` resolve). The `mobile_agent_benchmark` package is
the installed one if there is one, else the one the task files sit in (a checkout of the
benchmark: `.../mobile_agent_benchmark/tasks/x.py` next to `bench_task.py`), else this
plugin's stand-in (`formats/mab_package`).
"""

from __future__ import annotations

import dataclasses
import hashlib
import importlib
import importlib.util
import os
import re
import sys
import types
from pathlib import Path
from typing import Any

import pytest

from pytest_mobile_agent.events.log import CLICKED, WINDOW_STATE
from pytest_mobile_agent.formats.task_file import repeats
from pytest_mobile_agent.tasks import TASK_KEY, TaskInstance, TaskSpec, app_marker, difficulty_for

MAB_CLASS_KEY = pytest.StashKey[type]()
PACKAGE = "mobile_agent_benchmark"
FILE_MARKER = "mobileagentbench_file"
STANDIN = Path(__file__).with_name("mab_package")
_MARKERS = re.compile(r"def\s+check_finish\s*\(")
_CLASS = re.compile(r"^class\s+\w+\s*\(", re.MULTILINE)
# MobileAgentBench ran its tasks one after another on one emulator. File Manager's all-files
# access, an app op that `pm clear` keeps, stayed granted once the first File Manager setup had
# granted it (task_utils.filemanager_permissions); filemanager_hide_folder's setup relies on that
# and does not ask. Each task here starts from a reset device, so that access is granted up front.
CARRIED_GRANTS = {"com.simplemobiletools.filemanager.pro": ("android.permission.MANAGE_EXTERNAL_STORAGE",)}


# -- the mobile_agent_benchmark package ---------------------------------------------------------
def _checkout_root(task_file: Path) -> Path | None:
    """The benchmark package a task file sits in, if it sits in one (`<root>/tasks/<file>`)."""
    root = task_file.parent.parent
    if task_file.parent.name == "tasks" and root.name == PACKAGE and (root / "bench_task.py").is_file():
        return root
    return None


def _load_package_from(root: Path) -> types.ModuleType:
    spec = importlib.util.spec_from_file_location(PACKAGE, root / "__init__.py", submodule_search_locations=[str(root)])
    return _exec_registered(spec)


def _exec_registered(spec: importlib.machinery.ModuleSpec | None) -> types.ModuleType:
    """Run a module registered in sys.modules under its spec's name (so its relative imports
    resolve), leaving no half-imported module behind when it raises."""
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[spec.name]
        raise
    return module


def benchmark_package(task_file: Path | None = None) -> types.ModuleType:
    """`mobile_agent_benchmark`, imported once per process: installed, else the task files'
    checkout, else the stand-in."""
    if PACKAGE in sys.modules:
        return sys.modules[PACKAGE]
    if importlib.util.find_spec(PACKAGE) is not None:
        return importlib.import_module(PACKAGE)
    root = _checkout_root(task_file) if task_file else None
    return _load_package_from(root or STANDIN)


def load_task_file(path: Path) -> types.ModuleType:
    """Import a task file as `mobile_agent_benchmark.tasks.<stem>` (relative imports work)."""
    benchmark_package(path)
    tasks = importlib.import_module(PACKAGE + ".tasks")
    folder = str(path.parent)
    if folder not in tasks.__path__:
        tasks.__path__.insert(0, folder)  # the files being run shadow same-named installed ones
    name = f"{PACKAGE}.tasks.{path.stem}"
    loaded = sys.modules.get(name)
    if loaded is not None:
        if Path(loaded.__file__ or "").resolve() == path.resolve():
            return loaded  # already imported by a sibling (`from .calendar_laundry import ...`)
        digest = hashlib.sha1(str(path.resolve()).encode()).hexdigest()[:8]
        name = f"{PACKAGE}.tasks._{digest}_{path.stem}"  # same name, other folder
    return _exec_registered(importlib.util.spec_from_file_location(name, path))


def task_base() -> type:
    return importlib.import_module(PACKAGE + ".bench_task").Task


def to_app_event(ev: Any) -> Any:
    """Our stream's event as MobileAgentBench's listener reported it (clicks and window changes)."""
    server = importlib.import_module(PACKAGE + ".server")
    kind = {CLICKED: server.AppEventType.Click, WINDOW_STATE: server.AppEventType.WindowStateChange}.get(ev.type)
    if kind is None:
        return None
    out = server.AppEvent()
    out.type, out.package = kind, ev.package
    out.id_str, out.content_desc = ev.view_id or "", ev.content_description or ""
    out.text_list = list(ev.text)
    return out


# -- collection ----------------------------------------------------------------------------------
def is_task_file(path: Path) -> bool:
    """A file defining a Task subclass: one with `check_finish` that names `bench_task`, or any
    module with a class in a benchmark checkout's `tasks/` (a task may subclass a sibling's)."""
    name = path.name
    if path.suffix != ".py" or name.startswith(("test_", "conftest", "__init__")) or name.endswith("_test.py"):
        return False
    try:
        text = path.read_text(errors="replace")
    except OSError:
        return False
    if _checkout_root(path) is not None:
        return bool(_CLASS.search(text))
    return bool(_MARKERS.search(text)) and ("bench_task" in text or "mobileagentbench" in text)


class MobileAgentBenchFile(pytest.File):
    def collect(self):  # noqa: ANN201
        module = load_task_file(self.path)
        base = task_base()
        for attr, obj in vars(module).items():
            own = isinstance(obj, type) and obj.__module__ == module.__name__  # not one imported from a sibling
            if own and issubclass(obj, base) and obj is not base:
                for repeat in repeats(self.config):
                    yield _make_item(self, attr, obj, repeat)


def _make_item(parent: pytest.Collector, name: str, cls: type, repeat: int | None = None) -> pytest.Function:
    probe = cls()

    def test_mobileagentbench_task(mab_task: Any, ui: Any, events: Any) -> None:
        state = mab_task._pma_state
        _advance(state, ui, events)
        assert state["finished"], f"{cls.__name__}.check_finish never returned True"

    item_name = name if repeat is None else f"{name}[r{repeat}]"
    item = pytest.Function.from_parent(parent, name=item_name, callobj=test_mobileagentbench_task, originalname=name)
    spec = TaskSpec(
        prompt=probe.prompt,
        apps=(probe.package,),
        golden_steps=probe.min_steps,
        grants=(*probe.permissions, *CARRIED_GRANTS.get(probe.package, ())),
        launch=False,
        max_steps=probe.max_steps,
        name=probe.task_name,
    )
    item.stash[MAB_CLASS_KEY] = cls
    difficulty = difficulty_for(probe.min_steps)
    item.stash[TASK_KEY] = TaskInstance(
        probe.task_name, spec, probe.prompt, (), probe.min_steps, difficulty, {}, repeat=repeat
    )
    known = {line.split(":")[0] for line in item.config.getini("markers")}
    for marker in (FILE_MARKER, app_marker(probe.package), difficulty):
        if marker not in known:
            item.config.addinivalue_line("markers", f"{marker}: mobile task group")
        item.add_marker(marker)
    for fixture in ("device", "agent"):
        if fixture not in item.fixturenames:
            item.fixturenames.append(fixture)
    return item


def borrow_golden(items: list[pytest.Item]) -> None:
    """Task files have no golden path: collected beside a suite (`pytest task_suites/mobileagentbench
    path/to/tasks -m mobileagentbench_file --agent=oracle`), each takes the golden path of the
    suite's task of the same name, so the oracle can replay it against the original check."""
    golden: dict[str, tuple] = {}
    for item in items:
        task = item.stash.get(TASK_KEY, None)
        # a drawn variation's path is for its own values, not the task file's
        if task is not None and task.golden and task.variation is None and MAB_CLASS_KEY not in item.stash:
            golden.setdefault(task_name(task), task.golden)
    for item in items:
        task = item.stash.get(TASK_KEY, None)
        if MAB_CLASS_KEY in item.stash and task is not None and not task.golden and task.name in golden:
            item.stash[TASK_KEY] = dataclasses.replace(task, golden=golden[task.name], golden_borrowed=True)


def task_name(task: TaskInstance) -> str:
    """A suite task's benchmark name: `name=` in @task, or a `name` parameter of its parametrization."""
    name = task.params.get("name")
    return name if isinstance(name, str) else task.name


def _advance(state: dict[str, Any], ui: Any, events: Any) -> None:
    """Feed check_finish what MobileAgentBench's orchestrator would have fed it so far."""
    task, vc = state["task"], state["vc"]
    if state["finished"]:
        return
    if ui.xml and ui.xml is not state["xml"]:
        state["xml"] = ui.xml
        vc.dump(sleep=0)
        if task.check_finish(vc, None):
            state["finished"] = True
            return
    seen = events.all()
    for ev in seen[state["seen"] :]:
        app_event = to_app_event(ev)
        if app_event is not None and task.check_finish(vc, app_event):
            state["finished"] = True
            break
    state["seen"] = max(state["seen"], len(seen))


@pytest.fixture
def mab_task(request: pytest.FixtureRequest, device: Any, events: Any) -> Any:
    """The MobileAgentBench Task object, set up on the leased device, torn down afterwards."""
    cls = request.node.stash[MAB_CLASS_KEY]
    os.environ["ANDROID_SERIAL"] = device.serial  # plain `adb shell ...` in task code reaches this device
    task = cls()
    device.launch(task.package)
    device._await_foreground(task.package)
    vc = device.view_client()
    vc.dump(sleep=0)
    task.setup(vc)
    # The orchestrator drops the events the setup caused: let them all arrive, so that the
    # episode's start (the events' mark) comes after them.
    events.sync()
    task._pma_state = {"task": task, "vc": vc, "xml": None, "seen": 0, "finished": False}
    yield task
    vc.dump(sleep=0)
    task.teardown(vc)
