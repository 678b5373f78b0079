"""A self-driving agent: it drives the device itself over adb and tells the harness about
each action through the recorder (the MobileAgentBench-style integration).

Run it:  pytest task_suites -k calculator --agent=examples/self_driving_agent.py

The integration is the marked lines: before_action(), after_action(...), done().
"""

from __future__ import annotations

import re

from pytest_mobile_agent import SelfDrivingTask, UiTree


class Agent:
    name = "self-driving-example"

    def run(self, task: SelfDrivingTask, recorder) -> None:  # noqa: ANN001 (recorder: see the README)
        adb = task.device.adb  # an adbutils device: what AppAgent-style code already uses
        quoted = re.search(r"'([^']+)'", task.prompt)
        keys = [c for c in (quoted.group(1) if quoted else "") if not c.isspace()] + ["="]
        for key in keys:
            if recorder.finished:  # integration: the budget is spent
                return
            recorder.before_action()  # integration
            node = UiTree(adb.dump_hierarchy()).find(text={"*": "×", "/": "÷"}.get(key, key), clickable=True)
            if node is None:
                break
            adb.click(*node.center)
            recorder.after_action(
                {"action": "tap", "x": node.center[0], "y": node.center[1]}, reasoning=f"press {key}"
            )  # integration
        recorder.done()  # integration: the agent believes the task is complete
