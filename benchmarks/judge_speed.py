"""What the key-component judge costs: OCR per screenshot, cold and cached, and the coarse
judge per episode (SPA-Bench's scan from the last screenshot backwards).

Run: python benchmarks/judge_speed.py [--tasks 20]

The suite runs once per agent (oracle: the last screenshot matches, one OCR; near-miss: most
fail and every screenshot is read) with --mobile-artifacts; then, in this process:
- OCR cold: each distinct screenshot read with an empty cache (RapidOCR, downscaled, 1 thread);
- OCR cached, disk: a fresh OcrCache on the same folder (what another xdist worker or the next
  session sees); cached, memory: the same OcrCache again;
- the coarse judge per episode, cold and cached.
Medians; a shared machine makes the absolute figures noisy, the ratios within one run hold.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from pytest_mobile_agent.judges.base import Trajectory  # noqa: E402
from pytest_mobile_agent.judges.key_components import KeyComponentsJudge  # noqa: E402
from pytest_mobile_agent.judges.ocr import OcrCache  # noqa: E402
from pytest_mobile_agent.reporting.trajectory import slug  # noqa: E402
from task_suites.mobileagentbench.judge_inputs import JUDGE_INPUTS  # noqa: E402


def trajectories(agent: str, tasks: int, work: Path) -> list[Trajectory]:
    art, results = work / agent, work / f"{agent}.jsonl"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "task_suites/mobileagentbench",
            "-m",
            "not online",
            f"--agent={agent}",
            "-q",
            "-p",
            "no:randomly",
            f"--mobile-artifacts={art}",
            f"--mobile-results={results}",
        ],
        cwd=ROOT,
        capture_output=True,
        check=False,
    )
    out = []
    for line in results.read_text().splitlines():
        r = json.loads(line)
        if r["type"] != "episode":
            continue
        key = r["task"] if not r["task"].startswith("test_") else r["nodeid"].split("[")[1].split("-")[0]
        if "key_components" not in JUDGE_INPUTS[key]:
            continue
        shots = [p.read_bytes() for p in sorted((art / slug(r["nodeid"])).glob("step-*.png"))]
        out.append(
            Trajectory(key, r["prompt"], tuple(r["apps"]), [], shots, [None] * len(shots), inputs=JUDGE_INPUTS[key])
        )
    return out[:tasks]


def median_ms(values: list[float]) -> str:
    return f"{statistics.median(values) * 1000:8.1f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", type=int, default=20)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="judge-speed-"))
    try:
        runs = {agent: trajectories(agent, args.tasks, work) for agent in ("oracle", "near-miss")}
        shots = list({png: None for t in runs["oracle"] for png in t.screenshots[-1:]})
        cache_dir = work / "ocr"
        cold = OcrCache(cache_dir)
        cold.texts(shots[0])  # load the models outside the timing
        cold.memory.clear()
        for path in cache_dir.rglob("*.json"):
            path.unlink()
        timings: dict[str, list[float]] = {"cold": [], "disk": [], "memory": []}
        disk = OcrCache(cache_dir)
        for png in shots:
            for label, cache in (("cold", cold), ("disk", disk), ("memory", disk)):
                t0 = time.perf_counter()
                cache.texts(png)
                timings[label].append(time.perf_counter() - t0)
        print(f"OCR per screenshot ({len(shots)} distinct oracle final screenshots)")
        for label, values in timings.items():
            ratio = statistics.median(timings["cold"]) / statistics.median(values)
            print(f"  {label:8} {median_ms(values)}   (cold / this: x{ratio:,.0f})")
        print("coarse judge (key components) per episode")
        for agent, trajs in runs.items():
            per: dict[str, list[float]] = {"cold": [], "cached": []}
            scanned = []
            judge_cold = KeyComponentsJudge(OcrCache(work / f"ocr-{agent}"))
            judge_cached = KeyComponentsJudge(OcrCache(work / f"ocr-{agent}"))
            for t in trajs:
                for label, judge in (("cold", judge_cold), ("cached", judge_cached)):
                    t0 = time.perf_counter()
                    verdict = judge.judge(t)
                    per[label].append(time.perf_counter() - t0)
                scanned.append(verdict.details.get("scanned", 0))
            passed = sum(bool(KeyComponentsJudge(OcrCache(work / f"ocr-{agent}")).judge(t).passed) for t in trajs)
            print(
                f"  {agent:9} {len(trajs)} episodes, {passed} passed, screenshots read per episode: median "
                f"{statistics.median(scanned):.0f}, max {max(scanned)}"
            )
            for label, values in per.items():
                print(f"    {label:7} {median_ms(values)}")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
