"""Allure result files from a real `-n 4` session on virtual devices: labels, parameters, one
step with an annotated screenshot per agent step, a category for every failure kind, the
environment, one cleaning by the controller, trajectories and the summary plot."""

from __future__ import annotations

import fcntl
import json
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from PIL import Image
from report_helpers import (
    CALC_TASKS,
    MIXED_AGENT,
    allure_results,
    by_title,
    generate_report,
    labels,
    params,
    report_categories,
    walk_steps,
)

from pytest_mobile_agent.reporting.allure import categories

# prompt expression -> (category, Allure status, steps the agent took, golden steps)
KINDS = {
    "3 + 5": (None, "passed", 4, 4),
    "12 × 4": ("Premature finish", "failed", 0, 5),
    "3 ^ 3": ("Wrong final state", "failed", 4, 4),
    "12 - 4": ("Step budget exhausted", "failed", 10, 5),
    "7 + 2": ("Agent error", "broken", 1, 4),
    "9 - 1": ("Infrastructure error", "broken", 1, 4),
}
API_KEY = "sk-test-DO-NOT-LEAK-0123456789"


@dataclass
class Mixed:
    stdout: str
    stderr: str
    root: Path
    alluredir: Path
    results: dict[str, dict]


def category_of(result: dict) -> list[str]:
    """The categories.json entries a result falls in, matched as Allure 2 does (whole message)."""
    message = (result.get("statusDetails") or {}).get("message") or ""
    return [
        c["name"]
        for c in categories()
        if result["status"] in c["matchedStatuses"] and re.fullmatch(c["messageRegex"], message)
    ]


@pytest.fixture(scope="module")
def mixed(tmp_path_factory: pytest.TempPathFactory, worker_id: str) -> Mixed:
    """Every failure kind in one session over four workers: the slow part, so run once even when
    this module's tests are spread over xdist workers (the first one runs it, under a lock)."""
    shared = tmp_path_factory.getbasetemp() if worker_id == "master" else tmp_path_factory.getbasetemp().parent
    root = shared / "mixed-session"
    with open(shared / "mixed-session.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (root / "done.json").exists():
            shutil.rmtree(root, ignore_errors=True)
            _run_mixed(root)
    proc = json.loads((root / "done.json").read_text())
    alluredir = root / "allure-results"
    return Mixed(proc["stdout"], proc["stderr"], root, alluredir, by_title(allure_results(alluredir)))


def _run_mixed(root: Path) -> None:
    root.mkdir(parents=True)
    (root / "test_calc.py").write_text(CALC_TASKS)
    (root / "conftest.py").write_text(MIXED_AGENT)
    alluredir = root / "allure-results"
    alluredir.mkdir()
    (alluredir / "stale-result.json").write_text("{}")  # from an earlier run: must go
    args = ["--agent=mixed", "-n", "4", "--mobile-retries=0", "--clean-alluredir"]
    args += [f"--alluredir={alluredir}", f"--mobile-artifacts={root / 'art'}", f"--mobile-results={root / 'r.jsonl'}"]
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=600,
    )
    (root / "done.json").write_text(json.dumps({"stdout": proc.stdout, "stderr": proc.stderr}))


def test_one_result_per_task_and_the_stale_ones_cleaned_once(mixed: Mixed) -> None:
    assert "5 failed, 1 passed" in mixed.stdout, mixed.stdout[-3000:] + mixed.stderr[-3000:]
    assert not (mixed.alluredir / "stale-result.json").exists()
    assert sorted(mixed.results) == sorted(KINDS)  # every worker's results survived the cleaning


@pytest.mark.parametrize("expression", list(KINDS))
def test_title_labels_and_parameters(mixed: Mixed, expression: str) -> None:
    result = mixed.results[expression]
    category, status, steps, golden = KINDS[expression]
    assert result["name"] == f"Calculate the result of '{expression}'"
    assert result["status"] == status
    got = labels(result)
    for name, value in {
        "feature": "calculator",
        "app": "calculator",
        "difficulty": "medium",
        "agent": "mixed",
        "model": "gpt-4o",
        "suite": "test_calc",
        "parentSuite": "mixed (gpt-4o)",
        "story": "test_arithmetic",
    }.items():
        assert got.get(name) == [value], (name, got.get(name))
    p = params(result)
    assert p["agent"]["value"] == "mixed (gpt-4o)" and not p["agent"].get("excluded")
    assert p["golden steps"]["value"] == str(golden)
    assert p["steps taken"]["value"] == str(steps)
    assert p["step of success"]["value"] == ("4" if category is None else "never")
    assert p["termination"]["value"].split()[0] in ("completed", "max_steps", "error", "infrastructure")
    for name in ("tokens in", "tokens out", "cost (USD)", "latency (s/step)", "step budget"):
        assert p[name]["value"] and p[name].get("excluded") is True, name
    if steps:
        assert float(p["cost (USD)"]["value"]) > 0  # gpt-4o is in the price table
    # The device's serial never makes two histories of one task.
    assert p["device"]["excluded"] is True and p["device"]["value"].startswith("emulator-")
    # The API key is masked, and its text is nowhere in the results.
    assert p["api key"]["mode"] == "masked" and API_KEY not in p["api key"]["value"]


def test_no_secret_anywhere_in_the_results_directory(mixed: Mixed) -> None:
    for path in mixed.alluredir.iterdir():
        assert API_KEY.encode() not in path.read_bytes(), path.name


