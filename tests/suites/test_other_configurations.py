"""The suites' gates at the two configurations issue 28 names, on a stratified sample: a task of
each app in each suite (sample_plugin.py picks the cheapest), played by the oracle (it must
pass) and by noop (it must fail), one session per configuration. The whole gates' commands are
in docs/how-to/displays.md."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
import suite_runs

HERE = Path(__file__).parent
CONFIGURATIONS = {
    "small-large-text-night": ("--mobile-display=720x1600@320", "--mobile-font-scale=1.3", "--mobile-night=yes"),
    "short": ("--mobile-display=1080x1920@420",),
}


@pytest.mark.parametrize("configuration", CONFIGURATIONS)
def test_the_oracle_passes_and_noop_fails_a_sample_of_every_suite(tmp_path, configuration):
    env = {"PYTHONPATH": os.pathsep.join([str(HERE), str(suite_runs.ROOT), os.environ.get("PYTHONPATH", "")])}
    args = ("-m", "not online", "-n", "2", "-p", "sample_plugin", "--mobile-repeat=2", *CONFIGURATIONS[configuration])
    proc, episodes = suite_runs.run_suite(
        suite_runs.ROOT / "task_suites", tmp_path, "sample_plugin:OracleThenNoop", *args, env=env, name="sample"
    )
    assert not re.search(r"\d+ errors?", proc.stdout.splitlines()[-1]), proc.stdout[-3000:]  # no setup failed
    by_run = {run: [e for e in episodes if e["nodeid"].endswith(f"r{run}]")] for run in (1, 2)}
    assert len(by_run[1]) == len(by_run[2]) >= 20, proc.stdout[-3000:]  # about one a suite and app
    suites = {e["nodeid"].split("/")[1] for e in episodes}
    assert suites == {"mobileagentbench", "mobilebench", "spabench"}
    failed = [(e["nodeid"], e["error"]) for e in by_run[1] if not e["success"]]
    assert not failed, f"tasks the oracle did not solve at {configuration}: {failed}"
    passed = [e["nodeid"] for e in by_run[2] if e["success"]]
    assert not passed, f"tasks that pass without an action at {configuration}: {passed}"
