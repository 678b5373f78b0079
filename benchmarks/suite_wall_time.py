"""Wall time of the whole MobileAgentBench suite under the oracle, with -n 1 and -n 2.

    python benchmarks/suite_wall_time.py

Each run is a fresh pytest session on virtual devices (device start-up included), as a user
runs it; both go through pytest-xdist (`-n 1` is one worker), so the ratio compares workers.
Targets: -n 2 <= 90 s on a 2-core machine, and -n 2 at least 1.6x faster than -n 1.
Unset PYTHONDONTWRITEBYTECODE when measuring: with it, every process recompiles everything.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run(workers: int) -> tuple[float, int, int]:
    with tempfile.TemporaryDirectory() as tmp:
        results = Path(tmp) / "results.jsonl"
        cmd = [
            sys.executable,
            "-m",
            "pytest",
            "task_suites",
            "--agent=oracle",
            "-q",
            "-p",
            "no:cacheprovider",
            f"--mobile-results={results}",
        ]
        cmd += ["-n", str(workers)]  # as the issue states it: xdist with one worker, then two
        start = time.perf_counter()
        proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
        wall = time.perf_counter() - start
        episodes = [r for r in map(json.loads, results.read_text().splitlines()) if r["type"] == "episode"]
    if proc.returncode != 0:
        print(proc.stdout[-2000:], file=sys.stderr)
    return wall, len(episodes), sum(e["success"] for e in episodes)


def main() -> None:
    one = run(1)
    two = run(2)
    print(f"{'run':10} {'wall s':>8} {'episodes':>9} {'passed':>7}")
    for name, (wall, n, ok) in (("-n 1", one), ("-n 2", two)):
        print(f"{name:10} {wall:8.1f} {n:9d} {ok:7d}")
    speedup = one[0] / two[0]
    print(f"-n 2 wall time: {two[0]:.1f} s (target <= 90 s: {'PASS' if two[0] <= 90 else 'FAIL'})")
    print(f"speed-up -n 2 vs -n 1: {speedup:.2f}x (target >= 1.6x: {'PASS' if speedup >= 1.6 else 'FAIL'})")


if __name__ == "__main__":
    main()
