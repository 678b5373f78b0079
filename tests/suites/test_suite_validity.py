"""Validity gates for the built-in task suite: the oracle passes every task with step ratio
1.0, the noop agent fails every task (a task that passes under noop cannot fail), and every
near miss fails, having run as written. Each suite run uses two xdist workers."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import suite_runs

ROOT = Path(__file__).resolve().parents[2]
SUITE = ROOT / "task_suites" / "mobileagentbench"  # the other suites have gates of their own


def run_suite(tmp_path: Path, agent: str, *args: str) -> tuple[subprocess.CompletedProcess, list[dict]]:
    return suite_runs.run_suite(SUITE, tmp_path, agent, *args)


def collect(*args: str) -> list[str]:
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            str(SUITE),
            "--collect-only",
            "-q",
            "--agent=noop",
            "-p",
            "no:cacheprovider",
            *args,
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    return [line for line in proc.stdout.splitlines() if "::" in line]


@pytest.fixture(scope="module")
def collected() -> list[str]:
    """The offline tasks: what virtual devices run."""
    return collect("-m", "not online")


def test_the_suite_has_100_offline_and_6_online_tasks(collected):
    assert len(collected) == 100
    assert len(collect("-m", "online")) == 6


def test_online_tasks_are_skipped_with_the_reason_when_their_app_is_missing(tmp_path):
    proc, episodes = run_suite(tmp_path, "oracle", "-m", "online", "-rs")
    assert episodes == [] and "6 skipped" in proc.stdout
    assert "online task: com.google.android.apps.maps is not installed" in proc.stdout


def test_oracle_passes_every_task_with_step_ratio_1(tmp_path, collected):
    proc, episodes = run_suite(tmp_path, "oracle", "-m", "not online", "-n", "2")
    assert proc.returncode == 0, proc.stdout[-3000:]
    assert len(episodes) == len(collected) > 0
    bad = [(e["task"], e["steps"], e["golden_steps"]) for e in episodes if not e["success"] or e["se"] != 1.0]
    assert not bad, f"tasks the oracle did not solve in exactly the golden steps: {bad}"


def test_noop_fails_every_task(tmp_path, collected):
    proc, episodes = run_suite(tmp_path, "noop", "-m", "not online", "-n", "2")
    assert len(episodes) == len(collected) > 0
    broken = [e["nodeid"] for e in episodes if e["success"]]
    assert not broken, f"tasks that pass without a single action are broken: {broken}"


def near_misses_per_task(collected: list[str]) -> dict[str, int]:
    """How many near misses each collected task declares (from its @task spec)."""
    import importlib

    from pytest_mobile_agent.tasks import spec_of

    counts = {}
    for nodeid in collected:
        path, _, test = nodeid.partition("::")
        module = importlib.import_module(path.removesuffix(".py").replace("/", "."))
        spec = spec_of(getattr(module, test.split("[")[0]))
        counts[nodeid] = len(spec.near_misses()) if spec else 0
    return counts


def test_near_misses_fail_and_run_as_written(tmp_path, collected):
    """Every near miss (something similar instead of what was asked, or the goal plus a change
    nobody asked for) must fail, after executing every step as written: the check tells right
    from almost right, and no near miss fails only because a step of it could not run."""
    counts = near_misses_per_task(collected)
    both_families = [n for n, k in counts.items() if k >= 2]
    assert len(both_families) >= 60, f"only {len(both_families)} tasks declare two or more near misses"
    proc, episodes = run_suite(tmp_path, "near-miss", "-m", "near_miss and not online", "-n", "2")
    assert len(episodes) == sum(counts.values()), proc.stdout[-3000:]
    suite_runs.assert_near_misses_fail_as_written(episodes)
