"""Helpers for running pytest sessions of tasks in a sub-process (pytester)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

import pytest
from calc_tasks import calc_tasks

CALC_TASKS = calc_tasks()


@dataclass
class Run:
    result: pytest.RunResult
    records: list[dict]

    @property
    def episodes(self) -> list[dict]:
        return [r for r in self.records if r["type"] == "episode"]

    @property
    def aggregate(self) -> dict:
        found = [r for r in self.records if r["type"] == "aggregate"]
        assert len(found) == 1, f"expected one aggregate record, got {len(found)}"
        return found[0]

    def table_row(self, group: str = "all") -> dict[str, str]:
        """The printed summary table's row for a group, by column title."""
        lines = self.result.outlines
        header_at = next(i for i, line in enumerate(lines) if line.startswith("group "))
        titles = re.split(r"\s{2,}", lines[header_at].strip())
        for line in lines[header_at + 2 :]:
            if line.startswith(group + " ") or line.startswith(group + "  "):
                cells = re.split(r"\s{2,}", line.strip())
                return dict(zip(titles, cells, strict=True))
        raise AssertionError(f"no row {group!r} in the summary table")


@pytest.fixture
def run_tasks(pytester: pytest.Pytester):
    """Write files into a fresh directory and run pytest on them in a sub-process."""

    def run(files: dict[str, str], *args: str) -> Run:
        for name, text in files.items():
            path = pytester.path / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
        results = pytester.path / "results.jsonl"
        result = pytester.runpytest_subprocess(
            "-p", "no:cacheprovider", f"--mobile-results={results}", *args, timeout=600
        )
        records = [json.loads(x) for x in results.read_text().splitlines()] if results.exists() else []
        return Run(result, records)

    return run


@pytest.fixture
def calc_tasks() -> dict[str, str]:
    return {"test_calc.py": CALC_TASKS}
