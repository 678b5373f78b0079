"""`python -m pytest_mobile_agent.reporting` outside a checkout: Allure 3 installed on first use into
the user cache, a clear message when node or npm is missing, the report kind chosen by the run's
size, and an output directory that holds something else left alone."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from pytest_mobile_agent.reporting.allure import SINGLE_FILE_MAX_CASES


def write_results(directory: Path, count: int) -> Path:
    """Hand-written Allure results: `count` passed cases, no attachments."""
    directory.mkdir(parents=True, exist_ok=True)
    for i in range(count):
        case = str(uuid.uuid4())
        result = {
            "uuid": case,
            "name": f"case {i}",
            "fullName": f"test_x.py#test_{i}",
            "historyId": f"h{i}",
            "status": "passed",
            "start": 1_700_000_000_000 + i,
            "stop": 1_700_000_000_100 + i,
            "labels": [],
        }
        (directory / f"{case}-result.json").write_text(json.dumps(result))
    return directory


def report(args: list[str], cwd: Path, **env: str) -> subprocess.CompletedProcess:
    environ = {k: v for k, v in os.environ.items() if k != "ALLURE"}
    environ.update(env)
    return subprocess.run(
        [sys.executable, "-m", "pytest_mobile_agent.reporting", *args],
        cwd=cwd,
        env=environ,
        capture_output=True,
        text=True,
        timeout=600,
    )


def test_without_node_the_message_names_what_to_install(tmp_path: Path) -> None:
    bin_dir = tmp_path / "bin"  # PATH holds python and nothing else: no node, no npm
    bin_dir.mkdir()
    os.symlink(sys.executable, bin_dir / "python")
    write_results(tmp_path / "results", 1)
    done = report(["results"], tmp_path, PATH=str(bin_dir), PYTEST_MOBILE_AGENT_CACHE=str(tmp_path / "cache"))
    assert done.returncode == 1
    assert "node and npm are not on PATH" in done.stderr
    assert "sudo apt-get install nodejs npm" in done.stderr and "https://nodejs.org" in done.stderr
    assert "Traceback" not in done.stderr
    assert not (tmp_path / "allure-report").exists()


def test_first_use_installs_the_pinned_allure_into_the_cache(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    write_results(tmp_path / "results", 2)
    first = report(["results", "-o", "report"], tmp_path, PYTEST_MOBILE_AGENT_CACHE=str(cache))
    assert first.returncode == 0, first.stderr
    assert "installing Allure 3 (npm ci)" in first.stderr
    (installed,) = cache.glob("allure-*/node_modules/.bin/allure")
    lock = json.loads((installed.parents[2] / "package-lock.json").read_text())
    assert lock["packages"]["node_modules/allure"]["version"] == "3.18.0"
    assert first.stdout.strip() == str(tmp_path / "report" / "index.html")
    again = report(["results", "-o", "report"], tmp_path, PYTEST_MOBILE_AGENT_CACHE=str(cache))
    assert again.returncode == 0 and "installing" not in again.stderr  # the earlier report is replaced
    assert not list(cache.glob("allure-*-*"))  # no staging directory left behind


@pytest.mark.parametrize(
    "count, flag, multi",
    [
        (SINGLE_FILE_MAX_CASES, None, False),
        (SINGLE_FILE_MAX_CASES + 1, None, True),
        (SINGLE_FILE_MAX_CASES + 1, "--single-file", False),
        (1, "--multi-file", True),
    ],
)
def test_the_report_kind_follows_the_run_size(tmp_path: Path, count: int, flag: str | None, multi: bool) -> None:
    write_results(tmp_path / "results", count)
    done = report(["results", "-o", "report", *([flag] if flag else [])], tmp_path)
    assert done.returncode == 0, done.stderr
    data = tmp_path / "report" / "data" / "test-results"
    assert data.is_dir() == multi
    assert ("python -m http.server -d" in done.stderr) == multi
    ids = json.loads((tmp_path / "report" / "test-results.json").read_text())["byId"]
    assert len(ids) == count


def test_an_output_directory_holding_something_else_is_left_alone(tmp_path: Path) -> None:
    write_results(tmp_path / "results", 1)
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "todo.txt").write_text("keep me")
    done = report(["results", "-o", "notes"], tmp_path)
    assert done.returncode == 1
    assert "is not empty and holds no earlier Allure report" in done.stderr
    assert [p.name for p in (tmp_path / "notes").iterdir()] == ["todo.txt"]
