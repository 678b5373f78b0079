"""SPA-Bench's fine detection (Chen et al., ICLR 2025, §5.2, App. D.2, E): a multimodal model
judges the whole trajectory.

Reasoning modes: `result_only` ("Result: 1|0") and `direct` (reason, then result). Action
modes: `no_action` (screenshots only), `text_action` (a line per action between two
screenshots) and `with_action` (each screenshot with its action drawn on it: a dot where it
touched, the action written below). SPA-Bench used result_only + with_action for English
tasks (the default here) and direct + text_action for Chinese: `mllm:direct:text_action`.
The answer is read with SPA-Bench's rule, the last `Result: <digit>`; an answer without one
abstains (passed None), never crashes.

Cross-app tasks (the task declares `subtasks=[{"app": pkg, "task": ..., "history": bool,
"memory": phrase}, ...]`; for a task of several apps that declares none, the model splits it
first, as SPA-Bench's subtask generation does before its human review): the trajectory is
split by app (stage 1: here from the foreground package after each step, which the device
reports exactly, instead of SPA-Bench's model split; the same validity rules: every app
present, in order, segments not overlapping), then each subtask is judged on its slice in
order (stage 2), with what earlier subtasks found about their `memory` phrase; the task fails
at the first failed subtask.
"""

from __future__ import annotations

import json
import re
from typing import Any

from pytest_mobile_agent.judges import prompts
from pytest_mobile_agent.judges.base import Trajectory, Verdict

REASONING = ("result_only", "direct")
ACTION_MODES = ("no_action", "text_action", "with_action")
_RESULT = re.compile(r"Result\s*[:：]\s*\**\s*([01])\b")


def parse_result(text: str) -> bool | None:
    found = _RESULT.findall(text or "")
    return None if not found else found[-1] == "1"


class Usage:
    """Tokens and cost of the replies one verdict took."""

    def __init__(self) -> None:
        self.tokens_in = self.tokens_out = 0
        self.cost_usd: float | None = None

    def add(self, reply: Any) -> Any:
        self.tokens_in += reply.tokens_in
        self.tokens_out += reply.tokens_out
        if reply.cost_usd is not None:
            self.cost_usd = (self.cost_usd or 0.0) + reply.cost_usd
        return reply

    def verdict(self, passed: bool | None, reason: str, **details: Any) -> Verdict:
        return Verdict(passed, reason, self.tokens_in, self.tokens_out, self.cost_usd, details)


def _messages(
    task: str, shots: list[tuple[bytes, dict | None, str | None]], reasoning: str, action_mode: str, history: str = ""
) -> list[dict[str, Any]]:
    from pytest_mobile_agent import drawing
    from pytest_mobile_agent.models import system, user

    sys_text = prompts.MLLM_SYSTEM + (prompts.MLLM_ACTIONS if action_mode != "no_action" else "")
    lines = [prompts.MLLM_TASK.format(task=task, history=history)]
    images: list[Any] = []
    for i, (png, action, tree) in enumerate(shots):
        if action_mode == "with_action" and action is not None:
            images.append(drawing.annotate(png, action, tree, width=720, caption=f"screenshot {i}"))
        else:
            images.append(png)
        if action_mode == "text_action" and action is not None:
            lines.append(prompts.MLLM_TEXT_ACTION.format(i=i, j=i + 1, action=drawing.describe(action)))
    lines.append(prompts.MLLM_RESULT_ONLY if reasoning == "result_only" else prompts.MLLM_DIRECT)
    return [system(sys_text), user("\n".join(lines), images=images)]


Shot = tuple[bytes, dict | None, str | None]  # a screenshot, the action taken on it, its hierarchy


def _shots(trajectory: Trajectory, start: int = 0, end: int | None = None) -> list[Shot]:
    """Screenshots start..end (inclusive) with the action taken on each (None on the last)."""
    end = len(trajectory.screenshots) - 1 if end is None else end
    out = []
    for i in range(start, end + 1):
        png = trajectory.screenshots[i]
        if png is None:
            continue
        action = trajectory.steps[i].action if i < len(trajectory.steps) and i < end else None
        out.append((png, action, trajectory.hierarchies[i]))
    return out


def split_by_app(trajectory: Trajectory, apps: list[str]) -> list[tuple[int, int]] | str:
    """Stage 1: (start, end) screenshot indexes per app in order, or why the split is invalid."""
    from pytest_mobile_agent.device.ui_tree import UiTree

    packages = [UiTree(h).package if h else "" for h in trajectory.hierarchies]
    segments = []
    cursor = 0
    for app in apps:
        start = next((i for i in range(cursor, len(packages)) if packages[i] == app), -1)
        if start < 0:
            return f"{app} never reached the foreground after screenshot {cursor}"
        end = start
        while end + 1 < len(packages) and packages[end + 1] in (app, ""):
            end += 1
        segments.append((start, end))
        cursor = end + 1
    return segments


