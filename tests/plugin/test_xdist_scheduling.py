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
