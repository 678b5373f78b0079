"""What the fingerprint costs an episode: its adb reads (once per device and process) and its
source hash (once per task), on a virtual device, against the episode's own wall time.

    python benchmarks/fingerprint_cost.py [--rounds 50]

Printed, median and p90 over the rounds, in milliseconds:
- `device facts, cold`: the one adb shell that reads the device's kind, Android version,
  display, font scale and night mode (a new process's first episode pays it once per device);
- `app versions, cold`: the one adb shell that reads the versions of a task's apps (3 apps);
- `source hash, cold` / `warm`: the task part of the MobileAgentBench calculator suite's file,
  with its files read (the first task of a file) and with their hashes known (the others);
- `per episode after the first`: what every later episode pays (cached facts, canonical JSON
  and its sha256);
beside `oracle episode`: the median wall time of a calculator episode under the oracle agent,
read from a results file written by one pytest session, for scale.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from pytest_mobile_agent.device.android import AndroidDevice
from pytest_mobile_agent.reporting import fingerprint
from pytest_mobile_agent.virtual import virtual_devices

ROOT = Path(__file__).resolve().parents[1]
SUITE_FILE = ROOT / "task_suites" / "mobileagentbench" / "test_calculator.py"
APPS = ("com.simplemobiletools.calculator", "com.simplemobiletools.notes", "com.simplemobiletools.contacts.pro")


def timed(fn: Callable[[], Any], rounds: int, before: Callable[[], None] = lambda: None) -> list[float]:
    out = []
    for _ in range(rounds):
        before()
        t0 = time.perf_counter()
        fn()
        out.append((time.perf_counter() - t0) * 1000)
    return out


def line(name: str, ms: list[float]) -> str:
    ms = sorted(ms)
    return f"{name:<30} median {statistics.median(ms):8.3f} ms   p90 {ms[int(len(ms) * 0.9) - 1]:8.3f} ms"


def episode_wall_ms() -> float:
    """The median wall time of the calculator suite's episodes under the oracle agent."""
    with tempfile.TemporaryDirectory() as tmp:
        results = Path(tmp) / "results.jsonl"
        cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:randomly", "-n", "0"]
        cmd += [str(SUITE_FILE), "--agent=oracle", f"--mobile-results={results}"]
        subprocess.run(cmd, cwd=ROOT, capture_output=True, check=False)
        walls = [r["wall_s"] for r in map(json.loads, results.read_text().splitlines()) if r["type"] == "episode"]
    return statistics.median(walls) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=50)
    rounds = parser.parse_args().rounds
    import importlib

    sys.path.insert(0, str(ROOT))
    module = importlib.import_module("task_suites.mobileagentbench.test_calculator")
    item = SimpleNamespace(path=SUITE_FILE, config=SimpleNamespace(rootpath=ROOT), module=module)
    with virtual_devices(1) as devices:
        device = AndroidDevice(devices[0].serial)
        facts = timed(lambda: fingerprint.device_facts(device), rounds, fingerprint._devices.clear)
        apps = timed(lambda: fingerprint.app_versions(device, APPS), rounds, fingerprint._apps.clear)
        cold = timed(lambda: fingerprint.source_hash(item), rounds, fingerprint.file_hash.cache_clear)
        warm = timed(lambda: fingerprint.source_hash(item), rounds)
        whole = {"device": fingerprint.device_facts(device), "apps": fingerprint.app_versions(device, APPS)}

        def later_episode() -> None:
            fingerprint.device_facts(device)
            fingerprint.app_versions(device, APPS)
            fingerprint.fingerprint_id(whole)

        later = timed(later_episode, rounds)
    print(line("device facts, cold", facts))
    print(line("app versions, cold (3 apps)", apps))
    print(line("source hash, cold", cold))
    print(line("source hash, warm", warm))
    print(line("per episode after the first", later))
    print(f"{'oracle episode (for scale)':<30} median {episode_wall_ms():8.1f} ms")


if __name__ == "__main__":
    main()
