"""The example agents in examples/ solve calculator tasks through the plugin."""

from __future__ import annotations

from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.mark.parametrize("agent", ["step_agent.py", "self_driving_agent.py"])
def test_example_agent_solves_calculator_tasks(run_tasks, calc_tasks, agent):
    run = run_tasks(calc_tasks, f"--agent={EXAMPLES / agent}")
    run.result.assert_outcomes(passed=4)
    for ep in run.episodes:
        assert ep["termination"] == "completed" and ep["steps"] == ep["golden_steps"]