@pytest.mark.parametrize("expression", list(KINDS))
def test_one_step_with_a_screenshot_per_agent_step(mixed: Mixed, expression: str) -> None:
    result = mixed.results[expression]
    steps = [s for s in walk_steps(result["steps"]) if s["name"].startswith("Step ")]
    assert len(steps) == KINDS[expression][2]
    for i, step in enumerate(steps, start=1):
        assert step["name"].startswith(f"Step {i}: ")
        images = [a for a in step["attachments"] if a["type"] == "image/png"]
        assert len(images) == 1, step
        image = Image.open(mixed.alluredir / images[0]["source"])
        assert image.size == (540, 1170)  # the 1080x2340 screen, halved
        action = next(a for a in step["attachments"] if a["name"] == "action")
        assert json.loads((mixed.alluredir / action["source"]).read_text())["action"] == "tap"
        step_params = {q["name"]: q["value"] for q in step["parameters"]}
        assert "agent" in step_params["time (s)"] and "harness" in step_params["time (s)"]
    if expression == "3 + 5":
        assert steps[-1]["name"].endswith("(task done here)")
        reasoning = [a for s in steps for a in s["attachments"] if a["name"] == "reasoning"]
        assert len(reasoning) == 4
    if expression == "12 - 4":  # the invalid first action: a broken step with the reason
        assert steps[0]["status"] == "broken"
        assert "no element matches" in steps[0]["statusDetails"]["message"]
    # The description shows the whole trajectory: one inline image per step and the final screen.
    assert result["descriptionHtml"].count("<img") == len(steps) + 1


@pytest.mark.parametrize("expression", list(KINDS))
def test_failure_category_and_evidence(mixed: Mixed, expression: str) -> None:
    result = mixed.results[expression]
    category = KINDS[expression][0]
    assert category_of(result) == ([category] if category else [])
    attachments = {a["name"]: a for a in result["attachments"]}
    assert "final screen" in attachments and "trajectory (all steps)" in attachments
    if category is None:
        assert "failure" not in attachments
        return
    assert result["statusDetails"]["message"].startswith(f"[{category.lower()}] ")
    failure = (mixed.alluredir / attachments["failure"]["source"]).read_text()
    assert failure.startswith(f"[{category.lower()}] ")
    if category in ("Premature finish", "Wrong final state", "Step budget exhausted"):
        assert "assert" in failure  # the body's assertion message
    hierarchy = (mixed.alluredir / attachments["final hierarchy"]["source"]).read_text()
    assert "<hierarchy" in hierarchy


def test_allure3_report_puts_each_failure_in_its_category(mixed: Mixed) -> None:
    """The same categories, as Allure 3 applies them (allurerc.mjs) in the generated report."""
    index = generate_report(mixed.alluredir, mixed.root / "allure-report")
    expected = {c: {f"Calculate the result of '{e}'"} for e, (c, *_) in KINDS.items() if c}
    assert report_categories(index) == expected


def test_categories_and_environment_files(mixed: Mixed) -> None:
    assert json.loads((mixed.alluredir / "categories.json").read_text()) == categories()
    env = dict(line.split("=", 1) for line in (mixed.alluredir / "environment.properties").read_text().splitlines())
    assert env["agent"] == "mixed" and env["model"] == "gpt-4o"
    assert env["android.versions"] == "13"
    assert int(env["device.count"]) >= 4  # a device per worker, one more after the kill
    assert env["plugin.version"] and env["xdist.workers"] == "4"
    assert "sk-" not in "".join(env.values())


def test_trajectories_and_summary_plot_in_the_artifacts(mixed: Mixed) -> None:
    art = mixed.root / "art"
    plot = Image.open(art / "summary.png")
    assert plot.width > 300 and plot.height > 200
    folders = [f for f in art.iterdir() if f.is_dir()]
    assert len(folders) == len(KINDS)
    for folder in folders:
        assert (folder / "contact-sheet.png").exists() and (folder / "actions.jsonl").exists()


def test_a_case_retried_after_a_device_loss_shows_both_attempts(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_calc=CALC_TASKS)
    pytester.makeconftest(MIXED_AGENT)
    alluredir = pytester.path / "allure-results"
    result = pytester.runpytest_subprocess(
        "-p",
        "no:cacheprovider",
        "--agent=mixed",
        f"--alluredir={alluredir}",
        "test_calc.py::test_arithmetic[9 - 1-9-1=-8]",
    )
    result.assert_outcomes(passed=1)
    (case,) = allure_results(alluredir)
    assert case["status"] == "passed" and "statusDetails" not in case
    first, second = case["steps"]
    assert first["name"].startswith("Attempt 1 on emulator-") and "retried on another device" in first["name"]
    assert second["name"].startswith("Attempt 2 on emulator-") and first["name"] != second["name"]
    assert [s["name"] for s in first["steps"]][-1].startswith("Device lost")
    assert len([s for s in second["steps"] if s["name"].startswith("Step ")]) == 4
    # Described once, by the attempt that counted.
    got = labels(case)
    assert got["agent"] == ["mixed"] and got["feature"] == ["calculator"]
    assert params(case)["device"]["value"] == second["name"].split(" on ")[1]
    assert params(case)["step of success"]["value"] == "4"
