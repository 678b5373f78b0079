"""The built-in model agents' own time per step, beside the harness's own.

    python benchmarks/agent_overhead.py [--episodes 10]

Each built-in agent (t3a, m3a, appagent, mobile-bench) runs calculator episodes on one virtual
device, with an in-process model that answers at once (the golden model of the tests, given
the golden path): so what is timed is the agent's work outside the model, per step: reading the
screen into elements, building the prompt, drawing the marks and encoding the screenshot,
parsing the answer (T3A and M3A include their step summaries' prompts). The harness's own time
per step (observation, action, events, success check: `device_s + harness_s`) is measured in
the same episodes. Target: agent p50 <= 10 ms per step. Figures from a loaded machine are noisy;
compare the columns of one run.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the tests' golden model

from benchmarks.harness_overhead import CALC, body, pct  # noqa: E402
from pytest_mobile_agent.agents.baselines import MODEL_AGENTS  # noqa: E402
from pytest_mobile_agent.device.pool import DevicePool, DeviceSource  # noqa: E402
from pytest_mobile_agent.device.ui_tree import UiTree  # noqa: E402
from pytest_mobile_agent.episode import EpisodeRunner  # noqa: E402
from pytest_mobile_agent.events.log import EventLog  # noqa: E402
from pytest_mobile_agent.models import ModelConfig, ModelStats, Reply  # noqa: E402
from pytest_mobile_agent.tasks import instantiate  # noqa: E402
from tests.models.golden_model import GoldenModel  # noqa: E402


class InstantModel:
    """A ChatClient look-alike answering from the golden model, in process: no HTTP, no wait."""

    def __init__(self, golden: GoldenModel) -> None:
        self.golden = golden
        self.config = ModelConfig(model="instant")
        self.stats = ModelStats()

    def chat(self, messages: list[dict[str, Any]], **params: Any) -> Reply:
        return Reply(self.golden({"messages": messages}), 0, 0, None)

    def take_stats(self) -> ModelStats:
        return ModelStats()


def run(agent_name: str, pool: DevicePool, device: Any, episodes: int) -> tuple[list[float], list[float],
                                                                             list[float], int]:
    spec = body.__mobile_task__  # type: ignore[attr-defined]
    params = {"expression": "12 × 4", "keys": "12×4=", "expected": "48"}
    instance = instantiate(spec, "calculator_multiply", params)
    golden = GoldenModel(Path("."))
    golden.paths = {instance.prompt: [a.to_json() for a in instance.golden]}
    agent = MODEL_AGENTS[agent_name](InstantModel(golden))  # type: ignore[abstract]
    stream = pool.event_stream(device)
    harness: list[float] = []
    wins = 0
    for _ in range(episodes):
        device.reset_app([CALC])
        device.launch(CALC)
        device._await_foreground(CALC)
        log = EventLog(lambda: stream.events, stream.sync)
        log.mark()
        ui = UiTree()

        def judge(view: EventLog, ui: UiTree = ui) -> tuple[bool, str]:
            try:
                body(ui, view, params["expected"])
                return True, ""
            except AssertionError as exc:
                return False, str(exc)

        ep = EpisodeRunner(device, agent, instance, judge=judge, ui=ui, events=log, budget=12, step_timeout=None,
                           max_invalid=3).run()
        wins += ep.success_step is not None
        harness += [s.device_s + s.harness_s for s in ep.steps]
    return agent.overhead_s, agent.overhead_cpu_s, harness, wins


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--episodes", type=int, default=10)
    args = ap.parse_args()
    pool = DevicePool(DeviceSource("virtual"))
    device = pool.lease()
    rows = []
    try:
        for name in MODEL_AGENTS:
            run(name, pool, device, 1)  # warm up: imports, fonts, caches
            rows.append((name, *run(name, pool, device, args.episodes)))
    finally:
        pool.release()
    w, h = device.window_size()
    print(f"virtual device {w}x{h} (screenshots fitted into 1024 px by a whole factor), "
          f"{args.episodes} episodes of calculator_multiply per agent, an instant in-process model")
    print(f"{'agent':14} {'steps':>6} {'agent p50':>10} {'agent p90':>10} {'cpu p50':>9} {'harness p50':>12} "
          f"{'harness p90':>12} {'agent/harness':>14} {'target':>8}")
    for name, agent_s, cpu_s, harness_s, wins in rows:
        a50, h50 = statistics.median(agent_s), statistics.median(harness_s)
        print(f"{name:14} {len(agent_s):6d} {a50 * 1e3:8.2f}ms {pct(agent_s, 0.9) * 1e3:8.2f}ms "
              f"{statistics.median(cpu_s) * 1e3:7.2f}ms {h50 * 1e3:10.2f}ms {pct(harness_s, 0.9) * 1e3:10.2f}ms "
              f"{a50 / h50:13.2f}x {'<=10ms':>8} {'PASS' if a50 <= 0.010 else 'FAIL'}  ({wins}/{args.episodes} solved)")
    print("agent = wall time outside the model per step; cpu = the same in the agent thread's CPU time, "
          "steadier when other processes load the machine")


if __name__ == "__main__":
    main()
