"""Disagreements between a judge and the body get a category of their own in Allure."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
from calc_tasks import calc_tasks

from pytest_mobile_agent.reporting.allure import categories

SUMS = (("3 + 5", "3+5=", "8"), ("12 - 4", "12-4=", "8"), ("1 + 1", "1+1=", "3"), ("2 + 2", "2+2=", "5"))
# CheckPoints that fail '3 + 5' (the body passes it) and pass '1 + 1' (the body fails it).
CONFTEST = """
PHRASES = {"3 + 5": ["9"], "12 - 4": ["-", "="], "1 + 1": ["+", "="], "2 + 2": ["7"]}

def pytest_mobile_agent_judge_inputs(item, task):
    return {"checkpoints": {"key_phrases": PHRASES[task.params["expression"]]}}
"""


def category_of(result: dict) -> list[str]:
    message = (result.get("statusDetails") or {}).get("message") or ""
    return [
        c["name"]
        for c in categories()
        if result["status"] in c["matchedStatuses"] and re.fullmatch(c["messageRegex"], message)
    ]


@pytest.fixture(scope="module")
def alluredir(tmp_path_factory):
    root = tmp_path_factory.mktemp("disagree")
    (root / "test_calc.py").write_text(calc_tasks(SUMS))
    (root / "conftest.py").write_text(CONFTEST)
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            "--agent=oracle",
            "--mobile-judge=checkpoints",
            f"--alluredir={root / 'allure'}",
        ],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert "2 failed, 2 passed" in proc.stdout, proc.stdout[-2000:]
    return root / "allure"


def test_disagreements_get_their_category_beside_the_failures_own(alluredir):
    from tests.reporting.report_helpers import allure_results, by_title

    results = by_title(allure_results(alluredir))
    got = {e: category_of(results[e]) for e, *_ in SUMS}
    wrong = "Premature: wrong final state"
    disagree = "Judge disagreement"
    assert got == {"3 + 5": [disagree], "12 - 4": [], "1 + 1": [disagree, wrong], "2 + 2": [wrong]}
    assert results["1 + 1"]["statusDetails"]["message"].startswith("[premature: wrong final state] ")
    message = results["3 + 5"]["statusDetails"]["message"]
    assert message.startswith("[judge disagreement] the body passed; checkpoints failed it: CheckPoints l1 0/0, l2 0/1")


def test_allure3_groups_the_disagreements_first(alluredir, tmp_path):
    """Allure 3 puts a result in its first matching category: disagreements come first, so all
    are together there; a failed one's own kind stays at the head of its message."""
    from tests.reporting.report_helpers import generate_report, report_categories

    index = generate_report(alluredir, tmp_path / "report")
    found = report_categories(index)
    assert found["Judge disagreement"] == {"Calculate the result of '3 + 5'", "Calculate the result of '1 + 1'"}
    assert found["Premature: wrong final state"] == {"Calculate the result of '2 + 2'"}
