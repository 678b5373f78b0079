"""Ctrl-C in the middle of a run under xdist: the summary of what finished, every finished
episode kept once (in the summary and in the results file, whose aggregate comes last), and no
INTERNALERROR or traceback."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time

import pytest

TASKS = """
import pytest
from pytest_mobile_agent import Tap, task

CALC = "com.simplemobiletools.calculator"

@pytest.mark.parametrize("n", range(8))
@task(prompt="calculate 3 + 5", app=CALC, golden=[Tap(text=k) for k in "3+5="])
def test_sum(ui, changes, n):
    changes.allow(CALC, "files/history.json")
    assert ui.text_of("result") == "8"
"""

SLOW_AGENT = """
import time
from pytest_mobile_agent import Done

class Agent:
    name = "slow"

    def step(self, observation):
        time.sleep(0.4)
        golden = observation.task.golden
        i = len(observation.history)
        return golden[i] if i < len(golden) else Done()

agent = Agent
"""


def test_ctrl_c_keeps_every_finished_episode_once(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_sums=TASKS, slow_agent=SLOW_AGENT)
    results = pytester.path / "results.jsonl"
    args = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-n", "2", "--agent=slow_agent.py"]
    args += [f"--mobile-results={results}", f"--alluredir={pytester.path / 'allure'}", "test_sums.py"]
    # A shell or CI runner that starts pytest in the background may leave SIGINT ignored; a
    # user's terminal does not.
    proc = subprocess.Popen(
        args,
        cwd=pytester.path,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        if results.exists() and len(results.read_text().splitlines()) >= 2:
            break
        time.sleep(0.1)
    assert proc.poll() is None, "the run ended before it could be interrupted"
    proc.send_signal(signal.SIGINT)
    out, _ = proc.communicate(timeout=120)

    assert proc.returncode == pytest.ExitCode.INTERRUPTED, out
    assert "INTERNALERROR" not in out and "Traceback (most recent call last)" not in out, out
    lines = [json.loads(line) for line in results.read_text().splitlines()]
    episodes, aggregate = lines[:-1], lines[-1]
    assert aggregate["type"] != "episode" and all(e["type"] == "episode" for e in episodes)
    finished = [e for e in episodes if e["termination"] != "interrupted"]
    assert 2 <= len(finished) < 8
    assert len({e["nodeid"] for e in episodes}) == len(episodes)  # none twice
    assert aggregate["overall"]["episodes"] == len(finished)
    assert f"mobile agent summary ({len(episodes)} episodes)" in out
    assert f"interrupted (Ctrl-C): the {len(finished)} episodes that finished are kept, each once" in out
