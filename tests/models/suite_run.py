"""Running a task suite in a pytest subprocess against a local model server, and reading its results."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
SUITE = ROOT / "task_suites" / "mobileagentbench"


def run_suite(
    agent: str,
    url: str | None,
    out: Path,
    *args: str,
    env: dict[str, str] | None = None,
    timeout: float = 900,
    model: str = "test-model",
) -> tuple[subprocess.CompletedProcess[str], list[dict[str, Any]]]:
    """`pytest SUITE --agent=AGENT --mobile-model=MODEL ...` in a subprocess; the episode records."""
    results = out / "results.jsonl"
    cmd = [
        sys.executable,
        "-m",
        "pytest",
        *args,
        f"--agent={agent}",
        f"--mobile-model={model}",
        f"--mobile-results={results}",
        "-p",
        "no:randomly",
        "-q",
        "--no-header",
        "-o",
        "addopts=",
        "--rootdir",
        str(ROOT),
        "-c",
        str(ROOT / "pyproject.toml"),
    ]
    if url:
        cmd.append(f"--mobile-model-url={url}")
    full_env = {**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}
    proc = subprocess.run(cmd, cwd=ROOT, env=full_env, capture_output=True, text=True, timeout=timeout)
    records = []
    if results.exists():
        records = [r for r in map(json.loads, results.read_text().splitlines()) if r.get("type") == "episode"]
    return proc, records
