"""Gates for the suites' drawn variations (@task(variations=...), --mobile-variations): at least
30 tasks vary; the same seed draws the same variations in two processes, another seed others;
under `--mobile-variations=2` the oracle passes every variation in its golden steps, noop fails
every one, and every variation's near misses fail, having run as written. The gates run the
varied tasks of all three suites in one session over two xdist workers."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import suite_runs

HERE = Path(__file__).resolve().parent
SUITES = suite_runs.ROOT / "task_suites"
SEED = "31"  # any seed; the gates' one, fixed so that a failure can be rerun
VARIED = ("--mobile-variations=2", f"--mobile-seed={SEED}", "-m", "variations and not online")


def collect(*args: str) -> list[dict]:
    """`pytest task_suites --collect-only -q` in a process of its own: each task item's node id,
    task, variation and parameters (tests/suites/drawn_plugin.py)."""
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", str(SUITES), "--collect-only", "-q", "--agent=noop", "-p", "drawn_plugin"]
        + ["-p", "no:cacheprovider", "-p", "no:randomly", *args],
        cwd=suite_runs.ROOT,
        env={**os.environ, "PYTHONPATH": os.pathsep.join([str(HERE), os.environ.get("PYTHONPATH", "")])},
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    return [json.loads(line.removeprefix("DRAWN ")) for line in proc.stdout.splitlines() if line.startswith("DRAWN ")]


@pytest.fixture(scope="module")
def drawn() -> list[dict]:
    return collect(*VARIED)


def test_at_least_30_tasks_vary_each_in_every_variation(drawn):
    tasks = {d["task"] for d in drawn}
    assert len(tasks) >= 30, f"only {len(tasks)} tasks declare variations: {sorted(tasks)}"
    for task in tasks:
        assert sorted(d["variation"] for d in drawn if d["task"] == task) == [1, 2], task


def test_the_same_seed_draws_the_same_variations_in_another_process(drawn):
    assert collect(*VARIED) == drawn


def test_another_seed_draws_other_variations(drawn):
    other = collect("--mobile-variations=2", "--mobile-seed=32", "-m", "variations and not online")
    assert [d["nodeid"] for d in other] == [d["nodeid"] for d in drawn]  # the ids name the variation, not its values
    differ = [a["nodeid"] for a, b in zip(drawn, other) if a["params"] != b["params"]]
    # A few tasks draw from small sets (a digit to cube), so a variation may come out the same.
    assert len(differ) >= 0.8 * len(drawn), f"only {len(differ)} of {len(drawn)} variations changed with the seed"


def test_the_variations_differ_from_each_other_and_from_the_declared_task(drawn):
    declared = {d["nodeid"]: d["params"] for d in collect("-m", "not online")}
    same = [d["nodeid"] for d in drawn if d["params"] in declared.values()]
    assert len(same) <= 0.2 * len(drawn), f"variations equal to a declared case: {same}"


def run_varied(tmp_path: Path, agent: str, *args: str) -> tuple[subprocess.CompletedProcess, list[dict]]:
    return suite_runs.run_suite(SUITES, tmp_path, agent, *VARIED, "-n", "2", *args)


def test_oracle_passes_every_variation_in_its_golden_steps(tmp_path, drawn):
    proc, episodes = run_varied(tmp_path, "oracle")
    assert proc.returncode == 0, proc.stdout[-3000:]
    assert sorted(e["nodeid"] for e in episodes) == sorted(d["nodeid"] for d in drawn)
    bad = [(e["nodeid"], e["params"], e["steps"]) for e in episodes if not e["success"] or e["se"] != 1.0]
    assert not bad, f"variations the oracle did not solve in exactly the golden steps: {bad}"


def test_noop_fails_every_variation(tmp_path, drawn):
    proc, episodes = run_varied(tmp_path, "noop")
    assert len(episodes) == len(drawn) > 0, proc.stdout[-3000:]
    broken = [(e["nodeid"], e["params"]) for e in episodes if e["success"]]
    assert not broken, f"variations that pass without a single action are broken: {broken}"


def test_every_near_miss_of_every_variation_fails_as_written(tmp_path, drawn):
    proc, episodes = run_varied(tmp_path, "near-miss", "-m", "variations and near_miss and not online")
    assert {e["variation"] for e in episodes} == {1, 2}, proc.stdout[-3000:]
    variations = tuple(d["nodeid"].removesuffix("]") + "-" for d in drawn)  # the near miss's label follows
    assert all(e["nodeid"].startswith(variations) for e in episodes)
    suite_runs.assert_near_misses_fail_as_written(episodes, " (variations)")
