"""Every agent fault is the agent's, recorded, and never crashes the harness: values that are
not actions (NaN, infinity, a text too long for the device's input path, an object whose repr
raises) are invalid actions with a reason; anything the agent's code raises (SystemExit,
KeyboardInterrupt, any BaseException) is its error with its traceback; a worker that dies while
the agent's code runs is the agent's crash, recorded by the xdist controller, not run again."""

from __future__ import annotations

from tests.faults.fault_session import by_fault, fault_files

INVALID = {
    "nan": "x must be a finite number, not nan",
    "infinity": "y must be a finite number, not inf",
    "long-type": "type text of 70000 characters: at most 10000 fit",
    "bad-repr": "action must be an Action, a dict or a JSON object, not BadRepr",
}
RAISED = {
    "sys-exit": "agent raised SystemExit at step 2: 3",
    "keyboard-interrupt": "agent raised KeyboardInterrupt at step 2: raised by the agent",
    "base-exception": "agent raised Exotic at step 2: an agent's own BaseException",
}


def test_invalid_values_and_raised_base_exceptions_are_the_agents_errors(run_tasks):
    faults = [*INVALID, *RAISED, "none"]
    run = run_tasks(fault_files(faults), "-p", "no:xdist", "--agent=faulty_agent.py", "-p", "no:randomly")
    out = run.result.stdout.str()
    assert "INTERNALERROR" not in out and "harness" not in out.lower(), out
    run.result.assert_outcomes(passed=1, failed=len(faults) - 1)
    assert run.result.ret == 1  # tests failed: not interrupted, not an internal error
    records = by_fault(run.episodes)
    assert set(records) == set(faults) and all(len(r) == 1 for r in records.values()), records
    for fault, reason in INVALID.items():
        (e,) = records[fault]
        # Three invalid actions in a row (--mobile-max-invalid) end the episode as the agent's error.
        assert e["termination"] == "error" and not e["infrastructure"] and not e["success"], e
        assert e["invalid_steps"] == 3 and reason in e["error"], e
    for fault, message in RAISED.items():
        (e,) = records[fault]
        assert e["termination"] == "error" and not e["infrastructure"] and e["error"] == message, e
        assert "faulty_agent.py" in e["traceback"] and e["traceback"].count("Traceback") == 1, e["traceback"]
        assert f"AgentError: {message}" in out
    (ok,) = records["none"]
    assert ok["success"]
    assert run.overall["episodes"] == len(faults) and run.overall["infrastructure_errors"] == 0
    assert run.overall["error_share"] == (len(faults) - 1) / len(faults)


def test_a_worker_killed_by_its_agents_code_is_the_agents_crash(run_tasks):
    faults = ["os-exit", "sigkill", "none"]
    args = ("-n", "2", "--agent=faulty_agent.py", "--mobile-retries=2", "-p", "no:randomly")
    run = run_tasks(fault_files(faults), *args)
    out = run.result.stdout.str()
    assert "INTERNALERROR" not in out, out
    err = run.result.stderr.str()
    assert "Traceback" not in err and "OSError" not in err, err  # the warm-start launcher stays quiet
    run.result.assert_outcomes(passed=1, failed=2)
    records = by_fault(run.episodes)
    for fault in ("os-exit", "sigkill"):
        (e,) = records[fault]  # recorded once, by the controller; never run again
        assert e["termination"] == "error" and not e["infrastructure"] and not e["success"], e
        assert "the agent's code ended its worker" in e["error"] and "crashed while running" in e["error"], e
    assert [e["success"] for e in records["none"]] == [True]
    assert run.overall["episodes"] == 3 and run.overall["infrastructure_errors"] == 0
    assert not run.lines("infrastructure: ")
    assert out.count("AgentError: the agent's code ended its worker") >= 2, out


KILL_AFTER_VERDICT = '''
import os
import signal
from pathlib import Path


WORKER = False


def pytest_configure(config):
    # Only an xdist worker has workerinput. (Not the environment: this session may itself run
    # inside an outer worker, whose PYTEST_XDIST_WORKER the inner controller inherits.)
    global WORKER
    WORKER = hasattr(config, "workerinput")


def pytest_runtest_logfinish(nodeid, location):
    """The worker dies after the task's reports went out, before xdist hears it is complete.
    (The controller runs this hook too, for each report it receives: only a worker dies.)"""
    if "none" in nodeid and WORKER:
        try:
            os.close(os.open(Path(os.environ["MOBILE_FAULT_DIR"]) / "killed", os.O_CREAT | os.O_EXCL))
        except FileExistsError:
            return
        os.kill(os.getpid(), signal.SIGKILL)
'''


def test_a_worker_killed_after_the_verdict_counts_its_task_once(run_tasks, pytester, monkeypatch):
    monkeypatch.setenv("MOBILE_FAULT_DIR", str(pytester.path))
    files = {**fault_files(["none", "nan"]), "conftest.py": KILL_AFTER_VERDICT}
    run = run_tasks(files, "-n", "2", "--agent=faulty_agent.py", "-p", "no:randomly")
    out = run.result.stdout.str()
    assert (pytester.path / "killed").exists()
    assert "INTERNALERROR" not in out, out
    run.result.assert_outcomes(passed=1, failed=1)  # not a third report for the dead worker
    records = by_fault(run.episodes)
    assert [e["success"] for e in records["none"]] == [True], records  # once: no crash record, no rerun
    assert run.overall["episodes"] == 2 and run.overall["infrastructure_errors"] == 0
