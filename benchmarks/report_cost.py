"""What reports cost a run: the MobileAgentBench suite with the random agent at `-n 2`, without
reports, with `--alluredir`, and with `--alluredir` and `--mobile-artifacts`, side by side.

    python benchmarks/report_cost.py [--rounds 3] [-n 2] [-k EXPR] [--keep DIR]

Each run is a fresh pytest session on virtual devices, as a user runs it. The three
configurations alternate within every round, in a rotating order, so a machine that grows
busier weighs on all of them alike; the verdicts use the medians. Printed per configuration:
- wall seconds of the session;
- CPU seconds of the session's processes (the children's rusage: pytest, its xdist workers and
  the virtual devices they start; not the adb server, a daemon shared by every run);
- bytes per episode of the Allure results and of the artifacts folder (the same in every round:
  the random agent is seeded);
and the ratios to the run without reports.
Targets (issue 35): with both outputs at most 1.25x the wall time without them; at most 0.5 MB
of Allure results and 0.5 MB of artifacts per episode.
Every run writes `--mobile-results` (one small JSON line an episode) to count the episodes.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SUITE = "task_suites/mobileagentbench"
CONFIGS = ("none", "allure", "allure+artifacts")
WALL_TARGET, BYTES_TARGET = 1.25, 500_000


@dataclass
class Run:
    wall_s: float
    cpu_s: float
    episodes: int
    allure_bytes: int
    artifact_bytes: int


def size(path: Path) -> int:
    """Bytes of the files under `path` (hard links counted once, as the disk holds them)."""
    if not path.exists():
        return 0
    seen, total = set(), 0
    for p in path.rglob("*"):
        if p.is_file() and not p.is_symlink():
            st = p.stat()
            if (st.st_dev, st.st_ino) not in seen:
                seen.add((st.st_dev, st.st_ino))
                total += st.st_size
    return total


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_once(config: str, workers: int, select: str | None, out: Path) -> Run:
    """One pytest session of the suite under `config`; its outputs go under `out`."""
    out.mkdir(parents=True, exist_ok=True)
    results, allure, artifacts = out / "results.jsonl", out / "allure-results", out / "artifacts"
    cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:randomly", SUITE]
    cmd += ["--agent=random", "-n", str(workers), f"--mobile-results={results}"]
    cmd += ["-k", select] if select else []
    if config != "none":
        cmd += [f"--alluredir={allure}", "--clean-alluredir"]
    if config == "allure+artifacts":
        cmd += [f"--mobile-artifacts={artifacts}"]
    cpu0, t0 = children_cpu(), time.perf_counter()
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=False)
    wall, cpu = time.perf_counter() - t0, children_cpu() - cpu0
    if done.returncode not in (0, 1):  # 1: the random agent fails tasks, as it should
        print(done.stdout[-3000:], done.stderr[-3000:], file=sys.stderr)
        raise SystemExit(f"{config}: pytest exited {done.returncode}")
    lines = results.read_text().splitlines() if results.exists() else []
    episodes = sum(1 for r in map(json.loads, lines) if r.get("type") == "episode")
    return Run(wall, cpu, episodes, size(allure), size(artifacts))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("-n", dest="workers", type=int, default=2)
    parser.add_argument("-k", dest="select", help="pytest -k expression: a part of the suite")
    parser.add_argument("--keep", type=Path, help="keep the last round's outputs in this directory")
    args = parser.parse_args()
    runs: dict[str, list[Run]] = {c: [] for c in CONFIGS}
    load = os.getloadavg()[0]
    print(f"{SUITE}, --agent=random, -n {args.workers}, {args.rounds} round(s); load {load:.2f} at the start")
    print(f"{'round':>5} " + " ".join(f"{c + ' s':>18}" for c in CONFIGS))
    with tempfile.TemporaryDirectory(prefix="report-cost-") as tmp:
        for r in range(args.rounds):
            order = CONFIGS[r % 3 :] + CONFIGS[: r % 3]  # rotate who goes first
            for config in order:
                out = (args.keep if args.keep and r == args.rounds - 1 else Path(tmp) / f"r{r}") / config
                runs[config].append(run_once(config, args.workers, args.select, out))
            print(f"{r + 1:>5} " + " ".join(f"{runs[c][-1].wall_s:18.1f}" for c in CONFIGS))
    print(f"load {os.getloadavg()[0]:.2f} at the end")
    base_wall = statistics.median(x.wall_s for x in runs["none"])
    base_cpu = statistics.median(x.cpu_s for x in runs["none"])
    print(f"{'medians':18} {'wall s':>7} {'x':>6} {'CPU s':>7} {'x':>6} {'allure MB/ep':>13} {'artifacts MB/ep':>16}")
    for config in CONFIGS:
        wall = statistics.median(x.wall_s for x in runs[config])
        cpu = statistics.median(x.cpu_s for x in runs[config])
        last = runs[config][-1]
        per = max(1, last.episodes)
        print(
            f"{config:18} {wall:7.1f} {wall / base_wall:5.2f}x {cpu:7.1f} {cpu / base_cpu:5.2f}x "
            f"{last.allure_bytes / per / 1e6:13.3f} {last.artifact_bytes / per / 1e6:16.3f}"
        )
    episodes = {c: runs[c][-1].episodes for c in CONFIGS}
    print("episodes (last round): " + ", ".join(f"{c} {n}" for c, n in episodes.items()))
    both = runs["allure+artifacts"]
    ratios = sorted(b.wall_s / n.wall_s for b, n in zip(both, runs["none"]))
    ratio = statistics.median(b.wall_s for b in both) / base_wall
    print(f"per-round wall ratios, both / none: {', '.join(f'{x:.2f}x' for x in ratios)}")
    verdict = "PASS" if ratio <= WALL_TARGET else "FAIL"
    print(f"wall time with both outputs / without: {ratio:.2f}x (target <= {WALL_TARGET}x: {verdict})")
    last, per = both[-1], max(1, both[-1].episodes)
    for name, total in (("Allure results", last.allure_bytes), ("artifacts", last.artifact_bytes)):
        verdict = "PASS" if total / per <= BYTES_TARGET else "FAIL"
        print(f"{name} per episode: {total / per / 1e6:.3f} MB (target <= {BYTES_TARGET / 1e6} MB: {verdict})")


if __name__ == "__main__":
    main()
