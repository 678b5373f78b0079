"""The harness's own cost per step and per reset, beside a MobileAgentBench-style loop.

    python benchmarks/harness_overhead.py [--episodes 20] [--mab-steps 4]

Per step the harness captures an observation (screenshot + hierarchy), executes the action,
drains the accessibility events and runs the success check; the agent's thinking is not part
of it (the oracle thinks in microseconds). The MobileAgentBench-style loop does what its
orchestrator does per step: sleep 1 s, AndroidViewClient dump (its default 1 s sleep
included, as MobileAgentBench calls it), a snapshot. Both run in this process on the same
virtual device. Targets: harness p50 <= 50 ms per step, reset <= 150 ms per task.
"""

from __future__ import annotations

import argparse
import statistics
import time

from pytest_mobile_agent.actions import Tap
from pytest_mobile_agent.agents.builtin import OracleAgent
from pytest_mobile_agent.device.android import AndroidDevice
from pytest_mobile_agent.device.pool import DevicePool, DeviceSource
from pytest_mobile_agent.device.ui_tree import UiTree
from pytest_mobile_agent.episode import EpisodeRunner
from pytest_mobile_agent.events.log import EventLog
from pytest_mobile_agent.tasks import instantiate, task

CALC = "com.simplemobiletools.calculator"


@task(prompt="Calculate the result of '{expression}'", app=CALC, golden=lambda keys: [Tap(text=k) for k in keys])
def body(ui: UiTree, events: EventLog, expected: str) -> None:
    assert ui.text_of("result") == expected
    assert events.clicked(text="=")


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def harness(device: AndroidDevice, pool: DevicePool, episodes: int) -> tuple[list[float], list[float]]:
    spec = body.__mobile_task__  # type: ignore[attr-defined]
    params = {"expression": "12 × 4", "keys": "12×4=", "expected": "48"}
    instance = instantiate(spec, "calculator_multiply", params)
    stream = pool.event_stream(device)
    steps, resets = [], []
    for _ in range(episodes):
        t0 = time.perf_counter()
        device.reset_app([CALC])
        device.launch(CALC)
        device._await_foreground(CALC)
        resets.append(time.perf_counter() - t0)
        log = EventLog(lambda: stream.events, stream.sync)
        log.mark()
        ui = UiTree()

        def check(view: EventLog, ui: UiTree = ui) -> tuple[bool, str]:
            try:
                body(ui, view, params["expected"])
                return True, ""
            except AssertionError as exc:
                return False, str(exc)

        ep = EpisodeRunner(
            device, OracleAgent(), instance, check=check, ui=ui, events=log, budget=10, step_timeout=None, max_invalid=3
        ).run()
        assert ep.success_step == instance.golden_steps, f"oracle did not succeed: {ep.termination} {ep.error}"
        steps += [s.device_s + s.harness_s for s in ep.steps]
    return steps, resets


def mab_loop(serial: str, steps: int) -> list[float]:
    from pytest_mobile_agent.device.adb_server import expose_adb_on_path

    expose_adb_on_path()
    from com.dtmilano.android.viewclient import ViewClient

    device, serialno = ViewClient.connectToDeviceOrExit(serialno=serial, verbose=False)
    vc = ViewClient(device, serialno, autodump=False)
    times = []
    for _ in range(steps):
        t0 = time.perf_counter()
        time.sleep(1)  # the orchestrator's "sleep is important here"
        vc.dump()  # as MobileAgentBench calls it: AndroidViewClient's default 1 s sleep included
        vc.device.takeSnapshot(reconnect=True)
        times.append(time.perf_counter() - t0)
    return times


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--episodes", type=int, default=20)
    ap.add_argument("--mab-steps", type=int, default=4)
    args = ap.parse_args()
    pool = DevicePool(DeviceSource("virtual"))
    device = pool.lease()
    try:
        harness(device, pool, 2)  # warm up: listener install, caches
        steps, resets = harness(device, pool, args.episodes)
        mab = mab_loop(device.serial, args.mab_steps)
    finally:
        pool.release()
    h50, m50 = statistics.median(steps), statistics.median(mab)
    r50 = statistics.median(resets)
    print(f"virtual device, {args.episodes} oracle episodes of calculator_multiply ({len(steps)} steps)")
    print(f"{'measure':44} {'p50':>9} {'p90':>9} {'target':>9}")
    print(
        f"{'harness per step (obs+action+events+check)':44} {h50 * 1000:7.1f}ms {pct(steps, 0.9) * 1000:7.1f}ms "
        f"{'<=50ms':>9} {'PASS' if h50 <= 0.05 else 'FAIL'}"
    )
    print(f"{'MobileAgentBench-style loop per step':44} {m50 * 1000:7.1f}ms {pct(mab, 0.9) * 1000:7.1f}ms")
    print(
        f"{'reset per task (stop, clear, launch, wait)':44} {r50 * 1000:7.1f}ms {pct(resets, 0.9) * 1000:7.1f}ms "
        f"{'<=150ms':>9} {'PASS' if r50 <= 0.15 else 'FAIL'}"
    )
    print(f"ratio MobileAgentBench-style / harness per step: {m50 / h50:.0f}x")


if __name__ == "__main__":
    main()
