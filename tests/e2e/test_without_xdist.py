"""The plugin runs with xdist, without it (-p no:xdist) and with plugin autoloading off."""

from __future__ import annotations

import pytest
from calc_tasks import calc_tasks


@pytest.mark.parametrize(
    "env, args",
    [
        ({}, ("-p", "no:xdist")),
        ({"PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}, ("-p", "pytest_mobile_agent.plugin")),
        ({"PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}, ("-p", "pytest_mobile_agent.plugin", "-p", "xdist", "-n", "2")),
    ],
    ids=["no-xdist", "autoload-off", "autoload-off-with-xdist"],
)
def test_tasks_run(run_tasks, monkeypatch, env, args):
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    run = run_tasks({"test_calc.py": calc_tasks()}, *args, "--agent=oracle", "-k", "3+5 or 12-4")
    out = run.result.stdout.str()
    assert "INTERNALERROR" not in out, out
    outcomes = run.result.parseoutcomes()  # xdist's workers do not report deselections
    assert outcomes["passed"] == 2 and "failed" not in outcomes and "error" not in outcomes
    assert [e["success"] for e in run.episodes] == [True, True]
