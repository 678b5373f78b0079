"""One run of a task suite in a sub-process, and the episodes its results file recorded: what
every suite's gates (oracle, noop, near misses) are built on."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run_suite(
    suite: Path, tmp_path: Path, agent: str, *args: str, env: dict[str, str] | None = None, name: str | None = None
) -> tuple[subprocess.CompletedProcess, list[dict]]:
    """`pytest SUITE --agent=AGENT ARGS` from the repository root; its episode records."""
    results = tmp_path / f"{name or agent}.jsonl"
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            str(suite),
            f"--agent={agent}",
            f"--mobile-results={results}",
            "-p",
            "no:cacheprovider",
            "-q",
            *args,
        ],
        cwd=ROOT,
        env={**os.environ, **(env or {})},
        capture_output=True,
        text=True,
        timeout=900,
    )
    records = [json.loads(line) for line in results.read_text().splitlines()] if results.exists() else []
    return proc, [r for r in records if r["type"] == "episode"]


def assert_near_misses_fail_as_written(episodes: list[dict], where: str = "") -> None:
    """Every near miss failed, and failed on its check: each ran every step as written (none
    stopped early, on an error or on a step that matched nothing)."""
    passed = [e["nodeid"] for e in episodes if e["success"]]
    assert not passed, f"tasks that accept a near miss{where}: {passed}"
    not_as_written = [
        (e["nodeid"], e["termination"], e["invalid_steps"], e["error"])
        for e in episodes
        if e["termination"] != "completed" or e["steps"] == 0 or e["invalid_steps"]
    ]
    assert not not_as_written, f"near misses that did not run as written{where}: {not_as_written}"