class MllmJudge:
    name = "mllm"
    needs_screenshots = True

    def __init__(self, client: Any, reasoning: str = "result_only", action_mode: str = "with_action") -> None:
        if reasoning not in REASONING:
            raise ValueError(f"reasoning mode must be one of {', '.join(REASONING)}, not {reasoning!r}")
        if action_mode not in ACTION_MODES:
            raise ValueError(f"action mode must be one of {', '.join(ACTION_MODES)}, not {action_mode!r}")
        self.client, self.reasoning, self.action_mode = client, reasoning, action_mode

    def ask(self, task: str, shots: list, usage: Usage, history: str = "") -> tuple[bool | None, str]:
        reply = usage.add(self.client.chat(_messages(task, shots, self.reasoning, self.action_mode, history)))
        return parse_result(reply.text), reply.text

    def judge(self, trajectory: Trajectory) -> Verdict:
        shots = _shots(trajectory)
        if not shots:
            return Verdict(None, "no screenshots were kept")
        usage = Usage()
        subtasks = trajectory.inputs.get("subtasks")
        if not subtasks and len(trajectory.apps) > 1:
            subtasks = self.split(trajectory, usage)
            if isinstance(subtasks, str):
                return usage.verdict(None, f"the subtask split is unusable: {subtasks}")
        if subtasks:
            return self._cross_app(trajectory, subtasks, usage)
        passed, text = self.ask(trajectory.prompt, shots, usage)
        if passed is None:
            return usage.verdict(None, f"the answer has no 'Result: 1|0': {text[:120]!r}", answer=text[:500])
        return usage.verdict(passed, text.strip()[:300] or ("success" if passed else "failure"), answer=text[:500])

    def split(self, trajectory: Trajectory, usage: Usage) -> list[dict[str, Any]] | str:
        """The model's subtasks for a cross-app task, or why its answer cannot be used."""
        from pytest_mobile_agent.models import user

        prompt = prompts.MLLM_SPLIT.format(apps=", ".join(trajectory.apps), task=trajectory.prompt)
        text = usage.add(self.client.chat([user(prompt)])).text
        start, end = text.find("{"), text.rfind("}")
        try:
            data = json.loads(text[start : end + 1]) if 0 <= start < end else None
        except ValueError:
            data = None
        if not isinstance(data, dict) or not data:
            return f"not a JSON object: {text[:100]!r}"
        subtasks = [data[k] for k in sorted(data, key=lambda k: int(re.sub(r"\D", "", k) or 0))]
        for n, sub in enumerate(subtasks, start=1):
            if not isinstance(sub, dict) or sub.get("app") not in trajectory.apps or not sub.get("task"):
                return f"subtask {n} names no app of the task or no task: {str(sub)[:100]}"
        return subtasks

    def _cross_app(self, trajectory: Trajectory, subtasks: list[dict[str, Any]], usage: Usage) -> Verdict:
        segments = split_by_app(trajectory, [s["app"] for s in subtasks])
        if isinstance(segments, str):
            return usage.verdict(False, f"cross-app split invalid: {segments}", stage=1)
        memory: dict[str, str] = {}
        for n, (sub, (start, end)) in enumerate(zip(subtasks, segments, strict=True), start=1):
            task = sub["task"]  # its {placeholders} name memories, given below as history
            history = (
                "".join(prompts.MLLM_HISTORY.format(phrase=p, summary=s) for p, s in memory.items())
                if sub.get("history")
                else ""
            )
            passed, text = self.ask(task, _shots(trajectory, start, end), usage, history)
            if not passed:
                why = "an unusable answer" if passed is None else "failed"
                return usage.verdict(
                    None if passed is None else False, f"subtask {n} ({sub['app']}): {why}", stage=2, subtask=n
                )
            phrase = sub.get("memory")
            if phrase and phrase != "None":
                from pytest_mobile_agent.models import user

                reply = usage.add(
                    self.client.chat(
                        [
                            user(
                                prompts.MLLM_MEMORY.format(task=task, phrase=phrase),
                                images=[s[0] for s in _shots(trajectory, start, end)],
                            )
                        ]
                    )
                )
                memory[phrase] = reply.text.strip()
        return usage.verdict(True, f"all {len(subtasks)} subtasks passed", stage=2)
