"""The built-in model agents' own time per step, beside the harness's own.

    python benchmarks/agent_overhead.py [--episodes 10] [--agents NAME ...] [--breakdown]

Each built-in model agent (agents/loader.py's MODEL_AGENTS) runs calculator episodes on one
virtual device, with an in-process model that answers at once (the golden model of the tests,
given the golden path): so what is timed is the agent's work outside the model, per step:
reading the screen into elements, building the prompt, decoding and shrinking the screenshot,
drawing the marks and encoding the image, parsing the answer (T3A and M3A include their step
summaries' prompts). The figure that counts is the agent thread's CPU time (p50, p90): it is the
work done, where the wall time also holds the waits for other processes on a loaded machine
(printed too). The harness's own time per step (observation, action, events, success check:
`device_s + harness_s`, wall time) is measured in the same episodes. Target: agent CPU p50 <= 10
ms per step.
`--breakdown` adds a second pass that times each piece of m3a's and appagent's steps.
Figures from a loaded machine are noisy; compare the columns of one run.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
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
from pytest_mobile_agent.models.apis import api_for  # noqa: E402
from pytest_mobile_agent.tasks import instantiate  # noqa: E402
from tests.models.anthropic_route import anthropic_message  # noqa: E402
from tests.models.gemini_route import gemini_content  # noqa: E402
from tests.models.golden_model import GoldenModel  # noqa: E402
from tests.models.golden_screens import watch  # noqa: E402
from tests.models.responses_route import response  # noqa: E402

BODIES = {"anthropic": anthropic_message, "responses": response, "gemini": gemini_content}  # each API's reply


def _keys(value: Any, rename: Callable[[str], str]) -> Any:
    """Every key renamed (the google-genai SDK's camelCase wire form and its snake_case objects)."""
    if isinstance(value, dict):
        return {rename(k): _keys(v, rename) for k, v in value.items()}
    return [_keys(v, rename) for v in value] if isinstance(value, list) else value


class InstantModel:
    """A ChatClient look-alike answering from the golden model, in process: no HTTP, no wait."""

    def __init__(self, golden: GoldenModel, api: str = "chat") -> None:
        self.golden = golden
        self.config = ModelConfig(model="instant")
        self.api_name = api
        self.api = api_for(api)
        self.stats = ModelStats()

    def chat(self, messages: list[dict[str, Any]], **params: Any) -> Reply:
        return Reply(self.golden({"messages": messages}), 0, 0, None)

    def ask(self, request: dict[str, Any]) -> Reply:
        """An API's own request (the computer-use agents): the golden model's answer in that API's body."""
        if self.api_name == "gemini":  # as the SDK sends it: the config's tools beside the contents, camelCase
            request = _keys(
                {"contents": request["contents"], **request.get("config", {})},
                lambda k: re.sub(r"_([a-z])", lambda m: m.group(1).upper(), k),
            )
        answer = self.golden(request)
        data = BODIES[self.api_name](request, answer, 0, (0, 0))
        if self.api_name == "gemini":  # and as the SDK gives the answer back: snake_case
            data = _keys(data, lambda k: re.sub(r"([A-Z])", lambda m: "_" + m.group(1).lower(), k))
        return Reply(self.api.text(data), 0, 0, None, data=data)

    def take_stats(self) -> ModelStats:
        return ModelStats()


def run(
    agent_name: str, pool: DevicePool, device: Any, episodes: int
) -> tuple[list[float], list[float], list[float], int]:
    spec = body.__mobile_task__  # type: ignore[attr-defined]
    params = {"expression": "12 × 4", "keys": "12×4=", "expected": "48"}
    instance = instantiate(spec, "calculator_multiply", params)
    screens = Path(tempfile.mkdtemp(prefix="agent-overhead-"))
    golden = GoldenModel(screens)
    golden.paths = {instance.prompt: [a.to_json() for a in instance.golden]}
    # Each step's screen written where the golden model reads it (for the screenshot-only agents).
    api = getattr(MODEL_AGENTS[agent_name], "model_api", "chat")
    agent = watch(MODEL_AGENTS[agent_name](InstantModel(golden, api)), screens)  # type: ignore[abstract]
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

        def check(view: EventLog, ui: UiTree = ui) -> tuple[bool, str]:
            try:
                body(ui, view, params["expected"])
                return True, ""
            except AssertionError as exc:
                return False, str(exc)

        ep = EpisodeRunner(
            device, agent, instance, check=check, ui=ui, events=log, budget=12, step_timeout=None, max_invalid=3
        ).run()
        wins += ep.success_step is not None
        harness += [s.device_s + s.harness_s for s in ep.steps]
    return agent.overhead_s, agent.overhead_cpu_s, harness, wins


def breakdown(pool: DevicePool, device: Any, episodes: int) -> dict[str, dict[str, list[float]]]:
    """Each piece's CPU time per step, for the agents that send a screenshot: the pieces' functions
    wrapped with thread-time counters (a pass of its own: the wrappers cost a little)."""
    from pytest_mobile_agent.agents.baselines import appagent, m3a, marks, t3a

    pieces = {
        "decode PNG": [(marks, "decode")],
        "shrink": [(marks, "fit")],
        "elements": [(t3a, "ui_elements"), (appagent, "ui_elements")],
        "marks": [(m3a, "draw_marks"), (appagent, "draw_marks")],
        "encode JPEG": [(m3a, "image_part"), (appagent, "image_part")],
    }
    spent: dict[str, list[float]] = defaultdict(list)
    originals = [(mod, name, getattr(mod, name)) for targets in pieces.values() for mod, name in targets]

    def timed(label: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            c0 = time.thread_time()
            try:
                return fn(*args, **kwargs)
            finally:
                spent[label].append(time.thread_time() - c0)

        return wrapper

    out: dict[str, dict[str, list[float]]] = {}
    try:
        for label, targets in pieces.items():
            for mod, name in targets:
                setattr(mod, name, timed(label, getattr(mod, name)))
        for name in ("m3a", "appagent"):
            marks._fitted.cache_clear()
            spent.clear()
            _, cpu_s, _, _ = run(name, pool, device, episodes)
            steps = len(cpu_s)
            out[name] = {"total": cpu_s, **{label: [sum(spent[label]) / steps] for label in pieces}}
            out[name]["calls"] = [len(spent["decode PNG"])]
    finally:
        for mod, name, fn in originals:
            setattr(mod, name, fn)
    return out


def decoders(png: bytes, repeats: int = 20) -> tuple[float, float]:
    """CPU medians of decoding one screenshot with libspng (what the agents use) and with Pillow."""
    import io

    from PIL import Image

    from pytest_mobile_agent.models.messages import decode

    def median_cpu(fn: Callable[[], Any]) -> float:
        times = []
        for _ in range(repeats):
            c0 = time.thread_time()
            fn()
            times.append(time.thread_time() - c0)
        return statistics.median(times)

    return median_cpu(lambda: decode(png)), median_cpu(lambda: Image.open(io.BytesIO(png)).load())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--episodes", type=int, default=10)
    ap.add_argument("--agents", nargs="+", choices=list(MODEL_AGENTS), help="only these agents (default: all)")
    ap.add_argument("--breakdown", action="store_true", help="also time each piece of m3a's and appagent's steps")
    args = ap.parse_args()
    pool = DevicePool(DeviceSource("virtual"))
    device = pool.lease()
    rows = []
    pieces: dict[str, dict[str, list[float]]] = {}
    try:
        for name in args.agents or MODEL_AGENTS:
            run(name, pool, device, 1)  # warm up: imports, fonts, caches
            rows.append((name, *run(name, pool, device, args.episodes)))
        if args.breakdown:
            pieces = breakdown(pool, device, args.episodes)
            spng_s, pillow_s = decoders(device.screenshot())
    finally:
        pool.release()
    w, h = device.window_size()
    from PIL import Image

    from pytest_mobile_agent.models.messages import DEFAULT_IMAGE_SIDE, fit

    sw, sh = fit(Image.new("RGB", (w, h)), DEFAULT_IMAGE_SIDE)[0].size
    one, five, fifteen = os.getloadavg()
    load = f"load average {one:.2f} {five:.2f} {fifteen:.2f} on {os.cpu_count()} CPUs"
    print(
        f"virtual device {w}x{h}: m3a and appagent send its PNG screenshot as a {sw}x{sh} JPEG (quality 85); "
        f"{args.episodes} episodes of calculator_multiply per agent, an instant in-process model; {load}"
    )
    print(
        f"{'agent':22} {'steps':>6} {'cpu p50':>9} {'cpu p90':>9} {'wall p50':>9} {'wall p90':>9} "
        f"{'harness p50':>12} {'harness p90':>12} {'cpu/harness':>12}   target: cpu p50 <= 10 ms"
    )
    for name, wall_s, cpu_s, harness_s, wins in rows:
        c50, h50 = statistics.median(cpu_s), statistics.median(harness_s)
        print(
            f"{name:22} {len(cpu_s):6d} {c50 * 1e3:7.2f}ms {pct(cpu_s, 0.9) * 1e3:7.2f}ms "
            f"{statistics.median(wall_s) * 1e3:7.2f}ms {pct(wall_s, 0.9) * 1e3:7.2f}ms "
            f"{h50 * 1e3:10.2f}ms {pct(harness_s, 0.9) * 1e3:10.2f}ms {c50 / h50:11.2f}x   "
            f"{'PASS' if c50 <= 0.010 else 'FAIL'}  ({wins}/{args.episodes} solved)"
        )
    print(
        "cpu = the agent thread's CPU time outside the model per step; wall = the same in wall time (it also "
        "holds other processes' turns on a loaded machine); harness = its own wall time per step (device_s + "
        "harness_s)"
    )
    if pieces:
        labels = [k for k in next(iter(pieces.values())) if k not in ("total", "calls")]
        print("\nwhere the CPU time goes, mean ms per step (a second pass with each piece timed):")
        print(f"{'agent':14} {'total':>7} " + " ".join(f"{label:>12}" for label in labels) + f" {'the rest':>9}")
        for name, piece in pieces.items():
            total = statistics.mean(piece["total"])
            parts = [piece[label][0] for label in labels]
            print(
                f"{name:14} {total * 1e3:7.2f} "
                + " ".join(f"{v * 1e3:12.2f}" for v in parts)
                + f" {(total - sum(parts)) * 1e3:9.2f}   ({piece['calls'][0]} screens decoded in "
                f"{len(piece['total'])} steps)"
            )
        print(
            f"decoding one screenshot (CPU median of 20): libspng {spng_s * 1e3:.2f} ms (with the copy into "
            f"Pillow), Pillow's own decoder {pillow_s * 1e3:.2f} ms: {pillow_s / spng_s:.1f}x"
        )


if __name__ == "__main__":
    main()
