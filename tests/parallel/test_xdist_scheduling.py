"""Under xdist, task sessions hand out tasks by work stealing unless --dist says otherwise."""

from __future__ import annotations

import pytest

SCHEDULER_REPORT = """
import os

def pytest_sessionfinish(session):
    dsession = session.config.pluginmanager.getplugin("dsession")
    if dsession is not None:  # the xdist controller
        with open(os.path.join(str(session.config.rootpath), "scheduler.txt"), "w") as f:
            f.write(type(dsession.sched).__name__)
"""


@pytest.mark.parametrize(
    "args, scheduler",
    [
        (("--agent=noop",), "LongestFirstScheduling"),  # tasks: the longest first, then workers steal
        (("--agent=noop", "--dist", "load"), "LoadScheduling"),  # the user's choice stands
        (("--agent=noop", "--dist=loadfile"), "LoadFileScheduling"),
        ((), "LoadScheduling"),  # no agent, no tasks: xdist's default
    ],
)
def test_task_sessions_steal_work_unless_dist_is_chosen(
    pytester: pytest.Pytester, args: tuple[str, ...], scheduler: str
) -> None:
    pytester.makeconftest(SCHEDULER_REPORT)
    pytester.makepyfile(test_nothing="def test_a(): pass\ndef test_b(): pass")
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-n", "2", *args)
    result.assert_outcomes(passed=2)
    assert (pytester.path / "scheduler.txt").read_text() == scheduler


WORKERS_REPORT = """
import os

def pytest_sessionfinish(session):
    if hasattr(session.config, "workerinput"):
        with open(os.path.join(str(session.config.rootpath), "ran-" + os.environ["PYTEST_XDIST_WORKER"]), "a") as f:
            f.write("\\n".join(session.config.stash.get(RAN, [])))


RAN = __import__("pytest").StashKey()

def pytest_runtest_setup(item):
    item.config.stash.setdefault(RAN, []).append(item.name)
"""


@pytest.mark.parametrize("tests", [1, 7])
def test_workers_created_while_the_first_runs_run_every_test_once(pytester: pytest.Pytester, tests: int) -> None:
    """Only the first worker is created before tasks go out; the others come up in a thread,
    until every test is handed out: fewer tests than workers, or more."""
    pytester.makeconftest(WORKERS_REPORT)
    pytester.makepyfile(test_some="\n".join(f"def test_{i}(): pass" for i in range(tests)))
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-n", "4", "--agent=noop")
    result.assert_outcomes(passed=tests)
    ran = [name for f in pytester.path.glob("ran-gw*") for name in f.read_text().split()]
    assert sorted(ran) == sorted(f"test_{i}" for i in range(tests))
    assert 1 <= len(list(pytester.path.glob("ran-gw*"))) <= 4
