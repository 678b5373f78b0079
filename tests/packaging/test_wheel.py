"""The wheel built from a clean clone carries the listener APK (the build makes it); where the
APK's build tools are missing the build stops with the command that installs them. Installed into
a fresh venv, the wheel runs a task file that lies outside any checkout, and its report command
works."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

from calc_tasks import SUMS, calc_tasks
from packaging_helpers import clean_clone, fresh_venv, offline_env, run

APK = "pytest_mobile_agent/device/listener.apk"


def build_wheel(source: Path, out: Path, env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(out), str(source)],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )


def test_the_wheel_carries_the_apk_and_runs_a_task_from_a_fresh_venv(tmp_path: Path) -> None:
    source = clean_clone(tmp_path / "clone")
    env = offline_env(fresh_venv(tmp_path / "venv"))
    built = build_wheel(source, tmp_path / "dist", env)
    assert built.returncode == 0, built.stdout + built.stderr
    (wheel,) = (tmp_path / "dist").glob("pytest_mobile_agent-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert APK in names
    assert {
        "pytest_mobile_agent/reporting/npm/package.json",
        "pytest_mobile_agent/reporting/npm/package-lock.json",
        "pytest_mobile_agent/reporting/allurerc.mjs",
        "pytest_mobile_agent/reporting/categories.json",
    } <= set(names)

    run(["python", "-m", "pip", "install", "-q", "--no-deps", str(wheel)], env=env)
    work = tmp_path / "elsewhere"
    work.mkdir()
    (work / "test_calc.py").write_text(calc_tasks(SUMS[:2]))
    session = run(
        [
            "python",
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            "--agent=oracle",
            "--alluredir=results",
            "--mobile-results=results.jsonl",
            "test_calc.py",
        ],
        env=env,
        cwd=work,
        timeout=600,
    )
    assert "2 passed" in session.stdout
    records = [json.loads(line) for line in (work / "results.jsonl").read_text().splitlines()]
    assert [r["success"] for r in records if r["type"] == "episode"] == [True, True]
    where = run(["python", "-c", "import pytest_mobile_agent as p; print(p.__file__)"], env=env, cwd=work).stdout
    assert where.startswith(str(tmp_path / "venv")), where

    report = run(["python", "-m", "pytest_mobile_agent.reporting", "results", "-o", "report"], env=env, cwd=work)
    assert report.stdout.strip().splitlines()[-1] == str(work / "report" / "index.html")


def test_a_wheel_without_the_build_tools_names_the_command_to_install_them(tmp_path: Path) -> None:
    source = clean_clone(tmp_path / "clone")
    # Only bash, git and python on PATH: none of aapt, javac, dx ...
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for tool in ("bash", "git", "dirname", "sed", "find", "mkdir"):
        found = subprocess.run(["which", tool], capture_output=True, text=True).stdout.strip()
        os.symlink(found, bin_dir / tool)
    env = offline_env(fresh_venv(tmp_path / "venv"))
    env["PATH"] = f"{tmp_path / 'venv' / 'bin'}{os.pathsep}{bin_dir}"
    built = build_wheel(source, tmp_path / "dist", env)
    assert built.returncode != 0
    out = built.stdout + built.stderr
    assert "the wheel must carry the listener app's APK" in out
    assert "aapt not found" in out
    assert "bash listener_app/install-build-deps.sh" in out
    assert not list((tmp_path / "dist").glob("*.whl"))
