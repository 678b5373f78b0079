"""The acceptance test of the reset: the oracle suite on one device, run first to last and then
last to first, leaves every task in the same end state. Whatever ran before a task, it started
from the same device state (a state that leaked from one task to the next would show here as a
task whose end state depends on the order)."""

from __future__ import annotations

import difflib
import json
import os
import re
import subprocess
import sys
from pathlib import Path

from pytest_mobile_agent.device.durable_state import DurableState

ROOT = Path(__file__).resolve().parents[2]
SUITE = ROOT / "task_suites" / "mobileagentbench"  # the other suites have gates of their own
HERE = Path(__file__).resolve().parent
# The device clock runs on: a file made during a task shows the minute it was made, and the two runs
# may fall either side of a minute. Clock readings are not state that leaked, so they are masked.
CLOCK = re.compile(r"\b\d{1,2}:\d{2}\b")


def without_clock(hierarchy: str) -> str:
    return CLOCK.sub("hh:mm", hierarchy)


def end_states(tmp_path: Path, reverse: bool) -> tuple[dict[str, dict], list[str]]:
    """Run the oracle suite in one order on one device; each task's end state, and the order."""
    out = tmp_path / ("reverse.jsonl" if reverse else "forward.jsonl")
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(HERE), os.environ.get("PYTHONPATH", "")]),
        "PMA_END_STATES": str(out),
        "PMA_REVERSE_ORDER": "1" if reverse else "0",
    }
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            str(SUITE),
            "--agent=oracle",
            "-m",
            "not online",
            "-p",
            "end_state_plugin",
            "-p",
            "no:randomly",
            "-p",
            "no:cacheprovider",
            "-q",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    states = [json.loads(line) for line in out.read_text().splitlines()]
    order = [s["nodeid"] for s in states]
    assert len(order) == len(set(order)), "one end state per task"
    return {s["nodeid"]: s for s in states}, order


def test_forward_and_reverse_order_end_in_the_same_states(tmp_path: Path) -> None:
    forward, forward_order = end_states(tmp_path, reverse=False)
    backward, backward_order = end_states(tmp_path, reverse=True)
    assert len(forward) == 100 and backward_order == forward_order[::-1]
    assert all(s["success"] for s in forward.values()) and all(s["success"] for s in backward.values())
    differ = []
    for nodeid, state in forward.items():
        other = backward[nodeid]
        if state["durable"] != other["durable"]:
            diff = DurableState(state["durable"]).diff(DurableState(other["durable"]))
            differ.append(f"{nodeid}: durable state, forward -> reverse:\n{diff}")
        if without_clock(state["hierarchy"]) != without_clock(other["hierarchy"]):
            before, after = without_clock(state["hierarchy"]).split("><"), without_clock(other["hierarchy"]).split("><")
            lines = difflib.unified_diff(before, after, lineterm="", n=0)
            differ.append(f"{nodeid}: final hierarchy, forward -> reverse:\n" + "\n".join(list(lines)[2:12]))
    assert not differ, "end states depend on the order the tasks ran in:\n" + "\n".join(differ)
