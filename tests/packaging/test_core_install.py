"""A real core-only install: `pip install .` from a clean clone into a fresh venv of its own (no
system site packages, no extras), its dependencies from the package index. From a folder outside
the checkout it runs the MobileAgentBench tasks with the oracle, and a conftest there
records at the session's end which of the extras' modules were imported: none may be."""

from __future__ import annotations

import fcntl
import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from packaging_helpers import REPO, clean_clone, run

APK = Path("pytest_mobile_agent") / "device" / "listener.apk"
EXTRA_MODULES = ("openai", "onnxruntime", "rapidocr_onnxruntime", "matplotlib", "pyspng")
# Downloaded once from the index, then installed from with --no-index: pip's HTTP cache alone
# still asks the index for every project's page, which costs more than the install itself.
WHEELHOUSE = Path(os.environ.get("PIP_CACHE_DIR") or Path.home() / ".cache" / "pip") / "pytest-mobile-agent-core"

PROBE = """
import json, sys
from pathlib import Path

EXTRAS = {extras!r}


def pytest_sessionfinish(session):
    import pytest_mobile_agent

    Path("probe.json").write_text(json.dumps({{
        "plugin": pytest_mobile_agent.__file__,
        "imported": sorted(m for m in sys.modules if m.split(".")[0] in EXTRAS),
    }}))
"""


@contextmanager
def locked(folder: Path) -> Iterator[None]:
    """The wheelhouse to oneself: xdist workers and other checkouts may fill it at once."""
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


def pip_install_core(python: Path, source: Path) -> None:
    """`pip install .` in `source`, build requirements and dependencies from the wheelhouse,
    which the index fills where it lacks one (the first run, a new release, a new dependency)."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PIP_NO_INDEX", "PIP_FIND_LINKS")}
    offline = [str(python), "-m", "pip", "install", "-q", "--no-index", "--find-links", str(WHEELHOUSE), "."]
    with locked(WHEELHOUSE):
        if subprocess.run(offline, cwd=source, env=env, capture_output=True).returncode == 0:
            return
        fill = [str(python), "-m", "pip", "download", "-q", "-d", str(WHEELHOUSE), "setuptools>=68", "wheel", "."]
        run(fill, cwd=source, env=env, timeout=600)
        run(offline, cwd=source, env=env, timeout=600)


def test_pip_install_dot_runs_the_mobileagentbench_tasks_without_importing_the_extras(tmp_path: Path) -> None:
    source = clean_clone(tmp_path / "clone")
    if (REPO / APK).is_file():  # else the build makes it (listener_app/build.sh), as a user's does
        shutil.copy2(REPO / APK, source / APK)
    run([sys.executable, "-m", "venv", str(tmp_path / "venv")])
    python = tmp_path / "venv" / "bin" / "python"
    pip_install_core(python, source)

    packages = run([str(python), "-m", "pip", "list", "--format=json"]).stdout
    installed = {p["name"].lower() for p in json.loads(packages)}
    assert {"pytest-mobile-agent", "adbutils", "uiautomator2", "allure-pytest"} <= installed
    assert not installed & {"openai", "onnxruntime", "rapidocr-onnxruntime", "pyspng"}, installed

    work = tmp_path / "elsewhere"
    work.mkdir()
    (work / "conftest.py").write_text(PROBE.format(extras=EXTRA_MODULES))
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTEST_ADDOPTS")}
    session = subprocess.run(
        [
            str(python), "-m", "pytest", "-p", "no:cacheprovider", "--pyargs", "task_suites.mobileagentbench",
            "--agent=oracle", "-q", "--mobile-results=results.jsonl",
        ],
        cwd=work, env=env, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    out = session.stdout + session.stderr
    assert session.returncode == 0, out
    # All 100 offline tasks pass; the six online ones are skipped without their apps, as in any run.
    final = out.strip().splitlines()[-1]
    passed = re.fullmatch(r"=* ?(\d+) passed, 6 skipped in .*", final)
    assert passed and int(passed.group(1)) == 100, out
    probe = json.loads((work / "probe.json").read_text())
    assert probe["plugin"].startswith(str(tmp_path / "venv")), probe
    assert probe["imported"] == [], out
    records = [json.loads(line) for line in (work / "results.jsonl").read_text().splitlines()]
    assert [r["success"] for r in records if r["type"] == "episode"] == [True] * int(passed.group(1))
