"""An agent's exception is shown with its own frames: in the terminal, in the results file and
in the reports (the trajectory folder's episode.json, an Allure attachment)."""

from __future__ import annotations

import json

RAISER = """
def parse(reply):
    return int(reply)  # the line the agent's author needs to see


class Agent:
    def step(self, observation):
        return parse("tap the three")
"""


def test_agent_exception_keeps_its_frames(run_tasks, calc_tasks, tmp_path):
    art, allure_dir = tmp_path / "art", tmp_path / "allure"
    files = dict(calc_tasks, **{"raising_agent.py": RAISER})
    run = run_tasks(
        files, "--agent=raising_agent.py", "-k", "3+5", f"--mobile-artifacts={art}", f"--alluredir={allure_dir}"
    )
    run.result.assert_outcomes(failed=1, deselected=3)
    out = run.result.stdout.str()
    assert "All traceback entries are hidden" not in out
    run.result.stdout.fnmatch_lines(
        [
            "*AgentError: agent raised ValueError at step 1: invalid literal for int()*",
            "*The agent's traceback:*",
            '*raising_agent.py", line 8, in step*',
            '*raising_agent.py", line 3, in parse*',
            "*return int(reply)  # the line the agent's author needs to see*",
            "*ValueError: invalid literal for int() with base 10: 'tap the three'*",
        ]
    )
    (ep,) = run.episodes
    tb = ep["traceback"]
    assert tb.startswith("Traceback (most recent call last):") and "in parse" in tb and "episode.py" not in tb
    (folder,) = [p for p in art.iterdir() if p.is_dir()]
    assert json.loads((folder / "episode.json").read_text())["traceback"] == tb
    attached = [p for p in allure_dir.glob("*-attachment.txt") if p.read_text() == tb]
    assert len(attached) == 1
