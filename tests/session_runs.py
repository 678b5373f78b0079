"""Running pytest sessions of tasks in a sub-process (pytester) and reading what they wrote."""

from __future__ import annotations

import json
import re
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
    def aggregate(self) -> dict:
        found = [r for r in self.records if r["type"] == "aggregate"]
        assert len(found) == 1, f"expected one aggregate record, got {len(found)}"
        return found[0]

    @property
    def overall(self) -> dict:
        return self.aggregate["overall"]

    def lines(self, prefix: str) -> list[str]:
        return [line for line in self.result.outlines if line.startswith(prefix)]

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


def run_session(pytester: pytest.Pytester, files: dict[str, str], *args: str, timeout: float = 600) -> Run:
    """Write files into pytester's fresh directory, run pytest on them in a sub-process, read the
    results file."""
    for name, text in files.items():
        path = Path(pytester.path, name)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    results = pytester.path / "results.jsonl"
    result = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", f"--mobile-results={results}", *args, timeout=timeout
    )
    records = [json.loads(x) for x in results.read_text().splitlines()] if results.exists() else []
    return Run(result, records)
