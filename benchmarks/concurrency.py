"""Many concurrent episodes on one machine: wall time against the bound, and memory per episode.

    python benchmarks/concurrency.py [--workers 2 4 8 16 32] [--latency 1.0] [--rounds 1]
                                     [--warm-start auto off] [--startup-workers 8]

30 MobileAgentBench tasks (calculator, notes, app launcher) run under an oracle agent that
sleeps a simulated model latency before each answer (the agent calls of a model-backed agent
are mostly waiting), as `pytest -n N` sessions on virtual devices, start-up included. The
bound is what no scheduler can beat: the larger of (agent calls x latency / N) and the longest
episode (its calls x latency). Printed per N: wall time, bound, share of the bound (bound /
wall), and the peak memory per concurrent episode, i.e. the proportional set size (PSS: shared
pages split among their users) of the xdist workers and their virtual devices summed, over N;
the controller is shown apart. Then where the time goes: when the workers made their first
agent call (start-up: pytest, plugins, collection, device boot, listener), when the last
episode ended, and the session's end. Targets (issue 19): >= 85% of the bound at N = 16,
>= 75% at N = 32, <= 100 MB per concurrent episode.

The CPU column is the CPU time the whole session used (controller, workers, devices): on C
CPUs no session can end sooner than CPU / C, whatever the latency. `--suite-plugins` loads only
the plugins the suite uses (xdist, allure-pytest, this one), as the README suggests for CI.
Sessions run without PYTHONDONTWRITEBYTECODE (after one warm-up that writes the bytecode
caches), as a user's do: with it, every worker compiles and rewrites every module again.

Every row runs with warm start (`--mobile-warm-start=auto`: workers and devices forked from one
warm process) and without (`off`: each a Python of its own), side by side. Then the start-up
cost per worker in CPU-seconds, which depends far less on the machine's load than wall time:
the same K short tasks (no latency) at -n 1 and at -n K, (CPU(K) - CPU(1)) / (K - 1): a worker,
its device, and what the controller spends on one more worker. (One task at -n K would not do:
workers come up only while tasks are left to hand out.)

On a shared machine the absolute figures are noisy: every session here runs beside whatever
else the machine runs, so compare the rows of one run and repeat with --rounds.
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
import threading
import time
from pathlib import Path

import reference  # benchmarks/reference.py: the machine's load and a fixed CPU loop

ROOT = Path(__file__).resolve().parents[1]
SELECT = "calculator or notes or applauncher"  # the app markers: 30 tasks
# Eight short tasks (1 to 3 steps), for the start-up cost: run by one worker, then by eight.
SHORT_TASKS = (
    "note_open",
    "note_item_checked",
    "launcher_hide_app_name",
    "note_search",
    "launcher_search_app",
    "note_add",
    "launcher_open_about_faq",
    "note_open_about",
)
AGENT = '''
import os, time
from pytest_mobile_agent.agents.builtin import OracleAgent

LATENCY = float(os.environ["PMA_BENCH_LATENCY"])
CALLS = os.environ["PMA_BENCH_CALLS"]


class Agent:
    """The oracle, thinking LATENCY seconds per call like a model behind an API."""

    name, model = "oracle+latency", None

    def __init__(self):
        self.oracle = OracleAgent()

    def step(self, observation):
        with open(CALLS, "a") as f:
            f.write(f"{os.getpid()} {time.time():.3f}\\n")
        time.sleep(LATENCY)
        return self.oracle.step(observation)
'''


def children(pid: int) -> dict[int, list[int]]:
    """The process tree under `pid`: parent -> children (from /proc)."""
    tree: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        tree.setdefault(ppid, []).append(int(entry))
    return tree


def pss_kb(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


class MemorySampler(threading.Thread):
    """Peak PSS of the session's processes: the controller apart, everything under it summed."""

    def __init__(self, root: int, every: float = 1.0) -> None:
        super().__init__(daemon=True)
        self.root, self.every = root, every
        self.peak_kb, self.controller_kb, self.peak_processes = 0, 0, 0
        self.done = threading.Event()

    def run(self) -> None:
        while not self.done.wait(self.every):
            tree = children(self.root)
            below, stack = [], list(tree.get(self.root, []))
            while stack:
                pid = stack.pop()
                below.append(pid)
                stack.extend(tree.get(pid, []))
            total = sum(pss_kb(p) for p in below)
            if total > self.peak_kb:
                self.peak_kb, self.peak_processes = total, len(below)
            self.controller_kb = max(self.controller_kb, pss_kb(self.root))


