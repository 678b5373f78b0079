"""MobileAgentBench task files run unchanged, in the shape the benchmark ships them: a
`mobile_agent_benchmark` package whose `tasks/` modules import `..bench_task`, `..server`,
`.task_utils` and each other relatively. The package here is a look-alike written for this test
(the benchmark's own files have no licence): run from its checkout, installed, and as a lone file.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

CALC = "com.simplemobiletools.calculator"

BENCH_TASK = """
import re
import subprocess


class Task(object):
    def __init__(self, task_name, prompt, min_steps, package, max_steps=20, stop_after_finish=False, permissions=[]):
        self.task_name, self.prompt, self.min_steps, self.package = task_name, prompt, min_steps, package
        self.max_steps, self.stop_after_finish, self.permissions = max_steps, stop_after_finish, permissions
        self.finished = False

    def get_top_activity_name(self, timeout=60):
        out = subprocess.run(["adb", "shell", "dumpsys", "-t", str(timeout), "activity", "top"], capture_output=True,
                             text=True, check=True).stdout
        found = re.findall(r"ACTIVITY (\\S+) \\w+ pid=\\d+", out)
        return found[-1] if found else None

    def setup(self, view_client):
        return

    def teardown(self, view_client):
        return

    def check_finish(self, view_client, app_event):
        raise NotImplementedError
"""

SERVER = """
from enum import Enum


class AppEventType(Enum):
    Unknown = 0
    Click = 1
    WindowStateChange = 2


class AppEvent:
    def __init__(self):
        self.type = AppEventType.Unknown
        self.package = ""
        self.id_str = ""
        self.content_desc = ""
        self.text_list = []
"""

TASK_UTILS = '''
import os
import subprocess
import sys


def note_package(tag):
    """Tell the test which mobile_agent_benchmark package the task code got."""
    with open(os.environ["MAB_PROBE"], "a") as probe:
        probe.write(tag + " " + sys.modules["mobile_agent_benchmark"].__file__ + "\\n")


def back_to_app(view_client, package):
    subprocess.run(["adb", "shell", "input", "keyevent", "KEYCODE_HOME"], check=True)
    view_client.device.startActivity(package=package)  # cmd package resolve-activity --brief
'''

CALC_ADD = f'''
from ..bench_task import Task
from ..server import AppEvent, AppEventType
from . import task_utils


class CalcAdd(Task):
    def __init__(self, task_name="calc_add", prompt="Calculate the result of '3 + 5'", min_steps=4,
                 package="{CALC}", max_steps=8, stop_after_finish=False, permissions=[]):
        super().__init__(task_name, prompt, min_steps, package, max_steps, stop_after_finish, permissions)
        self.saw_eight = False

    def setup(self, view_client):
        task_utils.note_package(self.task_name)

    def check_finish(self, view_client, app_event: AppEvent) -> bool:
        result = view_client.findViewById("{CALC}:id/result")
        if result is not None and result.text().strip() == "8":
            self.saw_eight = True
        return (
            app_event is not None
            and app_event.type == AppEventType.Click
            and app_event.text_list == ["="]
            and self.saw_eight
        )

    def teardown(self, view_client):
        task_utils.back_to_app(view_client, self.package)
        top = self.get_top_activity_name()
        assert top is not None and top.startswith("{CALC}/"), f"top activity after teardown: {{top}}"
'''

# A task built on a sibling's class: only the subclass is this file's task.
CALC_ADD_AGAIN = """
from .calc_add import CalcAdd


class CalcAddAgain(CalcAdd):
    def __init__(self):
        super().__init__(task_name="calc_add_again")
"""

PYPROJECT = """
[build-system]
requires = ["setuptools>=61.0"]
build-backend = "setuptools.build_meta"

[project]
name = "mobile_agent_benchmark"
version = "0.0.1"

[tool.setuptools.packages.find]
where = ["src"]
"""

TAPPER = """
from pytest_mobile_agent import Done, Tap


class Agent:
    name = "tapper"

    def step(self, observation):
        keys = ["3", "+", "5", "="]
        i = len(observation.history)
        return Tap(text=keys[i]) if i < len(keys) else Done()
"""


def write_lookalike(root: Path) -> Path:
    """The look-alike checkout; returns its tasks folder."""
    package = root / "src" / "mobile_agent_benchmark"
    files = {
        root / "pyproject.toml": PYPROJECT,
        package / "__init__.py": "",
        package / "bench_task.py": BENCH_TASK,
        package / "server.py": SERVER,
        package / "tasks" / "__init__.py": '__all__ = ["calc_add", "calc_add_again"]\n',
        package / "tasks" / "task_utils.py": TASK_UTILS,
        package / "tasks" / "calc_add.py": CALC_ADD,
        package / "tasks" / "calc_add_again.py": CALC_ADD_AGAIN,
    }
    for path, text in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return package / "tasks"


@pytest.fixture
def lookalike(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> Path:
    (pytester.path / "tapper.py").write_text(TAPPER)
    monkeypatch.setenv("MAB_PROBE", str(pytester.path / "probe.txt"))
    return write_lookalike(pytester.path / "checkout")


def packages_used(pytester: pytest.Pytester) -> dict[str, str]:
    """task name -> the mobile_agent_benchmark/__init__.py its code imported."""
    lines = (pytester.path / "probe.txt").read_text().splitlines()
    return dict(line.split(" ", 1) for line in lines)


def test_checkout_not_installed_runs_with_its_own_package(run_tasks, pytester, lookalike):
    run = run_tasks({}, "--agent=tapper.py", str(lookalike))
    run.result.assert_outcomes(passed=2)  # teardowns included: no errors
    assert sorted(ep["task"] for ep in run.episodes) == ["calc_add", "calc_add_again"]
    own = str(lookalike.parent / "__init__.py")
    assert packages_used(pytester) == {"calc_add": own, "calc_add_again": own}


def test_installed_package_is_used_and_not_hidden(run_tasks, pytester, lookalike, monkeypatch):
    site = pytester.path / "site"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "-q",
            "--no-deps",
            "--no-build-isolation",
            "--target",
            str(site),
            str(lookalike.parent.parent.parent),
        ],
        check=True,
        capture_output=True,
        timeout=300,
    )
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")]))
    installed = site / "mobile_agent_benchmark"
    # The installed copy's own tasks, and the checkout's files while the package is installed.
    for tasks in (installed / "tasks", lookalike):
        (pytester.path / "probe.txt").unlink(missing_ok=True)
        run = run_tasks({}, "--agent=tapper.py", "-p", "no:randomly", str(tasks))
        run.result.assert_outcomes(passed=2)
        assert set(packages_used(pytester).values()) == {str(installed / "__init__.py")}


def test_a_lone_task_file_gets_the_stand_in_package(run_tasks, pytester, lookalike):
    lone = {"elsewhere/calc_add.py": CALC_ADD, "elsewhere/task_utils.py": TASK_UTILS}
    run = run_tasks(lone, "--agent=tapper.py", "elsewhere/calc_add.py")
    run.result.assert_outcomes(passed=1)
    (used,) = packages_used(pytester).values()
    assert Path(used).parent.name == "mab_package" and Path(used).parent.parent.name == "formats"
    failed = run_tasks({}, "--agent=noop", "elsewhere/calc_add.py")
    failed.result.assert_outcomes(failed=1)
    failed.result.stdout.fnmatch_lines(["*CalcAdd.check_finish never returned True*"])
