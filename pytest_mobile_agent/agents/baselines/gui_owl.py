"""GUI-Owl (Tongyi Lab's X-PLUG/MobileAgent: Mobile-Agent-v3 and v3.5) as a phone agent on its
own: the Qwen-VL `mobile_use` tool, with the templates GUI-Owl's AndroidWorld agents use.

GUI-Owl-7B and GUI-Owl-32B (Mobile-Agent-v3) see one turn: the task, the conclusions of the
earlier steps and the screenshot; they answer `<thinking>...</thinking>`, the call, then
`<conclusion>...</conclusion>`, with points in pixels of the image as the processor resized it
(a tool of eight actions: no `key`, no `open`). GUI-Owl-1.5 (Mobile-Agent-v3.5) sees a
conversation that keeps the latest five screenshots, the steps before them told by their
`Action:` lines; it answers `Action: ...` then the call, on a 0-1000 grid its code divides by
999. The release follows the model's name, the newest (1.5) when the name does not tell, and
--mobile-model-coordinates overrides the convention.
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any, ClassVar

from pytest_mobile_agent.agents.baselines.answers import section
from pytest_mobile_agent.agents.baselines.image_space import (
    ABSOLUTE,
    FACTOR,
    RELATIVE,
    Space,
    overridden,
    smart_resize,
)
from pytest_mobile_agent.agents.baselines.qwen_vl import ACTIONS, QwenVL, after_thinking, tool_schema
from pytest_mobile_agent.models import assistant, image_part, system
from pytest_mobile_agent.models.messages import decode, fit

if TYPE_CHECKING:
    from pytest_mobile_agent.actions import Action
    from pytest_mobile_agent.agents import Observation, TaskInfo

V3 = re.compile(r"gui-?owl-?(7b|32b)", re.I)  # Mobile-Agent-v3's releases
V15 = re.compile(r"gui-?owl-?1[._]?5", re.I)
V3_ACTIONS = tuple(a for a in ACTIONS if a not in ("key", "open"))
V3_MIN_PIXELS, V3_MAX_PIXELS = FACTOR * FACTOR, 12800 * FACTOR * FACTOR  # Mobile-Agent-v3's resize: 1 to 12800 tokens
GRID = 999  # Mobile-Agent-v3.5 maps a point back as x / 999 * width
HISTORY_IMAGES = 5  # screenshots the 1.5 conversation keeps


def release_for(model: str | None, override: str | None = None) -> tuple[str, str, str]:
    """(release, coordinate convention, why): the override sets the convention, the name the
    release, the newest (1.5) when it does not tell."""
    name = model or ""
    release = "v3" if V3.search(name) and not V15.search(name) else "1.5"
    if chosen := overridden(override):
        return release, *chosen
    if release == "v3":
        return release, ABSOLUTE, f"{name} is GUI-Owl of Mobile-Agent-v3 (pixels of the resized image)"
    if V15.search(name):
        return release, RELATIVE, f"{name} is GUI-Owl-1.5 (0-1000 grid, divided by {GRID})"
    return release, RELATIVE, f"{name or 'the model'} does not name its GUI-Owl release: the newest (1.5, 0-1000 grid)"


def action_line(text: str) -> str:
    """1.5's `Action: ...` line (after a Thinking model's reasoning), without the call; '' when none."""
    found = section(after_thinking(text), "Action")
    return found.split("<tool_call>", 1)[0].strip() if found else ""


class GUIOwl(QwenVL):
    name = "gui-owl"
    prompt_files: ClassVar[dict[str, str]] = {
        "v3": "qwen_vl_mobile.txt",  # the same system turn: the tool in Qwen's function-calling frame
        "v3_step": "gui_owl_step.txt",
        "1.5": "gui_owl_system.txt",
        "1.5_step": "gui_owl15_step.txt",
    }
    history_images = HISTORY_IMAGES

    def settings(self) -> dict[str, str]:
        override = self.client.config.coordinates if self.client is not None else None
        release, convention, why = release_for(self.model, override)
        return {
            "release": f"GUI-Owl {release}",
            "coordinates": f"{convention} ({why})",
            "screenshot side": f"{self.image_side} px",
        }

    def reset(self, task: TaskInfo) -> None:
        super().reset(task)
        override = self.client.config.coordinates if self.client is not None else None
        self.release, self.convention, self.why = release_for(self.model, override)
        self._images: list[dict[str, Any]] = []  # each step's screenshot part
        self._replies: list[str] = []  # each step's answer

    def screen_image(self, obs: Observation) -> tuple[dict[str, Any], Space]:
        """The screenshot fitted into --mobile-model-image-side; the space: that image as v3's
        resize makes it, or the grid."""
        img = decode(obs.screenshot)
        screen = obs.screen_size if obs.screen_size[0] and obs.screen_size[1] else img.size
        img, _ = fit(img, self.image_side)
        h, w = smart_resize(img.height, img.width, V3_MIN_PIXELS, V3_MAX_PIXELS)
        return image_part(img, self.image_side), Space(self.convention, (w, h), screen, img.size, GRID)

    def messages(self, obs: Observation) -> list[dict[str, Any]]:
        image, self.space = self.screen_image(obs)
        self._images.append(image)
        if self.release == "v3":
            return self._v3_messages(obs, image)
        return self._v15_messages(obs)

    def _v3_messages(self, obs: Observation, image: dict[str, Any]) -> list[dict[str, Any]]:
        w, h = self.space.image if self.convention == ABSOLUTE else (1000, 1000)
        tools = json.dumps(tool_schema(w, h, V3_ACTIONS), ensure_ascii=False)
        done = "".join(f"Step {t.number}: {' '.join(t.summary.split())}; " for t in self.history)
        text = self.prompt("v3_step").format(goal=obs.prompt, history=done)
        return [
            system(self.prompt("v3").format(tool=tools)),
            {"role": "user", "content": [{"type": "text", "text": text}, image]},
        ]

    def _v15_messages(self, obs: Observation) -> list[dict[str, Any]]:
        """The conversation: the screenshots of the latest steps with the answers to them; the
        steps before, as the `Action:` lines of their answers in the first user turn."""
        w, h = self.space.image if self.convention == ABSOLUTE else (1000, 1000)
        tools = json.dumps(tool_schema(w, h), ensure_ascii=False)
        first = max(0, len(self._images) - self.history_images)
        told = [f"Step{i + 1}: {self.history[i].summary}" for i in range(first)]
        text = self.prompt("1.5_step").format(goal=obs.prompt, history="\n".join(told) or "No previous action.")
        out: list[dict[str, Any]] = [system(self.prompt("1.5").format(tool=tools))]
        for i in range(first, len(self._images)):
            content = [self._images[i]] if i > first else [{"type": "text", "text": text}, self._images[i]]
            out.append({"role": "user", "content": content})
            if i < len(self._replies):
                out.append(assistant(self._replies[i]))
        return out

    def reasoning(self, text: str) -> str:
        m = re.search(r"<thinking>(.*?)</thinking>", text, re.S)
        return m.group(1).strip() if m else action_line(text) or super().reasoning(text)

    def summary_of(self, text: str) -> str:
        """What the next prompt tells of this step: v3's conclusion, 1.5's `Action:` line."""
        m = re.search(r"<conclusion>(.*?)(?:</conclusion>|$)", text, re.S)
        if m and m.group(1).strip():
            return m.group(1).strip()
        return action_line(text) or self.action_text(text)

    def step(self, obs: Observation) -> Action:
        action = super().step(obs)
        self._replies.append(self._last_text)
        return action

    def parse(self, text: str, obs: Observation) -> Action:
        self._last_text = text
        # Mobile-Agent's own code reads a `tap` as a `click`
        return super().parse(re.sub(r'("action"\s*:\s*")tap"', r'\1click"', text), obs)

    def episode_usage(self) -> dict[str, Any]:
        out = super().episode_usage()
        out["agent_settings"]["release"] = getattr(self, "release", None)
        return out
