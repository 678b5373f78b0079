"""Wall time of the whole MobileAgentBench suite under the oracle, with -n 1 and -n 2.

    python benchmarks/suite_wall_time.py [--rounds 5]

Each run is a fresh pytest session on virtual devices (device start-up included), as a user
runs it; both go through pytest-xdist (`-n 1` is one worker), so the ratio compares workers.
Targets: -n 2 <= 90 s on a 2-core machine, and -n 2 at least 1.6x faster than -n 1.

Shared 2-CPU machines are noisy: the rounds alternate which run goes first and the verdict
uses the medians. Figures that put the ratio in context, measured in the same rounds:
- the fixed cost: the same sessions selecting a single task (start-up, one task, shut-down),
  which no number of workers can shorten;
- the floor inside it: pytest and xdist alone (the same plugins but this one, one empty test,
  no device), the part of the fixed cost no plugin can remove; from it, the best speed-up the
  suite could show if this plugin's own start-up (import, collection, device boot) were free;
- the same runs with only the plugins the suite uses (xdist, allure-pytest, this one):
  every pytest process imports every installed plugin, and those of this environment
  (hypothesis imports itself at the terminal summary, anyio imports trio) are paid at start
  and end of both the controller and each worker;
- the machine's own ceiling: a CPU-bound loop run alone, then twice at once; the throughput
  ratio is the most any two-process split can gain here (2.0 on two idle, independent CPUs).
Unset PYTHONDONTWRITEBYTECODE when measuring: with it, every process recompiles everything.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ONE_TASK = "calculator_point"
SUITE_PLUGINS = ("xdist.plugin", "allure_pytest.plugin", "pytest_mobile_agent.plugin")
LOOP = "x = 0\nfor i in range(6_000_000): x += i"


def timed_pytest(args: list[str], cwd: Path, plugins: Sequence[str] | None) -> float:
    """Wall seconds of one pytest session; `plugins`: load only these (None: all installed)."""
    env = dict(os.environ)
    cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *args]
    if plugins is not None:
        env["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
        cmd += [arg for plugin in plugins for arg in ("-p", plugin)]
    start = time.perf_counter()
    proc = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, env=env)
    wall = time.perf_counter() - start
    if proc.returncode != 0:
        print(proc.stdout[-2000:], proc.stderr[-2000:], file=sys.stderr)
    return wall


def run_suite(workers: int, select: str | None = None, only_suite_plugins: bool = False) -> tuple[float, int, int]:
    """Wall seconds, episodes and passed episodes of one pytest session."""
    with tempfile.TemporaryDirectory() as tmp:
        results = Path(tmp) / "results.jsonl"
        # -n 1: xdist too
        args = ["task_suites/mobileagentbench", "--agent=oracle", f"--mobile-results={results}", "-n", str(workers)]
        args += ["-k", select] if select else []
        wall = timed_pytest(args, ROOT, SUITE_PLUGINS if only_suite_plugins else None)
        lines = results.read_text().splitlines() if results.exists() else []
        episodes = [r for r in map(json.loads, lines) if r["type"] == "episode"]
    return wall, len(episodes), sum(e["success"] for e in episodes)


def run_floor(workers: int, only_suite_plugins: bool = False) -> float:
    """Wall seconds of pytest and xdist alone: one empty test, the same plugins but this one."""
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "test_empty.py").write_text("def test_empty():\n    pass\n")
        args = ["test_empty.py", "-n", str(workers)] + ([] if only_suite_plugins else ["-p", "no:mobile_agent"])
        return timed_pytest(args, Path(tmp), SUITE_PLUGINS[:-1] if only_suite_plugins else None)


def two_process_ceiling() -> float:
    """Throughput of two CPU-bound processes at once over one alone (2.0 = two full CPUs)."""

    def timed(copies: int) -> float:
        start = time.perf_counter()
        procs = [subprocess.Popen([sys.executable, "-c", LOOP]) for _ in range(copies)]
        for p in procs:
            p.wait()
        return time.perf_counter() - start

    alone, together = timed(1), timed(2)
    return 2 * alone / together


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    modes = {"installed": False, "suite-only": True}  # which plugins load: all installed, or the suite's
    walls = {(m, n): [] for m in modes for n in (1, 2)}
    fixed = {(m, n): [] for m in modes for n in (1, 2)}
    floor = {(m, n): [] for m in modes for n in (1, 2)}
    ceilings: list[float] = []
    counts: dict[tuple[str, int], tuple[int, int]] = {}
    heads = ("round", "plugins", "-n 1 s", "-n 2 s", "ratio", "1 task -n 1", "1 task -n 2")
    widths = (5, 10, 7, 7, 6, 11, 11)
    print(" ".join(f"{h:>{w}}" for h, w in zip(heads, widths)) + "  ceiling")
    for r in range(args.rounds):
        order = (1, 2) if r % 2 == 0 else (2, 1)  # alternate, so a drift of the machine favours neither
        for mode, only in modes.items():
            for n in order:
                wall, episodes, passed = run_suite(n, only_suite_plugins=only)
                walls[mode, n].append(wall)
                counts[mode, n] = (episodes, passed)
                fixed[mode, n].append(run_suite(n, ONE_TASK, only_suite_plugins=only)[0])
                floor[mode, n].append(run_floor(n, only_suite_plugins=only))
        ceilings.append(two_process_ceiling())
        for mode in modes:
            one, two = walls[mode, 1][-1], walls[mode, 2][-1]
            print(
                f"{r + 1:>5} {mode:>10} {one:7.1f} {two:7.1f} {one / two:5.2f}x "
                f"{fixed[mode, 1][-1]:10.1f}s {fixed[mode, 2][-1]:10.1f}s"
                + (f"  {ceilings[-1]:.2f}x" if mode == "installed" else "")
            )
    print(f"this machine, two CPU-bound processes vs one (median): {statistics.median(ceilings):.2f}x")
    for mode in modes:
        med = {n: statistics.median(walls[mode, n]) for n in (1, 2)}
        fix = {n: statistics.median(fixed[mode, n]) for n in (1, 2)}
        low = {n: statistics.median(floor[mode, n]) for n in (1, 2)}
        (e1, p1), (e2, p2) = counts[mode, 1], counts[mode, 2]
        speedup = med[1] / med[2]
        ratios = sorted(one / two for one, two in zip(walls[mode, 1], walls[mode, 2]))
        print(f"[{mode} plugins] episodes passed (last round): -n 1 {p1}/{e1}, -n 2 {p2}/{e2}")
        print(
            f"[{mode} plugins] fixed cost (one task, median): -n 1 {fix[1]:.1f} s, -n 2 {fix[2]:.1f} s; "
            f"beyond it, -n 2 is {(med[1] - fix[1]) / (med[2] - fix[2]):.2f}x faster"
        )
        print(
            f"[{mode} plugins] pytest and xdist alone (median): -n 1 {low[1]:.1f} s, -n 2 {low[2]:.1f} s; "
            f"were this plugin's own start-up and shut-down free, -n 2 would be "
            f"{(med[1] - fix[1] + low[1]) / (med[2] - fix[2] + low[2]):.2f}x faster"
        )
        print(f"[{mode} plugins] per-round speed-ups: {ratios[0]:.2f}x to {ratios[-1]:.2f}x")
        print(
            f"[{mode} plugins] -n 1 median {med[1]:.1f} s; -n 2 median {med[2]:.1f} s "
            f"(target <= 90 s: {'PASS' if med[2] <= 90 else 'FAIL'})"
        )
        print(
            f"[{mode} plugins] speed-up -n 2 vs -n 1: {speedup:.2f}x "
            f"(target >= 1.6x: {'PASS' if speedup >= 1.6 else 'FAIL'})"
        )


if __name__ == "__main__":
    main()
