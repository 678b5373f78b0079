"""The summary table: its columns are the docs' names, and an estimated token count says so."""

from __future__ import annotations

import re
from pathlib import Path

from pytest_mobile_agent.metrics import aggregate
from pytest_mobile_agent.reporting import terminal

DOCS = Path(__file__).resolve().parents[2] / "docs" / "reference" / "results.md"


def _episode(tokens_estimated: bool, termination: str = "completed") -> dict:
    return {
        "success": True,
        "infrastructure": False,
        "termination": termination,
        "steps": 4,
        "se": 1.0,
        "premature": False,
        "overdue": False,
        "tokens_in": 900,
        "tokens_out": 100,
        "tokens_estimated": tokens_estimated,
        "cost_usd": None,
        "time_per_step_s": 0.2,
    }


def _row(episodes: list[dict]) -> dict[str, str]:
    summary = {"overall": aggregate(episodes), "by_app": {}, "by_difficulty": {}}
    header, _, row = terminal.table(summary)
    return dict(zip(re.split(r"\s{2,}", header.strip()), re.split(r"\s{2,}", row.strip()), strict=True))


def test_estimated_tokens_are_marked_and_reported_ones_are_not() -> None:
    assert _row([_episode(True), _episode(True)])["tokens"] == "1000 est."
    assert _row([_episode(False)])["tokens"] == "1000"
    assert aggregate([_episode(False), _episode(True)])["tokens_estimated"] is True  # partly: an estimate
    assert _row([_episode(False), _episode(True)])["tokens"] == "1000 est."


def test_the_column_titles_are_those_the_docs_list() -> None:
    # The docs' table is generated from COLUMNS (scripts/docs_reference.py): the page holds its marker.
    assert "<!-- reference:summary -->" in DOCS.read_text()
    titles = list(_row([_episode(False)]))
    assert titles == ["group", *(title for title, _, _, _ in terminal.COLUMNS)]
    assert {"SR", "SE", "latency", "tokens", "FFR", "OER", "SRC%", "MSR%", "error%", "PTR", "OTR"} <= set(titles)
