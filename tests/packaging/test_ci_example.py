"""examples/ci works as shipped: its workflow's steps run as a script, in order, without GitHub.

The plugin comes from a clean clone of this checkout (no built APK: pip's build of the wheel makes
it), `python` is a fresh virtual environment, and the agent repository is a temporary one with a
my_agent.py. The `uses:` steps are GitHub's own actions: the checkout is that temporary
repository, node is this machine's, and the upload is checked as the files it would keep."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import yaml
from packaging_helpers import GOLDEN_AGENT, REPO, clean_clone, fresh_venv, offline_env

WORKFLOW = REPO / "examples" / "ci" / "mobile-agent-benchmark.yml"
GITHUB_ACTIONS = ("actions/checkout@", "actions/setup-node@", "actions/upload-artifact@")


def test_the_ci_example_runs_as_shipped(tmp_path: Path) -> None:
    job = yaml.safe_load(WORKFLOW.read_text())["jobs"]["benchmark"]
    assert job["container"].startswith("python:3.11")
    plugin = clean_clone(tmp_path / "plugin")
    assert not (plugin / "pytest_mobile_agent" / "device" / "listener.apk").exists()
    agent_repo = tmp_path / "agent"
    agent_repo.mkdir()
    (agent_repo / "my_agent.py").write_text(GOLDEN_AGENT)
    (agent_repo / "pyproject.toml").write_text(
        '[build-system]\nrequires = ["setuptools"]\nbuild-backend = "setuptools.build_meta"\n\n'
        '[project]\nname = "my-agent"\nversion = "0"\n\n[tool.setuptools]\npy-modules = ["my_agent"]\n'
    )
    venv_bin = fresh_venv(tmp_path / "venv")
    runner_temp = tmp_path / "runner-temp"
    runner_temp.mkdir()
    env = offline_env(venv_bin, **{k: str(v) for k, v in job["env"].items()})
    env.update(PLUGIN_REPO=str(plugin), RUNNER_TEMP=str(runner_temp))

    ran = []
    for step in job["steps"]:
        if "uses" in step:
            assert step["uses"].startswith(GITHUB_ACTIONS), step
            continue
        done = subprocess.run(
            ["bash", "-e", "-c", step["run"]], cwd=agent_repo, env=env, capture_output=True, text=True, timeout=900
        )
        assert done.returncode == 0, f"step {step['name']!r} failed:\n{done.stdout[-6000:]}\n{done.stderr[-6000:]}"
        ran.append(step["name"])
    assert len(ran) == 3

    # The plugin the tasks ran with is the wheel installed in the venv, with its APK.
    where = subprocess.run(
        ["python", "-c", "import pytest_mobile_agent.device.listener as l; print(l.shipped_apk_path())"],
        env=env,
        capture_output=True,
        text=True,
        cwd=tmp_path,
    ).stdout.strip()
    assert where.startswith(str(tmp_path / "venv")) and Path(where).stat().st_size > 1000, where
    # What the upload step keeps.
    lines = [json.loads(line) for line in (agent_repo / "results.jsonl").read_text().splitlines()]
    episodes = [r for r in lines if r["type"] == "episode"]
    # Every suite's tasks of those apps run: multi-app queries (task_suites/mobilebench) are
    # recorded under the app they start with.
    assert {"calculator", "notes"} <= {e["app"] for e in episodes}
    assert len(episodes) >= 20 and all(e["success"] for e in episodes)
    assert any((agent_repo / "trajectories").iterdir())
    assert (agent_repo / "allure-report" / "index.html").stat().st_size > 100_000
