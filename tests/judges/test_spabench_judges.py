"""The SPA-Bench-style suite's cross-app tasks reach the `spa` judge with their subtask split:
the scripted model is asked about each subtask in order, on its app's slice of the trajectory,
and the later subtask gets what the earlier one found about its memory phrase."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.model_server import ModelServer

ROOT = Path(__file__).resolve().parents[2]
TASK = "task_suites/spabench/test_cross_app.py::test_Information_Management_0_ENG"


def texts(request: dict) -> str:
    parts = []
    for message in request["messages"]:
        content = message["content"]
        parts += [content] if isinstance(content, str) else [p.get("text", "") for p in content]
    return "\n".join(parts)


def script(request: dict) -> str:
    return "Anna's new number is 5550188." if "Summarise" in texts(request) else "Result: 1"


def test_a_cross_app_task_is_judged_subtask_by_subtask_in_order(tmp_path):
    results = tmp_path / "results.jsonl"
    with ModelServer(script) as server:
        proc = subprocess.run(
            [
                sys.executable,
                "-m",
                "pytest",
                TASK,
                "--agent=oracle",
                "--mobile-judge=spa",
                "--mobile-judge-model=test-model",
                f"--mobile-model-url={server.url}",
                f"--mobile-results={results}",
                "-p",
                "no:cacheprovider",
                "-p",
                "no:randomly",
                "-q",
            ],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=300,
        )
        asked = [texts(r) for r in server.requests]
    assert proc.returncode == 0, proc.stdout[-3000:]
    (episode,) = [r for r in map(json.loads, results.read_text().splitlines()) if r["type"] == "episode"]
    verdict = episode["judges"]["spa"]
    assert verdict["passed"] is True and verdict["reason"].endswith("all 2 subtasks passed"), verdict
    judged = [a for a in asked if "Summarise" not in a]
    assert len(judged) == 2 and len(asked) == 3, asked  # two subtasks, one memory summary between them
    assert "Read Anna's message from 5550123" in judged[0] and "Save {Anna's new number}" in judged[1]
    assert "Anna's new number is 5550188." in judged[1], "the second subtask lacks what the first one found"
