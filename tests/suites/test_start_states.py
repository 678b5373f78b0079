"""The start-state gate: every suite's fixtures run (under the noop agent, on two xdist
workers), and each start state a task declares (a provider row, a file) is in the durable state
its agent starts from. A precondition that fails ends its task as a task error, which no suite
may have."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
import suite_runs

HERE = Path(__file__).resolve().parent
SUITES = suite_runs.ROOT / "task_suites"


@pytest.mark.parametrize("suite", ["mobileagentbench", "spabench", "mobilebench"])
def test_every_declared_start_state_is_there_when_the_agent_starts(tmp_path, suite):
    states = tmp_path / "start_states.jsonl"
    env = {
        "PMA_START_STATES": str(states),
        "PYTHONPATH": os.pathsep.join([str(HERE), str(suite_runs.ROOT), os.environ.get("PYTHONPATH", "")]),
    }
    args = ("-m", "not online", "-n", "2", "-p", "start_state_plugin")
    proc, episodes = suite_runs.run_suite(SUITES / suite, tmp_path, "noop", *args, env=env)
    broken = [(e["nodeid"], e["error"]) for e in episodes if e["termination"] == "task_error"]
    assert not broken, f"tasks whose preconditions failed: {broken}"
    lines = [json.loads(line) for line in states.read_text().splitlines()] if states.exists() else []
    assert len(lines) == len(episodes) > 0, proc.stdout[-3000:]
    missing = [(line["nodeid"], line["missing"]) for line in lines if line["missing"]]
    assert not missing, f"declared start states not on the device when the agent started: {missing}"
    seeded = [line for line in lines if line["declared"]]
    assert len(seeded) >= len(lines) // 4, f"only {len(seeded)} of {len(lines)} tasks declare a start state"
