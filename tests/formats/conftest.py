"""Sessions over the look-alike SPA-Bench and Mobile-Bench task files in data/ (written here in
the benchmarks' shapes, on the ten virtual apps): copied into pytester's directory with any
extra files, run in a sub-process, the results file and the probe agent's notes read back.

The files in data/ are tasks, not tests: they run only when a test names them."""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.model_server import ModelServer
from tests.session_runs import Run

collect_ignore = ["data"]
DATA = Path(__file__).with_name("data")

# Notes what it sees at its first step (the start screen's package, the prompt, the step
# budget, the API list), then says done.
PROBE = """
import json
from pytest_mobile_agent.actions import Done

class Probe:
    name = "probe"

    def step(self, obs):
        if obs.step == 1:
            seen = {"task": obs.task.name, "package": obs.ui.package, "prompt": obs.prompt,
                    "max_steps": obs.task.max_steps, "apis": list(obs.task.apis)}
            with open("probe.jsonl", "a", encoding="utf-8") as f:
                f.write(json.dumps(seen, ensure_ascii=False) + "\\n")
        return Done("probed")

agent = Probe()
"""


@dataclass
class SeedRun(Run):
    folder: Path

    @property
    def probes(self) -> list[dict]:
        path = self.folder / "probe.jsonl"
        return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()] if path.exists() else []

    @property
    def probed(self) -> dict[str, dict]:
        return {d["task"]: d for d in self.probes}

    def episode(self, task: str) -> dict:
        found = [e for e in self.episodes if e["task"] == task]
        assert len(found) == 1, f"expected one episode of {task}, got {len(found)}"
        return found[0]


@pytest.fixture
def run_seed(pytester: pytest.Pytester):
    """Copy data/ (and `files`) into a fresh directory, run pytest there in a sub-process."""

    def run(*args: str, files: dict[str, str] | None = None) -> SeedRun:
        shutil.copytree(DATA, pytester.path / "data", dirs_exist_ok=True)
        (pytester.path / "probe_agent.py").write_text(PROBE)
        for name, text in (files or {}).items():
            path = pytester.path / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        results = pytester.path / "results.jsonl"
        result = pytester.runpytest_subprocess(
            "-p", "no:cacheprovider", "-p", "no:randomly", f"--mobile-results={results}", *args, timeout=600
        )
        records = [json.loads(x) for x in results.read_text().splitlines()] if results.exists() else []
        return SeedRun(result, records, pytester.path)

    return run


@pytest.fixture
def model_server():
    with ModelServer() as server:
        yield server