SUITE_PLUGINS = ("xdist.plugin", "allure_pytest.plugin", "pytest_mobile_agent.plugin")


def session_env(latency: float, calls: Path | None, suite_plugins: bool) -> dict[str, str]:
    env = {**os.environ, "PMA_BENCH_LATENCY": str(latency), "PMA_BENCH_CALLS": str(calls)}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    if suite_plugins:
        env["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
    return env


def plugin_args(suite_plugins: bool) -> list[str]:
    return [arg for plugin in SUITE_PLUGINS for arg in ("-p", plugin)] if suite_plugins else []


def warm_up(suite_plugins: bool) -> None:
    """One collection, so that the bytecode caches (and pytest's rewritten test modules) exist."""
    cmd = [
        sys.executable,
        "-m",
        "pytest",
        "-q",
        "-p",
        "no:cacheprovider",
        "--collect-only",
        "task_suites/mobileagentbench",
        "-m",
        SELECT,
        "--agent=oracle",
        *plugin_args(suite_plugins),
    ]
    subprocess.run(cmd, cwd=ROOT, env=session_env(0, None, suite_plugins), capture_output=True, check=True)


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_session(workers: int, latency: float, suite_plugins: bool, warm: str, narrow: tuple[str, ...] = ()) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        agent, results, calls = Path(tmp) / "latency_agent.py", Path(tmp) / "results.jsonl", Path(tmp) / "calls.txt"
        agent.write_text(AGENT)
        env = session_env(latency, calls, suite_plugins)
        cmd = [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "task_suites/mobileagentbench",
            "-m",
            SELECT,
            *narrow,
            f"--agent={agent}",
            f"--mobile-results={results}",
            f"--mobile-warm-start={warm}",
            "-n",
            str(workers),
        ]
        cmd += plugin_args(suite_plugins)
        start, cpu = time.time(), children_cpu()
        proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        sampler = MemorySampler(proc.pid)
        sampler.start()
        output = proc.communicate()[0]
        wall, cpu = time.time() - start, children_cpu() - cpu
        sampler.done.set()
        sampler.join()
        if proc.returncode != 0:
            print(output[-3000:], file=sys.stderr)
        episodes = [r for r in map(json.loads, results.read_text().splitlines()) if r["type"] == "episode"]
        stamps = [line.split() for line in calls.read_text().splitlines()]
    first_call: dict[str, float] = {}
    for pid, at in stamps:
        first_call.setdefault(pid, float(at) - start)
    # An agent call: each step, plus the final "done" of an episode the agent completed.
    per_episode = [e["steps"] + (e["termination"] == "completed") for e in episodes]
    return {
        "warm": warm,
        "workers": workers,
        "wall": wall,
        "cpu": cpu,
        "episodes": len(episodes),
        "passed": sum(e["success"] for e in episodes),
        "calls": sum(per_episode),
        "calls_seen": len(stamps),
        "longest": max(per_episode),
        "peak_mb": sampler.peak_kb / 1024,
        "processes": sampler.peak_processes,
        "controller_mb": sampler.controller_kb / 1024,
        "first_calls": sorted(first_call.values()),
        "last_call_end": max(float(at) for _, at in stamps) - start + latency,
    }


def startup_cpu(workers: int, tasks: int, warm: str, suite_plugins: bool) -> float:
    """CPU-seconds of a session of `tasks` short tasks at -n `workers` (no latency): start-up,
    the episodes, shut-down."""
    run = run_session(workers, 0.0, suite_plugins, warm, narrow=("-k", " or ".join(SHORT_TASKS[:tasks])))
    assert run["episodes"] == tasks, f"{run['episodes']} episodes, expected {tasks}"
    return run["cpu"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, nargs="+", default=[2, 4, 8, 16, 32])
    parser.add_argument("--latency", type=float, default=1.0, help="simulated model latency per agent call (s)")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--suite-plugins", action="store_true", help="load only xdist, allure-pytest and this plugin")
    parser.add_argument("--warm-start", nargs="+", default=["auto", "off"], choices=["auto", "off"])
    parser.add_argument(
        "--startup-workers",
        type=int,
        default=8,
        choices=range(0, len(SHORT_TASKS) + 1),
        metavar=f"0..{len(SHORT_TASKS)}",
        help="K of the start-up cost per worker (0: skip)",
    )
    args = parser.parse_args()
    warm_up(args.suite_plugins)
    keys = [(mode, n) for n in args.workers for mode in args.warm_start]
    rows: dict[tuple[str, int], list[dict]] = {key: [] for key in keys}
    startup: dict[tuple[str, int], list[float]] = {}
    k = args.startup_workers
    for r in range(args.rounds):
        for key in keys if r % 2 == 0 else reversed(keys):  # alternate: drift favours no row
            rows[key].append(run_session(key[1], args.latency, args.suite_plugins, key[0]))
        if k > 1:
            for mode in args.warm_start:
                for n in (1, k):
                    startup.setdefault((mode, n), []).append(startup_cpu(n, k, mode, args.suite_plugins))
    print(
        f"\n30 MobileAgentBench tasks (calculator, notes, app launcher), oracle + {args.latency:g} s per agent call, "
        f"virtual devices; {'only the suite' if args.suite_plugins else 'all installed'} plugins; "
        f"medians of {args.rounds} round(s)\nat the end: {reference.describe()}"
    )
    head = (
        "workers",
        "warm start",
        "episodes",
        "calls",
        "wall s",
        "bound s",
        "share",
        "CPU s",
        "MB/episode",
        "controller MB",
    )
    print("  ".join(f"{h:>13}" for h in head))
    for mode, n in keys:
        runs = rows[mode, n]
        last = runs[-1]
        wall = statistics.median(x["wall"] for x in runs)
        bound = max(last["calls"] * args.latency / n, last["longest"] * args.latency)
        per_episode = statistics.median(x["peak_mb"] / n for x in runs)
        cells = (
            f"-n {n}",
            mode,
            f"{last['passed']}/{last['episodes']}",
            str(last["calls"]),
            f"{wall:.1f}",
            f"{bound:.1f}",
            f"{bound / wall:.0%}",
            f"{statistics.median(x['cpu'] for x in runs):.0f}",
            f"{per_episode:.0f}",
            f"{statistics.median(x['controller_mb'] for x in runs):.0f}",
        )
        print("  ".join(f"{c:>13}" for c in cells))
    print("\nwhere the time goes (last round; seconds after the session was launched):")
    print(
        "  ".join(
            f"{h:>13}"
            for h in (
                "workers",
                "warm start",
                "1st worker",
                "median worker",
                "last worker",
                "last episode",
                "session end",
            )
        )
    )
    for mode, n in keys:
        x = rows[mode, n][-1]
        firsts = x["first_calls"]
        cells = (
            f"-n {n}",
            mode,
            f"{firsts[0]:.1f}",
            f"{statistics.median(firsts):.1f}",
            f"{firsts[-1]:.1f}",
            f"{x['last_call_end']:.1f}",
            f"{x['wall']:.1f}",
        )
        print("  ".join(f"{c:>13}" for c in cells))
    print(
        "(a worker's time is its first agent call: pytest, plugins, collection, its device's boot and listener "
        "done; workers that never got a task are not counted)"
    )
    if startup:
        print(
            f"\nstart-up CPU per worker ({k} short tasks, no latency; (CPU at -n {k} - CPU at -n 1) / {k - 1}; "
            "medians):"
        )
        per = {}
        for mode in args.warm_start:
            one, many = statistics.median(startup[mode, 1]), statistics.median(startup[mode, k])
            per[mode] = (many - one) / (k - 1)
            print(
                f"  warm start {mode:>4}: -n 1 {one:.2f} CPU-s, -n {k} {many:.2f} CPU-s, "
                f"{per[mode]:.3f} CPU-s per worker"
            )
        if {"auto", "off"} <= per.keys() and per["auto"] > 0:
            print(f"  off / auto: {per['off'] / per['auto']:.1f}x")
    for (mode, n), runs in rows.items():
        x = runs[-1]
        if x["calls_seen"] != x["calls"]:
            print(
                f"note -n {n} ({mode}): {x['calls_seen']} agent calls seen, {x['calls']} counted from the results "
                "(a retried episode calls the agent again)"
            )


if __name__ == "__main__":
    main()
