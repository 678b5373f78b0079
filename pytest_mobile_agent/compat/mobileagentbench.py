"""Run MobileAgentBench task files unchanged.

A file that defines a subclass of MobileAgentBench's `Task` (`check_finish(view_client,
app_event)`, `setup`, `teardown`, prompt, min/max steps, package, permissions) is collected as
one test per class. As in MobileAgentBench's orchestrator: the app is cleared, granted and
started, `setup(view_client)` runs, then after every step `check_finish` sees a fresh
AndroidViewClient dump (with `app_event=None`) and every click / window event; once it has
returned True the task stays finished. `view_client` is AndroidViewClient on the leased
device, and `adb` commands in the task reach that device (ANDROID_SERIAL is set).

If the real `mobile_agent_benchmark` package is not installed, small stand-ins for its
`bench_task` and `server` modules are provided so `from mobile_agent_benchmark.bench_task
import Task` works.
"""

from __future__ import annotations

import importlib.util
import os
import re
import sys
import types
from enum import Enum
from pathlib import Path
from typing import Any

import pytest

from ..events.log import CLICKED, WINDOW_STATE
from ..tasks import TaskInstance, TaskSpec, difficulty_for

MAB_CLASS_KEY = pytest.StashKey[type]()
_MARKERS = re.compile(r"def\s+check_finish\s*\(")


# -- stand-ins for mobile_agent_benchmark.bench_task / .server ----------------------------------
class AppEventType(Enum):
    Unknown = 0
    Click = 1
    WindowStateChange = 2


class AppEvent:
    def __init__(self) -> None:
        self.type = AppEventType.Unknown
        self.package = ""
        self.id_str = ""
        self.content_desc = ""
        self.text_list: list[str] = []

    def __str__(self) -> str:
        return (
            f"Event - type: {self.type}, id_str: {self.id_str!r}, text_list: {self.text_list}, package: {self.package}"
        )


class Task:
    def __init__(
        self,
        task_name: str,
        prompt: str,
        min_steps: int,
        package: str,
        max_steps: int = 20,
        stop_after_finish: bool = False,
        permissions: list[str] | None = None,
    ) -> None:
        self.task_name = task_name
        self.prompt = prompt
        self.min_steps = min_steps
        self.package = package
        self.max_steps = max_steps
        self.stop_after_finish = stop_after_finish
        self.permissions = list(permissions or [])
        self.current_step = 0
        self.action_logs: list[Any] = []
        self.finished = False

    def setup(self, view_client: Any) -> None:
        return None

    def teardown(self, view_client: Any) -> None:
        return None

    def check_finish(self, view_client: Any, app_event: Any) -> bool:
        raise NotImplementedError


def install_shims() -> None:
    """Make `mobile_agent_benchmark.bench_task` / `.server` importable if the real package is not."""
    if importlib.util.find_spec("mobile_agent_benchmark") is not None:
        return
    package = types.ModuleType("mobile_agent_benchmark")
    package.__path__ = []  # a package, so submodule imports resolve through sys.modules
    bench_task = types.ModuleType("mobile_agent_benchmark.bench_task")
    bench_task.Task = Task  # type: ignore[attr-defined]
    server = types.ModuleType("mobile_agent_benchmark.server")
    server.AppEvent, server.AppEventType = AppEvent, AppEventType  # type: ignore[attr-defined]
    tasks = types.ModuleType("mobile_agent_benchmark.tasks")
    tasks.__path__ = []
    for mod in (package, bench_task, server, tasks):
        sys.modules.setdefault(mod.__name__, mod)


def _task_bases() -> tuple[type, ...]:
    real = sys.modules.get("mobile_agent_benchmark.bench_task")
    return (Task,) if real is None or getattr(real, "Task", Task) is Task else (Task, real.Task)


def to_app_event(ev: Any) -> AppEvent | None:
    """Our stream's event as MobileAgentBench's listener reported it (clicks and window changes)."""
    server = sys.modules.get("mobile_agent_benchmark.server")
    cls_event = getattr(server, "AppEvent", AppEvent)
    cls_type = getattr(server, "AppEventType", AppEventType)
    kind = {CLICKED: cls_type.Click, WINDOW_STATE: cls_type.WindowStateChange}.get(ev.type)
    if kind is None:
        return None
    out = cls_event()
    out.type, out.package = kind, ev.package
    out.id_str, out.content_desc = ev.view_id or "", ev.content_description or ""
    out.text_list = list(ev.text)
    return out


# -- collection ----------------------------------------------------------------------------------
def is_task_file(path: Path) -> bool:
    if path.suffix != ".py" or path.name.startswith(("test_", "conftest")) or path.name.endswith("_test.py"):
        return False
    try:
        text = path.read_text(errors="replace")
    except OSError:
        return False
    return bool(_MARKERS.search(text)) and ("bench_task" in text or "mobileagentbench" in text)


class TaskFile(pytest.File):
    def collect(self):  # noqa: ANN201
        install_shims()
        name = "_mab_" + re.sub(r"\W", "_", str(self.path.with_suffix("")))
        spec = importlib.util.spec_from_file_location(name, self.path)
        assert spec and spec.loader
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
        bases = _task_bases()
        for attr, obj in vars(module).items():
            if isinstance(obj, type) and issubclass(obj, bases) and obj not in bases and obj.__module__ == name:
                yield _make_item(self, attr, obj)


def _make_item(parent: pytest.Collector, name: str, cls: type) -> pytest.Function:
    probe = cls()

    def test_mobileagentbench_task(mab_task: Any, ui: Any, events: Any) -> None:
        state = mab_task._pma_state
        _advance(state, ui, events)
        assert state["finished"], f"{cls.__name__}.check_finish never returned True"

    item = pytest.Function.from_parent(parent, name=name, callobj=test_mobileagentbench_task)
    spec = TaskSpec(
        prompt=probe.prompt,
        apps=(probe.package,),
        golden_steps=probe.min_steps,
        grants=tuple(probe.permissions),
        launch=False,
        max_steps=probe.max_steps,
        name=probe.task_name,
    )
    item.stash[MAB_CLASS_KEY] = cls
    from ..session import TASK_KEY

    item.stash[TASK_KEY] = TaskInstance(
        probe.task_name, spec, probe.prompt, (), probe.min_steps, difficulty_for(probe.min_steps), {}
    )
    for fixture in ("device", "agent"):
        if fixture not in item.fixturenames:
            item.fixturenames.append(fixture)
    return item


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
def mab_task(request: pytest.FixtureRequest, device: Any) -> Any:
    """The MobileAgentBench Task object, set up on the leased device, torn down afterwards."""
    cls = request.node.stash[MAB_CLASS_KEY]
    os.environ["ANDROID_SERIAL"] = device.serial  # plain `adb shell ...` in task code reaches this device
    task = cls()
    device.launch(task.package)
    device._await_foreground(task.package)
    vc = device.view_client()
    vc.dump(sleep=0)
    task.setup(vc)
    task._pma_state = {"task": task, "vc": vc, "xml": None, "seen": 0, "finished": False}
    yield task
    vc.dump(sleep=0)
    task.teardown(vc)
