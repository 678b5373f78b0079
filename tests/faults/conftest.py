"""Running task sessions in a sub-process while faults are injected into their real processes."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pytest


@dataclass
class Run:
    result: pytest.RunResult
    records: list[dict]

    @property
    def episodes(self) -> list[dict]:
        return [r for r in self.records if r["type"] == "episode"]

    @property
    def overall(self) -> dict:
        (aggregate,) = [r for r in self.records if r["type"] == "aggregate"]
        return aggregate["overall"]

    def lines(self, prefix: str) -> list[str]:
        return [line for line in self.result.outlines if line.startswith(prefix)]


@pytest.fixture
def run_session(pytester: pytest.Pytester):
    """Write files, run pytest on them in a sub-process, read its results file."""

    def run(files: dict[str, str], *args: str, timeout: float = 600) -> Run:
        for name, text in files.items():
            path = Path(pytester.path, name)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
        results = pytester.path / "results.jsonl"
        result = pytester.runpytest_subprocess(f"--mobile-results={results}", *args, timeout=timeout)
        records = [json.loads(x) for x in results.read_text().splitlines()] if results.exists() else []
        return Run(result, records)

    return run
