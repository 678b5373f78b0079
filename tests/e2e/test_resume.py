"""--mobile-resume: a run interrupted (Ctrl-C, a killed worker) then resumed ends as one
uninterrupted run: the same episodes, each once, the same verdicts and the same aggregate."""

from __future__ import annotations

import json

import pytest
from calc_tasks import calc_tasks

# One conftest for every run of a test (it is part of the tasks' fingerprint): the environment
# says whether it stops the session after N tasks (Ctrl-C) or kills the worker of one task.
STOPPER = """
import os

FINISHED = []


def pytest_runtest_call(item):
    if os.environ.get("MOBILE_KILL") and os.environ["MOBILE_KILL"] in item.nodeid:
        os._exit(1)  # the worker dies before its episode: an infrastructure failure


def pytest_runtest_logfinish(nodeid, location):
    FINISHED.append(nodeid)
    if os.environ.get("MOBILE_STOP_AFTER") and len(FINISHED) == int(os.environ["MOBILE_STOP_AFTER"]):
        raise KeyboardInterrupt
"""
# What two runs of the same tasks must agree on (times differ from run to run).
SAME = (
    "episodes",
    "successes",
    "SR",
    "SE",
    "FFR",
    "OER",
    "completed_share",
    "max_steps_share",
    "error_share",
    "infrastructure_errors",
    "interrupted",
)


def _files() -> dict[str, str]:
    return {"test_calc.py": calc_tasks(), "conftest.py": STOPPER}


def _outcomes(run) -> dict[str, bool]:
    nodeids = [e["nodeid"] for e in run.episodes]
    assert len(nodeids) == len(set(nodeids)), f"an episode written twice: {nodeids}"
    return {e["nodeid"]: e["success"] for e in run.episodes}


def _assert_same_as(resumed, whole) -> None:
    assert _outcomes(resumed) == _outcomes(whole)
    assert {k: resumed.overall[k] for k in SAME} == {k: whole.overall[k] for k in SAME}
    assert {e["nodeid"]: e["fingerprint_id"] for e in resumed.episodes} == {
        e["nodeid"]: e["fingerprint_id"] for e in whole.episodes
    }


def test_interrupted_then_resumed_equals_an_uninterrupted_run(run_tasks, pytester, monkeypatch):
    args = ("-p", "no:xdist", "-p", "no:randomly", "--agent=oracle")
    whole = run_tasks(_files(), *args)
    assert len(whole.episodes) == 4 and whole.overall["successes"] == 4

    monkeypatch.setenv("MOBILE_STOP_AFTER", "2")
    stopped = run_tasks(_files(), *args)
    assert stopped.result.ret == pytest.ExitCode.INTERRUPTED and len(stopped.episodes) == 2
    monkeypatch.delenv("MOBILE_STOP_AFTER")
    results = pytester.path / "results.jsonl"
    with results.open("a") as f:  # a killed process's last line, half-written
        f.write('{"type": "episode", "nodeid": "test_calc.py::test_arith')

    resumed = run_tasks(_files(), *args, "--mobile-resume")
    assert resumed.result.ret == pytest.ExitCode.OK
    resumed.result.stdout.fnmatch_lines(["2 episodes already in *results.jsonl, 2 to run", "*2 passed, 2 deselected*"])
    assert "dropped 1 half-written line" in resumed.result.stdout.str()
    _assert_same_as(resumed, whole)
    assert not (pytester.path / "results.superseded.jsonl").exists()

    # Resumed once more, nothing is left to run: the same results, and the run's status is OK.
    again = run_tasks(_files(), *args, "--mobile-resume")
    assert again.result.ret == pytest.ExitCode.OK
    again.result.stdout.fnmatch_lines(["4 episodes already in *results.jsonl, 0 to run"])
    _assert_same_as(again, whole)


def test_a_killed_worker_s_task_runs_again_under_xdist(run_tasks, pytester, monkeypatch):
    args = ("-n", "2", "-p", "no:randomly", "--agent=oracle", "--mobile-retries=0")
    whole = run_tasks(_files(), *args)
    assert whole.overall["successes"] == 4

    monkeypatch.setenv("MOBILE_KILL", "12 - 4")
    crashed = run_tasks(_files(), *args)
    lost = [e for e in crashed.episodes if e["infrastructure"]]
    assert len(lost) == 1 and "12 - 4" in lost[0]["nodeid"] and crashed.overall["successes"] == 3
    monkeypatch.delenv("MOBILE_KILL")

    resumed = run_tasks(_files(), *args, "--mobile-resume")
    assert resumed.result.ret == pytest.ExitCode.OK
    resumed.result.stdout.fnmatch_lines(["3 episodes already in *results.jsonl, 1 to run"])
    _assert_same_as(resumed, whole)
    # The lost attempt's line is kept apart, not lost and not counted.
    aside = (pytester.path / "results.superseded.jsonl").read_text().splitlines()
    assert [json.loads(line)["nodeid"] for line in aside] == [lost[0]["nodeid"]]


def test_a_task_whose_fingerprint_changed_runs_again(run_tasks, pytester):
    args = ("-p", "no:xdist", "-p", "no:randomly", "--agent=oracle", "-k", "3+5 or 12-4")
    first = run_tasks(_files(), *args)
    assert len(first.episodes) == 2
    resumed = run_tasks(_files(), *args, "--mobile-resume", "--mobile-step-factor=3")
    resumed.result.stdout.fnmatch_lines(["0 episodes already in *results.jsonl, 2 to run"])
    assert len(resumed.episodes) == 2
    assert {e["fingerprint"]["options"]["step_factor"] for e in resumed.episodes} == {3.0}
    assert len((pytester.path / "results.superseded.jsonl").read_text().splitlines()) == 2


def test_earlier_failures_keep_the_status_failed(run_tasks):
    args = ("-p", "no:xdist", "-p", "no:randomly", "--agent=noop", "-k", "3+5")
    assert run_tasks(_files(), *args).result.ret == pytest.ExitCode.TESTS_FAILED
    resumed = run_tasks(_files(), *args, "--mobile-resume")
    resumed.result.stdout.fnmatch_lines(["1 episodes already in *results.jsonl, 0 to run"])
    assert resumed.result.ret == pytest.ExitCode.TESTS_FAILED
    assert resumed.overall["episodes"] == 1 and resumed.overall["successes"] == 0


def test_resume_needs_a_results_file(pytester):
    pytester.makepyfile(test_calc=calc_tasks())
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--agent=oracle", "--mobile-resume")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--mobile-resume needs --mobile-results=FILE*"])
