"""T3A (AndroidWorld's text-only agent): the screen as a numbered list of UI elements from the
hierarchy, the answer a JSON action naming an element by number, and after each action a second
call that summarises what the action did; those summaries are the history the next prompt shows.
"""

from __future__ import annotations

import json
import time
from typing import TYPE_CHECKING, Any, ClassVar

from pytest_mobile_agent.actions import Action, Done, Key, Launch
from pytest_mobile_agent.agents.baselines.answers import AnswerError, first_json_object, section
from pytest_mobile_agent.agents.baselines.base import Asked, ModelAgent, history_lines
from pytest_mobile_agent.agents.baselines.elements import Element, by_number, element_action, selector_for, ui_elements
from pytest_mobile_agent.models import system, user

if TYPE_CHECKING:
    from pytest_mobile_agent.agents import Observation

SCROLLS = ("up", "down", "left", "right")


class T3A(ModelAgent):
    name = "t3a"
    prompt_files: ClassVar[dict[str, str]] = {
        "system": "t3a_system.txt",
        "step": "t3a_step.txt",
        "summary": "t3a_summary.txt",
    }
    first_number = 0  # element numbers start here (AndroidWorld counts from 0)
    summarize = True  # the per-step summary call (the "reflection" of AndroidWorld's agents)

    def reset(self, task: Any) -> None:
        super().reset(task)
        self._last: dict[str, Any] | None = None  # the previous step's screen and answer, for its summary

    # -- the screen ----------------------------------------------------------------------------
    def elements(self, obs: Observation) -> list[Element]:
        return ui_elements(obs.ui, obs.screen_size, self.first_number)

    def element_list(self, elements: list[Element]) -> str:
        return "\n".join(e.line() for e in elements) or "(no elements: the screen may still be loading)"

    # -- the prompt ----------------------------------------------------------------------------
    def see(self, obs: Observation) -> None:
        """Read the screen once per step (the summary and the action prompt both show it)."""
        if getattr(self, "_seen", None) is not obs:
            self._seen = obs
            self._elements = self.elements(obs)
            self._listing = self.element_list(self._elements)

    def messages(self, obs: Observation) -> list[dict[str, Any]]:
        self.see(obs)
        text = self.prompt("step").format(goal=obs.prompt, history=history_lines(self.history), elements=self._listing)
        return [system(self.prompt("system")), user(text)]

    def summary_messages(self, last: dict[str, Any], obs: Observation) -> list[dict[str, Any]]:
        text = self.prompt("summary").format(
            goal=obs.prompt, action=last["action"], reason=last["reason"], before=last["listing"], after=self._listing
        )
        return [user(text)]

    def before(self, obs: Observation) -> list[Asked]:
        """Summarise the previous action now that its result is on screen."""
        last, self._last = getattr(self, "_last", None), None
        if not self.summarize or last is None or not self.history:
            return []
        self.see(obs)
        messages = self.summary_messages(last, obs)
        t1, c1 = time.perf_counter(), time.thread_time()
        reply = self.client.chat(messages)  # type: ignore[union-attr]
        waited, cpu = time.perf_counter() - t1, time.thread_time() - c1  # the model's time, not the agent's
        summary = section(reply.text, "Summary") or reply.text.strip()
        self.history[-1].summary = " ".join(summary.split())[:400]
        return [Asked(reply, seconds=waited, cpu_s=cpu)]

    # -- the answer ----------------------------------------------------------------------------
    def reasoning(self, text: str) -> str:
        return section(text, "Reason") or text.strip()

    def action_text(self, text: str) -> str:
        try:
            return json.dumps(first_json_object(text), ensure_ascii=False)
        except AnswerError:
            return " ".join(text.split())[:120]

    def step(self, obs: Observation) -> Action:
        action = super().step(obs)
        self._last = {"action": self.history[-1].action, "reason": action.reasoning or "", "listing": self._listing}
        return action

    def parse(self, text: str, obs: Observation) -> Action:
        data = first_json_object(section(text, "Action") or text)
        kind = str(data.get("action_type", data.get("action", ""))).strip().lower()
        elements = self._elements
        if kind in ("click", "tap", "long_press"):
            return element_action(
                "long_press" if kind == "long_press" else "tap", by_number(elements, data.get("index")), obs.ui
            )
        if kind in ("input_text", "type"):
            if not isinstance(data.get("text"), str):
                raise AnswerError('input_text needs a "text" string')
            return element_action("type", by_number(elements, data.get("index")), obs.ui, data["text"])
        if kind == "scroll":
            direction = str(data.get("direction", "")).lower()
            if direction not in SCROLLS:
                raise AnswerError(f"scroll direction must be one of {', '.join(SCROLLS)}, not {direction!r}")
            if data.get("index") is not None:
                el = by_number(elements, data["index"])
                return Action("scroll", direction=direction, selector=selector_for(el.node, obs.ui))
            return Action("scroll", direction=direction)
        if kind == "navigate_back":
            return Key("back")
        if kind == "navigate_home":
            return Key("home")
        if kind == "keyboard_enter":
            return Key("enter")
        if kind == "open_app":
            return Launch(package_for(str(data.get("app_name", "")), obs))
        if kind == "wait":
            return Action("wait", seconds=1.0)
        if kind == "status":
            status = str(data.get("goal_status", "")).lower()
            if status == "complete":
                return Done(self.reasoning(text))
            if status == "infeasible":
                return self.give_up(self.reasoning(text))
            raise AnswerError(f"goal_status must be complete or infeasible, not {status!r}")
        raise AnswerError(f"unknown action_type {kind!r}")


def package_for(app_name: str, obs: Observation) -> str:
    """An app named by package, or by a name the task's app packages contain (Calculator ->
    com.simplemobiletools.calculator)."""
    name = app_name.strip()
    if not name:
        raise AnswerError("open_app needs an app_name")
    if "." in name and " " not in name:
        return name
    key = name.lower().replace(" ", "")
    for package in obs.task.apps:
        if key in package.lower().replace(".", ""):
            return package
    raise AnswerError(
        f"no app called {name!r} among this task's apps ({', '.join(obs.task.apps)}); give the package name"
    )
