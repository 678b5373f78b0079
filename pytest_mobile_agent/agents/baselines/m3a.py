"""M3A (AndroidWorld's multimodal agent): T3A's element list and JSON actions, plus the
screenshot with every element boxed and numbered (set-of-marks). Its step summaries look at the
marked screens before and after the action. One image per prompt (the marked screen), where
AndroidWorld also sends the raw one: the marks hide little, and it halves the image tokens.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from pytest_mobile_agent.agents.baselines.base import history_lines
from pytest_mobile_agent.agents.baselines.marks import draw_marks, screen_image
from pytest_mobile_agent.agents.baselines.t3a import T3A
from pytest_mobile_agent.models import image_part, system

if TYPE_CHECKING:
    from pytest_mobile_agent.agents import Observation


class M3A(T3A):
    name = "m3a"
    needs_screenshot = True
    prompt_files: ClassVar[dict[str, str]] = {
        "system": "m3a_system.txt",
        "step": "m3a_step.txt",
        "summary": "m3a_summary.txt",
    }

    def see(self, obs: Observation) -> None:
        if getattr(self, "_seen", None) is not obs:
            super().see(obs)
            img, scale = screen_image(obs.screenshot, self.image_side)
            self._image = image_part(draw_marks(img, self._elements, scale), self.image_side)

    def messages(self, obs: Observation) -> list[dict[str, Any]]:
        self.see(obs)
        text = self.prompt("step").format(goal=obs.prompt, history=history_lines(self.history), elements=self._listing)
        return [
            system(self.prompt("system")),
            {"role": "user", "content": [{"type": "text", "text": text}, self._image]},
        ]

    def summary_messages(self, last: dict[str, Any], obs: Observation) -> list[dict[str, Any]]:
        text = self.prompt("summary").format(goal=obs.prompt, action=last["action"], reason=last["reason"])
        return [{"role": "user", "content": [{"type": "text", "text": text}, last["image"], self._image]}]

    def step(self, obs: Observation) -> Any:
        action = super().step(obs)
        if self._last is not None:
            self._last["image"] = self._image
        return action
